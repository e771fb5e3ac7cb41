package corpus

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/moviemock/moviemock/internal/reference"
)

var update = flag.Bool("update", false, "rewrite testdata/corpus/*/known.json with the failures of this run")

// The invariants, as known.json names them.
const (
	invServe = "serve" // `moviemock serve --spec` starts on the app's document
	invMock  = "mock"  // `moviemock contract` passes against that mock
	invApp   = "app"   // `moviemock contract` passes against the real app
	invSame  = "same"  // the mock answers FastAPI's own answers byte for byte
	// invChanges: when `moviemock diff` finds no breaking change from the
	// app's predecessor (see predecessors) to it, the predecessor's
	// contract checks pass against it as they pass against the
	// predecessor itself.
	invChanges = "changes"
)

var invariants = []string{invServe, invMock, invApp, invSame}

// runTimeout bounds one moviemock command against one app.
const runTimeout = 3 * time.Minute

// manifest is a corpus's apps.json, written by its refresh.py.
type manifest struct {
	Apps []corpusApp `json:"apps"`
}

type corpusApp struct {
	Name   string   `json:"name"`   // the app's name; its document is openapi/<name>.json
	Module string   `json:"module"` // the Python module whose `app` it is
	Dir    string   `json:"dir"`    // where Python finds Module, relative to the corpus ("" for the corpus itself)
	Env    []string `json:"env"`    // NAME=value settings the app reads
	Args   []string `json:"args"`   // more flags for `moviemock contract` (credentials)
	// Requires are the Python modules the app imports beyond the FastAPI
	// stack (from Debian's python3-* packages): without them it is skipped.
	Requires []string `json:"requires"`
	// Bugs name single-bug versions of the app (CORPUS_BUG=name starts
	// one): the runner must fail each, as "bug:name" in known.json.
	Bugs []string `json:"bugs"`
	// OpenAPIURL is where the app serves its document, when not at
	// /openapi.json; "" for nowhere.
	OpenAPIURL *string `json:"openapi_url"`

	// old is the app's predecessor, the OLD of the change to it (see
	// predecessors); nil for none.
	old *corpusApp
}

// predecessors sets each app's predecessor: the app before it, in name
// order, among the apps of the same topic (the name up to ".tutorial": the
// successive versions of one example of FastAPI's documentation), when
// their documents differ. An `_an_` app is the same API written with
// Annotated: its document is the same bytes (for every one today), so the change is
// from the app before the pair.
func predecessors(t *testing.T, dir string, apps []corpusApp) {
	order := make([]int, len(apps))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int { return strings.Compare(apps[i].Name, apps[j].Name) })
	doc := func(a corpusApp) []byte {
		data, err := os.ReadFile(filepath.Join(dir, "openapi", a.Name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	for k := 1; k < len(order); k++ {
		old, app := &apps[order[k-1]], &apps[order[k]]
		i := strings.Index(app.Name, ".tutorial")
		if i <= 0 || !strings.HasPrefix(old.Name, app.Name[:i+len(".tutorial")]) {
			continue
		}
		if bytes.Equal(doc(*old), doc(*app)) {
			continue
		}
		o := *old
		app.old = &o
	}
}

// change is what the corpus found of the change from an app's predecessor
// to it.
type change struct {
	old      string
	breaking []string // the ids of the breaking changes `moviemock diff` finds
	diffErr  string   // diff did not answer: why
	against  verdict  // the predecessor's contract run against the app
	took     time.Duration
}

// checks are the keys of checkApp's result for a: the invariants, then a
// "bug:name" for each of its single-bug versions.
func (a corpusApp) checks() []string {
	keys := slices.Clone(invariants)
	if a.old != nil {
		keys = append(keys, invChanges)
	}
	for _, b := range a.Bugs {
		keys = append(keys, "bug:"+b)
	}
	return keys
}

// known is a corpus's known.json: app → invariant → why it fails.
type known map[string]map[string]failure

// failure is why one invariant fails on one app, as known.json keeps it.
type failure struct {
	// Kind says whose it is: kindApp, kindAppCode or kindGap.
	Kind string `json:"kind"`
	// Why says what the app does, in words someone wrote; -update fills
	// in the run's summary until they do.
	Why string `json:"why"`
	// Found is what failed, compared on every run: the runner's failing
	// checks (mock, app), or the requests whose answers differ (same).
	// A run that finds anything else fails.
	Found []string `json:"found,omitempty"`
}

// The kinds of known failure.
const (
	// kindApp: the app breaks its own document, and Found is the
	// runner's right finding (an undeclared status, a crash).
	kindApp = "app breaks its document"
	// kindAppCode: the answer comes from the app's own code, which the
	// document does not express (a custom error handler, a validator, a
	// redirect target); no mock of the document can know it.
	kindAppCode = "app code the document does not say"
	// kindGap: moviemock falls short; to be fixed.
	kindGap = "moviemock falls short"
	// kindLoosened (changes): the successor accepts or answers what the
	// predecessor refused (a bound or a required parameter dropped, an
	// error status gone); its predecessor's checks of those refusals fail,
	// rightly by the predecessor's word, but no client that followed the
	// predecessor is broken, and diff calls the change safe.
	kindLoosened = "successor accepts what its predecessor refused"
)

// outcome is what checkApp found for one invariant.
type outcome struct {
	failure string   // "" when it held, else why not
	found   []string // what failed, as failure.Found keeps it
	blocked string   // why it could not be checked: an earlier one failed
}

func moduleRoot(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the source file")
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// binary builds cmd/moviemock once per test process. The corpus runs the
// binary, not run(), so that each app's mock is a process of its own, as a
// user starts it.
var binary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "moviemock-corpus-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "moviemock")
	_, file, _, _ := runtime.Caller(0)
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/moviemock")
	cmd.Dir = filepath.Join(filepath.Dir(file), "..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/moviemock: %v\n%s", err, out)
	}
	return bin, nil
})

