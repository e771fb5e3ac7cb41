package contract_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
)

// keysDoc is an API in the shape of gotify's: every operation takes HTTP
// basic credentials; applications are created, listed, replaced and
// deleted by id but never read one at a time, and their token is shown
// only by the create; a user is replaced by a POST on its path; the
// current user's password is set by a POST naming no record; a DELETE
// naming no record clears every message; a plugin's configuration is
// answered in YAML, its refusals in JSON.
const keysDoc = `swagger: "2.0"
info: {title: keys, version: "1"}
consumes: [application/json]
produces: [application/json]
securityDefinitions:
  basicAuth: {type: basic}
security: [{basicAuth: []}]
paths:
  /application:
    get:
      responses:
        "200": {description: Ok, schema: {type: array, items: {$ref: "#/definitions/Application"}}}
        "401": {description: no, schema: {$ref: "#/definitions/Error"}}
    post:
      parameters: [{name: body, in: body, required: true, schema: {$ref: "#/definitions/ApplicationParams"}}]
      responses:
        "200": {description: Ok, schema: {$ref: "#/definitions/Application"}}
        "400": {description: bad, schema: {$ref: "#/definitions/Error"}}
        "401": {description: no, schema: {$ref: "#/definitions/Error"}}
  /application/{id}:
    parameters: [{name: id, in: path, required: true, type: integer, format: int64}]
    put:
      parameters: [{name: body, in: body, required: true, schema: {$ref: "#/definitions/ApplicationParams"}}]
      responses:
        "200": {description: Ok, schema: {$ref: "#/definitions/Application"}}
        "400": {description: bad, schema: {$ref: "#/definitions/Error"}}
        "401": {description: no, schema: {$ref: "#/definitions/Error"}}
        "404": {description: none, schema: {$ref: "#/definitions/Error"}}
    delete:
      responses:
        "200": {description: Ok}
        "400": {description: bad, schema: {$ref: "#/definitions/Error"}}
        "401": {description: no, schema: {$ref: "#/definitions/Error"}}
        "404": {description: none, schema: {$ref: "#/definitions/Error"}}
  /user:
    get:
      responses:
        "200": {description: Ok, schema: {type: array, items: {$ref: "#/definitions/User"}}}
        "401": {description: no, schema: {$ref: "#/definitions/Error"}}
  /user/{id}:
    parameters: [{name: id, in: path, required: true, type: integer, format: int64}]
    get:
      responses:
        "200": {description: Ok, schema: {$ref: "#/definitions/User"}}
        "400": {description: bad, schema: {$ref: "#/definitions/Error"}}
        "401": {description: no, schema: {$ref: "#/definitions/Error"}}
        "404": {description: none, schema: {$ref: "#/definitions/Error"}}
    post:
      parameters: [{name: body, in: body, required: true, schema: {$ref: "#/definitions/UpdateUser"}}]
      responses:
        "200": {description: Ok, schema: {$ref: "#/definitions/User"}}
        "400": {description: bad, schema: {$ref: "#/definitions/Error"}}
        "401": {description: no, schema: {$ref: "#/definitions/Error"}}
        "404": {description: none, schema: {$ref: "#/definitions/Error"}}
  /current/user/password:
    post:
      parameters: [{name: body, in: body, required: true, schema: {$ref: "#/definitions/UserPass"}}]
      responses:
        "200": {description: Ok}
        "400": {description: bad, schema: {$ref: "#/definitions/Error"}}
        "401": {description: no, schema: {$ref: "#/definitions/Error"}}
  /message:
    delete:
      responses:
        "200": {description: Ok}
        "401": {description: no, schema: {$ref: "#/definitions/Error"}}
  /plugin/{id}/config:
    get:
      produces: [application/x-yaml]
      parameters: [{name: id, in: path, required: true, type: integer, format: int64}]
      responses:
        "200": {description: Ok, schema: {type: object}}
        "400": {description: bad, schema: {$ref: "#/definitions/Error"}}
        "401": {description: no, schema: {$ref: "#/definitions/Error"}}
        "404": {description: none, schema: {$ref: "#/definitions/Error"}}
definitions:
  Error:
    type: object
    required: [error, errorCode, errorDescription]
    properties:
      error: {type: string}
      errorCode: {type: integer, format: int64}
      errorDescription: {type: string}
  ApplicationParams:
    type: object
    required: [name]
    properties:
      name: {type: string, example: Backup Server}
      expiresAfterSeconds: {type: integer, format: int64, minimum: 1, maximum: 100000, example: 3600}
      sortKey: {type: string, example: a1}
  Application:
    type: object
    required: [id, name, createdAt]
    properties:
      id: {type: integer, format: int64, readOnly: true}
      name: {type: string}
      token: {type: string, readOnly: true}
      expiresAfterSeconds: {type: integer, format: int64}
      sortKey: {type: string}
      createdAt: {type: string, format: date-time, readOnly: true}
      expiresAt: {type: string, format: date-time, readOnly: true}
  User:
    type: object
    required: [id, name, admin]
    properties:
      id: {type: integer, format: int64, readOnly: true}
      name: {type: string}
      admin: {type: boolean}
  UpdateUser:
    type: object
    required: [name, admin]
    properties:
      name: {type: string, example: unicorn}
      admin: {type: boolean, example: true}
      pass: {type: string, example: nrocinu}
  UserPass:
    type: object
    required: [pass]
    properties:
      pass: {type: string, example: nrocinu}
`

