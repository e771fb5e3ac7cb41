package contract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/framework"
)

// The parameters of a document that is not FastAPI's are sent as OpenAPI
// serializes them: the style and explode the document declares, or their
// defaults for the parameter's location (fastapi.Input.Style). A case
// holds a list's value as its items (one, unless listSep joins several),
// an object's (not described by content) as JSON, whose members
// styleParam writes as the style says. A
// FastAPI document's inputs have no Style: they are sent as FastAPI
// reads them, one value per key.

// styled is a parameter's value as its style writes it: the query keys
// and values it adds, in order, or (header, path, cookie) its one text.
type styled struct {
	pairs [][2]string
	text  string
}

// styledInput reports whether in is sent as its style says rather than as
// one value: a styled parameter (not a form field) of a document not
// FastAPI's.
func styledInput(in fastapi.Input) bool {
	return in.In != "body" && (in.Style != "" || in.Object != nil)
}

// styleValue is what a case's value raw of in stands for: an object
// parameter's members (its JSON object, numbers as written), a list's
// items (split at listSep), else the text itself. ok is false for an object
// parameter whose value is not a JSON object (a generated case's random
// text), which is sent as one value.
func styleValue(in fastapi.Input, raw string) (any, bool) {
	switch {
	case in.Content:
		return raw, true
	case in.Object != nil && !in.List:
		m, ok := decodeObject([]byte(raw))
		return m, ok
	case in.List:
		return strings.Split(raw, listSep), true
	}
	return raw, true
}

// listSep separates the items of a list's value in a case that sends
// more than one ("1\x1f2" is [1, 2]); a value without it is one item.
const listSep = "\x1f"

// twoItems is a list input's value of two items the schema accepts, from
// one accepted item: the enum's next value, else the item again where
// the items need not be unique. ok is false where no list of two fits.
func twoItems(in fastapi.Input, item string) (string, bool) {
	ls := in.ListSchema
	if ls == nil || ls.MaxItems != nil && *ls.MaxItems < 2 || strings.Contains(item, listSep) {
		return "", false
	}
	for _, e := range in.Schema.Enum {
		if v := fmt.Sprint(e); v != item {
			return item + listSep + v, true
		}
	}
	if ls.UniqueItems {
		return "", false
	}
	return item + listSep + item, true
}

// sentItems is a form list's value as the mock reads it back from what
// formBody sends: its items, or (a style that is not exploded) their one
// field split at the style's delimiter.
func sentItems(in fastapi.Input, raw string) []string {
	items := strings.Split(raw, listSep)
	if in.Style == "" || in.Explode {
		return items
	}
	entries := []fastapi.FormEntry{{Name: in.Name, Value: strings.Join(items, formDelim(in))}}
	var out []string
	for _, e := range in.FormList(entries) {
		out = append(out, e.Value)
	}
	return out
}

// formDelim joins the items of a form list its encoding does not
// explode.
func formDelim(in fastapi.Input) string {
	if d := fastapi.StyleDelimiter(in.Style); d != "" {
		return d
	}
	return ","
}

// styleParam writes v (a text, a list's items, an object's members) as
// in's style and explode say (OpenAPI 3's Style Values): a query array is
// a key per item (exploded) or its items joined by the style's delimiter
// (form ",", spaceDelimited " ", pipeDelimited "|"); a query object is a
// key per member (form, exploded), name[member] keys (deepObject) or
// "k,v" pairs; a header or cookie is "a,b" or "k,v" ("k=v" exploded); a
// path is simple "a,b", label ".a,b" (".a.b"), matrix ";p=a,b"
// (";p=a;p=b"), an object's members after the prefix as pairs. A value
// described by content is its JSON as one value. esc escapes each item,
// member name and member value (a path segment's escaping), never the
// delimiters.
func styleParam(in fastapi.Input, v any, esc func(string) string) styled {
	if in.Content {
		if in.In == "query" {
			return styled{pairs: [][2]string{{in.Name, fmt.Sprint(v)}}}
		}
		return styled{text: esc(fmt.Sprint(v))}
	}
	switch x := v.(type) {
	case []string:
		return styleItems(in, x, esc)
	case map[string]any:
		return styleObject(in, x, esc)
	}
	s := fmt.Sprint(v)
	if in.In == "query" {
		return styled{pairs: [][2]string{{in.Name, s}}}
	}
	return styled{text: pathPrefix(in) + esc(s)}
}

