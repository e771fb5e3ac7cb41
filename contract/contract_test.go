package contract_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

func newMock(t testing.TB) http.Handler {
	t.Helper()
	srv, err := mock.New(mock.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// slowOK is the --max-response-time of the runs that judge the answers on
// what they say: under -race on a loaded machine (CI) a correct target's
// answer can take a second or more, past the default 2 s now and then.
const slowOK = time.Minute

func run(t testing.TB, h http.Handler, cfg contract.Config) *contract.Report {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	cfg.BaseURL = ts.URL
	if cfg.MaxResponseTime == 0 {
		cfg.MaxResponseTime = slowOK
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	report, err := contract.Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return report
}

// casesOf counts the cases of kind the run sent.
func casesOf(r *contract.Report, kind contract.Kind) int {
	n := 0
	for _, res := range r.Results {
		if res.Case.Kind == kind {
			n++
		}
	}
	return n
}

// failed lists "check: case" for every failed check.
func failed(r *contract.Report) []string {
	var out []string
	for _, res := range r.Results {
		for _, c := range res.Checks {
			if !c.Passed {
				out = append(out, fmt.Sprintf("%s: %s %q: expected %s, got %s", c.Check, res.Case.Operation, res.Case.Name, c.Expected, c.Got))
			}
		}
	}
	return out
}

func fastapiDoc(t testing.TB) *spec.Spec {
	t.Helper()
	data, err := os.ReadFile("testdata/fastapi_openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(data, "fastapi_openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// A correct FastAPI-compatible server gets no failure, whatever the seed,
// the number of generated cases or workers, the contract's form (ours, or
// what FastAPI itself serves) and whether credentials are given.
func TestCorrectServerPasses(t *testing.T) {
	t.Parallel()
	h := newMock(t)
	for _, tc := range []struct {
		name string
		cfg  contract.Config
	}{
		{"defaults", contract.Config{}},
		{"credentials and ids", contract.Config{Username: "bob", Password: "builder", IDs: map[string][]string{"person_id": {"3"}}}},
		{"many generated cases, seed 7, 4 workers", contract.Config{Seed: 7, Examples: 150, Workers: 4}},
		{"seed 99", contract.Config{Seed: 99, Examples: 60}},
		{"FastAPI's own document", contract.Config{Spec: fastapiDoc(t), Username: "alice", Password: "wonderland", Examples: 40}},
		{"FastAPI's document without credentials", contract.Config{Spec: fastapiDoc(t)}},
		{"JWT signature verified", contract.Config{JWTSecret: []byte(mock.DefaultJWTSecret)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			report := run(t, h, tc.cfg)
			if f := failed(report); len(f) > 0 {
				t.Errorf("%d failures on a correct server:\n%s", len(f), strings.Join(f, "\n"))
			}
			if len(report.Results) < 50 {
				t.Errorf("only %d cases", len(report.Results))
			}
			kinds := map[contract.Kind]int{}
			for _, res := range report.Results {
				kinds[res.Case.Kind]++
			}
			for _, k := range []contract.Kind{contract.Positive, contract.Negative, contract.UnknownID, contract.WrongCredentials} {
				if kinds[k] == 0 {
					t.Errorf("no %s case: %v", k, kinds)
				}
			}
		})
	}
}

// Every check must be exercised by the default suite against the mock.
func TestDefaultSuiteAppliesEveryCheck(t *testing.T) {
	t.Parallel()
	report := run(t, newMock(t), contract.Config{})
	applied := map[string]bool{}
	for _, t := range report.ByCheck() {
		applied[t.Name] = true
	}
	// The stateful sequences need writes, registration and paging, which
	// the embedded contract has none of: the grown movies contract has.
	grown, sp := contractMock(t, "movies", nil)
	for _, t := range run(t, grown, contract.Config{Spec: sp, Username: "alice", Password: "wonderland"}).ByCheck() {
		applied[t.Name] = true
	}
	for _, c := range contract.Checks {
		if !applied[c.Name()] {
			t.Errorf("check %s never applied", c.Name())
		}
	}
}

// breaker wraps the mock so that it breaks the contract one way.
type breaker func(next http.Handler) http.Handler

// rewrite lets edit change the mock's answer to requests match selects.
func rewrite(match func(r *http.Request) bool, edit func(r *http.Request, status *int, h http.Header, body []byte) []byte) breaker {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !match(r) {
				next.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			next.ServeHTTP(rec, r)
			status := rec.Code
			body := edit(r, &status, rec.Header(), rec.Body.Bytes())
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.WriteHeader(status)
			w.Write(body)
		})
	}
}

func pathIs(re string) func(r *http.Request) bool {
	rx := regexp.MustCompile("^" + re + "$")
	return func(r *http.Request) bool { return rx.MatchString(r.URL.Path) }
}

func replace(old, new string) func(*http.Request, *int, http.Header, []byte) []byte {
	return func(_ *http.Request, _ *int, _ http.Header, b []byte) []byte {
		return bytes.Replace(b, []byte(old), []byte(new), 1)
	}
}

var personPath = `/person/[^/]+`

// TestBrokenServers: each server breaks the contract in one realistic way;
// the runner must fail it with the named check.
func TestBrokenServers(t *testing.T) {
	t.Parallel()
	person1 := func(t *testing.T) []byte {
		rec := httptest.NewRecorder()
		newMock(t).ServeHTTP(rec, httptest.NewRequest("GET", "/person/1", nil))
		return rec.Body.Bytes()
	}(t)
	for _, tc := range []struct {
		name  string
		check string
		cfg   contract.Config
		brk   breaker
	}{
		{"wrong field type", "response_schema_conformance", contract.Config{},
			rewrite(pathIs(personPath), replace(`{"id":1,`, `{"id":"1",`))},
		{"missing required field", "response_schema_conformance", contract.Config{},
			rewrite(pathIs(personPath), replace(`"name":"Brad Pitt",`, ``))},
		{"bad date format", "response_schema_conformance", contract.Config{},
			rewrite(pathIs(personPath), replace(`"1963-12-18"`, `"18/12/1963"`))},
		{"null array", "response_schema_conformance", contract.Config{},
			rewrite(pathIs(personPath), replace(`"known_for":[`, `"known_for":null,"x":[`))},
		// Not "without zone": pydantic writes a naive datetime so, and it
		// conforms; a space for the "T" is no date-time pydantic writes.
		{"review timestamp with a space", "response_schema_conformance", contract.Config{},
			rewrite(pathIs(`/reviews/[^/]+`), func(_ *http.Request, _ *int, _ http.Header, b []byte) []byte {
				return regexp.MustCompile(`"created_at":"([0-9-]+)T`).ReplaceAll(b, []byte(`"created_at":"$1 `))
			})},
		{"200 on invalid input", "negative_data_rejection", contract.Config{},
			rewrite(pathIs(`/person/abc`), func(_ *http.Request, status *int, h http.Header, _ []byte) []byte {
				*status = 200
				return person1
			})},
		{"500 on bad input", "not_a_server_error", contract.Config{},
			rewrite(pathIs(personPath), func(_ *http.Request, status *int, h http.Header, b []byte) []byte {
				if *status == 422 {
					*status = 500
					h.Set("Content-Type", "text/plain")
					return []byte("Internal Server Error")
				}
				return b
			})},
		{"wrong error shape", "validation_error_shape", contract.Config{},
			rewrite(pathIs(personPath), func(_ *http.Request, status *int, h http.Header, b []byte) []byte {
				if *status == 422 {
					return []byte(`{"error":"person_id must be an integer"}`)
				}
				return b
			})},
		{"422 names another field", "validation_error_shape", contract.Config{},
			rewrite(pathIs(`/auth/login`), func(_ *http.Request, status *int, h http.Header, b []byte) []byte {
				return bytes.ReplaceAll(b, []byte(`"loc":["body",`), []byte(`"loc":["query",`))
			})},
		{"400 instead of 422", "validation_error_shape", contract.Config{},
			rewrite(pathIs(personPath), func(_ *http.Request, status *int, h http.Header, b []byte) []byte {
				if *status == 422 {
					*status = 400
					return []byte(`{"detail":"bad id"}`)
				}
				return b
			})},
		{"opaque non-JWT token", "jwt_wellformed", contract.Config{},
			rewrite(pathIs(`/auth/login`), func(_ *http.Request, status *int, h http.Header, b []byte) []byte {
				if *status == 200 {
					return []byte(`{"access_token":"3f9a1c0e5b7d","token_type":"bearer"}`)
				}
				return b
			})},
		{"expired token", "jwt_wellformed", contract.Config{Now: func() time.Time { return time.Now().Add(2 * time.Hour) }}, nil},
		{"token signed with another secret", "jwt_wellformed", contract.Config{JWTSecret: []byte("the backend's real secret")}, nil},
		{"token_type not bearer", "token_type_bearer", contract.Config{},
			rewrite(pathIs(`/auth/login`), replace(`"token_type":"bearer"`, `"token_type":"mac"`))},
		{"wrong credentials accepted", "wrong_credentials_rejected", contract.Config{},
			rewrite(pathIs(`/auth/login`), func(r *http.Request, status *int, h http.Header, b []byte) []byte {
				if *status == 401 {
					*status = 200
					h.Del("WWW-Authenticate")
					return []byte(`{"access_token":"eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjQxMDI0NDQ4MDB9.c2ln","token_type":"bearer"}`)
				}
				return b
			})},
		{"401 without WWW-Authenticate", "response_headers_conformance", contract.Config{},
			rewrite(pathIs(`/auth/login`), func(r *http.Request, status *int, h http.Header, b []byte) []byte {
				h.Del("WWW-Authenticate")
				return b
			})},
		{"list not an array", "response_schema_conformance", contract.Config{},
			rewrite(pathIs(`/reviews`), func(_ *http.Request, _ *int, _ http.Header, b []byte) []byte {
				return append(append([]byte(`{"items":`), b...), '}')
			})},
		{"list and item disagree", "list_item_consistency", contract.Config{},
			rewrite(pathIs(`/reviews/[^/]+`), replace(`"content":"`, `"content":"[edited] `))},
		{"duplicate ids in the list", "unique_ids", contract.Config{},
			rewrite(pathIs(`/reviews`), func(_ *http.Request, _ *int, _ http.Header, b []byte) []byte {
				var list []json.RawMessage
				json.Unmarshal(b, &list)
				list = append(list, list[0])
				out, _ := json.Marshal(list)
				return out
			})},
		{"author_id differs from author.id", "author_consistency", contract.Config{},
			rewrite(pathIs(`/reviews/[^/]+`), func(_ *http.Request, _ *int, _ http.Header, b []byte) []byte {
				return regexp.MustCompile(`"author_id":\d+`).ReplaceAll(b, []byte(`"author_id":424242`))
			})},
		{"unknown id answered 200", "unknown_id_not_found", contract.Config{},
			rewrite(pathIs(personPath), func(_ *http.Request, status *int, h http.Header, b []byte) []byte {
				if *status == 404 {
					*status = 200
					return person1
				}
				return b
			})},
		{"valid read refused", "positive_data_acceptance", contract.Config{},
			rewrite(pathIs(`/reviews/[^/]+`), func(_ *http.Request, status *int, h http.Header, b []byte) []byte {
				*status = 404
				return []byte(`{"detail":"Review not found"}`)
			})},
		{"wrong content type", "content_type_conformance", contract.Config{},
			rewrite(pathIs(personPath), func(_ *http.Request, _ *int, h http.Header, b []byte) []byte {
				h.Set("Content-Type", "text/plain; charset=utf-8")
				return b
			})},
		{"undeclared status", "status_code_conformance", contract.Config{},
			rewrite(pathIs(`/person/987654321`), func(_ *http.Request, status *int, h http.Header, b []byte) []byte {
				*status = http.StatusTeapot
				return []byte(`{"detail":"I'm a teapot"}`)
			})},
		{"slow responses", "max_response_time", contract.Config{MaxResponseTime: 30 * time.Millisecond},
			func(next http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if r.URL.Path == "/reviews" {
						time.Sleep(80 * time.Millisecond)
					}
					next.ServeHTTP(w, r)
				})
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newMock(t)
			if tc.brk != nil {
				h = tc.brk(h)
			}
			report := run(t, h, tc.cfg)
			f := failed(report)
			found := false
			for _, line := range f {
				found = found || strings.HasPrefix(line, tc.check+":")
			}
			if !found {
				t.Errorf("no %s failure; failures were:\n%s", tc.check, strings.Join(f, "\n"))
			}
		})
	}
}

// hostile starts a raw TCP server that treats every connection with serve.
func hostile(t *testing.T, serve func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				serve(conn)
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

func readRequest(conn net.Conn) {
	buf := make([]byte, 4096)
	conn.SetReadDeadline(time.Now().Add(time.Second))
	conn.Read(buf)
}

// The runner never hangs or crashes on a hostile target: every case ends
// within the timeout with a failure that says what happened.
func TestHostileTargets(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		serve func(net.Conn)
		want  string
		// timeout is the client's: short where the timeout is the failure
		// wanted, generous where the failure must be another.
		timeout time.Duration
	}{
		{"connection reset", func(c net.Conn) {
			readRequest(c)
			c.(*net.TCPConn).SetLinger(0)
		}, "reset", 0},
		{"stall", func(c net.Conn) {
			readRequest(c)
			time.Sleep(2 * time.Second)
		}, "timeout", 300 * time.Millisecond},
		{"garbage", func(c net.Conn) {
			readRequest(c)
			c.Write([]byte("HELLO, THIS IS NOT HTTP\r\n\r\n"))
		}, "not HTTP", 0},
		{"empty response", func(c net.Conn) { readRequest(c) }, "closed before a complete response", 0},
		{"body shorter than its length", func(c net.Conn) {
			readRequest(c)
			c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"id\":"))
		}, "broke off", 0},
		{"endless body", func(c net.Conn) {
			readRequest(c)
			c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n["))
			chunk := bytes.Repeat([]byte(`{"id":1},`), 1000)
			c.SetWriteDeadline(time.Now().Add(3 * time.Second))
			for {
				if _, err := c.Write(chunk); err != nil {
					return
				}
			}
		}, "larger than", 0},
		{"invalid UTF-8 JSON", func(c net.Conn) {
			readRequest(c)
			body := "{\"id\":1,\"name\":\"\xff\xfe\"}"
			fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
		}, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			base := hostile(t, tc.serve)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			report, err := contract.Run(ctx, contract.Config{MaxResponseTime: slowOK, BaseURL: base, Timeout: cmp.Or(tc.timeout, 30*time.Second), Examples: 1, Workers: 8, MaxBodyBytes: 64 << 10})
			if err != nil {
				t.Fatal(err)
			}
			f := failed(report)
			if len(f) == 0 {
				t.Fatal("a hostile target passed")
			}
			if !strings.Contains(strings.Join(f, "\n"), tc.want) {
				t.Errorf("no failure mentions %q:\n%s", tc.want, f[0])
			}
		})
	}
}

