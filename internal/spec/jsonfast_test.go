package spec

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"
)

// loadOpts are the options Load and LoadLimited load with.
var loadOpts = []openapi3.ValidationOption{openapi3.DisableExamplesValidation(), openapi3.DisableSchemaDefaultsValidation()}

// routesAgree loads data by load (which takes the scanned route when it
// can) and by loadTree alone, and fails unless both end alike: the same
// error, or the same document, warnings, JSON, YAML and tree. It reports
// whether the scanned route took the document.
func routesAgree(t *testing.T, data []byte) (scanned bool) {
	t.Helper()
	got, errGot := load(data, "doc", from{}, loadOpts...)
	want, errWant := loadTree(data, "doc", from{}, loadOpts...)
	if errGot != nil || errWant != nil {
		if errGot == nil || errWant == nil || errGot.Error() != errWant.Error() {
			t.Fatalf("load: %v\nthrough the tree: %v", errGot, errWant)
		}
		return false
	}
	gotDoc, err := json.Marshal(got.Doc)
	if err != nil {
		t.Fatal(err)
	}
	wantDoc, err := json.Marshal(want.Doc)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gotDoc, wantDoc) {
		t.Fatalf("kin-openapi's document differs:\n%s\nthrough the tree:\n%s", gotDoc, wantDoc)
	}
	if !slices.Equal(got.Warnings(), want.Warnings()) {
		t.Fatalf("warnings %q, through the tree %q", got.Warnings(), want.Warnings())
	}
	if !bytes.Equal(got.JSON(), want.JSON()) {
		t.Fatalf("JSON differs:\n%s\nthrough the tree:\n%s", got.JSON(), want.JSON())
	}
	if !bytes.Equal(got.YAML(), want.YAML()) {
		t.Fatalf("YAML differs:\n%s\nthrough the tree:\n%s", got.YAML(), want.YAML())
	}
	if !sameTree(got.Root(), want.Root()) {
		t.Fatal("the trees differ")
	}
	if !isJSON(data) {
		return false
	}
	compact, ok := scanJSON(data)
	if !ok {
		return false
	}
	_, ok = decodeScanned(compact)
	return ok
}

