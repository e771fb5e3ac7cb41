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

// A JSON body on an operation declaring no 422 is left to the endpoint
// (Raw), as FastAPI does; with validateAll (the plain-OpenAPI profile) it
// is validated.
func TestCompileInputsForValidateAll(t *testing.T) {
	sp, err := spec.Load([]byte(`openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /x:
    post:
      requestBody: {content: {application/json: {schema: {type: object, required: [a], properties: {a: {type: string}}}}}}
      responses:
        "200": {description: OK}
`), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	item := sp.Doc.Paths.Value("/x")
	for _, validateAll := range []bool{false, true} {
		ins, err := CompileInputsFor(sp, item.Post, item, validateAll)
		if err != nil {
			t.Fatal(err)
		}
		if (ins.JSON != nil) != validateAll || (ins.Raw != nil) == validateAll {
			t.Errorf("validateAll %v: JSON %v, Raw %v", validateAll, ins.JSON != nil, ins.Raw != nil)
		}
	}
}
