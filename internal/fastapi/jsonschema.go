package fastapi

import (
	"fmt"
	"math"
	"math/big"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/moviemock/moviemock/internal/spec"
)

// This file compiles the JSON Schema FastAPI (pydantic 2) writes for a
// request body into validators that behave as the pydantic validators the
// schema was generated from. It reads the document as written (yaml.Node),
// not kin-openapi's model, because that model loses what matters here: the
// order of properties (pydantic validates and reports in declaration
// order) and whether a default was written 1 or 1.0 (model_dump writes it
// back as it is). Anything the schema could say that is not implemented is
// an error naming where it is: a contract the mock cannot answer as FastAPI
// would is refused when it is loaded, never at a request.

// vkind is the pydantic validator a schema stands for.
type vkind uint8

const (
	vAny vkind = iota
	vInt
	vFloat
	vStr
	vBool
	vNone
	vLiteral
	vEnum
	vList
	vDict
	vModel
	vNullable
	vDate
	vDateTime
	vTime
	vUUID
	vURL      // format uri: AnyUrl, HttpUrl
	vDuration // format duration: timedelta
	vBytes    // bytes: format binary, or contentEncoding base64
	vEmail    // format email: EmailStr
	// vUnion and vAllOf are a lax compile's composites (see degrade.go):
	// a value some, or every, alternative of alts accepts.
	vUnion
	vAllOf
)

// vnode is one compiled schema.
type vnode struct {
	kind vkind

	// vInt bounds (pydantic holds them as ints: ctx {"ge": 1}).
	iMul, iLe, iLt, iGe, iGt *big.Int
	// vFloat bounds (held as floats: ctx {"gt": 0.0}).
	fMul, fLe, fLt, fGe, fGt *float64

	// vStr
	minLen, maxLen int                                   // -1: none
	pattern        interface{ MatchString(string) bool } // a *pyRegex; in a lax compile, an ECMA-262 spec.Matcher
	patternSrc     string

	// vLiteral, vEnum
	lit *literalSet

	// vList items, vDict values, vNullable inner
	elem               *vnode
	minItems, maxItems int // -1: none
	// set: uniqueItems, a set or frozenset, which pydantic fills with
	// the validated items, dropping equal ones, and dumps as a list.
	set bool

	// vModel
	model *vmodel

	// vURL
	url *urlRule
	// vBytes: val_json_bytes and ser_json_bytes "base64" (the schema
	// says contentEncoding: base64), else "utf8".
	base64 bool

	// vUnion, vAllOf
	alts []*vnode
}

func (n *vnode) constrainedStr() bool { return n.minLen >= 0 || n.maxLen >= 0 || n.pattern != nil }

// vmodel is a pydantic model: its fields in declaration order.
type vmodel struct {
	name   string
	fields []vfield
	forbid bool // extra="forbid" (additionalProperties: false)
}

type vfield struct {
	name     string
	node     *vnode
	required bool
	def      []byte // the default as model_dump writes it
	// guessed: the schema shows no default for this optional field, so
	// def is null (FastAPI leaves default None out of its schemas), which
	// a default_factory would not give.
	guessed bool
}

// yamlDoc is an OpenAPI document as written.
type yamlDoc struct{ root *yaml.Node }

// writtenDoc is sp's document as written, as the loader read it and held
// to its budgets: no alias in it contains itself, and nothing nests past
// spec.MaxDepth, so the recursive readers here end.
func writtenDoc(sp *spec.Spec) (*yamlDoc, error) {
	root := sp.Root()
	if root == nil {
		return nil, fmt.Errorf("not a document")
	}
	return &yamlDoc{root: root}, nil
}

// get returns the value of key in the mapping n, or nil.
func get(n *yaml.Node, key string) *yaml.Node {
	n = yderef(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return yderef(n.Content[i+1])
		}
	}
	return nil
}

func yderef(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func keys(n *yaml.Node) []string {
	var ks []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		ks = append(ks, n.Content[i].Value)
	}
	return ks
}

// resolve follows a local reference ("#/components/schemas/ReviewCreate").
func (d *yamlDoc) resolve(ref string) (*yaml.Node, error) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, fmt.Errorf("$ref %q: only references within the document are implemented", ref)
	}
	if f, err := url.PathUnescape(frag); err == nil {
		frag = f
	}
	n := d.root
	for _, tok := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		if frag == "" {
			break
		}
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch n.Kind {
		case yaml.MappingNode:
			n = get(n, tok)
		case yaml.SequenceNode:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n.Content) {
				return nil, fmt.Errorf("$ref %q: no such element", ref)
			}
			n = yderef(n.Content[i])
		default:
			n = nil
		}
		if n == nil {
			return nil, fmt.Errorf("$ref %q: no such element", ref)
		}
	}
	return n, nil
}

