package contract_test

import (
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// A contract with list parameters, file fields and form models (the
// document testdata/params_openapi.json, served by a real FastAPI app; see
// mock/testdata/params_cases.py) is tested in full: every operation gets a
// positive case, a file field is sent as a file part of a multipart form,
// a list item's error is expected at its index, a form model's empty
// value is not expected to be refused, and the mock of the contract passes.
func TestListsFilesAndFormModels(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/params_openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(data, "params_openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: sp})
	if err != nil {
		t.Fatal(err)
	}
	report := run(t, srv, contract.Config{Spec: sp, Examples: 30})
	if f := failed(report); len(f) > 0 {
		t.Errorf("%d failures on the mock:\n%s", len(f), strings.Join(f, "\n"))
	}
	for _, n := range report.Notes {
		if strings.Contains(n, "not tested") || strings.Contains(n, "no positive case") {
			t.Errorf("note: %s", n)
		}
	}
	positive := map[string]bool{}
	var itemLoc, multipartFile, emptyModel bool
	for _, res := range report.Results {
		c := res.Case
		if c.Kind == contract.Positive {
			positive[c.Method+" "+c.Path] = true
		}
		if c.Path == "/fu" && c.Kind == contract.Positive {
			multipartFile = strings.HasPrefix(c.Request.Header.Get("Content-Type"), "multipart/form-data; boundary=") &&
				strings.Contains(c.Request.Body, `name="file"; filename=`) && strings.Contains(c.Request.Body, `name="token"`)
		}
		if len(c.Field) == 3 && c.Field[0] == "query" && c.Field[2] == 0 {
			itemLoc = true
		}
		if c.Path == "/fm" && strings.Contains(c.Name, "empty") {
			emptyModel = true
		}
	}
	for _, op := range []string{"GET /q", "GET /qreq", "GET /h", "GET /hreq", "GET /c", "POST /fu", "POST /ful", "POST /fo", "POST /ffl", "POST /fm", "POST /fs"} {
		if !positive[op] {
			t.Errorf("no positive case for %s", op)
		}
	}
	if !multipartFile {
		t.Error("the file field of POST /fu is not sent as a file part")
	}
	if !itemLoc {
		t.Error("no case expects a list item's error at its index")
	}
	if emptyModel {
		t.Error("a form model's empty value is expected to be refused")
	}
}

// The runner sends only the headers a case sets: a backend may refuse any
// header it does not declare (a pydantic header model with
// extra="forbid"), so neither net/http's User-Agent nor its Accept-Encoding
// goes out.
func TestSendsOnlyTheCaseHeaders(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	seen := map[string]bool{}
	h := newMock(t)
	report := run(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		for name := range r.Header {
			seen[name] = true
		}
		mu.Unlock()
		h.ServeHTTP(w, r)
	}), contract.Config{})
	if len(report.Results) == 0 {
		t.Fatal("no case ran")
	}
	mu.Lock()
	defer mu.Unlock()
	for _, name := range []string{"User-Agent", "Accept-Encoding"} {
		if seen[name] {
			t.Errorf("a request carried %s", name)
		}
	}
}
