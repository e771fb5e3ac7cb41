package contract_test

import (
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
)

// vndJSONDoc's bodies are declared only in JSON:API's media type, with
// its parameter.
const vndJSONDoc = `openapi: 3.0.3
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

// The runner sends a body declared only in another JSON media type in
// that type, its valid bodies and its invalid ones, and the mock of the
// document passes.
func TestBodyInAnotherJSONMediaType(t *testing.T) {
	t.Parallel()
	sp, m, srv := mockOf(t, []byte(vndJSONDoc), "vnd.yaml")
	report := run(t, srv, contract.Config{Spec: sp, Model: m})
	if f := failed(report); len(f) > 0 {
		t.Errorf("failures on the mock of the document:\n%s", strings.Join(f, "\n"))
	}
	for _, c := range report.Coverage {
		if c.Positive == 0 || c.Kinds[contract.Negative] == 0 {
			t.Errorf("%s %s: %d positive, %d negative cases; notes %q", c.Method, c.Path, c.Positive, c.Kinds[contract.Negative], report.Notes)
		}
	}
}
