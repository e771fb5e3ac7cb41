package compare_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract/compare"
)

// A document split over files is compared whole: its references to other
// files are read beside it, on each side, and a change inside another
// file is found; given no file to read beside, the reference is refused,
// naming its side.
func TestCompareDocumentsOfSeveralFiles(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	main := `openapi: 3.0.3
info: {title: things, version: "1"}
paths:
  /things/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        "200":
          description: ok
          content: {application/json: {schema: {$ref: "./models.yaml#/Thing"}}}
`
	write := func(dir, name, text string) string {
		p := filepath.Join(root, dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	oldPath := write("old", "openapi.yaml", main)
	write("old", "models.yaml", "Thing:\n  type: object\n  required: [id, name]\n  properties:\n    id: {type: integer}\n    name: {type: string}\n")
	newPath := write("new", "openapi.yaml", main)
	write("new", "models.yaml", "Thing:\n  type: object\n  required: [id]\n  properties:\n    id: {type: integer}\n")

	r, err := compare.Compare([]byte(main), []byte(main), oldPath, newPath, compare.Options{OldPath: oldPath, NewPath: newPath})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range r.Changes {
		if c.Method == "GET" && c.Path == "/things/{id}" && strings.Contains(c.Where, "name") {
			found = true
		}
	}
	if !found {
		t.Errorf("the property removed in models.yaml is not among the changes: %+v", r.Changes)
	}

	_, err = compare.Compare([]byte(main), []byte(main), "old", "new", compare.Options{NewPath: newPath})
	var le *compare.LoadError
	if !errors.As(err, &le) || le.Side != "OLD" || !strings.Contains(err.Error(), "another file") {
		t.Errorf("a reference to another file with no file to read beside: %v, want OLD refused", err)
	}
}
