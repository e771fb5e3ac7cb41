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
	zero, half, one, two, threeF := 0.0, 0.5, 1.0, 2.0, 3.0
	for _, tc := range []struct {
		name   string
		kind   fastapi.Kind
		schema *openapi3.Schema
	}{
		{"uuid", fastapi.UUID, &openapi3.Schema{Type: &openapi3.Types{"string"}}},
		{"short string", fastapi.String, &openapi3.Schema{Type: &openapi3.Types{"string"}, MaxLength: &three}},
		{"long string", fastapi.String, &openapi3.Schema{Type: &openapi3.Types{"string"}, MinLength: 12}},
		{"integer above an exclusive minimum", fastapi.Integer, &openapi3.Schema{Type: &openapi3.Types{"integer"}, ExclusiveMin: openapi3.ExclusiveBound{Value: &threeF}}},
		{"integer below a maximum", fastapi.Integer, &openapi3.Schema{Type: &openapi3.Types{"integer"}, Max: &zero}},
		{"integer between exclusive bounds", fastapi.Integer, &openapi3.Schema{Type: &openapi3.Types{"integer"}, ExclusiveMin: openapi3.ExclusiveBound{Value: &half}, ExclusiveMax: openapi3.ExclusiveBound{Value: &two}}},
		{"number between exclusive bounds", fastapi.Number, &openapi3.Schema{Type: &openapi3.Types{"number"}, ExclusiveMin: openapi3.ExclusiveBound{Value: &half}, Max: &one}},
		{"number below an exclusive maximum", fastapi.Number, &openapi3.Schema{Type: &openapi3.Types{"number"}, ExclusiveMax: openapi3.ExclusiveBound{Value: &zero}}},
		{"number above a minimum", fastapi.Number, &openapi3.Schema{Type: &openapi3.Types{"number"}, Min: &threeF}},
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
