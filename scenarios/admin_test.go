package scenarios_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
	"github.com/moviemock/moviemock/scenarios"
)

// adminCall sends a control API request and checks the answer against the
// control API's own OpenAPI document: declared status, conforming body.
func adminCall(t *testing.T, ts *httptest.Server, method, path, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	sp, err := scenarios.AdminSpec()
	if err != nil {
		t.Fatal(err)
	}
	tmpl := path
	if i := strings.IndexByte(tmpl, '?'); i >= 0 {
		tmpl = tmpl[:i]
	}
	op := adminOperation(sp, method, tmpl)
	if op == nil {
		t.Fatalf("%s %s is not in the control API's document", method, path)
	}
	ref := op.Responses.Status(resp.StatusCode)
	if ref == nil {
		t.Fatalf("%s %s: status %d is not declared: %s", method, path, resp.StatusCode, b)
	}
	if media := ref.Value.Content.Get("application/json"); media != nil {
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s %s: not JSON: %s", method, path, b)
		}
		if viols := spec.Violations(sp.Validate(media.Schema.Value, v, true)); len(viols) > 0 {
			t.Errorf("%s %s: %d answer breaks the control API's schema: %v\n%s", method, path, resp.StatusCode, viols, b)
		}
	}
	return resp.StatusCode, string(b)
}

// adminOperation finds the document's operation for a concrete path.
func adminOperation(sp *spec.Spec, method, path string) *openapi3.Operation {
	for tmpl, item := range sp.Doc.Paths.Map() {
		ts, ps := strings.Split(tmpl, "/"), strings.Split(path, "/")
		if len(ts) != len(ps) {
			continue
		}
		match := true
		for i := range ts {
			if ts[i] != ps[i] && !strings.HasPrefix(ts[i], "{") {
				match = false
			}
		}
		if match {
			return item.GetOperation(method)
		}
	}
	return nil
}

