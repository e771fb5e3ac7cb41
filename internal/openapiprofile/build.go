package openapiprofile

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/getkin/kin-openapi/openapi3"
)

// builder renders one refusal's body for a declared schema: the members
// whose names say what they hold (a message, a status, a code, where the
// problem is) get the refusal's own words, every other required member a
// generated value fitting its schema.
type builder struct {
	p        *Profile
	status   int
	problems []Problem
	f        *gofakeit.Faker
	// steps is what is left of the budget of values tried (maxSteps): a
	// document's alternatives nested in alternatives would otherwise
	// multiply the work.
	steps int
}

// maxDepth bounds how deep the words go into nested schemas; below it,
// values are generated (the generator has its own bounds on cycles).
// maxSteps bounds the values one refusal tries; past it, too, values are
// generated.
const (
	maxDepth = 6
	maxSteps = 256
)

// The roles a member's name gives it, by the name lower-cased without _
// and -.
var (
	messageNames = set("message", "msg", "detail", "details", "error", "errors", "errormessage", "errordescription",
		"description", "reason", "title", "summary", "text", "body", "messages", "problems", "violations",
		"invalidparams", "fielderrors", "validationerrors", "issues", "causes", "cause", "userMessage", "developerMessage")
	statusNames   = set("status", "code", "statuscode", "httpstatus", "httpcode", "errorcode", "httpstatuscode", "statusvalue")
	locationNames = set("field", "path", "pointer", "location", "loc", "param", "parameter", "property", "name",
		"source", "attribute", "key", "in", "propertypath", "fieldname")
)

func set(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[strings.ToLower(n)] = true
	}
	return m
}

func key(name string) string { return strings.ToLower(separators.Replace(name)) }

var separators = strings.NewReplacer("_", "", "-", "")

// value renders a value of ref for the member called name ("" at the top),
// about one problem (nil: all of them). False when the schema has nothing
// to say it with and no value could be generated.
func (b *builder) value(ref *openapi3.SchemaRef, name string, one *Problem, depth int) ([]byte, bool) {
	s := ref.Value
	if s == nil {
		return nil, false
	}
	b.steps--
	if depth > maxDepth || b.steps < 0 || !b.p.checkable(s) {
		g := b.generated(ref, name)
		return g, g != nil
	}
	for _, alts := range [][]*openapi3.SchemaRef{s.OneOf, s.AnyOf} {
		for _, alt := range alts {
			if alt == nil || alt.Value == nil || alt.Value.Type.Is("null") {
				continue
			}
			if v, ok := b.value(alt, name, one, depth+1); ok && b.valid(s, v) {
				return v, true
			}
		}
	}
	var out []byte
	switch typeOf(s) {
	case "object":
		out = b.object(ref, one, depth)
	case "array":
		out = b.array(ref, name, one, depth)
	case "string":
		out = marshal(b.text(name, one))
	case "integer", "number":
		if k := key(name); k == "" || statusNames[k] {
			out = strconv.AppendInt(nil, int64(b.status), 10)
		}
	}
	if out != nil && b.valid(s, out) {
		return out, true
	}
	if g := b.generated(ref, name); g != nil {
		return g, true
	}
	return nil, false
}

// text is the string a member called name says.
func (b *builder) text(name string, one *Problem) string {
	k := key(name)
	switch {
	case k == "status":
		return strconv.Itoa(b.status)
	case statusNames[k]:
		return Code(b.status)
	case k == "title":
		return http.StatusText(b.status)
	case k == "type":
		return "about:blank"
	case one != nil && locationNames[k]:
		switch k {
		case "pointer", "source":
			return "#" + one.Pointer()
		case "loc", "location", "path", "propertypath":
			return one.Location()
		case "in":
			return one.In
		}
		return one.Field
	case one != nil:
		return one.Message()
	}
	return joined(b.problems)
}

