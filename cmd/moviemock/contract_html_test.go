package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// --format html --output FILE writes one self-contained page: against the
// mock it says PASSED, against a broken server it lists the failures with
// their curl commands, and the exit codes are those of the other formats.
func TestContractHTMLReport(t *testing.T) {
	base, _ := serve(t, noEnv, "--quiet")
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":"<script>alert(1)</script>"}`))
	}))
	defer broken.Close()
	summary := regexp.MustCompile(`<pre id="summary-line">(moviemock contract: [^<]*)</pre>`)

	for _, tc := range []struct {
		name, base string
		args       []string
		code       int
		want       []string
	}{
		{"the mock", base, nil, 0, []string{`<section id="summary" class="passed">`, "moviemock contract: PASSED", "None: every check passed."}},
		{"a broken server", broken.URL, []string{"--person-id", "1"}, 1, []string{
			`<section id="summary" class="failed">`, "moviemock contract: FAILED", `class="failure"`,
			`<pre class="curl" id="curl-1">curl -i`, "response_schema_conformance", "&lt;script&gt;alert(1)&lt;/script&gt;",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "contract-report.html")
			var stdout, stderr strings.Builder
			args := append([]string{"contract", "--base-url", tc.base, "--format", "html", "--output", file, "--max-response-time", slowOK}, tc.args...)
			err := run(context.Background(), args, noEnv, &stdout, &stderr)
			if code := exitCode(err, io.Discard); code != tc.code {
				t.Fatalf("exit %d (%v), want %d\n%s", code, err, tc.code, stderr.String())
			}
			if stdout.Len() != 0 || !strings.Contains(stderr.String(), "report written to "+file) {
				t.Errorf("stdout %q, stderr %q", stdout.String(), stderr.String())
			}
			page, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			s := string(page)
			if !strings.HasPrefix(s, "<!DOCTYPE html>\n<html") || !strings.HasSuffix(s, "</html>\n") {
				t.Errorf("not an HTML page: %.80q … %.20q", s, s[max(0, len(s)-20):])
			}
			for _, want := range tc.want {
				if !strings.Contains(s, want) {
					t.Errorf("the page lacks %q", want)
				}
			}
			if strings.Contains(s, "<script>alert") {
				t.Error("the target's <script> is in the page unescaped")
			}
			if m := summary.FindStringSubmatch(s); m == nil || !strings.HasPrefix(m[1], "moviemock contract: ") {
				t.Error("no summary line")
			}
		})
	}
}
