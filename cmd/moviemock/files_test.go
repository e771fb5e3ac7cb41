//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hangBound bounds what a test waits for a command that must not hang: a
// hang's bound, which a loaded machine never reaches, not a speed.
const hangBound = time.Minute

// runBounded is run(args…) with noEnv, failing the test when it has not
// returned within hangBound.
func runBounded(t *testing.T, args ...string) (err error, stdout, stderr string) {
	t.Helper()
	var out, errOut strings.Builder
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- run(ctx, args, noEnv, &out, &errOut) }()
	select {
	case err = <-done:
	case <-time.After(hangBound):
		cancel()
		t.Fatalf("moviemock %s: still running after %v", strings.Join(args, " "), hangBound)
	}
	return err, out.String(), errOut.String()
}

// specialNodes makes, in a temporary directory, a FIFO, a symbolic link
// to a regular file and a directory, and names each with what the
// refusal says it is.
func specialNodes(t *testing.T) (dir string, kinds map[string]string) {
	t.Helper()
	dir = t.TempDir()
	for _, err := range []error{
		os.WriteFile(filepath.Join(dir, "file"), []byte("kept"), 0o644),
		os.Symlink("file", filepath.Join(dir, "link")),
		syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644),
		os.Mkdir(filepath.Join(dir, "dir"), 0o755),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	kinds = map[string]string{
		filepath.Join(dir, "fifo"): "a named pipe (FIFO)",
		filepath.Join(dir, "link"): "a symbolic link",
		filepath.Join(dir, "dir"):  "a directory",
	}
	// A device of its own, /dev/null's twin, where the test may make one
	// (Linux, as root): never a real /dev node, which a broken build
	// would replace with a file for every process on the machine.
	if runtime.GOOS == "linux" && syscall.Mknod(filepath.Join(dir, "null"), syscall.S_IFCHR|0o666, 1<<8|3) == nil {
		kinds[filepath.Join(dir, "null")] = "a character device"
	}
	return dir, kinds
}

// Every report file (contract, diff and replay's --output, proxy's
// --report) is written only as a regular file: a symbolic link, a FIFO, a
// directory or a device is refused before any work, exit 2, by name and
// kind, and left as it was.
func TestOutputOnlyRegularFile(t *testing.T) {
	t.Parallel()
	const (
		old = "../../testdata/contracts/movies/openapi.json"
		new = "../../testdata/contracts/movies2/openapi.json"
		har = "../../testdata/traffic/movies-page.har"
	)
	dir, kinds := specialNodes(t)
	commands := []struct {
		name, flag string
		args       []string
	}{
		{"diff", "--output", []string{"diff", old, new, "--output"}},
		{"replay", "--output", []string{"replay", har, "--base-url", "http://127.0.0.1:1", "--output"}},
		{"contract", "--output", []string{"contract", "--base-url", "http://127.0.0.1:1", "--output"}},
		{"proxy", "--report", []string{"proxy", "--addr", "127.0.0.1:0", "--upstream", "http://127.0.0.1:1", "--report"}},
	}
	for _, c := range commands {
		for path, kind := range kinds {
			before, err := os.Lstat(path)
			if err != nil {
				t.Fatal(err)
			}
			err, _, _ = runBounded(t, append(c.args, path)...)
			want := c.name + ": " + c.flag + " " + path + ": " + kind + ", not a regular file; give a file path or - for standard output"
			if code := exitCode(err, io.Discard); code != exitUsage || err.Error() != want {
				t.Errorf("%s %s %s: exit %d, %v\nwant exit 2, %s", c.name, c.flag, path, code, err, want)
			}
			after, err := os.Lstat(path)
			if err != nil || after.Mode() != before.Mode() || !os.SameFile(before, after) {
				t.Errorf("%s %s %s: the node changed: %v → %v (%v)", c.name, c.flag, path, before.Mode(), after, err)
			}
		}
	}
	if data, err := os.ReadFile(filepath.Join(dir, "file")); err != nil || string(data) != "kept" {
		t.Errorf("the link's target holds %q (%v)", data, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(kinds)+1 {
		t.Errorf("%d entries in %s, want the %d made: no report, no temporary file", len(entries), dir, len(kinds)+1)
	}

	// - is standard output.
	err, stdout, stderr := runBounded(t, "diff", old, new, "--format", "json", "--output", "-")
	if code := exitCode(err, io.Discard); code != exitFailure || !strings.HasPrefix(stdout, "{") || strings.Contains(stderr, "written to") {
		t.Errorf("--output -: exit %d (%v), stdout %.40q, stderr %q", code, err, stdout, stderr)
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error("--output - wrote a file named -")
	}
}

// A file to read that is not a regular file (a FIFO no writer ever opens,
// a directory) is refused at once, named with what it is: as OLD or NEW of
// diff, SRC of replay, --traffic, --spec, a fixture or a scenario file.
func TestInputsOnlyRegularFiles(t *testing.T) {
	t.Parallel()
	const (
		old = "../../testdata/contracts/movies/openapi.json"
		har = "../../testdata/traffic/movies-page.har"
	)
	dir, _ := specialNodes(t)
	fifo := filepath.Join(dir, "fifo")
	folder := func(name string) string {
		d := t.TempDir()
		if err := syscall.Mkfifo(filepath.Join(d, name), 0o644); err != nil {
			t.Fatal(err)
		}
		return d
	}
	fixtures, scenarios := folder("persons.json"), folder("mine.yaml")
	const isFIFO = ": a named pipe (FIFO), not a regular file"
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"diff OLD", []string{"diff", fifo, old}, "diff: OLD " + fifo + isFIFO},
		{"diff NEW", []string{"diff", old, fifo}, "diff: NEW " + fifo + isFIFO},
		{"diff NEW a directory", []string{"diff", old, dir}, "diff: NEW " + dir + ": a directory, not a regular file"},
		{"diff --traffic", []string{"diff", old, old, "--traffic", fifo}, "diff: --traffic: read traffic: " + fifo + isFIFO},
		{"replay SRC", []string{"replay", fifo, "--base-url", "http://127.0.0.1:1"}, "replay: read traffic: " + fifo + isFIFO},
		{"serve --spec", []string{"serve", "--addr", "127.0.0.1:0", "--spec", fifo}, "serve: --spec " + fifo + isFIFO},
		{"contract --spec", []string{"contract", "--base-url", "http://127.0.0.1:1", "--spec", fifo}, "contract: --spec " + fifo + isFIFO},
		{"fixtures check", []string{"fixtures", "check", fixtures}, filepath.Join(fixtures, "persons.json") + isFIFO},
		{"serve --fixtures", []string{"serve", "--addr", "127.0.0.1:0", "--fixtures", fixtures}, filepath.Join(fixtures, "persons.json") + isFIFO},
		{"scenarios check", []string{"scenarios", "check", scenarios}, filepath.Join(scenarios, "mine.yaml") + isFIFO},
		{"serve --scenarios", []string{"serve", "--addr", "127.0.0.1:0", "--scenarios", scenarios}, filepath.Join(scenarios, "mine.yaml") + isFIFO},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err, _, stderr := runBounded(t, tc.args...)
			if code := exitCode(err, io.Discard); code != exitUsage || !strings.Contains(err.Error()+stderr, tc.want) {
				t.Errorf("exit %d, %v (stderr %q)\nwant exit 2 and %q", code, err, stderr, tc.want)
			}
		})
	}
}

