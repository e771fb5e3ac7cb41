package replay

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"
)

// kAny is every kind: what a schema that says nothing of its value (`{}`,
// FastAPI's Any) allows.
const kAny = kNull | kBool | kNumber | kString | kObject | kArray | kInteger

// Allowed is what a contract's response schema allows at each shape path
// of an answer (the paths of ShapeOf: "title", "[]", "items[].cast[]",
// "reactions{}" the values of a dict): a value of an allowed kind there is
// a value, not a change of shape. A path the schema does not reach (a
// field it does not declare, a part cut by the budgets) is not known: its
// changes are reported as without a contract.
type Allowed struct {
	kinds map[string]kinds
	// free are the paths the schema says nothing of (`{}`, Any, a
	// free-form dict's values): any kind there and below.
	free map[string]bool
}

// AllowedBy reads what sch allows at each path within a budget of
// schemas visited and DefaultMaxDepth, like Dicts: allOf narrows, anyOf
// and oneOf widen, nullable, a type array and {type: null} allow null, a
// number allows an integer, enum and const allow their values' kinds,
// properties, items and additionalProperties reach the paths below. A nil
// sch (an answer declared with no schema) allows anything.
func AllowedBy(sch *openapi3.SchemaRef) *Allowed {
	a := &Allowed{kinds: map[string]kinds{}, free: map[string]bool{}}
	w := &allowWalker{a: a, budget: maxDictSchemas}
	w.add("", w.walk("", sch, 0))
	return a
}

type allowWalker struct {
	a      *Allowed
	budget int
}

// add records that k is allowed at path (alongside what other branches of
// a union allow there); every kind is a schema that says nothing there.
func (w *allowWalker) add(path string, k kinds) {
	w.a.kinds[path] |= k
	if k == kAny {
		w.a.free[path] = true
	}
}

// walk is the kinds ref allows at path (kAny: it says nothing of them); it
// records the paths below. Past the budgets it allows nothing: nothing is
// then excused.
func (w *allowWalker) walk(path string, ref *openapi3.SchemaRef, depth int) kinds {
	if w.budget--; w.budget < 0 || depth > DefaultMaxDepth {
		return 0
	}
	if ref == nil || ref.Value == nil {
		return kAny
	}
	s := ref.Value
	k, said := kAny, false
	if s.Type != nil && len(s.Type.Slice()) > 0 {
		k, said = typeKinds(s.Type.Slice()), true
	}
	if s.Const != nil {
		k, said = k&valueKinds([]any{s.Const}), true
	}
	if len(s.Enum) > 0 {
		k, said = k&valueKinds(s.Enum), true
	}
	for _, union := range []openapi3.SchemaRefs{s.AnyOf, s.OneOf} {
		if len(union) == 0 {
			continue
		}
		var u kinds
		for _, e := range union {
			if w.budget < 0 {
				break // the rest is past the budget: allowed nothing
			}
			u |= w.walk(path, e, depth+1)
		}
		k, said = k&u, true
	}
	for _, e := range s.AllOf {
		if w.budget < 0 {
			k, said = 0, true
			break
		}
		if m := w.walk(path, e, depth+1); m != kAny {
			k, said = k&m, true
		}
	}
	ap := s.AdditionalProperties
	if !said && (len(s.Properties) > 0 || s.Items != nil || ap.Schema != nil) {
		// No type, but fields or items: what a model or a list is.
		k, said = 0, true
		if len(s.Properties) > 0 || ap.Schema != nil {
			k |= kObject
		}
		if s.Items != nil {
			k |= kArray
		}
	}
	if !said {
		return kAny
	}
	if s.Nullable {
		k |= kNull // 3.0's Optional; a 3.1 document says {type: null}
	}
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		if w.budget < 0 {
			break
		}
		child := fieldPath(path, name)
		w.add(child, w.walk(child, s.Properties[name], depth+1))
	}
	if s.Items != nil {
		w.add(path+"[]", w.walk(path+"[]", s.Items, depth+1))
	}
	// The values of a dict (Dicts' "{}"), or the fields an object declares
	// beyond its properties: additionalProperties, or any for an object
	// of no properties (dict, dict[str, Any]).
	switch {
	case ap.Schema != nil:
		w.add(path+"{}", w.walk(path+"{}", ap.Schema, depth+1))
	case ap.Has != nil && *ap.Has, ap.Has == nil && len(s.Properties) == 0 && s.Type != nil && s.Type.Includes("object"):
		w.add(path+"{}", kAny)
	}
	return k
}

// typeKinds are the kinds of JSON Schema type names: a number may be
// written as an integer.
func typeKinds(types []string) kinds {
	var k kinds
	for _, t := range types {
		switch t {
		case "null":
			k |= kNull
		case "boolean":
			k |= kBool
		case "integer":
			k |= kInteger
		case "number":
			k |= kNumber | kInteger
		case "string":
			k |= kString
		case "object":
			k |= kObject
		case "array":
			k |= kArray
		default:
			return kAny // a type this reading does not know: no claim
		}
	}
	return k
}

// valueKinds are the kinds of the values of an enum or a const.
func valueKinds(values []any) kinds {
	var k kinds
	for _, v := range values {
		switch v.(type) {
		case nil:
			k |= kNull
		case bool:
			k |= kBool
		case string:
			k |= kString
		case float64, float32, int, int64, json.Number:
			k |= kNumber | kInteger
		case map[string]any:
			k |= kObject
		case []any:
			k |= kArray
		default:
			return kAny
		}
	}
	return k
}

// At is the kinds allowed at path, a shape path of ShapeOf (with or
// without the dicts): ok false when the schema does not reach it.
func (a *Allowed) At(path string) (k kinds, ok bool) {
	if a == nil {
		return 0, false
	}
	at, free, ok := a.resolve(path)
	switch {
	case !ok:
		return 0, false
	case free:
		return kAny, true
	}
	return a.kinds[at], true
}

// resolve is the path of a.kinds that path is, and whether the schema
// says nothing there or above (free): a field of an object the schema
// reads as a dict, or beyond its properties, is its "{}".
func (a *Allowed) resolve(path string) (at string, free, ok bool) {
	if path == "" {
		_, ok := a.kinds[""]
		return "", a.free[""], ok
	}
	parent, item, _ := parentOf(path)
	pat, pfree, pok := a.resolve(parent)
	switch {
	case !pok:
		return "", false, false
	case pfree:
		return path, true, true
	}
	cand := pat + path[len(parent):]
	if _, known := a.kinds[cand]; !known && !item {
		cand = pat + "{}"
	}
	if _, known := a.kinds[cand]; !known {
		return "", false, false
	}
	return cand, a.free[cand], true
}