// pathPrefix is what a path parameter's style writes before its value:
// "." (label), ";name=" (matrix); "" for any other style or location.
func pathPrefix(in fastapi.Input) string {
	if in.In != "path" {
		return ""
	}
	switch in.Style {
	case "label":
		return "."
	case "matrix":
		return ";" + in.Name + "="
	}
	return ""
}

func styleItems(in fastapi.Input, items []string, esc func(string) string) styled {
	if in.In == "query" {
		if in.Explode {
			out := styled{}
			for _, it := range items {
				out.pairs = append(out.pairs, [2]string{in.Name, it})
			}
			return out
		}
		delim := fastapi.StyleDelimiter(in.Style)
		if delim == "" {
			delim = ","
		}
		return styled{pairs: [][2]string{{in.Name, strings.Join(items, delim)}}}
	}
	escaped := make([]string, len(items))
	for i, it := range items {
		escaped[i] = esc(it)
	}
	sep := ","
	if in.In == "path" && in.Explode {
		switch in.Style {
		case "label":
			sep = "."
		case "matrix":
			sep = ";" + in.Name + "="
		}
	}
	return styled{text: pathPrefix(in) + strings.Join(escaped, sep)}
}

func styleObject(in fastapi.Input, m map[string]any, esc func(string) string) styled {
	keys := sortedKeys(m)
	if in.In == "query" && (in.Style == "deepObject" || in.Style == "form" && in.Explode) {
		out := styled{}
		var add func(key string, v any, deep bool)
		add = func(key string, v any, deep bool) {
			switch x := v.(type) {
			case []any:
				for _, e := range x {
					out.pairs = append(out.pairs, [2]string{key, memberText(e)})
				}
				return
			case map[string]any:
				if deep {
					for _, k := range sortedKeys(x) {
						add(key+"["+k+"]", x[k], true)
					}
					return
				}
			}
			out.pairs = append(out.pairs, [2]string{key, memberText(v)})
		}
		for _, k := range keys {
			if in.Style == "deepObject" {
				add(in.Name+"["+k+"]", m[k], true)
			} else {
				add(k, m[k], false)
			}
		}
		return out
	}
	var parts []string
	for _, k := range keys {
		if in.Explode && in.In != "query" {
			parts = append(parts, esc(k)+"="+esc(memberText(m[k])))
		} else {
			parts = append(parts, esc(k), esc(memberText(m[k])))
		}
	}
	if in.In == "query" {
		delim := fastapi.StyleDelimiter(in.Style)
		if delim == "" {
			delim = ","
		}
		return styled{pairs: [][2]string{{in.Name, strings.Join(parts, delim)}}}
	}
	if in.In == "path" && in.Explode {
		switch in.Style {
		case "label":
			return styled{text: "." + strings.Join(parts, ".")}
		case "matrix":
			return styled{text: ";" + strings.Join(parts, ";")}
		}
	}
	return styled{text: pathPrefix(in) + strings.Join(parts, ",")}
}

// memberText writes one member of an object parameter: a scalar as text,
// an array's items joined by commas, an object as JSON (what OpenAPI's
// styles do not define).
func memberText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = memberText(e)
		}
		return strings.Join(parts, ",")
	case map[string]any:
		return strings.TrimSpace(string(encode(x)))
	}
	return fmt.Sprint(v)
}

