package spec

import (
	"bytes"
	"encoding/json"

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
	var paths, components []byte
	reduced := cutMembers(data, func(name string, value []byte) bool {
		switch name {
		case "paths":
			paths = value
		case "components":
			components = value
		default:
			return false
		}
		return true
	})
	doc := &openapi3.T{}
	if reduced == nil || doc.UnmarshalJSON(reduced) != nil {
		return nil, false
	}
	if paths != nil {
		p, ok := decodePaths(paths)
		if !ok {
			return nil, false
		}
		doc.Paths = p
	}
	if components != nil {
		c, ok := decodeComponents(components)
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

// cutMembers returns the object obj with the value of each member cut
// returns true for replaced by {} (a member whose value is not an object is
// not cut), or nil when obj is not an object.
func cutMembers(obj []byte, cut func(name string, value []byte) bool) []byte {
	var out []byte
	last := 0
	end := jsonscan.Members(obj, 0, func(raw []byte, escaped bool, v int) int {
		vEnd := jsonscan.End(obj, v)
		if vEnd < 0 || escaped || obj[v] != '{' {
			return vEnd
		}
		if cut(string(raw[1:len(raw)-1]), obj[v:vEnd]) {
			if out == nil {
				out = make([]byte, 0, 256)
			}
			out = append(out, obj[last:v]...)
			out = append(out, "{}"...)
			last = vEnd
		}
		return vEnd
	})
	if end < 0 {
		return nil
	}
	if out == nil {
		return obj
	}
	return append(out, obj[last:]...)
}

// decodePaths is (*openapi3.Paths).UnmarshalJSON without its round trip
// through maps: every "x-" member is an extension (decoded into Go
// values), every other member a path item decoded by kin-openapi.
func decodePaths(obj []byte) (*openapi3.Paths, bool) {
	p := openapi3.NewPathsWithCapacity(0)
	p.Extensions = map[string]any{}
	ok := true
	end := jsonscan.Members(obj, 0, func(raw []byte, escaped bool, v int) int {
		vEnd := jsonscan.End(obj, v)
		name, okName := jsonscan.Str(raw, escaped)
		if vEnd < 0 || !okName {
			return -1
		}
		value := obj[v:vEnd]
		if bytes.HasPrefix([]byte(name), []byte("x-")) {
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
		item := &openapi3.PathItem{}
		if item.UnmarshalJSON(value) != nil {
			ok = false
			return -1
		}
		p.Set(name, item)
		return vEnd
	})
	return p, ok && end >= 0
}

// decodeComponents is (*openapi3.Components).UnmarshalJSON, its schemas
// decoded one by one as encoding/json decodes a map of them.
func decodeComponents(obj []byte) (*openapi3.Components, bool) {
	var schemas []byte
	reduced := cutMembers(obj, func(name string, value []byte) bool {
		if name == "schemas" {
			schemas = value
			return true
		}
		return false
	})
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
		ref := &openapi3.SchemaRef{}
		if ref.UnmarshalJSON(value) != nil {
			return -1
		}
		c.Schemas[name] = ref
		return vEnd
	})
	return c, end >= 0
}
