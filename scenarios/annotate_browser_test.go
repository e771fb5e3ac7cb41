package scenarios

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/moviemock/moviemock/internal/browser"
)

func TestMain(m *testing.M) {
	code := m.Run()
	browser.Close() // the one browser every test's tab lived in
	os.Exit(code)
}

// The control panel, in a real Chromium, tags each journal row with who
// answered and marks its violations, those found after the row was shown
// too (the stream's "amended" event), and lists them in the entry's
// detail.
func TestBrowserPanelShowsAnnotations(t *testing.T) {
	t.Parallel()
	e := testEngine(t, Options{Annotate: true})
	answered := make(chan *http.Request, 1)
	app := e.Journaling(e.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing" {
			SetAnsweredBy(r, "mock: the upstream has no such route (404 Not Found)")
		} else {
			SetAnsweredBy(r, "upstream")
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("{}"))
		if r.URL.Path == "/reviews" {
			AddViolations(r, "response_schema_conformance: expected array got object")
		}
		answered <- r
	})))
	admin := e.Admin("")
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, AdminPrefix) {
			admin.ServeHTTP(w, r)
			return
		}
		app.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	// Opened after the server: cleanups run last first, and the server's
	// Close waits for the page's journal stream, which ends with the tab.
	ctx := browser.New(t)
	get := func(path string) *http.Request {
		t.Helper()
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return <-answered
	}

	get("/reviews") // before the page opens
	run(t, ctx, "open the panel", chromedp.EmulateViewport(1280, 900), chromedp.Navigate(ts.URL+"/__mock/"))
	pollJS(t, ctx, "the live journal", `document.querySelector('#journal-live[data-state="open"]') !== null`)
	pollJS(t, ctx, "the first row, tagged", `(() => {
  const tr = document.querySelector('#journal tbody tr[data-seq="1"]');
  return tr && tr.dataset.answeredBy === 'upstream' && tr.dataset.violations === '1' &&
    tr.querySelector('.answered-by').textContent === 'upstream' && tr.querySelector('.violations').textContent === '⚠1';
})()`)

	r := get("/missing") // while the page watches: streamed, then amended
	pollJS(t, ctx, "the second row, tagged mock", `(() => {
  const tr = document.querySelector('#journal tbody tr[data-seq="2"]');
  return tr && tr.dataset.answeredBy === 'mock' && tr.dataset.violations === undefined && !tr.querySelector('.violations');
})()`)
	run(t, ctx, "open the entry", chromedp.Click(`#journal tbody tr[data-seq="2"]`))
	pollJS(t, ctx, "no violations in the detail", `document.querySelector('#journal-detail-violations-box').hidden`)
	AddViolations(r, "status_code_conformance: expected 200 got 404", "response_schema_conformance: expected string got null")
	pollJS(t, ctx, "the amended row, and its detail", `(() => {
  const tr = document.querySelector('#journal tbody tr[data-seq="2"]');
  const items = [...document.querySelectorAll('#journal-detail-violations li')].map(li => li.textContent);
  return tr && tr.dataset.violations === '2' && tr.getAttribute('aria-selected') === 'true' &&
    !document.querySelector('#journal-detail-violations-box').hidden &&
    items.length === 2 && items[0] === 'status_code_conformance: expected 200 got 404' &&
    document.querySelector('#journal-detail-answer').textContent.includes('mock: the upstream has no such route');
})()`)
	if n := len(browser.Offsite(ctx)); n > 0 {
		t.Errorf("the page asked for %d URLs beyond loopback: %v", n, browser.Offsite(ctx))
	}
}

// browserWait bounds each step a test waits for in the browser: a hang's
// bound, which a loaded machine (CI, -race) must never reach.
const browserWait = time.Minute

// run runs chromedp actions with a deadline, failing the test on error.
func run(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, browserWait)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// pollJS waits until the JavaScript expression is true.
func pollJS(t *testing.T, ctx context.Context, what, js string) {
	t.Helper()
	wctx, cancel := context.WithTimeout(ctx, browserWait)
	defer cancel()
	_, err := chromedp.Run(wctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(browserWait), chromedp.WithPollingInterval(50*time.Millisecond)))
	if err != nil {
		text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#journal').innerText.slice(0, 1500) + ' | ' + document.querySelector('#message').textContent`, chromedp.EvalAwaitPromise))
		t.Fatalf("waiting for %s: %v\njournal: %s", what, err, text)
	}
}
