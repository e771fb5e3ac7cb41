package contract_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/reference"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// changedContract is a NEW contract of testdata/changes: the document the
// reference app serves under the change, and the fixtures the mock serves
// it with (the change's own where it migrates the records, else the OLD
// contract's).
type changedContract struct {
	app, change string
	sp          *spec.Spec
	fixtures    string
}

func changedContracts(t *testing.T) []changedContract {
	t.Helper()
	var out []changedContract
	for _, app := range reference.ChangeApps() {
		dir, err := reference.ChangesDir(app)
		if err != nil {
			t.Fatal(err)
		}
		old, err := reference.ContractDir(app)
		if err != nil {
			t.Fatal(err)
		}
		files, err := reference.ChangeFiles(app)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			change, path := f.Change, f.Path
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			sp, err := spec.Load(data, path)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			fx := filepath.Join(dir, "fixtures", change)
			if _, err := os.Stat(fx); err != nil {
				fx = filepath.Join(old, "fixtures")
			}
			out = append(out, changedContract{app: app, change: change, sp: sp, fixtures: fx})
		}
	}
	return out
}

// changedConfig is the run against a NEW contract of app: the reference
// apps' credentials (the movies login, the tasks API key a change asks for).
func changedConfig(baseURL, app string, sp *spec.Spec) contract.Config {
	cfg := contract.Config{BaseURL: baseURL, Spec: sp, Seed: 23, Examples: 2}
	cfg.Username, cfg.Password = credentials(app)
	if app == reference.AppTasks {
		cfg.Header = http.Header{"X-Api-Key": {"tasks-development-key"}}
	}
	return cfg
}

func runChanged(t *testing.T, cfg contract.Config) {
	t.Helper()
	cfg.MaxResponseTime = slowOK
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	report, err := contract.Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if f := failed(report); len(f) > 0 {
		t.Errorf("%d failures on a correct target:\n%s", len(f), strings.Join(f, "\n"))
	}
}

// Every NEW contract of testdata/changes, served by the mock and by the
// reference app making the change, passes every check: a change a backend
// team makes to its FastAPI contract (a login that answers 201, a filter
// now required, a list now paged …) raises no false alarm.
func TestChangedContractsPass(t *testing.T) {
	t.Parallel()
	all := changedContracts(t)
	t.Run("mock", func(t *testing.T) {
		t.Parallel()
		for _, c := range all {
			t.Run(c.app+"/"+c.change, func(t *testing.T) {
				t.Parallel()
				m, err := model.Compile(c.sp)
				if err != nil {
					t.Fatal(err)
				}
				d, err := fixtures.LoadDir(c.fixtures, m)
				if err != nil {
					t.Fatal(err)
				}
				srv, err := mock.New(mock.Config{Spec: c.sp, Model: m, Data: d})
				if err != nil {
					t.Fatal(err)
				}
				ts := httptest.NewServer(srv)
				defer ts.Close()
				runChanged(t, changedConfig(ts.URL, c.app, c.sp))
			})
		}
	})
	t.Run("reference", func(t *testing.T) {
		if testing.Short() {
			t.Skip("starts a FastAPI backend for each change")
		}
		if reference.RaceEnabled {
			// The race detector watches the runner's goroutines, which the
			// mock side exercises; the backends add only FastAPI's answers,
			// which the run without it checks.
			t.Skip("the FastAPI backends' side runs without -race")
		}
		t.Parallel()
		reference.Require(t)
		for _, c := range all {
			t.Run(c.app+"/"+c.change, func(t *testing.T) {
				t.Parallel()
				b := reference.Start(t, reference.Options{App: c.app, Change: c.change})
				runChanged(t, changedConfig(b.URL, c.app, c.sp))
			})
		}
	})
}

// changedMock serves NEW document change of app, edited by edit (nil: as
// it is), with the fixtures it goes with.
func changedMock(t *testing.T, app, change string, edit func(doc map[string]any)) (http.Handler, *spec.Spec) {
	t.Helper()
	dir, err := reference.ChangesDir(app)
	if err != nil {
		t.Fatal(err)
	}
	old, err := reference.ContractDir(app)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, change+".json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		edit(doc)
		if data, err = json.Marshal(doc); err != nil {
			t.Fatal(err)
		}
	}
	sp, err := spec.Load(data, path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Compile(sp)
	if err != nil {
		t.Fatal(err)
	}
	d, err := fixtures.LoadDir(filepath.Join(old, "fixtures"), m)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: sp, Model: m, Data: d})
	if err != nil {
		t.Fatal(err)
	}
	return srv, sp
}

// dig is the object at the keys' path of a decoded document.
func dig(t *testing.T, doc map[string]any, keys ...string) map[string]any {
	t.Helper()
	for _, k := range keys {
		next, ok := doc[k].(map[string]any)
		if !ok {
			t.Fatalf("no object at %q in the document", strings.Join(keys, "/"))
		}
		doc = next
	}
	return doc
}