func sameTree(a, b *yaml.Node) bool {
	if a.Kind != b.Kind || a.Tag != b.Tag || a.Value != b.Value || a.Style != b.Style || a.Line != b.Line || len(a.Content) != len(b.Content) {
		return false
	}
	for i := range a.Content {
		if !sameTree(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}

const routesHead = `{"openapi":"3.1.0","info":{"title":"t","version":"1"},`

// Every JSON document is loaded alike by the scanned route and through
// the tree; the FastAPI documents of the corpus all take the scanned
// route.
func TestScannedRouteAgrees(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		doc     string
		scanned bool
	}{
		{"plain", routesHead + `"paths":{}}`, true},
		{"pretty", "{\n  \"openapi\": \"3.0.3\",\n  \"info\": {\"title\": \"t\", \"version\": \"1\"},\n  \"paths\": {\"/a\": {\"get\": {\"responses\": {\"200\": {\"description\": \"ok\"}}}}}\n}\n", true},
		{"fraction", routesHead + `"paths":{"/a":{"get":{"parameters":[{"name":"q","in":"query","schema":{"type":"number","maximum":2.5,"default":0.1}}],"responses":{"200":{"description":"ok"}}}}}}`, true},
		{"integral float in an integer field", routesHead + `"paths":{"/a":{"get":{"parameters":[{"name":"q","in":"query","schema":{"type":"string","maxLength":5.0}}],"responses":{"200":{"description":"ok"}}}}}}`, true},
		{"integral floats", routesHead + `"paths":{"/a":{"get":{"parameters":[{"name":"q","in":"query","schema":{"type":"number","exclusiveMinimum":0.0,"maximum":1e3,"default":-0.0}}],"responses":{"200":{"description":"ok"}}}}},"components":{"schemas":{"A":{"type":"number","minimum":1888.0,"maxLength":1.5e1}}}}`, true},
		{"exponent", routesHead + `"paths":{},"components":{"schemas":{"A":{"type":"string","maxLength":1e18}}}}`, true},
		{"long integer", routesHead + `"paths":{"/a":{"get":{"parameters":[{"name":"q","in":"query","schema":{"type":"integer","maximum":12345678901234567890}}],"responses":{"200":{"description":"ok"}}}}}}`, false},
		{"minus zero", routesHead + `"paths":{},"x-a":-0}`, false},
		{"names alike but for case", routesHead + `"paths":{"/a":{"get":{"responses":{"200":{"description":"ok"}}},"GET":{"responses":{"201":{"description":"created"}}}}}}`, true},
		{"names alike but for case, reversed", routesHead + `"paths":{"/a":{"GET":{"responses":{"201":{"description":"created"}}},"get":{"responses":{"200":{"description":"ok"}}}}}}`, true},
		{"Description beside description", routesHead + `"paths":{"/a":{"get":{"description":"a","Description":"b","responses":{"200":{"description":"ok"}}}},"/b":{"get":{"Description":"b","description":"a","responses":{"200":{"description":"ok"}}}}},"components":{"schemas":{"A":{"Title":"x","title":"y"}}}}`, true},
		{"repeated name", routesHead + `"paths":{},"paths":{}}`, false},
		{"escaped names", routesHead + `"p\u0061ths":{"/\u0061":{"get":{"responses":{"200":{"description":"\ud83d\ude80"}}}}}}`, true},
		{"extensions", routesHead + `"x-top":{"a":[1,2.5]},"paths":{"x-p":{"b":true},"/a":{"x-i":null,"get":{"responses":{"200":{"description":"ok"}}}}},"components":{"x-c":1,"schemas":{"A":{"type":"object","x-s":"s"}}}}`, true},
		{"operations", routesHead + `"paths":{"/a":{"summary":"s","parameters":[{"name":"q","in":"query","schema":{"type":"integer"}}],"x-i":1,"get":{"operationId":"g","responses":{"x-r":[1],"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/A"}}}},"default":{"$ref":"#/components/responses/E"}}},"post":{"requestBody":{"content":{"application/json":{"schema":{"type":"object"}}}},"responses":{"201":{"description":"created"}},"x-o":true}},"/b":{"get":{"responses":{"200":{"description":"ok"}}}}},"components":{"schemas":{"A":{"type":"object"}},"responses":{"E":{"description":"e"}}}}`, true},
		{"a path item by reference", routesHead + `"paths":{"/b":{"$ref":"#/components/pathItems/B"}},"components":{"pathItems":{"B":{"get":{"responses":{"200":{"description":"ok"}}}}}}}`, true},
		{"responses null", routesHead + `"paths":{"/a":{"delete":{"responses":null}}}}`, false},
		{"operation names alike but for case", routesHead + `"paths":{"/a":{"get":{"responses":{"200":{"description":"ok"}},"Responses":{"201":{"description":"created"}}}}}}`, true},
		{"OpenAPI 3.2 query", `{"openapi":"3.2.0","info":{"title":"t","version":"1"},"paths":{"/a":{"query":{"responses":{"200":{"description":"ok"}}},"additionalOperations":{"LINK":{"responses":{"200":{"description":"ok"}}}}}}}`, true},
		{"null schema", routesHead + `"paths":{},"components":{"schemas":{"A":null,"B":true}}}`, false},
		{"boolean schema", routesHead + `"paths":{},"components":{"schemas":{"B":true}}}`, true},
		{"paths null", routesHead + `"paths":null}`, true},
		{"components not an object", routesHead + `"paths":{},"components":[]}`, false},
		{"Paths", routesHead + `"Paths":{"/a":{"get":{"responses":{"200":{"description":"ok"}}}}}}`, false},
		{"paths and Paths", routesHead + `"paths":{"/a":{"get":{"responses":{"200":{"description":"ok"}}}}},"Paths":{"/b":{"get":{"responses":{"200":{"description":"ok"}}}}}}`, false},
		{"schemas", routesHead + `"paths":{},"components":{"schemas":{"A":{"type":"object","properties":{"a":{"type":"array","items":{"anyOf":[{"type":"string"},{"$ref":"#/components/schemas/B"},{"type":"null"}]}},"b":{"allOf":[{"$ref":"#/components/schemas/B"}],"x-b":1},"c":{"oneOf":[{"type":"integer"},{"type":"object","properties":{"d":{"type":"string","x-d":[1]}}}]},"e":true,"f":{"$ref":"#/components/schemas/B","description":"d"}},"required":["a"],"x-a":{}},"B":{"type":"object","properties":{},"additionalProperties":{"type":"string"}}}}}`, true},
		{"schema names alike but for case", routesHead + `"paths":{},"components":{"schemas":{"A":{"type":"object","properties":{"a":{"type":"string"}},"Properties":{"b":{"type":"string"}}},"B":{"type":"array","Items":{"type":"string"},"items":{"type":"integer"}},"C":{"anyOf":[{"type":"string"}],"ANYOF":[{"type":"integer"}]},"D":{"$REF":"#/components/schemas/A"}}}}`, true},
		{"null subschemas", routesHead + `"paths":{},"components":{"schemas":{"A":{"type":"object","properties":{"a":null}},"B":{"type":"array","items":null},"C":{"anyOf":[null,{"type":"string"}]}}}}`, false},
		{"subschemas of other kinds", routesHead + `"paths":{},"components":{"schemas":{"A":{"type":"object","properties":[]}}}}`, false},
		{"unknown field", routesHead + `"paths":{"/a":{"get":{"Description":"d","responses":{"200":{"description":"ok"}}}}}}`, true},
		{"a path item refused", routesHead + `"paths":{"/a":{"get":{"responses":{"200":{"description":5}}}}}}`, false},
		{"a schema refused", routesHead + `"paths":{},"components":{"schemas":{"A":{"type":"object","properties":[]}}}}`, false},
		{"an empty $ref", routesHead + `"paths":{"/a":{"$ref":""}},"components":{"schemas":{"A":{"$ref":""}}}}`, true},
		{"a file named in an extension", routesHead + `"paths":{},"x-a":{"$ref":"other.yaml"},"components":{"examples":{"E":{"value":{"$ref":"other.yaml"}}}}}`, true},
		{"a file named by a schema", routesHead + `"paths":{},"components":{"schemas":{"A":{"$ref":"other.yaml"}}}}`, false},
		{"the version's name alike but for case", `{"openApi":"3.0.3","info":{"title":"t","version":"1"},"paths":{}}`, false},
		{"swagger beside openapi", `{"openapi":"3.0.3","Swagger":"2.0","info":{"title":"t","version":"1"},"paths":{}}`, false},
		{"a reference to nothing", routesHead + `"paths":{},"components":{"schemas":{"A":{"$ref":"#/components/schemas/B"}}}}`, false},
		{"invalid UTF-8", routesHead + "\"paths\":{},\"x-a\":\"\xff\"}", false},
		{"syntax", routesHead + `"paths":{}`, false},
		{"after the document", routesHead + `"paths":{}} {}`, false},
		{"enum at its budget", routesHead + `"paths":{},"x-e":{"enum":[` + strings.Repeat("1,", MaxEnumValues-1) + `1]}}`, true},
		{"enum past its budget", routesHead + `"paths":{},"x-e":{"enum":[` + strings.Repeat("1,", MaxEnumValues) + `1]}}`, false},
		{"deep", routesHead + `"paths":{},"x-d":` + strings.Repeat("[", fastMaxDepth-2) + strings.Repeat("]", fastMaxDepth-2) + `}`, true},
		{"deeper", routesHead + `"paths":{},"x-d":` + strings.Repeat("[", MaxDepth-1) + strings.Repeat("]", MaxDepth-1) + `}`, false},
		{"too deep", routesHead + `"paths":{},"x-d":` + strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1) + `}`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := routesAgree(t, []byte(tc.doc)); got != tc.scanned {
				t.Errorf("scanned route taken: %v, want %v", got, tc.scanned)
			}
		})
	}

	var files []string
	for _, glob := range []string{"../../testdata/corpus/*/openapi/*.json", "../../testdata/contracts/*/openapi.json"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 100 {
		t.Fatalf("only %d documents found", len(files))
	}
	t.Run("corpus", func(t *testing.T) {
		t.Parallel()
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if !routesAgree(t, data) {
				t.Errorf("%s: not taken by the scanned route", f)
			}
		}
	})
}

