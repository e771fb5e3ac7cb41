package contract_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/mock"
)

// accountsDoc: accounts are created from credentials (an email and a
// password of at least 8 characters, both required) and served without
// the password, as a registration usually is.
const accountsDoc = `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{
"/account/user":{"post":{"operationId":"register","requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Credentials"}}}},
 "responses":{"201":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/UserRegistry"}}}},
  "422":{"description":"Validation Error","content":{"application/json":{"schema":{"$ref":"#/components/schemas/HTTPValidationError"}}}}}}},
"/account/user/{user_id}":{"get":{"operationId":"read","parameters":[{"name":"user_id","in":"path","required":true,"schema":{"type":"integer","title":"User Id"}}],
 "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/UserRegistry"}}}},
  "422":{"description":"Validation Error","content":{"application/json":{"schema":{"$ref":"#/components/schemas/HTTPValidationError"}}}}}}}},
"components":{"schemas":{
"Credentials":{"type":"object","title":"Credentials","required":["email","password"],"properties":{
 "email":{"type":"string","format":"email","title":"Email"},
 "password":{"type":"string","minLength":8,"maxLength":128,"title":"Password"}}},
"UserRegistry":{"type":"object","title":"UserRegistry","required":["id","email"],"properties":{
 "id":{"type":"integer","title":"Id"},"email":{"type":"string","format":"email","title":"Email"}}},
"ValidationError":{"type":"object","title":"ValidationError","required":["loc","msg","type"],"properties":{
 "loc":{"type":"array","title":"Location","items":{"anyOf":[{"type":"string"},{"type":"integer"}]}},
 "msg":{"type":"string","title":"Message"},"type":{"type":"string","title":"Error Type"}}},
"HTTPValidationError":{"type":"object","title":"HTTPValidationError","properties":{
 "detail":{"type":"array","title":"Detail","items":{"$ref":"#/components/schemas/ValidationError"}}}}}}}`

// TestCreateSendsFieldsRecordsDoNotCarry: a create whose body requires a
// field its collection's records do not carry (a password, never served)
// is sent one generated from the body's own schema, so the sequences
// create, read and compare the record.
func TestCreateSendsFieldsRecordsDoNotCarry(t *testing.T) {
	t.Parallel()
	sp, _, srv := mockOf(t, []byte(accountsDoc), "accounts.json")
	report := run(t, srv, contract.Config{Spec: sp, Checks: sequenceChecks, Examples: 1})
	for _, n := range report.Notes {
		if strings.Contains(n, "no generated body") {
			t.Errorf("note: %s", n)
		}
	}
	if f := failed(report); len(f) > 0 {
		t.Errorf("failures on a correct server:\n%s", strings.Join(f, "\n"))
	}
	if got := applied(report)["stateful_create_read"]; got == 0 {
		t.Errorf("stateful_create_read never applied; notes: %q", report.Notes)
	}
}

// TestRegistrationByEmail: accounts that register with an email and a
// password and log in with the email as the form's username (the
// hex_todo service of the corpus) are registered, logged in, found as
// the current user and refused a second registration of the same email;
// against the mock of that contract, every step passes.
func TestRegistrationByEmail(t *testing.T) {
	t.Parallel()
	path := filepath.Join("..", "testdata", "corpus", "services", "openapi", "hex_todo.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sp, _, srv := mockOf(t, data, path, mock.Account{Username: "john.doe@gmail.com", Password: "dev@1234"})
	report := run(t, srv, contract.Config{Spec: sp, Checks: []string{"registration_login"}, Username: "john.doe@gmail.com", Password: "dev@1234", Examples: 1})
	if f := failed(report); len(f) > 0 {
		t.Errorf("failures on a correct server:\n%s", strings.Join(f, "\n"))
	}
	steps := 0
	for _, res := range report.Results {
		if res.Case.Kind == contract.Sequence {
			steps++
		}
	}
	// Register, log in, read the current user, register again.
	if steps < 4 {
		t.Errorf("%d registration steps, want 4; notes: %q", steps, report.Notes)
	}
}
