package scenarios

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestPrefersHTML(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		accept []string
		want   bool
	}{
		{[]string{"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}, true}, // Chromium, Firefox
		{[]string{"text/html"}, true},
		{[]string{"text/*"}, true},
		{[]string{"application/json", "text/html;q=0.9"}, false},
		{[]string{"text/html, application/json"}, false}, // a tie
		{[]string{"*/*"}, false},                         // curl
		{nil, false},
		{[]string{"text/html;q=0"}, false},
		{[]string{"text/html;q=nonsense"}, false},
		{[]string{"TEXT/HTML ; Q=0.5, application/json;q=0.1"}, true},
	} {
		if got := prefersHTML(tc.accept); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.accept, got, tc.want)
		}
	}
}

func FuzzPrefersHTML(f *testing.F) {
	for _, s := range []string{"text/html,*/*;q=0.8", "*/*", "application/json", ";,;q=", "text/html;level=1;q=0.5", "/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, accept string) {
		prefersHTML([]string{accept})
	})
}

// handedWrites is a ResponseWriter that hands each write to the test.
type handedWrites struct {
	h  http.Header
	ch chan string
}

func (w *handedWrites) Header() http.Header         { return w.h }
func (w *handedWrites) WriteHeader(int)             {}
func (w *handedWrites) Flush()                      {}
func (w *handedWrites) Write(p []byte) (int, error) { w.ch <- string(p); return len(p), nil }

// A stream wakes for an entry added while it waits, and returns when its
// client goes; an entry added while nobody waits makes no channel.
func TestJournalStreamWakesAndEnds(t *testing.T) {
	t.Parallel()
	e, err := New(&Set{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	e.journal.add(Entry{Path: "/before", resolved: true})
	if e.journal.added != nil {
		t.Fatal("an entry added with nobody listening made a channel")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &handedWrites{h: http.Header{}, ch: make(chan string)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		(&admin{e: e}).journalStream(w, httptest.NewRequest("GET", "/__mock/journal/stream", nil).WithContext(ctx))
	}()
	if first := <-w.ch; !strings.HasPrefix(first, ":") {
		t.Fatalf("first write %q", first)
	}
	e.journal.add(Entry{Path: "/after", resolved: true})
	if got := <-w.ch; !strings.Contains(got, `"path":"/after"`) || !strings.HasPrefix(got, "id: 2\ndata: {") || strings.Contains(got, "/before") {
		t.Fatalf("streamed %q", got)
	}
	cancel()
	select {
	case <-done:
	case got := <-w.ch:
		t.Fatalf("wrote %q after the client went", got)
	case <-time.After(time.Minute): // a hang, not a speed: the handler returns at once
		t.Fatal("the stream did not end with its client")
	}
}
