package fake

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/brianvoe/gofakeit/v7"

	"github.com/moviemock/moviemock/internal/spec"
)

// With Examples, a property's own example is one value in two: about half
// the Swagger Petstore's pets are called doggie and their categories Dogs,
// the rest are named by the faker. Without, no pet is called doggie.
func TestPropertyExamplesAreValues(t *testing.T) {
	t.Parallel()
	sp := loadFile(t, "../../testdata/corpus/documents/swagger-petstore-3/openapi.yaml")
	pet := sp.Doc.Components.Schemas["Pet"]
	names := func(g *Generator) (pets, categories []string) {
		for seed := uint64(1); seed <= 50; seed++ {
			b := g.Append(nil, gofakeit.New(seed), "", pet)
			v, err := decode(b)
			if err != nil {
				t.Fatalf("%s: %v", b, err)
			}
			if err := sp.Validate(pet.Value, v, false); err != nil {
				t.Fatalf("%s: %v", b, err)
			}
			var p struct {
				Name     string
				Category *struct{ Name *string }
			}
			json.Unmarshal(b, &p)
			pets = append(pets, p.Name)
			if p.Category != nil && p.Category.Name != nil {
				categories = append(categories, *p.Category.Name)
			}
		}
		return pets, categories
	}
	count := func(names []string, want string) int {
		n := 0
		for _, s := range names {
			if s == want {
				n++
			}
		}
		return n
	}
	pets, categories := names(New(sp, Examples()))
	if n := count(pets, "doggie"); n < len(pets)/5 || n > len(pets)*4/5 {
		t.Errorf("with Examples, %d of %d pets are called doggie, want about half: %q", n, len(pets), pets)
	}
	if n := count(categories, "Dogs"); len(categories) == 0 || n < len(categories)/5 || n > len(categories)*4/5 {
		t.Errorf("with Examples, %d of %d categories are called Dogs, want about half: %q", n, len(categories), categories)
	}
	if pets, _ := names(New(sp)); count(pets, "doggie") > 0 {
		t.Errorf("without Examples, a pet is called doggie: %q", pets)
	}
}

// Only the examples a property's own schema gives and accepts are taken,
// drawn among them; not a component's, not an object, not one the schema
// refuses.
func TestPropertyExamplesTaken(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(`openapi: 3.1.0
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Code: {type: string, example: component-example}
    Thing:
      type: object
      required: [color, size, code, bad, meta, tags]
      properties:
        color: {type: string, examples: [red, green, blue]}
        size: {type: integer, minimum: 1, example: 3}
        code: {$ref: "#/components/schemas/Code"}
        bad: {type: integer, maximum: 5, example: 99}
        meta: {type: object, example: {a: 1}, properties: {a: {type: integer}}}
        tags: {type: array, items: {type: string}, example: [x, y]}
`), "examples.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g := New(sp, Examples())
	thing := sp.Doc.Components.Schemas["Thing"]
	colors := map[string]bool{}
	sizes, tags := 0, 0
	for seed := uint64(1); seed <= 60; seed++ {
		b := g.Append(nil, gofakeit.New(seed), "", thing)
		var v struct {
			Color string
			Size  int
			Code  string
			Bad   int
			Meta  map[string]any
			Tags  []string
		}
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		colors[v.Color] = true
		if v.Size == 3 {
			sizes++
		}
		if slices.Equal(v.Tags, []string{"x", "y"}) {
			tags++
		}
		switch {
		case v.Code == "component-example":
			t.Errorf("a component's example taken for the property: %s", b)
		case v.Bad == 99:
			t.Errorf("an example the schema refuses taken: %s", b)
		}
	}
	if !colors["red"] || !colors["green"] || !colors["blue"] {
		t.Errorf("colors drawn: %v, want red, green and blue among them", colors)
	}
	if sizes < 10 || tags < 10 {
		t.Errorf("of 60 things, %d have the example's size and %d its tags, want about half", sizes, tags)
	}
}
