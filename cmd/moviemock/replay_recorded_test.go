package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract/replay"
	"github.com/moviemock/moviemock/internal/reference"
)

// replayNotes runs moviemock replay and gives each change as a line with
// its note ("#2 GET /items/1: breaking made-null note (string → null):
// NOTE"), the calls' notes, and the exit code.
func replayNotes(t *testing.T, args ...string) (changes, notes []string, code int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), append([]string{"replay", "--format", "json"}, args...), noEnv, &stdout, &stderr)
	code = exitCode(err, &stderr)
	if code == exitUsage {
		t.Fatalf("replay %q: exit 2: %s", args, stderr.String())
	}
	var report struct {
		RecordedSpec string `json:"recorded_spec"`
		Calls        []struct {
			Index        int
			Method, Path string
			Skipped      string
			Changes      []struct{ Level, Kind, Path, Was, Now, Note string }
			Notes        []string
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
		t.Fatalf("replay %q: %v\n%s", args, err, stdout.String())
	}
	for _, c := range report.Calls {
		head := fmt.Sprintf("#%d %s %s: ", c.Index, c.Method, c.Path)
		if c.Skipped != "" {
			changes = append(changes, head+"skipped")
		}
		for _, ch := range c.Changes {
			line := fmt.Sprintf("%s%s %s %s (%s → %s)", head, ch.Level, ch.Kind, replay.Change{Path: ch.Path}.Where(), ch.Was, ch.Now)
			if ch.Note != "" {
				line += ": " + ch.Note
			}
			changes = append(changes, line)
		}
		for _, n := range c.Notes {
			notes = append(notes, head+n)
		}
	}
	return changes, notes, code
}

