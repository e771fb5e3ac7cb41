package openapiprofile

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/fake"
	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/spec"
)

// errorsDoc declares one operation per error shape seen in public
// documents.
const errorsDoc = `openapi: 3.0.3
info: {title: errors, version: "1"}
paths:
  /spotify:
    get:
      responses:
        "200": {description: OK}
        "400": {description: Bad, content: {application/json: {schema: {$ref: "#/components/schemas/SpotifyError"}}}}
  /realworld:
    get:
      responses:
        "200": {description: OK}
        "422": {description: Unprocessable, content: {application/json: {schema: {$ref: "#/components/schemas/GenericErrorModel"}}}}
  /ranged:
    get:
      responses:
        "200": {description: OK}
        "4XX": {description: Client error, content: {application/json: {schema: {$ref: "#/components/schemas/FieldErrors"}}}}
  /default:
    get:
      responses:
        "200": {description: OK}
        default: {description: Error, content: {application/vnd.api+json: {schema: {$ref: "#/components/schemas/Coded"}}}}
  /bare:
    get:
      responses:
        "200": {description: OK}
  /nocontent:
    get:
      responses:
        "200": {description: OK}
        "400": {description: Bad}
components:
  schemas:
    SpotifyError:
      type: object
      required: [error]
      properties:
        error:
          type: object
          required: [status, message]
          properties:
            status: {type: integer, minimum: 400, maximum: 599}
            message: {type: string}
    GenericErrorModel:
      type: object
      required: [errors]
      properties:
        errors:
          type: object
          required: [body]
          properties:
            body: {type: array, items: {type: string}}
    FieldErrors:
      type: object
      required: [code, errors, requestId]
      properties:
        code: {type: string}
        requestId: {type: string, format: uuid}
        errors:
          type: array
          items:
            type: object
            required: [field, message]
            properties:
              field: {type: string}
              message: {type: string}
    Coded:
      type: object
      required: [statusCode, error, kind]
      properties:
        statusCode: {type: integer}
        error: {type: string}
        kind: {type: string, enum: [client, server]}
`

func TestRender(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(errorsDoc), "errors.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p := New(sp, fake.New(sp), 1)
	problems := Problems([]fastapi.ErrorItem{
		fastapi.Missing("body", "name"),
		fastapi.IntParsing("x", "query", "limit"),
	})
	for _, tc := range []struct {
		path   string
		status int
		media  string
		want   map[string]any // members compared; the rest only present
	}{
		{"/spotify", 400, "application/json", map[string]any{
			"error": map[string]any{"status": 400.0, "message": "name is required; query parameter limit: expected integer"}}},
		{"/realworld", 422, "application/json", map[string]any{
			"errors": map[string]any{"body": []any{"name is required", "query parameter limit: expected integer"}}}},
		{"/ranged", 400, "application/json", map[string]any{
			"code": "bad_request",
			"errors": []any{
				map[string]any{"field": "name", "message": "name is required"},
				map[string]any{"field": "limit", "message": "query parameter limit: expected integer"}}}},
		{"/default", 400, "application/vnd.api+json", map[string]any{
			"statusCode": 400.0, "error": "name is required; query parameter limit: expected integer"}},
		// Declaring nothing for it, an operation answers in the shape the
		// document declares most often for the status.
		{"/bare", 400, "application/json", map[string]any{
			"error": map[string]any{"status": 400.0, "message": "name is required; query parameter limit: expected integer"}}},
		{"/nocontent", 400, ProblemMedia, map[string]any{"status": 400.0}},
	} {
		t.Run(tc.path, func(t *testing.T) {
			op := sp.Doc.Paths.Value(tc.path).Get
			status := BadInputStatus(op)
			if status != tc.status {
				t.Errorf("BadInputStatus = %d, want %d", status, tc.status)
			}
			media, body := p.Render(op, status, problems)
			if media != tc.media {
				t.Errorf("media %q, want %q", media, tc.media)
			}
			var got map[string]any
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatalf("%s: %v", body, err)
			}
			for k, v := range tc.want {
				if !reflect.DeepEqual(got[k], v) {
					t.Errorf("%s: %s = %#v, want %#v", body, k, got[k], v)
				}
			}
			if resp := Response(op, status); resp != nil && resp.Content[media] != nil {
				if err := sp.Validate(resp.Content[media].Schema.Value, got, true); err != nil {
					t.Errorf("%s does not fit the declared schema: %v", body, err)
				}
			}
		})
	}
}

