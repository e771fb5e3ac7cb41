package scenarios_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/mock"
	"github.com/moviemock/moviemock/scenarios"
)

// heapSink is a ResponseWriter that keeps nothing of the answer but its
// hash and size, and measures the live heap every sampleEvery bytes: the
// most the request held at once, beyond what was live before it.
type heapSink struct {
	header http.Header
	code   int
	sum    [sha256.Size]byte
	hash   interface {
		Write([]byte) (int, error)
		Sum([]byte) []byte
	}
	n, nextSample int64
	base, peak    uint64
}

const sampleEvery = 4 << 20

func newHeapSink() *heapSink {
	s := &heapSink{header: http.Header{}, hash: sha256.New(), nextSample: sampleEvery}
	s.base = liveHeap()
	return s
}

func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func (s *heapSink) Header() http.Header { return s.header }
func (s *heapSink) WriteHeader(code int) {
	if s.code == 0 {
		s.code = code
	}
}
func (s *heapSink) Write(b []byte) (int, error) {
	s.WriteHeader(http.StatusOK)
	s.hash.Write(b)
	s.n += int64(len(b))
	if s.n >= s.nextSample {
		s.nextSample = s.n + sampleEvery
		s.sample()
	}
	return len(b), nil
}
func (s *heapSink) Flush() {}

func (s *heapSink) sample() {
	if h := liveHeap(); h > s.base && h-s.base > s.peak {
		s.peak = h - s.base
	}
}

// A scenario that changes a large list, or trickles it, sends it as the
// mock renders it, element by element: the request holds far less than the
// answer, where it used to hold the whole answer several times over.
func TestLargeListAnswersStream(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 200,000 reviews")
	}
	m, err := model.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	data, err := fixtures.Generate(m, fixtures.GenerateOptions{Seed: 3, Counts: map[string]int{"reviews": 200_000}, Default: 20})
	if err != nil {
		t.Fatal(err)
	}
	set, err := scenarios.Load(m.Spec, data, scenarios.Shipped(), scenarios.Source{Name: "test", FS: fstest.MapFS{
		"fast-trickle.yaml": {Data: []byte(`name: fast-trickle
description: the list, 64 KiB at a time
rules:
  - match: {method: GET, path: /reviews}
    fault: {kind: trickle, chunk: 65536, interval: 0s}
`)},
		"fast-trickle-changed.yaml": {Data: []byte(`name: fast-trickle-changed
description: the list changed, 1000 bytes at a time
rules:
  - match: {method: GET, path: /reviews}
    passthrough: {set: {content: "Ünïcödé 🎬"}, offset: 1}
    fault: {kind: trickle, chunk: 1000, interval: 0s}
`)},
	}})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: m.Spec, Model: m, Data: data, Scenarios: set})
	if err != nil {
		t.Fatal(err)
	}
	for _, scenario := range []string{"unicode-content", "fast-trickle", "fast-trickle-changed"} {
		r := httptest.NewRequest("GET", "/reviews", nil)
		r.Header.Set(scenarios.HeaderScenario, scenario)
		sink := newHeapSink()
		srv.ServeHTTP(sink, r)
		sink.sample()
		if sink.code != http.StatusOK {
			t.Fatalf("%s: status %d", scenario, sink.code)
		}
		t.Logf("%s: %d bytes answered, live heap at most %d bytes above the start (%.1f%%)",
			scenario, sink.n, sink.peak, 100*float64(sink.peak)/float64(sink.n))
		if limit := uint64(sink.n / 8); sink.peak > limit {
			t.Errorf("%s: the request held %d bytes at once for a %d-byte answer; want under %d", scenario, sink.peak, sink.n, limit)
		}
	}
}

// changedBuffered is what a passthrough's changes gave when the answer was
// held whole: the list decoded at once, each element's members read with
// json.Decoder, set's replaced in place or added at the end.
func changedBuffered(t *testing.T, body string, set, where [][2]string, offset, limit int) string {
	t.Helper()
	var elems []json.RawMessage
	if err := json.Unmarshal([]byte(body), &elems); err != nil {
		t.Fatal(err)
	}
	members := func(obj []byte) [][2]string {
		dec := json.NewDecoder(bytes.NewReader(obj))
		dec.Token()
		var out [][2]string
		for dec.More() {
			k, _ := dec.Token()
			var raw json.RawMessage
			dec.Decode(&raw)
			out = append(out, [2]string{k.(string), string(raw)})
		}
		return out
	}
	out := []byte{'['}
	kept, skipped := 0, 0
	for _, e := range elems {
		if limit > 0 && kept == limit {
			break
		}
		ms := members(e)
		ok := true
		for _, w := range where {
			found := false
			for _, m := range ms {
				found = found || m == w
			}
			ok = ok && found
		}
		if !ok {
			continue
		}
		if skipped < offset {
			skipped++
			continue
		}
		if kept > 0 {
			out = append(out, ',')
		}
		kept++
		for _, s := range set {
			i := 0
			for i < len(ms) && ms[i][0] != s[0] {
				i++
			}
			if i == len(ms) {
				ms = append(ms, s)
			} else {
				ms[i][1] = s[1]
			}
		}
		out = append(out, '{')
		for i, m := range ms {
			if i > 0 {
				out = append(out, ',')
			}
			k, _ := json.Marshal(m[0])
			out = append(append(append(out, k...), ':'), m[1]...)
		}
		out = append(out, '}')
	}
	return string(append(out, ']'))
}

