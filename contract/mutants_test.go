package contract_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/reference"
	"github.com/moviemock/moviemock/internal/spec"
)

// mutant is the grown movies backend (internal/reference/app/movies.py) with
// one deliberate bug switched on, and the checks that must catch it.
type mutant struct {
	bug string // a name in the BUGS table of app/movies.py
	// checks must each fail on some case, and on a case the correct
	// backend passes: a false failure the correct backend has too
	// catches nothing.
	checks []string
	// todo, when set, says why the runner does not catch the bug yet: the
	// subtest is skipped with it.
	todo string
}

// The bugs, by what they break.
var mutants = []mutant{
	// Writes.
	{bug: "create_200", checks: []string{"status_code_conformance"}},
	{bug: "delete_keeps", checks: []string{"stateful_delete"}},
	{bug: "patch_nulls", checks: []string{"stateful_update"}},
	{bug: "put_partial", checks: []string{"negative_data_rejection"}},
	{bug: "updated_at_frozen", checks: []string{"stateful_update"}},
	{bug: "created_id_unreadable", checks: []string{"stateful_create_read"}},
	{bug: "delete_404_wrong_shape", checks: []string{"status_code_conformance"}},
	// Queries.
	{bug: "filter_ignored", checks: []string{"paging_and_filters"}},
	{bug: "limit_ignored", checks: []string{"paging_and_filters"}},
	{bug: "skip_off_by_one", checks: []string{"paging_and_filters"}},
	{bug: "nested_list_leaks", checks: []string{"paging_and_filters"}},
	{bug: "list_truncates_content", checks: []string{"list_item_consistency"}},
	{bug: "unknown_id_500", checks: []string{"unknown_id_not_found", "not_a_server_error"}},
	// Auth.
	{bug: "write_no_auth", checks: []string{"auth_required"}},
	{bug: "bad_token_ok", checks: []string{"auth_required"}},
	{bug: "bad_signature_ok", checks: []string{"auth_required"}},
	{bug: "me_wrong_user", checks: []string{"registration_login"}},
	{bug: "register_no_login", checks: []string{"registration_login"}},
	{bug: "token_no_exp", checks: []string{"jwt_wellformed"}},
	{bug: "wrong_password_ok", checks: []string{"wrong_credentials_rejected"}},
	// JSON-body errors.
	{bug: "validation_400", checks: []string{"validation_error_shape"}},
	{bug: "body_422_wrong_loc", checks: []string{"validation_error_shape"}},
	{bug: "extra_field_500", checks: []string{"not_a_server_error"}},
	{bug: "missing_body_500", checks: []string{"not_a_server_error"}},
}

// TestGrownMutants runs the contract runner against the correct movies
// backend and against each broken one: the correct one must pass, each
// broken one must fail, and fail the check its bug breaks.
func TestGrownMutants(t *testing.T) {
	t.Parallel()
	reference.Require(t)
	runMutants(t, reference.AppMovies, mutants)
}

// runMutants runs the contract runner against app's correct backend and
// against each broken one.
func runMutants(t *testing.T, app string, mutants []mutant) {
	t.Helper()
	sp := moviesContract(t, app)

	// The correct backend first: its failures, if any, are the baseline
	// that a broken backend's failures must go beyond.
	correct := runMovies(t, app, sp, "")
	baseline := map[string]bool{}
	for _, f := range failureList(correct) {
		baseline[f.key] = true
	}
	t.Run("correct", func(t *testing.T) {
		if len(baseline) > 0 {
			t.Errorf("%d failures on the correct backend, by check: %s\n%s",
				correct.Failures(), failedChecks(correct), strings.Join(failureLines(failureList(correct), 40), "\n"))
		}
	})

	for _, m := range reference.Sample(mutants, 3) {
		t.Run(m.bug, func(t *testing.T) {
			t.Parallel()
			if m.todo != "" {
				t.Skipf("not caught yet: %s", m.todo)
			}
			report := runMovies(t, app, sp, m.bug)
			fresh := map[string][]failure{} // by check: failures the correct backend does not have
			for _, f := range failureList(report) {
				if !baseline[f.key] {
					fresh[f.check] = append(fresh[f.check], f)
				}
			}
			caught := caughtBy(fresh)
			if len(fresh) == 0 {
				t.Errorf("bug %s not caught: no failure beyond the correct backend's (%d failures in all)", m.bug, report.Failures())
			}
			for _, c := range m.checks {
				switch {
				case !checkExists(c):
					t.Errorf("bug %s: expected check %s does not exist (yet); caught by: %s", m.bug, c, caught)
				case len(fresh[c]) == 0:
					t.Errorf("bug %s: no %s failure; caught by: %s", m.bug, c, caught)
				}
			}
			if t.Failed() {
				var all []failure
				for _, fs := range fresh {
					all = append(all, fs...)
				}
				sort.Slice(all, func(i, j int) bool { return all[i].line < all[j].line })
				t.Logf("new failures:\n%s", strings.Join(failureLines(all, 20), "\n"))
			} else {
				t.Logf("caught by: %s", caught)
			}
		})
	}
}

