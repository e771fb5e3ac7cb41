package fake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/spec"
)

type typeSet uint8

const (
	tNull typeSet = 1 << iota
	tBool
	tInt
	tNum // any number, integers included
	tStr
	tArr
	tObj
	tAll = tNull | tBool | tInt | tNum | tStr | tArr | tObj
)

func typeSetOf(names []string) typeSet {
	var t typeSet
	for _, name := range names {
		switch name {
		case "null":
			t |= tNull
		case "boolean":
			t |= tBool
		case "integer":
			t |= tInt
		case "number":
			t |= tNum
		case "string":
			t |= tStr
		case "array":
			t |= tArr
		case "object":
			t |= tObj
		}
	}
	return t
}

// intersect is the types both a and b admit: a number admits an integer.
func intersect(a, b typeSet) typeSet {
	r := a & b
	if r&tNum == 0 && (a&tNum != 0 && b&tInt != 0 || b&tNum != 0 && a&tInt != 0) {
		r |= tInt
	}
	return r
}

// facts is what a list of schemas (and their allOf members, merged) asks of
// one value.
type facts struct {
	schemas     []*openapi3.Schema // the schemas the value must satisfy, as written
	types       typeSet
	typed       bool
	never       bool // some schema admits nothing
	nullable    bool
	constrained bool // some keyword besides anyOf/oneOf, default and annotations
	enum        []any
	hasEnum     bool
	format      string
	patterns    []string
	rawPatterns []string // the patterns as written, for the ECMA-262 engine
	examples    []string // the string examples the schemas declare
	own         []any    // the examples of the value's own (inline) schemas, with Examples
	minLen      int
	maxLen      int
	lo, hi      float64
	hasLo       bool
	hasHi       bool
	loEx, hiEx  bool
	mult        []float64
	items       []*openapi3.SchemaRef
	prefix      []*openapi3.SchemaRef
	contains    []*openapi3.SchemaRef
	minContains int
	minItems    int
	maxItems    int
	unique      bool
	props       []string
	propRefs    map[string][]*openapi3.SchemaRef
	required    map[string]bool
	closed      bool
	addl        []*openapi3.SchemaRef
	patProps    []patternFacts // patternProperties, in pattern order
	propNames   []*openapi3.SchemaRef
	minProps    int
	maxProps    int
	unions      []unionFacts
	nots        []*openapi3.Schema
	def         any
	hasDef      bool
	ident       *openapi3.Schema
	component   string
}

// patternFacts are the schemas patternProperties gives the members whose
// name matches pattern (in Go syntax).
type patternFacts struct {
	pattern string
	refs    []*openapi3.SchemaRef
}

type unionFacts struct {
	branches []*openapi3.SchemaRef
	one      bool
	disc     *openapi3.Discriminator
}

func (g *Generator) gather(refs []*openapi3.SchemaRef) *facts {
	f := &facts{types: tAll, maxLen: -1, maxItems: -1, maxProps: -1, nullable: true}
	if len(refs) == 0 {
		f.nullable = false // an unconstrained value: a string, never null
	}
	for _, r := range refs {
		f.schemas = append(f.schemas, r.Value)
		f.nullable = f.nullable && g.nullOK(r.Value)
		g.add(f, r, 0)
		if g.examples && r.Value != nil && g.componentName(r) == "" {
			if r.Value.Example != nil {
				f.own = append(f.own, r.Value.Example)
			}
			f.own = append(f.own, r.Value.Examples...)
		}
	}
	// An object is known, for counting recursion, by the component it (or
	// the first allOf member that has one) is: a nullable allOf wrapper of
	// Person is a Person.
	if len(refs) > 0 {
		f.ident = refs[0].Value
	}
	if c := g.sp.Schema(f.component); c != nil {
		f.ident = c
	}
	return f
}

// NullOK reports whether null validates against s, as the document's
// version reads it (see nullOK).
func (g *Generator) NullOK(s *openapi3.Schema) bool { return g.nullOK(s) }

