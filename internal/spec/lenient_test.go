package spec

import (
	"strings"
	"testing"
)

// What real generators write and kin-openapi refuses loads, with a
// warning saying what was read how; the document as written is served
// unchanged.
func TestLoadReadsWhatGeneratorsWrite(t *testing.T) {
	t.Parallel()
	const ok200 = "      responses:\n        '200': {description: d}\n"
	for _, tc := range []struct {
		name, doc, warning string
		check              func(t *testing.T, sp *Spec)
	}{
		{"empty title (Django REST framework)", "openapi: 3.0.3\ninfo: {title: '', version: ''}\npaths: {}\n", "info.title is empty",
			func(t *testing.T, sp *Spec) {
				if sp.Doc.Info.Title != "" || sp.Doc.Info.Version != "" {
					t.Errorf("info = %+v, want the document's empty strings", sp.Doc.Info)
				}
			}},
		{"undefined security scheme (springdoc)", "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    get:\n      security: [{api_key: []}]\n" + ok200,
			"paths./a.get: security requirement names api_key, which components.securitySchemes does not define",
			func(t *testing.T, sp *Spec) {
				if sec := sp.Doc.Paths.Find("/a").Get.Security; sec == nil || len(*sec) != 1 || (*sec)[0]["api_key"] == nil {
					t.Errorf("security = %v, want the document's", sec)
				}
			}},
		{"server with a variable its URL does not use (NestJS)", "openapi: 3.0.3\ninfo: {title: x, version: '1'}\nservers:\n  - url: http://localhost:3000\n    variables: {someVariable: {default: v}}\npaths: {}\n",
			"servers[0]: server has unused variable someVariable: left unvalidated (the mock calls no server)",
			func(t *testing.T, sp *Spec) {
				if len(sp.Doc.Servers) != 1 {
					t.Errorf("servers = %v, want the document's", sp.Doc.Servers)
				}
			}},
		{"parameter listed twice (NestJS)", "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    get:\n      parameters:\n        - {name: f, in: query, schema: {type: string}}\n        - {name: f, in: query, schema: {type: integer}}\n" + ok200,
			`paths./a.get: the query parameter "f" is listed twice: the first is read`,
			func(t *testing.T, sp *Spec) {
				if ps := sp.Doc.Paths.Find("/a").Get.Parameters; len(ps) != 1 || !ps[0].Value.Schema.Value.Type.Is("string") {
					t.Errorf("parameters = %v", ps)
				}
			}},
		{"path parameter not declared (NestJS)", "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /a/{path}/{id}:\n    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]\n    get:\n" + ok200,
			`paths./a/{path}/{id}.get: the path parameter "path" is not declared: read as a required string`,
			func(t *testing.T, sp *Spec) {
				p := sp.Doc.Paths.Find("/a/{path}/{id}").Get.Parameters.GetByInAndName("path", "path")
				if p == nil || !p.Required || !p.Schema.Value.Type.Is("string") {
					t.Errorf("path parameter = %+v", p)
				}
			}},
		{"security scheme with fields of another type (Litestar)", "openapi: 3.1.0\ninfo: {title: x, version: '1'}\npaths: {}\ncomponents:\n  securitySchemes:\n    BearerToken: {type: oauth2, in: header, name: Authorization, scheme: Bearer, bearerFormat: JWT, flows: {password: {tokenUrl: /login}}}\n",
			"components.securitySchemes.BearerToken: ignoring in, name, bearerFormat, which a scheme of type oauth2 has not\ncomponents.securitySchemes.BearerToken.flows.password: scopes is missing: read as none",
			func(t *testing.T, sp *Spec) {
				if ss := sp.Doc.Components.SecuritySchemes["BearerToken"].Value; ss.In != "header" || ss.Name != "Authorization" || ss.BearerFormat != "JWT" || ss.Flows == nil || ss.Flows.Password.Scopes != nil {
					t.Errorf("scheme = %+v, want the document's fields", ss)
				}
			}},
		{"component name OpenAPI 3 does not allow (tsoa)", "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: d\n          content:\n            application/json:\n              schema: {$ref: '#/components/schemas/Page[]'}\ncomponents:\n  schemas:\n    Page[]: {type: object, required: [result], properties: {result: {type: string}}}\n",
			"components.schemas.Page[]: a name OpenAPI 3 does not allow (it allows a-z, A-Z, 0-9, '.', '_' and '-'): read as written",
			func(t *testing.T, sp *Spec) {
				if sp.Schema("Page[]") == nil || sp.Doc.Components.Schemas["Page_"] != nil {
					t.Errorf("schemas = %v, want the document's names", sp.Doc.Components.Schemas)
				}
				if err := sp.Validate(sp.Schema("Page[]"), map[string]any{}, false); err == nil {
					t.Error("Validate(Page[], {}) = nil, want result required")
				}
			}},
		{"Swagger 2.0 habits in schemas (rswag)", "openapi: 3.0.0\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    put:\n      parameters:\n        - {name: status, in: query, schema: {type: string, enum: {draft: Drafts, published: Published}}}\n      requestBody:\n        content:\n          multipart/form-data:\n            schema: {type: file}\n" + ok200 + "components:\n  schemas:\n    Blog: {type: object, required: true}\n",
			"line 7: paths./a.put.parameters.schema.enum is a mapping of each value to its description: its keys are the values\nline 11: paths./a.put.requestBody.content.multipart/form-data.schema.type is file (Swagger 2.0's): read as a string of binary\nline 16: components.schemas.Blog.required is true, not a list of property names: ignored",
			func(t *testing.T, sp *Spec) {
				op := sp.Doc.Paths.Find("/a").Put
				if e := op.Parameters[0].Value.Schema.Value.Enum; len(e) != 2 || e[0] != "draft" || e[1] != "published" {
					t.Errorf("enum = %v, want [draft published]", e)
				}
				if b := op.RequestBody.Value.Content["multipart/form-data"].Schema.Value; !b.Type.Is("string") || b.Format != "binary" {
					t.Errorf("file body = %s %s, want a string of binary", b.Type, b.Format)
				}
				if r := sp.Schema("Blog").Required; len(r) != 0 {
					t.Errorf("Blog.required = %v, want none", r)
				}
			}},
		{"tuple items in 3.1 (ogen)", "openapi: 3.1.0\ninfo: {title: x, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    T: {type: array, items: [{type: integer}, {type: boolean}], additionalItems: false}\n", "",
			func(t *testing.T, sp *Spec) {
				for _, tc := range []struct {
					v  []any
					ok bool
				}{{[]any{1.0, true}, true}, {[]any{"x", true}, false}, {[]any{1.0, true, 3.0}, false}} {
					if err := sp.Validate(sp.Schema("T"), tc.v, false); (err == nil) != tc.ok {
						t.Errorf("Validate(T, %v) = %v, want ok %v", tc.v, err, tc.ok)
					}
				}
			}},
		{"tuple items in 3.0", "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    T: {type: array, items: [{type: integer}]}\n",
			"line 6: components.schemas.T.items is a list (a tuple, which OpenAPI 3.0 has not): any item is accepted",
			func(t *testing.T, sp *Spec) {
				if err := sp.Validate(sp.Schema("T"), []any{"x"}, false); err != nil {
					t.Errorf("Validate(T, [x]) = %v", err)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sp, err := Load([]byte(tc.doc), "gen.yaml")
			if err != nil {
				t.Fatal(err)
			}
			w := strings.Join(sp.Warnings(), "\n")
			if tc.warning != "" && !strings.Contains(w, tc.warning) || tc.warning == "" && w != "" {
				t.Errorf("warnings = %q, want %q", w, tc.warning)
			}
			if string(sp.YAML()) != tc.doc {
				t.Errorf("YAML() is not the document as written:\n%s", sp.YAML())
			}
			tc.check(t, sp)
		})
	}
}
