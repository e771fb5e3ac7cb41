package main

// The two pages moviemock makes for people, checked in a real Chromium
// (package internal/browser): the control panel at /__mock/, driven as a
// person would (activate a scenario, watch the journal live, copy a
// request as curl), and the contract's HTML report, opened from its file.
// With -screenshot, TestBrowserControlPanel also refreshes the documentation's
// picture of the panel (README.md and docs/scenarios.md show it).

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/moviemock/moviemock/internal/browser"
)

// A test flag, as gofmt's -update is: the documentation's screenshot is refreshed
// on purpose, never by an ordinary test run.
var screenshot = flag.Bool("screenshot", false, "save the control panel's screenshot for the README to testdata/screenshots")

// panelScreenshot is where -screenshot writes, from the package directory.
var panelScreenshot = filepath.Join("..", "..", "testdata", "screenshots", "control-panel.png")

// The panel, as a person uses it: the overview lists the contract and the
// data; activating person-not-found switches the mock for every client;
// the journal shows a request made elsewhere as it happens, and opens it
// as a curl command. Nothing the page loads leaves loopback.
func TestBrowserControlPanel(t *testing.T) {
	t.Parallel()
	ctx := browser.New(t)
	base, _ := serve(t, noEnv, "--quiet")

	// Traffic before the page opens, for the journal to show.
	for _, p := range []string{"/person/1", "/reviews?limit=3", "/reviews/b42bfd96-9925-4da9-8c96-eed6b998b81f", "/person/999"} {
		get(t, base+p)
	}

	do(t, ctx, "open /__mock/",
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(base+"/__mock/"),
	)
	ops := poll[[]string](t, ctx, "the operations", `(() => {
  const rows = [...document.querySelectorAll('#operations tbody tr')];
  return rows.length >= 4 ? rows.map(r => r.dataset.method + ' ' + r.dataset.path) : null;
})()`)
	if !sameSet(ops, contractOps) {
		t.Errorf("operations %v, want %v", ops, contractOps)
	}
	colls := poll[map[string]string](t, ctx, "the collections", `(() => {
  const rows = [...document.querySelectorAll('#collections tbody tr')];
  return rows.length ? Object.fromEntries(rows.map(r => [r.dataset.collection, r.dataset.records])) : null;
})()`)
	if len(colls) == 0 {
		t.Errorf("no collections")
	}
	for name, n := range colls {
		if c, err := strconv.Atoi(n); err != nil || c <= 0 {
			t.Errorf("collection %s: %q records", name, n)
		}
	}
	poll[bool](t, ctx, "the live journal", `document.querySelector('#journal-live[data-state="open"]') !== null`)
	poll[bool](t, ctx, "the journal's earlier entries", `document.querySelectorAll('#journal tbody tr').length >= 4`)

	// Choose the scenario as a person does: the change event shows its
	// rules; then activate it, and wait for the page to say so.
	poll[bool](t, ctx, "person-not-found in the scenario list", `(() => {
  const sel = document.querySelector('#scenario-select');
  if (![...sel.options].some(o => o.value === 'person-not-found')) return false;
  sel.value = 'person-not-found';
  sel.dispatchEvent(new Event('change'));
  return true;
})()`)
	poll[bool](t, ctx, "the scenario's rules", `document.querySelectorAll('#scenario-rules tbody tr').length > 0`)
	do(t, ctx, "activate", chromedp.Click(`#activate`))
	active := poll[string](t, ctx, "the overview to show person-not-found", `(() => {
  const m = document.querySelector('#message');
  if (m.dataset.kind === 'error') throw new Error(m.textContent);
  const a = document.querySelector('#overview-active').textContent;
  return a.startsWith('person-not-found') ? a : '';
})()`)
	t.Logf("active scenario: %s; message: %s", active, eval[string](t, ctx, `document.querySelector('#message').textContent`))

	// Another client, not the page, meets the scenario the page chose.
	if code, body := get(t, base+"/person/1"); code != 404 || strings.TrimSpace(body) != `{"detail":"Person not found"}` {
		t.Fatalf("GET /person/1 after activating in the panel: %d %s; want 404 {\"detail\":\"Person not found\"}", code, body)
	}
	row := `#journal tbody tr[data-path="/person/1"][data-status="404"]`
	do(t, ctx, "the 404 in the live journal", chromedp.WaitVisible(row))
	do(t, ctx, "open the entry", chromedp.Click(row))
	curl := poll[string](t, ctx, "the curl command", `document.querySelector('#curl-command').textContent`)
	if !strings.HasPrefix(curl, "curl '"+base+"/person/1'") {
		t.Errorf("#curl-command = %q; want a curl for %s/person/1", curl, base)
	}
	if title := eval[string](t, ctx, `document.querySelector('#journal-detail-title').textContent`); title != "GET /person/1" {
		t.Errorf("#journal-detail-title = %q", title)
	}
	do(t, ctx, "show copy as curl", chromedp.WaitVisible(`#copy-curl`))

	// The filter hides the other rows and keeps this one.
	do(t, ctx, "filter the journal by path", chromedp.SendKeys(`#journal-filter-path`, "/person/1"))
	if n := poll[int](t, ctx, "the filter", `(() => {
  const rows = [...document.querySelectorAll('#journal tbody tr')];
  const shown = rows.filter(r => !r.hidden);
  return shown.length > 0 && shown.every(r => r.dataset.path === '/person/1') && shown.length < rows.length ? shown.length : 0;
})()`); n != 2 {
		t.Errorf("%d rows for /person/1 after filtering, want 2 (the 200 and the 404)", n)
	}
	eval[bool](t, ctx, `(() => {
  const f = document.querySelector('#journal-filter-path');
  f.value = '';
  f.dispatchEvent(new Event('input'));
  return true;
})()`)

	// The data tab: a collection's records, as served.
	do(t, ctx, "show the data", chromedp.Click(`#data-load`))
	records := poll[int](t, ctx, "the records", `document.querySelectorAll('#data-records tbody tr').length`)
	t.Logf("panel: operations %v, collections %v, %d journal rows, %d records of %s shown",
		ops, colls, eval[int](t, ctx, `document.querySelectorAll('#journal tbody tr').length`), records,
		eval[string](t, ctx, `document.querySelector('#data-collection').value`))

	shotPanel(t, ctx)

	do(t, ctx, "deactivate", chromedp.Click(`#deactivate`))
	poll[bool](t, ctx, "the overview to show none", `document.querySelector('#overview-active').textContent === 'none'`)
	if code, _ := get(t, base+"/person/1"); code != 200 {
		t.Errorf("GET /person/1 after Deactivate: %d, want 200", code)
	}
	if off := browser.Offsite(ctx); len(off) != 0 {
		t.Errorf("the panel asked for %v beyond loopback", off)
	}
}

