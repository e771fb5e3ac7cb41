package mock_test

import (
	"net/http"
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// An operation no convention places that declares a 404 under a path
// parameter keeps no records, so the only records it can know are those
// the contract names (the parameter's examples, enum, default) and those
// the mock's own answers hold: any other value is answered 404, as the
// application's lookup would; without a declared 404 every value is
// answered.
func TestExampleOperationLooksUpItsRecord(t *testing.T) {
	t.Parallel()
	doc := `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{
"/items/":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"example":[{"name":"plumbus"},{"name":"gun","n":7}]}}}}}},
"/items/{item_id}":{"get":{"parameters":[{"name":"item_id","in":"path","required":true,"schema":{"type":"string"},"example":"foo"}],
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{}}}},"404":{"description":"Not found"}}}},
"/things/{n}":{"get":{"parameters":[{"name":"n","in":"path","required":true,"schema":{"type":"integer"}}],
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{}}}},"404":{"description":"Not found"}}}},
"/echo/{word}":{"get":{"parameters":[{"name":"word","in":"path","required":true,"schema":{"type":"string"}}],
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{}}}}}}}}}`
	sp, err := spec.Load([]byte(doc), "lookup.json")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: sp})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		target string
		status int
		body   string
	}{
		{"/items/foo", 200, ""},
		{"/items/plumbus", 200, ""},
		{"/items/gun", 200, ""},
		{"/items/moviemock-unknown-1", 404, `{"detail":"Item not found"}`},
		{"/things/7", 200, ""},
		{"/things/8", 404, `{"detail":"Not found"}`},
		{"/echo/anything", 200, ""},
	} {
		rec := serve(srv, request{target: tc.target})
		if rec.Code != tc.status || tc.body != "" && rec.Body.String() != tc.body {
			t.Errorf("GET %s: %d %s, want %d %s", tc.target, rec.Code, rec.Body, tc.status, tc.body)
		}
		if rec.Code == http.StatusNotFound && rec.Header().Get("Content-Type") != "application/json" {
			t.Errorf("GET %s: Content-Type %q", tc.target, rec.Header().Get("Content-Type"))
		}
	}
}
