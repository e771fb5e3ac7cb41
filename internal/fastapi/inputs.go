package fastapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/spec"
)

// Kind is how a raw string is coerced before schema checks, as pydantic
// coerces strings in lax mode.
type Kind uint8

// The kinds of input value.
const (
	String Kind = iota
	Integer
	Number
	Boolean
	UUID // a string in format uuid: pydantic's UUID
)

// Input is one request value an operation declares, compiled once from the
// contract: where it comes from, how FastAPI treats its absence, how its
// string is coerced and which schema constrains it.
type Input struct {
	In       string // path, query, header, cookie, body
	Name     string
	Loc      []any
	Required bool
	Kind     Kind             // of the value, or of each item of a List
	Schema   *openapi3.Schema // constraints of the non-null alternative, or of each item of a List

	// List is an array (list[str] and the like): every value of a
	// repeated query key, header line or form field is an item. ListSchema
	// holds the array's own constraints (minItems, maxItems).
	List       bool
	ListSchema *openapi3.Schema
	// Binary is a file (format binary or contentMediaType
	// application/octet-stream): FastAPI's UploadFile or bytes, which the
	// contract does not tell apart. The mock holds it to UploadFile's
	// rule: only a file part is a value.
	Binary bool
	// KeepEmpty is a field of a form model: FastAPI reads such a field
	// through the model, so an empty value is a value, not an absence.
	KeepEmpty bool
	// Default is the schema's default as JSON (nil: none, or null).
	Default RawJSON
	// Style and Explode are how the document serializes a parameter,
	// where it is read as OpenAPI says (a document not FastAPI's; see
	// StyledList): its style and explode, or their defaults for its
	// location. Style is "" where FastAPI's habits apply.
	Style   string
	Explode bool
	// Object is the schema of a parameter read whole (CheckObject): an
	// object, or (Content) a value described by content, sent as JSON.
	Object  *openapi3.SchemaRef
	Content bool
	// others are the operation's other query parameters, which an
	// exploded form object does not take as its members.
	others []string
	// Format is the string format pydantic validates for this input
	// (date, date-time, time, duration, uri, email; uuid is Kind UUID), whose
	// validator node is; "" for a plain string.
	Format string
	node   *vnode
	// enum is the Literal or Enum validator of an input with an enum.
	enum *vnode
}

// Value is an input's value after validation.
type Value struct {
	Set  bool // false: absent and optional (the default applies)
	Str  string
	Int  LaxInt   // for integers
	List []string // for a List, its items
}

// Inputs is everything one operation validates, in FastAPI's order: path,
// query, header and cookie parameters, then form fields in declaration
// order, or the JSON body.
type Inputs struct {
	List      []Input
	Form      bool      // the body is a form (urlencoded or multipart)
	JSON      *JSONBody // the body is JSON (a pydantic model); nil otherwise
	Raw       *RawBody  // the body is of a media type FastAPI does not parse; nil otherwise
	HasQuery  bool
	HasCookie bool
	// FormModel: the form is one pydantic model (a Form() parameter typed
	// with a BaseModel), whose schema FastAPI names after the model, not
	// Body_<operation>. A field it misses is reported with the whole form
	// as the input; ForbidExtra (additionalProperties false) rejects every
	// field the model does not declare.
	FormModel, ForbidExtra bool
}

// RawBody is a request body FastAPI does not read: one declared only in
// media types FastAPI parses neither as JSON nor as a form
// (application/x-yaml, text/plain, application/octet-stream), or a JSON
// body on an operation that declares no 422 (see validatesBody). Such a
// body is declared with openapi_extra and reaches the endpoint as bytes it
// reads itself (Request.body()). FastAPI validates nothing of it, so
// neither does the mock; what its schema says is for clients.
type RawBody struct {
	// MediaType is the first media type the contract declares for it.
	MediaType string
	// Media is that media type's entry: its schema and examples.
	Media    *openapi3.MediaType
	Required bool
}

var inOrder = map[string]int{"path": 0, "query": 1, "header": 2, "cookie": 3}

// CompileInputs reads an operation's parameters and body (a form, or JSON)
// from the contract. An operation whose body cannot be read as FastAPI
// would read it is refused here, not at a request.
func CompileInputs(sp *spec.Spec, op *openapi3.Operation, pathItem *openapi3.PathItem) (Inputs, error) {
	return compileInputs(sp, op, pathItem, nil, false)
}

// CompileInputsFor is CompileInputs; with validateAll, a JSON body is
// validated whatever responses op declares (the plain-OpenAPI profile:
// every declared body is checked), not only where FastAPI would
// (validatesBody).
func CompileInputsFor(sp *spec.Spec, op *openapi3.Operation, pathItem *openapi3.PathItem, validateAll bool) (Inputs, error) {
	return compileInputs(sp, op, pathItem, nil, validateAll)
}

