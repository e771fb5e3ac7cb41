package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// pageCall is one call a page makes; {token} in a header is the token its
// login got, {created} in a path the id of the record its last write
// created.
type pageCall struct {
	method, path, contentType, body string
	header                          []string // name, value, …
}

// moviesPage is what a small page does with the movies contract: log in,
// list movies, open one and its reviews, read the user, post a review,
// read it back.
var moviesPage = []pageCall{
	{method: "POST", path: "/auth/login", contentType: "application/x-www-form-urlencoded", body: "grant_type=password&username=alice&password=wonderland"},
	{method: "GET", path: "/movies?limit=5"},
	{method: "GET", path: "/movies/tt0137523"},
	{method: "GET", path: "/movies/tt0137523/reviews"},
	{method: "GET", path: "/users/me", header: []string{"Authorization", "Bearer {token}"}},
	{method: "POST", path: "/reviews", contentType: "application/json", body: `{"movie_id":"tt0137523","content":"Still great."}`, header: []string{"Authorization", "Bearer {token}"}},
	{method: "GET", path: "/reviews/{created}"},
}

// recordHAR makes the calls against base as a browser would and writes
// what it saw as a HAR file, as Chromium saves one.
func recordHAR(t *testing.T, base string, calls []pageCall) string {
	t.Helper()
	type nv struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	}
	var entries []any
	token, created := "", ""
	for _, c := range calls {
		path := strings.ReplaceAll(c.path, "{created}", created)
		req, err := http.NewRequest(c.method, base+path, strings.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Accept", "application/json")
		if c.contentType != "" {
			req.Header.Set("Content-Type", c.contentType)
		}
		for i := 0; i+1 < len(c.header); i += 2 {
			req.Header.Set(c.header[i], strings.ReplaceAll(c.header[i+1], "{token}", token))
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var answer map[string]any
		if json.Unmarshal(body, &answer) == nil {
			if tok, ok := answer["access_token"].(string); ok {
				token = tok
			}
			if id, ok := answer["id"]; ok && c.method == "POST" {
				created = fmt.Sprint(id)
			}
		}
		var headers []nv
		for name, vs := range req.Header {
			for _, v := range vs {
				headers = append(headers, nv{name, v})
			}
		}
		request := map[string]any{"method": c.method, "url": base + path, "httpVersion": "HTTP/1.1", "headers": headers}
		if c.body != "" {
			request["postData"] = map[string]any{"mimeType": c.contentType, "text": c.body}
		}
		entries = append(entries, map[string]any{
			"request":  request,
			"response": map[string]any{"status": resp.StatusCode, "content": map[string]any{"mimeType": resp.Header.Get("Content-Type"), "text": string(body)}},
		})
	}
	data, err := json.Marshal(map[string]any{"log": map[string]any{"version": "1.2", "entries": entries}})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "page.har")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// changeFixtures is the fixture directory the mock of the movies contract
// changed by change serves: the records the change migrates
// (testdata/changes/movies/fixtures/<change>/), else the contract's own.
func changeFixtures(t *testing.T, change string) string {
	t.Helper()
	if change != "" {
		dir := filepath.Join(repoRoot, "testdata/changes/movies/fixtures", change)
		if _, err := os.Stat(dir); err == nil {
			return dir
		}
	}
	return filepath.Join(repoRoot, "testdata/contracts/movies/fixtures")
}

// replayLines runs moviemock replay and gives each call's outcome as a
// line: "#3 GET /movies/tt0137523: breaking removed: poster (was
// string|null)", and the exit code.
func replayLines(t *testing.T, args ...string) ([]string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), append([]string{"replay", "--format", "json"}, args...), noEnv, &stdout, &stderr)
	code := exitCode(err, &stderr)
	var report struct {
		Calls []struct {
			Index                 int
			Method, Path, Skipped string
			Changes               []struct{ Level, Kind, Path, Was, Now string }
		}
	}
	if code == exitUsage {
		t.Fatalf("replay %q: exit 2: %s", args, stderr.String())
	}
	if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
		t.Fatalf("replay %q: %v\n%s", args, err, stdout.String())
	}
	var lines []string
	for _, c := range report.Calls {
		head := fmt.Sprintf("#%d %s %s: ", c.Index, c.Method, c.Path)
		if c.Skipped != "" {
			lines = append(lines, head+"skipped")
			continue
		}
		for _, ch := range c.Changes {
			where := ch.Path
			if where == "" && ch.Kind != "status" && ch.Kind != "content-type" {
				where = "(body)"
			}
			lines = append(lines, strings.Replace(fmt.Sprintf("%s%s %s %s (%s → %s)", head, ch.Level, ch.Kind, where, ch.Was, ch.Now), "  ", " ", 1))
		}
	}
	return lines, code
}