// The table has a row for every bug app/movies.py has, and no other.
func TestGrownMutantsTable(t *testing.T) {
	t.Parallel()
	checkMutantsTable(t, "movies.py", mutants, 15)
}

func checkMutantsTable(t *testing.T, file string, mutants []mutant, least int) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "internal", "reference", "app", file))
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile(`(?s)\nBUGS = \{\n(.*?)\n\}\n`).FindSubmatch(src)
	if block == nil {
		t.Fatalf("no BUGS = {…} table in app/%s", file)
	}
	var inApp []string
	for _, m := range regexp.MustCompile(`(?m)^    "([a-z0-9_]+)": `).FindAllSubmatch(block[1], -1) {
		inApp = append(inApp, string(m[1]))
	}
	var inTable []string
	for _, m := range mutants {
		inTable = append(inTable, m.bug)
		if len(m.checks) == 0 && m.todo == "" {
			t.Errorf("%s: no check expected to catch it", m.bug)
		}
	}
	sort.Strings(inApp)
	sort.Strings(inTable)
	if a, b := strings.Join(inApp, " "), strings.Join(inTable, " "); a != b {
		t.Errorf("app/%s has the bugs\n  %s\nthe mutants table\n  %s", file, a, b)
	}
	if len(inTable) < least {
		t.Errorf("only %d mutants", len(inTable))
	}
}

// fatalRecorder is a testing.TB whose Fatal records the message and
// unwinds with a panic, for a test that expects reference.Start to fail.
type fatalRecorder struct {
	testing.TB
	msg string
}

func (f *fatalRecorder) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	panic(f)
}

func (f *fatalRecorder) Fatal(args ...any) {
	f.msg = fmt.Sprint(args...)
	panic(f)
}

// A misspelt bug name stops the app rather than running the correct one.
func TestGrownMutantUnknownBug(t *testing.T) {
	t.Parallel()
	reference.Require(t)
	rec := &fatalRecorder{TB: t}
	func() {
		defer func() {
			if r := recover(); r != nil && r != rec {
				panic(r)
			}
		}()
		b := reference.Start(rec, reference.Options{App: reference.AppMovies, Bug: "create_2OO"})
		t.Errorf("the backend started with an unknown bug, at %s", b.URL)
	}()
	if !strings.Contains(rec.msg, "create_2OO") || !strings.Contains(rec.msg, "names no bug") {
		t.Errorf("reference.Start failed with %q, want the app's refusal of create_2OO", rec.msg)
	}
}

