package contract

import (
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/spec"
)

// A required parameter's example value is one FastAPI accepts: a UUID for
// a uuid, a string within its length bounds.
func TestExampleForMeetsConstraints(t *testing.T) {
	t.Parallel()
	sp, err := spec.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	three := uint64(3)
	for _, tc := range []struct {
		name   string
		kind   fastapi.Kind
		schema *openapi3.Schema
	}{
		{"uuid", fastapi.UUID, &openapi3.Schema{Type: &openapi3.Types{"string"}}},
		{"short string", fastapi.String, &openapi3.Schema{Type: &openapi3.Types{"string"}, MaxLength: &three}},
		{"long string", fastapi.String, &openapi3.Schema{Type: &openapi3.Types{"string"}, MinLength: 12}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := fastapi.Input{In: "query", Name: "q", Loc: []any{"query", "q"}, Required: true, Kind: tc.kind, Schema: tc.schema}
			v, ok := exampleFor(in)
			if !ok {
				t.Fatal("no example")
			}
			if _, item := in.Check(sp, v, true); item != nil {
				t.Errorf("example %q refused: %s", v, item.Msg)
			}
		})
	}
}
