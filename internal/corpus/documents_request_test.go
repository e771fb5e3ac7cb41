package corpus

// Requests built from a document alone: a valid value for every schema
// (the document's examples first, then a minimal value made from the
// schema's keywords), checked against the compiled schema before use.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"maps"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// maxDepth bounds the generation of nested (and recursive) schemas.
const maxDepth = 8

// validValue is a value valid against the schema at loc, with the
// example given first: the first candidate the schema accepts, else the
// generated one (and why the schema refuses it).
func (d *document) validValue(loc string, example any) (any, error) {
	s := d.schemaAt(loc)
	cands := []any{}
	if example != nil {
		cands = append(cands, example)
	}
	if s != nil {
		cands = append(cands, d.sample(s, 0, true), d.sample(s, 0, false))
	} else {
		cands = append(cands, "a")
	}
	compiled, err := d.schema(loc)
	if err != nil {
		return cands[len(cands)-1], fmt.Errorf("the schema does not compile: %v", err)
	}
	for _, c := range cands {
		if err = compiled.Validate(roundTrip(c)); err == nil {
			return c, nil
		}
	}
	return cands[len(cands)-1], fmt.Errorf("no valid value: %s", schemaError(err))
}

// check says why the schema at loc refuses v (nil when it accepts it).
func (d *document) check(loc string, v any) error {
	compiled, err := d.schema(loc)
	if err != nil {
		return fmt.Errorf("the schema does not compile: %v", err)
	}
	if err := compiled.Validate(roundTrip(v)); err != nil {
		return fmt.Errorf("no valid value: %s", schemaError(err))
	}
	return nil
}

// roundTrip makes a Go value JSON values as jsonschema reads them.
func roundTrip(v any) any {
	data, err := json.Marshal(v)
	if err != nil {
		return v
	}
	out, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return v
	}
	return out
}

// firstType is a schema's type, the first that is not null of a list.
func firstType(s map[string]any) string {
	switch t := s["type"].(type) {
	case string:
		return t
	case []any:
		for _, x := range t {
			if x != "null" {
				if str, ok := x.(string); ok {
					return str
				}
			}
		}
		if len(t) > 0 {
			return "null"
		}
	}
	switch {
	case s["properties"] != nil || s["additionalProperties"] != nil || s["required"] != nil:
		return "object"
	case s["items"] != nil:
		return "array"
	case s["format"] == "int32" || s["format"] == "int64":
		return "integer"
	case s["minimum"] != nil || s["maximum"] != nil || s["multipleOf"] != nil:
		return "number"
	}
	return ""
}

// sample makes a minimal value of a schema; withExamples takes the
// schema's own examples where it has them.
func (d *document) sample(s map[string]any, depth int, withExamples bool) any {
	s = d.resolve(s)
	if s == nil || depth > maxDepth {
		return nil
	}
	if withExamples {
		if ex, ok := s["example"]; ok && ex != nil {
			return ex
		}
		if exs, ok := s["examples"].([]any); ok && len(exs) > 0 {
			return exs[0]
		}
	}
	if c, ok := s["const"]; ok {
		return c
	}
	if enum, ok := s["enum"].([]any); ok {
		for _, e := range enum {
			if e != nil {
				return e
			}
		}
	}
	if all, ok := s["allOf"].([]any); ok && len(all) > 0 {
		merged := map[string]any{}
		var other any
		for _, part := range all {
			pm, _ := part.(map[string]any)
			switch v := d.sample(pm, depth+1, withExamples).(type) {
			case map[string]any:
				for k, x := range v {
					merged[k] = x
				}
			case nil:
			default:
				other = v
			}
		}
		own := d.object(s, depth, withExamples)
		for k, x := range own {
			merged[k] = x
		}
		if len(merged) == 0 && other != nil {
			return other
		}
		d.discriminate(s, merged, nil)
		return merged
	}
	for _, key := range []string{"oneOf", "anyOf"} {
		branches, ok := s[key].([]any)
		if !ok {
			continue
		}
		for _, b := range branches {
			bm, _ := b.(map[string]any)
			if bm == nil || bm["type"] == "null" {
				continue
			}
			if t, ok := s["type"]; ok {
				// A branch without a type has its parent's.
				if r := d.resolve(bm); r != nil && r["type"] == nil {
					c := maps.Clone(r)
					c["type"] = t
					bm = c
				}
			}
			v := d.sample(bm, depth+1, withExamples)
			if obj, ok := v.(map[string]any); ok {
				for k, x := range d.object(s, depth, withExamples) {
					if _, set := obj[k]; !set {
						obj[k] = x
					}
				}
				d.discriminate(s, obj, bm)
			}
			return v
		}
	}
	switch firstType(s) {
	case "object":
		obj := d.object(s, depth, withExamples)
		d.discriminate(s, obj, nil)
		return obj
	case "array":
		items, _ := s["items"].(map[string]any)
		n := intKeyword(s, "minItems", 0)
		out := []any{}
		for i := 0; i < n; i++ {
			out = append(out, d.sample(items, depth+1, withExamples))
		}
		return out
	case "integer":
		return json.Number(fmt.Sprint(int64(number(s, true))))
	case "number":
		return json.Number(fmt.Sprint(number(s, false)))
	case "boolean":
		return true
	case "null":
		return nil
	}
	return sampleString(s)
}

