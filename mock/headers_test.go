package mock_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// A response header the document declares required is in the answer:
// its example, else a value of its schema; one not required is not
// made up.
func TestRequiredResponseHeaders(t *testing.T) {
	t.Parallel()
	const doc = `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /countries:
    get:
      responses:
        "200":
          description: ok
          headers:
            ETag: {required: true, schema: {type: string}, example: '"abc"'}
            X-Total: {schema: {type: integer}}
          content: {application/json: {schema: {type: array, items: {$ref: "#/components/schemas/Country"}}}}
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: "#/components/schemas/Country"}}}}
      responses:
        "201":
          description: made
          headers:
            Location: {required: true, schema: {type: string, format: uri}}
          content: {application/json: {schema: {$ref: "#/components/schemas/Country"}}}
components:
  schemas:
    Country: {type: object, required: [name], properties: {id: {type: integer, readOnly: true}, name: {type: string}}}
`
	sp, err := spec.Load([]byte(doc), "headers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: sp, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	list := serve(srv, request{method: "GET", target: "/countries"})
	if list.Code != 200 || list.Header().Get("ETag") != `"abc"` || list.Header().Get("X-Total") != "" {
		t.Errorf("GET: %d, ETag %q, X-Total %q; want 200, \"abc\", none", list.Code, list.Header().Get("ETag"), list.Header().Get("X-Total"))
	}
	made := serve(srv, request{method: "POST", target: "/countries", body: `{"name":"Sweden"}`, header: http.Header{"Content-Type": {"application/json"}}})
	loc, err := url.Parse(made.Header().Get("Location"))
	if made.Code != 201 || err != nil || loc.Scheme == "" {
		t.Errorf("POST: %d, Location %q; want 201 and a URI", made.Code, made.Header().Get("Location"))
	}
}
