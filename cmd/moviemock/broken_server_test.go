package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/moviemock/moviemock/internal/browser"
	"github.com/moviemock/moviemock/internal/reference"
)

// brokenCause is one deliberate bug of the broken server, and the one
// distinct failure (check on operation) the runner must report for it.
type brokenCause struct {
	bug       string // a name of app/movies.py's BUGS, or one the layer in front plants
	check, op string
}

// brokenCauses are the bugs of the broken server: those of the movies
// reference backend switched on together, and those a layer in front of
// it plants on operations none of them touches.
var brokenCauses = []brokenCause{
	{"token_no_exp", "jwt_wellformed", "login"},
	{"wrong_password_ok", "wrong_credentials_rejected", "login"},
	{"me_wrong_user", "registration_login", "readCurrentUser"},
	{"patch_nulls", "stateful_update", "updateMovie"},
	{"filter_ignored", "paging_and_filters", "listReviews"},
	{"nested_list_leaks", "paging_and_filters", "listMovieReviews"},
	{"list_truncates_content", "list_item_consistency", "listReviews"},
	{"person id as a string", "response_schema_conformance", "getPerson"},
	{"unknown person answered 200", "unknown_id_not_found", "getPerson"},
	{"token_type mac", "token_type_bearer", "login"},
}