// object is an object schema's required properties, each sampled.
func (d *document) object(s map[string]any, depth int, withExamples bool) map[string]any {
	props, _ := s["properties"].(map[string]any)
	req, _ := s["required"].([]any)
	obj := map[string]any{}
	for _, r := range req {
		name, _ := r.(string)
		ps, _ := props[name].(map[string]any)
		if ps == nil {
			obj[name] = "a"
			continue
		}
		obj[name] = d.sample(ps, depth+1, withExamples)
	}
	return obj
}

// discriminate sets an object's discriminator property to the name that
// picks branch (a $ref), or the mapping's first.
func (d *document) discriminate(s, obj, branch map[string]any) {
	disc, _ := s["discriminator"].(map[string]any)
	if disc == nil {
		if name, ok := s["discriminator"].(string); ok { // Swagger 2.0
			disc = map[string]any{"propertyName": name}
		} else {
			return
		}
	}
	prop, _ := disc["propertyName"].(string)
	if prop == "" {
		return
	}
	mapping, _ := disc["mapping"].(map[string]any)
	ref, _ := branch["$ref"].(string)
	if ref != "" {
		for _, k := range slices.Sorted(maps.Keys(mapping)) {
			if mapping[k] == ref {
				obj[prop] = k
				return
			}
		}
		obj[prop] = ref[strings.LastIndexByte(ref, '/')+1:]
		return
	}
	if _, set := obj[prop]; set {
		return
	}
	for _, k := range slices.Sorted(maps.Keys(mapping)) {
		obj[prop] = k
		return
	}
}

func intKeyword(s map[string]any, key string, def int) int {
	if n, ok := s[key].(json.Number); ok {
		if i, err := n.Int64(); err == nil && i >= 0 && i < 64 {
			return int(i)
		}
	}
	return def
}

