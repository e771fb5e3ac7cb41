package main

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// diff compares two contracts in every format, with the exit codes
// --fail-on asks for, and refuses what it cannot read naming OLD or NEW.
func TestDiff(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	old := filepath.Join(dir, "old.json")
	movies, err := os.ReadFile("../../testdata/contracts/movies/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	movies2 := "../../testdata/contracts/movies2/openapi.json"
	if err := os.WriteFile(old, movies, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/openapi.json" {
			http.NotFound(w, r)
			return
		}
		w.Write(movies)
	}))
	t.Cleanup(srv.Close)
	notDoc := filepath.Join(dir, "notes.txt")
	os.WriteFile(notDoc, []byte("- just\n- a list\n"), 0o644)

	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string // what stdout holds
		stderr string   // what stderr holds
		check  func(t *testing.T, out string)
	}{
		{name: "the same document", args: []string{old, srv.URL + "/openapi.json"}, code: 0,
			stdout: []string{"No change a client can see.", "moviemock diff: PASSED 0 breaking, 0 warnings, 0 info"}},
		{name: "YAML, the embedded contract's source, against itself", args: []string{"../../openapi.yaml", "../../openapi.yaml"}, code: 0,
			stdout: []string{"No change a client can see."}},
		{name: "breaking changes fail by default", args: []string{old, movies2}, code: 1,
			stdout: []string{"BREAKING (", "WARNING (", "INFO (", "  GET /movies\n", "query parameter limit", "why: ", "moviemock diff: FAILED"}},
		{name: "--fail-on never", args: []string{old, movies2, "--fail-on", "never"}, code: 0,
			stdout: []string{"moviemock diff: PASSED"}},
		{name: "JSON", args: []string{"--format", "json", old, movies2}, code: 1, check: func(t *testing.T, out string) {
			var r struct {
				FailOn  string `json:"fail_on"`
				Failed  bool   `json:"failed"`
				Summary struct{ Breaking, Warning, Info int }
				Changes []struct{ ID, Level, Method, Path, Where, Why, Text string }
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatal(err)
			}
			if !r.Failed || r.FailOn != "breaking" || r.Summary.Breaking == 0 || len(r.Changes) != r.Summary.Breaking+r.Summary.Warning+r.Summary.Info {
				t.Errorf("summary %+v, failed %v, %d changes", r.Summary, r.Failed, len(r.Changes))
			}
			for _, c := range r.Changes {
				if c.ID == "" || c.Level == "" || c.Why == "" || c.Text == "" {
					t.Errorf("incomplete change %+v", c)
				}
			}
		}},
		{name: "JUnit", args: []string{"--format", "junit", old, movies2, "--fail-on", "warning"}, code: 1, check: func(t *testing.T, out string) {
			var s struct {
				Tests    int `xml:"tests,attr"`
				Failures int `xml:"failures,attr"`
				Suites   []struct {
					Cases []struct {
						Name    string `xml:"name,attr"`
						Failure *struct {
							Message string `xml:"message,attr"`
						} `xml:"failure"`
					} `xml:"testcase"`
				} `xml:"testsuite"`
			}
			if err := xml.Unmarshal([]byte(out), &s); err != nil {
				t.Fatal(err)
			}
			if s.Tests == 0 || s.Failures == 0 || len(s.Suites) != 1 || len(s.Suites[0].Cases) != s.Tests {
				t.Fatalf("tests %d, failures %d", s.Tests, s.Failures)
			}
			if c := s.Suites[0].Cases[0]; !strings.Contains(c.Name, " /") {
				t.Errorf("testcase %q is not an operation", c.Name)
			}
		}},
		{name: "HTML", args: []string{"--format", "html", old, movies2}, code: 1,
			stdout: []string{"<!DOCTYPE html>", `<section id="summary" class="failed">`, `<section id="breaking">`, "moviemock diff: FAILED", "Content-Security-Policy"}},
		{name: "past --max-changes: partial, its verdict of what was seen", args: []string{old, movies2, "--max-changes", "1"}, code: 1,
			stdout: []string{"moviemock diff: FAILED 1 breaking", "1 operation changed · PARTIAL: stopped collecting past 1 change (--max-changes 1)"}},
		{name: "a negative --max-changes", args: []string{old, movies2, "--max-changes", "-1"}, code: 2, stderr: "--max-changes -1"},
		{name: "one document", args: []string{old}, code: 2, stderr: "give two documents"},
		{name: "an unknown --fail-on", args: []string{old, movies2, "--fail-on", "info"}, code: 2, stderr: "--fail-on"},
		{name: "an unknown format", args: []string{old, movies2, "--format", "xml"}, code: 2, stderr: "--format"},
		{name: "NEW missing", args: []string{old, filepath.Join(dir, "none.json")}, code: 2, stderr: "diff: NEW " + filepath.Join(dir, "none.json")},
		{name: "OLD not a contract", args: []string{notDoc, old}, code: 2, stderr: "diff: OLD: parse " + notDoc},
		{name: "NEW by URL that fails", args: []string{old, srv.URL + "/missing"}, code: 2, stderr: "diff: NEW: " + srv.URL + "/missing answered 404"},
		{name: "OLD past --max-spec-bytes", args: []string{old, old, "--max-spec-bytes", "1KiB"}, code: 2, stderr: "diff: OLD " + old + ": the document is more than 1024 bytes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr strings.Builder
			err := run(context.Background(), append([]string{"diff"}, tc.args...), noEnv, &stdout, &stderr)
			code := exitCode(err, &stderr)
			if code != tc.code {
				t.Fatalf("exit %d (%v), want %d\nstderr: %s", code, err, tc.code, stderr.String())
			}
			for _, want := range tc.stdout {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("stdout lacks %q:\n%.2000s", want, stdout.String())
				}
			}
			if !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr %q lacks %q", stderr.String(), tc.stderr)
			}
			if tc.check != nil {
				tc.check(t, stdout.String())
			}
		})
	}
}

// --output writes the report to a file and tells on stderr where, with
// the summary line.
func TestDiffOutput(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "changes.html")
	var stdout, stderr strings.Builder
	err := run(context.Background(), []string{"diff", "--format", "html", "--output", file,
		"../../testdata/contracts/movies/openapi.json", "../../testdata/contracts/movies2/openapi.json"}, noEnv, &stdout, &stderr)
	if code := exitCode(err, io.Discard); code != 1 {
		t.Fatalf("exit %d (%v), want 1", code, err)
	}
	if stdout.Len() != 0 || !strings.Contains(stderr.String(), "report written to "+file) || !strings.Contains(stderr.String(), "moviemock diff: FAILED") {
		t.Errorf("stdout %q, stderr %q", stdout.String(), stderr.String())
	}
	if page, err := os.ReadFile(file); err != nil || !strings.HasSuffix(string(page), "</html>\n") {
		t.Errorf("page: %v %.100q", err, page)
	}
}
