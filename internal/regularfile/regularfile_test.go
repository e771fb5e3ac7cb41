//go:build unix

package regularfile_test

import (
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/moviemock/moviemock/internal/regularfile"
)

// nodes makes one of each kind of node in a temporary directory: a
// regular file, a symbolic link to it, a FIFO, a directory and a socket.
func nodes(t *testing.T) (dir string, kinds map[string]string) {
	t.Helper()
	dir = t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "file"), []byte("data"), 0o644))
	must(os.Symlink("file", filepath.Join(dir, "link")))
	must(syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644))
	must(os.Mkdir(filepath.Join(dir, "dir"), 0o755))
	// A socket path must be short: the temporary directory may not be.
	ln, err := net.Listen("unix", filepath.Join(dir, "sock"))
	if err != nil {
		t.Logf("no socket: %v", err)
	} else {
		t.Cleanup(func() { ln.Close() })
	}
	return dir, map[string]string{
		"fifo": "a named pipe (FIFO)", "dir": "a directory", "sock": "a socket", "link": "a symbolic link",
	}
}

// Open reads a regular file, through a link too, and refuses a FIFO (at
// once, without a writer), a directory, a socket and a device by name.
func TestOpen(t *testing.T) {
	dir, kinds := nodes(t)
	for _, name := range []string{"file", "link"} {
		f, err := regularfile.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		data, _ := io.ReadAll(f)
		f.Close()
		if string(data) != "data" {
			t.Errorf("%s: read %q", name, data)
		}
	}
	kinds["/dev/null"] = "a character device"
	for name, kind := range kinds {
		if name == "link" {
			continue
		}
		path := name
		if !filepath.IsAbs(name) {
			path = filepath.Join(dir, name)
		}
		if _, err := os.Lstat(path); err != nil {
			continue // no socket here
		}
		f, err := regularfile.Open(path)
		var re *regularfile.Error
		if !errors.As(err, &re) || re.Kind != kind || re.Path != path {
			t.Errorf("Open(%s) = %v, %v; want %s refused", name, f, err, kind)
		}
		if f != nil {
			f.Close()
		}
	}
}

// CheckTarget lets a new or regular file be written, and refuses every
// other node, a symbolic link as itself.
func TestCheckTarget(t *testing.T) {
	dir, kinds := nodes(t)
	for _, name := range []string{"file", "missing"} {
		if err := regularfile.CheckTarget(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	kinds["/dev/null"] = "a character device"
	for name, kind := range kinds {
		path := name
		if !filepath.IsAbs(name) {
			path = filepath.Join(dir, name)
		}
		if _, err := os.Lstat(path); err != nil {
			continue
		}
		err := regularfile.CheckTarget(path)
		if want := path + ": " + kind + ", not a regular file"; err == nil || err.Error() != want {
			t.Errorf("CheckTarget(%s) = %v, want %q", name, err, want)
		}
	}
}

// CheckFS follows a link in an os.DirFS and names what is not a file.
func TestCheckFS(t *testing.T) {
	dir, _ := nodes(t)
	fsys := os.DirFS(dir)
	for name, want := range map[string]string{"file": "", "link": "", "fifo": "shown: a named pipe (FIFO), not a regular file", "dir": "shown: a directory, not a regular file"} {
		err := regularfile.CheckFS(fsys, name, "shown")
		if got := ""; err != nil {
			got = err.Error()
			if got != want {
				t.Errorf("%s: %q, want %q", name, got, want)
			}
		} else if want != "" {
			t.Errorf("%s: nil, want %q", name, want)
		}
	}
}