// keysServer is a correct backend of keysDoc, gotify's ways included:
// one account (admin, admin) and its user record 1, a message, and the
// applications created, which it answers without their token but to
// their create, whose expiresAt it computes from expiresAfterSeconds, and
// whose sortKey is unique (a<id> when the body gives none).
type keysServer struct {
	mu       sync.Mutex
	password string
	userName string
	messages int
	apps     map[int]map[string]any
	next     int
	created  int // applications ever created
}

func newKeysServer() *keysServer {
	return &keysServer{password: "admin", userName: "admin", messages: 1, apps: map[int]map[string]any{}, next: 1}
}

func (s *keysServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	errorOf := func(status int, desc string) {
		w.Header().Set("Content-Type", "application/json")
		if status == http.StatusUnauthorized {
			w.Header().Set("WWW-Authenticate", `Basic realm="keys"`)
		}
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]any{"error": http.StatusText(status), "errorCode": status, "errorDescription": desc})
	}
	if u, p, ok := r.BasicAuth(); !ok || u != "admin" || p != s.password {
		errorOf(http.StatusUnauthorized, "you need to provide a valid access token or user credentials to access this api")
		return
	}
	answer := func(v any) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(v)
	}
	var body map[string]any
	if r.Method == http.MethodPost || r.Method == http.MethodPut {
		if r.Header.Get("Content-Type") != "application/json" || json.NewDecoder(r.Body).Decode(&body) != nil {
			errorOf(http.StatusBadRequest, "invalid body")
			return
		}
	}
	appOf := func(rec map[string]any, withToken bool) map[string]any {
		out := map[string]any{}
		for k, v := range rec {
			if k != "token" || withToken {
				out[k] = v
			}
		}
		return out
	}
	setApp := func(rec map[string]any) bool {
		name, ok := body["name"].(string)
		if !ok {
			return false
		}
		key, given := body["sortKey"].(string)
		if _, present := body["sortKey"]; present && !given {
			return false
		}
		if !given {
			key = fmt.Sprintf("a%v", rec["id"])
		}
		for _, other := range s.apps {
			if other["sortKey"] == key && other["id"] != rec["id"] {
				return false
			}
		}
		rec["sortKey"] = key
		rec["name"] = name
		rec["expiresAfterSeconds"] = float64(0)
		delete(rec, "expiresAt")
		if v, present := body["expiresAfterSeconds"]; present {
			n, ok := v.(float64)
			if !ok || n < 1 || n > 100000 || n != float64(int(n)) {
				return false
			}
			rec["expiresAfterSeconds"] = n
			created, _ := time.Parse(time.RFC3339Nano, rec["createdAt"].(string))
			rec["expiresAt"] = created.Add(time.Duration(n) * time.Second).Format(time.RFC3339Nano)
		}
		return true
	}
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	switch {
	case r.URL.Path == "/application" && r.Method == http.MethodGet:
		list := []any{}
		for id := 1; id < s.next; id++ {
			if rec := s.apps[id]; rec != nil {
				list = append(list, appOf(rec, false))
			}
		}
		answer(list)
	case r.URL.Path == "/application" && r.Method == http.MethodPost:
		rec := map[string]any{"id": float64(s.next), "token": fmt.Sprintf("A-secret-%d", s.next), "createdAt": time.Now().UTC().Format(time.RFC3339Nano)}
		if !setApp(rec) {
			errorOf(http.StatusBadRequest, "invalid application")
			return
		}
		s.apps[s.next] = rec
		s.next++
		s.created++
		answer(appOf(rec, true))
	case len(parts) == 2 && parts[0] == "application":
		id, err := strconv.Atoi(parts[1])
		if err != nil {
			errorOf(http.StatusBadRequest, "invalid id")
			return
		}
		rec := s.apps[id]
		if rec == nil {
			errorOf(http.StatusNotFound, "app does not exist")
			return
		}
		switch r.Method {
		case http.MethodPut:
			if !setApp(rec) {
				errorOf(http.StatusBadRequest, "invalid application")
				return
			}
			answer(appOf(rec, false))
		case http.MethodDelete:
			delete(s.apps, id)
		default:
			errorOf(http.StatusMethodNotAllowed, "no")
		}
	case r.URL.Path == "/user" && r.Method == http.MethodGet:
		answer([]any{map[string]any{"id": 1, "name": s.userName, "admin": true}})
	case len(parts) == 2 && parts[0] == "user":
		if parts[1] != "1" {
			if _, err := strconv.Atoi(parts[1]); err != nil {
				errorOf(http.StatusBadRequest, "invalid id")
				return
			}
			errorOf(http.StatusNotFound, "user does not exist")
			return
		}
		if r.Method == http.MethodPost {
			name, ok := body["name"].(string)
			if _, admin := body["admin"].(bool); !ok || !admin {
				errorOf(http.StatusBadRequest, "invalid user")
				return
			}
			s.userName = name
			if p, ok := body["pass"].(string); ok && p != "" {
				s.password = p
			}
		}
		answer(map[string]any{"id": 1, "name": s.userName, "admin": true})
	case r.URL.Path == "/current/user/password" && r.Method == http.MethodPost:
		p, ok := body["pass"].(string)
		if !ok {
			errorOf(http.StatusBadRequest, "invalid password")
			return
		}
		s.password = p
	case r.URL.Path == "/message" && r.Method == http.MethodDelete:
		s.messages = 0
	case len(parts) == 3 && parts[0] == "plugin" && parts[2] == "config":
		if _, err := strconv.Atoi(parts[1]); err != nil {
			errorOf(http.StatusBadRequest, "invalid id")
			return
		}
		errorOf(http.StatusNotFound, "plugin not found")
	default:
		errorOf(http.StatusNotFound, "page not found")
	}
}

