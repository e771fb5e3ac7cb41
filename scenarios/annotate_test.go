package scenarios

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/moviemock/moviemock/internal/spec"
)

// behind is a handler behind the engine as moviemock proxy's would be: it
// says who answers, answers, and reports violations before or after.
type behind struct {
	by            string
	before, after []string // violations added before the answer, after the body
}

func (b behind) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	AddViolations(r, b.before...)
	if b.by != "" {
		SetAnsweredBy(r, b.by)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(`{"id":1,"name":"Someone","biography":"b","poster":null,"birthday":null,"deathday":null,"place_of_birth":null,"known_for_department":null,"known_for":[]}`))
	AddViolations(r, b.after...)
}

// serveOne sends one request through h with the given headers and
// returns the journal's newest entry.
func serveOne(t *testing.T, e *Engine, h http.Handler, path string, header map[string]string) Entry {
	t.Helper()
	r := httptest.NewRequest("GET", path, nil)
	for k, v := range header {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	got := e.Journal(Filter{Limit: 1})
	if len(got) != 1 {
		t.Fatalf("%d journal entries", len(got))
	}
	return got[0]
}

// With Annotate, the journal says who answered and what the checks found,
// whether they were reported before the answer began or after it ended;
// the engine says "scenario" for the answers it makes itself.
func TestAnnotate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		h          behind
		header     map[string]string
		wantBy     string
		wantViols  []string
		wantRule   string
		wantStatus int
	}{
		{"upstream, violations after the body", behind{by: "upstream", after: []string{"status_code_conformance: expected 200 got 201", "response_schema_conformance: expected string got null"}},
			nil, "upstream", []string{"status_code_conformance: expected 200 got 201", "response_schema_conformance: expected string got null"}, "", 200},
		{"violations before the answer began", behind{by: "mock: the upstream has no such route (404 Not Found)", before: []string{"a: one"}, after: []string{"b: two"}},
			nil, "mock: the upstream has no such route (404 Not Found)", []string{"a: one", "b: two"}, "", 200},
		{"nobody said", behind{}, nil, "", nil, "", 200},
		{"Prefer answers", behind{by: "upstream", after: []string{"never: called"}},
			map[string]string{"Prefer": "code=404"}, "scenario", nil, "", 404},
		{"a scenario's rule answers", behind{by: "upstream"},
			map[string]string{HeaderScenario: "person-not-found"}, "scenario", nil, "unknown person", 404},
		{"an unknown scenario: the engine's own error", behind{by: "upstream"},
			map[string]string{HeaderScenario: "nope"}, "scenario", nil, "", 400},
		{"a passthrough rule: the handler made the answer", behind{by: "upstream", after: []string{"c: three"}},
			map[string]string{HeaderScenario: "sparse-person"}, "upstream", []string{"c: three"}, "sparse", 200},
		{"Prefer declined (code=200 without an example): the handler", behind{by: "upstream"},
			map[string]string{"Prefer": "code=200"}, "upstream", nil, "", 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := testEngine(t, Options{Annotate: true})
			for _, chain := range []struct {
				name string
				h    http.Handler
			}{
				{"Handler", e.Handler(tc.h)},
				{"Journaling around Handler", e.Journaling(e.Handler(tc.h))},
			} {
				got := serveOne(t, e, chain.h, "/person/1", tc.header)
				if got.AnsweredBy != tc.wantBy || !slices.Equal(got.Violations, tc.wantViols) || got.Status != tc.wantStatus || !strings.Contains(got.Rule, tc.wantRule) {
					t.Errorf("%s: answered_by %q, violations %q, status %d, rule %q; want %q, %q, %d, %q",
						chain.name, got.AnsweredBy, got.Violations, got.Status, got.Rule, tc.wantBy, tc.wantViols, tc.wantStatus, tc.wantRule)
				}
			}
		})
	}
}

