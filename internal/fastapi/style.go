package fastapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/spec"
)

// The parameters of a document that is not FastAPI's are read as OpenAPI
// serializes them (Input.Style): the style and explode the document
// declares, or their defaults for the parameter's location (form and
// exploded in the query and cookies, simple elsewhere). FastAPI's own
// habits (a list is repeated query keys or header lines, nothing split)
// stay FastAPI's: its inputs have no Style.

// Source is what a request carries for its parameters.
type Source struct {
	Query   url.Values
	Header  http.Header
	Path    map[string]string
	Cookies map[string]string
	Form    map[string]string // a form's text fields, the last value of each
}

// styleDelim is what joins the items of a query array that is not
// exploded.
var styleDelim = map[string]string{"form": ",", "spaceDelimited": " ", "pipeDelimited": "|"}

// StyleDelimiter is what joins the items of a query array of the given
// style that is not exploded ("" for a style that joins none): the one
// table the mock reads by and the runner writes by.
func StyleDelimiter(style string) string { return styleDelim[style] }

// StyledList is the items a List parameter with a Style carries, and
// whether the request carries it at all: each repeated query key of an
// exploded form (or spaceDelimited, pipeDelimited) array, else its one
// value split at the style's delimiter; a header's lines split at commas
// (simple); a path segment without its label (.) or matrix (;name=)
// prefix, split at its delimiter; a cookie split at commas.
func (in *Input) StyledList(src Source) ([]string, bool) {
	switch in.In {
	case "query":
		vs, ok := src.Query[in.Name]
		if !ok {
			return nil, false
		}
		if in.Explode {
			return vs, true
		}
		delim := styleDelim[in.Style]
		if delim == "" {
			delim = ","
		}
		return splitItems(vs[len(vs)-1], delim), true
	case "header":
		lines := src.Header.Values(in.Name)
		if len(lines) == 0 {
			return nil, false
		}
		var out []string
		for _, line := range lines {
			for _, item := range strings.Split(Latin1(line), ",") {
				out = append(out, strings.TrimSpace(item))
			}
		}
		if len(out) == 1 && out[0] == "" {
			return nil, true
		}
		return out, true
	case "path":
		raw, ok := src.Path[in.Name]
		if !ok {
			return nil, false
		}
		rest, sep, ok := in.pathPrefix(raw)
		if !ok {
			return []string{raw}, true // not the declared prefix: the item refuses it
		}
		return splitItems(rest, sep), true
	case "cookie":
		raw, ok := src.Cookies[in.Name]
		if !ok {
			return nil, false
		}
		return splitItems(Latin1(raw), ","), true
	}
	return nil, false
}

// splitItems splits a value that is not exploded into its items; an
// empty value has none.
func splitItems(raw, delim string) []string {
	if raw == "" {
		return nil
	}
	return strings.Split(raw, delim)
}

// pathPrefix cuts a path parameter's label or matrix prefix, and says
// what separates its items (an array) or members (an object): ok false
// when the value lacks the prefix its style declares.
func (in *Input) pathPrefix(raw string) (rest, sep string, ok bool) {
	switch in.Style {
	case "label":
		rest, ok = strings.CutPrefix(raw, ".")
		if in.Explode {
			return rest, ".", ok
		}
		return rest, ",", ok
	case "matrix":
		if in.Explode && in.Object != nil {
			rest, ok = strings.CutPrefix(raw, ";")
			return rest, ";", ok
		}
		prefix := ";" + in.Name + "="
		rest, ok = strings.CutPrefix(raw, prefix)
		if in.Explode {
			return rest, prefix, ok
		}
		return rest, ",", ok
	}
	return raw, ",", true
}

// StyledScalar is a scalar parameter's value as its style writes it: a
// path parameter without its label or matrix prefix. present is false
// when the request does not carry it.
func (in *Input) StyledScalar(raw string, present bool) (string, bool) {
	if !present || in.In != "path" || in.Style == "simple" || in.Style == "" {
		return raw, present
	}
	if rest, _, ok := in.pathPrefix(raw); ok {
		return rest, true
	}
	return raw, true
}

