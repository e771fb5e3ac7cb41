package fastapi

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"

	"github.com/moviemock/moviemock/internal/spec"
)

// JSONBody is an operation's JSON request body, compiled once from the
// contract: FastAPI's body parameter, most often a pydantic model, else
// any type pydantic validates (list[int], dict[str, float], list[Item]). It reads a request
// body in two steps, as FastAPI 0.141 does: Read before any dependency
// (security) runs, Validate after.
type JSONBody struct {
	// Media is the media type the body is declared in, as the document
	// writes it: application/json, or another of the JSON family a
	// document not FastAPI's declares in its place
	// (`application/vnd.api+json; ext="…"`).
	Media string
	// Required: the operation's requestBody is required. An absent body
	// (empty, or JSON null) is then a 422 "missing" at ["body"];
	// otherwise the endpoint receives None (Model.Absent).
	Required bool
	// Fields are the model's properties in declaration order, as
	// Model.Fields lists them; none for a body that is not a model.
	Fields []string

	model *vmodel
	// root is a body that is not a model (model nil): a list, a dict, a
	// scalar, anything.
	root *vnode
	// Others are the media types declared beside application/json (a
	// lax compile): a body sent as one of them is accepted unread.
	Others []string
	// AlsoJSON are the JSON media types declared beside application/json
	// with its schema (a lax compile): ASP.NET's text/json and
	// application/*+json. A body sent as one of them is read and
	// validated as JSON.
	AlsoJSON []string
	// embed: FastAPI's combined body (a "Body_…" model: several body
	// parameters, or Body(embed=True)), whose fields FastAPI validates
	// one by one rather than as one model.
	embed bool
}

// Parsed is a request body as FastAPI holds it after reading: absent
// (None), bytes it did not parse (no JSON Content-Type), or the objects
// json.loads returned.
type Parsed struct {
	kind parsedKind
	v    pyValue
}

// Sent reports whether the JSON body held key in the object at its
// member wrap ({"article": {"note": null}} holds note in article): a
// member sent, null or not, where a model's dump cannot tell a null sent
// from one left out.
func (p Parsed) Sent(wrap, key string) bool {
	if p.kind != parsedJSON || p.v.kind != pyDict {
		return false
	}
	inner := p.v.get(wrap)
	return inner != nil && inner.kind == pyDict && inner.get(key) != nil
}

type parsedKind uint8

const (
	parsedAbsent parsedKind = iota
	parsedBytes
	parsedJSON
	// parsedOther: a body in one of JSONBody.Others, accepted unread.
	parsedOther
)

// Model is a body FastAPI accepted: what the endpoint receives.
type Model struct {
	// Absent: the body was optional and not given (empty or null); the
	// endpoint receives None and Fields is empty.
	Absent bool
	// Fields are every property of the model, in declaration order;
	// none for a body that is not a model.
	Fields []ModelField
	// JSON is the whole body as the endpoint receives it, dumped as
	// ModelField.JSON is, for a body that is not a model; nil otherwise.
	JSON []byte
	// Unencodable: a value holds a NaN or infinite float or a lone
	// surrogate, which Python's JSON accepts but Starlette's JSONResponse
	// (allow_nan=False, UTF-8) refuses: an endpoint returning the value
	// through jsonable_encoder answers 500. (Through a response_model,
	// pydantic writes NaN and infinities as null.)
	Unencodable bool
}

// ModelField is one field of an accepted model.
type ModelField struct {
	Name string
	// Set: the body gave the field (pydantic's model_fields_set; for a
	// combined "Body_…" body: given and not null).
	Set bool
	// JSON is the field's value as FastAPI serialises it:
	// model_dump(mode="json") written by json.dumps, compact, non-ASCII
	// raw (NaN and lone surrogates as json.dumps writes them, see
	// Unencodable). For a field not given it is the default (through the
	// field's type: a float field's default 1 is 1.0).
	JSON []byte
	// DefaultGuessed: JSON holds, here or in a nested model, the default
	// of a field whose schema shows none, taken as None (null). FastAPI
	// leaves "default": null out of its schemas, so `name: str = None`
	// looks like this; but so does a default_factory (list, dict, uuid4,
	// now), whose value the contract cannot tell.
	DefaultGuessed bool
}

// CompileJSONBody compiles an operation's application/json request body
// from the contract. It reads the document as written (for property
// order and default values), so body must be one of sp's operations'
// request bodies. What cannot be validated as FastAPI and pydantic would
// validate it is an error naming the schema and keyword.
func CompileJSONBody(sp *spec.Spec, body *openapi3.RequestBody) (*JSONBody, error) {
	return compileJSONBody(sp, body, nil)
}

