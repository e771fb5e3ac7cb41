package contract_test

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/spec"
)

// TestProbedIDsNoteNamesEachOnce: the ids the runner tries for a path
// parameter no list names (person_id: the contract's examples, then 1 to
// 5) are tried and listed once each, though an example is one of 1 to 5.
func TestProbedIDsNoteNamesEachOnce(t *testing.T) {
	t.Parallel()
	report := run(t, newMock(t), contract.Config{})
	list := regexp.MustCompile(`found by trying \[([^\]]*)\]`)
	seen := false
	for _, n := range report.Notes {
		m := list.FindStringSubmatch(n)
		if m == nil {
			continue
		}
		seen = true
		ids := strings.Fields(m[1])
		for i, id := range ids {
			for _, other := range ids[:i] {
				if id == other {
					t.Errorf("note names %s twice: %s", id, n)
				}
			}
		}
	}
	if !seen {
		t.Fatalf("no note of probed ids: %q", report.Notes)
	}
}

// A query parameter named as a path parameter (Swashbuckle's PUT
// /stores/{id}?id=) carries the path's value: a generated case sends one
// value for both and is judged by that value, never by one drawn for the
// query alone and overwritten, nor with its path left unfilled.
func TestGeneratedQueryNamedAsThePath(t *testing.T) {
	t.Parallel()
	doc := `{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{
"/stores/{id}":{"put":{"parameters":[{"name":"id","in":"query","schema":{"type":"integer"}},{"name":"id","in":"path","required":true,"schema":{"type":"integer"}},{"name":"location","in":"query","schema":{"type":"string"}}],
 "responses":{"200":{"description":"ok"}}}}}}`
	sp, err := spec.Load([]byte(doc), "stores.json")
	if err != nil {
		t.Fatal(err)
	}
	integer := func(s string) bool { _, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); return err == nil }
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if !integer(strings.TrimPrefix(r.URL.Path, "/stores/")) || (q.Has("id") && !integer(q.Get("id"))) {
			w.WriteHeader(http.StatusBadRequest)
		}
	})
	report := run(t, h, contract.Config{Spec: sp, Examples: 60, Checks: []string{"negative_data_rejection", "positive_data_acceptance", "validation_error_shape"}})
	if f := failed(report); len(f) > 0 {
		t.Errorf("%d failures on a correct target:\n%s", len(f), strings.Join(f, "\n"))
	}
	for _, res := range report.Results {
		if res.Case.Kind == contract.Generated && strings.Contains(res.Case.Request.URL, "{id}") {
			t.Errorf("%s: the path's id left unfilled: %s", res.Case.Name, res.Case.Request.URL)
		}
	}
}
