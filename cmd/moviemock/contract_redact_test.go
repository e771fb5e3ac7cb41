package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// No report of `moviemock contract` (text, JSON, JUnit, HTML) shows the
// --password, the --jwt-secret or a bearer token the target issued, even
// where cases fail and print their bodies and curl reproductions; the
// reproductions read them from $MOVIEMOCK_PASSWORD and $MOVIEMOCK_TOKEN.
func TestContractReportsRedactSecrets(t *testing.T) {
	const password, jwtSecret = "S3cr3t-CI-pass", "planted-jwt-secret-4711"
	base, _ := serve(t, noEnv, "--quiet", "--account", "bob:"+password, "--jwt-secret", jwtSecret)
	target, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	// A backend that breaks every answer to a request with credentials
	// (a status nothing declares) but the token it issues, so that the
	// failures print requests with the password and the token.
	var mu sync.Mutex
	var tokens []string
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
			mu.Lock()
			tokens = append(tokens, tok)
			mu.Unlock()
		}
		req := resp.Request
		if req.Header.Get("Authorization") != "" || (req.Method == http.MethodPost && i < 0) {
			resp.StatusCode, resp.Status = 418, "418 I'm a teapot"
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return nil
	}
	srv := httptest.NewServer(rp)
	defer srv.Close()
	broken := srv.URL

	dir := t.TempDir()
	reports := map[string][]byte{}
	for _, format := range []string{"text", "json", "junit", "html"} {
		file := filepath.Join(dir, "report."+format)
		var stdout, stderr strings.Builder
		err := run(context.Background(), []string{"contract", "--base-url", broken, "--spec", base + "/openapi.json",
			"--username", "bob", "--password", password, "--jwt-secret", jwtSecret, "--format", format, "--output", file}, noEnv, &stdout, &stderr)
		if code := exitCode(err, io.Discard); code != 1 {
			t.Fatalf("%s: exit %d (%v), want 1\n%s", format, code, err, stderr.String())
		}
		out, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		reports[format] = append(append(out, stdout.String()...), stderr.String()...)
	}
	if len(tokens) == 0 {
		t.Fatal("the target issued no token: the run did not log in")
	}
	secrets := append([]string{password, url.QueryEscape(password), jwtSecret}, tokens...)
	for format, out := range reports {
		for _, s := range secrets {
			if i := bytes.Index(out, []byte(s)); i >= 0 {
				t.Errorf("the %s report shows the secret %q: …%s…", format, s, out[max(0, i-200):min(len(out), i+len(s)+50)])
			}
		}
	}
	text := string(reports["text"])
	for _, want := range []string{`--data-urlencode "password=$MOVIEMOCK_PASSWORD"`, `-H 'Authorization: Bearer '"$MOVIEMOCK_TOKEN"`, "export MOVIEMOCK_PASSWORD", tokens[0][:8] + "…"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text report lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("text report:\n%s", text)
	}
}
