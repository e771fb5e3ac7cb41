package scenarios_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
	"github.com/moviemock/moviemock/scenarios"
)

// newServer runs the mock over real HTTP on 127.0.0.1:0.
func newServer(t *testing.T, cfg mock.Config) (*httptest.Server, *mock.Server) {
	t.Helper()
	srv, err := mock.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return ts, srv
}

// withFiles loads the shipped scenarios plus files (name → YAML text).
func withFiles(t *testing.T, files map[string]string) *scenarios.Set {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, text := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(text)}
	}
	set, err := scenarios.Load(embedded(t), defaultData(t), scenarios.Shipped(), scenarios.Source{FS: fsys, Name: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func embedded(t testing.TB) *spec.Spec {
	t.Helper()
	sp, err := spec.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

func defaultData(t testing.TB) *fixtures.Dataset {
	t.Helper()
	d, err := fixtures.Default()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// client sends requests as one test's client: its session and scenario.
type client struct {
	t        *testing.T
	base     string
	session  string
	scenario string
	header   http.Header
	http     *http.Client
	srv      *httptest.Server
}

func newClient(t *testing.T, ts *httptest.Server, scenario, session string) *client {
	return &client{t: t, base: ts.URL, srv: ts, scenario: scenario, session: session, header: http.Header{},
		// A fresh connection each request: a fault on one must not be
		// retried or hidden by the pool.
		http: &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}}
}

type answer struct {
	status int
	header http.Header
	body   string
	err    error // sending or reading failed
}

func (c *client) send(method, path string, form url.Values) answer {
	c.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, c.base+path, body)
	if err != nil {
		c.t.Fatal(err)
	}
	for k, vs := range c.header {
		req.Header[k] = vs
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if c.scenario != "" {
		req.Header.Set(scenarios.HeaderScenario, c.scenario)
	}
	if c.session != "" {
		req.Header.Set(scenarios.HeaderSession, c.session)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return answer{err: err}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return answer{status: resp.StatusCode, header: resp.Header, body: string(b), err: err}
}

func (c *client) get(path string) answer { c.t.Helper(); return c.send("GET", path, nil) }

func (c *client) login(username, password string) answer {
	c.t.Helper()
	return c.send("POST", "/auth/login", url.Values{"username": {username}, "password": {password}})
}

// want fails the test unless a is status with body (body "" checks none).
func (c *client) want(what string, a answer, status int, body string) {
	c.t.Helper()
	if a.err != nil {
		c.t.Fatalf("%s: %v", what, a.err)
	}
	if a.status != status || body != "" && a.body != body {
		c.t.Fatalf("%s: got %d %.300s, want %d %.300s", what, a.status, a.body, status, body)
	}
}
