package mock_test

import (
	stdjson "encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// profileServer serves testdata/openapi/name by the profile fw.
func profileServer(t *testing.T, name string, fw framework.Name) (*mock.Server, *spec.Spec) {
	t.Helper()
	sp := openapiDoc(t, name)
	return newServer(t, mock.Config{Spec: sp, Model: compiled(t, sp, fw)}), sp
}

// conforms fails t when the document refuses an answer of the operation
// method tmpl.
func conforms(t *testing.T, sp *spec.Spec, method, tmpl string, status int, media string, body []byte) {
	t.Helper()
	item := sp.Doc.Paths.Value(tmpl)
	if item == nil || item.GetOperation(method) == nil {
		t.Fatalf("%s %s is no operation of the document", method, tmpl)
	}
	declared, err := contract.BodyConforms(sp, item.GetOperation(method), status, media, body)
	if !declared || err != nil {
		t.Errorf("the document refuses %d %s (declared %v): %v", status, body, declared, err)
	}
}

// A record made from a request answers, under the plain-OpenAPI profile,
// without the optional fields the request left out and with null only
// where the schema allows it (FastAPI's records dump every field, null
// where none: fixtures' TestBuildSparse). A replace that leaves a field
// out leaves it out of the record.
func TestAbsentIsNotNull(t *testing.T) {
	t.Parallel()
	json := http.Header{"Content-Type": {"application/json"}}
	type step struct {
		req    request
		tmpl   string
		status int
		want   string
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"left out", []step{
			{request{"POST", "/pets", json, `{"name": "doggie", "photoUrls": []}`}, "/pets", 201,
				`{"id":1,"name":"doggie","photoUrls":[]}`},
			{request{"GET", "/pets/1", nil, ""}, "/pets/{petId}", 200, `{"id":1,"name":"doggie","photoUrls":[]}`},
		}},
		{"as given, nested objects without the members left out, date-times with Z", []step{
			{request{"POST", "/pets", json, `{"name": "rex", "photoUrls": ["u"], "status": 2, "nickname": null, "owner": {"name": "ann"}, "category": {"name": "dogs"}, "born": "2020-01-02T03:04:05"}`}, "/pets", 201,
				`{"id":1,"name":"rex","category":{"name":"dogs"},"photoUrls":["u"],"status":2,"nickname":null,"born":"2020-01-02T03:04:05Z","owner":{"name":"ann"}}`},
			{request{"PUT", "/pets/1", json, `{"name": "rex", "photoUrls": [], "status": 1}`}, "/pets/{petId}", 200,
				`{"id":1,"name":"rex","photoUrls":[],"status":1}`},
			{request{"GET", "/pets/1", nil, ""}, "/pets/{petId}", 200, `{"id":1,"name":"rex","photoUrls":[],"status":1}`},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, sp := profileServer(t, "pets.yaml", framework.OpenAPI)
			for _, s := range tc.steps {
				rec := serve(srv, s.req)
				if rec.Code != s.status || rec.Body.String() != s.want {
					t.Fatalf("%s %s: %d %s\nwant %d %s", s.req.method, s.req.target, rec.Code, rec.Body, s.status, s.want)
				}
				conforms(t, sp, s.req.method, s.tmpl, rec.Code, rec.Header().Get("Content-Type"), rec.Body.Bytes())
			}
		})
	}
}