func floatKeyword(s map[string]any, key string) (float64, bool) {
	n, ok := s[key].(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

// number is a small number within a schema's bounds: 1, or its minimum.
func number(s map[string]any, integer bool) float64 {
	v := 1.0
	step := 1.0
	if !integer {
		step = 0.5
	}
	if lo, ok := floatKeyword(s, "minimum"); ok {
		v = lo
		if s["exclusiveMinimum"] == true {
			v += step
		}
	}
	if lo, ok := floatKeyword(s, "exclusiveMinimum"); ok {
		v = lo + step
	}
	hi, hasHi := floatKeyword(s, "maximum")
	if x, ok := floatKeyword(s, "exclusiveMaximum"); ok {
		hi, hasHi = x-step, true
	} else if hasHi && s["exclusiveMaximum"] == true {
		hi -= step
	}
	if hasHi && v > hi {
		v = hi
	}
	if m, ok := floatKeyword(s, "multipleOf"); ok && m > 0 {
		k := float64(int64(v / m))
		if k*m < v {
			k++
		}
		v = k * m
	}
	return v
}

// sampleString is a string of a schema's format, pattern and lengths.
func sampleString(s map[string]any) string {
	var v string
	switch s["format"] {
	case "date-time":
		v = "2024-01-02T03:04:05Z"
	case "date":
		v = "2024-01-02"
	case "time":
		v = "03:04:05Z"
	case "uuid":
		v = "3fa85f64-5717-4562-b3fc-2c963f66afa6"
	case "email":
		v = "user@example.com"
	case "uri", "url", "uri-reference", "iri":
		v = "https://example.com/a"
	case "hostname":
		v = "example.com"
	case "ipv4":
		v = "192.0.2.1"
	case "ipv6":
		v = "2001:db8::1"
	case "byte":
		v = base64.StdEncoding.EncodeToString([]byte("a"))
	case "int64", "int32":
		v = "1"
	case "duration":
		v = "P1D"
	default:
		v = "a"
	}
	if p, ok := s["pattern"].(string); ok {
		if re, err := regexp.Compile(p); err == nil && !re.MatchString(v) {
			if m, ok := matching(p); ok {
				v = m
			}
		}
	}
	if n := intKeyword(s, "minLength", 0); len(v) < n {
		v += strings.Repeat("a", n-len(v))
	}
	if n := intKeyword(s, "maxLength", -1); n >= 0 && len(v) > n {
		v = v[:n]
	}
	return v
}

// matching is a short string a Go-readable pattern matches.
func matching(pattern string) (string, bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	ok := shortest(re.Simplify(), &b, 0)
	return b.String(), ok
}

func shortest(re *syntax.Regexp, b *strings.Builder, depth int) bool {
	if depth > 50 {
		return false
	}
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			b.WriteRune(r)
		}
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return false
		}
		r := re.Rune[0]
		// A printable letter or digit where the class has one.
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if lo <= 'a' && 'a' <= hi {
				r = 'a'
				break
			}
			if lo >= '0' && lo <= 'z' {
				r = lo
			}
		}
		b.WriteRune(r)
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte('a')
	case syntax.OpCapture:
		return shortest(re.Sub[0], b, depth+1)
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if !shortest(sub, b, depth+1) {
				return false
			}
		}
	case syntax.OpAlternate:
		return shortest(re.Sub[0], b, depth+1)
	case syntax.OpPlus:
		return shortest(re.Sub[0], b, depth+1)
	case syntax.OpRepeat:
		for i := 0; i < re.Min; i++ {
			if !shortest(re.Sub[0], b, depth+1) {
				return false
			}
		}
	case syntax.OpStar, syntax.OpQuest, syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine,
		syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
	default:
		return false
	}
	return true
}

// docRequest is one request of the harness.
type docRequest struct {
	method, path string // path with its parameters filled in
	query        url.Values
	header       http.Header
	body         []byte
	media        string // the body's declared media type, "" for none
	// invalidValues say which of its values the harness could not make
	// valid by the document's schemas (empty for none).
	invalidValues []string
}

// breaking is what an invalid request changes in a valid one.
type breaking struct {
	param   *docParam // give this parameter a value of the wrong type
	dropReq string    // leave this required body field out
}