// An answer of no operation (an unknown path) takes the shape the
// document declares most often for the status.
func TestRenderCommonShape(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(errorsDoc), "errors.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p := New(sp, fake.New(sp), 1)
	media, body := p.Render(nil, http.StatusNotFound, []Problem{{Detail: "not found"}})
	var got map[string]any
	if err := json.Unmarshal(body, &got); err != nil || media != "application/json" {
		t.Fatalf("%s %s: %v", media, body, err)
	}
	// Three shapes are declared once each: the first written wins.
	if e, _ := got["error"].(map[string]any); e["status"] != 404.0 || e["message"] != "not found" {
		t.Errorf("404 of no operation: %s", body)
	}
}

// A 401 the operation does not declare takes the 401 the document
// declares elsewhere, else problem details: never the shape of its other
// errors, which says nothing of credentials. Its own declared 401, 4XX or
// default answer first.
func TestRenderUnauthorized(t *testing.T) {
	t.Parallel()
	with401 := strings.Replace(errorsDoc, `  /nocontent:`, `  /login:
    post:
      responses:
        "200": {description: OK}
        "401": {description: Who, content: {application/json: {schema: {type: object, required: [reason], properties: {reason: {type: string}}}}}}
  /nocontent:`, 1)
	for _, tc := range []struct {
		name, doc, path string
		media           string
		member          string // a member the body has
	}{
		{"undeclared: problem details", errorsDoc, "/bare", ProblemMedia, "detail"},
		{"its 4XX", errorsDoc, "/ranged", "application/json", "errors"},
		{"its default", errorsDoc, "/default", "application/vnd.api+json", "statusCode"},
		{"the document's 401", with401, "/bare", "application/json", "reason"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sp, err := spec.Load([]byte(tc.doc), "errors.yaml")
			if err != nil {
				t.Fatal(err)
			}
			p := New(sp, fake.New(sp), 1)
			media, body := p.Render(sp.Doc.Paths.Value(tc.path).Get, http.StatusUnauthorized, []Problem{{Detail: "authentication required"}})
			var got map[string]any
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatalf("%s: %v", body, err)
			}
			if media != tc.media || got[tc.member] == nil {
				t.Errorf("%s %s, want %s with %s", media, body, tc.media, tc.member)
			}
		})
	}
}

func TestProblems(t *testing.T) {
	t.Parallel()
	pattern, _ := fastapi.Constraint("pattern", "^a+$", "b", "body", "tags", 0)
	for _, tc := range []struct {
		item             fastapi.ErrorItem
		message, pointer string
	}{
		{fastapi.Missing("body", "name"), "name is required", "/name"},
		{fastapi.Missing("body"), "request body is required", ""},
		{fastapi.IntParsing("abc", "path", "id"), "path parameter id: expected integer", "id"},
		{pattern, "tags.0: must match pattern ^a+$", "/tags/0"},
		{fastapi.ErrorItem{Type: "string_type", Loc: []any{"body", "author", "name"}}, "author.name: expected string", "/author/name"},
		{fastapi.ErrorItem{Type: "json_invalid", Loc: []any{"body", 3}}, "request body is not valid JSON", ""},
	} {
		got := Problems([]fastapi.ErrorItem{tc.item})[0]
		if got.Message() != tc.message || got.Pointer() != tc.pointer {
			t.Errorf("%v: %q %q, want %q %q", tc.item.Loc, got.Message(), got.Pointer(), tc.message, tc.pointer)
		}
	}
}

// A document declaring no error response at all gets RFC 9457 problem
// details.
func TestRenderProblemDetails(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(`openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /x:
    get:
      responses:
        "200": {description: OK}
`), "plain.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p := New(sp, fake.New(sp), 1)
	problems := Problems([]fastapi.ErrorItem{fastapi.Missing("body", "name"), fastapi.IntParsing("x", "query", "limit")})
	for _, op := range []*openapi3.Operation{sp.Doc.Paths.Value("/x").Get, nil} {
		media, body := p.Render(op, 400, problems)
		const want = `{"type":"about:blank","title":"Bad Request","status":400,"detail":"name is required; query parameter limit: expected integer",` +
			`"errors":[{"pointer":"#/name","detail":"name is required"},{"location":"query.limit","detail":"query parameter limit: expected integer"}]}`
		if media != ProblemMedia || string(body) != want {
			t.Errorf("%s %s, want %s %s", media, body, ProblemMedia, want)
		}
	}
}

