package contract_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
)

// The stateful sequences check each write through the document's own
// reads: an action on a record (POST /articles/{slug}/favorite) shows in
// its answer and in the read after, its undo (DELETE on the same path)
// too, and a list's count moves by one with a create and a delete. The
// RealWorld mock is correct by construction; each bug is one middleware in
// front of it.

// writeChecks are the verdicts of the sequence steps whose name holds
// part, by passed.
func writeChecks(report *contract.Report, part string) (passed, failed int, names []string) {
	for _, r := range report.Results {
		if r.Case.Kind != contract.Sequence || !strings.Contains(r.Case.Name, part) {
			continue
		}
		for _, c := range r.Checks {
			if !strings.HasPrefix(c.Check, "stateful_") {
				continue
			}
			if c.Passed {
				passed++
			} else {
				failed++
				names = append(names, r.Case.Name+": "+c.Expected+" / "+c.Got)
			}
		}
	}
	return passed, failed, names
}

func runWrites(t *testing.T, wrap func(http.Handler) http.Handler) *contract.Report {
	t.Helper()
	sp, ts, _ := realWorld(t, wrap)
	report, err := runRealWorld(t, sp, ts, contract.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return report
}

func TestWritesReflectedOnMock(t *testing.T) {
	t.Parallel()
	report := runWrites(t, nil)
	for _, r := range report.Results {
		if r.Failed() {
			t.Errorf("a failure against the RealWorld mock: %s %s %q %+v", r.Case.Method, r.Case.Path, r.Case.Name, r.Checks)
		}
	}
	// favorite, its read, unfavorite, its read.
	if p, _, _ := writeChecks(report, "(favorited "); p != 4 {
		t.Errorf("%d action verdicts passed, want 4 (notes %q)", p, report.Notes)
	}
	// GET /articles's articlesCount after the create and after the delete.
	counts := 0
	for _, r := range report.Results {
		for _, c := range r.Checks {
			if c.Passed && r.Case.Path == "/articles" && r.Case.Method == "GET" && strings.Contains(r.Case.Name, "the list") && strings.HasPrefix(c.Check, "stateful_") {
				counts++
			}
		}
	}
	if counts != 4 {
		t.Errorf("%d list verdicts on GET /articles, want the record's and the count's after the create and the delete", counts)
	}
}

// changeAnswer answers a matching request with the inner handler's answer to
// the request as changed by req, then changes the answer's JSON by body.
func changeAnswer(match func(*http.Request) bool, req func(*http.Request), body func(map[string]any)) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !match(r) {
				next.ServeHTTP(w, r)
				return
			}
			if req != nil {
				req(r)
			}
			rec := httptest.NewRecorder()
			next.ServeHTTP(rec, r)
			out := rec.Body.Bytes()
			var m map[string]any
			if body != nil && json.Unmarshal(out, &m) == nil {
				body(m)
				out, _ = json.Marshal(m)
			}
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.Header().Del("Content-Length")
			w.WriteHeader(rec.Code)
			w.Write(bytes.Clone(out))
		})
	}
}

// A favorite the backend answers but never stores: the answer is the
// article as it was.
func TestFavoriteNotStored(t *testing.T) {
	t.Parallel()
	report := runWrites(t, changeAnswer(func(r *http.Request) bool {
		return r.Method == "POST" && strings.HasSuffix(r.URL.Path, "/favorite")
	}, func(r *http.Request) {
		r.Method = "GET"
		r.URL.Path = strings.TrimSuffix(r.URL.Path, "/favorite")
	}, nil))
	if _, failed, names := writeChecks(report, "the action"); failed == 0 {
		t.Errorf("a favorite not stored: not caught (notes %q)", report.Notes)
	} else {
		t.Logf("caught: %q", names)
	}
}

// A favorite stored, but its count never moves.
func TestFavoritesCountStill(t *testing.T) {
	t.Parallel()
	report := runWrites(t, changeAnswer(func(r *http.Request) bool {
		return strings.Contains(r.URL.Path, "/articles/")
	}, nil, func(m map[string]any) {
		if a, ok := m["article"].(map[string]any); ok {
			a["favoritesCount"] = 0
		}
	}))
	_, failed, names := writeChecks(report, "the action")
	if failed == 0 || !strings.Contains(strings.Join(names, "\n"), "favoritesCount") {
		t.Errorf("a count that never moves: not caught (%q, notes %q)", names, report.Notes)
	}
}

