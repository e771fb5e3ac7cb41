package proxy_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/moviemock/moviemock/mock"
	"github.com/moviemock/moviemock/proxy"
)

// lockedBuffer is a log destination for concurrent exchanges.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Large answers in flight at once share the memory kept for the checks:
// those that cannot have their bytes are relayed whole, at once, and
// reported as not checked with the flag that raises the budget; the bytes
// held never pass it.
//
// Every answer sends its first half, and the second halves go out only once
// every client has read the first half of its answer: the proxy has then
// decided on every answer before any of them ends and gives its bytes back.
// An answer that says its Content-Length has its bytes reserved whole before
// the first is relayed, so exactly budget/size of them are checked; a
// chunked one grows its reservation as it comes, so after the first halves
// at most budget/(size/2) still hold theirs.
func TestCheckMemoryBudget(t *testing.T) {
	const (
		n      = 8
		size   = 256 << 10
		budget = 600 << 10 // two answers' worth
	)
	body := "[" + strings.Repeat(`"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",`, size/34) + `"a"]`
	half := len(body) / 2
	for _, tc := range []struct {
		name        string
		length      bool // the upstream says Content-Length
		least, most int  // answers not checked for the budget
	}{
		{"content-length", true, n - budget/size, n - budget/size},
		{"chunked", false, n - budget/(size/2), n - 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			release := make(chan struct{})
			up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				if tc.length {
					w.Header().Set("Content-Length", strconv.Itoa(len(body)))
				}
				io.WriteString(w, body[:half])
				w.(http.Flusher).Flush()
				select {
				case <-release:
				case <-r.Context().Done():
					return
				}
				io.WriteString(w, body[half:])
			}))
			defer up.Close()
			var log lockedBuffer
			s := start(t, up.URL, func(c *proxy.Config, _ *mock.Config) {
				c.MaxCheckMemory = budget
				c.Logger = slog.New(slog.NewTextHandler(&log, nil))
			})
			bodies := make([]string, n)
			errs := make([]error, n)
			var halves, all sync.WaitGroup
			halves.Add(n)
			for i := range n {
				all.Add(1)
				go func() {
					defer all.Done()
					halfDone := sync.OnceFunc(halves.Done)
					defer halfDone()
					resp, err := http.Get(s.srv.URL + "/reviews")
					if err != nil {
						errs[i] = err
						return
					}
					defer resp.Body.Close()
					first := make([]byte, half)
					if _, err := io.ReadFull(resp.Body, first); err != nil {
						errs[i] = err
						return
					}
					halfDone()
					rest, err := io.ReadAll(resp.Body)
					bodies[i], errs[i] = string(first)+string(rest), err
				}()
			}
			halvesRead := make(chan struct{})
			go func() { halves.Wait(); close(halvesRead) }()
			select {
			case <-halvesRead:
			case <-time.After(time.Minute):
				t.Error("the clients did not all get the first half of their answer: the proxy held it back")
			}
			close(release)
			all.Wait()
			for i := range n {
				if errs[i] != nil || bodies[i] != body {
					t.Fatalf("answer %d: %v, %d bytes of %d", i, errs[i], len(bodies[i]), len(body))
				}
			}
			used, peak := s.p.CheckMemory()
			if used != 0 || peak == 0 || peak > budget {
				t.Errorf("check memory: %d in use after the exchanges, %d at most (budget %d)", used, peak, budget)
			}
			if got := strings.Count(log.String(), "--max-check-memory"); got < tc.least || got > tc.most {
				t.Errorf("%d answers logged as not checked for the budget, want %d to %d:\n%s", got, tc.least, tc.most, log.String())
			}
			if notes := strings.Join(s.p.Report().Notes, "\n"); !strings.Contains(notes, "--max-check-memory") {
				t.Errorf("notes %q do not name --max-check-memory", notes)
			}
		})
	}
}

// The decoded copy of a compressed answer counts too: an answer that fits
// the budget encoded but not decoded is relayed as it came, reported as not
// checked for the budget, and its bytes are given back.
func TestCheckMemoryDecoded(t *testing.T) {
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write([]byte("[" + strings.Repeat("0,", 200_000) + "0]"))
	zw.Close()
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(zipped.Bytes())
	}))
	defer up.Close()
	const budget = 100 << 10
	s := start(t, up.URL, func(c *proxy.Config, _ *mock.Config) { c.MaxCheckMemory = budget })
	got := do(t, "GET", s.srv.URL+"/reviews", nil, "")
	if got.status != 200 || len(got.body) != 400_003 {
		t.Fatalf("GET /reviews: %d, %d bytes", got.status, len(got.body))
	}
	if used, peak := s.p.CheckMemory(); used != 0 || peak == 0 || peak > budget {
		t.Errorf("check memory: %d in use after the exchange, %d at most (budget %d)", used, peak, budget)
	}
	if notes := strings.Join(s.p.Report().Notes, "\n"); !strings.Contains(notes, "(--max-check-memory)") {
		t.Errorf("notes %q do not name --max-check-memory", notes)
	}
}
