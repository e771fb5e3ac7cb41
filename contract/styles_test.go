package contract_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// The runner sends the parameters of a document not FastAPI's as the
// document serializes them (the mock's document of every style): an
// object parameter gets a valid value from its schema, so a required one
// has its positive case, written as its style says (deepObject keys, an
// exploded form's member keys, "k,v" pairs, JSON for content); a path
// parameter carries its label or matrix prefix; a list is sent once with
// two items, joined or repeated as its style (a form field's encoding)
// says, a file list as a file part per item; a form's object field is a
// JSON part; each negative case breaks one member, sent the same way.
// The mock, which reads every style, finds no fault.
func TestStyledParametersAgainstTheMock(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../mock/testdata/openapi/styles.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(data, "styles.yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: sp})
	if err != nil {
		t.Fatal(err)
	}
	report := run(t, srv, contract.Config{Spec: sp, Examples: 20})
	if f := failed(report); len(f) > 0 {
		t.Errorf("%d failures on the mock:\n%s", len(f), strings.Join(f, "\n"))
	}
	for _, n := range report.Notes {
		if strings.Contains(n, "no positive case") {
			t.Errorf("note: %s", n)
		}
	}
	positive := map[string][]contract.Request{}
	negative := map[string][]any{}
	for _, res := range report.Results {
		c := res.Case
		switch c.Kind {
		case contract.Positive:
			positive[c.Path] = append(positive[c.Path], c.Request)
		case contract.Negative:
			negative[c.Path+" "+c.Name] = c.Field
		}
	}
	has := func(path string, ok func(r contract.Request) bool) bool {
		return slices.ContainsFunc(positive[path], ok)
	}
	urlHas := func(s string) func(r contract.Request) bool {
		return func(r contract.Request) bool { return strings.Contains(r.URL, s) }
	}
	checks := []struct {
		what string
		ok   bool
	}{
		{"GET /objects sends filter's members as keys of their own (form, exploded)", has("/objects", func(r contract.Request) bool {
			return strings.Contains(r.URL, "name=") && !strings.Contains(r.URL, "filter=")
		})},
		{"GET /deep sends search[member] keys (deepObject)", has("/deep", urlHas("search%5B"))},
		{"GET /inline sends color as k,v pairs (form, not exploded)", has("/inline", urlHas("color=G%2C"))},
		{"GET /content sends where as JSON", has("/content", urlHas("where=%7B%22lat%22%3A"))},
		{"GET /label/{ids} writes its label prefix", has("/label/{ids}", urlHas("/label/."))},
		{"GET /matrix/{id} writes its matrix prefix", has("/matrix/{id}", urlHas("/matrix/;id="))},
		{"POST /forms sends its object field as JSON", has("/forms", func(r contract.Request) bool {
			return strings.Contains(r.Body, "meta=%7B%22a%22%3A")
		})},
		{"POST /uploads sends its object field as a JSON part", has("/uploads", func(r contract.Request) bool {
			return strings.Contains(r.Body, "name=\"meta\"\r\nContent-Type: application/json\r\n\r\n{")
		})},
		// A list of a document not FastAPI's is sent once with two
		// items, written as its style says.
		{"GET /arrays repeats exploded's key", has("/arrays", urlHas("exploded=album&exploded=track"))},
		{"GET /arrays joins csv with commas (form, not exploded)", has("/arrays", urlHas("csv=album%2Ctrack"))},
		{"GET /arrays joins spaced with spaces", has("/arrays", urlHas("spaced=1+1"))},
		{"GET /arrays joins piped with pipes", has("/arrays", urlHas("piped=1%7C1"))},
		{"GET /arrays joins X-Ids with commas (simple)", has("/arrays", func(r contract.Request) bool {
			return strings.Count(r.Header.Get("X-Ids"), ",") == 1
		})},
		{"GET /arrays joins the flavours cookie with commas", has("/arrays", func(r contract.Request) bool {
			return strings.Contains(r.Header.Get("Cookie"), "flavours=a,b")
		})},
		{"POST /forms joins ids as its encoding says (form, not exploded)", has("/forms", func(r contract.Request) bool {
			return strings.Contains(r.Body, "ids=1%2C1")
		})},
		{"POST /forms repeats tags' field", has("/forms", func(r contract.Request) bool {
			return strings.Contains(r.Body, "tags=moviemock&tags=moviemock")
		})},
		{"POST /uploads sends each of files as a file part", has("/uploads", func(r contract.Request) bool {
			return strings.Count(r.Body, `name="files"; filename=`) == 2
		})},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: no such positive case", c.what)
		}
	}
	for name, loc := range map[string][]any{
		`/objects filter.age="moviemock"`: {"query", "filter", "age"},
		`/objects filter.name missing`:    {"query", "filter", "name"},
		`/uploads meta.a="moviemock"`:     {"body", "meta", "a"},
	} {
		if got, ok := negative[name]; !ok || !slices.Equal(got, loc) {
			t.Errorf("negative %s: got %v (present %v), want one expecting %v", name, got, ok, loc)
		}
	}
	// The member names of /deep's generated value depend on the seed:
	// any member past its maxLength will do.
	if !slices.ContainsFunc(keys(negative), func(k string) bool {
		return strings.HasPrefix(k, "/deep search.") && strings.HasSuffix(k, `="xxxx"`)
	}) {
		t.Error("no negative case of GET /deep sends a member past its maxLength")
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// matrixPetsDoc is a collection whose records are addressed by a path
// parameter of style matrix.
const matrixPetsDoc = `openapi: 3.0.3
info: {title: pets, version: "1"}
components:
  schemas:
    Pet:
      type: object
      required: [id, name]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string, maxLength: 20}
    NewPet:
      type: object
      required: [name]
      properties:
        name: {type: string, maxLength: 20}
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200": {description: OK, content: {application/json: {schema: {type: array, items: {$ref: "#/components/schemas/Pet"}}}}}
    post:
      operationId: createPet
      requestBody: {required: true, content: {application/json: {schema: {$ref: "#/components/schemas/NewPet"}}}}
      responses:
        "201": {description: created, content: {application/json: {schema: {$ref: "#/components/schemas/Pet"}}}}
  /pets/{id}:
    parameters:
      - {name: id, in: path, required: true, style: matrix, schema: {type: integer}}
    get:
      operationId: getPet
      responses:
        "200": {description: OK, content: {application/json: {schema: {$ref: "#/components/schemas/Pet"}}}}
        "404": {description: none}
    delete:
      operationId: deletePet
      responses:
        "204": {description: deleted}
        "404": {description: none}
`

// The sequences address a record by its path parameter as its style
// writes it too: /pets/;id=1, not /pets/1.
func TestSequencesWriteThePathStyle(t *testing.T) {
	t.Parallel()
	report := runOnMock(t, matrixPetsDoc, "pets.yaml", contract.Config{})
	if f := failed(report); len(f) > 0 {
		t.Errorf("%d failures on the mock:\n%s", len(f), strings.Join(f, "\n"))
	}
	var styled, bare []string
	for _, res := range report.Results {
		c := res.Case
		if c.Path != "/pets/{id}" {
			continue
		}
		if strings.Contains(c.Request.URL, "/pets/;id=") {
			styled = append(styled, string(c.Kind)+" "+c.Name)
		} else {
			bare = append(bare, string(c.Kind)+" "+c.Name+" "+c.Request.URL)
		}
	}
	if len(bare) > 0 {
		t.Errorf("sent without the matrix prefix:\n%s", strings.Join(bare, "\n"))
	}
	if !slices.ContainsFunc(styled, func(s string) bool { return !strings.HasPrefix(s, "positive") && !strings.HasPrefix(s, "negative") }) {
		t.Errorf("no sequence step reached /pets/{id}: %q", styled)
	}
}

// A required exploded form object that admits any member is not missing
// while the request carries a query key no other parameter declares (the
// member of another object parameter): the runner sends no "missing"
// case the reader would take as present. One that admits only its own
// members is missing without them.
func TestObjectMissingOnlyWhenAbsent(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/cats":{"get":{"operationId":"cats","parameters":[
 {"name":"filter","in":"query","required":true,"schema":{"type":"object","additionalProperties":%s,"properties":{"name":{"type":"string"}}}},
 {"name":"raw","in":"query","required":true,"schema":{"type":"object","required":["foo"],"properties":{"foo":{"type":"string"}}}}],
 "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"object"}}}},"400":{"description":"bad"}}}}}}`
	for _, tc := range []struct {
		additional  string
		wantMissing bool
	}{{"true", false}, {"false", true}} {
		t.Run("additionalProperties "+tc.additional, func(t *testing.T) {
			t.Parallel()
			report := runOnMock(t, fmt.Sprintf(doc, tc.additional), "openapi.json", contract.Config{})
			missing := false
			for _, res := range report.Results {
				missing = missing || res.Case.Name == "filter missing"
			}
			if missing != tc.wantMissing {
				t.Errorf(`a "filter missing" case: %v, want %v`, missing, tc.wantMissing)
			}
			if report.Failures() > 0 {
				t.Errorf("the mock fails: %s", report.SummaryLine())
			}
		})
	}
}

// An optional object parameter has a positive case that sends it whole,
// written as its style says (a deepObject's filter[name]=…, an exploded
// form's member keys), and the mock of the document accepts it.
func TestOptionalObjectPositive(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/cats":{"get":{"operationId":"cats","parameters":[
 {"name":"filter","in":"query","style":"deepObject","explode":true,"schema":{"type":"object","required":["name"],"properties":{"name":{"type":"string","example":"tom"}}}},
 {"name":"page","in":"query","schema":{"type":"object","additionalProperties":false,"required":["size"],"properties":{"size":{"type":"integer","minimum":1,"example":5}}}}],
 "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"object"}}}},"400":{"description":"bad"}}}}}}`
	report := runOnMock(t, doc, "openapi.json", contract.Config{})
	sent := false
	for _, res := range report.Results {
		u := res.Case.Request.URL
		if res.Case.Kind == contract.Positive && strings.Contains(u, "filter%5Bname%5D=") && strings.Contains(u, "size=") {
			sent = true
		}
	}
	if !sent {
		t.Error("no positive case sends the optional objects filter and page")
	}
	if report.Failures() > 0 {
		t.Errorf("the mock fails: %s", report.SummaryLine())
	}
}

// runOnMock runs the runner, configured as cfg, against the mock of the
// document doc, read as the file name says.
func runOnMock(t *testing.T, doc, name string, cfg contract.Config) *contract.Report {
	t.Helper()
	sp, err := spec.Load([]byte(doc), name)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: sp})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Spec = sp
	return run(t, srv, cfg)
}
