package spec

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/jsonscan"
)

// A Checker proves JSON text valid against one schema without decoding it
// into Go values: the fast path under bulk loads, where decoding each
// record into a map for Validate costs more than everything else. It is
// conservative: false means "not proven", and the caller then decides with
// Validate, which also says why. It accepts only what Validate accepts, in
// a form encoding/json reads back unchanged (integers as plain digits within
// ±2^53, numbers without exponents, strings in valid UTF-8, each object
// member once); anything else is left to Validate.
type Checker struct{ root *cnode }

// cnode is one compiled schema.
type cnode struct {
	anyType  bool  // no type keyword: an empty schema, any value
	types    uint8 // bits of the types allowed besides null
	nullable bool
	anyOf    []*cnode
	format   string // "", "date" or "date-time"
	enum     []string
	minLen   uint64
	maxLen   *uint64
	props    []prop // few: a linear search beats hashing the name
	required []string
	noExtra  bool   // additionalProperties: false
	extra    *cnode // additionalProperties: a schema
	items    *cnode
}

const (
	bitBoolean uint8 = 1 << iota
	bitInteger
	bitNumber
	bitString
	bitArray
	bitObject
)

// prop is a compiled property, with its name for callers.
type prop struct {
	name string
	node *cnode
}

var typeBits = map[string]uint8{
	openapi3.TypeBoolean: bitBoolean, openapi3.TypeInteger: bitInteger, openapi3.TypeNumber: bitNumber,
	openapi3.TypeString: bitString, openapi3.TypeArray: bitArray, openapi3.TypeObject: bitObject,
}

// Checker compiles schema, or returns nil when it uses a keyword the
// checker does not know (then Validate alone can tell).
func (s *Spec) Checker(schema *openapi3.Schema) *Checker {
	if schema == nil || s.mode(schema) == mode2020 {
		return nil
	}
	root := compile(schema, map[*openapi3.Schema]*cnode{})
	if root == nil {
		return nil
	}
	return &Checker{root: root}
}

func compile(sc *openapi3.Schema, seen map[*openapi3.Schema]*cnode) *cnode {
	if n, ok := seen[sc]; ok {
		return n // a recursive schema: compiled (or being compiled) already
	}
	if sc.Always != nil || len(sc.OneOf) > 0 || len(sc.AllOf) > 0 || sc.Not != nil ||
		sc.UniqueItems || sc.ExclusiveMin.IsSet() || sc.ExclusiveMax.IsSet() ||
		sc.ReadOnly || sc.WriteOnly || sc.AllowEmptyValue ||
		sc.Min != nil || sc.Max != nil || sc.MultipleOf != nil || sc.Pattern != "" ||
		sc.MinItems != 0 || sc.MaxItems != nil || sc.MinProps != 0 || sc.MaxProps != nil ||
		sc.Discriminator != nil || sc.Const != nil || len(sc.PrefixItems) > 0 || sc.Contains != nil ||
		sc.MinContains != nil || sc.MaxContains != nil || len(sc.PatternProperties) > 0 ||
		len(sc.DependentSchemas) > 0 || sc.PropertyNames != nil ||
		sc.UnevaluatedItems.Has != nil || sc.UnevaluatedItems.Schema != nil ||
		sc.UnevaluatedProperties.Has != nil || sc.UnevaluatedProperties.Schema != nil ||
		sc.If != nil || sc.Then != nil || sc.Else != nil || len(sc.DependentRequired) > 0 ||
		(sc.Format != "" && sc.Format != "date" && sc.Format != "date-time") {
		return nil
	}
	n := &cnode{nullable: sc.Nullable, format: sc.Format, minLen: sc.MinLength, maxLen: sc.MaxLength, required: sc.Required}
	seen[sc] = n
	n.anyType = len(sc.Type.Slice()) == 0
	for _, t := range sc.Type.Slice() {
		if t == openapi3.TypeNull {
			n.nullable = true
			continue
		}
		bit, ok := typeBits[t]
		if !ok {
			return nil
		}
		n.types |= bit
	}
	for _, e := range sc.Enum {
		s, ok := e.(string)
		if !ok {
			return nil
		}
		n.enum = append(n.enum, s)
	}
	own := n.types != 0 || n.format != "" || n.enum != nil || n.minLen != 0 || n.maxLen != nil ||
		len(sc.Properties) > 0 || len(sc.Required) > 0 || sc.Items != nil ||
		sc.AdditionalProperties.Has != nil || sc.AdditionalProperties.Schema != nil
	if len(sc.AnyOf) > 0 {
		if own {
			return nil // anyOf beside other keywords: left to Validate
		}
		for _, alt := range sc.AnyOf {
			if alt.Value == nil {
				return nil
			}
			c := compile(alt.Value, seen)
			if c == nil {
				return nil
			}
			n.anyOf = append(n.anyOf, c)
		}
		return n
	}
	if n.anyType && own {
		return nil // constraints without a type apply by the value's type: left to Validate
	}
	if len(sc.Properties) > 0 {
		for name, p := range sc.Properties {
			if p.Value == nil {
				return nil
			}
			c := compile(p.Value, seen)
			if c == nil {
				return nil
			}
			n.props = append(n.props, prop{name, c})
		}
	}
	if has := sc.AdditionalProperties.Has; has != nil && !*has {
		n.noExtra = true
	}
	if ap := sc.AdditionalProperties.Schema; ap != nil {
		if ap.Value == nil {
			return nil
		}
		if n.extra = compile(ap.Value, seen); n.extra == nil {
			return nil
		}
	}
	if sc.Items != nil {
		if sc.Items.Value == nil {
			return nil
		}
		if n.items = compile(sc.Items.Value, seen); n.items == nil {
			return nil
		}
	}
	return n
}