// A replace whose body leaves out a field the record's schema requires
// (the body's schema makes it optional) keeps the value the record held:
// the answer is still the record the document declares.
func TestReplaceKeepsRequired(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{
"/apps":{"post":{"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/AppParams"}}}},
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/App"}}}}}}},
"/apps/{id}":{"put":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],
  "requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/AppParams"}}}},
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/App"}}}},"404":{"description":"no such app"}}}}},
"components":{"schemas":{
"AppParams":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"description":{"type":"string"},"priority":{"type":"integer"}}},
"App":{"type":"object","required":["id","name","description"],"properties":{"id":{"type":"integer","readOnly":true},"name":{"type":"string"},"description":{"type":"string"},"priority":{"type":"integer"}}}}}}`
	sp, err := spec.Load([]byte(doc), "apps.json")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, mock.Config{Spec: sp, Model: compiled(t, sp, framework.OpenAPI), Seed: 1})
	json := http.Header{"Content-Type": {"application/json"}}
	created := serve(srv, request{"POST", "/apps", json, `{"name": "backup", "description": "nightly", "priority": 3}`})
	var app struct {
		ID int `json:"id"`
	}
	if created.Code != 200 || stdjson.Unmarshal(created.Body.Bytes(), &app) != nil {
		t.Fatalf("create: %d %s", created.Code, created.Body)
	}
	rec := serve(srv, request{"PUT", "/apps/" + strconv.Itoa(app.ID), json, `{"name": "renamed"}`})
	want := `{"id":` + strconv.Itoa(app.ID) + `,"name":"renamed","description":"nightly"}`
	if rec.Code != 200 || rec.Body.String() != want {
		t.Fatalf("replace: %d %s, want 200 %s", rec.Code, rec.Body, want)
	}
	conforms(t, sp, "PUT", "/apps/{id}", rec.Code, rec.Header().Get("Content-Type"), rec.Body.Bytes())
}

// An id the mock has no record of is answered, under the plain-OpenAPI
// profile, with a record generated for it where the operation declares no
// 404 (the same record for the same id), and 404 where it declares one;
// FastAPI's profile answers its 404 either way.
func TestUndeclaredNotFound(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		fw     framework.Name
		req    request
		tmpl   string
		status int
		id     any // the answer's id; nil: not a record
	}{
		{"openapi: no 404 declared: a record of that id", framework.OpenAPI, request{method: "GET", target: "/owners/7"}, "/owners/{ownerId}", 200, 7.0},
		{"openapi: a delete answers the record it would delete", framework.OpenAPI, request{method: "DELETE", target: "/owners/8"}, "/owners/{ownerId}", 200, 8.0},
		{"openapi: 404 declared", framework.OpenAPI, request{method: "GET", target: "/pets/7"}, "/pets/{petId}", 404, nil},
		{"fastapi: its 404", framework.FastAPI, request{method: "GET", target: "/owners/7"}, "/owners/{ownerId}", 404, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, sp := profileServer(t, "pets.yaml", tc.fw)
			rec := serve(srv, tc.req)
			if rec.Code != tc.status {
				t.Fatalf("%d %s, want %d", rec.Code, rec.Body, tc.status)
			}
			if tc.id == nil {
				return
			}
			var got map[string]any
			if err := stdjson.Unmarshal(rec.Body.Bytes(), &got); err != nil || got["id"] != tc.id {
				t.Fatalf("%s: id %v, want %v (%v)", rec.Body, got["id"], tc.id, err)
			}
			conforms(t, sp, tc.req.method, tc.tmpl, rec.Code, rec.Header().Get("Content-Type"), rec.Body.Bytes())
			if again := serve(srv, tc.req); again.Body.String() != rec.Body.String() {
				t.Errorf("asked again: %s, first %s", again.Body, rec.Body)
			}
		})
	}
}

// A DELETE declaring another body than the record (a message, as
// Litestar's admin deletes do) and no 404 answers an id the mock has no
// record of in that body, as it answers the delete of a record it has:
// the stand-in is not the answer.
func TestUndeclaredNotFoundDeleteAnswersItsMessage(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{
"/owners":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/Owner"}}}}}}}},
"/owners/{id}":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],
  "get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Owner"}}}}}},
  "delete":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Message"}}}}}}}},
"components":{"schemas":{
"Owner":{"type":"object","required":["id","name"],"properties":{"id":{"type":"integer"},"name":{"type":"string"}}},
"Message":{"type":"object","required":["message"],"properties":{"message":{"type":"string"}}}}}}`
	sp, err := spec.Load([]byte(doc), "message.json")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, mock.Config{Spec: sp, Model: compiled(t, sp, framework.OpenAPI), Seed: 1})
	for _, target := range []string{"/owners/1", "/owners/987654"} {
		rec := serve(srv, request{method: "DELETE", target: target})
		if rec.Code != 200 {
			t.Fatalf("DELETE %s: %d %s", target, rec.Code, rec.Body)
		}
		conforms(t, sp, "DELETE", "/owners/{id}", rec.Code, rec.Header().Get("Content-Type"), rec.Body.Bytes())
	}
}