type compiler struct {
	doc    *yamlDoc
	models map[*yaml.Node]*vnode // by component, so that recursive models compile
	// open are the components being compiled: one met again inside
	// itself that is not a model (Tree = list["Tree"]) would be compiled
	// forever.
	open map[*yaml.Node]bool
	// notes: a lax compile (a document that is not FastAPI's), which
	// degrades what it cannot enforce and notes it here; nil: strict, what
	// cannot be validated as pydantic would is an error.
	notes *Degradations
	// memo holds a lax compile's schemas compiled, by node.
	memo map[memoKey]*vnode
}

// annotations are schema keys that do not change validation.
var annotations = map[string]bool{
	"title": true, "description": true, "default": true, "examples": true, "example": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "externalDocs": true, "xml": true,
	"$comment": true, "contentMediaType": true,
}

func (c *compiler) checkKeys(n *yaml.Node, where string, allowed ...string) error {
	for _, k := range keys(n) {
		if annotations[k] || strings.HasPrefix(k, "x-") || slices.Contains(allowed, k) {
			continue
		}
		if err := c.unsupported(fmt.Errorf("%s: schema keyword %q is not implemented", where, k), where, "keyword "+strconv.Quote(k), "not implemented"); err != nil {
			return err
		}
	}
	return nil
}

// compile compiles the schema n; viaRef is true for a component reached
// through $ref, where an enum is a Python Enum class (pydantic writes a
// Literal's enum inline).
func (c *compiler) compile(n *yaml.Node, where string, viaRef bool) (*vnode, error) {
	if !c.lax() {
		return c.compileNode(n, where, viaRef)
	}
	// A lax compile takes composites, whose parts a document can share
	// (allOf: [A, A], A an allOf of [B, B], …): each schema is compiled
	// once, or that would take time exponential in the document's size.
	n = yderef(n)
	key := memoKey{n, viaRef}
	if done := c.memo[key]; done != nil {
		return done, nil
	}
	node, err := c.compileNode(n, where, viaRef)
	if err == nil && node != nil {
		if c.memo == nil {
			c.memo = map[memoKey]*vnode{}
		}
		c.memo[key] = node
	}
	return node, err
}

type memoKey struct {
	n      *yaml.Node
	viaRef bool
}

func (c *compiler) compileNode(n *yaml.Node, where string, viaRef bool) (*vnode, error) {
	n = yderef(n)
	if n == nil {
		return nil, fmt.Errorf("%s: no schema", where)
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!bool" && n.Value == "true" {
		return &vnode{kind: vAny}, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: schema is not an object", where)
	}
	if ref := get(n, "$ref"); ref != nil {
		if nb := get(n, "nullable"); c.lax() && nb != nil && nb.Value == "true" {
			// OpenAPI 3.0's nullable beside a $ref: X or null.
			return nullableOf(c.compile(without(n, "nullable"), where, viaRef))
		}
		if err := c.checkKeys(n, where, "$ref"); err != nil {
			return nil, err
		}
		target, err := c.doc.resolve(ref.Value)
		if err != nil {
			if err := c.unsupported(fmt.Errorf("%s: %w", where, err), where, "$ref "+strconv.Quote(ref.Value), err.Error()); err != nil {
				return nil, err
			}
			return &vnode{kind: vAny}, nil
		}
		if done := c.models[target]; done != nil {
			return done, nil
		}
		name := ref.Value[strings.LastIndexByte(ref.Value, '/')+1:]
		if c.open[target] {
			if err := c.unsupported(fmt.Errorf("%s: %s contains itself other than through a model's field (a recursive type alias): not implemented", where, ref.Value), where, ref.Value+" within itself", "it contains itself other than through a model's field"); err != nil {
				return nil, err
			}
			return &vnode{kind: vAny}, nil
		}
		if c.open == nil {
			c.open = map[*yaml.Node]bool{}
		}
		c.open[target] = true
		defer delete(c.open, target)
		return c.compile(target, name, true)
	}
	if c.lax() && (get(n, "oneOf") != nil || get(n, "allOf") != nil || (get(n, "anyOf") != nil && !optionalOf(n))) {
		return c.compileComposite(n, where)
	}
	if alts := get(n, "anyOf"); alts != nil {
		return c.compileAnyOf(n, alts, where)
	}
	for _, k := range []string{"oneOf", "allOf", "not", "if", "discriminator"} {
		if get(n, k) != nil && !c.lax() {
			return nil, fmt.Errorf("%s: %q is not implemented (a pydantic union or a composed schema)", where, k)
		}
	}
	if get(n, "enum") != nil || get(n, "const") != nil {
		return c.compileEnum(n, where, viaRef)
	}
	typ := get(n, "type")
	var types []string
	switch {
	case typ == nil:
	case typ.Kind == yaml.ScalarNode:
		types = []string{typ.Value}
	case typ.Kind == yaml.SequenceNode:
		for _, t := range typ.Content {
			types = append(types, t.Value)
		}
	}
	nullable := false
	if nb := get(n, "nullable"); nb != nil && nb.Value == "true" {
		nullable = true
	}
	if i := slices.Index(types, "null"); i >= 0 && len(types) > 1 {
		types = slices.Delete(types, i, i+1)
		nullable = true
	}
	var node *vnode
	var err error
	switch len(types) {
	case 0:
		if c.lax() && (get(n, "properties") != nil || get(n, "additionalProperties") != nil) {
			// An object's keywords without type: object.
			node, err = c.compileTyped(n, "object", where)
			break
		}
		if err := c.checkKeys(n, where, "nullable"); err != nil {
			return nil, err
		}
		node = &vnode{kind: vAny}
	case 1:
		node, err = c.compileTyped(n, types[0], where)
	default:
		if !c.lax() {
			return nil, fmt.Errorf("%s: type %v is not implemented (a pydantic union)", where, types)
		}
		// A value of any of the types: each compiled with the keywords
		// beside it.
		node = &vnode{kind: vUnion}
		for _, t := range types {
			alt, err := c.compileTyped(n, t, where)
			if err != nil {
				return nil, err
			}
			node.alts = append(node.alts, alt)
		}
	}
	if err != nil {
		return nil, err
	}
	if nullable && node.kind != vAny {
		node = &vnode{kind: vNullable, elem: node}
	}
	return node, nil
}