// The control API shows the annotations, as its document describes them,
// and a journal stream that sent an entry already sends it again,
// amended.
func TestAnnotateShownByControlAPI(t *testing.T) {
	t.Parallel()
	e := testEngine(t, Options{Annotate: true})
	var held *http.Request
	h := e.Journaling(e.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		SetAnsweredBy(r, "upstream")
		w.Write([]byte("{}"))
		held = r // checked later, as the proxy checks once the answer ended
	})))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/reviews", nil))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sw := &handedWrites{h: http.Header{}, ch: make(chan string)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		r := httptest.NewRequest("GET", "/__mock/journal/stream", nil)
		r.Header.Set("Last-Event-ID", "0") // the entry already recorded, then what follows
		(&admin{e: e}).journalStream(sw, r.WithContext(ctx))
	}()
	if first := <-sw.ch; !strings.HasPrefix(first, ":") {
		t.Fatalf("first write %q", first)
	}
	if got := <-sw.ch; !strings.HasPrefix(got, "id: 1\ndata: {") || !strings.Contains(got, `"answered_by":"upstream"`) || strings.Contains(got, "violations") {
		t.Fatalf("streamed %q", got)
	}
	AddViolations(held, "response_schema_conformance: expected integer got string")
	if got := <-sw.ch; !strings.HasPrefix(got, "event: amended\ndata: {") || strings.Contains(got, "id:") ||
		!strings.Contains(got, `"seq":1,`) || !strings.Contains(got, `"violations":["response_schema_conformance: expected integer got string"]`) {
		t.Fatalf("streamed %q", got)
	}
	cancel()
	<-done

	admin := e.Admin("")
	w := httptest.NewRecorder()
	r := httptest.NewRequest("GET", "/__mock/journal", nil)
	r.RemoteAddr, r.Host = "127.0.0.1:5000", "localhost:8000"
	admin.ServeHTTP(w, r)
	var entries []any
	if err := json.Unmarshal(w.Body.Bytes(), &entries); err != nil || len(entries) != 1 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	if !strings.Contains(w.Body.String(), `"answered_by":"upstream","violations":["response_schema_conformance: expected integer got string"]`) {
		t.Errorf("journal: %s", w.Body)
	}
	sp, err := AdminSpec()
	if err != nil {
		t.Fatal(err)
	}
	if viols := spec.Violations(sp.Validate(sp.Schema("JournalEntry"), entries[0], true)); len(viols) > 0 {
		t.Errorf("the entry breaks the control API's JournalEntry: %v", viols)
	}
}

// Without Annotate nothing is noted, and a request goes on with the
// context it came with: the engine makes none.
func TestAnnotateOff(t *testing.T) {
	t.Parallel()
	e := testEngine(t, Options{})
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, 1)
	var sameContext bool
	h := e.Journaling(e.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sameContext = r.Context() == ctx && noteOf(r) == nil
		behind{by: "upstream", before: []string{"a: one"}, after: []string{"b: two"}}.ServeHTTP(w, r)
	})))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/reviews", nil).WithContext(ctx))
	if !sameContext {
		t.Error("without Annotate the handler behind got a request with another context")
	}
	for _, header := range []map[string]string{nil, {"Prefer": "code=404"}, {HeaderScenario: "person-not-found"}} {
		if got := serveOne(t, e, h, "/person/1", header); got.AnsweredBy != "" || got.Violations != nil {
			t.Errorf("%v: answered_by %q, violations %q", header, got.AnsweredBy, got.Violations)
		}
	}
	// No engine in front at all.
	r := httptest.NewRequest("GET", "/reviews", nil)
	SetAnsweredBy(r, "upstream")
	AddViolations(r, "a: one")
}

