package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

func noEnv(string) string { return "" }

// serve starts run("serve", args…) on 127.0.0.1:0 and returns its base URL
// and a stop function that cancels it and returns run's error.
func serve(t *testing.T, getenv func(string) string, args ...string) (string, func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), getenv, pw, io.Discard)
		pw.CloseWithError(io.EOF)
		done <- err
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("serve did not start: %v (%v)", err, <-done)
	}
	go io.Copy(io.Discard, pr)
	m := regexp.MustCompile(`http://(127\.0\.0\.1:\d+)`).FindStringSubmatch(line)
	if m == nil {
		cancel()
		t.Fatalf("no address in %q", line)
	}
	stop := sync.OnceValue(func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(time.Minute):
			return errors.New("serve did not stop")
		}
	})
	t.Cleanup(func() { stop() })
	return "http://" + m[1], stop
}

// slowOK is the --max-response-time of the contract runs that must pass:
// under -race on a loaded machine (CI) a correct target's answer (a real
// FastAPI app's, the mock's) can take a second or more, past the default
// 2 s now and then.
const slowOK = "1m"

func get(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// The README's first command, end to end: the mock on its embedded data,
// over real HTTP, then a clean shutdown.
func TestServeEndToEnd(t *testing.T) {
	base, stop := serve(t, noEnv, "--quiet")
	if code, body := get(t, base+"/person/1"); code != 200 || !strings.Contains(body, `"name":"Brad Pitt"`) {
		t.Errorf("GET /person/1: %d %s", code, body)
	}
	if code, body := get(t, base+"/person/abc"); code != 422 || !strings.Contains(body, `"int_parsing"`) {
		t.Errorf("GET /person/abc: %d %s", code, body)
	}
	resp, err := http.PostForm(base+"/auth/login", url.Values{"username": {"alice"}, "password": {"wonderland"}})
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	if resp.StatusCode != 200 || strings.Count(tok.AccessToken, ".") != 2 {
		t.Errorf("login: %d %q", resp.StatusCode, tok.AccessToken)
	}
	// A redirect the client follows: 307 to the absolute URL.
	if code, body := get(t, base+"/reviews/"); code != 200 || !strings.HasPrefix(body, `[{"id":`) {
		t.Errorf("GET /reviews/ (followed): %d %.40s", code, body)
	}
	if err := stop(); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	if _, err := http.Get(base + "/reviews"); err == nil {
		t.Error("still answering after shutdown")
	}
}

func TestServeFlagsAndEnvironment(t *testing.T) {
	env := map[string]string{"MOVIEMOCK_REQUIRE_AUTH": "true", "MOVIEMOCK_QUIET": "1"}
	base, _ := serve(t, func(k string) string { return env[k] }, "--generate", "--seed", "5", "--reviews", "30", "--users", "3", "--persons", "8")
	if code, body := get(t, base+"/reviews"); code != 401 || body != `{"detail":"Not authenticated"}` {
		t.Errorf("require-auth from the environment: %d %s", code, body)
	}
	resp, err := http.PostForm(base+"/auth/login", url.Values{"username": {"x"}, "password": {"moviemock"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Errorf("login as a user generated data does not have: %d", resp.StatusCode)
	}
}

func TestServeFixtureDirectory(t *testing.T) {
	dir := t.TempDir()
	var out strings.Builder
	if err := run(context.Background(), []string{"fixtures", "generate", "--seed", "9", "--persons", "5", "--users", "2", "--reviews", "10", "--out", dir}, noEnv, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "wrote 5 persons, 10 reviews, 2 users") {
		t.Errorf("generate said %q", out.String())
	}
	out.Reset()
	if err := run(context.Background(), []string{"fixtures", "check", dir}, noEnv, &out, io.Discard); err != nil || !strings.Contains(out.String(), "valid") {
		t.Fatalf("check: %v %q", err, out.String())
	}
	base, _ := serve(t, noEnv, "--quiet", "--fixtures", dir)
	if code, body := get(t, base+"/person/5"); code != 200 {
		t.Errorf("GET /person/5 from the fixture directory: %d %s", code, body)
	}
	generated, err := os.ReadFile(filepath.Join(dir, "persons.json"))
	if err != nil {
		t.Fatal(err)
	}
	_, body := get(t, base+"/person/1")
	if !strings.Contains(string(generated), body) {
		t.Errorf("served person 1 %s is not the record written", body)
	}
}

// Every bad command line is one line on stderr and exit code 2.
func TestUsageErrors(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	badDir := t.TempDir()
	os.WriteFile(filepath.Join(badDir, "persons.yaml"), []byte("- {id: 1, name: 5}\n"), 0o644)

	for _, tc := range []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"no command", nil, nil, "no command given"},
		{"unknown command", []string{"serv"}, nil, `unknown command "serv"`},
		{"unknown flag", []string{"serve", "--port", "1"}, nil, "flag provided but not defined: -port"},
		{"bad duration", []string{"serve", "--token-lifetime", "30"}, nil, `"30" has no unit`},
		{"negative duration", []string{"serve", "--token-lifetime", "-1m"}, nil, "not positive"},
		{"stray argument", []string{"serve", "extra"}, nil, `unexpected argument "extra"`},
		{"address in use", []string{"serve", "--quiet", "--addr", busy.Addr().String()}, nil, "address already in use"},
		{"bad address", []string{"serve", "--quiet", "--addr", "nonsense"}, nil, "cannot listen on nonsense"},
		{"generator flag alone", []string{"serve", "--seed", "3"}, nil, "--seed only applies with --generate"},
		{"seed zero", []string{"serve", "--generate", "--seed", "0"}, nil, "--seed 0 is not allowed"},
		{"two data sources", []string{"serve", "--generate", "--fixtures", "x"}, nil, "give one"},
		{"CORS contradiction", []string{"serve", "--no-cors", "--cors-origin", "http://a"}, nil, "contradict"},
		{"origin with a slash", []string{"serve", "--cors-origin", "http://localhost:5173/"}, nil, `"http://localhost:5173/" can never match a browser's Origin: a browser's Origin has no trailing slash: http://localhost:5173`},
		{"origin without scheme", []string{"serve", "--cors-origin", "localhost:5173"}, nil, "an origin is scheme://host[:port]"},
		{"origin wildcard", []string{"serve", "--cors-origin", "https://*.example.org"}, nil, "does not expand wildcards"},
		{"origin in capitals", []string{"serve", "--cors-origin", "http://LocalHost:5173"}, nil, "lower case: http://localhost:5173"},
		{"origin with the default port", []string{"serve", "--cors-origin", "https://app.example.org:443"}, nil, "leaves the default port out"},
		{"bad origin regex", []string{"serve", "--cors-origin-regex", "(["}, nil, "--cors-origin-regex"},
		{"bad CORS method", []string{"serve", "--cors-methods", "GET,PO ST"}, nil, `"PO ST" is not an HTTP method`},
		{"bad body size", []string{"serve", "--max-body-size", "lots"}, nil, `"lots" is not a size`},
		{"bad origin from the environment", []string{"serve"}, map[string]string{"MOVIEMOCK_CORS_ORIGIN": "http://a.test/"}, "no trailing slash"},
		{"bad environment value", []string{"serve"}, map[string]string{"MOVIEMOCK_REQUIRE_AUTH": "sometimes"}, "MOVIEMOCK_REQUIRE_AUTH"},
		{"missing fixture dir", []string{"serve", "--fixtures", "/nonexistent/dir"}, nil, "/nonexistent/dir"},
		{"bad fixture record", []string{"serve", "--fixtures", badDir}, nil, "persons.yaml:1: person #1 (id 1): field name"},
		{"generate without out", []string{"fixtures", "generate"}, nil, "--out DIR is required"},
		{"fixtures without subcommand", []string{"fixtures"}, nil, "generate or check"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr strings.Builder
			err := run(context.Background(), tc.args, func(k string) string { return tc.env[k] }, io.Discard, &stderr)
			if code := exitCode(err, &stderr); code != 2 {
				t.Fatalf("exit code %d, want 2 (err %v)", code, err)
			}
			msg := stderr.String()
			if !strings.Contains(msg, tc.want) {
				t.Errorf("stderr %q does not mention %q", msg, tc.want)
			}
			if strings.Contains(msg, "goroutine ") || strings.Contains(msg, "panic") {
				t.Errorf("stack trace on stderr: %s", msg)
			}
		})
	}
}

