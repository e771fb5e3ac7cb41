package spec

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

func mustEmbedded(t testing.TB) *Spec {
	t.Helper()
	sp, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// The contract loads and passes kin-openapi's own validation (examples
// included) as OpenAPI 3.1.0.
func TestEmbeddedContractIsValid(t *testing.T) {
	t.Parallel()
	sp := mustEmbedded(t)
	if sp.Doc.OpenAPI != "3.1.0" || sp.Doc.Info.Version != "0.0.0" {
		t.Fatalf("openapi %q version %q", sp.Doc.OpenAPI, sp.Doc.Info.Version)
	}
	if err := sp.Doc.Validate(context.Background()); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(sp.JSON(), &doc); err != nil {
		t.Fatalf("JSON() is not JSON: %v", err)
	}
	if !strings.HasPrefix(string(sp.JSON()), `{"openapi":"3.1.0","info":`) {
		t.Errorf("JSON() lost the document's key order: %.40s", sp.JSON())
	}
}

// What the interface description fixes, checked in the loaded document.
func TestContractDescribesTheInterface(t *testing.T) {
	t.Parallel()
	sp := mustEmbedded(t)
	ops := map[string]string{}
	for path, item := range sp.Doc.Paths.Map() {
		for method, op := range item.Operations() {
			ops[method+" "+path] = op.OperationID
		}
	}
	want := map[string]string{
		"GET /person/{person_id}": "getPerson", "POST /auth/login": "login",
		"GET /reviews/{review_id}": "getReview", "GET /reviews": "listReviews",
	}
	if len(ops) != len(want) {
		t.Errorf("operations = %v, want %v", ops, want)
	}
	for k, v := range want {
		if ops[k] != v {
			t.Errorf("%s: operationId %q, want %q", k, ops[k], v)
		}
	}
	person := sp.Doc.Paths.Value("/person/{person_id}").Get
	if !slices.Equal(person.Tags, []string{"People"}) {
		t.Errorf("getPerson tags = %v", person.Tags)
	}
	for _, path := range []string{"/person/{person_id}", "/reviews/{review_id}"} {
		if sp.Doc.Paths.Value(path).Get.Responses.Value("422") == nil {
			t.Errorf("%s declares no 422", path)
		}
	}
	form := sp.Schema("Body_login_auth_login_post")
	if got := form.Properties["grant_type"].Value.AnyOf[0].Value.Pattern; got != "^password$" {
		t.Errorf("grant_type pattern = %q", got)
	}
	if got := form.Properties["scope"].Value.Default; got != "" {
		t.Errorf("scope default = %#v", got)
	}
	if !slices.Equal(form.Required, []string{"username", "password"}) {
		t.Errorf("form required = %v", form.Required)
	}
	if got := sp.Schema("Person").Properties["known_for"].Value.Default; !slices.Equal(got.([]any), []any{}) {
		t.Errorf("known_for default = %#v", got)
	}
	verr := sp.Schema("ValidationError")
	if !slices.Equal(verr.Required, []string{"loc", "msg", "type"}) || verr.Properties["input"] == nil || verr.Properties["ctx"] == nil {
		t.Errorf("ValidationError = %+v", verr)
	}
}

func TestPropertyOrderFollowsTheDocument(t *testing.T) {
	t.Parallel()
	sp := mustEmbedded(t)
	ref := &openapi3.SchemaRef{Ref: "#/components/schemas/Body_login_auth_login_post", Value: sp.Schema("Body_login_auth_login_post")}
	want := []string{"grant_type", "username", "password", "scope", "client_id", "client_secret"}
	if got := sp.PropertyOrder(ref); !slices.Equal(got, want) {
		t.Errorf("PropertyOrder = %v, want %v (OAuth2PasswordRequestForm's declaration order)", got, want)
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	sp := mustEmbedded(t)
	person := sp.Schema("Person")
	review := sp.Schema("Review")
	for _, tc := range []struct {
		name   string
		schema *openapi3.Schema
		value  string
		fields []string // failing fields, in order; nil: valid
	}{
		{"full person", person, `{"id":1,"name":"A","biography":"b","birthday":"1963-12-18","known_for":["x"]}`, nil},
		{"nulls allowed", person, `{"id":1,"name":"A","biography":null,"birthday":null,"deathday":null}`, nil},
		{"required missing", person, `{"name":"A"}`, []string{"id"}},
		{"impossible date", person, `{"id":1,"name":"A","birthday":"1999-02-30"}`, []string{"birthday"}},
		{"wrong type in nullable", person, `{"id":1,"name":"A","biography":5}`, []string{"biography"}},
		{"array of null", person, `{"id":1,"name":"A","known_for":null}`, []string{"known_for"}},
		{"id not an integer", person, `{"id":1.5,"name":"A"}`, []string{"id"}},
		{"review date-time", review, `{"created_at":"2024-01-02 03:04:05"}`, []string{"created_at"}},
		// pydantic writes a naive datetime without an offset.
		{"naive date-time", review, `{"created_at":"2024-08-13T10:00:00"}`, nil},
		{"naive date-time with microseconds", review, `{"created_at":"2024-08-13T10:00:00.400000"}`, nil},
		{"naive impossible date-time", review, `{"created_at":"2024-02-30T10:00:00"}`, []string{"created_at"}},
		{"date alone for a date-time", review, `{"created_at":"2024-08-13"}`, []string{"created_at"}},
		{"nested author", review, `{"author":{"id":"x"}}`, []string{"author.id"}},
		{"several at once", review, `{"author_id":"1","reactions":[]}`, []string{"author_id", "reactions"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var v any
			if err := json.Unmarshal([]byte(tc.value), &v); err != nil {
				t.Fatal(err)
			}
			viols := Violations(sp.Validate(tc.schema, v, true))
			var fields []string
			for _, vi := range viols {
				fields = append(fields, vi.Field)
			}
			slices.Sort(fields)
			if !slices.Equal(fields, tc.fields) {
				t.Errorf("violations %v, want fields %q", viols, tc.fields)
			}
		})
	}
}

// The fast path (kin-openapi's built-in validator) must judge the contract's
// schemas as a JSON Schema 2020-12 validator does. The oracle is
// santhosh-tekuri/jsonschema (what kin-openapi itself uses for 3.1), compiled
// straight from the document: kin-openapi's own 3.1 path falls back to the
// built-in validator for schemas with $refs, so it cannot be the oracle.
func TestFastPathAgreesWith2020Validator(t *testing.T) {
	t.Parallel()
	sp := mustEmbedded(t)
	var doc any
	if err := json.Unmarshal(sp.JSON(), &doc); err != nil {
		t.Fatal(err)
	}
	compiler := jsonschema.NewCompiler()
	compiler.DefaultDraft(jsonschema.Draft2020)
	compiler.AssertFormat()
	if err := compiler.AddResource("mem://openapi.json", doc); err != nil {
		t.Fatal(err)
	}
	values := []string{
		`{"id":1,"name":"A"}`, `{"id":1,"name":"A","biography":null}`, `{"id":"1","name":"A"}`,
		`{"id":1,"name":"A","birthday":null,"poster":7}`, `{"name":null}`, `{}`, `[]`, `"x"`,
		`{"access_token":"t","token_type":"bearer"}`, `{"access_token":1}`,
		`{"detail":[{"loc":["path",1],"msg":"m","type":"t","input":null,"ctx":{}}]}`,
		`{"detail":[{"loc":[true],"msg":"m","type":"t"}]}`, `{"detail":"Not Found"}`,
		`{"id":"r","movie_id":"m","author_id":1,"content":"c","author":{"id":1,"username":"u","avatar":"a","role":"r"},"reactions":{}}`,
		`{"grant_type":"password","username":"u","password":"p"}`, `{"grant_type":null,"username":"u","password":"p"}`,
		`{"grant_type":"Password","username":"u","password":"p"}`,
		`{"detail":[{"loc":["body","username"],"msg":"Field required","type":"missing","input":null}]}`,
		`{"detail":[{"loc":[],"msg":"m","type":"t","input":{"any":["thing"]}}]}`,
		`{"id":1,"name":"A","birthday":"1999-02-30"}`, `{"created_at":"2024-01-02T03:04:05+01:00"}`,
		`{"created_at":"yesterday"}`, `{"id":1,"name":"A","known_for":[null]}`,
	}
	for name, ref := range sp.Doc.Components.Schemas {
		if sp.mode(ref.Value) != modeVisitor {
			t.Errorf("%s: expected the fast path for the contract's own schemas", name)
		}
		oracle, err := compiler.Compile("mem://openapi.json#/components/schemas/" + name)
		if err != nil {
			t.Fatal(err)
		}
		for _, raw := range values {
			var v any
			json.Unmarshal([]byte(raw), &v)
			fast := sp.Validate(ref.Value, v, false)
			want := oracle.Validate(v)
			if (fast == nil) != (want == nil) {
				t.Errorf("%s on %s: fast path says %v, JSON Schema 2020-12 says %v", name, raw, fast, want)
			}
		}
	}
}

func TestLoadRejectsBadDocuments(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, doc, want string }{
		{"not YAML", "{", "parse bad"},
		{"not a mapping", "- 1", "not an OpenAPI document"},
		{"swagger 1.2", `{"swagger":"1.2","info":{"title":"x","version":"1"},"paths":{}}`, `load bad: line 1: swagger version "1.2" is not 2.0`},
		{"openapi 2.0", "openapi: '2.0'\ninfo: {title: x, version: '1'}\npaths: {}\n", `load bad: line 1: openapi version "2.0" is not 3.x`},
		{"no version", "info: {title: x, version: '1'}\npaths: {}\n", `load bad: not an OpenAPI document: it has no "openapi" field`},
		{"version not a string", "openapi: [3]\ninfo: {title: x, version: '1'}\npaths: {}\n", "openapi version (not a string) is not 3.x"},
		{"duplicate key", `{"openapi":"3.1.0","openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{}}`, "already defined"},
		{"data after JSON", `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{}} {}`, "after the document"},
		{"nested too deep", `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{},"x-deep":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`, "parse bad"},
		{"operationId on two paths", `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{"/a":{"get":{"operationId":"op","responses":{"200":{"description":"d"}}}},"/b":{"get":{"operationId":"op","responses":{"200":{"description":"d"}}}}}}`, "same operation id"},
		{"broken ref", `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{"/a":{"get":{"responses":{"200":{"description":"d","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Nope"}}}}}}}}}`, "bad"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Load([]byte(tc.doc), "bad")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

// A JSON document is read as JSON: what JSON allows and YAML 1.1 parsers
// refuse (a surrogate pair, as Python's json.dumps writes every emoji) loads,
// keys keep their written order, and the YAML rendering says the same.
func TestLoadReadsJSONAsJSON(t *testing.T) {
	t.Parallel()
	doc := `{"openapi":"3.1.0","info":{"title":"Chimichang\u00e1pp","description":"Does stuff. \ud83d\ude80\n\n## Items","version":"0.0.1",` +
		`"x-z":1,"x-a":[1.5,1e3,99999999999999999999,true,null,"true","12"]},"paths":{}}`
	sp, err := Load([]byte(doc), "test.json")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sp.Doc.Info.Description, "Does stuff. \U0001F680\n\n## Items"; got != want {
		t.Errorf("description = %q, want %q", got, want)
	}
	if got, want := sp.Doc.Info.Title, "Chimichangápp"; got != want {
		t.Errorf("title = %q, want %q", got, want)
	}
	if got := sp.KeyOrder("info"); !slices.Equal(got, []string{"title", "description", "version", "x-z", "x-a"}) {
		t.Errorf("info keys = %v", got)
	}
	if raw, _ := sp.RawJSON("info", "x-a"); string(raw) != `[1.5,1000,100000000000000000000,true,null,"true","12"]` {
		t.Errorf("x-a = %s", raw)
	}
	back, err := Load(sp.YAML(), "served.yaml")
	if err != nil {
		t.Fatalf("the YAML rendering does not load: %v\n%s", err, sp.YAML())
	}
	if got, want := string(back.JSON()), string(sp.JSON()); got != want {
		t.Errorf("YAML rendering reads back as\n%s\nwant\n%s", got, want)
	}
}

// An example the schema refuses does not stop a document from loading:
// FastAPI serves such documents (openapi_examples showing invalid data is
// documented usage), and examples are only ever candidates, each judged by
// FastAPI's own rules before use.
func TestLoadAcceptsExamplesTheSchemaRefuses(t *testing.T) {
	t.Parallel()
	doc := `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{"/items":{"put":{` +
		`"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Item"},` +
		`"examples":{"converted":{"value":{"name":"Bar","price":"35.4"}},"invalid":{"value":{"name":"Baz","price":"thirty five"}}}}}},` +
		`"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{}}}}}}}},` +
		`"components":{"schemas":{"Item":{"type":"object","properties":{"name":{"type":"string"},"price":{"type":"number"}},"required":["name","price"]}}}}`
	if _, err := Load([]byte(doc), "test.json"); err != nil {
		t.Fatal(err)
	}
}

// A default the schema refuses does not stop a document from loading:
// pydantic does not validate defaults, and FastAPI serves what it was
// given (run for real: FastAPI 0.141.1, pydantic 2.13.4).
func TestLoadAcceptsDefaultsTheSchemaRefuses(t *testing.T) {
	t.Parallel()
	doc := `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{"/items":{"get":{` +
		`"parameters":[{"name":"q","in":"query","required":false,"schema":{"type":"integer","default":"abc","title":"Q"}}],` +
		`"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Item"}}}}}}}},` +
		`"components":{"schemas":{"Item":{"type":"object","title":"Item","properties":{"size":{"type":"integer","title":"Size","default":"large"}}}}}}`
	if _, err := Load([]byte(doc), "test.json"); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkValidateReview(b *testing.B) {
	sp := mustEmbedded(b)
	review := sp.Schema("Review")
	var v any
	json.Unmarshal([]byte(`{"id":"r","movie_id":"m","author_id":1,"content":"c","author":{"id":1,"username":"u","avatar":"a","role":"r"},"created_at":"2024-01-02T03:04:05Z","updated_at":"2024-01-02T03:04:05Z","reactions":{"like":1}}`), &v)
	for b.Loop() {
		if err := sp.Validate(review, v, false); err != nil {
			b.Fatal(err)
		}
	}
}

// CanonicalDateTime takes exactly the canonical date-times ParseDateTime
// takes: every day of every month of leap and common years, and nothing
// past a month's end.
func TestCanonicalDateTime(t *testing.T) {
	for _, year := range []int{1900, 1999, 2000, 2023, 2024, 2100} {
		for month := 1; month <= 12; month++ {
			for day := 0; day <= 32; day++ {
				s := fmt.Sprintf("%04d-%02d-%02dT23:59:59Z", year, month, day)
				_, err := ParseDateTime(s)
				if got := CanonicalDateTime(s); got != (err == nil) {
					t.Errorf("CanonicalDateTime(%q) = %v, ParseDateTime: %v", s, got, err)
				}
			}
		}
	}
	for _, s := range []string{"2024-01-02T24:00:00Z", "2024-01-02T23:60:00Z", "2024-01-02T23:59:60Z",
		"2024-01-02t03:04:05Z", "2024-01-02T03:04:05z", "2024-01-02T03:04:05+00:00", "2024-01-02T03:04:05.0Z", "+024-01-02T03:04:05Z"} {
		if CanonicalDateTime(s) {
			t.Errorf("CanonicalDateTime(%q) = true", s)
		}
	}
}

// FuzzChecker holds the Checker to Validate on every schema of the
// contract: what it proves valid, Validate accepts.
func FuzzChecker(f *testing.F) {
	for _, s := range []string{
		`{"id":1,"name":"A","known_for":[],"biography":null}`, `{"detail":[{"loc":["path","x",0],"msg":"m","type":"t","input":null}]}`,
		`{"access_token":"x","token_type":"bearer"}`, `{"reactions":{"a":1},"created_at":"2024-02-29T00:00:00Z"}`,
		`{"id":1,"username":"u","avatar":"a","role":"user"}`, `[1,2]`, `"2023-02-29T00:00:00Z"`, `null`,
	} {
		f.Add([]byte(s))
	}
	sp, err := Embedded()
	if err != nil {
		f.Fatal(err)
	}
	type named struct {
		name    string
		schema  *openapi3.Schema
		checker *Checker
	}
	var schemas []named
	for name, ref := range sp.Doc.Components.Schemas {
		if c := sp.Checker(ref.Value); c != nil {
			schemas = append(schemas, named{name, ref.Value, c})
		}
		if ref.Value.Properties != nil {
			for pname, p := range ref.Value.Properties {
				if c := sp.Checker(p.Value); c != nil {
					schemas = append(schemas, named{name + "." + pname, p.Value, c})
				}
			}
		}
	}
	if len(schemas) < 5 {
		f.Fatalf("only %d schemas compile", len(schemas))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, s := range schemas {
			if !s.checker.Valid(data) {
				continue
			}
			var v any
			if err := json.Unmarshal(data, &v); err != nil {
				t.Fatalf("%s: proved valid, but not JSON: %q", s.name, data)
			}
			if err := sp.Validate(s.schema, v, true); err != nil {
				t.Fatalf("%s: proved valid, but Validate says %v: %q", s.name, err, data)
			}
		}
	})
}

// FastAPI writes the OpenAPI 3.2 field itemSchema for streamed responses
// in the 3.1.0 documents it serves: such a document loads, its item
// schemas resolved and still validated.
func TestLoadKeepsItemSchema(t *testing.T) {
	t.Parallel()
	doc := func(item string) string {
		return `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{"/s":{"get":{"responses":{"200":{"description":"d","content":{` +
			`"application/jsonl":{"itemSchema":` + item + `},` +
			`"text/event-stream":{"itemSchema":{"type":"object","properties":{"data":{"type":"string","contentMediaType":"application/json","contentSchema":` + item + `}},"required":["data"]}}` +
			`}}}}}},"components":{"schemas":{"Item":{"type":"object","properties":{"name":{"type":"string"},"input":{}},"required":["name"]}}}}`
	}
	sp, err := Load([]byte(doc(`{"$ref":"#/components/schemas/Item"}`)), "stream")
	if err != nil {
		t.Fatal(err)
	}
	content := sp.Doc.Paths.Value("/s").Get.Responses.Value("200").Value.Content
	lines := content.Get("application/jsonl").ItemSchema
	if lines == nil || lines.Value == nil || lines.Value.Properties["name"] == nil {
		t.Fatalf("application/jsonl itemSchema = %+v, want the resolved Item", lines)
	}
	if err := sp.Validate(lines.Value, map[string]any{"name": "a", "input": nil}, true); err != nil {
		t.Errorf("an item with an untyped null: %v", err)
	}
	data := content.Get("text/event-stream").ItemSchema.Value.Properties["data"].Value
	if data.ContentSchema == nil || data.ContentSchema.Value == nil || data.ContentSchema.Value.Properties["name"] == nil {
		t.Errorf("data's contentSchema is not resolved")
	}

	if _, err := Load([]byte(doc(`{"type":"nonsense"}`)), "bad"); err == nil || !strings.Contains(err.Error(), "itemSchema") {
		t.Errorf("a bad itemSchema: err = %v, want it refused", err)
	}
}

// A field OpenAPI does not define, in any object, is ignored with a warning
// saying where, as every client of the document FastAPI serves ignores it
// (a route's openapi_extra can put any key there); an x- extension is no
// warning at all.
func TestLoadIgnoresUnknownFields(t *testing.T) {
	t.Parallel()
	const head = `{"openapi":"3.1.0","info":{"title":"x","version":"1"`
	for _, tc := range []struct {
		name, doc string
		want      []string
	}{
		{"operation", head + `},"paths":{"/posts":{"get":{"description":"d","Description":"D","responses":{"200":{"description":"ok"}}}}}}`,
			[]string{"paths: path /posts: operation GET: ignoring Description"}},
		{"two objects", head + `,"Summary":"s"},"paths":{"/a":{"post":{"responses":{"200":{"description":"ok","Headers":{}}}}}}}`,
			[]string{"info: ignoring Summary", "paths: path /a: operation POST: ignoring Headers"}},
		{"extension", head + `,"x-logo":{}},"paths":{"/a":{"get":{"x-y":1,"responses":{"200":{"description":"ok"}}}}}}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sp, err := Load([]byte(tc.doc), "served.json")
			if err != nil {
				t.Fatal(err)
			}
			got := sp.Warnings()
			if len(got) != len(tc.want) {
				t.Fatalf("warnings = %q, want %d like %q", got, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("warning %d = %q, want it to say %q", i, got[i], w)
				}
			}
		})
	}

	// A document made of unknown names only costs a bounded number of passes.
	var b strings.Builder
	b.WriteString(head + `},"paths":{"/a":{"get":{"responses":{"200":{"description":"ok"}}`)
	for i := range maxIgnoredFields + 1 {
		fmt.Fprintf(&b, `,"K%d":1`, i)
	}
	b.WriteString(`}}}}`)
	if _, err := Load([]byte(b.String()), "many.json"); err == nil || !strings.Contains(err.Error(), "extra sibling fields") {
		t.Errorf("%d unknown names: err = %v, want refused", maxIgnoredFields+1, err)
	}
}

// FastAPI gives every method of an api_route(methods=[...]) route its one
// operationId, and serves that document: it loads, with the ids kept.
func TestLoadAcceptsOneRouteOfSeveralMethods(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{"/multi":{
"get":{"operationId":"multi_multi_post","responses":{"200":{"description":"d"}}},
"put":{"operationId":"put_multi_multi_put","responses":{"200":{"description":"d"}}},
"post":{"operationId":"multi_multi_post","responses":{"200":{"description":"d"}}},
"delete":{"operationId":"multi_multi_post","responses":{"200":{"description":"d"}}}}}}`
	sp, err := Load([]byte(doc), "multi")
	if err != nil {
		t.Fatal(err)
	}
	item := sp.Doc.Paths.Value("/multi")
	for _, op := range []*openapi3.Operation{item.Get, item.Post, item.Delete} {
		if op.OperationID != "multi_multi_post" {
			t.Errorf("operationId %q, want multi_multi_post", op.OperationID)
		}
	}
}
