package reference

import (
	"bufio"
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// appFiles are the reference apps and the modules they share; Start writes
// them all to a fresh directory and runs the chosen one.
//
//go:embed app/*.py
var appFiles embed.FS

// Environment variables the package reads.
const (
	// EnvStack names the directory of a FastAPI stack to run instead of
	// the vendored one, testdata/fastapi-stack under the module root.
	EnvStack = "MOVIEMOCK_FASTAPI_STACK"
	// EnvRequire, set to 1, makes a missing stack a test failure rather
	// than a skip. CI sets it.
	EnvRequire = "MOVIEMOCK_REQUIRE_REFERENCE"
)

// PipInstall is the one command a machine with python3 (3.10 or later)
// runs to give it what the vendored FastAPI stack does not hold: pydantic 2
// and PyYAML, and click, which uvicorn imports, at the versions the
// committed answers were made with. The README and docs/development.md
// quote it, and a test that finds one missing skips saying it.
const PipInstall = "python3 -m pip install 'pydantic==2.13.4' 'PyYAML==6.0.3' 'click==8.4.0'"

// StackDir is the vendored FastAPI stack, from the module root: FastAPI,
// Starlette, uvicorn, h11, anyio, python-multipart and annotated-doc, pure
// Python and unchanged (its README.md, VERSIONS.txt and licenses/).
const StackDir = "testdata/fastapi-stack"

// DefaultSecret is the HS256 secret the backend signs with unless Options
// says otherwise: the mock's public development secret.
const DefaultSecret = "moviemock-development-secret-do-not-use-in-production"

// startTimeout bounds a start, from exec to the first answer. A start takes
// about a second on an idle 2-core machine; a loaded one can be much slower.
const startTimeout = 90 * time.Second

// The apps Start runs, named by Options.App.
const (
	// AppMain is app/main.py, the backend of the embedded contract
	// openapi.yaml.
	AppMain = ""
	// AppMovies is app/movies.py, the Movie and Review Service grown:
	// the contract testdata/contracts/movies.
	AppMovies = "movies"
	// AppTasks is app/tasks.py, an unrelated CRUD API: the contract
	// testdata/contracts/tasks.
	AppTasks = "tasks"
	// AppMovies2 is app/movies2.py, the Movie and Review Service grown
	// another way (client-chosen ids, reaction counters, undeclared 409s):
	// the contract testdata/contracts/movies2.
	AppMovies2 = "movies2"
)

// ContractApps are the apps with a contract of their own under
// testdata/contracts: openapi.json (the document the app serves) and
// fixtures/ (the records it loads).
func ContractApps() []string { return []string{AppMovies, AppTasks, AppMovies2} }

// ContractDir is the absolute path of testdata/contracts/<app>, the
// contract of one of ContractApps.
func ContractDir(app string) (string, error) {
	if !slices.Contains(ContractApps(), app) {
		return "", fmt.Errorf("reference app %q has no contract of its own (want one of %q)", app, ContractApps())
	}
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "testdata", "contracts", app), nil
}

// Options configures a backend. The zero value is the backend as the mock
// runs by default: main.py on the repository's fixtures/data, public reads,
// CORS for any origin with credentials.
type Options struct {
	App           string   // AppMain (""), AppMovies, AppTasks or AppMovies2
	Fixtures      string   // fixture directory; default fixtures/data for AppMain, else testdata/contracts/<App>/fixtures
	RequireAuth   bool     // AppMain only: the three reads depend on get_current_user
	CORSOrigins   []string // allow_origins; default ["*"]
	ExposeHeaders []string // expose_headers; default none
	NoCORS        bool     // no CORSMiddleware at all (the mock's --no-cors)
	TestRoutes    bool     // GET /__reference/crash and /__reference/http500
	Secret        string   // HS256 secret (AppMain, AppMovies, AppMovies2); default DefaultSecret
	// Bug switches on deliberate bugs of AppMovies or AppMovies2 by
	// name, e.g. "create_200", or several comma-separated (the BUGS table
	// in app/movies.py or app/movies2.py); "" runs the correct app. The app refuses to start with a name it does not know.
	Bug string
	// Change makes changes to the contract of AppMovies or AppTasks by
	// name, e.g. "movie_poster_removed", or several comma-separated (the
	// CHANGES table in app/movies.py or app/tasks.py): the app then serves
	// the next version of its contract, testdata/changes/<App>/<name>.json,
	// and answers by it. "" serves testdata/contracts/<App>. The app
	// refuses to start with a name it does not know.
	Change string
}

