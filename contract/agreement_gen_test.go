package contract_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// This file turns fuzz input bytes into an OpenAPI 3.1 document shaped as
// FastAPI 0.141 writes one (each shape read off app.openapi() of an
// equivalent app): pydantic models in components/schemas (str with
// length bounds or a pattern, int and float with inclusive or exclusive
// bounds, bool, date, date-time, time, timedelta, uuid, HttpUrl,
// EmailStr, string and integer enums by $ref, lists, sets, nested models
// by $ref, T | None as anyOf with null, defaults),
// path parameters (int, str, uuid), query, header and cookie parameters
// (required, optional, with defaults and bounds), JSON bodies (one model,
// or a Body_<operationId> model for several or embedded ones, scalars
// declared with Body() among them), form bodies, 200/201/204 responses
// (a model, a list of models, a scalar, or {}), the 422 response and its
// two components, and an optional OAuth2 password login at /token with
// the tutorials' Token and User and operations that require its bearer
// token. The same bytes always give the same document; exhausted input
// reads as zeros, so any input gives a document.
//
// Budgets: at most 2 enums, 4 models of 5 fields each (a model refers only
// to models defined before it, so nesting is at most 4 deep), 5 operations
// (7 with the login and /users/me/) with 4 parameters besides the path's
// and 3 body fields each.
//
// Left out: array query and header parameters (the mock refuses them as
// not implemented), bytes (contentEncoding), bodies that are not a model,
// streamed responses (itemSchema), self-referring models, file uploads and
// multipart forms.

// src reads choices off the fuzz input.
type src struct {
	b []byte
	i int
}

// n is a choice among k (0 when the input is exhausted).
func (s *src) n(k int) int {
	if k <= 1 || s.i >= len(s.b) {
		return 0
	}
	v := int(s.b[s.i])
	s.i++
	return v % k
}

// one is true one time in k.
func (s *src) one(k int) bool { return s.n(k) == k-1 }

func pick[T any](s *src, xs []T) T { return xs[s.n(len(xs))] }

// obj is a JSON object that keeps its keys in order, as FastAPI writes them.
type obj []kv

type kv struct {
	k string
	v any
}

func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, e := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(e.k)
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(e.v)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func (o *obj) add(k string, v any) { *o = append(*o, kv{k, v}) }

// title is pydantic's title of a field name: item_id → "Item Id".
func title(name string) string {
	words := strings.Split(name, "_")
	for i, w := range words {
		if w != "" {
			words[i] = strings.ToUpper(w[:1]) + w[1:]
		}
	}
	return strings.Join(words, " ")
}

// headerTitle is the title of a header parameter, named for its alias:
// x_token → "X-Token".
func headerTitle(name string) string {
	return strings.ReplaceAll(title(name), " ", "-")
}

type enumDef struct {
	name   string
	ints   bool
	values []any
}

type modelDef struct {
	name   string
	fields []field
}

// typ is the Python annotation of a field or parameter, without Optional.
type typ struct {
	kind     string // str int float bool date datetime uuid enum model list
	enum     *enumDef
	model    *modelDef
	elem     *typ
	minLen   int // -1: none
	maxLen   int
	pattern  string
	min, max *bound
}

type bound struct {
	v         float64
	exclusive bool
}

type field struct {
	name     string
	t        typ
	optional bool // T | None
	required bool
	def      any // the default when not required; nil is None
	defNull  bool
}

// patterns are regexes pydantic and Go's regexp read alike.
var patterns = []string{"^[a-z]+$", "^[A-Z][a-z]*$", "^[0-9]{3}$", "^\\w+$", "^[a-z0-9_-]{3,8}$"}

var (
	enumNames   = []string{"Color", "Kind", "Status", "Level"}
	enumWords   = [][]any{{"red", "green", "blue"}, {"small", "large"}, {"draft", "published", "archived"}, {"low", "high"}}
	modelNames  = []string{"Item", "Tag", "Owner", "Address"}
	fieldNames  = []string{"name", "title", "price", "count", "is_active", "description", "created_at", "tags", "code", "rating", "key", "when"}
	resources   = []string{"items", "customers", "orders", "notes"}
	queryNames  = []string{"q", "skip", "limit", "flag", "sort", "min_price", "since", "kind"}
	headerNames = []string{"x_token", "user_agent", "x_request_id"}
	cookieNames = []string{"session_id", "ads_id"}
)

