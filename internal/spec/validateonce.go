package spec

import (
	"context"

	"github.com/getkin/kin-openapi/openapi3"
)

// setAsideSettled makes kin-openapi's validation of doc under ctx (the
// options doc.Validate will use) check each schema once, and returns what
// puts the document back as it was.
//
// kin-openapi v0.152.0 validates each component schema (and each schema an
// operation names) with a fresh set of the schemas seen, walking all it
// reaches: a chain of n models each holding the next is walked once per
// model, n² schemas (2,000 models took 4.7 s to load, and a document of a
// few hundred KB could hang start-up for minutes). Here each schema named by
// a $ref (every component, and whatever else a $ref names) is a unit,
// checked alone by kin-openapi with every reference out of it to a unit set
// aside: the reference holds an empty schema while it is checked. A unit
// whose check fails, or that reaches such a unit, keeps its references:
// kin-openapi walks down to the fault as it always did, meeting the same
// schemas in the same order, so a refused document is refused with the same
// message, naming the same component (the first, by name, that reaches the
// fault). The references to every other unit stay set aside while
// doc.Validate runs: below them kin-openapi would find nothing wrong, which
// it has just checked.
//
// Only kin-openapi's check of the schemas' own keywords is shortened: where
// its options have it validate examples or defaults, which reads the
// schemas below as a value's validator, nothing is set aside.
func setAsideSettled(ctx context.Context, doc *openapi3.T) (restore func()) {
	if doc.Components == nil || len(doc.Components.Schemas) == 0 || checksValues(ctx) {
		return func() {}
	}
	type edge struct {
		ref      *openapi3.SchemaRef
		from, to *openapi3.Schema
	}
	var units []*openapi3.Schema
	unit := map[*openapi3.Schema]bool{}
	addUnit := func(s *openapi3.Schema) {
		if !unit[s] {
			unit[s] = true
			units = append(units, s)
		}
	}
	for _, ref := range doc.Components.Schemas {
		if ref != nil && ref.Value != nil {
			addUnit(ref.Value)
		}
	}
	// Each unit's own schemas, down to the references to units: the
	// schemas kin-openapi checks when the unit alone is validated with
	// those references set aside. A unit met inline before it was known
	// as one is walked as part of the other too, as kin-openapi will.
	var edges []edge
	for i := 0; i < len(units); i++ {
		u := units[i]
		seen := map[*openapi3.Schema]bool{u: true}
		var walk func(*openapi3.Schema)
		walk = func(s *openapi3.Schema) {
			eachSubschema(s, func(r *openapi3.SchemaRef) {
				switch {
				case r == nil || r.Value == nil:
				case r.Ref != "" || unit[r.Value]:
					addUnit(r.Value)
					edges = append(edges, edge{r, u, r.Value})
				case !seen[r.Value]:
					seen[r.Value] = true
					walk(r.Value)
				}
			})
		}
		walk(u)
	}
	held := make(map[*openapi3.SchemaRef]*openapi3.Schema, len(edges))
	standIn := &openapi3.Schema{}
	for _, e := range edges {
		if _, ok := held[e.ref]; !ok {
			held[e.ref] = e.to
		}
		e.ref.Value = standIn
	}
	var faulty []*openapi3.Schema
	bad := map[*openapi3.Schema]bool{}
	for _, u := range units {
		if u.Validate(ctx) != nil {
			bad[u] = true
			faulty = append(faulty, u)
		}
	}
	if len(faulty) > 0 {
		into := map[*openapi3.Schema][]*openapi3.Schema{}
		for _, e := range edges {
			into[e.to] = append(into[e.to], e.from)
		}
		for len(faulty) > 0 {
			t := faulty[len(faulty)-1]
			faulty = faulty[:len(faulty)-1]
			for _, from := range into[t] {
				if !bad[from] {
					bad[from] = true
					faulty = append(faulty, from)
				}
			}
		}
		for ref, v := range held {
			if bad[v] {
				ref.Value = v
			}
		}
	}
	return func() {
		for ref, v := range held {
			ref.Value = v
		}
	}
}

// checksValues reports whether the options in ctx have kin-openapi check
// examples or defaults against their schemas. Its options keep that in
// unexported fields, so it is asked: a string schema whose example and
// default are numbers passes only when neither is checked.
func checksValues(ctx context.Context) bool {
	probe := &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeString}, Example: 0.0, Default: 0.0}
	return probe.Validate(ctx) != nil
}

// eachSubschema calls fn with every reference to a subschema of s that
// kin-openapi v0.152.0's validation of a schema descends into (and nil for
// those s lacks). TestEachSubschemaCoversSchema holds it to every such
// field of openapi3.Schema.
func eachSubschema(s *openapi3.Schema, fn func(*openapi3.SchemaRef)) {
	for _, list := range []openapi3.SchemaRefs{s.OneOf, s.AnyOf, s.AllOf, s.PrefixItems} {
		for _, r := range list {
			fn(r)
		}
	}
	for _, r := range []*openapi3.SchemaRef{s.Not, s.If, s.Then, s.Else, s.Items, s.Contains, s.PropertyNames,
		s.AdditionalProperties.Schema, s.UnevaluatedItems.Schema, s.UnevaluatedProperties.Schema, s.ContentSchema} {
		fn(r)
	}
	for _, m := range []openapi3.Schemas{s.Properties, s.PatternProperties, s.DependentSchemas, s.Defs} {
		for _, r := range m {
			fn(r)
		}
	}
}
