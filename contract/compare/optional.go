package compare

import (
	"maps"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"
)

// optionalsMerged is a copy of doc in which FastAPI's Optional of an
// inline schema, anyOf [T, {type: null}], is written as T with null added
// to its types, keeping the wrapper's title, description and default.
// oasdiff compares the constraints of a schema (maxLength, pattern,
// minimum, enum, format, type) but not those of an anyOf's alternatives:
// `q: str | None = Query(None, max_length=50)` gaining its max_length was
// no change for it. Merged, its own checks apply. An alternative that is
// a $ref is left as it is (its component is compared on its own). doc is
// not changed: every schema, and every part of the document that holds
// one, is copied.
func optionalsMerged(doc *openapi3.T) *openapi3.T {
	if doc == nil {
		return nil
	}
	m := merger{seen: map[*openapi3.Schema]*openapi3.Schema{}}
	t := *doc
	if doc.Paths != nil {
		t.Paths = openapi3.NewPathsWithCapacity(doc.Paths.Len())
		for k, pi := range doc.Paths.Map() {
			t.Paths.Set(k, m.pathItem(pi))
		}
	}
	if c := doc.Components; c != nil {
		cc := *c
		cc.Schemas = mapOf(c.Schemas, m.schemaRef)
		cc.Parameters = mapOf(c.Parameters, m.parameterRef)
		cc.RequestBodies = mapOf(c.RequestBodies, m.requestBodyRef)
		cc.Responses = mapOf(c.Responses, m.responseRef)
		cc.Headers = mapOf(c.Headers, m.headerRef)
		t.Components = &cc
	}
	return &t
}

// merger copies a document's schemas once each (a recursive schema too).
type merger struct {
	seen map[*openapi3.Schema]*openapi3.Schema
}

func mapOf[M ~map[string]V, V any](in M, f func(V) V) M {
	if in == nil {
		return nil
	}
	out := make(M, len(in))
	for k, v := range in {
		out[k] = f(v)
	}
	return out
}

func (m *merger) pathItem(pi *openapi3.PathItem) *openapi3.PathItem {
	if pi == nil {
		return nil
	}
	c := *pi
	c.Parameters = m.parameters(pi.Parameters)
	for _, op := range []**openapi3.Operation{&c.Connect, &c.Delete, &c.Get, &c.Head, &c.Options, &c.Patch, &c.Post, &c.Put, &c.Trace, &c.Query} {
		*op = m.operation(*op)
	}
	return &c
}

func (m *merger) operation(op *openapi3.Operation) *openapi3.Operation {
	if op == nil {
		return nil
	}
	c := *op
	c.Parameters = m.parameters(op.Parameters)
	c.RequestBody = m.requestBodyRef(op.RequestBody)
	if op.Responses != nil {
		c.Responses = openapi3.NewResponsesWithCapacity(op.Responses.Len())
		for k, r := range op.Responses.Map() {
			c.Responses.Set(k, m.responseRef(r))
		}
	}
	return &c
}

func (m *merger) parameters(ps openapi3.Parameters) openapi3.Parameters {
	if ps == nil {
		return nil
	}
	out := make(openapi3.Parameters, len(ps))
	for i, p := range ps {
		out[i] = m.parameterRef(p)
	}
	return out
}

func (m *merger) parameterRef(r *openapi3.ParameterRef) *openapi3.ParameterRef {
	if r == nil || r.Value == nil {
		return r
	}
	p := *r.Value
	p.Schema = m.schemaRef(p.Schema)
	p.Content = m.content(p.Content)
	c := *r
	c.Value = &p
	return &c
}

func (m *merger) requestBodyRef(r *openapi3.RequestBodyRef) *openapi3.RequestBodyRef {
	if r == nil || r.Value == nil {
		return r
	}
	b := *r.Value
	b.Content = m.content(b.Content)
	c := *r
	c.Value = &b
	return &c
}

func (m *merger) responseRef(r *openapi3.ResponseRef) *openapi3.ResponseRef {
	if r == nil || r.Value == nil {
		return r
	}
	v := *r.Value
	v.Content = m.content(v.Content)
	v.Headers = mapOf(v.Headers, m.headerRef)
	c := *r
	c.Value = &v
	return &c
}

func (m *merger) headerRef(r *openapi3.HeaderRef) *openapi3.HeaderRef {
	if r == nil || r.Value == nil {
		return r
	}
	h := *r.Value
	h.Schema = m.schemaRef(h.Schema)
	h.Content = m.content(h.Content)
	c := *r
	c.Value = &h
	return &c
}

