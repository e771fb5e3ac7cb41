package fake

import (
	"slices"
	"testing"

	"github.com/brianvoe/gofakeit/v7"

	"github.com/moviemock/moviemock/internal/spec"
)

// keywordsDoc holds schemas whose values a keyword of JSON Schema bounds
// beyond the types of their members.
const keywordsDoc = `{
  "openapi": "3.1.0",
  "info": {"title": "keywords", "version": "1"},
  "paths": {},
  "components": {"schemas": {
    "MaxProperties": {
      "type": "object", "required": ["required"],
      "properties": {
        "required": {"type": "integer"},
        "optional_a": {"type": "integer"},
        "optional_b": {"type": "integer"},
        "optional_c": {"type": "integer"}
      },
      "minProperties": 2, "maxProperties": 2
    },
    "MinProperties": {
      "type": "object",
      "properties": {"a": {"type": "integer"}},
      "additionalProperties": {"type": "string"},
      "minProperties": 3, "maxProperties": 4
    },
    "Patterned": {
      "type": "object",
      "properties": {"x_count": {"type": "integer"}},
      "patternProperties": {"^x_": {"type": "integer", "minimum": 5}},
      "additionalProperties": false
    },
    "PatternMap": {
      "type": "object",
      "patternProperties": {
        "^[a-z]{3}$": {"type": "integer"},
        "foo.*": {"$ref": "#/components/schemas/PatternMap"}
      },
      "additionalProperties": false,
      "minProperties": 1
    },
    "RecursiveMap": {
      "type": "object",
      "additionalProperties": {"$ref": "#/components/schemas/RecursiveMap"},
      "properties": {
        "optional_recursive_field": {"$ref": "#/components/schemas/RecursiveMap"}
      }
    }
  }}
}`

// TestObjectKeywords: every value of an object schema bounded by
// minProperties and maxProperties, patternProperties, or holding an
// optional member of its own schema, validates: optional members are left
// out to fit maxProperties, dict members are added to reach minProperties,
// a member whose name matches a pattern satisfies its schema too (members
// of a dict with patterns are made for them), and a self-reference
// through an optional member ends in an object, not in a null the schema
// refuses.
func TestObjectKeywords(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(keywordsDoc), "keywords.json")
	if err != nil {
		t.Fatal(err)
	}
	g := New(sp)
	for _, name := range []string{"MaxProperties", "MinProperties", "Patterned", "PatternMap", "RecursiveMap"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ref := sp.Doc.Components.Schemas[name]
			deepest := 0
			for seed := uint64(1); seed <= 200; seed++ {
				for _, b := range [][]byte{
					g.Append(nil, gofakeit.New(seed), "", ref),
					g.AppendAnswer(nil, gofakeit.New(seed), "", ref),
				} {
					v, err := decode(b)
					if err != nil {
						t.Fatalf("%s: %v", b, err)
					}
					if err := sp.Validate(ref.Value, v, false); err != nil {
						t.Fatalf("seed %d: %s: %v", seed, b, err)
					}
					deepest = max(deepest, depth(b))
				}
			}
			if deepest > softDepth {
				t.Errorf("values nest %d deep", deepest)
			}
		})
	}
}

// A schema requiring a property that it does not declare and that
// additionalProperties: false forbids has no valid value: the generator
// says so (Notes), naming the declared property whose name differs only
// in case.
func TestClosedRequiredUndeclaredNoted(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi": "3.0.3", "info": {"title": "cart", "version": "1"}, "paths": {},
"components": {"schemas": {"Cart": {"type": "object", "required": ["Id"],
  "properties": {"id": {"type": "integer"}}, "additionalProperties": false}}}}`
	sp, err := spec.Load([]byte(doc), "cart.json")
	if err != nil {
		t.Fatal(err)
	}
	notes := New(sp).Notes()
	want := "schema Cart: requires Id, which it does not declare and additionalProperties: false forbids (it declares id: names differ in case): no value of it is valid"
	if !slices.Contains(notes, want) {
		t.Errorf("notes %q, want %q", notes, want)
	}
}