// styledSource is a parameter written by styleParam as the request
// carries it, for the mock's reader to check: what the runner checks is
// what it sends.
func styledSource(in fastapi.Input, st styled) fastapi.Source {
	var src fastapi.Source
	switch in.In {
	case "query":
		src.Query = url.Values{}
		for _, p := range st.pairs {
			src.Query.Add(p[0], p[1])
		}
	case "header":
		src.Header = http.Header{}
		src.Header.Set(in.Name, st.text)
	case "path":
		src.Path = map[string]string{in.Name: st.text}
	case "cookie":
		src.Cookies = map[string]string{in.Name: st.text}
	}
	return src
}

// checkStyled is the mock's verdict on a styled list's item or an object
// parameter's value raw (JSON members) as styleParam sends it; handled is
// false for any other input, and for an object's value that is not a JSON
// object (sent as one value).
func (b *builder) checkStyled(in fastapi.Input, raw string, present bool) (item *fastapi.ErrorItem, handled bool) {
	if present && in.In == "body" && in.List && strings.Contains(raw, listSep) {
		if in.Binary {
			return nil, true // file parts: any content is a file
		}
		if _, items := in.CheckList(b.sp, sentItems(in, raw)); len(items) > 0 {
			return &items[0], true
		}
		return nil, true
	}
	if !present || !styledInput(in) || in.Content || in.Object == nil && !in.List {
		return nil, false
	}
	v, ok := styleValue(in, raw)
	if !ok {
		return nil, false
	}
	src := styledSource(in, styleParam(in, v, noEscape))
	var items []fastapi.ErrorItem
	if in.List {
		// An item holding its style's delimiter is read as several.
		sent, _ := in.StyledList(src)
		_, items = in.CheckList(b.sp, sent)
	} else {
		_, items = in.CheckObject(b.sp, src)
	}
	if len(items) > 0 {
		return &items[0], true
	}
	return nil, true
}

func noEscape(s string) string { return s }

// objectValue is a value the document accepts for an object parameter,
// or one described by content, as JSON: the schema's example, then
// seeded generated values, each whole and with its required members
// only; the first one the mock's reader accepts as the runner sends it.
func (b *builder) objectValue(o *operation, in fastapi.Input) (string, bool) {
	ref := in.Object
	if ref == nil || ref.Value == nil {
		return "", false
	}
	var candidates [][]byte
	if ex := ref.Value.Example; ex != nil {
		if raw, err := json.Marshal(ex); err == nil {
			candidates = append(candidates, raw)
		}
	}
	for i := 0; i < 8; i++ {
		f := gofakeit.New(b.seedFor("parameter", o.id, in.In, in.Name, strconv.Itoa(i)))
		candidates = append(candidates, neutralKeys(ref, b.generator().Append(nil, f, "", ref)))
	}
	for _, whole := range []bool{true, false} {
		for _, c := range candidates {
			raw := strings.TrimSpace(string(c))
			if !whole {
				m, ok := decodeObject(c)
				if !ok {
					continue
				}
				raw = requiredMembers(ref.Value, m)
			}
			if raw == "" || !in.Content && (raw == "{}" || !isJSONObject(raw)) {
				continue
			}
			if b.check(in, raw, true) == nil {
				return raw, true
			}
		}
	}
	return "", false
}

// requiredMembers is an object with only the members its schema
// requires, as JSON.
func requiredMembers(s *openapi3.Schema, m map[string]any) string {
	out := map[string]any{}
	for _, name := range s.Required {
		if v, ok := m[name]; ok {
			out[name] = v
		}
	}
	return strings.TrimSpace(string(encode(out)))
}

func isJSONObject(raw string) bool {
	return bytes.HasPrefix(bytes.TrimSpace([]byte(raw)), []byte("{"))
}

