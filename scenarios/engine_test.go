package scenarios_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/moviemock/moviemock/mock"
	"github.com/moviemock/moviemock/scenarios"
)

// Many clients at once, each in its own session on a scenario of its own
// choosing, each walking its scenario's state machine from the start: any
// state shared between sessions would shift someone's sequence.
func TestParallelSessionsDoNotShareState(t *testing.T) {
	ts, srv := newServer(t, mock.Config{Scenario: "rate-limited"})
	type walk struct {
		scenario string
		steps    func(c *client) []int
	}
	walks := []walk{
		{"login-fails-then-succeeds", func(c *client) []int {
			var got []int
			for range 5 {
				got = append(got, c.login("alice", "wonderland").status)
			}
			return got
		}},
		{"rate-limited", func(c *client) []int {
			var got []int
			for range 7 {
				got = append(got, c.get("/person/1").status)
			}
			return got
		}},
		{"intermittent-errors", func(c *client) []int {
			var got []int
			for range 7 {
				got = append(got, c.get("/reviews/"+knownReview).status)
			}
			return got
		}},
		{"", func(c *client) []int { // the global scenario, in a session of its own
			var got []int
			for range 6 {
				got = append(got, c.get("/person/2").status)
			}
			return got
		}},
	}
	want := map[string][]int{
		"login-fails-then-succeeds": {401, 401, 401, 200, 200},
		"rate-limited":              {200, 200, 200, 200, 200, 429, 429},
		"intermittent-errors":       {200, 200, 503, 200, 200, 503, 500},
		"":                          {200, 200, 200, 200, 200, 429},
	}
	const clients = 48
	var wg sync.WaitGroup
	errs := make(chan string, clients)
	for i := range clients {
		w := walks[i%len(walks)]
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := newClient(t, ts, w.scenario, fmt.Sprintf("client-%d", i))
			c.http.Transport = http.DefaultTransport // keep-alive: connections shared between requests
			if got := w.steps(c); fmt.Sprint(got) != fmt.Sprint(want[w.scenario]) {
				errs <- fmt.Sprintf("client %d on %q: statuses %v, want %v", i, w.scenario, got, want[w.scenario])
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	// The global state machine was never touched: a request without a
	// session is still within the limit.
	c := newClient(t, ts, "", "")
	c.want("global instance untouched", c.get("/person/1"), 200, "")
	// The control API sees every session, each in its own state.
	var sessions []struct {
		ID       string
		States   map[string]string
		Requests int
	}
	getJSON(t, ts.URL+"/__mock/sessions", &sessions)
	if len(sessions) != clients {
		t.Fatalf("%d sessions, want %d", len(sessions), clients)
	}
	for _, s := range sessions {
		if s.States["login-fails-then-succeeds"] != "" && s.States["login-fails-then-succeeds"] != "logged-in" {
			t.Errorf("session %s: %v", s.ID, s.States)
		}
	}
	_ = srv
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, b)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("GET %s: %v in %s", url, err, b)
	}
}

// Sessions are bounded: beyond the limit the least recently used goes;
// idle ones expire.
func TestSessionsBoundedAndExpire(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	ts, _ := newServer(t, mock.Config{MaxSessions: 3, SessionTTL: time.Minute, Now: clock})
	for i := range 4 {
		c := newClient(t, ts, "login-fails-then-succeeds", fmt.Sprint("s", i))
		c.want("refused", c.login("alice", "wonderland"), 401, wrongLogin)
		advance(time.Second)
	}
	var sessions []struct{ ID string }
	getJSON(t, ts.URL+"/__mock/sessions", &sessions)
	if fmt.Sprint(sessions) != "[{s1} {s2} {s3}]" {
		t.Errorf("after 4 sessions with room for 3: %v", sessions)
	}
	// s0 was dropped: it starts over.
	c := newClient(t, ts, "login-fails-then-succeeds", "s0")
	c.want("s0 again", c.login("alice", "wonderland"), 401, wrongLogin)
	advance(2 * time.Minute)
	getJSON(t, ts.URL+"/__mock/sessions", &sessions)
	if len(sessions) != 0 {
		t.Errorf("after two idle minutes: %v", sessions)
	}
}