// A stand-in (see TestUndeclaredNotFound) for a key its field's schema
// refuses holds a generated key instead: the answer fits the schema. A key
// the field accepts is the stand-in's.
func TestStandInKeyFitsTheSchema(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{
"/pets/{name}":{"get":{"parameters":[{"name":"name","in":"path","required":true,"schema":{"type":"string"}}],
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Pet"}}}}}}},
"/owners/{id}":{"get":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Owner"}}}}}}}},
"components":{"schemas":{
"Pet":{"type":"object","required":["name"],"properties":{"name":{"type":"string","minLength":4,"maxLength":24},"kind":{"type":"string"}}},
"Owner":{"type":"object","required":["id"],"properties":{"id":{"type":"integer","minimum":1},"name":{"type":"string"}}}}}}`
	sp, err := spec.Load([]byte(doc), "standin.json")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, mock.Config{Spec: sp, Model: compiled(t, sp, framework.OpenAPI), Seed: 1})
	for _, tc := range []struct {
		target, tmpl, key string
		want              any // the key the answer holds; nil: a generated one
	}{
		{"/pets/x", "/pets/{name}", "name", nil},
		{"/pets/rex-the-dog", "/pets/{name}", "name", "rex-the-dog"},
		{"/owners/0", "/owners/{id}", "id", nil},
		{"/owners/912", "/owners/{id}", "id", 912.0},
	} {
		t.Run(tc.target, func(t *testing.T) {
			t.Parallel()
			rec := serve(srv, request{method: "GET", target: tc.target})
			if rec.Code != http.StatusOK {
				t.Fatalf("%d %s, want 200", rec.Code, rec.Body)
			}
			conforms(t, sp, "GET", tc.tmpl, rec.Code, rec.Header().Get("Content-Type"), rec.Body.Bytes())
			var got map[string]any
			if err := stdjson.Unmarshal(rec.Body.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if tc.want != nil && got[tc.key] != tc.want {
				t.Errorf("%s: %s %v, want %v", rec.Body, tc.key, got[tc.key], tc.want)
			}
		})
	}
}

// A create whose body names a related record the mock does not have is
// answered under the plain-OpenAPI profile as one naming a record it has
// where the operation declares no 404 (utoipa's POST /tasks: 201 and
// 400), as a read takes a key it has no record of (TestUndeclaredNotFound);
// it is refused with the 404 the operation declares.
func TestCreateNamingAMissingRecord(t *testing.T) {
	t.Parallel()
	doc := func(statuses string) string {
		return `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{
"/stories":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/Story"}}}}}}}},
"/stories/{story_id}":{"get":{"parameters":[{"name":"story_id","in":"path","required":true,"schema":{"type":"integer"}}],
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Story"}}}}}}},
"/tasks":{"post":{"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/CreateTask"}}}},
  "responses":{"201":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Task"}}}}` + statuses + `}}},
"/tasks/{task_id}":{"get":{"parameters":[{"name":"task_id","in":"path","required":true,"schema":{"type":"integer"}}],
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Task"}}}}}}}},
"components":{"schemas":{
"Errors":{"type":"object","required":["errors"],"properties":{"errors":{"type":"array","items":{"type":"string"}}}},
"Story":{"type":"object","required":["id","name"],"properties":{"id":{"type":"integer"},"name":{"type":"string"}}},
"CreateTask":{"type":"object","required":["name","story_id"],"properties":{"name":{"type":"string"},"story_id":{"type":"integer"}}},
"Task":{"type":"object","required":["id","name","story_id"],"properties":{"id":{"type":"integer"},"name":{"type":"string"},"story_id":{"type":"integer"}}}}}}`
	}
	const bad = `,"400":{"description":"bad","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Errors"}}}}`
	const missing = `,"404":{"description":"no story","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Errors"}}}}`
	for _, tc := range []struct {
		name     string
		statuses string
		fw       framework.Name
		want     int
	}{
		{"openapi: 400 declared, no 404", bad, framework.OpenAPI, 201},
		{"openapi: 404 declared", bad + missing, framework.OpenAPI, 404},
		{"openapi: 4XX declared", `,"4XX":{"description":"client error"}`, framework.OpenAPI, 404},
		{"openapi: neither declared", "", framework.OpenAPI, 201},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sp, err := spec.Load([]byte(doc(tc.statuses)), "tasks.json")
			if err != nil {
				t.Fatal(err)
			}
			m := compiled(t, sp, tc.fw)
			data, err := fixtures.Generate(m, fixtures.GenerateOptions{Seed: 3, Default: 3})
			if err != nil {
				t.Fatal(err)
			}
			srv := newServer(t, mock.Config{Spec: sp, Model: m, Data: data, Seed: 1})
			h := http.Header{"Content-Type": {"application/json"}}
			var stories []struct {
				ID int `json:"id"`
			}
			if rec := serve(srv, request{target: "/stories"}); stdjson.Unmarshal(rec.Body.Bytes(), &stories) != nil || len(stories) == 0 {
				t.Fatalf("GET /stories: %d %s", rec.Code, rec.Body)
			}
			if rec := serve(srv, request{method: "POST", target: "/tasks", header: h, body: fmt.Sprintf(`{"name":"t","story_id":%d}`, stories[0].ID)}); rec.Code != 201 {
				t.Fatalf("a story there is: %d %s", rec.Code, rec.Body)
			}
			rec := serve(srv, request{method: "POST", target: "/tasks", header: h, body: `{"name":"t","story_id":987654}`})
			if rec.Code != tc.want {
				t.Fatalf("a story there is not: %d %s, want %d", rec.Code, rec.Body, tc.want)
			}
			if tc.want != 404 || tc.statuses == bad+missing {
				conforms(t, sp, "POST", "/tasks", rec.Code, rec.Header().Get("Content-Type"), rec.Body.Bytes())
			}
		})
	}
}

// A list's query parameter taking a list of values for a field holding
// one (SmallRye's GET /api/schema/descriptors?id=1&id=3) lists the
// records holding any of them, under the plain-OpenAPI profile.
func TestListFilterByAListOfValues(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{
"/descriptors":{"get":{"parameters":[{"name":"id","in":"query","schema":{"type":"array","items":{"type":"integer"}}}],
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/Descriptor"}}}}}}}}},
"components":{"schemas":{"Descriptor":{"type":"object","required":["id","name"],"properties":{"id":{"type":"integer"},"name":{"type":"string"}}}}}}`
	sp, err := spec.Load([]byte(doc), "descriptors.json")
	if err != nil {
		t.Fatal(err)
	}
	m := compiled(t, sp, framework.OpenAPI)
	data, err := fixtures.Generate(m, fixtures.GenerateOptions{Seed: 3, Default: 5})
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, mock.Config{Spec: sp, Model: m, Data: data, Seed: 1})
	var all []struct{ ID int }
	if rec := serve(srv, request{target: "/descriptors"}); stdjson.Unmarshal(rec.Body.Bytes(), &all) != nil || len(all) < 3 {
		t.Fatalf("GET /descriptors: %d %s", rec.Code, rec.Body)
	}
	for _, tc := range []struct {
		query string
		want  []int
	}{
		{fmt.Sprintf("id=%d", all[0].ID), []int{all[0].ID}},
		{fmt.Sprintf("id=%d&id=%d", all[0].ID, all[2].ID), []int{all[0].ID, all[2].ID}},
		{"id=987654", nil},
	} {
		var got []struct{ ID int }
		rec := serve(srv, request{target: "/descriptors?" + tc.query})
		if stdjson.Unmarshal(rec.Body.Bytes(), &got) != nil || len(got) != len(tc.want) {
			t.Errorf("?%s: %d %s, want ids %v", tc.query, rec.Code, rec.Body, tc.want)
			continue
		}
		for i, r := range got {
			if r.ID != tc.want[i] {
				t.Errorf("?%s: %s, want ids %v", tc.query, rec.Body, tc.want)
			}
		}
	}
}

