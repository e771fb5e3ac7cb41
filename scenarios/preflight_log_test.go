package scenarios_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/moviemock/moviemock/mock"
	"github.com/moviemock/moviemock/scenarios"
)

// Preflights, which the CORS layer answers before any scenario sees the
// request, are in the journal too; each request is there once, and the
// control API's own requests are not.
func TestPreflightsJournaled(t *testing.T) {
	srv, err := mock.New(mock.Config{})
	if err != nil {
		t.Fatal(err)
	}
	send := func(method, target string, header http.Header) int {
		t.Helper()
		r := httptest.NewRequest(method, target, nil)
		r.RemoteAddr = "127.0.0.1:40000"
		for k, vs := range header {
			r.Header[k] = vs
		}
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		return w.Code
	}
	origin := "http://localhost:5173"
	if code := send("OPTIONS", "/person/1", http.Header{"Origin": {origin}, "Access-Control-Request-Method": {"GET"}}); code != 200 {
		t.Fatalf("preflight: %d", code)
	}
	if code := send("OPTIONS", "/reviews", http.Header{"Origin": {origin}, "Access-Control-Request-Method": {"BREW"}}); code != 400 {
		t.Fatalf("refused preflight: %d", code)
	}
	send("GET", "/person/1", http.Header{"Origin": {origin}})
	send("GET", "/__mock/health", nil)
	var got []string
	for _, e := range srv.Engine().Journal(scenarios.Filter{}) {
		got = append(got, e.Method+" "+e.Path+" "+e.Template+" "+http.StatusText(e.Status))
	}
	want := []string{"OPTIONS /person/1 /person/{person_id} OK", "OPTIONS /reviews /reviews Bad Request", "GET /person/1 /person/{person_id} OK"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("journal:\n got %q\nwant %q", got, want)
	}
}

// lockedBuffer is a log's output, written by the server's goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) lines() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Split(strings.TrimSpace(b.buf.String()), "\n")
}

// The request log names a scenario's fault, and the status a reset or a
// hang did not send (0), instead of an empty 200.
func TestRequestLogNamesFaults(t *testing.T) {
	set := withFiles(t, map[string]string{"faults.yaml": `
name: faults
description: one fault per path
rules:
  - match: {path: /person/1}
    fault: reset
  - match: {path: /person/2}
    fault: {kind: hang, for: 10ms}
  - match: {path: /person/3}
    fault: {kind: truncate, bytes: 10}
  - match: {path: /person/4}
    fault: empty
`})
	var log lockedBuffer
	ts, _ := newServer(t, mock.Config{Scenarios: set, Scenario: "faults", Logger: slog.New(slog.NewTextHandler(&log, nil))})
	c := newClient(t, ts, "", "")
	for _, path := range []string{"/person/1", "/person/2", "/person/3", "/person/4", "/person/5"} {
		c.get(path)
	}
	// A faulty answer's line is written as its handler returns, which may
	// be after the client saw the connection close: wait for every
	// request's line.
	logged := func() bool {
		all := strings.Join(log.lines(), "\n")
		for i := 1; i <= 5; i++ {
			if !strings.Contains(all, fmt.Sprintf("path=/person/%d ", i)) {
				return false
			}
		}
		return true
	}
	for deadline := time.Now().Add(30 * time.Second); !logged() && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	all := strings.Join(log.lines(), "\n")
	for _, want := range []string{
		"path=/person/1 status=0 fault=reset bytes=0",
		"path=/person/2 status=0 fault=hang bytes=0",
		"path=/person/3 status=200 fault=truncate",
		"path=/person/4 status=0 fault=empty bytes=0",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the log lacks %q:\n%s", want, all)
		}
	}
	if !strings.Contains(all, "path=/person/5 status=200 bytes=") || strings.Count(all, "fault=") != 4 {
		t.Errorf("a normal answer's line names a fault, or is missing:\n%s", all)
	}
}
