package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/internal/reference"
)

// moviesPageHAR is the page of testdata/traffic (page.js) recorded by
// Chromium against the mock of the movies contract: it logs in, lists the
// movies of 1999, opens the first and its reviews, reads /users/me and
// posts a review.
var moviesPageHAR = filepath.Join(repoRoot, "testdata/traffic/movies-page.har")

// pageChanges are the shape changes the page's calls see under each change
// of the movies contract (testdata/changes/movies), as replay reports them
// with the writes sent; "" is the contract unchanged. A change of the
// contract the page's answers do not show is reported as nothing: the
// movies of 1999 all have a year, so movie_year_nullable shows no null.
var pageChanges = []struct {
	change string
	want   []string
}{
	{"", nil},
	{"movie_poster_removed", []string{
		"#4 GET /movies?year=1999&limit=5: breaking removed [].poster (string → )",
		"#5 GET /movies/tt0137523: breaking removed poster (string → )",
	}},
	{"review_author_removed", []string{
		"#6 GET /movies/tt0137523/reviews: breaking removed [].author (object → )",
		"#10 POST /reviews: breaking removed author (object → )",
	}},
	{"movie_year_nullable", nil},
	{"movie_runtime_float", []string{
		"#4 GET /movies?year=1999&limit=5: breaking type [].runtime (integer → number)",
		"#5 GET /movies/tt0137523: breaking type runtime (integer → number)",
	}},
	{"movies_paged", []string{
		"#4 GET /movies?year=1999&limit=5: breaking type (body) (array → object)",
	}},
	{"login_201", []string{
		"#3 POST /auth/login: breaking status (200 → 201)",
	}},
	{"me_client_header", []string{
		"#8 GET /users/me: breaking status (200 → 422)",
	}},
	{"movie_reviews_sort_required", []string{
		"#6 GET /movies/tt0137523/reviews: breaking status (200 → 422)",
	}},
	{"movie_tagline_added", []string{
		"#4 GET /movies?year=1999&limit=5: info added [].tagline ( → null)",
		"#5 GET /movies/tt0137523: info added tagline ( → null)",
	}},
	{"review_spoiler_added", []string{
		"#10 POST /reviews: info added spoiler ( → boolean)",
		"#6 GET /movies/tt0137523/reviews: info added [].spoiler ( → boolean)",
	}},
	// Changes the page's calls do not touch.
	{"reviews_list_secured", nil},
	{"limit_default_changed", nil},
	{"movie_delete_removed", nil},
	{"reactions_emoji_filter", nil},
}

// pageArgs are replay's flags for the page: its login, and its review
// written again.
var pageArgs = []string{"--username", "alice", "--password", "wonderland", "--allow-writes"}

// Replaying the Chromium-recorded page against the mock of each changed
// contract reports exactly the shape changes the page's calls see.
func TestReplayMoviesPage(t *testing.T) {
	t.Parallel()
	for _, tc := range pageChanges {
		name := tc.change
		if name == "" {
			name = "unchanged"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			doc := filepath.Join(repoRoot, "testdata/contracts/movies/openapi.json")
			if tc.change != "" {
				doc = filepath.Join(repoRoot, "testdata/changes/movies", tc.change+".json")
			}
			base, _ := serve(t, noEnv, "--quiet", "--spec", doc, "--fixtures", changeFixtures(t, tc.change))
			wantCode := exitOK
			if slices.ContainsFunc(tc.want, func(l string) bool { return strings.Contains(l, ": breaking ") }) {
				wantCode = exitFailure
			}
			want := slices.Sorted(slices.Values(tc.want))
			// The recording was made against the base contract: knowing it
			// excuses none of these changes.
			recorded := []string{"--recorded-spec", filepath.Join(repoRoot, "testdata/contracts/movies/openapi.json")}
			for _, extra := range [][]string{nil, recorded} {
				got, code := replayLines(t, append(append([]string{moviesPageHAR, "--base-url", base}, pageArgs...), extra...)...)
				slices.Sort(got)
				if !slices.Equal(got, want) || code != wantCode {
					t.Errorf("replay %q against the mock of %s: exit %d, changes:\n  %s\nwant exit %d:\n  %s", extra, name, code, strings.Join(got, "\n  "), wantCode, strings.Join(want, "\n  "))
				}
			}
		})
	}
}

// The real FastAPI backend of a changed contract shows the page the same
// shape changes as the mock of its document.
func TestReplayMoviesPageReference(t *testing.T) {
	t.Parallel()
	for _, change := range reference.Sample([]string{"movie_poster_removed", "movie_runtime_float", "movies_paged", "login_201"}, 1) {
		t.Run(change, func(t *testing.T) {
			t.Parallel()
			ref := reference.Start(t, reference.Options{App: reference.AppMovies, Change: change})
			doc := filepath.Join(repoRoot, "testdata/changes/movies", change+".json")
			mock, _ := serve(t, noEnv, "--quiet", "--spec", doc, "--fixtures", changeFixtures(t, change))
			fromMock, mockCode := replayLines(t, append([]string{moviesPageHAR, "--base-url", mock}, pageArgs...)...)
			fromApp, appCode := replayLines(t, append([]string{moviesPageHAR, "--base-url", "http://" + ref.Addr}, pageArgs...)...)
			if !slices.Equal(fromApp, fromMock) || appCode != mockCode {
				t.Errorf("%s: the backend shows the page other changes (exit %d):\n  %s\nthan its mock (exit %d):\n  %s", change, appCode, strings.Join(fromApp, "\n  "), mockCode, strings.Join(fromMock, "\n  "))
			}
			// Knowing the contract the page was recorded against excuses
			// none of them.
			recorded := []string{"--recorded-spec", filepath.Join(repoRoot, "testdata/contracts/movies/openapi.json")}
			fromAppRec, appRecCode := replayLines(t, append(append([]string{moviesPageHAR, "--base-url", "http://" + ref.Addr}, pageArgs...), recorded...)...)
			if !slices.Equal(fromAppRec, fromMock) || appRecCode != mockCode {
				t.Errorf("%s: with --recorded-spec the backend shows the page other changes (exit %d):\n  %s\nthan its mock (exit %d):\n  %s", change, appRecCode, strings.Join(fromAppRec, "\n  "), mockCode, strings.Join(fromMock, "\n  "))
			}
		})
	}
}
