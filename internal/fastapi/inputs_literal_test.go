package fastapi

import (
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
)

// literalDoc has query parameters as FastAPI 0.141 writes them for
// Literal[1, 2], Literal[True] | None, Literal[3], Literal["a", "b"],
// Literal["a", 1], list[Literal[1, 2]] and an int Enum class.
const literalDoc = `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/q":{"get":{"parameters":[
{"name":"ints","in":"query","schema":{"enum":[1,2],"type":"integer","default":1,"title":"Ints"}},
{"name":"flag","in":"query","schema":{"anyOf":[{"const":true,"type":"boolean"},{"type":"null"}],"title":"Flag"}},
{"name":"one","in":"query","required":true,"schema":{"const":3,"type":"integer","title":"One"}},
{"name":"strs","in":"query","schema":{"enum":["a","b"],"type":"string","title":"Strs"}},
{"name":"mixed","in":"query","schema":{"enum":["a",1],"title":"Mixed"}},
{"name":"many","in":"query","schema":{"type":"array","items":{"enum":[1,2],"type":"integer"},"title":"Many"}},
{"name":"level","in":"query","schema":{"$ref":"#/components/schemas/Level"}}],
"responses":{"200":{"description":"ok"}}}}},
"components":{"schemas":{"Level":{"enum":[1,2],"type":"integer","title":"Level"}}}}`

// TestNoStringAccepted: an inline Literal of non-strings accepts no value
// sent as text, and Check agrees: each of its values, written as a query
// string writes it, is refused (as FastAPI refuses ?ints=1 with
// literal_error). A string Literal, a mixed one and an Enum class accept
// some string.
func TestNoStringAccepted(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(literalDoc), "literal.json")
	if err != nil {
		t.Fatal(err)
	}
	item := sp.Doc.Paths.Value("/q")
	ins, err := CompileInputs(sp, item.Get, item)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		none     bool
		expected string
		tries    []string // sent values and whether Check accepts them
		accepts  bool
	}{
		{"ints", true, "1 or 2", []string{"1", "2"}, false},
		{"flag", true, "True", []string{"true", "True", "1"}, false},
		{"one", true, "3", []string{"3"}, false},
		{"many", true, "1 or 2", []string{"1"}, false},
		{"strs", false, "", []string{"a"}, true},
		{"mixed", false, "", []string{"a"}, true},
		{"level", false, "", []string{"1"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var in *Input
			for i := range ins.List {
				if ins.List[i].Name == tc.name {
					in = &ins.List[i]
				}
			}
			if in == nil {
				t.Fatalf("no input %s", tc.name)
			}
			expected, none := in.NoStringAccepted()
			if none != tc.none || expected != tc.expected {
				t.Errorf("NoStringAccepted() = %q, %v; want %q, %v", expected, none, tc.expected, tc.none)
			}
			for _, raw := range tc.tries {
				if _, item := in.Check(sp, raw, true); (item == nil) != tc.accepts {
					t.Errorf("Check(%q) = %+v; accepted want %v", raw, item, tc.accepts)
				}
			}
		})
	}
}
