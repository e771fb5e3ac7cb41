package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/internal/reference"
)

// firstWrite hands the first thing written to it over a channel: serve
// writes its whole start-up text in one write.
type firstWrite chan string

func (f firstWrite) Write(p []byte) (int, error) {
	select {
	case f <- string(p):
	default:
	}
	return len(p), nil
}

// serveStartup is serve that also returns what serve printed at start-up.
func serveStartup(t *testing.T, args ...string) (base, startup string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := make(firstWrite, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0", "--quiet"}, args...), noEnv, out, io.Discard)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(time.Minute):
			t.Error("serve did not stop")
		}
	})
	select {
	case startup = <-out:
	case err := <-done:
		t.Fatalf("serve %v did not start: %v", args, err)
	case <-time.After(time.Minute):
		t.Fatalf("serve %v said nothing", args)
	}
	m := regexp.MustCompile(`http://(127\.0\.0\.1:\d+)`).FindStringSubmatch(startup)
	if m == nil {
		t.Fatalf("no address in %q", startup)
	}
	return "http://" + m[1], startup
}

func grownSpec(t *testing.T, app string) string {
	t.Helper()
	dir, err := reference.ContractDir(app)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "openapi.json")
}

// expectCall makes a request and checks its status and, when want is not
// empty, that the body holds want.
func expectCall(t *testing.T, base, method, path, body string, status int, want string, header ...string) []byte {
	t.Helper()
	code, got := mockCall(t, base, method, path, body, header...)
	if code != status || want != "" && !bytes.Contains(got, []byte(want)) {
		t.Errorf("%s %s: %d %s\nwant %d with %s", method, path, code, clip(got), status, want)
	}
	return got
}

func idOf(t *testing.T, body []byte) string {
	t.Helper()
	var rec struct{ ID json.RawMessage }
	if err := json.Unmarshal(body, &rec); err != nil || len(rec.ID) == 0 {
		t.Fatalf("no id in %s", clip(body))
	}
	return strings.Trim(string(rec.ID), `"`)
}

// serve --spec needs no fixture folder: the grown movies contract is served
// from the embedded data where its schemas accept it (persons, users,
// reviews), the rest starts empty and fills by writes; the shipped
// scenarios that fit it work.
func TestGrownMoviesOnEmbeddedData(t *testing.T) {
	t.Parallel()
	base, startup := serveStartup(t, "--spec", grownSpec(t, reference.AppMovies))
	saysAll(t, startup,
		"serving the embedded default data",
		"5 collections: 0 movies, 31 persons, 0 reactions, 60 reviews, 7 users",
		"starting empty (no records): movies, reactions",
		"18 by convention",
		"POST /reviews/{review_id}/reactions: nested create Reaction")
	if strings.Contains(startup, "left out") {
		t.Errorf("a shipped scenario was left out on a contract that has all their paths:\n%s", startup)
	}

	// The embedded data answers as on the embedded contract.
	embedded, _ := serve(t, noEnv, "--quiet")
	for _, path := range []string{"/person/1", "/reviews/b42bfd96-9925-4da9-8c96-eed6b998b81f", "/person/abc"} {
		wantCode, want := mockCall(t, embedded, "GET", path, "")
		if code, got := mockCall(t, base, "GET", path, ""); code != wantCode || !bytes.Equal(got, want) {
			t.Errorf("GET %s: %d %s\nthe embedded contract answers %d %s", path, code, clip(got), wantCode, clip(want))
		}
	}
	expectCall(t, base, "GET", "/movies", "", 200, "[]")

	// A movie's life, by a user of the embedded data.
	code, body := mockCall(t, base, "POST", "/auth/login", "")
	if code != 422 {
		t.Errorf("POST /auth/login with no form: %d %s", code, clip(body))
	}
	auth := []string{"Authorization", login(t, base, "alice", "wonderland")}
	expectCall(t, base, "POST", "/movies", `{"title":"Heat","year":1995}`, 401, `{"detail":"Not authenticated"}`)
	id := idOf(t, expectCall(t, base, "POST", "/movies", `{"title":"Heat","year":1995}`, 201, `"title":"Heat"`, auth...))
	expectCall(t, base, "GET", "/movies/"+id, "", 200, `"original_title":null,"year":1995`)
	expectCall(t, base, "GET", "/movies?limit=10", "", 200, `"id":"`+id+`"`)
	expectCall(t, base, "PATCH", "/movies/"+id, `{"year":1996}`, 200, `"title":"Heat","original_title":null,"year":1996`, auth...)
	expectCall(t, base, "POST", "/reviews", fmt.Sprintf(`{"movie_id":%q,"content":"Long, and worth every minute of it."}`, id), 201, `"author_id":1`, auth...)
	expectCall(t, base, "GET", "/movies/"+id+"/reviews", "", 200, `"content":"Long, and worth every minute of it."`)
	expectCall(t, base, "DELETE", "/movies/"+id, "", 204, "", auth...)
	expectCall(t, base, "GET", "/movies/"+id, "", 404, `{"detail":"Movie not found"}`)

	// A shipped scenario on the grown contract.
	expectCall(t, base, "GET", "/person/1", "", 404, `{"detail":"Person not found"}`, "X-Mock-Scenario", "person-not-found")
}