// SIGTERM stops diff and replay at once wherever they are, here waiting
// on a target that never answers (with --timeout far beyond the test):
// the process, this test binary run as moviemock, exits 2 saying it was
// stopped.
func TestSignalStopsDiffAndReplay(t *testing.T) {
	t.Parallel()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	arrived := make(chan string, 8)
	release := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- r.URL.Path
		select { // until the client is gone, or the test ends
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(ts.Close)
	t.Cleanup(func() { close(release) })
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"diff", []string{"diff", ts.URL + "/openapi.json", "../../testdata/contracts/movies/openapi.json", "--timeout", "1h"}},
		{"replay", []string{"replay", "../../testdata/traffic/movies-page.har", "--base-url", ts.URL, "--timeout", "1h"}},
	} {
		// One at a time: the server's arrivals are the command's.
		cmd := exec.Command(self, tc.args...)
		cmd.Env = append(os.Environ(), asCommand+"=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		select {
		case <-arrived:
		case err := <-exited:
			t.Fatalf("%s exited before its request (%v): %s", tc.name, err, stderr.String())
		case <-time.After(hangBound):
			cmd.Process.Kill()
			t.Fatalf("%s: no request came within %v", tc.name, hangBound)
		}
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-exited:
			var ee *exec.ExitError
			want := "moviemock: " + tc.name + ": stopped before it finished (terminated signal received); no report written"
			if !errors.As(err, &ee) || ee.ExitCode() != exitUsage || !strings.Contains(stderr.String(), want) {
				t.Errorf("%s: %v, stderr %q\nwant exit 2 and %q", tc.name, err, stderr.String(), want)
			}
		case <-time.After(hangBound):
			cmd.Process.Kill()
			<-exited
			t.Errorf("%s: still running %v after SIGTERM", tc.name, hangBound)
		}
	}
}

// SIGTERM stops serve while it is still loading its document, not only
// once it serves: here a chain of 4,000 models each holding the next,
// which kin-openapi v0.152.0's validation takes minutes over (it walks
// every model's chain afresh). Should loading get fast, serve is serving
// by the signal, and stops as it does then.
func TestSignalStopsServeWhileLoading(t *testing.T) {
	t.Parallel()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var doc strings.Builder
	doc.WriteString(`{"openapi":"3.1.0","info":{"title":"chain","version":"1"},"paths":{"/m":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/M0"}}}}}}}},"components":{"schemas":{`)
	const n = 4000
	for i := range n {
		if i > 0 {
			doc.WriteByte(',')
		}
		fmt.Fprintf(&doc, `"M%d":{"type":"object","properties":{"id":{"type":"integer"}`, i)
		if i+1 < n {
			fmt.Fprintf(&doc, `,"next":{"$ref":"#/components/schemas/M%d"}`, i+1)
		}
		doc.WriteString(`}}`)
	}
	doc.WriteString(`}}}`)
	path := filepath.Join(t.TempDir(), "chain.json")
	if err := os.WriteFile(path, []byte(doc.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "serve", "--spec", path, "--addr", "127.0.0.1:0", "--quiet")
	cmd.Env = append(os.Environ(), asCommand+"=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	time.Sleep(500 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		var ee *exec.ExitError
		want := "moviemock: serve: stopped before it finished (terminated signal received); nothing served"
		switch {
		case strings.Contains(stdout.String(), "serving"):
			t.Logf("serving before the signal (%v): loading got fast; the test no longer reaches the load", err)
		case !errors.As(err, &ee) || ee.ExitCode() != exitUsage || !strings.Contains(stderr.String(), want):
			t.Errorf("%v, stderr %q\nwant exit 2 and %q", err, stderr.String(), want)
		}
	case <-time.After(hangBound):
		cmd.Process.Kill()
		<-exited
		t.Errorf("still running %v after SIGTERM", hangBound)
	}
}