// brokenServer starts the movies reference backend with the app's bugs of
// brokenCauses, behind a layer that plants the others.
func brokenServer(t *testing.T) string {
	t.Helper()
	var bugs []string
	for _, c := range brokenCauses {
		if !strings.Contains(c.bug, " ") {
			bugs = append(bugs, c.bug)
		}
	}
	b := reference.Start(t, reference.Options{App: reference.AppMovies, Bug: strings.Join(bugs, ",")})
	target, err := url.Parse(b.URL)
	if err != nil {
		t.Fatal(err)
	}
	person := regexp.MustCompile(`^/person/(\d+)$`)
	rp := httputil.NewSingleHostReverseProxy(target)
	inner := rp.Director
	rp.Director = func(r *http.Request) {
		inner(r)
		r.Header.Del("Accept-Encoding") // plain JSON for ModifyResponse
	}
	rp.ModifyResponse = func(resp *http.Response) error {
		req := resp.Request
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		switch m := person.FindStringSubmatch(req.URL.Path); {
		case m != nil && req.Method == http.MethodGet && resp.StatusCode == http.StatusNotFound:
			// unknown person answered 200
			resp.StatusCode, resp.Status = http.StatusOK, "200 OK"
			body = []byte(`{"id":` + m[1] + `,"name":"Nobody"}`)
		case m != nil && req.Method == http.MethodGet && resp.StatusCode == http.StatusOK:
			// person id as a string
			body = bytes.Replace(body, []byte(`"id":`+m[1]+`,`), []byte(`"id":"`+m[1]+`",`), 1)
		case req.URL.Path == "/auth/login" && resp.StatusCode == http.StatusOK:
			body = bytes.Replace(body, []byte(`"token_type":"bearer"`), []byte(`"token_type":"mac"`), 1) // token_type mac
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return nil
	}
	srv := httptest.NewServer(rp)
	t.Cleanup(srv.Close)
	return srv.URL
}

// contractReportShot is where -screenshot writes the HTML report's
// picture, from the package directory.
var contractReportShot = filepath.Join("..", "..", "docs", "contract-report.png")

// A server broken in N distinct ways at once gets exactly N distinct
// failures, one per cause, in the text report, in JUnit (one failed
// testcase per cause) and in the HTML report, however many checks fail
// for each. With -screenshot the HTML report's picture is saved for the
// docs.
func TestBrokenServerDistinctFailures(t *testing.T) {
	reference.Require(t)
	base := brokenServer(t)
	dir, err := reference.ContractDir(reference.AppMovies)
	if err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(dir, "openapi.json")
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, spec); err == nil {
			spec = rel // as a CI job names it: no machine's path in the picture
		}
	}
	want := map[string]string{} // "check on operation" → the bug
	for _, c := range brokenCauses {
		want[c.check+" on "+c.op] = c.bug
	}

	out := t.TempDir()
	reports := map[string][]byte{}
	for _, format := range []string{"text", "junit", "html"} {
		file := filepath.Join(out, "report."+format)
		var stderr strings.Builder
		err := run(context.Background(), []string{"contract", "--base-url", base, "--spec", spec, "--seed", "1", "--max-response-time", slowOK,
			"--username", "alice", "--password", "wonderland", "--format", format, "--output", file}, noEnv, io.Discard, &stderr)
		if code := exitCode(err, io.Discard); code != 1 {
			t.Fatalf("%s: exit %d (%v), want 1\n%s", format, code, err, stderr.String())
		}
		if reports[format], err = os.ReadFile(file); err != nil {
			t.Fatal(err)
		}
	}
	same := func(format string, got []string) {
		t.Helper()
		var missing, extra []string
		for k := range want {
			if !slices.Contains(got, k) {
				missing = append(missing, k+" ("+want[k]+")")
			}
		}
		seen := map[string]bool{}
		for _, k := range got {
			if want[k] == "" || seen[k] {
				extra = append(extra, k)
			}
			seen[k] = true
		}
		if len(missing) > 0 || len(extra) > 0 {
			t.Errorf("%s: %d distinct failures for %d causes; missing %q, not planted or twice %q", format, len(got), len(want), missing, extra)
		}
	}

	// Text: "N) check — operation METHOD /path — K failures".
	text := string(reports["text"])
	var causes []string
	for _, m := range regexp.MustCompile(`(?m)^(\d+)\) (\S+) — (\S+) `).FindAllStringSubmatch(text, -1) {
		causes = append(causes, m[2]+" on "+m[3])
	}
	same("text", causes)
	m := regexp.MustCompile(`Distinct failures: (\d+) causes of (\d+) failed checks`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("the text report has no distinct failures:\n%s", text)
	}
	t.Logf("%d planted causes: %s distinct failures of %s failed checks", len(brokenCauses), m[1], m[2])

	// JUnit: one failed testcase per cause.
	var suites struct {
		Suites []struct {
			Cases []struct {
				Classname string    `xml:"classname,attr"`
				Failure   *struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(reports["junit"], &suites); err != nil {
		t.Fatal(err)
	}
	causes = nil
	for _, s := range suites.Suites {
		for _, c := range s.Cases {
			if c.Failure != nil {
				op, check, _ := strings.Cut(c.Classname, ".")
				causes = append(causes, check+" on "+op)
			}
		}
	}
	same("junit", causes)

	// HTML: one article.distinct per cause.
	causes = nil
	for _, m := range regexp.MustCompile(`<article class="distinct" id="distinct-\d+" data-check="([^"]+)" data-operation="([^"]+)"`).FindAllStringSubmatch(string(reports["html"]), -1) {
		causes = append(causes, m[1]+" on "+m[2])
	}
	same("html", causes)
	if rows := strings.Count(string(reports["html"]), `<tr><td><a href="#distinct-`); rows != len(causes) {
		t.Errorf("html: the index of distinct failures has %d rows for %d causes", rows, len(causes))
	}
	if t.Failed() {
		t.Logf("text report:\n%s", text)
	}

	shotReport(t, filepath.Join(out, "report.html"))
}

// shotReport opens the HTML report in Chromium at 1280 px and takes a
// picture of its top 1600 px; with -screenshot it is saved for the docs.
func shotReport(t *testing.T, file string) {
	t.Helper()
	ctx := browser.New(t)
	page := (&url.URL{Scheme: "file", Path: filepath.ToSlash(file)}).String()
	do(t, ctx, "open the report", chromedp.EmulateViewport(1280, 1600), chromedp.Navigate(page), chromedp.WaitReady(`#distinct`))
	wctx, cancel := context.WithTimeout(ctx, browserWait)
	defer cancel()
	png, err := chromedp.Run(wctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("screenshot: %d bytes, not a PNG", len(png))
	}
	t.Logf("report screenshot: %d bytes", len(png))
	if !*screenshot {
		return
	}
	if err := os.WriteFile(contractReportShot, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", contractReportShot)
}