// nullOK reports whether null validates against s, with either of the
// validators kin-openapi v0.152.0 may use. For a 3.1 document it may use
// the JSON Schema 2020-12 one, which ignores "nullable" (spec.Load sets it
// only where no type is given, where null is valid anyway) and wants a
// type list with "null"; the 3.0 one takes "nullable".
func (g *Generator) nullOK(s *openapi3.Schema) bool {
	if s == nil {
		return false
	}
	if s.Always != nil {
		return *s.Always
	}
	if g.v31 {
		if len(s.Type.Slice()) > 0 && !s.Type.IncludesNull() ||
			len(s.Enum) > 0 && !slices.Contains(s.Enum, nil) || s.Const != nil {
			return false
		}
	} else if s.Nullable || s.Type.IncludesNull() {
		return true
	}
	if len(s.AllOf)+len(s.AnyOf)+len(s.OneOf) == 0 {
		return s.Type.IncludesNull() || g.v31 && s.Nullable
	}
	if !g.v31 && s.IsEmpty() {
		return false
	}
	for _, m := range s.AllOf {
		if !g.nullOK(m.Value) {
			return false
		}
	}
	count := func(refs openapi3.SchemaRefs) int {
		n := 0
		for _, r := range refs {
			if g.nullOK(r.Value) {
				n++
			}
		}
		return n
	}
	return (len(s.AnyOf) == 0 || count(s.AnyOf) > 0) && (len(s.OneOf) == 0 || count(s.OneOf) == 1)
}

// add merges the schema ref (and its allOf members) into f.
func (g *Generator) add(f *facts, ref *openapi3.SchemaRef, depth int) {
	s := ref.Value
	if s == nil || depth > 32 {
		return
	}
	if name := g.componentName(ref); name != "" && f.component == "" {
		f.component = name
	}
	if s.Always != nil && !*s.Always {
		f.never = true
	}
	if types := s.Type.Slice(); len(types) > 0 {
		ts := typeSetOf(types)
		if s.Nullable && !g.v31 {
			ts |= tNull
		}
		f.types = intersect(f.types, ts)
		f.typed = true
		f.constrained = true
	}
	if len(s.Enum) > 0 || s.Const != nil {
		members := s.Enum
		if s.Const != nil {
			members = []any{s.Const}
		}
		if f.hasEnum {
			f.enum = slices.DeleteFunc(slices.Clone(f.enum), func(v any) bool {
				return !slices.ContainsFunc(members, func(w any) bool { return sameJSON(v, w) })
			})
		} else {
			f.enum, f.hasEnum = members, true
		}
		f.constrained = true
	}
	if s.Format != "" && f.format == "" {
		f.format = s.Format
		f.constrained = true
	}
	if s.ContentEncoding == "base64" && (f.format == "" || f.format == "binary") {
		// pydantic bytes with val_json_bytes "base64": made as the
		// base64 of a phrase, which also decodes to text.
		f.format = "base64"
		f.constrained = true
	}
	if s.Pattern != "" {
		f.patterns = append(f.patterns, goPattern(s.Pattern))
		f.rawPatterns = append(f.rawPatterns, s.Pattern)
		f.constrained = true
	}
	if ex, ok := s.Example.(string); ok {
		f.examples = append(f.examples, ex)
	}
	if s.MinLength > 0 {
		f.minLen = max(f.minLen, clampInt(s.MinLength))
		f.constrained = true
	}
	if s.MaxLength != nil {
		f.maxLen = minLimit(f.maxLen, clampInt(*s.MaxLength))
		f.constrained = true
	}
	if s.Min != nil {
		f.setLo(*s.Min, s.ExclusiveMin.Bool != nil && *s.ExclusiveMin.Bool)
	}
	if s.Max != nil {
		f.setHi(*s.Max, s.ExclusiveMax.Bool != nil && *s.ExclusiveMax.Bool)
	}
	if v := s.ExclusiveMin.Value; v != nil {
		f.setLo(*v, true)
	}
	if v := s.ExclusiveMax.Value; v != nil {
		f.setHi(*v, true)
	}
	if s.MultipleOf != nil && *s.MultipleOf > 0 && !math.IsInf(*s.MultipleOf, 0) {
		f.mult = append(f.mult, *s.MultipleOf)
		f.constrained = true
	}
	if s.Items != nil {
		f.items = append(f.items, s.Items)
		f.constrained = true
	}
	if len(s.PrefixItems) > 0 && len(f.prefix) == 0 {
		f.prefix = s.PrefixItems
		f.constrained = true
	}
	if s.Contains != nil {
		f.contains = append(f.contains, s.Contains)
		n := 1
		if s.MinContains != nil {
			n = clampInt(*s.MinContains)
		}
		f.minContains = max(f.minContains, n)
		f.constrained = true
	}
	if s.MinItems > 0 {
		f.minItems = max(f.minItems, clampInt(s.MinItems))
		f.constrained = true
	}
	if s.MaxItems != nil {
		f.maxItems = minLimit(f.maxItems, clampInt(*s.MaxItems))
		f.constrained = true
	}
	if s.UniqueItems {
		f.unique = true
		f.constrained = true
	}
	if len(s.Properties) > 0 {
		if f.propRefs == nil {
			f.propRefs = map[string][]*openapi3.SchemaRef{}
		}
		for _, name := range g.propertyOrder(ref) {
			if _, seen := f.propRefs[name]; !seen {
				f.props = append(f.props, name)
			}
			f.propRefs[name] = append(f.propRefs[name], s.Properties[name])
		}
		f.constrained = true
	}
	if len(s.Required) > 0 {
		if f.required == nil {
			f.required = map[string]bool{}
		}
		for _, name := range s.Required {
			f.required[name] = true
		}
		f.constrained = true
	}
	if has := s.AdditionalProperties.Has; has != nil && !*has {
		f.closed = true
		f.constrained = true
	}
	if r := s.AdditionalProperties.Schema; r != nil {
		f.addl = append(f.addl, r)
		f.constrained = true
	}
	if s.PropertyNames != nil {
		f.propNames = append(f.propNames, s.PropertyNames)
		f.constrained = true
	}
	if len(s.PatternProperties) > 0 {
		pats := make([]string, 0, len(s.PatternProperties))
		for pat := range s.PatternProperties {
			pats = append(pats, pat)
		}
		slices.Sort(pats)
		for _, pat := range pats {
			r := s.PatternProperties[pat]
			if r == nil || r.Value == nil {
				continue
			}
			gp := goPattern(pat)
			if i := slices.IndexFunc(f.patProps, func(p patternFacts) bool { return p.pattern == gp }); i >= 0 {
				f.patProps[i].refs = append(slices.Clip(f.patProps[i].refs), r)
			} else {
				f.patProps = append(f.patProps, patternFacts{pattern: gp, refs: []*openapi3.SchemaRef{r}})
			}
		}
		f.constrained = true
	}
	if s.MinProps > 0 {
		f.minProps = max(f.minProps, clampInt(s.MinProps))
		f.constrained = true
	}
	if s.MaxProps != nil {
		f.maxProps = minLimit(f.maxProps, clampInt(*s.MaxProps))
		f.constrained = true
	}
	if len(s.AnyOf) > 0 {
		f.unions = append(f.unions, unionFacts{branches: s.AnyOf, disc: s.Discriminator})
	}
	if len(s.OneOf) > 0 {
		f.unions = append(f.unions, unionFacts{branches: s.OneOf, one: true, disc: s.Discriminator})
	}
	if s.Not != nil && s.Not.Value != nil {
		f.nots = append(f.nots, s.Not.Value)
		f.constrained = true
	}
	if s.Default != nil && !f.hasDef {
		f.def, f.hasDef = s.Default, true
	}
	for _, m := range s.AllOf {
		g.add(f, m, depth+1)
	}
}