// request builds an operation's request: valid, or with one thing broken.
func (d *document) request(op *docOperation, brk breaking) (*docRequest, error) {
	r := &docRequest{method: op.method, path: op.path, query: url.Values{}, header: http.Header{}}
	cookies := []string{}
	for _, p := range op.params {
		decls := append([]*docParam{p}, p.also...)
		if !slices.ContainsFunc(decls, func(q *docParam) bool { return q.required }) && p != brk.param {
			continue
		}
		v := d.paramValue(decls)
		if p == brk.param {
			v = "not-a-number"
		} else {
			for _, q := range decls {
				if err := d.checkParam(q, v); err != nil {
					r.invalidValues = append(r.invalidValues, fmt.Sprintf("%s parameter %s: %v", p.in, p.name, err))
				}
			}
		}
		switch p.in {
		case "path":
			r.path = strings.ReplaceAll(r.path, "{"+p.name+"}", paramText(v, p, url.PathEscape))
		case "query":
			addQuery(r.query, p, v)
		case "header":
			r.header.Set(p.name, paramText(v, p, noEscape))
		case "cookie":
			cookies = append(cookies, p.name+"="+paramText(v, p, url.QueryEscape))
		}
	}
	if len(cookies) > 0 {
		r.header.Set("Cookie", strings.Join(cookies, "; "))
	}
	if err := d.credentials(op, r); err != nil {
		return nil, err
	}
	if op.body == nil || len(op.body.media) == 0 {
		return r, nil
	}
	md := pickMedia(op.body.media)
	r.media = md.name
	v := any(map[string]any{})
	if md.schema != "" {
		v, _ = d.validValue(md.schema, d.mediaExample(md))
	}
	if isForm(md.name) && md.schema != "" {
		// A form has no way to send an empty array: a required one must
		// have an item to be there at all. The form itself may be empty.
		if obj, ok := v.(map[string]any); ok && len(obj) > 0 {
			if f := d.filled(d.schemaAt(md.schema), v, 0); d.check(md.schema, f) == nil {
				v = f
			}
		}
	}
	if d.isLogin(op) {
		v = d.withAccount(md.schema, v)
	}
	if brk.dropReq != "" {
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("the body is not an object")
		}
		c := map[string]any{}
		for k, x := range obj {
			if k != brk.dropReq {
				c[k] = x
			}
		}
		v = c
	}
	if md.schema != "" && brk.dropReq == "" {
		if err := d.check(md.schema, v); err != nil {
			r.invalidValues = append(r.invalidValues, fmt.Sprintf("body: %v", err))
		}
	}
	body, ctype, err := encodeBody(md, v, d.schemaAt(md.schema))
	if err != nil {
		return nil, err
	}
	r.body = body
	r.header.Set("Content-Type", ctype)
	return r, nil
}

// mediaExample is a 3.x media type's own example.
func (d *document) mediaExample(md docMedia) any {
	if !strings.HasSuffix(md.schema, "/schema") || strings.HasPrefix(md.schema, "mem:") {
		return nil
	}
	m, _ := d.at(strings.TrimSuffix(md.schema, "/schema")).(map[string]any)
	if ex, ok := m["example"]; ok {
		return ex
	}
	if exs, ok := m["examples"].(map[string]any); ok {
		for _, k := range slices.Sorted(maps.Keys(exs)) {
			em, _ := exs[k].(map[string]any)
			if ref, ok := em["$ref"].(string); ok && strings.HasPrefix(ref, "#") {
				_, em = d.deref(ref[1:])
			}
			if v, ok := em["value"]; ok {
				return v
			}
		}
	}
	return nil
}

// requiredBodyField is the first required field of an operation's body
// (its picked media type's schema), "" for none.
func (d *document) requiredBodyField(op *docOperation) string {
	if op.body == nil || len(op.body.media) == 0 {
		return ""
	}
	s := d.schemaAt(pickMedia(op.body.media).schema)
	if s == nil {
		return ""
	}
	var req []any
	req, _ = s["required"].([]any)
	if all, ok := s["allOf"].([]any); ok {
		for _, part := range all {
			pm, _ := part.(map[string]any)
			if pm = d.resolve(pm); pm != nil {
				r, _ := pm["required"].([]any)
				req = append(req, r...)
			}
		}
	}
	for _, r := range req {
		if name, ok := r.(string); ok {
			return name
		}
	}
	return ""
}

// wrongTypeParam is the first path, then query parameter whose schema is
// a number or a boolean: a word is a value of the wrong type for it.
func (d *document) wrongTypeParam(op *docOperation) *docParam {
	for _, in := range []string{"path", "query"} {
		for _, p := range op.params {
			if p.in != in || p.style == "json" {
				continue
			}
			s := d.schemaAt(p.schema)
			if s == nil || s["enum"] != nil {
				continue
			}
			switch firstType(s) {
			case "integer", "number", "boolean":
				return p
			}
		}
	}
	return nil
}

// paramValue is a valid value of a parameter, one every declaration of
// it accepts where it is declared more than once.
func (d *document) paramValue(decls []*docParam) any {
	var first any
	for i, q := range decls {
		v, _ := d.validValue(q.schema, q.example)
		if f := d.filled(d.schemaAt(q.schema), v, 0); d.check(q.schema, f) == nil {
			v = f
		}
		if i == 0 {
			first = v
		}
		if !slices.ContainsFunc(decls, func(o *docParam) bool { return d.checkParam(o, v) != nil }) {
			return v
		}
	}
	return first
}

