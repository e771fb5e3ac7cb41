package proxy_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/mock"
	"github.com/moviemock/moviemock/proxy"
	"github.com/moviemock/moviemock/scenarios"
)

// upstreamMock is a moviemock serving the embedded contract: a backend
// that answers exactly as the FastAPI one does.
func upstreamMock(t *testing.T) *httptest.Server {
	t.Helper()
	m, err := mock.New(mock.Config{DisableAdmin: true})
	if err != nil {
		t.Fatal(err)
	}
	up := httptest.NewServer(m)
	t.Cleanup(up.Close)
	return up
}

type setup struct {
	p   *proxy.Proxy
	srv *httptest.Server
	obs *contract.Observer
}

// start runs a proxy in front of upstream, checking with the embedded
// contract.
func start(t *testing.T, upstream string, change func(*proxy.Config, *mock.Config)) *setup {
	t.Helper()
	obs, err := contract.NewObserver(contract.Config{BaseURL: upstream})
	if err != nil {
		t.Fatal(err)
	}
	cfg := proxy.Config{Upstream: upstream, Observer: obs, Timeout: 5 * time.Second}
	mc := mock.Config{}
	if change != nil {
		change(&cfg, &mc)
	}
	p, err := proxy.New(cfg, mc)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return &setup{p: p, srv: srv, obs: obs}
}

type reply struct {
	status int
	header http.Header
	body   string
}

func do(t *testing.T, method, url string, header http.Header, body string) reply {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body == "" {
		req.Body = http.NoBody
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, url, err)
	}
	return reply{resp.StatusCode, resp.Header, string(b)}
}

func journal(t *testing.T, p *proxy.Proxy) []scenarios.Entry {
	return p.Mock().Engine().Journal(scenarios.Filter{})
}

var form = http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}