// FuzzLoadRoutes: whatever JSON text it is given, the scanned route ends
// as the tree's does.
func FuzzLoadRoutes(f *testing.F) {
	for _, s := range []string{
		routesHead + `"paths":{"/a/{id}":{"get":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer","maximum":1.5}}],"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/A"}}}}}}}},"components":{"schemas":{"A":{"type":"object","properties":{"a":{"type":"string","maxLength":3}}}}}}`,
		routesHead + `"paths":{"x-a":1,"/a":{"get":{"responses":{"200":{"description":"ok"}}},"GET":{}}}}`,
		routesHead + `"paths":{},"components":{"schemas":{"A":null}},"x-n":[1e5,1.0,-0,0.25]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 16<<10 || !isJSON(data) {
			return
		}
		routesAgree(t, data)
	})
}

// BenchmarkLoadJSON loads a FastAPI document as diff does (the kin-openapi
// document only) and as serve does (the tree, its JSON and YAML too).
func BenchmarkLoadJSON(b *testing.B) {
	data, err := os.ReadFile("../../testdata/contracts/movies/openapi.json")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("doc", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := Load(data, "doc"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("served", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			s, err := Load(data, "doc")
			if err != nil {
				b.Fatal(err)
			}
			_, _, _ = s.Root(), s.JSON(), s.YAML()
		}
	})
}