// A changed or trickled list, now streamed, is byte for byte what the
// buffered passthrough sent, with the Content-Length a small answer had.
func TestStreamedAnswersAsBuffered(t *testing.T) {
	t.Parallel()
	set := withFiles(t, map[string]string{
		"picked.yaml": `name: picked
description: some of one author's reviews, changed
rules:
  - match: {method: GET, path: /reviews}
    passthrough:
      where: {author_id: 1}
      offset: 1
      limit: 3
      set: {content: "«quoted» \"text\" \\ 🎬", reactions: {like: 0}}
`,
		"picked-slowly.yaml": `name: picked-slowly
description: the same, 7 bytes at a time
rules:
  - match: {method: GET, path: /reviews}
    passthrough:
      where: {author_id: 1}
      offset: 1
      limit: 3
      set: {content: "«quoted» \"text\" \\ 🎬", reactions: {like: 0}}
    fault: {kind: trickle, chunk: 7, interval: 0s}
`,
		"trickled.yaml": `name: trickled
description: the list 100 bytes at a time
rules:
  - fault: {kind: trickle, chunk: 100, interval: 0s}
`,
	})
	ts, _ := newServer(t, mock.Config{Scenarios: set})
	normal := newClient(t, ts, "", "").get("/reviews").body
	content := [2]string{"content", `"Ünïcödé everywhere: 日本語, 한국어, ελληνικά, עברית, 🇺🇦🏳️‍🌈 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢"`}
	picked := changedBuffered(t, normal,
		[][2]string{{"content", `"«quoted» \"text\" \\ 🎬"`}, {"reactions", `{"like":0}`}},
		[][2]string{{"author_id", "1"}}, 1, 3)
	for _, tc := range []struct{ scenario, want string }{
		{"unicode-content", changedBuffered(t, normal, [][2]string{content}, nil, 0, 0)},
		{"picked", picked},
		{"picked-slowly", picked},
		{"trickled", normal},
	} {
		a := newClient(t, ts, tc.scenario, "").get("/reviews")
		if a.err != nil || a.status != 200 {
			t.Fatalf("%s: %d %v", tc.scenario, a.status, a.err)
		}
		if a.body != tc.want {
			t.Errorf("%s:\n got %.400s\nwant %.400s", tc.scenario, a.body, tc.want)
		}
		if cl := a.header.Get("Content-Length"); cl != fmt.Sprint(len(tc.want)) {
			t.Errorf("%s: Content-Length %q for %d bytes", tc.scenario, cl, len(tc.want))
		}
	}
	if !strings.Contains(picked, "🎬") || strings.Count(picked, `"movie_id"`) != 3 {
		t.Errorf("the reference picked %s", picked)
	}
}

// A list longer than the mock keeps rendered goes out without the data's
// lock: a trickle of it, however slow, does not hold up a writer (here a
// reload, which takes the lock to swap the data).
func TestTrickledListHoldsNoLock(t *testing.T) {
	t.Parallel()
	m, err := model.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	data, err := fixtures.Generate(m, fixtures.GenerateOptions{Seed: 5, Counts: map[string]int{"reviews": 15_000}, Default: 20})
	if err != nil {
		t.Fatal(err)
	}
	set, err := scenarios.Load(m.Spec, data, scenarios.Source{Name: "test", FS: fstest.MapFS{"slow.yaml": {Data: []byte(`name: slow
description: the list, a chunk at a time
rules:
  - fault: {kind: trickle, chunk: 65536, interval: 0s}
`)}}})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: m.Spec, Model: m, Data: data, Scenarios: set, Scenario: "slow"})
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest("GET", "/reviews", nil)
	w := &reloadingWriter{ResponseRecorder: httptest.NewRecorder(), reload: func() { srv.Reload(data, nil) }}
	srv.ServeHTTP(w, r)
	if w.blocked {
		t.Fatal("a reload waited for the trickled list: the list was sent holding the data's lock")
	}
	if !w.reloaded || w.Code != 200 || !json.Valid(w.Body.Bytes()) {
		t.Fatalf("reloaded %v; %d, %d bytes", w.reloaded, w.Code, w.Body.Len())
	}
}

// reloadingWriter runs reload, from another goroutine, while the first
// piece of the answer is being written.
type reloadingWriter struct {
	*httptest.ResponseRecorder
	reload            func()
	reloaded, blocked bool
}

func (w *reloadingWriter) Write(b []byte) (int, error) {
	if !w.reloaded && !w.blocked {
		done := make(chan struct{})
		go func() { w.reload(); close(done) }()
		select {
		case <-done:
			w.reloaded = true
		case <-time.After(30 * time.Second): // a deadlock, not a slow machine
			w.blocked = true
		}
	}
	return w.ResponseRecorder.Write(b)
}

var _ io.Writer = (*reloadingWriter)(nil)