// optionalOf reports whether n's anyOf is FastAPI's Optional[X]: [X,
// {type: null}].
func optionalOf(n *yaml.Node) bool {
	alts := get(n, "anyOf")
	if alts == nil || alts.Kind != yaml.SequenceNode || len(alts.Content) != 2 {
		return false
	}
	nulls := 0
	for _, alt := range alts.Content {
		alt = yderef(alt)
		if t := get(alt, "type"); t != nil && t.Value == "null" && len(alt.Content) == 2 {
			nulls++
		}
	}
	return nulls == 1
}

func (c *compiler) compileAnyOf(n, alts *yaml.Node, where string) (*vnode, error) {
	if err := c.checkKeys(n, where, "anyOf"); err != nil {
		return nil, err
	}
	var inner *yaml.Node
	nulls := 0
	if alts.Kind == yaml.SequenceNode && len(alts.Content) == 2 {
		for _, alt := range alts.Content {
			alt = yderef(alt)
			if t := get(alt, "type"); t != nil && t.Value == "null" && len(alt.Content) == 2 {
				nulls++
			} else {
				inner = alt
			}
		}
	}
	if nulls != 1 || inner == nil {
		return nil, fmt.Errorf("%s: anyOf other than [X, {type: null}] (Optional[X]) is not implemented (a pydantic union)", where)
	}
	node, err := c.compile(inner, where, false)
	if err != nil {
		return nil, err
	}
	if node.kind == vAny || node.kind == vNullable {
		return node, nil
	}
	return &vnode{kind: vNullable, elem: node}, nil
}