// The tasks contract shares nothing with the embedded data: it starts with
// every collection empty, and still answers every operation; of the
// shipped scenarios it keeps those that name no path, and says which it
// left out.
func TestGrownTasksFromNothing(t *testing.T) {
	t.Parallel()
	base, startup := serveStartup(t, "--spec", grownSpec(t, reference.AppTasks))
	saysAll(t, startup,
		"2 collections: 0 projects, 0 tasks",
		"starting empty (no records): projects, tasks",
		"shipped scenarios do not fit this contract and are left out",
		"person-not-found")
	expectCall(t, base, "GET", "/projects", "", 200, `{"items":[],"total":0,"page":1,"size":20,"pages":0}`)
	pid := idOf(t, expectCall(t, base, "POST", "/projects", `{"name":"Launch"}`, 201, `"name":"Launch"`))
	tid := idOf(t, expectCall(t, base, "POST", "/projects/"+pid+"/tasks", `{"title":"Write the notes","priority":"high"}`, 201, `"project_id":"`+pid+`"`))
	expectCall(t, base, "GET", "/projects/"+pid+"/tasks", "", 200, `"id":"`+tid+`"`)
	expectCall(t, base, "PUT", "/tasks/"+tid, `{"title":"Notes written","done":true}`, 200, `"title":"Notes written"`)
	expectCall(t, base, "GET", "/tasks/"+tid, "", 200, `"done":true`)
	expectCall(t, base, "DELETE", "/tasks/"+tid, "", 204, "")
	expectCall(t, base, "GET", "/tasks/"+tid, "", 404, `{"detail":"Task not found"}`)
	expectCall(t, base, "GET", "/tasks/not-a-uuid", "", 422, `"type":"uuid_parsing"`)
	expectCall(t, base, "GET", "/health", "", 200, "")
	expectCall(t, base, "GET", "/stats", "", 200, "")

	// Kept: a scenario that names no path. Left out: one about persons.
	for i := 1; i <= 5; i++ {
		expectCall(t, base, "GET", "/projects", "", 200, "", "X-Mock-Scenario", "rate-limited", "X-Mock-Session", "rl")
	}
	expectCall(t, base, "GET", "/projects", "", 429, "", "X-Mock-Scenario", "rate-limited", "X-Mock-Session", "rl")
	expectCall(t, base, "GET", "/projects", "", 400, "person-not-found", "X-Mock-Scenario", "person-not-found")
}

