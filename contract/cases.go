package contract

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/spec"
)

// Kind says why a case exists.
type Kind string

// The kinds of case.
const (
	Positive         Kind = "positive"          // valid inputs: accepted
	Negative         Kind = "negative"          // one input FastAPI rejects: 422 naming it
	UnknownID        Kind = "unknown_id"        // a valid id no record has: 404
	WrongCredentials Kind = "wrong_credentials" // a login that must fail: 401/400
	Generated        Kind = "generated"         // seeded random inputs, valid or not
)

// Expect is what a case expects of the response.
type Expect string

// The expectations.
const (
	ExpectSuccess      Expect = "success"      // 2xx
	ExpectRejection    Expect = "rejection"    // 4xx; for FastAPI a 422 naming Field
	ExpectNotFound     Expect = "not_found"    // 404
	ExpectUnauthorized Expect = "unauthorized" // 401 or 400
	ExpectNotRejected  Expect = "not_rejected" // anything but a validation error
)

// Request is one HTTP request, as sent.
type Request struct {
	Method string      `json:"method"`
	URL    string      `json:"url"`
	Header http.Header `json:"headers,omitempty"`
	Body   string      `json:"body,omitempty"`
}

// Case is one request the runner sends and what it expects.
type Case struct {
	Index     int     `json:"index"`
	Operation string  `json:"operation"` // operationId
	Method    string  `json:"method"`
	Path      string  `json:"path"` // the contract's path template
	Kind      Kind    `json:"kind"`
	Name      string  `json:"name"`
	Expect    Expect  `json:"expect"`
	Field     []any   `json:"field,omitempty"` // the loc a rejection must name
	Request   Request `json:"request"`

	op *operation
}

// operation is a contract operation and what the runner knows of it.
type operation struct {
	id, method, path string
	op               *openapi3.Operation
	item             *openapi3.PathItem
	inputs           fastapi.Inputs
	tokenEndpoint    bool // its 200 carries an access_token
	listOf           *operation
	itemParam        string // for an item read: the path parameter naming the item
}

// input values a case sets; absent inputs are left out.
type values map[string]string

// operations lists the contract's operations in document order with their
// compiled inputs. An operation the runner cannot drive (a JSON body) is
// reported in notes and left out.
func operations(sp *spec.Spec, notes *[]string) []*operation {
	var ops []*operation
	for _, path := range sp.Paths() {
		item := sp.Doc.Paths.Value(path)
		for _, method := range []string{"GET", "PUT", "POST", "DELETE", "PATCH"} {
			op := item.GetOperation(method)
			if op == nil {
				continue
			}
			id := op.OperationID
			if id == "" {
				id = method + " " + path
			}
			ins, err := fastapi.CompileInputs(sp, op, item)
			if err != nil {
				*notes = append(*notes, fmt.Sprintf("%s %s: not tested: %v", method, path, err))
				continue
			}
			o := &operation{id: id, method: method, path: path, op: op, item: item, inputs: ins}
			o.tokenEndpoint = responseHasProperty(op, "200", "access_token")
			ops = append(ops, o)
		}
	}
	// Pair list reads with item reads: GET /reviews returns an array of
	// objects with an id, GET /reviews/{review_id} reads one of them.
	for _, list := range ops {
		if list.method != "GET" || len(list.inputs.List) != 0 || !responseIsArrayWithID(list.op) {
			continue
		}
		for _, it := range ops {
			if it.method != "GET" || !strings.HasPrefix(it.path, strings.TrimSuffix(list.path, "/")+"/{") {
				continue
			}
			rest := strings.TrimPrefix(it.path, strings.TrimSuffix(list.path, "/")+"/")
			if strings.Count(rest, "{") == 1 && strings.HasSuffix(rest, "}") && !strings.Contains(rest, "/") {
				it.listOf = list
				it.itemParam = strings.Trim(rest, "{}")
			}
		}
	}
	return ops
}

func responseSchema(op *openapi3.Operation, status string) *openapi3.Schema {
	resp := op.Responses.Value(status)
	if resp == nil || resp.Value == nil {
		return nil
	}
	mt := resp.Value.Content.Get("application/json")
	if mt == nil || mt.Schema == nil {
		return nil
	}
	return mt.Schema.Value
}

func responseHasProperty(op *openapi3.Operation, status, prop string) bool {
	s := responseSchema(op, status)
	return s != nil && s.Properties[prop] != nil
}

func responseIsArrayWithID(op *openapi3.Operation) bool {
	s := responseSchema(op, "200")
	return s != nil && s.Type.Is("array") && s.Items != nil && s.Items.Value != nil && s.Items.Value.Properties["id"] != nil
}