func TestReplayCommandUsage(t *testing.T) {
	t.Parallel()
	up := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(up.Close)
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	har := filepath.Join(t.TempDir(), "empty.har")
	if err := os.WriteFile(har, []byte(`{"log":{"version":"1.2","entries":[]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string // in the error
	}{
		{"no recording", []string{"--base-url", up.URL}, "name one recording"},
		{"two recordings", []string{har, har, "--base-url", up.URL}, "name one recording"},
		{"no base URL", []string{har}, "--base-url URL is required"},
		{"a base URL that is no http URL", []string{har, "--base-url", "ftp://x"}, "give an http(s) URL"},
		{"an unknown --fail-on", []string{har, "--base-url", up.URL, "--fail-on", "info"}, "--fail-on"},
		{"a username without a password", []string{har, "--base-url", up.URL, "--username", "alice"}, "together"},
		{"an unknown format", []string{har, "--base-url", up.URL, "--format", "xml"}, "--format"},
		{"an unreadable recording", []string{filepath.Join(t.TempDir(), "none.har"), "--base-url", up.URL}, "none.har"},
		{"a target nothing answers at", []string{har, "--base-url", down.URL}, "unreachable"},
		{"an unreadable recorded contract", []string{har, "--base-url", up.URL, "--recorded-spec", filepath.Join(t.TempDir(), "base.json")}, "--recorded-spec"},
		{"a recorded contract that is no contract", []string{har, "--base-url", up.URL, "--recorded-spec", har}, "--recorded-spec"},
		{"a recorded contract over --max-spec-bytes", []string{har, "--base-url", up.URL, "--max-spec-bytes", "1KiB", "--recorded-spec", filepath.Join(repoRoot, "testdata/contracts/movies/openapi.json")}, "--recorded-spec"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var stderr bytes.Buffer
			err := run(context.Background(), append([]string{"replay"}, tc.args...), noEnv, io.Discard, &stderr)
			var ue *usageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want a usage error saying %q", err, tc.want)
			}
		})
	}
}

func TestReplayCommand(t *testing.T) {
	t.Parallel()
	old, _ := serve(t, noEnv, "--quiet", "--spec", filepath.Join(repoRoot, "testdata/contracts/movies/openapi.json"), "--fixtures", filepath.Join(repoRoot, "testdata/contracts/movies/fixtures"))
	har := recordHAR(t, old, moviesPage)
	same, _ := serve(t, noEnv, "--quiet", "--spec", filepath.Join(repoRoot, "testdata/contracts/movies/openapi.json"), "--fixtures", filepath.Join(repoRoot, "testdata/contracts/movies/fixtures"))
	login := []string{"--username", "alice", "--password", "wonderland"}
	tests := []struct {
		name     string
		target   string
		args     []string
		want     []string
		wantCode int
	}{
		{
			name: "the same contract, reads only: the read of the review not written is skipped", target: same, args: login,
			want: []string{"#6 POST /reviews: skipped", "#7 GET /reviews/6200ba5e-9519-4c23-87ef-93e912da9ad2: skipped"}, wantCode: exitOK,
		},
		{
			// The recording's server: the review written again gets
			// another id, which the read after it uses.
			name: "the same contract and server, writes too", target: old, args: append([]string{"--allow-writes"}, login...),
			wantCode: exitOK,
		},
		{
			name: "no login: the calls with a token are skipped", target: same,
			want: []string{"#1 POST /auth/login: skipped", "#5 GET /users/me: skipped", "#6 POST /reviews: skipped", "#7 GET /reviews/6200ba5e-9519-4c23-87ef-93e912da9ad2: skipped"}, wantCode: exitOK,
		},
		{
			name: "a wrong password: the login's status changed", target: same, args: []string{"--username", "alice", "--password", "not-wonderland"},
			want: []string{
				"#1 POST /auth/login: breaking status (200 → 401)",
				"#5 GET /users/me: skipped", "#6 POST /reviews: skipped", "#7 GET /reviews/6200ba5e-9519-4c23-87ef-93e912da9ad2: skipped",
			},
			wantCode: exitFailure,
		},
		{
			name: "a wrong password, --fail-on never", target: same, args: []string{"--username", "alice", "--password", "not-wonderland", "--fail-on", "never"},
			want: []string{
				"#1 POST /auth/login: breaking status (200 → 401)",
				"#5 GET /users/me: skipped", "#6 POST /reviews: skipped", "#7 GET /reviews/6200ba5e-9519-4c23-87ef-93e912da9ad2: skipped",
			},
			wantCode: exitOK,
		},
	}
	// A journal of serve holds the same calls, their answers' bodies with
	// the secrets blanked.
	journaled, _ := serve(t, noEnv, "--quiet", "--spec", filepath.Join(repoRoot, "testdata/contracts/movies/openapi.json"), "--fixtures", filepath.Join(repoRoot, "testdata/contracts/movies/fixtures"))
	recordHAR(t, journaled, moviesPage)
	status, body := get(t, journaled+"/__mock/journal")
	if status != http.StatusOK {
		t.Fatalf("GET /__mock/journal: %d %s", status, body)
	}
	journal := filepath.Join(t.TempDir(), "journal.json")
	if err := os.WriteFile(journal, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("a journal of serve, writes too", func(t *testing.T) {
		got, code := replayLines(t, append([]string{journal, "--base-url", journaled, "--allow-writes"}, login...)...)
		if len(got) != 0 || code != exitOK {
			t.Errorf("replay of the journal: exit %d, changes:\n  %s", code, strings.Join(got, "\n  "))
		}
	})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, code := replayLines(t, append([]string{har, "--base-url", tc.target}, tc.args...)...)
			if !slices.Equal(got, tc.want) || code != tc.wantCode {
				t.Errorf("replay: exit %d, calls:\n  %s\nwant exit %d:\n  %s", code, strings.Join(got, "\n  "), tc.wantCode, strings.Join(tc.want, "\n  "))
			}
		})
	}
}

// A target that serves no /openapi.json is replayed without a contract,
// and stderr says so.
func TestReplayWithoutContract(t *testing.T) {
	t.Parallel()
	up := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(up.Close)
	har := filepath.Join(t.TempDir(), "empty.har")
	if err := os.WriteFile(har, []byte(`{"log":{"version":"1.2","entries":[]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"replay", har, "--base-url", up.URL}, noEnv, &stdout, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	want := "moviemock: replay: no contract (" + up.URL + "/openapi.json answered 404 Not Found): a login is known by its form (username and password) at a login's path\n"
	if stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
	if !strings.Contains(stdout.String(), "moviemock replay: PASSED: no shape change in 0 calls replayed") {
		t.Errorf("stdout:\n%s", stdout.String())
	}
}