// The answers through the proxy are the upstream's, byte for byte, and a
// correct upstream has no violation.
func TestRelaysCorrectUpstream(t *testing.T) {
	up := upstreamMock(t)
	s := start(t, up.URL, nil)
	cases := []struct {
		method, path string
		header       http.Header
		body         string
	}{
		{"GET", "/reviews", nil, ""},
		{"GET", "/reviews?limit=3&skip=2", nil, ""},
		{"GET", "/reviews/b42bfd96-9925-4da9-8c96-eed6b998b81f", nil, ""},
		{"GET", "/reviews/00000000-0000-4000-8000-000000000000", nil, ""},
		{"GET", "/reviews/not-a-uuid", nil, ""},
		{"GET", "/person/1", nil, ""},
		{"GET", "/person/abc", nil, ""},
		{"GET", "/reviews?limit=0", nil, ""},
		{"POST", "/auth/login", form, "username=alice&password=wonderland"},
		{"POST", "/auth/login", form, "username=alice&password=wrong"},
		{"POST", "/auth/login", form, "username=alice"},
		{"GET", "/nowhere", nil, ""},
		{"DELETE", "/reviews", nil, ""},
	}
	for _, c := range cases {
		direct := do(t, c.method, up.URL+c.path, c.header, c.body)
		via := do(t, c.method, s.srv.URL+c.path, c.header, c.body)
		if c.path == "/auth/login" && direct.status == 200 {
			// Tokens carry their issue time: compare the shape.
			if via.status != 200 || !strings.Contains(via.body, `"token_type":"bearer"`) {
				t.Errorf("%s %s: through the proxy %d %s", c.method, c.path, via.status, via.body)
			}
			continue
		}
		if via.status != direct.status || via.body != direct.body {
			t.Errorf("%s %s: direct %d %s\nthrough the proxy %d %s", c.method, c.path, direct.status, direct.body, via.status, via.body)
		}
		for _, h := range []string{"Content-Type", "Content-Length", "Www-Authenticate", "Allow"} {
			if via.header.Get(h) != direct.header.Get(h) {
				t.Errorf("%s %s: %s direct %q, through the proxy %q", c.method, c.path, h, direct.header.Get(h), via.header.Get(h))
			}
		}
	}
	// The only violations are the client's: the two requests FastAPI
	// rejects, which the upstream rightly rejected.
	var got []string
	for _, v := range s.p.Violations() {
		got = append(got, v.Check+" "+v.Method+" "+strings.TrimPrefix(v.Path, up.URL)+": "+v.Got)
	}
	want := []string{
		"request_conformance GET /person/abc: 422: path.person_id: Input should be a valid integer, unable to parse string as an integer",
		"request_conformance POST /auth/login: 422: body.password: Field required",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("violations on a correct upstream:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if checked, failed := s.obs.Counts(); checked != 11 || failed != 2 {
		t.Errorf("checked %d exchanges, %d failed; want 11 checked (the two beyond the contract not), 2 failed", checked, failed)
	}
	for _, e := range journal(t, s.p) {
		if e.AnsweredBy != "upstream" {
			t.Errorf("journal entry %s %s answered by %q, want upstream", e.Method, e.Path, e.AnsweredBy)
		}
	}
}

// What the proxy sends upstream: the path under the upstream's base path,
// the query, the body, the client's headers without hop-by-hop and
// moviemock's own, and X-Forwarded-*.
func TestForwardsTheRequest(t *testing.T) {
	var got *http.Request
	var gotBody []byte
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Clone(r.Context())
		gotBody, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Upstream", "yes")
		w.Write([]byte(`{"detail":"Review not found"}`))
	}))
	defer up.Close()
	s := start(t, up.URL+"/api/v1/", nil)
	r := do(t, "POST", s.srv.URL+"/auth/login?x=1&y=%2F", http.Header{
		"Content-Type":   {"application/x-www-form-urlencoded"},
		"Authorization":  {"Bearer abc"},
		"X-Mock-Session": {"s1"},
		"Connection":     {"X-Secret-Hop"},
		"X-Secret-Hop":   {"1"},
		"X-Custom":       {"a", "b"},
	}, "username=alice&password=wonderland")
	if got == nil {
		t.Fatal("the upstream got nothing")
	}
	if got.URL.Path != "/api/v1/auth/login" || got.URL.RawQuery != "x=1&y=%2F" {
		t.Errorf("upstream got %s?%s, want /api/v1/auth/login?x=1&y=%%2F", got.URL.Path, got.URL.RawQuery)
	}
	if string(gotBody) != "username=alice&password=wonderland" {
		t.Errorf("upstream got body %q", gotBody)
	}
	want := map[string]string{"Authorization": "Bearer abc", "Content-Type": "application/x-www-form-urlencoded",
		"X-Mock-Session": "", "X-Secret-Hop": "", "X-Forwarded-For": "127.0.0.1", "X-Forwarded-Proto": "http",
		"X-Forwarded-Host": strings.TrimPrefix(s.srv.URL, "http://")}
	for k, v := range want {
		if g := got.Header.Get(k); g != v {
			t.Errorf("upstream got %s %q, want %q", k, g, v)
		}
	}
	if vs := got.Header.Values("X-Custom"); len(vs) != 2 {
		t.Errorf("upstream got X-Custom %q, want both values", vs)
	}
	if r.header.Get("X-Upstream") != "yes" || r.body != `{"detail":"Review not found"}` {
		t.Errorf("client got %v %q", r.header, r.body)
	}
}

// An answer streams: the client has its first part while the upstream is
// still writing the rest.
func TestStreamsTheAnswer(t *testing.T) {
	release := make(chan struct{})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("data: first\n\n"))
		w.(http.Flusher).Flush()
		<-release
		w.Write([]byte("data: second\n\n"))
	}))
	defer up.Close()
	defer close(release)
	s := start(t, up.URL, nil)
	resp, err := http.Get(s.srv.URL + "/reviews")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || line != "data: first\n" {
		t.Fatalf("first line %q, %v", line, err)
	}
	// The client leaving mid-answer is nothing the upstream did wrong.
	resp.Body.Close()
	s.srv.Close() // waits for the proxy's handler to end
	if v := s.p.Violations(); len(v) != 0 {
		t.Errorf("violations after the client left: %+v", v)
	}
}

