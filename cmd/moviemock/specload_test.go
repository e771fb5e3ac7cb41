package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// serve --spec reads a Swagger 2.0 document: converted to OpenAPI 3.0,
// served as one at /openapi.json, and its operations answered in the
// order its definitions write their properties.
func TestServeSwagger2Spec(t *testing.T) {
	t.Parallel()
	base, _ := serve(t, noEnv, "--quiet", "--spec", "../../internal/spec/testdata/swagger2/petstore.yaml")
	if code, body := get(t, base+"/openapi.json"); code != 200 || !strings.HasPrefix(body, `{"openapi":"3.0.3","info":{"version":"1.0.0","title":"Swagger Petstore"`) {
		t.Errorf("GET /openapi.json: %d %.100s", code, body)
	}
	code, body := get(t, base+"/pets")
	var pets []json.RawMessage
	if code != 200 || json.Unmarshal([]byte(body), &pets) != nil || len(pets) == 0 || !strings.HasPrefix(string(pets[0]), `{"name":`) {
		t.Errorf("GET /pets: %d %s", code, body)
	}
	if code, body := get(t, base+"/pets/abc"); code < 400 || code > 499 {
		t.Errorf("GET /pets/abc (not an integer id): %d %s", code, body)
	}
}

// serve --spec FILE reads the files the document references beside it;
// one out of its folder is refused, naming the reference.
func TestServeMultiFileSpec(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"api/openapi.yaml": `openapi: 3.0.3
info: {title: pets, version: "1"}
paths:
  /pets/{id}:
    get:
      parameters:
        - {name: id, in: path, required: true, schema: {type: integer}}
      responses:
        "200":
          description: one pet
          content:
            application/json:
              schema: {$ref: "./schemas/pet.yaml#/Pet"}
`,
		"api/schemas/pet.yaml": "Pet:\n  type: object\n  required: [name, tag]\n  properties:\n    name: {type: string}\n    tag: {type: string}\n",
		"api/escape.yaml":      "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    X: {$ref: '../secret.yaml#/X'}\n",
		"secret.yaml":          "X: {type: string}\n",
	}
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	base, _ := serve(t, noEnv, "--quiet", "--spec", filepath.Join(dir, "api", "openapi.yaml"))
	if code, body := get(t, base+"/pets/1"); code != 200 || !strings.HasPrefix(body, `{"name":`) || !strings.Contains(body, `"tag":`) {
		t.Errorf("GET /pets/1: %d %s", code, body)
	}
	if code, body := get(t, base+"/openapi.json"); code != 200 || !strings.Contains(body, `"$ref":"#/components/schemas/Pet"`) {
		t.Errorf("GET /openapi.json: %d %s", code, body)
	}
	var stderr bytes.Buffer
	err := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--spec", filepath.Join(dir, "api", "escape.yaml")}, noEnv, io.Discard, &stderr)
	if err == nil || !strings.Contains(err.Error(), `escape.yaml line 6: $ref "../secret.yaml#/X": outside the document's folder`) {
		t.Errorf("serve --spec escape.yaml: %v", err)
	}
}
