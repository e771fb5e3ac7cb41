package main

import (
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/mock"
)

// watchedFixtures copies the embedded default fixtures into a temporary
// folder and serves it with a watcher that looks only when told to.
func watchedFixtures(t *testing.T) (dir string, w *watcher, get func(path string) (int, string)) {
	t.Helper()
	dir = t.TempDir()
	for _, name := range []string{"persons.yaml", "users.yaml", "reviews.yaml"} {
		text, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "data", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), text, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files := &sources{fixtures: dir, gen: &generateOpts{}}
	loaded := files.stamp()
	data, _, set, err := files.load()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Data: data, Scenarios: set})
	if err != nil {
		t.Fatal(err)
	}
	w = &watcher{files: files, srv: srv, log: slog.New(slog.NewTextHandler(io.Discard, nil)), seen: loaded, last: loaded}
	get = func(path string) (int, string) {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		return rec.Code, rec.Body.String()
	}
	return dir, w, get
}

// A file caught half-written — here persons.yaml cut after its 15th
// person, still valid YAML — is never served: the watcher waits for the
// folder to look the same twice in a row, and the writer has moved on by
// then.
func TestWatchWaitsForHalfWrittenFile(t *testing.T) {
	dir, w, get := watchedFixtures(t)
	file := filepath.Join(dir, "persons.yaml")
	full, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	half := full[:strings.Index(string(full), "- id: 16\n")]
	edited := strings.Replace(string(full), "name: Brad Pitt", "name: William Bradley Pitt", 1)

	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(string(half))
	if w.look() {
		t.Fatal("reloaded at the first look at a half-written file")
	}
	if code, _ := get("/person/31"); code != 200 {
		t.Fatalf("person 31 answered %d while persons.yaml was being written: the half file is served", code)
	}
	write(edited) // the writer finishes
	if w.look() {
		t.Fatal("reloaded a file that changed since the previous look")
	}
	if code, body := get("/person/1"); code != 200 || !strings.Contains(body, `"Brad Pitt"`) {
		t.Fatalf("before the folder settled: %d %s", code, body)
	}
	if !w.look() {
		t.Fatal("the finished file, unchanged on two looks, was not reloaded")
	}
	if code, body := get("/person/1"); code != 200 || !strings.Contains(body, `"William Bradley Pitt"`) {
		t.Fatalf("after the reload: %d %s", code, body)
	}
	if code, _ := get("/person/31"); code != 200 {
		t.Fatalf("person 31 answered %d after the reload", code)
	}
}

// A served file that vanishes — deleted by an editor about to write it
// anew — is waited for: its records keep serving, never an empty list, and
// the new version is served once it is back. A file that stays away is
// accepted as removed after vanishedLooks looks.
func TestWatchWaitsForVanishedFile(t *testing.T) {
	dir, w, get := watchedFixtures(t)
	file := filepath.Join(dir, "reviews.yaml")
	full, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	_, before := get("/reviews")
	if before == "[]" {
		t.Fatal("no reviews to start with")
	}
	served := func(when string) {
		t.Helper()
		if code, body := get("/reviews"); code != 200 || body == "[]" {
			t.Fatalf("%s: GET /reviews answered %d %.80s", when, code, body)
		}
	}

	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	for i := range vanishedLooks + 1 {
		if w.look() {
			t.Fatalf("reloaded at look %d after reviews.yaml was deleted", i+1)
		}
		served("reviews.yaml deleted")
	}
	edited := strings.Replace(string(full), "The twist still lands", "The twist still hits", 1)
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		w.look()
		served("reviews.yaml written anew")
	}
	if _, body := get("/reviews"); !strings.Contains(body, "The twist still hits") {
		t.Fatalf("the file written anew is not served: %.200s", body)
	}

	// Deleted for good: accepted after the grace looks.
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	reloaded := false
	for range vanishedLooks + 2 {
		reloaded = w.look() || reloaded
	}
	if !reloaded {
		t.Fatal("a file deleted for good was never accepted as removed")
	}
}