// object renders an object: its properties (of allOf parts too) in the
// document's order, the meaningful ones and the required ones.
func (b *builder) object(ref *openapi3.SchemaRef, one *Problem, depth int) []byte {
	type prop struct {
		name string
		ref  *openapi3.SchemaRef
	}
	var props []prop
	required := map[string]bool{}
	seen := map[string]bool{}
	var gather func(r *openapi3.SchemaRef, d int)
	gather = func(r *openapi3.SchemaRef, d int) {
		if r == nil || r.Value == nil || d > maxDepth {
			return
		}
		for _, n := range r.Value.Required {
			required[n] = true
		}
		for _, n := range b.p.sp.PropertyOrder(r) {
			if !seen[n] && r.Value.Properties[n] != nil {
				seen[n] = true
				props = append(props, prop{n, r.Value.Properties[n]})
			}
		}
		for _, part := range r.Value.AllOf {
			gather(part, d+1)
		}
	}
	gather(ref, 0)
	if len(props) == 0 {
		if ap := ref.Value.AdditionalProperties.Has; ap != nil && !*ap {
			return []byte("{}")
		}
		// A free-form object: the message under the commonest name.
		return append(append([]byte(`{"message":`), marshal(b.text("message", one))...), '}')
	}
	out := []byte{'{'}
	for _, pr := range props {
		var v []byte
		if b.meaningful(pr.name, one) {
			if x, ok := b.value(pr.ref, pr.name, one, depth+1); ok {
				v = x
			}
		}
		if v == nil && required[pr.name] {
			v = b.generated(pr.ref, pr.name)
		}
		if v == nil {
			continue
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(append(append(out, marshal(pr.name)...), ':'), v...)
	}
	return append(out, '}')
}

func (b *builder) meaningful(name string, one *Problem) bool {
	k := key(name)
	return messageNames[k] || statusNames[k] || k == "type" || one != nil && locationNames[k]
}

// array renders an array: one item per problem (just one inside an
// item about one problem), or a location as its parts (loc: ["body",
// "name"]).
func (b *builder) array(ref *openapi3.SchemaRef, name string, one *Problem, depth int) []byte {
	items := ref.Value.Items
	if items == nil || items.Value == nil {
		items = &openapi3.SchemaRef{Value: openapi3.NewStringSchema()}
	}
	if k := key(name); one != nil && locationNames[k] && typeOf(items.Value) == "string" {
		parts := []string{}
		if one.In != "" {
			parts = append(parts, one.In)
		}
		if one.Field != "" {
			parts = append(parts, strings.Split(one.Field, ".")...)
		}
		return marshal(parts)
	}
	each := b.problems
	if one != nil {
		each = []Problem{*one}
	}
	out := []byte{'['}
	for i := range each {
		v, ok := b.value(items, "", &each[i], depth+1)
		if !ok {
			continue
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, v...)
	}
	return append(out, ']')
}

// generated is a value the generator renders for ref; nil when it renders
// none.
func (b *builder) generated(ref *openapi3.SchemaRef, name string) []byte {
	if b.p.gen == nil {
		return nil
	}
	return b.p.gen.AppendAnswer(nil, b.f, name, ref)
}

// valid reports whether raw fits s.
func (b *builder) valid(s *openapi3.Schema, raw []byte) bool {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	return b.p.sp.Validate(s, v, false) == nil
}

// maxCheckCost bounds the work of checking a value against a schema
// (checkCost): kin-openapi v0.152.0's validator tries every alternative
// of a oneOf or anyOf, and of those nested in it, so alternatives nested
// in alternatives cost their product. A schema past the bound is never
// checked: its values are generated, which fit it by construction.
const maxCheckCost = 1 << 12

// checkable reports whether checking a value against s stays within
// maxCheckCost.
func (p *Profile) checkable(s *openapi3.Schema) bool {
	if c, ok := p.costs.Load(s); ok {
		return c.(int) <= maxCheckCost
	}
	c := checkCost(s, map[*openapi3.Schema]bool{})
	p.costs.Store(s, c)
	return c <= maxCheckCost
}

// checkCost is an upper bound, saturating past maxCheckCost, of the
// schemas the validator may visit for one value of s: each schema counts
// once, plus what its members, items and alternatives cost. A schema met
// again below itself (a cycle) counts one: the values tried are bounded
// in depth.
func checkCost(s *openapi3.Schema, onPath map[*openapi3.Schema]bool) int {
	if s == nil || onPath[s] {
		return 1
	}
	onPath[s] = true
	defer delete(onPath, s)
	cost := 1
	add := func(refs ...*openapi3.SchemaRef) {
		for _, r := range refs {
			if r != nil && cost <= maxCheckCost {
				cost += checkCost(r.Value, onPath)
			}
		}
	}
	add(s.OneOf...)
	add(s.AnyOf...)
	add(s.AllOf...)
	add(s.Items, s.Not, s.AdditionalProperties.Schema)
	for _, prop := range s.Properties {
		add(prop)
	}
	return min(cost, maxCheckCost+1)
}

// typeOf is the one JSON type s describes, null aside: its type, else
// what its keywords imply; "" when it says none or several.
func typeOf(s *openapi3.Schema) string {
	if s.Type != nil {
		types := slices.DeleteFunc(slices.Clone(s.Type.Slice()), func(t string) bool { return t == "null" })
		if len(types) == 1 {
			return types[0]
		}
		if len(types) > 1 {
			return ""
		}
	}
	switch {
	case len(s.Properties) > 0 || len(s.AllOf) > 0:
		return "object"
	case s.Items != nil:
		return "array"
	}
	return ""
}