func (c *compiler) compileTyped(n *yaml.Node, typ, where string) (*vnode, error) {
	switch typ {
	case "integer", "number":
		allowed := []string{"type", "nullable", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}
		if c.lax() {
			// A number's format is a range (int32, int64) or a width
			// Python's int and float do not have (float, double).
			allowed = append(allowed, "format")
		}
		if err := c.checkKeys(n, where, allowed...); err != nil {
			return nil, err
		}
		if typ == "integer" {
			return c.compileIntBounds(n, where)
		}
		return c.compileFloatBounds(n, where)
	case "boolean":
		return &vnode{kind: vBool}, c.checkKeys(n, where, "type", "nullable")
	case "null":
		return &vnode{kind: vNone}, c.checkKeys(n, where, "type")
	case "string":
		if err := c.checkKeys(n, where, "type", "nullable", "minLength", "maxLength", "pattern", "format", "contentEncoding"); err != nil {
			return nil, err
		}
		node := &vnode{kind: vStr, minLen: -1, maxLen: -1}
		if enc := get(n, "contentEncoding"); enc != nil {
			// bytes with val_json_bytes/ser_json_bytes "base64".
			if enc.Value != "base64" {
				if err := c.unsupported(fmt.Errorf("%s: contentEncoding %q is not implemented", where, enc.Value), where, "contentEncoding "+strconv.Quote(enc.Value), "not implemented; read as a string"); err != nil {
					return nil, err
				}
				return c.compileTyped(without(n, "contentEncoding"), "string", where)
			}
			if f := get(n, "format"); f != nil && f.Value != "binary" {
				if err := c.unsupported(fmt.Errorf("%s: contentEncoding base64 with format %q is not implemented", where, f.Value), where, "format "+strconv.Quote(f.Value), "on base64 bytes"); err != nil {
					return nil, err
				}
			}
			if get(n, "minLength") != nil || get(n, "maxLength") != nil || get(n, "pattern") != nil {
				if err := c.unsupported(fmt.Errorf("%s: length or pattern on bytes is not implemented", where), where, "length or pattern", "on bytes"); err != nil {
					return nil, err
				}
			}
			return &vnode{kind: vBytes, base64: true}, nil
		}
		if m := get(n, "contentMediaType"); m != nil && m.Value == "application/octet-stream" && get(n, "format") == nil {
			// bytes (pydantic 2.13 writes no format for it).
			if get(n, "minLength") != nil || get(n, "maxLength") != nil || get(n, "pattern") != nil {
				if err := c.unsupported(fmt.Errorf("%s: length or pattern on bytes is not implemented", where), where, "length or pattern", "on bytes"); err != nil {
					return nil, err
				}
			}
			return &vnode{kind: vBytes}, nil
		}
		if f := get(n, "format"); f != nil {
			switch f.Value {
			case "date":
				node.kind = vDate
			case "date-time":
				node.kind = vDateTime
			case "time":
				node.kind = vTime
			case "uuid":
				node.kind = vUUID
			case "duration":
				node.kind = vDuration
			case "binary":
				node.kind = vBytes
			case "email":
				node.kind = vEmail
			case "uri":
				return c.compileURL(n, where)
			default:
				err := fmt.Errorf("%s: string format %q is not implemented (its pydantic type validates and serialises differently from str)", where, f.Value)
				if !c.lax() {
					return nil, err
				}
				if f.Value != "password" { // a hint to forms, nothing to check
					c.notes.add(where, "format "+strconv.Quote(f.Value), "not implemented; read as a string")
				}
				return c.compileTyped(without(n, "format"), "string", where)
			}
			if node.kind == vEmail && get(n, "pattern") == nil {
				// EmailStr = Field(max_length=255): pydantic checks the
				// length of the address it keeps.
				var err error
				if node.minLen, err = intKeyword(n, "minLength", where); err != nil {
					return nil, err
				}
				if node.maxLen, err = intKeyword(n, "maxLength", where); err != nil {
					return nil, err
				}
				return node, nil
			}
			if get(n, "minLength") != nil || get(n, "maxLength") != nil || get(n, "pattern") != nil {
				if !c.lax() {
					return nil, fmt.Errorf("%s: length or pattern on a %s string is not implemented", where, f.Value)
				}
				// The format's value, its text held to the length and
				// pattern as a plain string's.
				plain, err := c.compileTyped(without(n, "format"), "string", where)
				if err != nil {
					return nil, err
				}
				return &vnode{kind: vAllOf, alts: []*vnode{node, plain}}, nil
			}
			return node, nil
		}
		var err error
		if node.minLen, err = intKeyword(n, "minLength", where); err != nil {
			return nil, err
		}
		if node.maxLen, err = intKeyword(n, "maxLength", where); err != nil {
			return nil, err
		}
		if p := get(n, "pattern"); p != nil {
			re, err := compilePattern(p.Value)
			switch {
			case err == nil:
				node.pattern, node.patternSrc = re, p.Value
			case c.lax():
				// Not pydantic's, so not held to pydantic's engines: the
				// pattern is JSON Schema's, ECMA-262 (a lookahead, a
				// backreference), run within spec's match budget.
				if m, ecmaErr := spec.CompilePattern(p.Value); ecmaErr == nil {
					node.pattern, node.patternSrc = m, p.Value
					break
				}
				if err := c.unsupported(fmt.Errorf("%s: %w", where, err), where, "pattern "+strconv.Quote(p.Value), "not a regular expression ECMA-262, Python's re or Rust's regex runs: "+err.Error()); err != nil {
					return nil, err
				}
			default:
				return nil, fmt.Errorf("%s: %w", where, err)
			}
		}
		return node, nil
	case "array":
		if err := c.checkKeys(n, where, "type", "nullable", "items", "minItems", "maxItems", "uniqueItems"); err != nil {
			return nil, err
		}
		node := &vnode{kind: vList}
		if u := get(n, "uniqueItems"); u != nil {
			if u.Tag != "!!bool" {
				return nil, fmt.Errorf("%s: uniqueItems %q is not a boolean", where, u.Value)
			}
			node.set = u.Value == "true"
		}
		var err error
		if node.minItems, err = intKeyword(n, "minItems", where); err != nil {
			return nil, err
		}
		if node.maxItems, err = intKeyword(n, "maxItems", where); err != nil {
			return nil, err
		}
		items := get(n, "items")
		if items == nil {
			node.elem = &vnode{kind: vAny}
		} else if node.elem, err = c.compile(items, where+"[]", false); err != nil {
			return nil, err
		}
		return node, nil
	case "object":
		if get(n, "properties") != nil {
			return c.compileModel(n, where)
		}
		if err := c.checkKeys(n, where, "type", "nullable", "additionalProperties"); err != nil {
			return nil, err
		}
		node := &vnode{kind: vDict, elem: &vnode{kind: vAny}}
		if ap := get(n, "additionalProperties"); ap != nil {
			switch {
			case ap.Kind == yaml.ScalarNode && ap.Value == "true":
			case ap.Kind == yaml.ScalarNode:
				if !c.lax() {
					return nil, fmt.Errorf("%s: an object without properties and additionalProperties: %s is not implemented", where, ap.Value)
				}
				// An object with no member: a model of no field that
				// forbids every other.
				return &vnode{kind: vModel, model: &vmodel{name: where, forbid: true}}, nil
			default:
				var err error
				if node.elem, err = c.compile(ap, where+"{}", false); err != nil {
					return nil, err
				}
			}
		}
		return node, nil
	}
	if err := c.unsupported(fmt.Errorf("%s: type %q is not implemented", where, typ), where, "type "+strconv.Quote(typ), "not a JSON Schema type"); err != nil {
		return nil, err
	}
	return &vnode{kind: vAny}, nil
}