func TestUnreachableTarget(t *testing.T) {
	t.Parallel()
	// Port 1 (tcpmux), where nothing listens: a port freed by closing a
	// listener may be taken by another test's server meanwhile.
	_, err := contract.Run(context.Background(), contract.Config{BaseURL: "http://127.0.0.1:1", Timeout: time.Second})
	if !errors.Is(err, contract.ErrUnreachable) {
		t.Fatalf("err = %v, want ErrUnreachable", err)
	}
	for _, bad := range []contract.Config{{BaseURL: "localhost:8000"}, {BaseURL: "ftp://x"}, {BaseURL: "http://127.0.0.1:1", Checks: []string{"no_such_check"}}} {
		if _, err := contract.Run(context.Background(), bad); err == nil || errors.Is(err, contract.ErrUnreachable) {
			t.Errorf("%+v: err = %v, want a configuration error", bad, err)
		}
	}
}

// The same seed sends the same requests in the same order.
func TestSeededRunsAreDeterministic(t *testing.T) {
	t.Parallel()
	h := newMock(t)
	requests := func(seed uint64) []string {
		ts := httptest.NewServer(h)
		defer ts.Close()
		report, err := contract.Run(context.Background(), contract.Config{MaxResponseTime: slowOK, BaseURL: ts.URL, Seed: seed, Examples: 20})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, res := range report.Results {
			r := res.Case.Request
			// The bearer token carries the login time; the port differs.
			url := strings.TrimPrefix(r.URL, ts.URL)
			out = append(out, r.Method+" "+url+" "+r.Body)
		}
		return out
	}
	a, b, c := requests(5), requests(5), requests(6)
	if strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Error("the same seed sent different requests")
	}
	if strings.Join(a, "\n") == strings.Join(c, "\n") {
		t.Error("different seeds sent the same requests")
	}
}