// badMembers are an object parameter's values (JSON) that each break one
// thing of a valid one: a member its schema types as a number or boolean
// sent as a word, a required member left out, a string member past its
// maxLength or out of its enum. Only those the mock's reader refuses are
// kept, with the loc it names.
func (b *builder) badMembers(in fastapi.Input, valid string) []badValue {
	m, ok := decodeObject([]byte(valid))
	if !ok || in.Object == nil || in.Object.Value == nil {
		return nil
	}
	s := in.Object.Value
	var out []badValue
	try := func(name string, bad map[string]any) {
		raw := strings.TrimSpace(string(encode(bad)))
		if item := b.check(in, raw, true); item != nil {
			out = append(out, badValue{name: name, raw: raw, loc: item.Loc})
		}
	}
	for _, k := range sortedKeys(m) {
		p := s.Properties[k]
		if p == nil || p.Value == nil {
			if s.AdditionalProperties.Schema != nil {
				p = s.AdditionalProperties.Schema
			} else {
				continue
			}
		}
		var words []string
		switch {
		case p.Value.Type.Is("integer") || p.Value.Type.Is("number") || p.Value.Type.Is("boolean"):
			words = []string{"moviemock"}
		case p.Value.Type.Is("string") && len(p.Value.Enum) > 0:
			words = []string{"moviemock-not-in-enum"}
		case p.Value.Type.Is("string") && p.Value.MaxLength != nil && *p.Value.MaxLength < maxCaseLength:
			words = []string{strings.Repeat("x", int(*p.Value.MaxLength)+1)}
		}
		for _, w := range words {
			bad := cloneMap(m)
			bad[k] = w
			try(fmt.Sprintf("%s.%s=%q", in.Name, k, w), bad)
		}
	}
	for _, k := range s.Required {
		if _, ok := m[k]; !ok || len(m) < 2 {
			continue // leaving out its only member would leave out the object
		}
		bad := cloneMap(m)
		delete(bad, k)
		try(fmt.Sprintf("%s.%s missing", in.Name, k), bad)
	}
	return out
}

// badValue is one invalid value of an input and what a rejection of it
// names.
type badValue struct {
	name, raw string
	loc       []any
}

// openAPIDoc reports whether the contract is a document not FastAPI's,
// whose form lists the runner may send several items of.
func (b *builder) openAPIDoc() bool {
	return b.model != nil && b.model.Framework == framework.OpenAPI
}

// listItem is one item a list input accepts, where the case's values
// have none: a file, JSON of an item object, the schema's example or a
// value it accepts.
func (b *builder) listItem(o *operation, in fastapi.Input) (string, bool) {
	switch {
	case in.Binary:
		return fileContent, true
	case in.Object != nil:
		return b.objectValue(o, in)
	}
	v, ok := exampleFor(in)
	if !ok {
		v, ok = acceptedPatternValue(in)
	}
	return v, ok && b.check(in, v, true) == nil
}

// pathSegment is the value v of the path parameter name as its style
// writes it (a label's ".", a matrix's ";name="), escaped; v escaped
// where the parameter has no style.
func pathSegment(ins fastapi.Inputs, name, v string) string {
	for _, in := range ins.List {
		if in.In != "path" || in.Name != name || !styledInput(in) {
			continue
		}
		if sv, ok := styleValue(in, v); ok {
			return styleParam(in, sv, url.PathEscape).text
		}
	}
	return url.PathEscape(v)
}

// carriesMembers reports whether the request of o with v, which leaves
// the object query parameter in out, still carries members the mock's
// reader takes for it: an exploded form object whose schema admits
// additional properties takes any query key no other parameter declares,
// the members of another exploded object among them (a required
// ?filter that admits any member is never missing beside ?foo=, raw's
// member). Such a request is no absence of in.
func (b *builder) carriesMembers(o *operation, in fastapi.Input, v values) bool {
	if in.In != "query" || in.Object == nil || in.Content || in.List {
		return false
	}
	u, err := url.Parse(b.request(o, v).URL)
	if err != nil {
		return false
	}
	_, items := in.CheckObject(b.sp, fastapi.Source{Query: u.Query()})
	return len(items) == 0 || items[0].Type != "missing"
}
