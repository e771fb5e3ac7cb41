package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A request body dripped a byte at a time, each well within
// --body-timeout, is cut off once it has taken the grace and averages
// less than --min-body-rate (240 bytes a second by default, as Kestrel's):
// 408 and the connection closed, in serve and in proxy. A body that
// arrives in time, however late it starts within the grace, is answered;
// --min-body-rate 0 lets any rate through.
func TestMinBodyRate(t *testing.T) {
	// Not parallel: the grace is shortened for the servers of this test.
	defer func(g time.Duration) { bodyRateGrace = g }(bodyRateGrace)
	bodyRateGrace = 400 * time.Millisecond

	const form = "username=alice&password=wonderland"
	head := "POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: " + strconv.Itoa(len(form)) + "\r\n\r\n"
	// drip sends the login a byte every interval, then reads the answer.
	drip := func(t *testing.T, base string, interval time.Duration) (*http.Response, string, time.Duration) {
		t.Helper()
		conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		start := time.Now()
		io.WriteString(conn, head)
		go func() {
			for i := range len(form) {
				time.Sleep(interval)
				if _, err := io.WriteString(conn, form[i:i+1]); err != nil {
					return
				}
			}
		}()
		conn.SetReadDeadline(time.Now().Add(15 * time.Second))
		br := bufio.NewReader(conn)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("no answer after %v: %v", time.Since(start), err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(body), time.Since(start)
	}

	up, _ := serve(t, noEnv, "--quiet")
	servers := map[string]string{"serve": up}
	servers["proxy"] = startProxy(t, up).base
	servers["serve --min-body-rate 0"], _ = serve(t, noEnv, "--quiet", "--min-body-rate", "0")

	for _, name := range []string{"serve", "proxy"} {
		base := servers[name]
		t.Run(name+": dripped", func(t *testing.T) {
			resp, body, took := drip(t, base, 100*time.Millisecond) // 10 bytes a second
			if resp.StatusCode != http.StatusRequestTimeout || resp.Header.Get("X-Mock-Error") == "" || !resp.Close || !strings.Contains(body, "--min-body-rate") {
				t.Errorf("%d %v %q after %v; want moviemock's 408, connection closed", resp.StatusCode, resp.Header, body, took)
			}
			if took > 2*time.Second {
				t.Errorf("cut off after %v; want soon after the grace (%v)", took, bodyRateGrace)
			}
		})
		t.Run(name+": late start, then the whole body", func(t *testing.T) {
			conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			io.WriteString(conn, head)
			time.Sleep(bodyRateGrace / 2)
			io.WriteString(conn, form)
			conn.SetReadDeadline(time.Now().Add(10 * time.Second))
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("%v %v; want 200", resp, err)
			}
		})
	}
	t.Run("--min-body-rate 0", func(t *testing.T) {
		resp, body, took := drip(t, servers["serve --min-body-rate 0"], 25*time.Millisecond) // 40 bytes a second, over 0.9 s
		if resp.StatusCode != 200 {
			t.Errorf("%d %q after %v; want 200", resp.StatusCode, body, took)
		}
	})
}
