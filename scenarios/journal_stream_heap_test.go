package scenarios

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/moviemock/moviemock/internal/status"
)

// stalledClient is a stream's client that reads the first write and then
// nothing: its writes block until released, then fail.
type stalledClient struct {
	header  http.Header
	writes  int
	stalled chan struct{} // closed at the first write that blocks
	release chan struct{}
}

func (c *stalledClient) Header() http.Header { return c.header }
func (c *stalledClient) WriteHeader(int)     {}
func (c *stalledClient) Flush()              {}
func (c *stalledClient) Write(b []byte) (int, error) {
	c.writes++
	if c.writes == 1 {
		return len(b), nil
	}
	if c.writes == 2 {
		close(c.stalled)
	}
	<-c.release
	return 0, errors.New("the write deadline passed")
}

// Clients that ask for the whole backlog (Last-Event-ID: 0) and never read
// hold an entry each while their write waits, not the backlog encoded in
// one buffer.
func TestJournalStreamStalledClientsBounded(t *testing.T) {
	e := testEngine(t, Options{})
	form := map[string]string{}
	for i := range 8 {
		form[fmt.Sprint("field", i)] = strings.Repeat("v", maxJournalValue)
	}
	const entries, clients = 300, 8
	for range entries {
		r := httptest.NewRequest("POST", "/auth/login", nil)
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		e.journal.add(e.entry(r, &status.Writer{Code: http.StatusOK}, &trace{form: form}, time.Time{}))
	}
	h := e.Admin("")
	base := heapInUse()
	var wg sync.WaitGroup
	stalled := make([]*stalledClient, clients)
	release := make(chan struct{})
	for i := range stalled {
		c := &stalledClient{header: http.Header{}, stalled: make(chan struct{}), release: release}
		stalled[i] = c
		r := httptest.NewRequest("GET", "/__mock/journal/stream", nil)
		r.RemoteAddr, r.Host = "127.0.0.1:5000", "localhost"
		r.Header.Set("Last-Event-ID", "0")
		wg.Go(func() { h.ServeHTTP(c, r) })
	}
	for _, c := range stalled {
		<-c.stalled
	}
	held := int64(heapInUse()) - int64(base)
	close(release)
	wg.Wait()
	// An entry encodes to ~33 KB: the backlog of 256 entries (a batch) in
	// one buffer was 8.5 MB a client.
	if limit := int64(clients) * (1 << 20); held > limit {
		t.Errorf("%d stalled clients hold %d bytes, more than %d", clients, held, limit)
	}
}

func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
