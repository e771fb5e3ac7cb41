package spec

import (
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// uses2020 finds a 2020-12 keyword below a schema however it is reached,
// through recursion too, each schema looked at once: a verdict resting on
// a schema met again below itself is not kept, so a schema of the cycle
// asked about later still finds the keyword.
func TestUses2020ThroughCycles(t *testing.T) {
	ref := func(s *openapi3.Schema) *openapi3.SchemaRef { return &openapi3.SchemaRef{Value: s} }
	object := func() *openapi3.Schema { return &openapi3.Schema{Properties: openapi3.Schemas{}} }
	keyword := &openapi3.Schema{Const: "x"}
	x, a, plain := object(), object(), object()
	x.Properties["a"] = ref(a)
	a.Properties["x"] = ref(x)
	x.Properties["z"] = ref(keyword) // after a: a's first walk meets x still open
	plain.Properties["self"] = ref(plain)

	s := &Spec{}
	for _, c := range []struct {
		name   string
		schema *openapi3.Schema
		want   bool
	}{
		{"x", x, true},
		{"a, through x", a, true},
		{"the keyword's own", keyword, true},
		{"recursive, with none", plain, false},
	} {
		if got := s.uses2020(c.schema); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	// The same, asked in the other order on a fresh document.
	s = &Spec{}
	if !s.uses2020(a) || !s.uses2020(x) {
		t.Error("asked a first: the keyword below x is not found")
	}
}

// A chain of models each holding the next is walked once, not once per
// model: asking about every model of a chain of 20,000 stays linear.
func TestUses2020Linear(t *testing.T) {
	const n = 20000
	models := make([]*openapi3.Schema, n)
	for i := n - 1; i >= 0; i-- {
		models[i] = &openapi3.Schema{Properties: openapi3.Schemas{"id": {Value: &openapi3.Schema{}}}}
		if i+1 < n {
			models[i].Properties["next"] = &openapi3.SchemaRef{Value: models[i+1]}
		}
	}
	s := &Spec{}
	for _, m := range models {
		if s.uses2020(m) {
			t.Fatal("a keyword found where there is none")
		}
	}
	// Each schema (a model and its id) looked at once; walking each
	// model's chain afresh would be n² = 400 million looks.
	if s.usesLooks != 2*n {
		t.Errorf("%d looks for %d models of two schemas each, want one a schema", s.usesLooks, n)
	}
}
