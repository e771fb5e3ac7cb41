package contract_test

import (
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
)

// formListDoc's form carries a list of objects, its example written out
// (Goa's multi_update).
const formListDoc = `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /bottles/update:
    put:
      parameters: [{name: ids, in: query, required: true, schema: {type: array, items: {type: string}}}]
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema:
              type: object
              required: [bottles]
              properties:
                label: {type: string}
                bottles: {type: array, items: {$ref: "#/components/schemas/Bottle"}}
            example:
              label: cellar
              bottles:
                - {name: "Blue's Cuvee", vintage: 2009}
                - {name: "Blue's Cuvee", vintage: 2009}
      responses:
        "204": {description: done}
        "400": {description: bad, content: {application/json: {schema: {type: object, properties: {message: {type: string}}}}}}
components:
  schemas:
    Bottle: {type: object, required: [name, vintage], properties: {name: {type: string}, vintage: {type: integer}}}
`

// A form's example gives its scalar fields their values; a list of
// objects in it is sent as the form's encoding says, never as Go's
// text of the example: the mock of the document accepts the positive
// cases.
func TestFormExampleOfObjects(t *testing.T) {
	t.Parallel()
	sp, m, srv := mockOf(t, []byte(formListDoc), "form.yaml")
	report := run(t, srv, contract.Config{Spec: sp, Model: m})
	if f := failed(report); len(f) > 0 {
		t.Errorf("failures on the mock of the document:\n%s", strings.Join(f, "\n"))
	}
	for _, c := range report.Coverage {
		if c.Positive == 0 {
			t.Errorf("%s %s not tested; notes %q", c.Method, c.Path, report.Notes)
		}
	}
}

// bigExampleDoc's header takes an int64 whose example float64 writes
// with an exponent (Goa's tus Upload-Offset).
const bigExampleDoc = `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /upload:
    patch:
      parameters:
        - {name: Upload-Offset, in: header, required: true, schema: {type: integer, format: int64, example: 4810967207691105196}}
      responses:
        "204": {description: done}
        "400": {description: bad, content: {application/json: {schema: {type: object, properties: {message: {type: string}}}}}}
`

// A declared integer is sent in plain digits, however large: the mock
// of the document accepts the positive case.
func TestLargeIntegerExampleSentInDigits(t *testing.T) {
	t.Parallel()
	sp, m, srv := mockOf(t, []byte(bigExampleDoc), "big.yaml")
	report := run(t, srv, contract.Config{Spec: sp, Model: m})
	if f := failed(report); len(f) > 0 {
		t.Errorf("failures on the mock of the document:\n%s", strings.Join(f, "\n"))
	}
	for _, c := range report.Coverage {
		if c.Positive == 0 {
			t.Errorf("%s %s not tested; notes %q", c.Method, c.Path, report.Notes)
		}
	}
}
