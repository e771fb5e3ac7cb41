package mock_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/mock"
	"github.com/moviemock/moviemock/scenarios"
)

// FuzzRequest sends arbitrary methods, targets (path and query), headers
// and bodies through the whole handler: CORS, the control API, scenarios,
// sessions and Prefer, validation and the operations, with and without
// --require-auth. Whatever comes in, an answer the mock gives of its own
// accord is never a 5xx, is JSON FastAPI could have sent when it says
// JSON, and is a 422 only in HTTPValidationError form. Only a scenario rule
// or a Prefer header the request sent may answer otherwise (a scripted 503,
// a malformed body, a reset), as the journal records.
func FuzzRequest(f *testing.F) {
	form := "Content-Type: application/x-www-form-urlencoded"
	for _, seed := range []struct {
		method, target, headers, body string
		auth                          bool
	}{
		{"GET", "/person/1", "", "", false},
		{"GET", "/person/%20+1_0.00", "", "", false},
		{"GET", "/person/١٢", "", "", false},
		{"GET", "/reviews/b42bfd96-9925-4da9-8c96-eed6b998b81f", "", "", false},
		{"GET", "/reviews/", "", "", false},
		{"GET", "/reviews?limit=2&offset=x", "Accept: application/json", "", false},
		{"POST", "/auth/login", form, "grant_type=password&username=alice&password=wonderland", false},
		{"POST", "/auth/login", form, "grant_type=x%0A;username=&password", false},
		{"POST", "/auth/login", "Content-Type: multipart/form-data; boundary=b", "--b\r\nContent-Disposition: form-data; name=\"username\"\r\n\r\nalice\r\n--b--\r\n", false},
		{"POST", "/auth/login", "Content-Type: application/json", `{"username":"alice"}`, false},
		{"PATCH", "/person/1", "", "", false},
		{"GET", "/person/1", "Authorization: Bearer e30.e30.", "", true},
		{"GET", "/reviews", "Authorization: bearer x\nAuthorization: Basic YTpi", "", true},
		{"OPTIONS", "/reviews", "Origin: http://localhost:5173\nAccess-Control-Request-Method: GET\nAccess-Control-Request-Headers: X-A", "", false},
		{"GET", "/person/7", "X-Mock-Scenario: person-not-found", "", false},
		{"GET", "/reviews", "X-Mock-Scenario: malformed-responses", "", false},
		{"GET", "/reviews", "X-Mock-Scenario: flaky-connection\nX-Mock-Session: s1", "", false},
		{"POST", "/auth/login", form + "\nX-Mock-Scenario: login-fails-then-succeeds\nX-Mock-Session: a", "username=alice&password=wonderland", false},
		{"GET", "/person/1", "Prefer: code=404, example=x, dynamic=true", "", false},
		{"GET", "/person/99999999", "Prefer: dynamic=true", "", false},
		{"GET", "/person/1", "X-Mock-Scenario: no-such", "", false},
		{"PUT", "/__mock/scenarios/empty-catalog/activate", "", "", false},
		{"GET", "/__mock/journal?limit=-1&method=GET", "", "", false},
		{"POST", "/__mock/reset", "", "{", false},
	} {
		f.Add(seed.method, seed.target, seed.headers, seed.body, seed.auth)
	}
	servers := map[bool]*mock.Server{}
	for _, auth := range []bool{false, true} {
		srv, err := mock.New(mock.Config{RequireAuth: auth})
		if err != nil {
			f.Fatal(err)
		}
		servers[auth] = srv
	}
	f.Fuzz(func(t *testing.T, method, target, headers, body string, auth bool) {
		req, err := http.NewRequest(method, "http://127.0.0.1:8000/", strings.NewReader(body))
		if err != nil || !strings.HasPrefix(target, "/") {
			return // not a request net/http would hand to a handler
		}
		path, query, _ := strings.Cut(target, "?")
		req.URL.Path, req.URL.RawQuery, req.RequestURI = path, query, target
		for _, line := range strings.Split(headers, "\n") {
			if name, value, ok := strings.Cut(line, ":"); ok && validHeader(name, value) {
				req.Header.Add(name, strings.TrimSpace(value))
			}
		}
		// A scripted delay or hang ends with the client, here soon.
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		req = req.WithContext(ctx)
		srv := servers[auth]
		rec := httptest.NewRecorder()
		aborted := serveRecovering(srv, rec, req)

		own := true // the mock answered of its own accord
		if last := srv.Engine().Journal(scenarios.Filter{Limit: 1}); len(last) == 1 && last[0].Path == path {
			own = last[0].Rule == "" && last[0].Prefer == ""
		}
		if aborted && own {
			t.Fatalf("%s %q: the handler aborted the connection unasked", method, target)
		}
		if !own || aborted {
			return
		}
		if rec.Code >= 500 {
			t.Fatalf("%s %q: %d %s", method, target, rec.Code, rec.Body)
		}
		if ct := rec.Header().Get("Content-Type"); ct == "application/json" {
			var v any
			if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
				t.Fatalf("%s %q: invalid JSON %q", method, target, rec.Body)
			}
			if rec.Code == 422 {
				assertConforms(t, req, rec)
			}
		}
	})
}

// serveRecovering serves req, reporting a connection fault (which takes
// the connection over, and a recorder has none) as aborted.
func serveRecovering(h http.Handler, w http.ResponseWriter, r *http.Request) (aborted bool) {
	defer func() {
		if v := recover(); v != nil {
			if v != http.ErrAbortHandler {
				panic(v)
			}
			aborted = true
		}
	}()
	h.ServeHTTP(w, r)
	return false
}

// validHeader is what net/http's server would accept as a header line.
func validHeader(name, value string) bool {
	if name == "" || strings.ContainsAny(value, "\r\n\x00") {
		return false
	}
	for _, c := range []byte(name) {
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}
