package scenarios_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/mock"
	"github.com/moviemock/moviemock/scenarios"
)

// controlRequest is one request to the control API of ts, sent over real
// HTTP: method, path, extra headers ("Name: value" lines) and body.
func controlRequest(t *testing.T, base, method, path, headers, body string) (*http.Response, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(headers, "\n") {
		if name, value, ok := strings.Cut(line, ":"); ok {
			if name = strings.TrimSpace(name); strings.EqualFold(name, "Host") {
				req.Host = strings.TrimSpace(value)
			} else {
				req.Header.Set(name, strings.TrimSpace(value))
			}
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// corsHeaders lists the Access-Control-* headers of an answer.
func corsHeaders(h http.Header) []string {
	var out []string
	for name := range h {
		if strings.HasPrefix(name, "Access-Control-") {
			out = append(out, name)
		}
	}
	return out
}

// With --admin-token, every caller must send the token, loopback ones too:
// a reverse proxy on the same host makes every outsider a loopback caller.
// Without one, a loopback request that came through a proxy is refused.
func TestControlAPITokenFromEveryone(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, token, remote string
		header              map[string]string
		want                int
	}{
		{"loopback without the token", "t0k", "127.0.0.1:5000", nil, 401},
		{"loopback v6 without the token", "t0k", "[::1]:5000", nil, 401},
		{"loopback with a wrong token", "t0k", "127.0.0.1:5000", map[string]string{"X-Mock-Admin-Token": "nope"}, 401},
		{"loopback with the token", "t0k", "127.0.0.1:5000", map[string]string{"Authorization": "Bearer t0k"}, 200},
		{"proxied with the token", "t0k", "127.0.0.1:5000", map[string]string{"X-Mock-Admin-Token": "t0k", "X-Forwarded-For": "203.0.113.9"}, 200},
		{"proxied without the token", "t0k", "127.0.0.1:5000", map[string]string{"X-Forwarded-For": "203.0.113.9"}, 401},
		{"no token: loopback", "", "127.0.0.1:5000", nil, 200},
		{"no token: proxied (X-Forwarded-For)", "", "127.0.0.1:5000", map[string]string{"X-Forwarded-For": "203.0.113.9"}, 403},
		{"no token: proxied (Forwarded)", "", "127.0.0.1:5000", map[string]string{"Forwarded": "for=203.0.113.9"}, 403},
		{"no token: proxied (X-Real-IP)", "", "127.0.0.1:5000", map[string]string{"X-Real-IP": "203.0.113.9"}, 403},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, err := mock.New(mock.Config{AdminToken: tc.token})
			if err != nil {
				t.Fatal(err)
			}
			r := httptest.NewRequest("GET", "/__mock/health", nil)
			r.RemoteAddr, r.Host = tc.remote, "localhost:8000"
			for k, v := range tc.header {
				r.Header.Set(k, v)
			}
			w := httptest.NewRecorder()
			srv.ServeHTTP(w, r)
			if w.Code != tc.want {
				t.Fatalf("%d %s", w.Code, w.Body)
			}
			if tc.want != 200 && w.Header().Get(scenarios.HeaderError) != "true" {
				t.Errorf("refusal without %s: %v", scenarios.HeaderError, w.Header())
			}
		})
	}
}

// Behind a reverse proxy on the same host (every request then comes from
// loopback), outsiders without the token get nothing; with it they do.
func TestControlAPIBehindProxy(t *testing.T) {
	t.Parallel()
	for _, token := range []string{"", "t0k"} {
		ts, _ := newServer(t, mock.Config{AdminToken: token})
		target, _ := url.Parse(ts.URL)
		proxy := httptest.NewServer(httputil.NewSingleHostReverseProxy(target))
		t.Cleanup(proxy.Close)

		resp, body := controlRequest(t, proxy.URL, "POST", "/__mock/reset", "", "")
		if resp.StatusCode != 401 && resp.StatusCode != 403 || resp.Header.Get(scenarios.HeaderError) != "true" {
			t.Errorf("token %q: through the proxy without the token: %d %s", token, resp.StatusCode, body)
		}
		if token == "" {
			continue
		}
		resp, body = controlRequest(t, proxy.URL, "POST", "/__mock/reset", "Authorization: Bearer t0k", "")
		if resp.StatusCode != 200 {
			t.Errorf("through the proxy with the token: %d %s", resp.StatusCode, body)
		}
		// The mocked backend itself is not the control API's business.
		if resp, body := controlRequest(t, proxy.URL, "GET", "/person/1", "", ""); resp.StatusCode != 200 {
			t.Errorf("GET /person/1 through the proxy: %d %s", resp.StatusCode, body)
		}
	}
}

