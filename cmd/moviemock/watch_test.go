package main

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/moviemock/moviemock/mock"
)

// An edit made after serve took its stamp but before the watcher first
// looked is reloaded: the watcher compares with what was loaded, not with
// what it first saw.
func TestWatchSeesEditsMadeBeforeItStarts(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "gone.yaml")
	if err := os.WriteFile(file, []byte(goneScenario("first")), 0o644); err != nil {
		t.Fatal(err)
	}
	files := &sources{scenarios: dir, gen: &generateOpts{}}
	loaded := files.stamp()
	data, _, set, err := files.load()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Data: data, Scenarios: set})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(goneScenario("later")), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go files.watch(ctx, loaded, 5*time.Millisecond, srv, slog.New(slog.NewTextHandler(io.Discard, nil)))
	eventually(t, "the edit served", func() bool {
		req := httptest.NewRequest("GET", "/person/1", nil)
		req.Header.Set("X-Mock-Scenario", "gone")
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		return rec.Body.String() == `{"detail":"later"}`
	})
}

// Two edits of the same length within one tick of the file clock share a
// size and a modification time; a small file's stamp still tells them apart.
func TestStampSeesSameSizeEdits(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.yaml")
	when := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	write := func(text string) string {
		t.Helper()
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(file, when, when); err != nil {
			t.Fatal(err)
		}
		return stamp(dir)
	}
	if write("detail: one") == write("detail: two") {
		t.Error("same size, same time, other contents: same stamp")
	}
	if two := write("detail: two"); write("detail: two") != two {
		t.Error("nothing changed, yet the stamp did")
	}
	// Not data files: other extensions are not watched.
	before := stamp(dir)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644)
	if stamp(dir) != before {
		t.Error("a .txt file changed the stamp")
	}
}
