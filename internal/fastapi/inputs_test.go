package fastapi

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
)

// TestFormattedQueryMatchesFastAPI replays query values recorded from the
// real FastAPI (testdata/query_formats_app.py) for parameters whose string
// format pydantic validates: HttpUrl, AnyUrl, date, datetime, time and
// timedelta. A value FastAPI accepted must pass; a refused one must give
// the same 422 body byte for byte.
func TestFormattedQueryMatchesFastAPI(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("testdata/query_formats_openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(raw, "query_formats_openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	item := sp.Doc.Paths.Value("/q")
	ins, err := CompileInputs(sp, item.Get, item)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*Input{}
	for i := range ins.List {
		byName[ins.List[i].Name] = &ins.List[i]
	}
	data, err := os.ReadFile("testdata/query_formats_cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Param, Value, Body string
		Status             int
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Param+"="+c.Value, func(t *testing.T) {
			t.Parallel()
			in := byName[c.Param]
			if in == nil || in.Format == "" {
				t.Fatalf("parameter %s not compiled with its format", c.Param)
			}
			_, item := in.Check(sp, c.Value, true)
			got := ""
			if item != nil {
				got = string(AppendValidationBody(nil, []ErrorItem{*item}))
			}
			if got != c.Body {
				t.Errorf("got  %s\nwant %s", got, c.Body)
			}
		})
	}
}