// checkParam is check for a parameter's value, which travels as text: a
// scalar is valid where its text is (3 is a valid string "3").
func (d *document) checkParam(p *docParam, v any) error {
	err := d.check(p.schema, v)
	if err == nil || p.style == "json" {
		return err
	}
	switch v.(type) {
	case []any, map[string]any, string, nil:
		return err
	}
	if d.check(p.schema, itemText(v)) == nil {
		return nil
	}
	return err
}

// filled is v with every empty array given one item and every empty
// object one member, at any depth: an empty array or object has no
// serialization of its own in a parameter or a form (form style with
// explode writes nothing for it), so a required one left empty is not
// sent at all.
func (d *document) filled(s map[string]any, v any, depth int) any {
	s = d.resolve(s)
	if s == nil || depth > maxDepth {
		return v
	}
	for _, key := range []string{"allOf", "anyOf", "oneOf"} {
		// The branch that describes v's members or items.
		if alts, ok := s[key].([]any); ok {
			for _, alt := range alts {
				am, _ := alt.(map[string]any)
				if am = d.resolve(am); am == nil {
					continue
				}
				switch v.(type) {
				case []any:
					if am["items"] != nil {
						return d.filled(am, v, depth+1)
					}
				case map[string]any:
					if am["properties"] != nil || am["additionalProperties"] != nil {
						v = d.filled(am, v, depth+1)
					}
				}
			}
		}
	}
	switch x := v.(type) {
	case []any:
		items, _ := s["items"].(map[string]any)
		if len(x) == 0 {
			return []any{d.filled(items, d.sample(items, depth+1, true), depth+1)}
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = d.filled(items, e, depth+1)
		}
		return out
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		out := maps.Clone(x)
		for k, e := range x {
			if ps, ok := props[k].(map[string]any); ok {
				out[k] = d.filled(ps, e, depth+1)
			}
		}
		if len(out) > 0 {
			return out
		}
		if names := slices.Sorted(maps.Keys(props)); len(names) > 0 {
			ps, _ := props[names[0]].(map[string]any)
			out[names[0]] = d.filled(ps, d.sample(ps, depth+1, true), depth+1)
		} else if ap, ok := s["additionalProperties"].(map[string]any); ok {
			out["a"] = d.filled(ap, d.sample(ap, depth+1, true), depth+1)
		} else if s["additionalProperties"] != false {
			out["a"] = "a"
		}
		return out
	}
	return v
}

// itemText writes one value inside a parameter (an item, a member's
// value): a scalar as text; what OpenAPI's styles do not define (an
// array or object nested in another) as JSON.
func itemText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case map[string]any, []any:
		data, _ := json.Marshal(x)
		return string(data)
	}
	return fmt.Sprint(v)
}

// paramText writes a path, header or cookie parameter's value as its
// style and explode say (OpenAPI 3's Style Values, RFC 6570): simple
// "a,b" and "k,v" ("k=v" exploded), label ".a,b" (".a.b"), matrix
// ";p=a,b" (";p=a;p=b"), form (a cookie) "a,b"; a parameter described
// by content (style json) as JSON. esc escapes each item and member
// (a path segment's escaping), not the delimiters.
func paramText(v any, p *docParam, esc func(string) string) string {
	if p.style == "json" {
		data, _ := json.Marshal(v)
		return esc(string(data))
	}
	prefix, sep := "", ","
	switch p.style {
	case "label":
		prefix = "."
		if p.explode {
			sep = "."
		}
	case "matrix":
		prefix = ";" + p.name + "="
		if p.explode {
			sep = ";" + p.name + "="
		}
	}
	if p.delim != "" {
		sep = p.delim
	}
	switch x := v.(type) {
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = esc(itemText(e))
		}
		return prefix + strings.Join(parts, sep)
	case map[string]any:
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if p.explode {
				parts = append(parts, esc(k)+"="+esc(itemText(x[k])))
			} else {
				parts = append(parts, esc(k), esc(itemText(x[k])))
			}
		}
		if p.explode && p.style == "matrix" {
			return ";" + strings.Join(parts, ";")
		}
		if p.explode && p.style == "label" {
			return "." + strings.Join(parts, ".")
		}
		return prefix + strings.Join(parts, sep)
	}
	return prefix + esc(itemText(v))
}

