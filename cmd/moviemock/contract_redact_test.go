package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The secrets planted in TestNoOutputShowsASecret: each must be absent from
// every output of every command.
const (
	plantedPassword   = "S3cr3t-CI-pass"
	plantedJWTSecret  = "planted-jwt-secret-4711"
	plantedAdminToken = "planted-admin-token-0815"
	plantedCookie     = "planted-cookie-value-42"
	// plantedNested is the value of a secret field deep in a body: short,
	// so that only the field's name can hide it, not a known value.
	plantedNested = "Zq8vX"
)

// brokenBackend is serve behind a layer that breaks every answer to a
// request with credentials (a status nothing declares) but the token it
// issues, sets a cookie on every answer and puts a secret field deep in
// every JSON object it answers, so that the failures print requests and
// answers full of secrets. tokens are the bearer tokens it issued.
type brokenBackend struct {
	URL    string
	mu     sync.Mutex
	tokens []string
}

func (b *brokenBackend) issued() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.tokens...)
}

func newBrokenBackend(t *testing.T) *brokenBackend {
	t.Helper()
	base, _ := serve(t, noEnv, "--quiet", "--account", "bob:"+plantedPassword, "--jwt-secret", plantedJWTSecret)
	target, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	b := &brokenBackend{}
	rp := httputil.NewSingleHostReverseProxy(target)
	rp.ModifyResponse = func(resp *http.Response) error {
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		resp.Body.Close()
		i := bytes.Index(body, []byte(`"access_token":"`))
		if i >= 0 {
			tok, _, _ := strings.Cut(string(body[i+len(`"access_token":"`):]), `"`)
			b.mu.Lock()
			b.tokens = append(b.tokens, tok)
			b.mu.Unlock()
		}
		req := resp.Request
		if req.Header.Get("Authorization") != "" || (req.Method == http.MethodPost && i < 0) {
			resp.StatusCode, resp.Status = 418, "418 I'm a teapot"
			if bytes.HasPrefix(body, []byte("{")) {
				body = append([]byte(`{"profile":{"settings":{"api_key":"`+plantedNested+`"}},`), body[1:]...)
			}
		}
		resp.Header.Add("Set-Cookie", "session="+plantedCookie+"; Path=/; HttpOnly")
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return nil
	}
	srv := httptest.NewServer(rp)
	t.Cleanup(srv.Close)
	b.URL = srv.URL
	return b
}

// secretsIn lists, for each output, the planted secrets it shows.
func secretsIn(t *testing.T, outputs map[string][]byte, tokens []string) {
	t.Helper()
	secrets := map[string]string{
		"password": plantedPassword, "password (URL-encoded)": url.QueryEscape(plantedPassword), "jwt secret": plantedJWTSecret,
		"admin token": plantedAdminToken, "cookie": plantedCookie, "nested secret field": plantedNested,
	}
	for i, tok := range tokens {
		secrets[fmt.Sprintf("bearer token %d", i)] = tok
	}
	for name, out := range outputs {
		for what, s := range secrets {
			if i := bytes.Index(out, []byte(s)); i >= 0 {
				t.Errorf("%s shows the %s %q: …%s…", name, what, s, out[max(0, i-200):min(len(out), i+len(s)+50)])
			}
		}
	}
}

