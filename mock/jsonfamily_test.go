package mock_test

import (
	"net/http"
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// A body a document not FastAPI's declares only in a JSON media type
// other than application/json (JSON:API's, with its parameter) is
// validated as JSON: one without a required member is refused.
func TestBodyInAnotherJSONMediaTypeIsValidated(t *testing.T) {
	t.Parallel()
	const doc = `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /countries:
    post:
      requestBody:
        required: true
        content:
          'application/vnd.api+json; ext="https://example.org/ext"': {schema: {$ref: "#/components/schemas/Document"}}
      responses:
        "201": {description: made, content: {'application/vnd.api+json; ext="https://example.org/ext"': {schema: {$ref: "#/components/schemas/Document"}}}}
        "400": {description: bad, content: {'application/vnd.api+json; ext="https://example.org/ext"': {schema: {$ref: "#/components/schemas/Errors"}}}}
components:
  schemas:
    Document:
      type: object
      required: [data]
      properties:
        data: {type: object, required: [type], properties: {type: {type: string}, id: {type: string}}}
    Errors: {type: object, properties: {errors: {type: array, items: {type: object, properties: {detail: {type: string}}}}}}
`
	sp, err := spec.Load([]byte(doc), "jsonapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: sp, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	ct := http.Header{"Content-Type": {`application/vnd.api+json; ext="https://example.org/ext"`}}
	for _, tc := range []struct {
		body string
		want int
	}{
		{`{"data": {"type": "countries"}}`, 201},
		{`{}`, 400},
		{`{"data": {"id": "1"}}`, 400},
	} {
		if rec := serve(srv, request{method: "POST", target: "/countries", body: tc.body, header: ct}); rec.Code != tc.want {
			t.Errorf("%s: %d %s, want %d", tc.body, rec.Code, rec.Body, tc.want)
		}
	}
}
