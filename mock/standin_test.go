package mock_test

import (
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// standInDoc declares no 404 anywhere: a read answers a stand-in for any
// key. Owners are read and made, never listed; their pets are made and
// listed under them. Articles are read by slug, listed, and deleted
// answering a Message.
const standInDoc = `{"openapi":"3.0.3","info":{"title":"stand-ins","version":"1"},"paths":{
"/owners":{"post":{"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/NewOwner"}}}},
  "responses":{"201":{"description":"made","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Owner"}}}}}}},
"/owners/{ownerId}":{"get":{"parameters":[{"name":"ownerId","in":"path","required":true,"schema":{"type":"integer"}}],
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Owner"}}}}}}},
"/owners/{ownerId}/pets":{"parameters":[{"name":"ownerId","in":"path","required":true,"schema":{"type":"integer"}}],
  "get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/Pet"}}}}}}},
  "post":{"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/NewPet"}}}},
    "responses":{"201":{"description":"made","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Pet"}}}}}}},
"/articles":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/Article"}}}}}}},
  "post":{"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/NewArticle"}}}},
    "responses":{"201":{"description":"made","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Article"}}}}}}},
"/articles/{slug}":{"parameters":[{"name":"slug","in":"path","required":true,"schema":{"type":"string"}}],
  "get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Article"}}}}}},
  "delete":{"responses":{"200":{"description":"gone","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Message"}}}}}}}},
"components":{"schemas":{
"NewOwner":{"type":"object","required":["name"],"properties":{"name":{"type":"string"}}},
"Owner":{"type":"object","required":["id","name"],"properties":{"id":{"type":"integer"},"name":{"type":"string"}}},
"NewPet":{"type":"object","required":["name"],"properties":{"name":{"type":"string"}}},
"Pet":{"type":"object","required":["id","name"],"properties":{"id":{"type":"integer"},"name":{"type":"string"}}},
"NewArticle":{"type":"object","required":["title"],"properties":{"title":{"type":"string"}}},
"Article":{"type":"object","required":["id","slug","title"],"properties":{"id":{"type":"integer"},"slug":{"type":"string"},"title":{"type":"string"}}},
"Message":{"type":"object","required":["message"],"properties":{"message":{"type":"string"}}}}}}`

// Where no operation declares a 404, a read answers a stand-in for a key
// the mock holds no record of, and the rest of the mock agrees with it:
//   - records are made and listed under a parent whose read showed a
//     stand-in (owners are never listed, so the parent made real joins no
//     list), and a create gives an id past every stand-in shown;
//   - a record deleted by its slug reads as gone, not as a stand-in;
//   - a delete of a key no record has answers the Message it declares,
//     not a record.
func TestStandInsAgree(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(standInDoc), "openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(newServer(t, mock.Config{Spec: sp, Seed: 1}))
	t.Cleanup(ts.Close)
	do := caller(t, ts.URL)
	shown := do("GET", "/owners/700", "", 200).(map[string]any)
	if shown["id"] != 700.0 {
		t.Fatalf("GET /owners/700: %v, want a stand-in of id 700", shown)
	}
	pet := do("POST", "/owners/700/pets", `{"name":"Rex"}`, 201).(map[string]any)
	pets := do("GET", "/owners/700/pets", "", 200).([]any)
	if len(pets) != 1 || pets[0].(map[string]any)["id"] != pet["id"] {
		t.Errorf("GET /owners/700/pets: %v, want the pet made under it, %v", pets, pet)
	}
	if again := do("GET", "/owners/700", "", 200); fmt.Sprint(again) != fmt.Sprint(shown) {
		t.Errorf("owner 700 read %v after a pet was made under it, %v before", again, shown)
	}
	if made := do("POST", "/owners", `{"name":"Ann"}`, 201).(map[string]any); made["id"].(float64) <= 700 {
		t.Errorf("POST /owners made id %v, one a client was already shown", made["id"])
	}

	art := do("POST", "/articles", `{"title":"Hello"}`, 201).(map[string]any)
	at := fmt.Sprintf("/articles/%v", art["slug"])
	do("GET", at, "", 200)
	if got := do("DELETE", at, "", 200).(map[string]any); got["message"] == nil || len(got) != 1 {
		t.Errorf("DELETE %s: %v, want its Message", at, got)
	}
	do("GET", at, "", 404)
	if got := do("DELETE", "/articles/never-made", "", 200).(map[string]any); got["message"] == nil || len(got) != 1 {
		t.Errorf("DELETE /articles/never-made: %v, want its Message", got)
	}
}

// A body wrapped in one member ({"note": {…}}) that sends a member as
// null stores the null; a member left out is not sent (a PATCH keeps it).
func TestWrappedBodySendsNull(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi":"3.0.3","info":{"title":"notes","version":"1"},"paths":{
"/notes":{"post":{"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/NoteBody"}}}},
  "responses":{"201":{"description":"made","content":{"application/json":{"schema":{"$ref":"#/components/schemas/NoteAnswer"}}}}}}},
"/notes/{id}":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],
  "get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/NoteAnswer"}}}},"404":{"description":"none"}}},
  "patch":{"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/NoteBody"}}}},
    "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/NoteAnswer"}}}},"404":{"description":"none"}}}}},
"components":{"schemas":{
"NewNote":{"type":"object","properties":{"title":{"type":"string"},"tag":{"type":"string","nullable":true}}},
"NoteBody":{"type":"object","required":["note"],"properties":{"note":{"$ref":"#/components/schemas/NewNote"}}},
"Note":{"type":"object","required":["id"],"properties":{"id":{"type":"integer"},"title":{"type":"string"},"tag":{"type":"string","nullable":true}}},
"NoteAnswer":{"type":"object","required":["note"],"properties":{"note":{"$ref":"#/components/schemas/Note"}}}}}}`
	sp, err := spec.Load([]byte(doc), "openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(newServer(t, mock.Config{Spec: sp, Seed: 1}))
	t.Cleanup(ts.Close)
	do := caller(t, ts.URL)
	made := do("POST", "/notes", `{"note":{"title":"a","tag":"x"}}`, 201).(map[string]any)["note"].(map[string]any)
	at := fmt.Sprintf("/notes/%v", made["id"])
	kept := do("PATCH", at, `{"note":{"title":"b"}}`, 200).(map[string]any)["note"].(map[string]any)
	if kept["tag"] != "x" || kept["title"] != "b" {
		t.Errorf("PATCH %s sending only the title: %v, want the tag kept", at, kept)
	}
	nulled := do("PATCH", at, `{"note":{"tag":null}}`, 200).(map[string]any)["note"].(map[string]any)
	if tag, ok := nulled["tag"]; !ok || tag != nil || nulled["title"] != "b" {
		t.Errorf("PATCH %s sending tag null: %v, want the tag null and the title kept", at, nulled)
	}
}