// The mock answers what the upstream lacks: a route it does not have (its
// framework's 404 Not Found), a method it does not take (405), a 501, and
// everything while it cannot be connected to. Its own 404s are relayed.
func TestMockAnswersWhatTheUpstreamLacks(t *testing.T) {
	real := upstreamMock(t)
	lacking := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/reviews":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(404)
			w.Write([]byte(`{"detail":"Not Found"}`))
		case strings.HasPrefix(r.URL.Path, "/person/"):
			w.Header().Set("Allow", "POST")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(405)
			w.Write([]byte(`{"detail":"Method Not Allowed"}`))
		case r.URL.Path == "/auth/login":
			w.WriteHeader(501)
		default:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(404)
			w.Write([]byte(`{"detail":"Review not found"}`))
		}
	}))
	defer lacking.Close()
	s := start(t, lacking.URL, nil)
	for _, path := range []string{"/reviews?limit=2", "/person/3"} {
		want := do(t, "GET", real.URL+path, nil, "")
		got := do(t, "GET", s.srv.URL+path, nil, "")
		if got.status != want.status || got.body != want.body {
			t.Errorf("GET %s: got %d %s, want the mock's %d %s", path, got.status, got.body, want.status, want.body)
		}
	}
	if got := do(t, "POST", s.srv.URL+"/auth/login", form, "username=alice&password=wonderland"); got.status != 200 || !strings.Contains(got.body, "access_token") {
		t.Errorf("login after a 501: %d %s, want the mock's token", got.status, got.body)
	}
	own := do(t, "GET", s.srv.URL+"/reviews/00000000-0000-4000-8000-000000000000", nil, "")
	if own.status != 404 || own.body != `{"detail":"Review not found"}` {
		t.Errorf("the upstream's own 404: %d %s", own.status, own.body)
	}
	// A path the contract does not have: relayed as it is.
	if got := do(t, "GET", s.srv.URL+"/elsewhere", nil, ""); got.body != `{"detail":"Review not found"}` {
		t.Errorf("a path beyond the contract: %d %s", got.status, got.body)
	}
	var by []string
	for _, e := range journal(t, s.p) {
		by = append(by, e.Method+" "+e.Path+" → "+e.AnsweredBy)
	}
	wantBy := []string{
		"GET /reviews → mock: the upstream answered 404 Not Found: it has no such route",
		"GET /person/3 → mock: the upstream answered 405 Method Not Allowed: it has the path without this method",
		"POST /auth/login → mock: the upstream answered 501 Not Implemented",
		"GET /reviews/00000000-0000-4000-8000-000000000000 → upstream",
		"GET /elsewhere → upstream",
	}
	if strings.Join(by, "\n") != strings.Join(wantBy, "\n") {
		t.Errorf("journal says\n%s\nwant\n%s", strings.Join(by, "\n"), strings.Join(wantBy, "\n"))
	}

	// Nothing listening (port 1, tcpmux's: a port freed by closing a
	// listener may be taken by another test's server meanwhile): the mock
	// answers everything.
	s2 := start(t, "http://127.0.0.1:1", nil)
	want := do(t, "GET", real.URL+"/reviews", nil, "")
	if got := do(t, "GET", s2.srv.URL+"/reviews", nil, ""); got.status != 200 || got.body != want.body {
		t.Errorf("unreachable upstream: %d %.80s", got.status, got.body)
	}
	if e := journal(t, s2.p); len(e) != 1 || !strings.HasPrefix(e[0].AnsweredBy, "mock: the upstream is unreachable") {
		t.Errorf("journal: %+v", e)
	}
}

