package spec

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// writeFiles writes files (name → text) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func loadFile(t *testing.T, path string, lim Limits) (*Spec, error) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return LoadFile(data, path, lim)
}

var petFiles = map[string]string{
	"openapi.yaml": `openapi: 3.0.3
info: {title: pets, version: "1"}
paths:
  /pets:
    $ref: "./paths/pets.yaml"
  /pets/{id}:
    get:
      parameters:
        - $ref: "./common.yaml#/parameters/Id"
      responses:
        "200":
          description: one pet
          content:
            application/json:
              schema: {$ref: "./schemas/pet.yaml#/Pet"}
        "404": {$ref: "common.yaml#/responses/NotFound"}
components:
  schemas:
    Pet: {$ref: "./schemas/pet.yaml#/Pet"}
`,
	"paths/pets.yaml": `get:
  responses:
    "200":
      description: pets
      content:
        application/json:
          schema: {type: array, items: {$ref: "../schemas/pet.yaml#/Pet"}}
`,
	"schemas/pet.yaml": `Pet:
  type: object
  required: [name]
  properties:
    name: {type: string}
    owner: {$ref: "#/Owner"}
    children: {type: array, items: {$ref: "#/Pet"}}
Owner:
  type: object
  properties:
    login: {type: string}
    id: {type: integer}
`,
	"common.yaml": `parameters:
  Id: {name: id, in: path, required: true, schema: {type: integer}}
responses:
  NotFound:
    description: not found
    content:
      application/json:
        schema: {$ref: "schemas/pet.yaml#/Owner"}
`,
}

// A document in several files loads as one: the other files' objects are
// components (in place of a component that only referenced them), every
// reference internal, key order kept.
func TestLoadFileBundlesReferencedFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, petFiles)
	sp, err := loadFile(t, filepath.Join(dir, "openapi.yaml"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path []string
		want []string
	}{
		{[]string{"paths"}, []string{"/pets", "/pets/{id}"}},
		{[]string{"components", "schemas"}, []string{"Pet", "Owner"}},
		{[]string{"components", "schemas", "Pet", "properties"}, []string{"name", "owner", "children"}},
		{[]string{"components", "schemas", "Owner", "properties"}, []string{"login", "id"}},
		{[]string{"components", "parameters"}, []string{"Id"}},
		{[]string{"components", "responses"}, []string{"NotFound"}},
		{[]string{"paths", "/pets", "get", "responses"}, []string{"200"}},
	} {
		if got := sp.KeyOrder(tc.path...); !slices.Equal(got, tc.want) {
			t.Errorf("KeyOrder(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
	if strings.Contains(string(sp.JSON()), ".yaml") {
		t.Errorf("a reference to a file is left: %s", sp.JSON())
	}
	pet := sp.Doc.Components.Schemas["Pet"]
	if ref := pet.Value.Properties["children"].Value.Items.Ref; ref != "#/components/schemas/Pet" {
		t.Errorf("Pet.children.items = %q", ref)
	}
	list := sp.Doc.Paths.Find("/pets").Get.Responses.Status(200).Value.Content.Get("application/json").Schema.Value
	if list.Items.Value != pet.Value {
		t.Errorf("GET /pets items is not the Pet component")
	}
	for _, tc := range []struct {
		value map[string]any
		ok    bool
	}{
		{map[string]any{"name": "Rex", "owner": map[string]any{"id": 1.0}}, true},
		{map[string]any{"name": "Rex", "owner": map[string]any{"id": "one"}}, false},
		{map[string]any{"name": "Rex", "children": []any{map[string]any{}}}, false},
	} {
		if err := sp.Validate(pet.Value, tc.value, false); (err == nil) != tc.ok {
			t.Errorf("Validate(Pet, %v) = %v, want ok %v", tc.value, err, tc.ok)
		}
	}
	if _, err := Load([]byte(petFiles["openapi.yaml"]), "openapi.yaml"); err == nil || !strings.Contains(err.Error(), `line 5: $ref "./paths/pets.yaml" names another file`) {
		t.Errorf("not loaded from a file: %v", err)
	}
}

// A reference the loader will not follow, or that leads nowhere, is
// refused naming the reference and the file it is in.
func TestLoadFileRefusesReferences(t *testing.T) {
	t.Parallel()
	const head = "openapi: 3.0.3\ninfo: {title: x, version: '1'}\n"
	schemaRef := func(ref string) string {
		return head + "paths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: d\n          content:\n            application/json:\n              schema: {$ref: '" + ref + "'}\n"
	}
	big := "X:\n  type: object\n  description: " + strings.Repeat("x", 2000) + "\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		max   int64
		want  string
	}{
		{"dot-dot out of the folder", map[string]string{"doc/openapi.yaml": schemaRef("../outside.yaml#/X"), "outside.yaml": "X: {type: string}\n"}, 0,
			`openapi.yaml line 11: $ref "../outside.yaml#/X": outside the document's folder`},
		{"out of the folder from another file", map[string]string{"doc/openapi.yaml": schemaRef("sub/a.yaml#/X"), "doc/sub/a.yaml": "X: {$ref: '../../outside.yaml#/X'}\n", "outside.yaml": "X: {type: string}\n"}, 0,
			`sub/a.yaml line 1: $ref "../../outside.yaml#/X": outside the document's folder`},
		{"absolute path", map[string]string{"doc/openapi.yaml": schemaRef("/etc/passwd")}, 0, `$ref "/etc/passwd": an absolute path`},
		{"URL", map[string]string{"doc/openapi.yaml": schemaRef("https://example.com/x.yaml#/X")}, 0, `$ref "https://example.com/x.yaml#/X": a URL`},
		{"missing file", map[string]string{"doc/openapi.yaml": schemaRef("nope.yaml#/X")}, 0, `openapi.yaml line 11: $ref "nope.yaml#/X": no such file`},
		{"missing object", map[string]string{"doc/openapi.yaml": schemaRef("a.yaml#/Nope"), "doc/a.yaml": "X: {type: string}\n"}, 0, `$ref "a.yaml#/Nope": a.yaml has nothing at /Nope`},
		{"cycle of schemas between files", map[string]string{"doc/openapi.yaml": schemaRef("a.yaml#/A"), "doc/a.yaml": "A: {$ref: 'b.yaml#/B'}\n", "doc/b.yaml": "B: {$ref: 'a.yaml#/A'}\n"}, 0,
			"a cycle of references that stands for nothing: #/components/schemas/A → #/components/schemas/B → #/components/schemas/A"},
		{"cycle of path items between files", map[string]string{"doc/openapi.yaml": head + "paths:\n  /a: {$ref: 'p.yaml'}\n", "doc/p.yaml": "$ref: 'q.yaml'\n", "doc/q.yaml": "$ref: 'p.yaml'\n"}, 0,
			`q.yaml line 1: $ref "p.yaml": a cycle of references between files`},
		{"referenced file over the size budget", map[string]string{"doc/openapi.yaml": schemaRef("big.yaml#/X"), "doc/big.yaml": big}, 1000,
			"big.yaml: the document and the files it references are more than 1000 bytes: over the size limit (raise it with --max-spec-bytes)"},
		{"referenced file nested too deep", map[string]string{"doc/openapi.yaml": schemaRef("deep.yaml#/X"), "doc/deep.yaml": "X: " + strings.Repeat("[", 600) + strings.Repeat("]", 600) + "\n"}, 0,
			"deep.yaml: line 1: nested more than 512 levels deep"},
		{"referenced file not YAML", map[string]string{"doc/openapi.yaml": schemaRef("bad.yaml#/X"), "doc/bad.yaml": "X: [\n"}, 0, "parse bad.yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeFiles(t, dir, tc.files)
			_, err := loadFile(t, filepath.Join(dir, "doc", "openapi.yaml"), Limits{MaxBytes: tc.max})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to say %q", err, tc.want)
			}
		})
	}
}