func TestControlAPI(t *testing.T) {
	ts, _ := newServer(t, mock.Config{})
	c := newClient(t, ts, "", "")

	if code, body := adminCall(t, ts, "GET", "/__mock/health", ""); code != 200 || !strings.Contains(body, `"active":null`) {
		t.Errorf("health: %d %s", code, body)
	}
	var list []struct{ Name string }
	_, body := adminCall(t, ts, "GET", "/__mock/scenarios", "")
	json.Unmarshal([]byte(body), &list)
	if len(list) < 12 || list[0].Name != "empty-catalog" {
		t.Errorf("scenarios: %s", body)
	}
	if code, body := adminCall(t, ts, "GET", "/__mock/scenarios/token-expires", ""); code != 200 || !strings.Contains(body, `"states":["fresh","expired"]`) || !strings.Contains(body, `"label":"rule 3 (token expires)"`) {
		t.Errorf("one scenario: %d %s", code, body)
	}
	if code, _ := adminCall(t, ts, "GET", "/__mock/scenarios/nope", ""); code != 404 {
		t.Errorf("unknown scenario: %d", code)
	}

	// Activate globally: every request without a choice of its own.
	if code, body := adminCall(t, ts, "PUT", "/__mock/active", `{"scenario":"empty-catalog"}`); code != 200 || body != `{"scenario":"empty-catalog","state":"start"}` {
		t.Errorf("activate: %d %s", code, body)
	}
	c.want("global scenario", c.get("/reviews"), 200, "[]")
	for _, bad := range []struct{ body, want string }{
		{`{"scenario":"nope"}`, "404"},
		{`{"scenario":3}`, "400"},
		{`{"name":"empty-catalog"}`, "400"},
		{`not json`, "400"},
	} {
		if code, body := adminCall(t, ts, "PUT", "/__mock/active", bad.body); code != map[string]int{"404": 404, "400": 400}[bad.want] {
			t.Errorf("PUT %s: %d %s", bad.body, code, body)
		}
	}
	adminCall(t, ts, "PUT", "/__mock/active", `{"scenario":"login-fails-then-succeeds"}`)
	c.want("first login", c.login("alice", "wonderland"), 401, wrongLogin)
	if _, body := adminCall(t, ts, "GET", "/__mock/active", ""); body != `{"scenario":"login-fails-then-succeeds","state":"start"}` {
		t.Errorf("active: %s", body)
	}
	adminCall(t, ts, "POST", "/__mock/active/reset", "")
	for range 3 {
		c.want("after reset, refused again", c.login("alice", "wonderland"), 401, wrongLogin)
	}
	c.want("fourth", c.login("alice", "wonderland"), 200, "")
	if _, body := adminCall(t, ts, "DELETE", "/__mock/active", ""); body != `{"scenario":null,"state":null}` {
		t.Errorf("deactivate: %s", body)
	}
	c.want("normal again", c.get("/reviews/"+knownReview), 200, "")

	// Per session: the session's choice beats the global one; a request's
	// own header beats both.
	if code, body := adminCall(t, ts, "PUT", "/__mock/sessions/tab-1", `{"scenario":"person-not-found"}`); code != 200 || !strings.Contains(body, `"scenario":"person-not-found"`) {
		t.Errorf("session activate: %d %s", code, body)
	}
	s1 := newClient(t, ts, "", "tab-1")
	s1.want("session scenario", s1.get("/person/1"), 404, personNotFound)
	s1.scenario = "sparse-person"
	s1.want("request header wins", s1.get("/person/1"), 200, "")
	c.want("other clients untouched", c.get("/person/1"), 200, "")
	if code, body := adminCall(t, ts, "GET", "/__mock/sessions/tab-1", ""); code != 200 || !strings.Contains(body, `"requests":2`) {
		t.Errorf("session: %d %s", code, body)
	}
	adminCall(t, ts, "POST", "/__mock/sessions/tab-1/reset", "")
	if code, _ := adminCall(t, ts, "DELETE", "/__mock/sessions/tab-1", ""); code != 204 {
		t.Errorf("end session: %d", code)
	}
	if code, _ := adminCall(t, ts, "GET", "/__mock/sessions/tab-1", ""); code != 404 {
		t.Errorf("ended session: %d", code)
	}

	// The journal: filters, secrets blanked, clearing.
	c.header.Set("Authorization", "Bearer secret-token")
	c.login("alice", "wonderland")
	var entries []scenarios.Entry
	_, body = adminCall(t, ts, "GET", "/__mock/journal?method=POST&path=/auth/login&limit=1", "")
	json.Unmarshal([]byte(body), &entries)
	if len(entries) != 1 {
		t.Fatalf("journal: %s", body)
	}
	e := entries[0]
	if e.Form["username"] != "alice" || e.Form["password"] != "[redacted]" || e.Headers["Authorization"][0] != "Bearer [redacted]" || strings.Contains(body, "wonderland") || strings.Contains(body, "secret-token") {
		t.Errorf("journal entry: %s", body)
	}
	_, body = adminCall(t, ts, "GET", "/__mock/journal?session=tab-1", "")
	json.Unmarshal([]byte(body), &entries)
	if len(entries) != 2 || entries[0].Rule != "rule 1 (unknown person)" || entries[1].Scenario != "sparse-person" {
		t.Errorf("session journal: %s", body)
	}
	_, body = adminCall(t, ts, "GET", "/__mock/journal?path=/person/{person_id}", "")
	json.Unmarshal([]byte(body), &entries)
	if len(entries) != 3 {
		t.Errorf("by template: %d entries", len(entries))
	}
	// A secret-named header or query parameter is blanked whatever its value.
	c.header.Set("X-Api-Key", "hk-77a")
	c.get("/person/1?api_key=k9Q2z&page=1")
	c.header.Del("X-Api-Key")
	_, body = adminCall(t, ts, "GET", "/__mock/journal?method=GET&path=/person/1&limit=1", "")
	json.Unmarshal([]byte(body), &entries)
	if len(entries) != 1 || entries[0].Query != "api_key=[redacted]&page=1" || entries[0].Headers["X-Api-Key"][0] != "[redacted]" || strings.Contains(body, "k9Q2z") || strings.Contains(body, "hk-77a") {
		t.Errorf("journal entry of a request with an API key: %s", body)
	}
	if code, _ := adminCall(t, ts, "GET", "/__mock/journal?limit=x", ""); code != 400 {
		t.Errorf("bad limit: %d", code)
	}
	if code, body := adminCall(t, ts, "DELETE", "/__mock/journal?session=tab-1", ""); code != 200 || body != `{"cleared":2}` {
		t.Errorf("clear a session: %d %s", code, body)
	}
	adminCall(t, ts, "POST", "/__mock/reset", "")
	if _, body := adminCall(t, ts, "GET", "/__mock/journal", ""); body != "[]" {
		t.Errorf("journal after reset: %s", body)
	}
	if code, body := adminCall(t, ts, "GET", "/__mock/openapi.json", ""); code != 200 || !strings.HasPrefix(body, `{"openapi":"3.1.0"`) {
		t.Errorf("document: %d %.40s", code, body)
	}
}