func (m *merger) content(ct openapi3.Content) openapi3.Content {
	return mapOf(ct, func(mt *openapi3.MediaType) *openapi3.MediaType {
		if mt == nil {
			return nil
		}
		c := *mt
		c.Schema = m.schemaRef(mt.Schema)
		return &c
	})
}

func (m *merger) schemaRef(r *openapi3.SchemaRef) *openapi3.SchemaRef {
	if r == nil || r.Value == nil {
		return r
	}
	c := *r
	c.Value = m.schema(r.Value)
	return &c
}

func (m *merger) schemaRefs(rs openapi3.SchemaRefs) openapi3.SchemaRefs {
	if rs == nil {
		return nil
	}
	out := make(openapi3.SchemaRefs, len(rs))
	for i, r := range rs {
		out[i] = m.schemaRef(r)
	}
	return out
}

// schema is s copied, its subschemas copied, and merged when it is
// FastAPI's Optional of an inline schema.
func (m *merger) schema(s *openapi3.Schema) *openapi3.Schema {
	if c, ok := m.seen[s]; ok {
		return c
	}
	c := new(openapi3.Schema)
	m.seen[s] = c
	*c = *s
	c.OneOf = m.schemaRefs(s.OneOf)
	c.AnyOf = m.schemaRefs(s.AnyOf)
	c.AllOf = m.schemaRefs(s.AllOf)
	c.PrefixItems = m.schemaRefs(s.PrefixItems)
	c.Not = m.schemaRef(s.Not)
	c.Items = m.schemaRef(s.Items)
	c.Contains = m.schemaRef(s.Contains)
	c.PropertyNames = m.schemaRef(s.PropertyNames)
	c.If, c.Then, c.Else = m.schemaRef(s.If), m.schemaRef(s.Then), m.schemaRef(s.Else)
	c.Properties = mapOf(s.Properties, m.schemaRef)
	c.PatternProperties = mapOf(s.PatternProperties, m.schemaRef)
	c.DependentSchemas = mapOf(s.DependentSchemas, m.schemaRef)
	c.AdditionalProperties.Schema = m.schemaRef(s.AdditionalProperties.Schema)
	if t := optionalOf(c); t != nil {
		mergeOptional(c, t)
	}
	return c
}

// optionalOf is the one inline alternative of FastAPI's Optional,
// anyOf [T, {type: null}] with nothing else beside it but annotations; nil
// when s is not that, or T is a $ref, has no type or admits null itself.
func optionalOf(s *openapi3.Schema) *openapi3.Schema {
	if len(s.AnyOf) != 2 || len(s.OneOf) > 0 || len(s.AllOf) > 0 || s.Type != nil || len(s.Properties) > 0 || s.Items != nil || s.Not != nil || len(s.Enum) > 0 {
		return nil
	}
	for i, a := range s.AnyOf {
		if a == nil || a.Value == nil || !isNull(a.Value) {
			continue
		}
		t := s.AnyOf[1-i]
		if t == nil || t.Ref != "" || t.Value == nil || len(t.Value.Type.Slice()) == 0 || t.Value.Type.Includes("null") || t.Value.Nullable {
			return nil
		}
		return t.Value
	}
	return nil
}

// isNull reports whether a schema is {type: null} alone.
func isNull(s *openapi3.Schema) bool {
	return s.Type.Is("null") && len(s.AnyOf) == 0 && len(s.OneOf) == 0 && len(s.AllOf) == 0 && len(s.Enum) == 0
}

// mergeOptional writes into c, the Optional wrapper, its alternative t
// with null added to t's types; the wrapper's annotations (title,
// description, default, examples, deprecated, read- or write-only) stay.
func mergeOptional(c, t *openapi3.Schema) {
	w := *c
	*c = *t
	types := append(slices.Clone(t.Type.Slice()), "null")
	c.Type = (*openapi3.Types)(&types)
	if w.Title != "" {
		c.Title = w.Title
	}
	if w.Description != "" {
		c.Description = w.Description
	}
	if w.Default != nil {
		c.Default = w.Default
	}
	if w.Example != nil {
		c.Example = w.Example
	}
	if len(w.Examples) > 0 {
		c.Examples = w.Examples
	}
	c.Deprecated = c.Deprecated || w.Deprecated
	c.ReadOnly = c.ReadOnly || w.ReadOnly
	c.WriteOnly = c.WriteOnly || w.WriteOnly
	if len(w.Extensions) > 0 {
		ext := maps.Clone(t.Extensions)
		if ext == nil {
			ext = map[string]any{}
		}
		maps.Copy(ext, w.Extensions)
		c.Extensions = ext
	}
}
