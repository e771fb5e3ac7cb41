package contract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/fake"
	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
)

// Reserved keys of values: what a case sends besides the declared inputs.
// They never collide with a parameter name (no name holds a NUL).
const (
	bodyKey = "\x00body" // the request body, sent as is
	ctKey   = "\x00ct"   // the Content-Type sent with it; "" none (default application/json)
	authKey = "\x00auth" // the Authorization header; "" none (default: the runner's token)
	// absent is the value of an input a case leaves out, even when the
	// user gives one to send with every request (--header, --query,
	// --cookie).
	absent = "\x00absent"
)

// jsonBodySchema is the schema of an operation's application/json body:
// the reference as written and the object schema it stands for (the
// non-null alternative of an optional body).
func jsonBodySchema(o *operation) (*openapi3.SchemaRef, *openapi3.Schema) {
	if o.inputs.JSON == nil || o.op.RequestBody == nil || o.op.RequestBody.Value == nil {
		return nil, nil
	}
	mt := o.op.RequestBody.Value.Content.Get(o.inputs.JSON.MediaType())
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		return nil, nil
	}
	ref := mt.Schema
	if spec.Nullable(ref.Value) {
		for _, alt := range ref.Value.AnyOf {
			if alt.Value != nil && !alt.Value.Type.Is("null") {
				ref = alt
				break
			}
		}
	}
	return ref, ref.Value
}

// judgeBody is what FastAPI answers to a JSON body of o (every other input
// valid, a token sent): ok false when it is no 422 at all (a 400 for bytes
// it cannot decode, a 500 for an input it cannot write); else the error
// items, none when the body is accepted.
func judgeBody(o *operation, ct string, hasCT bool, body []byte) (items []fastapi.ErrorItem, ok bool) {
	parsed, items, err := o.inputs.JSON.Read(ct, hasCT, body)
	if err != nil {
		return nil, false
	}
	if len(items) > 0 {
		return items, true
	}
	_, items = o.inputs.JSON.Validate(parsed)
	if fastapi.Unanswerable(items) {
		return nil, false
	}
	return items, true
}

// bodyValid reports whether FastAPI accepts body as o's JSON body.
func bodyValid(o *operation, body []byte) bool {
	items, ok := judgeBody(o, "application/json", true, body)
	return ok && len(items) == 0
}

// seedFor derives a seed from the run's seed and a purpose.
func (b *builder) seedFor(parts ...string) uint64 {
	h := fnv.New64a()
	fmt.Fprint(h, b.cfg.Seed)
	for _, p := range parts {
		h.Write([]byte{0})
		h.Write([]byte(p))
	}
	return h.Sum64()
}

// generator is the contract's value generator, made once (or given by the
// run); what it cannot honour of the contract is noted on first use.
func (b *builder) generator() *fake.Generator {
	if b.fake == nil {
		b.fake = fake.New(b.sp)
	}
	if !b.fakeNoted {
		b.fakeNoted = true
		for _, n := range b.fake.Notes() {
			b.note("generated values: " + n)
		}
	}
	return b.fake
}

// maxCaseLength is the longest string, and the most items, a case sends to
// test a length bound: a request carries no more (a bound of maxLength
// 1e18 would be 10^18 bytes), and a bound past it is noted as not tested.
const maxCaseLength = 1 << 20

// noteUntested notes the length bounds of s past maxCaseLength, which the
// cases do not test.
func (b *builder) noteUntested(where string, s *openapi3.Schema) {
	if s == nil {
		return
	}
	for _, bound := range []struct {
		key string
		v   *uint64
	}{{"maxLength", s.MaxLength}, {"minLength", &s.MinLength}, {"maxItems", s.MaxItems}, {"minItems", &s.MinItems}} {
		if bound.v != nil && *bound.v > maxCaseLength {
			b.note(fmt.Sprintf("%s: %s %d is past what a request carries (%d): not tested", where, bound.key, *bound.v, maxCaseLength))
		}
	}
}

// note adds a note to the report, once.
func (b *builder) note(n string) {
	if b.notes != nil && !slices.Contains(*b.notes, n) {
		*b.notes = append(*b.notes, n)
	}
}