// --mock answers an operation from the mock whatever the upstream has.
func TestForcedMock(t *testing.T) {
	var hits atomic.Int32
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(500)
	}))
	defer up.Close()
	m, _ := model.Embedded()
	var id string
	for _, o := range m.Operations {
		if o.Path == "/person/{person_id}" {
			id = o.ID
		}
	}
	s := start(t, up.URL, func(c *proxy.Config, _ *mock.Config) { c.Mock = []string{id, "get /reviews"} })
	if got := do(t, "GET", s.srv.URL+"/person/1", nil, ""); got.status != 200 {
		t.Errorf("GET /person/1: %d %s", got.status, got.body)
	}
	if got := do(t, "GET", s.srv.URL+"/reviews", nil, ""); got.status != 200 {
		t.Errorf("GET /reviews: %d", got.status)
	}
	if hits.Load() != 0 {
		t.Errorf("the upstream was asked %d times", hits.Load())
	}
	if _, err := proxy.New(proxy.Config{Upstream: up.URL, Mock: []string{"GET /nowhere"}}, mock.Config{}); err == nil || !strings.Contains(err.Error(), `"GET /nowhere"`) {
		t.Errorf("an unknown --mock operation: %v", err)
	}
}

// An upstream that is slow to answer gets a 504, one that breaks the
// connection a 502, both saying why in X-Mock-Error.
func TestUpstreamFailures(t *testing.T) {
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}))
	defer slow.Close()
	s := start(t, slow.URL, func(c *proxy.Config, _ *mock.Config) { c.Timeout = 100 * time.Millisecond })
	got := do(t, "GET", s.srv.URL+"/reviews", nil, "")
	if got.status != 504 || !strings.Contains(got.header.Get(proxy.HeaderError), "did not answer within 100ms") || !strings.Contains(got.body, `"detail"`) {
		t.Errorf("slow upstream: %d %v %s", got.status, got.header, got.body)
	}
	hangUp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, _, _ := w.(http.Hijacker).Hijack()
		conn.Close()
	}))
	defer hangUp.Close()
	s = start(t, hangUp.URL, nil)
	got = do(t, "GET", s.srv.URL+"/reviews", nil, "")
	if got.status != 502 || !strings.Contains(got.header.Get(proxy.HeaderError), "closed the connection before answering") {
		t.Errorf("upstream hanging up: %d %v %s", got.status, got.header, got.body)
	}
}

// A body the upstream breaks off is broken off for the client too, and is
// a violation.
func TestBodyBrokenOff(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, buf, _ := w.(http.Hijacker).Hijack()
		buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n[{\"id\":")
		buf.Flush()
		conn.Close()
	}))
	defer up.Close()
	s := start(t, up.URL, nil)
	resp, err := http.Get(s.srv.URL + "/reviews")
	if err == nil {
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	if err == nil {
		t.Fatal("the client got a complete answer of a body the upstream broke off")
	}
	v := s.p.Violations()
	if len(v) == 0 || v[0].Check != "not_a_server_error" || !strings.Contains(v[0].Got, "broke off") {
		t.Errorf("violations %+v", v)
	}
}

// An https upstream: refused with a clear 502 when its certificate is not
// trusted, served with --upstream-ca or --upstream-insecure.
func TestUpstreamTLS(t *testing.T) {
	m, err := mock.New(mock.Config{DisableAdmin: true})
	if err != nil {
		t.Fatal(err)
	}
	up := httptest.NewTLSServer(m)
	defer up.Close()
	s := start(t, up.URL, nil)
	got := do(t, "GET", s.srv.URL+"/person/1", nil, "")
	if got.status != 502 || !strings.Contains(got.header.Get(proxy.HeaderError), "--upstream-ca") {
		t.Errorf("untrusted certificate: %d %q", got.status, got.header.Get(proxy.HeaderError))
	}
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: up.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, change := range map[string]func(*proxy.Config, *mock.Config){
		"ca":       func(c *proxy.Config, _ *mock.Config) { c.CAFile = ca },
		"insecure": func(c *proxy.Config, _ *mock.Config) { c.Insecure = true },
	} {
		s := start(t, up.URL, change)
		if got := do(t, "GET", s.srv.URL+"/person/1", nil, ""); got.status != 200 {
			t.Errorf("%s: %d %s", name, got.status, got.body)
		}
	}
	if _, err := proxy.New(proxy.Config{Upstream: up.URL, CAFile: filepath.Join(t.TempDir(), "none.pem")}, mock.Config{}); err == nil || !strings.Contains(err.Error(), "none.pem") {
		t.Errorf("a missing CA file: %v", err)
	}
}

