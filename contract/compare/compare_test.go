package compare_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract/compare"
	"github.com/moviemock/moviemock/internal/spec"
)

// doc is a small FastAPI-shaped OpenAPI 3.1 document: GET /items answers
// a list of Item, POST /items takes an ItemIn and answers an Item, DELETE
// /items/{item_id} and GET /items/{item_id} exist unless left out.
type doc struct {
	version            string
	item, itemRequired string // Item's properties and required list (JSON)
	in, inRequired     string // ItemIn's
	params             string // GET /items' parameters
	listID             string // GET /items' operationId
	security           string // GET /items' security requirements (JSON list)
	createStatus       string // POST /items' success status (default 200)
	noDelete           bool
	extraSchemas       string
	// plain leaves out FastAPI's marks ("Successful Response"), so the
	// document is read by its own words, and POST /items declares its 400.
	plain bool
}

func (d doc) bytes() []byte {
	if d.version == "" {
		d.version = "0.1.0"
	}
	if d.item == "" {
		d.item = `"id": {"type": "integer", "title": "Id"}, "title": {"type": "string", "title": "Title"}, "rating": {"type": "number", "title": "Rating", "default": 0}`
		d.itemRequired = `"id", "title"`
	}
	if d.in == "" {
		d.in = `"title": {"type": "string", "title": "Title"}`
		d.inRequired = `"title"`
	}
	if d.params == "" {
		d.params = `{"name": "limit", "in": "query", "required": false, "schema": {"type": "integer", "default": 10, "title": "Limit"}}`
	}
	if d.listID == "" {
		d.listID = "list_items_items_get"
	}
	security := ""
	if d.security != "" {
		security = `"security": ` + d.security + `, `
	}
	ref := func(name string) string { return `{"$ref": "#/components/schemas/` + name + `"}` }
	if d.createStatus == "" {
		d.createStatus = "200"
	}
	okWith := func(status, schema string) string {
		return `{"` + status + `": {"description": "Successful Response", "content": {"application/json": {"schema": ` + schema + `}}}}`
	}
	ok := func(schema string) string { return okWith("200", schema) }
	del := `"delete": {"operationId": "delete_item", "parameters": [{"name": "item_id", "in": "path", "required": true, "schema": {"type": "integer"}}], "responses": {"200": {"description": "Successful Response"}}},`
	if d.noDelete {
		del = ""
	}
	created := okWith(d.createStatus, ref("Item"))
	if d.plain {
		created = strings.Replace(created, `{"`, `{"400": {"description": "Bad Request"}, "`, 1)
	}
	out := []byte(`{"openapi": "3.1.0", "info": {"title": "Items", "version": "` + d.version + `"},
"paths": {
 "/items": {
  "get": {` + security + `"operationId": "` + d.listID + `", "parameters": [` + d.params + `], "responses": ` + ok(`{"type": "array", "items": `+ref("Item")+`}`) + `},
  "post": {"operationId": "create_item", "requestBody": {"required": true, "content": {"application/json": {"schema": ` + ref("ItemIn") + `}}}, "responses": ` + created + `}
 },
 "/items/{item_id}": {` + del + `
  "get": {"operationId": "get_item", "parameters": [{"name": "item_id", "in": "path", "required": true, "schema": {"type": "integer"}}], "responses": ` + ok(ref("Item")) + `}
 }
},
"components": {"securitySchemes": {"OAuth2PasswordBearer": {"type": "oauth2", "flows": {"password": {"scopes": {}, "tokenUrl": "token"}}}, "HTTPBasic": {"type": "http", "scheme": "basic"}},
"schemas": {` + d.extraSchemas + `
 "Item": {"type": "object", "title": "Item", "properties": {` + d.item + `}, "required": [` + d.itemRequired + `]},
 "ItemIn": {"type": "object", "title": "ItemIn", "properties": {` + d.in + `}, "required": [` + d.inRequired + `]}
}}}`)
	if d.plain {
		out = bytes.ReplaceAll(out, []byte(`"Successful Response"`), []byte(`"OK"`))
	}
	return out
}