// Backend is a running reference backend.
type Backend struct {
	URL  string // http://127.0.0.1:PORT
	Addr string // 127.0.0.1:PORT

	log func() string // the app's output so far
}

// Reset restores the records the backend loaded at start, and its id
// counters, with POST /__reference/reset: AppMovies and AppTasks only
// (main.py never changes its data).
func (b *Backend) Reset(t testing.TB) {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Post(b.URL+"/__reference/reset", "", nil)
	if err != nil {
		t.Fatalf("reset reference backend: %v", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("reset reference backend: %s %s", resp.Status, body)
	}
}

// Log returns what uvicorn and the application wrote so far (the last
// 256 KiB): start-up lines and tracebacks. The access log is off.
func (b *Backend) Log() string { return b.log() }

// probe is what Available found out, once per process.
type probe struct {
	python   string // the interpreter itself, not a pyenv shim
	stack    string
	versions string
	reason   string // why the backend cannot run; "" if it can
}

var (
	probeOnce   sync.Once
	probeResult probe
)

// probeScript prints, as JSON, what the backend needs from python3.
const probeScript = `
import json, sys
out = {"python": sys.executable, "version": "%d.%d.%d" % sys.version_info[:3], "ok310": sys.version_info >= (3, 10)}
def attempt(key, fn):
    try:
        out[key] = fn()
    except Exception as e:
        out[key + "_error"] = "%s: %s" % (type(e).__name__, e)
attempt("pydantic", lambda: __import__("pydantic").VERSION)
attempt("yaml", lambda: __import__("yaml").__version__)
attempt("click", lambda: __import__("click").__name__)
attempt("fastapi", lambda: __import__("fastapi").__version__)
attempt("starlette", lambda: __import__("starlette").__version__)
attempt("uvicorn", lambda: __import__("uvicorn").__version__)
attempt("multipart", lambda: __import__("python_multipart").__version__)
print(json.dumps(out))
`

func runProbe() probe {
	python, err := exec.LookPath("python3")
	if err != nil {
		return probe{reason: "python3 is not on PATH: install Python 3.10 or later (e.g. apt-get install python3), then " + PipInstall}
	}
	stack, err := stackDir()
	if err != nil {
		return probe{reason: err.Error()}
	}
	cmd := exec.Command(python, "-c", probeScript)
	cmd.Env = append(os.Environ(), "PYTHONPATH="+stack, "PYTHONDONTWRITEBYTECODE=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return probe{reason: fmt.Sprintf("python3 (%s) failed to run: %v: %s", python, err, strings.TrimSpace(stderr.String()))}
	}
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		return probe{reason: fmt.Sprintf("python3 (%s) printed %q: %v", python, out, err)}
	}
	str := func(k string) string { s, _ := got[k].(string); return s }
	switch {
	case got["ok310"] != true:
		return probe{reason: fmt.Sprintf("python3 (%s) is Python %s; FastAPI and the reference app need 3.10 or later", python, str("version"))}
	case str("pydantic") == "":
		return probe{reason: fmt.Sprintf("python3 (%s) cannot import pydantic (%s): %s", python, str("pydantic_error"), PipInstall)}
	case !strings.HasPrefix(str("pydantic"), "2."):
		return probe{reason: fmt.Sprintf("python3 (%s) has pydantic %s; FastAPI's current answers need pydantic 2: %s", python, str("pydantic"), PipInstall)}
	case str("yaml") == "":
		return probe{reason: fmt.Sprintf("python3 (%s) cannot import yaml (%s): %s", python, str("yaml_error"), PipInstall)}
	case str("click") == "":
		return probe{reason: fmt.Sprintf("python3 (%s) cannot import click, which uvicorn needs (%s): %s", python, str("click_error"), PipInstall)}
	}
	for _, pkg := range []string{"fastapi", "starlette", "uvicorn", "multipart"} {
		if str(pkg) == "" {
			return probe{reason: fmt.Sprintf("the FastAPI stack at %s does not import %s (%s); set %s to a directory holding fastapi, starlette, uvicorn, h11, anyio, python_multipart and annotated_doc", stack, pkg, str(pkg+"_error"), EnvStack)}
		}
	}
	if p := str("python"); p != "" {
		python = p
	}
	return probe{
		python: python,
		stack:  stack,
		versions: fmt.Sprintf("FastAPI %s, Starlette %s, uvicorn %s, python-multipart %s, pydantic %s, PyYAML %s, Python %s",
			str("fastapi"), str("starlette"), str("uvicorn"), str("multipart"), str("pydantic"), str("yaml"), str("version")),
	}
}

