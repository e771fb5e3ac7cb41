package contract_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/spec"
)

// itemsDoc changes a part of a record (PATCH /items/{id}/priority) and,
// under paths that end in a slash, a record itself: the records are
// created by the POST on the path up to their parameter.
const itemsDoc = `openapi: 3.0.3
info: {title: items, version: "1"}
components:
  schemas:
    NewItem:
      type: object
      required: [name]
      properties:
        name: {type: string, maxLength: 20}
    Item:
      type: object
      required: [id, name]
      properties:
        id: {type: integer}
        name: {type: string, maxLength: 20}
        priority: {type: integer, minimum: 1, maximum: 3}
    Note:
      type: object
      required: [id, text]
      properties:
        id: {type: integer}
        text: {type: string, maxLength: 20}
    NewNote:
      type: object
      required: [text]
      properties:
        text: {type: string, maxLength: 20}
    Priority:
      type: object
      required: [priority]
      properties:
        priority: {type: integer, minimum: 1, maximum: 3}
paths:
  /items:
    post:
      operationId: createItem
      requestBody: {required: true, content: {application/json: {schema: {$ref: "#/components/schemas/NewItem"}}}}
      responses:
        "201": {description: created, content: {application/json: {schema: {$ref: "#/components/schemas/Item"}}}}
  /items/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: integer}}
    get:
      operationId: getItem
      responses:
        "200": {description: OK, content: {application/json: {schema: {$ref: "#/components/schemas/Item"}}}}
        "404": {description: none}
    delete:
      operationId: deleteItem
      responses:
        "204": {description: deleted}
        "404": {description: none}
  /items/{id}/priority:
    parameters:
      - {name: id, in: path, required: true, schema: {type: integer}}
    patch:
      operationId: setPriority
      requestBody: {required: true, content: {application/json: {schema: {$ref: "#/components/schemas/Priority"}}}}
      responses:
        "204": {description: set}
        "404": {description: none}
  /notes/:
    post:
      operationId: createNote
      requestBody: {required: true, content: {application/json: {schema: {$ref: "#/components/schemas/NewNote"}}}}
      responses:
        "201": {description: created, content: {application/json: {schema: {$ref: "#/components/schemas/Note"}}}}
  /notes/{id}/:
    parameters:
      - {name: id, in: path, required: true, schema: {type: integer}}
    get:
      operationId: getNote
      responses:
        "200": {description: OK, content: {application/json: {schema: {$ref: "#/components/schemas/Note"}}}}
        "404": {description: none}
    patch:
      operationId: updateNote
      requestBody: {required: true, content: {application/json: {schema: {$ref: "#/components/schemas/NewNote"}}}}
      responses:
        "200": {description: updated}
        "404": {description: none}
    delete:
      operationId: deleteNote
      responses:
        "204": {description: deleted}
        "404": {description: none}
`

// A write to a part of a record, or to a record under a path ending in a
// slash, is tested on a record of the runner's own, made by the POST on
// the path up to the record's parameter; the run deletes it after.
func TestOwnRecordFromTheCreateAbove(t *testing.T) {
	t.Parallel()
	report := runOnMock(t, itemsDoc, "items.yaml", contract.Config{})
	testsEveryOperation(t, report)
	for _, n := range report.Notes {
		if strings.Contains(n, "stay") || strings.Contains(n, "could not delete") {
			t.Errorf("the run leaves records behind: %s", n)
		}
	}
}

// storesDoc creates a store from query parameters alone, and answers the
// new store's id bare (as Swashbuckle writes an action returning int).
const storesDoc = `openapi: 3.0.3
info: {title: stores, version: "1"}
paths:
  /stores:
    post:
      operationId: createStore
      parameters:
        - {name: location, in: query, schema: {type: string}}
      responses:
        "200": {description: OK, content: {application/json: {schema: {type: integer, format: int32}}}}
  /stores/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: integer, format: int32}}
    put:
      operationId: updateStore
      parameters:
        - {name: location, in: query, schema: {type: string}}
      responses:
        "200": {description: OK}
        "404": {description: none}
    delete:
      operationId: deleteStore
      responses:
        "200": {description: OK}
        "404": {description: none}
`

// A create that takes no body and answers the new record's key bare is
// the create of the records its path names: the writes to one are tested
// on a store of the runner's own, and the run deletes every store it made.
func TestCreateAnsweringItsKey(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	stores, next := map[string]bool{}, 100
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/stores" && r.Method == http.MethodPost {
			next++
			stores[strconv.Itoa(next)] = true
			fmt.Fprint(w, next)
			return
		}
		id, ok := strings.CutPrefix(r.URL.Path, "/stores/")
		if _, err := strconv.Atoi(id); !ok || err != nil {
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"title":"bad id"}`))
			return
		}
		if !stores[id] {
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"title":"no such store"}`))
			return
		}
		if r.Method == http.MethodDelete {
			delete(stores, id)
		}
		w.Write([]byte(`{}`))
	})
	report := runOnHandler(t, storesDoc, "stores.yaml", h, contract.Config{})
	testsEveryOperation(t, report)
	if len(stores) > 0 {
		t.Errorf("the run left %d stores behind: %v; notes: %q", len(stores), stores, report.Notes)
	}
}

