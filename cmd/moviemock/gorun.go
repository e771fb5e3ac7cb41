package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"time"
)

// goRunPoll is how often a process go run started looks whether go run
// is still there.
const goRunPoll = 500 * time.Millisecond

// goRunExe matches the path of a binary go run built and runs: in a
// temporary directory (/tmp/go-build123/b001/exe/moviemock), or, since Go
// 1.24 caches what go run builds, in the build cache
// (~/.cache/go-build/d1/<64 hex digits>-d/moviemock).
var goRunExe = regexp.MustCompile(`(/go-build\d+/b\d+/exe/|/[0-9a-f]{2}/[0-9a-f]{64}-d/)[^/]+$`)

// withGoRun returns ctx, ended as by SIGTERM when moviemock was started by
// go run and go run ends. go run (Go 1.26) passes no signal on: it ignores
// SIGINT and SIGQUIT (a terminal sends those to both) and dies of
// SIGTERM, leaving the program it started running, a server keeping its
// port. So a process go run started watches its parent: when the parent
// is gone (the process is given to another, init or a subreaper), it
// stops. A binary started any other way, by a shell, a service manager
// or a test, is left alone: it outlives its parent as it always has.
func withGoRun(ctx context.Context, stderr io.Writer) (context.Context, context.CancelFunc) {
	exe, err := os.Executable()
	if err != nil || !goRunExe.MatchString(filepath.ToSlash(exe)) {
		return ctx, func() {}
	}
	return watchParent(ctx, os.Getppid(), os.Getppid, goRunPoll, stderr)
}

// errGoRunEnded is why a process go run started stops.
var errGoRunEnded = errors.New("go run, which started moviemock, has ended")

// watchParent returns ctx, cancelled (cause errGoRunEnded) once ppid()
// is no longer parent, looked at every poll.
func watchParent(ctx context.Context, parent int, ppid func() int, poll time.Duration, stderr io.Writer) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	go func() {
		tick := time.NewTicker(poll)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if ppid() != parent {
					fmt.Fprintf(stderr, "moviemock: %v: stopping\n", errGoRunEnded)
					cancel(errGoRunEnded)
					return
				}
			}
		}
	}()
	return ctx, func() { cancel(context.Canceled) }
}
