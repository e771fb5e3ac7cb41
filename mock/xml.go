package mock

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"path"
	"slices"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/spec"
)

// maxXMLDepth bounds the XML rendering of a value: a generated value is
// bounded already, this guards against a schema that nests itself.
const maxXMLDepth = 32

// renderXML writes value (JSON) as XML for schema, as OpenAPI's xml
// object says where it is simple: an element's name (xml.name, else the
// property's or the component's name), a property as an attribute
// (xml.attribute), an array wrapped in an element of its own
// (xml.wrapped) or its items repeated under the property's name.
func renderXML(sp *spec.Spec, ref *openapi3.SchemaRef, value []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(value))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	root := "root"
	if ref != nil && ref.Ref != "" {
		root = path.Base(ref.Ref)
	}
	if x := xmlOf(ref); x != nil && x.Name != "" {
		root = x.Name
	}
	writeXMLElement(&b, sp, root, ref, v, 0)
	return b.Bytes()
}

func xmlOf(ref *openapi3.SchemaRef) *openapi3.XML {
	if ref == nil || ref.Value == nil {
		return nil
	}
	return ref.Value.XML
}

func writeXMLElement(b *bytes.Buffer, sp *spec.Spec, name string, ref *openapi3.SchemaRef, v any, depth int) {
	name = xmlName(name)
	b.WriteByte('<')
	b.WriteString(name)
	obj, isObj := v.(map[string]any)
	var s *openapi3.Schema
	if ref != nil {
		s = ref.Value
	}
	var children []string
	if isObj {
		children = propertyOrder(sp, ref, obj)
		for _, k := range children {
			if p := property(s, k); p != nil && p.Value != nil && p.Value.XML != nil && p.Value.XML.Attribute {
				if !isScalar(obj[k]) {
					continue
				}
				an := k
				if p.Value.XML.Name != "" {
					an = p.Value.XML.Name
				}
				b.WriteByte(' ')
				b.WriteString(xmlName(an))
				b.WriteString(`="`)
				xml.EscapeText(b, []byte(xmlText(obj[k])))
				b.WriteByte('"')
			}
		}
	}
	b.WriteByte('>')
	switch x := v.(type) {
	case map[string]any:
		if depth >= maxXMLDepth {
			break
		}
		for _, k := range children {
			p := property(s, k)
			if p != nil && p.Value != nil && p.Value.XML != nil && p.Value.XML.Attribute {
				if isScalar(x[k]) {
					continue
				}
			}
			child := k
			if xo := xmlOf(p); xo != nil && xo.Name != "" {
				child = xo.Name
			}
			if list, ok := x[k].([]any); ok {
				writeXMLList(b, sp, child, p, list, depth+1)
				continue
			}
			writeXMLElement(b, sp, child, p, x[k], depth+1)
		}
	case []any:
		writeXMLList(b, sp, name, ref, x, depth+1)
	case nil:
	default:
		xml.EscapeText(b, []byte(xmlText(x)))
	}
	b.WriteString("</")
	b.WriteString(name)
	b.WriteByte('>')
}

// writeXMLList writes an array property: wrapped, one element named for
// the property holding the items; else the items, each named for the
// items' xml.name or the property.
func writeXMLList(b *bytes.Buffer, sp *spec.Spec, name string, ref *openapi3.SchemaRef, list []any, depth int) {
	var items *openapi3.SchemaRef
	wrapped := false
	if ref != nil && ref.Value != nil {
		items = ref.Value.Items
		wrapped = ref.Value.XML != nil && ref.Value.XML.Wrapped
	}
	itemName := name
	if items != nil && items.Ref != "" && wrapped {
		itemName = path.Base(items.Ref)
	}
	if xo := xmlOf(items); xo != nil && xo.Name != "" {
		itemName = xo.Name
	}
	if wrapped && depth < maxXMLDepth {
		b.WriteByte('<')
		b.WriteString(xmlName(name))
		b.WriteByte('>')
	}
	for _, it := range list {
		if depth >= maxXMLDepth {
			break
		}
		writeXMLElement(b, sp, itemName, items, it, depth+1)
	}
	if wrapped && depth < maxXMLDepth {
		b.WriteString("</")
		b.WriteString(xmlName(name))
		b.WriteByte('>')
	}
}

// propertyOrder is obj's keys: the schema's properties as written, then
// the rest sorted.
func propertyOrder(sp *spec.Spec, ref *openapi3.SchemaRef, obj map[string]any) []string {
	var out []string
	if sp != nil {
		for _, k := range sp.PropertyOrder(ref) {
			if _, ok := obj[k]; ok {
				out = append(out, k)
			}
		}
	}
	var rest []string
	for k := range obj {
		if !slices.Contains(out, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

func isScalar(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return false
	}
	return true
}

func property(s *openapi3.Schema, name string) *openapi3.SchemaRef {
	if s == nil {
		return nil
	}
	return s.Properties[name]
}

func xmlText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	case nil:
		return ""
	}
	raw, _ := json.Marshal(v)
	return string(raw)
}

// xmlName is name made a valid XML name: a character no name may hold
// becomes _, and a name that cannot start as it does is led by _.
func xmlName(name string) string {
	if name == "" {
		return "item"
	}
	out := []rune(name)
	prefix := ""
	for i, r := range out {
		start := r == '_' || r == ':' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= 0xC0
		later := start || r == '-' || r == '.' || r >= '0' && r <= '9'
		switch {
		case i == 0 && !start && later:
			prefix = "_"
		case i == 0 && !start, i > 0 && !later:
			out[i] = '_'
		}
	}
	return prefix + string(out)
}