func TestReportFormats(t *testing.T) {
	t.Parallel()
	broken := rewrite(pathIs(personPath), replace(`{"id":1,`, `{"id":"1",`))(newMock(t))
	report := run(t, broken, contract.Config{})
	if report.Failures() == 0 {
		t.Fatal("expected failures")
	}

	var text bytes.Buffer
	if err := report.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Operations:", "Checks:", "FAIL response_schema_conformance", "Distinct failures:",
		"request:   GET http://", "expected:  a body matching the 200 schema", "got:       id: ", "reproduce: curl -i 'http://", "FAILED: "} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q", want)
		}
	}

	var js bytes.Buffer
	if err := report.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var parsed struct {
		BaseURL string `json:"base_url"`
		Passed  *bool  `json:"passed"`
		Summary struct {
			Cases        int `json:"cases"`
			ChecksFailed int `json:"checks_failed"`
		} `json:"summary"`
		Checks []struct {
			Name   string `json:"name"`
			Failed int    `json:"failed"`
		} `json:"checks"`
		Results []struct {
			Case struct {
				Operation string `json:"operation"`
				Kind      string `json:"kind"`
				Request   struct {
					Method string `json:"method"`
					URL    string `json:"url"`
				} `json:"request"`
			} `json:"case"`
			Response struct {
				Status int    `json:"status"`
				Body   string `json:"body"`
			} `json:"response"`
			Checks []struct {
				Check  string `json:"check"`
				Passed bool   `json:"passed"`
			} `json:"checks"`
			Curl string `json:"curl"`
		} `json:"results"`
	}
	if err := json.Unmarshal(js.Bytes(), &parsed); err != nil {
		t.Fatal(err)
	}
	if parsed.Passed == nil || *parsed.Passed || parsed.Summary.ChecksFailed != report.Failures() || parsed.Summary.Cases != len(report.Results) ||
		parsed.Results[0].Case.Request.URL == "" || parsed.Results[0].Curl == "" || parsed.Results[0].Response.Status == 0 {
		t.Errorf("JSON report: %+v", parsed.Summary)
	}

	var x bytes.Buffer
	if err := report.WriteJUnit(&x); err != nil {
		t.Fatal(err)
	}
	var suites struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(x.Bytes(), &suites); err != nil {
		t.Fatal(err)
	}
	if suites.Failures != report.Failures() || len(suites.Suites) != 4 || suites.Tests < suites.Failures {
		t.Errorf("JUnit: %d tests, %d failures, %d suites", suites.Tests, suites.Failures, len(suites.Suites))
	}
	seenFailure := false
	for _, s := range suites.Suites {
		for _, c := range s.Cases {
			if c.Failure != nil && strings.Contains(c.Failure.Text, "reproduce: curl") {
				seenFailure = true
			}
		}
	}
	if !seenFailure {
		t.Error("no JUnit failure carries its curl reproduction")
	}
}