// A record deleted in a state reads as gone by its key field too (GET
// /tests/byName/{name} beside /tests/{id}), though the read declares no
// 404 and answers any other name with its stand-in: a frontend deleting
// and reading again expects its 404. A record written with the name
// again reads as that record.
func TestDeletedRecordGoneByItsKey(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{
"/tests":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/Test"}}}}}}},
  "post":{"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Test"}}}},
  "responses":{"201":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Test"}}}}}}},
"/tests/{id}":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],
  "get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Test"}}}}}},
  "delete":{"responses":{"204":{"description":"gone"}}}},
"/tests/byName/{name}":{"get":{"parameters":[{"name":"name","in":"path","required":true,"schema":{"type":"string"}}],
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Test"}}}}}}}},
"components":{"schemas":{"Test":{"type":"object","required":["id","name"],"properties":{"id":{"type":"integer"},"name":{"type":"string"}}}}}}`
	sp, err := spec.Load([]byte(doc), "tests.json")
	if err != nil {
		t.Fatal(err)
	}
	m := compiled(t, sp, framework.OpenAPI)
	data, err := fixtures.Generate(m, fixtures.GenerateOptions{Seed: 3, Default: 3})
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, mock.Config{Spec: sp, Model: m, Data: data, Seed: 1})
	h := http.Header{"Content-Type": {"application/json"}}
	rec := serve(srv, request{method: "POST", target: "/tests", header: h, body: `{"id":0,"name":"nightly"}`})
	var made struct{ ID int }
	if rec.Code != 201 || stdjson.Unmarshal(rec.Body.Bytes(), &made) != nil {
		t.Fatalf("POST /tests: %d %s", rec.Code, rec.Body)
	}
	if rec := serve(srv, request{target: "/tests/byName/nightly"}); rec.Code != 200 || !strings.Contains(rec.Body.String(), fmt.Sprintf(`"id":%d`, made.ID)) {
		t.Fatalf("read by name: %d %s", rec.Code, rec.Body)
	}
	if rec := serve(srv, request{method: "DELETE", target: fmt.Sprintf("/tests/%d", made.ID)}); rec.Code != 204 {
		t.Fatalf("DELETE: %d %s", rec.Code, rec.Body)
	}
	if rec := serve(srv, request{target: "/tests/byName/nightly"}); rec.Code != 404 {
		t.Errorf("read by name after the delete: %d %s, want 404", rec.Code, rec.Body)
	}
	if rec := serve(srv, request{target: "/tests/byName/another"}); rec.Code != 200 {
		t.Errorf("read by a name never held: %d %s, want its stand-in", rec.Code, rec.Body)
	}
	if rec := serve(srv, request{method: "POST", target: "/tests", header: h, body: `{"id":0,"name":"nightly"}`}); rec.Code != 201 {
		t.Fatalf("POST /tests again: %d %s", rec.Code, rec.Body)
	}
	if rec := serve(srv, request{target: "/tests/byName/nightly"}); rec.Code != 200 {
		t.Errorf("read by name once written again: %d %s", rec.Code, rec.Body)
	}
}