// breaking wraps a correct upstream, rewriting the answers of one path.
func breaking(t *testing.T, path string, rewrite func(status int, body string) (int, string)) string {
	t.Helper()
	m, err := mock.New(mock.Config{DisableAdmin: true})
	if err != nil {
		t.Fatal(err)
	}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		m.ServeHTTP(rec, r)
		status, body := rec.Code, rec.Body.String()
		if strings.HasPrefix(r.URL.Path, path) {
			status, body = rewrite(status, body)
		}
		for k, vs := range rec.Header() {
			w.Header()[k] = vs
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(up.Close)
	return up.URL
}

// A violation is in the journal entry of its exchange by the time the
// client has the answer, in GET /__mock/violations and in the report.
func TestViolationsReported(t *testing.T) {
	up := breaking(t, "/person/", func(status int, body string) (int, string) {
		return status, strings.Replace(body, `"name":`, `"nom":`, 1)
	})
	s := start(t, up, nil)
	if got := do(t, "GET", s.srv.URL+"/person/1", nil, ""); got.status != 200 || !strings.Contains(got.body, `"nom"`) {
		t.Fatalf("the broken answer was not relayed as it was: %d %s", got.status, got.body)
	}
	entries := journal(t, s.p)
	if len(entries) != 1 || len(entries[0].Violations) == 0 || !strings.HasPrefix(entries[0].Violations[0], "response_schema_conformance:") {
		t.Fatalf("journal entry: %+v", entries)
	}
	resp, err := http.Get(s.srv.URL + "/__mock/violations")
	if err != nil {
		t.Fatal(err)
	}
	var listed struct {
		Checked, Failed int
		Violations      []proxy.Violation
	}
	err = json.NewDecoder(resp.Body).Decode(&listed)
	resp.Body.Close()
	if err != nil || listed.Checked != 1 || listed.Failed != 1 || len(listed.Violations) != 1 {
		t.Fatalf("GET /__mock/violations: %+v %v", listed, err)
	}
	v := listed.Violations[0]
	if v.Check != "response_schema_conformance" || !strings.Contains(v.Got, "name") || v.Status != 200 || !strings.Contains(v.Curl, up+"/person/1") {
		t.Errorf("violation %+v", v)
	}
	var text bytes.Buffer
	if err := s.p.Report().WriteText(&text); err != nil || !strings.Contains(text.String(), "response_schema_conformance") {
		t.Errorf("text report (%v):\n%s", err, text.String())
	}
	req, _ := http.NewRequest("DELETE", s.srv.URL+"/__mock/violations", nil)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 204 {
		t.Fatalf("DELETE /__mock/violations: %v %v", resp, err)
	}
	if v := s.p.Violations(); len(v) != 0 {
		t.Errorf("after DELETE: %+v", v)
	}
}

// Scenarios and Prefer answer in front of the upstream: a scripted answer
// never reaches it, a delayed one does.
func TestScenariosInFrontOfTheUpstream(t *testing.T) {
	var hits atomic.Int32
	m, err := mock.New(mock.Config{DisableAdmin: true})
	if err != nil {
		t.Fatal(err)
	}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		m.ServeHTTP(w, r)
	}))
	defer up.Close()
	s := start(t, up.URL, nil)
	got := do(t, "GET", s.srv.URL+"/person/1", http.Header{"X-Mock-Scenario": {"person-not-found"}}, "")
	if got.status != 404 || got.body != `{"detail":"Person not found"}` || hits.Load() != 0 {
		t.Errorf("scenario: %d %s, upstream asked %d times", got.status, got.body, hits.Load())
	}
	got = do(t, "GET", s.srv.URL+"/reviews/b42bfd96-9925-4da9-8c96-eed6b998b81f", http.Header{"Prefer": {"code=404"}}, "")
	if got.status != 404 || hits.Load() != 0 {
		t.Errorf("Prefer: %d %s, upstream asked %d times", got.status, got.body, hits.Load())
	}
	begun := time.Now()
	got = do(t, "GET", s.srv.URL+"/person/1", http.Header{"X-Mock-Scenario": {"slow-network"}}, "")
	if got.status != 200 || hits.Load() != 1 || time.Since(begun) < 300*time.Millisecond {
		t.Errorf("slow-network: %d after %v, upstream asked %d times", got.status, time.Since(begun), hits.Load())
	}
	var by []string
	for _, e := range journal(t, s.p) {
		by = append(by, e.AnsweredBy)
	}
	if strings.Join(by, ",") != "scenario,scenario,upstream" {
		t.Errorf("answered by %q", by)
	}
}