// CompileInputsLax is CompileInputs for a document that is not FastAPI's:
// it refuses no construct. What it cannot validate as declared (a keyword
// it does not implement, a union, a media type beside JSON) is compiled
// without it, or as the closest validator, and listed, once each, in the
// degradations ("WHERE: WHAT is not enforced (WHY)"). A body it cannot
// compile at all is accepted unread (Raw), and listed.
func CompileInputsLax(sp *spec.Spec, op *openapi3.Operation, pathItem *openapi3.PathItem) (Inputs, Degradations, error) {
	notes := Degradations{}
	// Such a document's JSON bodies are all validated: FastAPI's rule
	// (validatesBody) is FastAPI's.
	ins, err := compileInputs(sp, op, pathItem, &notes, true)
	return ins, notes, err
}

// compileInputs compiles op's inputs; plain is a document not FastAPI's:
// its every JSON body is validated, and its parameters are read as their
// style says (Input.Style) and held to the document's enums by value.
func compileInputs(sp *spec.Spec, op *openapi3.Operation, pathItem *openapi3.PathItem, notes *Degradations, plain bool) (Inputs, error) {
	validateAll := plain
	var ins Inputs
	params := slices.Clone(pathItem.Parameters)
	for _, p := range op.Parameters {
		params = slices.DeleteFunc(params, func(q *openapi3.ParameterRef) bool {
			return q.Value.In == p.Value.In && q.Value.Name == p.Value.Name
		})
		params = append(params, p)
	}
	slices.SortStableFunc(params, func(a, b *openapi3.ParameterRef) int {
		return inOrder[a.Value.In] - inOrder[b.Value.In]
	})
	for _, ref := range params {
		p := ref.Value
		if plain && p.Schema == nil && len(p.Content) > 0 {
			in, err := compileContent(p, notes)
			if err != nil {
				return ins, err
			}
			if in != nil {
				ins.HasQuery = ins.HasQuery || p.In == "query"
				ins.HasCookie = ins.HasCookie || p.In == "cookie"
				ins.List = append(ins.List, *in)
				continue
			}
		}
		if p.Schema == nil || p.Schema.Value == nil {
			if notes == nil {
				return ins, fmt.Errorf("parameter %q in %s: no schema", p.Name, p.In)
			}
			notes.add(fmt.Sprintf("parameter %q in %s", p.Name, p.In), "its value", "it declares no schema: any string is taken")
			ins.HasQuery = ins.HasQuery || p.In == "query"
			ins.HasCookie = ins.HasCookie || p.In == "cookie"
			ins.List = append(ins.List, Input{In: p.In, Name: p.Name, Loc: []any{p.In, p.Name}, Required: p.Required, Schema: &openapi3.Schema{}})
			continue
		}
		var in Input
		var err error
		if plain {
			in, err = compileStyled(sp, p, notes)
		} else {
			in, err = compileValue(sp, p.In, p.Name, p.Required, p.Schema, notes, false)
		}
		if err != nil {
			return ins, fmt.Errorf("parameter %q in %s: %w", p.Name, p.In, err)
		}
		ins.HasQuery = ins.HasQuery || p.In == "query"
		ins.HasCookie = ins.HasCookie || p.In == "cookie"
		ins.List = append(ins.List, in)
	}
	if plain {
		var query []string
		for _, ref := range params {
			if ref.Value.In == "query" {
				query = append(query, ref.Value.Name)
			}
		}
		for i := range ins.List {
			ins.List[i].others = query
		}
	}
	if headerModel(params) {
		// pydantic validates the model's fields under their own names:
		// an error's loc is the field, save_data, not the header, save-data.
		for i := range ins.List {
			if in := &ins.List[i]; in.In == "header" {
				in.Loc = []any{"header", strings.ReplaceAll(in.Name, "-", "_")}
			}
		}
	}
	if op.RequestBody == nil || op.RequestBody.Value == nil {
		return ins, nil
	}
	body := op.RequestBody.Value
	var media *openapi3.MediaType
	for _, ct := range []string{"application/x-www-form-urlencoded", "multipart/form-data"} {
		// Get matches a range too (*/*, application/*): a body declared
		// so is not a form.
		if media = body.Content.Get(ct); media != nil && formKey(body.Content, media) {
			break
		}
		media = nil
	}
	// The JSON media type the body is validated in: application/json,
	// else, for a document not FastAPI's, the first of the JSON family it
	// declares (JSON:API's application/vnd.api+json, a merge patch's
	// application/merge-patch+json), which a client sends as JSON.
	jsonKey := "application/json"
	if body.Content[jsonKey] == nil && plain {
		if k := firstJSONKey(sp, op, body.Content); k != "" {
			jsonKey = k
		}
	}
	if notes != nil && body.Content[jsonKey] != nil {
		// A body declared as JSON and as a form (and XML, say): JSON is
		// validated, the others accepted as sent (see JSONBody.Others).
		media = nil
	}
	if media == nil && body.Content[jsonKey] != nil && !validateAll && !validatesBody(op) {
		// FastAPI declares a 422 on every operation whose parameters or
		// body it validates (fastapi/openapi/utils.py, unless the route
		// declares 4XX or default itself): a JSON body on an operation
		// with none is one FastAPI does not know of, declared with
		// openapi_extra and read raw by the endpoint. A document not
		// FastAPI's (a lax compile) has every body validated.
		ins.Raw = &RawBody{MediaType: "application/json", Media: body.Content["application/json"], Required: body.Required}
		return ins, nil
	}
	if media == nil && body.Content[jsonKey] != nil {
		jb, err := compileJSONBodyIn(sp, body, jsonKey, notes)
		if err != nil {
			if notes == nil {
				return ins, err
			}
			notes.add("request body", "its schema", "accepted as sent: "+err.Error())
			ins.Raw = &RawBody{MediaType: jsonKey, Media: body.Content[jsonKey], Required: body.Required}
			return ins, nil
		}
		ins.JSON = jb
		return ins, nil
	}
	if media == nil && !slices.ContainsFunc(keysOf(body.Content), IsJSONContentType) {
		if names := sp.KeyOrder(bodyPath(sp, op)...); len(names) > 0 {
			ins.Raw = &RawBody{MediaType: names[0], Media: body.Content[names[0]], Required: body.Required}
		} else if names := keysOf(body.Content); len(names) > 0 {
			ins.Raw = &RawBody{MediaType: names[0], Media: body.Content[names[0]], Required: body.Required}
		}
		if ins.Raw != nil {
			return ins, nil
		}
	}
	if media == nil || media.Schema == nil || media.Schema.Value == nil {
		if notes == nil {
			return ins, fmt.Errorf("request body: only form (application/x-www-form-urlencoded, multipart/form-data) and application/json bodies are implemented")
		}
		names := sp.KeyOrder(bodyPath(sp, op)...)
		if len(names) == 0 {
			names = keysOf(body.Content)
		}
		if len(names) > 0 {
			notes.add("request body", "its schema", "a "+names[0]+" body is accepted as sent")
			ins.Raw = &RawBody{MediaType: names[0], Media: body.Content[names[0]], Required: body.Required}
		}
		return ins, nil
	}
	ins.Form = true
	schema := media.Schema.Value
	if ref := media.Schema.Ref; ref != "" && !strings.HasPrefix(ref[strings.LastIndexByte(ref, '/')+1:], "Body_") {
		ins.FormModel = true
		ap := schema.AdditionalProperties.Has
		ins.ForbidExtra = ap != nil && !*ap
	}
	for _, name := range sp.PropertyOrder(media.Schema) {
		field := schema.Properties[name]
		if field == nil || field.Value == nil {
			if notes == nil {
				return ins, fmt.Errorf("form field %q: no schema", name)
			}
			field = openapi3.NewSchemaRef("", &openapi3.Schema{})
		}
		required := slices.Contains(schema.Required, name)
		if plain && isObject(field) {
			// An object in a form is a JSON part (multipart's default
			// for an object) or a JSON value (as clients send it in a
			// urlencoded form).
			ins.List = append(ins.List, Input{In: "body", Name: name, Loc: []any{"body", name}, Required: required,
				Schema: &openapi3.Schema{}, Object: field, Content: true, KeepEmpty: ins.FormModel})
			continue
		}
		in, err := compileValue(sp, "body", name, required, field, notes, plain)
		if err != nil {
			return ins, fmt.Errorf("form field %q: %w", name, err)
		}
		if plain {
			in.formField(field, media, textOnly(body.Content))
		}
		in.KeepEmpty = ins.FormModel
		ins.List = append(ins.List, in)
	}
	return ins, nil
}