// compileJSONBody is CompileJSONBody; with notes, a lax compile (see
// Degradations): what it cannot enforce is noted there, not refused, and
// a body declared in other media types beside application/json is
// validated when sent as JSON and accepted unread when sent as one of
// them (Others).
func compileJSONBody(sp *spec.Spec, body *openapi3.RequestBody, notes *Degradations) (*JSONBody, error) {
	return compileJSONBodyIn(sp, body, "application/json", notes)
}

// compileJSONBodyIn is compileJSONBody for the body's media type key, of
// the JSON family: application/json, or the one a document not FastAPI's
// declares in its place (application/vnd.api+json).
func compileJSONBodyIn(sp *spec.Spec, body *openapi3.RequestBody, key string, notes *Degradations) (*JSONBody, error) {
	doc, err := writtenDoc(sp)
	if err != nil {
		return nil, fmt.Errorf("request body: read %s: %w", sp.Source(), err)
	}
	node, where, err := findRequestBody(sp, doc, body)
	if err != nil {
		return nil, err
	}
	content := get(node, "content")
	if content == nil || get(content, key) == nil {
		return nil, fmt.Errorf("%s: no %s content", where, key)
	}
	schema := get(get(content, key), "schema")
	var others, alsoJSON []string
	if ks := keys(content); len(ks) != 1 {
		if notes == nil {
			return nil, fmt.Errorf("%s: media types %v besides %s are not implemented", where, ks, key)
		}
		for _, k := range ks {
			switch {
			case k == key:
			case jsonFamily(k) && sameSchema(get(get(content, k), "schema"), schema):
				alsoJSON = append(alsoJSON, k)
			default:
				others = append(others, k)
			}
		}
		if len(others) > 0 {
			notes.add(where, "a body in "+strings.Join(others, ", "), "only "+key+" is validated; the others are accepted as sent")
		}
	}
	if schema == nil {
		if notes == nil {
			return nil, fmt.Errorf("%s: %s has no schema", where, key)
		}
		schema = &yaml.Node{Kind: yaml.MappingNode} // any value
	}
	jb := &JSONBody{Media: key, Required: body.Required, Others: others, AlsoJSON: alsoJSON}
	c := &compiler{doc: doc, notes: notes}
	n, err := c.compile(schema, where, false)
	if err != nil {
		return nil, err
	}
	// FastAPI writes an optional body as anyOf [X, null]: None (or no
	// body) is the absent body, told apart before validation.
	if n.kind == vNullable {
		n = n.elem
	}
	if n.kind != vModel {
		// A body that is not a pydantic model (list[int], dict[int,
		// float], list[Item], a scalar with Body()): FastAPI validates it
		// whole, its errors' loc starting at ["body"].
		jb.root = n
		return jb, nil
	}
	jb.model = n.model
	top := schema
	if alts := get(schema, "anyOf"); alts != nil && len(alts.Content) == 2 {
		top = yderef(alts.Content[0])
		if get(top, "$ref") == nil {
			top = yderef(alts.Content[1])
		}
	}
	if ref := get(top, "$ref"); ref != nil {
		name := ref.Value[strings.LastIndexByte(ref.Value, '/')+1:]
		jb.embed = strings.HasPrefix(name, "Body_")
	}
	for _, f := range jb.model.fields {
		jb.Fields = append(jb.Fields, f.name)
	}
	return jb, nil
}

// findRequestBody finds body in the document as written.
func findRequestBody(sp *spec.Spec, doc *yamlDoc, body *openapi3.RequestBody) (*yaml.Node, string, error) {
	at, ok := sp.RequestBodyPlace(body)
	if !ok {
		return nil, "", fmt.Errorf("request body: not one of %s's operations", sp.Source())
	}
	where := "request body of " + at.Method + " " + at.Path
	n := get(get(yderef(sp.Member(get(doc.root, "paths"), at.Path)), strings.ToLower(at.Method)), "requestBody")
	if n == nil {
		return nil, where, fmt.Errorf("%s: not found in %s as written", where, sp.Source())
	}
	if ref := get(n, "$ref"); ref != nil {
		var err error
		if n, err = doc.resolve(ref.Value); err != nil {
			return nil, where, fmt.Errorf("%s: %w", where, err)
		}
	}
	return n, where, nil
}