// CheckObject reads an Object parameter (an object, or one described by
// content) as its style says and holds it to its schema: the members of
// an exploded form are query keys of their own (name=v), of a deepObject
// keys name[member]; a form, spaceDelimited or pipeDelimited one that is
// not exploded is "k,v,k,v" (its delimiter); a header or path one is
// "k,v" ("k=v" exploded), after a path's label or matrix prefix; a
// content one is JSON. Each member's text is read as its schema's type.
// An object none of whose members the request carries is absent.
func (in *Input) CheckObject(sp *spec.Spec, src Source) (Value, []ErrorItem) {
	var value any
	raw, present := "", false
	if in.Content {
		raw, present = in.rawValue(src)
		if in.In == "body" && raw == "" && !in.KeepEmpty {
			present = false // an empty form value is absent
		}
		if present {
			if item := in.checkJSON(sp, raw, in.Loc); item != nil {
				return Value{}, []ErrorItem{*item}
			}
			return Value{Set: true, Str: raw}, nil
		}
	} else {
		var members map[string][]string
		members, raw, present = in.members(src)
		if present {
			value = objectValue(in.Object, members)
		}
	}
	if !present {
		if in.Required {
			return Value{}, []ErrorItem{Missing(in.Loc...)}
		}
		return Value{}, nil
	}
	if err := sp.Validate(in.Object.Value, value, false); err != nil {
		return Value{}, []ErrorItem{objectItem(err, in.Loc, value)}
	}
	return Value{Set: true, Str: raw}, nil
}

// rawValue is the one text a parameter's location carries for it.
func (in *Input) rawValue(src Source) (string, bool) {
	switch in.In {
	case "query":
		if vs := src.Query[in.Name]; len(vs) > 0 {
			return vs[len(vs)-1], true
		}
	case "header":
		if vs := src.Header.Values(in.Name); len(vs) > 0 {
			return Latin1(strings.Join(vs, ",")), true
		}
	case "path":
		v, ok := src.Path[in.Name]
		return v, ok
	case "cookie":
		v, ok := src.Cookies[in.Name]
		return Latin1(v), ok
	case "body":
		v, ok := src.Form[in.Name]
		return v, ok
	}
	return "", false
}

// members are an object parameter's members as the request writes them
// (member → its texts), the text it was read from, and whether the
// request carries any.
func (in *Input) members(src Source) (map[string][]string, string, bool) {
	out := map[string][]string{}
	s := in.Object.Value
	switch {
	case in.In == "query" && in.Style == "deepObject":
		prefix := in.Name + "["
		var raw []string
		for key, vs := range src.Query {
			if rest, ok := strings.CutPrefix(key, prefix); ok {
				// name[a][b] is member a's member b: kept as "a[b]"
				// for objectValue to nest.
				name, tail, _ := strings.Cut(rest, "]")
				out[name+tail] = append(out[name+tail], vs...)
				raw = append(raw, key+"="+strings.Join(vs, ","))
			}
		}
		slices.Sort(raw)
		return out, strings.Join(raw, "&"), len(out) > 0
	case in.In == "query" && in.Style == "form" && in.Explode:
		var raw []string
		for _, name := range objectProperties(s) {
			if vs, ok := src.Query[name]; ok {
				out[name] = vs
				raw = append(raw, name+"="+strings.Join(vs, ","))
			}
		}
		if ap := s.AdditionalProperties; ap.Schema != nil || ap.Has != nil && *ap.Has {
			for key, vs := range src.Query {
				if _, declared := out[key]; !declared && !slices.Contains(in.others, key) && !slices.Contains(objectProperties(s), key) {
					out[key] = vs
					raw = append(raw, key+"="+strings.Join(vs, ","))
				}
			}
		}
		slices.Sort(raw)
		return out, strings.Join(raw, "&"), len(out) > 0
	}
	raw, ok := in.rawValue(src)
	if !ok {
		return nil, "", false
	}
	text, pairSep, valueSep := raw, ",", ","
	switch in.In {
	case "query":
		if d := styleDelim[in.Style]; d != "" {
			pairSep, valueSep = d, d
		}
	case "path":
		rest, sep, ok := in.pathPrefix(raw)
		if !ok {
			return nil, raw, true // not the declared prefix: the schema refuses the text
		}
		text, pairSep = rest, sep
		if in.Explode {
			valueSep = "="
		}
	default: // header, cookie: simple and form write the same
		if in.Explode {
			valueSep = "="
		}
	}
	if text == "" {
		return out, raw, true
	}
	parts := strings.Split(text, pairSep)
	if pairSep == valueSep {
		for i := 0; i+1 < len(parts); i += 2 {
			out[parts[i]] = append(out[parts[i]], parts[i+1])
		}
		if len(parts)%2 == 1 {
			out[parts[len(parts)-1]] = append(out[parts[len(parts)-1]], "")
		}
	} else {
		for _, p := range parts {
			k, v, _ := strings.Cut(p, valueSep)
			out[k] = append(out[k], v)
		}
	}
	return out, raw, true
}

