package contract_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// corpusDoc is the document a FastAPI docs app of the corpus serves.
func corpusDoc(t *testing.T, app string) *spec.Spec {
	return docAt(t, "fastapi-docs", "openapi", app+".json")
}

// docAt is the document at the path elem names under testdata/corpus.
func docAt(t *testing.T, elem ...string) *spec.Spec {
	t.Helper()
	path := filepath.Join(append([]string{"..", "testdata", "corpus"}, elem...)...)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(data, path)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// TestAppRulesTheContractCannotState: what a correct FastAPI app may answer
// for a rule of its own code the document cannot state is no failure; what
// only looks alike still is. Each backend is the mock of the app's own
// document with the app's rule in front of it.
func TestAppRulesTheContractCannotState(t *testing.T) {
	t.Parallel()
	detail := func(w http.ResponseWriter, status int, body string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write([]byte(body))
	}
	for _, tc := range []struct {
		name string
		app  string
		rule func(w http.ResponseWriter, r *http.Request) bool // true: answered
		// failing are the checks that must fail; none: the run passes.
		failing []string
	}{
		{
			// An AfterValidator: pydantic's value_error.
			name: "an own validator refuses a value the document allows",
			app:  "query_params_str_validations.tutorial015_an_py310",
			rule: func(w http.ResponseWriter, r *http.Request) bool {
				id := r.URL.Query().Get("id")
				if id == "" || strings.HasPrefix(id, "isbn-") {
					return false
				}
				detail(w, 422, `{"detail":[{"type":"value_error","loc":["query","id"],"msg":"Value error, Invalid ID format","input":"x","ctx":{"error":{}}}]}`)
				return true
			},
		},
		{
			name: "a built-in error refuses a value the document allows",
			app:  "query_params_str_validations.tutorial015_an_py310",
			rule: func(w http.ResponseWriter, r *http.Request) bool {
				if r.URL.Query().Get("id") == "" {
					return false
				}
				detail(w, 422, `{"detail":[{"type":"string_too_short","loc":["query","id"],"msg":"String should have at least 50 characters","input":"x","ctx":{"min_length":50}}]}`)
				return true
			},
			failing: []string{"positive_data_acceptance"},
		},
		{
			// make_not_authenticated_error, FastAPI's answer before 0.122.
			name: "403 Not authenticated without credentials",
			app:  "authentication_error_status_code.tutorial001_an_py310",
			rule: func(w http.ResponseWriter, r *http.Request) bool {
				if r.Header.Get("Authorization") != "" {
					return false
				}
				detail(w, 403, `{"detail":"Not authenticated"}`)
				return true
			},
		},
		{
			name: "403 of the app's own words without credentials",
			app:  "authentication_error_status_code.tutorial001_an_py310",
			rule: func(w http.ResponseWriter, r *http.Request) bool {
				if r.Header.Get("Authorization") != "" {
					return false
				}
				detail(w, 403, `{"detail":"Go away"}`)
				return true
			},
			failing: []string{"auth_required", "status_code_conformance"},
		},
		{
			// strict_content_type=False, or FastAPI before it.
			name: "a JSON body without Content-Type read as JSON",
			app:  "strict_content_type.tutorial001_py310",
			rule: func(w http.ResponseWriter, r *http.Request) bool {
				if r.Method == http.MethodPost && r.Header.Get("Content-Type") == "" {
					r.Header.Set("Content-Type", "application/json")
				}
				return false
			},
		},
		{
			name: "a JSON body without Content-Type a server error",
			app:  "strict_content_type.tutorial001_py310",
			rule: func(w http.ResponseWriter, r *http.Request) bool {
				if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "" {
					return false
				}
				http.Error(w, "Internal Server Error", http.StatusInternalServerError)
				return true
			},
			failing: []string{"not_a_server_error", "status_code_conformance"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sp := corpusDoc(t, tc.app)
			m, err := mock.New(mock.Config{Spec: sp})
			if err != nil {
				t.Fatal(err)
			}
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if !tc.rule(w, r) {
					m.ServeHTTP(w, r)
				}
			})
			report := run(t, h, contract.Config{Spec: sp, Examples: 10})
			got := map[string]bool{}
			for _, tl := range report.ByCheck() {
				if tl.Failed > 0 {
					got[tl.Name] = true
				}
			}
			for _, name := range tc.failing {
				if !got[name] {
					t.Errorf("%s does not fail", name)
				}
				delete(got, name)
			}
			if len(got) > 0 {
				t.Errorf("other failures:\n%s", strings.Join(failed(report), "\n"))
			}
		})
	}
}
