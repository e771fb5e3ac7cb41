package scenarios_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/internal/reference"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
	"github.com/moviemock/moviemock/scenarios"
)

// The control panel is served to a browser, with its files, and refers to
// nothing on another host; every other client gets JSON.
func TestPanel(t *testing.T) {
	t.Parallel()
	ts, _ := newServer(t, mock.Config{})
	get := func(path, accept string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	const browser = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"
	// Any absolute URL: the files may name none, not even their own host.
	external := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}|https?://`)
	for _, tc := range []struct {
		name, path, accept, ct, has string
	}{
		{"page for a browser", "/__mock/", browser, "text/html; charset=utf-8", `id="scenario-select"`},
		{"page by name", "/__mock/index.html", "", "text/html; charset=utf-8", `<script src="/__mock/panel/panel.js"`},
		{"script", "/__mock/panel/panel.js", "", "text/javascript; charset=utf-8", "journal/stream"},
		{"style", "/__mock/panel/panel.css", "", "text/css; charset=utf-8", "#journal-live"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := get(tc.path, tc.accept)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != tc.ct || !strings.Contains(body, tc.has) {
				t.Fatalf("%d %s: %.200s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
			}
			if m := external.FindString(body); m != "" {
				t.Errorf("refers to another host: %q", m)
			}
			if !strings.Contains(resp.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
				t.Errorf("no frame-ancestors: %v", resp.Header)
			}
		})
	}
	for _, accept := range []string{"", "*/*", "application/json", "text/html;q=0.5, application/json"} {
		resp, body := get("/__mock/", accept)
		var index struct {
			Endpoints []struct{ Method, Path string }
		}
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" || json.Unmarshal([]byte(body), &index) != nil ||
			!strings.Contains(body, `"path":"/__mock/journal/stream"`) {
			t.Errorf("Accept %q: %d %s %.200s", accept, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
	}
	if code, _ := adminCall(t, ts, "GET", "/__mock/", ""); code != 200 {
		t.Errorf("index: %d", code)
	}
	if resp, _ := get("/__mock/panel/nope.js", ""); resp.StatusCode != 404 {
		t.Errorf("unknown file: %d", resp.StatusCode)
	}
}

// The overview names the contract's operations, the data's collections
// and the active scenario; the data endpoint serves records as a list
// does, a session's writes in that session's view only.
func TestOverviewAndData(t *testing.T) {
	t.Parallel()
	ts, _ := newServer(t, mock.Config{})
	adminCall(t, ts, "PUT", "/__mock/active", `{"scenario":"slow-network"}`)
	_, body := adminCall(t, ts, "GET", "/__mock/overview", "")
	var ov struct {
		Operations  []struct{ Method, Path, Convention string }
		Collections []struct {
			File    string
			Records int
		}
		Active struct{ Scenario string }
	}
	if err := json.Unmarshal([]byte(body), &ov); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, o := range ov.Operations {
		found = found || o.Method == "GET" && o.Path == "/reviews" && o.Convention == "list"
	}
	reviews := -1
	for _, c := range ov.Collections {
		if c.File == "reviews" {
			reviews = c.Records
		}
	}
	if !found || reviews <= 0 || ov.Active.Scenario != "slow-network" {
		t.Fatalf("overview: %s", body)
	}
	adminCall(t, ts, "DELETE", "/__mock/active", "")

	page := func(query string) scenarios.Records {
		t.Helper()
		code, body := adminCall(t, ts, "GET", "/__mock/data/"+query, "")
		if code != 200 {
			t.Fatalf("%s: %d %s", query, code, body)
		}
		var p scenarios.Records
		json.Unmarshal([]byte(body), &p)
		return p
	}
	all := page("reviews?limit=1000")
	if all.Total != reviews || len(all.Items) != min(reviews, 1000) {
		t.Fatalf("reviews: total %d, %d items, want %d", all.Total, len(all.Items), reviews)
	}
	// The same records, in the same order, as GET /reviews serves them.
	c := newClient(t, ts, "", "")
	var served []json.RawMessage
	json.Unmarshal([]byte(c.get("/reviews").body), &served)
	if len(served) != len(all.Items) || string(served[0]) != string(all.Items[0]) {
		t.Errorf("data differ from the list: %d vs %d records", len(served), len(all.Items))
	}
	if p := page("reviews?offset=1&limit=2"); p.Total != reviews || len(p.Items) != 2 || string(p.Items[0]) != string(all.Items[1]) {
		t.Errorf("paged: %+v", p)
	}
	if _, body := adminCall(t, ts, "GET", "/__mock/data/users", ""); strings.Contains(body, "password") {
		t.Errorf("users serve their password: %.300s", body)
	}

	if p := page("reviews?session=unseen"); p.Total != reviews {
		t.Errorf("a new session's view: total %d, want %d", p.Total, reviews)
	}
	if code, _ := adminCall(t, ts, "GET", "/__mock/sessions/unseen", ""); code != 404 {
		t.Errorf("looking started the session: %d", code)
	}

	for _, bad := range []struct {
		query string
		code  int
	}{
		{"nope", 404},
		{"reviews?limit=x", 400},
		{"reviews?limit=1001", 400},
		{"reviews?offset=-1", 400},
	} {
		if code, body := adminCall(t, ts, "GET", "/__mock/data/"+bad.query, ""); code != bad.code {
			t.Errorf("%s: %d %s", bad.query, code, body)
		}
	}
}

// The journal stream delivers each request made after subscribing, and
// ends when the client goes.
func TestJournalStream(t *testing.T) {
	t.Parallel()
	ts, _ := newServer(t, mock.Config{})
	c := newClient(t, ts, "", "tab-9")
	c.get("/reviews") // before subscribing: not streamed

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang, not a speed
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/__mock/journal/stream?session=tab-9", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("%d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	// Subscribed once the answer began: what follows is streamed.
	newClient(t, ts, "", "other").get("/person/1") // filtered out
	c.get("/person/1")

	events := bufio.NewScanner(resp.Body)
	var got scenarios.Entry
	for events.Scan() {
		if data, ok := strings.CutPrefix(events.Text(), "data: "); ok {
			if err := json.Unmarshal([]byte(data), &got); err != nil {
				t.Fatalf("%v: %s", err, data)
			}
			break
		}
	}
	if got.Path != "/person/1" || got.Session != "tab-9" || got.Status != 200 {
		t.Fatalf("streamed %+v (scan: %v)", got, events.Err())
	}

	cancel()
	for events.Scan() {
	}
	if err := events.Err(); err == nil || ctx.Err() == nil {
		t.Errorf("stream did not end with the client: %v", err)
	}
}

// A write in one session shows in that session's view of the data only.
func TestDataSessionView(t *testing.T) {
	t.Parallel()
	dir, err := reference.ContractDir(reference.AppMovies)
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join(dir, "openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(text, "openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	ts, _ := newServer(t, mock.Config{Spec: sp})
	c := newClient(t, ts, "", "tab-1")
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	json.Unmarshal([]byte(c.login("alice", "wonderland").body), &tok)
	req, _ := http.NewRequest("POST", ts.URL+"/movies", strings.NewReader(`{"title":"Heat","year":1995}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	req.Header.Set(scenarios.HeaderSession, "tab-1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 201 {
		t.Fatalf("create: %d", resp.StatusCode)
	}
	for _, tc := range []struct {
		query string
		total int
	}{{"movies?session=tab-1", 1}, {"movies", 0}, {"movies?session=tab-2", 0}} {
		code, body := adminCall(t, ts, "GET", "/__mock/data/"+tc.query, "")
		var p scenarios.Records
		json.Unmarshal([]byte(body), &p)
		if code != 200 || p.Total != tc.total || len(p.Items) != tc.total || tc.total == 1 && !strings.Contains(string(p.Items[0]), `"title":"Heat"`) {
			t.Errorf("%s: %d %s", tc.query, code, body)
		}
	}
}
