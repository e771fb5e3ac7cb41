package fastapi

import (
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
)

// A parameter's pattern is matched as pydantic matches it: \d, \w and \s
// are Unicode (FastAPI 0.141.1 with pydantic 2.13 answers 404, not 422,
// for GET /movies/tt١٢٣٤٥٦٧ of a path parameter with pattern ^tt\d{7,8}$).
func TestInputPatternUnicode(t *testing.T) {
	t.Parallel()
	doc := `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/movies/{movie_id}":{"get":{
	"parameters":[{"name":"movie_id","in":"path","required":true,"schema":{"type":"string","pattern":"^tt\\d{7,8}$","maxLength":12}},
	              {"name":"q","in":"query","schema":{"type":"string","pattern":"^\\w+$"}}],
	"responses":{"200":{"description":"ok"}}}}}}`
	sp, err := spec.Load([]byte(doc), "doc.json")
	if err != nil {
		t.Fatal(err)
	}
	item := sp.Doc.Paths.Value("/movies/{movie_id}")
	ins, err := CompileInputs(sp, item.Get, item)
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]*Input{}
	for i := range ins.List {
		in[ins.List[i].Name] = &ins.List[i]
	}
	tests := []struct {
		name, input, raw, wantType string // wantType "": accepted
	}{
		{"ascii digits", "movie_id", "tt0137523", ""},
		{"arabic-indic digits", "movie_id", "tt١٢٣٤٥٦٧", ""},
		{"too few digits", "movie_id", "tt00", "string_pattern_mismatch"},
		{"letters", "movie_id", "ttabcdefg", "string_pattern_mismatch"},
		{"too long first", "movie_id", "tt0123456789012", "string_too_long"},
		{"unicode word", "q", "zoë", ""},
		{"not a word", "q", "a b", "string_pattern_mismatch"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, item := in[tc.input].Check(sp, tc.raw, true)
			got := ""
			if item != nil {
				got = item.Type
			}
			if got != tc.wantType {
				t.Errorf("Check(%q) = %q, want %q (%+v)", tc.raw, got, tc.wantType, item)
			}
		})
	}
}
