package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/reference"
	"github.com/moviemock/moviemock/mock"
	"github.com/moviemock/moviemock/proxy"
)

// End-to-end tests of `moviemock proxy` in front of the reference FastAPI
// backends (internal/reference): what a frontend's suite run through the
// proxy learns about a correct backend and about each deliberate bug, what
// the mock answers for an upstream that lacks operations, the recording
// and its replay, and the scenarios in front of the upstream.

// proxyRun is one `moviemock proxy` run in-process.
type proxyRun struct {
	base    string // http://127.0.0.1:PORT
	startup string // the start-up text
	cancel  context.CancelFunc
	done    chan error
	out     *proxyOut
	stderr  *proxyOut

	once sync.Once
	err  error
}

// proxyOut keeps what the proxy writes to stdout, and hands over its first
// write: the whole start-up text.
type proxyOut struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	first chan string
}

func (o *proxyOut) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.buf.Len() == 0 {
		select {
		case o.first <- string(p):
		default:
		}
	}
	return o.buf.Write(p)
}

func (o *proxyOut) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

// startProxy runs `moviemock proxy --upstream upstream args…` on a free
// port until the test ends (or stop).
func startProxy(t *testing.T, upstream string, args ...string) *proxyRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	p := &proxyRun{cancel: cancel, done: make(chan error, 1), out: &proxyOut{first: make(chan string, 1)}, stderr: &proxyOut{}}
	all := append([]string{"proxy", "--addr", "127.0.0.1:0", "--quiet", "--upstream", upstream}, args...)
	go func() { p.done <- run(ctx, all, noEnv, p.out, p.stderr) }()
	t.Cleanup(func() {
		p.stop(t)
		if t.Failed() {
			t.Logf("proxy %v stderr:\n%s", args, p.stderr.String())
		}
	})
	select {
	case p.startup = <-p.out.first:
	case err := <-p.done:
		p.once.Do(func() { p.err = err })
		t.Fatalf("proxy %v did not start: %v", args, err)
	case <-time.After(time.Minute):
		t.Fatalf("proxy %v said nothing", args)
	}
	m := regexp.MustCompile(`^moviemock proxying \S+ on http://(127\.0\.0\.1:\d+)`).FindStringSubmatch(p.startup)
	if m == nil {
		t.Fatalf("no address in the proxy's start-up text %q", p.startup)
	}
	p.base = "http://" + m[1]
	return p
}

// stop ends the proxy as Ctrl-C would, and returns run's error.
func (p *proxyRun) stop(t *testing.T) error {
	t.Helper()
	p.once.Do(func() {
		p.cancel()
		select {
		case p.err = <-p.done:
		case <-time.After(time.Minute):
			p.err = fmt.Errorf("the proxy did not stop")
			t.Error(p.err)
		}
	})
	return p.err
}

// violationList is GET /__mock/violations.
type violationList struct {
	Checked    int               `json:"checked"`
	Failed     int               `json:"failed"`
	Violations []proxy.Violation `json:"violations"`
}

func (v violationList) checks() []string {
	var out []string
	for _, x := range v.Violations {
		out = append(out, x.Check)
	}
	return out
}

func (v violationList) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "checked %d, failed %d", v.Checked, v.Failed)
	for _, x := range v.Violations {
		fmt.Fprintf(&b, "\n  %s %s → %d: %s: expected %s, got %s", x.Method, x.Path, x.Status, x.Check, x.Expected, x.Got)
	}
	return b.String()
}

func proxyViolations(t *testing.T, base string) violationList {
	t.Helper()
	code, body := mockCall(t, base, "GET", "/__mock/violations", "")
	var v violationList
	if err := json.Unmarshal(body, &v); code != 200 || err != nil {
		t.Fatalf("GET /__mock/violations: %d %v %s", code, err, clip(body))
	}
	return v
}

// journalEntry is what these tests read of a journal entry.
type journalEntry struct {
	Method     string   `json:"method"`
	Path       string   `json:"path"`
	Query      string   `json:"query"`
	Status     int      `json:"status"`
	Scenario   string   `json:"scenario"`
	Session    string   `json:"session"`
	AnsweredBy string   `json:"answered_by"`
	Violations []string `json:"violations"`
}

func (e journalEntry) String() string {
	s := e.Method + " " + e.Path
	if e.Query != "" {
		s += "?" + e.Query
	}
	return fmt.Sprintf("%s → %d by %q %q", s, e.Status, e.AnsweredBy, e.Violations)
}

// proxyJournal is the journal, the control API's own requests left out.
func proxyJournal(t *testing.T, base string) []journalEntry {
	t.Helper()
	code, body := mockCall(t, base, "GET", "/__mock/journal", "")
	var all []journalEntry
	if err := json.Unmarshal(body, &all); code != 200 || err != nil {
		t.Fatalf("GET /__mock/journal: %d %v %s", code, err, clip(body))
	}
	var out []journalEntry
	for _, e := range all {
		if !strings.HasPrefix(e.Path, "/__mock/") {
			out = append(out, e)
		}
	}
	return out
}