// objectProperties is every property an object schema declares, its
// allOf parts' included.
func objectProperties(s *openapi3.Schema) []string {
	var out []string
	for name := range s.Properties {
		out = append(out, name)
	}
	for _, part := range s.AllOf {
		if part.Value != nil {
			out = append(out, objectProperties(part.Value)...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// memberSchema is the schema of an object's member name: its property,
// an allOf part's, or additionalProperties; nil for none.
func memberSchema(s *openapi3.Schema, name string) *openapi3.SchemaRef {
	if p := s.Properties[name]; p != nil {
		return p
	}
	for _, part := range s.AllOf {
		if part.Value != nil {
			if p := memberSchema(part.Value, name); p != nil {
				return p
			}
		}
	}
	return s.AdditionalProperties.Schema
}

// objectValue is an object's members read as their schemas' types: a
// number, a boolean, an array of the member's texts (one text split at
// commas), an object from JSON or its name[member] keys; a text that is
// not of its type stays a string, for the schema to refuse.
func objectValue(schema *openapi3.SchemaRef, members map[string][]string) map[string]any {
	obj := map[string]any{}
	nested := map[string]map[string][]string{}
	for name, raws := range members {
		if head, tail, ok := strings.Cut(name, "["); ok && strings.Contains(tail, "]") {
			if nested[head] == nil {
				nested[head] = map[string][]string{}
			}
			sub, rest, _ := strings.Cut(tail, "]")
			nested[head][sub+rest] = raws
			continue
		}
		obj[name] = memberValue(memberSchema(schema.Value, name), raws)
	}
	for name, sub := range nested {
		if s := memberSchema(schema.Value, name); s != nil && s.Value != nil {
			obj[name] = objectValue(s, sub)
		} else {
			obj[name] = objectValue(openapi3.NewSchemaRef("", &openapi3.Schema{}), sub)
		}
	}
	return obj
}

// memberValue reads one member's texts as its schema's type.
func memberValue(s *openapi3.SchemaRef, raws []string) any {
	if len(raws) == 0 {
		return nil
	}
	last := raws[len(raws)-1]
	switch typeOf(s) {
	case "array":
		if len(raws) == 1 {
			raws = splitItems(raws[0], ",")
		}
		var items *openapi3.SchemaRef
		if s.Value.Items != nil {
			items = s.Value.Items
		}
		out := make([]any, len(raws))
		for i, r := range raws {
			out[i] = memberValue(items, []string{r})
		}
		return out
	case "object":
		var v any
		if json.Unmarshal([]byte(last), &v) == nil {
			return v
		}
	case "integer", "number":
		if f, err := strconv.ParseFloat(last, 64); err == nil {
			return f
		}
	case "boolean":
		if b, err := strconv.ParseBool(last); err == nil {
			return b
		}
	}
	return last
}

// typeOf is a schema's type, the first not null, found through allOf,
// anyOf and oneOf where it has none of its own; "" for none.
func typeOf(s *openapi3.SchemaRef) string {
	if s == nil || s.Value == nil {
		return ""
	}
	for _, t := range s.Value.Type.Slice() {
		if t != "null" {
			return t
		}
	}
	if len(s.Value.Properties) > 0 {
		return "object"
	}
	for _, alts := range []openapi3.SchemaRefs{s.Value.AllOf, s.Value.AnyOf, s.Value.OneOf} {
		for _, alt := range alts {
			if t := typeOf(alt); t != "" {
				return t
			}
		}
	}
	return ""
}

// isObject reports whether a parameter's schema is an object's: its
// type, its properties, or its allOf parts say so (an anyOf or oneOf of
// an object and a scalar is not).
func isObject(s *openapi3.SchemaRef) bool {
	if s == nil || s.Value == nil {
		return false
	}
	if types := s.Value.Type.Slice(); len(types) > 0 {
		return slices.Contains(types, "object") && !slices.ContainsFunc(types, func(t string) bool { return t != "object" && t != "null" })
	}
	if len(s.Value.Properties) > 0 {
		return true
	}
	for _, part := range s.Value.AllOf {
		if isObject(part) {
			return true
		}
	}
	return false
}

// objectItem is the schema validator's complaint about an object
// parameter's value as an error item at the member it names.
func objectItem(err error, loc []any, value any) ErrorItem {
	var se *openapi3.SchemaError
	if !errors.As(err, &se) {
		return ErrorItem{Type: "value_error", Loc: loc, Msg: "Value error, " + err.Error(), Input: value}
	}
	at := slices.Clone(loc)
	for _, p := range se.JSONPointer() {
		at = append(at, p)
	}
	var s *openapi3.Schema = se.Schema
	switch se.SchemaField {
	case "required":
		return Missing(at...)
	case "type":
		kind := map[string]string{"integer": "int", "number": "float", "boolean": "bool", "string": "string", "object": "dict", "array": "list"}
		if s != nil {
			for _, t := range s.Type.Slice() {
				if k, ok := kind[t]; ok {
					return ErrorItem{Type: k + "_type", Loc: at, Msg: "Input should be a valid " + t, Input: se.Value}
				}
			}
		}
	case "additionalProperties":
		return ErrorItem{Type: "extra_forbidden", Loc: at, Msg: "Extra inputs are not permitted", Input: se.Value}
	}
	if s != nil {
		limit := schemaLimit(s, se.SchemaField)
		if se.SchemaField == "maxLength" {
			limit = deref(uint64Float(s.MaxLength))
		}
		if item, ok := Constraint(se.SchemaField, limit, se.Value, at...); ok {
			return item
		}
	}
	return ErrorItem{Type: "value_error", Loc: at, Msg: "Value error, " + strings.TrimSpace(se.Reason), Input: se.Value}
}

func uint64Float(p *uint64) *float64 {
	if p == nil {
		return nil
	}
	f := float64(*p)
	return &f
}

// contentSchema is the schema of a parameter described by content: its
// JSON media type's, else its only one's.
func contentSchema(p *openapi3.Parameter) (*openapi3.SchemaRef, string, error) {
	if mt := p.Content.Get("application/json"); mt != nil && mt.Schema != nil && mt.Schema.Value != nil {
		return mt.Schema, "application/json", nil
	}
	for name, mt := range p.Content {
		if mt != nil && mt.Schema != nil && mt.Schema.Value != nil && len(p.Content) == 1 && IsJSONContentType(name) {
			return mt.Schema, name, nil
		}
	}
	return nil, "", fmt.Errorf("content %v: only a JSON parameter is read", keysOf(p.Content))
}

// formField reads a form field of a document not FastAPI's as its media
// type's encoding says: an array not exploded (encoding style form,
// spaceDelimited or pipeDelimited, explode false) is one value split at
// its delimiter, an array of objects holds a JSON value per item, and a
// binary field of a form that is only urlencoded takes text, the only
// value such a form carries.
func (in *Input) formField(field *openapi3.SchemaRef, media *openapi3.MediaType, textOnly bool) {
	if in.List && field.Value.Items != nil && isObject(field.Value.Items) {
		in.Object, in.Content = field.Value.Items, true
	}
	if in.Binary && textOnly {
		in.Binary = false
	}
	if enc := media.Encoding[in.Name]; enc != nil && in.List {
		in.Style, in.Explode = enc.Style, enc.Style != "spaceDelimited" && enc.Style != "pipeDelimited"
		if in.Style == "" {
			in.Style = "form"
		}
		if enc.Explode != nil {
			in.Explode = *enc.Explode
		}
	}
}

// textOnly reports whether a body's form media types are all
// urlencoded: no part of it can be a file.
func textOnly(content openapi3.Content) bool {
	for name := range content {
		if base, _, _ := strings.Cut(name, ";"); strings.EqualFold(strings.TrimSpace(base), "multipart/form-data") {
			return false
		}
	}
	return true
}

// FormList is the items of a form field List with a Style (its
// encoding's) that is not exploded: its last value split at the style's
// delimiter. Any other list's values are its items as sent.
func (in *Input) FormList(entries []FormEntry) []FormEntry {
	if in.Style == "" || in.Explode || len(entries) == 0 || entries[len(entries)-1].File != nil {
		return entries
	}
	delim := styleDelim[in.Style]
	if delim == "" {
		delim = ","
	}
	var out []FormEntry
	for _, item := range splitItems(entries[len(entries)-1].Value, delim) {
		out = append(out, FormEntry{Value: item})
	}
	return out
}

// checkJSON reads one text of an Object input (a content parameter, a
// JSON form field or item) as JSON and holds it to the schema; a text
// that is not JSON is itself the value where the schema is not an
// object's or array's (a string sent bare, as clients do).
func (in *Input) checkJSON(sp *spec.Spec, raw string, loc []any) *ErrorItem {
	var value any
	if err := json.Unmarshal([]byte(raw), &value); err != nil {
		if slices.ContainsFunc(in.Object.Value.Type.Slice(), func(t string) bool { return t == "object" || t == "array" }) || isObject(in.Object) {
			return &ErrorItem{Type: "json_type", Loc: loc, Msg: "Input should be valid JSON", Input: raw}
		}
		value = raw
	}
	if err := sp.Validate(in.Object.Value, value, false); err != nil {
		item := objectItem(err, loc, value)
		return &item
	}
	return nil
}

// alone is a request that carries raw for in alone, where in's location
// says (nothing when present is false): what Check reads an Object input
// from, as the mock reads it from a whole request.
func (in *Input) alone(raw string, present bool) Source {
	var src Source
	if !present {
		return src
	}
	switch in.In {
	case "query":
		src.Query = url.Values{in.Name: {raw}}
	case "header":
		src.Header = http.Header{http.CanonicalHeaderKey(in.Name): {raw}}
	case "path":
		src.Path = map[string]string{in.Name: raw}
	case "cookie":
		src.Cookies = map[string]string{in.Name: raw}
	case "body":
		src.Form = map[string]string{in.Name: raw}
	}
	return src
}