// testsEveryOperation fails t unless the run found nothing wrong and ran a
// positive case of every operation.
func testsEveryOperation(t *testing.T, report *contract.Report) {
	t.Helper()
	if f := failed(report); len(f) > 0 {
		t.Errorf("%d failures on a correct server:\n%s", len(f), strings.Join(f, "\n"))
	}
	for _, c := range report.Coverage {
		if c.Positive == 0 {
			t.Errorf("%s %s: not tested; notes: %q", c.Method, c.Path, report.Notes)
		}
	}
}

// linkedAccountsDoc names no key in its records: a create answers where the
// record is (Location), or links to it (HAL's _links.self), as Spring
// Data REST does.
const linkedAccountsDoc = `openapi: 3.0.3
info: {title: accounts, version: "1"}
components:
  schemas:
    Account:
      type: object
      properties:
        name: {type: string, maxLength: 20}
        _links: {type: object, additionalProperties: {type: object, properties: {href: {type: string}}}}
    NewAccount:
      type: object
      required: [name]
      properties:
        name: {type: string, maxLength: 20}
paths:
  /accounts:
    post:
      operationId: createAccount
      requestBody: {required: true, content: {application/json: {schema: {$ref: "#/components/schemas/NewAccount"}}}}
      responses:
        "201": {description: created, content: {application/json: {schema: {$ref: "#/components/schemas/Account"}}}}
  /accounts/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: string}}
    get:
      operationId: getAccount
      responses:
        "200": {description: OK, content: {application/json: {schema: {$ref: "#/components/schemas/Account"}}}}
        "404": {description: none}
    patch:
      operationId: updateAccount
      requestBody: {required: true, content: {application/json: {schema: {$ref: "#/components/schemas/NewAccount"}}}}
      responses:
        "200": {description: OK, content: {application/json: {schema: {$ref: "#/components/schemas/Account"}}}}
        "404": {description: none}
    delete:
      operationId: deleteAccount
      responses:
        "204": {description: deleted}
        "404": {description: none}
`

// A create whose answer names no key but links to its record (a Location
// header, a HAL self link) makes a record of the runner's own all the
// same: the reads and writes of one are tested on it, and the run deletes
// every record it made.
func TestCreateLinkingItsRecord(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"location", "self link"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			accounts, next := map[string]bool{}, 0
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				defer mu.Unlock()
				w.Header().Set("Content-Type", "application/json")
				if r.Method == http.MethodPost || r.Method == http.MethodPatch {
					if r.Header.Get("Content-Type") != "application/json" {
						w.WriteHeader(http.StatusBadRequest)
						w.Write([]byte(`{}`))
						return
					}
					var a struct {
						Name *string `json:"name"`
					}
					if json.NewDecoder(r.Body).Decode(&a) != nil || a.Name == nil || len(*a.Name) > 20 {
						w.WriteHeader(http.StatusBadRequest)
						w.Write([]byte(`{}`))
						return
					}
				}
				if r.URL.Path == "/accounts" && r.Method == http.MethodPost {
					next++
					id := fmt.Sprintf("acc-%d", next)
					accounts[id] = true
					href := "http://" + r.Host + "/accounts/" + id
					if how == "location" {
						w.Header().Set("Location", href)
						w.WriteHeader(http.StatusCreated)
						w.Write([]byte(`{"name":"a"}`))
						return
					}
					w.WriteHeader(http.StatusCreated)
					fmt.Fprintf(w, `{"name":"a","_links":{"self":{"href":%q}}}`, href)
					return
				}
				id := strings.TrimPrefix(r.URL.Path, "/accounts/")
				if !accounts[id] {
					w.WriteHeader(http.StatusNotFound)
					w.Write([]byte(`{}`))
					return
				}
				if r.Method == http.MethodDelete {
					delete(accounts, id)
					w.WriteHeader(http.StatusNoContent)
					return
				}
				w.Write([]byte(`{"name":"a"}`))
			})
			report := runOnHandler(t, linkedAccountsDoc, "accounts.yaml", h, contract.Config{})
			testsEveryOperation(t, report)
			if len(accounts) > 0 {
				t.Errorf("the run left %d accounts behind: %v; notes: %q", len(accounts), accounts, report.Notes)
			}
		})
	}
}

// runOnHandler runs the suite of the contract doc (named name) against h.
func runOnHandler(t *testing.T, doc, name string, h http.Handler, cfg contract.Config) *contract.Report {
	t.Helper()
	sp, err := spec.Load([]byte(doc), name)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Spec = sp
	return run(t, h, cfg)
}
