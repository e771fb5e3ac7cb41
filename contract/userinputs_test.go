package contract_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/mock"
)

// mockWith is the mock of a corpus app's document with rule in front of
// it (rule answers, or returns false to let the mock answer).
func mockWith(t *testing.T, app string, rule func(w http.ResponseWriter, r *http.Request) bool) (http.Handler, contract.Config) {
	t.Helper()
	sp := corpusDoc(t, app)
	m, err := mock.New(mock.Config{Spec: sp})
	if err != nil {
		t.Fatal(err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rule == nil || !rule(w, r) {
			m.ServeHTTP(w, r)
		}
	}), contract.Config{Spec: sp, Examples: 5}
}

func refuse(w http.ResponseWriter, status int, body string) bool {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write([]byte(body))
	return true
}

func hasNote(r *contract.Report, parts ...string) bool {
	for _, n := range r.Notes {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(n, p)
		}
		if all {
			return true
		}
	}
	return false
}

// TestGates: an application that refuses every value the runner makes for
// a header, query parameter or cookie with its own {"detail"} 400, 401 or
// 403 (a dependency checking a secret) fails nothing, and a note says
// which --header, --query or --cookie to give; given it, the operation is
// tested in full. A refusal of only some values, or a server error, is
// still a failure.
func TestGates(t *testing.T) {
	t.Parallel()
	const app = "dependencies.tutorial006_py310" // X-Token and X-Key headers
	// As FastAPI solves the two dependencies: one whose header is
	// missing is not called (its 422 comes after), the other is.
	secret := func(w http.ResponseWriter, r *http.Request) bool {
		if v, ok := r.Header["X-Token"]; ok && v[0] != "fake-super-secret-token" {
			return refuse(w, 400, `{"detail":"X-Token header invalid"}`)
		}
		if v, ok := r.Header["X-Key"]; ok && v[0] != "fake-super-secret-key" {
			return refuse(w, 400, `{"detail":"X-Key header invalid"}`)
		}
		return false
	}
	for _, tc := range []struct {
		name    string
		rule    func(w http.ResponseWriter, r *http.Request) bool
		header  http.Header
		failing bool
		note    []string // parts of a note there must be; nil: no gate note
	}{
		{name: "a secret header", rule: secret, note: []string{"x-token (header)", "--header 'x-token: VALUE'", "X-Token header invalid"}},
		{name: "the secrets given", rule: secret, header: http.Header{"X-Token": {"fake-super-secret-token"}, "X-Key": {"fake-super-secret-key"}}},
		{name: "a 403 of its own", rule: func(w http.ResponseWriter, r *http.Request) bool {
			if v, ok := r.Header["X-Key"]; ok && v[0] != "k" {
				return refuse(w, 403, `{"detail":"Forbidden key"}`)
			}
			return false
		}, note: []string{"--header"}},
		{name: "some valid values refused", rule: func(w http.ResponseWriter, r *http.Request) bool {
			if strings.ContainsAny(r.Header.Get("X-Token"), "0123456789") || r.Header.Get("X-Token") == "" {
				return false
			}
			return refuse(w, 400, `{"detail":"X-Token header invalid"}`)
		}, failing: true},
		{name: "a server error", rule: func(w http.ResponseWriter, r *http.Request) bool {
			if r.Header.Get("X-Token") == "" {
				return false
			}
			http.Error(w, "Internal Server Error", http.StatusInternalServerError)
			return true
		}, failing: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, cfg := mockWith(t, app, tc.rule)
			cfg.Header = tc.header
			report := run(t, h, cfg)
			if f := failed(report); (len(f) > 0) != tc.failing {
				t.Errorf("failures: %v, want some: %v\n%s", len(f), tc.failing, strings.Join(f, "\n"))
			}
			gateNote := hasNote(report, "refuses every value the runner made")
			switch {
			case tc.note == nil && gateNote:
				t.Errorf("a gate note where there is none: %q", report.Notes)
			case tc.note != nil && !hasNote(report, append([]string{"refuses every value the runner made"}, tc.note...)...):
				t.Errorf("no note with %q: %q", tc.note, report.Notes)
			}
		})
	}
}

