package mock_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/internal/loadgen"
	"github.com/moviemock/moviemock/internal/logbuf"
	"github.com/moviemock/moviemock/internal/spec"
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
// same cores, on the embedded contract and on one of the corpus's. It
// reports requests per second of each and the mock's share of the bare
// rate:
//
//	go test ./mock -run '^$' -bench Throughput -benchtime 200000x
//
// It reads higher shares than wrk against the built binary: the bare
// handler shares this process with the load generator, and serve's
// connection limits are not here. BenchmarkServeThroughput (cmd/moviemock)
// measures the binary as a user does.
func BenchmarkThroughput(b *testing.B) {
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer devNull.Close()
	// The request log as serve writes it: buffered, out every 100 ms.
	logOut := logbuf.New(devNull, 100*time.Millisecond)
	defer logOut.Close()
	logger := slog.New(slog.NewTextHandler(logOut, nil))

	form := "Content-Type: application/x-www-form-urlencoded"
	// Credentials the mock cannot verify, accepted when present.
	apiKey, bearer := []string{"api_key: special-key"}, []string{"Authorization: Bearer any-token"}
	for _, contract := range []struct {
		name string
		spec string // under testdata/corpus; "" for the embedded contract
		eps  []throughputCase
	}{
		{"embedded", "", []throughputCase{
			{"GET /person/{id}", "GET", "/person/1", "", 200, nil},
			{"GET /person/{id} 422", "GET", "/person/abc", "", 422, nil},
			{"GET /reviews/{id}", "GET", "/reviews/b42bfd96-9925-4da9-8c96-eed6b998b81f", "", 200, nil},
			{"GET /reviews", "GET", "/reviews", "", 200, nil},
			{"POST /auth/login", "POST", "/auth/login", "username=alice&password=wonderland", 200, []string{form}},
			{"POST /auth/login 401", "POST", "/auth/login", "username=alice&password=nope", 401, []string{form}},
		}},
		// A document of FastAPI's own documentation, as the app serves it:
		// generated records of nested dataclasses.
		{"corpus", "fastapi-docs/openapi/dataclasses_.tutorial003_py310.json", []throughputCase{
			{"GET /authors/", "GET", "/authors/", "", 200, nil},
			{"GET /authors/{id}/items/ 405", "GET", "/authors/1/items/", "", 405, nil},
			{"GET /no/such/path 404", "GET", "/no/such/path", "", 404, nil},
		}},
		// A hand-written document, not FastAPI's: the plain-OpenAPI
		// profile's reads and its refusals in the document's shapes.
		{"openapi", "documents/swagger-petstore-3/openapi.yaml", []throughputCase{
			{"GET /pet/{petId} 404", "GET", "/pet/1", "", 404, apiKey}, // serve starts with no pets
			{"GET /pet/findByStatus", "GET", "/pet/findByStatus?status=available", "", 200, bearer},
			{"GET /pet/{petId} 400", "GET", "/pet/abc", "", 400, apiKey},
			{"GET /no/such/path 404", "GET", "/no/such/path", "", 404, nil},
		}},
	} {
		cfg := mock.Config{Logger: logger}
		if contract.spec != "" {
			data, err := os.ReadFile(filepath.Join("..", "testdata", "corpus", filepath.FromSlash(contract.spec)))
			if err != nil {
				b.Fatal(err)
			}
			if cfg.Spec, err = spec.Load(data, contract.spec); err != nil {
				b.Fatal(err)
			}
		}
		srv := newServer(b, cfg)
		ts := httptest.NewUnstartedServer(srv)
		// serve's header limit; its header and idle timeouts are a clock
		// of its own (cmd/moviemock), which costs a request no deadline.
		ts.Config.MaxHeaderBytes = 64 << 10
		ts.Start()
		for _, ep := range contract.eps {
			b.Run(contract.name+"/"+ep.name, func(b *testing.B) { benchThroughput(b, ts.URL, ep) })
		}
		ts.Close()
	}
}

// throughputCase is one request BenchmarkThroughput sends again and again.
type throughputCase struct {
	name    string
	method  string
	target  string
	body    string
	status  int
	headers []string
}

func benchThroughput(b *testing.B, url string, ep throughputCase) {
	req := loadgen.Request(ep.method, ep.target, ep.body, ep.headers...)
	bare := httptest.NewServer(bareHandler(b, url, ep))
	defer bare.Close()
	// Taken in turns, so that a change in the machine's load between
	// them weighs on both alike.
	var base, got loadgen.Result
	b.StopTimer()
	for round, left := 0, int64(b.N); left > 0; round++ {
		opts := loadgen.Options{Conns: throughputConns, Requests: min(left, max(int64(b.N)/throughputRounds, 1)), Status: ep.status}
		left -= opts.Requests
		base.Add(drive(b, bare.URL, req, opts))
		b.StartTimer()
		got.Add(drive(b, url, req, opts))
		b.StopTimer()
	}
	b.ReportMetric(got.PerSecond(), "req/s")
	b.ReportMetric(base.PerSecond(), "bare-req/s")
	b.ReportMetric(100*got.PerSecond()/base.PerSecond(), "%bare")
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
func bareHandler(b *testing.B, base string, ep throughputCase) http.Handler {
	b.Helper()
	method, target, status := ep.method, ep.target, ep.status
	req, err := http.NewRequest(method, base+target, strings.NewReader(ep.body))
	if err != nil {
		b.Fatal(err)
	}
	for _, h := range ep.headers {
		name, value, _ := strings.Cut(h, ":")
		req.Header.Set(name, strings.TrimSpace(value))
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