// bodyCandidates are o's valid bodies before any fix-up: the contract's
// request examples first, then seeded generated ones.
func (b *builder) bodyCandidates(o *operation) [][]byte {
	var out [][]byte
	mt := o.op.RequestBody.Value.Content.Get(o.inputs.JSON.MediaType())
	if mt == nil {
		return nil
	}
	if mt.Example != nil {
		if raw, err := json.Marshal(mt.Example); err == nil {
			out = append(out, raw)
		}
	}
	for _, name := range sortedKeys(mt.Examples) {
		if ex := mt.Examples[name]; ex != nil && ex.Value != nil && ex.Value.Value != nil {
			if raw, err := json.Marshal(ex.Value.Value); err == nil {
				out = append(out, raw)
			}
		}
	}
	ref, s := jsonBodySchema(o)
	if s != nil && s.Example != nil {
		if raw, err := json.Marshal(s.Example); err == nil {
			out = append(out, raw)
		}
	}
	for i := 0; i < 8; i++ {
		f := gofakeit.New(b.seedFor("body", o.id, strconv.Itoa(i)))
		out = append(out, neutralKeys(ref, b.generator().Append(nil, f, "", ref)))
	}
	return out
}

// maxKeyDepth bounds how deep neutralKeys follows a body into its schema.
const maxKeyDepth = 64

// neutralKeys renames the keys of every dict in a generated body whose
// schema leaves its keys free (additionalProperties and no properties nor
// propertyNames) to "1", "2", …: pydantic writes no schema for a dict's
// key type, so dict[int, float] and dict[str, float] read the same in the
// contract, and only such keys are valid for either (and for float, Decimal
// or a str with no constraint). A body without such a dict is returned as
// it is.
func neutralKeys(ref *openapi3.SchemaRef, body []byte) []byte {
	if ref == nil || ref.Value == nil {
		return body
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return body
	}
	v, changed := renameFreeKeys(ref.Value, v, 0)
	if !changed {
		return body
	}
	if out := encode(v); out != nil {
		return out
	}
	return body
}

// freeDict reports whether s is a dict whose keys the contract leaves free.
// One whose parts name its keys (type: object beside an allOf of a model,
// as @nestjs/swagger writes a nullable reference) is not: its keys are the
// parts' properties.
func freeDict(s *openapi3.Schema) bool {
	return len(s.Properties) == 0 && s.PropertyNames == nil && len(s.PatternProperties) == 0 &&
		len(s.AllOf) == 0 && len(s.OneOf) == 0 && len(s.AnyOf) == 0 &&
		(s.AdditionalProperties.Schema != nil || s.AdditionalProperties.Has == nil || *s.AdditionalProperties.Has) &&
		(s.Type.Is("object") || s.AdditionalProperties.Schema != nil)
}

func renameFreeKeys(s *openapi3.Schema, v any, depth int) (any, bool) {
	if s == nil || depth > maxKeyDepth {
		return v, false
	}
	changed := false
	for _, alt := range s.AnyOf {
		if alt.Value != nil && !alt.Value.Type.Is("null") {
			var c bool
			v, c = renameFreeKeys(alt.Value, v, depth+1)
			changed = changed || c
		}
	}
	switch x := v.(type) {
	case map[string]any:
		if freeDict(s) {
			var elem *openapi3.Schema
			if s.AdditionalProperties.Schema != nil {
				elem = s.AdditionalProperties.Schema.Value
			}
			out := make(map[string]any, len(x))
			for i, k := range sortedKeys(x) {
				out[strconv.Itoa(i+1)], _ = renameFreeKeys(elem, x[k], depth+1)
			}
			return out, true
		}
		for name, p := range s.Properties {
			if val, ok := x[name]; ok && p.Value != nil {
				var c bool
				x[name], c = renameFreeKeys(p.Value, val, depth+1)
				changed = changed || c
			}
		}
	case []any:
		if s.Items != nil && s.Items.Value != nil {
			for i := range x {
				var c bool
				x[i], c = renameFreeKeys(s.Items.Value, x[i], depth+1)
				changed = changed || c
			}
		}
	}
	return v, changed
}

