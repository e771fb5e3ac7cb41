package spec

import (
	"encoding/json"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/jsonscan"
)

// decodeScanned reads a document scanJSON took (compact, no repeated
// names, even by case) into kin-openapi's model as (*openapi3.T).UnmarshalJSON
// does, less its waste at the top: kin-openapi v0.152.0 decodes every object
// twice (into its struct, then the whole of it into a map for its
// extensions), so the top of the document, its paths and its components
// are each decoded whole into maps that are then thrown away, and its Paths
// encodes every path item back to JSON to decode it again. Here the paths
// and the schemas are cut from the text and each path item and schema is
// handed to kin-openapi's own decoder; the rest (info, servers, the
// extensions, the other components) is decoded by kin-openapi as it is,
// from the document without them. false: not read (kin-openapi refused
// something), left to the loader's full route.
func decodeScanned(data []byte) (*openapi3.T, bool) {
	d := &kinDecoder{}
	var paths, components []byte
	// "openapi" and "swagger" are never cut (no value starts with 0), but
	// named only so that a name alike but for case, which encoding/json
	// would read as the version and the tree's route would not, is
	// refused here.
	reduced := d.cutMembers(data, map[string]byte{"paths": '{', "components": '{', "openapi": 0, "swagger": 0}, false, func(name string, value []byte) {
		if name == "paths" {
			paths = value
		} else {
			components = value
		}
	})
	doc := &openapi3.T{}
	if reduced == nil || doc.UnmarshalJSON(reduced) != nil {
		return nil, false
	}
	if paths != nil {
		p, ok := d.decodePaths(paths)
		if !ok {
			return nil, false
		}
		doc.Paths = p
	}
	if components != nil {
		c, ok := d.decodeComponents(components)
		if !ok {
			return nil, false
		}
		doc.Components = c
	}
	if err := openapi3.NewLoader().ResolveRefsIn(doc, nil); err != nil {
		return nil, false
	}
	return doc, true
}

// kinDecoder holds what decodeScanned reuses from one piece to the next.
type kinDecoder struct {
	// scratch holds the object cutMembers returns, valid until its next
	// call: each piece is decoded before the pieces cut from it.
	scratch []byte
}

// cutMembers returns the object obj with the value of each member named
// in cut (with the kind of value it says: '{' an object, '[' an array)
// replaced by an empty one, calling found with each; nil when obj is not
// an object, or when another of its names is one of cut's but for case,
// which encoding/json would read into the same field, or when noRef is
// set and obj has a member encoding/json would read as a $ref.
func (d *kinDecoder) cutMembers(obj []byte, cut map[string]byte, noRef bool, found func(name string, value []byte)) []byte {
	var out []byte
	last := 0
	end := jsonscan.Members(obj, 0, func(raw []byte, escaped bool, v int) int {
		vEnd := jsonscan.End(obj, v)
		name, ok := jsonscan.Str(raw, escaped)
		if vEnd < 0 || !ok || noRef && strings.EqualFold(name, "$ref") {
			return -1
		}
		kind, named := cut[name]
		if !named {
			for c := range cut {
				if strings.EqualFold(c, name) {
					return -1
				}
			}
			return vEnd
		}
		if obj[v] != kind {
			return vEnd
		}
		found(name, obj[v:vEnd])
		if out == nil {
			out = d.scratch[:0]
		}
		out = append(out, obj[last:v]...)
		if kind == '{' {
			out = append(out, "{}"...)
		} else {
			out = append(out, "[]"...)
		}
		last = vEnd
		return vEnd
	})
	if end < 0 {
		return nil
	}
	if out == nil {
		return obj
	}
	out = append(out, obj[last:]...)
	d.scratch = out
	return out
}

