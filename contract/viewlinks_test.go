package contract_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/mock"
)

// linksContract is a list of summaries {title, url} linking to the
// books' records, whose create answers a summary too: no id anywhere
// but in the links.
const linksContract = "../testdata/contracts/links/openapi.json"

// A list whose items link to their records instead of naming their ids
// is followed: the listed records' ids are read from their links (each
// read as the list's own item), the create that answers no id is found
// by its link and followed through its read and its delete, and the
// run's records are deleted by the ids their links name.
func TestRunnerFollowsLinksToRecords(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(linksContract)
	if err != nil {
		t.Fatal(err)
	}
	sp, m, srv := mockOf(t, doc, "openapi.json")
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	report := runAccount(t, contract.Config{Spec: sp, Model: m, BaseURL: ts.URL, MaxResponseTime: time.Minute})
	if f := failed(report); len(f) > 0 {
		t.Errorf("failures on the mock of the document:\n%s", strings.Join(f, "\n"))
	}
	listed := 0
	for _, res := range report.Results {
		if res.Case.Operation == "books_retrieve" && strings.HasSuffix(res.Case.Name, "(listed by books_list)") {
			listed++
		}
	}
	if listed == 0 {
		t.Errorf("no listed book was read by the id its link names")
	}
	notes := strings.Join(report.Notes, "\n")
	for _, want := range []string{"books_create answers no id: record ", "cleanup: deleted "} {
		if !strings.Contains(notes, want) {
			t.Errorf("no note %q:\n%s", want, notes)
		}
	}
	for _, not := range []string{"found by trying", "names no key to delete them by"} {
		if strings.Contains(notes, not) {
			t.Errorf("a note says %q:\n%s", not, notes)
		}
	}
}

// A server whose listed links name no record is caught: the runner reads
// each listed item by the id its link names.
func TestRunnerCatchesLinksToNothing(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(linksContract)
	if err != nil {
		t.Fatal(err)
	}
	sp, m, _ := mockOf(t, doc, "openapi.json")
	d, err := fixtures.Generate(m, fixtures.GenerateOptions{Seed: 1, Default: 3})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: sp, Model: m, Data: d})
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := regexp.MustCompile(`/books/(\d+)/"`)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != "GET" || r.URL.Path != "/books/" {
			srv.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, r)
		w.Header().Set("Content-Type", rec.Header().Get("Content-Type"))
		w.WriteHeader(rec.Code)
		w.Write(elsewhere.ReplaceAll(rec.Body.Bytes(), []byte(`/books/9${1}9/"`)))
	}))
	t.Cleanup(ts.Close)
	report := runAccount(t, contract.Config{Spec: sp, Model: m, BaseURL: ts.URL, MaxResponseTime: time.Minute, NoWrites: true})
	caught := false
	for _, f := range failed(report) {
		if strings.Contains(f, "books_retrieve") && strings.Contains(f, "listed by books_list") {
			caught = true
		}
	}
	if !caught {
		t.Errorf("links to records the server does not hold went unnoticed:\n%s", strings.Join(failed(report), "\n"))
	}
}
