package reference_test

import (
	"encoding/json"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/moviemock/moviemock/internal/reference"
)

var update = flag.Bool("update", false, "rewrite testdata/contracts/*/openapi.json with the documents the reference apps serve")

// TestContractDocuments holds each contract's openapi.json to the document
// its app serves, byte for byte.
func TestContractDocuments(t *testing.T) {
	t.Parallel()
	for _, app := range reference.ContractApps() {
		t.Run(app, func(t *testing.T) {
			t.Parallel()
			dir, err := reference.ContractDir(app)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "openapi.json")
			b := reference.Start(t, reference.Options{App: app})
			r := call(t, b, "GET", "/openapi.json", nil, "")
			if r.status != 200 {
				t.Fatalf("GET /openapi.json = %d %s", r.status, r.body)
			}
			if *update {
				if err := os.WriteFile(path, []byte(r.body), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (create it with: go test ./internal/reference -run TestContractDocuments -update)", err)
			}
			if got := r.body; got != string(want) {
				i := 0
				for i < len(got) && i < len(want) && got[i] == want[i] {
					i++
				}
				t.Errorf("%s differs from the document app/%s.py serves, from byte %d:\n served: …%s…\n   file: …%s…\n"+
					"if the change to the app is intended, refresh the file with: go test ./internal/reference -run TestContractDocuments -update",
					path, app, i, around(got, i), around(string(want), i))
			}
		})
	}
}

func around(s string, i int) string {
	lo, hi := max(i-40, 0), min(i+40, len(s))
	return s[lo:hi]
}

// TestContractFixtures checks that each contract has a file for every
// collection, of 10 to 40 records.
func TestContractFixtures(t *testing.T) {
	t.Parallel()
	collections := map[string][]string{
		reference.AppMovies:  {"persons", "users", "movies", "reviews", "reactions"},
		reference.AppTasks:   {"projects", "tasks"},
		reference.AppMovies2: {"users", "movies", "reviews"},
	}
	for _, app := range reference.ContractApps() {
		dir, err := reference.ContractDir(app)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range collections[app] {
			files, _ := filepath.Glob(filepath.Join(dir, "fixtures", name+".*"))
			if len(files) != 1 {
				t.Errorf("%s: want one fixture file for %s, have %q", app, name, files)
				continue
			}
			data, err := os.ReadFile(files[0])
			if err != nil {
				t.Fatal(err)
			}
			var records []map[string]any
			if err := yaml.Unmarshal(data, &records); err != nil { // YAML 1.2 reads JSON too
				t.Errorf("%s: %v", files[0], err)
			}
			if n := len(records); n < 10 || n > 40 {
				t.Errorf("%s: %d records, want 10 to 40", files[0], n)
			}
		}
	}
}

// exchange is one request to a backend and the status it must answer.
func exchange(t *testing.T, b *reference.Backend, method, path string, header http.Header, body string, status int) reply {
	t.Helper()
	if body != "" {
		header = header.Clone()
		if header == nil {
			header = http.Header{}
		}
		header.Set("Content-Type", "application/json")
	}
	r := call(t, b, method, path, header, body)
	if r.status != status {
		t.Fatalf("%s %s %s = %d %s, want %d", method, path, body, r.status, r.body, status)
	}
	return r
}

// record decodes a JSON object answer.
func record(t *testing.T, r reply) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.body), &m); err != nil {
		t.Fatalf("%v: %s", err, r.body)
	}
	return m
}

// ids decodes a JSON array answer to its records' ids.
func ids(t *testing.T, r reply) []any {
	t.Helper()
	var list []map[string]any
	if err := json.Unmarshal([]byte(r.body), &list); err != nil {
		t.Fatalf("%v: %s", err, r.body)
	}
	out := []any{}
	for _, m := range list {
		out = append(out, m["id"])
	}
	return out
}

func wantField(t *testing.T, m map[string]any, field string, want any) {
	t.Helper()
	if got := m[field]; !reflect.DeepEqual(got, want) {
		t.Errorf("%s = %#v, want %#v (in %v)", field, got, want, m)
	}
}