// compileURL reads a pydantic URL type: HttpUrl (http or https, at most
// 2083 characters: the schema's maxLength) or AnyUrl (minLength 1 alone).
func (c *compiler) compileURL(n *yaml.Node, where string) (*vnode, error) {
	minLen, err := intKeyword(n, "minLength", where)
	if err != nil {
		return nil, err
	}
	maxLen, err := intKeyword(n, "maxLength", where)
	if err != nil {
		return nil, err
	}
	rule := &urlRule{maxLen: maxLen}
	if maxLen == MaxURLLength {
		rule.schemes = []string{"http", "https"}
	}
	if get(n, "pattern") != nil || minLen > 1 {
		if !c.lax() {
			return nil, fmt.Errorf("%s: a pattern or minLength above 1 on a uri string is not implemented", where)
		}
		plain, err := c.compileTyped(without(n, "format", "maxLength"), "string", where)
		if err != nil {
			return nil, err
		}
		return &vnode{kind: vAllOf, alts: []*vnode{{kind: vURL, url: rule}, plain}}, nil
	}
	return &vnode{kind: vURL, url: rule}, nil
}

func intKeyword(n *yaml.Node, key, where string) (int, error) {
	v := get(n, key)
	if v == nil {
		return -1, nil
	}
	i, err := strconv.Atoi(v.Value)
	if err != nil || i < 0 {
		return 0, fmt.Errorf("%s: %s %q is not a non-negative integer", where, key, v.Value)
	}
	return i, nil
}

