package contract_test

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/mock"
)

// A document whose every operation inherits a token requirement (as
// Swashbuckle writes a global Bearer) signs up and logs in without one:
// the runner demands no 401 of its registration and login, which the mock
// of the document answers anyone, and tests them.
func TestSignUpAndLoginInheritNoToken(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../mock/testdata/token-login-global.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sp, m, srv := mockOf(t, doc, "token-login-global.yaml", mock.Account{Username: "ada", Password: "secret-pw"})
	report := run(t, srv, contract.Config{Spec: sp, Model: m, Username: "ada", Password: "secret-pw"})
	if f := failed(report); len(f) > 0 {
		t.Errorf("failures on the mock of the document:\n%s", strings.Join(f, "\n"))
	}
	for _, c := range report.Coverage {
		if (c.Path == "/register" || c.Path == "/login") && c.Positive == 0 {
			t.Errorf("%s %s not tested; notes %q", c.Method, c.Path, report.Notes)
		}
	}
}

// A create refused 409 because a key its body carries was taken first (a
// client-given id another case used) is state: the sequence sends another
// body, and judges the record that one makes.
func TestCreateConflictTriesAnotherBody(t *testing.T) {
	t.Parallel()
	h := conflictHandler()
	report := runOnHandler(t, conflictDoc, "things.yaml", h, contract.Config{Checks: []string{"stateful_create_read"}})
	if f := failed(report); len(f) > 0 {
		t.Errorf("failures on a correct server:\n%s", strings.Join(f, "\n"))
	}
	if tallies(report)["stateful_create_read"][0] == 0 {
		t.Errorf("stateful_create_read never passed: %q", report.Notes)
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// conflictDoc's things carry an id the client gives.
const conflictDoc = `openapi: 3.0.3
info: {title: things, version: "1"}
paths:
  /things:
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: "#/components/schemas/Thing"}}}}
      responses:
        "200": {description: OK, content: {application/json: {schema: {$ref: "#/components/schemas/Thing"}}}}
        "409": {description: taken, content: {application/json: {schema: {$ref: "#/components/schemas/Message"}}}}
  /things/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        "200": {description: OK, content: {application/json: {schema: {$ref: "#/components/schemas/Thing"}}}}
        "404": {description: none, content: {application/json: {schema: {$ref: "#/components/schemas/Message"}}}}
    delete:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        "204": {description: deleted}
        "404": {description: none, content: {application/json: {schema: {$ref: "#/components/schemas/Message"}}}}
components:
  schemas:
    Message: {type: object, properties: {message: {type: string}}}
    Thing:
      type: object
      required: [id, name]
      properties: {id: {type: integer, minimum: 1, maximum: 100000}, name: {type: string, maxLength: 20}}
`

// conflictHandler keeps things by the id their creator gives; three ids
// in four (all but those leaving 1 divided by 4) are other clients', so a
// create of one is refused as taken (409).
func conflictHandler() http.Handler {
	var mu sync.Mutex
	things := map[string]map[string]any{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == "POST" && r.URL.Path == "/things":
			var v map[string]any
			if json.NewDecoder(r.Body).Decode(&v) != nil {
				w.WriteHeader(400)
				w.Write([]byte(`{"message":"bad"}`))
				return
			}
			id := jsonText(v["id"])
			n, _ := v["id"].(float64)
			if _, taken := things[id]; taken || int(n)%4 != 1 {
				// another client's thing holds the id
				w.WriteHeader(http.StatusConflict)
				w.Write([]byte(`{"message":"exists"}`))
				return
			}
			things[id] = v
			json.NewEncoder(w).Encode(v)
		case r.Method == "GET" && strings.HasPrefix(r.URL.Path, "/things/"):
			if v, ok := things[strings.TrimPrefix(r.URL.Path, "/things/")]; ok {
				json.NewEncoder(w).Encode(v)
				return
			}
			w.WriteHeader(404)
			w.Write([]byte(`{"message":"none"}`))
		case r.Method == "DELETE" && strings.HasPrefix(r.URL.Path, "/things/"):
			delete(things, strings.TrimPrefix(r.URL.Path, "/things/"))
			w.WriteHeader(204)
		default:
			w.WriteHeader(404)
		}
	})
}
