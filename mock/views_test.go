package mock_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// viewsDoc is a resource whose create, list and read answer three schemas
// of one record, as ent's entoas and ASP.NET DTOs write them: the create
// a ThingCreate with an owner the read does not show and no additional
// properties, the list and the update a ThingList with that owner too
// and a label, the read and the replace a ThingRead with a createdAt the
// create does not show. The writes send the owner and the label, which
// only the views declare, and a rank of another type than the list's.
const viewsDoc = `{"openapi":"3.0.3","info":{"title":"things","version":"1"},"paths":{
"/things":{
  "get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/ThingList"}}}}}}},
  "post":{"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/ThingInput"}}}},
    "responses":{"201":{"description":"created","content":{"application/json":{"schema":{"$ref":"#/components/schemas/ThingCreate"}}}},"400":{"description":"bad"}}}},
"/things/{id}":{
  "parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],
  "get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/ThingRead"}}}},"404":{"description":"missing"}}},
  "put":{"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/ThingInput"}}}},
    "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/ThingRead"}}}},"400":{"description":"bad"},"404":{"description":"missing"}}},
  "patch":{"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/ThingPatch"}}}},
    "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/ThingList"}}}},"400":{"description":"bad"},"404":{"description":"missing"}}},
  "delete":{"responses":{"204":{"description":"gone"},"404":{"description":"missing"}}}}},
"components":{"schemas":{
  "ThingInput":{"type":"object","properties":{"name":{"type":"string"},"owner":{"type":"string"},"label":{"type":"string"},"rank":{"type":"integer"}},"required":["name"]},
  "ThingPatch":{"type":"object","properties":{"name":{"type":"string"},"owner":{"type":"string"},"label":{"type":"string"}}},
  "ThingCreate":{"type":"object","additionalProperties":false,"properties":{"id":{"type":"integer"},"name":{"type":"string"},"owner":{"type":"string"}},"required":["id","name","owner"]},
  "ThingList":{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"},"owner":{"type":"string"},"label":{"type":"string"},"rank":{"type":"string"}},"required":["id","name","owner"]},
  "ThingRead":{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"},"createdAt":{"type":"string","format":"date-time"}},"required":["id","name","createdAt"]}}}}`

// A record created in one schema is read, listed, changed and deleted in
// the others: one record, each answer showing the members of its own
// schema, a required member the record does not hold (owner) the same in
// every answer.
func TestViewsOfOneRecord(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(viewsDoc), "things.json")
	if err != nil {
		t.Fatal(err)
	}
	call := viewCaller(t, sp, newServer(t, mock.Config{Spec: sp, Seed: 1}), "/things/")

	created := call("POST", "/things", "", `{"name":"lamp"}`, 201).(map[string]any)
	if created["name"] != "lamp" || created["owner"] == nil || created["createdAt"] != nil {
		t.Fatalf("create answered %v, want its name, an owner and no createdAt", created)
	}
	item := "/things/{id}"
	id := fmt.Sprint(created["id"])
	read := call("GET", item, id, "", 200).(map[string]any)
	if read["id"] != created["id"] || read["name"] != "lamp" || read["createdAt"] == nil || read["owner"] != nil {
		t.Fatalf("read answered %v, want the record created (%v) with its createdAt and no owner", read, created)
	}
	changed := call("PUT", item, id, `{"name":"desk lamp"}`, 200).(map[string]any)
	if changed["name"] != "desk lamp" || changed["createdAt"] != read["createdAt"] {
		t.Fatalf("replace answered %v, want the new name and the createdAt read (%v)", changed, read["createdAt"])
	}
	found := false
	for _, it := range call("GET", "/things", "", "", 200).([]any) {
		if it := it.(map[string]any); it["id"] == created["id"] {
			found = true
			if it["name"] != "desk lamp" || it["owner"] != created["owner"] || it["createdAt"] != nil {
				t.Errorf("listed %v, want the changed name and the owner created (%v), no createdAt", it, created["owner"])
			}
		}
	}
	if !found {
		t.Errorf("the list does not hold the record created")
	}
	call("DELETE", item, id, "", 204)
	call("GET", item, id, "", 404)
}

