package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/internal/loadgen"
)

// The server's limits, end to end on serve: a client too slow with its
// headers is cut off, so is an idle keep-alive connection, and headers
// beyond the limit get 431; a normal client sees none of it.
func TestServeLimits(t *testing.T) {
	// Short, for the cut-offs to come soon; long enough that the normal
	// client, on a loaded machine too, sends each request well within them.
	defer func(h, i time.Duration) { readHeaderTimeout, idleTimeout = h, i }(readHeaderTimeout, idleTimeout)
	readHeaderTimeout, idleTimeout = time.Second, 2*time.Second
	base, _ := serve(t, noEnv, "--quiet")
	addr := strings.TrimPrefix(base, "http://")

	t.Run("slow headers", func(t *testing.T) {
		conn := dial(t, addr)
		io.WriteString(conn, "GET /person/1 HTTP/1.1\r\nHost: x\r\n") // never finished
		// 8 times the timeout set here, within the default one (10 s).
		if err := waitClosed(conn, 8*time.Second); err != nil {
			t.Error(err)
		}
	})
	t.Run("idle keep-alive", func(t *testing.T) {
		conn := dial(t, addr)
		br := bufio.NewReader(conn)
		conn.Write(loadgen.Request("GET", "/person/1", ""))
		if code, err := loadgen.ReadResponse(br); err != nil || code != 200 {
			t.Fatalf("%d %v", code, err)
		}
		// 10 times the idle timeout set here, within the default (120 s).
		if err := waitClosed(conn, 20*time.Second); err != nil {
			t.Error(err)
		}
	})
	t.Run("headers too large", func(t *testing.T) {
		conn := dial(t, addr)
		conn.Write(loadgen.Request("GET", "/person/1", "", "X-Big: "+strings.Repeat("a", maxHeaderBytes+8192)))
		code, err := loadgen.ReadResponse(bufio.NewReader(conn))
		if code != http.StatusRequestHeaderFieldsTooLarge {
			t.Errorf("status %d (%v), want 431", code, err)
		}
	})
	t.Run("headers at the bound", func(t *testing.T) {
		for _, tc := range []struct {
			size int
			want int
		}{
			{maxHeaderBytes - 1, http.StatusOK},
			{maxHeaderBytes, http.StatusOK},
			{maxHeaderBytes + 1, http.StatusRequestHeaderFieldsTooLarge},
			{maxHeaderBytes + 100, http.StatusRequestHeaderFieldsTooLarge},
		} {
			if code := headerRequest(t, addr, "/person/1", tc.size); code != tc.want {
				t.Errorf("request line and headers of %d bytes: status %d, want %d", tc.size, code, tc.want)
			}
		}
	})
	t.Run("a normal client", func(t *testing.T) {
		// Requests on one connection, each well within the limits.
		res, err := loadgen.Run(context.Background(), addr, loadgen.Request("GET", "/person/1", ""), loadgen.Options{Conns: 1, Requests: 20, Status: 200})
		if err != nil || res.Errors > 0 {
			t.Errorf("%+v %v", res, err)
		}
	})
}

// A thousand clients at once, each on its keep-alive connection held open
// from its first request to its last: every answer arrives, none fails.
//
// The connections are all opened before the first request is sent: under
// -race on a loaded machine that takes longer than the 10 s a connection
// has to send its headers (TestServeLimits tests that limit), so the
// server of this test gives them as long as the run may take, and the
// deadlines are a hang's, not a speed.
func TestServeThousandConnections(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	// Not parallel: the header timeout is lengthened for its server.
	defer func(h time.Duration) { readHeaderTimeout = h }(readHeaderTimeout)
	readHeaderTimeout = 10 * time.Minute
	base, _ := serve(t, noEnv, "--quiet")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	res, err := loadgen.Run(ctx, strings.TrimPrefix(base, "http://"), loadgen.Request("GET", "/reviews/b42bfd96-9925-4da9-8c96-eed6b998b81f", ""),
		loadgen.Options{Conns: 1000, Requests: 5000, Status: 200, Timeout: 5 * time.Minute})
	if err != nil || res.Errors > 0 || res.Answers != 5000 {
		t.Fatalf("%d answers, %d errors (first: %v), %v", res.Answers, res.Errors, res.FirstErr, err)
	}
}

// headerRequest sends, on a connection of its own, a GET of target whose
// request line and headers, line ends and the blank line included, take
// size bytes, and returns the answer's status.
func headerRequest(t *testing.T, addr, target string, size int) int {
	t.Helper()
	head := "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: "
	const end = "\r\n\r\n"
	req := head + strings.Repeat("a", size-len(head)-len(end)) + end
	if len(req) != size {
		t.Fatalf("request of %d bytes, want %d", len(req), size)
	}
	conn := dial(t, addr)
	if _, err := io.WriteString(conn, req); err != nil {
		t.Fatal(err)
	}
	code, err := loadgen.ReadResponse(bufio.NewReader(conn))
	if err != nil && code == 0 {
		t.Fatalf("%d bytes: %v", size, err)
	}
	conn.Close()
	return code
}

func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// waitClosed waits for the server to close conn, up to limit.
func waitClosed(conn net.Conn, limit time.Duration) error {
	conn.SetReadDeadline(time.Now().Add(limit))
	_, err := io.Copy(io.Discard, conn)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return errors.New("the server kept the connection open")
	}
	return nil
}

// The public development secret is fine on loopback; anywhere else serve
// warns, until a secret of one's own is set.
func TestSecretWarning(t *testing.T) {
	for _, tc := range []struct {
		ip     string
		secret bool
		warn   bool
	}{
		{"127.0.0.1", false, false}, {"::1", false, false}, {"0.0.0.0", false, true},
		{"::", false, true}, {"192.168.1.20", false, true}, {"0.0.0.0", true, false},
	} {
		w := secretWarning(&net.TCPAddr{IP: net.ParseIP(tc.ip), Port: 8000}, tc.secret)
		if (w != "") != tc.warn || tc.warn && !strings.Contains(w, "--jwt-secret") {
			t.Errorf("%s, secret set %v: %q", tc.ip, tc.secret, w)
		}
	}
}

// The proxy's listener keeps the same bound on the request line and
// headers as serve's: the bound passes (to the upstream), a byte more
// gets 431.
func TestProxyHeaderBound(t *testing.T) {
	t.Parallel()
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(upstream.Close)
	p := startProxy(t, upstream.URL)
	addr := strings.TrimPrefix(p.base, "http://")
	if code := headerRequest(t, addr, "/person/1", maxHeaderBytes); code == http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("request line and headers of %d bytes: 431, want them passed on", maxHeaderBytes)
	}
	if code := headerRequest(t, addr, "/person/1", maxHeaderBytes+1); code != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("request line and headers of %d bytes: status %d, want 431", maxHeaderBytes+1, code)
	}
}
