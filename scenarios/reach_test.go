package scenarios_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptrace"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
	"github.com/moviemock/moviemock/scenarios"
)

const notAuthenticated = `{"detail":"Not authenticated"}`

// Every scripted or faulty answer that has a status line carries the CORS
// headers the normal answer would: a browser must see the fault modelled,
// not a CORS error. The crash alone has none, as Starlette's own 500.
func TestFaultsCarryCORSHeaders(t *testing.T) {
	t.Parallel()
	ts, _ := newServer(t, mock.Config{})
	const origin = "http://localhost:5173"
	for _, tc := range []struct {
		scenario string
		answers  []string // what each request in turn gets
	}{
		{"malformed-responses", []string{"cut off", "proxy page", "malformed"}},
		{"intermittent-errors", []string{"normal", "normal", "503", "normal", "normal", "503", "crash"}},
	} {
		c := newClient(t, ts, tc.scenario, "cors-"+tc.scenario)
		c.header.Set("Origin", origin)
		for _, what := range tc.answers {
			a := c.get("/person/1")
			if a.status == 0 {
				t.Fatalf("%s, %s: no answer: %v", tc.scenario, what, a.err)
			}
			if what == "cut off" && !errors.Is(a.err, io.ErrUnexpectedEOF) {
				t.Errorf("%s: the cut-off answer ended with %v", tc.scenario, a.err)
			}
			got := a.header.Get("Access-Control-Allow-Origin")
			switch {
			case what == "crash" && got != "":
				t.Errorf("%s, %s: Access-Control-Allow-Origin %q; Starlette's crash 500 has none", tc.scenario, what, got)
			case what != "crash" && (got != origin || a.header.Get("Access-Control-Allow-Credentials") != "true"):
				t.Errorf("%s, %s (%d): CORS headers missing: %v", tc.scenario, what, a.status, a.header)
			}
		}
	}
}

// A reset reaches a client that keeps connections alive: Go's Transport,
// like Chromium, silently sends a request again when a reused connection is
// reset before any answer, so the answers before carry Connection: close
// and the reset request comes on a fresh connection.
func TestResetSeenOnKeepAliveClient(t *testing.T) {
	t.Parallel()
	ts, _ := newServer(t, mock.Config{})
	client := &http.Client{Transport: &http.Transport{}} // keep-alive, Go's retry rule
	t.Cleanup(client.CloseIdleConnections)
	for i := 1; i <= 6; i++ {
		req, _ := http.NewRequest("GET", ts.URL+"/person/1", nil)
		req.Header.Set(scenarios.HeaderScenario, "flaky-connection")
		req.Header.Set(scenarios.HeaderSession, "keep-alive")
		var reused []bool
		req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
			GotConn: func(info httptrace.GotConnInfo) { reused = append(reused, info.Reused) },
		}))
		resp, err := client.Do(req)
		if i%3 != 0 {
			if err != nil {
				t.Fatalf("request %d: %v", i, err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if !resp.Close {
				t.Errorf("request %d: the answer keeps its connection open; the reset after it would be retried unseen", i)
			}
			continue
		}
		if err == nil {
			resp.Body.Close()
			t.Errorf("request %d: got %d over connections reused %v; want the reset", i, resp.StatusCode, reused)
		}
	}
}

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// rate-limited lets requests through again once Retry-After has passed:
// its limit counts within a window, which starts over.
func TestRateLimitRecoversAfterRetryAfter(t *testing.T) {
	t.Parallel()
	clock := &fakeClock{t: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}
	ts, _ := newServer(t, mock.Config{Now: clock.now})
	c := newClient(t, ts, "rate-limited", "limited")
	for range 3 {
		// The window opens with the first request: 5 pass in 30 s.
		for range 5 {
			c.want("within the limit", c.get("/person/1"), 200, "")
			clock.advance(time.Second)
		}
		a := c.get("/person/1")
		c.want("over the limit", a, 429, "")
		retry, err := time.ParseDuration(a.header.Get("Retry-After") + "s")
		if err != nil {
			t.Fatalf("Retry-After %q", a.header.Get("Retry-After"))
		}
		clock.advance(24 * time.Second) // 29 s after the window opened
		c.want("still in the window", c.get("/person/1"), 429, "")
		clock.advance(retry - 24*time.Second) // Retry-After after the 429
	}
}

func TestWindowRefusedWithoutCount(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, rule, want string }{
		{"window without times or every", "  - window: 30s\n    passthrough: true\n", "f.yaml:4: scenario \"s\": rule 1: window: counts matches for times or every: give one of them"},
		{"window not a duration", "  - times: 1\n    window: soon\n    passthrough: true\n", `rule 1: window: want a duration above 0 and at most 24h0m0s, such as 30s or 1m, got "soon"`},
		{"window of nothing", "  - times: 1\n    window: 0s\n    passthrough: true\n", "rule 1: window: want a duration above 0"},
		{"before_auth on the mock's answer", "  - before_auth: true\n    passthrough: true\n", "rule 1: before_auth: only a respond or a crash stands for the backend's own answer"},
		{"before_auth not a bool", "  - before_auth: yes please\n    respond: {status: 404, body: {detail: x}}\n", "rule 1: before_auth: want true or false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := load(t, map[string]string{"f.yaml": head + tc.rule})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v\nwant %q", err, tc.want)
			}
		})
	}
}

