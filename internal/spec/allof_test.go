package spec_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
)

// allOfDoc composes its schemas as petstore-expanded and Spotify do:
// Pet is NewPet and an id, Page a Paging and its items, Deep a Pet and a
// note; Clash declares name twice otherwise, Closed has a part that
// forbids other members, Either a part with oneOf.
const allOfDoc = `openapi: 3.0.3
info: {title: composed, version: "1"}
paths: {}
components:
  schemas:
    NewPet:
      type: object
      required: [name]
      properties:
        name: {type: string}
        tag: {type: string}
    Pet:
      allOf:
        - $ref: '#/components/schemas/NewPet'
        - type: object
          required: [id]
          properties:
            id: {type: integer}
    Deep:
      description: a pet with a note
      allOf:
        - $ref: '#/components/schemas/Pet'
        - properties:
            note: {type: string}
    Paging:
      type: object
      required: [href, total]
      properties:
        href: {type: string}
        total: {type: integer}
    Page:
      type: object
      allOf:
        - $ref: '#/components/schemas/Paging'
        - type: object
          properties:
            items: {type: array, items: {$ref: '#/components/schemas/Pet'}}
    Clash:
      allOf:
        - $ref: '#/components/schemas/NewPet'
        - properties:
            name: {type: integer}
    Closed:
      allOf:
        - $ref: '#/components/schemas/NewPet'
        - type: object
          additionalProperties: false
          properties:
            id: {type: integer}
    Either:
      allOf:
        - $ref: '#/components/schemas/NewPet'
        - oneOf: [{required: [tag]}, {required: [name]}]
`

// A component written as allOf of plain objects is read as the one
// object it stands for: properties in the parts' order, then its own;
// their required members; type object. Composition that could mean
// anything else stays as written, and the document served is the text.
func TestAllOfReadAsOneObject(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(allOfDoc), "composed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	schemas := sp.Doc.Components.Schemas
	for name, want := range map[string]struct{ props, required []string }{
		"Pet":  {[]string{"name", "tag", "id"}, []string{"name", "id"}},
		"Deep": {[]string{"name", "tag", "id", "note"}, []string{"name", "id"}},
		"Page": {[]string{"href", "total", "items"}, []string{"href", "total"}},
	} {
		s := schemas[name].Value
		if len(s.AllOf) != 0 || !s.Type.Is("object") {
			t.Errorf("%s: still allOf (%d parts), type %v", name, len(s.AllOf), s.Type)
			continue
		}
		if got := sp.PropertyOrder(schemas[name]); !slices.Equal(got, want.props) {
			t.Errorf("%s: properties %v, want %v", name, got, want.props)
		}
		if !slices.Equal(s.Required, want.required) {
			t.Errorf("%s: required %v, want %v", name, s.Required, want.required)
		}
	}
	if d := schemas["Deep"].Value.Description; d != "a pet with a note" {
		t.Errorf("Deep's description %q", d)
	}
	for _, name := range []string{"Clash", "Closed", "Either"} {
		if s := schemas[name].Value; len(s.AllOf) != 2 || len(s.Properties) != 0 {
			t.Errorf("%s: merged (%d parts left, properties %v), though its parts mean something else together", name, len(s.AllOf), s.Properties)
		}
	}
	if !strings.Contains(string(sp.JSON()), `"allOf"`) {
		t.Error("the document served lost its allOf")
	}
}

// A chain of models each extending the one before by a property is
// merged within a budget of properties in all; past it the rest stay as
// written, and loading stays quick.
func TestAllOfChainWithinBudget(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: chain, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    M0: {type: object, properties: {p0: {type: string}}}\n")
	const n = 1500
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "    M%d: {allOf: [{$ref: '#/components/schemas/M%d'}, {properties: {p%d: {type: string}}}]}\n", i, i-1, i)
	}
	sp, err := spec.Load([]byte(b.String()), "chain.yaml")
	if err != nil {
		t.Fatal(err)
	}
	merged, total := 0, 0
	for i := 1; i < n; i++ {
		if s := sp.Doc.Components.Schemas[fmt.Sprintf("M%d", i)].Value; len(s.AllOf) == 0 {
			merged++
			total += len(s.Properties)
		}
	}
	if merged == 0 || merged == n-1 {
		t.Errorf("%d of %d merged: want the first ones, up to the budget", merged, n-1)
	}
	if total > 200_000 {
		t.Errorf("%d properties merged in all, past the budget", total)
	}
}
