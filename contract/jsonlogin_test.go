package contract_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// The RealWorld ("Conduit") document logs in with JSON (POST /users/login
// {"user": {"email", "password"}} answering {"user": {"token"}}) and takes
// the token as an API key in Authorization. Its mock is the backend here,
// behind a middleware that changes one thing each time.

const rwEmail, rwPassword = "runner@example.com", "runner-password-1"

// realWorld is the RealWorld document and a mock of it holding the
// account rwEmail, behind wrap (nil: none); every request it saw is in
// the log.
func realWorld(t *testing.T, wrap func(http.Handler) http.Handler) (*spec.Spec, *httptest.Server, *requestLog) {
	t.Helper()
	sp := docAt(t, "documents", "realworld", "openapi.yml")
	srv, err := mock.New(mock.Config{Spec: sp})
	if err != nil {
		t.Fatal(err)
	}
	var h http.Handler = srv
	if wrap != nil {
		h = wrap(srv)
	}
	log := &requestLog{}
	ts := httptest.NewServer(log.record(h))
	t.Cleanup(ts.Close)
	resp, err := http.Post(ts.URL+"/users", "application/json", strings.NewReader(`{"user":{"username":"runner","email":"`+rwEmail+`","password":"`+rwPassword+`"}}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("register the account: %d", resp.StatusCode)
	}
	return sp, ts, log
}

// articlesCount is what GET /articles says it holds.
func articlesCount(t *testing.T, ts *httptest.Server) int {
	t.Helper()
	resp, err := http.Get(ts.URL + "/articles?limit=1")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var page struct {
		ArticlesCount int `json:"articlesCount"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&page); err != nil {
		t.Fatal(err)
	}
	return page.ArticlesCount
}

type requestLog struct {
	mu   sync.Mutex
	seen []string // "METHOD /path Authorization"
}

func (l *requestLog) record(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.seen = append(l.seen, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
		l.mu.Unlock()
		next.ServeHTTP(w, r)
	})
}

func runRealWorld(t *testing.T, sp *spec.Spec, ts *httptest.Server, cfg contract.Config) (*contract.Report, error) {
	t.Helper()
	cfg.Spec, cfg.BaseURL = sp, ts.URL
	if cfg.Username == "" {
		cfg.Username, cfg.Password = rwEmail, rwPassword
	}
	cfg.MaxResponseTime = time.Minute
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return contract.Run(ctx, cfg)
}

// The run logs in through the JSON login, sends the token where the
// apiKey scheme says, tests every secured operation with it and without
// it, and never sends the account's own update a valid token.
func TestJSONLogin(t *testing.T) {
	t.Parallel()
	sp, ts, log := realWorld(t, nil)
	before := articlesCount(t, ts)
	report, err := runRealWorld(t, sp, ts, contract.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if after := articlesCount(t, ts); after != before {
		t.Errorf("articlesCount %d after the run, %d before: the run left records behind (notes %q)", after, before, report.Notes)
	}
	if line := report.SummaryLine(); !strings.Contains(line, "19/19 operations tested") {
		// The profile read, follow and unfollow act on the throwaway
		// account the sequences register, PUT /user changes it: every
		// operation's valid requests ran.
		t.Errorf("summary %q: want 19/19 operations tested", line)
	}
	for _, tally := range report.ByCheck() {
		if tally.Failed > 0 {
			t.Errorf("%s: %d failed against the RealWorld mock", tally.Name, tally.Failed)
		}
	}
	if !strings.Contains(strings.Join(report.Notes, "\n"), `logged in as "`+rwEmail+`" (POST /users/login)`) {
		t.Errorf("no note of the JSON login in %q", report.Notes)
	}
	positive := map[string]bool{}
	unauthenticated := map[string]bool{}
	for _, r := range report.Results {
		op := r.Case.Method + " " + r.Case.Path
		switch r.Case.Kind {
		case contract.Positive:
			positive[op] = positive[op] || r.Response.Status/100 == 2
		case contract.Unauthenticated:
			unauthenticated[op] = true
		}
	}
	for _, op := range []string{"GET /user", "POST /articles", "GET /articles/{slug}", "PUT /articles/{slug}", "DELETE /articles/{slug}", "POST /articles/{slug}/favorite", "POST /articles/{slug}/comments", "POST /users/login"} {
		if !positive[op] {
			t.Errorf("%s: no positive case answered 2xx", op)
		}
	}
	for _, op := range []string{"GET /user", "PUT /user", "POST /articles", "DELETE /articles/{slug}/comments/{id}"} {
		if !unauthenticated[op] {
			t.Errorf("%s: no unauthenticated case", op)
		}
	}
	token := ""
	log.mu.Lock()
	for _, s := range log.seen {
		// The run's own token: the one its first article is created
		// with (the throwaway account's goes to GET /user too).
		if strings.HasPrefix(s, "POST /articles ") && strings.Count(s, ".") == 2 && token == "" {
			token = strings.TrimPrefix(s, "POST /articles ")
		}
	}
	if token == "" {
		t.Error("no article created with a token")
	}
	for _, s := range log.seen {
		if token != "" && s == "PUT /user "+token {
			t.Errorf("PUT /user was sent the run's own token without --allow-destructive: the account could change")
		}
	}
	log.mu.Unlock()
	// The account still logs in as it did.
	again, err := runRealWorld(t, sp, ts, contract.Config{Checks: []string{"not_a_server_error"}})
	if err != nil || again == nil {
		t.Fatalf("a second run could not log in: %v", err)
	}
}

// A login the target refuses stops the run: exit 2, never a run of
// refusals.
func TestJSONLoginRefused(t *testing.T) {
	t.Parallel()
	sp, ts, _ := realWorld(t, nil)
	_, err := runRealWorld(t, sp, ts, contract.Config{Username: rwEmail, Password: "not-the-password"})
	if !errors.Is(err, contract.ErrLogin) || !strings.Contains(err.Error(), "POST /users/login") {
		t.Fatalf("err = %v, want ErrLogin naming the login", err)
	}
}

// tokenPrefixed is a backend that wants "Authorization: Token <jwt>" (a
// prefix the document states only in prose): it hands the mock the bare
// token, and refuses any other form.
func tokenPrefixed(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if a := r.Header.Get("Authorization"); a != "" {
			tok, ok := strings.CutPrefix(a, "Token ")
			if !ok {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusUnauthorized)
				w.Write([]byte(`{"errors":{"body":["missing Token prefix"]}}`))
				return
			}
			r.Header.Set("Authorization", tok)
		}
		next.ServeHTTP(w, r)
	})
}