func (f *facts) setLo(v float64, ex bool) {
	f.constrained = true
	if !f.hasLo || v > f.lo || v == f.lo && ex {
		f.lo, f.loEx, f.hasLo = v, ex, true
	}
}

func (f *facts) setHi(v float64, ex bool) {
	f.constrained = true
	if !f.hasHi || v < f.hi || v == f.hi && ex {
		f.hi, f.hiEx, f.hasHi = v, ex, true
	}
}

// asFloat reports whether whole numbers are written as floats: the schema
// says number and not integer.
func (f *facts) asFloat() bool {
	return f.typed && f.types&tNum != 0
}

// clone copies f deeply enough that adding to the copy leaves f alone.
func (f *facts) clone() *facts {
	c := *f
	c.schemas = slices.Clip(f.schemas)
	c.enum = slices.Clip(f.enum)
	c.patterns = slices.Clip(f.patterns)
	c.rawPatterns = slices.Clip(f.rawPatterns)
	c.examples = slices.Clip(f.examples)
	c.own = slices.Clip(f.own)
	c.mult = slices.Clip(f.mult)
	c.items = slices.Clip(f.items)
	c.contains = slices.Clip(f.contains)
	c.props = slices.Clip(f.props)
	c.addl = slices.Clip(f.addl)
	c.propNames = slices.Clip(f.propNames)
	c.patProps = slices.Clip(f.patProps)
	c.unions = slices.Clip(f.unions)
	c.nots = slices.Clip(f.nots)
	if f.propRefs != nil {
		c.propRefs = make(map[string][]*openapi3.SchemaRef, len(f.propRefs))
		for k, v := range f.propRefs {
			c.propRefs[k] = slices.Clip(v)
		}
	}
	if f.required != nil {
		c.required = make(map[string]bool, len(f.required))
		for k, v := range f.required {
			c.required[k] = v
		}
	}
	return &c
}