// The control API answers loopback callers; others need the token.
func TestControlAPIGuard(t *testing.T) {
	for _, tc := range []struct {
		name, token, remote, auth string
		want                      int
	}{
		{"loopback", "", "127.0.0.1:5000", "", 200},
		{"loopback v6", "", "[::1]:5000", "", 200},
		{"remote without a token configured", "", "10.1.2.3:5000", "Bearer x", 403},
		{"remote without the token", "t0k", "10.1.2.3:5000", "", 401},
		{"remote with a wrong token", "t0k", "10.1.2.3:5000", "Bearer nope", 401},
		{"remote with the token", "t0k", "10.1.2.3:5000", "Bearer t0k", 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, err := mock.New(mock.Config{AdminToken: tc.token})
			if err != nil {
				t.Fatal(err)
			}
			r := httptest.NewRequest("GET", "/__mock/health", nil)
			r.RemoteAddr, r.Host = tc.remote, "localhost:8000" // not httptest's example.com: a foreign Host
			if tc.auth != "" {
				r.Header.Set("Authorization", tc.auth)
			}
			w := httptest.NewRecorder()
			srv.ServeHTTP(w, r)
			if w.Code != tc.want {
				t.Errorf("%d %s", w.Code, w.Body)
			}
		})
	}
	srv, _ := mock.New(mock.Config{DisableAdmin: true})
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, httptest.NewRequest("GET", "/__mock/health", nil))
	if w.Code != 404 || w.Body.String() != `{"detail":"Not Found"}` {
		t.Errorf("--no-admin: %d %s", w.Code, w.Body)
	}
}

// Prism's Prefer header picks the answer per request.
func TestPrefer(t *testing.T) {
	ts, _ := newServer(t, mock.Config{})
	c := newClient(t, ts, "", "")
	for _, tc := range []struct {
		prefer, path string
		status       int
		body         string
	}{
		{"code=404", "/person/1", 404, personNotFound},
		{"code=404", "/reviews/x", 404, reviewNotFound},
		{"code=404", "/reviews", 404, `{"detail":"Not Found"}`},
		{"code=401", "/reviews", 401, `{"detail":"Not authenticated"}`},
		{"code=500", "/reviews", 500, internalError},
		{"code=422", "/person/1", 422, `{"detail":[{"type":"int_parsing","loc":["path","person_id"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"abc"}]}`},
		{"code=422", "/reviews/x", 422, `{"detail":[{"type":"missing","loc":["path","review_id"],"msg":"Field required","input":null}]}`},
		{"example=sparse", "/person/1", 200, `{"id":1,"name":"Unknown Extra","biography":null,"poster":null,"birthday":null,"deathday":null,"place_of_birth":null,"known_for_department":null,"known_for":[]}`},
		{"code=200, example=empty", "/reviews", 200, "[]"},
		{"example=nope", "/person/1", 400, `{"detail":"moviemock: GET /person/{person_id} has no example \"nope\" (it has: full, sparse, int_parsing)"}`},
		{"code=abc", "/person/1", 400, `{"detail":"moviemock: Prefer: code=\"abc\" is not an HTTP status"}`},
		{"return=minimal", "/person/1", 200, ""},
	} {
		c.header.Set("Prefer", tc.prefer)
		a := c.get(tc.path)
		c.want(tc.prefer+" "+tc.path, a, tc.status, tc.body)
	}
	c.header.Set("Prefer", "dynamic=true")
	a := c.get("/person/123456")
	c.want("dynamic person", a, 200, "")
	conforms(t, "getPerson", a.body)
	if !strings.HasPrefix(a.body, `{"id":123456,`) || a.header.Get("Preference-Applied") != "dynamic=true" {
		t.Errorf("dynamic person: %s %v", a.body, a.header)
	}
	if b := c.get("/person/123456").body; b == a.body {
		t.Error("dynamic data is not fresh")
	}
	a = c.get("/reviews")
	conforms(t, "listReviews", a.body)
	c.want("dynamic with an invalid id falls back to FastAPI's 422", c.get("/person/abc"), 422, "")
}