func BenchmarkRender(b *testing.B) {
	sp, err := spec.Load([]byte(errorsDoc), "errors.yaml")
	if err != nil {
		b.Fatal(err)
	}
	p := New(sp, fake.New(sp), 1)
	problems := Problems([]fastapi.ErrorItem{fastapi.Missing("body", "name"), fastapi.IntParsing("x", "query", "limit")})
	for _, path := range []string{"/spotify", "/ranged"} {
		op := sp.Doc.Paths.Value(path).Get
		b.Run(path[1:], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p.Render(op, 400, problems)
			}
		})
	}
}

// A document whose error schema nests alternatives in alternatives, none
// of which can be satisfied, is answered within the budget.
func TestRenderNestedAlternativesBounded(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: t, version: \"1\"}\npaths:\n  /x:\n    get:\n      responses:\n        \"400\": {description: Bad, content: {application/json: {schema: {$ref: \"#/components/schemas/E0\"}}}}\ncomponents:\n  schemas:\n")
	const levels, width = 12, 8
	for i := 0; i < levels; i++ {
		fmt.Fprintf(&b, "    E%d:\n      oneOf:\n", i)
		for j := 0; j < width; j++ {
			if i+1 < levels {
				// Alike alternatives: every value matches them all, so
				// none satisfies oneOf and each is tried.
				fmt.Fprintf(&b, "        - {type: object, required: [m], properties: {m: {$ref: \"#/components/schemas/E%d\"}}}\n", i+1)
			} else {
				b.WriteString("        - {type: integer}\n")
			}
		}
	}
	sp, err := spec.Load([]byte(b.String()), "nested.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// No generator: it has bounds of its own (and, on this document, a
	// cost of its own); what is bounded here is the profile's checking.
	p := New(sp, nil, 1)
	start := time.Now()
	media, body := p.Render(sp.Doc.Paths.Value("/x").Get, 400, []Problem{{Detail: "bad"}})
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %v", d)
	}
	if media != ProblemMedia || !json.Valid(body) {
		t.Errorf("%s %s, want problem details", media, body)
	}
}

func TestCheckCost(t *testing.T) {
	t.Parallel()
	leaf := openapi3.NewIntegerSchema()
	nest := func(s *openapi3.Schema, width int) *openapi3.Schema {
		out := &openapi3.Schema{}
		for range width {
			out.OneOf = append(out.OneOf, &openapi3.SchemaRef{Value: &openapi3.Schema{
				Properties: openapi3.Schemas{"m": &openapi3.SchemaRef{Value: s}}}})
		}
		return out
	}
	wide := leaf
	for range 6 {
		wide = nest(wide, 8)
	}
	cyclic := &openapi3.Schema{Properties: openapi3.Schemas{}}
	cyclic.Properties["self"] = &openapi3.SchemaRef{Value: cyclic}
	for _, tc := range []struct {
		name      string
		s         *openapi3.Schema
		checkable bool
	}{
		{"leaf", leaf, true},
		{"one level of alternatives", nest(leaf, 8), true},
		{"alternatives six deep", wide, false},
		{"a cycle", cyclic, true},
	} {
		if got := checkCost(tc.s, map[*openapi3.Schema]bool{}) <= maxCheckCost; got != tc.checkable {
			t.Errorf("%s: checkable %v, want %v", tc.name, got, tc.checkable)
		}
	}
}

