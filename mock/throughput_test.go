package mock_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/internal/loadgen"
	"github.com/moviemock/moviemock/internal/logbuf"
	"github.com/moviemock/moviemock/mock"
)

// throughputConns is how many keep-alive connections drive a server at
// once, as wrk -c50 does.
const throughputConns = 50

// throughputRounds is how many turns the mock and the bare handler take.
const throughputRounds = 4

// BenchmarkThroughput drives the mock over loopback HTTP, with validation
// on and its request log written (to /dev/null) as serve writes it by
// default, next to a bare net/http handler serving the same bytes, in the
// same run. Both get the same requests from the same load generator on the
// same cores. It reports requests per second of each and the mock's share
// of the bare rate:
//
//	go test ./mock -run '^$' -bench Throughput -benchtime 200000x
func BenchmarkThroughput(b *testing.B) {
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer devNull.Close()
	// The request log as serve writes it: buffered, out every 100 ms.
	logOut := logbuf.New(devNull, 100*time.Millisecond)
	defer logOut.Close()
	srv := newServer(b, mock.Config{Logger: slog.New(slog.NewTextHandler(logOut, nil))})
	ts := httptest.NewUnstartedServer(srv)
	// serve's limits, which cost a deadline per request.
	ts.Config.ReadHeaderTimeout, ts.Config.IdleTimeout, ts.Config.MaxHeaderBytes = 10*time.Second, 120*time.Second, 64<<10
	ts.Start()
	defer ts.Close()

	form := "Content-Type: application/x-www-form-urlencoded"
	for _, ep := range []struct {
		name   string
		method string
		target string
		body   string
		status int
	}{
		{"GET /person/{id}", "GET", "/person/1", "", 200},
		{"GET /person/{id} 422", "GET", "/person/abc", "", 422},
		{"GET /reviews/{id}", "GET", "/reviews/b42bfd96-9925-4da9-8c96-eed6b998b81f", "", 200},
		{"GET /reviews", "GET", "/reviews", "", 200},
		{"POST /auth/login", "POST", "/auth/login", "username=alice&password=wonderland", 200},
		{"POST /auth/login 401", "POST", "/auth/login", "username=alice&password=nope", 401},
	} {
		b.Run(ep.name, func(b *testing.B) {
			var headers []string
			if ep.method == "POST" {
				headers = append(headers, form)
			}
			req := loadgen.Request(ep.method, ep.target, ep.body, headers...)
			bare := httptest.NewServer(bareHandler(b, ts.URL, ep.method, ep.target, ep.body, ep.status))
			defer bare.Close()
			// Taken in turns, so that a change in the machine's load
			// between them weighs on both alike.
			var base, got loadgen.Result
			b.StopTimer()
			for round, left := 0, int64(b.N); left > 0; round++ {
				opts := loadgen.Options{Conns: throughputConns, Requests: min(left, max(int64(b.N)/throughputRounds, 1)), Status: ep.status}
				left -= opts.Requests
				base.Add(drive(b, bare.URL, req, opts))
				b.StartTimer()
				got.Add(drive(b, ts.URL, req, opts))
				b.StopTimer()
			}
			b.ReportMetric(got.PerSecond(), "req/s")
			b.ReportMetric(base.PerSecond(), "bare-req/s")
			b.ReportMetric(100*got.PerSecond()/base.PerSecond(), "%bare")
		})
	}
}

func drive(b *testing.B, url string, req []byte, opts loadgen.Options) loadgen.Result {
	b.Helper()
	res, err := loadgen.Run(context.Background(), strings.TrimPrefix(url, "http://"), req, opts)
	if err != nil || res.Errors > 0 {
		b.Fatalf("%s: %d errors (first: %v) %v", url, res.Errors, res.FirstErr, err)
	}
	return res
}

// bareHandler answers every request with the bytes the mock answered this
// one with, as plain net/http does at best: the status, the headers and
// the body written at once, nothing read or checked.
func bareHandler(b *testing.B, base, method, target, body string, status int) http.Handler {
	b.Helper()
	req, err := http.NewRequest(method, base+target, strings.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	if method == "POST" {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	answer, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != status {
		b.Fatalf("%s %s: %d %v", method, target, resp.StatusCode, err)
	}
	header := resp.Header.Clone()
	header.Del("Date")
	header.Del("Transfer-Encoding")
	header.Set("Content-Length", strconv.Itoa(len(answer)))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		for k, vs := range header {
			h[k] = vs
		}
		w.WriteHeader(status)
		w.Write(answer)
	})
}