type gen struct {
	s      *src
	enums  []*enumDef
	models []*modelDef
	used   map[string]bool // component names
}

func (g *gen) scalar(allowEnum bool) typ {
	kinds := []string{"str", "int", "float", "bool", "date", "datetime", "uuid", "time", "duration", "url", "email"}
	if allowEnum && len(g.enums) > 0 {
		kinds = append(kinds, "enum")
	}
	t := typ{kind: pick(g.s, kinds), minLen: -1, maxLen: -1}
	switch t.kind {
	case "enum":
		t.enum = pick(g.s, g.enums)
	case "str":
		switch g.s.n(5) {
		case 1:
			t.minLen = 1 + g.s.n(3)
		case 2:
			t.maxLen = 3 + g.s.n(20)
		case 3:
			t.minLen, t.maxLen = 1+g.s.n(2), 4+g.s.n(10)
		case 4:
			t.pattern = pick(g.s, patterns)
			if t.pattern == "^[a-z]+$" && g.s.one(2) {
				t.maxLen = 3 + g.s.n(8)
			}
		}
	case "int", "float":
		lo := float64(g.s.n(5))
		if t.kind == "float" && g.s.one(2) {
			lo += 0.5
		}
		switch g.s.n(5) {
		case 1:
			t.min = &bound{lo, g.s.one(2)}
		case 2:
			t.max = &bound{lo + 10 + float64(g.s.n(100)), g.s.one(2)}
		case 3:
			t.min = &bound{lo, g.s.one(2)}
			t.max = &bound{lo + 2 + float64(g.s.n(50)), g.s.one(2)}
		}
	}
	return t
}

// num writes a bound as FastAPI does: a model's field bounds are floats
// (1.0), a parameter's keep the literal given.
func num(v float64, inModel bool) json.Number {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if inModel && !strings.Contains(s, ".") {
		s += ".0"
	}
	return json.Number(s)
}

// schema is t's JSON schema, its keys in pydantic's order.
func (t typ) schema(inModel bool) obj {
	var o obj
	switch t.kind {
	case "enum":
		return obj{{"$ref", "#/components/schemas/" + t.enum.name}}
	case "model":
		return obj{{"$ref", "#/components/schemas/" + t.model.name}}
	case "list", "set":
		o.add("items", t.elem.schema(inModel))
		o.add("type", "array")
		if t.kind == "set" {
			o.add("uniqueItems", true)
		}
		return o
	case "str":
		o.add("type", "string")
		if t.maxLen >= 0 && inModel {
			o.add("maxLength", t.maxLen)
		}
		if t.minLen >= 0 {
			o.add("minLength", t.minLen)
		}
		if t.maxLen >= 0 && !inModel {
			o.add("maxLength", t.maxLen)
		}
		if t.pattern != "" {
			o.add("pattern", t.pattern)
		}
	case "int", "float":
		o.add("type", map[string]string{"int": "integer", "float": "number"}[t.kind])
		for _, b := range []struct {
			b    *bound
			name string
		}{{t.max, "aximum"}, {t.min, "inimum"}} {
			if b.b == nil {
				continue
			}
			name := "m" + b.name
			if b.b.exclusive {
				name = "exclusiveM" + b.name
			}
			o.add(name, num(b.b.v, inModel))
		}
	case "bool":
		o.add("type", "boolean")
	case "date", "datetime", "uuid", "time", "duration", "email":
		o.add("type", "string")
		o.add("format", map[string]string{"date": "date", "datetime": "date-time", "uuid": "uuid", "time": "time", "duration": "duration", "email": "email"}[t.kind])
	case "url":
		// pydantic's HttpUrl.
		o.add("type", "string")
		o.add("maxLength", 2083)
		o.add("minLength", 1)
		o.add("format", "uri")
	}
	return o
}

