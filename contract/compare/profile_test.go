package compare_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract/compare"
	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/spec"
)

// TestCompareReadsOtherFrameworks: a document without FastAPI's marks is
// read by its own words, as the mock and the runner read it: its security
// requirements are alternatives, a field out of `required` may be left
// out, a parameter removed is what oasdiff says, and an invalid request is
// refused with the status the operation declares. No reason names FastAPI
// or pydantic.
func TestCompareReadsOtherFrameworks(t *testing.T) {
	t.Parallel()
	base := doc{plain: true}
	tests := []struct {
		name     string
		old, new doc
		want     []string
		why      string // in the first change's Why
	}{
		{
			name: "a response field out of required removed: a warning, it was never promised",
			old:  base,
			new:  doc{plain: true, item: `"id": {"type": "integer", "title": "Id"}, "title": {"type": "string", "title": "Title"}`, itemRequired: `"id", "title"`},
			want: []string{
				"warning response-optional-property-removed GET /items | response 200 body: [].rating",
				"warning response-optional-property-removed POST /items | response 200 body: rating",
				"warning response-optional-property-removed GET /items/{item_id} | response 200 body: rating",
			},
			why: "never promised",
		},
		{
			name: "a response field that leaves required: breaking, a client may now miss it",
			old:  base,
			new: doc{plain: true, item: `"id": {"type": "integer", "title": "Id"}, "title": {"type": "string", "title": "Title", "default": "x"}, "rating": {"type": "number", "title": "Rating", "default": 0}`,
				itemRequired: `"id"`},
			want: []string{
				"breaking response-property-became-optional GET /items | response 200 body: [].title",
				"info response-property-default-value-added GET /items | response 200 body: [].title",
				"breaking response-property-became-optional POST /items | response 200 body: title",
				"info response-property-default-value-added POST /items | response 200 body: title",
				"breaking response-property-became-optional GET /items/{item_id} | response 200 body: title",
				"info response-property-default-value-added GET /items/{item_id} | response 200 body: title",
			},
			why: "no longer promises",
		},
		{
			name: "a request field no longer nullable: refused with the 400 the operation declares",
			old:  doc{plain: true, in: `"title": {"anyOf": [{"type": "string"}, {"type": "null"}], "title": "Title"}`, inRequired: `"title"`},
			new:  base,
			want: []string{"breaking request-property-became-not-nullable POST /items | request body: title"},
			why:  "refused with 400",
		},
		{
			name: "a new required body field: refused with the declared 400",
			old:  base,
			new:  doc{plain: true, in: `"title": {"type": "string"}, "priority": {"type": "integer"}`, inRequired: `"title", "priority"`},
			want: []string{"breaking new-required-request-property POST /items | request body: priority"},
			why:  "refused with 400 naming the missing field",
		},
		{
			name: "a query parameter removed: oasdiff's warning, told as a possible rename",
			old:  base,
			new:  doc{plain: true, params: `{"name": "size", "in": "query", "required": false, "schema": {"type": "integer", "default": 10}}`},
			want: []string{
				"warning request-parameter-removed GET /items | query parameter limit",
				"info new-optional-request-parameter GET /items | query parameter size",
			},
			why: "renamed to size? the document no longer says",
		},
		{
			name: "an operation removed while its path remains",
			old:  base,
			new:  doc{plain: true, noDelete: true},
			want: []string{"breaking api-removed-without-deprecation DELETE /items/{item_id} | "},
			why:  "commonly 405",
		},
		{
			name: "a security requirement added beside another is another way in",
			old:  doc{plain: true, security: `[{"OAuth2PasswordBearer": []}]`},
			new:  doc{plain: true, security: `[{"OAuth2PasswordBearer": []}, {"HTTPBasic": []}]`},
			want: []string{"info api-security-added GET /items | security"},
			why:  "alternatives",
		},
		{
			name: "a security requirement removed beside another refuses those who used it",
			old:  doc{plain: true, security: `[{"OAuth2PasswordBearer": []}, {"HTTPBasic": []}]`},
			new:  doc{plain: true, security: `[{"OAuth2PasswordBearer": []}]`},
			want: []string{"breaking api-security-removed GET /items | security"},
			why:  "refused now (401 or 403)",
		},
		{
			name: "a request integer that became a number accepts every request it did",
			old:  doc{plain: true, in: `"priority": {"type": "integer"}`, inRequired: `"priority"`},
			new:  doc{plain: true, in: `"priority": {"type": "number"}`, inRequired: `"priority"`},
			want: []string{"info request-property-type-generalized POST /items | request body: priority"},
		},
		{
			name: "a request date that became a date-time refuses a date: JSON Schema is not pydantic",
			old:  doc{plain: true, in: `"due": {"type": "string", "format": "date"}`, inRequired: `"due"`},
			new:  doc{plain: true, in: `"due": {"type": "string", "format": "date-time"}`, inRequired: `"due"`},
			want: []string{"breaking request-property-type-changed POST /items | request body: due"},
			why:  "refused with 400",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, got := compareDocs(t, tc.old, tc.new)
			if r.Framework != framework.OpenAPI || !strings.Contains(r.FrameworkWhy, "NEW shows") {
				t.Errorf("read by %q (%s), want %q as NEW shows it", r.Framework, r.FrameworkWhy, framework.OpenAPI)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("changes:\n got  %s\n want %s", strings.Join(got, "\n      "), strings.Join(tc.want, "\n      "))
			}
			if tc.why != "" && len(r.Changes) > 0 && !strings.Contains(r.Changes[0].Why, tc.why) {
				t.Errorf("why %q, want it to say %q", r.Changes[0].Why, tc.why)
			}
			for _, c := range r.Changes {
				for _, s := range []string{c.Why, c.Text} {
					if strings.Contains(s, "FastAPI") || strings.Contains(s, "pydantic") || strings.Contains(s, "422") {
						t.Errorf("%s: a document of another framework is told in FastAPI's words: %q", c.ID, s)
					}
				}
			}
		})
	}
}

