// Package browser gives tests a tab of a real, headless Chromium, so that
// what the mock promises a browser page (CORS, the /docs and /redoc pages,
// the faults of scenarios as fetch() sees them) is checked in one.
//
// One browser process serves every test of a test binary, each test in a
// tab of its own: starting Chromium costs far more than a tab. The browser
// talks to the test over a pipe (it listens on no port), keeps a fresh
// temporary profile, and reaches nothing beyond loopback: host names
// resolve to nothing but 127.0.0.1, and every other address goes to a
// proxy on a closed loopback port. Each tab records the requests its pages
// tried beyond loopback (Offsite), blocked as they are.
//
// A machine without Chromium skips the tests that need it, saying why,
// unless MOVIEMOCK_REQUIRE_BROWSER=1 (CI), where it fails them. It is not a
// browser automation library: chromedp is that.
package browser

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// EnvPath names a browser binary to use instead of looking one up on PATH.
const EnvPath = "MOVIEMOCK_CHROMIUM"

// EnvRequire, set to 1, turns a missing browser from a skip into a failure.
const EnvRequire = "MOVIEMOCK_REQUIRE_BROWSER"

// names are the binaries looked up on PATH, in order.
var names = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// Find returns the browser binary: $MOVIEMOCK_CHROMIUM, else the first of
// chromium, chromium-browser, google-chrome on PATH.
func Find() (string, error) {
	if p := os.Getenv(EnvPath); p != "" {
		path, err := exec.LookPath(p)
		if err != nil {
			return "", fmt.Errorf("$%s=%q: %w", EnvPath, p, err)
		}
		return path, nil
	}
	for _, name := range names {
		if path, err := exec.LookPath(name); err == nil {
			return path, nil
		}
	}
	return "", fmt.Errorf("no browser: $%s is unset and none of %s is on PATH", EnvPath, strings.Join(names, ", "))
}

// shared is the browser process of the test binary, started by the first
// New and ended by Close.
var shared struct {
	mu      sync.Mutex
	browser context.Context // the first tab's context, which owns the process
	cancel  func()
	err     error
}

// start starts the shared browser once; a failure is kept, so that every
// test reports it rather than each trying again.
func start() (context.Context, error) {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.browser != nil || shared.err != nil {
		return shared.browser, shared.err
	}
	path, err := Find()
	if err != nil {
		shared.err = err
		return nil, err
	}
	deadProxy, err := closedLoopbackPort()
	if err != nil {
		shared.err = err
		return nil, err
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		// CI runs as root, where Chromium refuses to start with its sandbox.
		chromedp.NoSandbox,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		// Nothing beyond loopback: names resolve to nothing but 127.0.0.1,
		// and a request to any other address (an IP literal needs no
		// name) goes to a proxy on a loopback port nothing listens on.
		// Chromium never proxies loopback (its implicit bypass rules).
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"),
		chromedp.ProxyServer("http://"+deadProxy),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("no-pings", true),
	)
	// No UserDataDir: the allocator makes a fresh temporary profile and
	// removes it when the browser ends.
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelBrowser := chromedp.NewContext(allocCtx)
	// The first Do starts the process; this context's tab stays open
	// (about:blank) for as long as the browser runs.
	if err := chromedp.Do(ctx); err != nil {
		cancelBrowser()
		cancelAlloc()
		shared.err = fmt.Errorf("start %s: %w", path, err)
		return nil, shared.err
	}
	shared.browser = ctx
	shared.cancel = func() { cancelBrowser(); cancelAlloc() }
	return ctx, nil
}

// closedLoopbackPort is an address on 127.0.0.1 that nothing listens on
// (it did a moment ago, and port numbers are not handed out again at once).
func closedLoopbackPort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("pick a closed loopback port: %w", err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr, nil
}

// Close ends the shared browser and removes its profile. Call it from
// TestMain after m.Run; without it the kernel ends the browser with the
// test binary (chromedp starts it with Pdeathsig), leaving its profile in
// the temporary directory.
func Close() {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.cancel != nil {
		shared.cancel()
	}
	shared.browser, shared.cancel = nil, nil
	shared.err = errors.New("browser closed")
}

// New opens a tab in the shared browser and returns its context, for
// chromedp.Run; the tab closes when the test ends. Without a browser the
// test is skipped, or fails when MOVIEMOCK_REQUIRE_BROWSER=1.
func New(t testing.TB) context.Context {
	t.Helper()
	browser, err := start()
	if err != nil {
		if os.Getenv(EnvRequire) == "1" {
			t.Fatalf("%v (%s=1: the browser tests must run)", err, EnvRequire)
		}
		t.Skipf("%v; install Chromium or set $%s to run the browser tests", err, EnvPath)
	}
	tab, cancel := chromedp.NewContext(browser)
	t.Cleanup(cancel)
	rec := &recorder{}
	ctx := context.WithValue(tab, recorderKey{}, rec)
	err = chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok && !Loopback(e.Request.URL) {
			rec.add(e.Request.URL)
		}
	})
	if err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("open a tab: network events: %v", err)
	}
	return ctx
}

// Offsite lists the URLs the pages of the tab of ctx (from New) asked for
// beyond loopback, in order. The browser let none of them out.
func Offsite(ctx context.Context) []string {
	rec, _ := ctx.Value(recorderKey{}).(*recorder)
	if rec == nil {
		return nil
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]string(nil), rec.urls...)
}

// Loopback says whether a request URL stays on this machine: a loopback
// address, or a URL with no host (data:, blob:, about:, a local file:).
func Loopback(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	switch u.Scheme {
	case "data", "blob", "about", "javascript":
		return true
	case "file":
		// file:///path is this machine's; file://host/path names a share
		// on another (Chromium on Windows reads it over SMB).
		return u.Host == "" || u.Host == "localhost"
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

type recorderKey struct{}

type recorder struct {
	mu   sync.Mutex
	urls []string
}

func (r *recorder) add(u string) {
	r.mu.Lock()
	r.urls = append(r.urls, u)
	r.mu.Unlock()
}