// An amendment counts in the journal's bytes; the journal still keeps to
// its bound, dropping the oldest, and an entry keeps violations only up to
// its own bound.
func TestAnnotateBytes(t *testing.T) {
	t.Parallel()
	e := testEngine(t, Options{Annotate: true})
	var reqs []*http.Request
	h := e.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("{}"))
		reqs = append(reqs, r)
	}))
	for range 3 {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/reviews", nil))
	}
	before := e.journal.held()
	AddViolations(reqs[1], "check: expected a got b", "other: expected c got d")
	if grown, want := e.journal.held()-before, int64(16+len("check: expected a got b")+16+len("other: expected c got d")); grown != want {
		t.Errorf("the journal grew by %d bytes, want %d", grown, want)
	}
	checkHeld(t, &e.journal)

	// Bound the journal to what it holds now, and amend the newest: the
	// oldest go.
	e.journal.mu.Lock()
	e.journal.maxBytes = e.journal.bytes
	e.journal.mu.Unlock()
	// Smaller than an entry: dropping the oldest makes room.
	AddViolations(reqs[2], strings.Repeat("x", 200))
	got := e.Journal(Filter{})
	if len(got) != 2 || got[0].Seq != 2 || got[1].Seq != 3 || len(got[0].Violations) != 2 || len(got[1].Violations) != 1 {
		t.Fatalf("after an amendment over the bound the journal holds %v", seqs(got))
	}
	e.journal.mu.Lock()
	if e.journal.bytes > e.journal.maxBytes {
		t.Errorf("the journal holds %d bytes, over its bound of %d", e.journal.bytes, e.journal.maxBytes)
	}
	e.journal.mu.Unlock()
	checkHeld(t, &e.journal)
	AddViolations(reqs[0], "dropped: meanwhile") // not held: nothing happens
	checkHeld(t, &e.journal)

	// One entry keeps 16 KiB of violations, each line 4 KiB.
	e2 := testEngine(t, Options{Annotate: true})
	huge := strings.Repeat("y", 10<<10)
	e2.Handler(behind{before: []string{huge}, after: []string{huge, huge, "short"}}).
		ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/reviews", nil))
	en := e2.Journal(Filter{})[0]
	total := 0
	for _, v := range en.Violations {
		total += len(v)
		if len(v) > maxJournalValue {
			t.Errorf("a violation of %d bytes kept", len(v))
		}
	}
	if total > maxJournalViolations || len(en.Violations) != 4 || !slices.Contains(en.Truncated, "violations") {
		t.Errorf("%d violations of %d bytes, truncated %q", len(en.Violations), total, en.Truncated)
	}
}

// checkHeld fails unless the journal's count of bytes is the sum of its
// entries' sizes, each what Entry.bytes counts now (but for a Template
// worked out as the journal was read, after the entry's size was taken).
func checkHeld(t *testing.T, j *journal) {
	t.Helper()
	j.mu.Lock()
	defer j.mu.Unlock()
	var sum int64
	for i := range j.n {
		e := j.at(i)
		if now := e.bytes(); e.size != now && e.size != now-len(e.Template) {
			t.Errorf("entry %d: size %d, holds %d", e.Seq, e.size, now)
		}
		sum += int64(e.size)
	}
	if sum != j.bytes {
		t.Errorf("the journal counts %d bytes, its entries hold %d", j.bytes, sum)
	}
}

func seqs(entries []Entry) []int64 {
	out := make([]int64, len(entries))
	for i, e := range entries {
		out[i] = e.Seq
	}
	return out
}