// compileIntBounds reads an int field's bounds. FastAPI writes them as
// floats (minimum: 1.0) but pydantic holds them as ints; a bound with a
// fraction cannot come from an int field pydantic built. A lax compile
// reads OpenAPI 3.0's boolean exclusiveMinimum and exclusiveMaximum, a
// fractional bound as the integer bound it amounts to, and format int32
// or int64 as that range.
func (c *compiler) compileIntBounds(n *yaml.Node, where string) (*vnode, error) {
	node := &vnode{kind: vInt}
	excl := c.exclusive30(n)
	for _, b := range []struct {
		key string
		dst **big.Int
	}{{"multipleOf", &node.iMul}, {"maximum", &node.iLe}, {"exclusiveMaximum", &node.iLt}, {"minimum", &node.iGe}, {"exclusiveMinimum", &node.iGt}} {
		v := get(n, b.key)
		if v == nil {
			continue
		}
		dst := b.dst
		if v.Tag == "!!bool" {
			if !c.lax() {
				return nil, fmt.Errorf("%s: boolean %s (OpenAPI 3.0 style) is not implemented", where, b.key)
			}
			continue // read with its minimum or maximum
		}
		switch {
		case b.key == "maximum" && excl["maximum"]:
			dst = &node.iLt
		case b.key == "minimum" && excl["minimum"]:
			dst = &node.iGt
		}
		f, ok := new(big.Float).SetPrec(4096).SetString(v.Value)
		if !ok {
			return nil, fmt.Errorf("%s: %s %q is not a number", where, b.key, v.Value)
		}
		i, acc := f.Int(nil)
		if acc != big.Exact {
			err := fmt.Errorf("%s: %s %s on an integer is not implemented (pydantic holds int bounds as ints)", where, b.key, v.Value)
			if !c.lax() {
				return nil, err
			}
			// f.Int truncates toward zero: acc says which way it went.
			switch {
			case b.key == "multipleOf":
				c.notes.add(where, "multipleOf "+v.Value, "a fraction on an integer")
				continue
			case dst == &node.iGe && acc == big.Below, dst == &node.iLt && acc == big.Below:
				i.Add(i, big.NewInt(1)) // ≥ 1.5 is ≥ 2; < 1.5 is < 2
			case dst == &node.iLe && acc == big.Above, dst == &node.iGt && acc == big.Above:
				i.Sub(i, big.NewInt(1)) // ≤ -1.5 is ≤ -2; > -1.5 is > -2
			}
		}
		*dst = i
	}
	if node.iMul != nil && node.iMul.Sign() == 0 {
		return nil, fmt.Errorf("%s: multipleOf 0", where)
	}
	if f := get(n, "format"); f != nil && c.lax() {
		bits := map[string]uint{"int32": 31, "int64": 63}[f.Value]
		if bits > 0 {
			lo := new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), bits))
			hi := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), bits), big.NewInt(1))
			if node.iGe == nil && node.iGt == nil {
				node.iGe = lo
			}
			if node.iLe == nil && node.iLt == nil {
				node.iLe = hi
			}
		}
	}
	return node, nil
}

// exclusive30 is which of n's minimum and maximum OpenAPI 3.0's boolean
// exclusiveMinimum and exclusiveMaximum make exclusive, in a lax compile.
func (c *compiler) exclusive30(n *yaml.Node) map[string]bool {
	if !c.lax() {
		return nil
	}
	out := map[string]bool{}
	for key, bound := range map[string]string{"exclusiveMinimum": "minimum", "exclusiveMaximum": "maximum"} {
		if v := get(n, key); v != nil && v.Tag == "!!bool" && v.Value == "true" {
			out[bound] = true
		}
	}
	return out
}

func (c *compiler) compileFloatBounds(n *yaml.Node, where string) (*vnode, error) {
	node := &vnode{kind: vFloat}
	excl := c.exclusive30(n)
	for _, b := range []struct {
		key string
		dst **float64
	}{{"multipleOf", &node.fMul}, {"maximum", &node.fLe}, {"exclusiveMaximum", &node.fLt}, {"minimum", &node.fGe}, {"exclusiveMinimum", &node.fGt}} {
		v := get(n, b.key)
		if v == nil {
			continue
		}
		dst := b.dst
		if v.Tag == "!!bool" {
			if !c.lax() {
				return nil, fmt.Errorf("%s: boolean %s (OpenAPI 3.0 style) is not implemented", where, b.key)
			}
			continue
		}
		switch {
		case b.key == "maximum" && excl["maximum"]:
			dst = &node.fLt
		case b.key == "minimum" && excl["minimum"]:
			dst = &node.fGt
		}
		f, err := strconv.ParseFloat(v.Value, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, fmt.Errorf("%s: %s %q is not a number", where, b.key, v.Value)
		}
		*dst = &f
	}
	return node, nil
}