// TestCompareFrameworkChosen: --framework reads a document by the profile
// it names whatever the document shows, and a FastAPI document is read as
// FastAPI's unless told otherwise.
func TestCompareFrameworkChosen(t *testing.T) {
	t.Parallel()
	load := func(d doc, name string) *spec.Spec {
		sp, err := spec.Load(d.bytes(), name)
		if err != nil {
			t.Fatal(err)
		}
		return sp
	}
	added := func(plain bool, fw framework.Name) (compare.Level, *compare.Report) {
		old := load(doc{plain: plain, security: `[{"OAuth2PasswordBearer": []}]`}, "old.json")
		new := load(doc{plain: plain, security: `[{"OAuth2PasswordBearer": []}, {"HTTPBasic": []}]`}, "new.json")
		r, err := compare.CompareSpecsAs(old, new, 0, fw)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Changes) != 1 || r.Changes[0].ID != "api-security-added" {
			t.Fatalf("changes %+v, want api-security-added alone", r.Changes)
		}
		return r.Changes[0].Level, r
	}
	for _, tc := range []struct {
		plain bool
		fw    framework.Name
		want  compare.Level
		by    framework.Name
	}{
		{plain: false, fw: "", want: compare.Breaking, by: framework.FastAPI},
		{plain: true, fw: "", want: compare.Info, by: framework.OpenAPI},
		{plain: true, fw: framework.FastAPI, want: compare.Breaking, by: framework.FastAPI},
		{plain: false, fw: framework.OpenAPI, want: compare.Info, by: framework.OpenAPI},
	} {
		level, r := added(tc.plain, tc.fw)
		if level != tc.want || r.Framework != tc.by {
			t.Errorf("plain %v, --framework %q: security added is %s read by %s, want %s by %s", tc.plain, tc.fw, level, r.Framework, tc.want, tc.by)
		}
		if tc.fw != "" && !strings.Contains(r.ReadBy(), "--framework") {
			t.Errorf("--framework %s: the report says %q, not that the flag chose it", tc.fw, r.ReadBy())
		}
	}
}