// A route of the mounter's is served under the control API's guard, as
// the engine's own are; an engine's route is not taken over.
func TestAdminExtraRoute(t *testing.T) {
	t.Parallel()
	e := testEngine(t, Options{})
	violations := Route{"GET", "/__mock/violations", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"checked": 0, "failed": 0, "violations": []any{}})
	})}
	forget := Route{"DELETE", "/__mock/violations", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	})}
	health := Route{"GET", "/__mock/health", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("taken over"))
	})}
	for _, tc := range []struct {
		name, token, method, path, remote, auth string
		extra                                   []Route
		want                                    int
		body                                    string
	}{
		{"loopback", "", "GET", "/__mock/violations", "127.0.0.1:5000", "", []Route{violations, forget}, 200, `{"checked":0,"failed":0,"violations":[]}`},
		{"loopback delete", "", "DELETE", "/__mock/violations", "127.0.0.1:5000", "", []Route{violations, forget}, 204, ""},
		{"another method", "", "PUT", "/__mock/violations", "127.0.0.1:5000", "", []Route{violations, forget}, 405, ""},
		{"remote", "", "GET", "/__mock/violations", "10.1.2.3:5000", "", []Route{violations}, 403, ""},
		{"remote without the token", "t0k", "GET", "/__mock/violations", "10.1.2.3:5000", "", []Route{violations}, 401, ""},
		{"remote with the token", "t0k", "GET", "/__mock/violations", "10.1.2.3:5000", "Bearer t0k", []Route{violations}, 200, ""},
		{"not a proxy (serve)", "", "GET", "/__mock/violations", "127.0.0.1:5000", "", nil, 404, ""},
		{"the engine's route first", "", "GET", "/__mock/health", "127.0.0.1:5000", "", []Route{health}, 200, `{"status":"ok"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(tc.method, tc.path, nil)
			r.RemoteAddr, r.Host = tc.remote, "localhost:8000"
			if tc.auth != "" {
				r.Header.Set("Authorization", tc.auth)
			}
			w := httptest.NewRecorder()
			e.Admin(tc.token, tc.extra...).ServeHTTP(w, r)
			if w.Code != tc.want || !strings.HasPrefix(w.Body.String(), tc.body) {
				t.Errorf("%d %s", w.Code, w.Body)
			}
		})
	}
	for _, bad := range []Route{{"GET", "/violations", violations.Handler}, {"", "/__mock/v", violations.Handler}, {"GET", "/__mock/v", nil}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Admin took %s %q", bad.Method, bad.Path)
				}
			}()
			e.Admin("", bad)
		}()
	}
}

// Many requests amend their entries, from their handlers and from other
// goroutines once answered, while the journal is read, streamed, dropped
// from and cleared: run with -race.
func TestAnnotateRace(t *testing.T) {
	t.Parallel()
	e := testEngine(t, Options{Annotate: true, JournalSize: 50})
	var late sync.WaitGroup
	h := e.Journaling(e.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		AddViolations(r, "before: the answer")
		SetAnsweredBy(r, "upstream")
		w.Write([]byte("{}"))
		AddViolations(r, "after: the body")
		late.Add(1)
		go func() {
			defer late.Done()
			AddViolations(r, "late: from elsewhere")
			SetAnsweredBy(r, "upstream, late")
		}()
	})))
	ctx, cancel := context.WithCancel(context.Background())
	sw := &handedWrites{h: http.Header{}, ch: make(chan string)}
	streamed := make(chan struct{})
	go func() {
		defer close(streamed)
		(&admin{e: e}).journalStream(sw, httptest.NewRequest("GET", "/__mock/journal/stream", nil).WithContext(ctx))
	}()
	go func() {
		for range sw.ch {
		}
	}()
	var readers, clients sync.WaitGroup
	stop := make(chan struct{})
	for range 2 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				e.WriteJournal(discard{}, Filter{})
				e.journal.held()
			}
		}()
	}
	for c := range 8 {
		clients.Add(1)
		go func() {
			defer clients.Done()
			for i := range 100 {
				h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", fmt.Sprintf("/reviews?c=%d&i=%d", c, i), nil))
				if i == 50 && c == 0 {
					e.journal.clear("")
				}
			}
		}()
	}
	clients.Wait()
	late.Wait()
	close(stop)
	readers.Wait()
	cancel()
	select {
	case <-streamed:
	case <-time.After(time.Minute): // a hang, not a speed
		t.Fatal("the stream did not end")
	}
	close(sw.ch)
	checkHeld(t, &e.journal)
	got := e.Journal(Filter{})
	if len(got) == 0 || len(got) > 50 {
		t.Fatalf("%d entries held, want 1 to 50", len(got))
	}
	for _, en := range got {
		if !slices.Equal(en.Violations, []string{"before: the answer", "after: the body", "late: from elsewhere"}) || en.AnsweredBy != "upstream, late" {
			t.Errorf("entry %d: %q %q", en.Seq, en.AnsweredBy, en.Violations)
		}
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