// --generate fills every collection of a grown contract, with relations
// that hold: a generated review's movie exists, and is listed under it.
func TestGrownMoviesGenerated(t *testing.T) {
	t.Parallel()
	base, startup := serveStartup(t, "--spec", grownSpec(t, reference.AppMovies), "--generate", "--seed", "3", "--count", "movies=4", "--count", "reviews=12")
	if !strings.Contains(startup, "generated data (seed 3)") || !strings.Contains(startup, "4 movies") || !strings.Contains(startup, "12 reviews") || strings.Contains(startup, "starting empty") {
		t.Errorf("start-up text:\n%s", startup)
	}
	var reviews []struct {
		ID      string `json:"id"`
		MovieID string `json:"movie_id"`
	}
	if err := json.Unmarshal(expectCall(t, base, "GET", "/reviews?limit=100", "", 200, ""), &reviews); err != nil || len(reviews) != 12 {
		t.Fatalf("GET /reviews: %d reviews, %v", len(reviews), err)
	}
	for _, r := range reviews {
		expectCall(t, base, "GET", "/movies/"+r.MovieID, "", 200, `"id":"`+r.MovieID+`"`)
		expectCall(t, base, "GET", "/movies/"+r.MovieID+"/reviews?limit=100", "", 200, `"id":"`+r.ID+`"`)
	}
}

// login signs in with the OAuth2 password form and returns the
// Authorization header's value.
func login(t *testing.T, base, username, password string) string {
	t.Helper()
	req, _ := http.NewRequest("POST", base+"/auth/login", strings.NewReader(url.Values{"username": {username}, "password": {password}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil || resp.StatusCode != 200 || tok.AccessToken == "" {
		t.Fatalf("login as %s: %d %v", username, resp.StatusCode, err)
	}
	return "Bearer " + tok.AccessToken
}

// A scenario of a grown contract names its paths and collections: a fixture
// of the movies collection, with a field changed, checked against Movie.
func TestScenarioOnGrownContract(t *testing.T) {
	t.Parallel()
	dir, err := reference.ContractDir(reference.AppMovies)
	if err != nil {
		t.Fatal(err)
	}
	scenarioDir := t.TempDir()
	writeFile(t, filepath.Join(scenarioDir, "one-movie.yaml"), `name: one-movie
description: Every movie read answers The Godfather, retitled.
rules:
  - name: same movie
    match: {method: GET, path: "/movies/{movie_id}"}
    respond:
      status: 200
      fixture: movie/tt0068646
      set: {title: Retitled}
`)
	base, _ := serveStartup(t, "--spec", filepath.Join(dir, "openapi.json"), "--fixtures", filepath.Join(dir, "fixtures"), "--scenarios", scenarioDir)
	got := expectCall(t, base, "GET", "/movies/tt0111161", "", 200, `{"id":"tt0068646","title":"Retitled",`, "X-Mock-Scenario", "one-movie")
	want := expectCall(t, base, "GET", "/movies/tt0068646", "", 200, "")
	if !bytes.Equal(got, bytes.Replace(want, []byte(`"title":"The Godfather"`), []byte(`"title":"Retitled"`), 1)) {
		t.Errorf("the scenario's movie:\n got %s\nwant the fixture with its title changed: %s", got, want)
	}

	// A field Movie lacks is refused at load, naming file and line.
	writeFile(t, filepath.Join(scenarioDir, "one-movie.yaml"), `name: one-movie
description: A field the contract does not have.
rules:
  - name: same movie
    match: {method: GET, path: "/movies/{movie_id}"}
    respond:
      status: 200
      fixture: movie/tt0068646
      set: {tagline: Nope}
`)
	var out strings.Builder
	err = run(context.Background(), []string{"scenarios", "check", "--spec", filepath.Join(dir, "openapi.json"), "--fixtures", filepath.Join(dir, "fixtures"), scenarioDir}, noEnv, &out, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "one-movie.yaml:9") || !strings.Contains(err.Error(), "tagline") {
		t.Errorf("scenarios check of a field Movie lacks: %v", err)
	}
}

func writeFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// saysAll checks that the start-up text holds each of wants.
func saysAll(t *testing.T, startup string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(startup, want) {
			t.Errorf("start-up text lacks %q:\n%s", want, startup)
		}
	}
}