// formKey reports whether content declares mt under a form media type,
// not under a range that Content.Get matched.
func formKey(content openapi3.Content, mt *openapi3.MediaType) bool {
	for k, v := range content {
		base, _, _ := strings.Cut(k, ";")
		base = strings.ToLower(strings.TrimSpace(base))
		if v == mt && (base == "application/x-www-form-urlencoded" || base == "multipart/form-data") {
			return true
		}
	}
	return false
}

// headerModel reports whether an operation's header parameters are the
// fields of one pydantic model (`headers: Model = Header()`). FastAPI
// writes each field as a parameter named for its header (save-data) but
// titled for the field ("Save Data"); a plain parameter is titled for its
// header ("Save-Data"). Only a name with a hyphen tells them apart.
func headerModel(params openapi3.Parameters) bool {
	for _, ref := range params {
		p := ref.Value
		if p.In != "header" || !strings.Contains(p.Name, "-") || p.Schema == nil || p.Schema.Value == nil {
			continue
		}
		field := strings.ReplaceAll(p.Name, "-", "_")
		if title := p.Schema.Value.Title; title == pyTitle(field) && title != pyTitle(p.Name) {
			return true
		}
	}
	return false
}

// pyTitle is the title pydantic gives a field of this name:
// name.title().replace("_", " ").strip() in Python, where title() starts
// every run of letters upper case and lowers the rest.
func pyTitle(name string) string {
	var b strings.Builder
	prevCased := false
	for _, r := range name {
		cased := unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r)
		switch {
		case cased && prevCased:
			r = unicode.ToLower(r)
		case cased:
			r = unicode.ToTitle(r)
		}
		prevCased = cased
		if r == '_' {
			r = ' '
		}
		b.WriteRune(r)
	}
	return strings.TrimSpace(b.String())
}

