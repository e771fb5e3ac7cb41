package mock_test

import (
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// composedDoc writes its records and its page as allOf, as
// petstore-expanded and Spotify do: a Pet is a NewPet and an id; a page
// is a Paging (href, limit, offset, next, previous, total, all required)
// and its items.
const composedDoc = `{"openapi":"3.0.3","info":{"title":"composed","version":"1"},"paths":{
"/pets":{
  "get":{"parameters":[{"name":"limit","in":"query","schema":{"type":"integer"}},{"name":"offset","in":"query","schema":{"type":"integer"}}],
    "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/PetPage"}}}}}},
  "post":{"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/NewPet"}}}},
    "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Pet"}}}}}}},
"/pets/{id}":{"get":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],
    "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Pet"}}}},"404":{"description":"missing"}}}}},
"components":{"schemas":{
  "NewPet":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"tag":{"type":"string"}}},
  "Pet":{"allOf":[{"$ref":"#/components/schemas/NewPet"},{"type":"object","required":["id"],"properties":{"id":{"type":"integer"}}}]},
  "Paging":{"type":"object","required":["href","limit","offset","next","previous","total"],"properties":{
    "href":{"type":"string"},"limit":{"type":"integer"},"offset":{"type":"integer"},
    "next":{"type":"string","nullable":true},"previous":{"type":"string","nullable":true},"total":{"type":"integer"}}},
  "PetPage":{"allOf":[{"$ref":"#/components/schemas/Paging"},{"type":"object","properties":{"items":{"type":"array","items":{"$ref":"#/components/schemas/Pet"}}}}]}}}}`

// Records and pages written as allOf are kept and paged like any other:
// a pet created reads back and is counted, and the page tells its own
// URL, the next and the previous ones, and the total.
func TestComposedRecordsAndPages(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(composedDoc), "composed.json")
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(newServer(t, mock.Config{Spec: sp, Seed: 1}))
	t.Cleanup(ts.Close)
	do := caller(t, ts.URL)
	get := func(method, path, body string) map[string]any {
		t.Helper()
		v, _ := do(method, path, body, 200).(map[string]any)
		return v
	}
	for i := range 4 {
		get("POST", "/pets", fmt.Sprintf(`{"name":"pet %d"}`, i))
	}
	before := get("GET", "/pets?limit=2&offset=0", "")["total"].(float64)
	pet := get("POST", "/pets", `{"name":"rex"}`)
	if got := get("GET", fmt.Sprintf("/pets/%v", pet["id"]), ""); got["name"] != "rex" {
		t.Errorf("the pet created reads %v", got)
	}
	page := get("GET", "/pets?limit=2&offset=2", "")
	if page["total"].(float64) != before+1 {
		t.Errorf("total %v after one create, %v before", page["total"], before)
	}
	if items := page["items"].([]any); len(items) != 2 {
		t.Errorf("%d items on a page of 2", len(items))
	}
	for member, want := range map[string]string{
		"href":     ts.URL + "/pets?limit=2&offset=2",
		"next":     ts.URL + "/pets?limit=2&offset=4",
		"previous": ts.URL + "/pets?limit=2&offset=0",
	} {
		if got, _ := page[member].(string); got != want {
			t.Errorf("%s: %v, want %s", member, page[member], want)
		}
	}
}