// A symbolic link in the folder leading out of it is refused; one
// leading to a file in the folder is followed.
func TestLoadFileSymlinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"doc/openapi.yaml": "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    In: {$ref: 'in.yaml#/X'}\n    Out: {$ref: 'out.yaml#/X'}\n",
		"doc/real.yaml":    "X: {type: string}\n",
		"secret.yaml":      "X: {type: integer}\n",
	})
	if err := os.Symlink(filepath.Join(dir, "doc", "real.yaml"), filepath.Join(dir, "doc", "in.yaml")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Symlink(filepath.Join(dir, "secret.yaml"), filepath.Join(dir, "doc", "out.yaml")); err != nil {
		t.Fatal(err)
	}
	_, err := loadFile(t, filepath.Join(dir, "doc", "openapi.yaml"), Limits{})
	if err == nil || !strings.Contains(err.Error(), `line 7: $ref "out.yaml#/X": a symbolic link out of the document's folder`) {
		t.Fatalf("err = %v", err)
	}
	os.Remove(filepath.Join(dir, "doc", "out.yaml"))
	os.WriteFile(filepath.Join(dir, "doc", "openapi.yaml"), []byte("openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    In: {$ref: 'in.yaml#/X'}\n"), 0o644)
	sp, err := loadFile(t, filepath.Join(dir, "doc", "openapi.yaml"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if s := sp.Schema("In"); s == nil || !s.Type.Is("string") {
		t.Errorf("In = %+v", s)
	}
}

// FuzzLoadFile feeds a document and a file it may reference to LoadFile:
// it must answer without a panic, a hang or a blow-up, reading nothing
// outside the folder.
func FuzzLoadFile(f *testing.F) {
	f.Add([]byte(petFiles["openapi.yaml"]), []byte(petFiles["schemas/pet.yaml"]))
	f.Add([]byte("openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /a: {$ref: 'b.yaml'}\n  /b: {$ref: 'b.yaml#/x'}\ncomponents:\n  schemas:\n    A: {$ref: 'b.yaml#/A'}\n    B: {$ref: '#/components/schemas/A'}\n"),
		[]byte("get: {responses: {'200': {description: d, content: {a/b: {schema: {$ref: '#/A'}}}}}}\nA: {$ref: 'b.yaml#/A'}\nx: {$ref: 'openapi.yaml#/paths/~1a'}\n"))
	f.Add([]byte(`{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{},"components":{"schemas":{"A":{"$ref":"b.yaml#/A"}}}}`), []byte(`{"A":{"type":"array","items":{"$ref":"#/A"}}}`))
	f.Fuzz(func(t *testing.T, main, other []byte) {
		if len(main)+len(other) > fuzzMaxBytes {
			return
		}
		dir := t.TempDir()
		for name, data := range map[string][]byte{"openapi.yaml": main, "b.yaml": other} {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := LoadFile(main, filepath.Join(dir, "openapi.yaml"), Limits{MaxBytes: fuzzMaxBytes})
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; n > fuzzMaxAlloc {
			t.Fatalf("loading %d+%d bytes allocated %d MiB (err %v)", len(main), len(other), n>>20, err)
		}
	})
}