// validatesBody reports whether op declares the answer FastAPI gives an
// input it refuses: 422, or a 4XX or default response of the route's own,
// which keeps FastAPI from adding its 422.
func validatesBody(op *openapi3.Operation) bool {
	if op.Responses == nil {
		return false
	}
	return op.Responses.Value("422") != nil || op.Responses.Value("4XX") != nil || op.Responses.Default() != nil
}

// keysOf lists a body's media types, sorted.
func keysOf(content openapi3.Content) []string {
	names := make([]string, 0, len(content))
	for name := range content {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// bodyPath is where op's request body's content is in the document as
// written, for its media types in written order; nil when op is not
// among the document's operations or its body is a $ref.
func bodyPath(sp *spec.Spec, op *openapi3.Operation) []string {
	if at, ok := sp.OperationPlace(op); ok {
		return []string{"paths", at.Path, strings.ToLower(at.Method), "requestBody", "content"}
	}
	return nil
}

// compileStyled compiles a parameter of a document not FastAPI's: as
// compileValue does, with the parameter's serialization (Style, Explode),
// an array in the path read as a list, and an object read whole
// (Object).
func compileStyled(sp *spec.Spec, p *openapi3.Parameter, notes *Degradations) (Input, error) {
	sm, err := p.SerializationMethod()
	if err != nil {
		return Input{}, err
	}
	if isObject(p.Schema) {
		return Input{In: p.In, Name: p.Name, Loc: []any{p.In, p.Name}, Required: p.Required, Schema: &openapi3.Schema{},
			Object: p.Schema, Style: sm.Style, Explode: sm.Explode}, nil
	}
	in, err := compileValue(sp, p.In, p.Name, p.Required, p.Schema, notes, true)
	in.Style, in.Explode = sm.Style, sm.Explode
	return in, err
}

// compileContent compiles a parameter described by content (JSON) of a
// document not FastAPI's; nil, noted, where it is not JSON (a lax
// compile then takes any string).
func compileContent(p *openapi3.Parameter, notes *Degradations) (*Input, error) {
	schema, _, err := contentSchema(p)
	if err != nil {
		if notes == nil {
			return nil, fmt.Errorf("parameter %q in %s: %w", p.Name, p.In, err)
		}
		return nil, nil
	}
	return &Input{In: p.In, Name: p.Name, Loc: []any{p.In, p.Name}, Required: p.Required, Schema: &openapi3.Schema{},
		Object: schema, Content: true}, nil
}

// compileValue compiles one parameter or form field; with notes (a lax
// compile) what it cannot enforce is noted there and left out. plain is a
// document not FastAPI's: an enum holds a value by what it is (2 is "2"),
// not by its text as a FastAPI Literal does, and a list may be in the
// path.
func compileValue(sp *spec.Spec, in, name string, required bool, sref *openapi3.SchemaRef, notes *Degradations, plain bool) (Input, error) {
	where := fmt.Sprintf("parameter %q in %s", name, in)
	if in == "body" {
		where = fmt.Sprintf("form field %q", name)
	}
	v := Input{In: in, Name: name, Loc: []any{in, name}, Required: required}
	s := sref.Value
	if s.Default != nil {
		if b, err := json.Marshal(s.Default); err == nil && string(b) != "null" {
			v.Default = RawJSON(b)
		}
	}
	valueRef := nonNullRef(sref)
	value := valueRef.Value
	if slices.Contains(value.Type.Slice(), "array") {
		v.List, v.ListSchema = true, value
		value, valueRef = &openapi3.Schema{}, nil // items: {} is any value, read as a string
		if v.ListSchema.Items != nil && v.ListSchema.Items.Value != nil {
			valueRef = nonNullRef(v.ListSchema.Items)
			value = valueRef.Value
		}
		if slices.Contains(value.Type.Slice(), "array") {
			if notes == nil {
				return v, fmt.Errorf("a list of lists: not implemented")
			}
			notes.add(where, "its items' schema", "a list of lists: each item is taken as a string")
			value, valueRef = &openapi3.Schema{}, nil
		}
	}
	// pydantic writes an Enum class as a component the value refers to,
	// a Literal[...] inline; they read a string their own ways and fail
	// with "enum" and "literal_error".
	switch viaRef := valueRef != nil && valueRef.Ref != ""; {
	case len(value.Enum) > 0:
		v.enum = enumNode(value.Enum, viaRef || plain)
	case value.Const != nil: // Literal[x] of one value
		v.enum = enumNode([]any{value.Const}, viaRef || plain)
	}
	v.Binary = value.Format == "binary" || value.ContentMediaType == "application/octet-stream"
	if v.Binary && in != "body" {
		if notes == nil {
			return v, fmt.Errorf("a file outside a form: not implemented")
		}
		notes.add(where, "format binary", "a file outside a form: its value is taken as a string")
		v.Binary = false
	}
	if v.List && in == "path" && !plain {
		if notes == nil {
			return v, fmt.Errorf("a list in the path: not implemented")
		}
		notes.add(where, "its list schema", "a list in the path: the segment is taken as one string")
		v.List, v.ListSchema, v.enum = false, nil, nil
		value = &openapi3.Schema{}
	}
	types := slices.DeleteFunc(slices.Clone(value.Type.Slice()), func(t string) bool { return t == "null" })
	if plain && in == "body" && v.List && isObject(valueRef) {
		// Each item is JSON, held to the item schema (formField).
		types, value, v.enum = nil, &openapi3.Schema{}, nil
	}
	if notes != nil && len(types) > 1 || len(types) == 1 && (types[0] == "object" || types[0] == "array") && notes != nil {
		notes.add(where, fmt.Sprintf("type %v", types), "not a scalar: its value is taken as a string")
		types, value, v.enum = nil, &openapi3.Schema{}, nil
	}
	switch {
	case len(types) == 0 || slices.Equal(types, []string{"string"}):
		v.Kind = String
	case slices.Equal(types, []string{"integer"}):
		v.Kind = Integer
	case slices.Equal(types, []string{"number"}):
		v.Kind = Number
	case slices.Equal(types, []string{"boolean"}):
		v.Kind = Boolean
	default:
		return v, fmt.Errorf("type %v: only scalar parameters are implemented", types)
	}
	if v.Kind == String && value.Format == "uuid" {
		v.Kind = UUID
	}
	if v.Kind == String {
		v.node = formatNode(value)
		if v.node != nil {
			v.Format = value.Format
		}
	}
	if value.Format != "" {
		// pydantic does not check a str field's format (password is only a
		// hint to documentation), so neither does the mock.
		clone := *value
		clone.Format = ""
		value = &clone
	}
	v.Schema = value
	return v, nil
}

// nonNullRef is nonNull keeping the reference: X's own $ref, if any.
func nonNullRef(s *openapi3.SchemaRef) *openapi3.SchemaRef {
	if spec.Nullable(s.Value) {
		for _, alt := range s.Value.AnyOf {
			if alt.Value != nil && !alt.Value.Type.Is("null") {
				return alt
			}
		}
	}
	return s
}

// nonNull is the schema of a value FastAPI writes as Optional[X] (anyOf:
// [X, {type: null}]): a raw string is never null, so X alone constrains it.
func nonNull(s *openapi3.Schema) *openapi3.Schema {
	if spec.Nullable(s) {
		for _, alt := range s.AnyOf {
			if alt.Value != nil && !alt.Value.Type.Is("null") {
				return alt.Value
			}
		}
	}
	return s
}

// Check applies FastAPI's rules to one raw value of in (present false: the
// request did not carry it). An absent or (for a form field) empty value is
// "missing" when required, else the default applies; a present one is
// coerced as pydantic coerces strings, then held to the schema's
// constraints. The item is nil when FastAPI would accept the value.
//
// A List reads raw as its one item (CheckList reads several); a Binary
// input reads raw as a text field, which UploadFile refuses.
func (in *Input) Check(sp *spec.Spec, raw string, present bool) (Value, *ErrorItem) {
	if in.Object != nil && !in.List {
		v, items := in.CheckObject(sp, in.alone(raw, present))
		if len(items) > 0 {
			return v, &items[0]
		}
		return v, nil
	}
	if in.List {
		var raws []string
		if present {
			raws = []string{raw}
		}
		v, items := in.CheckList(sp, raws)
		if len(items) > 0 {
			return v, &items[0]
		}
		return v, nil
	}
	if in.In == "body" && raw == "" && !in.KeepEmpty {
		present = false // FastAPI reads an empty form value as absent
	}
	if !present {
		if in.Required {
			item := Missing(in.Loc...)
			return Value{}, &item
		}
		return Value{}, nil
	}
	if in.Binary {
		item := NotUploadFile(raw, in.Loc...)
		return Value{}, &item
	}
	return in.coerce(sp, raw, in.Loc)
}

// NoStringAccepted reports whether no value sent as text (a path, query,
// header or cookie value, a form field) can be accepted: the input is a
// Literal (an enum or const written inline) of none but non-string values,
// Literal[1, 2] or Literal[True]. pydantic looks the string itself up in a
// Literal, so "1" is not 1 and "true" not True (pydantic 2.13 under FastAPI
// 0.141): FastAPI refuses every request that sends one. An Enum class (a
// $ref) reads a lax int first, and a string in the Literal matches itself,
// so neither is such an input. expected is the Literal's values as
// pydantic's message writes them ("1 or 2").
func (in *Input) NoStringAccepted() (expected string, ok bool) {
	if in.enum == nil || in.enum.kind != vLiteral || in.Binary {
		return "", false
	}
	for _, v := range in.enum.lit.values {
		if v.v.kind == pyStr {
			return "", false
		}
	}
	return in.enum.lit.expected, true
}

// NotUploadFile is FastAPI's error for a text value sent where an
// UploadFile is declared (its validator raises ValueError).
func NotUploadFile(input string, loc ...any) ErrorItem {
	return ErrorItem{Type: "value_error", Loc: loc, Msg: "Value error, Expected UploadFile, received: <class 'str'>", Input: input, Ctx: []KV{{"error", RawJSON("{}")}}}
}

// CheckList applies FastAPI's rules to the values of a List input (none:
// the request did not carry it). An empty list is missing when required,
// else the default applies. A cookie is never a list (Starlette keeps one
// value per name): any value is refused. Too many items is one error for
// the list, as pydantic stops there; otherwise each item is checked at its
// index, and only a list whose items all pass can be too short.
func (in *Input) CheckList(sp *spec.Spec, raws []string) (Value, []ErrorItem) {
	return in.checkList(sp, raws, nil)
}

// CheckFormList is CheckList for the values of a form field, some of which
// may be file parts: a Binary list takes files and refuses text, any
// other list refuses files.
func (in *Input) CheckFormList(sp *spec.Spec, entries []FormEntry) (Value, []ErrorItem) {
	raws := make([]string, len(entries))
	files := make([]*UploadFile, len(entries))
	for i, e := range entries {
		raws[i], files[i] = e.Value, e.File
	}
	return in.checkList(sp, raws, files)
}

func (in *Input) checkList(sp *spec.Spec, raws []string, files []*UploadFile) (Value, []ErrorItem) {
	if len(raws) == 0 {
		if in.Required {
			return Value{}, []ErrorItem{Missing(in.Loc...)}
		}
		return Value{}, nil
	}
	if in.In == "cookie" && in.Style == "" {
		return Value{}, []ErrorItem{{Type: "list_type", Loc: in.Loc, Msg: "Input should be a valid list", Input: raws[len(raws)-1]}}
	}
	input := func() any {
		if files == nil {
			return slices.Clone(raws)
		}
		out := make([]any, len(raws))
		for i := range raws {
			out[i] = entryValue(FormEntry{Value: raws[i], File: files[i]})
		}
		return out
	}
	ls := in.ListSchema
	if ls.MaxItems != nil && uint64(len(raws)) > *ls.MaxItems {
		return Value{}, []ErrorItem{listLength("too_long", "at most", int(*ls.MaxItems), len(raws), input(), in.Loc)}
	}
	var items []ErrorItem
	for i, raw := range raws {
		loc := append(slices.Clip(in.Loc), i)
		var item *ErrorItem
		switch {
		case files != nil && files[i] != nil:
			item = in.CheckFile(files[i], loc)
		case in.Binary:
			it := NotUploadFile(raw, loc...)
			item = &it
		default:
			_, item = in.coerce(sp, raw, loc)
		}
		if item != nil {
			items = append(items, *item)
		}
	}
	if len(items) == 0 && uint64(len(raws)) < ls.MinItems {
		items = append(items, listLength("too_short", "at least", int(ls.MinItems), len(raws), input(), in.Loc))
	}
	if len(items) > 0 {
		return Value{}, items
	}
	return Value{Set: true, List: raws}, nil
}

// listLength is pydantic's too_long or too_short for a list of raw strings.
func listLength(typ, bound string, limit, n int, input any, loc []any) ErrorItem {
	key := "max_length"
	if typ == "too_short" {
		key = "min_length"
	}
	return ErrorItem{Type: typ, Loc: loc, Msg: "List should have " + bound + " " + plural(limit, "item") + " after validation, not " + strconv.Itoa(n),
		Input: input, Ctx: []KV{{"field_type", "List"}, {key, limit}, {"actual_length", n}}}
}

// coerce reads one present raw string as the input's kind, then holds it
// to the schema's constraints; loc is where an error is reported.
func (in *Input) coerce(sp *spec.Spec, raw string, loc []any) (Value, *ErrorItem) {
	v := Value{Set: true, Str: raw}
	if in.Object != nil && in.List {
		// An item of an array of objects (a document not FastAPI's).
		return v, in.checkJSON(sp, raw, loc)
	}
	if in.enum != nil {
		// A Literal looks the string itself up: Literal[1] refuses "1".
		// An int Enum reads it as a lax int first, a str Enum as is.
		st := &vstate{loc: slices.Clone(loc)}
		dump, ok := in.enum.validate(st, &pyValue{kind: pyStr, s: raw}, nil)
		if !ok && len(st.items) > 0 {
			item := st.items[0]
			return Value{}, &item
		}
		if s, isStr := unquoteDump(dump); isStr {
			v.Str = s
		} else if n, isInt := ParseLaxInt(string(dump)); isInt && in.Kind == Integer {
			v.Int = n
		}
		return v, nil
	}
	var value any = raw
	switch in.Kind {
	case Integer:
		if IntTooLong(raw) {
			item := IntParsingSize(raw, loc...)
			return Value{}, &item
		}
		n, ok := ParseLaxInt(raw)
		if !ok {
			item := IntParsing(raw, loc...)
			return Value{}, &item
		}
		v.Int, value = n, n.Float
	case Number:
		f, ok := ParseLaxFloat(raw)
		if !ok {
			item := FloatParsing(raw, loc...)
			return Value{}, &item
		}
		value = f
	case UUID:
		canon, why := parseUUID(raw)
		if why != "" {
			return Value{}, &ErrorItem{Type: "uuid_parsing", Loc: loc, Msg: "Input should be a valid UUID, " + why, Input: raw, Ctx: []KV{{"error", why}}}
		}
		v.Str = canon
		return v, nil
	case String:
		if in.node != nil {
			st := &vstate{loc: slices.Clone(loc)}
			dump, ok := in.node.validate(st, &pyValue{kind: pyStr, s: raw}, nil)
			if !ok && len(st.items) > 0 {
				item := st.items[0]
				return Value{}, &item
			}
			if s, ok := unquoteDump(dump); ok {
				v.Str = s
			}
			return v, nil
		}
	case Boolean:
		b, ok := ParseLaxBool(raw)
		if !ok {
			item := BoolParsing(raw, loc...)
			return Value{}, &item
		}
		value = b
	}
	if hasConstraints(in.Schema) {
		schema, re := splitPattern(in.Schema)
		if err := sp.Validate(schema, value, false); err != nil {
			item := constraintItem(err, in, raw, loc)
			return Value{}, &item
		}
		if re != nil && !re.MatchString(raw) {
			p := in.Schema.Pattern
			return Value{}, &ErrorItem{Type: "string_pattern_mismatch", Loc: loc, Msg: "String should match pattern '" + p + "'", Input: raw, Ctx: []KV{{"pattern", p}}}
		}
	}
	return v, nil
}

// formatNode is the pydantic validator of a string format that pydantic
// checks (a str field's other formats, such as password, are hints to
// documentation only); nil for none.
func formatNode(s *openapi3.Schema) *vnode {
	switch s.Format {
	case "date":
		return &vnode{kind: vDate}
	case "date-time":
		return &vnode{kind: vDateTime}
	case "time":
		return &vnode{kind: vTime}
	case "duration":
		return &vnode{kind: vDuration}
	case "email":
		return &vnode{kind: vEmail, minLen: -1, maxLen: -1} // no length: EmailStr as such
	case "uri":
		rule := &urlRule{maxLen: -1}
		if s.MaxLength != nil && *s.MaxLength == MaxURLLength {
			rule = &urlRule{schemes: []string{"http", "https"}, maxLen: MaxURLLength}
		}
		return &vnode{kind: vURL, url: rule}
	}
	return nil
}

// unquoteDump reads back a dumped JSON string.
func unquoteDump(b []byte) (string, bool) {
	var s string
	if json.Unmarshal(b, &s) != nil {
		return "", false
	}
	return s, true
}

// inputPatterns caches splitPattern's answers, by schema.
var inputPatterns sync.Map // *openapi3.Schema → patternSplit

type patternSplit struct {
	rest *openapi3.Schema
	re   *pyRegex
}

// splitPattern is s without its pattern, and the pattern as pydantic
// matches it (pyRegex: \d, \w, \s are Unicode, as in Rust's regex crate
// and Python's re; the schema validator's Go regexp is ASCII-only, so
// "tt١٢٣٤٥٦٧" would fail ^tt\d{7,8}$ there while FastAPI accepts it).
// A pattern pyRegex cannot translate stays with the schema validator.
func splitPattern(s *openapi3.Schema) (*openapi3.Schema, *pyRegex) {
	if s.Pattern == "" {
		return s, nil
	}
	if got, ok := inputPatterns.Load(s); ok {
		ps := got.(patternSplit)
		return ps.rest, ps.re
	}
	ps := patternSplit{rest: s}
	if re, err := compilePattern(s.Pattern); err == nil {
		rest := *s
		rest.Pattern = ""
		ps = patternSplit{rest: &rest, re: re}
	}
	inputPatterns.Store(s, ps)
	return ps.rest, ps.re
}

// CheckFile is Check for a form value sent as a file part: pydantic
// refuses an UploadFile for any string, number or boolean field, with the
// file as FastAPI encodes it for the input.
//
// A Binary input takes the file (nil); loc is where an error is reported.
func (in *Input) CheckFile(f *UploadFile, loc []any) *ErrorItem {
	if in.Binary {
		return nil
	}
	typ, msg := "string_type", "Input should be a valid string"
	switch in.Kind {
	case Integer:
		typ, msg = "int_type", "Input should be a valid integer"
	case Number:
		typ, msg = "float_type", "Input should be a valid number"
	case Boolean:
		typ, msg = "bool_type", "Input should be a valid boolean"
	}
	return &ErrorItem{Type: typ, Loc: loc, Msg: msg, Input: RawJSON(f.AppendInput(nil))}
}

// hasConstraints skips the schema validator for a bare typed value, the
// common case (an integer id, a free string): coercion already checked it.
func hasConstraints(s *openapi3.Schema) bool {
	return s.Pattern != "" || s.MinLength != 0 || s.MaxLength != nil || s.Min != nil || s.Max != nil ||
		s.MultipleOf != nil || len(s.Enum) > 0 || s.Const != nil ||
		s.ExclusiveMin.IsSet() || s.ExclusiveMax.IsSet()
}

// constraintItem turns the schema validator's complaint about one value into
// pydantic's error item for the same constraint.
func constraintItem(err error, in *Input, raw string, loc []any) ErrorItem {
	var se *openapi3.SchemaError
	if errors.As(err, &se) {
		s := in.Schema
		limit := schemaLimit(s, se.SchemaField)
		if f, isFloat := limit.(float64); isFloat && in.Kind == Integer && f == float64(int64(f)) {
			limit = int64(f) // pydantic writes an int field's bounds as ints
		}
		if item, ok := Constraint(se.SchemaField, limit, raw, loc...); ok {
			return item
		}
		return ErrorItem{Type: "value_error", Loc: loc, Msg: "Value error, " + strings.TrimSpace(se.Reason), Input: raw}
	}
	return ErrorItem{Type: "value_error", Loc: loc, Msg: "Value error, " + err.Error(), Input: raw}
}

// schemaLimit is the value of the keyword the schema validator names in
// its complaint (field: "pattern", "maxLength", "minimum", …) on s; nil
// when s does not set it.
func schemaLimit(s *openapi3.Schema, field string) any {
	switch field {
	case "pattern":
		return s.Pattern
	case "minLength":
		return s.MinLength
	case "maxLength":
		if s.MaxLength != nil {
			return *s.MaxLength
		}
	case "minimum":
		return deref(s.Min)
	case "maximum":
		return deref(s.Max)
	case "exclusiveMinimum":
		return deref(s.ExclusiveMin.Value)
	case "exclusiveMaximum":
		return deref(s.ExclusiveMax.Value)
	case "multipleOf":
		return deref(s.MultipleOf)
	case "enum":
		return s.Enum
	}
	return nil
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// firstJSONKey is the first media type of content, in the order the
// document writes them, of the JSON family (application/*+json,
// text/json); "" when none.
func firstJSONKey(sp *spec.Spec, op *openapi3.Operation, content openapi3.Content) string {
	names := sp.KeyOrder(bodyPath(sp, op)...)
	if len(names) == 0 {
		names = keysOf(content)
	}
	for _, k := range names {
		if content[k] != nil && jsonFamily(k) {
			return k
		}
	}
	return ""
}