// validBody is a body FastAPI accepts for o, with the values the target
// needs: relation fields naming records it has, account names no one has
// taken yet. Empty when none could be made.
func (b *builder) validBody(o *operation) string {
	if o.inputs.JSON == nil {
		return ""
	}
	if b.bodies == nil {
		b.bodies = map[*operation][]byte{}
	}
	base, known := b.bodies[o]
	if !known {
		// The first valid candidate, one with something in it when there
		// is one: an empty list or dict leaves its items untested.
		for _, c := range b.bodyCandidates(o) {
			fixed := b.fixRelations(o, c)
			if !bodyValid(o, fixed) {
				continue
			}
			if base == nil {
				base = fixed
			}
			if t := string(bytes.TrimSpace(fixed)); t != "[]" && t != "{}" {
				base = fixed
				break
			}
		}
		b.bodies[o] = base
	}
	if base == nil {
		return ""
	}
	return string(b.freshValues(o, base))
}

// rawBody is a body for o's request body of a media type FastAPI does not
// parse (fastapi.RawBody), which the endpoint reads itself: the contract's
// examples of that media type, then seeded generated values, the first
// one its schema allows (an example it refuses is no valid value). A
// string is sent as its text, anything else as JSON, which YAML 1.2 reads
// as the same value. Empty when none could be made.
func (b *builder) rawBody(o *operation) string {
	raw := o.inputs.Raw
	if raw == nil || raw.Media == nil {
		return ""
	}
	mt := raw.Media
	var candidates []any
	if mt.Example != nil {
		candidates = append(candidates, mt.Example)
	}
	for _, name := range sortedKeys(mt.Examples) {
		if ex := mt.Examples[name]; ex != nil && ex.Value != nil && ex.Value.Value != nil {
			candidates = append(candidates, ex.Value.Value)
		}
	}
	var schema *openapi3.Schema
	if mt.Schema != nil && mt.Schema.Value != nil {
		schema = mt.Schema.Value
		if schema.Example != nil {
			candidates = append(candidates, schema.Example)
		}
		for i := 0; i < 8; i++ {
			f := gofakeit.New(b.seedFor("raw body", o.id, strconv.Itoa(i)))
			var v any
			if json.Unmarshal(neutralKeys(mt.Schema, b.generator().Append(nil, f, "", mt.Schema)), &v) == nil {
				candidates = append(candidates, v)
			}
		}
	}
	for _, v := range candidates {
		if schema != nil && b.sp.Validate(schema, v, false) != nil {
			continue
		}
		if s, ok := v.(string); ok {
			return s
		}
		if out := encode(v); out != nil {
			return string(out)
		}
	}
	return ""
}

// keepKeys gives the body field of a write named like one of its path
// parameters the path's value, so that a case changes the record it
// addresses without moving it: PUT /users/{username} with another
// username in its body renames the user, and every later case addresses a
// user that is gone. (Sequences move records on purpose, and follow them.)
func keepKeys(o *operation, vals values, body string) string {
	if !o.unsafe() || body == "" {
		return body
	}
	m, ok := decodeObject([]byte(body))
	if !ok {
		return body
	}
	changed := false
	for _, in := range o.inputs.List {
		v, set := vals[in.Name]
		if in.In != "path" || !set {
			continue
		}
		switch cur := m[in.Name].(type) {
		case string:
			if cur != v {
				m[in.Name], changed = v, true
			}
		case json.Number:
			if _, err := strconv.ParseFloat(v, 64); err == nil && string(cur) != v {
				m[in.Name], changed = json.Number(v), true
			}
		}
	}
	if !changed {
		return body
	}
	if out := encode(m); bodyValid(o, out) {
		return string(out)
	}
	return body
}

// decodeObject decodes a JSON object keeping numbers as written.
func decodeObject(body []byte) (map[string]any, bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var m map[string]any
	if dec.Decode(&m) != nil || m == nil {
		return nil, false
	}
	return m, true
}

