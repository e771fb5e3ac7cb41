package model

import "testing"

// A field that says when its record was created or last changed is a
// stamp whatever the naming style, when it is a date-time; a name alone
// (an integer, a date) is not enough.
func TestStampsInAnyNamingStyle(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, typ, format string
		want              string
	}{
		{"created_at", "string", "date-time", "created"},
		{"createdAt", "string", "date-time", "created"},
		{"CreatedAt", "string", "date-time", "created"},
		{"created-at", "string", "date-time", "created"},
		{"creationDate", "string", "date-time", "created"},
		{"dateCreated", "string", "date-time", "created"},
		{"inserted_at", "string", "date-time", "created"},
		{"created", "string", "date-time", "created"},
		{"updated_at", "string", "date-time", "updated"},
		{"UpdatedAt", "string", "date-time", "updated"},
		{"modifiedAt", "string", "date-time", "updated"},
		{"lastModified", "string", "date-time", "updated"},
		{"lastUpdated", "string", "date-time", "updated"},
		{"modified", "string", "date-time", "updated"},
		{"created_at", "string", "", "created"}, // created_at: str
		{"CreatedAt", "string", "", "created"},
		{"created", "string", "", ""}, // a plain string "created": could be anything
		{"creationDate", "string", "date", ""},
		{"created_at", "integer", "", ""}, // a Unix time
		{"created", "integer", "", ""},
		{"createdBy", "string", "", ""},
		{"completedAt", "string", "date-time", ""},
		{"recreated_at", "string", "date-time", ""},
	} {
		f := &Field{Name: tc.name, Type: tc.typ, Format: tc.format}
		if got := stampOf(f); got != tc.want {
			t.Errorf("%s (%s %s): stamp %q, want %q", tc.name, tc.typ, tc.format, got, tc.want)
		}
	}
}

// In documents of other generators: Swashbuckle's camelCase createdAt and
// lastUpdated, NestJS's createdAt, FastAPI's created_at and updated_at.
func TestStampsOfCorpusDocuments(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		doc, schema string
		want        map[string]string
	}{
		{"../../testdata/corpus/documents/swashbuckle-todoapp/swagger.json", "TodoItemModel", map[string]string{"createdAt": "created", "lastUpdated": "updated", "completedAt": ""}},
		{"../../testdata/contracts/realworld/openapi.yml", "Article", map[string]string{"createdAt": "created", "updatedAt": "updated"}},
		{"../../testdata/contracts/tasks/openapi.json", "Task", map[string]string{"created_at": "created", "updated_at": "updated", "due_date": ""}},
	} {
		m := compileFile(t, tc.doc)
		var c *Collection
		for _, x := range m.Collections {
			if x.Name == tc.schema {
				c = x
			}
		}
		if c == nil {
			t.Fatalf("%s: no collection %s", tc.doc, tc.schema)
		}
		for name, want := range tc.want {
			if f := c.Field(name); f == nil || f.Stamp != want {
				t.Errorf("%s: %s.%s: %+v, want stamp %q", tc.doc, tc.schema, name, f, want)
			}
		}
	}
}