func noEscape(s string) string { return s }

// addQuery adds a query parameter as its style and explode say: form
// repeats the key for each item (explode) or joins the items with
// commas, spaceDelimited and pipeDelimited (and Swagger 2.0's ssv, tsv,
// pipes) with their delimiter; an object is its members as keys (form,
// explode), name[member] keys (deepObject) or "k,v" pairs.
func addQuery(q url.Values, p *docParam, v any) {
	switch x := v.(type) {
	case []any:
		if p.explode && p.style != "json" {
			for _, e := range x {
				q.Add(p.name, itemText(e))
			}
			return
		}
	case map[string]any:
		switch {
		case p.style == "deepObject":
			for _, k := range slices.Sorted(maps.Keys(x)) {
				q.Add(p.name+"["+k+"]", itemText(x[k]))
			}
			return
		case p.style == "form" && p.explode:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				if arr, ok := x[k].([]any); ok {
					for _, e := range arr {
						q.Add(k, itemText(e))
					}
					continue
				}
				q.Add(k, itemText(x[k]))
			}
			return
		}
	}
	q.Add(p.name, paramText(v, p, noEscape))
}

// pickMedia takes the media type a client most likely sends: JSON, then a
// form, then text, XML, anything else.
func pickMedia(list []docMedia) docMedia {
	rank := func(mt string) int {
		b := mediaBase(mt)
		switch {
		case b == "application/json":
			return 0
		case strings.HasSuffix(b, "+json") || strings.HasSuffix(b, "/json"):
			return 1
		case b == "application/x-www-form-urlencoded":
			return 2
		case b == "multipart/form-data":
			return 3
		case b == "text/plain":
			return 4
		case strings.Contains(b, "xml"):
			return 5
		case strings.Contains(b, "*"):
			return 7
		}
		return 6
	}
	best := list[0]
	for _, md := range list[1:] {
		if rank(md.name) < rank(best.name) {
			best = md
		}
	}
	return best
}

func mediaBase(mt string) string {
	mt, _, _ = strings.Cut(mt, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

func isJSONMedia(mt string) bool {
	b := mediaBase(mt)
	return b == "application/json" || strings.HasSuffix(b, "+json") || strings.HasSuffix(b, "/json")
}

// encodeBody writes a value in a media type, with the Content-Type to
// send it under.
func encodeBody(md docMedia, v any, s map[string]any) ([]byte, string, error) {
	b := mediaBase(md.name)
	switch {
	case isJSONMedia(b):
		data, err := json.Marshal(v)
		return data, md.name, err
	case b == "application/x-www-form-urlencoded":
		form := url.Values{}
		obj, _ := v.(map[string]any)
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			switch x := obj[k].(type) {
			case []any:
				if delim, ok := md.joined[k]; ok {
					form.Add(k, joinItems(x, delim))
					continue
				}
				for _, e := range x {
					form.Add(k, formText(e))
				}
			default:
				form.Add(k, formText(x))
			}
		}
		return []byte(form.Encode()), md.name, nil
	case b == "multipart/form-data":
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		obj, _ := v.(map[string]any)
		props, _ := s["properties"].(map[string]any)
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			ps, _ := props[k].(map[string]any)
			values, isArray := obj[k].([]any)
			delim, joined := md.joined[k]
			switch {
			case isArray && joined:
				values = []any{joinItems(values, delim)}
			case isArray:
				if items, _ := ps["items"].(map[string]any); items != nil {
					ps = items
				}
			default:
				values = []any{obj[k]}
			}
			// An array is one part per item, each part as its item's
			// schema says: a file (format binary, contentMediaType), an
			// object as JSON, a scalar as text.
			for _, e := range values {
				if err := writePart(w, k, e, md.files[k] || binarySchema(ps)); err != nil {
					return nil, "", err
				}
			}
		}
		if err := w.Close(); err != nil {
			return nil, "", err
		}
		return buf.Bytes(), w.FormDataContentType(), nil
	case strings.Contains(b, "xml"):
		return xmlBody(v, s), md.name, nil
	case b == "*/*" || strings.HasSuffix(b, "/*"):
		data, err := json.Marshal(v)
		return data, "application/json", err
	}
	return []byte(formText(v)), md.name, nil
}