// A list whose count never moves: articlesCount stays what it was.
func TestListCountStill(t *testing.T) {
	t.Parallel()
	report := runWrites(t, changeAnswer(func(r *http.Request) bool {
		return r.Method == "GET" && r.URL.Path == "/articles"
	}, nil, func(m map[string]any) {
		m["articlesCount"] = 1000
	}))
	caught := false
	for _, r := range report.Results {
		for _, c := range r.Checks {
			if !c.Passed && r.Case.Path == "/articles" && strings.Contains(c.Expected, "count") {
				caught = true
			}
		}
	}
	if !caught {
		t.Errorf("a list count that never moves: not caught (notes %q)", report.Notes)
	}
}

// A partial update sends a falsy value (done: false after the replace set
// it true): the tasks mock stores it; a backend that skips falsy fields
// (`if body.done:`) keeps the old value, and is caught.
func TestFalsyUpdateStored(t *testing.T) {
	t.Parallel()
	h, sp := contractMock(t, "tasks", nil)
	run := func(wrap func(http.Handler) http.Handler) *contract.Report {
		var hh http.Handler = h
		if wrap != nil {
			hh = wrap(h)
		}
		ts := httptest.NewServer(hh)
		defer ts.Close()
		return runSequences(t, ts.URL, sp, "tasks", false)
	}
	if f := failed(run(nil)); len(f) > 0 {
		t.Errorf("failures on the tasks mock:\n%s", strings.Join(f, "\n"))
	}
	skipsFalsy := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == "PATCH" {
				var m map[string]any
				if json.NewDecoder(r.Body).Decode(&m) == nil {
					for k, v := range m {
						if v == false || v == 0.0 {
							delete(m, k)
						}
					}
					raw, _ := json.Marshal(m)
					r.Body = io.NopCloser(bytes.NewReader(raw))
					r.ContentLength = int64(len(raw))
				}
			}
			next.ServeHTTP(w, r)
		})
	}
	report := run(skipsFalsy)
	caught := false
	for _, r := range report.Results {
		for _, c := range r.Checks {
			if !c.Passed && c.Check == "stateful_update" && strings.Contains(r.Case.Name, "the falsy") {
				caught = true
			}
		}
	}
	if !caught {
		t.Errorf("a PATCH that skips falsy values: not caught:\n%s", strings.Join(failed(report), "\n"))
	}
}

// A replace of an article keyed by its slug is verified: the change in
// its answer and in the read after. A backend whose PUT ignores the title
// it is sent is caught.
func TestKeyedReplaceIgnoresField(t *testing.T) {
	t.Parallel()
	if p, f, names := writeChecks(runWrites(t, nil), "(PUT)"); p == 0 || f > 0 {
		t.Errorf("the replace of an article on the mock: %d passed, %d failed %q", p, f, names)
	}
	ignoresTitle := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == "PUT" && strings.HasPrefix(r.URL.Path, "/articles/") {
				var m map[string]map[string]any
				if json.NewDecoder(r.Body).Decode(&m) == nil {
					delete(m["article"], "title")
					raw, _ := json.Marshal(m)
					r.Body = io.NopCloser(bytes.NewReader(raw))
					r.ContentLength = int64(len(raw))
				}
			}
			next.ServeHTTP(w, r)
		})
	}
	if _, f, names := writeChecks(runWrites(t, ignoresTitle), "(PUT)"); f == 0 || !strings.Contains(strings.Join(names, "\n"), "title") {
		t.Errorf("a PUT that ignores the title: not caught (%q)", names)
	}
}

// A comment is created under an article the run created (its parent
// keyed by its slug), found in the article's comments, deleted, and gone
// from them. A backend whose comments list never shows a comment is
// caught; the mock is not.
func TestNestedUnderKeyedParent(t *testing.T) {
	t.Parallel()
	report := runWrites(t, nil)
	if p, f, names := writeChecks(report, "its Article's list"); p != 2 || f > 0 {
		t.Errorf("the comment in and then gone from its article's list on the mock: %d passed, %d failed %q (notes %q)", p, f, names, report.Notes)
	}
	if p, _, _ := writeChecks(report, "DeleteArticleComment: the record is deleted"); p != 1 {
		t.Errorf("the comment's delete: %d verdicts passed, want 1", p)
	}
	noComments := changeAnswer(func(r *http.Request) bool {
		return r.Method == "GET" && strings.HasSuffix(r.URL.Path, "/comments")
	}, nil, func(m map[string]any) { m["comments"] = []any{} })
	if _, f, _ := writeChecks(runWrites(t, noComments), "its Article's list"); f == 0 {
		t.Errorf("a comment never listed: not caught")
	}
}