// shotPanel takes a screenshot of the panel's 1280×900 viewport, scrolled
// to the scenarios so that the journal and its open entry show (the full
// page, with the data's wide table, is 2190×2458 and 450 kB). With
// -screenshot it is saved for the documentation; without, it is only checked, so
// that the tooling is exercised.
func shotPanel(t *testing.T, ctx context.Context) {
	t.Helper()
	eval[bool](t, ctx, `document.querySelector('#scenarios').scrollIntoView(), true`)
	wctx, cancel := context.WithTimeout(ctx, browserWait)
	defer cancel()
	png, err := chromedp.Run(wctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) || len(png) < 10_000 {
		t.Fatalf("screenshot: %d bytes, starting %q; want a PNG of 10 kB or more", len(png), png[:min(8, len(png))])
	}
	t.Logf("screenshot: %d bytes", len(png))
	if !*screenshot {
		return
	}
	if err := os.MkdirAll(filepath.Dir(panelScreenshot), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(panelScreenshot, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", panelScreenshot)
}

// The contract's HTML report of a server that breaks the contract, opened
// from its file as a person does: the summary says FAILED, each failure
// has its curl command, the copy buttons show (its one script ran under
// the page's CSP), and the page asks for nothing beyond loopback.
func TestBrowserHTMLReport(t *testing.T) {
	t.Parallel()
	base, _ := serve(t, noEnv, "--quiet")
	broken := brokenPerson(t, base)

	file := filepath.Join(t.TempDir(), "contract-report.html")
	var stderr strings.Builder
	err := run(context.Background(), []string{"contract", "--base-url", broken, "--format", "html", "--output", file, "--max-response-time", slowOK}, noEnv, io.Discard, &stderr)
	if code := exitCode(err, io.Discard); code != 1 {
		t.Fatalf("contract against the broken server: exit %d (%v), want 1\n%s", code, err, stderr.String())
	}

	ctx := browser.New(t)
	page := (&url.URL{Scheme: "file", Path: filepath.ToSlash(file)}).String()
	do(t, ctx, "open the report", chromedp.Navigate(page), chromedp.WaitReady(`#summary`))
	if !eval[bool](t, ctx, `document.querySelector('#summary').classList.contains('failed')`) {
		t.Errorf("#summary is not .failed")
	}
	line := eval[string](t, ctx, `document.querySelector('#summary-line').textContent`)
	if !strings.HasPrefix(line, "moviemock contract: FAILED") {
		t.Errorf("#summary-line = %q", line)
	}
	n := eval[int](t, ctx, `[...document.querySelectorAll('#failures article.failure')].filter(a => a.querySelector('pre.curl')).length`)
	if n == 0 {
		t.Fatalf("no article.failure with a pre.curl")
	}
	curl := eval[string](t, ctx, `document.querySelector('#failures article.failure pre.curl').textContent`)
	if !strings.HasPrefix(curl, "curl ") || !strings.Contains(curl, broken) {
		t.Errorf("first curl: %q", curl)
	}
	do(t, ctx, "the copy button", chromedp.WaitVisible(`#failures article.failure button.copy`))
	t.Logf("report: %s; %d failures; first: %s", line, n, curl)
	if off := browser.Offsite(ctx); len(off) != 0 {
		t.Errorf("the report asked for %v beyond loopback", off)
	}
}

// brokenPerson serves the mock at base, except that GET /person/{id}
// answers its id as a string: a server that breaks the contract once.
func brokenPerson(t *testing.T, base string) string {
	t.Helper()
	target, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	inner := proxy.Director
	proxy.Director = func(r *http.Request) {
		inner(r)
		// The transport asks for gzip itself and unpacks it, so that
		// ModifyResponse edits plain JSON.
		r.Header.Del("Accept-Encoding")
	}
	proxy.ModifyResponse = func(resp *http.Response) error {
		if !strings.HasPrefix(resp.Request.URL.Path, "/person/") {
			return nil
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return fmt.Errorf("read %s: %w", resp.Request.URL, err)
		}
		b = bytes.Replace(b, []byte(`"id":1,`), []byte(`"id":"1",`), 1)
		resp.Body = io.NopCloser(bytes.NewReader(b))
		resp.ContentLength = int64(len(b))
		resp.Header.Set("Content-Length", strconv.Itoa(len(b)))
		return nil
	}
	ts := httptest.NewServer(proxy)
	t.Cleanup(ts.Close)
	return ts.URL
}

// At 1280×800 the panel never scrolls sideways, whatever the journal
// holds: long paths, queries, header values and bodies wrap or are cut
// with an ellipsis inside their cell, and so do the data's records.
func TestBrowserPanelFitsAt1280(t *testing.T) {
	t.Parallel()
	ctx := browser.New(t)
	base, _ := serve(t, noEnv, "--quiet")
	long := strings.Repeat("abcdefghij", 40)
	for _, p := range []string{"/person/" + long, "/reviews?limit=3&movie_id=" + long, "/" + long + "/" + long} {
		get(t, base+p)
	}
	mockCall(t, base, "POST", "/auth/login", `{"username":"`+long+`","note":"`+strings.Repeat("x", 3000)+`"}`, "X-Long-Header", long)

	do(t, ctx, "open /__mock/", chromedp.EmulateViewport(1280, 800), chromedp.Navigate(base+"/__mock/"))
	poll[bool](t, ctx, "the journal's entries", `document.querySelectorAll('#journal tbody tr').length >= 4`)
	do(t, ctx, "open the long POST", chromedp.Click(`#journal tbody tr[data-path="/auth/login"]`))
	poll[bool](t, ctx, "the entry's body", `document.querySelector('#journal-detail-body').textContent.length > 1000`)
	do(t, ctx, "show the data", chromedp.Click(`#data-load`))
	poll[int](t, ctx, "the records", `document.querySelectorAll('#data-records tbody tr').length`)
	for _, what := range []string{"the journal and the data"} {
		wide := eval[[]string](t, ctx, `(() => {
  const doc = document.documentElement;
  if (doc.scrollWidth <= doc.clientWidth) return [];
  return [doc.scrollWidth + ' > ' + doc.clientWidth].concat([...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > doc.clientWidth + 1)
    .slice(0, 12).map(e => e.tagName + (e.id ? '#' + e.id : '') + '.' + e.className + ' right ' + Math.round(e.getBoundingClientRect().right)));
})()`)
		if len(wide) > 0 {
			t.Errorf("with %s, the page scrolls sideways at 1280 px: %s", what, strings.Join(wide, "; "))
		}
	}
}