// The document's description of its API key writes it "Token
// xxxxxx.yyyyyyy.zzzzzz": the run writes the token so. Where the
// description says nothing of it, every secured case is refused and the
// run stops saying so; --auth-format gives the prefix and the run passes.
func TestAuthFormat(t *testing.T) {
	t.Parallel()
	sp, ts, _ := realWorld(t, tokenPrefixed)
	report, err := runRealWorld(t, sp, ts, contract.Config{Checks: []string{"not_a_server_error"}})
	if err != nil {
		t.Fatalf("the prefix the description writes: %v", err)
	}
	if !slices.ContainsFunc(report.Notes, func(n string) bool { return strings.Contains(n, `as "Token <token>"`) }) {
		t.Errorf("notes %q, want the token written after Token", report.Notes)
	}
	sp.Doc.Components.SecuritySchemes["Token"].Value.Description = "a JWT"
	_, err = runRealWorld(t, sp, ts, contract.Config{Checks: []string{"not_a_server_error"}})
	if !errors.Is(err, contract.ErrLogin) || !strings.Contains(err.Error(), "--auth-format") {
		t.Fatalf("err = %v, want ErrLogin pointing at --auth-format", err)
	}
	report, err = runRealWorld(t, sp, ts, contract.Config{AuthFormat: "Token {token}"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tally := range report.ByCheck() {
		if tally.Failed > 0 {
			t.Errorf("%s: %d failed with --auth-format", tally.Name, tally.Failed)
		}
	}
	if _, err := runRealWorld(t, sp, ts, contract.Config{AuthFormat: "Token"}); err == nil || !strings.Contains(err.Error(), "{token}") {
		t.Errorf("an --auth-format without {token}: err = %v", err)
	}
}

// authNotEnforced is the bug: POST /articles without credentials is
// served as the last user who sent some.
func authNotEnforced(next http.Handler) http.Handler {
	var mu sync.Mutex
	last := ""
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if a := r.Header.Get("Authorization"); a != "" && strings.Count(a, ".") == 2 && !strings.Contains(a, "moviemock") {
			last = a
		}
		if r.Method == "POST" && r.URL.Path == "/articles" && r.Header.Get("Authorization") == "" {
			r.Header.Set("Authorization", last)
		}
		mu.Unlock()
		next.ServeHTTP(w, r)
	})
}

// The unauthenticated cases of an API-key scheme catch a secured write
// that does not enforce its credentials.
func TestAPIKeyAuthEnforced(t *testing.T) {
	t.Parallel()
	sp, ts, _ := realWorld(t, authNotEnforced)
	report, err := runRealWorld(t, sp, ts, contract.Config{Checks: []string{"auth_required"}})
	if err != nil {
		t.Fatal(err)
	}
	caught := false
	for _, r := range report.Results {
		if r.Failed() && r.Case.Method == "POST" && r.Case.Path == "/articles" && r.Case.Kind == contract.Unauthenticated {
			caught = true
		} else if r.Failed() {
			t.Errorf("a failure besides the bug: %s %s %q", r.Case.Method, r.Case.Path, r.Case.Name)
		}
	}
	if !caught {
		t.Error("POST /articles served without credentials: not caught")
	}
}