// value is a value of t that meets its constraints, for defaults.
func (t typ) value() any {
	switch t.kind {
	case "enum":
		return t.enum.values[len(t.enum.values)-1]
	case "str":
		switch t.pattern {
		case "^[A-Z][a-z]*$":
			return "Abc"
		case "^[0-9]{3}$":
			return "123"
		}
		n := max(3, t.minLen)
		if t.maxLen >= 0 {
			n = min(n, t.maxLen)
		}
		return strings.Repeat("a", n)
	case "int", "float":
		v := 0.0
		if t.min != nil {
			v = t.min.v + 1
		} else if t.max != nil {
			v = t.max.v - 1
		}
		if t.kind == "int" {
			v = float64(int(v))
			if t.min != nil && v <= t.min.v {
				v++
			}
			return int(v)
		}
		return v
	case "bool":
		return true
	case "date":
		return "2024-01-02"
	case "list", "set":
		return []any{}
	case "time":
		return "12:30:00"
	case "duration":
		return "PT1H"
	}
	return nil // datetime, uuid and models get no default
}

// fieldSchema is a model property or a form field.
func (f field) schema(inModel bool) obj {
	inner := f.t.schema(inModel)
	ref := f.t.kind == "enum" || f.t.kind == "model"
	var o obj
	if f.optional {
		o.add("anyOf", []any{inner, obj{{"type", "null"}}})
	} else {
		o = inner
	}
	if !ref {
		o.add("title", title(f.name))
	}
	if !f.required {
		switch {
		case f.def != nil:
			o.add("default", f.def)
		case f.defNull:
			o.add("default", nil)
		}
	}
	return o
}

func (g *gen) name(base string) string {
	name := base
	for i := 2; g.used[name]; i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	g.used[name] = true
	return name
}

// fields draws up to n fields; models may refer to earlier models.
func (g *gen) fields(n int, models []*modelDef, form bool) []field {
	var out []field
	names := map[string]bool{}
	for range 1 + g.s.n(n) {
		name := pick(g.s, fieldNames)
		if names[name] {
			continue
		}
		names[name] = true
		f := field{name: name}
		switch c := g.s.n(8); {
		case !form && c == 6 && len(models) > 0:
			f.t = typ{kind: "model", model: pick(g.s, models), minLen: -1, maxLen: -1}
		case !form && c == 7:
			var elem typ
			if len(models) > 0 && g.s.one(2) {
				elem = typ{kind: "model", model: pick(g.s, models), minLen: -1, maxLen: -1}
			} else {
				elem = g.scalar(true)
			}
			f.t = typ{kind: "list", elem: &elem, minLen: -1, maxLen: -1}
			if elem.kind != "model" && g.s.one(3) {
				f.t.kind = "set" // set[X]
			}
		default:
			f.t = g.scalar(true)
		}
		f.optional = g.s.one(3)
		f.required = g.s.n(3) > 0
		if !f.required {
			if f.optional && !g.s.one(3) {
				f.defNull = g.s.one(4) // None: FastAPI 0.141 writes no default; "default": null says the same
			} else {
				f.def = f.t.value()
				if f.def == nil {
					f.required = !f.optional
					f.defNull = false
				}
			}
		}
		out = append(out, f)
	}
	return out
}

func (g *gen) model(base string, fields []field) obj {
	var props obj
	var req []string
	for _, f := range fields {
		props.add(f.name, f.schema(true))
		if f.required {
			req = append(req, f.name)
		}
	}
	o := obj{{"properties", props}, {"type", "object"}}
	if len(req) > 0 {
		o.add("required", req)
	}
	o.add("title", base)
	return o
}

type param struct {
	in string
	field
}

type operation struct {
	name, method, path string
	params             []param
	body               obj // the requestBody, nil: none
	status             string
	response           obj // nil: none (204)
	secured            bool
}

func (o *operation) id() string {
	return regexp.MustCompile(`\W`).ReplaceAllString(o.name+o.path, "_") + "_" + o.method
}

func (o *operation) summary() string {
	return title(o.name)
}

var validationComponents = obj{
	{"HTTPValidationError", obj{
		{"properties", obj{{"detail", obj{
			{"items", obj{{"$ref", "#/components/schemas/ValidationError"}}},
			{"type", "array"}, {"title", "Detail"},
		}}}},
		{"type", "object"}, {"title", "HTTPValidationError"},
	}},
	{"ValidationError", obj{
		{"properties", obj{
			{"loc", obj{
				{"items", obj{{"anyOf", []any{obj{{"type", "string"}}, obj{{"type", "integer"}}}}}},
				{"type", "array"}, {"title", "Location"},
			}},
			{"msg", obj{{"type", "string"}, {"title", "Message"}}},
			{"type", obj{{"type", "string"}, {"title", "Error Type"}}},
			{"input", obj{{"title", "Input"}}},
			{"ctx", obj{{"type", "object"}, {"title", "Context"}}},
		}},
		{"type", "object"}, {"required", []string{"loc", "msg", "type"}}, {"title", "ValidationError"},
	}},
}