// build fills n, the plan for f's value, reached as property name of an
// object named ctx.
func (g *Generator) build(n *node, f *facts, name, ctx string, required bool) {
	if f.nullable {
		n.nullPct = 20
		if required {
			n.nullPct = 10
		}
		if h := hintFor(name, ctx, kNull); h != nil && h.nullPct > 0 {
			n.nullPct = h.nullPct
		}
	}
	if f.never {
		n.kind, n.str = kStr, &strPlan{maxLen: -1}
		return
	}
	n.nots = f.nots
	if f.hasDef {
		n.def = g.literal(f.def, f)
	}
	n.examples = g.ownExamples(f)
	if f.hasEnum {
		g.buildEnum(n, f)
		return
	}
	if len(f.unions) > 0 {
		g.buildUnion(n, f, name, ctx, required)
		return
	}
	types := f.types &^ tNull
	if !f.typed {
		types = inferTypes(f)
	}
	if types&tNum != 0 {
		types &^= tInt
	}
	var kinds []typeSet
	for t := tBool; t <= tObj; t <<= 1 {
		if types&t != 0 {
			kinds = append(kinds, t)
		}
	}
	switch len(kinds) {
	case 0:
		if f.types&tNull != 0 {
			n.kind = kNull
			return
		}
		n.kind, n.str = kStr, &strPlan{maxLen: -1} // no type left: unsatisfiable
	case 1:
		g.buildType(n, f, kinds[0], name, ctx)
	default:
		u := &unionPlan{schemas: f.schemas}
		for _, t := range kinds {
			b := g.newNode()
			g.buildType(b, f, t, name, ctx)
			u.branches = append(u.branches, branch{node: b})
		}
		n.kind, n.union = kUnion, u
	}
}

// inferTypes guesses the type of a schema that names none from the keywords
// it uses; with none, the value is a short string.
func inferTypes(f *facts) typeSet {
	switch {
	case len(f.props) > 0 || len(f.addl) > 0 || f.closed || len(f.required) > 0 || f.minProps > 0 ||
		f.maxProps >= 0 || len(f.propNames) > 0 || len(f.patProps) > 0:
		return tObj
	case len(f.items) > 0 || len(f.prefix) > 0 || len(f.contains) > 0 || f.minItems > 0 || f.maxItems >= 0 || f.unique:
		return tArr
	case f.hasLo || f.hasHi || len(f.mult) > 0:
		return tNum
	}
	return tStr
}

func (g *Generator) buildType(n *node, f *facts, t typeSet, name, ctx string) {
	switch t {
	case tBool:
		n.kind, n.truePct = kBool, 50
		if h := hintFor(name, ctx, kBool); h != nil {
			n.truePct = h.truePct
		}
	case tInt, tNum:
		n.kind = kNum
		if t == tInt {
			n.kind = kInt
		}
		n.num = numberPlan(f, t == tInt, hintFor(name, ctx, n.kind))
	case tStr:
		n.kind, n.str = kStr, g.stringPlan(f, name, ctx)
	case tArr:
		n.kind, n.arr = kArr, g.arrayPlan(f, name, ctx)
	case tObj:
		n.kind, n.obj = kObj, g.objectPlan(f, name, ctx)
	}
}

func (g *Generator) buildEnum(n *node, f *facts) {
	n.kind = kEnum
	var all [][]byte
	valid := g.enumMemberCheck(f.schemas)
	for _, v := range f.enum {
		if v == nil {
			continue // null is the nullable case's business
		}
		b := renderLiteral(nil, v, f.asFloat())
		all = append(all, b)
		if valid(b) {
			n.enum = append(n.enum, b)
		}
	}
	if len(n.enum) == 0 {
		// No member satisfies the rest of the schema: nothing can be valid.
		n.enum = all
	}
	if len(n.enum) == 0 {
		n.kind, n.enum = kNull, nil
	}
}