// Faults of every kind, over real HTTP, as the client sees them.
func TestFaults(t *testing.T) {
	set := withFiles(t, map[string]string{"faults.yaml": `
name: faults
description: one fault per path
rules:
  - match: {path: /person/1}
    fault: empty
  - match: {path: /person/2}
    fault: {kind: hang, for: 150ms}
  - match: {path: /person/3}
    fault: {kind: truncate, bytes: 10}
    respond: {status: 200, fixture: person/3}
  - match: {path: /person/4}
    fault: {kind: trickle, chunk: 40, interval: 20ms}
  - match: {path: /person/5}
    delay: 200ms
    respond: {status: 404, body: {detail: Person not found}}
  - match: {path: /person/6}
    delay: {min: 50ms, max: 100ms}
    fault: reset
`})
	ts, _ := newServer(t, mock.Config{Scenarios: set, Scenario: "faults"})
	c := newClient(t, ts, "", "")
	normal := func(path string) string {
		return newClient(t, ts, "none", "").get(path).body
	}

	if a := c.get("/person/1"); !errors.Is(a.err, io.EOF) {
		t.Errorf("empty: %d %v", a.status, a.err)
	}
	start := time.Now()
	if a := c.get("/person/2"); !errors.Is(a.err, io.EOF) || time.Since(start) < 150*time.Millisecond {
		t.Errorf("hang for 150ms: %v after %v", a.err, time.Since(start))
	}
	if a := c.get("/person/3"); !errors.Is(a.err, io.ErrUnexpectedEOF) || a.body != normal("/person/3")[:10] {
		t.Errorf("truncate: %q %v", a.body, a.err)
	}
	start = time.Now()
	a := c.get("/person/4")
	full := normal("/person/4")
	c.want("trickle", a, 200, full)
	if least := time.Duration((len(full)+39)/40-1) * 20 * time.Millisecond; time.Since(start) < least {
		t.Errorf("trickle took %v, less than %v", time.Since(start), least)
	}
	start = time.Now()
	c.want("delayed answer", c.get("/person/5"), 404, personNotFound)
	if time.Since(start) < 200*time.Millisecond {
		t.Errorf("delay: answered after %v", time.Since(start))
	}
	start = time.Now()
	if a := c.get("/person/6"); a.err == nil || time.Since(start) < 50*time.Millisecond {
		t.Errorf("delayed reset: %d %v after %v", a.status, a.err, time.Since(start))
	}
	// The journal tells what happened.
	var entries []struct {
		Path, Rule, Fault string
		Status            int
	}
	getJSON(t, ts.URL+"/__mock/journal?scenario=faults", &entries)
	var got []string
	for _, e := range entries {
		got = append(got, fmt.Sprintf("%s %s %d", e.Path, e.Fault, e.Status))
	}
	want := "/person/1 empty 0|/person/2 hang 0|/person/3 truncate 200|/person/4 trickle 200|/person/5  404|/person/6 reset 0"
	if strings.Join(got, "|") != want {
		t.Errorf("journal:\n got %s\nwant %s", strings.Join(got, "|"), want)
	}
}

