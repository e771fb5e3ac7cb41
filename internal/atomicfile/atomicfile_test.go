//go:build unix

package atomicfile_test

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/moviemock/moviemock/internal/atomicfile"
	"github.com/moviemock/moviemock/internal/regularfile"
)

// Write replaces a regular file, and refuses a symbolic link, a FIFO and
// a directory, leaving each as it was and no temporary file beside it.
func TestWriteOnlyRegular(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	if err := os.WriteFile(at("target"), []byte("kept"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("target", at("link")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(at("fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(at("dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(w *bufio.Writer) error { _, err := w.WriteString("new"); return err }
	for _, name := range []string{"link", "fifo", "dir"} {
		before, _ := os.Lstat(at(name))
		err := atomicfile.Write(at(name), write)
		var re *regularfile.Error
		if !errors.As(err, &re) {
			t.Errorf("%s: %v, want a *regularfile.Error", name, err)
		}
		after, _ := os.Lstat(at(name))
		if after == nil || after.Mode() != before.Mode() || !os.SameFile(before, after) {
			t.Errorf("%s was replaced: %v → %v", name, before.Mode(), after)
		}
	}
	if data, _ := os.ReadFile(at("target")); string(data) != "kept" {
		t.Errorf("the link's target holds %q", data)
	}
	if err := atomicfile.Write(at("target"), write); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(at("target")); string(data) != "new" {
		t.Errorf("target holds %q", data)
	}
	if info, _ := os.Stat(at("target")); info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the replaced file's 0600", info.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 4 {
		t.Errorf("%d entries in the folder, want the 4 made (no temporary file left)", len(entries))
	}
}