// A write keeps what it sends for the members only its views declare,
// and every view shows its own from the record kept: the create echoes
// the owner sent, the list shows it and the label, a later update keeps
// them, a replace keeps only what it sends; a value of another type than
// a view's (rank, an integer where the list shows a string) is never
// shown; a required member never sent is the same stand-in in each view.
func TestViewsEchoWhatWasSent(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(viewsDoc), "things.json")
	if err != nil {
		t.Fatal(err)
	}
	call := viewCaller(t, sp, newServer(t, mock.Config{Spec: sp, Seed: 1}), "/things/")
	item := "/things/{id}"
	listed := func(id any) map[string]any {
		t.Helper()
		for _, it := range call("GET", "/things", "", "", 200).([]any) {
			if it := it.(map[string]any); it["id"] == id {
				return it
			}
		}
		t.Fatalf("the list does not hold %v", id)
		return nil
	}
	want := func(what string, got map[string]any, members map[string]any) {
		t.Helper()
		for k, v := range members {
			if got[k] != v {
				t.Errorf("%s answered %v: %s is %v, want %v", what, got, k, got[k], v)
			}
		}
	}

	created := call("POST", "/things", "", `{"name":"lamp","owner":"ann","label":"desk","rank":3}`, 201).(map[string]any)
	want("the create", created, map[string]any{"name": "lamp", "owner": "ann"})
	id := created["id"]
	want("the list", listed(id), map[string]any{"name": "lamp", "owner": "ann", "label": "desk", "rank": nil})
	read := call("GET", item, fmt.Sprint(id), "", 200).(map[string]any)
	want("the read", read, map[string]any{"name": "lamp", "owner": nil, "label": nil})

	changed := call("PATCH", item, fmt.Sprint(id), `{"label":"shelf"}`, 200).(map[string]any)
	want("the update", changed, map[string]any{"name": "lamp", "owner": "ann", "label": "shelf"})
	want("the list after the update", listed(id), map[string]any{"owner": "ann", "label": "shelf"})

	replaced := call("PUT", item, fmt.Sprint(id), `{"name":"lamp","owner":"bob"}`, 200).(map[string]any)
	want("the replace", replaced, map[string]any{"name": "lamp", "owner": nil, "label": nil})
	want("the list after the replace", listed(id), map[string]any{"owner": "bob", "label": nil})

	bare := call("POST", "/things", "", `{"name":"stool"}`, 201).(map[string]any)
	if bare["owner"] == nil {
		t.Fatalf("the create answered %v without its required owner", bare)
	}
	want("the list of a record sent no owner", listed(bare["id"]), map[string]any{"owner": bare["owner"], "label": nil})
}

// viewCaller is a call of srv: method on the document's path, at the
// record id when id is set (itemPrefix+id), answering want with a body its
// schema accepts; it returns the body decoded.
func viewCaller(t *testing.T, sp *spec.Spec, srv http.Handler, itemPrefix string) func(method, path, id, body string, want int) any {
	jsonCT := http.Header{"Content-Type": {"application/json"}}
	return func(method, path, id, body string, want int) any {
		t.Helper()
		target := path
		if id != "" {
			target = itemPrefix + id
		}
		rec := serve(srv, request{method: method, target: target, header: jsonCT, body: body})
		if rec.Code != want {
			t.Fatalf("%s %s: %d %s, want %d", method, target, rec.Code, rec.Body, want)
		}
		if declared, err := contract.BodyConforms(sp, sp.Doc.Paths.Value(path).GetOperation(method), rec.Code, rec.Header().Get("Content-Type"), rec.Body.Bytes()); declared && err != nil {
			t.Fatalf("%s %s: %s refused by its schema: %v", method, target, rec.Body, err)
		}
		var v any
		if rec.Body.Len() > 0 {
			if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
				t.Fatalf("%s %s: %s: %v", method, target, rec.Body, err)
			}
		}
		return v
	}
}

// The runner's sequences hold the mock to the same: a record created in
// one schema reads back, lists, changes and goes as the others show it,
// compared by the members they share.
func TestViewsPassTheSequences(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(viewsDoc), "things.json")
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(newServer(t, mock.Config{Spec: sp, Seed: 1}))
	defer ts.Close()
	report, err := contract.Run(context.Background(), contract.Config{BaseURL: ts.URL, Spec: sp, Examples: 1, MaxResponseTime: time.Minute,
		Checks: []string{"stateful_create_read", "stateful_update", "stateful_delete", "positive_data_acceptance", "response_schema_conformance"}})
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, res := range report.Results {
		for _, c := range res.Checks {
			ran++
			if !c.Passed {
				t.Errorf("%s: %s %q: expected %s, got %s", c.Check, res.Case.Operation, res.Case.Name, c.Expected, c.Got)
			}
		}
	}
	if ran == 0 {
		t.Error("no check ran")
	}
}