// CORS: moviemock answers it (preflights included), and the upstream's own
// CORS headers do not double its own.
func TestCORSInFront(t *testing.T) {
	var preflights atomic.Int32
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "OPTIONS" {
			preflights.Add(1)
		}
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Vary", "Accept-Encoding")
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":1}`))
	}))
	defer up.Close()
	s := start(t, up.URL, nil)
	got := do(t, "GET", s.srv.URL+"/person/1", http.Header{"Origin": {"http://localhost:5173"}}, "")
	if vs := got.header.Values("Access-Control-Allow-Origin"); len(vs) != 1 || vs[0] != "http://localhost:5173" {
		t.Errorf("Access-Control-Allow-Origin %q", vs)
	}
	if v := got.header.Get("Vary"); v != "Origin, Accept-Encoding" {
		t.Errorf("Vary %q", v)
	}
	got = do(t, "OPTIONS", s.srv.URL+"/person/1", http.Header{"Origin": {"http://localhost:5173"}, "Access-Control-Request-Method": {"GET"}}, "")
	if got.status != 200 || preflights.Load() != 0 {
		t.Errorf("preflight: %d, upstream asked %d times", got.status, preflights.Load())
	}
}

// Concurrent exchanges through the proxy (under -race).
func TestConcurrentExchanges(t *testing.T) {
	up := upstreamMock(t)
	rec := fixtures.NewRecorder(mustModel(t))
	s := start(t, up.URL, func(c *proxy.Config, _ *mock.Config) { c.Recorder = rec })
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 10 {
				path := []string{"/reviews?limit=5", "/person/1", "/reviews/b42bfd96-9925-4da9-8c96-eed6b998b81f"}[(i+j)%3]
				if got := do(t, "GET", s.srv.URL+path, nil, ""); got.status != 200 {
					t.Errorf("GET %s: %d", path, got.status)
				}
			}
		}()
	}
	wg.Wait()
	if checked, failed := s.obs.Counts(); checked != 80 || failed != 0 {
		t.Errorf("checked %d, failed %d", checked, failed)
	}
	if rec.Len() == 0 {
		t.Error("nothing recorded")
	}
}

func mustModel(t *testing.T) *model.Model {
	t.Helper()
	m, err := model.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Records seen through the proxy are written as a fixture folder that
// serves the same bytes.
func TestRecordReplays(t *testing.T) {
	up := upstreamMock(t)
	rec := fixtures.NewRecorder(mustModel(t))
	s := start(t, up.URL, func(c *proxy.Config, _ *mock.Config) { c.Recorder = rec })
	paths := []string{"/reviews?limit=4", "/reviews/b42bfd96-9925-4da9-8c96-eed6b998b81f", "/person/1", "/person/2"}
	seen := map[string]string{}
	for _, p := range paths {
		seen[p] = do(t, "GET", s.srv.URL+p, nil, "").body
	}
	dir := t.TempDir()
	written, problems, err := rec.WriteDir(dir)
	if err != nil || problems != nil || written == 0 {
		t.Fatalf("WriteDir: %d written, problems %v, err %v", written, problems, err)
	}
	data, err := fixtures.LoadDir(dir, mustModel(t))
	if err != nil {
		t.Fatal(err)
	}
	replay, err := mock.New(mock.Config{Data: data, DisableAdmin: true})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(replay)
	defer srv.Close()
	for _, p := range paths {
		if got := do(t, "GET", srv.URL+p, nil, ""); got.body != seen[p] {
			t.Errorf("GET %s replayed\n%s\nwant\n%s", p, got.body, seen[p])
		}
	}
}

// A compressed answer is relayed compressed, and checked and recorded
// decoded.
func TestCompressedAnswers(t *testing.T) {
	m, err := mock.New(mock.Config{DisableAdmin: true})
	if err != nil {
		t.Fatal(err)
	}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		m.ServeHTTP(rec, r)
		for k, vs := range rec.Header() {
			w.Header()[k] = vs
		}
		w.Header().Del("Content-Length")
		w.Header().Set("Content-Encoding", "gzip")
		w.WriteHeader(rec.Code)
		zw := gzip.NewWriter(w)
		zw.Write(rec.Body.Bytes())
		zw.Close()
	}))
	defer up.Close()
	rec := fixtures.NewRecorder(mustModel(t))
	s := start(t, up.URL, func(c *proxy.Config, _ *mock.Config) { c.Recorder = rec })
	got := do(t, "GET", s.srv.URL+"/person/1", nil, "") // Go's client asks for gzip and decodes it
	if got.status != 200 || !strings.HasPrefix(got.body, `{"id":1,`) {
		t.Fatalf("GET /person/1: %d %q", got.status, got.body)
	}
	if checked, failed := s.obs.Counts(); checked != 1 || failed != 0 {
		t.Errorf("checked %d, failed %d: %+v", checked, failed, s.p.Violations())
	}
	if rec.Len() != 1 {
		t.Errorf("recorded %d records of a compressed answer, want 1", rec.Len())
	}
}