// Odd declared shapes still give a JSON body, never a panic.
func TestRenderOddShapes(t *testing.T) {
	t.Parallel()
	for _, schema := range []string{
		`{}`,
		`{type: string, enum: [oops]}`,
		`{type: integer}`,
		`{type: array, items: {type: integer}}`,
		`{type: object, additionalProperties: false}`,
		`{type: object, required: [x], properties: {x: {type: string, maxLength: 0}}, additionalProperties: false}`,
		`{$ref: "#/components/schemas/Self"}`,
		`{allOf: [{$ref: "#/components/schemas/Self"}, {type: object, properties: {message: {type: string}}}]}`,
		`{anyOf: [{type: string, enum: [x]}, {type: object, nullable: true, properties: {detail: {type: string}}}]}`,
		`{type: object, properties: {errors: {type: array, items: {type: array, items: {type: object, properties: {loc: {type: array, items: {type: string}}}}}}}}`,
		`{not: {}}`,
	} {
		doc := `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /x:
    get:
      responses:
        "400": {description: Bad, content: {application/json: {schema: ` + schema + `}}}
components:
  schemas:
    Self: {type: object, required: [self], properties: {self: {$ref: "#/components/schemas/Self"}, message: {type: string}}}
`
		sp, err := spec.Load([]byte(doc), "odd.yaml")
		if err != nil {
			t.Errorf("%s: %v", schema, err)
			continue
		}
		p := New(sp, fake.New(sp), 1)
		problems := Problems([]fastapi.ErrorItem{fastapi.Missing("body", "a", 0, "b"), fastapi.Missing("query", "q")})
		_, body := p.Render(sp.Doc.Paths.Value("/x").Get, 400, problems)
		if !json.Valid(body) {
			t.Errorf("%s: %q is not JSON", schema, body)
		}
	}
}

// A refusal Render keeps is the one it would render anew, and problems
// whose words differ only in where a separator byte falls are kept apart.
func TestRenderKept(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(errorsDoc), "errors.yaml")
	if err != nil {
		t.Fatal(err)
	}
	kept, fresh := New(sp, fake.New(sp), 1), New(sp, fake.New(sp), 1)
	cases := [][]Problem{
		nil,
		{{Detail: "not found"}},
		{{In: "body", Field: "a\x00b", Detail: "c"}},
		{{In: "body", Field: "a", Detail: "b\x00c"}},
		{{In: "body", Field: "a\x01", Detail: "c"}, {In: "query", Field: "x", Detail: "is required"}},
		{{In: "body", Field: strings.Repeat("long", 200), Detail: "is required"}}, // not kept
	}
	for _, path := range []string{"/spotify", "/realworld"} {
		op := sp.Doc.Paths.Value(path).Get
		for round := range 2 {
			for i, problems := range cases {
				media, body := kept.Render(op, 400, problems)
				wantMedia, want := fresh.render(op, 400, problems)
				if media != wantMedia || string(body) != string(want) {
					t.Errorf("%s, round %d, case %d: %s %s, want %s %s", path, round, i, media, body, wantMedia, want)
				}
			}
		}
	}
	if n := kept.nRendered.Load(); n != 2*5 {
		t.Errorf("%d refusals kept, want 10 (the long one is not)", n)
	}
}

// An error response declared only for any bytes (a Swagger 2.0
// operation's `produces: [application/octet-stream]` gives its 404 that
// media type, with the error model's schema) is answered with that schema,
// in a media type the operation declares: the octet-stream itself, or
// application/json under a wildcard, never problem details it does not
// declare.
func TestRenderAnyBytesMedia(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ declared, want string }{
		{"application/octet-stream", "application/octet-stream"},
		{"'*/*'", "application/json"},
		{"application/*", "application/json"},
	} {
		doc := `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /x:
    get:
      responses:
        "200": {description: OK, content: {` + tc.declared + `: {schema: {type: string, format: binary}}}}
        "404": {description: Gone, content: {` + tc.declared + `: {schema: {$ref: "#/components/schemas/Message"}}}}
components:
  schemas:
    Message: {type: object, properties: {message: {type: string}}}
`
		sp, err := spec.Load([]byte(doc), "bytes.yaml")
		if err != nil {
			t.Fatal(err)
		}
		p := New(sp, fake.New(sp), 1)
		media, body := p.Render(sp.Doc.Paths.Value("/x").Get, 404, nil)
		var msg struct{ Message string }
		if err := json.Unmarshal(body, &msg); err != nil || media != tc.want || !strings.EqualFold(msg.Message, "not found") {
			t.Errorf("%s: %s %s, want %s {\"message\": \"not found\"}", tc.declared, media, body, tc.want)
		}
	}
}

