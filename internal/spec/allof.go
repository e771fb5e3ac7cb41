package spec

import (
	"slices"

	"github.com/getkin/kin-openapi/openapi3"
)

// mergeAllOf writes each component schema that is an allOf of plain
// object schemas (petstore's Pet: allOf NewPet and {id}; a page: allOf
// a Paging and {items}) as the one object it stands for: the parts'
// properties, in order, then its own; their required members; type
// object. Every reference to the component sees it, as the schema is
// changed in place, so records, their fields and generated values come
// from the properties as they do for any object. A part that could make
// the object mean anything else leaves the component as written: a part
// that is not an object, has anyOf, oneOf or not, forbids other members
// (additionalProperties: false, which allOf makes unsatisfiable beside
// another part's members), or declares a property another part declares
// otherwise. The served document is the text as written.
//
// sp.merged keeps each merged schema's property order, for PropertyOrder.
func (sp *Spec) mergeAllOf() {
	doc := sp.Doc
	if doc.Components == nil {
		return
	}
	var names []string
	for name, ref := range doc.Components.Schemas {
		if ref != nil && ref.Value != nil && len(ref.Value.AllOf) > 0 {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return
	}
	slices.Sort(names)
	sp.merged = map[*openapi3.Schema][]string{}
	state := map[*openapi3.Schema]bool{} // true: merged or left as it is
	// budget bounds the properties all merged schemas hold together: a
	// chain of thousands of models, each one more property than the one
	// it extends, would hold their square. Past it, the rest stay as
	// written.
	budget := maxMergedProperties
	var merge func(ref *openapi3.SchemaRef) bool
	merge = func(ref *openapi3.SchemaRef) bool {
		s := ref.Value
		if done, seen := state[s]; seen {
			return done && len(s.AllOf) == 0
		}
		state[s] = false // a cycle through s: not merged
		if len(s.AllOf) == 0 {
			state[s] = true
			return plainObject(s)
		}
		if !plainObject(s) {
			state[s] = true
			return false
		}
		props := openapi3.Schemas{}
		var order, required []string
		take := func(ref *openapi3.SchemaRef) bool {
			part := ref.Value
			for _, name := range sp.PropertyOrder(ref) {
				p := part.Properties[name]
				if q, ok := props[name]; ok {
					if q != p && (q.Ref == "" || q.Ref != p.Ref) {
						return false
					}
					continue
				}
				props[name] = p
				order = append(order, name)
			}
			for _, r := range part.Required {
				if !slices.Contains(required, r) {
					required = append(required, r)
				}
			}
			return true
		}
		for _, part := range s.AllOf {
			if part == nil || part.Value == nil || !merge(part) || !take(part) {
				state[s] = true
				return false
			}
		}
		if !take(ref) || len(order) > budget {
			state[s] = true
			return false
		}
		budget -= len(order)
		s.AllOf, s.Properties, s.Required = nil, props, required
		s.Type = &openapi3.Types{openapi3.TypeObject}
		sp.merged[s] = order
		state[s] = true
		return true
	}
	for _, name := range names {
		ref := doc.Components.Schemas[name]
		merge(&openapi3.SchemaRef{Ref: "#/components/schemas/" + name, Value: ref.Value})
	}
}

// maxMergedProperties bounds the properties mergeAllOf writes in all.
const maxMergedProperties = 200_000

// plainObject reports whether s is an object schema allOf may merge: no
// other type, no anyOf, oneOf or not, and other members allowed.
func plainObject(s *openapi3.Schema) bool {
	if s.Type != nil && !s.Type.Is(openapi3.TypeObject) {
		return false
	}
	if len(s.AnyOf)+len(s.OneOf) > 0 || s.Not != nil {
		return false
	}
	return s.AdditionalProperties.Has == nil || *s.AdditionalProperties.Has
}