// Valid reports whether raw is proven to be one value the schema accepts.
func (c *Checker) Valid(raw []byte) bool {
	i := jsonscan.Space(raw, 0)
	end := c.root.check(raw, i)
	return end >= 0 && jsonscan.Space(raw, end) == len(raw)
}

// Object proves raw, a JSON object, valid and calls member with each of
// its members in order: the name, and the value's text. member may refuse
// (false), and so does Object then.
func (c *Checker) Object(raw []byte, member func(name string, value []byte) bool) bool {
	i := jsonscan.Space(raw, 0)
	if i >= len(raw) || raw[i] != '{' || c.root.types&bitObject == 0 {
		return false
	}
	end := c.root.object(raw, i, member)
	return end >= 0 && jsonscan.Space(raw, end) == len(raw)
}

// check proves the value at data[i] valid and returns its end, or -1.
func (n *cnode) check(data []byte, i int) int {
	if i >= len(data) {
		return -1
	}
	if n.anyOf != nil {
		if data[i] == 'n' && n.nullable {
			return nullEnd(data, i)
		}
		for _, alt := range n.anyOf {
			if end := alt.check(data, i); end >= 0 {
				return end
			}
		}
		return -1
	}
	switch c := data[i]; {
	case c == 'n':
		if !n.nullable {
			return -1
		}
		return nullEnd(data, i)
	case n.anyType:
		return jsonscan.End(data, i) // the empty schema: any value
	case c == '"':
		if n.types&bitString == 0 {
			return -1
		}
		return n.str(data, i)
	case c == 't' || c == 'f':
		if n.types&bitBoolean == 0 {
			return -1
		}
		return jsonscan.End(data, i)
	case c == '-' || c >= '0' && c <= '9':
		return n.number(data, i)
	case c == '[':
		if n.types&bitArray == 0 {
			return -1
		}
		return jsonscan.Elements(data, i, func(v int) int {
			if n.items == nil {
				return jsonscan.End(data, v)
			}
			return n.items.check(data, v)
		})
	case c == '{':
		if n.types&bitObject == 0 {
			return -1
		}
		return n.object(data, i, nil)
	}
	return -1
}

func nullEnd(data []byte, i int) int {
	if len(data)-i >= 4 && string(data[i:i+4]) == "null" {
		return i + 4
	}
	return -1
}