// An operation answering only YAML (a Swagger 2.0 `produces` of
// application/x-yaml) declares its refusals in YAML too: they are answered
// in that media type, the body JSON, which YAML reads as it is.
func TestRenderYAMLMedia(t *testing.T) {
	t.Parallel()
	for _, declared := range []string{"application/x-yaml", "application/yaml", "text/yaml", "application/vnd.config+yaml"} {
		doc := `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /x:
    get:
      responses:
        "200": {description: OK, content: {` + declared + `: {schema: {type: object}}}}
        "404": {description: Gone, content: {` + declared + `: {schema: {$ref: "#/components/schemas/Error"}}}}
components:
  schemas:
    Error: {type: object, required: [error, errorCode], properties: {error: {type: string}, errorCode: {type: integer}}}
`
		sp, err := spec.Load([]byte(doc), "yaml.yaml")
		if err != nil {
			t.Fatal(err)
		}
		p := New(sp, fake.New(sp), 1)
		media, body := p.Render(sp.Doc.Paths.Value("/x").Get, 404, nil)
		var e struct {
			Error     string
			ErrorCode *int
		}
		if err := json.Unmarshal(body, &e); err != nil || media != declared || e.ErrorCode == nil {
			t.Errorf("%s: %s %s, want %s {\"error\": …, \"errorCode\": …}", declared, media, body, declared)
		}
	}
}

// An operation answering only text (a Swagger 2.0 `produces` of text/csv
// or text/plain) declares its refusals in that type: they are answered in
// it, in words.
func TestRenderTextMedia(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ declared, want string }{
		{"text/plain", "text/plain; charset=utf-8"},
		{"text/csv", "text/csv; charset=utf-8"},
		{"'text/csv; header=present'", "text/csv; charset=utf-8"},
		{"text/html", "text/html; charset=utf-8"},
	} {
		doc := `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /x:
    get:
      responses:
        "200": {description: OK, content: {` + tc.declared + `: {schema: {type: string}}}}
        "404": {description: Gone, content: {` + tc.declared + `: {schema: {$ref: "#/components/schemas/Errors"}}}}
components:
  schemas:
    Errors: {type: object, properties: {errors: {type: array, items: {type: object, properties: {message: {type: string}}}}}}
`
		sp, err := spec.Load([]byte(doc), "text.yaml")
		if err != nil {
			t.Fatal(err)
		}
		p := New(sp, fake.New(sp), 1)
		media, body := p.Render(sp.Doc.Paths.Value("/x").Get, 404, nil)
		if media != tc.want || string(body) != "not found" {
			t.Errorf("%s: %s %q, want %s \"not found\"", tc.declared, media, body, tc.want)
		}
	}
}

// A refusal declared only in a vendor media type with a schema (Goa's
// application/vnd.goa.error) is answered in it, its body the schema's
// JSON.
func TestRenderVendorMedia(t *testing.T) {
	t.Parallel()
	doc := `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /x:
    get:
      responses:
        "200": {description: OK, content: {application/json: {schema: {type: object}}}}
        "404": {description: Gone, content: {application/vnd.goa.error: {schema: {$ref: "#/components/schemas/Error"}}}}
components:
  schemas:
    Error: {type: object, required: [name, id, message], properties: {name: {type: string}, id: {type: string}, message: {type: string}}}
`
	sp, err := spec.Load([]byte(doc), "vendor.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p := New(sp, fake.New(sp), 1)
	media, body := p.Render(sp.Doc.Paths.Value("/x").Get, 404, nil)
	var e struct{ Name, ID, Message string }
	if err := json.Unmarshal(body, &e); err != nil || media != "application/vnd.goa.error" || e.Message == "" {
		t.Errorf("%s %s, want application/vnd.goa.error {\"name\": …, \"id\": …, \"message\": …}", media, body)
	}
}

// A refusal declared as JSON without a schema (SmallRye's 400:
// application/json: {}) is answered with problem details, in the media
// type declared rather than application/problem+json.
func TestRenderSchemalessJSON(t *testing.T) {
	t.Parallel()
	for _, declared := range []string{"application/json", "application/vnd.api+json"} {
		doc := `openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /x:
    post:
      responses:
        "202": {description: OK, content: {application/json: {schema: {type: array}}}}
        "400": {description: Bad, content: {` + declared + `: {}}}
`
		sp, err := spec.Load([]byte(doc), "schemaless.yaml")
		if err != nil {
			t.Fatal(err)
		}
		p := New(sp, fake.New(sp), 1)
		media, body := p.Render(sp.Doc.Paths.Value("/x").Post, 400, []Problem{{In: "body", Field: "access", Detail: "is required"}})
		var pd struct {
			Status int `json:"status"`
		}
		if media != declared || json.Unmarshal(body, &pd) != nil || pd.Status != 400 {
			t.Errorf("%s: %s %s, want problem details in %s", declared, media, body, declared)
		}
	}
}
