package spec

import (
	"path/filepath"
	"strings"
	"testing"
)

// An invalid document is refused saying the line of what is wrong.
func TestLoadErrorsSayTheLine(t *testing.T) {
	t.Parallel()
	const h = "openapi: 3.0.3\ninfo: {title: x, version: '1'}\n"
	for _, tc := range []struct{ name, doc, want string }{
		{"tag description not a string", h + "paths: {}\ntags: [{name: x, description: {a: 1}}]\n",
			"load bad.yaml: line 4: cannot unmarshal object into field Tag.description of type string"},
		{"tag description in JSON", `{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{},` + "\n\n" + `"tags":[{"name":"x","description":{"a":1}}]}`,
			"load bad.yaml: line 3: cannot unmarshal object into field Tag.description of type string"},
		{"schema property called description", h + "paths: {}\ncomponents:\n  schemas:\n    A:\n      type: object\n      properties:\n        description: {type: string}\n        n: {type: string, minLength: -1}\n",
			"load bad.yaml: line 10: cannot unmarshal number -1 into field Schema.minLength of type uint64"},
		{"response description a number", h + "paths:\n  /a:\n    get:\n      responses:\n        '200': {description: 1}\n",
			"load bad.yaml: line 7: cannot unmarshal number into field Response.description"},
		{"parameter in nowhere", h + "paths:\n  /a:\n    get:\n      parameters:\n        - {name: q, in: query, schema: {type: string}}\n        - {name: r, in: nowhere, schema: {type: string}}\n      responses:\n        '200': {description: d}\n",
			`validate bad.yaml: line 8: invalid paths: invalid path /a: invalid operation GET: parameter can't have 'in' value "nowhere"`},
		{"unknown type deep in an operation", h + "paths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: d\n          content:\n            application/json:\n              schema:\n                type: object\n                properties:\n                  x: {type: strin}\n",
			`validate bad.yaml: line 14: invalid paths: invalid path /a: invalid operation GET: unsupported 'type' value "strin"`},
		{"array without items", h + "paths: {}\ncomponents:\n  schemas:\n    A:\n      type: object\n      properties:\n        x: {type: array}\n",
			`validate bad.yaml: line 9: invalid components: schema "A": when schema type is 'array'`},
		{"broken pattern", h + "paths: {}\ncomponents:\n  schemas:\n    A:\n      type: object\n      properties:\n        x: {type: string, pattern: 'a'}\n        y: {type: string, pattern: '('}\n",
			`validate bad.yaml: line 10: invalid components: schema "A": not an ECMA-262 regular expression`},
		{"path parameter not in the template", h + "paths:\n  /a:\n    get:\n      responses:\n        '200': {description: d}\n  /a/{id}:\n    get:\n      parameters: [{name: id, in: path, required: true, schema: {type: string}}, {name: x, in: path, required: true, schema: {type: string}}]\n      responses:\n        '200': {description: d}\n",
			"validate bad.yaml: line 9: invalid paths: operation GET /a/{id} must define exactly all path parameters"},
		{"reference to nothing", h + "paths: {}\ncomponents:\n  schemas:\n    A:\n      type: object\n      properties:\n        b: {$ref: '#/components/schemas/A'}\n        c: {$ref: '#/$defs/B'}\n",
			`load bad.yaml: line 10: failed to resolve "$defs" in fragment in URI: "#/$defs/B"`},
		{"security scheme type", h + "paths: {}\ncomponents:\n  securitySchemes:\n    S: {type: foo}\n",
			`validate bad.yaml: line 6: invalid components: security scheme "S": security scheme 'type' can't be "foo"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Load([]byte(tc.doc), "bad.yaml")
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("err = %v\nwant   %s…", err, tc.want)
			}
		})
	}
}

// An error in a file the document references names that file and its line.
func TestLoadFileErrorsSayTheFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"openapi.yaml":    "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /a: {$ref: 'paths/a.yaml'}\n",
		"paths/a.yaml":    "get:\n  responses:\n    '200':\n      description: d\n      content:\n        application/json:\n          schema: {$ref: '../schemas.yaml#/Thing'}\n",
		"schemas.yaml":    "Thing:\n  type: object\n  properties:\n    tags: {type: array}\nBad: {type: object, required: 3}\n",
		"components.yaml": "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    B: {$ref: 'schemas.yaml#/Bad'}\n",
		"pathitem.yaml":   "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /b: {$ref: 'paths/bad.yaml'}\n",
		"paths/bad.yaml":  "get:\n  responses:\n    '200': {description: 2}\n",
	})
	for _, tc := range []struct{ doc, want string }{
		{"openapi.yaml", `schemas.yaml line 4: invalid components: schema "Thing": when schema type is 'array'`},
		// A component that only references another file is that file's
		// object: an error in it says that file's line.
		{"components.yaml", `components.yaml: schemas.yaml line 5: cannot unmarshal number into field Schema.required`},
		// A path item copied in place: the same.
		{"pathitem.yaml", `pathitem.yaml: paths/bad.yaml line 3: cannot unmarshal number into field Response.description`},
	} {
		_, err := loadFile(t, filepath.Join(dir, tc.doc), Limits{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to say %q", tc.doc, err, tc.want)
		}
	}
}
