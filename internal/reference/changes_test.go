package reference_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/moviemock/moviemock/internal/reference"
)

// TestChangedDocuments holds testdata/changes/<app>/<name>.json to the
// document each app serves under each change of its CHANGES table, byte for
// byte (refresh with -update), and the app unchanged to its contract.
func TestChangedDocuments(t *testing.T) {
	t.Parallel()
	for _, app := range reference.ChangeApps() {
		t.Run(app, func(t *testing.T) {
			t.Parallel()
			changed := reference.ChangedDocuments(t, app)
			contract, err := reference.ContractDir(app)
			if err != nil {
				t.Fatal(err)
			}
			old, err := os.ReadFile(filepath.Join(contract, "openapi.json"))
			if err != nil {
				t.Fatal(err)
			}
			if string(changed.Documents[""]) != string(old) {
				t.Errorf("%s.py unchanged serves another document than %s/openapi.json: run TestContractDocuments", app, contract)
			}
			dir, err := reference.ChangesDir(app)
			if err != nil {
				t.Fatal(err)
			}
			if *update {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for name := range changed.Changes {
				doc := changed.Documents[name]
				path := filepath.Join(dir, name+".json")
				if string(doc) == string(old) {
					t.Errorf("change %s: the document is the unchanged one", name)
				}
				if *update {
					if err := os.WriteFile(path, doc, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Errorf("%v (create it with: go test ./internal/reference -run TestChangedDocuments -update)", err)
					continue
				}
				if got := string(doc); got != string(want) {
					i := 0
					for i < len(got) && i < len(want) && got[i] == want[i] {
						i++
					}
					t.Errorf("%s differs from the document app/%s.py serves under change %s, from byte %d:\n served: …%s…\n   file: …%s…\n"+
						"if the change to the app is intended, refresh the file with: go test ./internal/reference -run TestChangedDocuments -update",
						path, app, name, i, around(got, i), around(string(want), i))
				}
			}
			// A document of a change the app no longer makes is stale.
			files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
			for _, f := range files {
				name := strings.TrimSuffix(filepath.Base(f), ".json")
				if _, ok := changed.Changes[name]; !ok && !slices.Contains([]string{"expected"}, name) {
					t.Errorf("%s: app/%s.py has no change %s (CHANGES): remove the file or the change's expectation", f, app, name)
				}
			}
		})
	}
}

// wireCheck is a request whose answer a change alters, and how.
type wireCheck struct {
	change       string
	method, path string
	body         string // JSON
	header       http.Header
	auth         bool // signed in as alice (movies)
	// differ says how the answers of OLD (the app unchanged) and NEW (under
	// change) differ, as expected.json says a client suffers.
	differ func(t *testing.T, old, new reply)
}

// TestChangesOnTheWire runs each app unchanged and under the changes whose
// classification rests on what FastAPI does at run time (a field with a
// default is sent, a null is served, an undeclared query parameter is
// ignored, a float is written with a point …), and checks that the answers
// differ as testdata/changes/<app>/expected.json says.
func TestChangesOnTheWire(t *testing.T) {
	t.Parallel()
	const (
		movie   = "/movies/tt0137523"
		review  = "/reviews/b42bfd96-9925-4da9-8c96-eed6b998b81f"
		task    = "/tasks/bbf408d3-cbff-481c-a95e-91855ae56d3f"
		project = "/projects/5759a20a-0bf7-4dd1-8532-3ea0861cb147"
	)
	checks := map[string][]wireCheck{
		reference.AppMovies: {
			{change: "movie_poster_removed", method: "GET", path: movie, differ: fieldGone("poster")},
			{change: "review_author_removed", method: "GET", path: review, differ: fieldGone("author")},
			{change: "movie_year_nullable", method: "POST", path: "/movies", body: `{"title":"Untitled project"}`, auth: true,
				differ: func(t *testing.T, old, new reply) {
					statuses(t, old, new, 422, 201)
					if m := record(t, new); m["year"] != nil || !hasKey(m, "year") {
						t.Errorf("NEW: want \"year\": null, have %s", new.body)
					}
				}},
			{change: "movie_runtime_float", method: "GET", path: movie, differ: func(t *testing.T, old, new reply) {
				if !strings.Contains(old.body, `"runtime":139,`) || !strings.Contains(new.body, `"runtime":139.0,`) {
					t.Errorf("want runtime 139 in OLD and 139.0 in NEW:\nOLD %s\nNEW %s", old.body, new.body)
				}
			}},
			{change: "movies_paged", method: "GET", path: "/movies", differ: listThenPage},
			{change: "login_201", method: "POST", path: "/auth/login", body: "username=alice&password=wonderland", header: form(),
				differ: func(t *testing.T, old, new reply) { statuses(t, old, new, 200, 201) }},
			{change: "reviews_filter_renamed", method: "GET", path: "/reviews?author_id=4", differ: func(t *testing.T, old, new reply) {
				if o, n := len(ids(t, old)), len(ids(t, new)); o == 0 || n <= o {
					t.Errorf("want the filter applied by OLD and ignored by NEW: %d and %d reviews", o, n)
				}
			}},
			{change: "reviews_list_secured", method: "GET", path: "/reviews", differ: func(t *testing.T, old, new reply) { statuses(t, old, new, 200, 401) }},
			{change: "limit_default_changed", method: "GET", path: "/movies", differ: counts(22, 20)},
			{change: "movie_delete_removed", method: "DELETE", path: "/movies/nope", auth: true,
				differ: func(t *testing.T, old, new reply) { statuses(t, old, new, 404, 405) }},
			{change: "person_id_string", method: "GET", path: "/person/1", differ: same},
			// A value a client of OLD never met can now be in the answers.
			{change: "reaction_emoji_added", method: "POST", path: review + "/reactions", body: `{"emoji":"❤️"}`, auth: true,
				differ: func(t *testing.T, old, new reply) { statuses(t, old, new, 422, 201) }},
		},
		reference.AppTasks: {
			{change: "task_tags_removed", method: "GET", path: task, differ: fieldGone("tags")},
			{change: "task_tags_removed", method: "POST", path: project + "/tasks", body: `{"title":"Tagged","tags":["x"]}`, differ: fieldGone("tags")},
			{change: "project_color_nullable", method: "POST", path: "/projects", body: `{"name":"No colour"}`, differ: func(t *testing.T, old, new reply) {
				statuses(t, old, new, 201, 201)
				wantField(t, record(t, old), "color", "#64748b")
				if m := record(t, new); m["color"] != nil || !hasKey(m, "color") {
					t.Errorf("NEW: want \"color\": null, have %s", new.body)
				}
			}},
			{change: "stats_done_float", method: "GET", path: "/stats", differ: func(t *testing.T, old, new reply) {
				if !strings.Contains(old.body, `"done":14,`) || !strings.Contains(new.body, `"done":14.0,`) {
					t.Errorf("want done 14 in OLD and 14.0 in NEW:\nOLD %s\nNEW %s", old.body, new.body)
				}
			}},
			{change: "task_due_datetime", method: "POST", path: project + "/tasks", body: `{"title":"Dated","due_date":"2024-05-01"}`, differ: func(t *testing.T, old, new reply) {
				statuses(t, old, new, 201, 201) // the date is still accepted
				wantField(t, record(t, old), "due_date", "2024-05-01")
				wantField(t, record(t, new), "due_date", "2024-05-01T00:00:00")
			}},
			{change: "tasks_paged", method: "GET", path: "/tasks", differ: listThenPage},
			{change: "task_create_200", method: "POST", path: project + "/tasks", body: `{"title":"Created"}`,
				differ: func(t *testing.T, old, new reply) { statuses(t, old, new, 201, 200) }},
			{change: "tasks_offset_renamed", method: "GET", path: "/tasks?offset=10&limit=5", differ: func(t *testing.T, old, new reply) {
				o, n := ids(t, old), ids(t, new)
				if len(o) != 5 || len(n) != 5 || reflect.DeepEqual(o, n) {
					t.Errorf("want the 11th to 15th tasks from OLD and the first five from NEW: %v and %v", o, n)
				}
			}},
			{change: "tasks_limit_default", method: "GET", path: "/tasks", differ: counts(40, 20)},
			{change: "project_create_secured", method: "POST", path: "/projects", body: `{"name":"Keyless"}`,
				differ: func(t *testing.T, old, new reply) { statuses(t, old, new, 201, 401) }},
			{change: "priority_narrowed", method: "GET", path: "/tasks?priority=urgent", differ: func(t *testing.T, old, new reply) { statuses(t, old, new, 200, 422) }},
			{change: "priority_added", method: "POST", path: project + "/tasks", body: `{"title":"Fire","priority":"critical"}`,
				differ: func(t *testing.T, old, new reply) { statuses(t, old, new, 422, 201) }},
		},
	}
	for _, app := range reference.ChangeApps() {
		t.Run(app, func(t *testing.T) {
			t.Parallel()
			old := reference.Start(t, reference.Options{App: app})
			var oldMu sync.Mutex // one check at a time on OLD, from its loaded records
			var changes []string // one NEW backend a change, in the table's order
			byChange := map[string][]wireCheck{}
			for _, c := range checks[app] {
				if byChange[c.change] == nil {
					changes = append(changes, c.change)
				}
				byChange[c.change] = append(byChange[c.change], c)
			}
			for _, change := range changes {
				t.Run(change, func(t *testing.T) {
					t.Parallel()
					new := reference.Start(t, reference.Options{App: app, Change: change})
					for _, c := range byChange[change] {
						oldMu.Lock()
						old.Reset(t)
						was := c.send(t, old)
						oldMu.Unlock()
						c.differ(t, was, c.send(t, new))
					}
				})
			}
		})
	}
}

func (c wireCheck) send(t *testing.T, b *reference.Backend) reply {
	t.Helper()
	header := c.header.Clone()
	if header == nil {
		header = http.Header{}
	}
	if c.body != "" && header.Get("Content-Type") == "" {
		header.Set("Content-Type", "application/json")
	}
	if c.auth {
		r := call(t, b, "POST", "/auth/login", form(), "username=alice&password=wonderland")
		var tok struct {
			AccessToken string `json:"access_token"`
		}
		if err := json.Unmarshal([]byte(r.body), &tok); err != nil || tok.AccessToken == "" {
			t.Fatalf("login: %d %s", r.status, r.body)
		}
		header.Set("Authorization", "Bearer "+tok.AccessToken)
	}
	return call(t, b, c.method, c.path, header, c.body)
}

func statuses(t *testing.T, old, new reply, wantOld, wantNew int) {
	t.Helper()
	if old.status != wantOld || new.status != wantNew {
		t.Errorf("OLD answered %d, NEW %d; want %d and %d\nOLD %s\nNEW %s", old.status, new.status, wantOld, wantNew, old.body, new.body)
	}
}

func hasKey(m map[string]any, key string) bool {
	_, ok := m[key]
	return ok
}

// fieldGone: OLD's answer has the field, NEW's has not.
func fieldGone(field string) func(t *testing.T, old, new reply) {
	return func(t *testing.T, old, new reply) {
		t.Helper()
		if !hasKey(record(t, old), field) || hasKey(record(t, new), field) {
			t.Errorf("want %s in OLD's answer and not in NEW's:\nOLD %s\nNEW %s", field, old.body, new.body)
		}
	}
}

// counts: OLD's list has o records, NEW's n.
func counts(o, n int) func(t *testing.T, old, new reply) {
	return func(t *testing.T, old, new reply) {
		t.Helper()
		if got, want := []int{len(ids(t, old)), len(ids(t, new))}, []int{o, n}; !reflect.DeepEqual(got, want) {
			t.Errorf("OLD and NEW list %v records, want %v", got, want)
		}
	}
}

// listThenPage: OLD answers a list, NEW an object holding the same records
// as items, and their total.
func listThenPage(t *testing.T, old, new reply) {
	t.Helper()
	var page struct {
		Items []map[string]any `json:"items"`
		Total *int             `json:"total"`
	}
	if err := json.Unmarshal([]byte(new.body), &page); err != nil || page.Total == nil {
		t.Fatalf("NEW: want a page object with items and total: %v: %.300s", err, new.body)
	}
	if o := ids(t, old); len(o) != len(page.Items) || *page.Total != len(o) {
		t.Errorf("OLD lists %d records, NEW's page %d of %d", len(o), len(page.Items), *page.Total)
	}
}

// same: the change is safe, the answers are the same.
func same(t *testing.T, old, new reply) {
	t.Helper()
	if old.status != new.status || old.body != new.body {
		t.Errorf("OLD and NEW answer differently:\nOLD %d %s\nNEW %d %s", old.status, old.body, new.status, new.body)
	}
}