// joinItems is an array's items in one value, as Swagger 2.0's
// collectionFormat csv, ssv, tsv or pipes writes them.
func joinItems(items []any, delim string) string {
	parts := make([]string, len(items))
	for i, e := range items {
		parts[i] = itemText(e)
	}
	return strings.Join(parts, delim)
}

// binarySchema reports whether a form field's schema is a file's.
func binarySchema(s map[string]any) bool {
	return s != nil && (s["format"] == "binary" || s["contentMediaType"] != nil)
}

// writePart writes one multipart part: a file, a JSON object or array
// (under application/json), or text.
func writePart(w *multipart.Writer, name string, v any, file bool) error {
	h := textproto.MIMEHeader{}
	switch {
	case file:
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, name, name+".txt"))
		h.Set("Content-Type", "application/octet-stream")
	default:
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q`, name))
		switch v.(type) {
		case map[string]any, []any:
			h.Set("Content-Type", "application/json")
		}
	}
	pw, err := w.CreatePart(h)
	if err != nil {
		return err
	}
	_, err = io.WriteString(pw, formText(v))
	return err
}

func formText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	case map[string]any, []any:
		data, _ := json.Marshal(x)
		return string(data)
	}
	return fmt.Sprint(v)
}

// xmlBody writes an object as XML under the schema's xml name.
func xmlBody(v any, s map[string]any) []byte {
	name := "root"
	if x, ok := s["xml"].(map[string]any); ok {
		if n, ok := x["name"].(string); ok && n != "" {
			name = n
		}
	}
	var b strings.Builder
	var write func(tag string, v any)
	write = func(tag string, v any) {
		b.WriteString("<" + tag + ">")
		switch x := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				write(k, x[k])
			}
		case []any:
			for _, e := range x {
				write("item", e)
			}
		default:
			var esc bytes.Buffer
			_ = xml.EscapeText(&esc, []byte(formText(x)))
			b.Write(esc.Bytes())
		}
		b.WriteString("</" + tag + ">")
	}
	write(name, v)
	return []byte(b.String())
}

// credentials adds what an operation's first security requirement asks
// for: a key, a basic account, a bearer token. A scheme the document does
// not declare is left out.
func (d *document) credentials(op *docOperation, r *docRequest) error {
	if len(op.security) == 0 {
		return nil
	}
	for _, req := range op.security {
		if len(req) == 0 {
			return nil // anonymous access is allowed
		}
	}
	var schemes map[string]any
	if d.swagger2 {
		schemes, _ = d.root["securityDefinitions"].(map[string]any)
	} else {
		schemes, _ = d.at("/components/securitySchemes").(map[string]any)
	}
	for _, name := range slices.Sorted(maps.Keys(op.security[0])) {
		sm, _ := schemes[name].(map[string]any)
		if ref, ok := sm["$ref"].(string); ok && strings.HasPrefix(ref, "#") {
			_, sm = d.deref(ref[1:])
		}
		if sm == nil {
			continue // not declared: nothing to send
		}
		typ, _ := sm["type"].(string)
		scheme, _ := sm["scheme"].(string)
		switch {
		case typ == "apiKey":
			key, _ := sm["name"].(string)
			switch sm["in"] {
			case "query":
				r.query.Set(key, "corpus-key")
			case "cookie":
				r.header.Add("Cookie", key+"=corpus-key")
			default:
				r.header.Set(key, "corpus-key")
			}
		case typ == "basic" || (typ == "http" && strings.EqualFold(scheme, "basic")):
			r.header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte("corpus:corpus-password")))
		case typ == "http" && !strings.EqualFold(scheme, "bearer"):
			r.header.Set("Authorization", scheme+" corpus-credentials")
		case d.bearer != "":
			r.header.Set("Authorization", "Bearer "+d.bearer)
		default: // bearer, oauth2, openIdConnect
			r.header.Set("Authorization", "Bearer "+corpusToken)
		}
	}
	return nil
}

// The account the harness logs in with where a document has a password
// login of its own.
const corpusAccount, corpusPassword = "corpus@example.com", "corpus-password"

// corpusToken is the bearer token the harness sends where a document has
// no login to earn one with (the mock accepts a token it did not issue),
// and gives the runner (--token).
const corpusToken = "corpus-token"

// isLogin reports whether op is a login of the document's own: a POST on
// a path with a segment naming login (/users/login, /rest-auth/login/,
// /login/access-token) whose body takes a password, at its top or in the
// one object it wraps its members in (RealWorld's {"user": {…}}).
func (d *document) isLogin(op *docOperation) bool {
	if op.method != "POST" || op.body == nil || len(op.body.media) == 0 {
		return false
	}
	login := false
	for _, seg := range strings.Split(op.path, "/") {
		login = login || strings.Contains(strings.ToLower(seg), "login")
	}
	if !login {
		return false
	}
	_, props := d.loginProps(pickMedia(op.body.media).schema)
	return props != nil
}

// loginProps are the properties of a login body's schema that hold its
// password, and the member wrapping them ("" for none); nil when no
// password is there.
func (d *document) loginProps(schema string) (string, map[string]any) {
	s := d.schemaAt(schema)
	props, _ := s["properties"].(map[string]any)
	if props["password"] != nil {
		return "", props
	}
	if len(props) != 1 {
		return "", nil
	}
	for wrap, inner := range props {
		m, _ := inner.(map[string]any)
		in, _ := d.resolve(m)["properties"].(map[string]any)
		if in["password"] != nil {
			return wrap, in
		}
	}
	return "", nil
}

// withAccount is v, a login's body, carrying the harness's account: its
// password, and its name in every member that names an account (username,
// email) the schema declares. The mock was started with the account
// (--account): a valid login is one it accepts.
func (d *document) withAccount(schema string, v any) any {
	wrap, props := d.loginProps(schema)
	obj, _ := v.(map[string]any)
	if obj == nil {
		return v
	}
	target := obj
	if wrap != "" {
		inner, _ := obj[wrap].(map[string]any)
		if inner == nil {
			inner = map[string]any{}
		}
		target = maps.Clone(inner)
		obj = maps.Clone(obj)
		obj[wrap] = target
	} else {
		obj = maps.Clone(obj)
		target = obj
	}
	target["password"] = corpusPassword
	for _, name := range []string{"username", "email"} {
		if props[name] != nil {
			target[name] = corpusAccount
		}
	}
	return obj
}

// secured reports whether an operation of the document requires
// credentials (a security requirement, none of them anonymous).
func (d *document) secured() bool {
	return slices.ContainsFunc(d.ops, func(op *docOperation) bool {
		return len(op.security) > 0 && !slices.ContainsFunc(op.security, func(req map[string][]string) bool { return len(req) == 0 })
	})
}

// hasLogin reports whether the document has a login of its own (isLogin).
func (d *document) hasLogin() bool {
	return slices.ContainsFunc(d.ops, d.isLogin)
}

// passwordLogin is the path of the document's OAuth2 password flow
// (tokenUrl, when it is a path of the server, as FastAPI writes it), or "".
func (d *document) passwordLogin() string {
	var schemes map[string]any
	if d.swagger2 {
		schemes, _ = d.root["securityDefinitions"].(map[string]any)
	} else {
		schemes, _ = d.at("/components/securitySchemes").(map[string]any)
	}
	for _, name := range slices.Sorted(maps.Keys(schemes)) {
		sm, _ := schemes[name].(map[string]any)
		if typ, _ := sm["type"].(string); typ != "oauth2" {
			continue
		}
		var url string
		if d.swagger2 {
			if flow, _ := sm["flow"].(string); flow == "password" {
				url, _ = sm["tokenUrl"].(string)
			}
		} else if flows, _ := sm["flows"].(map[string]any); flows != nil {
			if pw, _ := flows["password"].(map[string]any); pw != nil {
				url, _ = pw["tokenUrl"].(string)
			}
		}
		if strings.HasPrefix(url, "/") && !strings.HasPrefix(url, "//") {
			return url
		}
	}
	return ""
}