// TestUnknownIDOwesNotFound: an unknown id must be a 404 only where the
// operation declares one (or names records the runner has seen); an
// operation that echoes its path answers what it likes.
func TestUnknownIDOwesNotFound(t *testing.T) {
	t.Parallel()
	echo := func(w http.ResponseWriter, r *http.Request) bool {
		id := strings.TrimPrefix(r.URL.Path, "/items/")
		if r.URL.Path == "/items/"+id && id != "" && !strings.Contains(id, "/") {
			body, _ := json.Marshal(map[string]string{"item_id": id})
			return refuse(w, 200, string(body))
		}
		return false
	}
	itemEcho := func(w http.ResponseWriter, r *http.Request) bool {
		id := strings.TrimPrefix(r.URL.Path, "/items/")
		if r.URL.Path == "/items/"+id && id != "" {
			body, _ := json.Marshal(map[string]string{"id": id, "value": "there goes my hero"})
			return refuse(w, 200, string(body))
		}
		return false
	}
	for _, tc := range []struct {
		name    string
		app     string
		rule    func(w http.ResponseWriter, r *http.Request) bool
		failing bool
	}{
		{name: "no 404 declared: an echo", app: "path_params.tutorial001_py310", rule: echo},
		{name: "404 declared and given", app: "additional_responses.tutorial001_py310"},
		{name: "404 declared, unknown id answered 200", app: "additional_responses.tutorial001_py310", rule: itemEcho, failing: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, cfg := mockWith(t, tc.app, tc.rule)
			report := run(t, h, cfg)
			if casesOf(report, contract.UnknownID) == 0 {
				t.Fatal("no unknown-id case")
			}
			f := failed(report)
			got := strings.Contains(strings.Join(f, "\n"), "unknown_id_not_found")
			if got != tc.failing {
				t.Errorf("unknown_id_not_found fails: %v, want %v\n%s", got, tc.failing, strings.Join(f, "\n"))
			}
			if !tc.failing && len(f) > 0 {
				t.Errorf("failures:\n%s", strings.Join(f, "\n"))
			}
		})
	}
}

// TestExcludeOperation: an excluded operation (by operationId or by
// "METHOD /path") gets no request and a note; a name the contract does not
// have is an error of the run.
func TestExcludeOperation(t *testing.T) {
	t.Parallel()
	const app = "additional_responses.tutorial001_py310"
	for _, tc := range []struct {
		name, exclude string
		wantErr       bool
	}{
		{name: "by operationId", exclude: "read_item_items__item_id__get"},
		{name: "by method and path", exclude: "GET /items/{item_id}"},
		{name: "no such operation", exclude: "POST /nowhere", wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var paths []string
			h, cfg := mockWith(t, app, func(w http.ResponseWriter, r *http.Request) bool {
				mu.Lock()
				paths = append(paths, r.URL.Path)
				mu.Unlock()
				return false
			})
			ts := httptest.NewServer(h)
			defer ts.Close()
			cfg.BaseURL = ts.URL
			cfg.ExcludeOperations = []string{tc.exclude}
			cfg.MaxResponseTime = slowOK
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			report, err := contract.Run(ctx, cfg)
			if tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), "no such operation") {
					t.Fatalf("err %v, want no such operation", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range paths {
				if strings.HasPrefix(p, "/items/") {
					t.Errorf("the excluded operation got a request: %s", p)
				}
			}
			for _, res := range report.Results {
				if res.Case.Operation == "read_item_items__item_id__get" {
					t.Errorf("a case of the excluded operation: %q", res.Case.Name)
				}
			}
			if !hasNote(report, "read_item_items__item_id__get: excluded") {
				t.Errorf("no note says so: %q", report.Notes)
			}
		})
	}
}

