package model_test

import (
	"testing"

	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
)

const putCreates = "../../testdata/contracts/put-creates/openapi.json"

// A document that creates with PUT on a list's path and changes with POST
// on a record's path (Vikunja's) has its operations placed by what they
// do; a parent named by another parameter name than its read's
// (/projects/{project}/views beside /projects/{id}) still scopes; a
// DELETE under a parent of records listed on their own takes one off the
// parent and deletes nothing; a POST answering no body creates the records
// its path lists. Read as
// FastAPI's, the methods keep their own meaning.
func TestMethodsUsedTheOtherWayRound(t *testing.T) {
	t.Parallel()
	m := compileFile(t, putCreates)
	for op, want := range map[string]model.Kind{
		"createProject": model.Create,
		"updateProject": model.Replace,
		"createView":    model.NestedCreate,
		"listViews":     model.NestedList,
		"updateView":    model.Replace,
		"createBucket":  model.NestedCreate,
		// a label listed on its own, taken off a project: not deleted
		"removeLabel": model.Example,
		// a create answering no body, of the records its path lists
		"createLabel": model.Create,
		// a PUT making a task, read at /tasks/{id}, where nothing lists them
		"createTask": model.NestedCreate,
	} {
		if o := m.Operation(op); o.Kind != want {
			t.Errorf("%s: %v (%s), want %v", op, o.Kind, o.Why, want)
		}
	}
	if o := m.Operation("createView"); !o.Scoped || o.Parent != m.Collection("Project") || o.ParentField == nil || o.ParentField.Name != "projectId" {
		t.Errorf("createView: scoped %v under %v by %v, want under Project by projectId", o.Scoped, o.Parent, o.ParentField)
	}
	fm := compileFile(t, putCreates, model.WithFramework(framework.FastAPI))
	for _, op := range []string{"createProject", "updateProject"} {
		if o := fm.Operation(op); o.Kind != model.Example {
			t.Errorf("as FastAPI's, %s: %v, want answered from its example", op, o.Kind)
		}
	}
}

// A DELETE on a record's path beside the list its own path reads, where
// nothing reads one record (gotify's DELETE /application/{id} beside GET
// /application), deletes the records of that list.
func TestDeleteBesideItsList(t *testing.T) {
	t.Parallel()
	m := compileFile(t, "../../testdata/corpus/documents/gotify/spec.json")
	for op, coll := range map[string]string{"deleteApp": "Application", "deleteClient": "Client"} {
		if o := m.Operation(op); o.Kind != model.Delete || o.Coll != m.Collection(coll) || o.IDParam != "id" {
			t.Errorf("%s: %v of %v by %q (%s), want the delete of %s by id", op, o.Kind, o.Coll, o.IDParam, o.Why, coll)
		}
	}
}

// A POST on a list's path answering a body of another media type than
// JSON (SmallRye's POST /api/user/apikey: a text/plain key) creates no
// record of the list's: it is answered from its schema. One answering no
// body at all still creates them (TestMethodsUsedTheOtherWayRound).
func TestPostAnsweringTextCreatesNothing(t *testing.T) {
	t.Parallel()
	doc := func(answer string) string {
		return `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{"/keys":{
"get":{"operationId":"listKeys","responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/Key"}}}}}}},
"post":{"operationId":"newKey","requestBody":{"required":true,"content":{"application/json":{"schema":{"type":"object","properties":{"name":{"type":"string"}}}}}},
  "responses":{"200":{"description":"ok"` + answer + `}}}}},
"components":{"schemas":{"Key":{"type":"object","required":["id","name"],"properties":{"id":{"type":"integer"},"name":{"type":"string"}}}}}}`
	}
	for _, tc := range []struct {
		name, answer string
		want         model.Kind
	}{
		{"text/plain", `,"content":{"text/plain":{"schema":{"type":"string"}}}`, model.Example},
		{"no body", "", model.Create},
	} {
		sp, err := spec.Load([]byte(doc(tc.answer)), "keys.json")
		if err != nil {
			t.Fatal(err)
		}
		m, err := model.Compile(sp)
		if err != nil {
			t.Fatal(err)
		}
		if o := m.Operation("newKey"); o.Kind != tc.want {
			t.Errorf("%s: %v (%s), want %v", tc.name, o.Kind, o.Why, tc.want)
		}
	}
}