func moviesContract(t *testing.T, app string) *spec.Spec {
	t.Helper()
	dir, err := reference.ContractDir(app)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "openapi.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(data, path)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// runMovies starts app's backend with bug ("": correct) and runs the
// contract against it.
func runMovies(t *testing.T, app string, sp *spec.Spec, bug string) *contract.Report {
	t.Helper()
	b := reference.Start(t, reference.Options{App: app, Bug: bug})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	start := time.Now()
	// As `moviemock contract --username alice --password wonderland` runs.
	report, err := contract.Run(ctx, contract.Config{MaxResponseTime: slowOK, BaseURL: b.URL, Spec: sp, Username: "alice", Password: "wonderland", Examples: contract.DefaultExamples})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d cases, %d failures in %v", len(report.Results), report.Failures(), time.Since(start).Round(time.Millisecond))
	return report
}

// failure is one failed check on one case.
type failure struct {
	check string
	key   string // the check and the case, the same on every backend
	line  string // for messages
}

// uuidRe matches the ids the backend makes up, which differ run to run.
var uuidRe = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

func failureList(r *contract.Report) []failure {
	var out []failure
	for _, res := range r.Results {
		for _, c := range res.Checks {
			if c.Passed {
				continue
			}
			cs := res.Case
			out = append(out, failure{
				check: c.Check,
				key:   uuidRe.ReplaceAllString(strings.Join([]string{c.Check, cs.Operation, string(cs.Kind), cs.Name}, "\x00"), "<uuid>"),
				line:  fmt.Sprintf("%s: %s %s %q: expected %s, got %s", c.Check, cs.Operation, cs.Kind, cs.Name, c.Expected, c.Got),
			})
		}
	}
	return out
}

func failureLines(fs []failure, max int) []string {
	var out []string
	for i, f := range fs {
		if i == max {
			out = append(out, fmt.Sprintf("… and %d more", len(fs)-max))
			break
		}
		out = append(out, f.line)
	}
	return out
}

// failedChecks is "check ×n, …" for the checks that failed in r.
func failedChecks(r *contract.Report) string {
	var parts []string
	for _, tl := range r.ByCheck() {
		if tl.Failed > 0 {
			parts = append(parts, fmt.Sprintf("%s ×%d", tl.Name, tl.Failed))
		}
	}
	return strings.Join(parts, ", ")
}

// caughtBy is "check ×n, …" for the new failures.
func caughtBy(fresh map[string][]failure) string {
	if len(fresh) == 0 {
		return "nothing"
	}
	var parts []string
	for _, c := range contract.Checks {
		if n := len(fresh[c.Name()]); n > 0 {
			parts = append(parts, fmt.Sprintf("%s ×%d", c.Name(), n))
		}
	}
	return strings.Join(parts, ", ")
}

func checkExists(name string) bool {
	for _, c := range contract.Checks {
		if c.Name() == name {
			return true
		}
	}
	return false
}

// The runner as a user runs it against the tasks contract's own FastAPI
// backend (no auth, UUID ids, page objects): no failure, and no operation
// left untested.
func TestGrownTasksBackendPasses(t *testing.T) {
	t.Parallel()
	reference.Require(t)
	dir, err := reference.ContractDir(reference.AppTasks)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(data, "tasks/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	b := reference.Start(t, reference.Options{App: reference.AppTasks})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	report, err := contract.Run(ctx, contract.Config{MaxResponseTime: slowOK, BaseURL: b.URL, Spec: sp, Examples: contract.DefaultExamples})
	if err != nil {
		t.Fatal(err)
	}
	if report.Failures() > 0 {
		t.Errorf("%d failures on the correct tasks backend:\n%s", report.Failures(), strings.Join(failureLines(failureList(report), 40), "\n"))
	}
	for _, n := range report.Notes {
		if strings.Contains(n, "not tested") || strings.Contains(n, "no positive case") {
			t.Errorf("note: %s", n)
		}
	}
	for _, c := range report.Coverage {
		if c.Sent == 0 {
			t.Errorf("%s %s: no case sent", c.Method, c.Path)
		}
	}
	if len(report.Coverage) != 15 {
		t.Errorf("coverage of %d operations, want the contract's 15", len(report.Coverage))
	}
}

// Without credentials the runner tests what it can of a secured contract:
// the correct backend passes, and the secured writes it cannot make are
// reported, not failed.
func TestGrownWithoutCredentials(t *testing.T) {
	t.Parallel()
	reference.Require(t)
	sp := moviesContract(t, reference.AppMovies)
	b := reference.Start(t, reference.Options{App: reference.AppMovies})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// Speed is not what this test is about: a loaded machine must not
	// fail it.
	report, err := contract.Run(ctx, contract.Config{BaseURL: b.URL, Spec: sp, MaxResponseTime: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if n := report.Failures(); n > 0 {
		t.Errorf("%d failures on the correct backend without credentials:\n%s", n, strings.Join(failureLines(failureList(report), 40), "\n"))
	}
}
