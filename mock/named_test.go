package mock_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/moviemock/moviemock/internal/framework"
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
	// Under the plain-OpenAPI profile a 404 declared without content is
	// answered with RFC 9457's problem details.
	problem := func(detail string) string {
		return `{"type":"about:blank","title":"Not Found","status":404,"detail":"` + detail + `"}`
	}
	for _, profile := range []framework.Name{framework.FastAPI, framework.OpenAPI} {
		srv, err := mock.New(mock.Config{Spec: sp, Model: compiled(t, sp, profile)})
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
			want, media := tc.body, "application/json"
			if profile == framework.OpenAPI && tc.status == 404 {
				var d map[string]string
				json.Unmarshal([]byte(tc.body), &d)
				want, media = problem(d["detail"]), "application/problem+json"
			}
			rec := serve(srv, request{target: tc.target})
			if rec.Code != tc.status || want != "" && rec.Body.String() != want {
				t.Errorf("%s: GET %s: %d %s, want %d %s", profile, tc.target, rec.Code, rec.Body, tc.status, want)
			}
			if rec.Code == http.StatusNotFound && rec.Header().Get("Content-Type") != media {
				t.Errorf("%s: GET %s: Content-Type %q", profile, tc.target, rec.Header().Get("Content-Type"))
			}
		}
	}
}
