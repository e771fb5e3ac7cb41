package main

import (
	"bufio"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/moviemock/moviemock/internal/loadgen"
)

// The clock's phases on serve: the headers of a request that follows an
// answer are timed from their first byte, an idle connection gets the idle
// timeout and not the headers', and a request being answered is never cut,
// however long its answer takes.
func TestServeConnClockPhases(t *testing.T) {
	defer func(h, i time.Duration) { readHeaderTimeout, idleTimeout = h, i }(readHeaderTimeout, idleTimeout)
	readHeaderTimeout, idleTimeout = time.Second, time.Minute
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "slow.yaml"), []byte(`name: slow
description: Every person is answered 2.5 s late, longer than the headers may take.
rules:
  - name: slow answer
    match: {method: GET, path: "/person/{person_id}"}
    delay: {min: 2500ms, max: 2500ms}
    passthrough: true
`), 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := serve(t, noEnv, "--quiet", "--scenarios", dir)
	addr := strings.TrimPrefix(base, "http://")

	t.Run("headers after an answer", func(t *testing.T) {
		conn := dial(t, addr)
		br := bufio.NewReader(conn)
		conn.Write(loadgen.Request("GET", "/reviews", ""))
		if code, err := loadgen.ReadResponse(br); err != nil || code != 200 {
			t.Fatalf("%d %v", code, err)
		}
		io.WriteString(conn, "GET /person/1 HTTP/1.1\r\nHost: x\r\n") // never finished
		// Well within the idle timeout (a minute): the headers' own.
		if err := waitClosed(conn, 8*time.Second); err != nil {
			t.Error(err)
		}
	})
	t.Run("idle is not headers", func(t *testing.T) {
		conn := dial(t, addr)
		br := bufio.NewReader(conn)
		conn.Write(loadgen.Request("GET", "/reviews", ""))
		if code, err := loadgen.ReadResponse(br); err != nil || code != 200 {
			t.Fatalf("%d %v", code, err)
		}
		time.Sleep(3 * time.Second) // three times the headers' timeout, idle
		conn.Write(loadgen.Request("GET", "/reviews", ""))
		if code, err := loadgen.ReadResponse(br); err != nil || code != 200 {
			t.Errorf("after 3 s idle: %d %v, want the connection kept", code, err)
		}
	})
	t.Run("a long answer", func(t *testing.T) {
		conn := dial(t, addr)
		br := bufio.NewReader(conn)
		conn.SetDeadline(time.Now().Add(time.Minute))
		conn.Write(loadgen.Request("GET", "/person/1", "", "X-Mock-Scenario: slow"))
		if code, err := loadgen.ReadResponse(br); err != nil || code != 200 {
			t.Errorf("an answer 2.5 s late: %d %v, want 200", code, err)
		}
	})
}

// A scenario's reset still reaches the client as a TCP reset through the
// clock's connection.
func TestServeResetThroughClock(t *testing.T) {
	base, _ := serve(t, noEnv, "--quiet")
	addr := strings.TrimPrefix(base, "http://")
	for i := range 3 {
		conn := dial(t, addr)
		conn.SetDeadline(time.Now().Add(time.Minute))
		conn.Write(loadgen.Request("GET", "/person/1", "", "X-Mock-Scenario: flaky-connection"))
		code, err := loadgen.ReadResponse(bufio.NewReader(conn))
		if i < 2 {
			if code != 200 {
				t.Fatalf("request %d: %d %v", i+1, code, err)
			}
			continue
		}
		var op *net.OpError
		if !errors.Is(err, syscall.ECONNRESET) && !(errors.As(err, &op) && errors.Is(op.Err, syscall.ECONNRESET)) {
			t.Errorf("request 3: %d %v, want a connection reset", code, err)
		}
	}
}

// late picks the connections past their phase's timeout, and only those.
func TestConnClockLate(t *testing.T) {
	k := newConnClock(time.Second, time.Minute)
	now := time.Now().UnixNano()
	mk := func(phase int32, ago time.Duration) *clockedConn {
		c := &clockedConn{}
		c.phase.Store(phase)
		c.since.Store(now - int64(ago))
		k.conns[c] = struct{}{}
		return c
	}
	slowHeaders := mk(phaseHeaders, 2*time.Second)
	mk(phaseHeaders, 500*time.Millisecond)
	mk(phaseIdle, 30*time.Second)
	longIdle := mk(phaseIdle, 2*time.Minute)
	mk(phaseActive, time.Hour)
	got := k.late(now, nil)
	if len(got) != 2 || !(got[0] == slowHeaders || got[1] == slowHeaders) || !(got[0] == longIdle || got[1] == longIdle) {
		t.Errorf("late: %d connections, want the slow headers and the long idle one", len(got))
	}
	if k.tick != 100*time.Millisecond {
		t.Errorf("tick %v, want a tenth of the shorter timeout", k.tick)
	}
	if d := newConnClock(10*time.Second, 120*time.Second).tick; d != time.Second {
		t.Errorf("tick %v for serve's timeouts, want 1s", d)
	}
}
