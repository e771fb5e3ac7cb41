// Package golden compares test output with files under testdata/, the way
// cmd/gofmt's tests do: run 'go test ./... -update' to rewrite them, then
// review the diff.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden files with the current output")

// Check compares got with testdata/name.golden.
func Check(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file\n got: %s\nwant: %s", path, got, want)
	}
}

// Updating reports whether the tests run with -update: a test that keeps
// its golden output elsewhere (docs/reference.md) rewrites it then.
func Updating() bool { return *update }
