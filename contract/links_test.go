package contract_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// moviesWithLinks is the movies contract with links on createMovie's 201.
func moviesWithLinks(t *testing.T, links map[string]any) *spec.Spec {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "contracts", "movies", "openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	created := doc["paths"].(map[string]any)["/movies"].(map[string]any)["post"].(map[string]any)["responses"].(map[string]any)["201"].(map[string]any)
	created["links"] = links
	data, err = json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(data, "movies-with-links.json")
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

func runLinked(t *testing.T, sp *spec.Spec) *contract.Report {
	t.Helper()
	m, err := model.Compile(sp)
	if err != nil {
		t.Fatal(err)
	}
	d, err := fixtures.LoadDir(filepath.Join("..", "testdata", "contracts", "movies", "fixtures"), m)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: sp, Model: m, Data: d})
	if err != nil {
		t.Fatal(err)
	}
	return run(t, srv, contract.Config{Spec: sp, Username: "alice", Password: "wonderland", Checks: sequenceChecks, Examples: 1})
}

// Declared links are followed from the create answer: a read and a nested
// list each get a step; a link whose expression points at the wrong field
// reads nothing and fails; one naming no operation is a note.
func TestSequencesFollowLinks(t *testing.T) {
	t.Parallel()
	report := runLinked(t, moviesWithLinks(t, map[string]any{
		"GetCreated":   map[string]any{"operationId": "getMovie", "parameters": map[string]any{"movie_id": "$response.body#/id"}},
		"ItsReviews":   map[string]any{"operationId": "listMovieReviews", "parameters": map[string]any{"path.movie_id": "$response.body#/id"}},
		"Nowhere":      map[string]any{"operationId": "noSuchOperation", "parameters": map[string]any{"x": "$response.body#/id"}},
		"DeleteItSoon": map[string]any{"operationId": "deleteMovie", "parameters": map[string]any{"movie_id": "$response.body#/id"}},
	}))
	if f := failed(report); len(f) > 0 {
		t.Errorf("failures following good links:\n%s", strings.Join(f, "\n"))
	}
	followed := map[string]bool{}
	for _, res := range report.Results {
		for _, link := range []string{"GetCreated", "ItsReviews", "DeleteItSoon"} {
			if strings.HasSuffix(res.Case.Name, "the contract's link "+link) {
				followed[link] = true
				if res.Response.Status != 200 {
					t.Errorf("link %s: %s answered %d", link, res.Case.Request.URL, res.Response.Status)
				}
			}
		}
	}
	if !followed["GetCreated"] || !followed["ItsReviews"] {
		t.Errorf("links followed: %v", followed)
	}
	if followed["DeleteItSoon"] {
		t.Errorf("a linked DELETE was sent without --allow-destructive")
	}
	if !strings.Contains(strings.Join(report.Notes, "\n"), `link Nowhere: the contract has no operation "noSuchOperation"`) {
		t.Errorf("no note of the broken link: %q", report.Notes)
	}

	// A link taking the wrong field: the read it makes is a 404, which the
	// convention-based read back would never have sent.
	report = runLinked(t, moviesWithLinks(t, map[string]any{
		"GetCreated": map[string]any{"operationId": "getMovie", "parameters": map[string]any{"movie_id": "$response.body#/title"}},
	}))
	var caught bool
	for _, f := range failed(report) {
		caught = caught || strings.HasPrefix(f, "stateful_create_read:") && strings.Contains(f, "link GetCreated")
	}
	if !caught {
		t.Errorf("a link to the wrong field did not fail stateful_create_read:\n%s", strings.Join(failed(report), "\n"))
	}
}
