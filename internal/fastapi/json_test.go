package fastapi

import (
	"encoding/json"
	"testing"
)

// Expected outputs are Python's json.dumps(v, ensure_ascii=False,
// separators=(",", ":")), which Starlette's JSONResponse uses.
func TestAppendStringLikePython(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"plain", `"plain"`},
		{`quo"te\back`, `"quo\"te\\back"`},
		{"<a href='x'>&</a>", `"<a href='x'>&</a>"`},
		{"tab\tnl\ncr\rbs\bff\f", `"tab\tnl\ncr\rbs\bff\f"`},
		{"\x00\x01\x1f\x7f", `"\u0000\u0001\u001f` + "\x7f" + `"`},
		{"Björk 久石 譲 🎬", `"Björk 久石 譲 🎬"`},
		{"line\u2028sep\u2029", "\"line\u2028sep\u2029\""},
		{"bad\xffutf8", "\"bad\ufffdutf8\""},
	} {
		if got := string(AppendString(nil, tc.in)); got != tc.want {
			t.Errorf("AppendString(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestAppendValue(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   any
		want string
	}{
		{nil, `null`},
		{[]any{"path", 3}, `["path",3]`},
		{[]KV{{"pattern", "^password$"}, {"n", int64(2)}}, `{"pattern":"^password$","n":2}`},
		{map[string]any{"b": 1.5, "a": true}, `{"a":true,"b":1.5}`},
		{1.0, `1.0`},
		{1e16, `1e+16`},
		{0.0001, `0.0001`},
		{0.00001, `1e-05`},
		{json.RawMessage(`{ "z" : [1, 2.50], "a":{} }`), `{"z":[1,2.50],"a":{}}`},
	} {
		if got := string(AppendValue(nil, tc.in)); got != tc.want {
			t.Errorf("AppendValue(%#v) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestAppendCompactRejectsBadJSON(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`{"a":}`, `[1,2`, `{"a":1} {"b":2}`, ``} {
		if _, err := AppendCompact(nil, []byte(in)); err == nil {
			t.Errorf("AppendCompact(%q) accepted bad JSON", in)
		}
	}
}

func TestConstraintMessages(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		keyword string
		limit   any
		want    string
	}{
		{"pattern", "^password$", `{"type":"string_pattern_mismatch","loc":["body","f"],"msg":"String should match pattern '^password$'","input":"x","ctx":{"pattern":"^password$"}}`},
		{"minLength", uint64(1), `{"type":"string_too_short","loc":["body","f"],"msg":"String should have at least 1 character","input":"x","ctx":{"min_length":1}}`},
		{"maxLength", uint64(3), `{"type":"string_too_long","loc":["body","f"],"msg":"String should have at most 3 characters","input":"x","ctx":{"max_length":3}}`},
		{"minimum", 1.0, `{"type":"greater_than_equal","loc":["body","f"],"msg":"Input should be greater than or equal to 1","input":"x","ctx":{"ge":1.0}}`},
		{"enum", []any{"a", "b", "c"}, `{"type":"enum","loc":["body","f"],"msg":"Input should be 'a', 'b' or 'c'","input":"x","ctx":{"expected":"'a', 'b' or 'c'"}}`},
	} {
		it, ok := Constraint(tc.keyword, tc.limit, "x", "body", "f")
		if !ok {
			t.Errorf("%s: not mapped", tc.keyword)
			continue
		}
		if got := string(AppendItem(nil, it)); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.keyword, got, tc.want)
		}
	}
	if _, ok := Constraint("uniqueItems", true, "x"); ok {
		t.Error("an unknown keyword must not be mapped")
	}
}
