package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/internal/loadgen"
)

// bareServer, set in the environment, makes the test binary a bare
// net/http server instead (see serveBare): the other process
// BenchmarkServeThroughput compares the built binary with.
const bareServer = "RUN_AS_BARE_SERVER"

// BenchmarkServeThroughput measures reads as a user measures them with
// wrk: the built binary, started as `moviemock serve --quiet` (request
// validation and the journal on, as by default), driven over loopback by
// 50 keep-alive connections (internal/loadgen, which works as wrk does),
// next to a bare net/http server in a process of its own that answers the
// same bytes and does nothing else. The two take turns, so that a change
// in the machine's load weighs on both alike. It reports the binary's
// requests per second, the bare server's, and the first as a share of
// the second:
//
//	go test ./cmd/moviemock -run '^$' -bench ServeThroughput -benchtime 200000x
//
// BenchmarkThroughput (package mock) measures the handler in the test's
// own process, beside its load generator: without serve's connection
// limits, and with a bare handler sharing the benchmark's process, it
// reads higher shares than a user sees.
func BenchmarkServeThroughput(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "moviemock")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	cmd, addr := startBinary(b, bin, "--quiet")
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	form := "Content-Type: application/x-www-form-urlencoded"
	for _, c := range []struct {
		name, method, target, body string
		status                     int
		headers                    []string
	}{
		{"GET /person/{id}", "GET", "/person/1", "", 200, nil},
		{"GET /reviews/{id}", "GET", "/reviews/b42bfd96-9925-4da9-8c96-eed6b998b81f", "", 200, nil},
		{"GET /reviews", "GET", "/reviews", "", 200, nil},
		{"POST /auth/login", "POST", "/auth/login", "username=alice&password=wonderland", 200, []string{form}},
	} {
		b.Run(c.name, func(b *testing.B) {
			req := loadgen.Request(c.method, c.target, c.body, c.headers...)
			bare, bareAddr := startBare(b, "http://"+addr, c.method, c.target, c.body, c.headers)
			defer func() { bare.Process.Kill(); bare.Wait() }()
			var base, got loadgen.Result
			b.ResetTimer()
			b.StopTimer()
			const rounds = 4
			for left := int64(b.N); left > 0; {
				opts := loadgen.Options{Conns: 50, Requests: min(left, max(int64(b.N)/rounds, 1)), Status: c.status}
				left -= opts.Requests
				base.Add(driveAddr(b, bareAddr, req, opts))
				b.StartTimer()
				got.Add(driveAddr(b, addr, req, opts))
				b.StopTimer()
			}
			b.ReportMetric(got.PerSecond(), "req/s")
			b.ReportMetric(base.PerSecond(), "bare-req/s")
			b.ReportMetric(100*got.PerSecond()/base.PerSecond(), "%bare")
			if load, err := os.ReadFile("/proc/loadavg"); err == nil {
				if f, err := strconv.ParseFloat(strings.Fields(string(load))[0], 64); err == nil {
					b.ReportMetric(f, "loadavg")
				}
			}
		})
	}
}

func driveAddr(b *testing.B, addr string, req []byte, opts loadgen.Options) loadgen.Result {
	b.Helper()
	res, err := loadgen.Run(context.Background(), addr, req, opts)
	if err != nil || res.Errors > 0 {
		b.Fatalf("%s: %d errors (first: %v) %v", addr, res.Errors, res.FirstErr, err)
	}
	return res
}

// startBare starts the test binary as a bare server answering what base
// answers to the request, and returns once it listens.
func startBare(b *testing.B, base, method, target, body string, headers []string) (*exec.Cmd, string) {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), bareServer+"=1", "BARE_METHOD="+method, "BARE_URL="+base+target,
		"BARE_BODY="+body, "BARE_HEADERS="+strings.Join(headers, "\n"))
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		b.Fatalf("no address from the bare server: %q %v", line, err)
	}
	return cmd, strings.TrimSpace(line)
}

// serveBare is the bare server: it asks BARE_URL once, then answers every
// request with that answer's status, headers and body, written at once,
// nothing read or checked, under serve's limits (header and idle
// timeouts). It prints its address and never returns.
func serveBare() {
	req, err := http.NewRequest(os.Getenv("BARE_METHOD"), os.Getenv("BARE_URL"), strings.NewReader(os.Getenv("BARE_BODY")))
	if err != nil {
		panic(err)
	}
	for _, h := range strings.Split(os.Getenv("BARE_HEADERS"), "\n") {
		if name, value, ok := strings.Cut(h, ":"); ok {
			req.Header.Set(name, strings.TrimSpace(value))
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	answer, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		panic(err)
	}
	header := resp.Header.Clone()
	header.Del("Date")
	header.Del("Transfer-Encoding")
	header.Set("Content-Length", strconv.Itoa(len(answer)))
	status := resp.StatusCode
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	fmt.Println(ln.Addr())
	srv := &http.Server{
		ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 120 * time.Second, MaxHeaderBytes: 64 << 10,
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			for k, vs := range header {
				h[k] = vs
			}
			w.WriteHeader(status)
			w.Write(answer)
		}),
	}
	panic(srv.Serve(ln))
}
