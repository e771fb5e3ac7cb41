//go:build unix

package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// The binaries go run runs are known by their path; a test binary, an
// installed or a released one are not.
func TestGoRunExe(t *testing.T) {
	t.Parallel()
	for path, want := range map[string]bool{
		"/tmp/go-build499709135/b001/exe/moviemock":                                                             true,
		"/root/.cache/go-build/d1/d127f1df0309c7207dd4bba2d5710734aeceb864f0029650c1f219d29f51d5aa-d/moviemock": true,
		"/tmp/go-build499709135/b001/moviemock.test":                                                            false,
		"/usr/local/bin/moviemock":                                                                              false,
		"/home/me/src/moviemock/moviemock":                                                                      false,
		"/home/me/go/bin/moviemock":                                                                             false,
	} {
		if got := goRunExe.MatchString(path); got != want {
			t.Errorf("%s: %v, want %v", path, got, want)
		}
	}
	// This test binary is not a go run binary: its parent is not watched.
	ctx, stop := withGoRun(context.Background(), io.Discard)
	defer stop()
	if ctx != context.Background() {
		t.Error("a test binary watches its parent")
	}
}

// The watch ends the context, cause errGoRunEnded, once the parent is
// another; not before.
func TestWatchParent(t *testing.T) {
	t.Parallel()
	var parent atomic.Int64
	parent.Store(100)
	looked := make(chan struct{}, 1)
	ppid := func() int {
		select {
		case looked <- struct{}{}:
		default:
		}
		return int(parent.Load())
	}
	ctx, stop := watchParent(context.Background(), 100, ppid, time.Millisecond, io.Discard)
	defer stop()
	<-looked
	<-looked // looked at least once more since: the parent is still there
	if ctx.Err() != nil {
		t.Fatalf("ended with the parent there: %v", context.Cause(ctx))
	}
	parent.Store(1) // given to init
	select {
	case <-ctx.Done():
		if !errors.Is(context.Cause(ctx), errGoRunEnded) {
			t.Errorf("cause %v", context.Cause(ctx))
		}
	case <-time.After(hangBound):
		t.Fatal("the parent's end was not seen")
	}
}

// A server started with go run stops when go run is killed with SIGTERM
// (which go run does not pass on): its port refuses connections again.
func TestGoRunServeStopsWithGoRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds moviemock with go run; skipped with -short")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH:", err)
	}
	t.Parallel()
	cmd := exec.Command(goTool, "run", ".", "serve", "--addr", "127.0.0.1:0", "--quiet")
	// Its own process group, for the cleanup to end the server too if the
	// server outlives go run (the failure this test is for).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	logFile, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = logFile
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	log := func() string { b, _ := os.ReadFile(logFile.Name()); return string(b) }

	// The banner; then read on: the pipe ends when the last process
	// holding it, the server, exits.
	banner := make(chan string, 1)
	outEnded := make(chan struct{})
	go func() {
		defer close(outEnded)
		br := bufio.NewReader(out)
		line, _ := br.ReadString('\n')
		banner <- line
		io.Copy(io.Discard, br)
	}()
	var addr string
	select {
	case line := <-banner:
		m := regexp.MustCompile(`http://(127\.0\.0\.1:\d+)`).FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("no address in %q; stderr:\n%s", line, log())
		}
		addr = m[1]
	case <-time.After(5 * time.Minute): // a build on a loaded machine
		t.Fatalf("go run served nothing in 5 minutes; stderr:\n%s", log())
	}
	if conn, err := net.Dial("tcp", addr); err != nil {
		t.Fatalf("the server does not answer: %v", err)
	} else {
		conn.Close()
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil { // go run's PID only
		t.Fatal(err)
	}
	cmd.Process.Wait()
	select {
	case <-outEnded:
	case <-time.After(hangBound):
		t.Fatalf("the server still runs %v after go run ended; stderr:\n%s", hangBound, log())
	}
	if conn, err := net.Dial("tcp", addr); err == nil {
		conn.Close()
		t.Errorf("%s still accepts connections after the server ended", addr)
	}
	if want := "moviemock: " + errGoRunEnded.Error() + ": stopping"; !regexp.MustCompile(regexp.QuoteMeta(want)).MatchString(log()) {
		t.Errorf("stderr %q, want %q", log(), want)
	}
}