// GET /__mock/violations and the report count alike: a violation is one
// failed check (an exchange may fail several), failed counts the exchanges
// with one; an exchange the mock answered did not reach the upstream. A
// violation's path is the path the client asked for, its url the request
// as forwarded (under the upstream's base path).
func TestViolationCountsAgree(t *testing.T) {
	m, err := mock.New(mock.Config{DisableAdmin: true})
	if err != nil {
		t.Fatal(err)
	}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path, ok := strings.CutPrefix(r.URL.Path, "/api")
		if !ok || strings.HasPrefix(path, "/reviews") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(404)
			io.WriteString(w, `{"detail":"Not Found"}`)
			return
		}
		r.URL.Path = path
		rec := httptest.NewRecorder()
		m.ServeHTTP(rec, r)
		status, body := rec.Code, rec.Body.String()
		if strings.HasPrefix(path, "/person/") {
			status, body = 201, strings.Replace(body, `"name":`, `"nom":`, 1)
		}
		for k, vs := range rec.Header() {
			w.Header()[k] = vs
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(up.Close)
	lacks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(404)
		io.WriteString(w, `{"detail":"Not Found"}`)
	}))
	t.Cleanup(lacks.Close)

	tests := []struct {
		name     string
		upstream string
		paths    []string
		// want: exchanges, reached, mocked, checked, failed exchanges
		want      [5]int
		summary   string
		wantPaths []string
	}{
		{
			name: "an exchange failing several checks", upstream: up.URL + "/api",
			paths:     []string{"/person/1", "/person/2", "/person/abc", "/reviews", "/nowhere"},
			want:      [5]int{5, 4, 1, 3, 3},
			summary:   "FAILED 4 of 5 exchanges reached the upstream, 3 checked, 3 failed with 6 violations",
			wantPaths: []string{"/person/1", "/person/2", "/person/abc", "/person/abc", "/person/abc", "/person/abc"},
		},
		{
			name: "an upstream lacking everything", upstream: lacks.URL,
			paths:   []string{"/person/1", "/reviews/1", "/reviews"},
			want:    [5]int{3, 0, 3, 0, 0},
			summary: "NOT CHECKED 0 of 3 exchanges reached the upstream, 0 checked, 0 failed",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := start(t, tt.upstream, nil)
			for _, p := range tt.paths {
				do(t, "GET", s.srv.URL+p, nil, "")
			}
			resp, err := http.Get(s.srv.URL + "/__mock/violations")
			if err != nil {
				t.Fatal(err)
			}
			var listed struct {
				Exchanges, Reached, Mocked, Checked, Failed int
				ViolationCount                              int `json:"violation_count"`
				Violations                                  []proxy.Violation
			}
			err = json.NewDecoder(resp.Body).Decode(&listed)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			got := [5]int{listed.Exchanges, listed.Reached, listed.Mocked, listed.Checked, listed.Failed}
			if got != tt.want || listed.ViolationCount != len(listed.Violations) {
				t.Errorf("GET /__mock/violations counts %v, %d violations of %d listed; want %v", got, listed.ViolationCount, len(listed.Violations), tt.want)
			}
			var paths []string
			for _, v := range listed.Violations {
				paths = append(paths, v.Path)
				if v.URL != tt.upstream+v.Path {
					t.Errorf("violation url %q, want %q", v.URL, tt.upstream+v.Path)
				}
			}
			if strings.Join(paths, " ") != strings.Join(tt.wantPaths, " ") {
				t.Errorf("violation paths %q, want %q", paths, tt.wantPaths)
			}
			rep := s.p.Report()
			if rep.Failures() != listed.ViolationCount || rep.FailedCases() != listed.Failed {
				t.Errorf("the report counts %d violations in %d exchanges, the control API %d in %d", rep.Failures(), rep.FailedCases(), listed.ViolationCount, listed.Failed)
			}
			if line := rep.SummaryLine(); !strings.Contains(line, tt.summary) {
				t.Errorf("summary line %q lacks %q", line, tt.summary)
			}
		})
	}
}