// compareDocs compares two documents and lists their changes by line.
func compareDocs(t *testing.T, old, new doc) (*compare.Report, []string) {
	t.Helper()
	r, err := compare.Compare(old.bytes(), new.bytes(), "old.json", "new.json", compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range r.Changes {
		got = append(got, line(c))
	}
	return r, got
}

// line is a change as the tests compare it.
func line(c compare.Change) string {
	return fmt.Sprintf("%s %s %s | %s", c.Level, c.ID, c.Operation(), c.Where)
}

func TestCompareReadsFastAPI(t *testing.T) {
	t.Parallel()
	base := doc{}
	author := `"Author": {"type": "object", "title": "Author", "properties": {"name": {"type": "string"}}, "required": ["name"]},`
	withAuthor := doc{extraSchemas: author,
		item: `"id": {"type": "integer"}, "author": {"$ref": "#/components/schemas/Author"}`, itemRequired: `"id", "author"`}
	tests := []struct {
		name     string
		old, new doc
		want     []string
		dropped  int
		why      string // in the first change's Why
	}{
		{name: "no change", old: base, new: base},
		{
			name: "response field made nullable: FastAPI's Optional is one change",
			old:  base,
			new: doc{item: `"id": {"type": "integer", "title": "Id"}, "title": {"anyOf": [{"type": "string"}, {"type": "null"}], "title": "Title"}, "rating": {"type": "number", "title": "Rating", "default": 0}`,
				itemRequired: `"id", "title"`},
			want: []string{
				"breaking response-property-became-nullable GET /items | response 200 body: [].title",
				"breaking response-property-became-nullable POST /items | response 200 body: title",
				"breaking response-property-became-nullable GET /items/{item_id} | response 200 body: title",
			},
			dropped: 1,
			why:     "null",
		},
		{
			name: "Optional with a default: made nullable, the required it left is no change",
			old:  base,
			new: doc{item: `"id": {"type": "integer", "title": "Id"}, "title": {"anyOf": [{"type": "string"}, {"type": "null"}], "title": "Title", "default": null}, "rating": {"type": "number", "title": "Rating", "default": 0}`,
				itemRequired: `"id"`},
			want: []string{
				"breaking response-property-became-nullable GET /items | response 200 body: [].title",
				"breaking response-property-became-nullable POST /items | response 200 body: title",
				"breaking response-property-became-nullable GET /items/{item_id} | response 200 body: title",
			},
			dropped: 1,
		},
		{
			name: "a nested model made Optional is made nullable, not a type change nor its fields removed",
			old:  withAuthor,
			new: doc{extraSchemas: author,
				item: `"id": {"type": "integer"}, "author": {"anyOf": [{"$ref": "#/components/schemas/Author"}, {"type": "null"}]}`, itemRequired: `"id", "author"`},
			want: []string{
				"breaking response-property-became-nullable GET /items | response 200 body: [].author",
				"breaking response-property-became-nullable POST /items | response 200 body: author",
				"breaking response-property-became-nullable GET /items/{item_id} | response 200 body: author",
			},
			dropped: 1,
		},
		{
			name: "no longer nullable in a response is info",
			old: doc{extraSchemas: author,
				item: `"id": {"type": "integer"}, "author": {"anyOf": [{"$ref": "#/components/schemas/Author"}, {"type": "null"}]}`, itemRequired: `"id", "author"`},
			new: withAuthor,
			want: []string{
				"info response-property-became-not-nullable GET /items | response 200 body: [].author",
				"info response-property-became-not-nullable POST /items | response 200 body: author",
				"info response-property-became-not-nullable GET /items/{item_id} | response 200 body: author",
			},
		},
		{
			name: "a response field with a default removed is breaking: FastAPI sent it",
			old:  base,
			new:  doc{item: `"id": {"type": "integer", "title": "Id"}, "title": {"type": "string", "title": "Title"}`, itemRequired: `"id", "title"`},
			want: []string{
				"breaking response-optional-property-removed GET /items | response 200 body: [].rating",
				"breaking response-optional-property-removed POST /items | response 200 body: rating",
				"breaking response-optional-property-removed GET /items/{item_id} | response 200 body: rating",
			},
			why: "FastAPI sends every field",
		},
		{
			name: "a response field given a default leaves required, FastAPI still sends it",
			old:  base,
			new: doc{item: `"id": {"type": "integer", "title": "Id"}, "title": {"type": "string", "title": "Title", "default": "x"}, "rating": {"type": "number", "title": "Rating", "default": 0}`,
				itemRequired: `"id"`},
			want: []string{
				"info response-property-became-optional GET /items | response 200 body: [].title",
				"info response-property-default-value-added GET /items | response 200 body: [].title",
				"info response-property-became-optional POST /items | response 200 body: title",
				"info response-property-default-value-added POST /items | response 200 body: title",
				"info response-property-became-optional GET /items/{item_id} | response 200 body: title",
				"info response-property-default-value-added GET /items/{item_id} | response 200 body: title",
			},
			dropped: 1, // oasdiff judged became-optional breaking, and the version not bumped
			why:     "FastAPI still sends",
		},
		{
			name: "a request field made nullable accepts more: info",
			old:  base,
			new:  doc{in: `"title": {"anyOf": [{"type": "string"}, {"type": "null"}], "title": "Title"}`, inRequired: `"title"`},
			want: []string{"info request-property-became-nullable POST /items | request body: title"},
		},
		{
			name:    "a request field no longer nullable refuses null: breaking",
			old:     doc{in: `"title": {"anyOf": [{"type": "string"}, {"type": "null"}], "title": "Title"}`, inRequired: `"title"`},
			new:     base,
			want:    []string{"breaking request-property-became-not-nullable POST /items | request body: title"},
			dropped: 1,
			why:     "422",
		},
		{
			name:    "a new required body field",
			old:     base,
			new:     doc{in: `"title": {"type": "string"}, "priority": {"type": "integer"}`, inRequired: `"title", "priority"`},
			want:    []string{"breaking new-required-request-property POST /items | request body: priority"},
			dropped: 1,
			why:     "422",
		},
		{
			name: "a query parameter renamed",
			old:  base,
			new:  doc{params: `{"name": "size", "in": "query", "required": false, "schema": {"type": "integer", "default": 10}}`},
			want: []string{
				"breaking request-parameter-removed GET /items | query parameter limit",
				"info new-optional-request-parameter GET /items | query parameter size",
			},
			why: "renamed to size?",
		},
		{
			name: "a deprecated query parameter removed: FastAPI ignores it as any other",
			old:  doc{params: `{"name": "q", "in": "query", "required": false, "deprecated": true, "schema": {"type": "string", "pattern": "^fixed$"}}`},
			new:  doc{params: `{"name": "q2", "in": "query", "required": false, "schema": {"type": "string"}}`},
			want: []string{
				"breaking request-parameter-removed-with-deprecation GET /items | query parameter q",
				"info new-optional-request-parameter GET /items | query parameter q2",
			},
			why: "renamed to q2?",
		},
		{
			name: "a deprecated header removed",
			old:  doc{params: `{"name": "x-token", "in": "header", "required": false, "deprecated": true, "schema": {"type": "string"}}`},
			new:  doc{params: `{"name": "limit", "in": "query", "required": false, "schema": {"type": "integer", "default": 10}}`},
			want: []string{
				"breaking request-parameter-removed-with-deprecation GET /items | header parameter x-token",
				"info new-optional-request-parameter GET /items | query parameter limit",
			},
			why: "as if it had not",
		},
		{
			name:    "an operation removed while its path remains: 405",
			old:     base,
			new:     doc{noDelete: true},
			want:    []string{"breaking api-removed-without-deprecation DELETE /items/{item_id} | "},
			dropped: 1,
			why:     "405",
		},
		{
			name: "an operationId changed renames a generated client's function",
			old:  base,
			new:  doc{listID: "list_all_items_get"},
			want: []string{"warning api-operation-id-removed GET /items | "},
			why:  "operationId",
		},
		{
			name:    "null taken from a query parameter is no change on the wire",
			old:     doc{params: `{"name": "q", "in": "query", "required": false, "schema": {"anyOf": [{"type": "string"}, {"type": "null"}]}}`},
			new:     doc{params: `{"name": "q", "in": "query", "required": false, "schema": {"type": "string"}}`},
			want:    []string{"info request-parameter-became-not-nullable GET /items | query parameter q"},
			dropped: 1,
			why:     "never JSON null",
		},
		{
			name: "a security scheme added beside another: FastAPI requires both",
			old:  doc{security: `[{"OAuth2PasswordBearer": []}]`},
			new:  doc{security: `[{"OAuth2PasswordBearer": []}, {"HTTPBasic": []}]`},
			want: []string{"breaking api-security-added GET /items | security"},
			why:  "every security dependency",
		},
		{
			name:    "a security scheme removed beside another: one credential fewer",
			old:     doc{security: `[{"OAuth2PasswordBearer": []}, {"HTTPBasic": []}]`},
			new:     doc{security: `[{"OAuth2PasswordBearer": []}]`},
			want:    []string{"info api-security-removed GET /items | security"},
			dropped: 1,
		},
		{
			name:    "security on an open operation",
			old:     base,
			new:     doc{security: `[{"OAuth2PasswordBearer": []}]`},
			want:    []string{"breaking api-security-anonymous-access-removed GET /items | security"},
			dropped: 1,
			why:     "401",
		},
		{
			name: "an object field that became a string takes its fields with it",
			old:  withAuthor,
			new:  doc{item: `"id": {"type": "integer"}, "author": {"type": "string"}`, itemRequired: `"id", "author"`},
			want: []string{
				"info api-schema-removed  | ",
				"breaking response-property-type-changed GET /items | response 200 body: [].author",
				"breaking response-property-type-changed POST /items | response 200 body: author",
				"breaking response-property-type-changed GET /items/{item_id} | response 200 body: author",
			},
			dropped: 1,
		},
		{
			name: "a field inside an alternative is named by its field path",
			old: doc{extraSchemas: `"Image": {"type": "object", "properties": {"url": {"type": "string"}}, "required": ["url"]},`,
				in: `"image": {"anyOf": [{"$ref": "#/components/schemas/Image"}, {"type": "null"}]}`, inRequired: ``},
			new: doc{extraSchemas: `"Image": {"type": "object", "properties": {"url": {"type": "string", "format": "uri"}}, "required": ["url"]},`,
				in: `"image": {"anyOf": [{"$ref": "#/components/schemas/Image"}, {"type": "null"}]}`, inRequired: ``},
			want:    []string{"breaking request-property-type-changed POST /items | request body: image.url"},
			dropped: 1,
		},
		{
			name: "a parameter's default changed: a call leaving it out gets another answer",
			old:  base,
			new:  doc{params: `{"name": "limit", "in": "query", "required": false, "schema": {"type": "integer", "default": 5, "title": "Limit"}}`},
			want: []string{"warning request-parameter-default-value-changed GET /items | query parameter limit"},
			why:  "new default",
		},
		{
			name: "an Optional int that became a float: one change in answers, none in requests",
			old: doc{item: `"id": {"type": "integer"}, "runtime": {"anyOf": [{"type": "integer"}, {"type": "null"}]}`, itemRequired: `"id", "runtime"`,
				in: `"runtime": {"anyOf": [{"type": "integer"}, {"type": "null"}]}`, inRequired: `"runtime"`},
			new: doc{item: `"id": {"type": "integer"}, "runtime": {"anyOf": [{"type": "number"}, {"type": "null"}]}`, itemRequired: `"id", "runtime"`,
				in: `"runtime": {"anyOf": [{"type": "number"}, {"type": "null"}]}`, inRequired: `"runtime"`},
			want: []string{
				"breaking response-property-type-generalized GET /items | response 200 body: [].runtime",
				"breaking response-property-type-generalized POST /items | response 200 body: runtime",
				"info request-property-type-generalized POST /items | request body: runtime",
				"breaking response-property-type-generalized GET /items/{item_id} | response 200 body: runtime",
			},
			dropped: 1,
		},
		{
			name:    "a request date that became a datetime: pydantic takes a date for a datetime",
			old:     doc{in: `"due": {"type": "string", "format": "date"}`, inRequired: `"due"`},
			new:     doc{in: `"due": {"type": "string", "format": "date-time"}`, inRequired: `"due"`},
			want:    []string{"info request-property-type-changed POST /items | request body: due"},
			dropped: 1,
			why:     "pydantic",
		},
		{
			name: "status_code=201 where it was 200",
			old:  base,
			new:  doc{createStatus: "201"},
			want: []string{
				"breaking response-success-status-removed POST /items | response 200",
				"info response-success-status-added POST /items | response 201",
			},
			dropped: 1,
			why:     "the answer is now 201",
		},
		{
			name: "the version alone is no change",
			old:  base,
			new:  doc{version: "0.2.0"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, got := compareDocs(t, tc.old, tc.new)
			if !slices.Equal(got, tc.want) {
				t.Errorf("changes:\n got  %s\n want %s", strings.Join(got, "\n      "), strings.Join(tc.want, "\n      "))
				for _, c := range r.Changes {
					t.Logf("%s: %s (why: %s)", c.ID, c.Text, c.Why)
				}
			}
			if r.Dropped != tc.dropped {
				t.Errorf("dropped %d, want %d", r.Dropped, tc.dropped)
			}
			if tc.why != "" && len(r.Changes) > 0 && !strings.Contains(r.Changes[0].Why, tc.why) {
				t.Errorf("why %q, want it to say %q", r.Changes[0].Why, tc.why)
			}
			for _, c := range r.Changes {
				if c.Why == "" || c.Text == "" {
					t.Errorf("%s: a change without its why or text: %+v", c.ID, c)
				}
			}
		})
	}
}

func TestCompareNamesTheSideThatDoesNotLoad(t *testing.T) {
	t.Parallel()
	good := doc{}.bytes()
	tests := []struct {
		name     string
		old, new []byte
		side     string
		limits   spec.Limits
	}{
		{name: "OLD not a document", old: []byte("- a list"), new: good, side: "OLD"},
		{name: "NEW not JSON", old: good, new: []byte(`{"openapi": "3.1.0",`), side: "NEW"},
		{name: "NEW past the size budget", old: good[:0:0], new: good, side: "OLD"},
		{name: "NEW too large", old: []byte(`{}`), new: good, side: "OLD", limits: spec.Limits{MaxBytes: 10}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := compare.Compare(tc.old, tc.new, "old.json", "new.json", compare.Options{Limits: tc.limits})
			var le *compare.LoadError
			if !errors.As(err, &le) || le.Side != tc.side {
				t.Fatalf("error %v, want a LoadError for %s", err, tc.side)
			}
			if !strings.HasPrefix(err.Error(), tc.side+": ") {
				t.Errorf("error %q does not start with the side", err)
			}
		})
	}
}