// keysRun runs the suite of keysDoc against a fresh keysServer with its
// account's basic credentials.
func keysRun(t *testing.T) (*keysServer, *contract.Report) {
	t.Helper()
	s := newKeysServer()
	report := runOnHandler(t, keysDoc, "keys.yaml", s, contract.Config{Username: "admin", Password: "admin"})
	return s, report
}

// The current user's password is set by a write that names no record
// and sends a password (gotify's POST /current/user/password {"pass"}):
// the run sends it only its refusals, and the account still logs in.
func TestPasswordSetSparesAccount(t *testing.T) {
	t.Parallel()
	s, report := keysRun(t)
	if s.password != "admin" {
		t.Errorf("the run changed the account's password to %q; notes %q", s.password, report.Notes)
	}
}

// A replace by a POST on the record's path (gotify's POST /user/{id})
// reaches only records the run created, as a PUT does: the account's own
// user, listed, is never renamed.
func TestPostReplaceOnlyOwnRecords(t *testing.T) {
	t.Parallel()
	s, report := keysRun(t)
	if s.userName != "admin" {
		t.Errorf("the run renamed the account's user to %q; notes %q", s.userName, report.Notes)
	}
}

// A DELETE naming no record (DELETE /message: every message) deletes
// records the run did not create: only its refusals are sent.
func TestDeleteNamingNoRecordNotSent(t *testing.T) {
	t.Parallel()
	s, report := keysRun(t)
	if s.messages != 1 {
		t.Errorf("the run cleared the messages it did not create; notes %q", report.Notes)
	}
}

// What the run created is deleted by the DELETE on the path its list
// reads, though no operation reads one application: the model takes
// DELETE /application/{id} beside GET /application for their delete.
func TestCleanupDeletesBesideList(t *testing.T) {
	t.Parallel()
	s, report := keysRun(t)
	if s.created == 0 {
		t.Fatalf("the run created no application; notes %q", report.Notes)
	}
	if len(s.apps) != 0 {
		t.Errorf("the run left %d of the %d applications it created; notes %q", len(s.apps), s.created, report.Notes)
	}
}

// keysFailures are the failures of a run against keysServer whose
// message holds want.
func keysFailures(t *testing.T, want string) []string {
	t.Helper()
	_, report := keysRun(t)
	var out []string
	for _, f := range failed(report) {
		if strings.Contains(f, want) {
			out = append(out, f)
		}
	}
	return out
}

// A refusal in JSON of an operation answering YAML (gotify's plugin
// configuration) is judged by the schema its status declares for YAML,
// whose values are JSON's.
func TestJSONRefusalOfYAMLOperation(t *testing.T) {
	t.Parallel()
	if f := keysFailures(t, "/plugin/{id}/config"); len(f) > 0 {
		t.Errorf("failures on JSON refusals of a YAML operation:\n%s", strings.Join(f, "\n"))
	}
}

// A token only the create answers (a credential shown once) is owed
// neither to the list nor to the replace's answer.
func TestTokenShownOnce(t *testing.T) {
	t.Parallel()
	if f := keysFailures(t, "token"); len(f) > 0 {
		t.Errorf("failures on a token shown once:\n%s", strings.Join(f, "\n"))
	}
}