// stackDir is $MOVIEMOCK_FASTAPI_STACK when set, else the vendored stack,
// StackDir under the module root.
func stackDir() (string, error) {
	if dir := os.Getenv(EnvStack); dir != "" {
		if !isDir(filepath.Join(dir, "fastapi")) {
			return "", fmt.Errorf("%s=%s holds no fastapi package: point it at the vendored FastAPI stack (fastapi, starlette, uvicorn, h11, anyio, python_multipart, annotated_doc)", EnvStack, dir)
		}
		return filepath.Abs(dir)
	}
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, filepath.FromSlash(StackDir))
	if !isDir(filepath.Join(dir, "fastapi")) {
		return "", fmt.Errorf("the vendored FastAPI stack is not at %s (it is part of the repository: is the checkout whole?); or set %s to a directory holding fastapi, starlette, uvicorn, h11, anyio, python_multipart and annotated_doc", dir, EnvStack)
	}
	return dir, nil
}

// moduleRoot is the directory of moviemock's go.mod: found from this source
// file when it is at hand (always, for go test), else from the working
// directory.
func moduleRoot() (string, error) {
	var starts []string
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		starts = append(starts, filepath.Dir(file))
	}
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	for _, dir := range starts {
		for {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				return dir, nil
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	return "", errors.New("cannot find the module root (go.mod) of moviemock")
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// Available reports whether the reference backend can run here, and if not,
// what is missing and how to get it.
func Available() (reason string, ok bool) {
	probeOnce.Do(func() { probeResult = runProbe() })
	return probeResult.reason, probeResult.reason == ""
}

// Versions names the versions the backend runs on, e.g. "FastAPI 0.141.1,
// Starlette 1.3.1, …"; "" when it cannot run.
func Versions() string {
	Available()
	return probeResult.versions
}

// Require skips the test when the backend cannot run, or fails it when
// MOVIEMOCK_REQUIRE_REFERENCE=1, with the reason either way.
func Require(t testing.TB) {
	t.Helper()
	reason, ok := Available()
	if ok {
		return
	}
	if os.Getenv(EnvRequire) == "1" {
		t.Fatalf("reference backend unavailable (%s=1): %s", EnvRequire, reason)
	}
	t.Skipf("reference backend unavailable: %s", reason)
}

// Stack returns the interpreter and the FastAPI stack's directory, for a
// test that runs a FastAPI script of its own with PYTHONPATH=stack. It
// skips or fails the test as Require does.
func Stack(t testing.TB) (python, stack string) {
	t.Helper()
	Require(t)
	return probeResult.python, probeResult.stack
}

// runningRe is the line uvicorn 0.51 logs once it listens; with --port 0 it
// names the port the kernel chose (uvicorn/server.py, Server.startup).
var runningRe = regexp.MustCompile(`Uvicorn running on http://127\.0\.0\.1:(\d+) `)

// Start runs a reference backend, the app opts.App names, for the test and
// stops it when the test ends. It skips the test (or fails it, see Require) when the stack is
// missing, and fails it when the backend does not answer within 20 s.
func Start(t testing.TB, opts Options) *Backend {
	t.Helper()
	module := "main"
	switch {
	case opts.App == AppMain:
	case slices.Contains(ContractApps(), opts.App):
		module = opts.App
		if opts.RequireAuth {
			t.Fatalf("reference.Options: RequireAuth is for main.py only; %s.py declares its security per operation", opts.App)
		}
	default:
		t.Fatalf("reference.Options: unknown App %q (want %q or one of %q)", opts.App, AppMain, ContractApps())
	}
	if opts.Bug != "" && opts.App != AppMovies && opts.App != AppMovies2 {
		t.Fatalf("reference.Options: Bug %q: deliberate bugs are in %s.py and %s.py only", opts.Bug, AppMovies, AppMovies2)
	}
	if opts.Change != "" && !slices.Contains(ChangeApps(), opts.App) {
		t.Fatalf("reference.Options: Change %q: the changes to a contract are in %s.py and %s.py only", opts.Change, AppMovies, AppTasks)
	}
	Require(t)
	p := probeResult

	dir := t.TempDir()
	if err := writeApps(dir); err != nil {
		t.Fatal(err)
	}
	fixtures := opts.Fixtures
	if fixtures == "" {
		var err error
		if fixtures, err = defaultFixtures(opts.App); err != nil {
			t.Fatal(err)
		}
	}
	fixtures, err := filepath.Abs(fixtures)
	if err != nil {
		t.Fatal(err)
	}

	b := launch(t, p, dir, module+":app", backendEnv(p.stack, dir, fixtures, opts))
	t.Logf("reference backend %s.py at %s (%s)", module, b.URL, p.versions)
	return b
}

// App is any FastAPI application, such as an app of the external corpus:
// the `app` of a Python module, run as it is (nothing of the reference apps'
// own settings is passed).
type App struct {
	Dir    string   // where Python finds Module
	Module string   // the module whose `app` to serve, e.g. docs_src.body.tutorial001_py310
	Env    []string // NAME=value settings of the app's own
	// Requires are the modules it needs beyond the stack, from Debian's
	// python3-* packages (jwt, passlib, sqlalchemy): see systemModules.
	Requires []string
}

// StartApp runs app and stops it when the test ends. It skips the test, or
// fails it as Require does, when the stack or a module app requires is
// missing, saying which and how to get it.
func StartApp(t testing.TB, app App) *Backend {
	t.Helper()
	Require(t)
	p := probeResult
	dir, err := filepath.Abs(app.Dir)
	if err != nil {
		t.Fatal(err)
	}
	extra := systemModules(t, p, app.Requires)
	return startForked(t, p, dir, app.Module+":app", append(appEnv(p.stack, dir), app.Env...), extra)
}

// systemPackagesDir is where Debian's python3-* packages install. A python3
// of its own (pyenv, a virtual environment) does not look there, and must
// not see all of it: Debian's older anyio, h11 or email-validator (1.3,
// which makes `import fastapi` fail under pydantic 2.13) would change the
// stack.
const systemPackagesDir = "/usr/lib/python3/dist-packages"

// systemModules returns a directory, for the end of the app's sys.path,
// that links to just the modules it requires from systemPackagesDir; "" when
// it requires none. It skips or fails the test (see Require) when one is
// not there.
func systemModules(t testing.TB, p probe, modules []string) string {
	t.Helper()
	if len(modules) == 0 {
		return ""
	}
	dir := t.TempDir()
	var missing []string
	for _, m := range modules {
		linked := false
		for _, name := range []string{m, m + ".py"} {
			if _, err := os.Stat(filepath.Join(systemPackagesDir, name)); err == nil {
				linked = os.Symlink(filepath.Join(systemPackagesDir, name), filepath.Join(dir, name)) == nil
				break
			}
		}
		if !linked {
			missing = append(missing, m)
		}
	}
	if len(missing) > 0 {
		reason := fmt.Sprintf("%s holds no %s (apt-get install %s)", systemPackagesDir, strings.Join(missing, ", "), debianNames(missing))
		if os.Getenv(EnvRequire) == "1" {
			t.Fatalf("%s=1: %s", EnvRequire, reason)
		}
		t.Skip(reason)
	}
	cmd := exec.Command(p.python, "-c", fmt.Sprintf("import sys; sys.path.append(%s)\nfor m in %s: __import__(m)", strconv.Quote(dir), pyList(modules)))
	cmd.Env = appEnv(p.stack, dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("python3 (%s) cannot import %s from %s: %v\n%s", p.python, strings.Join(modules, ", "), systemPackagesDir, err, out)
	}
	return dir
}

// pyList writes strs as a Python list literal.
func pyList(strs []string) string {
	quoted := make([]string, len(strs))
	for i, d := range strs {
		quoted[i] = strconv.Quote(d)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}

// debianNames names the Debian packages of Python modules.
func debianNames(modules []string) string {
	names := make([]string, len(modules))
	for i, m := range modules {
		names[i] = "python3-" + strings.ReplaceAll(m, "_", "-")
	}
	return strings.Join(names, " ")
}

// launch starts uvicorn on target (module:attribute) in dir with env, waits
// until the app answers GET /openapi.json, and stops it when the test ends.
func launch(t testing.TB, p probe, dir, target string, env []string) *Backend {
	t.Helper()
	cmd := exec.Command(p.python, "-m", "uvicorn", target,
		"--host", "127.0.0.1", "--port", "0", "--no-access-log", "--no-use-colors")
	cmd.Dir = dir
	cmd.Env = env
	setProcessGroup(cmd)
	out := &logBuffer{max: 256 << 10}
	cmd.Stdout = out
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatalf("start reference backend: %v", err)
	}

	// Drain stderr to the end, so that uvicorn never blocks on a full pipe,
	// and pick the port out of it on the way.
	port := make(chan string, 1)
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			out.Write([]byte(line + "\n"))
			if m := runningRe.FindStringSubmatch(line); m != nil {
				select {
				case port <- m[1]:
				default:
				}
			}
		}
		io.Copy(out, stderr) // a line over 1 MiB: keep draining
	}()
	exited := make(chan struct{}) // closed once the process is gone
	var waitErr error
	go func() {
		<-drained // Wait closes the pipe: read it to the end first
		waitErr = cmd.Wait()
		close(exited)
	}()

	var once sync.Once
	stop := func() {
		once.Do(func() {
			killProcessGroup(cmd)
			select {
			case <-exited:
			case <-time.After(5 * time.Second):
			}
		})
	}
	reported := false // the output is in a failure message already
	fail := func(format string, args ...any) {
		t.Helper()
		stop()
		reported = true
		t.Fatalf(format+":\n%s", append(args, out.String())...)
	}
	t.Cleanup(func() {
		stop()
		if t.Failed() && !reported {
			t.Logf("reference backend output:\n%s", out.String())
		}
	})

	deadline := time.After(startTimeout)
	var b *Backend
	select {
	case pt := <-port:
		addr := "127.0.0.1:" + pt
		b = &Backend{URL: "http://" + addr, Addr: addr, log: out.String}
	case <-exited:
		fail("reference backend exited before listening (%v)", waitErr)
	case <-deadline:
		fail("reference backend did not listen within %v", startTimeout)
	}

	// uvicorn logs the line once it listens; make sure the app answers.
	client := &http.Client{Timeout: 2 * time.Second}
	for {
		resp, err := client.Get(b.URL + "/openapi.json")
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
			err = fmt.Errorf("GET /openapi.json: %s", resp.Status)
		}
		select {
		case <-exited:
			fail("reference backend exited (%v) after %v", waitErr, err)
		case <-deadline:
			fail("reference backend did not answer within %v (%v)", startTimeout, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
	if d := time.Since(started); d > 10*time.Second {
		t.Logf("%s took %v to start", target, d.Round(time.Millisecond))
	}
	return b
}

// defaultFixtures is the directory an app loads unless Options says
// otherwise: the module's fixtures/data for main.py, the contract's own
// fixtures for the others.
func defaultFixtures(app string) (string, error) {
	if app == AppMain {
		root, err := moduleRoot()
		if err != nil {
			return "", err
		}
		return filepath.Join(root, "fixtures", "data"), nil
	}
	dir, err := ContractDir(app)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "fixtures"), nil
}

// writeApps copies the embedded app/*.py to dir.
func writeApps(dir string) error {
	entries, err := appFiles.ReadDir("app")
	if err != nil {
		return fmt.Errorf("read embedded apps: %w", err)
	}
	for _, e := range entries {
		data, err := appFiles.ReadFile("app/" + e.Name())
		if err != nil {
			return fmt.Errorf("read embedded app %s: %w", e.Name(), err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644); err != nil {
			return fmt.Errorf("write reference app %s: %w", e.Name(), err)
		}
	}
	return nil
}

// appEnv is the process environment of a corpus app: the caller's, minus
// any PYTHONPATH and the reference apps' settings, plus the stack and dir.
func appEnv(stack, dir string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "MOVIEMOCK_REFERENCE_") || strings.HasPrefix(kv, "PYTHONPATH=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "PYTHONPATH="+stack+string(os.PathListSeparator)+dir, "PYTHONUNBUFFERED=1", "PYTHONDONTWRITEBYTECODE=1")
}

// withPythonPath appends dir (if not "") to the PYTHONPATH of env. On
// PYTHONPATH it comes before the interpreter's own packages; only the
// zygote can put it after them.
func withPythonPath(env []string, dir string) []string {
	if dir == "" {
		return env
	}
	env = slices.Clone(env)
	for i, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PYTHONPATH="); ok {
			env[i] = "PYTHONPATH=" + v + string(os.PathListSeparator) + dir
			return env
		}
	}
	return append(env, "PYTHONPATH="+dir)
}

