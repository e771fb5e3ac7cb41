package model_test

import (
	"testing"

	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/model"
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
