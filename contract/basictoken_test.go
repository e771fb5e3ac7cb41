package contract_test

import (
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/mock"
)

// basicOrKeyDoc's operations take a client key in Authorization, in a
// header of its own, or HTTP basic credentials; its login takes only HTTP
// basic credentials, and its logout the key in its own header or basic
// credentials (gotify's).
const basicOrKeyDoc = `openapi: 3.0.3
info: {title: keys, version: "1"}
paths:
  /apps:
    get:
      security: [{keyInAuthorization: []}, {keyHeader: []}, {basic: []}]
      responses:
        "200": {description: OK, content: {application/json: {schema: {type: array, items: {$ref: "#/components/schemas/App"}}}}}
        "401": {description: no, content: {application/json: {schema: {$ref: "#/components/schemas/Error"}}}}
  /session:
    post:
      security: [{basic: []}]
      responses:
        "200": {description: OK, content: {application/json: {schema: {$ref: "#/components/schemas/App"}}}}
        "401": {description: no, content: {application/json: {schema: {$ref: "#/components/schemas/Error"}}}}
  /logout:
    post:
      security: [{keyHeader: []}, {basic: []}]
      responses:
        "200": {description: OK}
        "401": {description: no, content: {application/json: {schema: {$ref: "#/components/schemas/Error"}}}}
components:
  securitySchemes:
    basic: {type: http, scheme: basic}
    keyInAuthorization: {type: apiKey, in: header, name: Authorization}
    keyHeader: {type: apiKey, in: header, name: X-Key}
  schemas:
    App: {type: object, required: [name], properties: {name: {type: string}}}
    Error: {type: object, properties: {error: {type: string}}}
`

// A token given for a key taken in Authorization does not open an
// operation secured by HTTP basic and schemes other than that key's: the
// runner tests only its refusals there, and the mock of the document
// passes.
func TestTokenOfAnotherSchemeOpensNoBasicOperation(t *testing.T) {
	t.Parallel()
	sp, m, srv := mockOf(t, []byte(basicOrKeyDoc), "keys.yaml")
	report := run(t, srv, contract.Config{Spec: sp, Model: m, Token: "client-token"})
	if f := failed(report); len(f) > 0 {
		t.Errorf("failures on the mock of the document:\n%s", strings.Join(f, "\n"))
	}
	for _, c := range report.Coverage {
		if c.Path == "/apps" && c.Positive == 0 {
			t.Errorf("GET /apps, which the token opens, not tested; notes %q", report.Notes)
		}
	}
}

// doublyDoc's PUT asks an API key in the query beside the bearer token
// (Goa's doubly secured operation); its GET the token alone.
const doublyDoc = `openapi: 3.0.3
info: {title: doubly, version: "1"}
paths:
  /secure:
    get:
      security: [{jwt: []}]
      responses:
        "200": {description: OK, content: {application/json: {schema: {type: string}}}}
        "401": {description: no, content: {application/json: {schema: {type: string}}}}
    put:
      security: [{key: [], jwt: []}]
      responses:
        "200": {description: OK, content: {application/json: {schema: {type: string}}}}
        "401": {description: no, content: {application/json: {schema: {type: string}}}}
components:
  securitySchemes:
    jwt: {type: http, scheme: bearer, bearerFormat: JWT}
    key: {type: apiKey, in: query, name: k}
`

// A token opens no operation that asks another credential beside it: the
// runner tests only its refusals there, and the mock of the document
// passes.
func TestTokenAloneOpensNoDoublySecuredOperation(t *testing.T) {
	t.Parallel()
	sp, m, srv := mockOf(t, []byte(doublyDoc), "doubly.yaml")
	report := run(t, srv, contract.Config{Spec: sp, Model: m, Token: "client-token"})
	if f := failed(report); len(f) > 0 {
		t.Errorf("failures on the mock of the document:\n%s", strings.Join(f, "\n"))
	}
	for _, c := range report.Coverage {
		if c.Method == "GET" && c.Positive == 0 {
			t.Errorf("GET /secure, which the token opens, not tested; notes %q", report.Notes)
		}
	}
}

// HTTP basic credentials open an operation that takes a key in
// Authorization as well: the runner, which never saw a key issued, owes
// no 401 to a key it made up, which the target may take as any other.
func TestBasicCredentialsBesideAKey(t *testing.T) {
	t.Parallel()
	sp, m, srv := mockOf(t, []byte(basicOrKeyDoc), "keys.yaml", mock.Account{Username: "ada", Password: "secret-pw"})
	report := run(t, srv, contract.Config{Spec: sp, Model: m, Username: "ada", Password: "secret-pw"})
	if f := failed(report); len(f) > 0 {
		t.Errorf("failures on the mock of the document:\n%s", strings.Join(f, "\n"))
	}
	for _, c := range report.Coverage {
		if c.Positive == 0 {
			t.Errorf("%s %s not tested; notes %q", c.Method, c.Path, report.Notes)
		}
	}
}