// TestQueryAndCookieForEveryRequest: --query and --cookie values go with
// every request, and a parameter the contract declares takes that value in
// every case that does not test the parameter itself.
func TestQueryAndCookieForEveryRequest(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, app string
		query     url.Values
		cookie    url.Values
		param     string // the declared parameter given a value ("" none)
		in        string
	}{
		{name: "an undeclared query parameter", app: "path_params.tutorial001_py310", query: url.Values{"api_key": {"s3cret"}}},
		{name: "an undeclared cookie", app: "path_params.tutorial001_py310", cookie: url.Values{"session": {"abc"}}},
		{name: "a declared cookie", app: "cookie_params.tutorial001_py310", cookie: url.Values{"ads_id": {"given-ads"}}, param: "ads_id", in: "cookie"},
		{name: "a declared query parameter", app: "query_params.tutorial001_py310", query: url.Values{"skip": {"3"}}, param: "skip", in: "query"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			type seen struct {
				query  url.Values
				cookie map[string]string
			}
			var mu sync.Mutex
			var reqs []seen
			h, cfg := mockWith(t, tc.app, func(w http.ResponseWriter, r *http.Request) bool {
				s := seen{query: r.URL.Query(), cookie: map[string]string{}}
				for _, c := range r.Cookies() {
					s.cookie[c.Name] = c.Value
				}
				mu.Lock()
				reqs = append(reqs, s)
				mu.Unlock()
				return false
			})
			cfg.Query, cfg.Cookie = tc.query, tc.cookie
			report := run(t, h, cfg)
			if f := failed(report); len(f) > 0 {
				t.Errorf("failures:\n%s", strings.Join(f, "\n"))
			}
			// Cases that test the declared parameter itself send other
			// values; every other request carries the given one.
			testsParam := map[int]bool{}
			for i, res := range report.Results {
				if tc.param != "" && len(res.Case.Field) >= 2 && res.Case.Field[0] == tc.in && res.Case.Field[1] == tc.param {
					testsParam[i] = true
				}
			}
			missing, carried := 0, 0
			for _, s := range reqs {
				for k, v := range tc.query {
					if s.query.Get(k) == v[0] {
						carried++
					} else if k != tc.param {
						missing++
					}
				}
				for k, v := range tc.cookie {
					if s.cookie[k] == v[0] {
						carried++
					} else if k != tc.param {
						missing++
					}
				}
			}
			if missing > 0 || carried == 0 {
				t.Errorf("%d requests without the given value, %d with it (of %d)", missing, carried, len(reqs))
			}
			if tc.param != "" && carried < len(reqs)-len(testsParam) {
				t.Errorf("the declared %s %s took the given value in %d of %d requests (%d test it)", tc.in, tc.param, carried, len(reqs), len(testsParam))
			}
		})
	}
}

// TestTrustedHost: an application that trusts only its own host names
// (Starlette's TrustedHostMiddleware) refuses every request with 400
// "Invalid host header", and a note says to give --header Host; given it,
// the requests carry that Host and the run passes.
func TestTrustedHost(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		header http.Header
		pass   bool
	}{
		{name: "no Host given"},
		{name: "Host given", header: http.Header{"Host": {"example.com"}}, pass: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, cfg := mockWith(t, "advanced_middleware.tutorial002_py310", func(w http.ResponseWriter, r *http.Request) bool {
				if r.Host != "example.com" {
					w.Header().Set("Content-Type", "text/plain; charset=utf-8")
					w.WriteHeader(http.StatusBadRequest)
					w.Write([]byte("Invalid host header"))
					return true
				}
				return false
			})
			cfg.Header = tc.header
			report := run(t, h, cfg)
			if f := failed(report); (len(f) == 0) != tc.pass {
				t.Errorf("%d failures, want a pass: %v\n%s", len(f), tc.pass, strings.Join(f, "\n"))
			}
			if note := hasNote(report, "--header 'Host: HOSTNAME'"); note == tc.pass {
				t.Errorf("note on the host: %v, want %v: %q", note, !tc.pass, report.Notes)
			}
		})
	}
}