// compileModel compiles a pydantic model: an object schema with
// properties.
func (c *compiler) compileModel(n *yaml.Node, where string) (*vnode, error) {
	if err := c.checkKeys(n, where, "type", "properties", "required", "additionalProperties", "nullable"); err != nil {
		return nil, err
	}
	node := &vnode{kind: vModel, model: &vmodel{name: where}}
	if c.models == nil {
		c.models = map[*yaml.Node]*vnode{}
	}
	c.models[n] = node
	if ap := get(n, "additionalProperties"); ap != nil {
		switch {
		case ap.Kind == yaml.ScalarNode && ap.Value == "false":
			node.model.forbid = true
		case ap.Kind == yaml.ScalarNode && ap.Value == "true":
			if err := c.unsupported(fmt.Errorf("%s: extra=\"allow\" (additionalProperties: true) is not implemented", where), where, "additionalProperties: true", "members it does not declare are accepted, not kept"); err != nil {
				return nil, err
			}
		default:
			if err := c.unsupported(fmt.Errorf("%s: additionalProperties with a schema on a model is not implemented", where), where, "additionalProperties", "only the properties it declares are validated"); err != nil {
				return nil, err
			}
		}
	}
	var required []string
	if r := get(n, "required"); r != nil {
		for _, x := range r.Content {
			required = append(required, x.Value)
		}
	}
	props := get(n, "properties")
	for i := 0; i+1 < len(props.Content); i += 2 {
		name := props.Content[i].Value
		prop := yderef(props.Content[i+1])
		f := vfield{name: name, required: slices.Contains(required, name)}
		var err error
		if f.node, err = c.compile(prop, where+"."+name, false); err != nil {
			return nil, err
		}
		if !f.required {
			if d := get(prop, "default"); d != nil {
				if f.def, err = c.defaultJSON(f.node, d); err != nil {
					return nil, fmt.Errorf("%s.%s: default: %w", where, name, err)
				}
			} else {
				// FastAPI leaves "default": null out of the schemas it
				// writes (pydantic's own schema has it); a default_factory
				// leaves no default either. For a field that holds None
				// (Optional, Any) None is what it almost always is.
				f.def = []byte("null")
				f.guessed = f.node.kind != vNullable && f.node.kind != vAny && f.node.kind != vNone
			}
		}
		node.model.fields = append(node.model.fields, f)
	}
	for _, r := range required {
		if get(props, r) == nil {
			if !c.lax() {
				return nil, fmt.Errorf("%s: required property %q is not among the properties", where, r)
			}
			// Required, of any value.
			node.model.fields = append(node.model.fields, vfield{name: r, node: &vnode{kind: vAny}, required: true})
		}
	}
	return node, nil
}

// defaultJSON is a field's default as model_dump(mode="json") writes it:
// through the field's serializer (a float field's default 1 is dumped
// 1.0), which is what validating it gives; a default that would not
// validate (pydantic does not validate defaults) is written as it is.
func (c *compiler) defaultJSON(node *vnode, d *yaml.Node) ([]byte, error) {
	raw, err := appendYAMLJSON(nil, d)
	if err != nil {
		return nil, err
	}
	text, err := pyJSONText(raw)
	if err != nil {
		return raw, nil
	}
	v, jerr, err := pyLoads(text)
	if err != nil || jerr != nil {
		return raw, nil
	}
	st := &vstate{}
	out, ok := node.validate(st, &v, nil)
	if !ok || st.crash || st.guessed {
		return raw, nil
	}
	return out, nil
}