func (n *cnode) str(data []byte, i int) int {
	end := jsonscan.End(data, i)
	if end < 0 {
		return -1
	}
	if n.format == "" && n.enum == nil && n.minLen == 0 && n.maxLen == nil {
		return end
	}
	raw := data[i:end]
	if n.format == "date-time" && n.enum == nil && n.minLen <= 20 && (n.maxLen == nil || *n.maxLen >= 20) &&
		CanonicalDateTime(raw[1:len(raw)-1]) {
		return end // the common case, without decoding the string
	}
	s, ok := jsonscan.Str(raw, slices.Contains(raw, '\\'))
	if !ok {
		return -1
	}
	if n.enum != nil && !slices.Contains(n.enum, s) {
		return -1
	}
	if runes := uint64(utf8.RuneCountInString(s)); runes < n.minLen || n.maxLen != nil && runes > *n.maxLen {
		return -1
	}
	switch n.format {
	case "date":
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return -1
		}
	case "date-time":
		if _, _, err := ParseFastAPIDateTime(s); err != nil {
			return -1
		}
	}
	return end
}

// maxExact is the largest integer every float64 holds exactly: beyond it a
// decoded value may differ from the text.
const maxExact = 1 << 53

func (n *cnode) number(data []byte, i int) int {
	if n.types&(bitInteger|bitNumber) == 0 || n.enum != nil {
		return -1
	}
	end := jsonscan.End(data, i)
	if end < 0 {
		return -1
	}
	lit := data[i:end]
	if slices.ContainsFunc(lit, func(c byte) bool { return c == 'e' || c == 'E' }) {
		return -1
	}
	if !slices.Contains(lit, '.') {
		if len(lit) > 17 {
			return -1
		}
		v, err := strconv.ParseInt(string(lit), 10, 64)
		if err != nil || v > maxExact || v < -maxExact {
			return -1
		}
		return end // an integer is also a number
	}
	if n.types&bitNumber == 0 || len(lit) > 16 {
		return -1 // a fraction, where only an integer will do (or too many digits to be exact)
	}
	if f, err := strconv.ParseFloat(string(lit), 64); err != nil || math.IsInf(f, 0) {
		return -1
	}
	return end
}

func (n *cnode) prop(name []byte) (prop, bool) {
	for _, p := range n.props {
		if p.name == string(name) {
			return p, true
		}
	}
	return prop{}, false
}

// maxMembers bounds the members of an object the checker proves; a bigger
// one is left to Validate.
const maxMembers = 64

// object checks the object at data[i], calling member (when not nil) with
// each checked member.
func (n *cnode) object(data []byte, i int, member func(string, []byte) bool) int {
	var buf [16][]byte
	seen := buf[:0] // member names as written
	end := jsonscan.Members(data, i, func(rawName []byte, escaped bool, v int) int {
		name := rawName[1 : len(rawName)-1]
		if escaped || len(seen) == maxMembers || slices.ContainsFunc(seen, func(s []byte) bool { return bytes.Equal(s, name) }) {
			// An escaped name, a repeated member (encoding/json keeps the
			// last, so Validate sees only it), or too many to look for
			// repeats: left to Validate.
			return -1
		}
		seen = append(seen, name)
		var vEnd int
		p, known := n.prop(name)
		switch {
		case known:
			vEnd = p.node.check(data, v)
		case n.noExtra:
			return -1
		case n.extra != nil:
			vEnd = n.extra.check(data, v)
		default:
			vEnd = jsonscan.End(data, v)
		}
		if vEnd < 0 {
			return -1
		}
		if member != nil {
			if !known {
				p.name = string(name)
			}
			if !member(p.name, data[v:vEnd]) {
				return -1
			}
		}
		return vEnd
	})
	if end < 0 {
		return -1
	}
	for _, r := range n.required {
		if !slices.ContainsFunc(seen, func(s []byte) bool { return string(s) == r }) {
			return -1
		}
	}
	return end
}