// backendEnv is the process environment of a backend: the caller's, minus
// any setting of the app's own, plus the stack, the app and the options.
func backendEnv(stack, appDir, fixtures string, opts Options) []string {
	env := appEnv(stack, appDir)
	secret := opts.Secret
	if secret == "" {
		secret = DefaultSecret
	}
	env = append(env,
		"MOVIEMOCK_REFERENCE_FIXTURES="+fixtures,
		"MOVIEMOCK_REFERENCE_SECRET="+secret,
	)
	if opts.RequireAuth {
		env = append(env, "MOVIEMOCK_REFERENCE_REQUIRE_AUTH=1")
	}
	if opts.NoCORS {
		env = append(env, "MOVIEMOCK_REFERENCE_CORS=0")
	}
	if len(opts.CORSOrigins) > 0 {
		env = append(env, "MOVIEMOCK_REFERENCE_CORS_ORIGINS="+strings.Join(opts.CORSOrigins, ","))
	}
	if len(opts.ExposeHeaders) > 0 {
		env = append(env, "MOVIEMOCK_REFERENCE_CORS_EXPOSE="+strings.Join(opts.ExposeHeaders, ","))
	}
	if opts.TestRoutes {
		env = append(env, "MOVIEMOCK_REFERENCE_TEST_ROUTES=1")
	}
	if opts.Bug != "" {
		env = append(env, "MOVIEMOCK_REFERENCE_BUG="+opts.Bug)
	}
	if opts.Change != "" {
		env = append(env, "MOVIEMOCK_REFERENCE_CHANGE="+opts.Change)
	}
	return env
}

// logBuffer keeps the last max bytes written to it.
type logBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	if over := len(l.buf) - l.max; over > 0 {
		l.buf = append(l.buf[:0], l.buf[over:]...)
	}
	return len(p), nil
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.buf)
}
