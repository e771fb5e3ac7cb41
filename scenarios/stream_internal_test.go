package scenarios

import (
	"math/rand/v2"
	"testing"
)

// A list is changed the same wherever the mock's writes split it: in a
// string, after a backslash, between an element and its comma.
func TestBodyChangeAnySplit(t *testing.T) {
	t.Parallel()
	body := ` [ {"id":1,"a":"x\"y\\","n":[1,{"b":"]}"}],"c":null} , {"id":2,"a":"é\u00e9","n":[]},` +
		`{"id":3,"a":"{[","n":{"d":"\\\""}},{"id":4}]`
	p := &Passthrough{
		Set:   []member{{name: "a", value: []byte(`"set"`)}, {name: "z", value: []byte(`true`)}},
		Where: []member{{name: "n", value: []byte(`[]`)}},
	}
	cases := []*Passthrough{
		p,
		{Set: p.Set},
		{Set: p.Set, Offset: 1, Limit: 2},
		{Limit: -1},
	}
	for i, p := range cases {
		want, err := apply([]byte(body), p.Set, p.Where, p.Offset, p.Limit)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		rng := rand.New(rand.NewPCG(uint64(i), 1))
		for try := range 200 {
			var got []byte
			c := newBodyChange(p, func(b []byte) { got = append(got, b...) })
			for rest := []byte(body); len(rest) > 0; {
				n := 1 + rng.IntN(min(len(rest), 1+try%9))
				c.write(rest[:n])
				rest = rest[n:]
			}
			c.close()
			if string(got) != string(want) {
				t.Fatalf("case %d, split %d:\n got %s\nwant %s", i, try, got, want)
			}
		}
	}
	got, _ := apply([]byte(body), cases[1].Set, nil, 0, 0)
	if want := `[{"id":1,"a":"set","n":[1,{"b":"]}"}],"c":null,"z":true},{"id":2,"a":"set","n":[],"z":true},` +
		`{"id":3,"a":"set","n":{"d":"\\\""},"z":true},{"id":4,"a":"set","z":true}]`; string(got) != want {
		t.Errorf("set:\n got %s\nwant %s", got, want)
	}
	if got, _ := apply([]byte(body), nil, p.Where, 0, 0); string(got) != `[{"id":2,"a":"é\u00e9","n":[]}]` {
		t.Errorf("where: %s", got)
	}
}

// What is not a list or an object, and a list of scalars, go on as they
// are; an object is changed whole.
func TestBodyChangeOtherAnswers(t *testing.T) {
	t.Parallel()
	set := []member{{name: "a", value: []byte(`1`)}}
	for _, tc := range []struct{ body, want string }{
		{` "text"`, ` "text"`},
		{``, ``},
		{` {"b":2} `, `{"b":2,"a":1}`},
		{`{"a":"\"}"}`, `{"a":1}`},
		{`[1, "two",null ,[3]]`, `[1,"two",null,[3]]`},
	} {
		got, _ := apply([]byte(tc.body), set, nil, 0, 0)
		if string(got) != tc.want {
			t.Errorf("%q: got %q, want %q", tc.body, got, tc.want)
		}
	}
}