// An upstream's headers past the cap are not passed on: the client gets a
// 502 saying why, and the proxy holds no more than the cap of them.
func TestUpstreamHeadersCapped(t *testing.T) {
	huge := strings.Repeat("x", 8<<10)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for i := range 16 {
			w.Header().Set("X-Big-"+string(rune('a'+i)), huge)
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, "[]")
	}))
	defer up.Close()
	cases := []struct {
		name   string
		max    int64
		status int
	}{
		{"default 64 KiB", 0, http.StatusBadGateway},
		{"raised", 1 << 20, http.StatusOK},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := start(t, up.URL, func(c *proxy.Config, _ *mock.Config) { c.MaxHeaderBytes = tc.max })
			got := do(t, "GET", s.srv.URL+"/reviews", nil, "")
			if got.status != tc.status {
				t.Fatalf("status %d, want %d: %s", got.status, tc.status, got.body)
			}
			if tc.status == http.StatusBadGateway && !strings.Contains(got.header.Get(proxy.HeaderError), "headers larger than 65536 bytes") {
				t.Errorf("%s: %q", proxy.HeaderError, got.header.Get(proxy.HeaderError))
			}
		})
	}
}

// A gzip bomb at test scale: an answer that decodes past the proxy's check
// budget is relayed as it came, not decoded past the budget, and the report
// says it was not checked and why.
func TestDecodedBudget(t *testing.T) {
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
	s := start(t, up.URL, func(c *proxy.Config, _ *mock.Config) { c.MaxCheckBytes = 64 << 10 })
	got := do(t, "GET", s.srv.URL+"/reviews", nil, "")
	if got.status != 200 || len(got.body) != 400_003 {
		t.Fatalf("GET /reviews: %d, %d bytes", got.status, len(got.body))
	}
	notes := strings.Join(s.p.Report().Notes, "\n")
	if want := "decodes (Content-Encoding gzip) to more than the 65536 bytes"; !strings.Contains(notes, want) {
		t.Errorf("notes %q lack %q", notes, want)
	}
}

// A recording past its budget stops, and the report says so.
func TestRecordBudgetReported(t *testing.T) {
	up := upstreamMock(t)
	rec := fixtures.NewRecorder(mustModel(t))
	rec.SetLimits(1, 0)
	s := start(t, up.URL, func(c *proxy.Config, _ *mock.Config) { c.Recorder = rec })
	for _, p := range []string{"/person/1", "/person/2", "/person/3"} {
		do(t, "GET", s.srv.URL+p, nil, "")
	}
	notes := strings.Join(s.p.Report().Notes, "\n")
	if want := "(2 answers with records not recorded)"; rec.Len() != 1 || !strings.Contains(notes, "--record-max-records") || !strings.Contains(notes, want) {
		t.Errorf("%d records kept; notes %q", rec.Len(), notes)
	}
}