func TestHelpAndVersion(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"serve", "--help"}, {"fixtures", "generate", "--help"}, {"version"}} {
		var out strings.Builder
		if err := run(context.Background(), args, noEnv, &out, io.Discard); err != nil {
			t.Errorf("%v: %v", args, err)
		}
		if out.Len() == 0 {
			t.Errorf("%v printed nothing", args)
		}
	}
	var out strings.Builder
	run(context.Background(), []string{"serve", "--help"}, noEnv, &out, io.Discard)
	// Safe by default: loopback only.
	for _, want := range []string{"Examples:", "--require-auth", "MOVIEMOCK_ADDR", "\n  --cors-origin", `(default "127.0.0.1:8000")`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("serve --help lacks %q", want)
		}
	}
	// Flags are spelt --flag, as the README spells them.
	if m := regexp.MustCompile(`(?m)^  -[a-z]`).FindString(out.String()); m != "" {
		t.Errorf("serve --help lists a flag as %q", m)
	}
}

// The contract command's exit codes: 0 all passed, 1 a check failed, 2 a
// usage error, an unreadable contract or an unreachable target.
func TestContractCommand(t *testing.T) {
	base, _ := serve(t, noEnv, "--quiet")
	dir := t.TempDir()
	junit := filepath.Join(dir, "report.xml")

	var out, errOut strings.Builder
	err := run(context.Background(), []string{"contract", "--base-url", base, "--spec", base + "/openapi.json",
		"--username", "alice", "--password", "wonderland", "--format", "junit", "--output", junit, "--max-response-time", slowOK}, noEnv, &out, &errOut)
	if code := exitCode(err, io.Discard); code != 0 {
		t.Fatalf("against the mock: exit %d (%v)\n%s", code, err, errOut.String())
	}
	xmlReport, err := os.ReadFile(junit)
	if err != nil || !strings.Contains(string(xmlReport), "<testsuites") || !strings.Contains(errOut.String(), "report written to") {
		t.Fatalf("JUnit report: %v %.100s", err, xmlReport)
	}

	// A server that breaks the contract: exit 1 and a report naming it.
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":"not an integer"}`))
	}))
	defer broken.Close()
	out.Reset()
	err = run(context.Background(), []string{"contract", "--base-url", broken.URL, "--person-id", "1", "--max-response-time", slowOK}, noEnv, &out, io.Discard)
	if code := exitCode(err, io.Discard); code != 1 {
		t.Fatalf("against a broken server: exit %d (%v)", code, err)
	}
	if !strings.Contains(out.String(), "FAIL response_schema_conformance") || !strings.Contains(out.String(), "reproduce: curl") {
		t.Errorf("text report:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "Distinct failures: ") || strings.Contains(out.String(), "\nFailures:\n") || !strings.Contains(out.String(), "rerun with --verbose") {
		t.Errorf("text report without --verbose: the distinct failures only:\n%s", out.String())
	}
	out.Reset()
	err = run(context.Background(), []string{"contract", "--base-url", broken.URL, "--person-id", "1", "--verbose", "--max-response-time", slowOK}, noEnv, &out, io.Discard)
	if code := exitCode(err, io.Discard); code != 1 || !strings.Contains(out.String(), "Distinct failures: ") || !strings.Contains(out.String(), "\nFailures:\n") {
		t.Errorf("text report with --verbose: exit %d, the distinct failures then every one:\n%s", code, out.String())
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"contract"}, "--base-url URL is required"},
		{[]string{"contract", "--base-url", base, "--format", "yaml"}, "use text, json, junit or html"},
		{[]string{"contract", "--base-url", base, "--checks", "nope"}, `unknown check "nope"`},
		{[]string{"contract", "--base-url", base, "--username", "alice"}, "together"},
		{[]string{"contract", "--base-url", base, "--spec", filepath.Join(dir, "missing.yaml")}, "no such file"},
		{[]string{"contract", "--base-url", base, "--spec", base + "/nope.json"}, "404"},
		{[]string{"contract", "--base-url", base, "--header", "novalue"}, "not 'Name: value'"},
		{[]string{"contract", "--base-url", "http://127.0.0.1:1"}, "unreachable"},
	} {
		var stderr strings.Builder
		err := run(context.Background(), tc.args, noEnv, io.Discard, &stderr)
		if code := exitCode(err, &stderr); code != 2 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}