// decodePaths is (*openapi3.Paths).UnmarshalJSON without its round trip
// through maps: every "x-" member is an extension (decoded into Go
// values), every other member a path item decoded by kin-openapi.
func (d *kinDecoder) decodePaths(obj []byte) (*openapi3.Paths, bool) {
	p := openapi3.NewPathsWithCapacity(0)
	p.Extensions = map[string]any{}
	type member struct {
		name  string
		value []byte
		item  *openapi3.PathItem
	}
	var items []member
	end := jsonscan.Members(obj, 0, func(raw []byte, escaped bool, v int) int {
		vEnd := jsonscan.End(obj, v)
		name, okName := jsonscan.Str(raw, escaped)
		if vEnd < 0 || !okName {
			return -1
		}
		value := obj[v:vEnd]
		if strings.HasPrefix(name, "x-") {
			var x any
			if json.Unmarshal(value, &x) != nil {
				return -1
			}
			p.Extensions[name] = x
			return vEnd
		}
		if !sameByCase(value) {
			// Names alike but for case: the winner is the one
			// kin-openapi reads last, in the order of its round trip
			// through a map (sorted).
			var x any
			if json.Unmarshal(value, &x) != nil {
				return -1
			}
			var err error
			if value, err = json.Marshal(x); err != nil {
				return -1
			}
		}
		items = append(items, member{name: name, value: value})
		return vEnd
	})
	if end < 0 {
		return p, false
	}
	// The path items are independent: a large document's are decoded on
	// every core, each worker with a decoder (scratch) of its own. Start-up
	// on a document of thousands of operations is mostly this decoding.
	workers := min(runtime.GOMAXPROCS(0), 8, len(items)/parallelPathItems)
	var failed atomic.Bool
	decode := func(dec *kinDecoder, i int) {
		item, ok := dec.decodePathItem(items[i].value)
		if !ok {
			failed.Store(true)
		}
		items[i].item = item
	}
	if workers < 2 {
		for i := range items {
			if decode(d, i); failed.Load() {
				return p, false
			}
		}
	} else {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				dec := &kinDecoder{}
				for i := int(next.Add(1) - 1); i < len(items) && !failed.Load(); i = int(next.Add(1) - 1) {
					decode(dec, i)
				}
			})
		}
		wg.Wait()
		if failed.Load() {
			return p, false
		}
	}
	for _, m := range items {
		p.Set(m.name, m.item)
	}
	return p, true
}

// parallelPathItems is how many path items make a worker's share worth
// its goroutine.
const parallelPathItems = 32

// methods are the operations of a path item decodePathItem decodes itself.
var methods = map[string]byte{"get": '{', "put": '{', "post": '{', "delete": '{', "options": '{', "head": '{',
	"patch": '{', "trace": '{', "connect": '{', "query": '{'}

// decodePathItem is (*openapi3.PathItem).UnmarshalJSON of a path item
// without a $ref, its operations decoded by decodeOperation; anything else
// is kin-openapi's.
func (d *kinDecoder) decodePathItem(value []byte) (*openapi3.PathItem, bool) {
	item := &openapi3.PathItem{}
	if value[0] != '{' {
		return item, item.UnmarshalJSON(value) == nil
	}
	ops := map[string][]byte{}
	reduced := d.cutMembers(value, methods, true, func(name string, v []byte) { ops[name] = v })
	if reduced == nil {
		return item, item.UnmarshalJSON(value) == nil
	}
	if item.UnmarshalJSON(reduced) != nil {
		return nil, false
	}
	for method, text := range ops {
		op, ok := d.decodeOperation(text)
		if !ok {
			return nil, false
		}
		item.SetOperation(strings.ToUpper(method), op)
	}
	return item, true
}

// decodeOperation is (*openapi3.Operation).UnmarshalJSON, its responses
// decoded one by one as (*openapi3.Responses).UnmarshalJSON decodes them,
// less its round trip through maps.
func (d *kinDecoder) decodeOperation(value []byte) (*openapi3.Operation, bool) {
	op := &openapi3.Operation{}
	var responses []byte
	reduced := d.cutMembers(value, map[string]byte{"responses": '{'}, false, func(_ string, v []byte) { responses = v })
	if reduced == nil {
		return op, op.UnmarshalJSON(value) == nil
	}
	if op.UnmarshalJSON(reduced) != nil {
		return nil, false
	}
	if responses == nil {
		return op, true
	}
	rs := openapi3.NewResponsesWithCapacity(0)
	rs.Extensions = map[string]any{}
	end := jsonscan.Members(responses, 0, func(raw []byte, escaped bool, v int) int {
		vEnd := jsonscan.End(responses, v)
		name, okName := jsonscan.Str(raw, escaped)
		if vEnd < 0 || !okName {
			return -1
		}
		text := responses[v:vEnd]
		if strings.HasPrefix(name, "x-") {
			var x any
			if json.Unmarshal(text, &x) != nil {
				return -1
			}
			rs.Extensions[name] = x
			return vEnd
		}
		r := &openapi3.ResponseRef{}
		if r.UnmarshalJSON(text) != nil {
			return -1
		}
		rs.Set(name, r)
		return vEnd
	})
	if end < 0 {
		return nil, false
	}
	op.Responses = rs
	return op, true
}

