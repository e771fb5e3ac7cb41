package compare_test

import (
	"slices"
	"strings"
	"testing"
)

// FastAPI writes every Optional parameter or field as anyOf [T, {type:
// null}]: the constraints inside T are compared as T's own.
func TestCompareReadsConstraintsInsideOptional(t *testing.T) {
	t.Parallel()
	opt := func(t string) string { return `{"anyOf": [` + t + `, {"type": "null"}], "title": "Q"}` }
	query := func(t string) doc {
		return doc{params: `{"name": "q", "in": "query", "required": false, "schema": ` + opt(t) + `}`}
	}
	body := func(t string) doc {
		return doc{in: `"title": {"type": "string", "title": "Title"}, "note": ` + opt(t), inRequired: `"title"`}
	}
	answer := func(t string) doc {
		return doc{item: `"id": {"type": "integer", "title": "Id"}, "title": {"type": "string", "title": "Title"}, "note": ` + opt(t), itemRequired: `"id", "title", "note"`}
	}
	str := `{"type": "string"}`
	num := `{"type": "integer"}`
	tests := []struct {
		name     string
		old, new doc
		want     []string
	}{
		{
			name: "query: max_length added",
			old:  query(str), new: query(`{"type": "string", "maxLength": 50}`),
			want: []string{"breaking request-parameter-max-length-set GET /items | query parameter q"},
		},
		{
			name: "query: min_length added",
			old:  query(str), new: query(`{"type": "string", "minLength": 3}`),
			want: []string{"breaking request-parameter-min-length-set GET /items | query parameter q"},
		},
		{
			name: "query: max_length taken off",
			old:  query(`{"type": "string", "maxLength": 50}`), new: query(str),
			want: []string{"info request-parameter-max-length-unset GET /items | query parameter q"},
		},
		{
			name: "query: pattern added",
			old:  query(str), new: query(`{"type": "string", "pattern": "^fixedquery$"}`),
			want: []string{"breaking request-parameter-pattern-added GET /items | query parameter q"},
		},
		{
			name: "query: le added",
			old:  query(num), new: query(`{"type": "integer", "maximum": 100}`),
			want: []string{"breaking request-parameter-max-set GET /items | query parameter q"},
		},
		{
			name: "query: gt raised",
			old:  query(`{"type": "integer", "exclusiveMinimum": 0}`), new: query(`{"type": "integer", "exclusiveMinimum": 5}`),
			want: []string{"breaking request-parameter-exclusive-min-increased GET /items | query parameter q"},
		},
		{
			name: "query: Literal narrowed",
			old:  query(`{"type": "string", "enum": ["a", "b"]}`), new: query(`{"type": "string", "enum": ["a"]}`),
			want: []string{"breaking request-parameter-enum-value-removed GET /items | query parameter q"},
		},
		{
			name: "query: integer became string: every integer is text",
			old:  query(num), new: query(str),
			want: []string{"info request-parameter-type-generalized GET /items | query parameter q"},
		},
		{
			name: "header: max_length added",
			old:  doc{params: `{"name": "x-token", "in": "header", "required": false, "schema": ` + opt(str) + `}`},
			new:  doc{params: `{"name": "x-token", "in": "header", "required": false, "schema": ` + opt(`{"type": "string", "maxLength": 8}`) + `}`},
			want: []string{"breaking request-parameter-max-length-set GET /items | header parameter x-token"},
		},
		{
			name: "body: max_length added",
			old:  body(str), new: body(`{"type": "string", "maxLength": 50}`),
			want: []string{"breaking request-property-max-length-set POST /items | request body: note"},
		},
		{
			name: "body: ge added",
			old:  body(num), new: body(`{"type": "integer", "minimum": 1}`),
			want: []string{"breaking request-property-min-set POST /items | request body: note"},
		},
		{
			name: "body: pattern added",
			old:  body(str), new: body(`{"type": "string", "pattern": "^[a-z]+$"}`),
			want: []string{"breaking request-property-pattern-added POST /items | request body: note"},
		},
		{
			name: "body: Literal narrowed",
			old:  body(`{"type": "string", "enum": ["a", "b"]}`), new: body(`{"type": "string", "enum": ["a"]}`),
			want: []string{"breaking request-property-enum-value-removed POST /items | request body: note"},
		},
		{
			name: "body: format date added",
			old:  body(str), new: body(`{"type": "string", "format": "date"}`),
			want: []string{"breaking request-property-type-changed POST /items | request body: note"},
		},
		{
			name: "response: Literal widened",
			old:  answer(`{"type": "string", "enum": ["a"]}`), new: answer(`{"type": "string", "enum": ["a", "b"]}`),
			want: []string{
				"warning response-property-enum-value-added GET /items | response 200 body: [].note",
				"warning response-property-enum-value-added POST /items | response 200 body: note",
				"warning response-property-enum-value-added GET /items/{item_id} | response 200 body: note",
			},
		},
		{
			name: "response: integer became string",
			old:  answer(num), new: answer(str),
			want: []string{
				"breaking response-property-type-changed GET /items | response 200 body: [].note",
				"breaking response-property-type-changed POST /items | response 200 body: note",
				"breaking response-property-type-changed GET /items/{item_id} | response 200 body: note",
			},
		},
		{
			name: "the wrapper's title alone is no change",
			old:  query(str), new: doc{params: `{"name": "q", "in": "query", "required": false, "schema": {"anyOf": [{"type": "string"}, {"type": "null"}], "title": "Other", "description": "a query"}}`},
		},
		{
			name: "body: Optional of a model unchanged is no change",
			old:  doc{extraSchemas: `"Note": {"type": "object", "properties": {"text": {"type": "string"}}},`, in: `"title": {"type": "string"}, "note": ` + opt(`{"$ref": "#/components/schemas/Note"}`), inRequired: `"title"`},
			new:  doc{extraSchemas: `"Note": {"type": "object", "properties": {"text": {"type": "string"}}},`, in: `"title": {"type": "string"}, "note": ` + opt(`{"$ref": "#/components/schemas/Note"}`), inRequired: `"title"`},
		},
		{
			name: "body: max_length added in the model of an Optional",
			old:  doc{extraSchemas: `"Note": {"type": "object", "properties": {"text": {"type": "string"}}},`, in: `"title": {"type": "string"}, "note": ` + opt(`{"$ref": "#/components/schemas/Note"}`), inRequired: `"title"`},
			new:  doc{extraSchemas: `"Note": {"type": "object", "properties": {"text": {"type": "string", "maxLength": 5}}},`, in: `"title": {"type": "string"}, "note": ` + opt(`{"$ref": "#/components/schemas/Note"}`), inRequired: `"title"`},
			want: []string{"breaking request-property-max-length-set POST /items | request body: note.text"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, got := compareDocs(t, tc.old, tc.new)
			if !slices.Equal(got, tc.want) {
				t.Errorf("changes:\n got  %s\n want %s", strings.Join(got, "\n      "), strings.Join(tc.want, "\n      "))
				for _, c := range r.Changes {
					t.Logf("%s: %s (why: %s)", c.ID, c.Text, c.Why)
				}
			}
		})
	}
}