// The sequences take from the contract what a step owes: the status a
// login or a read declares, and, for a list that must show the record just created,
// the record's own value for a filter the list requires. Where the
// record has no value for a required query parameter, its absence from
// the list is not held against the target.
func TestSequencesFollowTheContract(t *testing.T) {
	t.Parallel()
	projectIn := func(drop string) func(map[string]any) {
		return func(doc map[string]any) {
			delete(dig(t, doc, "components", "schemas", "ProjectIn", "properties"), drop)
		}
	}
	for _, tc := range []struct {
		name, app, change string
		edit              func(map[string]any)
		check             string // applied, every verdict passed
		step              string // a step of check, sent with query (or status)
		want              string
		note              string // a note the run gives
	}{
		{"a login declares 201", reference.AppMovies, "login_201", nil,
			"registration_login", "login with the new account's credentials", "201", ""},
		{"reads declare 203", reference.AppTasks, "health_description_changed", func(doc map[string]any) {
			for _, path := range []string{"/projects", "/projects/{project_id}"} {
				responses := dig(t, doc, "paths", path, "get", "responses")
				responses["203"] = responses["200"]
				delete(responses, "200")
			}
		}, "stateful_create_read", "read back equals the create answer", "203", ""},
		{"a required boolean filter, the record false", reference.AppTasks, "projects_archived_required", projectIn("archived"),
			"stateful_create_read", "the record is in the list", "archived=false", ""},
		{"a required filter the record has null for", reference.AppTasks, "projects_archived_required", func(doc map[string]any) {
			projectIn("description")(doc)
			params := dig(t, doc, "paths", "/projects", "get")["parameters"].([]any)
			dig(t, doc, "paths", "/projects", "get")["parameters"] = append(params, map[string]any{
				"name": "description", "in": "query", "required": true, "schema": map[string]any{"type": "string", "title": "Description"},
			})
		}, "stateful_delete", "the record is gone from the list", "description=moviemock",
			"is not in the list narrowed by its required query parameter description"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, sp := changedMock(t, tc.app, tc.change, tc.edit)
			ts := httptest.NewServer(h)
			defer ts.Close()
			report := runSequences(t, ts.URL, sp, tc.app, false)
			if f := failed(report); len(f) > 0 {
				t.Errorf("%d failures on a correct target:\n%s", len(f), strings.Join(f, "\n"))
			}
			seen := false
			for _, res := range report.Results {
				if res.Case.Kind != contract.Sequence || !strings.Contains(res.Case.Name, tc.step) {
					continue
				}
				for _, c := range res.Checks {
					if c.Check == tc.check && (strings.Contains(res.Case.Request.URL, tc.want) || strconv.Itoa(res.Response.Status) == tc.want) {
						seen = true
					}
				}
			}
			if !seen {
				t.Errorf("no %s step %q judged by %s", tc.want, tc.step, tc.check)
			}
			if tc.note != "" && !slices.ContainsFunc(report.Notes, func(n string) bool { return strings.Contains(n, tc.note) }) {
				t.Errorf("no note %q in %q", tc.note, report.Notes)
			}
		})
	}
}

// A contract whose reads declare another success status than 200 (a
// route's status_code=203) is tested as fully as with 200: its lists feed
// the item reads, its examples and probes find ids, its answers are kept
// for list_item_consistency, and no check expects a 200.
func TestReadsDeclaringAnotherStatus(t *testing.T) {
	t.Parallel()
	reads203 := func(doc map[string]any) {
		for path, item := range dig(t, doc, "paths") {
			get, ok := item.(map[string]any)["get"].(map[string]any)
			if !ok || path == "/health" {
				continue
			}
			responses := get["responses"].(map[string]any)
			responses["203"] = responses["200"]
			delete(responses, "200")
		}
	}
	applied := map[string]map[string]int{}
	for name, edit := range map[string]func(map[string]any){"200": nil, "203": reads203} {
		h, sp := changedMock(t, reference.AppTasks, "health_description_changed", edit)
		report := run(t, h, contract.Config{Spec: sp, Seed: 23, Examples: 2})
		if f := failed(report); len(f) > 0 {
			t.Errorf("reads answering %s: %d failures on a correct target:\n%s", name, len(f), strings.Join(f, "\n"))
		}
		applied[name] = map[string]int{}
		for _, c := range report.ByCheck() {
			applied[name][c.Name] = c.Passed + c.Failed
		}
	}
	for check, n := range applied["200"] {
		if applied["203"][check] < n {
			t.Errorf("%s: %d verdicts with reads answering 203, %d with 200", check, applied["203"][check], n)
		}
	}
}
