package proxy_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/proxy"
)

// raw sends one request with target as it is written (no client cleans
// or re-encodes it) and reads the answer.
func raw(t *testing.T, base, method, target string) reply {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(conn, method+" "+target+" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("%s %s: %v", method, target, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return reply{resp.StatusCode, resp.Header, string(b)}
}

// A request path stays under the upstream's: dot segments ("..", "%2e%2e",
// ".%2E", and those a decoded "%2f" makes) that climb out of it are
// answered 400, the others resolved before the request goes upstream.
func TestPathStaysUnderTheUpstream(t *testing.T) {
	t.Parallel()
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Seen", r.RequestURI)
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "ok")
	}))
	t.Cleanup(up.Close)
	s := start(t, up.URL+"/api/v1", nil)
	for _, tc := range []struct {
		target string
		want   string // what the upstream saw; "": answered 400
	}{
		{"/person/1", "/api/v1/person/1"},
		{"/person/1?q=..", "/api/v1/person/1?q=.."},
		{"/person/./1", "/api/v1/person/1"},
		{"/reviews/../person/1", "/api/v1/person/1"},
		{"/reviews/%2e%2e/person/1", "/api/v1/person/1"},
		{"/a/..", "/api/v1/"},
		{"/a%2Fb/1", "/api/v1/a%2Fb/1"},
		{"/a...b/..x", "/api/v1/a...b/..x"},
		{"/../../admin", ""},
		{"/..", ""},
		{"/%2e%2e/%2e%2e/admin", ""},
		{"/.%2E/admin", ""},
		{"/%2E./admin", ""},
		{"/person/../../admin", ""},
		{"/..%2f..%2fadmin", ""},
		{"/a//../../..", ""},
	} {
		got := raw(t, s.srv.URL, "GET", tc.target)
		switch {
		case tc.want == "" && (got.status != 400 || got.header.Get(proxy.HeaderError) == "" || !strings.Contains(got.body, "climbs out")):
			t.Errorf("GET %s: %d %v %s; want moviemock's 400", tc.target, got.status, got.header, got.body)
		case tc.want != "" && got.header.Get("X-Seen") != tc.want:
			t.Errorf("GET %s: %d, the upstream saw %q; want %q", tc.target, got.status, got.header.Get("X-Seen"), tc.want)
		}
	}
}

// The upstream's headers named X-Mock-* do not reach the client: they
// would pass for moviemock's own (X-Mock-Error marks its answers).
func TestUpstreamMockHeadersDropped(t *testing.T) {
	t.Parallel()
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Mock-Error", "the upstream's own")
		w.Header().Set("X-Mock-Scenario", "faked")
		w.Header()["x-mock-session"] = []string{"lower-case"}
		w.Header().Set("X-Other", "kept")
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "ok")
	}))
	t.Cleanup(up.Close)
	s := start(t, up.URL, nil)
	got := do(t, "GET", s.srv.URL+"/somewhere", nil, "")
	if got.status != 200 || got.header.Get("X-Other") != "kept" {
		t.Fatalf("%d %v", got.status, got.header)
	}
	for name := range got.header {
		if strings.HasPrefix(strings.ToLower(name), "x-mock-") {
			t.Errorf("the upstream's %s: %q reached the client", name, got.header[name])
		}
	}
}

// An upstream that answers 101 Switching Protocols to a plain GET (the
// proxy forwards no Upgrade) gets the client a 502 saying so, not a
// connection switched to a protocol it never asked for.
func TestUnaskedSwitchingProtocols(t *testing.T) {
	t.Parallel()
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		buf.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: evil\r\nConnection: Upgrade\r\n\r\nRAW BYTES OF ANOTHER PROTOCOL")
		buf.Flush()
		time.Sleep(100 * time.Millisecond)
	}))
	t.Cleanup(up.Close)
	s := start(t, up.URL, nil)
	for _, header := range []string{"", "Upgrade"} {
		h := http.Header{}
		if header != "" {
			h.Set("Connection", "Upgrade")
			h.Set("Upgrade", "websocket")
		}
		got := raw(t, s.srv.URL, "GET", "/person/1")
		if header != "" {
			got = do(t, "GET", s.srv.URL+"/person/1", h, "")
		}
		if got.status != 502 || got.header.Get(proxy.HeaderError) == "" || !strings.Contains(got.body, "101") || strings.Contains(got.body, "RAW BYTES") {
			t.Errorf("with %q: %d %v %s; want moviemock's 502 naming the 101", header, got.status, got.header, got.body)
		}
	}
}