// No page of another site can drive the control API: it has no CORS,
// refuses other sites' Origins and foreign Host names, and takes no form
// or text/plain requests; curl, tests and same-origin pages still can.
func TestControlAPIBrowserGuard(t *testing.T) {
	t.Parallel()
	for _, noCORS := range []bool{false, true} {
		ts, _ := newServer(t, mock.Config{DisableCORS: noCORS})
		base := ts.URL
		host := strings.TrimPrefix(base, "http://")
		activate := func() {
			t.Helper()
			if resp, body := controlRequest(t, base, "PUT", "/__mock/active", "Content-Type: application/json", `{"scenario":"empty-catalog"}`); resp.StatusCode != 200 {
				t.Fatalf("PUT /__mock/active with JSON: %d %s", resp.StatusCode, body)
			}
		}
		activate()
		const on = `{"scenario":"empty-catalog","state":"start"}`
		for _, tc := range []struct {
			name, method, path, headers, body string
			want                              int
		}{
			{"preflight from another site", "OPTIONS", "/__mock/reset", "Origin: http://evil.example\nAccess-Control-Request-Method: POST\nAccess-Control-Request-Headers: content-type", "", 403},
			{"text/plain POST from another site", "POST", "/__mock/reset", "Origin: http://evil.example\nContent-Type: text/plain", "x", 403},
			{"form POST from another site", "POST", "/__mock/active/reset", "Origin: https://evil.example\nContent-Type: application/x-www-form-urlencoded", "a=b", 403},
			{"body-less POST from another site (fetch, no-cors)", "POST", "/__mock/reset", "Origin: http://evil.example", "", 403},
			{"POST from a sandboxed page", "POST", "/__mock/reset", "Origin: null", "", 403},
			{"text/plain POST without an Origin", "POST", "/__mock/reset", "Content-Type: text/plain", "x", 415},
			{"form POST without an Origin", "POST", "/__mock/reset", "Content-Type: application/x-www-form-urlencoded", "", 415},
			{"multipart DELETE", "DELETE", "/__mock/active", "Content-Type: multipart/form-data; boundary=b", "--b--\r\n", 415},
			{"form PUT (curl -d)", "PUT", "/__mock/active", "Content-Type: application/x-www-form-urlencoded", `{"scenario":null}`, 415},
			{"journal read from another site", "GET", "/__mock/journal", "Origin: http://evil.example", "", 403},
			{"foreign Host (DNS rebinding)", "GET", "/__mock/journal", "Host: evil.example", "", 403},
			{"foreign Host with its own Origin", "POST", "/__mock/reset", "Host: evil.example:8000\nOrigin: http://evil.example:8000", "", 403},
		} {
			resp, body := controlRequest(t, base, tc.method, tc.path, tc.headers, tc.body)
			if resp.StatusCode != tc.want || resp.Header.Get(scenarios.HeaderError) != "true" || !strings.Contains(body, `"detail":"`) {
				t.Errorf("no-cors %v: %s: got %d %v %s, want %d with %s", noCORS, tc.name, resp.StatusCode, resp.Header, body, tc.want, scenarios.HeaderError)
			}
			if h := corsHeaders(resp.Header); len(h) > 0 {
				t.Errorf("no-cors %v: %s: CORS headers %v", noCORS, tc.name, h)
			}
			if _, got := controlRequest(t, base, "GET", "/__mock/active", "", ""); got != on {
				t.Errorf("no-cors %v: %s changed the active scenario: %s", noCORS, tc.name, got)
				activate()
			}
		}
		// A preflight from a page of this machine gets no CORS either.
		resp, _ := controlRequest(t, base, "OPTIONS", "/__mock/active", "Origin: http://localhost:5173\nAccess-Control-Request-Method: PUT", "")
		if h := corsHeaders(resp.Header); len(h) > 0 || resp.StatusCode < 400 {
			t.Errorf("no-cors %v: local preflight: %d %v", noCORS, resp.StatusCode, h)
		}
		if !noCORS {
			// The mocked backend keeps its CORS.
			resp, _ := controlRequest(t, base, "OPTIONS", "/reviews", "Origin: http://evil.example\nAccess-Control-Request-Method: GET", "")
			if resp.Header.Get("Access-Control-Allow-Origin") == "" {
				t.Errorf("the backend's preflight lost its CORS: %d %v", resp.StatusCode, resp.Header)
			}
		}

		// What curl, tests and same-origin pages send still works.
		for _, tc := range []struct {
			name, method, path, headers, body string
			want                              int
		}{
			{"curl GET", "GET", "/__mock/journal?limit=1", "", "", 200},
			{"GET for localhost", "GET", "/__mock/health", "Host: localhost:8000", "", 200},
			{"GET for a .localhost name", "GET", "/__mock/health", "Host: app.localhost", "", 200},
			{"GET for ::1", "GET", "/__mock/health", "Host: [::1]:8000", "", 200},
			{"same-origin page", "GET", "/__mock/journal", "Origin: " + base, "", 200},
			{"same-origin page POST", "POST", "/__mock/active/reset", "Origin: " + base + "\nContent-Type: application/json", "", 200},
			{"page on localhost", "GET", "/__mock/health", "Origin: http://localhost:5173", "", 200},
			{"PUT without a Content-Type", "PUT", "/__mock/active", "", `{"scenario":"empty-catalog"}`, 200},
			{"PUT with a JSON charset", "PUT", "/__mock/active", "Content-Type: application/json; charset=utf-8", `{"scenario":"empty-catalog"}`, 200},
			{"curl -X POST", "POST", "/__mock/reset", "", "", 200},
			{"curl -X DELETE", "DELETE", "/__mock/journal", "", "", 200},
		} {
			resp, body := controlRequest(t, base, tc.method, tc.path, tc.headers, tc.body)
			if resp.StatusCode != tc.want {
				t.Errorf("no-cors %v: %s (Host %s): got %d %s, want %d", noCORS, tc.name, host, resp.StatusCode, body, tc.want)
			}
		}
	}
}