// declaresMedia reports whether a request's Content-Type is one of the
// declared media types (parameters aside, ranges such as text/* matching).
func declaresMedia(declared []string, contentType string) bool {
	ct, _, _ := strings.Cut(contentType, ";")
	ct = strings.ToLower(strings.TrimSpace(ct))
	if ct == "" {
		return false
	}
	main, _, _ := strings.Cut(ct, "/")
	for _, d := range declared {
		d, _, _ = strings.Cut(d, ";")
		d = strings.ToLower(strings.TrimSpace(d))
		if d == ct || d == "*/*" || d == main+"/*" {
			return true
		}
	}
	return false
}

// jsonFamily reports whether a declared media type is JSON: text/json,
// or application/json's kin (json or +json, application/*+json too).
func jsonFamily(media string) bool {
	base, _, _ := strings.Cut(media, ";")
	base = strings.ToLower(strings.TrimSpace(base))
	return base == "text/json" || IsJSONContentType(base)
}

// sameSchema reports whether two media types of one body declare the
// same schema: the same component, or the same schema written out.
func sameSchema(a, b *yaml.Node) bool {
	if a == nil || b == nil {
		return a == b
	}
	if ra, rb := get(a, "$ref"), get(b, "$ref"); ra != nil || rb != nil {
		return ra != nil && rb != nil && ra.Value == rb.Value && len(a.Content) == 2 && len(b.Content) == 2
	}
	ya, err1 := yaml.Marshal(a)
	yb, err2 := yaml.Marshal(b)
	return err1 == nil && err2 == nil && string(ya) == string(yb)
}

// IsJSONContentType reports whether FastAPI 0.141 parses a body sent with
// this Content-Type as JSON. It reads the header as
// email.message.Message does: the part before any ';', stripped (Python
// white space, latin-1 bytes 0x85 and 0xA0 included) and lower-cased,
// must be one type/subtype pair (else it counts as text/plain), the type
// "application" and the subtype "json" or ending in "+json". Parameters
// (charset) are ignored. An empty header is no Content-Type.
func IsJSONContentType(contentType string) bool {
	ctype, _, _ := strings.Cut(contentType, ";")
	ctype = asciiLower(strings.Trim(ctype, Latin1Space))
	main, sub, ok := strings.Cut(ctype, "/")
	if !ok || strings.Contains(sub, "/") {
		return false
	}
	return main == "application" && (sub == "json" || strings.HasSuffix(sub, "+json"))
}

// MediaType is the media type a client sends the body in: Media, else
// application/json.
func (b *JSONBody) MediaType() string {
	if b == nil || b.Media == "" {
		return "application/json"
	}
	return b.Media
}

// Read is what FastAPI does with the body before running any dependency.
// An empty body is absent (None). With FastAPI's default
// strict_content_type, a body without a Content-Type (hasContentType
// false, or an empty value) or with one that is not JSON
// (IsJSONContentType) is kept as bytes: no 415, pydantic then refuses
// them (Validate). A JSON body is decoded and parsed as Python's
// json.loads does:
//   - bytes it cannot decode (not UTF-8, UTF-16 or UTF-32, which it
//     detects), an integer of more than 4,300 digits, nesting deeper than
//     MaxJSONDepth: err, a *FormError for 400 "There was an error parsing
//     the body";
//   - malformed JSON: one json_invalid item, a 422 raised at once, so
//     before any 401, with Python's position (in characters) in loc and
//     its message in ctx.error.
func (b *JSONBody) Read(contentType string, hasContentType bool, body []byte) (Parsed, []ErrorItem, error) {
	if len(body) == 0 {
		return Parsed{kind: parsedAbsent}, nil, nil
	}
	alsoJSON := len(b.AlsoJSON) > 0 && declaresMedia(b.AlsoJSON, contentType)
	if !alsoJSON && len(b.Others) > 0 && !IsJSONContentType(contentType) && declaresMedia(b.Others, contentType) {
		return Parsed{kind: parsedOther}, nil, nil
	}
	if !alsoJSON && (!hasContentType || contentType == "" || !IsJSONContentType(contentType)) {
		return Parsed{kind: parsedBytes, v: pyValue{kind: pyBytes, s: string(body)}}, nil, nil
	}
	text, err := pyJSONText(body)
	if err != nil {
		return Parsed{}, nil, &FormError{Status: http.StatusBadRequest, Detail: DetailBodyParse, Err: err}
	}
	v, jerr, err := pyLoads(text)
	if err != nil {
		return Parsed{}, nil, &FormError{Status: http.StatusBadRequest, Detail: DetailBodyParse, Err: err}
	}
	if jerr != nil {
		return Parsed{}, []ErrorItem{{
			Type:  "json_invalid",
			Loc:   []any{"body", jerr.pos},
			Msg:   "JSON decode error",
			Input: RawJSON("{}"),
			Ctx:   []KV{{"error", jerr.msg}},
		}}, nil
	}
	return Parsed{kind: parsedJSON, v: v}, nil, nil
}

