package scenarios_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/mock"
	"github.com/moviemock/moviemock/scenarios"
)

// A session id is a path segment of the control API: ".", ".." and
// anything but an HTTP token are refused where a session starts
// (X-Mock-Session, PUT /__mock/sessions/{id}), so that no button of the
// panel on such a session reaches another route; and no control API path
// is redirected to another (gorilla/mux's cleaning 301, which a client
// follows with the same DELETE).
func TestSessionIDRefused(t *testing.T) {
	t.Parallel()
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	send := func(t *testing.T, base, method, path, session, body string) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequest(method, base+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if session != "" {
			req.Header.Set(scenarios.HeaderSession, session)
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	journal := func(t *testing.T, base string) int {
		t.Helper()
		_, body := send(t, base, "GET", "/__mock/journal", "", "")
		var entries []json.RawMessage
		if err := json.Unmarshal([]byte(body), &entries); err != nil {
			t.Fatalf("journal: %v: %s", err, body)
		}
		return len(entries)
	}

	t.Run("X-Mock-Session", func(t *testing.T) {
		t.Parallel()
		ts, _ := newServer(t, mock.Config{})
		for _, tc := range []struct {
			id   string
			want int
		}{
			{"tab-1", 200},
			{"a.b", 200},
			{"550e8400-e29b-41d4-a716-446655440000", 200},
			{"%2e%2e", 200}, // a token; the panel sends it as %252e%252e
			{".", 400},
			{"..", 400},
			{"../journal", 400},
			{"../active", 400},
			{"a/b", 400},
			{"a b", 400},
			{"a@b", 400},
			{"é", 400},
			{strings.Repeat("s", scenarios.MaxSessionIDBytes), 200},
			{strings.Repeat("s", scenarios.MaxSessionIDBytes+1), 400},
		} {
			resp, body := send(t, ts.URL, "GET", "/person/1", tc.id, "")
			if resp.StatusCode != tc.want {
				t.Errorf("X-Mock-Session %q: %d %s; want %d", tc.id, resp.StatusCode, body, tc.want)
				continue
			}
			if tc.want == 400 && (resp.Header.Get(scenarios.HeaderError) == "" || !strings.Contains(body, "X-Mock-Session") || !strings.Contains(body, "session id")) {
				t.Errorf("X-Mock-Session %q: %v %s; want moviemock's own 400 naming the header", tc.id, resp.Header, body)
			}
		}
		_, body := send(t, ts.URL, "GET", "/__mock/sessions", "", "")
		var list []struct{ ID string }
		json.Unmarshal([]byte(body), &list)
		for _, s := range list {
			if scenarios.CheckSessionID(s.ID) != nil {
				t.Errorf("session %q started", s.ID)
			}
		}
		if len(list) != 5 {
			t.Errorf("sessions %s; want the 5 valid ones", body)
		}
	})

	t.Run("control API", func(t *testing.T) {
		t.Parallel()
		ts, _ := newServer(t, mock.Config{})
		send(t, ts.URL, "PUT", "/__mock/active", "", `{"scenario":"empty-catalog"}`)
		for range 3 {
			send(t, ts.URL, "GET", "/person/1", "", "")
		}
		before := journal(t, ts.URL)
		for _, tc := range []struct{ method, path, body string }{
			{"PUT", "/__mock/sessions/..", `{"scenario":"empty-catalog"}`},
			{"PUT", "/__mock/sessions/.", `{"scenario":"empty-catalog"}`},
			{"PUT", "/__mock/sessions/%2e%2e", `{"scenario":"empty-catalog"}`},
			{"PUT", "/__mock/sessions/a%20b", `{"scenario":"empty-catalog"}`},
			{"GET", "/__mock/sessions/..", ""},
			{"DELETE", "/__mock/sessions/..", ""},
			{"POST", "/__mock/sessions/../reset", ""},
			{"DELETE", "/__mock/sessions/..%2Fjournal", ""},
			{"DELETE", "/__mock/sessions/../journal", ""},
			{"DELETE", "/__mock/sessions/..%2Factive", ""},
			{"DELETE", "/__mock/sessions/%2e%2e/active", ""},
			{"POST", "/__mock/sessions/%2e%2e/reset", ""},
		} {
			resp, body := send(t, ts.URL, tc.method, tc.path, "", tc.body)
			if resp.StatusCode != 400 && resp.StatusCode != 404 && resp.StatusCode != 405 {
				t.Errorf("%s %s: %d %s; want 400 (or no route)", tc.method, tc.path, resp.StatusCode, body)
			}
			if loc := resp.Header.Get("Location"); loc != "" {
				t.Errorf("%s %s: redirected to %s", tc.method, tc.path, loc)
			}
		}
		if resp, body := send(t, ts.URL, "PUT", "/__mock/sessions/..", "", `{"scenario":"empty-catalog"}`); resp.StatusCode != 400 || !strings.Contains(body, `session id \"..\"`) {
			t.Errorf("PUT /__mock/sessions/..: %d %s; want 400 saying why", resp.StatusCode, body)
		}
		if n := journal(t, ts.URL); n < before {
			t.Errorf("the journal went from %d entries to %d", before, n)
		}
		if _, body := send(t, ts.URL, "GET", "/__mock/active", "", ""); !strings.Contains(body, `"scenario":"empty-catalog"`) {
			t.Errorf("the active scenario: %s; want empty-catalog still", body)
		}
		if _, body := send(t, ts.URL, "GET", "/__mock/sessions", "", ""); body != "[]" {
			t.Errorf("sessions: %s; want none", body)
		}
	})
}