// appendYAMLJSON writes a default value as model_dump(mode="json") and
// json.dumps write it: numbers keep their int or float type (1 or 1.0).
func appendYAMLJSON(dst []byte, n *yaml.Node) ([]byte, error) {
	n = yderef(n)
	switch n.Kind {
	case yaml.MappingNode:
		dst = append(dst, '{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, n.Content[i].Value)
			dst = append(dst, ':')
			var err error
			if dst, err = appendYAMLJSON(dst, n.Content[i+1]); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	case yaml.SequenceNode:
		dst = append(dst, '[')
		for i, e := range n.Content {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendYAMLJSON(dst, e); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	}
	switch n.Tag {
	case "!!null":
		return append(dst, "null"...), nil
	case "!!bool":
		return append(dst, n.Value...), nil
	case "!!int":
		i, ok := new(big.Int).SetString(n.Value, 0)
		if !ok {
			return dst, fmt.Errorf("integer %q", n.Value)
		}
		return i.Append(dst, 10), nil
	case "!!float":
		f, err := strconv.ParseFloat(n.Value, 64)
		if err != nil {
			return dst, fmt.Errorf("number %q", n.Value)
		}
		return appendFloat(dst, f), nil
	}
	return AppendString(dst, n.Value), nil
}

// compileEnum compiles enum/const: a Literal when written inline, a
// Python Enum class when reached through $ref.
func (c *compiler) compileEnum(n *yaml.Node, where string, viaRef bool) (*vnode, error) {
	allowed := []string{"enum", "const", "type"}
	if c.lax() {
		// A format beside the values (ASP.NET's int32 enums, a uuid
		// enum) asks nothing the listed values do not: they are the
		// only ones accepted.
		allowed = append(allowed, "format")
	}
	if err := c.checkKeys(n, where, allowed...); err != nil {
		return nil, err
	}
	var vals []*yaml.Node
	if e := get(n, "enum"); e != nil {
		vals = e.Content
	} else {
		vals = []*yaml.Node{get(n, "const")}
	}
	if len(vals) == 0 {
		return nil, fmt.Errorf("%s: empty enum", where)
	}
	set := &literalSet{}
	reprs := make([]string, 0, len(vals))
	for _, v := range vals {
		v = yderef(v)
		lv := litValue{}
		switch {
		case v.Kind != yaml.ScalarNode:
			return c.enumUnsupported(n, fmt.Errorf("%s: enum value that is not a string, integer, boolean or null is not implemented", where), where)
		case v.Tag == "!!str":
			lv.v = pyValue{kind: pyStr, s: v.Value}
			lv.repr = pyRepr(v.Value)
		case v.Tag == "!!int":
			i, err := strconv.ParseInt(v.Value, 10, 64)
			if err != nil {
				return c.enumUnsupported(n, fmt.Errorf("%s: enum value %s is not implemented", where, v.Value), where)
			}
			lv.v = pyValue{kind: pyInt, i: i}
			lv.repr = strconv.FormatInt(i, 10)
		case v.Tag == "!!bool":
			lv.v = pyValue{kind: pyBool, b: v.Value == "true"}
			lv.repr = map[bool]string{true: "True", false: "False"}[lv.v.b]
		case v.Tag == "!!null":
			lv.v = pyValue{kind: pyNone}
			lv.repr = "None"
		default:
			return c.enumUnsupported(n, fmt.Errorf("%s: enum value %s is not implemented", where, v.Value), where)
		}
		lv.json, _ = appendInput(nil, &lv.v)
		set.values = append(set.values, lv)
		reprs = append(reprs, lv.repr)
	}
	set.expected = joinExpected(reprs)
	return literalNode(set, viaRef), nil
}

// enumUnsupported is err when c is strict; a lax compile notes the enum
// unenforced and compiles n without it.
func (c *compiler) enumUnsupported(n *yaml.Node, err error, where string) (*vnode, error) {
	if err := c.unsupported(err, where, "enum", "a value other than a string, an integer, a boolean or null"); err != nil {
		return nil, err
	}
	return c.compile(without(n, "enum", "const"), where, false)
}

// enumNode compiles the enum of a parameter or form field, as decoded by
// kin-openapi (strings, float64 numbers, bools, nil): nil when a value is
// none pydantic's Literal or Enum lookup is implemented for here.
func enumNode(vals []any, viaRef bool) *vnode {
	set := &literalSet{}
	reprs := make([]string, 0, len(vals))
	for _, v := range vals {
		lv := litValue{}
		switch x := v.(type) {
		case string:
			lv.v, lv.repr = pyValue{kind: pyStr, s: x}, pyRepr(x)
		case float64:
			if x != math.Trunc(x) || math.Abs(x) > 1<<53 {
				return nil
			}
			lv.v, lv.repr = pyValue{kind: pyInt, i: int64(x)}, strconv.FormatInt(int64(x), 10)
		case bool:
			lv.v, lv.repr = pyValue{kind: pyBool, b: x}, map[bool]string{true: "True", false: "False"}[x]
		case nil:
			lv.v, lv.repr = pyValue{kind: pyNone}, "None"
		default:
			return nil
		}
		lv.json, _ = appendInput(nil, &lv.v)
		set.values = append(set.values, lv)
		reprs = append(reprs, lv.repr)
	}
	if len(set.values) == 0 {
		return nil
	}
	set.expected = joinExpected(reprs)
	return literalNode(set, viaRef)
}

// literalNode is the validator of set's values: a Literal, or an Enum
// class when the schema was reached through $ref.
func literalNode(set *literalSet, viaRef bool) *vnode {
	node := &vnode{kind: vLiteral, lit: set}
	if viaRef {
		node.kind = vEnum
		set.enumKind = enumPlain
		allStr, allInt := true, true
		for _, v := range set.values {
			allStr = allStr && v.v.kind == pyStr
			allInt = allInt && v.v.kind == pyInt
		}
		switch {
		case allStr:
			set.enumKind = enumStr
		case allInt:
			// An int-valued Enum is most often an IntEnum (or int, Enum);
			// a plain Enum would refuse "2", which an IntEnum accepts.
			set.enumKind = enumInt
		}
	}
	set.build()
	return node
}

// joinExpected is pydantic's expected_repr: "'a', 'b' or 'c'".
func joinExpected(reprs []string) string {
	if len(reprs) == 1 {
		return reprs[0]
	}
	return strings.Join(reprs[:len(reprs)-1], ", ") + " or " + reprs[len(reprs)-1]
}
