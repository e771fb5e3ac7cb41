package browser_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/moviemock/moviemock/internal/browser"
)

func TestMain(m *testing.M) {
	code := m.Run()
	browser.Close()
	os.Exit(code)
}

// A page on loopback reaches loopback, and nothing else: a host name and an
// address beyond loopback both fail in the browser, and the tab records
// that the page asked for them.
func TestOnlyLoopback(t *testing.T) {
	ctx := browser.New(t)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/ping" {
			w.Header().Set("Access-Control-Allow-Origin", "*")
			fmt.Fprint(w, "pong")
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><title>t</title>`)
	}))
	defer ts.Close()

	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL)); err != nil {
		t.Fatal(err)
	}
	probe := func(u string) string {
		t.Helper()
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](
			// The timeout only catches a hang: a loaded machine may take
			// seconds to answer /ping; a refused request fails at once.
			fmt.Sprintf(`fetch(%q, {signal: AbortSignal.timeout(60000)}).then(r => r.text(), e => e.name + ": " + e.message)`, u),
			chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got := probe(ts.URL + "/ping"); got != "pong" {
		t.Errorf("loopback: %q, want pong", got)
	}
	outside := []string{"http://example.com/x", "http://93.184.215.14/y", "https://[2606:4700::1]/z"}
	for _, u := range outside {
		if got := probe(u); got != "TypeError: Failed to fetch" {
			t.Errorf("%s: %q, want a network error", u, got)
		}
	}
	if got := browser.Offsite(ctx); !slices.Equal(got, outside) {
		t.Errorf("Offsite = %q, want %q", got, outside)
	}
}

func TestLoopback(t *testing.T) {
	for u, want := range map[string]bool{
		"http://127.0.0.1:8000/docs":                     true,
		"http://127.1.2.3/":                              true,
		"http://[::1]:80/":                               true,
		"http://localhost:5173/":                         true,
		"data:text/plain,x":                              true,
		"file:///tmp/contract-report.html":               true,
		"file://server/share/report.html":                false,
		"https://fonts.googleapis.com/css?family=Roboto": false,
		"http://10.0.0.1/":                               false,
		"http://127.0.0.1.nip.io/":                       false,
	} {
		if got := browser.Loopback(u); got != want {
			t.Errorf("Loopback(%q) = %v, want %v", u, got, want)
		}
	}
}