var uuid4Re = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// TestContractMovies walks app/movies.py through the conventions: create,
// read, list, update, delete, 404, and reset.
func TestContractMovies(t *testing.T) {
	t.Parallel()
	b := reference.Start(t, reference.Options{App: reference.AppMovies})
	auth := bearer(login(t, b, "alice", "wonderland"))
	const notFound = `{"detail":"Movie not found"}`

	// Lists filter by equality, then page.
	if got := ids(t, exchange(t, b, "GET", "/movies?year=1994", nil, "", 200)); !reflect.DeepEqual(got, []any{"tt0111161", "tt0110912"}) {
		t.Errorf("year=1994: %v", got)
	}
	if got := ids(t, exchange(t, b, "GET", "/movies?original_language=ja&skip=1&limit=2", nil, "", 200)); !reflect.DeepEqual(got, []any{"tt0245429", "tt0042876"}) {
		t.Errorf("ja, skip 1, limit 2: %v", got)
	}
	if got := ids(t, exchange(t, b, "GET", "/reviews?movie_id=tt0047478&author_id=4", nil, "", 200)); len(got) != 1 {
		t.Errorf("reviews of tt0047478 by 4: %v", got)
	}
	exchange(t, b, "POST", "/movies", nil, `{"title":"Paprika","year":2006}`, 401)

	// Create: defaults, null for the unset, uuid4 id, now for the timestamps.
	created := exchange(t, b, "POST", "/movies", auth, `{"title":"Paprika","original_title":"パプリカ","year":2006,"original_language":"ja"}`, 201)
	movie := record(t, created)
	id, _ := movie["id"].(string)
	if !uuid4Re.MatchString(id) || movie["created_at"] != movie["updated_at"] {
		t.Errorf("created %s", created.body)
	}
	for field, want := range map[string]any{"genres": []any{}, "overview": nil, "runtime": nil, "original_title": "パプリカ"} {
		wantField(t, movie, field, want)
	}
	if r := exchange(t, b, "GET", "/movies/"+id, nil, "", 200); r.body != created.body {
		t.Errorf("read %s\nwant %s", r.body, created.body)
	}
	if got := ids(t, exchange(t, b, "GET", "/movies?skip=22", nil, "", 200)); !reflect.DeepEqual(got, []any{id}) {
		t.Errorf("the new movie is not last: %v", got)
	}

	// PATCH changes the fields sent; a non-null field refuses null.
	patched := record(t, exchange(t, b, "PATCH", "/movies/"+id, auth, `{"runtime":90,"genres":["Animation"]}`, 200))
	wantField(t, patched, "runtime", 90.0)
	wantField(t, patched, "title", "Paprika")
	if patched["updated_at"] == movie["updated_at"] {
		t.Errorf("updated_at unchanged: %v", patched)
	}
	exchange(t, b, "PATCH", "/movies/"+id, auth, `{"title":null}`, 422)
	exchange(t, b, "PATCH", "/movies/nope", auth, `{"title":"x"}`, 404)

	// A review: author from the token, relation checked, reactions {}.
	exchange(t, b, "POST", "/reviews", auth, `{"movie_id":"tt0000000","content":"x"}`, 404)
	review := record(t, exchange(t, b, "POST", "/reviews", auth, `{"movie_id":"`+id+`","content":"Dreams within dreams."}`, 201))
	rid, _ := review["id"].(string)
	wantField(t, review, "author_id", 1.0)
	wantField(t, review, "reactions", map[string]any{})
	wantField(t, review, "author", map[string]any{"id": 1.0, "username": "alice", "avatar": "https://images.example.org/avatars/alice.png", "role": "admin"})
	if got := ids(t, exchange(t, b, "GET", "/movies/"+id+"/reviews", nil, "", 200)); !reflect.DeepEqual(got, []any{rid}) {
		t.Errorf("reviews of the new movie: %v", got)
	}
	wantField(t, record(t, exchange(t, b, "PUT", "/reviews/"+rid, auth, `{"content":"Replaced."}`, 200)), "content", "Replaced.")
	wantField(t, record(t, exchange(t, b, "PATCH", "/reviews/"+rid, auth, `{}`, 200)), "content", "Replaced.")

	// Reactions: integer ids counting on from the loaded ones.
	reaction := record(t, exchange(t, b, "POST", "/reviews/"+rid+"/reactions", auth, `{"emoji":"🔥"}`, 201))
	wantField(t, reaction, "id", 31.0)
	wantField(t, reaction, "user_id", 1.0)
	if got := ids(t, exchange(t, b, "GET", "/reviews/"+rid+"/reactions", nil, "", 200)); !reflect.DeepEqual(got, []any{31.0}) {
		t.Errorf("reactions: %v", got)
	}
	exchange(t, b, "POST", "/reviews/nope/reactions", auth, `{"emoji":"👍"}`, 404)

	// DELETE: 204 with no body, then 404; nothing cascades.
	if r := exchange(t, b, "DELETE", "/movies/"+id, auth, "", 204); r.body != "" {
		t.Errorf("DELETE body %q", r.body)
	}
	for _, path := range []string{"/movies/" + id, "/movies/" + id + "/reviews"} {
		if r := exchange(t, b, "GET", path, nil, "", 404); r.body != notFound {
			t.Errorf("GET %s = %s", path, r.body)
		}
	}
	exchange(t, b, "GET", "/reviews/"+rid, nil, "", 200)
	exchange(t, b, "DELETE", "/reviews/"+rid, auth, "", 204)
	exchange(t, b, "DELETE", "/reviews/"+rid, auth, "", 404)
	exchange(t, b, "GET", "/reviews/"+rid+"/reactions", nil, "", 404)

	// Registration, the current user, and reset.
	const newbie = `{"id":11,"username":"newbie","avatar":null,"role":"user"}`
	if r := exchange(t, b, "POST", "/users", nil, `{"username":"newbie","password":"longenough"}`, 201); r.body != newbie {
		t.Errorf("register = %s", r.body)
	}
	if r := exchange(t, b, "POST", "/users", nil, `{"username":"newbie","password":"longenough"}`, 400); r.body != `{"detail":"Username already registered"}` {
		t.Errorf("register again = %s", r.body)
	}
	newbieAuth := bearer(login(t, b, "newbie", "longenough"))
	if r := exchange(t, b, "GET", "/users/me", newbieAuth, "", 200); r.body != newbie {
		t.Errorf("me = %s", r.body)
	}
	b.Reset(t)
	if r := exchange(t, b, "GET", "/users/me", newbieAuth, "", 401); r.body != `{"detail":"Could not validate credentials"}` {
		t.Errorf("me after reset = %s", r.body)
	}
	if got := ids(t, exchange(t, b, "GET", "/movies", nil, "", 200)); len(got) != 22 {
		t.Errorf("%d movies after reset", len(got))
	}
	wantField(t, record(t, exchange(t, b, "POST", "/reviews/b42bfd96-9925-4da9-8c96-eed6b998b81f/reactions", auth, `{"emoji":"👍"}`, 201)), "id", 31.0)
}