func TestVerdict(t *testing.T) {
	t.Parallel()
	r := &compare.Report{Changes: []compare.Change{{ID: "a", Level: compare.Breaking}, {ID: "b", Level: compare.Warning}, {ID: "c", Level: compare.Info}}}
	for _, tc := range []struct {
		failOn compare.FailOn
		want   int
	}{{compare.FailOnBreaking, 1}, {compare.FailOnWarning, 2}, {compare.FailOnNever, 0}} {
		if got := len(r.Verdict(tc.failOn)); got != tc.want {
			t.Errorf("Verdict(%s): %d changes, want %d", tc.failOn, got, tc.want)
		}
	}
	if _, err := compare.ParseFailOn("info"); err == nil {
		t.Error("ParseFailOn(info): no error")
	}
}

// Any two documents are compared or refused, never a panic: both come from
// outside (a pull request's branch, a URL).
func FuzzCompare(f *testing.F) {
	base := doc{}.bytes()
	f.Add(base, base)
	f.Add(base, doc{noDelete: true, listID: "x", params: `{"name": "size", "in": "query", "schema": {"type": "integer"}}`}.bytes())
	f.Add(doc{in: `"title": {"anyOf": [{"type": "string"}, {"type": "null"}]}`, inRequired: `"title"`}.bytes(), base)
	f.Add([]byte(`openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /a:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: array, items: {type: object, properties: {items: {type: string, nullable: true}}}}
`), base)
	f.Fuzz(func(t *testing.T, old, new []byte) {
		r, err := compare.Compare(old, new, "old", "new", compare.Options{Limits: spec.Limits{MaxBytes: 1 << 20}})
		if err != nil {
			return
		}
		for _, c := range r.Changes {
			if c.ID == "" || c.Text == "" || c.Why == "" {
				t.Fatalf("incomplete change %+v", c)
			}
		}
	})
}