// login logs c in and keeps the token for its next requests.
func (c *client) loginToken(username, password string) {
	c.t.Helper()
	a := c.login(username, password)
	c.want("login", a, 200, "")
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	json.Unmarshal([]byte(a.body), &tok)
	c.header.Set("Authorization", "Bearer "+tok.AccessToken)
}

// With --require-auth, a scripted answer stands for the endpoint's:
// FastAPI's security dependency runs first, so a request without a token
// gets its 401, unless the rule models something in front of the backend
// (before_auth).
func TestScriptedAnswersAfterRequireAuth(t *testing.T) {
	t.Parallel()
	ts, _ := newServer(t, mock.Config{RequireAuth: true})

	c := newClient(t, ts, "empty-catalog", "auth-empty")
	a := c.get("/reviews")
	c.want("respond without a token", a, 401, notAuthenticated)
	if a.header.Get("WWW-Authenticate") != "Bearer" {
		t.Errorf("401 without WWW-Authenticate: %v", a.header)
	}
	c.header.Set("Authorization", "Bearer not-a-token")
	c.want("respond with a bad token", c.get("/reviews"), 401, badCredentials)
	c.loginToken("alice", "wonderland")
	c.want("respond with a token", c.get("/reviews"), 200, "[]")

	c = newClient(t, ts, "rate-limited", "auth-limited")
	for range 5 {
		c.want("within the limit, without a token", c.get("/person/1"), 401, notAuthenticated)
	}
	c.want("the rate limiter is in front of auth", c.get("/person/1"), 429, "")

	c = newClient(t, ts, "intermittent-errors", "auth-errors")
	for i, status := range []int{401, 401, 503, 401, 401, 503, 401} {
		c.want("request "+string(rune('1'+i)), c.get("/person/1"), status, "")
	}

	c = newClient(t, ts, "", "auth-prefer")
	for _, prefer := range []string{"example=sparse", "dynamic=true", "code=404"} {
		c.header.Set("Prefer", prefer)
		c.want("Prefer: "+prefer+" without a token", c.get("/person/7"), 401, notAuthenticated)
	}
	c.header.Del("Prefer")
	c.loginToken("alice", "wonderland")
	for _, prefer := range []string{"example=sparse", "dynamic=true", "code=404"} {
		c.header.Set("Prefer", prefer)
		a := c.get("/person/7")
		if a.header.Get("Preference-Applied") == "" {
			t.Errorf("Prefer: %s with a token: %d %s", prefer, a.status, a.body)
		}
	}
}

// An operation the contract secures (security on the operation) gets the
// 401 before a scripted answer, without --require-auth.
func TestScriptedAnswersAfterOperationSecurity(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "testdata", "contracts", "movies")
	text, err := os.ReadFile(filepath.Join(dir, "openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(text, "openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Compile(sp)
	if err != nil {
		t.Fatal(err)
	}
	data, err := fixtures.LoadDir(filepath.Join(dir, "fixtures"), m)
	if err != nil {
		t.Fatal(err)
	}
	set, err := scenarios.Load(sp, data, scenarios.Source{Name: "test", FS: fstest.MapFS{"gone.yaml": {Data: []byte(`name: gone
description: every movie deletes without a trace, and every review is gone
rules:
  - match: {method: DELETE, path: "/movies/{movie_id}"}
    respond: {status: 204}
  - match: {method: GET, path: "/reviews/{review_id}"}
    respond: {status: 404, body: {detail: Review not found}}
`)}}})
	if err != nil {
		t.Fatal(err)
	}
	ts, _ := newServer(t, mock.Config{Spec: sp, Model: m, Data: data, Scenarios: set, Scenario: "gone"})
	c := newClient(t, ts, "", "")
	c.want("a secured operation without a token", c.send("DELETE", "/movies/tt0137523", nil), 401, notAuthenticated)
	c.want("an open operation without a token", c.get("/reviews/1"), 404, "")
	c.loginToken("alice", "wonderland")
	c.want("a secured operation with a token", c.send("DELETE", "/movies/tt0137523", nil), 204, "")
}

// The control API shows a rule's window and before_auth.
func TestControlAPIShowsWindow(t *testing.T) {
	t.Parallel()
	ts, _ := newServer(t, mock.Config{})
	a := newClient(t, ts, "", "").get("/__mock/scenarios/rate-limited")
	var sc struct {
		Rules []struct {
			Window     string `json:"window"`
			BeforeAuth bool   `json:"before_auth"`
		} `json:"rule_list"`
	}
	if err := json.Unmarshal([]byte(a.body), &sc); err != nil || len(sc.Rules) != 2 {
		t.Fatalf("%d %s: %v", a.status, a.body, err)
	}
	if sc.Rules[0].Window != "30s" || sc.Rules[0].BeforeAuth || sc.Rules[1].Window != "" || !sc.Rules[1].BeforeAuth {
		t.Errorf("rules: %s", a.body)
	}
}
