package contract

import (
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/model"
)

// A refusal repeating a value many records share by design (an enum's, a
// date's) is no value taken: only free text may have to be unique.
func TestUniqueLike(t *testing.T) {
	field := func(s *openapi3.Schema) *model.Field {
		return &model.Field{Name: "f", Ref: &openapi3.SchemaRef{Value: s}}
	}
	for _, tc := range []struct {
		name string
		f    *model.Field
		want bool
	}{
		{"free text", field(openapi3.NewStringSchema()), true},
		{"an e-mail", field(openapi3.NewStringSchema().WithFormat("email")), true},
		{"an enum", field(openapi3.NewStringSchema().WithEnum("open", "closed")), false},
		{"a date-time", field(openapi3.NewDateTimeSchema()), false},
		{"a date", field(openapi3.NewStringSchema().WithFormat("date")), false},
		{"no field of the collection", nil, true},
	} {
		if got := uniqueLike(tc.f); got != tc.want {
			t.Errorf("%s: uniqueLike = %v, want %v", tc.name, got, tc.want)
		}
	}
}