// lastEntry is the journal's latest entry for method and path.
func lastEntry(t *testing.T, base, method, path string) journalEntry {
	t.Helper()
	entries := proxyJournal(t, base)
	for i := len(entries) - 1; i >= 0; i-- {
		if entries[i].Method == method && entries[i].Path == path {
			return entries[i]
		}
	}
	t.Fatalf("no journal entry for %s %s in %v", method, path, entries)
	return journalEntry{}
}

// forgedToken is a well-formed JWT for alice, valid for an hour, signed
// with a secret the backend does not know.
func forgedToken(t *testing.T) string {
	t.Helper()
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"sub": "alice", "exp": time.Now().Add(time.Hour).Unix()}).
		SignedString([]byte("somebody-else's-secret"))
	if err != nil {
		t.Fatal(err)
	}
	return "Bearer " + s
}

const (
	firstReview   = "b42bfd96-9925-4da9-8c96-eed6b998b81f" // by alice, of tt0137523 (Fight Club)
	unknownReview = "00000000-0000-4000-8000-000000000000"
)

// frontendSession is what a frontend's end-to-end suite does through the
// proxy against the movies backend: reads, a movie's and a review's whole
// life, reactions, misses. It returns how many exchanges it made.
func frontendSession(t *testing.T, base string) int {
	t.Helper()
	n := 0
	call := func(method, path, body string, status int, want string, header ...string) []byte {
		t.Helper()
		n++
		return expectCall(t, base, method, path, body, status, want, header...)
	}
	n++
	auth := []string{"Authorization", login(t, base, "alice", "wonderland")}
	call("GET", "/movies", "", 200, `"id":"tt0137523"`)
	call("GET", "/movies?year=1999&limit=2", "", 200, `"year":1999`)
	call("GET", "/movies/tt0137523", "", 200, `"title":"Fight Club"`)
	call("GET", "/movies/tt0137523/reviews", "", 200, `"id":"`+firstReview+`"`)
	call("GET", "/reviews?movie_id=tt0137523&limit=3", "", 200, `"movie_id":"tt0137523"`)
	call("GET", "/reviews/"+firstReview, "", 200, `"author":{"id":1,"username":"alice"`)
	call("GET", "/users/me", "", 200, `"username":"alice"`, auth...)
	movie := idOf(t, call("POST", "/movies", `{"title":"Heat","year":1995,"genres":["Crime"]}`, 201, `"title":"Heat"`, auth...))
	call("PATCH", "/movies/"+movie, `{"runtime":170}`, 200, `"runtime":170`, auth...)
	review := idOf(t, call("POST", "/reviews", fmt.Sprintf(`{"movie_id":%q,"content":"Long, and worth every minute."}`, movie), 201, `"author_id":1`, auth...))
	call("PUT", "/reviews/"+review, `{"content":"Still long, still worth it."}`, 200, `"content":"Still long, still worth it."`, auth...)
	call("GET", "/reviews/"+review+"/reactions", "", 200, "[]")
	call("POST", "/reviews/"+review+"/reactions", `{"emoji":"🔥"}`, 201, `"emoji":"🔥"`, auth...)
	call("DELETE", "/reviews/"+review, "", 204, "", auth...)
	call("DELETE", "/movies/"+movie, "", 204, "", auth...)
	call("GET", "/movies/"+movie, "", 404, `{"detail":"Movie not found"}`)
	call("GET", "/reviews/"+unknownReview, "", 404, `{"detail":"Review not found"}`)
	call("GET", "/person/1", "", 200, `"name":"Brad Pitt"`)
	return n
}

