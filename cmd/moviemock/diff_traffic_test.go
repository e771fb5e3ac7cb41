package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// diff --traffic marks the changes with the calls of the committed HAR,
// --fail-on breaking-used fails only on a breaking change a call hits, and
// a recording that cannot be read is refused naming it (exit 2).
func TestDiffTraffic(t *testing.T) {
	t.Parallel()
	old := "../../testdata/contracts/movies/openapi.json"
	changes := "../../testdata/changes/movies/"
	har := "../../testdata/traffic/movies-page.har"
	bad := filepath.Join(t.TempDir(), "bad.har")
	os.WriteFile(bad, []byte(`{"log":{"entries":[{"request":{"method":"GET","url":7}}]}}`), 0o644)
	// The page's recording as a dev server's proxy would have it: the API
	// under /api.
	page, err := os.ReadFile(har)
	if err != nil {
		t.Fatal(err)
	}
	prefixed := filepath.Join(t.TempDir(), "prefixed.har")
	os.WriteFile(prefixed, regexp.MustCompile(`(http://127\.0\.0\.1:\d+)/(auth|movies|users|reviews)`).ReplaceAll(page, []byte("$1/api/$2")), 0o644)
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr string
	}{
		{"a breaking change the page uses", []string{old, changes + "movie_poster_removed.json", "--traffic", har, "--fail-on", "breaking-used"}, 1,
			[]string{"hits 2 recorded calls: GET /movies?year=1999&limit=5 (#4, [].poster), GET /movies/tt0137523 (#5, poster)", "RECORDED CALLS (" + har + ", har)", "(--fail-on breaking-used) · 4 operations changed · 2 breaking used · 2 of 6 recorded calls hit a change"}, ""},
		{"a breaking change the page does not use", []string{old, changes + "reviews_list_secured.json", "--traffic", har, "--fail-on", "breaking-used"}, 0,
			[]string{"moviemock diff: PASSED 1 breaking", "0 breaking used · 0 of 6 recorded calls hit a change"}, ""},
		{"the same, failing on any breaking change", []string{old, changes + "reviews_list_secured.json", "--traffic", har}, 1,
			[]string{"moviemock diff: FAILED 1 breaking"}, ""},
		{"every format", []string{old, changes + "login_201.json", "--traffic", har, "--format", "json"}, 1,
			[]string{`"hit_count": 1`, `"breaking_used": 1`, `"traffic": {`, `"unmatched": []`}, ""},
		{"calls under a prefix, unmatched", []string{old, changes + "login_201.json", "--traffic", prefixed}, 1,
			[]string{"6 match no operation of OLD", "no operation: POST /api/auth/login (#3): no path of the contract matches"},
			"warning: 6 of 6 recorded calls match no operation of OLD (first: POST /api/auth/login); if the frontend calls the API under a prefix, give it with --traffic-prefix"},
		{"calls under a prefix, --traffic-prefix", []string{old, changes + "login_201.json", "--traffic", prefixed, "--traffic-prefix", "/api", "--fail-on", "breaking-used"}, 1,
			[]string{"hits 1 recorded call: POST /auth/login (#3)", "0 match no operation of OLD"}, ""},
		{"breaking-used without --traffic", []string{old, changes + "login_201.json", "--fail-on", "breaking-used"}, 2, nil, "--fail-on breaking-used needs --traffic"},
		{"a recording that cannot be read", []string{old, changes + "login_201.json", "--traffic", bad}, 2, nil, "diff: --traffic: " + bad + ": entry 1: request.url: want string, got a JSON number"},
		{"a recording that is not there", []string{old, changes + "login_201.json", "--traffic", bad + ".none"}, 2, nil, "diff: --traffic: read traffic: open " + bad + ".none"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr strings.Builder
			err := run(context.Background(), append([]string{"diff"}, tc.args...), noEnv, &stdout, &stderr)
			if code := exitCode(err, &stderr); code != tc.code {
				t.Fatalf("exit %d (%v), want %d\nstderr: %s\nstdout: %.3000s", code, err, tc.code, stderr.String(), stdout.String())
			}
			for _, want := range tc.stdout {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("stdout lacks %q:\n%.3000s", want, stdout.String())
				}
			}
			if !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr %q lacks %q", stderr.String(), tc.stderr)
			}
		})
	}
}
