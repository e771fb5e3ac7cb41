package contract_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
)

// stringIDDoc reads abilities by an {id} written as a string (it takes a
// name or an id, as drf-spectacular writes PokéAPI's), whose records' id
// is an integer; the list gives names and links, no id.
const stringIDDoc = `openapi: 3.1.0
info: {title: abilities, version: "1"}
paths:
  /api/ability/:
    get:
      responses:
        "200": {description: OK, content: {application/json: {schema: {type: array, items: {$ref: "#/components/schemas/AbilitySummary"}}}}}
  /api/ability/{id}/:
    get:
      parameters: [{name: id, in: path, required: true, description: a name or an id, schema: {type: string}}]
      responses:
        "200": {description: OK, content: {application/json: {schema: {$ref: "#/components/schemas/AbilityDetail"}}}}
        "404": {description: none such}
components:
  schemas:
    AbilitySummary:
      type: object
      properties: {name: {type: string}, url: {type: string, format: uri}}
      required: [name, url]
    AbilityDetail:
      type: object
      properties: {id: {type: integer}, name: {type: string}}
      required: [id, name]
`

// A string path parameter holding the integer id of the record it reads
// is tried with ids 1 to 5, as an integer one is: the runner reads
// records no list or example names.
func TestStringParameterOfAnIntegerID(t *testing.T) {
	t.Parallel()
	names := map[string]string{"1": "stench", "2": "drizzle", "3": "speed-boost"}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/api/ability/" {
			w.Write([]byte(`[{"name":"stench","url":"http://x/api/ability/1/"}]`))
			return
		}
		key := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/api/ability/"), "/")
		for id, name := range names {
			if key == id || key == name {
				w.Write([]byte(`{"id":` + id + `,"name":"` + name + `"}`))
				return
			}
		}
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"detail":"Not found."}`))
	})
	report := runOnHandler(t, stringIDDoc, "abilities.yaml", h, contract.Config{})
	testsEveryOperation(t, report)
}
