package replay_test

import (
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/contract/replay"
)

// FuzzShape reads two bodies as a target could send them: within the
// budgets, never a panic, and a body compared with itself shows no change.
func FuzzShape(f *testing.F) {
	for _, s := range [][2]string{
		{`[{"id":1,"title":"x"}]`, `{"items":[{"id":1}],"total":1}`},
		{`{"a.b":{"c":[null,1,"x"]}}`, `{"a.b":{"c":[]}}`},
		{`{"":{"[\"]":1}}`, `{"":{"[\"]":"1"}}`},
		{`[[[[[]]]]]`, `1`},
		{`{"r":{"x":{"y":[1]}},"a":[{"b":{"k":null}}]}`, `{"r":{"z":{"y":["1"]}},"a":[{"b":{}}]}`},
	} {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	// A contract of a recursive model with an Optional field, a union, an
	// Any and a dict: what the bodies are read against.
	node := openapi3.NewObjectSchema()
	ref := &openapi3.SchemaRef{Ref: "#/components/schemas/Node", Value: node}
	null := openapi3.NewSchemaRef("", &openapi3.Schema{Type: &openapi3.Types{"null"}})
	node.Properties = openapi3.Schemas{
		"a":    {Value: &openapi3.Schema{AnyOf: openapi3.SchemaRefs{openapi3.NewIntegerSchema().NewRef(), null}}},
		"b":    {Value: &openapi3.Schema{AnyOf: openapi3.SchemaRefs{openapi3.NewIntegerSchema().NewRef(), openapi3.NewStringSchema().NewRef()}}},
		"any":  {Value: &openapi3.Schema{}},
		"kids": openapi3.NewArraySchema().WithItems(node).NewRef(),
		"next": {Value: &openapi3.Schema{AnyOf: openapi3.SchemaRefs{ref, null}}},
		"dict": openapi3.NewObjectSchema().WithAdditionalProperties(node).NewRef(),
	}
	list := openapi3.NewArraySchema()
	list.Items = ref
	cs := replay.Contracts{Recorded: replay.AllowedBy(list.NewRef()), Target: replay.AllowedBy(ref)}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		lim := replay.Limits{MaxValues: 1000, MaxDepth: 8, MaxPaths: 200}
		sa, errA := replay.ShapeOf(a, lim, nil)
		sb, errB := replay.ShapeOf(b, lim, nil)
		if errA != nil || errB != nil {
			return
		}
		if cs := replay.Compare(sa, sa); len(cs) != 0 {
			t.Fatalf("%s compared with itself: %v", a, cs)
		}
		_ = replay.Compare(sa, sb)
		_ = replay.Compare(sb, sa)
		// Read with dicts, and past a small depth budget: alike.
		dicts := map[string]bool{"r": true, "a[].b": true, `["a.b"]`: true, "": false}
		da, errDA := replay.ShapeOf(a, replay.Limits{MaxValues: 1000, MaxDepth: 2, MaxPaths: 200}, dicts)
		if errDA == nil {
			if cs := replay.Compare(da, da); len(cs) != 0 {
				t.Fatalf("%s read with dicts compared with itself: %v", a, cs)
			}
			if da.Deep != (da.DeepAt != "") { // a budget of 2 cuts below the body
				t.Fatalf("%s: Deep %v at %q", a, da.Deep, da.DeepAt)
			}
		}
		if cs, excused := replay.CompareWith(sa, sa, cs); len(cs)+len(excused) != 0 {
			t.Fatalf("%s compared with itself knowing the contracts: %v, %v", a, cs, excused)
		}
		// Knowing the contracts only takes changes away.
		plain := replay.Compare(sa, sb)
		with, excused := replay.CompareWith(sa, sb, cs)
		if len(with)+len(excused) != len(plain) {
			t.Fatalf("%s → %s: %d changes without the contracts, %d and %d excused with them", a, b, len(plain), len(with), len(excused))
		}
	})
}
