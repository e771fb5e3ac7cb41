package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
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
	// Not parallel: the grace is shortened for the servers of this test,
	// yet kept long enough that a body sent whole a quarter of it late
	// arrives within it on a loaded machine too.
	defer func(g time.Duration) { bodyRateGrace = g }(bodyRateGrace)
	bodyRateGrace = 2 * time.Second

	const form = "username=alice&password=wonderland"
	// drip sends a request with body a byte every interval, then reads
	// the answer; sent is how many bytes of body had gone when it came.
	drip := func(t *testing.T, base, body string, interval time.Duration) (resp *http.Response, answer string, sent int64) {
		t.Helper()
		conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		start := time.Now()
		io.WriteString(conn, "POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: "+strconv.Itoa(len(body))+"\r\n\r\n")
		var dripped atomic.Int64
		go func() {
			for i := range len(body) {
				time.Sleep(interval)
				if _, err := io.WriteString(conn, body[i:i+1]); err != nil {
					return
				}
				dripped.Add(1)
			}
		}()
		conn.SetReadDeadline(time.Now().Add(time.Minute)) // a hang, not a speed
		br := bufio.NewReader(conn)
		resp, err = http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("no answer after %v: %v", time.Since(start), err)
		}
		sent = dripped.Load()
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(b), sent
	}

	up, _ := serve(t, noEnv, "--quiet")
	servers := map[string]string{"serve": up}
	servers["proxy"] = startProxy(t, up).base
	servers["serve --min-body-rate 0"], _ = serve(t, noEnv, "--quiet", "--min-body-rate", "0")

	for _, name := range []string{"serve", "proxy"} {
		base := servers[name]
		t.Run(name+": dripped", func(t *testing.T) {
			// 10 bytes a second, for 30 s if it were let through: it is cut
			// off after the grace, long before the end (at 20 bytes; the
			// bound allows ten times as late).
			const interval = 100 * time.Millisecond
			body := form + "&padding=" + strings.Repeat("x", 300-len(form)-len("&padding="))
			resp, answer, sent := drip(t, base, body, interval)
			if resp.StatusCode != http.StatusRequestTimeout || resp.Header.Get("X-Mock-Error") == "" || !resp.Close || !strings.Contains(answer, "--min-body-rate") {
				t.Errorf("%d %v %q after %d bytes; want moviemock's 408, connection closed", resp.StatusCode, resp.Header, answer, sent)
			}
			if most := int64(10 * bodyRateGrace / interval); sent >= most {
				t.Errorf("cut off after %d bytes of %d; want soon after the grace (%v, %d bytes)", sent, len(body), bodyRateGrace, bodyRateGrace/interval)
			}
			// The journal says what the client got: the 408 and why, not
			// the 400 (serve) or the nothing (proxy) the handler answered
			// for a body it could not read. The entry is recorded before
			// the answer begins, so it is there once the 408 came.
			_, journal := get(t, base+"/__mock/journal?method=POST")
			var entries []struct {
				Path     string `json:"path"`
				Status   int    `json:"status"`
				BodyNote string `json:"body_note"`
				Response *struct {
					Bytes int64 `json:"bytes"`
				} `json:"response"`
			}
			if err := json.Unmarshal([]byte(journal), &entries); err != nil || len(entries) == 0 {
				t.Fatalf("journal: %v %s", err, journal)
			}
			e := entries[len(entries)-1]
			if e.Path != "/auth/login" || e.Status != http.StatusRequestTimeout || !strings.Contains(e.BodyNote, "--min-body-rate") || e.Response != nil {
				t.Errorf("journal entry %+v; want status 408, a body_note naming --min-body-rate, no response kept", e)
			}
		})
		t.Run(name+": late start, then the whole body", func(t *testing.T) {
			conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			io.WriteString(conn, "POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: "+strconv.Itoa(len(form))+"\r\n\r\n")
			time.Sleep(bodyRateGrace / 4)
			io.WriteString(conn, form)
			conn.SetReadDeadline(time.Now().Add(time.Minute)) // a hang, not a speed
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("%v %v; want 200", resp, err)
			}
		})
	}
	t.Run("--min-body-rate 0", func(t *testing.T) {
		resp, answer, _ := drip(t, servers["serve --min-body-rate 0"], form, 25*time.Millisecond) // 40 bytes a second, over 0.9 s
		if resp.StatusCode != 200 {
			t.Errorf("%d %q; want 200", resp.StatusCode, answer)
		}
	})
}