// builder turns operations and known values into cases.
type builder struct {
	cfg   *Config
	sp    *spec.Spec
	rng   *rand.Rand
	cases []*Case
	notes *[]string
	// ids known for each path parameter: from flags, the target's lists,
	// the contract's examples.
	ids map[string][]string
	// form values known to be accepted: credentials, examples.
	formValues map[string]string
	headers    http.Header
}

func (b *builder) add(o *operation, kind Kind, expect Expect, name string, vals values, field []any) {
	c := &Case{
		Index: len(b.cases), Operation: o.id, Method: o.method, Path: o.path, Kind: kind,
		Name: name, Expect: expect, Field: field, op: o,
	}
	c.Request = b.request(o, vals)
	b.cases = append(b.cases, c)
}

// request builds the HTTP request for an operation with the given values.
func (b *builder) request(o *operation, vals values) Request {
	path := o.path
	query := url.Values{}
	form := url.Values{}
	header := b.headers.Clone()
	if header == nil {
		header = http.Header{}
	}
	var formOrder []string
	for _, in := range o.inputs.List {
		v, ok := vals[in.Name]
		if !ok {
			continue
		}
		switch in.In {
		case "path":
			path = strings.ReplaceAll(path, "{"+in.Name+"}", url.PathEscape(v))
		case "query":
			query.Set(in.Name, v)
		case "header":
			header.Set(in.Name, v)
		case "cookie":
			header.Add("Cookie", in.Name+"="+v)
		case "body":
			form.Set(in.Name, v)
			formOrder = append(formOrder, in.Name)
		}
	}
	u := strings.TrimSuffix(b.cfg.BaseURL, "/") + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	r := Request{Method: o.method, URL: u, Header: header}
	if o.inputs.Form {
		// Fields in declaration order, as a browser form would send them.
		var parts []string
		for _, name := range formOrder {
			parts = append(parts, url.QueryEscape(name)+"="+url.QueryEscape(form.Get(name)))
		}
		r.Body = strings.Join(parts, "&")
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if len(r.Header) == 0 {
		r.Header = nil
	}
	return r
}

// validValues picks accepted values for every required input of o, and
// says which input it could not fill, if any.
func (b *builder) validValues(o *operation) (values, string) {
	vals := values{}
	for _, in := range o.inputs.List {
		switch {
		case in.In == "path":
			ids := b.ids[in.Name]
			if len(ids) == 0 {
				return nil, in.Name
			}
			vals[in.Name] = ids[0]
		case in.In == "body":
			if v, ok := b.formValues[in.Name]; ok && v != "" {
				vals[in.Name] = v
			} else if in.Required {
				return nil, in.Name
			}
		case in.Required:
			v, ok := exampleFor(in)
			if !ok {
				return nil, in.Name
			}
			vals[in.Name] = v
		}
	}
	return vals, ""
}

// exampleFor gives a value the schema accepts for a non-path input.
func exampleFor(in fastapi.Input) (string, bool) {
	s := in.Schema
	if s.Example != nil {
		return fmt.Sprint(s.Example), true
	}
	if len(s.Enum) > 0 {
		return fmt.Sprint(s.Enum[0]), true
	}
	switch in.Kind {
	case fastapi.Integer:
		if s.Min != nil {
			return strconv.FormatInt(int64(*s.Min), 10), true
		}
		return "1", true
	case fastapi.Number:
		return "1.5", true
	case fastapi.Boolean:
		return "true", true
	}
	if s.Pattern == "" {
		return "moviemock", true
	}
	return "", false
}

// build makes every case for the operations, in a fixed order.
func (b *builder) build(ops []*operation) {
	for _, o := range ops {
		b.positive(o)
		b.negative(o)
		b.unknownIDs(o)
		b.wrongCredentials(o)
		b.generated(o)
	}
}

func describe(vals values, order []fastapi.Input) string {
	var parts []string
	for _, in := range order {
		if v, ok := vals[in.Name]; ok {
			if strings.Contains(in.Name, "password") || strings.Contains(in.Name, "secret") {
				v = "***"
			}
			parts = append(parts, in.Name+"="+strconv.Quote(v))
		}
	}
	if len(parts) == 0 {
		return "no inputs"
	}
	return strings.Join(parts, " ")
}

func (b *builder) positive(o *operation) {
	vals, missing := b.validValues(o)
	if vals == nil {
		*b.notes = append(*b.notes, fmt.Sprintf("%s: no positive case: no valid value known for %q (give it with a flag such as --%s, or an example in the contract)",
			o.id, missing, strings.ReplaceAll(missing, "_", "-")))
		return
	}
	b.add(o, Positive, ExpectSuccess, describe(vals, o.inputs.List), vals, nil)
	// Every other known id once more, up to a few, so each is read.
	for _, in := range o.inputs.List {
		if in.In != "path" || o.listOf != nil {
			continue
		}
		for _, id := range b.ids[in.Name][1:min(len(b.ids[in.Name]), 3)] {
			v := clone(vals)
			v[in.Name] = id
			b.add(o, Positive, ExpectSuccess, describe(v, o.inputs.List), v, nil)
		}
	}
	// With every optional form field set to an accepted value as well.
	if o.inputs.Form {
		full := clone(vals)
		added := false
		for _, in := range o.inputs.List {
			if _, set := full[in.Name]; in.In != "body" || set {
				continue
			}
			if v, ok := exampleFor(in); ok {
				if _, bad := in.Check(b.sp, v, true); bad == nil {
					full[in.Name], added = v, true
				}
			} else if v, ok := acceptedPatternValue(in); ok {
				full[in.Name], added = v, true
			}
		}
		if added {
			b.add(o, Positive, ExpectSuccess, describe(full, o.inputs.List), full, nil)
		}
	}
}

// acceptedPatternValue is the literal a simple anchored pattern spells
// (^password$ → "password").
func acceptedPatternValue(in fastapi.Input) (string, bool) {
	p := in.Schema.Pattern
	if strings.HasPrefix(p, "^") && strings.HasSuffix(p, "$") {
		lit := p[1 : len(p)-1]
		if !strings.ContainsAny(lit, `\.[]()*+?{}|^$`) {
			return lit, true
		}
	}
	return "", false
}

func clone(v values) values {
	out := make(values, len(v))
	for k, x := range v {
		out[k] = x
	}
	return out
}

// Strings pydantic refuses as integers, and strings that break simple
// string constraints; each candidate is kept only if FastAPI really rejects
// it (fastapi.Input.Check), so " 12 " or "1_000" are never sent as
// negatives.
var (
	badIntegers = []string{"abc", "1.5", "1e3", "0x10", " ", "١٢", "12abc", "1__0", "-", "Infinity"}
	badNumbers  = []string{"abc", "1,5", "0x1p3", " ", "--1"}
	badBooleans = []string{"maybe", "2", " "}
)

func (b *builder) negative(o *operation) {
	base, _ := b.validValues(o)
	if base == nil {
		base = b.fillAnything(o)
	}
	for _, in := range o.inputs.List {
		var candidates []string
		switch in.Kind {
		case fastapi.Integer:
			candidates = badIntegers
		case fastapi.Number:
			candidates = badNumbers
		case fastapi.Boolean:
			candidates = badBooleans
		default:
			candidates = badStrings(in, base[in.Name])
		}
		for _, raw := range candidates {
			if in.In == "path" && (raw == "" || strings.Contains(raw, "/")) {
				continue // would not reach the route at all
			}
			if _, item := in.Check(b.sp, raw, true); item == nil {
				continue
			}
			v := clone(base)
			v[in.Name] = raw
			b.add(o, Negative, ExpectRejection, fmt.Sprintf("%s=%s", in.Name, strconv.Quote(raw)), v, in.Loc)
		}
		if in.Required && in.In != "path" {
			v := clone(base)
			delete(v, in.Name)
			b.add(o, Negative, ExpectRejection, in.Name+" missing", v, in.Loc)
			if in.In == "body" {
				v := clone(base)
				v[in.Name] = ""
				b.add(o, Negative, ExpectRejection, in.Name+` empty ("")`, v, in.Loc)
			}
		}
	}
}

// badStrings are strings that may break a string input's constraints.
func badStrings(in fastapi.Input, valid string) []string {
	s := in.Schema
	var out []string
	if s.Pattern != "" {
		lit, _ := acceptedPatternValue(in)
		for _, base := range []string{lit, valid} {
			if base == "" {
				continue
			}
			out = append(out, strings.ToUpper(base[:1])+base[1:], base+"\n", " "+base, base+"x")
		}
		out = append(out, "moviemock")
	}
	if s.MaxLength != nil {
		out = append(out, strings.Repeat("x", int(*s.MaxLength)+1))
	}
	if s.MinLength > 1 {
		out = append(out, "x")
	}
	if len(s.Enum) > 0 {
		out = append(out, "moviemock-not-in-enum")
	}
	return out
}

// fillAnything gives every input some value, for negative cases of an
// operation no valid values are known for: the one bad input should still
// be reported by name.
func (b *builder) fillAnything(o *operation) values {
	v := values{}
	for _, in := range o.inputs.List {
		if ids := b.ids[in.Name]; len(ids) > 0 {
			v[in.Name] = ids[0]
		} else if x, ok := exampleFor(in); ok {
			v[in.Name] = x
		} else if x, ok := acceptedPatternValue(in); ok {
			v[in.Name] = x
		} else {
			v[in.Name] = "1"
		}
	}
	return v
}

func (b *builder) unknownIDs(o *operation) {
	if o.method != "GET" {
		return
	}
	base, _ := b.validValues(o)
	if base == nil {
		base = b.fillAnything(o)
	}
	for _, in := range o.inputs.List {
		if in.In != "path" {
			continue
		}
		var id string
		switch in.Kind {
		case fastapi.Integer:
			for n := int64(987654321); ; n++ {
				id = strconv.FormatInt(n, 10)
				if !slices.Contains(b.ids[in.Name], id) {
					break
				}
			}
		case fastapi.String:
			id = fmt.Sprintf("moviemock-unknown-%016x", b.rng.Uint64())
		default:
			continue
		}
		v := clone(base)
		v[in.Name] = id
		b.add(o, UnknownID, ExpectNotFound, fmt.Sprintf("%s=%s (no such record)", in.Name, strconv.Quote(id)), v, nil)
	}
}

// wrongCredentials tests a login form: its username and password fields.
func (b *builder) wrongCredentials(o *operation) {
	var hasUser, hasPass bool
	for _, in := range o.inputs.List {
		hasUser = hasUser || in.In == "body" && in.Name == "username"
		hasPass = hasPass || in.In == "body" && in.Name == "password"
	}
	if !hasUser || !hasPass {
		return
	}
	wrong := fmt.Sprintf("moviemock-wrong-%08x", b.rng.Uint32())
	if user := b.formValues["username"]; user != "" {
		b.add(o, WrongCredentials, ExpectUnauthorized, fmt.Sprintf("username=%q with a wrong password", user),
			values{"username": user, "password": wrong}, nil)
	}
	b.add(o, WrongCredentials, ExpectUnauthorized, "a username no account has",
		values{"username": "moviemock-nobody-" + wrong[len(wrong)-8:], "password": wrong}, nil)
}

// generated adds cfg.Examples seeded random cases: each input absent, a
// known good value, or a random string; FastAPI's rules decide whether the
// result must be rejected and for which input.
func (b *builder) generated(o *operation) {
	for n := 0; n < b.cfg.Examples; n++ {
		vals := values{}
		var bad []any
		for _, in := range o.inputs.List {
			var raw string
			present := true
			switch x := b.rng.IntN(6); {
			case x == 0 && in.In != "path":
				present = false
			case x <= 2:
				if ids := b.ids[in.Name]; len(ids) > 0 {
					raw = ids[b.rng.IntN(len(ids))]
				} else if v, ok := b.formValues[in.Name]; ok {
					raw = v
				} else if v, ok := acceptedPatternValue(in); ok {
					raw = v
				} else {
					raw = randomString(b.rng, in.Kind)
				}
			default:
				raw = randomString(b.rng, in.Kind)
			}
			if in.In == "path" && (raw == "" || strings.Contains(raw, "/")) {
				raw = "x" + strings.ReplaceAll(raw, "/", "")
			}
			if present {
				vals[in.Name] = raw
			}
			if _, item := in.Check(b.sp, raw, present); item != nil && bad == nil {
				bad = in.Loc
			}
		}
		expect := ExpectNotRejected
		if bad != nil {
			expect = ExpectRejection
		}
		b.add(o, Generated, expect, fmt.Sprintf("#%d %s", n+1, describe(vals, o.inputs.List)), vals, bad)
	}
}

// randomString makes an input value: valid or invalid for kind, often
// close to the boundary pydantic draws.
func randomString(r *rand.Rand, kind fastapi.Kind) string {
	pieces := []string{"0", "7", "12", "-3", "+4", "_", ".", ".0", "e3", " ", "\t", "a", "Z", "é", "١", "%", "'", "\"", "\\", "x", "00"}
	n := 1 + r.IntN(4)
	var sb strings.Builder
	if kind == fastapi.Integer && r.IntN(2) == 0 {
		sb.WriteString(strconv.Itoa(r.IntN(2000) - 100))
		n = r.IntN(2)
	}
	for i := 0; i < n; i++ {
		sb.WriteString(pieces[r.IntN(len(pieces))])
	}
	return sb.String()
}