func (g *Generator) buildUnion(n *node, f *facts, name, ctx string, required bool) {
	uf := f.unions[0]
	rest := f.clone()
	rest.unions = f.unions[1:]
	// The common case, FastAPI's Optional (anyOf: [X, {type: null}]) or a
	// plain union: the schema adds nothing to its branches, so each branch
	// is planned on its own and shared with every other use of it.
	alone := !f.constrained && len(f.unions) == 1
	u := &unionPlan{schemas: f.schemas}
	for _, b := range uf.branches {
		if b.Value == nil || b.Value.Type.Is("null") {
			continue
		}
		var ov *override
		if d := uf.disc; d != nil {
			value, ok := g.discriminatorValue(d, b)
			switch {
			case ok:
				ov = &override{prop: d.PropertyName, value: fastapi.AppendString(nil, value)}
			case len(d.Mapping) > 0:
				continue // kin-openapi checks such a value against no branch
			}
		}
		var bn *node
		if alone {
			bn = g.compile([]*openapi3.SchemaRef{b}, name, ctx, true)
		} else {
			bf := rest.clone()
			bf.schemas = append(bf.schemas, b.Value)
			bf.nullable = false
			g.add(bf, b, 0)
			bn = g.newNode()
			g.build(bn, bf, name, ctx, true)
			bn.nullPct = 0
		}
		u.branches = append(u.branches, branch{node: bn, schema: b.Value, override: ov})
	}
	u.exclusive = uf.one && len(u.branches) > 1 && (uf.disc == nil || len(uf.disc.Mapping) == 0)
	if len(u.branches) == 0 {
		n.kind = kNull
		if n.nullPct == 0 {
			n.kind, n.str = kStr, &strPlan{maxLen: -1} // unsatisfiable
		}
		return
	}
	n.kind, n.union = kUnion, u
}