// passthrough changes the normal answer, keeping FastAPI's member order.
func TestPassthroughChanges(t *testing.T) {
	set := withFiles(t, map[string]string{"changes.yaml": `
name: changes
description: the normal answers, changed
rules:
  - match: {method: GET, path: /reviews, query: {page: "2"}}
    passthrough: {offset: 2, limit: 2}
  - match: {method: GET, path: /reviews, query: {movie: {present: true}}}
    passthrough: {where: {movie_id: tt0137523}, set: {reactions: {}}}
  - match: {method: GET, path: /reviews, headers: {X-Empty: "yes"}}
    passthrough: {limit: 0}
  - match: {method: GET, path: "/person/{person_id}", params: {person_id: 3}}
    passthrough:
      set: {name: Renamed}
      headers: {X-Changed: "true"}
`})
	ts, _ := newServer(t, mock.Config{Scenarios: set, Scenario: "changes"})
	c := newClient(t, ts, "", "")
	var all []map[string]any
	json.Unmarshal([]byte(newClient(t, ts, "none", "").get("/reviews").body), &all)

	var page []map[string]any
	json.Unmarshal([]byte(c.get("/reviews?page=2").body), &page)
	if len(page) != 2 || page[0]["id"] != all[2]["id"] || page[1]["id"] != all[3]["id"] {
		t.Errorf("offset 2 limit 2: %v", page)
	}
	var movie []map[string]any
	a := c.get("/reviews?movie=1")
	json.Unmarshal([]byte(a.body), &movie)
	if len(movie) == 0 {
		t.Fatal("where kept nothing")
	}
	for _, r := range movie {
		if r["movie_id"] != "tt0137523" || fmt.Sprint(r["reactions"]) != "map[]" {
			t.Errorf("where/set: %v", r)
		}
	}
	conforms(t, "listReviews", a.body)
	c.header.Set("X-Empty", "yes")
	c.want("limit 0", c.get("/reviews"), 200, "[]")
	c.header.Del("X-Empty")
	// person_id matches as FastAPI reads it: 003 is 3.
	a = c.get("/person/003")
	if !strings.HasPrefix(a.body, `{"id":3,"name":"Renamed","biography":`) || a.header.Get("X-Changed") != "true" {
		t.Errorf("set: %s %v", a.body, a.header)
	}
	c.want("another person is untouched", c.get("/person/4"), 200, newClient(t, ts, "none", "").get("/person/4").body)
}

// A request is in the journal as soon as its answer begins: a client that
// has read an answer (here, while the handler is still running) finds it.
func TestJournaledBeforeAnswerEnds(t *testing.T) {
	e, err := scenarios.New(withFiles(t, nil), scenarios.Options{})
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	ts := httptest.NewServer(e.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "2")
		w.WriteHeader(http.StatusTeapot)
		w.Write([]byte("ok"))
		http.NewResponseController(w).Flush()
		<-release // the handler has not returned while the client looks
	})))
	defer ts.Close()
	defer close(release)
	resp, err := http.Get(ts.URL + "/person/1")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	got := e.Journal(scenarios.Filter{})
	if string(body) != "ok" || len(got) != 1 || got[0].Path != "/person/1" || got[0].Status != http.StatusTeapot {
		t.Fatalf("answer %q read, journal %+v", body, got)
	}
}

// passthrough with if_status rewords the mock's own refusal as the app
// words it (a 401 to a wrong password becomes the app's 400, its challenge
// dropped) and leaves every other answer as the mock gave it.
func TestPassthroughIfStatus(t *testing.T) {
	set := withFiles(t, map[string]string{"reworded.yaml": `
name: reworded
description: the app's words for a wrong login
rules:
  - match: {method: POST, path: /auth/login}
    passthrough: {if_status: 401, status: 400, set: {detail: Incorrect email or password}}
  - match: {method: GET, path: "/person/{person_id}"}
    passthrough: {if_status: 404, set: {detail: Nobody of that id}}
`})
	ts, _ := newServer(t, mock.Config{Scenarios: set, Scenario: "reworded"})
	c := newClient(t, ts, "", "")
	a := c.login("alice", "wrong")
	c.want("wrong password", a, 400, `{"detail":"Incorrect email or password"}`)
	if h := a.header.Get("WWW-Authenticate"); h != "" {
		t.Errorf("a 401 sent on as 400 keeps its challenge %q", h)
	}
	if a := c.login("alice", "wonderland"); a.status != 200 || !strings.Contains(a.body, `"access_token"`) {
		t.Errorf("right password: %d %s, want the mock's token", a.status, a.body)
	}
	c.want("unknown person", c.get("/person/999999"), 404, `{"detail":"Nobody of that id"}`)
	if a := c.get("/person/1"); a.status != 200 || strings.Contains(a.body, "Nobody") {
		t.Errorf("known person: %d %s, want the record unchanged", a.status, a.body)
	}
}
