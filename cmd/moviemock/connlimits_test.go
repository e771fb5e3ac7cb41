package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/internal/loadgen"
	"github.com/moviemock/moviemock/mock"
)

// A client that starts a body and stops sending it is cut off after
// --body-timeout; one that sends it whole is answered, however long a
// scripted delay or trickle makes the answer (the login form read, then a
// delay and a trickle; slow-network's review list, 512 bytes every 50 ms:
// both longer than the body timeout here).
func TestServeBodyTimeout(t *testing.T) {
	// A delay after the body is read: a rule matching the login form reads
	// it before it waits.
	dir := t.TempDir()
	slowLogin := "name: slow-login\ndescription: a login answered slowly after its form is read\nrules:\n  - name: slow login\n    match: {path: /auth/login, form: {username: alice}}\n    delay: {min: 500ms, max: 500ms}\n    fault: {kind: trickle, chunk: 16, interval: 50ms}\n"
	if err := os.WriteFile(filepath.Join(dir, "slow-login.yaml"), []byte(slowLogin), 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := serve(t, noEnv, "--quiet", "--body-timeout", "200ms", "--scenarios", dir)
	addr := strings.TrimPrefix(base, "http://")

	t.Run("dripping body", func(t *testing.T) {
		conn := dial(t, addr)
		io.WriteString(conn, "POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nusername=al")
		// 100 times the body timeout, within the default one (30 s).
		if err := waitClosed(conn, 20*time.Second); err != nil {
			t.Error(err)
		}
	})
	t.Run("scripted delay after a body", func(t *testing.T) {
		req, _ := http.NewRequest("POST", base+"/auth/login", strings.NewReader(url.Values{"username": {"alice"}, "password": {"wonderland"}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Mock-Scenario", "slow-login")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != 200 || !json.Valid(body) || !strings.Contains(string(body), `"access_token"`) {
			t.Fatalf("%d %s %v", resp.StatusCode, body, err)
		}
	})
	t.Run("scripted trickle", func(t *testing.T) {
		code, body := getWith(t, base+"/reviews", "slow-network")
		_, whole := getWith(t, base+"/reviews", "")
		if code != 200 || body != whole {
			t.Fatalf("%d, %d of %d bytes", code, len(body), len(whole))
		}
	})
}

// With --limit-concurrency 2, two connections are served and held; a third
// is answered 503 at once, as uvicorn answers, and closed. Once one of the
// two goes away, a new connection is served.
func TestServeLimitConcurrency(t *testing.T) {
	base, _ := serve(t, noEnv, "--quiet", "--limit-concurrency", "2")
	addr := strings.TrimPrefix(base, "http://")
	get := func(conn net.Conn, br *bufio.Reader) int {
		t.Helper()
		conn.Write(loadgen.Request("GET", "/person/1", ""))
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	type client struct {
		conn net.Conn
		br   *bufio.Reader
	}
	var held []client
	for i := range 2 {
		c := client{conn: dial(t, addr)}
		c.br = bufio.NewReader(c.conn)
		if code := get(c.conn, c.br); code != 200 {
			t.Fatalf("connection %d: %d", i+1, code)
		}
		held = append(held, c)
	}

	third := dial(t, addr)
	third.Write(loadgen.Request("GET", "/person/1", ""))
	resp, err := http.ReadResponse(bufio.NewReader(third), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 503 || string(body) != "Service Unavailable" || !resp.Close || resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Fatalf("third connection: %d %q close=%v %v", resp.StatusCode, body, resp.Close, resp.Header)
	}
	if err := waitClosed(third, 20*time.Second); err != nil {
		t.Error("third connection:", err)
	}
	for i, c := range held {
		if code := get(c.conn, c.br); code != 200 {
			t.Errorf("held connection %d, second request: %d", i+1, code)
		}
	}

	held[0].conn.Close()
	eventually(t, "a new connection served once one closed", func() bool {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			return false
		}
		defer conn.Close()
		return get(conn, bufio.NewReader(conn)) == 200
	})
}

// A client that asks for a big list (huge-review-list: about 8 MB) and
// never reads the answer is dropped after the body timeout, and its
// connection with the answer it holds is let go.
func TestStalledReaderDropped(t *testing.T) {
	limits := &connLimits{max: 10, body: 200 * time.Millisecond}
	conn := dial(t, serveLimited(t, limits))
	conn.(*net.TCPConn).SetReadBuffer(4096)
	conn.Write(loadgen.Request("GET", "/reviews", "", "X-Mock-Scenario: huge-review-list"))
	eventually(t, "the server let the connection go", func() bool { return limits.open.Load() == 0 })
	// What arrived is cut short.
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	n, _ := io.Copy(io.Discard, conn)
	if n > 7<<20 {
		t.Errorf("%d bytes arrived: the whole answer", n)
	}
}

// The write deadline is kept per connection and renewed only as it runs
// down, not for every answer: a client that reads a few answers on one
// keep-alive connection and then stops reading the next is still dropped
// after the body timeout, with no limit on connections set.
func TestStalledReaderDroppedAfterKeepAlive(t *testing.T) {
	limits := &connLimits{max: 10, body: 200 * time.Millisecond}
	conn := dial(t, serveLimited(t, limits))
	conn.(*net.TCPConn).SetReadBuffer(4096)
	br := bufio.NewReader(conn)
	for i := range 3 {
		conn.Write(loadgen.Request("GET", "/person/1", ""))
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("answer %d on the connection: %v", i+1, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("answer %d on the connection: %d", i+1, resp.StatusCode)
		}
	}
	if limits.open.Load() != 1 {
		t.Fatalf("%d connections open, want 1", limits.open.Load())
	}
	conn.Write(loadgen.Request("GET", "/reviews", "", "X-Mock-Scenario: huge-review-list"))
	eventually(t, "the server let the connection go", func() bool { return limits.open.Load() == 0 })
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	n, _ := io.Copy(io.Discard, br)
	if n > 7<<20 {
		t.Errorf("%d bytes arrived: the whole answer", n)
	}
}

// serveLimited serves the default data with limits on a port of its own,
// until the test ends: its address.
func serveLimited(t *testing.T, limits *connLimits) string {
	t.Helper()
	files := &sources{gen: &generateOpts{}}
	data, _, set, err := files.load()
	if err != nil {
		t.Fatal(err)
	}
	h, err := mock.New(mock.Config{Data: data, Scenarios: set})
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	limits.apply(srv)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// --watch-interval 0 stops watching, as --help says; from the environment
// too. A negative interval is refused, naming the flag.
func TestServeWatchIntervalZero(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gone.yaml"), []byte(goneScenario("first")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"0", "0s"} {
		base, stop := serve(t, noEnv, "--quiet", "--scenarios", dir, "--watch-interval", v)
		if code, body := getWith(t, base+"/person/1", "gone"); code != 404 || body != `{"detail":"first"}` {
			t.Errorf("--watch-interval %s: %d %s", v, code, body)
		}
		stop()
		env := func(k string) string {
			if k == "MOVIEMOCK_WATCH_INTERVAL" {
				return v
			}
			return ""
		}
		_, stop = serve(t, env, "--quiet", "--scenarios", dir)
		stop()
	}
	err := run(context.Background(), []string{"serve", "--watch-interval", "-1s"}, noEnv, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "watch-interval") {
		t.Errorf("--watch-interval -1s: %v", err)
	}
}
