package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
)

// Every bad value of a contract flag is a usage error (exit 2) naming the
// flag.
func TestContractBadFlags(t *testing.T) {
	t.Parallel()
	base := "http://127.0.0.1:1"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-failures", "-1"}, "--max-failures"},
		{[]string{"--max-failures", "many"}, "-max-failures"},
		{[]string{"--workers", "0"}, "--workers"},
		{[]string{"--workers", "x"}, "-workers"},
		{[]string{"--examples", "-3"}, "--examples"},
		{[]string{"--timeout", "5"}, "-timeout"},
		{[]string{"--timeout", "-1s"}, "-timeout"},
		{[]string{"--max-response-time", "0s"}, "-max-response-time"},
		{[]string{"--seed", "-1"}, "-seed"},
		{[]string{"--no-writes=maybe"}, "-no-writes"},
		{[]string{"--allow-destructive=2"}, "-allow-destructive"},
		{[]string{"--framework-statuses", "700"}, "--framework-statuses"},
		{[]string{"--format", "yaml"}, "--format"},
		{[]string{"--base-url", "localhost:8000"}, "--base-url"},
		{[]string{"--id", "movie_id"}, "-id"},
		{[]string{"--id", "=3"}, "-id"},
		{[]string{"--id", "movie_id=3"}, "no path parameter movie_id (it has person_id, review_id)"},
	} {
		args := append([]string{"contract", "--base-url", base}, tc.args...)
		var stderr strings.Builder
		err := run(context.Background(), args, noEnv, io.Discard, &stderr)
		if code := exitCode(err, &stderr); code != 2 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 naming %s", tc.args, code, stderr.String(), tc.want)
		}
	}
}

// The help lists the new flags, and its examples use only flags that exist.
func TestContractHelp(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	if err := run(context.Background(), []string{"contract", "--help"}, noEnv, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	help := out.String()
	for _, flag := range []string{"--max-failures", "--no-writes", "--allow-destructive"} {
		if !regexp.MustCompile(`(?m)^  ` + flag + `\b`).MatchString(help) {
			t.Errorf("help does not list %s", flag)
		}
	}
	examples, _, _ := strings.Cut(help[strings.Index(help, "Examples:"):], "\nChecks:")
	for _, m := range regexp.MustCompile(`--([a-z-]+)`).FindAllStringSubmatch(examples, -1) {
		if !regexp.MustCompile(`(?m)^  --` + m[1] + `\b`).MatchString(help) {
			t.Errorf("an example uses --%s, which is no flag", m[1])
		}
	}
}

// A target that accepts connections and never answers: the run ends
// quickly with exit 1, a report saying so and a summary line.
func TestContractSilentTarget(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	// Every request that timed out had its connection closed: each
	// connection is a request sent.
	var conns atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			defer c.Close()
		}
	}()
	var out strings.Builder
	err = run(context.Background(), []string{"contract", "--base-url", "http://" + ln.Addr().String(), "--timeout", "200ms", "--examples", "50"}, noEnv, &out, io.Discard)
	if code := exitCode(err, io.Discard); code != 1 {
		t.Fatalf("exit %d (%v)", code, err)
	}
	// A few requests in a row got no answer (the probe, the discovery's,
	// the cases'); without giving up, every case's: hundreds.
	if n := conns.Load(); n > 20 {
		t.Errorf("%d requests sent to a silent target", n)
	}
	report := out.String()
	for _, want := range []string{"Stopped early: the target is unresponsive", "no complete response within the 200ms timeout"} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if !regexp.MustCompile(`(?m)^moviemock contract: FAILED \d+ of \d+ cases \(1 check failing, \d+ distinct\) · 0/4 operations tested · 0/\d+ declared statuses seen · \d+ cases skipped · stopped early$`).MatchString(report) {
		t.Errorf("no summary line:\n%s", report)
	}
}

// --max-failures stops the run.
func TestContractMaxFailures(t *testing.T) {
	t.Parallel()
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":"not an integer"}`))
	}))
	defer broken.Close()
	var out strings.Builder
	err := run(context.Background(), []string{"contract", "--base-url", broken.URL, "--person-id", "1", "--max-failures", "2", "--no-writes", "--max-response-time", slowOK}, noEnv, &out, io.Discard)
	if code := exitCode(err, io.Discard); code != 1 {
		t.Fatalf("exit %d (%v)\n%s", code, err, out.String())
	}
	if !strings.Contains(out.String(), "Stopped early: the run stopped after 2 failed cases (--max-failures 2)") {
		t.Errorf("report:\n%s", out.String())
	}
}
