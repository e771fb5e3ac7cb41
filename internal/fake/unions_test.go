package fake

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/getkin/kin-openapi/openapi3"
)

// A union with a discriminator gets values kin-openapi accepts (it picks
// the member by a mapping's key) and that match exactly one member by the
// members' own schemas, as a JSON Schema validator, which knows no
// discriminator, judges them: the discriminator's value is one the member
// allows (its enum), else a mapping key naming it, else its schema's name.
// Every member is drawn, inline ones too.
func TestDiscriminatedUnions(t *testing.T) {
	t.Parallel()
	sp := loadFile(t, "testdata/unions.yaml")
	g := New(sp)
	tests := []struct {
		schema string
		union  func(v any) (any, *openapi3.Schema) // the union's value and schema
		prop   string
		values []string // the discriminator values members may take
	}{
		{"Playing", func(v any) (any, *openapi3.Schema) {
			return v.(map[string]any)["item"], sp.Doc.Components.Schemas["Playing"].Value.Properties["item"].Value
		}, "type", []string{"track", "episode"}},
		{"Pet", nil, "kind", []string{"cat", "dog"}},
		{"Shape", nil, "shapeType", []string{"Square", "Circle"}},
		{"Answer", nil, "type", []string{"track", "text"}},
		{"Vehicle", nil, "vehicleType", []string{"Car", "Motorcycle"}},
		{"Animal", nil, "", []string{""}},
	}
	for _, tc := range tests {
		t.Run(tc.schema, func(t *testing.T) {
			t.Parallel()
			ref := sp.Doc.Components.Schemas[tc.schema]
			seen := map[string]bool{}
			for seed := uint64(1); seed <= 200; seed++ {
				raw := g.Append(nil, gofakeit.New(seed), "", ref)
				v, err := decode(raw)
				if err != nil {
					t.Fatalf("%s: %v", raw, err)
				}
				if err := sp.Validate(ref.Value, v, false); err != nil {
					t.Fatalf("kin-openapi refuses %s: %v", raw, err)
				}
				u, us := v, ref.Value
				if tc.union != nil {
					u, us = tc.union(v)
				}
				d, _ := u.(map[string]any)[tc.prop].(string)
				if disc := us.Discriminator; disc != nil && disc.Mapping[d].Ref != "" {
					// Told apart by its discriminator (the loader writes
					// the mapping one without implies): the member it
					// names takes the value.
					named := disc.Mapping[d].Ref
					member := sp.Doc.Components.Schemas[named[strings.LastIndexByte(named, '/')+1:]]
					if member == nil || sp.Validate(member.Value, u, false) != nil {
						t.Fatalf("%s: the member %s its discriminator names refuses it", raw, named)
					}
				} else {
					matched := 0
					for _, m := range us.OneOf {
						if sp.Validate(m.Value, u, false) == nil {
							matched++
						}
					}
					if matched != 1 {
						t.Fatalf("%s matches %d members, want 1", raw, matched)
					}
				}
				seen[d] = true
			}
			for _, want := range tc.values {
				if !seen[want] {
					b, _ := json.Marshal(seen)
					t.Errorf("%s %q never drawn (seen %s)", tc.prop, want, b)
				}
			}
			if len(seen) != len(tc.values) {
				t.Errorf("%d discriminator values drawn, want %d: %v", len(seen), len(tc.values), seen)
			}
		})
	}
}