// TestContractMoviesOnEmbeddedData runs app/movies.py on the mock's
// embedded fixtures/data: its schemas accept those records as they are,
// and with no movies loaded, movie_id names any movie.
func TestContractMoviesOnEmbeddedData(t *testing.T) {
	t.Parallel()
	b := reference.Start(t, reference.Options{App: reference.AppMovies, Fixtures: filepath.Join("..", "..", "fixtures", "data")})
	if got := ids(t, exchange(t, b, "GET", "/reviews?limit=1000", nil, "", 200)); len(got) != 60 {
		t.Errorf("%d reviews", len(got))
	}
	if r := exchange(t, b, "GET", "/movies", nil, "", 200); r.body != "[]" {
		t.Errorf("movies = %s", r.body)
	}
	exchange(t, b, "GET", "/movies/tt0137523/reviews", nil, "", 200)
	auth := bearer(login(t, b, "zo%C3%AB", "p%C3%A4ssw%C3%B6rd"))
	wantField(t, record(t, exchange(t, b, "GET", "/users/me", auth, "", 200)), "username", "zoë")
	exchange(t, b, "POST", "/reviews", auth, `{"movie_id":"tt9999999","content":"Unheard of."}`, 201)
	wantField(t, record(t, exchange(t, b, "POST", "/users", nil, `{"username":"henry","password":"12345678"}`, 201)), "id", 8.0)
}