// A frontend session through the proxy against the correct backend finds
// nothing: every exchange checked, none failed, every answer the
// upstream's; the report is written on exit in each format and
// --fail-on-violation exits 0. A request the frontend gets wrong on purpose
// is a request_conformance violation and nothing else.
func TestProxyCorrectBackendHasNoViolations(t *testing.T) {
	reference.Require(t)
	t.Parallel()
	b := reference.Start(t, reference.Options{App: reference.AppMovies})
	spec := grownSpec(t, reference.AppMovies)
	dir := t.TempDir()

	jsonFile := filepath.Join(dir, "report.json")
	p := startProxy(t, b.URL, "--spec", spec, "--jwt-secret", reference.DefaultSecret, "--report", jsonFile, "--fail-on-violation")
	if !strings.Contains(p.startup, "moviemock proxying "+b.URL) || !strings.Contains(p.startup, "violations report (json) to "+jsonFile) {
		t.Errorf("start-up text:\n%s", p.startup)
	}
	n := frontendSession(t, p.base)
	if v := proxyViolations(t, p.base); v.Failed != 0 || len(v.Violations) != 0 || v.Checked != n {
		t.Errorf("GET /__mock/violations after %d exchanges with a correct backend: %v", n, v)
	}
	entries := proxyJournal(t, p.base)
	if len(entries) != n {
		t.Errorf("the journal holds %d entries, want %d", len(entries), n)
	}
	for _, e := range entries {
		if e.AnsweredBy != "upstream" || len(e.Violations) > 0 {
			t.Errorf("journal: %v, want answered by the upstream, no violation", e)
		}
	}
	err := p.stop(t)
	if code := exitCode(err, io.Discard); code != 0 {
		t.Errorf("--fail-on-violation after a clean session: exit %d (%v)", code, err)
	}
	data, rerr := os.ReadFile(jsonFile)
	if rerr != nil {
		t.Fatalf("--report %s on exit: %v", jsonFile, rerr)
	}
	var rep struct {
		BaseURL string `json:"base_url"`
		Passed  bool   `json:"passed"`
		Summary struct {
			Cases        int    `json:"cases"`
			FailedCases  int    `json:"failed_cases"`
			ChecksPassed int    `json:"checks_passed"`
			ChecksFailed int    `json:"checks_failed"`
			Line         string `json:"line"`
		} `json:"summary"`
		Observed *struct {
			Exchanges int `json:"exchanges"`
			Failed    int `json:"failed"`
		} `json:"observed"`
		Results []json.RawMessage `json:"results"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("the JSON report does not decode: %v\n%s", err, clip(data))
	}
	if !rep.Passed || rep.BaseURL != b.URL || rep.Observed == nil || rep.Observed.Exchanges != n || rep.Observed.Failed != 0 ||
		rep.Summary.Cases != n || rep.Summary.FailedCases != 0 || rep.Summary.ChecksFailed != 0 || rep.Summary.ChecksPassed < n || len(rep.Results) != 0 {
		t.Errorf("JSON report of a clean session of %d exchanges:\n%s", n, clip(data))
	}
	if out := p.out.String(); rep.Summary.Line == "" || !strings.HasSuffix(out, rep.Summary.Line+"\n") {
		t.Errorf("stdout on exit does not end with the report's summary line %q:\n%s", rep.Summary.Line, out)
	}

	// The other formats, with short sessions, one holding a request the
	// frontend gets wrong (no title): FastAPI's 422 is correct, so the only
	// violation is request_conformance.
	auth := []string{"Authorization", login(t, b.URL, "alice", "wonderland")}
	for _, format := range []string{"junit", "html", "text"} {
		file := filepath.Join(dir, "report."+format)
		p := startProxy(t, b.URL, "--spec", spec, "--jwt-secret", reference.DefaultSecret, "--report", file, "--format", format)
		expectCall(t, p.base, "GET", "/person/2", "", 200, `"name":"Hayao Miyazaki"`)
		expectCall(t, p.base, "POST", "/movies", `{"year":1995}`, 422, `"loc":["body","title"]`, auth...)
		v := proxyViolations(t, p.base)
		if v.Checked != 2 || v.Failed != 1 || len(v.Violations) != 1 || v.Violations[0].Check != "request_conformance" ||
			v.Violations[0].Method != "POST" || !strings.Contains(v.Violations[0].Got, "body.title") {
			t.Errorf("%s: violations of a session with one invalid request: %v", format, v)
		}
		e := lastEntry(t, p.base, "POST", "/movies")
		if len(e.Violations) != 1 || !strings.HasPrefix(e.Violations[0], "request_conformance: ") || e.AnsweredBy != "upstream" {
			t.Errorf("%s: journal entry of the invalid request: %v", format, e)
		}
		if err := p.stop(t); err != nil {
			t.Errorf("%s: a violation without --fail-on-violation: %v", format, err)
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("--report %s --format %s on exit: %v", file, format, err)
		}
		text := string(data)
		switch format {
		case "junit":
			var suites struct {
				XMLName xml.Name
				Cases   []struct {
					Name    string    `xml:"name,attr"`
					Failure *struct{} `xml:"failure"`
				} `xml:"testsuite>testcase"`
			}
			if err := xml.Unmarshal(data, &suites); err != nil || suites.XMLName.Local != "testsuites" {
				t.Fatalf("JUnit report: %v\n%s", err, clip(data))
			}
			failed := 0
			for _, c := range suites.Cases {
				if c.Failure != nil {
					failed++
					if !strings.Contains(c.Name, "request_conformance") {
						t.Errorf("JUnit: failing test case %q, want only request_conformance", c.Name)
					}
				}
			}
			if failed == 0 {
				t.Errorf("JUnit report has no failing test case:\n%s", clip(data))
			}
		case "html":
			if !strings.Contains(strings.ToLower(text), "<html") || !strings.Contains(text, "request_conformance") {
				t.Errorf("HTML report:\n%s", clip(data))
			}
		case "text":
			if !strings.Contains(text, "request_conformance") || !strings.Contains(text, "body.title") {
				t.Errorf("text report:\n%s", clip(data))
			}
		}
	}
}

// A request the bug triggers, sent through the proxy.
type bugTrigger struct {
	method, path, body string
	auth               string // "alice": her token; "garbage": a token that is no JWT; "forged": signed with another secret
	invalid            bool   // the contract refuses the request: request_conformance fails whatever the backend does
}

var bugTriggers = map[string]bugTrigger{
	"login":           {method: "POST", path: "/auth/login"},
	"create":          {method: "POST", path: "/movies", body: `{"title":"Heat","year":1995}`, auth: "alice"},
	"no-title":        {method: "POST", path: "/movies", body: `{"year":1995}`, auth: "alice", invalid: true},
	"no-body":         {method: "POST", path: "/movies", auth: "alice", invalid: true},
	"extra-field":     {method: "POST", path: "/movies", body: `{"title":"Heat","year":1995,"tagline":"A Los Angeles crime saga"}`, auth: "alice"},
	"unknown-review":  {method: "GET", path: "/reviews/" + unknownReview},
	"review-no-token": {method: "POST", path: "/reviews", body: `{"movie_id":"tt0137523","content":"Posted without signing in."}`},
	"me-garbage":      {method: "GET", path: "/users/me", auth: "garbage"},
	"me-forged":       {method: "GET", path: "/users/me", auth: "forged"},
	"delete-unknown":  {method: "DELETE", path: "/movies/tt9999999", auth: "alice"},
	"filter":          {method: "GET", path: "/reviews?movie_id=tt0137523"},
	"nested":          {method: "GET", path: "/movies/tt0137523/reviews"},
	"limit":           {method: "GET", path: "/movies?limit=2"},
	"put-no-content":  {method: "PUT", path: "/reviews/" + firstReview, body: `{}`, auth: "alice", invalid: true},
}

// The deliberate bugs of app/movies.py that a single exchange shows, the
// request that shows each, and the check that must name it.
//
// The other nine need several exchanges to be seen, and are the contract
// runner's (moviemock contract) job, not the proxy's: delete_keeps,
// patch_nulls, updated_at_frozen, created_id_unreadable, skip_off_by_one,
// list_truncates_content, me_wrong_user, register_no_login and
// wrong_password_ok.
var proxyBugs = []struct{ bug, trigger, check string }{
	{"create_200", "create", "status_code_conformance"},
	{"unknown_id_500", "unknown-review", "not_a_server_error"},
	{"validation_400", "no-title", "validation_error_shape"},
	{"body_422_wrong_loc", "no-title", "validation_error_shape"},
	{"extra_field_500", "extra-field", "not_a_server_error"},
	{"missing_body_500", "no-body", "not_a_server_error"},
	{"token_no_exp", "login", "jwt_wellformed"},
	{"write_no_auth", "review-no-token", "auth_required"},
	{"bad_token_ok", "me-garbage", "auth_required"},
	{"bad_signature_ok", "me-forged", "auth_required"},
	{"delete_404_wrong_shape", "delete-unknown", "status_code_conformance"},
	{"filter_ignored", "filter", "paging_and_filters"},
	{"nested_list_leaks", "nested", "paging_and_filters"},
	{"limit_ignored", "limit", "paging_and_filters"},
	{"put_partial", "put-no-content", "negative_data_rejection"},
}

// sendTrigger sends one trigger through the proxy at base and returns the
// status.
func sendTrigger(t *testing.T, base string, tr bugTrigger) int {
	t.Helper()
	if tr.path == "/auth/login" {
		req, _ := http.NewRequest("POST", base+tr.path, strings.NewReader("username=alice&password=wonderland"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	var header []string
	switch tr.auth {
	case "alice":
		header = []string{"Authorization", login(t, base, "alice", "wonderland")}
	case "garbage":
		header = []string{"Authorization", "Bearer not-a-token"}
	case "forged":
		header = []string{"Authorization", forgedToken(t)}
	}
	code, _ := mockCall(t, base, tr.method, tr.path, tr.body, header...)
	return code
}

// Each bug a single exchange shows is named by its check when a frontend's
// request meets it through the proxy; against the correct backend the same
// requests fail nothing but request_conformance, and that only for the
// requests the contract refuses.
func TestProxyNamesEachBug(t *testing.T) {
	reference.Require(t)
	t.Parallel()
	spec := grownSpec(t, reference.AppMovies)
	sem := make(chan struct{}, 3) // backends starting or running at once: the machine has 2 cores

	t.Run("correct", func(t *testing.T) {
		t.Parallel()
		sem <- struct{}{}
		t.Cleanup(func() { <-sem })
		b := reference.Start(t, reference.Options{App: reference.AppMovies})
		p := startProxy(t, b.URL, "--spec", spec, "--jwt-secret", reference.DefaultSecret)
		names := make([]string, 0, len(bugTriggers))
		for name := range bugTriggers {
			names = append(names, name)
		}
		slices.Sort(names)
		invalid := 0
		for _, name := range names {
			tr := bugTriggers[name]
			code := sendTrigger(t, p.base, tr)
			if code >= 500 {
				t.Errorf("%s %s: the correct backend answered %d", tr.method, tr.path, code)
			}
			e := lastEntry(t, p.base, tr.method, strings.SplitN(tr.path, "?", 2)[0])
			switch {
			case tr.invalid:
				invalid++
				if len(e.Violations) != 1 || !strings.HasPrefix(e.Violations[0], "request_conformance: ") {
					t.Errorf("%s (a request the contract refuses): %v, want one request_conformance violation", name, e)
				}
			case len(e.Violations) > 0:
				t.Errorf("%s (a valid request) against the correct backend: %v", name, e)
			}
		}
		v := proxyViolations(t, p.base)
		for _, c := range v.checks() {
			if c != "request_conformance" {
				t.Errorf("against the correct backend: %v", v)
				break
			}
		}
		if v.Failed != invalid {
			t.Errorf("%d requests the contract refuses, %d failing exchanges: %v", invalid, v.Failed, v)
		}
	})
	for _, bc := range reference.Sample(proxyBugs, 3) {
		t.Run(bc.bug, func(t *testing.T) {
			t.Parallel()
			sem <- struct{}{}
			t.Cleanup(func() { <-sem })
			b := reference.Start(t, reference.Options{App: reference.AppMovies, Bug: bc.bug})
			args := []string{"--spec", spec, "--jwt-secret", reference.DefaultSecret}
			failOn := bc.bug == "create_200"
			if failOn {
				args = append(args, "--fail-on-violation")
			}
			p := startProxy(t, b.URL, args...)
			tr := bugTriggers[bc.trigger]
			code := sendTrigger(t, p.base, tr)
			v := proxyViolations(t, p.base)
			if !slices.Contains(v.checks(), bc.check) {
				t.Errorf("bug %s: %s %s answered %d; violations lack %s: %v", bc.bug, tr.method, tr.path, code, bc.check, v)
			}
			e := lastEntry(t, p.base, tr.method, strings.SplitN(tr.path, "?", 2)[0])
			if !slices.ContainsFunc(e.Violations, func(l string) bool { return strings.HasPrefix(l, bc.check+": ") }) || e.AnsweredBy != "upstream" {
				t.Errorf("bug %s: journal entry %v lacks %s", bc.bug, e, bc.check)
			}
			if failOn {
				err := p.stop(t)
				if c := exitCode(err, io.Discard); c != 1 {
					t.Errorf("--fail-on-violation after bug %s: exit %d (%v), want 1", bc.bug, c, err)
				}
			}
		})
	}
}

// In front of main.py (the embedded contract's backend: persons, login,
// reviews) with the movies contract, the mock answers what the upstream
// lacks, as serve would, and keeps writes; --mock forces an operation to
// the mock; an unreachable upstream leaves everything to the mock.
func TestProxyPartialMocking(t *testing.T) {
	reference.Require(t)
	t.Parallel()
	b := reference.Start(t, reference.Options{})
	dir, err := reference.ContractDir(reference.AppMovies)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"--spec", filepath.Join(dir, "openapi.json"), "--fixtures", filepath.Join(dir, "fixtures")}
	served, _ := serveStartup(t, args...)
	p := startProxy(t, b.URL, args...)

	for _, path := range []string{"/movies", "/movies/tt0137523", "/movies?year=1999&limit=2", "/movies/tt0137523/reviews"} {
		wantCode, want := mockCall(t, served, "GET", path, "")
		code, got := mockCall(t, p.base, "GET", path, "")
		if code != 200 || code != wantCode || !bytes.Equal(got, want) {
			t.Errorf("GET %s through the proxy: %d %s\nserve --spec movies answers %d %s", path, code, clip(got), wantCode, clip(want))
		}
		e := lastEntry(t, p.base, "GET", strings.SplitN(path, "?", 2)[0])
		if !strings.HasPrefix(e.AnsweredBy, "mock: the upstream answered 404 Not Found") {
			t.Errorf("GET %s: %v, want answered by the mock for the upstream's 404 Not Found", path, e)
		}
	}
	// The upstream's own 404 is its answer, not a reason to mock.
	for _, path := range []string{"/reviews/" + firstReview, "/reviews/" + unknownReview, "/person/1"} {
		wantCode, want := mockCall(t, b.URL, "GET", path, "")
		code, got := mockCall(t, p.base, "GET", path, "")
		if code != wantCode || !bytes.Equal(got, want) {
			t.Errorf("GET %s through the proxy: %d %s\nthe upstream answers %d %s", path, code, clip(got), wantCode, clip(want))
		}
		if e := lastEntry(t, p.base, "GET", path); e.AnsweredBy != "upstream" {
			t.Errorf("GET %s: %v, want answered by the upstream", path, e)
		}
	}

	// The upstream's token is good for the mock: same secret. A write the
	// mock answers sticks.
	auth := []string{"Authorization", login(t, p.base, "alice", "wonderland")}
	if e := lastEntry(t, p.base, "POST", "/auth/login"); e.AnsweredBy != "upstream" {
		t.Errorf("login: %v, want answered by the upstream", e)
	}
	created := expectCall(t, p.base, "POST", "/movies", `{"title":"Heat","year":1995}`, 201, `"title":"Heat"`, auth...)
	id := idOf(t, created)
	if got := expectCall(t, p.base, "GET", "/movies/"+id, "", 200, ""); !bytes.Equal(got, created) {
		t.Errorf("GET /movies/%s after the mock created it: %s\nwant %s", id, clip(got), clip(created))
	}
	expectCall(t, p.base, "GET", "/movies?limit=100", "", 200, `"id":"`+id+`"`)
	// The mock's answers are not the upstream's: nothing is checked.
	if v := proxyViolations(t, p.base); v.Failed != 0 {
		t.Errorf("violations: %v", v)
	}

	// --mock listReviews: the list from the mock's data (the movies
	// fixtures' 36 reviews), not the upstream's (60).
	forced := startProxy(t, b.URL, append(args, "--mock", "listReviews")...)
	if !strings.Contains(forced.startup, "always: listReviews") {
		t.Errorf("start-up text with --mock listReviews:\n%s", forced.startup)
	}
	_, want := mockCall(t, served, "GET", "/reviews?limit=100", "")
	_, upstream := mockCall(t, b.URL, "GET", "/reviews?limit=100", "")
	if bytes.Equal(want, upstream) {
		t.Fatal("the mock's and the upstream's review lists are the same: the test cannot tell who answered")
	}
	if code, got := mockCall(t, forced.base, "GET", "/reviews?limit=100", ""); code != 200 || !bytes.Equal(got, want) {
		t.Errorf("GET /reviews with --mock listReviews: %d %s\nwant the mock's %s", code, clip(got), clip(want))
	}
	if e := lastEntry(t, forced.base, "GET", "/reviews"); e.AnsweredBy != "mock: --mock listReviews" {
		t.Errorf("GET /reviews with --mock listReviews: %v", e)
	}
	if e := (func() journalEntry {
		mockCall(t, forced.base, "GET", "/reviews/"+firstReview, "")
		return lastEntry(t, forced.base, "GET", "/reviews/"+firstReview)
	})(); e.AnsweredBy != "upstream" {
		t.Errorf("GET /reviews/{id} with --mock listReviews only: %v", e)
	}

	// An upstream nobody listens at (port 1, tcpmux's: a port freed by
	// closing a listener may be taken by another test's server meanwhile):
	// the mock answers everything.
	down := startProxy(t, "http://127.0.0.1:1", args...)
	for _, path := range []string{"/reviews/" + firstReview, "/movies/tt0137523", "/person/1"} {
		wantCode, want := mockCall(t, served, "GET", path, "")
		if code, got := mockCall(t, down.base, "GET", path, ""); code != wantCode || !bytes.Equal(got, want) {
			t.Errorf("GET %s, the upstream down: %d %s\nwant the mock's %d %s", path, code, clip(got), wantCode, clip(want))
		}
		if e := lastEntry(t, down.base, "GET", path); !strings.HasPrefix(e.AnsweredBy, "mock: the upstream is unreachable") {
			t.Errorf("GET %s, the upstream down: %v", path, e)
		}
	}
}

// --record writes what the upstream answered into a fixture folder that
// serve replays byte for byte: single reads, and lists read whole. The
// folder holds no password and no token. With --record-interval the folder
// is written while the proxy runs.
func TestProxyRecordReplays(t *testing.T) {
	reference.Require(t)
	t.Parallel()
	b := reference.Start(t, reference.Options{App: reference.AppMovies})
	spec := grownSpec(t, reference.AppMovies)
	dir := filepath.Join(t.TempDir(), "recorded")
	p := startProxy(t, b.URL, "--spec", spec, "--record", dir, "--record-interval", "0")
	if !strings.Contains(p.startup, "recording the upstream's records into "+dir+", on exit") {
		t.Errorf("start-up text:\n%s", p.startup)
	}
	auth := []string{"Authorization", login(t, p.base, "alice", "wonderland")}
	// Writes: a movie created is recorded as answered, one deleted is not.
	created := expectCall(t, p.base, "POST", "/movies", `{"title":"Heat","year":1995}`, 201, "", auth...)
	heat := idOf(t, created)
	ronin := idOf(t, expectCall(t, p.base, "POST", "/movies", `{"title":"Ronin","year":1998}`, 201, "", auth...))
	expectCall(t, p.base, "DELETE", "/movies/"+ronin, "", 204, "", auth...)
	// Then a deep link (a single read before its list: The Godfather is
	// listed before Heat, which was kept first), then the lists, whose
	// replay must keep the upstream's order all the same, then more single
	// reads.
	singles := []string{"/reviews/a7a557fd-d1f4-42ed-9346-e03e72de0b15", "/movies/tt0068646"}
	lists := []string{"/movies", "/reviews", "/movies/tt0137523/reviews", "/reviews/" + firstReview + "/reactions"}
	singles = append(singles, "/movies/tt0137523", "/reviews/"+firstReview, "/person/1", "/person/2", "/person/31")
	seen := map[string][]byte{}
	for _, path := range append(singles[:2:2], append(lists, singles[2:]...)...) {
		seen[path] = expectCall(t, p.base, "GET", path, "", 200, "")
	}
	expectCall(t, p.base, "GET", "/users/me", "", 200, `"username":"alice"`, auth...)
	// The first reaction to the first review is ivan_k's, whom no review
	// embeds: a reaction naming a user never seen is left out of the
	// recording (the fixture folder would not load), so he signs in too.
	expectCall(t, p.base, "GET", "/users/me", "", 200, `"username":"ivan_k"`, "Authorization", login(t, p.base, "ivan_k", "тарковский"))
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("--record-interval 0 wrote %s before the exit", dir)
	}
	if err := p.stop(t); err != nil {
		t.Fatalf("proxy: %v", err)
	}
	if log := p.stderr.String(); strings.Contains(log, "left out") || !strings.Contains(log, "recorded into "+dir) {
		t.Errorf("the recording on exit:\n%s", log)
	}

	files, err := os.ReadDir(dir)
	if err != nil || len(files) == 0 {
		t.Fatalf("--record %s on exit: %v, %d files", dir, err, len(files))
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name())
	}
	if !slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, "users.") }) {
		t.Errorf("no users file recorded: %q", names)
	}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, f.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{"eyJ", "wonderland", "тарковский", "access_token"} {
			if bytes.Contains(data, []byte(secret)) {
				t.Errorf("recorded %s holds %q", f.Name(), secret)
			}
		}
		if strings.HasPrefix(f.Name(), "users.") && !regexp.MustCompile(`"?password"?\s*:\s*null`).Match(data) {
			t.Errorf("recorded %s: no password: null\n%s", f.Name(), data)
		}
	}

	replay, _ := serveStartup(t, "--spec", spec, "--fixtures", dir)
	if code, got := mockCall(t, replay, "GET", "/movies/"+heat, ""); code != 200 || !bytes.Equal(got, created) {
		t.Errorf("GET /movies/%s (created through the proxy) replayed: %d %s\nPOST answered %s", heat, code, clip(got), clip(created))
	}
	expectCall(t, replay, "GET", "/movies/"+ronin, "", 404, `{"detail":"Movie not found"}`)
	for _, path := range append(singles, lists...) {
		if code, got := mockCall(t, replay, "GET", path, ""); code != 200 || !bytes.Equal(got, seen[path]) {
			t.Errorf("GET %s replayed: %d %s\nthe upstream answered %s", path, code, clip(got), clip(seen[path]))
		}
	}

	// --record-interval: the folder is written while the proxy runs.
	periodic := filepath.Join(t.TempDir(), "periodic")
	p2 := startProxy(t, b.URL, "--spec", spec, "--record", periodic, "--record-interval", "200ms")
	expectCall(t, p2.base, "GET", "/movies/tt0137523", "", 200, "")
	m, err := loadModel(context.Background(), "test", spec, 0, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		matches, _ := filepath.Glob(filepath.Join(periodic, "movies.*"))
		if len(matches) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("--record-interval 200ms: nothing written into %s while the proxy ran", periodic)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := fixtures.LoadDir(periodic, m); err != nil {
		t.Fatalf("the folder written while the proxy ran does not load: %v", err)
	}
}

// countingUpstream stands between the proxy and the backend and counts the
// requests that reach the backend, by "METHOD /path".
func countingUpstream(t *testing.T, backend string) (string, func(string) int) {
	t.Helper()
	u, err := url.Parse(backend)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	var mu sync.Mutex
	seen := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.Method+" "+r.URL.Path]++
		mu.Unlock()
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func(key string) int {
		mu.Lock()
		defer mu.Unlock()
		return seen[key]
	}
}

// Scenarios answer in front of the upstream: a scripted answer (a scenario
// or Prefer) never reaches it; a delay still relays its answer; a session's
// scenario affects that session only.
func TestProxyScenariosInFront(t *testing.T) {
	reference.Require(t)
	t.Parallel()
	b := reference.Start(t, reference.Options{App: reference.AppMovies})
	spec := grownSpec(t, reference.AppMovies)
	upstream, reached := countingUpstream(t, b.URL)
	p := startProxy(t, upstream, "--spec", spec)

	expectCall(t, p.base, "GET", "/person/1", "", 404, "", "X-Mock-Scenario", "person-not-found")
	if code, body := mockCall(t, p.base, "GET", "/person/1", "", "X-Mock-Scenario", "person-not-found"); code != 404 || string(body) != `{"detail":"Person not found"}` {
		t.Errorf("person-not-found: %d %s", code, body)
	}
	if e := lastEntry(t, p.base, "GET", "/person/1"); e.AnsweredBy != "scenario" || e.Scenario != "person-not-found" {
		t.Errorf("person-not-found: %v", e)
	}
	if n := reached("GET /person/1"); n != 0 {
		t.Errorf("a scenario's answer reached the upstream %d times", n)
	}
	expectCall(t, p.base, "GET", "/reviews/"+firstReview, "", 404, "", "Prefer", "code=404")
	if e := lastEntry(t, p.base, "GET", "/reviews/"+firstReview); e.AnsweredBy != "scenario" {
		t.Errorf("Prefer: code=404: %v", e)
	}
	if n := reached("GET /reviews/" + firstReview); n != 0 {
		t.Errorf("a Prefer answer reached the upstream %d times", n)
	}
	if v := proxyViolations(t, p.base); v.Checked != 0 {
		t.Errorf("scripted answers were checked as the upstream's: %v", v)
	}

	// A session's scenario, set with the control API, is that session's only.
	req, _ := http.NewRequest("PUT", p.base+"/__mock/sessions/qa", strings.NewReader(`{"scenario":"person-not-found"}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("PUT /__mock/sessions/qa: %s", resp.Status)
	}
	expectCall(t, p.base, "GET", "/person/2", "", 404, `{"detail":"Person not found"}`, "X-Mock-Session", "qa")
	if n := reached("GET /person/2"); n != 0 {
		t.Errorf("the session's scenario answer reached the upstream %d times", n)
	}
	expectCall(t, p.base, "GET", "/person/2", "", 200, `"name":"Hayao Miyazaki"`, "X-Mock-Session", "other")
	expectCall(t, p.base, "GET", "/person/2", "", 200, `"name":"Hayao Miyazaki"`)
	if n := reached("GET /person/2"); n != 2 {
		t.Errorf("the other sessions' requests reached the upstream %d times, want 2", n)
	}
	if e := lastEntry(t, p.base, "GET", "/person/2"); e.AnsweredBy != "upstream" {
		t.Errorf("without the session: %v", e)
	}

	// --scenario slow-network: every answer late, still the upstream's.
	slow := startProxy(t, upstream, "--spec", spec, "--scenario", "slow-network")
	_, want := mockCall(t, b.URL, "GET", "/person/3", "")
	before := reached("GET /person/3")
	begun := time.Now()
	code, got := mockCall(t, slow.base, "GET", "/person/3", "")
	took := time.Since(begun)
	if code != 200 || !bytes.Equal(got, want) || took < 300*time.Millisecond {
		t.Errorf("slow-network: %d after %v: %s\nwant the upstream's 200 %s after at least 300ms", code, took, clip(got), clip(want))
	}
	if reached("GET /person/3") != before+1 {
		t.Errorf("slow-network: the request did not reach the upstream")
	}
	if e := lastEntry(t, slow.base, "GET", "/person/3"); e.AnsweredBy != "upstream" || len(e.Violations) != 0 {
		t.Errorf("slow-network: %v", e)
	}
}