// discriminatorValue is the discriminator property's value for branch b:
// with a mapping, a key of it that names b (one the branch's own schema for
// the property allows, where one does: kin-openapi v0.152.0 picks the
// branch by the key, a JSON Schema validator by the enum); with none, a
// value the branch allows for the property (its enum or const: a
// TrackObject's type is "track"), else the name of the schema, OpenAPI's
// implicit mapping. False: no value names b (an inline branch of a union
// with a mapping, or with none and no enum: any value of it will do).
func (g *Generator) discriminatorValue(d *openapi3.Discriminator, b *openapi3.SchemaRef) (string, bool) {
	allowed := g.propertyStrings(b, d.PropertyName)
	if len(d.Mapping) == 0 {
		if len(allowed) > 0 {
			return allowed[0], true
		}
		_, name, ok := strings.Cut(b.Ref, "#/components/schemas/")
		return name, ok && name != ""
	}
	keys := make([]string, 0, len(d.Mapping))
	for k := range d.Mapping {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	first := ""
	for _, k := range keys {
		ref := d.Mapping[k].Ref
		if !strings.Contains(ref, "/") {
			ref = "#/components/schemas/" + ref
		}
		if ref != b.Ref {
			continue
		}
		if len(allowed) == 0 || slices.Contains(allowed, k) {
			return k, true
		}
		if first == "" {
			first = k
		}
	}
	return first, first != ""
}

// propertyStrings are the strings schema ref allows for its property prop
// by an enum or const (its allOf members' too), nil when it names none.
func (g *Generator) propertyStrings(ref *openapi3.SchemaRef, prop string) []string {
	if ref == nil || ref.Value == nil {
		return nil
	}
	f := &facts{types: tAll, maxLen: -1, maxItems: -1, maxProps: -1}
	g.add(f, ref, 0)
	refs := f.propRefs[prop]
	if len(refs) == 0 {
		return nil
	}
	pf := g.gather(refs)
	if !pf.hasEnum {
		return nil
	}
	var out []string
	for _, v := range pf.enum {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func (g *Generator) stringPlan(f *facts, name, ctx string) *strPlan {
	p := &strPlan{minLen: f.minLen, maxLen: f.maxLen}
	if p.minLen > MaxStringLength {
		g.note("%s: minLength %d is more than a generated string holds (%d characters): its values are cut to that, and fail it", where(name, ctx), p.minLen, MaxStringLength)
		p.minLen = MaxStringLength
	}
	if knownFormats[f.format] {
		p.format = f.format
	}
	for i, pat := range f.patterns {
		re, err := regexp.Compile(pat)
		if err != nil {
			// An ECMA-262 construct RE2 lacks (a lookahead, a
			// backreference): values are checked with the engine the
			// validator uses (spec.CompilePattern), and the example the
			// schema declares is the value when it matches; nothing can be
			// made from such a pattern.
			m, err := spec.CompilePattern(f.rawPatterns[i])
			if err != nil {
				continue // no engine compiles it, and no validator checks it
			}
			p.ecma = append(p.ecma, m)
			for _, ex := range f.examples {
				if m.MatchString(ex) {
					p.examples = append(p.examples, ex)
				}
			}
			if len(p.examples) == 0 {
				g.note("%s: pattern %q is beyond the generator (an ECMA-262 construct RE2 lacks) and no example of the schema matches it: its values may fail it", where(name, ctx), f.rawPatterns[i])
			}
			continue
		}
		p.res = append(p.res, re)
		if p.regex == "" {
			p.regex = pat
		}
	}
	p.span = defaultSpan
	if h := hintFor(name, ctx, kStr); h != nil && h.fits(p.format) {
		p.hint = h
		if h.span != nil {
			p.span, p.date = *h.span, h.date
		}
	}
	return p
}

func (g *Generator) arrayPlan(f *facts, name, ctx string) *arrPlan {
	p := &arrPlan{minItems: f.minItems, maxItems: f.maxItems, unique: f.unique}
	if p.minItems > MaxItems {
		g.note("%s: minItems %d is more than a generated array holds (%d items): its values are cut to that, and fail it", where(name, ctx), p.minItems, MaxItems)
	}
	item := singular(name)
	p.items = g.compile(f.items, item, ctx, true)
	for _, r := range f.prefix {
		p.prefix = append(p.prefix, g.compile([]*openapi3.SchemaRef{r}, item, ctx, true))
	}
	if len(f.contains) > 0 && f.minContains > 0 {
		// The first items satisfy contains (and items); JSON Schema 2020-12.
		p.contains = g.compile(append(slices.Clip(f.items), f.contains...), item, ctx, true)
		p.minContains = f.minContains
		p.minItems = max(p.minItems, p.minContains+len(p.prefix))
	}
	return p
}

func (g *Generator) objectPlan(f *facts, name, ctx string) *objPlan {
	p := &objPlan{ident: f.ident, minProps: f.minProps, maxProps: f.maxProps}
	child := f.component // an object's properties are read in its own name…
	if child == "" {
		child = name // …or, inline, in the name of the property holding it
		if child == "" {
			child = ctx
		}
	}
	// patternProperties: a member whose name matches a pattern satisfies
	// its schema as well (JSON Schema 2020-12; a pattern finds its match
	// anywhere in the name).
	var pats []*dictPattern
	for _, pf := range f.patProps {
		re, err := regexp.Compile(pf.pattern)
		if err != nil {
			g.note("%s: patternProperties %q is beyond the generator (an ECMA-262 construct RE2 lacks): members matching it are not made, and declared ones may fail its schema", where(name, ctx), pf.pattern)
			continue
		}
		pats = append(pats, &dictPattern{re: re, regex: pf.pattern, refs: pf.refs})
	}
	matching := func(pn string, refs []*openapi3.SchemaRef) []*openapi3.SchemaRef {
		for _, dp := range pats {
			if dp.re.MatchString(pn) {
				refs = append(slices.Clip(refs), dp.refs...)
			}
		}
		return refs
	}
	taken := map[string]bool{}
	for _, pn := range f.props {
		p.props = append(p.props, prop{
			name:     pn,
			key:      append(fastapi.AppendString(nil, pn), ':'),
			node:     g.compile(matching(pn, f.propRefs[pn]), pn, child, f.required[pn]),
			required: f.required[pn],
			writeOnly: slices.ContainsFunc(f.propRefs[pn], func(r *openapi3.SchemaRef) bool {
				return r.Value != nil && r.Value.WriteOnly
			}),
		})
		taken[pn] = true
	}
	p.pairs = idPairs(p.props)
	// A required property the schema does not describe: any value will do.
	var undeclared []string
	for pn := range f.required {
		if !taken[pn] {
			undeclared = append(undeclared, pn)
		}
	}
	slices.Sort(undeclared)
	for _, pn := range undeclared {
		if f.closed && !slices.ContainsFunc(pats, func(dp *dictPattern) bool { return dp.re.MatchString(pn) }) {
			at := where(name, ctx)
			if f.component != "" {
				at = "schema " + f.component
			}
			also := ""
			if i := slices.IndexFunc(f.props, func(d string) bool { return strings.EqualFold(d, pn) }); i >= 0 {
				also = fmt.Sprintf(" (it declares %s: names differ in case)", f.props[i])
			}
			g.note("%s: requires %s, which it does not declare and additionalProperties: false forbids%s: no value of it is valid", at, pn, also)
		}
		p.props = append(p.props, prop{
			name: pn, key: append(fastapi.AppendString(nil, pn), ':'),
			node: g.compile(matching(pn, nil), pn, child, true), required: true,
		})
		taken[pn] = true
	}
	if f.closed && len(pats) == 0 {
		return p // additionalProperties: false, and no pattern makes members
	}
	// A dict: extra members when the schema declares no properties (or asks
	// for more than it declares); with patternProperties, members made for
	// them alone.
	if len(p.props) > 0 && f.minProps <= len(p.props) {
		return p
	}
	d := &dictPlan{taken: taken, min: max(0, f.minProps-len(p.props))}
	for _, dp := range pats {
		// A member matching two patterns is never made (see dict): its
		// value is planned for its own pattern's schemas alone.
		dp.value = g.compile(dp.refs, singular(name), child, true)
		d.patterns = append(d.patterns, dp)
	}
	if len(f.propNames) > 0 {
		d.keyNode = g.compile(f.propNames, "key", child, true)
	} else {
		d.keys = dictKeys(name)
	}
	if len(f.addl) > 0 {
		d.value = g.compile(f.addl, singular(name), child, true)
	} else {
		d.value = g.freeValue(name)
	}
	p.dict = d
	return p
}

// idPairs finds, among an object's properties, each x_id beside an
// object x whose id is planned alike (an integer of the same bounds, or a
// string of the same format with no pattern nor length), so that x_id
// equals x.id as a backend's answer has them.
func idPairs(props []prop) []idPair {
	var out []idPair
	for i := range props {
		base, ok := strings.CutSuffix(props[i].name, "_id")
		if !ok || base == "" {
			continue
		}
		j := slices.IndexFunc(props, func(q prop) bool { return q.name == base })
		if j < 0 || props[j].node.kind != kObj {
			continue
		}
		obj := props[j].node.obj
		k := slices.IndexFunc(obj.props, func(q prop) bool { return q.name == "id" })
		if k >= 0 && samePlan(props[i].node, obj.props[k].node) {
			out = append(out, idPair{id: i, obj: j})
		}
	}
	return out
}

// samePlan reports whether every value of a is one b could make: the
// same kind, an integer of the same bounds, or a string of the same
// format without a pattern or a length bound.
func samePlan(a, b *node) bool {
	if a.kind != b.kind || len(a.nots)+len(b.nots) > 0 || b.nullPct == 0 && a.nullPct > 0 {
		return false
	}
	switch a.kind {
	case kInt:
		x, y := *a.num, *b.num
		return x.lo == y.lo && x.hi == y.hi && x.hasLo == y.hasLo && x.hasHi == y.hasHi && x.loEx == y.loEx && x.hiEx == y.hiEx && slices.Equal(x.mult, y.mult)
	case kStr:
		x, y := a.str, b.str
		return x.format == y.format && len(x.res)+len(x.ecma)+len(y.res)+len(y.ecma) == 0 && x.minLen == y.minLen && x.maxLen == y.maxLen
	}
	return false
}

// freeValue plans the values of a dict whose schema says nothing of them
// (FastAPI's dict): counts for a reactions-like dict, else short words.
func (g *Generator) freeValue(name string) *node {
	n := g.newNode()
	if countsDict(name) {
		n.kind = kInt
		n.num = &numPlan{integer: true, from: 0, to: 500}
		return n
	}
	n.kind, n.str = kStr, &strPlan{maxLen: -1, span: defaultSpan}
	return n
}

// literal renders a default, or nil when it does not validate (a default is
// not checked by kin-openapi when the document is loaded).
func (g *Generator) literal(v any, f *facts) []byte {
	if v == nil {
		return nil
	}
	b := renderLiteral(nil, v, f.asFloat())
	if !g.validRendered(b, f.schemas) {
		return nil
	}
	return b
}

// ownExamples are the examples of f's own schemas (Examples) rendered,
// each once, those its schemas accept and that hold no object.
func (g *Generator) ownExamples(f *facts) [][]byte {
	var out [][]byte
	for _, v := range f.own {
		if v == nil || holdsObject(v) {
			continue
		}
		if b := g.literal(v, f); b != nil && !slices.ContainsFunc(out, func(o []byte) bool { return bytes.Equal(o, b) }) {
			out = append(out, b)
		}
	}
	return out
}

// holdsObject reports whether the example v is an object or a list
// holding one.
func holdsObject(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		return true
	case []any:
		return slices.ContainsFunc(x, holdsObject)
	}
	return false
}

// validRendered reports whether the JSON text b validates against every
// schema in schemas.
func (g *Generator) validRendered(b []byte, schemas []*openapi3.Schema) bool {
	v, err := decode(b)
	if err != nil {
		return false
	}
	for _, s := range schemas {
		if g.sp.Validate(s, v, false) != nil {
			return false
		}
	}
	return true
}

// enumMemberCheck is validRendered for the members of an enum: each
// schema's own enum is checked by a lookup in a set of its members and the
// rest of it by the validator, on a copy without the enum. kin-openapi
// v0.152.0 checks enum membership by comparing with each member in turn,
// which for every member of an enum of 50,000 values is 50,000² steps.
// An enum with a member that is not a string, number, boolean or null is
// left to the validator whole.
func (g *Generator) enumMemberCheck(schemas []*openapi3.Schema) func([]byte) bool {
	type split struct {
		rest    *openapi3.Schema
		members map[string]bool // nil: no enum
	}
	splits := make([]split, 0, len(schemas))
	for _, s := range schemas {
		sp := split{rest: s}
		if len(s.Enum) > 0 {
			members := make(map[string]bool, len(s.Enum))
			for _, m := range s.Enum {
				k, ok := enumKey(m)
				if !ok {
					members = nil
					break
				}
				members[k] = true
			}
			if members != nil {
				rest := *s
				rest.Enum = nil
				sp.rest, sp.members = &rest, members
			}
		}
		splits = append(splits, sp)
	}
	return func(b []byte) bool {
		v, err := decode(b)
		if err != nil {
			return false
		}
		for _, sp := range splits {
			if sp.members != nil {
				if k, ok := enumKey(v); !ok || !sp.members[k] {
					return false
				}
			}
			if g.sp.Validate(sp.rest, v, false) != nil {
				return false
			}
		}
		return true
	}
}

// enumKey is a scalar JSON value as a key equal for the values kin-openapi
// finds equal (numbers by value).
func enumKey(v any) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "null", true
	case bool:
		return strconv.FormatBool(x), true
	case string:
		return strconv.Quote(x), true
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), true
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return "", false
		}
		return strconv.FormatFloat(f, 'g', -1, 64), true
	}
	return "", false
}