var loginForm = obj{
	{"properties", obj{
		{"grant_type", obj{{"anyOf", []any{obj{{"type", "string"}, {"pattern", "^password$"}}, obj{{"type", "null"}}}}, {"title", "Grant Type"}}},
		{"username", obj{{"type", "string"}, {"title", "Username"}}},
		{"password", obj{{"type", "string"}, {"format", "password"}, {"title", "Password"}}},
		{"scope", obj{{"type", "string"}, {"title", "Scope"}, {"default", ""}}},
		{"client_id", obj{{"anyOf", []any{obj{{"type", "string"}}, obj{{"type", "null"}}}}, {"title", "Client Id"}}},
		{"client_secret", obj{{"anyOf", []any{obj{{"type", "string"}}, obj{{"type", "null"}}}}, {"format", "password"}, {"title", "Client Secret"}}},
	}},
	{"type", "object"}, {"required", []string{"username", "password"}},
}

// contractFromBytes builds a FastAPI-shaped OpenAPI document from data.
func contractFromBytes(data []byte) []byte {
	g := &gen{s: &src{b: data}, used: map[string]bool{}}
	s := g.s
	components := map[string]obj{}

	for i := range s.n(3) {
		e := &enumDef{name: g.name(enumNames[i])}
		if s.one(4) {
			e.ints = true
			for v := range 2 + s.n(2) {
				e.values = append(e.values, v+1)
			}
		} else {
			e.values = enumWords[s.n(len(enumWords))]
		}
		g.enums = append(g.enums, e)
		typ := "string"
		if e.ints {
			typ = "integer"
		}
		components[e.name] = obj{{"type", typ}, {"enum", e.values}, {"title", e.name}}
	}
	for i := range s.n(5) {
		m := &modelDef{name: g.name(modelNames[i])}
		m.fields = g.fields(5, g.models, false)
		g.models = append(g.models, m)
		components[m.name] = g.model(m.name, m.fields)
	}

	secured := s.one(3)
	var ops []*operation
	if secured {
		ops = append(ops, &operation{name: "login", method: "post", path: "/token", status: "200",
			body:     obj{{"content", obj{{"application/x-www-form-urlencoded", obj{{"schema", obj{{"$ref", "#/components/schemas/Body_login_token_post"}}}}}}}, {"required", true}},
			response: obj{{"$ref", "#/components/schemas/Token"}}})
		components["Token"] = obj{{"properties", obj{
			{"access_token", obj{{"type", "string"}, {"title", "Access Token"}}},
			{"token_type", obj{{"type", "string"}, {"title", "Token Type"}}},
		}}, {"type", "object"}, {"required", []string{"access_token", "token_type"}}, {"title", "Token"}}
		g.used["Token"] = true
		// The account a token stands for, as FastAPI's security tutorials
		// declare it, and the operation that reads it.
		components["User"] = obj{{"properties", obj{
			{"username", obj{{"type", "string"}, {"title", "Username"}}},
			{"email", obj{{"anyOf", []any{obj{{"type", "string"}}, obj{{"type", "null"}}}}, {"title", "Email"}}},
			{"full_name", obj{{"anyOf", []any{obj{{"type", "string"}}, obj{{"type", "null"}}}}, {"title", "Full Name"}}},
			{"disabled", obj{{"anyOf", []any{obj{{"type", "boolean"}}, obj{{"type", "null"}}}}, {"title", "Disabled"}}},
		}}, {"type", "object"}, {"required", []string{"username"}}, {"title", "User"}}
		g.used["User"] = true
		ops = append(ops, &operation{name: "read_users_me", method: "get", path: "/users/me/", status: "200",
			response: obj{{"$ref", "#/components/schemas/User"}}, secured: true})
		form := append(obj{}, loginForm...)
		form.add("title", "Body_login_token_post")
		components["Body_login_token_post"] = form
		g.used["Body_login_token_post"] = true
	}
	idTypes := map[string]typ{}
	seen := map[string]bool{}
	for range 1 + s.n(5) {
		res := pick(s, resources)
		single := strings.TrimSuffix(res, "s")
		idName := single + "_id"
		if _, ok := idTypes[res]; !ok {
			t := typ{kind: pick(s, []string{"int", "str", "uuid"}), minLen: -1, maxLen: -1}
			if t.kind == "int" && s.one(3) {
				t.min = &bound{1, false}
			}
			idTypes[res] = t
		}
		op := &operation{status: "200"}
		var verb string
		switch s.n(6) {
		case 0:
			op.method, op.path, verb = "get", "/"+res+"/{"+idName+"}", "read_"+single
		case 1:
			op.method, op.path, verb = "get", "/"+res+"/", "read_"+res
		case 2:
			op.method, op.path, verb = "post", "/"+res+"/", "create_"+single
			if s.one(2) {
				op.status = "201"
			}
		case 3:
			op.method, op.path, verb = "put", "/"+res+"/{"+idName+"}", "update_"+single
		case 4:
			op.method, op.path, verb = "patch", "/"+res+"/{"+idName+"}", "patch_"+single
		case 5:
			op.method, op.path, verb = "delete", "/"+res+"/{"+idName+"}", "delete_"+single
			if s.one(2) {
				op.status = "204"
			}
		}
		if seen[op.method+op.path] {
			continue
		}
		seen[op.method+op.path] = true
		op.name = verb
		if strings.Contains(op.path, "{") {
			op.params = append(op.params, param{"path", field{name: idName, t: idTypes[res], required: true}})
		}
		g.params(op)
		if op.method == "post" || op.method == "put" || op.method == "patch" {
			g.body(op, components)
		}
		g.response(op, single)
		op.secured = secured && s.one(2)
		ops = append(ops, op)
	}

	paths := obj{}
	index := map[string]int{}
	need422 := false
	for _, op := range ops {
		o := obj{{"summary", op.summary()}, {"operationId", op.id()}}
		if op.secured {
			o.add("security", []any{obj{{"OAuth2PasswordBearer", []any{}}}})
		}
		if len(op.params) > 0 {
			var ps []any
			for _, in := range []string{"path", "query", "header", "cookie"} {
				for _, p := range op.params {
					if p.in == in {
						ps = append(ps, p.param())
					}
				}
			}
			o.add("parameters", ps)
		}
		if op.body != nil {
			o.add("requestBody", op.body)
		}
		responses := obj{}
		if op.response == nil {
			responses.add(op.status, obj{{"description", "Successful Response"}})
		} else {
			responses.add(op.status, obj{{"description", "Successful Response"}, {"content", obj{{"application/json", obj{{"schema", op.response}}}}}})
		}
		if len(op.params) > 0 || op.body != nil {
			need422 = true
			responses.add("422", obj{{"description", "Validation Error"}, {"content", obj{{"application/json", obj{{"schema", obj{{"$ref", "#/components/schemas/HTTPValidationError"}}}}}}}})
		}
		o.add("responses", responses)
		if i, ok := index[op.path]; ok {
			item := paths[i].v.(obj)
			item.add(op.method, o)
			paths[i].v = item
		} else {
			index[op.path] = len(paths)
			paths.add(op.path, obj{{op.method, o}})
		}
	}
	if need422 {
		for _, c := range validationComponents {
			components[c.k] = c.v.(obj)
		}
	}
	doc := obj{{"openapi", "3.1.0"}, {"info", obj{{"title", "FastAPI"}, {"version", "0.1.0"}}}, {"paths", paths}}
	comps := obj{}
	if len(components) > 0 {
		names := make([]string, 0, len(components))
		for n := range components {
			names = append(names, n)
		}
		slices.Sort(names)
		schemas := obj{}
		for _, n := range names {
			schemas.add(n, components[n])
		}
		comps.add("schemas", schemas)
	}
	if secured {
		comps.add("securitySchemes", obj{{"OAuth2PasswordBearer", obj{{"type", "oauth2"}, {"flows", obj{{"password", obj{{"scopes", obj{}}, {"tokenUrl", "token"}}}}}}}})
	}
	if len(comps) > 0 {
		doc.add("components", comps)
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic(err)
	}
	return out
}

