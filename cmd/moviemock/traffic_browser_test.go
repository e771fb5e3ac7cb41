package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/moviemock/moviemock/internal/browser"
	"github.com/moviemock/moviemock/internal/golden"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/internal/traffic"
)

// pageHAR is the recording of testdata/traffic/page.html's calls to the
// mock of the movies contract, as Chromium's DevTools saves it: the
// frontend's traffic that diff --traffic and replay read in their tests.
const pageHAR = "../../testdata/traffic/movies-page.har"

// The page of testdata/traffic, served from an origin of its own as a dev
// server serves a frontend, logs in, lists, opens a movie and its reviews,
// reads /users/me and writes a review through CORS; Chromium records it.
// With -update the recording is rewritten; without, the recorder must
// still see the committed file's calls (method, path, status: ids, ports
// and times are whatever they were), and what traffic.Load skips of it.
func TestBrowserRecordHAR(t *testing.T) {
	t.Parallel()
	contract := "../../testdata/contracts/movies/"
	base, _ := serve(t, noEnv, "--quiet", "--spec", contract+"openapi.json", "--fixtures", contract+"fixtures")
	front := httptest.NewServer(http.FileServer(http.Dir("../../testdata/traffic")))
	t.Cleanup(front.Close)

	ctx := browser.New(t)
	rec, err := browser.RecordHAR(ctx)
	if err != nil {
		t.Fatal(err)
	}
	do(t, ctx, "open the page", chromedp.Navigate(front.URL+"/page.html?api="+base))
	type result struct {
		OK               bool
		Error, Movie, Me string
		Movies, Reviews  int
		Review           string
	}
	got := poll[*result](t, ctx, "the page's calls", `window.result`)
	if !got.OK || got.Movies == 0 || got.Me != "alice" || got.Review == "" {
		t.Fatalf("the page: %+v", got)
	}
	sctx, cancel := context.WithTimeout(ctx, browserWait)
	defer cancel()
	if err := rec.Settle(sctx, 200*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	har, err := rec.JSON()
	if err != nil {
		t.Fatal(err)
	}
	recorded := harCalls(t, har, "the recording")
	want := []string{
		"call POST /auth/login 200",
		"call GET /movies 200",
		"call GET /movies/{movie_id} 200",
		"call GET /movies/{movie_id}/reviews 200",
		"call GET /users/me 200",
		"call POST /reviews 201",
	}
	if calls := onlyCalls(recorded); strings.Join(calls, "\n") != strings.Join(want, "\n") {
		t.Errorf("the recording's calls:\n%s\nwant:\n%s", strings.Join(calls, "\n"), strings.Join(want, "\n"))
	}
	// The mock's journal of the same visit reads as the same calls, the
	// preflights skipped, each with the answer's body, secrets blanked.
	_, journal := get(t, base+"/__mock/journal")
	jsrc, err := traffic.Load(strings.NewReader(journal), "journal.json", traffic.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	var jcalls []string
	for _, mt := range traffic.Match(jsrc, moviesModel(t)) {
		if mt.Op == nil || !mt.Call.ResponseKept || !strings.HasPrefix(mt.Call.ResponseType, "application/json") {
			t.Errorf("journal: %s: op %v, response kept %v (%q)", mt.Call, mt.Op, mt.Call.ResponseKept, mt.Call.ResponseType)
			continue
		}
		jcalls = append(jcalls, fmt.Sprintf("call %s %s %d", mt.Call.Method, mt.Op.Path, mt.Call.Status))
		if mt.Op.Path == "/auth/login" && !strings.Contains(string(mt.Call.Response), `"access_token":"[redacted]"`) {
			t.Errorf("journal: the login's answer %s shows its token", mt.Call.Response)
		}
	}
	if strings.Join(jcalls, "\n") != strings.Join(want, "\n") || len(jsrc.Skipped) != 2 {
		t.Errorf("the journal's calls:\n%s\nskipped %v", strings.Join(jcalls, "\n"), jsrc.Skipped)
	}

	if golden.Updating() {
		if err := os.WriteFile(pageHAR, append(har, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	committed, err := os.ReadFile(pageHAR)
	if err != nil {
		t.Fatal(err)
	}
	if c := harCalls(t, committed, pageHAR); strings.Join(c, "\n") != strings.Join(recorded, "\n") {
		t.Errorf("the recorder now sees:\n%s\n%s has:\n%s\n(go test ./cmd/moviemock -run TestBrowserRecordHAR -update rewrites it)", strings.Join(recorded, "\n"), pageHAR, strings.Join(c, "\n"))
	}
}

// harCalls lists a HAR's entries as traffic.Load reads them: each call as
// method, contract path and status, each skipped entry with its reason.
func harCalls(t *testing.T, har []byte, name string) []string {
	t.Helper()
	src, err := traffic.Load(bytes.NewReader(har), name, traffic.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if src.Creator != "WebInspector 537.36" {
		t.Errorf("%s: creator %q", name, src.Creator)
	}
	m := moviesModel(t)
	out := make([]string, len(src.Calls)+len(src.Skipped))
	for _, mt := range traffic.Match(src, m) {
		path := mt.Call.Path
		if mt.Op != nil {
			path = mt.Op.Path
		}
		out[mt.Call.Index-1] = fmt.Sprintf("call %s %s %d", mt.Call.Method, path, mt.Call.Status)
	}
	for _, s := range src.Skipped {
		u := s.URL
		if i := strings.Index(u, "://"); i >= 0 {
			u = u[i+3:]
			u = u[strings.IndexByte(u, '/'):]
		}
		u, _, _ = strings.Cut(u, "?")
		if strings.HasPrefix(u, "/movies/") || strings.HasPrefix(u, "/reviews/") {
			u = "…" // the id of a preflight's target
		}
		out[s.Index-1] = fmt.Sprintf("skip %s %s: %s", s.Method, u, s.Reason)
	}
	return out
}

func onlyCalls(lines []string) []string {
	var out []string
	for _, l := range lines {
		if strings.HasPrefix(l, "call ") {
			out = append(out, l)
		}
	}
	return out
}

// moviesModel is the compiled movies contract.
func moviesModel(t *testing.T) *model.Model {
	t.Helper()
	data, err := os.ReadFile("../../testdata/contracts/movies/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(data, "openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Compile(sp)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