// Bad proxy usage exits 2 and says what is wrong.
func TestProxyUsageErrors(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "no-such-ca.pem")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{}, "--upstream"},
		{[]string{"--upstream", "ftp://x"}, "ftp://x"},
		{[]string{"--upstream", "http://127.0.0.1:1", "--mock", "unknownOp"}, "unknownOp"},
		{[]string{"--upstream", "http://127.0.0.1:1", "--format", "xml", "--report", "r.xml"}, "xml"},
		{[]string{"--upstream", "http://127.0.0.1:1", "--checks", "nope"}, "nope"},
		{[]string{"--upstream", "https://127.0.0.1:1", "--upstream-ca", "ca.pem", "--upstream-insecure"}, "--upstream-insecure"},
		{[]string{"--upstream", "https://127.0.0.1:1", "--upstream-ca", missing}, "no-such-ca.pem"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), append([]string{"proxy", "--addr", "127.0.0.1:0", "--quiet"}, tc.args...), noEnv, &stdout, &stderr)
		if code := exitCode(err, io.Discard); code != 2 || err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("proxy %q: exit %d, %v; want 2 naming %s", tc.args, code, err, tc.want)
		}
		if strings.Contains(stdout.String(), "moviemock proxying") {
			t.Errorf("proxy %q started:\n%s", tc.args, stdout.String())
		}
	}
}

