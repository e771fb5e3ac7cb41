package spec

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"
)

// swaggerPetstore is testdata/swagger2/petstore.yaml as written (YAML) and
// as JSON, which the loader reads by another route.
func swaggerPetstore(t *testing.T) map[string][]byte {
	t.Helper()
	data, err := os.ReadFile("testdata/swagger2/petstore.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	js, err := NodeJSON(&root)
	if err != nil {
		t.Fatal(err)
	}
	return map[string][]byte{"yaml": data, "json": js}
}

// A Swagger 2.0 document is converted to OpenAPI 3.0 and read as one:
// Root, KeyOrder, JSON and YAML describe the converted document, in the
// order the 2.0 document wrote paths, definitions and properties.
func TestLoadConvertsSwagger2(t *testing.T) {
	t.Parallel()
	for form, data := range swaggerPetstore(t) {
		t.Run(form, func(t *testing.T) {
			t.Parallel()
			sp, err := Load(data, "petstore."+form)
			if err != nil {
				t.Fatal(err)
			}
			if sp.Doc.OpenAPI != "3.0.3" {
				t.Errorf("openapi = %q", sp.Doc.OpenAPI)
			}
			if w := sp.Warnings(); len(w) != 1 || !strings.Contains(w[0], "a Swagger 2.0 document, converted to OpenAPI 3.0.3") {
				t.Errorf("warnings = %q", w)
			}
			for _, tc := range []struct {
				path []string
				want []string
			}{
				{nil, []string{"openapi", "info", "servers", "paths", "components"}},
				{[]string{"components"}, []string{"schemas", "parameters", "securitySchemes"}},
				{[]string{"components", "schemas"}, []string{"Pet", "NewPet", "Error"}},
				{[]string{"components", "schemas", "NewPet", "properties"}, []string{"name", "tag", "birthday", "age"}},
				{[]string{"components", "schemas", "Error", "properties"}, []string{"message", "code"}},
				{[]string{"paths"}, []string{"/pets", "/pets/{id}", "/pets/{id}/photo"}},
				{[]string{"paths", "/pets/{id}"}, []string{"parameters", "get", "delete"}},
				{[]string{"paths", "/pets", "post"}, []string{"operationId", "security", "requestBody", "responses"}},
				{[]string{"paths", "/pets/{id}/photo", "post", "requestBody", "content", "multipart/form-data", "schema", "properties"}, []string{"title", "file", "caption"}},
				{[]string{"paths", "/pets/{id}/photo", "post", "responses", "201", "content", "application/json", "schema", "properties"}, []string{"url", "size"}},
			} {
				if got := sp.KeyOrder(tc.path...); !slices.Equal(got, tc.want) {
					t.Errorf("KeyOrder(%q) = %q, want %q", tc.path, got, tc.want)
				}
			}
			if got := sp.Paths(); !slices.Equal(got, []string{"/pets", "/pets/{id}", "/pets/{id}/photo"}) {
				t.Errorf("Paths() = %q", got)
			}
			if !strings.HasPrefix(string(sp.JSON()), `{"openapi":"3.0.3","info":{"version":"1.0.0","title":"Swagger Petstore"`) {
				t.Errorf("JSON() = %.80s", sp.JSON())
			}
			var back map[string]any
			if err := yaml.Unmarshal(sp.YAML(), &back); err != nil || back["openapi"] != "3.0.3" || back["swagger"] != nil {
				t.Errorf("YAML() is not the converted document (%v): %.200s", err, sp.YAML())
			}
			if strings.Contains(string(sp.YAML()), `"info"`) {
				t.Errorf("YAML() quotes its keys: %.200s", sp.YAML())
			}

			post := sp.Doc.Paths.Find("/pets").Post
			if post.RequestBody == nil || post.RequestBody.Value.Content.Get("application/json") == nil {
				t.Fatalf("POST /pets has no JSON body: %+v", post.RequestBody)
			}
			newPet := sp.Schema("NewPet")
			for _, tc := range []struct {
				value any
				ok    bool
			}{
				{map[string]any{"name": "Rex", "age": 3.0}, true},
				{map[string]any{"name": "Rex", "age": -1.0}, false},
				{map[string]any{"tag": "dog"}, false},
			} {
				if err := sp.Validate(newPet, tc.value, false); (err == nil) != tc.ok {
					t.Errorf("Validate(NewPet, %v) = %v, want ok %v", tc.value, err, tc.ok)
				}
			}
			if sec := sp.Doc.Components.SecuritySchemes["api_key"]; sec == nil || sec.Value.In != "header" || sec.Value.Name != "X-API-Key" {
				t.Errorf("security scheme api_key = %+v", sec)
			}
			if lim := sp.Doc.Paths.Find("/pets").Get.Parameters.GetByInAndName("query", "limit"); lim == nil || lim.Schema.Value.Max == nil || *lim.Schema.Value.Max != 100 {
				t.Errorf("GET /pets limit = %+v", lim)
			}
		})
	}
}

// A Swagger 2.0 document kin-openapi cannot convert, or whose conversion
// would outgrow it past the budget, is refused saying so.
func TestLoadRefusesSwagger2(t *testing.T) {
	t.Parallel()
	const head = "swagger: '2.0'\ninfo: {title: x, version: '1'}\n"
	manyTypes := make([]string, 200)
	for i := range manyTypes {
		manyTypes[i] = fmt.Sprintf("application/x-%d", i)
	}
	props := make([]string, 300)
	for i := range props {
		props[i] = fmt.Sprintf("p%d: {type: string}", i)
	}
	for _, tc := range []struct{ name, doc, want string }{
		{"host with a path", head + "host: example.com/api\npaths: {}\n", `convert Swagger 2.0 to OpenAPI 3.0: invalid host "example.com/api"`},
		{"broken ref", head + "paths:\n  /a:\n    get:\n      responses:\n        '200': {description: d, schema: {$ref: '#/definitions/Nope'}}\n", "Nope"},
		{"not a Swagger field type", head + "paths: []\n", "read Swagger 2.0"},
		{"array without items, at its 2.0 line", head + "paths: {}\ndefinitions:\n  A:\n    type: object\n    properties:\n      x: {type: array}\n",
			`validate bad: line 8: invalid components: schema "A": when schema type is 'array'`},
		{"unknown parameter type, at its 2.0 line", head + "paths:\n  /a:\n    get:\n      parameters:\n        - {name: p, in: query, type: string}\n        - {name: q, in: query, type: strin}\n      responses:\n        '200': {description: d}\n",
			`validate bad: line 8: invalid paths: invalid path /a: invalid operation GET: parameter "q" schema is invalid: unsupported 'type' value "strin"`},
		{"a null path item", head + "paths:\n  /a:\n", "converter failed on it"},
		{"blown up by media types", head + "consumes: [" + strings.Join(manyTypes, ", ") + "]\npaths:\n  /a:\n    post:\n      parameters:\n        - {name: b, in: body, schema: {type: object, properties: {" + strings.Join(props, ", ") + "}}}\n      responses: {'200': {description: d}}\n", "over the conversion limit"},
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

// A Swagger 2.0 query or form array is read as its collectionFormat
// says, csv when it says none: the items joined by commas, not the key
// repeated as OpenAPI 3's default would have it.
func TestLoadSwagger2CollectionFormat(t *testing.T) {
	t.Parallel()
	doc := `swagger: "2.0"
info: {title: t, version: "1"}
parameters:
  shared: {name: shared, in: query, type: array, items: {type: string}}
paths:
  /items:
    parameters:
      - {name: onItem, in: query, type: array, items: {type: string}, collectionFormat: multi}
    get:
      parameters:
        - $ref: "#/parameters/shared"
        - {name: plain, in: query, type: array, items: {type: string}}
        - {name: csv, in: query, type: array, items: {type: string}, collectionFormat: csv}
        - {name: ssv, in: query, type: array, items: {type: string}, collectionFormat: ssv}
        - {name: pipes, in: query, type: array, items: {type: string}, collectionFormat: pipes}
        - {name: multi, in: query, type: array, items: {type: string}, collectionFormat: multi}
        - {name: scalar, in: query, type: string}
      responses:
        "200": {description: ok}
    post:
      consumes: [application/x-www-form-urlencoded]
      parameters:
        - {name: csvField, in: formData, type: array, items: {type: integer}}
        - {name: pipesField, in: formData, type: array, items: {type: integer}, collectionFormat: pipes}
        - {name: multiField, in: formData, type: array, items: {type: integer}, collectionFormat: multi}
      responses:
        "200": {description: ok}
`
	sp, err := Load([]byte(doc), "collections.yaml")
	if err != nil {
		t.Fatal(err)
	}
	item := sp.Doc.Paths.Find("/items")
	params := append(append(item.Get.Parameters, item.Parameters...), &openapi3.ParameterRef{Value: sp.Doc.Components.Parameters["shared"].Value})
	want := map[string]string{
		"shared": "form false", "plain": "form false", "csv": "form false", "ssv": "spaceDelimited false",
		"pipes": "pipeDelimited false", "multi": "form true", "onItem": "form true", "scalar": "form true",
	}
	for _, ref := range params {
		p := ref.Value
		sm, err := p.SerializationMethod()
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		if got := fmt.Sprintf("%s %v", sm.Style, sm.Explode); got != want[p.Name] {
			t.Errorf("%s: style and explode %s, want %s", p.Name, got, want[p.Name])
		}
	}
	if len(params) != len(want)+1 {
		t.Errorf("%d parameters, want %d", len(params), len(want)+1)
	}
	form := item.Post.RequestBody.Value.Content.Get("application/x-www-form-urlencoded")
	for field, want := range map[string]string{"csvField": "form false", "pipesField": "pipeDelimited false", "multiField": "form true"} {
		sm := (&openapi3.Encoding{}).SerializationMethod()
		if enc := form.Encoding[field]; enc != nil {
			sm = enc.SerializationMethod()
		}
		if got := fmt.Sprintf("%s %v", sm.Style, sm.Explode); got != want {
			t.Errorf("form field %s: style and explode %s, want %s", field, got, want)
		}
	}
}

// A Swagger 2.0 operation's responses are in the media types it produces,
// else in the document's: a response it refers to too.
func TestLoadSwagger2Produces(t *testing.T) {
	t.Parallel()
	doc := `swagger: "2.0"
info: {title: t, version: "1"}
produces: [application/json, application/xml]
responses:
  NotFound: {description: gone, schema: {$ref: "#/definitions/Error"}}
  Missing: {$ref: "#/responses/NotFound"}
definitions:
  Error: {type: object, properties: {message: {type: string}}}
paths:
  /items:
    get:
      responses:
        "200": {description: ok, schema: {type: array, items: {type: string}}}
        "404": {$ref: "#/responses/NotFound"}
  /items/{id}/log:
    get:
      produces: [text/plain]
      parameters: [{name: id, in: path, required: true, type: string}]
      responses:
        "200": {description: ok, schema: {type: string}}
        "404": {$ref: "#/responses/NotFound"}
        "410": {$ref: "#/responses/Missing"}
        "400": {description: bad, schema: {$ref: "#/definitions/Error"}}
`
	sp, err := Load([]byte(doc), "produces.yaml")
	if err != nil {
		t.Fatal(err)
	}
	media := func(path, code string) []string {
		r := sp.Doc.Paths.Find(path).Get.Responses.Value(code)
		if r == nil || r.Value == nil {
			return nil
		}
		return slices.Sorted(maps.Keys(r.Value.Content))
	}
	for _, tc := range []struct {
		path, code string
		want       []string
	}{
		{"/items", "200", []string{"application/json", "application/xml"}},
		{"/items", "404", []string{"application/json", "application/xml"}},
		{"/items/{id}/log", "200", []string{"text/plain"}},
		{"/items/{id}/log", "404", []string{"text/plain"}},
		{"/items/{id}/log", "410", []string{"text/plain"}},
		{"/items/{id}/log", "400", []string{"text/plain"}},
	} {
		if got := media(tc.path, tc.code); !slices.Equal(got, tc.want) {
			t.Errorf("%s %s: content %q, want %q", tc.path, tc.code, got, tc.want)
		}
	}
	if mt := sp.Doc.Paths.Find("/items/{id}/log").Get.Responses.Value("404").Value.Content["text/plain"]; mt == nil || mt.Schema == nil || mt.Schema.Value == nil || mt.Schema.Value.Properties["message"] == nil {
		t.Errorf("the 404 in text/plain is not an Error: %+v", mt)
	}
}