// itemsJournal records a journal on the mock of the items contract
// (testdata/traffic/items, items_app.py) holding the recorded records: the list and
// both items read.
func itemsJournal(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(repoRoot, "testdata/traffic/items")
	recorded, _ := serve(t, noEnv, "--quiet", "--spec", filepath.Join(dir, "openapi.json"), "--fixtures", filepath.Join(dir, "recorded"))
	for _, path := range []string{"/items", "/items/1", "/items/2"} {
		if status, body := get(t, recorded+path); status != 200 {
			t.Fatalf("GET %s: %d %s", path, status, body)
		}
	}
	status, body := get(t, recorded+"/__mock/journal")
	if status != 200 {
		t.Fatalf("GET /__mock/journal: %d %s", status, body)
	}
	journal := filepath.Join(t.TempDir(), "journal.json")
	if err := os.WriteFile(journal, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return journal
}

// checkItemsReplay replays the items journal to target, a backend of the
// same contract holding other records: breaking changes that say they
// may be values without --recorded-spec, none with it.
func checkItemsReplay(t *testing.T, journal, target string) {
	t.Helper()
	doc := filepath.Join(repoRoot, "testdata/traffic/items/openapi.json")
	changes, _, code := replayNotes(t, journal, "--base-url", target)
	maybe := ": " + replay.NoteMaybeValue
	want := []string{
		"#1 GET /items: breaking type [].code (integer → string)" + maybe,
		"#1 GET /items: breaking type [].extra (object → string|null)" + maybe,
		"#1 GET /items: breaking made-null [].extra (object → string|null)" + maybe,
		"#1 GET /items: breaking made-null [].note (string → null)" + maybe,
		"#1 GET /items: breaking made-null [].poster (object → object|null)" + maybe,
		"#1 GET /items: breaking made-null [].poster.width (integer → null)" + maybe,
		"#1 GET /items: breaking made-null [].scores{} (number → null)" + maybe,
		"#2 GET /items/1: breaking type code (integer → string)" + maybe,
		"#2 GET /items/1: breaking type extra (object → string)" + maybe,
		"#2 GET /items/1: breaking made-null note (string → null)" + maybe,
		"#2 GET /items/1: breaking made-null poster.width (integer → null)" + maybe,
		"#2 GET /items/1: breaking made-null scores{} (number → null)" + maybe,
		"#3 GET /items/2: breaking type code (integer → string)" + maybe,
		"#3 GET /items/2: breaking made-null extra (object → null)" + maybe,
		"#3 GET /items/2: breaking made-null note (string → null)" + maybe,
		"#3 GET /items/2: breaking made-null poster (object → null)" + maybe,
	}
	if !slices.Equal(slices.Sorted(slices.Values(changes)), slices.Sorted(slices.Values(want))) || code != exitFailure {
		t.Errorf("without --recorded-spec: exit %d, changes:\n  %s\nwant exit 1:\n  %s", code, strings.Join(changes, "\n  "), strings.Join(want, "\n  "))
	}

	changes, notes, code := replayNotes(t, journal, "--base-url", target, "--recorded-spec", doc)
	if len(changes) != 0 || code != exitOK {
		t.Errorf("with --recorded-spec: exit %d, changes:\n  %s\nwant none, exit 0", code, strings.Join(changes, "\n  "))
	}
	if !slices.ContainsFunc(notes, func(n string) bool {
		return strings.HasPrefix(n, "#2 GET /items/1: values the recorded contract allows, not changes: ")
	}) {
		t.Errorf("with --recorded-spec: notes %q say nothing of the values excused", notes)
	}
}

// A journal recorded on the mock of a contract, replayed to the mock of
// the same contract holding other data (null in its Optional fields, the
// other kind of an int | str union, a string in an Any field), raises no
// alarm knowing the contract the recording was made against: those are
// values. Without it they are breaking changes that say they may be values.
func TestReplayRecordedSpec(t *testing.T) {
	t.Parallel()
	journal := itemsJournal(t)
	dir := filepath.Join(repoRoot, "testdata/traffic/items")
	other, _ := serve(t, noEnv, "--quiet", "--spec", filepath.Join(dir, "openapi.json"), "--fixtures", filepath.Join(dir, "other"))
	checkItemsReplay(t, journal, other)
}

// The FastAPI app the items contract comes from, holding the other
// records, is a correct backend of it: the same, no alarm with
// --recorded-spec.
func TestReplayRecordedSpecReference(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs(filepath.Join(repoRoot, "testdata/traffic/items"))
	if err != nil {
		t.Fatal(err)
	}
	app := reference.StartApp(t, reference.App{Dir: dir, Module: "items_app", Env: []string{"ITEMS_FILE=" + filepath.Join(dir, "other/items.json")}})
	checkItemsReplay(t, itemsJournal(t), app.URL)
}

// A field the change makes nullable (movie_year_nullable) is still a
// breaking change for a recording made against the base contract, which
// did not allow null there, and the change says so.
func TestReplayRecordedSpecNullableAdded(t *testing.T) {
	t.Parallel()
	base := filepath.Join(repoRoot, "testdata/contracts/movies/openapi.json")
	fixtures := t.TempDir()
	src := filepath.Join(repoRoot, "testdata/contracts/movies/fixtures")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == "movies.yaml" {
			// Fight Club, the movie the page opens, has no year now.
			data = bytes.Replace(data, []byte("original_title: null\n  year: 1999\n"), []byte("original_title: null\n  year: null\n"), 1)
		}
		if err := os.WriteFile(filepath.Join(fixtures, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	target, _ := serve(t, noEnv, "--quiet", "--spec", filepath.Join(repoRoot, "testdata/changes/movies/movie_year_nullable.json"), "--fixtures", fixtures)
	for _, tc := range []struct {
		name string
		args []string
		note string
	}{
		{"without --recorded-spec", nil, replay.NoteMaybeValue},
		{"with --recorded-spec of the base", []string{"--recorded-spec", base}, replay.NoteNotAllowed},
	} {
		changes, _, code := replayNotes(t, append(append([]string{moviesPageHAR, "--base-url", target}, pageArgs...), tc.args...)...)
		want := []string{"#5 GET /movies/tt0137523: breaking made-null year (integer → null): " + tc.note}
		if !slices.Equal(changes, want) || code != exitFailure {
			t.Errorf("%s: exit %d, changes:\n  %s\nwant exit 1:\n  %s", tc.name, code, strings.Join(changes, "\n  "), strings.Join(want, "\n  "))
		}
	}
}
