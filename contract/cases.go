package contract

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/fake"
	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/model"
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
	// ExpectNotFoundOrEmpty: a list filtered by a parent no record has
	// answers 404, or an empty list (GET /movies/{movie_id}/reviews → []).
	ExpectNotFoundOrEmpty Expect = "not_found_or_empty"
	// ExpectAnswered: anything but a server error; an unknown id of an
	// operation that neither declares a 404 nor names records the runner
	// has seen (an echo of the path, an upsert) owes no 404.
	ExpectAnswered Expect = "answered"
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

	op  *operation
	obs *observedFacts // for an Observed case: what the proxy knew
	// ownCleanup: what this sequence step created, the sequences delete
	// (or name as left behind) themselves; the run's cleanup leaves it.
	ownCleanup bool
	// madeUp are the path parameters whose key the runner made up for a
	// positive case (madeUpKey): nothing named a record for them, so a
	// 404 is the state's answer, not the contract's breach.
	madeUp []string
	// unpaired is the path parameter naming a record kept under a parent
	// (model.Collection.ScopedBy) whose key a positive case took from
	// what the runner saw, beside a parent key taken apart from it
	// (POST /projects/{project}/views/{id}: view 1 may be another
	// project's): a 404 is the state's answer there too.
	unpaired string
}

// operation is a contract operation and what the runner knows of it.
type operation struct {
	id, method, path string
	op               *openapi3.Operation
	item             *openapi3.PathItem
	inputs           fastapi.Inputs
	tokenEndpoint    bool // its success answer carries an access_token, or it is the tokenUrl
	secured          bool // declares an OAuth2 or bearer requirement
	// keyed: under the plain-OpenAPI profile, it requires the scheme the
	// run's credential is for (an API key) and is not secured.
	keyed bool
	// needsCredential: secured or keyed.
	needsCredential bool
	// keyField: an item read paired with its list by the model, whose
	// listed items give itemParam only from their field of that name
	// (never their id).
	keyField bool
	basic    bool // declares an HTTP basic requirement
	// basicOpens: the run holds HTTP basic credentials (builder.basic)
	// that satisfy one alternative of its security requirements.
	basicOpens bool
	listOf     *operation
	itemParam  string // for an item read: the path parameter naming the item
	// projects: a list whose items' schema is not the one its item reads
	// answer (Goa's tiny view of a bottle): an item may leave out what
	// the read holds.
	projects bool
	model    *model.Operation
	// target is, for PUT, PATCH and DELETE, the path parameter naming the
	// record changed: only records the runner created go there.
	target string
	// untestable says why the runner cannot drive the operation (its
	// inputs do not compile); "" when it can.
	untestable string
}

// unsafe reports whether the operation changes data (a login aside).
func (o *operation) unsafe() bool {
	return o.method != "GET" && !o.tokenEndpoint && !(o.model != nil && o.model.Kind == model.Login)
}

// destructive reports whether the operation changes or deletes a record
// named by its path: a PUT, PATCH or DELETE, a POST that replaces or
// updates the record (gotify's POST /user/{id}), or an action on the
// record (a POST /reviews/{review_id}/reactions answering the review).
func (o *operation) destructive() bool {
	return (o.method == "PUT" || o.method == "PATCH" || o.method == "DELETE" || changesByPost(o.model) ||
		(o.method == "POST" && o.model != nil && o.model.Kind == model.Action)) && o.target != ""
}

// changesByPost reports whether m is a POST that the model reads as the
// replace or update of the record its path names (POST /user/{id}
// answering the user changed).
func changesByPost(m *model.Operation) bool {
	return m != nil && m.Method == "POST" && (m.Kind == model.Replace || m.Kind == model.Update)
}

// wipes reports whether the operation is a DELETE that names no record on
// its path (DELETE /message: every message of the account), so deletes
// records the run did not create; the deletion of the current user aside.
func (o *operation) wipes() bool {
	return o.method == "DELETE" && !strings.Contains(o.path, "{") && !changesAccount(o)
}

// input values a case sets; absent inputs are left out.
type values map[string]string

// operations lists the contract's operations in document order with their
// compiled inputs: the model's (m, when it is sp's), else compiled here as
// FastAPI's. An operation the runner cannot drive (inputs it cannot
// compile) has untestable set and nothing else.
func operations(sp *spec.Spec, m *model.Model, notes *[]string) []*operation {
	compiled := map[*openapi3.Operation]*model.Operation{}
	if m != nil && m.Spec == sp {
		for _, o := range m.Operations {
			compiled[o.Op] = o
		}
	}
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
			var ins fastapi.Inputs
			var err error
			if mo := compiled[op]; mo != nil {
				ins, err = mo.Inputs, mo.InputsErr
			} else {
				ins, err = fastapi.CompileInputs(sp, op, item)
			}
			if err != nil {
				ops = append(ops, &operation{id: id, method: method, path: path, op: op, item: item, untestable: err.Error()})
				continue
			}
			o := &operation{id: id, method: method, path: path, op: op, item: item, inputs: ins, model: compiled[op]}
			o.tokenEndpoint = issuesTokens(op) || isTokenURL(sp, method, path)
			o.secured = securedBy(sp.Doc, op)
			o.basic = !o.secured && model.BasicAuth(sp.Doc, op)
			if method == "PUT" || method == "PATCH" || method == "DELETE" || changesByPost(o.model) {
				for _, in := range ins.List {
					if in.In == "path" {
						o.target = in.Name // the last path parameter
					}
				}
			}
			ops = append(ops, o)
		}
	}
	// Pair list reads with item reads: GET /reviews returns an array of
	// objects with an id, GET /reviews/{review_id} reads one of them.
	for _, list := range ops {
		if list.untestable != "" || list.method != "GET" || slices.ContainsFunc(list.inputs.List, func(in fastapi.Input) bool { return in.Required || in.In == "path" }) || !responseIsArrayWithID(list.op) {
			continue
		}
		for _, it := range ops {
			if it.untestable != "" || it.method != "GET" || !strings.HasPrefix(it.path, strings.TrimSuffix(list.path, "/")+"/{") {
				continue
			}
			if param, ok := itemParam(list.path, it.path); ok {
				it.listOf = list
				it.itemParam = param
				if items := listItemSchema(list.op); items != nil && items != successSchema(it.op) {
					list.projects = true
				}
			}
		}
	}
	// Outside FastAPI documents, the model pairs what ids alone do not: a
	// list in an envelope ({"articles": […]}) with the read of the same
	// collection keyed by another field (GET /articles/{slug}).
	for _, list := range ops {
		if list.untestable != "" || list.model == nil || list.model.Kind != model.List || list.model.Coll == nil || slices.ContainsFunc(list.inputs.List, func(in fastapi.Input) bool { return in.Required || in.In == "path" }) {
			continue
		}
		for _, it := range ops {
			if it.listOf != nil || it.untestable != "" || it.model == nil || it.model.Kind != model.ReadOne || it.model.Coll != list.model.Coll {
				continue
			}
			if param, ok := itemParam(list.path, it.path); ok {
				it.listOf, it.itemParam, it.keyField = list, param, true
			}
		}
	}
	return ops
}

// itemParam is the path parameter naming an item of the list at list
// where item is the path of one (/reviews/{review_id} beside /reviews,
// /books/{id}/ beside /books/, as Django writes them with a slash after).
func itemParam(list, item string) (string, bool) {
	rest, ok := strings.CutPrefix(item, strings.TrimSuffix(list, "/")+"/{")
	if strings.HasSuffix(list, "/") {
		rest = strings.TrimSuffix(rest, "/")
	}
	if !ok || !strings.HasSuffix(rest, "}") || strings.ContainsAny(rest, "/{") {
		return "", false
	}
	return strings.TrimSuffix(rest, "}"), true
}