func TestCorpus(t *testing.T) {
	if reference.RaceEnabled {
		t.Skip("the corpus runs the moviemock binary, which -race does not instrument: go test without -race runs it")
	}
	if testing.Short() {
		t.Skip("-short: the corpus runs hundreds of apps")
	}
	reference.Require(t)
	bin, err := binary()
	if err != nil {
		t.Fatal(err)
	}
	dirs, err := filepath.Glob(filepath.Join(moduleRoot(t), "testdata", "corpus", "*", "apps.json"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no corpus under testdata/corpus (%v)", err)
	}
	for _, m := range dirs {
		dir := filepath.Dir(m)
		t.Run(filepath.Base(dir), func(t *testing.T) { checkCorpus(t, bin, dir) })
	}
}

func checkCorpus(t *testing.T, bin, dir string) {
	var man manifest
	readJSON(t, filepath.Join(dir, "apps.json"), &man)
	want := known{}
	if _, err := os.Stat(filepath.Join(dir, "known.json")); err == nil {
		readJSON(t, filepath.Join(dir, "known.json"), &want)
	}
	for name := range want {
		if !slices.ContainsFunc(man.Apps, func(a corpusApp) bool { return a.Name == name }) {
			t.Errorf("known.json names %s, which apps.json does not list", name)
		}
	}

	predecessors(t, dir, man.Apps)
	var mu sync.Mutex
	got := map[string]map[string]outcome{}
	own := map[string]verdict{}    // each app's contract run against itself
	changes := map[string]change{} // by the app changed to
	t.Run("apps", func(t *testing.T) {
		for _, app := range man.Apps {
			t.Run(app.Name, func(t *testing.T) {
				t.Parallel()
				res, correct, ch := checkApp(t, bin, dir, app)
				mu.Lock()
				got[app.Name] = res
				own[app.Name] = correct
				if app.old != nil {
					changes[app.Name] = ch
				}
				mu.Unlock()
				if *update {
					return
				}
				for _, inv := range app.checks() {
					if inv == invChanges {
						continue // needs the predecessor's own run: below
					}
					if msg := compare(inv, res[inv], want[app.Name]); msg != "" {
						t.Errorf("%s: %s", app.Name, msg)
					}
				}
			})
		}
	})
	pairs := checkChanges(t, man.Apps, want, got, own, changes)
	passing, bugs, caught := map[string]int{}, 0, 0
	for _, res := range got {
		for _, inv := range invariants {
			if res[inv].failure == "" && res[inv].blocked == "" {
				passing[inv]++
			}
		}
	}
	for _, app := range man.Apps {
		if res, ran := got[app.Name]; ran {
			for _, b := range app.Bugs {
				bugs++
				if res["bug:"+b].failure == "" {
					caught++
				}
			}
		}
	}
	kinds := map[string]int{}
	for _, reasons := range want {
		for _, f := range reasons {
			kinds[f.Kind]++
		}
	}
	t.Logf("%s: %d apps; passing serve %d, mock %d, app %d, same %d; single-bug versions caught %d of %d; known failures: %d %s, %d %s, %d %s, %d %s",
		filepath.Base(dir), len(got), passing[invServe], passing[invMock], passing[invApp], passing[invSame], caught, bugs,
		kinds[kindApp], kindApp, kinds[kindAppCode], kindAppCode, kinds[kindGap], kindGap, kinds[kindLoosened], kindLoosened)
	if pairs.checked > 0 {
		t.Logf("%s: %d changes from an app to its successor checked: diff finds breaking changes in %d; "+
			"the predecessor's checks fail against the successor in %d of those and in %d where diff finds none; "+
			"%d agree; their runs took %s in all",
			filepath.Base(dir), pairs.checked, pairs.breaking, pairs.bothBreak, pairs.missed, pairs.checked-pairs.missed-(pairs.breaking-pairs.bothBreak),
			pairs.took.Round(time.Second))
	}
	if *update {
		writeKnown(t, filepath.Join(dir, "known.json"), want, got)
	}
}

// compare checks one invariant's outcome against known.json's entry for
// the app, and says what is wrong ("" if nothing).
func compare(inv string, o outcome, listed map[string]failure) string {
	f, isListed := listed[inv]
	switch {
	case o.failure != "" && !isListed:
		return fmt.Sprintf("fails %q (%s):\n%s", inv, describe(inv), o.failure)
	case o.failure == "" && isListed && o.blocked == "":
		return fmt.Sprintf("known.json lists %q as failing (%s) but it passes: take it off the list", inv, f.Why)
	case o.failure != "" && !slices.Equal(o.found, f.Found):
		return fmt.Sprintf("%q fails otherwise than known.json says (%s):\nfinds %q\nlisted %q\n%s",
			inv, f.Why, o.found, f.Found, o.failure)
	}
	return ""
}

// writeKnown rewrites known.json with this run's failures, keeping the
// kind and reason someone wrote while the failure stays the same.
func writeKnown(t *testing.T, path string, was known, got map[string]map[string]outcome) {
	out := known{}
	for name, reasons := range was {
		if _, ran := got[name]; !ran {
			out[name] = reasons // skipped or stopped: nothing learnt
		}
	}
	for name, res := range got {
		if f, listed := was[name][invChanges]; listed {
			if _, checked := res[invChanges]; !checked {
				// The predecessor did not run: nothing learnt.
				out[name] = map[string]failure{invChanges: f}
			}
		}
		for inv, o := range res {
			if o.failure == "" {
				continue
			}
			if out[name] == nil {
				out[name] = map[string]failure{}
			}
			f, ok := was[name][inv]
			if !ok || !slices.Equal(f.Found, o.found) {
				f = failure{Kind: kindGap, Why: firstLines(o.failure, 3), Found: o.found}
			}
			out[name][inv] = f
		}
	}
	data, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

func describe(check string) string {
	switch check {
	case invServe:
		return "moviemock serve --spec starts on the app's document"
	case invMock:
		return "moviemock contract passes against the mock of the app's document"
	case invApp:
		return "moviemock contract passes against the real app: no false alarm"
	case invSame:
		return "the mock answers every answer FastAPI itself produced byte for byte alike"
	case invChanges:
		return "when moviemock diff finds no breaking change from the app's predecessor, the predecessor's contract checks pass against the app as against the predecessor"
	}
	return "moviemock contract fails the app's single-bug version " + strings.TrimPrefix(check, "bug:")
}

// checkApp runs the invariants on one app and returns each one's outcome,
// keyed as known.json keys them.
func checkApp(t *testing.T, bin, dir string, a corpusApp) (map[string]outcome, verdict, change) {
	res := map[string]outcome{}
	spec := filepath.Join(dir, "openapi", a.Name+".json")
	args := a.Args

	mockURL, err := startMock(t, bin, spec, mockAccount(args))
	if err != nil {
		res[invServe] = outcome{failure: err.Error()}
		res[invMock], res[invSame] = outcome{blocked: "no mock"}, outcome{blocked: "no mock"}
	} else {
		res[invMock] = runContract(t, bin, mockURL, spec, args).outcome()
	}

	ref := reference.App{Dir: filepath.Join(dir, a.Dir), Module: a.Module, Env: a.Env, Requires: a.Requires}
	app := reference.StartApp(t, ref)
	checkServedDocument(t, app.URL, a.OpenAPIURL, spec)
	rec := newRecorder(t, app.URL)
	probe(t, rec, spec)
	correct := runContract(t, bin, rec.URL(), spec, args)
	res[invApp] = correct.outcome()
	var ch change
	if a.old != nil {
		// The predecessor's contract against this app, as a client written
		// for it meets this version: straight to the app, not through the
		// recorder, whose answers are this app's own contract's.
		start := time.Now()
		oldSpec := filepath.Join(dir, "openapi", a.old.Name+".json")
		ch = change{old: a.old.Name, against: runContract(t, bin, app.URL, oldSpec, a.old.Args)}
		ch.breaking, ch.diffErr = runDiff(bin, oldSpec, spec)
		ch.took = time.Since(start)
	}
	if mockURL != "" {
		res[invSame] = rec.replay(t, mockURL, docPaths(t, spec))
	}
	for _, bug := range a.Bugs {
		ref.Env = append(slices.Clone(a.Env), "CORPUS_BUG="+bug)
		buggy := reference.StartApp(t, ref)
		if v := runContract(t, bin, buggy.URL, spec, args); !v.catches(correct) {
			res["bug:"+bug] = outcome{failure: "moviemock contract found nothing more in the app with CORPUS_BUG=" + bug + " than in the correct app"}
		}
	}
	return res, correct, ch
}

// runDiff runs `moviemock diff OLD NEW` and returns the ids of the
// breaking changes it finds, or why it did not answer.
func runDiff(bin, old, new string) ([]string, string) {
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "diff", old, new, "--format", "json", "--fail-on", "breaking")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var rep struct {
		Failed  bool `json:"failed"`
		Changes []struct {
			ID    string `json:"id"`
			Level string `json:"level"`
		} `json:"changes"`
	}
	if jerr := json.Unmarshal(stdout.Bytes(), &rep); jerr != nil {
		return nil, fmt.Sprintf("diff: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var ids []string
	for _, c := range rep.Changes {
		if c.Level == "breaking" {
			ids = append(ids, c.ID)
		}
	}
	// The exit code is the verdict a CI job acts on: it must say what the
	// report says.
	if failed := err != nil; failed != rep.Failed || failed != (len(ids) > 0) {
		return nil, fmt.Sprintf("diff exits %v, reports failed=%v with %d breaking changes", err, rep.Failed, len(ids))
	}
	slices.Sort(ids)
	return slices.Compact(ids), ""
}

// pairCounts are the numbers of checkChanges.
type pairCounts struct {
	checked   int // changes checked
	breaking  int // diff finds a breaking change
	bothBreak int // … and the predecessor's checks fail against the successor
	missed    int // diff finds none, and they fail
	took      time.Duration
}

// checkChanges checks the changes invariant of every app with a
// predecessor that ran too: when diff finds no breaking change, the
// predecessor's checks fail against the app no more than against the
// predecessor itself (the baseline: the predecessor's own app invariant).
// The other way does not hold: a breaking change the runner's requests do
// not meet (a query parameter FastAPI ignores once it is gone, a bound the
// generated values stay within) fails nothing; those are only counted.
func checkChanges(t *testing.T, apps []corpusApp, want known, got map[string]map[string]outcome, own map[string]verdict, changes map[string]change) pairCounts {
	var n pairCounts
	for _, app := range apps {
		ch, ran := changes[app.Name]
		if !ran {
			continue
		}
		base, baseRan := own[ch.old]
		if !baseRan {
			t.Logf("%s: its predecessor %s did not run: the change is not checked", app.Name, ch.old)
			continue
		}
		n.checked++
		n.took += ch.took
		o := ch.outcome(base)
		if len(ch.breaking) > 0 {
			n.breaking++
			if o.found != nil {
				n.bothBreak++
			}
			t.Logf("%s → %s: diff finds %s breaking; the predecessor's checks fail beyond their own: %q",
				ch.old, app.Name, strings.Join(ch.breaking, ", "), o.found)
			o = outcome{} // the runner seeing it or not: both hold
		} else if o.failure != "" {
			n.missed++
		}
		got[app.Name][invChanges] = o
		if *update {
			continue
		}
		if msg := compare(invChanges, o, want[app.Name]); msg != "" {
			t.Errorf("%s: %s", app.Name, msg)
		}
	}
	return n
}

// outcome is the change's outcome against base, the predecessor's run
// against itself: what its checks fail against the app beyond base (a
// check that fails more cases), unless diff found a breaking change.
func (ch change) outcome(base verdict) outcome {
	if ch.diffErr != "" {
		return outcome{failure: ch.diffErr, found: []string{"diff"}}
	}
	var beyond []string
	for check, k := range ch.against.failed {
		if k > base.failed[check] {
			beyond = append(beyond, check)
		}
	}
	if ch.against.failure != "" && len(ch.against.failed) == 0 && base.failure == "" {
		beyond = append(beyond, "run") // it failed without a failing check: an error
	}
	if len(beyond) == 0 {
		return outcome{}
	}
	slices.Sort(beyond)
	return outcome{
		failure: fmt.Sprintf("%s's contract fails %s against this app beyond its own run: %s",
			ch.old, strings.Join(beyond, ", "), ch.against.failure),
		found: beyond,
	}
}

// mockAccount is the serve flags giving the mock the account the runner's
// flags (--username, --password) log in with: the real app has it in its
// code or database, which its document does not say.
func mockAccount(args []string) []string {
	var user, pass string
	for i := 0; i+1 < len(args); i++ {
		switch args[i] {
		case "--username":
			user = args[i+1]
		case "--password":
			pass = args[i+1]
		}
	}
	if user == "" || pass == "" {
		return nil
	}
	return []string{"--account", user + ":" + pass}
}

// startMock runs `moviemock serve --spec spec` with more flags on a free
// port and returns its URL, or why it did not start.
func startMock(t *testing.T, bin, spec string, more []string) (string, error) {
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, append([]string{"serve", "--spec", spec, "--addr", "127.0.0.1:0", "--quiet"}, more...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	go io.Copy(io.Discard, stdout)
	m := regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(line)
	if m == "" {
		cmd.Wait()
		return "", fmt.Errorf("serve did not start (%v): %s", err, strings.TrimSpace(stderr.String()))
	}
	return m, nil
}

// verdict is what one run of `moviemock contract` found.
type verdict struct {
	failure string         // "" when it passed, else its failing checks and last line
	failed  map[string]int // failed cases per failing check
}

// runContract runs `moviemock contract` against base.
func runContract(t *testing.T, bin, base, spec string, args []string) verdict {
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	// Generous time limits: a loaded 2-core CI machine can make a Python
	// app slow, and slowness is not what the corpus is about.
	cmd := exec.CommandContext(ctx, bin, append([]string{"contract", "--base-url", base, "--spec", spec,
		"--timeout", "30s", "--max-response-time", "30s"}, args...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if err == nil {
		return verdict{}
	}
	v := verdict{failed: map[string]int{}}
	var failing []string
	for line := range strings.Lines(out.String()) {
		// "  FAIL unknown_id_not_found   0 passed    2 failed"
		if f, ok := strings.CutPrefix(line, "  FAIL "); ok {
			fields := strings.Fields(f)
			failing = append(failing, fields[0])
			n := 0
			if len(fields) >= 5 {
				n, _ = strconv.Atoi(fields[3])
			}
			v.failed[fields[0]] = n
		}
	}
	last := strings.TrimSpace(out.String())
	last = last[strings.LastIndexByte(last, '\n')+1:]
	if len(failing) > 0 {
		last = strings.Join(failing, ", ") + ": " + last
	}
	if ctx.Err() != nil {
		last = "timed out after " + runTimeout.String() + ": " + last
	}
	t.Logf("contract against %s: %v\n%s", base, err, out.String())
	v.failure = last
	return v
}

// outcome is the verdict as an invariant's outcome: the failing checks are
// what it found.
func (v verdict) outcome() outcome {
	return outcome{failure: v.failure, found: slices.Sorted(maps.Keys(v.failed))}
}

// catches reports whether the run against a buggy version found more than
// the run against the correct app: a check that failed more cases.
func (buggy verdict) catches(correct verdict) bool {
	if buggy.failure == "" {
		return false
	}
	if correct.failure == "" {
		return true
	}
	for check, n := range buggy.failed {
		if n > correct.failed[check] {
			return true
		}
	}
	return false
}

// checkServedDocument fails the test when the app serves another document
// than the corpus holds: the corpus is stale (run its refresh.py).
func checkServedDocument(t *testing.T, base string, url *string, spec string) {
	path := "/openapi.json"
	if url != nil {
		path = *url
	}
	if path == "" {
		return
	}
	resp, err := noRedirects.Get(base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		// A middleware answers for the app (a redirect to HTTPS, a host
		// it does not trust): refresh.py read the document from the app
		// itself.
		t.Logf("%s%s answers %s", base, path, resp.Status)
		return
	}
	served, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	held, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	if json.Unmarshal(served, &a) != nil || json.Unmarshal(held, &b) != nil || !reflect.DeepEqual(a, b) {
		t.Errorf("the app serves another document than %s: run the corpus's refresh.py", spec)
	}
}

// noRedirects is the client of the corpus's own requests: a redirect is an
// answer to compare, not to follow.
var noRedirects = &http.Client{
	Timeout:       30 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	// No Accept-Encoding the client did not send.
	Transport: &http.Transport{DisableCompression: true},
}

// exchange is one request the recorder passed to the app, and its answer.
type exchange struct {
	method, target string
	host           string // the Host the client gave, when not the server's address
	header         http.Header
	body           []byte
	status         int
	respHeader     http.Header
	respBody       []byte
}

// recorder is a reverse proxy in front of the app that keeps every exchange.
type recorder struct {
	srv      *httptest.Server
	upstream string
	mu       sync.Mutex
	log      []exchange
}

func newRecorder(t *testing.T, upstream string) *recorder {
	r := &recorder{upstream: upstream}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		ex := exchange{method: req.Method, target: req.RequestURI, header: req.Header.Clone(), body: body}
		if req.Host != r.srv.Listener.Addr().String() {
			ex.host = req.Host // the client named a host of its own (--header Host)
		}
		// A connection per request: an app that closes a connection after
		// an answer (a 204 with a body it cannot send) would otherwise
		// break the next, unrelated request sent on it, and the runner
		// would see the recorder's 502 instead of the app's answer.
		// (DisableKeepAlives would send Connection: close, a header an
		// app refusing undeclared headers refuses.)
		tr := &http.Transport{DisableCompression: true}
		resp, err := send(&http.Client{Timeout: noRedirects.Timeout, CheckRedirect: noRedirects.CheckRedirect, Transport: tr}, upstream, ex)
		tr.CloseIdleConnections()
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		ex.status, ex.respHeader, ex.respBody = resp.status, resp.header, resp.body
		r.mu.Lock()
		r.log = append(r.log, ex)
		r.mu.Unlock()
		for k, vs := range resp.header {
			if k == "Content-Length" || k == "Transfer-Encoding" || k == "Connection" {
				continue
			}
			w.Header()[k] = vs
		}
		w.WriteHeader(resp.status)
		w.Write(resp.body)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *recorder) URL() string { return r.srv.URL }

type answer struct {
	status int
	header http.Header
	body   []byte
}

// send sends ex to base as the client sent it: the raw target, the headers
// (Host set anew unless the client named its own), the body.
func send(client *http.Client, base string, ex exchange) (answer, error) {
	req, err := http.NewRequest(ex.method, base, bytes.NewReader(ex.body))
	if err != nil {
		return answer{}, err
	}
	req.URL.Opaque = ex.target
	if ex.host != "" {
		req.Host = ex.host
	}
	if i := strings.IndexByte(ex.target, '?'); i >= 0 {
		req.URL.Opaque, req.URL.RawQuery = ex.target[:i], ex.target[i+1:]
	}
	for k, vs := range ex.header {
		switch http.CanonicalHeaderKey(k) {
		case "Connection", "Keep-Alive", "Te", "Trailer", "Transfer-Encoding", "Upgrade", "Content-Length", "Accept-Encoding":
			continue
		}
		req.Header[k] = slices.Clone(vs)
	}
	if _, set := req.Header["User-Agent"]; !set {
		// Only the client's headers: net/http would add its User-Agent,
		// which an app refusing undeclared headers (a header model with
		// extra="forbid") refuses. An empty value sends none.
		req.Header["User-Agent"] = []string{""}
	}
	resp, err := client.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return answer{}, err
	}
	return answer{resp.StatusCode, resp.Header, body}, nil
}

// frameworkAnswer reports whether FastAPI or Starlette wrote this answer
// itself, rather than the app's code: the answers the mock must give byte
// for byte. An app's own HTTPException uses the same {"detail": …} shape
// with its own words, so only FastAPI's own words count.
func frameworkAnswer(status int, body []byte) bool {
	switch status {
	case http.StatusUnprocessableEntity:
		var v struct {
			Detail []struct {
				Type string `json:"type"`
				Loc  []any  `json:"loc"`
			} `json:"detail"`
		}
		return json.Unmarshal(body, &v) == nil && len(v.Detail) > 0 && v.Detail[0].Type != "" && len(v.Detail[0].Loc) > 0
	case http.StatusNotFound:
		return string(body) == `{"detail":"Not Found"}`
	case http.StatusMethodNotAllowed:
		return string(body) == `{"detail":"Method Not Allowed"}`
	case http.StatusBadRequest:
		return string(body) == `{"detail":"There was an error parsing the body"}` ||
			string(body) == `{"detail":"Missing boundary in multipart."}`
	case http.StatusUnauthorized, http.StatusForbidden:
		return string(body) == `{"detail":"Not authenticated"}`
	case http.StatusTemporaryRedirect:
		return len(body) == 0
	}
	return false
}

// comparedHeaders are the answer headers a client acts on.
var comparedHeaders = []string{"Content-Type", "Allow", "Www-Authenticate", "Location"}

// replay sends every exchange the app answered with one of FastAPI's own
// answers to the mock at base. What it found is the requests whose answers
// differ, as method and path template (one of paths, the document's; the
// path itself where none matches).
func (r *recorder) replay(t *testing.T, base string, paths []string) outcome {
	r.mu.Lock()
	log := slices.Clone(r.log)
	r.mu.Unlock()
	var diffs, found []string
	seen := map[string]bool{}
	compared := 0
	tokens := mockTokens(log, base)
	t.Logf("logged in to the mock as the app was logged in to: %d of its tokens stand for the app's", len(tokens))
	for _, ex := range log {
		if !frameworkAnswer(ex.status, ex.respBody) {
			continue
		}
		key := ex.method + " " + ex.target + "\x00" + string(ex.body)
		if seen[key] {
			continue
		}
		seen[key] = true
		compared++
		got, err := send(noRedirects, base, withTokens(ex, tokens))
		if err != nil {
			diffs = append(diffs, fmt.Sprintf("%s %s: %v", ex.method, ex.target, err))
			continue
		}
		var d []string
		if got.status != ex.status {
			d = append(d, fmt.Sprintf("status %d, FastAPI %d", got.status, ex.status))
		}
		for _, h := range comparedHeaders {
			a := strings.ReplaceAll(strings.Join(ex.respHeader.Values(h), ", "), r.upstream, "BASE")
			b := strings.ReplaceAll(strings.Join(got.header.Values(h), ", "), base, "BASE")
			if a != b {
				d = append(d, fmt.Sprintf("%s %q, FastAPI %q", h, b, a))
			}
		}
		if !bytes.Equal(got.body, ex.respBody) {
			d = append(d, fmt.Sprintf("body %s, FastAPI %s", clip(got.body), clip(ex.respBody)))
		}
		if len(d) > 0 {
			path, _, _ := strings.Cut(ex.target, "?")
			found = append(found, ex.method+" "+template(paths, path))
			diffs = append(diffs, fmt.Sprintf("%s %s%s: %s", ex.method, clip([]byte(ex.target)), bodyNote(ex), strings.Join(d, "; ")))
		}
	}
	t.Logf("replayed %d of FastAPI's own answers to the mock: %d differ", compared, len(diffs))
	for _, d := range diffs {
		t.Log(d)
	}
	if len(diffs) == 0 {
		return outcome{}
	}
	slices.Sort(found)
	return outcome{
		failure: fmt.Sprintf("%d of %d differ: %s", len(diffs), compared, strings.Join(diffs[:min(len(diffs), 3)], " | ")),
		found:   slices.Compact(found),
	}
}

// mockTokens logs in to the mock at base as the runner logged in to the
// app: every request the app answered with a token is sent to the mock,
// and the token the mock answers with stands for the app's. A token the
// app signed means nothing to the mock, as a user of the mock logs in to
// the mock; without this, the mock's 401 for a token it cannot verify
// would hide what FastAPI answers once the token is good.
func mockTokens(log []exchange, base string) map[string]string {
	tokens := map[string]string{}
	for _, ex := range log {
		real := accessToken(ex.status, ex.respBody)
		if real == "" || tokens[real] != "" {
			continue
		}
		got, err := send(noRedirects, base, ex)
		if err != nil {
			continue
		}
		if mine := accessToken(got.status, got.body); mine != "" {
			tokens[real] = mine
		}
	}
	return tokens
}

// accessToken is the access_token of a 2xx JSON answer, else "".
func accessToken(status int, body []byte) string {
	if status < 200 || status > 299 {
		return ""
	}
	var v struct {
		AccessToken string `json:"access_token"`
	}
	if json.Unmarshal(body, &v) != nil {
		return ""
	}
	return v.AccessToken
}

// withTokens is ex with the app's tokens in its headers replaced by the
// mock's.
func withTokens(ex exchange, tokens map[string]string) exchange {
	if len(tokens) == 0 {
		return ex
	}
	ex.header = ex.header.Clone()
	for k, vs := range ex.header {
		for i, v := range vs {
			for real, mine := range tokens {
				v = strings.ReplaceAll(v, real, mine)
			}
			ex.header[k][i] = v
		}
	}
	return ex
}

func bodyNote(ex exchange) string {
	if len(ex.body) == 0 {
		return ""
	}
	return " with body " + clip(ex.body)
}

// probe sends the requests the runner does not: an unknown path, a method
// no operation of a path has, and each path with its trailing slash
// toggled. They go through the recorder, so they are replayed too.
func probe(t *testing.T, rec *recorder, spec string) {
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	readJSON(t, spec, &doc)
	do := func(method, target string) {
		resp, err := send(noRedirects, rec.URL(), exchange{method: method, target: target, header: http.Header{}})
		if err != nil {
			t.Logf("probe %s %s: %v", method, target, err)
		}
		_ = resp
	}
	do("GET", "/moviemock-corpus/no/such/path")
	for _, p := range slices.Sorted(maps.Keys(doc.Paths)) {
		if strings.Contains(p, "{") {
			continue // needs a value; the runner sends those
		}
		for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE"} {
			if _, ok := doc.Paths[p][strings.ToLower(m)]; !ok {
				do(m, p)
				break
			}
		}
		if strings.HasSuffix(p, "/") && p != "/" {
			do("GET", strings.TrimSuffix(p, "/"))
		} else if p != "/" {
			do("GET", p+"/")
		}
	}
}

// docPaths lists the paths of the document at spec.
func docPaths(t *testing.T, spec string) []string {
	var doc struct {
		Paths map[string]json.RawMessage `json:"paths"`
	}
	readJSON(t, spec, &doc)
	return slices.Sorted(maps.Keys(doc.Paths))
}

// template returns the path of paths that path matches with the most
// literal segments (a {param} matches any one segment), or path itself:
// the key of a difference, which stays the same when the runner's
// generated values do not.
func template(paths []string, path string) string {
	segs := strings.Split(path, "/")
	best, most := path, -1
	for _, p := range paths {
		ps := strings.Split(p, "/")
		if len(ps) != len(segs) {
			continue
		}
		literal := 0
		for i, seg := range ps {
			if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
				continue
			}
			if seg != segs[i] {
				literal = -1
				break
			}
			literal++
		}
		if literal > most {
			best, most = p, literal
		}
	}
	return best
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func clip(b []byte) string {
	const max = 200
	s := string(b)
	if len(s) > max {
		s = s[:max] + "…"
	}
	return fmt.Sprintf("%q", s)
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, " ")
}
