// Command moviemock is a mock server and contract-test runner for the Movie
// and Review Service. See README.md, or run moviemock help.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	ctx, stopWatching := withGoRun(ctx, os.Stderr) // go run passes no SIGTERM on
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stopWatching()
	stop()
	os.Exit(exitCode(err, os.Stderr))
}