// No output of any command shows a planted secret (the --password, the
// --jwt-secret, the --admin-token, a bearer token in full, a cookie's
// value, a secret field's value deep in a body): `moviemock contract`'s
// reports in every format; `moviemock proxy`'s reports in every format,
// GET /__mock/violations, its journal, its --record files and its log;
// serve's journal and its log. The contract's reproductions read the
// credentials from $MOVIEMOCK_PASSWORD and $MOVIEMOCK_TOKEN.
func TestNoOutputShowsASecret(t *testing.T) {
	broken := newBrokenBackend(t)
	outputs := map[string][]byte{}

	t.Run("contract", func(t *testing.T) {
		dir := t.TempDir()
		for _, format := range []string{"text", "json", "junit", "html"} {
			file := filepath.Join(dir, "report."+format)
			var stdout, stderr strings.Builder
			err := run(context.Background(), []string{"contract", "--base-url", broken.URL, "--spec", broken.URL + "/openapi.json",
				"--username", "bob", "--password", plantedPassword, "--jwt-secret", plantedJWTSecret, "--cookie", "session=" + plantedCookie,
				"--format", format, "--output", file, "--max-response-time", slowOK}, noEnv, &stdout, &stderr)
			if code := exitCode(err, io.Discard); code != 1 {
				t.Fatalf("%s: exit %d (%v), want 1\n%s", format, code, err, stderr.String())
			}
			out, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			outputs["contract's "+format+" report"] = append(append(out, stdout.String()...), stderr.String()...)
		}
		if len(broken.issued()) == 0 {
			t.Fatal("the target issued no token: the run did not log in")
		}
		text := string(outputs["contract's text report"])
		for _, want := range []string{`--data-urlencode "password=$MOVIEMOCK_PASSWORD"`, `-H 'Authorization: Bearer '"$MOVIEMOCK_TOKEN"`, "export MOVIEMOCK_PASSWORD",
			broken.issued()[0][:8] + "…", `"api_key":"[redacted]"`} {
			if !strings.Contains(text, want) {
				t.Errorf("the text report lacks %q", want)
			}
		}
		if t.Failed() {
			t.Logf("text report:\n%s", text)
		}
	})

	t.Run("proxy", func(t *testing.T) {
		admin := []string{"X-Mock-Admin-Token", plantedAdminToken}
		for _, format := range []string{"text", "json", "junit", "html"} {
			dir := t.TempDir()
			report, record := filepath.Join(dir, "report."+format), filepath.Join(dir, "recorded")
			p := startProxy(t, broken.URL, "--quiet=false", "--jwt-secret", plantedJWTSecret, "--admin-token", plantedAdminToken,
				"--record", record, "--report", report, "--format", format)
			token := login(t, p.base, "bob", plantedPassword)
			auth := []string{"Authorization", token, "Cookie", "session=" + plantedCookie}
			mockCall(t, p.base, "GET", "/person/1", "", auth...)
			mockCall(t, p.base, "GET", "/reviews?limit=2", "", auth...)
			mockCall(t, p.base, "GET", "/person/2", "", "Cookie", "session="+plantedCookie) // answered: recorded
			mockCall(t, p.base, "POST", "/auth/login", `{"username":"bob","profile":{"api_key":"`+plantedNested+`"},"password":"`+plantedPassword+`"}`, auth...)
			code, violations := mockCall(t, p.base, "GET", "/__mock/violations", "", admin...)
			if code != 200 || !bytes.Contains(violations, []byte(`"check"`)) {
				t.Fatalf("GET /__mock/violations: %d %s", code, clip(violations))
			}
			code, journal := mockCall(t, p.base, "GET", "/__mock/journal", "", admin...)
			if code != 200 || !bytes.Contains(journal, []byte("/person/1")) {
				t.Fatalf("GET /__mock/journal: %d %s", code, clip(journal))
			}
			p.stop(t)
			out, err := os.ReadFile(report)
			if err != nil {
				t.Fatal(err)
			}
			outputs["proxy's "+format+" report"] = out
			outputs["proxy's /__mock/violations ("+format+" run)"] = violations
			outputs["proxy's /__mock/journal ("+format+" run)"] = journal
			outputs["proxy's log ("+format+" run)"] = []byte(p.out.String() + p.stderr.String())
			files, _ := filepath.Glob(filepath.Join(record, "*"))
			if len(files) == 0 {
				t.Errorf("--record wrote no file into %s", record)
			}
			for _, f := range files {
				b, _ := os.ReadFile(f)
				outputs["proxy's --record file "+filepath.Base(f)+" ("+format+" run)"] = b
			}
			if !bytes.Contains(violations, []byte(`Bearer '\"$MOVIEMOCK_TOKEN\"`)) {
				t.Errorf("GET /__mock/violations: the reproductions do not read $MOVIEMOCK_TOKEN:\n%s", violations)
			}
		}
	})

	t.Run("serve", func(t *testing.T) {
		base, log := serveLogged(t, "--account", "bob:"+plantedPassword, "--jwt-secret", plantedJWTSecret, "--admin-token", plantedAdminToken)
		admin := []string{"X-Mock-Admin-Token", plantedAdminToken}
		token := login(t, base, "bob", plantedPassword)
		auth := []string{"Authorization", token, "Cookie", "session=" + plantedCookie}
		mockCall(t, base, "GET", "/person/1", "", auth...)
		mockCall(t, base, "GET", "/reviews?limit=2", "", auth...)
		mockCall(t, base, "POST", "/auth/login", `{"username":"bob","profile":{"api_key":"`+plantedNested+`"},"password":"`+plantedPassword+`"}`, auth...)
		code, journal := mockCall(t, base, "GET", "/__mock/journal", "", admin...)
		if code != 200 || !bytes.Contains(journal, []byte(`"api_key":"[redacted]"`)) {
			t.Errorf("GET /__mock/journal: %d %s", code, clip(journal))
		}
		outputs["serve's /__mock/journal"] = journal
		// The request log is written out every logInterval: wait for the
		// line of the last request, the journal's, so that every request's
		// line is in what is checked.
		for deadline := time.Now().Add(30 * time.Second); !strings.Contains(log.String(), "path=/__mock/journal ") && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
		outputs["serve's log"] = []byte(log.String())
		for _, path := range []string{"/person/1", "/reviews", "/auth/login", "/__mock/journal"} {
			if !strings.Contains(log.String(), "path="+path+" ") {
				t.Errorf("serve logged no request for %s:\n%s", path, log.String())
			}
		}
	})

	secretsIn(t, outputs, broken.issued())
}

// serveLogged starts serve with args, logging requests, and returns its
// base URL and what it writes.
func serveLogged(t *testing.T, args ...string) (string, *lockedBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := &lockedBuffer{}
	done := make(chan error, 1)
	go func() { done <- run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), noEnv, out, out) }()
	t.Cleanup(func() { cancel(); <-done })
	re := regexp.MustCompile(`on http://(127\.0\.0\.1:\d+)`)
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			return "http://" + m[1], out
		}
	}
	t.Fatalf("serve did not start:\n%s", out.String())
	return "", nil
}