// Validate is FastAPI's later step, after the dependencies: pydantic's
// validation of the parsed body against the model. It returns every error
// item (loc starting with "body") in pydantic's order, or the model the
// endpoint receives. When FastAPI itself fails on the body (a lone
// surrogate pydantic must encode, an error input holding NaN, an input
// nested too deeply to write), the items are Unanswerable: FastAPI
// answers 500, as WriteValidation does.
func (b *JSONBody) Validate(p Parsed) (Model, []ErrorItem) {
	if p.kind == parsedOther {
		return Model{Absent: true}, nil
	}
	st := &vstate{loc: []any{"body"}}
	var m Model
	if b.embed {
		m = b.validateEmbedded(st, &p)
	} else {
		m = b.validateSingle(st, &p)
	}
	if st.crash {
		if len(st.items) == 0 {
			st.items = append(st.items, ErrorItem{Type: "internal_error", Loc: []any{"body"}, Msg: "FastAPI raised while validating the body"})
		}
		st.items[0].unanswerable = true
	}
	if len(st.items) > 0 {
		return Model{}, st.items
	}
	return m, nil
}

// validateSingle validates the body as FastAPI's one body parameter: None
// is missing or the default; anything else goes to the model.
func (b *JSONBody) validateSingle(st *vstate, p *Parsed) Model {
	if p.kind == parsedAbsent || p.v.kind == pyNone {
		if b.Required {
			st.items = append(st.items, ErrorItem{Type: "missing", Loc: []any{"body"}, Msg: "Field required"})
			return Model{}
		}
		return Model{Absent: true}
	}
	if b.model == nil {
		st.rawKeys = true
		out, ok := b.root.validate(st, &p.v, nil)
		if !ok {
			return Model{}
		}
		return Model{JSON: out, Unencodable: st.unencodable}
	}
	vals, set, guessed, ok := b.model.validateFields(st, &p.v)
	if !ok {
		return Model{}
	}
	m := Model{Fields: make([]ModelField, len(b.model.fields)), Unencodable: st.unencodable}
	for i, f := range b.model.fields {
		m.Fields[i] = ModelField{Name: f.name, Set: set[i], JSON: vals[i], DefaultGuessed: guessed[i]}
	}
	return m
}

// validateEmbedded validates a combined body as FastAPI's
// request_body_to_args does: each field on its own, taken with dict.get
// (so null counts as absent), missing reported with input null; a body
// that is JSON but not an object (no .get) makes every field missing,
// optional ones included, while bytes make only the required ones so.
func (b *JSONBody) validateEmbedded(st *vstate, p *Parsed) Model {
	m := Model{Fields: make([]ModelField, len(b.model.fields))}
	failed := false
	for i := range b.model.fields {
		f := &b.model.fields[i]
		m.Fields[i].Name = f.name
		st.push(f.name)
		var fv *pyValue
		switch {
		case p.kind == parsedJSON && p.v.kind == pyDict:
			if fv = p.v.get(f.name); fv != nil && fv.kind == pyNone {
				fv = nil
			}
		case p.kind == parsedJSON && p.v.kind != pyNone:
			st.items = append(st.items, ErrorItem{Type: "missing", Loc: append([]any(nil), st.loc...), Msg: "Field required"})
			failed = true
			st.pop()
			continue
		}
		switch {
		case fv != nil:
			st.guessed = false
			out, ok := f.node.validate(st, fv, nil)
			failed = failed || !ok
			m.Fields[i].Set, m.Fields[i].JSON, m.Fields[i].DefaultGuessed = true, out, st.guessed
		case f.required:
			st.items = append(st.items, ErrorItem{Type: "missing", Loc: append([]any(nil), st.loc...), Msg: "Field required"})
			failed = true
		default:
			m.Fields[i].JSON, m.Fields[i].DefaultGuessed = f.def, f.guessed
		}
		st.pop()
	}
	if failed {
		return Model{}
	}
	m.Unencodable = st.unencodable
	return m
}
