package contract

import (
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/fastapi"
)

// A length bound past what a request carries is not tested, never
// attempted: maxLength 1e18 made the cases panic (makeslice: len out of
// range), minLength 1e8 made them build a 100 MB string per case.
func TestCasesCapLengths(t *testing.T) {
	t.Parallel()
	huge, big := uint64(1e18), uint64(1e8)
	for _, tc := range []struct {
		name string
		s    *openapi3.Schema
	}{
		{"maxLength 1e18", &openapi3.Schema{Type: &openapi3.Types{"string"}, MaxLength: &huge}},
		{"minLength 1e8", &openapi3.Schema{Type: &openapi3.Types{"string"}, MinLength: big}},
		{"maxItems 1e18", &openapi3.Schema{Type: &openapi3.Types{"array"}, MaxItems: &huge, Items: openapi3.NewSchemaRef("", openapi3.NewStringSchema())}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, bad := range badJSONValues(tc.s, []any{"x"}) {
				if s, ok := bad.(string); ok && len(s) > maxCaseLength {
					t.Errorf("a bad value of %d bytes", len(s))
				}
				if l, ok := bad.([]any); ok && len(l) > maxCaseLength {
					t.Errorf("a bad list of %d items", len(l))
				}
			}
			in := fastapi.Input{In: "query", Name: "q", Kind: fastapi.String, Schema: tc.s}
			for _, bad := range badStrings(in, "x") {
				if len(bad) > maxCaseLength {
					t.Errorf("a bad string of %d bytes", len(bad))
				}
			}
			if v, _ := exampleFor(in); len(v) > maxCaseLength {
				t.Errorf("an example of %d bytes", len(v))
			}
			var notes []string
			b := &builder{notes: &notes}
			b.noteUntested("q", tc.s)
			if len(notes) != 1 {
				t.Errorf("notes %q, want one saying the bound is not tested", notes)
			}
		})
	}
}