// encode writes v as compact JSON without HTML escaping.
func encode(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return nil
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// fixRelations sets every field naming another record (movie_id,
// project_id) to an id the target has, when one is known: by the field's
// name as a path parameter, or by the relation the model reads.
func (b *builder) fixRelations(o *operation, body []byte) []byte {
	m, ok := decodeObject(body)
	if !ok {
		return body
	}
	changed := false
	for _, k := range sortedKeys(m) {
		ids := b.idsFor(o, k)
		if len(ids) == 0 {
			continue
		}
		switch m[k].(type) {
		case json.Number:
			if _, err := strconv.ParseInt(ids[0], 10, 64); err == nil {
				m[k], changed = json.Number(ids[0]), true
			}
		case string, nil:
			m[k], changed = ids[0], true
		}
	}
	if !changed {
		return body
	}
	return encode(m)
}

// idsFor lists ids the target has for a body field of o naming a record.
func (b *builder) idsFor(o *operation, field string) []string {
	if !strings.HasSuffix(field, "_id") && field != "id" {
		return nil
	}
	if ids := b.ids[field]; len(ids) > 0 {
		return ids
	}
	if b.model == nil || o.model == nil || o.model.Coll == nil {
		return nil
	}
	f := o.model.Coll.Field(field)
	if f == nil || f.Refers == nil {
		return nil
	}
	for _, mo := range b.model.Operations {
		if mo.Coll == f.Refers && mo.IDParam != "" && mo.Method == "GET" {
			return b.ids[mo.IDParam]
		}
	}
	return nil
}

// freshValues gives the values of a new record that must be unique a value
// no earlier run or case used: an account's username and email (registering
// a taken name is refused), and an id the client chooses (a create body
// carrying the collection's id, as POST /movies {"id": "tt0137523", …}:
// a taken id is refused, often with an undeclared 409). A fresh id is
// generated from the body's own schema for it, so it fits its pattern,
// length and format.
func (b *builder) freshValues(o *operation, body []byte) []byte {
	if o.method != "POST" {
		return body
	}
	m, ok := decodeObject(body)
	if !ok {
		return body
	}
	changed := false
	for _, k := range []string{"username", "email"} {
		if _, ok := m[k].(string); !ok {
			continue
		}
		b.unique++
		name := fmt.Sprintf("mm%s%s", strconv.FormatUint(uint64(b.nonce), 36), strconv.FormatUint(uint64(b.unique), 36))
		if k == "email" {
			name += "@example.com"
		}
		old := m[k]
		m[k] = name
		if bodyValid(o, encode(m)) {
			changed = true
		} else {
			m[k] = old
		}
	}
	if k := clientID(o); k != "" {
		if _, present := m[k]; present && bodyValid(o, encode(m)) {
			if v, ok := b.freshID(o, m, k); ok {
				m[k], changed = v, true
			}
		}
	}
	if !changed {
		return body
	}
	return encode(m)
}

// clientID is the body field of a create that carries the new record's id,
// "" when the server chooses ids.
func clientID(o *operation) string {
	if o.model == nil || o.model.Coll == nil || o.model.Coll.ID == nil ||
		(o.model.Kind != model.Create && o.model.Kind != model.NestedCreate) {
		return ""
	}
	_, s := jsonBodySchema(o)
	if s == nil || s.Properties[o.model.Coll.ID.Name] == nil {
		return ""
	}
	return o.model.Coll.ID.Name
}

// freshID generates a value for the client-chosen id field k of m from its
// schema, one no id the runner knows of has, that keeps the body valid.
func (b *builder) freshID(o *operation, m map[string]any, k string) (any, bool) {
	_, s := jsonBodySchema(o)
	ref := s.Properties[k]
	known := map[string]bool{}
	for _, ids := range b.ids {
		for _, id := range ids {
			known[id] = true
		}
	}
	old := m[k]
	defer func() { m[k] = old }()
	for try := 0; try < 8; try++ {
		b.unique++
		f := gofakeit.New(b.seedFor("fresh id", o.id, strconv.FormatUint(uint64(b.nonce), 36), strconv.FormatUint(uint64(b.unique), 36)))
		raw := b.generator().Append(nil, f, k, ref)
		var v any
		if json.Unmarshal(raw, &v) != nil || known[fmt.Sprint(v)] || jsonEqual(v, old) {
			continue
		}
		m[k] = v
		if bodyValid(o, encode(m)) {
			return v, true
		}
	}
	return nil, false
}

// bodyVariant is one body a case sends and how.
type bodyVariant struct {
	name  string
	ct    string // Content-Type; "" with noCT: none
	noCT  bool
	body  []byte
	field []any
}

// withBody sets a body variant into vals.
func withBody(vals values, v bodyVariant) values {
	out := clone(vals)
	out[bodyKey] = string(v.body)
	if v.noCT {
		out[ctKey] = ""
	} else if v.ct != "" {
		out[ctKey] = v.ct
	}
	return out
}

// negativeBodies adds a case for every body FastAPI rejects that a field's
// schema suggests: a required field missing, a wrong type, a bound or a
// pattern or an enum missed, an extra field where none is allowed; and
// bodies wrong as a whole: not JSON, not an object, absent, sent as
// another media type. FastAPI's own rules (fastapi.JSONBody) decide each
// one's answer; bodies it accepts are not sent.
func (b *builder) negativeBodies(o *operation, base values) {
	if o.inputs.JSON == nil || base == nil || base[bodyKey] == "" {
		return
	}
	valid := []byte(base[bodyKey])
	var variants []bodyVariant
	ref, s := jsonBodySchema(o)
	if m, ok := decodeObject(valid); ok && s != nil {
		for _, fv := range b.fieldVariants(ref, m) {
			variants = append(variants, bodyVariant{name: fv.name, body: encode(fv.value)})
		}
	}
	if s != nil && len(s.Properties) == 0 {
		// A body that is not a model (list[int], dict[str, float]): wrong
		// as a whole, or one item or value wrong.
		var whole any
		if dec := json.NewDecoder(bytes.NewReader(valid)); dec.Decode(&whole) == nil {
			for _, bad := range badJSONValues(s, whole) {
				variants = append(variants, bodyVariant{name: short(string(encode(bad))), body: encode(bad)})
			}
		}
		// list[Item]: the first item's fields wrong, one at a time.
		if list, ok := whole.([]any); ok && len(list) > 0 && s.Items != nil && s.Items.Value != nil {
			if first, ok := decodeObject(encode(list[0])); ok {
				for _, fv := range b.fieldVariants(s.Items, first) {
					v := append([]any{fv.value}, list[1:]...)
					variants = append(variants, bodyVariant{name: "item 0 " + fv.name, body: encode(v)})
				}
			}
		}
		if ap := s.AdditionalProperties.Schema; freeDict(s) && ap != nil && ap.Value != nil {
			for _, bad := range badJSONValues(ap.Value, nil) {
				v := map[string]any{"1": bad} // see neutralKeys
				variants = append(variants, bodyVariant{name: short(string(encode(v))), body: encode(v)})
			}
		}
	}
	trimmed := bytes.TrimRight(valid, "}")
	variants = append(variants,
		bodyVariant{name: "invalid JSON (cut short)", body: trimmed},
		bodyVariant{name: "invalid JSON (not JSON)", body: []byte("moviemock")},
		bodyVariant{name: "a JSON array", body: []byte("[]")},
		bodyVariant{name: "a JSON string", body: []byte(`"moviemock"`)},
		bodyVariant{name: "JSON null", body: []byte("null")},
		bodyVariant{name: "no body", body: nil},
		bodyVariant{name: "Content-Type text/plain", ct: "text/plain", body: valid},
		bodyVariant{name: "no Content-Type", noCT: true, body: valid},
	)
	seen := map[string]bool{}
	for _, v := range variants {
		key := fmt.Sprintf("%s\x00%s\x00%t", v.body, v.ct, v.noCT)
		if seen[key] {
			continue
		}
		seen[key] = true
		ct, hasCT := "application/json", true
		if v.noCT {
			ct, hasCT = "", false
		} else if v.ct != "" {
			ct = v.ct
		}
		items, ok := judgeBody(o, ct, hasCT, v.body)
		if !ok || len(items) == 0 {
			continue
		}
		expect := ExpectRejection
		if v.noCT {
			// FastAPI before strict_content_type (and an app that sets
			// it False) reads a body without Content-Type as JSON: a
			// correct backend may refuse it or accept it.
			expect = ExpectAnswered
		}
		b.add(o, Negative, expect, "body: "+v.name, withBody(base, v), items[0].Loc)
	}
}

// fieldVariant is a model's valid value with one field wrong.
type fieldVariant struct {
	name  string
	value map[string]any
}

// fieldVariants are the model values m (valid for the model ref) with one
// field wrong at a time: a required one missing, one holding a value its
// schema may refuse, and an extra field where none is allowed.
func (b *builder) fieldVariants(ref *openapi3.SchemaRef, m map[string]any) []fieldVariant {
	s := ref.Value
	var out []fieldVariant
	for _, name := range b.sp.PropertyOrder(ref) {
		ps := s.Properties[name]
		if ps == nil || ps.Value == nil {
			continue
		}
		if slices.Contains(s.Required, name) {
			v := cloneMap(m)
			delete(v, name)
			out = append(out, fieldVariant{name + " missing", v})
		}
		b.noteUntested(name, ps.Value)
		for _, bad := range badJSONValues(ps.Value, m[name]) {
			v := cloneMap(m)
			v[name] = bad
			out = append(out, fieldVariant{fmt.Sprintf("%s=%s", name, short(string(encode(bad)))), v})
		}
	}
	if s.AdditionalProperties.Has != nil && !*s.AdditionalProperties.Has {
		v := cloneMap(m)
		v["moviemock_extra"] = 1
		out = append(out, fieldVariant{"an extra field", v})
	}
	return out
}

func cloneMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// badJSONValues are values that may break a field's schema: other types
// (pydantic's lax rules accept some: FastAPI's check keeps only those it
// rejects), bounds just missed, a pattern or an enum missed.
func badJSONValues(s *openapi3.Schema, valid any) []any {
	nullable := spec.Nullable(s)
	if nullable {
		for _, alt := range s.AnyOf {
			if alt.Value != nil && !alt.Value.Type.Is("null") {
				s = alt.Value
				break
			}
		}
	}
	out := []any{}
	if !nullable {
		out = append(out, nil)
	}
	switch {
	case s.Type.Is("string"):
		out = append(out, 123, true, []any{}, map[string]any{})
		if s.MaxLength != nil && *s.MaxLength < maxCaseLength {
			out = append(out, strings.Repeat("x", int(*s.MaxLength)+1))
		}
		if s.MinLength > 0 && s.MinLength <= maxCaseLength {
			out = append(out, strings.Repeat("x", int(s.MinLength)-1))
		}
		if s.Pattern != "" {
			out = append(out, "moviemock!")
			if str, ok := valid.(string); ok && str != "" {
				out = append(out, str+"\n", " "+str, strings.ToUpper(str))
			}
		}
		if len(s.Enum) > 0 {
			out = append(out, "moviemock-not-in-enum")
		}
		if s.Format != "" {
			out = append(out, "moviemock")
		}
	case s.Type.Is("integer"), s.Type.Is("number"):
		out = append(out, "abc", []any{}, map[string]any{}, "1e", 1.5)
		if s.Max != nil {
			out = append(out, *s.Max+1)
		}
		if s.Min != nil {
			out = append(out, *s.Min-1)
		}
		if s.ExclusiveMin.Value != nil {
			out = append(out, *s.ExclusiveMin.Value)
		}
		if s.ExclusiveMax.Value != nil {
			out = append(out, *s.ExclusiveMax.Value)
		}
		if len(s.Enum) > 0 {
			out = append(out, 987654321)
		}
	case s.Type.Is("boolean"):
		out = append(out, "maybe", 2, []any{}, map[string]any{})
	case s.Type.Is("array"):
		out = append(out, "moviemock", 1, map[string]any{})
		if items, ok := valid.([]any); ok && len(items) > 0 && s.MaxItems != nil && *s.MaxItems < maxCaseLength {
			many := make([]any, int(*s.MaxItems)+1)
			for i := range many {
				many[i] = items[0]
			}
			out = append(out, many)
		}
		if s.Items != nil && s.Items.Value != nil {
			for _, bad := range badJSONValues(s.Items.Value, nil) {
				out = append(out, []any{bad})
			}
		}
	case s.Type.Is("object"):
		out = append(out, "moviemock", 1, []any{})
	default:
		if len(s.Enum) > 0 {
			out = append(out, "moviemock-not-in-enum", 987654321)
		}
	}
	return out
}

// randomJSONValue is a seeded random field value, valid or not.
func (b *builder) randomJSONValue() any {
	switch b.rng.IntN(9) {
	case 0:
		return nil
	case 1:
		return b.rng.IntN(3) == 0
	case 2:
		return b.rng.IntN(4000) - 500
	case 3:
		return float64(b.rng.IntN(20000))/8 - 100
	case 4:
		return []any{randomString(b.rng, fastapi.String)}
	case 5:
		return map[string]any{}
	case 6:
		return strings.Repeat("x", b.rng.IntN(300))
	default:
		return randomString(b.rng, fastapi.String)
	}
}

// generatedBodies adds cfg.Examples seeded random bodies: each field kept,
// left out or replaced by a random value, at times a field added or the
// whole body broken; FastAPI's rules decide whether it must be rejected
// and where.
func (b *builder) generatedBodies(o *operation, base values) {
	if o.inputs.JSON == nil || base == nil || base[bodyKey] == "" {
		return
	}
	valid, ok := decodeObject([]byte(base[bodyKey]))
	if !ok {
		return
	}
	_, s := jsonBodySchema(o)
	for n := 0; n < b.cfg.Examples; n++ {
		m := cloneMap(valid)
		for _, k := range sortedKeys(m) {
			switch b.rng.IntN(5) {
			case 0:
				delete(m, k)
			case 1:
				m[k] = b.randomJSONValue()
			}
		}
		if b.rng.IntN(4) == 0 {
			key := randomString(b.rng, fastapi.String)
			if s != nil && freeDict(s) {
				key = strconv.Itoa(len(valid) + 1 + b.rng.IntN(1000)) // see neutralKeys
			}
			m[key] = b.randomJSONValue()
		}
		body := encode(m)
		switch b.rng.IntN(12) {
		case 0:
			body = body[:b.rng.IntN(len(body))]
		case 1:
			body = encode([]any{m})
		}
		if o.method == "POST" {
			body = b.freshValues(o, body)
		}
		items, ok := judgeBody(o, "application/json", true, body)
		if !ok {
			continue
		}
		v := withBody(base, bodyVariant{body: body})
		expect, field := ExpectNotRejected, []any(nil)
		if len(items) > 0 {
			expect, field = ExpectRejection, items[0].Loc
		}
		b.add(o, Generated, expect, fmt.Sprintf("#%d body %s", n+1, short(string(body))), v, field)
	}
}

// requiredOnly is the valid body with only its required fields, when that
// is another body FastAPI accepts.
func (b *builder) requiredOnly(o *operation, body string) (string, bool) {
	_, s := jsonBodySchema(o)
	m, ok := decodeObject([]byte(body))
	if !ok || s == nil {
		return "", false
	}
	changed := false
	for k := range m {
		if !slices.Contains(s.Required, k) {
			delete(m, k)
			changed = true
		}
	}
	out := encode(m)
	if !changed || !bodyValid(o, out) {
		return "", false
	}
	return string(out), true
}

// withExtraField is the valid body with a field its schema does not
// declare, when FastAPI accepts it (pydantic ignores extra fields unless
// the model forbids them: additionalProperties false).
func (b *builder) withExtraField(o *operation, body string) (string, bool) {
	_, s := jsonBodySchema(o)
	m, ok := decodeObject([]byte(body))
	// A dict that is not a model has no extra fields: its keys are its
	// data, of a type the contract does not show (see neutralKeys).
	if !ok || s == nil || len(s.Properties) == 0 || (s.AdditionalProperties.Has != nil && !*s.AdditionalProperties.Has) {
		return "", false
	}
	m["moviemock_extra"] = "ignored"
	out := encode(m)
	if !bodyValid(o, out) {
		return "", false
	}
	return string(out), true
}