func decode(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// renderLiteral writes a value from the document (enum, const, default) as
// FastAPI would send it: a whole number as an integer unless the schema says
// number (pydantic then sends a float), object members sorted.
func renderLiteral(dst []byte, v any, asFloat bool) []byte {
	switch x := v.(type) {
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 && !asFloat {
			return fastapi.AppendValue(dst, int64(x))
		}
		return fastapi.AppendValue(dst, x)
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = renderLiteral(dst, e, false)
		}
		return append(dst, ']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = fastapi.AppendString(dst, k)
			dst = append(dst, ':')
			dst = renderLiteral(dst, x[k], false)
		}
		return append(dst, '}')
	}
	return fastapi.AppendValue(dst, v)
}

// sameJSON reports whether two decoded JSON values are equal.
func sameJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

var patternCodepoint = regexp.MustCompile(`\\u([0-9A-F]{4})`)

// goPattern rewrites \uXXXX, which Go's regexp lacks, as kin-openapi
// v0.152.0 does before compiling a pattern (upper-case hex digits only, as
// there).
func goPattern(p string) string {
	return patternCodepoint.ReplaceAllString(p, `\x{$1}`)
}

func clampInt(v uint64) int {
	if v > math.MaxInt32 {
		return math.MaxInt32
	}
	return int(v)
}

// minLimit is the smaller of two limits where -1 means none.
func minLimit(a, b int) int {
	if a < 0 || b < a {
		return b
	}
	return a
}