// OpenAPI 3.0's nullable: true, in YAML, reads as 3.1's anyOf with null.
func TestCompareReadsOpenAPI30Nullable(t *testing.T) {
	t.Parallel()
	doc30 := func(title string) []byte {
		return []byte(`openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /items/{item_id}:
    get:
      parameters:
        - {name: item_id, in: path, required: true, schema: {type: integer}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                required: [id, title]
                properties:
                  id: {type: integer}
                  title: ` + title + `
`)
	}
	tests := []struct {
		name, old, new string
		want           string
	}{
		{"made nullable", "{type: string}", "{type: string, nullable: true}", "breaking response-property-became-nullable GET /items/{item_id} | response 200 body: title"},
		{"no longer nullable", "{type: string, nullable: true}", "{type: string}", "info response-property-became-not-nullable GET /items/{item_id} | response 200 body: title"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, err := compare.Compare(doc30(tc.old), doc30(tc.new), "old.yaml", "new.yaml", compare.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range r.Changes {
				got = append(got, line(c))
			}
			if len(got) != 1 || got[0] != tc.want {
				t.Errorf("changes %q, want [%q]", got, tc.want)
			}
		})
	}
}

// A media type written as null is refused on either side alike, the side,
// the file and the place named: oasdiff failed on it in OLD ("media type
// is nil", no side) and passed over it in NEW.
func TestNullMediaType(t *testing.T) {
	t.Parallel()
	const ok = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            text/plain: {schema: {type: string}}\n"
	null := strings.Replace(ok, "text/plain: {schema: {type: string}}", "text/plain: null", 1)
	added := ok + "  /b:\n    post:\n      requestBody:\n        content:\n          application/json: null\n      responses:\n        '204': {description: done}\n"
	for _, tc := range []struct {
		name, old, new, side, where string
	}{
		{"in OLD", null, ok, "OLD", `old.yaml: GET /a: response 200: content "text/plain" is null`},
		{"in NEW", ok, null, "NEW", `new.yaml: GET /a: response 200: content "text/plain" is null`},
		{"in an operation only NEW has", ok, added, "NEW", `new.yaml: POST /b: request body: content "application/json" is null`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := compare.Compare([]byte(tc.old), []byte(tc.new), "old.yaml", "new.yaml", compare.Options{})
			var le *compare.LoadError
			if !errors.As(err, &le) || le.Side != tc.side || !strings.Contains(err.Error(), tc.where) {
				t.Fatalf("err %v: want the %s side refused at %s", err, tc.side, tc.where)
			}
		})
	}
}