// A proxy whose exchanges none reached the upstream (nothing listens at
// --upstream: the mock answered them all) checked nothing: its summary says
// how many of the exchanges reached the upstream, and --fail-on-violation
// exits 1 rather than turn a pipeline green. An upstream that answers
// passes.
func TestProxyNothingReachedTheUpstream(t *testing.T) {
	t.Parallel()
	// Port 1 (tcpmux), where nothing listens: a port freed by closing a
	// listener may be taken by another test's server meanwhile.
	closed := "http://127.0.0.1:1"
	m, err := mock.New(mock.Config{DisableAdmin: true})
	if err != nil {
		t.Fatal(err)
	}
	up := httptest.NewServer(m)
	t.Cleanup(up.Close)

	paths := []string{"/reviews", "/reviews?limit=2", "/person/1"}
	tests := []struct {
		name     string
		upstream string
		args     []string
		code     int
		summary  string
	}{
		{"nothing listens, --fail-on-violation", closed, []string{"--fail-on-violation"}, 1,
			"moviemock proxy: NOT CHECKED 0 of 3 exchanges reached the upstream, 0 checked, 0 failed"},
		{"nothing listens", closed, nil, 0,
			"moviemock proxy: NOT CHECKED 0 of 3 exchanges reached the upstream, 0 checked, 0 failed"},
		{"an upstream that answers, --fail-on-violation", up.URL, []string{"--fail-on-violation"}, 0,
			"moviemock proxy: PASSED 3 of 3 exchanges reached the upstream, 3 checked, 0 failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := startProxy(t, tt.upstream, tt.args...)
			for _, path := range paths {
				if code, body := mockCall(t, p.base, "GET", path, ""); code != 200 {
					t.Errorf("GET %s: %d %s", path, code, clip(body))
				}
			}
			err := p.stop(t)
			var stderr bytes.Buffer
			if code := exitCode(err, &stderr); code != tt.code {
				t.Errorf("exit %d (%v), want %d", code, err, tt.code)
			}
			if tt.code == 1 && (err == nil || !strings.Contains(err.Error(), "none of 3 exchanges reached the upstream "+tt.upstream)) {
				t.Errorf("the failure says %v", err)
			}
			if out := p.out.String(); !strings.Contains(out, tt.summary) {
				t.Errorf("stdout lacks %q:\n%s", tt.summary, out)
			}
		})
	}
}
