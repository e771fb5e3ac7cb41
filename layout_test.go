package moviemock_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// module is the module's path, as go.mod names it.
const module = "github.com/moviemock/moviemock"

// TestInternalImportsNothingAbove: no package under internal/ (its tests
// included) imports a top-level package of the module (mock, contract,
// scenarios, fixtures, proxy, cmd/…): internal/ holds what those build on,
// never the other way round. The module's root package is the one
// exception: it only embeds openapi.yaml (go:embed cannot reach up from
// internal/spec) and imports nothing of the module itself.
func TestInternalImportsNothingAbove(t *testing.T) {
	for path, files := range goImports(t, ".") {
		if strings.HasPrefix(path, module+"/") {
			t.Errorf("the root package, the exception, imports %s (%s): it must stay a leaf", path, strings.Join(files, ", "))
		}
	}
	var pkgs int
	err := filepath.WalkDir("internal", func(dir string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if name := d.Name(); name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			return filepath.SkipDir
		}
		imports := goImports(t, dir)
		if len(imports) > 0 {
			pkgs++
		}
		for path, files := range imports {
			if above(path) {
				t.Errorf("%s imports %s (%s): a package under internal/ must not import a top-level package of the module; move it out of internal/ or the code it needs into internal/", filepath.ToSlash(dir), path, strings.Join(files, ", "))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if pkgs < 5 {
		t.Fatalf("found %d packages under internal/: is the test run from the module's root?", pkgs)
	}
}

// above reports whether the import path is a top-level package of the
// module other than the root (itself, or under a directory that is not
// internal/).
func above(path string) bool {
	rest, ok := strings.CutPrefix(path, module+"/")
	return ok && rest != "internal" && !strings.HasPrefix(rest, "internal/")
}

// goImports maps what the Go files of dir (not its subdirectories) import
// to the files importing it.
func goImports(t *testing.T, dir string) map[string][]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	fset := token.NewFileSet()
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		file := filepath.Join(dir, e.Name())
		f, err := parser.ParseFile(fset, file, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				t.Fatalf("%s: import %s: %v", file, imp.Path.Value, err)
			}
			out[path] = append(out[path], e.Name())
		}
	}
	return out
}

// The rule itself: which import paths count as above internal/.
func TestAbove(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		{module + "/mock", true},
		{module + "/proxy", true},
		{module + "/cmd/moviemock", true},
		{module + "/contract", true},
		{module, false},
		{module + "/internal/spec", false},
		{module + "/internal", false},
		{module + "x/mock", false},
		{"net/http", false},
	}
	for _, tt := range tests {
		if got := above(tt.path); got != tt.want {
			t.Errorf("above(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}