func TestCurlReproduces(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		req  contract.Request
		want string
	}{
		{contract.Request{Method: "GET", URL: "http://h/person/1%20"}, `curl -i 'http://h/person/1%20'`},
		{contract.Request{Method: "POST", URL: "http://h/auth/login", Header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}, Body: "username=o'neil&password=x"},
			`curl -i -X POST 'http://h/auth/login' -H 'Content-Type: application/x-www-form-urlencoded' --data-raw 'username=o'\''neil&password=x'`},
		{contract.Request{Method: "POST", URL: "http://h/x", Body: "a\nb\x01"}, `curl -i -X POST 'http://h/x' --data-raw $'a\x0ab\x01'`},
		{contract.Request{Method: "GET&touch$IFS'PWNED'&", URL: "http://h/x"}, `curl -i -X 'GET&touch$IFS'\''PWNED'\''&' 'http://h/x'`},
	} {
		if got := contract.Curl(tc.req); got != tc.want {
			t.Errorf("Curl = %s\nwant   %s", got, tc.want)
		}
	}
}

// BenchmarkDefaultSuite runs the default suite against the in-process mock
// over loopback HTTP.
func BenchmarkDefaultSuite(b *testing.B) {
	ts := httptest.NewServer(newMock(b))
	defer ts.Close()
	for b.Loop() {
		report, err := contract.Run(context.Background(), contract.Config{MaxResponseTime: slowOK, BaseURL: ts.URL})
		if err != nil || report.Failures() > 0 {
			b.Fatal(err, report.Failures())
		}
	}
}