// unwrap is the record or the list an answer of o holds in its envelope
// ({"article": {…}}, {"articles": […], "articlesCount": n}); v itself
// when o has none.
func unwrap(o *model.Operation, v any) any {
	if o == nil || o.Envelope == "" {
		return v
	}
	if m, ok := v.(map[string]any); ok {
		if inner, ok := m[o.Envelope]; ok {
			return inner
		}
	}
	return v
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

// issuesTokens reports whether op's success answer carries an
// access_token: whatever status it declares for it (200, or a route's
// status_code=201).
func issuesTokens(op *openapi3.Operation) bool {
	return responseHasProperty(op, strconv.Itoa(model.SuccessStatus(op)), "access_token")
}

// successSchema is the JSON schema of the answer op declares for its
// success (its status_code: 200, 201, 203 …), or nil.
func successSchema(op *openapi3.Operation) *openapi3.Schema {
	return responseSchema(op, strconv.Itoa(model.SuccessStatus(op)))
}

// success is the status o answers when it succeeds (model.SuccessStatus).
func (o *operation) success() int {
	if o == nil || o.op == nil {
		return http.StatusOK
	}
	return model.SuccessStatus(o.op)
}

func responseHasProperty(op *openapi3.Operation, status, prop string) bool {
	s := responseSchema(op, status)
	return s != nil && s.Properties[prop] != nil
}

// unsatisfiable says why no server can answer op as the contract says: a
// success answer whose JSON schema no finite value satisfies (an object
// that requires itself with no way to end; FastAPI's response validation
// fails whatever the endpoint returns). "" when every one can be met.
func unsatisfiable(g *fake.Generator, op *openapi3.Operation) string {
	if op.Responses == nil {
		return ""
	}
	codes := slices.Sorted(maps.Keys(op.Responses.Map()))
	for _, code := range codes {
		resp := op.Responses.Value(code)
		if len(code) != 3 || code[0] != '2' || resp == nil || resp.Value == nil {
			continue
		}
		for _, media := range slices.Sorted(maps.Keys(resp.Value.Content)) {
			mt := resp.Value.Content[media]
			if !fastapi.IsJSONMedia(media) || mt == nil || mt.Schema == nil || g.Finite(mt.Schema) {
				continue
			}
			name := "its schema"
			if mt.Schema.Ref != "" {
				name = "schema " + path.Base(mt.Schema.Ref)
			}
			return fmt.Sprintf("the %s answer's %s has no finite value (it requires itself, with no way to end): no server can answer it as the contract says", code, name)
		}
	}
	return ""
}

func responseIsArrayWithID(op *openapi3.Operation) bool {
	s := listItemSchema(op)
	return s != nil && s.Properties["id"] != nil
}

// listItemSchema is the schema of the items op's success answer lists (in
// an array, or a page's items); nil when it lists none.
func listItemSchema(op *openapi3.Operation) *openapi3.Schema {
	s := successSchema(op)
	if s != nil && s.Type.Is("object") && s.Properties["items"] != nil {
		s = s.Properties["items"].Value // a page: {items: [...], ...}
	}
	if s == nil || !s.Type.Is("array") || s.Items == nil {
		return nil
	}
	return s.Items.Value
}

// builder turns operations and known values into cases.
type builder struct {
	cfg *Config
	sp  *spec.Spec
	rng *rand.Rand
	// unknown draws the UUIDs no record has (unknownID).
	unknown *rand.Rand
	// emptyList are the slots whose records' list answered empty.
	emptyList map[string]bool
	cases     []*Case
	notes     *[]string
	// ids known for each path parameter: from flags, the target's lists,
	// the contract's examples.
	ids map[string][]string
	// slots are the ids known for the records of one resource: keyed by
	// the path up to the parameter naming them (slot), and present once
	// the runner looked (a list, a probe, a create), found or not.
	slots map[string][]string
	// records names the path parameters whose ids the runner saw as
	// records: listed by the target, or created by the runner.
	records map[string]bool
	// form values known to be accepted: credentials, examples.
	formValues map[string]string
	headers    http.Header

	model     *model.Model // nil when the contract compiles to none
	fake      *fake.Generator
	fakeNoted bool                  // fake's notes are in the report
	bodies    map[*operation][]byte // a valid JSON body of each operation
	// own lists, for each operation changing or deleting records, ids of
	// records the runner created for it: [0] for its cases, [1] (a DELETE)
	// for its generated cases.
	own map[*operation][]string
	// nonce and unique make account names no earlier run used.
	nonce, unique uint32
	created       []createdRecord
	// cred is where the run's credential goes; rawToken is the token a
	// login earned, "" when none did.
	cred     credPlace
	rawToken string
	// givenToken: rawToken is the --token given, not one a login earned.
	givenToken bool
	// hasLogin: the contract has a login (a form, a tokenUrl, a JSON
	// login) that --username and --password are for.
	hasLogin bool
	// basic is the Authorization header of --username and --password as
	// HTTP basic credentials, sent to the operations basicOpens holds,
	// when the contract has no login for them; "" when not.
	basic string
}

func (b *builder) add(o *operation, kind Kind, expect Expect, name string, vals values, field []any) {
	c := &Case{
		Index: len(b.cases), Operation: o.id, Method: o.method, Path: o.path, Kind: kind,
		Name: name, Expect: expect, Field: field, op: o,
	}
	if b.cfg.NoWrites && o.unsafe() {
		return
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
	if o.basicOpens && header.Get("Authorization") == "" {
		header.Set("Authorization", b.basic)
	}
	for k, vs := range b.cfg.Query {
		query[k] = slices.Clone(vs)
	}
	cookies := url.Values{}
	for k, vs := range b.cfg.Cookie {
		cookies[k] = slices.Clone(vs)
	}
	var formOrder []string
	for _, in := range o.inputs.List {
		v, ok := vals[in.Name]
		if v == absent {
			switch in.In {
			case "query":
				query.Del(in.Name)
			case "header":
				header.Del(in.Name)
			case "cookie":
				cookies.Del(in.Name)
			}
			continue
		}
		if !ok {
			if in.In == "header" && strings.EqualFold(in.Name, "User-Agent") {
				// A case without the declared User-Agent sends none: not
				// Go's default (net/http writes Go-http-client/1.1
				// unless the key is present, and writes none for nil).
				header["User-Agent"] = nil
			}
			continue
		}
		if sv, ok := styleValue(in, v); ok && styledInput(in) {
			st := styleParam(in, sv, url.PathEscape)
			switch in.In {
			case "path":
				path = strings.ReplaceAll(path, "{"+in.Name+"}", st.text)
			case "query":
				query.Del(in.Name)
				for _, p := range st.pairs {
					query.Add(p[0], p[1])
				}
			case "header":
				if !isHost(in) {
					header.Set(in.Name, st.text)
				}
			case "cookie":
				cookies.Set(in.Name, st.text)
			}
			continue
		}
		switch in.In {
		case "path":
			path = strings.ReplaceAll(path, "{"+in.Name+"}", url.PathEscape(v))
		case "query":
			query.Set(in.Name, v)
		case "header":
			if !isHost(in) {
				header.Set(in.Name, v)
			}
		case "cookie":
			cookies.Set(in.Name, v)
		case "body":
			form.Set(in.Name, v)
			formOrder = append(formOrder, in.Name)
		}
	}
	if a, ok := vals[authKey]; ok {
		// An operation secured by a bearer token or basic credentials
		// takes them in Authorization; one keyed takes the run's
		// credential where its scheme says.
		in, name := "header", "Authorization"
		if o.keyed {
			in, name = b.cred.in, b.cred.name
		}
		switch in {
		case "query":
			query.Del(name)
			if a != "" {
				query.Set(name, a)
			}
		case "cookie":
			cookies.Del(name)
			if a != "" {
				cookies.Set(name, a)
			}
		default:
			header.Del(name)
			if a != "" {
				header.Set(name, a)
			}
		}
	}
	setCookies(header, cookies)
	u := strings.TrimSuffix(b.cfg.BaseURL, "/") + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	r := Request{Method: o.method, URL: u, Header: header}
	var ct string
	if body, ok := vals[bodyKey]; ok {
		r.Body = body
		var set bool
		ct, set = vals[ctKey]
		if !set {
			ct = o.inputs.JSON.MediaType()
		}
		if ct != "" {
			r.Header.Set("Content-Type", ct)
		}
	}
	if o.inputs.Form {
		r.Body, ct = formBody(o.op, o.inputs.List, formOrder, form)
		r.Header.Set("Content-Type", ct)
	}
	if len(r.Header) == 0 {
		r.Header = nil
	}
	return r
}

// isHost is a Host header parameter: the runner cannot choose its value,
// the transport sends the server's address (b.host).
func isHost(in fastapi.Input) bool {
	return in.In == "header" && !in.List && strings.EqualFold(in.Name, "host")
}

// host is the Host header every request carries.
func (b *builder) host() string {
	if u, err := url.Parse(b.cfg.BaseURL); err == nil {
		return u.Host
	}
	return ""
}

// formBoundary separates the parts of the multipart forms the runner
// sends: fixed, so that a run is reproducible.
const formBoundary = "moviemock-form-boundary"

// formBody encodes a form's fields in declaration order, as a browser
// would send them: urlencoded, or multipart/form-data when the form has a
// file field or op takes only that, each file field's value then sent as
// a file part; a list of several items as formItems says.
func formBody(op *openapi3.Operation, ins []fastapi.Input, order []string, form url.Values) (body, contentType string) {
	binary := slices.ContainsFunc(ins, func(in fastapi.Input) bool { return in.In == "body" && in.Binary })
	if rb := op.RequestBody; rb != nil && rb.Value != nil && rb.Value.Content.Get("application/x-www-form-urlencoded") == nil && rb.Value.Content.Get("multipart/form-data") != nil {
		binary = true
	}
	if !binary {
		var parts []string
		for _, name := range order {
			i := slices.IndexFunc(ins, func(in fastapi.Input) bool { return in.In == "body" && in.Name == name })
			for _, v := range formItems(ins[i], form.Get(name)) {
				parts = append(parts, url.QueryEscape(name)+"="+url.QueryEscape(v))
			}
		}
		return strings.Join(parts, "&"), "application/x-www-form-urlencoded"
	}
	var sb strings.Builder
	w := multipart.NewWriter(&sb)
	_ = w.SetBoundary(formBoundary) // a valid boundary: cannot fail
	for _, name := range order {
		i := slices.IndexFunc(ins, func(in fastapi.Input) bool { return in.In == "body" && in.Name == name })
		for _, v := range formItems(ins[i], form.Get(name)) {
			var part io.Writer
			if ins[i].Binary {
				h := textproto.MIMEHeader{}
				h.Set("Content-Disposition", `form-data; name="`+escapeQuotes(name)+`"; filename="moviemock.txt"`)
				h.Set("Content-Type", "application/octet-stream")
				part, _ = w.CreatePart(h) // writes to a strings.Builder: cannot fail
			} else if ins[i].Object != nil {
				// An object (or an item of an array of objects) of a
				// document not FastAPI's: a JSON part, multipart's
				// default for an object.
				h := textproto.MIMEHeader{}
				h.Set("Content-Disposition", `form-data; name="`+escapeQuotes(name)+`"`)
				h.Set("Content-Type", "application/json")
				part, _ = w.CreatePart(h)
			} else {
				part, _ = w.CreateFormField(name)
			}
			_, _ = io.WriteString(part, v)
		}
	}
	_ = w.Close()
	return sb.String(), w.FormDataContentType()
}

// formItems is what a form field's value v is sent as: one field (or
// part) per item of a list of several, or their one field joined as its
// encoding's style says where it is not exploded; v itself otherwise.
func formItems(in fastapi.Input, v string) []string {
	if !in.List || !strings.Contains(v, listSep) {
		return []string{v}
	}
	items := strings.Split(v, listSep)
	if in.Style != "" && !in.Explode && !in.Binary {
		return []string{strings.Join(items, formDelim(in))}
	}
	return items
}

// escapeQuotes escapes a form field name for a Content-Disposition header,
// as mime/multipart does.
func escapeQuotes(s string) string {
	return strings.NewReplacer("\\", "\\\\", `"`, "\\\"").Replace(s)
}

// setCookies adds a Cookie header carrying cookies, in name order.
func setCookies(h http.Header, cookies url.Values) {
	var parts []string
	for _, name := range sortedKeys(cookies) {
		for _, v := range cookies[name] {
			parts = append(parts, name+"="+v)
		}
	}
	if len(parts) > 0 {
		h.Add("Cookie", strings.Join(parts, "; "))
	}
}

// userValue is the value the user gives a header, query parameter or
// cookie input to send with every request (--header, --query, --cookie).
func userValue(cfg *Config, in fastapi.Input) (string, bool) {
	var vs []string
	switch in.In {
	case "header":
		vs = cfg.Header.Values(in.Name)
	case "query":
		vs = cfg.Query[in.Name]
	case "cookie":
		vs = cfg.Cookie[in.Name]
	}
	if len(vs) == 0 {
		return "", false
	}
	return vs[0], true
}

// validValues picks accepted values for every required input of o, and
// says which input it could not fill, if any.
func (b *builder) validValues(o *operation) (values, string) {
	return b.valuesWith(o, nil)
}

// valuesWith is validValues, with keys (by path parameter name) for the
// path parameters no record is known for.
func (b *builder) valuesWith(o *operation, keys map[string]string) (values, string) {
	vals := values{}
	for _, in := range o.inputs.List {
		switch {
		case in.In == "path":
			if _, none := in.NoStringAccepted(); none {
				return nil, in.Name
			}
			ids := b.idsOf(o, in.Name)
			if o.destructive() && in.Name == o.target && !b.cfg.AllowDestructive {
				ids = b.own[o]
			}
			if ids = b.addressable(in, ids); len(ids) == 0 {
				k, ok := keys[in.Name]
				if !ok {
					return nil, in.Name
				}
				ids = []string{k}
			}
			vals[in.Name] = ids[0]
		case in.In == "body":
			if v, ok := b.formValues[in.Name]; ok && v != "" {
				vals[in.Name] = v
			} else if in.Required {
				v, ok := b.formValue(o, in)
				if !ok {
					return nil, in.Name
				}
				vals[in.Name] = v
			}
		case isHost(in):
			vals[in.Name] = b.host()
		case in.Required:
			v, ok := userValue(b.cfg, in)
			if !ok && in.Object != nil && !in.List {
				v, ok = b.objectValue(o, in)
			}
			if !ok {
				v, ok = exampleFor(in)
			}
			if !ok || b.check(in, v, true) != nil {
				return nil, in.Name
			}
			vals[in.Name] = v
		}
	}
	if o.inputs.JSON != nil {
		body := b.validBody(o)
		if body == "" {
			if o.inputs.JSON.Required {
				return nil, "request body"
			}
		} else {
			vals[bodyKey] = keepKeys(o, vals, body)
		}
	}
	if raw := o.inputs.Raw; raw != nil {
		if body := b.rawBody(o); body != "" {
			vals[bodyKey], vals[ctKey] = body, raw.MediaType
		} else if raw.Required {
			return nil, "request body"
		}
	}
	return vals, ""
}

// slot is the resource path parameter name of o names a record of: o's
// path up to the parameter. Ids belong to a resource, not to a name:
// GET /stores/{id} and GET /products/{id} name records of two
// collections, and a product's id is no store's.
func slot(o *operation, name string) string {
	p := "{" + name + "}"
	if i := strings.Index(o.path, p); i >= 0 {
		return o.path[:i+len(p)]
	}
	return o.path
}

// slotIDs are the ids the runner found for the records o's parameter name
// names (listed, probed, created), nil when it looked for none.
func (b *builder) slotIDs(o *operation, name string) []string {
	return b.slots[slot(o, name)]
}

// idsOf are the ids to send in o's path parameter name: those --id gives
// it, else those found for its resource (slot) once the runner looked for
// some, else any known under the name.
func (b *builder) idsOf(o *operation, name string) []string {
	if len(b.cfg.IDs[name]) > 0 {
		return b.ids[name]
	}
	if !strings.Contains(o.path, "{"+name+"}") {
		// Not a path parameter (a header, a query parameter): its slot
		// would be the whole path, whose ids are its last parameter's.
		return b.ids[name]
	}
	if ids, looked := b.slots[slot(o, name)]; looked {
		return ids
	}
	return b.ids[name]
}

// learn records ids of records o's parameter name names: for its resource,
// and under the name.
func (b *builder) learn(o *operation, name string, ids ...string) {
	k := slot(o, name)
	if _, looked := b.slots[k]; !looked {
		b.slots[k] = []string{}
	}
	for _, id := range ids {
		if !slices.Contains(b.slots[k], id) {
			b.slots[k] = append(b.slots[k], id)
		}
		if !slices.Contains(b.ids[name], id) {
			b.ids[name] = append(b.ids[name], id)
		}
		b.records[name] = true
	}
}

// addressable are the ids of ids that path parameter in accepts: a
// record whose key its own schema refuses (an order created as 4324 where
// GET /store/order/{orderId} takes 1 to 5) is one the operation cannot
// name, and the document's 400 for it is right.
func (b *builder) addressable(in fastapi.Input, ids []string) []string {
	if !slices.ContainsFunc(ids, func(id string) bool { return b.check(in, id, true) != nil }) {
		return ids
	}
	var out []string
	for _, id := range ids {
		if b.check(in, id, true) == nil {
			out = append(out, id)
		}
	}
	return out
}

// fileContent is what the runner uploads as a file: any content is one.
const fileContent = "moviemock\n"

// formValue gives a value FastAPI accepts for a form field no example or
// flag gave one: a file for a file field, JSON its schema accepts for an
// object field, the schema's example or a value it accepts otherwise. A
// login's username and password are never made
// up: only real credentials are valid there.
func (b *builder) formValue(o *operation, in fastapi.Input) (string, bool) {
	if in.Binary {
		return fileContent, true
	}
	if in.Object != nil {
		// An object field, or an item of an array of objects: JSON
		// its schema accepts.
		return b.objectValue(o, in)
	}
	if in.Name == "username" || in.Name == "password" {
		return "", false
	}
	v, ok := exampleFor(in)
	if !ok {
		v, ok = acceptedPatternValue(in)
	}
	return v, ok && b.check(in, v, true) == nil
}

// check is FastAPI's verdict on raw sent for in as the runner sends it: a
// value of a file field goes as a file part, which FastAPI takes whatever
// its content.
func (b *builder) check(in fastapi.Input, raw string, present bool) *fastapi.ErrorItem {
	if in.Binary && present {
		return nil
	}
	if item, handled := b.checkStyled(in, raw, present); handled {
		return item
	}
	_, item := in.Check(b.sp, raw, present)
	return item
}

// valueText is a declared value (an example, an enum member) as a
// parameter carries it: a number in plain digits, as large as it is
// (4810967207691105196, never Go's 4.810967207691105e+18, which an
// integer parameter refuses).
func valueText(v any) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

// exampleFor gives a value the schema accepts for a non-path input (for a
// list, one item).
func exampleFor(in fastapi.Input) (string, bool) {
	s := in.Schema
	if s.Example != nil {
		return valueText(s.Example), true
	}
	if in.List {
		if ex, ok := in.ListSchema.Example.([]any); ok && len(ex) > 0 {
			return valueText(ex[0]), true
		}
	}
	if len(s.Enum) > 0 {
		return valueText(s.Enum[0]), true
	}
	switch in.Kind {
	case fastapi.Integer, fastapi.Number:
		return numberExample(s, in.Kind == fastapi.Integer), true
	case fastapi.Boolean:
		return "true", true
	case fastapi.UUID:
		return "3fa85f64-5717-4562-b3fc-2c963f66afa6", true
	}
	if v, ok := formatExamples[in.Format]; ok {
		return v, true
	}
	if s.Pattern == "" {
		// Within the length bounds pydantic counts in characters.
		v := "moviemock"
		if s.MaxLength != nil && *s.MaxLength < uint64(len(v)) {
			v = v[:*s.MaxLength]
		}
		if s.MinLength > maxCaseLength {
			return "", false // past what a request carries
		}
		if n := int(s.MinLength); n > len(v) {
			v += strings.Repeat("x", n-len(v))
		}
		return v, true
	}
	return "", false
}

// formatExamples are values pydantic accepts for the string formats it
// validates in parameters (fastapi.Input.Format).
var formatExamples = map[string]string{
	"uri":       "https://example.com/",
	"date":      "2024-01-02",
	"date-time": "2024-01-02T03:04:05Z",
	"time":      "12:30:00",
	"duration":  "PT1H30M",
	"email":     "user@example.com",
}

// numberExample is a number within the schema's bounds, inclusive or
// exclusive (a boolean modifier in OpenAPI 3.0, a bound of its own in
// 3.1): 1 or 1.5 when they allow it.
func numberExample(s *openapi3.Schema, integer bool) string {
	lo, loEx := s.Min, s.ExclusiveMin.IsTrue()
	if v := s.ExclusiveMin.Value; v != nil {
		lo, loEx = v, true
	}
	hi, hiEx := s.Max, s.ExclusiveMax.IsTrue()
	if v := s.ExclusiveMax.Value; v != nil {
		hi, hiEx = v, true
	}
	v, step := 1.5, 0.5
	if integer {
		v, step = 1, 1
	}
	if lo != nil && (v < *lo || loEx && v <= *lo) {
		v = *lo
		if integer {
			v = math.Ceil(v)
		}
		if loEx && v <= *lo {
			v += step
		}
	}
	if hi != nil && (v > *hi || hiEx && v >= *hi) {
		switch {
		case integer:
			v = math.Floor(*hi)
			if hiEx && v >= *hi {
				v--
			}
		case lo != nil:
			v = (*lo + *hi) / 2
		case hiEx:
			v = *hi - step
		default:
			v = *hi
		}
	}
	if integer {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// build makes every case for the operations, in a fixed order.
func (b *builder) build(ops []*operation) {
	for _, o := range ops {
		if b.cfg.NoWrites && o.unsafe() {
			continue
		}
		if o.basic && !b.authorizationOpens(o) && !o.basicOpens && !(o.keyed && b.rawToken != "") {
			*b.notes = append(*b.notes, fmt.Sprintf("%s: secured by HTTP basic, and the runner has no credentials: only its 401s are tested (%s)", o.id, b.credentialHint(o)))
			b.authCases(o, nil)
			continue
		}
		if o.secured && b.headers.Get("Authorization") == "" && !o.basicOpens {
			// FastAPI answers 401 before anything else: only the token
			// can be tested.
			*b.notes = append(*b.notes, fmt.Sprintf("%s: secured, and the runner has no token: only its 401s are tested (%s)", o.id, b.credentialHint(o)))
			b.authCases(o, nil)
			continue
		}
		if b.lacksCredentials(o) {
			b.noCredentialsCase(o)
			continue
		}
		if o.wipes() && !b.cfg.AllowDestructive {
			// Any request it accepts deletes records the run did not
			// create: only its refusals of missing or forged credentials
			// are safe to test.
			if o.secured || o.model != nil && o.model.Guarded {
				*b.notes = append(*b.notes, fmt.Sprintf("%s: a DELETE naming no record deletes records the run did not create: only its refusals without valid credentials are tested (--allow-destructive sends the rest)", o.id))
			} else {
				*b.notes = append(*b.notes, fmt.Sprintf("%s: a DELETE naming no record deletes records the run did not create: not sent (--allow-destructive sends it)", o.id))
			}
			b.authCases(o, values{})
			continue
		}
		if changesAccount(o) && !b.cfg.AllowDestructive {
			// Any request it accepts changes the account the run logged
			// in with (its email, its password): only its refusals of
			// missing or forged credentials are safe to test.
			if reg := registerOp(b.model); reg != nil && o.model.Kind != model.Example {
				*b.notes = append(*b.notes, fmt.Sprintf("%s: changes the logged-in account (%s): its valid requests go to a throwaway account the sequences register with %s, never to --username's", o.id, accountChange(o), opName(reg)))
			} else {
				*b.notes = append(*b.notes, fmt.Sprintf("%s: changes the logged-in account (%s), and the contract has no registration for a throwaway account: only its refusals without valid credentials are tested (--allow-destructive sends the rest)", o.id, accountChange(o)))
			}
			b.authCases(o, values{})
			continue
		}
		b.positive(o)
		b.negative(o)
		base, _ := b.validValues(o)
		b.negativeBodies(o, base)
		b.unknownIDs(o)
		b.wrongCredentials(o)
		b.authCases(o, base)
		b.generated(o)
		b.generatedBodies(o, base)
	}
}

func describe(vals values, order []fastapi.Input) string {
	var parts []string
	for _, in := range order {
		if v, ok := vals[in.Name]; ok && v != absent {
			if strings.Contains(in.Name, "password") || strings.Contains(in.Name, "secret") {
				v = "***"
			}
			if in.List && strings.Contains(v, listSep) {
				items, _ := json.Marshal(strings.Split(v, listSep))
				parts = append(parts, in.Name+"="+string(items))
				continue
			}
			parts = append(parts, in.Name+"="+strconv.Quote(v))
		}
	}
	if len(parts) == 0 {
		return "no inputs"
	}
	return strings.Join(parts, " ")
}

// literalNote says why no value of in is ever sent where the app must
// accept it: FastAPI refuses every one (fastapi.Input.NoStringAccepted);
// "" for any other input.
func literalNote(in fastapi.Input) string {
	expected, none := in.NoStringAccepted()
	if !none {
		return ""
	}
	// pydantic's expected: "1 or 2", "1, 2 or 3", "True".
	first := strings.TrimSuffix(strings.SplitN(expected, " ", 2)[0], ",")
	return fmt.Sprintf("%s %q is a Literal of %s, which pydantic compares with the text sent itself (%q is not %s): FastAPI refuses every value sent for it, so no request that sends it can be accepted",
		in.In, in.Name, expected, strings.ToLower(first), first)
}

func (b *builder) positive(o *operation) {
	if o.jsonLogin() {
		b.jsonLoginCases(o)
		return
	}
	if o.model != nil && o.model.Kind == model.Login && b.model != nil && b.model.Framework == framework.OpenAPI && b.cfg.Username == "" && b.cfg.Password == "" {
		// Credentials the runner makes up are no account's: a login is
		// right to refuse them.
		*b.notes = append(*b.notes, fmt.Sprintf("%s: no positive case: a login needs an account of the target (give --username and --password)", o.id))
		return
	}
	for _, in := range o.inputs.List {
		if note := literalNote(in); note != "" && !in.Required {
			*b.notes = append(*b.notes, fmt.Sprintf("%s: %s; it is left out of positive cases", o.id, note))
		}
	}
	vals, missing := b.validValues(o)
	var madeUp []string
	if vals == nil {
		vals, madeUp = b.madeUpValues(o)
	}
	if vals == nil {
		*b.notes = append(*b.notes, fmt.Sprintf("%s: no positive case: %s", o.id, b.why(o, missing)))
		return
	}
	if len(madeUp) > 0 {
		// Every positive case of o names the keys made up.
		start := len(b.cases)
		defer func() {
			for _, c := range b.cases[start:] {
				c.madeUp = madeUp
			}
		}()
	}
	if p := underParent(o); p != "" && !slices.Contains(madeUp, p) {
		start := len(b.cases)
		defer func() {
			for _, c := range b.cases[start:] {
				c.unpaired = p
			}
		}()
	}
	b.add(o, Positive, ExpectSuccess, describe(vals, o.inputs.List), vals, nil)
	// The body with its required fields only, and with a field the
	// schema does not declare (pydantic ignores it).
	if body, ok := b.requiredOnly(o, keepKeys(o, vals, b.validBody(o))); ok {
		v := clone(vals)
		v[bodyKey] = body
		b.add(o, Positive, ExpectSuccess, describe(v, o.inputs.List)+" body: required fields only", v, nil)
	}
	if body, ok := b.withExtraField(o, keepKeys(o, vals, b.validBody(o))); ok {
		v := clone(vals)
		v[bodyKey] = body
		b.add(o, Positive, ExpectSuccess, describe(v, o.inputs.List)+" body: an undeclared field", v, nil)
	}
	// Every other known id once more, up to a few, so each is read.
	for _, in := range o.inputs.List {
		if in.In != "path" || o.listOf != nil || o.unsafe() {
			continue
		}
		ids := b.addressable(in, b.idsOf(o, in.Name))
		for _, id := range ids[min(len(ids), 1):min(len(ids), 3)] {
			v := clone(vals)
			v[in.Name] = id
			b.add(o, Positive, ExpectSuccess, describe(v, o.inputs.List), v, nil)
		}
	}
	// Each list of a document not FastAPI's once more with two items, so
	// that its style's delimiter (or a part per item) is sent.
	for _, in := range o.inputs.List {
		if !in.List || in.In == "path" || !(styledInput(in) || in.In == "body" && b.openAPIDoc()) {
			continue
		}
		item, ok := vals[in.Name]
		if !ok || item == absent {
			item, ok = b.listItem(o, in)
		}
		if !ok {
			continue
		}
		if two, ok := twoItems(in, item); ok && b.check(in, two, true) == nil {
			v := clone(vals)
			v[in.Name] = two
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
			if in.Object != nil {
				if v, ok := b.objectValue(o, in); ok {
					full[in.Name], added = v, true
				}
			} else if v, ok := exampleFor(in); ok {
				if b.check(in, v, true) == nil {
					full[in.Name], added = v, true
				}
			} else if in.Binary {
				full[in.Name], added = fileContent, true
			} else if v, ok := acceptedPatternValue(in); ok {
				full[in.Name], added = v, true
			}
		}
		if added {
			b.add(o, Positive, ExpectSuccess, describe(full, o.inputs.List), full, nil)
		}
	}
	b.optionalObjects(o, vals)
}

// optionalObjects adds the positive case of o with every optional object
// parameter (in the query, a header or a cookie; or one described by
// content) set to a value its schema accepts, written as its style says:
// no other case sends one whole (a generated case sends random text).
func (b *builder) optionalObjects(o *operation, vals values) {
	full := clone(vals)
	added := false
	for _, in := range o.inputs.List {
		if _, set := full[in.Name]; set || in.Required || in.Object == nil || in.List || in.In == "body" || in.In == "path" {
			continue
		}
		if v, ok := b.objectValue(o, in); ok {
			full[in.Name], added = v, true
		}
	}
	if added {
		b.add(o, Positive, ExpectSuccess, describe(full, o.inputs.List), full, nil)
	}
}

// madeUpValues are o's valid values with a key made up (madeUpKey) for
// each path parameter no list, example, create or --id gave one, and the
// names of those parameters; nil when o lacks a value for anything else,
// when a key cannot be made, or when the parameter names the record a
// write changes (only the runner's own records go there).
func (b *builder) madeUpValues(o *operation) (values, []string) {
	keys := map[string]string{}
	for _, in := range o.inputs.List {
		if in.In != "path" || len(b.addressable(in, b.idsOf(o, in.Name))) > 0 {
			continue
		}
		if o.destructive() && in.Name == o.target && !b.cfg.AllowDestructive {
			return nil, nil
		}
		k, ok := b.madeUpKey(in)
		if !ok {
			return nil, nil
		}
		keys[in.Name] = k
	}
	if len(keys) == 0 {
		return nil, nil
	}
	vals, _ := b.valuesWith(o, keys)
	if vals == nil {
		return nil, nil
	}
	return vals, sortedKeys(keys)
}

// madeUpKey is a value the path parameter's schema accepts, for a record
// nothing named: the schema's example or first enum value, a value of its
// type or format, the literal its pattern spells, else one generated from
// the schema (unknownID).
func (b *builder) madeUpKey(in fastapi.Input) (string, bool) {
	if _, none := in.NoStringAccepted(); none {
		return "", false
	}
	fits := func(k string) bool {
		return k != "" && k != "." && k != ".." && !strings.Contains(k, "/") && b.check(in, k, true) == nil
	}
	if k, ok := exampleFor(in); ok && fits(k) {
		return k, true
	}
	if k, ok := acceptedPatternValue(in); ok && fits(k) {
		return k, true
	}
	if k, ok := b.unknownID(in); ok && fits(k) {
		return k, true
	}
	return "", false
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
		if body := b.validBody(o); body != "" {
			base[bodyKey] = body
		}
	}
	for _, in := range o.inputs.List {
		if in.Object != nil && !in.List {
			// An object parameter or form field: one member broken at a
			// time, sent as its style (or JSON) writes the object.
			for _, bad := range b.badMembers(in, base[in.Name]) {
				v := clone(base)
				v[in.Name] = bad.raw
				b.add(o, Negative, ExpectRejection, bad.name, v, bad.loc)
			}
		}
		var candidates []string
		switch in.Kind {
		case fastapi.Integer:
			candidates = badIntegers
		case fastapi.Number:
			candidates = badNumbers
		case fastapi.Boolean:
			candidates = badBooleans
		default:
			b.noteUntested(o.id+": "+in.Name, in.Schema)
			candidates = badStrings(in, base[in.Name])
		}
		for _, raw := range candidates {
			if isHost(in) {
				break // the transport sends the server's own
			}
			if in.In == "path" && (raw == "" || strings.Contains(raw, "/")) {
				continue // would not reach the route at all
			}
			item := b.check(in, raw, true)
			if item == nil {
				continue
			}
			v := clone(base)
			v[in.Name] = raw
			b.add(o, Negative, ExpectRejection, fmt.Sprintf("%s=%s", in.Name, strconv.Quote(raw)), v, item.Loc)
		}
		if in.Required && in.In != "path" && !isHost(in) {
			v := clone(base)
			v[in.Name] = absent
			if b.carriesMembers(o, in, v) {
				continue
			}
			b.add(o, Negative, ExpectRejection, in.Name+" missing", v, in.Loc)
			// An empty form value is an absence, unless the form is one
			// model (or the field a file or a list).
			if item := b.check(in, "", true); in.In == "body" && item != nil {
				v := clone(base)
				v[in.Name] = ""
				b.add(o, Negative, ExpectRejection, in.Name+` empty ("")`, v, item.Loc)
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
	if s.MaxLength != nil && *s.MaxLength < maxCaseLength {
		out = append(out, strings.Repeat("x", int(*s.MaxLength)+1))
	}
	if s.MinLength > 1 {
		out = append(out, "x")
	}
	if len(s.Enum) > 0 {
		out = append(out, "moviemock-not-in-enum")
	}
	if in.Format != "" {
		out = append(out, "moviemock", "")
	}
	return out
}

// fillAnything gives every input some value, for negative cases of an
// operation no valid values are known for: the one bad input should still
// be reported by name.
func (b *builder) fillAnything(o *operation) values {
	v := values{}
	for _, in := range o.inputs.List {
		if o.destructive() && in.Name == o.target && !b.cfg.AllowDestructive {
			// Only a record of the runner's own, else one no one has.
			if own := b.own[o]; len(own) > 0 {
				v[in.Name] = own[0]
			} else if id, ok := b.unknownID(in); ok {
				v[in.Name] = id
			} else {
				v[in.Name] = "1"
			}
			continue
		}
		if ids := b.idsOf(o, in.Name); len(ids) > 0 {
			v[in.Name] = ids[0]
		} else if x, ok := userValue(b.cfg, in); ok {
			v[in.Name] = x
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

// unknownIDs reads, changes and deletes ids no record has, each a valid
// value of its parameter. (Changing one touches no record, so it is safe
// whoever owns the data.) A 404 is owed only where the contract or the
// target says the parameter names records (owesNotFound); a list filtered
// by an unknown parent may answer an empty list instead; elsewhere (an
// echo of the path, an upsert) any answer but a server error is right.
func (b *builder) unknownIDs(o *operation) {
	if o.method != "GET" && !o.destructive() {
		return
	}
	base, _ := b.validValues(o)
	if base == nil {
		base = b.fillAnything(o)
		if body := b.validBody(o); body != "" {
			base[bodyKey] = body
		}
	}
	for _, in := range o.inputs.List {
		if in.In != "path" || (o.method != "GET" && in.Name != o.target) {
			continue
		}
		id, ok := b.unknownID(in)
		if !ok {
			continue
		}
		v := clone(base)
		v[in.Name] = id
		expect := ExpectAnswered
		if b.owesNotFound(o, in.Name) {
			expect = ExpectNotFound
			if o.method == "GET" && responseIsList(o.op) {
				expect = ExpectNotFoundOrEmpty
			}
		}
		b.add(o, UnknownID, expect, fmt.Sprintf("%s=%s (no such record)", in.Name, strconv.Quote(id)), v, nil)
	}
}

// owesNotFound reports whether an id no record has, in path parameter
// param of o, must be answered 404: o declares a 404, the runner saw ids
// of param as records (listed by the target, or created), or the
// contract's model reads o as reading, changing or deleting one record of
// a collection by param (the convention the mock answers 404 by).
func (b *builder) owesNotFound(o *operation, param string) bool {
	if o.op.Responses.Value("404") != nil || b.records[param] {
		return true
	}
	if m := o.model; m != nil && m.Coll != nil && m.IDParam == param {
		switch m.Kind {
		case model.ReadOne, model.Replace, model.Update, model.Delete:
			return true
		}
	}
	return false
}

// responseIsList reports whether o's success answer is a list of records:
// an array, or a page object holding one under "items".
func responseIsList(op *openapi3.Operation) bool {
	s := successSchema(op)
	if s != nil && s.Type.Is("object") && s.Properties["items"] != nil {
		s = s.Properties["items"].Value
	}
	return s != nil && s.Type.Is("array")
}

// wrongCredentials tests a login form: its username and password fields.
// A form is a login only when it issues tokens (a tokenUrl of the
// contract, or an answer with an access_token): any other form with a
// username and a password (a sign-up, a form echoing its fields) owes no
// refusal.
func (b *builder) wrongCredentials(o *operation) {
	if !o.tokenEndpoint || o.jsonLogin() {
		return
	}
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
		for _, in := range o.inputs.List {
			if in.In != "path" && pathNamed(o, in.Name) {
				// A query parameter named as a path one (Swashbuckle's
				// PUT /stores/{id}?id=): the request sends one value
				// for both, the path's.
				continue
			}
			var raw string
			present := true
			switch x := b.rng.IntN(6); {
			case x == 0 && in.In != "path":
				present = false
			case x <= 2:
				if ids := b.idsOf(o, in.Name); len(ids) > 0 {
					raw = ids[b.rng.IntN(len(ids))]
				} else if v, ok := userValue(b.cfg, in); ok {
					raw = v
				} else if v, ok := b.formValues[in.Name]; ok {
					raw = v
				} else if v, ok := acceptedPatternValue(in); ok {
					raw = v
				} else if v, ok := formatExamples[in.Format]; ok {
					raw = v
				} else {
					raw = randomString(b.rng, in.Kind)
				}
			default:
				raw = randomString(b.rng, in.Kind)
			}
			if v, ok := userValue(b.cfg, in); ok {
				// The value the user gave is the one the application's
				// own rule takes: random ones would only meet its refusal.
				raw, present = v, true
			}
			if in.In == "path" && (raw == "" || strings.Contains(raw, "/")) {
				raw = "x" + strings.ReplaceAll(raw, "/", "")
			}
			if isHost(in) {
				raw, present = b.host(), true
			}
			if o.destructive() && in.Name == o.target && !b.cfg.AllowDestructive {
				// A valid id must be the runner's own record (its second
				// for a DELETE, so the positive case still finds the first).
				if b.check(in, raw, true) == nil {
					own := b.own[o]
					switch {
					case len(own) > 1:
						raw = own[1]
					case len(own) == 1 && o.method != "DELETE":
						raw = own[0]
					default:
						if id, ok := b.unknownID(in); ok {
							raw = id
						} else {
							present = false
						}
					}
				}
			}
			if present {
				vals[in.Name] = raw
			} else {
				vals[in.Name] = absent
			}
		}
		// The request is judged as sent: each input by the value it
		// carries, which one of the same name may have set.
		var bad []any
		for _, in := range o.inputs.List {
			raw, present := vals[in.Name], vals[in.Name] != absent
			if !present {
				raw = ""
			}
			if item := b.check(in, raw, present); item != nil {
				bad = item.Loc
				break
			}
		}
		if o.inputs.JSON != nil {
			body := b.validBody(o)
			if body == "" {
				continue
			}
			vals[bodyKey] = body
		}
		if raw := o.inputs.Raw; raw != nil {
			if body := b.rawBody(o); body != "" {
				vals[bodyKey], vals[ctKey] = body, raw.MediaType
			} else if raw.Required {
				continue
			}
		}
		expect := ExpectNotRejected
		if bad != nil {
			expect = ExpectRejection
		}
		b.add(o, Generated, expect, fmt.Sprintf("#%d %s", n+1, describe(vals, o.inputs.List)), vals, bad)
	}
}

// pathNamed reports whether a path parameter of o is called name.
func pathNamed(o *operation, name string) bool {
	return slices.ContainsFunc(o.inputs.List, func(in fastapi.Input) bool { return in.In == "path" && in.Name == name })
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

// why says why no valid value is known for an input, for the note of an
// operation left without a positive case.
func (b *builder) why(o *operation, missing string) string {
	switch {
	case missing == "request body":
		return "no request body FastAPI accepts could be made from the contract's examples or schema"
	case o.destructive() && missing == o.target && !b.cfg.AllowDestructive:
		return fmt.Sprintf("no record of the runner's own for %q (creating one failed or the contract has no create for it; --allow-destructive would use listed ids)", missing)
	}
	for _, in := range o.inputs.List {
		if in.Name == missing {
			if note := literalNote(in); note != "" {
				return note
			}
		}
		if in.Name == missing && in.In == "body" && (missing == "username" || missing == "password") {
			return fmt.Sprintf("no valid value known for %q (give --username and --password)", missing)
		}
		if in.Name == missing && in.In == "path" {
			return fmt.Sprintf("no valid value known for %q: no list, example or create of the contract gave one (add an example to the parameter, or give one: --id %s=ID)", missing, missing)
		}
	}
	return fmt.Sprintf("no valid value known for %q (add an example to it in the contract)", missing)
}

// unknownID is an id no record has that still satisfies the parameter's
// schema (FastAPI lets it through to the application, which answers 404):
// a large integer within the bounds, a random UUID, a string generated
// from the pattern.
func (b *builder) unknownID(in fastapi.Input) (string, bool) {
	known := b.ids[in.Name]
	ok := func(id string) bool {
		if slices.Contains(known, id) || strings.Contains(id, "/") || id == "" || id == "." || id == ".." {
			return false
		}
		_, bad := in.Check(b.sp, id, true)
		return bad == nil
	}
	switch in.Kind {
	case fastapi.Integer:
		start := int64(987654321)
		if s := in.Schema; s.Max != nil && float64(start) > *s.Max {
			start = int64(*s.Max)
			for n := start; n > start-1000; n-- {
				if id := strconv.FormatInt(n, 10); ok(id) {
					return id, true
				}
			}
			return "", false
		}
		for n := start; n < start+1000; n++ {
			if id := strconv.FormatInt(n, 10); ok(id) {
				return id, true
			}
		}
		return "", false
	case fastapi.UUID:
		if b.unknown == nil {
			// A stream of its own: the mock's UUIDs come from the
			// runner's main stream under the same seed, so a made-up key
			// drawn from it is the next record a create makes there.
			b.unknown = rand.New(rand.NewPCG(b.cfg.Seed, 0x756e6b6e6f776e))
		}
		for i := 0; i < 10; i++ {
			u := b.unknown.Uint64()
			v := b.unknown.Uint64()
			id := fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", u>>32, (u>>16)&0xffff, u&0xfff, 0x8000|(v>>48)&0x3fff, v&0xffffffffffff)
			if ok(id) {
				return id, true
			}
		}
		return "", false
	case fastapi.String:
		s := in.Schema
		if s.Pattern == "" && s.MinLength <= 34 {
			id := fmt.Sprintf("moviemock-unknown-%016x", b.rng.Uint64())
			if s.MaxLength != nil && uint64(len(id)) > *s.MaxLength {
				id = id[:*s.MaxLength]
			}
			if ok(id) {
				return id, true
			}
		}
		for i := 0; i < 20; i++ {
			f := gofakeit.New(b.seedFor("unknown", in.Name, strconv.Itoa(i)))
			var id string
			if json.Unmarshal(b.generator().Append(nil, f, in.Name, &openapi3.SchemaRef{Value: s}), &id) == nil && ok(id) {
				return id, true
			}
		}
	}
	return "", false
}

// attachModel gives each operation its convention in the contract's model
// m (its collections and CRUD conventions); a contract the model cannot
// read (m nil) leaves the runner on path heuristics.
func (b *builder) attachModel(ops []*operation, m *model.Model) {
	if m == nil {
		return
	}
	b.model = m
	for _, o := range ops {
		for _, mo := range m.Operations {
			if mo.Method == o.method && mo.Path == o.path {
				o.model = mo
				if mo.Kind == model.Action {
					o.target = mo.IDParam
				}
				if o.destructive() && mo.IDParam != "" {
					o.target = mo.IDParam
				}
			}
		}
	}
}

// creatorOf is the operation creating records of the collection o reads,
// changes or deletes: the model's create, else its nested create, else a
// POST on o's path without its last parameter.
func creatorOf(ops []*operation, o *operation) *operation {
	if o.model != nil && o.model.Coll != nil {
		for _, kind := range []model.Kind{model.Create, model.NestedCreate} {
			for _, c := range ops {
				if c.model != nil && c.model.Kind == kind && c.model.Coll == o.model.Coll {
					return c
				}
			}
		}
	}
	param := o.target
	if param == "" {
		param = o.itemParam
	}
	if param == "" {
		return nil
	}
	// The records a parameter names are made by a POST on the path up to
	// it: /items for /items/{id}, /items/{id}/priority and /items/{id}/.
	parent := strings.TrimSuffix(strings.TrimSuffix(slot(o, param), "/{"+param+"}"), "/")
	if parent == "" || parent == strings.TrimSuffix(slot(o, param), "/") {
		return nil
	}
	for _, c := range ops {
		if c.method == "POST" && strings.TrimSuffix(c.path, "/") == parent && (c.inputs.JSON != nil || c.op.RequestBody == nil) {
			return c
		}
	}
	return nil
}

// deleterOf is the operation deleting records a creator makes.
func deleterOf(ops []*operation, creator *operation) *operation {
	if creator.model != nil && creator.model.Coll != nil {
		for _, d := range ops {
			if d.model != nil && d.model.Kind == model.Delete && d.model.Coll == creator.model.Coll {
				return d
			}
		}
		return nil
	}
	for _, d := range ops {
		if d.method == "DELETE" && d.target != "" && strings.TrimSuffix(d.path, "/") == recordPath(creator, d.target) {
			return d
		}
	}
	return nil
}

// createdRecord is a record the runner made.
type createdRecord struct {
	creator *operation
	id      string
	record  any    // the create's answer, for the key a deleter's path takes
	url     string // the create's request URL: a nested record's parent
}

// recordPath is the path template of a record creator makes, named by
// param: /items/{id} for POST /items.
func recordPath(creator *operation, param string) string {
	return strings.TrimSuffix(creator.path, "/") + "/{" + param + "}"
}

// linkedKey is the key of a created record where its answer links to it
// rather than naming it: the Location header of a create (RFC 9110
// §10.2.2), or the record's HAL self link (_links.self.href, Spring Data
// REST's only mention of a key), read against the record's path template
// (recordPath): the segment param stands at.
func linkedKey(h http.Header, record any, template, param string) (string, bool) {
	var links []string
	if m, ok := record.(map[string]any); ok {
		if ls, ok := m["_links"].(map[string]any); ok {
			if self, ok := ls["self"].(map[string]any); ok {
				if href, ok := self["href"].(string); ok {
					links = append(links, href)
				}
			}
		}
	}
	if loc := h.Get("Location"); loc != "" {
		links = append(links, loc)
	}
	want := strings.Split(strings.Trim(template, "/"), "/")
	for _, link := range links {
		u, err := url.Parse(link)
		if err != nil {
			continue
		}
		got := strings.Split(strings.Trim(u.EscapedPath(), "/"), "/")
		if len(got) < len(want) {
			continue
		}
		// The template's segments end the link's path: a server may
		// serve the document under a prefix of its own.
		got = got[len(got)-len(want):]
		key, ok := "", true
		for i, seg := range want {
			switch {
			case seg == "{"+param+"}":
				key, _ = url.PathUnescape(got[i])
			case strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}"):
				// Another parameter (a parent's key): any value.
			case seg != got[i]:
				ok = false
			}
		}
		if ok && key != "" {
			return key, true
		}
	}
	return "", false
}

// create makes one record with creator's valid inputs.
func (r *runner) create(ctx context.Context, ops []*operation, creator *operation, b *builder, param string) (string, bool) {
	vals, _ := b.validValues(creator)
	if vals == nil {
		return "", false
	}
	// The list of the records param names, read before and after: a
	// create that answers no key (a blog's POST /posts/ answering the post
	// without its id) is found as the one new key listed.
	var list *operation
	for _, o := range ops {
		if o.listOf != nil && o.itemParam == param {
			list = o.listOf
			break
		}
	}
	listed := func() map[string]bool {
		keys := map[string]bool{}
		if list != nil {
			for _, item := range r.discoverList(ctx, list, b) {
				k, ok := keyOf(item, param)
				if !ok {
					k, ok = viewLink(list.model, item, param)
				}
				if ok {
					keys[k] = true
				}
			}
		}
		return keys
	}
	before := listed()
	resp := r.send(ctx, b.request(creator, vals))
	if resp.Status/100 != 2 || countValues(resp.Body, r.cfg.MaxCheckValues) > r.cfg.MaxCheckValues {
		return "", false // no id from an answer too large to decode (--max-check-values)
	}
	var body any
	if json.Unmarshal(resp.Body, &body) == nil {
		body = unwrap(creator.model, body)
	}
	id, ok := createdKey(body, param)
	if !ok {
		id, ok = viewLink(creator.model, body, param)
	}
	if !ok {
		id, ok = linkedKey(resp.Header, body, recordPath(creator, param), param)
	}
	if !ok && list != nil {
		var fresh []string
		for k := range listed() {
			if !before[k] {
				fresh = append(fresh, k)
			}
		}
		if len(fresh) == 1 { // more than one: another client wrote too
			id, ok = fresh[0], true
			*b.notes = append(*b.notes, fmt.Sprintf("%s answers no %s: the record %q found in %s", creator.id, param, id, list.id))
		}
	}
	if ok {
		b.created = append(b.created, createdRecord{creator, id, body, b.request(creator, vals).URL})
	}
	return id, ok
}

// createOwn creates the records the runner may change and delete: one for
// each PUT and PATCH, two for each DELETE (its cases, its generated
// cases); and one for each item read no id is known for.
func (r *runner) createOwn(ctx context.Context, ops []*operation, b *builder, report *Report) {
	if r.cfg.NoWrites {
		return
	}
	for _, o := range ops {
		switch {
		case o.method == "GET" && o.model != nil && o.model.Kind == model.ReadOne && len(b.idsOf(o, o.model.IDParam)) == 0:
			if c := creatorOf(ops, o); c != nil {
				if id, ok := r.create(ctx, ops, c, b, o.model.IDParam); ok {
					b.learn(o, o.model.IDParam, id)
					report.Notes = append(report.Notes, fmt.Sprintf("%s: %s %q created with %s, as nothing listed one", o.id, o.model.IDParam, id, c.id))
				}
			}
		case o.destructive() && !r.cfg.AllowDestructive:
			c := creatorOf(ops, o)
			if c == nil {
				continue
			}
			n := 1
			if o.method == "DELETE" {
				n = 2
			}
			for i := 0; i < n; i++ {
				if id, ok := r.create(ctx, ops, c, b, o.target); ok {
					b.own[o] = append(b.own[o], id)
					b.records[o.target] = true
				}
			}
		}
	}
	b.readOwn(ops)
}

// readOwn gives the reads of records no list, example or create of their
// own gave a key for (those the contract's model does not pair with a
// create) a record of the runner's own: one made for a write to the same
// records (its resource path, slot), and not one a delete removes. Only
// for that resource: a key is no other resource's.
func (b *builder) readOwn(ops []*operation) {
	for _, o := range ops {
		if o.method != "GET" {
			continue
		}
		for _, in := range o.inputs.List {
			if in.In != "path" || len(b.idsOf(o, in.Name)) > 0 {
				continue
			}
			for _, w := range ops {
				if w.method != "DELETE" && len(b.own[w]) > 0 && slot(w, w.target) == slot(o, in.Name) {
					b.slots[slot(o, in.Name)] = []string{b.own[w][0]}
					break
				}
			}
		}
	}
}

// idInResponse is the id of the record a response carries: from its body
// (when it holds at most limit JSON values), else from the excerpt a
// result keeps.
func idInResponse(resp *Response, limit int) (string, bool) {
	var body any
	if countValues(resp.Body, limit) <= limit && json.Unmarshal(resp.Body, &body) == nil {
		return idOf(body)
	}
	m := idPrefix.FindSubmatch(resp.Excerpt)
	if m == nil {
		return "", false
	}
	if len(m[1]) > 0 {
		var s string
		if json.Unmarshal(m[1], &s) == nil && s != "" {
			return s, true
		}
		return "", false
	}
	return string(m[2]), true
}

// idPrefix finds the id of a FastAPI record body, which declares it first.
var idPrefix = regexp.MustCompile(`^\s*\{\s*"id"\s*:\s*(?:("(?:[^"\\]|\\.)*")|(-?\d+)\b)`)

// cleanUp deletes every record the run created that no case deleted, when
// the contract can delete it: best effort, whatever the checks found.
func (r *runner) cleanUp(ctx context.Context, ops []*operation, b *builder, report *Report) {
	if r.cfg.NoWrites {
		return
	}
	created := slices.Clone(b.created)
	deleted := map[string]bool{}
	// unkeyed: records created whose answer names no key to delete them
	// by; undeletable: records of a collection the contract deletes not.
	unkeyed, undeletable := map[string]int{}, map[string]int{}
	for _, res := range report.Results {
		c := res.Case
		if c == nil || c.op == nil || c.ownCleanup {
			continue
		}
		s := res.Response.Status
		if c.Method == "DELETE" && (s/100 == 2 || s == http.StatusNotFound) {
			deleted[c.Request.URL] = true
		}
		if c.Method == "PUT" && c.Kind == UnknownID && s/100 == 2 && c.op.target != "" && strings.HasSuffix(c.op.path, "/{"+c.op.target+"}") {
			// A replace of a key no record had made one (PUT creates):
			// the run's own record now, to delete like the others.
			if u, err := url.Parse(c.Request.URL); err == nil {
				if k, err := url.PathUnescape(u.EscapedPath()[strings.LastIndex(u.EscapedPath(), "/")+1:]); err == nil && k != "" {
					created = append(created, createdRecord{creator: c.op, id: k})
				}
			}
		}
		if makesRecords(c.op) && s/100 == 2 && !c.op.tokenEndpoint && !c.op.jsonLogin() {
			var body any
			raw := res.Response.Body
			if len(raw) == 0 {
				raw = res.Response.Excerpt // the body once the checks read it
			}
			if countValues(raw, r.cfg.MaxCheckValues) <= r.cfg.MaxCheckValues {
				json.Unmarshal(raw, &body)
			}
			// The record in its envelope ({"article": {…}}), keyed by
			// what its delete takes (a slug), else by its id.
			rec := unwrap(c.op.model, body)
			id, ok := idInResponse(&res.Response, r.cfg.MaxCheckValues)
			if d := deleterOf(ops, c.op); d != nil {
				if k, found := createdKey(rec, d.target); found {
					id, ok = k, true
				} else if k, found := viewLink(c.op.model, rec, d.target); found && !ok {
					id, ok = k, true
				} else if k, found := linkedKey(res.Response.Header, rec, slot(d, d.target), d.target); found && !ok {
					id, ok = k, true
				}
			}
			switch {
			case ok:
				created = append(created, createdRecord{c.op, id, rec, c.Request.URL})
			case deleterOf(ops, c.op) == nil && c.op.model != nil && (c.op.model.Kind == model.Create || c.op.model.Kind == model.NestedCreate):
				undeletable[c.op.id]++
			case c.op.model != nil && (c.op.model.Kind == model.Create || c.op.model.Kind == model.NestedCreate):
				unkeyed[c.op.id]++
			}
		}
	}
	var gone, failed []string
	for _, rec := range created {
		d := deleterOf(ops, rec.creator)
		if d == nil {
			undeletable[rec.creator.id]++
			continue
		}
		vals := values{}
		for _, in := range d.inputs.List {
			if in.In == "path" {
				if ids := b.idsOf(d, in.Name); len(ids) > 0 {
					vals[in.Name] = ids[0]
				}
			}
		}
		vals[d.target] = rec.id
		if k, ok := keyOf(rec.record, d.target); ok {
			vals[d.target] = k
		}
		req := b.request(d, vals)
		if base, _, _ := strings.Cut(rec.url, "?"); rec.url != "" && d.path == strings.TrimSuffix(rec.creator.path, "/")+"/{"+d.target+"}" {
			// A nested record is deleted under the parent it was created
			// under (/articles/{slug}/comments/{id}).
			req.URL = strings.TrimSuffix(base, "/") + "/" + url.PathEscape(vals[d.target])
		}
		if deleted[req.URL] {
			continue
		}
		deleted[req.URL] = true
		resp := r.send(ctx, req)
		if resp.Status/100 == 2 || resp.Status == http.StatusNotFound {
			gone = append(gone, rec.id)
		} else {
			shown := (&Case{Path: d.path, op: d}).redactPath(req.URL)
			failed = append(failed, fmt.Sprintf("%s (%s)", shown, statusText(&resp)))
		}
	}
	if len(gone) > 0 {
		report.Notes = append(report.Notes, fmt.Sprintf("cleanup: deleted %d records the run created", len(gone)))
	}
	if len(failed) > 0 {
		report.Notes = append(report.Notes, fmt.Sprintf("cleanup: could not delete %d records the run created: %s", len(failed), strings.Join(failed, "; ")))
	}
	for _, id := range sortedKeys(undeletable) {
		report.Notes = append(report.Notes, fmt.Sprintf("cleanup: %d records %s created stay: the contract has no delete for them", undeletable[id], id))
	}
	for _, id := range sortedKeys(unkeyed) {
		report.Notes = append(report.Notes, fmt.Sprintf("cleanup: %d records %s created stay: its answer names no key to delete them by", unkeyed[id], id))
	}
}

// makesRecords reports whether o's successes leave records to delete: a
// create by the contract's conventions, whichever its method (Vikunja's
// PUT /projects), or any other POST but one changing a record the path
// names (an action, Vikunja's POST /projects/{id}).
func makesRecords(o *operation) bool {
	if o.model == nil {
		return o.method == "POST"
	}
	switch o.model.Kind {
	case model.Create, model.NestedCreate:
		return true
	case model.Action, model.Replace, model.Update:
		return false
	}
	return o.method == "POST"
}

// absentRecord reports whether r is the 404 of a record a positive case
// named by a key the runner made up: the state's answer (no such record),
// the refusal the document's own readers expect of a made-up key; it is
// no failure, and no test of the operation either.
func absentRecord(c *Case, r *Response) bool {
	return (len(c.madeUp) > 0 || c.unpaired != "") && r.Status == http.StatusNotFound
}

// underParent is the path parameter of o naming a record of a collection
// kept under a parent it does not name (model.Collection.ScopedBy), when
// o's path names the parent too; "" for other operations.
func underParent(o *operation) string {
	m := o.model
	if m == nil || m.Coll == nil || m.Coll.ScopedBy == nil || m.IDParam == "" {
		return ""
	}
	for _, in := range o.inputs.List {
		if in.In == "path" && in.Name != m.IDParam {
			return m.IDParam
		}
	}
	return ""
}

// unpairedNotes say, for each operation whose positive cases were all
// answered 404 for a record under a parent (Case.unpaired), that it was
// the state's answer and the operation untested by them.
func unpairedNotes(results []*Result) []string {
	refused := map[*operation]bool{}
	var order []*operation
	for _, res := range results {
		c := res.Case
		if c == nil || c.op == nil || c.unpaired == "" || res.Response.Status == 0 {
			continue
		}
		if _, seen := refused[c.op]; !seen {
			refused[c.op] = true
			order = append(order, c.op)
		}
		refused[c.op] = refused[c.op] && res.Response.Status == http.StatusNotFound
	}
	var notes []string
	for _, o := range order {
		if refused[o] {
			notes = append(notes, fmt.Sprintf("%s: its positive cases were answered 404: the %s the runner saw may be under another parent than the one they named (the state's refusal, not a failure; the sequences test it with a record they made)", o.id, underParent(o)))
		}
	}
	return notes
}

// madeUpNotes say, for each operation whose positive cases named a key
// the runner made up, what came of it: tested with it (an answer below
// 400), or refused every time (a 404: no such record), which leaves the
// operation untested.
func madeUpNotes(results []*Result) []string {
	type tally struct {
		params   []string
		taken    int
		statuses []string
	}
	var order []*operation
	tallies := map[*operation]*tally{}
	for _, res := range results {
		c := res.Case
		if c == nil || c.op == nil || len(c.madeUp) == 0 || res.Response.Status == 0 {
			continue
		}
		t := tallies[c.op]
		if t == nil {
			t = &tally{params: c.madeUp}
			tallies[c.op] = t
			order = append(order, c.op)
		}
		if res.Response.Status < 400 {
			t.taken++
		} else if s := strconv.Itoa(res.Response.Status); !slices.Contains(t.statuses, s) {
			t.statuses = append(t.statuses, s)
		}
	}
	var notes []string
	for _, o := range order {
		t := tallies[o]
		names := strings.Join(t.params, ", ")
		if t.taken == 0 {
			why := "the checks say what of it"
			if slices.Equal(t.statuses, []string{"404"}) {
				why = "no such record: the state's refusal, not a failure"
			}
			notes = append(notes, fmt.Sprintf("%s: no positive case answered: no list, example or create of the contract gave a value for %s, and the key the runner made up from the schema was answered %s (%s); give one with --id %s=ID",
				o.id, names, strings.Join(t.statuses, ", "), why, t.params[0]))
			continue
		}
		notes = append(notes, fmt.Sprintf("%s: tested with a key the runner made up from the schema for %s, as no list, example or create of the contract gave one", o.id, names))
	}
	return notes
}