// params adds query, header and cookie parameters to op.
func (g *gen) params(op *operation) {
	s := g.s
	names := map[string]bool{}
	for _, p := range op.params {
		names[p.name] = true
	}
	for range s.n(5) {
		p := param{in: pick(s, []string{"query", "query", "query", "header", "cookie"})}
		switch p.in {
		case "query":
			p.name = pick(s, queryNames)
			p.t = g.scalar(true)
		case "header":
			p.name = pick(s, headerNames)
			p.t = typ{kind: pick(s, []string{"str", "int"}), minLen: -1, maxLen: -1}
		case "cookie":
			p.name = pick(s, cookieNames)
			p.t = typ{kind: "str", minLen: -1, maxLen: -1}
		}
		if names[p.name] {
			continue
		}
		names[p.name] = true
		p.optional = s.one(2)
		p.required = !p.optional && s.one(3)
		if !p.required && !(p.optional && s.n(3) > 0) {
			p.def = p.t.value()
		}
		if !p.required && !p.optional && p.def == nil {
			p.optional = true
		}
		op.params = append(op.params, p)
	}
}

// param is the parameter object, as FastAPI writes it.
func (p param) param() obj {
	name := p.name
	ttl := title(p.name)
	if p.in == "header" {
		name = strings.ReplaceAll(p.name, "_", "-")
		ttl = headerTitle(p.name)
	}
	var sch obj
	inner := p.t.schema(false)
	ref := p.t.kind == "enum"
	if p.optional {
		sch.add("anyOf", []any{inner, obj{{"type", "null"}}})
	} else {
		sch = inner
	}
	if !p.required && p.def != nil {
		sch.add("default", p.def)
	}
	if !ref || p.optional {
		sch.add("title", ttl)
	}
	return obj{{"name", name}, {"in", p.in}, {"required", p.required}, {"schema", sch}}
}