// decodeComponents is (*openapi3.Components).UnmarshalJSON, its schemas
// decoded one by one as encoding/json decodes a map of them.
func (d *kinDecoder) decodeComponents(obj []byte) (*openapi3.Components, bool) {
	var schemas []byte
	reduced := d.cutMembers(obj, map[string]byte{"schemas": '{'}, false, func(_ string, value []byte) { schemas = value })
	c := &openapi3.Components{}
	if reduced == nil || c.UnmarshalJSON(reduced) != nil {
		return nil, false
	}
	if schemas == nil {
		return c, true
	}
	c.Schemas = openapi3.Schemas{}
	end := jsonscan.Members(schemas, 0, func(raw []byte, escaped bool, v int) int {
		vEnd := jsonscan.End(schemas, v)
		name, okName := jsonscan.Str(raw, escaped)
		if vEnd < 0 || !okName {
			return -1
		}
		value := schemas[v:vEnd]
		if string(value) == "null" {
			c.Schemas[name] = nil // as encoding/json sets a pointer
			return vEnd
		}
		ref, ok := d.decodeSchemaRef(value)
		if !ok {
			return -1
		}
		c.Schemas[name] = ref
		return vEnd
	})
	return c, end >= 0
}

// subschemas are the members of a schema decodeSchemaRef decodes itself,
// with the kind of value each takes.
var subschemas = map[string]byte{"properties": '{', "items": '{', "anyOf": '[', "allOf": '[', "oneOf": '['}

// decodeSchemaRef is (*openapi3.SchemaRef).UnmarshalJSON of a schema that
// is not a reference, its properties, items and alternatives decoded the
// same way, one by one: kin-openapi decodes each schema whole into a map
// for its extensions, so a schema nested n deep was decoded n times over.
// A reference, and anything else, is kin-openapi's.
func (d *kinDecoder) decodeSchemaRef(value []byte) (*openapi3.SchemaRef, bool) {
	ref := &openapi3.SchemaRef{}
	if value[0] != '{' {
		return ref, ref.UnmarshalJSON(value) == nil
	}
	var props, items, anyOf, allOf, oneOf []byte
	reduced := d.cutMembers(value, subschemas, true, func(name string, v []byte) {
		switch name {
		case "properties":
			props = v
		case "items":
			items = v
		case "anyOf":
			anyOf = v
		case "allOf":
			allOf = v
		case "oneOf":
			oneOf = v
		}
	})
	if reduced == nil {
		return ref, ref.UnmarshalJSON(value) == nil
	}
	sc := &openapi3.Schema{}
	if sc.UnmarshalJSON(reduced) != nil {
		return nil, false
	}
	ok := true
	if props != nil {
		sc.Properties = openapi3.Schemas{}
		ok = jsonscan.Members(props, 0, func(raw []byte, escaped bool, v int) int {
			vEnd := jsonscan.End(props, v)
			name, okName := jsonscan.Str(raw, escaped)
			if vEnd < 0 || !okName {
				return -1
			}
			if string(props[v:vEnd]) == "null" {
				sc.Properties[name] = nil
				return vEnd
			}
			p, okP := d.decodeSchemaRef(props[v:vEnd])
			if !okP {
				return -1
			}
			sc.Properties[name] = p
			return vEnd
		}) >= 0
	}
	if ok && items != nil {
		sc.Items, ok = d.decodeSchemaRef(items)
	}
	for _, list := range []struct {
		text []byte
		to   *openapi3.SchemaRefs
	}{{anyOf, &sc.AnyOf}, {allOf, &sc.AllOf}, {oneOf, &sc.OneOf}} {
		if !ok || list.text == nil {
			continue
		}
		refs := openapi3.SchemaRefs{}
		ok = jsonscan.Elements(list.text, 0, func(v int) int {
			vEnd := jsonscan.End(list.text, v)
			if vEnd < 0 {
				return -1
			}
			if string(list.text[v:vEnd]) == "null" {
				refs = append(refs, nil)
				return vEnd
			}
			r, okR := d.decodeSchemaRef(list.text[v:vEnd])
			if !okR {
				return -1
			}
			refs = append(refs, r)
			return vEnd
		}) >= 0
		*list.to = refs
	}
	if !ok {
		return nil, false
	}
	ref.Value = sc
	return ref, true
}