// A time the server computes (readOnly, date-time: expiresAt) moves with
// the change that feeds it, as updated_at does.
func TestServerTimeMoves(t *testing.T) {
	t.Parallel()
	if f := keysFailures(t, "expiresAt"); len(f) > 0 {
		t.Errorf("failures on a time the server computes:\n%s", strings.Join(f, "\n"))
	}
}

// A create refused with its declared 400 for a body repeating the value
// a record holds already (a sortKey the target gave a record made
// without one) is a value that must be unique taken, not valid input
// refused: a note says so.
func TestTakenValueNotValidInputRefused(t *testing.T) {
	t.Parallel()
	_, report := keysRun(t)
	var f []string
	for _, x := range failed(report) {
		if strings.Contains(x, "POST /application") || strings.Contains(x, "PUT /application") {
			f = append(f, x)
		}
	}
	if len(f) > 0 {
		t.Errorf("failures on a taken sortKey:\n%s", strings.Join(f, "\n"))
	}
	if !strings.Contains(strings.Join(report.Notes, "\n"), "sortKey of a record of Application the target holds") {
		t.Errorf("no note on the taken sortKey; notes %q", report.Notes)
	}
}

// A correct backend of keysDoc passes: its refusals in JSON of an
// operation answering YAML fit the schema their status declares; a token
// only the create shows is not owed to the list; a time the server
// computes (readOnly, date-time) moves with the change that feeds it.
func TestKeysBackendPasses(t *testing.T) {
	t.Parallel()
	_, report := keysRun(t)
	if f := failed(report); len(f) > 0 {
		t.Errorf("failures on a correct backend:\n%s", strings.Join(f, "\n"))
	}
}

// A DELETE naming no record that nothing secures is not sent without
// --allow-destructive, and, left out on purpose, does not fail the run as
// an operation the runner could build no case for.
func TestUnsecuredWipeLeftOut(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi":"3.0.3","info":{"title":"wipe","version":"1"},"paths":{
"/messages":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"array","items":{"type":"object","required":["id"],"properties":{"id":{"type":"integer"}}}}}}}}},
  "delete":{"operationId":"clearMessages","responses":{"204":{"description":"all gone"}}}}}}`
	sp, m, srv := mockOf(t, []byte(doc), "openapi.json")
	deletes := 0
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			deletes++
		}
		srv.ServeHTTP(w, r)
	})
	report := run(t, h, contract.Config{Spec: sp, Model: m})
	if deletes > 0 {
		t.Errorf("DELETE /messages was sent %d times", deletes)
	}
	if len(report.Untested) > 0 || report.Failures() > 0 {
		t.Errorf("untested %v, %d failures: a DELETE left out on purpose fails the run", report.Untested, report.Failures())
	}
}

// A create whose records the contract cannot delete is sent its positive
// cases and its refusals, not the random valid bodies that would each
// leave one more record behind; a note says how many were not sent.
func TestStayingCreatesNotGenerated(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi":"3.0.3","info":{"title":"notes","version":"1"},"paths":{
"/notes":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/Note"}}}}}}},
  "post":{"operationId":"createNote","requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/NewNote"}}}},
    "responses":{"201":{"description":"made","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Note"}}}},"400":{"description":"refused"}}}},
"/notes/{id}":{"get":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Note"}}}},"404":{"description":"none"}}}}},
"components":{"schemas":{
"NewNote":{"type":"object","required":["title"],"properties":{"title":{"type":"string","maxLength":40}}},
"Note":{"type":"object","required":["id","title"],"properties":{"id":{"type":"integer"},"title":{"type":"string"}}}}}}`
	sp, m, srv := mockOf(t, []byte(doc), "openapi.json")
	report := run(t, srv, contract.Config{Spec: sp, Model: m, Examples: 20})
	generated, positive := 0, 0
	for _, res := range report.Results {
		if res.Case.Method != http.MethodPost {
			continue
		}
		switch {
		case res.Case.Kind == contract.Generated && res.Case.Expect != contract.ExpectRejection:
			generated++
		case res.Case.Kind == contract.Positive:
			positive++
		}
	}
	if generated > 0 || positive == 0 {
		t.Errorf("POST /notes: %d generated valid cases sent, %d positive: want none and some", generated, positive)
	}
	if !strings.Contains(strings.Join(report.Notes, "\n"), "createNote: ") || !strings.Contains(strings.Join(report.Notes, "\n"), "generated valid bodies not sent") {
		t.Errorf("no note on the bodies not sent: %q", report.Notes)
	}
	if f := failed(report); len(f) > 0 {
		t.Errorf("failures on the mock: %v", f)
	}
}
