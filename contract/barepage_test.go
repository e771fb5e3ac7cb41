package contract_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// bareListDoc lists tasks a page at a time (?page=&per_page=) as a bare
// array, its total told in headers the document does not declare, as
// Vikunja's go-swagger document does.
const bareListDoc = `{"openapi":"3.0.3","info":{"title":"tasks","version":"1"},
"paths":{
 "/tasks":{
  "get":{"parameters":[{"name":"page","in":"query","schema":{"type":"integer"}},{"name":"per_page","in":"query","schema":{"type":"integer"}}],
   "responses":{"200":{"description":"OK","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/Task"}}}}}}},
  "post":{"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Task"}}}},
   "responses":{"200":{"description":"OK","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Task"}}}}}}},
 "/tasks/{id}":{
  "get":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],
   "responses":{"200":{"description":"OK","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Task"}}}},"404":{"description":"gone"}}},
  "delete":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],
   "responses":{"200":{"description":"OK"},"404":{"description":"gone"}}}}},
"components":{"schemas":{"Task":{"type":"object","properties":{"id":{"type":"integer","readOnly":true},"title":{"type":"string"}}}}}}`

// A list paged by page and size that answers a bare array has no total
// to check: its pages are held to their size and to following on, not
// to a page object's members.
func TestPagesOfABareList(t *testing.T) {
	t.Parallel()
	sp, m, srv := mockOf(t, []byte(bareListDoc), "tasks.json")
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	report := runAccount(t, contract.Config{Spec: sp, Model: m, BaseURL: ts.URL, MaxResponseTime: time.Minute,
		Checks: []string{"not_a_server_error", "paging_and_filters"}})
	if f := failed(report); len(f) > 0 {
		t.Errorf("failures on the mock of the document:\n%s", strings.Join(f, "\n"))
	}
	if tallies(report)["paging_and_filters"][0] == 0 {
		t.Errorf("paging_and_filters never passed: %v", report.Notes)
	}
}

// mockOf is the mock of the contract doc (named name), with accounts.
func mockOf(t *testing.T, doc []byte, name string, accounts ...mock.Account) (*spec.Spec, *model.Model, http.Handler) {
	t.Helper()
	sp, err := spec.Load(doc, name)
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Compile(sp)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: sp, Model: m, Accounts: accounts})
	if err != nil {
		t.Fatal(err)
	}
	return sp, m, srv
}