// body gives op a JSON or form body.
func (g *gen) body(op *operation, components map[string]obj) {
	s := g.s
	id := op.id()
	switch {
	case s.one(4):
		// Form fields: Body_<operationId> with scalar fields.
		fields := g.fields(3, nil, true)
		name := "Body_" + id
		g.used[name] = true
		components[name] = g.model(name, fields)
		op.body = obj{{"content", obj{{"application/x-www-form-urlencoded", obj{{"schema", obj{{"$ref", "#/components/schemas/" + name}}}}}}}, {"required", true}}
	case len(g.models) > 0 && s.n(3) > 0:
		m := pick(s, g.models)
		op.body = obj{{"required", true}, {"content", obj{{"application/json", obj{{"schema", obj{{"$ref", "#/components/schemas/" + m.name}}}}}}}}
	default:
		// Several body parameters, or one embedded: Body_<operationId>
		// whose properties are the parameters (models by $ref, or
		// scalars declared with Body()).
		var fields []field
		names := map[string]bool{}
		for range 1 + s.n(3) {
			var f field
			if len(g.models) > 0 && s.n(3) > 0 {
				m := pick(s, g.models)
				f = field{name: strings.ToLower(m.name), t: typ{kind: "model", model: m, minLen: -1, maxLen: -1}, required: true}
			} else {
				f = field{name: pick(s, []string{"importance", "note", "priority"}), t: g.scalar(false), required: true}
				if s.one(3) {
					f.required = false
					f.def = f.t.value()
					f.required = f.def == nil
				}
			}
			if names[f.name] {
				continue
			}
			names[f.name] = true
			fields = append(fields, f)
		}
		name := "Body_" + id
		g.used[name] = true
		components[name] = g.model(name, fields)
		op.body = obj{{"content", obj{{"application/json", obj{{"schema", obj{{"$ref", "#/components/schemas/" + name}}}}}}}, {"required", true}}
	}
}

// response chooses op's success response schema.
func (g *gen) response(op *operation, single string) {
	s := g.s
	if op.status == "204" {
		return
	}
	respTitle := "Response " + title(op.id())
	switch c := s.n(5); {
	case c == 0 || len(g.models) == 0:
		op.response = obj{}
	case c == 1 && op.method == "get" && !strings.Contains(op.path, "{"):
		op.response = obj{{"type", "array"}, {"items", obj{{"$ref", "#/components/schemas/" + pick(s, g.models).name}}}, {"title", respTitle}}
	case c == 2:
		t := g.scalar(false)
		sch := t.schema(true)
		sch.add("title", respTitle)
		op.response = sch
	default:
		op.response = obj{{"$ref", "#/components/schemas/" + pick(s, g.models).name}}
	}
}