// TestContractTasks walks app/tasks.py through the conventions.
func TestContractTasks(t *testing.T) {
	t.Parallel()
	b := reference.Start(t, reference.Options{App: reference.AppTasks})

	// page/size: an envelope with the total and the page count.
	page := record(t, exchange(t, b, "GET", "/projects?size=5&page=3", nil, "", 200))
	for field, want := range map[string]any{"total": 12.0, "page": 3.0, "size": 5.0, "pages": 3.0} {
		wantField(t, page, field, want)
	}
	if items, _ := page["items"].([]any); len(items) != 2 {
		t.Errorf("page 3 of 5: %d items", len(items))
	}
	wantField(t, record(t, exchange(t, b, "GET", "/projects?archived=true", nil, "", 200)), "total", 2.0)
	if r := exchange(t, b, "GET", "/projects?archived=true&size=1&page=5", nil, "", 200); r.body != `{"items":[],"total":2,"page":5,"size":1,"pages":2}` {
		t.Errorf("past the last page: %s", r.body)
	}

	// The stats answer the declared example while the data is as loaded.
	var doc struct {
		Paths map[string]map[string]struct {
			Responses map[string]struct {
				Content map[string]struct {
					Example json.RawMessage `json:"example"`
				} `json:"content"`
			} `json:"responses"`
		} `json:"paths"`
	}
	if err := json.Unmarshal([]byte(exchange(t, b, "GET", "/openapi.json", nil, "", 200).body), &doc); err != nil {
		t.Fatal(err)
	}
	example := string(doc.Paths["/stats"]["get"].Responses["200"].Content["application/json"].Example)
	if r := exchange(t, b, "GET", "/stats", nil, "", 200); example == "" || r.body != example {
		t.Errorf("GET /stats = %s, example %s", r.body, example)
	}
	if r := exchange(t, b, "GET", "/health", nil, "", 200); r.body != `{"status":"ok"}` {
		t.Errorf("GET /health = %s", r.body)
	}

	// Create a project and, nested, a task.
	project := record(t, exchange(t, b, "POST", "/projects", nil, `{"name":"Ünïcode"}`, 201))
	pid, _ := project["id"].(string)
	wantField(t, project, "color", "#64748b")
	wantField(t, project, "archived", false)
	wantField(t, project, "description", nil)
	const unknown = "00000000-0000-4000-8000-000000000000"
	if r := exchange(t, b, "POST", "/projects/"+unknown+"/tasks", nil, `{"title":"x"}`, 404); r.body != `{"detail":"Project not found"}` {
		t.Errorf("task of an unknown project: %s", r.body)
	}
	exchange(t, b, "POST", "/projects/nope/tasks", nil, `{"title":"x"}`, 422)
	task := record(t, exchange(t, b, "POST", "/projects/"+pid+"/tasks", nil, `{"title":"First","tags":["日本語"]}`, 201))
	tid, _ := task["id"].(string)
	if !uuid4Re.MatchString(tid) {
		t.Errorf("task id %q", tid)
	}
	for field, want := range map[string]any{"project_id": pid, "priority": "medium", "done": false, "due_date": nil, "tags": []any{"日本語"}} {
		wantField(t, task, field, want)
	}
	if got := ids(t, exchange(t, b, "GET", "/projects/"+pid+"/tasks", nil, "", 200)); !reflect.DeepEqual(got, []any{tid}) {
		t.Errorf("tasks of the new project: %v", got)
	}
	if got := ids(t, exchange(t, b, "GET", "/tasks?offset=40", nil, "", 200)); !reflect.DeepEqual(got, []any{tid}) {
		t.Errorf("offset 40: %v", got)
	}
	if got := ids(t, exchange(t, b, "GET", "/tasks?project_id="+pid+"&done=true", nil, "", 200)); len(got) != 0 {
		t.Errorf("done tasks of the new project: %v", got)
	}

	// PUT replaces with the body model's defaults; PATCH changes what is sent.
	put := record(t, exchange(t, b, "PUT", "/tasks/"+tid, nil, `{"title":"Replaced","done":true}`, 200))
	wantField(t, put, "tags", []any{})
	wantField(t, put, "done", true)
	patched := record(t, exchange(t, b, "PATCH", "/tasks/"+tid, nil, `{"due_date":"2025-01-31"}`, 200))
	wantField(t, patched, "due_date", "2025-01-31")
	wantField(t, patched, "title", "Replaced")
	exchange(t, b, "PATCH", "/tasks/"+tid, nil, `{"priority":null}`, 422)
	wantField(t, record(t, exchange(t, b, "PUT", "/projects/"+pid, nil, `{"name":"Renamed"}`, 200)), "name", "Renamed")

	// DELETE: nothing cascades.
	exchange(t, b, "DELETE", "/projects/"+pid, nil, "", 204)
	exchange(t, b, "GET", "/projects/"+pid+"/tasks", nil, "", 404)
	exchange(t, b, "GET", "/tasks/"+tid, nil, "", 200)
	exchange(t, b, "DELETE", "/tasks/"+tid, nil, "", 204)
	if r := exchange(t, b, "GET", "/tasks/"+tid, nil, "", 404); r.body != `{"detail":"Task not found"}` {
		t.Errorf("deleted task: %s", r.body)
	}

	b.Reset(t)
	if r := exchange(t, b, "GET", "/stats", nil, "", 200); r.body != example {
		t.Errorf("GET /stats after reset = %s", r.body)
	}
}

func TestContractDirUnknown(t *testing.T) {
	t.Parallel()
	if dir, err := reference.ContractDir(reference.AppMain); err == nil {
		t.Errorf("ContractDir(AppMain) = %s, want an error: main.py's contract is openapi.yaml", dir)
	}
}
