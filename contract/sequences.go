package contract

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/fake"
	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
)

// Sequence is the kind of a step of a stateful sequence: a request whose
// inputs come from earlier answers (create, then read what was created).
const Sequence Kind = "sequence"

// The checks stateful sequences apply. Their verdicts are given while the
// sequence runs (each step depends on the ones before), so their entries in
// Checks apply to nothing else.
const (
	checkStatefulCreateRead = "stateful_create_read"
	checkStatefulUpdate     = "stateful_update"
	checkStatefulDelete     = "stateful_delete"
	checkRegistrationLogin  = "registration_login"
	checkPagingFilters      = "paging_and_filters"
)

// sequenceCheck is the apply function of the sequence checks: their
// verdicts are recorded by the sequence itself.
func sequenceCheck(*checkInput) *verdict { return nil }

// maxPages bounds how many pages a sequence reads looking for a record.
const maxPages = 200

// seqRun is one run of the stateful sequences.
type seqRun struct {
	r       *runner
	ctx     context.Context
	m       *model.Model
	report  *Report
	enabled map[string]bool
	rng     *rand.Rand
	seed    uint64
	auth    string // Authorization header value for every request; "" none
	ops     map[*model.Operation]*operation
	results []*Result
	// parents are records created for others to refer to, by collection.
	parents map[*model.Collection]any
	// cleanup are the records the sequences created and have not deleted
	// yet, in creation order.
	cleanup []created
	depth   int
	fake    *fake.Generator // made on first use
	// lastWrite is when the last write step was answered.
	lastWrite time.Time
	// tooLargeNoted: the operations whose answers were noted as too
	// large to read (tooLarge).
	tooLargeNoted map[*model.Operation]bool
	// counts are the count members of the lists' first pages, read
	// unfiltered, last seen (countBefore, search).
	counts map[*model.Operation]int
	// force are body fields a change sends with these values (falsyUpdate).
	force map[string]any
	// under are the path parameters of the parent the record a lifecycle
	// follows was created under (a comment's article slug): every step
	// whose path names them takes them.
	under map[string]string
	// lastUnder are those of the record create made last.
	lastUnder map[string]string
}

type created struct {
	coll *model.Collection
	id   string
	// under are the path parameters of the parent it was created under
	// (/articles/{slug}/comments: slug), for the steps that address it.
	under map[string]string
}

// sequences runs the stateful sequences against the target and returns
// their steps, each with the sequence checks' verdicts already given; the
// other checks apply to them as to any case.
func (r *runner) sequences(ctx context.Context, report *Report) []*Result {
	m := r.model
	if m == nil {
		report.Notes = append(report.Notes, "stateful sequences: not run: "+r.modelErr.Error())
		return nil
	}
	s := &seqRun{
		r: r, ctx: ctx, m: m, report: report, enabled: map[string]bool{},
		rng:     rand.New(rand.NewPCG(r.cfg.Seed, 0x73657175656e6365)),
		seed:    r.cfg.Seed,
		ops:     map[*model.Operation]*operation{},
		parents: map[*model.Collection]any{},
		counts:  map[*model.Operation]int{},
	}
	some := false
	for _, c := range r.cfg.enabled() {
		if c.name == checkStatefulCreateRead || c.name == checkStatefulUpdate || c.name == checkStatefulDelete ||
			c.name == checkRegistrationLogin || c.name == checkPagingFilters {
			s.enabled[c.name] = true
			some = true
		}
	}
	if !some {
		return nil
	}
	s.logIn()
	writes := !r.cfg.NoWrites
	if writes && (s.enabled[checkRegistrationLogin] || s.enabled[checkStatefulUpdate] || s.enabled[checkStatefulDelete]) {
		// From a stream of its own: whether the contract has a
		// registration does not change the records the seed makes below.
		main := s.rng
		s.rng = rand.New(rand.NewPCG(r.cfg.Seed, 0x72656769737465))
		if a := s.registration(); a != nil {
			s.throwaway(a)
		}
		s.rng = main
	} else if s.enabled[checkRegistrationLogin] {
		s.loginCurrentUser()
	}
	if writes && (s.enabled[checkStatefulCreateRead] || s.enabled[checkStatefulUpdate] || s.enabled[checkStatefulDelete]) {
		for _, c := range m.Collections {
			if c == m.Login || ctx.Err() != nil {
				continue
			}
			if s.find(c, model.Create) != nil || s.find(c, model.NestedCreate) != nil {
				s.lifecycle(c)
			}
		}
	}
	if s.enabled[checkPagingFilters] {
		for _, o := range m.Operations {
			if o.Kind == model.List && ctx.Err() == nil {
				s.pagingAndFilters(o)
			}
		}
	}
	s.cleanUp()
	for i, res := range s.results {
		res.Case.Index = i
	}
	return s.results
}

// find is c's operation of kind: the first whose path the sequence can
// fill (addressable), else the first.
func (s *seqRun) find(c *model.Collection, kind model.Kind) *model.Operation {
	var first *model.Operation
	for _, o := range s.m.Operations {
		if o.Coll == c && o.Kind == kind {
			if s.addressable(o) {
				return o
			}
			if first == nil {
				first = o
			}
		}
	}
	return first
}

// addressable reports whether every path parameter of o is one the
// sequence has a value for: the record's key, the parent's, or one of
// those the record was made under (s.under). DELETE
// /projects/{id}/webhooks/{webhookID} cannot address a webhook made by
// PUT /user/settings/webhooks; DELETE /user/settings/webhooks/{id} can.
func (s *seqRun) addressable(o *model.Operation) bool {
	for _, p := range o.OtherPathParams() {
		if _, ok := s.under[p]; !ok {
			return false
		}
	}
	return true
}

// unfilled is the first path parameter a step's path still names after
// every value the sequence has is put in, or "".
func unfilled(ins fastapi.Inputs, path string) string {
	for _, in := range ins.List {
		if in.In == "path" && strings.Contains(path, "{"+in.Name+"}") {
			return in.Name
		}
	}
	return ""
}

func (s *seqRun) findKind(kind model.Kind) *model.Operation {
	for _, o := range s.m.Operations {
		if o.Kind == kind {
			return o
		}
	}
	return nil
}

// op is the runner's operation for a model operation, so that the other
// checks apply to sequence steps.
func (s *seqRun) op(o *model.Operation) *operation {
	if x := s.ops[o]; x != nil {
		return x
	}
	id := o.ID
	if id == "" {
		id = o.Method + " " + o.Path
	}
	x := &operation{id: id, method: o.Method, path: o.Path, op: o.Op, item: o.Item, inputs: o.Inputs, model: o}
	x.tokenEndpoint = issuesTokens(o.Op)
	s.ops[o] = x
	return x
}

func (s *seqRun) note(format string, args ...any) {
	s.report.Notes = append(s.report.Notes, "stateful sequences: "+fmt.Sprintf(format, args...))
}

// tooLarge reports whether body, o's answer, holds more JSON values than
// the checks read (--max-check-values): decoded, a 15 MiB list would take
// hundreds of megabytes. The first time for o, a note says what was not
// judged for it.
func (s *seqRun) tooLarge(o *model.Operation, body []byte) bool {
	limit := s.r.cfg.MaxCheckValues
	if limit <= 0 || countValues(body, limit) <= limit {
		return false
	}
	if !s.tooLargeNoted[o] {
		if s.tooLargeNoted == nil {
			s.tooLargeNoted = map[*model.Operation]bool{}
		}
		s.tooLargeNoted[o] = true
		s.note("%s answers more than %d JSON values (--max-check-values): the sequences that read its answer were not judged", opName(o), limit)
	}
	return true
}

// tooLargeWhy is a step's Response.Unchecked when its answer was too large
// to read.
func tooLargeWhy(limit int) string {
	return fmt.Sprintf("the body holds more than %d JSON values (--max-check-values): the checks that read bodies stopped there", limit)
}

// call is one request of a sequence.
type call struct {
	path  map[string]string
	query url.Values
	json  []byte
	form  url.Values
	auth  *string // nil: the sequence's token
}

// step sends one request and records it as a Result; the decoded JSON
// answer comes back too (nil when there is none).
func (s *seqRun) step(o *model.Operation, name string, expect Expect, c call) (*Result, any) {
	x := s.op(o)
	path := o.Path
	for k, v := range c.path {
		path = strings.ReplaceAll(path, "{"+k+"}", pathSegment(x.inputs, k, v))
	}
	for k, v := range s.under {
		path = strings.ReplaceAll(path, "{"+k+"}", pathSegment(x.inputs, k, v))
	}
	h := s.r.cfg.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	query := requiredInputs(s.r.cfg, x.inputs, c.query, h)
	auth := s.auth
	if c.auth != nil {
		auth = *c.auth
	}
	// The credential goes where the document's scheme wants it; one in
	// the query is among the run's query parameters already, unless this
	// call says otherwise.
	cred := s.r.cred
	switch {
	case cred.in == "query" && c.auth != nil:
		query.Del(cred.name)
		if auth != "" {
			query.Set(cred.name, auth)
		}
	case cred.in == "header" && auth != "" && s.r.cfg.Header.Get(cred.name) == "":
		h.Set(cred.name, auth)
	}
	if s.r.basic != "" && c.auth == nil && h.Get("Authorization") == "" && model.BasicAuth(s.r.sp.Doc, o.Op) {
		// The basic credentials given, where the contract has no login
		// (basicCredentials): a step they do not open alone is still
		// not sent (uncredentialed).
		h.Set("Authorization", s.r.basic)
	}
	u := strings.TrimSuffix(s.r.cfg.BaseURL, "/") + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	if c.json != nil && o.BodyWrap != "" && !wrappedIn(c.json, o.BodyWrap) {
		c.json, _ = json.Marshal(map[string]json.RawMessage{o.BodyWrap: c.json})
	}
	req := Request{Method: o.Method, URL: u, Header: h}
	switch {
	case c.json != nil && o.Inputs.JSON == nil && o.Inputs.Form:
		// a record's fields sent as the form the operation takes
		var m map[string]any
		json.Unmarshal(c.json, &m)
		form, order := formOf(m, o.Inputs.List)
		var ct string
		req.Body, ct = formBody(o.Op, o.Inputs.List, order, form)
		h.Set("Content-Type", ct)
	case c.json != nil:
		req.Body = string(c.json)
		h.Set("Content-Type", o.Inputs.JSON.MediaType())
	case c.form != nil:
		req.Body = c.form.Encode()
		h.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if len(h) == 0 {
		req.Header = nil
	}
	cs := &Case{Operation: x.id, Method: o.Method, Path: o.Path, Kind: Sequence, Name: name, Expect: expect, Request: req, op: x}
	why := s.unaddressable(x.inputs, c.path, s.under)
	if p := unfilled(x.inputs, path); why == "" && p != "" {
		why = fmt.Sprintf("its path parameter %s names nothing the sequence made or read", p)
	}
	if why != "" {
		res := &Result{Case: cs, Response: Response{Skipped: why}}
		s.results = append(s.results, res)
		return res, nil
	}
	if o.Secured && c.auth == nil && h.Get("Authorization") == "" && (cred.in != "header" || h.Get(cred.name) == "") && (cred.in != "query" || query.Get(cred.name) == "") {
		// It would only meet the 401 the unauthenticated cases test
		// already: not run, and said so.
		res := &Result{Case: cs, Response: Response{Skipped: noTokenSkip}}
		s.results = append(s.results, res)
		return res, nil
	}
	if c.auth == nil && s.r.openAPI() && uncredentialed(s.r.sp.Doc, o.Op, req) {
		// Under the plain-OpenAPI profile any scheme is enforced: a step
		// of an operation the run holds no credentials for (an API key,
		// basic credentials) would meet its 401 too.
		res := &Result{Case: cs, Response: Response{Skipped: noCredentialsSkip}}
		s.results = append(s.results, res)
		return res, nil
	}
	res := &Result{Case: cs, Response: s.r.send(s.ctx, req)}
	if o.Method != "GET" {
		s.lastWrite = time.Now()
	}
	s.results = append(s.results, res)
	var v any
	if len(res.Response.Body) > 0 && isJSON(res.Response.Header) && s.tooLarge(o, res.Response.Body) {
		// Not decoded, and no sequence check judges this step.
		res.Response.Unchecked = tooLargeWhy(s.r.cfg.MaxCheckValues)
	} else if len(res.Response.Body) > 0 && isJSON(res.Response.Header) {
		if json.Unmarshal(res.Response.Body, &v) != nil {
			v = nil
		}
		if o.Shape == model.OneShape {
			v = unwrap(o, v)
		}
		s.r.held.hold(o, res.Response.Status, v)
	}
	return res, v
}

// unaddressable is why a step cannot name its record in its path: a key
// the path parameter's own schema refuses (an order created with id 4324
// where GET /store/order/{orderId} takes 1 to 5). The document calls that
// request invalid, so its answer, a 400 as much as a 200, says nothing of
// the record: the step is not sent. "" when every key is valid.
func (s *seqRun) unaddressable(ins fastapi.Inputs, keys ...map[string]string) string {
	for _, in := range ins.List {
		if in.In != "path" || in.Object != nil || in.List {
			continue // a styled object or list: a key is one value
		}
		for _, m := range keys {
			v, ok := m[in.Name]
			if !ok {
				continue
			}
			if _, bad := in.Check(s.r.sp, v, true); bad != nil {
				return fmt.Sprintf("the record's %s %q is a value the path parameter refuses (%s): the operation cannot address it", in.Name, v, bad.Msg)
			}
		}
	}
	return ""
}

// noTokenSkip is why a secured step is not sent.
const noTokenSkip = "secured, and the runner has no token (give --username and --password for the contract's login, or --token)"

// noCredentialsSkip is why a step of an operation the run has no
// credentials for is not sent.
const noCredentialsSkip = "secured, and the runner has no credentials for its schemes (give them with --token, --header, --query or --cookie)"

// requiredInputs completes a step's query and headers as a case's are: the
// query parameters and cookies the user gives for every request, and a
// valid value for every required header, query parameter and cookie the
// step does not set itself (a create needs its X-Token header as much as
// any case does). It returns the query to send; cookies go into h.
func requiredInputs(cfg *Config, ins fastapi.Inputs, set url.Values, h http.Header) url.Values {
	query := url.Values{}
	for k, vs := range cfg.Query {
		query[k] = slices.Clone(vs)
	}
	for k, vs := range set {
		query[k] = slices.Clone(vs)
	}
	cookies := url.Values{}
	for k, vs := range cfg.Cookie {
		cookies[k] = slices.Clone(vs)
	}
	for _, in := range ins.List {
		if !in.Required {
			continue
		}
		switch {
		case in.In == "query" && !query.Has(in.Name),
			in.In == "header" && h.Get(in.Name) == "",
			in.In == "cookie" && !cookies.Has(in.Name):
		default:
			continue
		}
		v, ok := exampleFor(in)
		if !ok {
			v, ok = acceptedPatternValue(in)
		}
		if !ok {
			continue
		}
		switch in.In {
		case "query":
			query.Set(in.Name, v)
		case "header":
			h.Set(in.Name, v)
		case "cookie":
			cookies.Set(in.Name, v)
		}
	}
	setCookies(h, cookies)
	return query
}

// verdict records a sequence check's verdict on a step (nil: passed).
func (s *seqRun) verdict(res *Result, check string, v *verdict) {
	if !s.enabled[check] || res == nil || res.Response.Skipped != "" || res.Response.Unchecked != "" {
		return // a step not sent (the run stopped), or its answer not read, has no verdict
	}
	if v == nil {
		v = pass
	}
	res.Checks = append(res.Checks, CheckResult{Check: check, Passed: v == pass, Expected: v.expected, Got: v.got})
}

// expectStatus is nil when the answer has the status, else the failure.
func expectStatus(res *Result, status int, what string) *verdict {
	if res.Response.Status == status {
		return nil
	}
	return fail(fmt.Sprintf("%d (%s)", status, what), "%s", statusText(&res.Response))
}

// logIn finds the bearer token: the configured Authorization header, else
// the token the cases' login with the configured credentials earned, else
// a login of its own through the contract's login.
func (s *seqRun) logIn() {
	if s.r.cfg.Header.Get("Authorization") != "" || (s.r.cfg.Username == "" && s.r.cfg.Password == "") {
		return
	}
	if s.r.token != "" { // the cases' login earned it already
		s.auth = s.r.token
		return
	}
	login := s.findKind(model.Login)
	if login == nil {
		return
	}
	req := s.loginRequest(login, s.r.cfg.Username, s.r.cfg.Password)
	resp := s.r.send(s.ctx, req)
	var v any
	if resp.Status/100 == 2 && json.Unmarshal(resp.Body, &v) == nil {
		if tok := model.TokenIn(v); tok != "" {
			s.auth = s.r.cred.value(tok)
			return
		}
	}
	s.note("the login with the given credentials failed (%s): secured steps go without a token", statusText(&resp))
}

// loginForm is the login form with username and password, and every other
// required field an accepted value (grant_type=password).
func (s *seqRun) loginForm(o *model.Operation, user, pass string) url.Values {
	form := url.Values{}
	for _, in := range s.op(o).inputs.List {
		if in.In != "body" {
			continue
		}
		switch in.Name {
		case "username":
			form.Set("username", user)
		case "password":
			form.Set("password", pass)
		default:
			if !in.Required {
				if v, ok := acceptedPatternValue(in); ok {
					form.Set(in.Name, v)
				}
				continue
			}
			if v, ok := exampleFor(in); ok {
				form.Set(in.Name, v)
			} else if v, ok := acceptedPatternValue(in); ok {
				form.Set(in.Name, v)
			}
		}
	}
	return form
}

// loginCall is the call logging in through login with user and pass,
// without the run's token: a JSON body where the login takes JSON, else
// its form.
func (s *seqRun) loginCall(login *model.Operation, user, pass string) call {
	none := ""
	if login.Inputs.JSON != nil {
		return call{json: []byte(loginBody(login, user, pass)), auth: &none}
	}
	return call{form: s.loginForm(login, user, pass), auth: &none}
}

func (s *seqRun) loginRequest(o *model.Operation, user, pass string) Request {
	h := s.r.cfg.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	u := strings.TrimSuffix(s.r.cfg.BaseURL, "/") + o.Path
	if o.Inputs.JSON != nil {
		h.Set("Content-Type", "application/json")
		return Request{Method: o.Method, URL: u, Header: h, Body: loginBody(o, user, pass)}
	}
	h.Set("Content-Type", "application/x-www-form-urlencoded")
	return Request{Method: o.Method, URL: u, Header: h, Body: s.loginForm(o, user, pass).Encode()}
}

// ---- request bodies --------------------------------------------------------

// recBody is what an operation's request body takes of a record: the
// names of its fields in order, and how the target reads a body of them.
// A JSON body is read as FastAPI validates it; a form (an operation taking
// only application/x-www-form-urlencoded or multipart/form-data) field by
// field, as sent: step encodes the same JSON object as the form.
type recBody struct {
	Fields []string
	json   *fastapi.JSONBody
	form   []*fastapi.Input // the fields sent
	ins    []fastapi.Input  // every input of the operation
	sp     *spec.Spec
}

// bodyOf is an operation's body of a record's fields and its schema; nil
// when it takes none the runner can send (a form field that is a file).
func (s *seqRun) bodyOf(o *model.Operation) (*recBody, *openapi3.Schema) {
	ins := s.op(o).inputs
	if o.Op.RequestBody == nil || o.Op.RequestBody.Value == nil {
		return nil, nil
	}
	if jb := ins.JSON; jb != nil {
		mt := o.Op.RequestBody.Value.Content.Get(jb.MediaType())
		if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
			return nil, nil
		}
		return &recBody{Fields: jb.Fields, json: jb}, mt.Schema.Value
	}
	schema := formSchema(o.Op)
	if !ins.Form || schema == nil {
		return nil, nil
	}
	b := &recBody{sp: s.r.sp, ins: ins.List}
	for i := range ins.List {
		in := &ins.List[i]
		if in.In != "body" {
			continue
		}
		if in.Binary {
			if in.Required {
				return nil, nil
			}
			continue
		}
		b.Fields, b.form = append(b.Fields, in.Name), append(b.form, in)
	}
	if len(b.Fields) == 0 {
		return nil, nil
	}
	return b, schema
}

// formSchema is the schema of an operation's form body, nil for none.
func formSchema(op *openapi3.Operation) *openapi3.Schema {
	for _, media := range []string{"application/x-www-form-urlencoded", "multipart/form-data"} {
		if mt := op.RequestBody.Value.Content.Get(media); mt != nil && mt.Schema != nil && mt.Schema.Value != nil {
			return mt.Schema.Value
		}
	}
	return nil
}

// read is the target's reading of body: the accepted fields (decoded,
// defaults included), which of them were sent, or the error items.
func (b *recBody) read(body []byte) (map[string]any, map[string]bool, []fastapi.ErrorItem) {
	if b.json != nil {
		return validate(b.json, body)
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, nil, []fastapi.ErrorItem{{Type: "read", Loc: []any{"body"}, Msg: err.Error()}}
	}
	form, _ := formOf(m, b.ins)
	out, set := map[string]any{}, map[string]bool{}
	var items []fastapi.ErrorItem
	for _, in := range b.form {
		raw, present := form.Get(in.Name), form.Has(in.Name)
		var item *fastapi.ErrorItem
		if in.List {
			var vs []string
			if present {
				vs = strings.Split(raw, listSep)
			}
			_, list := in.CheckList(b.sp, vs)
			if len(list) > 0 {
				item = &list[0]
			}
		} else {
			_, item = in.Check(b.sp, raw, present)
		}
		if item != nil {
			items = append(items, *item)
			continue
		}
		if v, ok := m[in.Name]; ok && v != nil {
			out[in.Name], set[in.Name] = v, true
		}
	}
	return out, set, items
}

// formOf writes a JSON object as the fields of a form of ins: a scalar as
// a parameter carries it (valueText), a list as its items
// (joined by listSep, as formBody takes them), an object as its JSON
// text; null not at all. order is the fields written, in declaration
// order.
func formOf(m map[string]any, ins []fastapi.Input) (form url.Values, order []string) {
	form = url.Values{}
	for _, in := range ins {
		v, ok := m[in.Name]
		if in.In != "body" || !ok || v == nil {
			continue
		}
		items, isList := v.([]any)
		if !isList {
			items = []any{v}
		}
		var texts []string
		for _, item := range items {
			switch x := item.(type) {
			case nil:
			case map[string]any:
				raw, _ := json.Marshal(x)
				texts = append(texts, string(raw))
			default:
				texts = append(texts, valueText(x))
			}
		}
		if len(texts) > 0 {
			form.Set(in.Name, strings.Join(texts, listSep))
			order = append(order, in.Name)
		}
	}
	return form, order
}

// validate is FastAPI's reading of body: the accepted model's fields
// (decoded, defaults included), or the error items.
func validate(jb *fastapi.JSONBody, body []byte) (map[string]any, map[string]bool, []fastapi.ErrorItem) {
	p, items, err := jb.Read("application/json", true, body)
	if err != nil {
		return nil, nil, []fastapi.ErrorItem{{Type: "read", Loc: []any{"body"}, Msg: err.Error()}}
	}
	if len(items) > 0 {
		return nil, nil, items
	}
	mod, items := jb.Validate(p)
	if len(items) > 0 {
		return nil, nil, items
	}
	out, set := map[string]any{}, map[string]bool{}
	for _, f := range mod.Fields {
		var v any
		if json.Unmarshal(f.JSON, &v) == nil {
			out[f.Name] = v
		}
		set[f.Name] = f.Set
	}
	return out, set, nil
}

// genBody makes a body for o FastAPI accepts: generated record values for
// the body's fields, fixed ones from fixed, and only the fields in only
// (nil: every field). It returns the body, and the model FastAPI builds.
func (s *seqRun) genBody(o *model.Operation, fixed map[string]any, only []string, differ map[string]any) ([]byte, map[string]any, map[string]bool, error) {
	jb, schema := s.bodyOf(o)
	if jb == nil {
		return nil, nil, nil, fmt.Errorf("%s takes no body of a record's fields the runner can send", o)
	}
	var lastErr string
	for try := 0; try < 12; try++ {
		rec := map[string]any{}
		if o.Coll != nil {
			id := "1"
			if o.Coll.IDKind != model.IntID {
				id = fmt.Sprintf("00000000-0000-4000-8000-%012x", s.rng.Uint64()&0xffffffffffff)
			}
			if raw, err := fixtures.GenerateOne(s.m, o.Coll.Name, id, s.rng.Uint64()); err == nil {
				json.Unmarshal(raw, &rec)
			}
		}
		body := map[string]any{}
		for _, name := range jb.Fields {
			if only != nil && !slices.Contains(only, name) {
				continue
			}
			if v, ok := fixed[name]; ok {
				body[name] = v
				continue
			}
			v, ok := rec[name]
			if !ok && (o.Coll == nil || slices.Contains(schema.Required, name)) {
				// A field the body requires that the collection's records
				// do not carry (a registration's password, served by no
				// answer): from the body's own schema for it.
				v, ok = s.freshValue(schema.Properties[name], name)
			}
			if o.Coll != nil && o.Coll.ID != nil && name == o.Coll.ID.Name {
				// An id the client chooses: a fresh one, from the body's
				// own schema for it (its pattern, length, format), never
				// the one the collection's generator made up.
				v, ok = s.freshValue(schema.Properties[name], name)
			}
			if o.Coll != nil && s.r.openAPI() && slices.Contains(o.Coll.Keys, o.Coll.Field(name)) {
				// A key a path reads the records by (GET
				// /api/test/byName/{name}): a fresh one too, not the
				// generated record's, which may be the schema's example
				// a record there holds already (the read would find it).
				if fv, fok := s.freshValue(schema.Properties[name], name); fok {
					v, ok = fv, true
				}
			}
			if !ok {
				if p := schema.Properties[name]; p != nil && p.Value != nil {
					if p.Value.Example != nil {
						v, ok = p.Value.Example, true
					} else if p.Value.Default != nil {
						v, ok = p.Value.Default, true
					}
				}
			}
			if ok {
				body[name] = v
			}
		}
		if differ != nil {
			same := false
			for name := range body {
				if _, f := fixed[name]; !f && reflect.DeepEqual(body[name], differ[name]) && (only != nil) {
					same = true
				}
			}
			if same {
				continue
			}
		}
		// Drop optional fields FastAPI refuses, one at a time.
		for drop := 0; drop <= len(body); drop++ {
			raw, _ := json.Marshal(body)
			vals, set, items := jb.read(raw)
			if items == nil {
				vals, set = unwrapSent(o, vals, set)
				return raw, vals, set, nil
			}
			lastErr = fmt.Sprintf("%v %s", items[0].Loc, items[0].Msg)
			name, ok := "", false
			if len(items[0].Loc) > 1 {
				name, ok = items[0].Loc[1].(string)
			}
			_, isFixed := fixed[name]
			if !ok || isFixed || slices.Contains(schema.Required, name) || body[name] == nil {
				break
			}
			delete(body, name)
		}
	}
	return nil, nil, nil, fmt.Errorf("no generated body for %s was accepted (last: %s)", o, lastErr)
}

// unwrapSent is what a body wrapped in one member ({"article": {…}})
// sends of the record: the members inside, each one sent; the body as it
// is otherwise.
func unwrapSent(o *model.Operation, want map[string]any, set map[string]bool) (map[string]any, map[string]bool) {
	inner, ok := want[o.BodyWrap].(map[string]any)
	if o.BodyWrap == "" || !ok || len(want) != 1 {
		return want, set
	}
	sent := make(map[string]bool, len(inner))
	for k := range inner {
		sent[k] = true
	}
	return inner, sent
}

// freshValue generates a value for the body field name from its schema.
func (s *seqRun) freshValue(ref *openapi3.SchemaRef, name string) (any, bool) {
	if ref == nil {
		return nil, false
	}
	if s.fake == nil {
		s.fake = fake.New(s.r.sp)
	}
	raw := s.fake.Append(nil, gofakeit.New(s.rng.Uint64()), name, ref)
	var v any
	return v, json.Unmarshal(raw, &v) == nil
}

// ---- lifecycle ---------------------------------------------------------------

func opName(o *model.Operation) string {
	if o.ID != "" {
		return o.ID
	}
	return o.Method + " " + o.Path
}

func recordID(v any) (string, any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return "", nil, false
	}
	id, ok := idOf(m)
	return id, m["id"], ok
}

// create makes a record of c with the collection's create operation and
// checks the answer; why says what the record is for.
func (s *seqRun) create(c *model.Collection, why string) (map[string]any, string, bool) {
	o := s.find(c, model.Create)
	if o == nil {
		o = s.find(c, model.NestedCreate)
	}
	if o == nil || s.depth > 5 {
		return nil, "", false
	}
	s.depth++
	defer func() { s.depth-- }()
	fixed := map[string]any{}
	path := map[string]string{}
	if o.Kind == model.NestedCreate {
		pid, ok := s.parentID(o.Parent, c)
		if !ok {
			s.note("%s: no %s to create it under", opName(o), o.Parent)
			return nil, "", false
		}
		path[o.ParentParam] = fmt.Sprint(pid)
		if o.ParentField != nil {
			// the records' own field naming the parent (project_id
			// under /projects/{id}/views) says the path's parent
			fixed[o.ParentField.Name] = pid
		}
	}
	jb, _ := s.bodyOf(o)
	if jb != nil {
		for _, name := range jb.Fields {
			f := c.Field(name)
			if f == nil || f.Refers == nil || f.Owner {
				continue
			}
			pid, ok := s.parentID(f.Refers, c)
			if !ok {
				s.note("%s: no %s for %s to refer to", opName(o), f.Refers, name)
				return nil, "", false
			}
			fixed[name] = pid
		}
	}
	// Without an id in the create's answer, the record is the one the
	// lists gain: what they hold before is read first.
	var before map[string]bool
	unread := false // a list was too large to read
	if !answersID(o) {
		before, unread = s.listedIDs(c)
	}
	var res *Result
	var rec, want map[string]any
	var set map[string]bool
	for try := 1; ; try++ {
		body, w, st, err := s.genBody(o, fixed, nil, nil)
		if err != nil {
			s.note("%v", err)
			return nil, "", false
		}
		name := fmt.Sprintf("%s%s: answers %d with the new record", opName(o), why, o.Status)
		if try > 1 {
			name += fmt.Sprintf(" (body %d)", try)
		}
		r, v := s.step(o, name, ExpectSuccess, call{path: path, json: body})
		res, want, set = r, w, st
		rec, _ = v.(map[string]any)
		taken := s.r.openAPI() && (r.Response.Status == http.StatusConflict || s.r.takenValue(r) != "")
		if r.Response.Status < 500 && !taken || try == createTries {
			break
		}
		if taken {
			// A key the body carries that another case took first
			// (a client-given id): state, not the contract; another
			// body has another.
			continue
		}
		// A server error on a body the contract accepts is a failure of
		// its own; another body may still make the record the rest of
		// the sequence needs (a limit the contract does not state).
		s.verdict(r, checkStatefulCreateRead, expectStatus(r, o.Status, "the declared status of "+opName(o)))
	}
	if s.r.openAPI() && res.Response.Status == http.StatusConflict {
		s.note("%s answered 409 to %d bodies: a key each carries was taken, so the sequence did not run", opName(o), createTries)
		return nil, "", false
	}
	id, _, ok := recordID(rec)
	if k, keyed := keyOfColl(rec, c); !ok && keyed {
		// A record keyed by a field of its own (an article's slug): the
		// lifecycle follows it by its key through its reads, changes,
		// actions and delete, a nested record is created under it by
		// that key, and it is deleted at the end.
		id, ok = k, true
	}
	if k, linked := viewLink(o, rec, ""); !ok && linked {
		// A record answered without its id but with a link to its read
		// (a summary {name, url}): the link's path names it.
		id, ok = k, true
		s.note("%s answers no id: record %s read from its link %s", opName(o), id, rec[o.Link.Member])
	}
	if !ok && before != nil && res.Response.Status/100 == 2 {
		var found map[string]any
		var listed bool
		if found, id, ok, listed = s.newlyListed(c, before, want, set); ok {
			s.note("%s answers no id: record %s found in %s", opName(o), id, opName(s.find(c, model.List)))
			// The record as listed is what the reads must answer.
			rec = found
		}
		unread = unread || !listed
	}
	if ok {
		s.lastUnder = path
		if s.find(c, model.Delete) != nil {
			s.cleanup = append(s.cleanup, created{c, id, path})
		} else {
			s.note("%s %s created by the sequences stays: the contract cannot delete it", c, id)
		}
	}
	bad := expectStatus(res, o.Status, "the declared status of "+opName(o))
	if bad == nil && !ok && unread {
		return nil, "", false // no verdict: the note says why (tooLarge)
	}
	if bad == nil && !ok {
		what := "the new record with an id"
		if before != nil {
			what = "the new record in the list"
		}
		bad = fail(what, "%s", statusText(&res.Response))
	}
	if bad == nil {
		bad = sentFieldsKept(rec, want, set, c, nil)
	}
	for name, pid := range path {
		// A record made under a parent it does not name (o.Scoped) may
		// have a field of the path parameter's name: its own id.
		if bad == nil && !o.Scoped && c.Field(name) != nil && fmt.Sprint(rec[name]) != pid {
			bad = fail(fmt.Sprintf("%s %s (the path's)", name, pid), "%s", quoteAny(rec[name]))
		}
	}
	s.verdict(res, checkStatefulCreateRead, bad)
	if !ok || res.Response.Status/100 != 2 {
		return nil, "", false
	}
	return rec, id, true
}

// pathKey is what the path parameter param takes for the record rec
// (id): its field of that name, else the id (keyOf).
func pathKey(rec map[string]any, param, id string) string {
	if k, ok := keyOf(rec, param); ok {
		return k
	}
	return id
}

// createTries bounds the bodies a sequence tries on a create that answers
// a server error.
const createTries = 3

// answersID reports whether the create's declared answer is a record
// that always carries its id (a required property).
func answersID(o *model.Operation) bool {
	resp := o.Op.Responses.Value(strconv.Itoa(o.Status))
	if resp == nil || resp.Value == nil {
		return false
	}
	for _, mt := range resp.Value.Content {
		if mt.Schema == nil || mt.Schema.Value == nil {
			continue
		}
		for _, sch := range append([]*openapi3.SchemaRef{mt.Schema}, mt.Schema.Value.AllOf...) {
			if sch.Value != nil && sch.Value.Properties["id"] != nil && slices.Contains(sch.Value.Required, "id") {
				return true
			}
		}
	}
	return false
}

// listedIDs is every id c's list holds (paging through, bounded); nil
// when c has no list to read. read is false when a page was too large to
// read (tooLarge).
func (s *seqRun) listedIDs(c *model.Collection) (ids map[string]bool, read bool) {
	list := s.find(c, model.List)
	if list == nil {
		return nil, true
	}
	ids = map[string]bool{}
	read = s.eachListed(list, func(it any) bool {
		if id, ok := listedKey(list, it); ok {
			ids[id] = true
		}
		return true
	})
	return ids, read
}

// listedKey is the id of an item of the list o, as the record's read
// takes it: its own (recordID), its key (keyOfColl), else the one its
// link to the record's read names (viewLink).
func listedKey(o *model.Operation, it any) (string, bool) {
	if id, _, ok := recordID(it); ok {
		return id, true
	}
	if m, ok := it.(map[string]any); ok {
		if k, ok := keyOfColl(m, o.Coll); ok {
			return k, true
		}
	}
	return viewLink(o, it, "")
}

// viewLink is the path parameter param (the record's own when "") that
// v, a record o answers without its id, names in its link to its read
// (model.Operation.Link: a summary {name, url} whose url is
// https://host/things/7/). ok is false when o has no such link, or v's
// is no URL of the read's path.
func viewLink(o *model.Operation, v any, param string) (string, bool) {
	m, ok := v.(map[string]any)
	if o == nil || o.Link == nil || !ok {
		return "", false
	}
	link, _ := m[o.Link.Member].(string)
	params, ok := o.Link.Params(link)
	if param == "" {
		param = o.Link.Param
	}
	id := params[param]
	return id, ok && id != ""
}

// newlyListed is the record c's list holds now and did not before, with
// the values the create sent: exactly one, else none (the runner never
// takes a record it did not make for its own). read is false when a
// page was too large to read (tooLarge).
func (s *seqRun) newlyListed(c *model.Collection, before map[string]bool, want map[string]any, set map[string]bool) (rec map[string]any, id string, ok, read bool) {
	list := s.find(c, model.List)
	if list == nil {
		return nil, "", false, true
	}
	var found map[string]any
	var foundID string
	n := 0
	read = s.eachListed(list, func(it any) bool {
		id, ok := listedKey(list, it)
		m, _ := it.(map[string]any)
		if !ok || before[id] || sentFieldsKept(m, want, set, c, nil) != nil {
			return true
		}
		found, foundID = m, id
		n++
		return n < 2
	})
	if n != 1 {
		return nil, "", false, read
	}
	return found, foundID, true, read
}

// pageQuery sets in q the paging parameters of o's page page (counted
// from 0), and returns the page size asked for (0 for none) and whether
// the list can be paged through at all.
func pageQuery(o *model.Operation, page int, q url.Values) (size int, pageable bool) {
	switch {
	case o.Paging.Page != "" && o.Paging.Size != "":
		size = pageLimit(o, o.Paging.Size)
		q.Set(o.Paging.Page, strconv.Itoa(firstPage(o)+page))
		q.Set(o.Paging.Size, strconv.Itoa(size))
		return size, true
	case o.Paging.Limit != "":
		size = pageLimit(o, o.Paging.Limit)
		q.Set(o.Paging.Limit, strconv.Itoa(size))
		if o.Paging.Skip != "" {
			q.Set(o.Paging.Skip, strconv.Itoa(page*size))
			return size, true
		}
		return size, false
	}
	return 0, false
}

// eachListed calls f on every item of the list o, page by page (at most
// maxPages), until f returns false. The reads are plain requests, not
// steps: they check nothing. It reports false when a page was too large
// to read (tooLarge).
func (s *seqRun) eachListed(o *model.Operation, f func(any) bool) bool {
	for page := 0; page < maxPages && s.ctx.Err() == nil; page++ {
		q := url.Values{}
		size, pageable := pageQuery(o, page, q)
		h := http.Header{}
		q = requiredInputs(s.r.cfg, s.op(o).inputs, q, h)
		req := s.plainRequest(o, nil, q)
		for k, vs := range h {
			req.Header[k] = vs
		}
		resp := s.r.send(s.ctx, req)
		if resp.Status != o.Status {
			return true
		}
		if s.tooLarge(o, resp.Body) {
			return false
		}
		var v any
		if json.Unmarshal(resp.Body, &v) != nil {
			return true
		}
		items := itemsIn(o, v)
		for _, it := range items {
			if !f(it) {
				return true
			}
		}
		if !pageable || len(items) < size || len(items) == 0 {
			return true
		}
	}
	return true
}

// sentFieldsKept: every field the body set (or all when set is nil) that
// the record has is answered with the value FastAPI read. A sparse record
// (model.Collection.Sparse: not FastAPI's) may leave out a member the
// reading model holds as null (see sparseEqual).
func sentFieldsKept(rec, want map[string]any, set map[string]bool, c *model.Collection, only []string) *verdict {
	for _, name := range sortedKeys(want) {
		if only != nil && !slices.Contains(only, name) {
			continue
		}
		f := c.Field(name)
		if f == nil || f.Owner || f.Stamp != "" {
			continue
		}
		got, ok := rec[name]
		if !ok {
			continue
		}
		if !jsonEqual(got, want[name]) && !(c.Sparse && sparseEqual(got, want[name])) {
			return fail(fmt.Sprintf("%s %s as sent", name, quoteAny(want[name])), "%s", quoteAny(got))
		}
	}
	return nil
}

// sparseEqual is jsonEqual for the answer of a backend that leaves out
// what it has no value for: a member of an object that want holds as null
// may be absent from got. The reading model (pydantic's, which the runner
// reads a body with) fills the optional members a body did not send with
// null; such a backend never stored them.
func sparseEqual(got, want any) bool {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, wv := range w {
			gv, present := g[k]
			if !present && wv == nil {
				continue
			}
			if !present || !sparseEqual(gv, wv) {
				return false
			}
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !sparseEqual(g[i], w[i]) {
				return false
			}
		}
		return true
	}
	return jsonEqual(got, want)
}

// jsonEqual compares decoded JSON, date-times as instants.
func jsonEqual(a, b any) bool {
	if reflect.DeepEqual(a, b) {
		return true
	}
	as, aok := a.(string)
	bs, bok := b.(string)
	if aok && bok {
		ta, ea := parseTime(as)
		tb, eb := parseTime(bs)
		return ea == nil && eb == nil && ta.Equal(tb)
	}
	return false
}

func parseTime(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("not a date-time: %q", s)
}

// parentID is the id of a record of p for a record of c to refer to: one
// the sequences created, else a new one, else the first listed.
func (s *seqRun) parentID(p *model.Collection, for_ *model.Collection) (any, bool) {
	if p == nil {
		return nil, false
	}
	if id, ok := s.parents[p]; ok {
		return id, true
	}
	if p != s.m.Login && (s.find(p, model.Create) != nil || s.find(p, model.NestedCreate) != nil) {
		if rec, id, ok := s.create(p, fmt.Sprintf(" (a %s for %s to refer to)", p.Name, for_.Name)); ok {
			pid := rec["id"]
			if _, _, hasID := recordID(rec); !hasID {
				pid = id // its own key: an article's slug
			}
			s.parents[p] = pid
			return pid, true
		}
		return nil, false
	}
	if list := s.find(p, model.List); list != nil {
		q := url.Values{}
		if list.Paging.Limit != "" {
			q.Set(list.Paging.Limit, "1")
		}
		if list.Paging.Size != "" {
			q.Set(list.Paging.Size, "1")
		}
		resp := s.r.send(s.ctx, s.plainRequest(list, nil, q))
		var v any
		if !s.tooLarge(list, resp.Body) {
			json.Unmarshal(resp.Body, &v)
		}
		if items := itemsIn(list, v); len(items) > 0 {
			if _, id, ok := recordID(items[0]); ok {
				s.parents[p] = id
				return id, true
			}
			if id, ok := viewLink(list, items[0], ""); ok {
				s.parents[p] = id
				return id, true
			}
		}
	}
	return nil, false
}

func (s *seqRun) plainRequest(o *model.Operation, path map[string]string, q url.Values) Request {
	p := o.Path
	ins := s.op(o).inputs
	for k, v := range path {
		p = strings.ReplaceAll(p, "{"+k+"}", pathSegment(ins, k, v))
	}
	u := strings.TrimSuffix(s.r.cfg.BaseURL, "/") + p
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	h := s.r.cfg.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	if s.auth != "" && h.Get("Authorization") == "" {
		h.Set("Authorization", s.auth)
	}
	return Request{Method: o.Method, URL: u, Header: h}
}

// asRead is the record v a read answered and rec, the answer of the write
// wrote, as they are compared: whole, or by the members both declare where
// either answers a schema of its own (model.Operation.View), which view
// says.
func asRead(v any, rec map[string]any, wrote, read *model.Operation) (got, want any, view bool) {
	if wrote.View == nil && read.View == nil {
		return v, any(rec), false
	}
	return within(v, read, wrote), within(rec, wrote, read), true
}

// within is the record v, as o answers it, without the members other
// does not declare: a record shown in two schemas (model.Operation.View)
// is compared by the members they share.
func within(v any, o, other *model.Operation) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	declares := func(o *model.Operation, name string) bool {
		if o.View != nil {
			return viewShows(o, name)
		}
		return o.Coll.Field(name) != nil
	}
	out := make(map[string]any, len(m))
	for k, x := range m {
		if declares(other, k) || !declares(o, k) {
			out[k] = x
		}
	}
	return out
}

// viewShows reports whether o, answering its collection's records in a
// schema of its own (model.Operation.View), declares the member name;
// true when o has no view.
func viewShows(o *model.Operation, name string) bool {
	return o.View == nil || slices.ContainsFunc(o.View, func(vm model.ViewMember) bool { return vm.Name == name })
}

// overlap is a list item and rec, the record it shows, where the list's
// items are a schema of their own (model.Operation.View): the item's
// members rec holds, and rec's members the items declare.
func overlap(item any, rec map[string]any, o *model.Operation) (any, any) {
	m, ok := item.(map[string]any)
	if !ok {
		return item, any(rec)
	}
	got := make(map[string]any, len(m))
	for k, x := range m {
		if _, held := rec[k]; held {
			got[k] = x
		}
	}
	want := make(map[string]any, len(rec))
	for k, x := range rec {
		if viewShows(o, k) {
			want[k] = x
		}
	}
	return got, want
}

// itemsIn is the records of a list answer: the array, or a page's items.
func itemsIn(o *model.Operation, v any) []any {
	if o.Shape == model.PageShape {
		member := o.Envelope
		if member == "" {
			member = "items"
		}
		m, _ := v.(map[string]any)
		items, _ := m[member].([]any)
		return items
	}
	items, _ := v.([]any)
	return items
}

// lifecycle: create, read back, find in the lists, replace, update,
// delete, and the record is gone.
func (s *seqRun) lifecycle(c *model.Collection) {
	s.countBefore(c)
	rec, id, ok := s.create(c, "")
	if !ok {
		return
	}
	s.under = s.lastUnder
	defer func() { s.under = nil }()
	read := s.find(c, model.ReadOne)
	if read != nil {
		res, v := s.step(read, fmt.Sprintf("%s → %s: read back equals the create answer", opName(s.createOp(c)), opName(read)), ExpectSuccess, call{path: map[string]string{read.IDParam: pathKey(rec, read.IDParam, id)}})
		bad := expectStatus(res, read.Status, "the record just created")
		// a create answering the record in a schema of its own (ent's
		// PetCreate, read as a PetRead): the members both declare agree
		got, want, view := asRead(v, rec, s.createOp(c), read)
		if bad == nil && !reflect.DeepEqual(got, want) {
			bad = fail("the create answer", "%s", firstDifference(got, want, ""))
		}
		s.verdict(res, checkStatefulCreateRead, bad)
		if m, ok := v.(map[string]any); ok && bad == nil && view {
			rec = m // the lists and the changes show the record as it is read
		}
	}
	s.followLinks(s.createOp(c), c, rec)
	s.inLists(c, rec, id, true, checkStatefulCreateRead)
	s.actions(c, id, rec)

	cur := rec
	if o := s.find(c, model.Replace); o != nil && s.enabled[checkStatefulUpdate] {
		if next, ok := s.modify(c, o, id, cur, nil); ok {
			cur, id = next, s.rekey(c, id, next)
		}
	}
	if o := s.find(c, model.Update); o != nil && s.enabled[checkStatefulUpdate] {
		if jb, _ := s.bodyOf(o); jb != nil {
			for _, name := range jb.Fields {
				f := c.Field(name)
				if f == nil || f.Refers != nil || f.Owner || f.Stamp != "" || name == "id" {
					continue
				}
				if next, ok := s.modify(c, o, id, cur, []string{name}); ok {
					cur = next
					break
				}
			}
		}
	}
	if o := s.find(c, model.Update); o != nil && s.enabled[checkStatefulUpdate] {
		if next, ok := s.falsyUpdate(c, o, id, cur); ok {
			cur = next
		}
	}
	if del := s.find(c, model.Delete); del != nil {
		s.remove(c, del, id, cur)
	}
}

// list is c's list: the one at the path of its create (GET /articles
// beside POST /articles, not GET /articles/feed), else the first.
func (s *seqRun) list(c *model.Collection) *model.Operation {
	if cr := s.createOp(c); cr != nil {
		for _, o := range s.m.Operations {
			if o.Coll == c && o.Kind == model.List && o.Path == cr.Path {
				return o
			}
		}
	}
	return s.find(c, model.List)
}

func (s *seqRun) createOp(c *model.Collection) *model.Operation {
	if o := s.find(c, model.Create); o != nil {
		return o
	}
	return s.find(c, model.NestedCreate)
}

// inLists looks for rec in c's list (paging through), in the list
// filtered by each filter rec has a value for, and in its parent's nested
// list. want says whether it must be there, or must not.
func (s *seqRun) inLists(c *model.Collection, rec map[string]any, id string, want bool, check string) {
	what := "in"
	if !want {
		what = "gone from"
	}
	if list := s.list(c); list != nil {
		s.search(list, nil, nil, rec, id, want, check, fmt.Sprintf("%s: the record is %s the list", opName(list), what))
		for _, f := range list.Filters {
			v, ok := scalarQuery(rec[f])
			if !ok || !s.queryAccepts(list, f, v) {
				continue
			}
			s.search(list, nil, url.Values{f: {v}}, rec, id, want, check, fmt.Sprintf("%s?%s=%s: the record is %s the filtered list", opName(list), f, v, what))
		}
	}
	for _, o := range s.m.Operations {
		if o.Kind != model.NestedList || o.Coll != c {
			continue
		}
		var v string
		var ok bool
		if !o.Scoped { // a scoped record's field of that name is its own
			v, ok = scalarQuery(rec[o.ParentParam])
		}
		if !ok {
			// A record that does not name its parent (a comment, no
			// slug): the one it was created under.
			v, ok = s.under[o.ParentParam]
		}
		if !ok {
			continue
		}
		s.search(o, map[string]string{o.ParentParam: v}, nil, rec, id, want, check, fmt.Sprintf("%s: the record is %s its %s's list", opName(o), what, o.Parent))
	}
}

// queryAccepts reports whether FastAPI takes val for o's query parameter
// name: a value a record has may be one no query string carries (a
// Literal[1, 2] refuses "1": fastapi.Input.NoStringAccepted).
func (s *seqRun) queryAccepts(o *model.Operation, name, val string) bool {
	for _, in := range s.op(o).inputs.List {
		if in.In == "query" && in.Name == name {
			_, bad := in.Check(s.r.sp, val, true)
			return bad == nil
		}
	}
	return true
}

// scalarQuery writes a JSON scalar as a query parameter.
func scalarQuery(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case bool:
		return strconv.FormatBool(t), true
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64), true
	}
	return "", false
}

// firstPage is the number of a list's first page: 0 when its page
// parameter allows 0 (minimum 0, or default 0: fastapi-pagination before
// 0.6 counted from 0), else 1.
func firstPage(o *model.Operation) int {
	for _, p := range append(slices.Clone(o.Item.Parameters), o.Op.Parameters...) {
		if p.Value == nil || p.Value.Name != o.Paging.Page || p.Value.Schema == nil || p.Value.Schema.Value == nil {
			continue
		}
		sch := p.Value.Schema.Value
		if (sch.Min != nil && *sch.Min == 0) || sch.Default == float64(0) {
			return 0
		}
	}
	return 1
}

// pageLimit is the largest page the operation allows, at most 100.
func pageLimit(o *model.Operation, name string) int {
	n := 100
	for _, p := range append(slices.Clone(o.Item.Parameters), o.Op.Parameters...) {
		if p.Value != nil && p.Value.Name == name && p.Value.Schema != nil && p.Value.Schema.Value != nil {
			if mx := p.Value.Schema.Value.Max; mx != nil && int(*mx) < n {
				n = max(1, int(*mx))
			}
		}
	}
	return n
}

// recordScope fills the query parameters a list requires, and the search
// does not set, for a list that must show rec: a required filter (a query
// parameter naming a field of the records, ?archived=) takes the record's
// own value, so the record is among what the list answers. narrowed names
// a required query parameter left to an example value instead (no such
// field, or a value no query string carries): the list may leave the
// record out, and its absence proves nothing.
func (s *seqRun) recordScope(o *model.Operation, rec map[string]any, set url.Values) (scope url.Values, narrowed string) {
	scope = url.Values{}
	pg := o.Paging
	for _, in := range s.op(o).inputs.List {
		if in.In != "query" || !in.Required || set.Has(in.Name) || slices.Contains([]string{pg.Skip, pg.Limit, pg.Page, pg.Size}, in.Name) {
			continue
		}
		if slices.Contains(o.Filters, in.Name) {
			if v, ok := scalarQuery(rec[in.Name]); ok && s.queryAccepts(o, in.Name, v) {
				scope.Set(in.Name, v)
				continue
			}
		} else if s.r.cfg.Query.Has(in.Name) {
			continue // the user's value for every request: a key, a tenant
		}
		if narrowed == "" {
			narrowed = in.Name
		}
	}
	return scope, narrowed
}

// search pages through a list for the record; every item must also have
// the filter's value (paging_and_filters). The last page read is the step.
func (s *seqRun) search(o *model.Operation, path map[string]string, filter url.Values, rec map[string]any, id string, want bool, check, name string) {
	var last *Result
	var lastV any
	found := false
	var differs, filterBad *verdict
	pages := 0
	scope, narrowed := s.recordScope(o, rec, filter)
	// first is the first page of the plain list, and its count.
	var first *Result
	count, counted := 0, false
	for page := 0; page < maxPages; page++ {
		q := url.Values{}
		for k, v := range scope {
			q[k] = v
		}
		for k, v := range filter {
			q[k] = v
		}
		size, pageable := pageQuery(o, page, q)
		if page > 0 && !pageable {
			break
		}
		pages++
		res, v := s.request(o, path, q)
		last, lastV = res, v
		if res.Response.Status != o.Status {
			break
		}
		if page == 0 && filter == nil && path == nil && len(scope) == 0 {
			first = res
			count, counted = listCount(o, v, size)
		}
		items := itemsIn(o, v)
		for _, it := range items {
			m, _ := it.(map[string]any)
			for k := range filter {
				if want, _ := scalarQuery(m[k]); want != filter.Get(k) && filterBad == nil {
					filterBad = fail(fmt.Sprintf("only items with %s=%s", k, filter.Get(k)), "item %s has %s %s", quoteAny(m["id"]), k, quoteAny(m[k]))
				}
			}
			for k, pv := range path {
				if got, _ := scalarQuery(m[k]); !o.Scoped && o.Coll.Field(k) != nil && got != pv && filterBad == nil {
					filterBad = fail(fmt.Sprintf("only items with %s=%s", k, pv), "item %s has %s %s", quoteAny(m["id"]), k, quoteAny(m[k]))
				}
			}
			iid, ok := listedKey(o, it)
			if ok && iid == id {
				found = true
				got, shown := it, projected(o, rec)
				if o.View != nil {
					got, shown = overlap(it, rec, o)
				}
				shown = unlistedSecrets(got, shown, o.Coll)
				if want && !reflect.DeepEqual(got, shown) && differs == nil {
					differs = fail("the listed record equal to the one read", "%s", firstDifference(got, shown, ""))
				}
			}
		}
		if found || !pageable || len(items) < size {
			break
		}
	}
	if last == nil {
		return
	}
	last.Case.Name = name
	if pages > 1 {
		last.Case.Name += fmt.Sprintf(" (%d pages read)", pages)
	}
	bad := expectStatus(last, o.Status, "the list")
	if bad == nil {
		switch {
		case want && !found && narrowed != "":
			// Not there may be the required parameter's doing.
			s.note("%s: record %s is not in the list narrowed by its required query parameter %s, given no value of the record's: not judged", opName(o), id, narrowed)
			check = ""
		case want && !found:
			bad = fail(fmt.Sprintf("record %s in the list", id), "not there after %d page(s) (last: %s)", pages, snippet(last.Response.Body))
		case !want && found:
			bad = fail(fmt.Sprintf("record %s no longer listed after its delete", id), "still listed")
		case differs != nil:
			bad = differs
		}
	}
	_ = lastV
	if check != "" {
		s.verdict(last, check, bad)
	}
	if counted {
		if before, had := s.counts[o]; had && check != "" && bad == nil && found == want {
			s.countMoved(first, o, before, count, want, check)
		}
		s.counts[o] = count
	}
	if filter != nil || path != nil {
		s.verdict(last, checkPagingFilters, filterBad)
	}
}

// projected is rec as the list o serves it: its Project fields when the
// list's items are a part of the record (articles without their body).
func projected(o *model.Operation, rec map[string]any) any {
	if len(o.Project) == 0 {
		return rec
	}
	p := make(map[string]any, len(o.Project))
	for _, name := range o.Project {
		if v, ok := rec[name]; ok {
			p[name] = v
		}
	}
	return p
}

// request is a read step without a verdict yet.
func (s *seqRun) request(o *model.Operation, path map[string]string, q url.Values) (*Result, any) {
	return s.step(o, opName(o), ExpectSuccess, call{path: path, query: q})
}

// modify replaces (only nil) or updates (only the named fields) the
// record, and checks the answer and the read after.
func (s *seqRun) modify(c *model.Collection, o *model.Operation, id string, cur map[string]any, only []string) (map[string]any, bool) {
	fixed := map[string]any{}
	if jb, _ := s.bodyOf(o); jb != nil {
		for _, name := range jb.Fields {
			// The record's key in the body (Vikunja's Label with its id)
			// is the one the path names: another would ask the backend
			// to choose between them.
			if f := c.Field(name); f != nil && (f == c.ID || f.Refers != nil || f.Owner) && !slices.Contains(only, name) {
				if v, ok := cur[name]; ok {
					fixed[name] = v
				}
			}
		}
	}
	for k, v := range s.force {
		fixed[k] = v
	}
	var res *Result
	var rec, want map[string]any
	var set map[string]bool
	for try := 1; ; try++ {
		body, w, st, err := s.genBody(o, fixed, only, cur)
		if err != nil {
			if only == nil {
				s.note("%v", err)
			}
			return nil, false
		}
		if only == nil {
			body, w, st = s.awayFromDefaults(c, o, body, w, st)
		}
		if only != nil && len(w) > 0 {
			// PATCH: what FastAPI read of the one field must differ.
			if jsonEqual(w[only[0]], cur[only[0]]) {
				return nil, false
			}
		}
		s.tick(c, cur)
		kind := "replaced (PUT)"
		if only != nil {
			kind = fmt.Sprintf("updated (PATCH, only %s sent)", only[0])
			if v, ok := s.force[only[0]]; ok {
				kind = fmt.Sprintf("updated (PATCH, only %s sent, the falsy %s)", only[0], quoteAny(v))
			}
		}
		name := fmt.Sprintf("%s: the record is %s; the change shows, other fields kept, updated_at moved", opName(o), kind)
		if try > 1 {
			name += fmt.Sprintf(" (body %d)", try)
		}
		r, v := s.step(o, name, ExpectSuccess, call{path: map[string]string{o.IDParam: pathKey(cur, o.IDParam, id)}, json: body})
		res, want, set = r, w, st
		rec, _ = v.(map[string]any)
		taken := s.r.takenValue(r) != ""
		if r.Response.Status < 500 && !taken || try == createTries {
			break
		}
		if taken {
			// As for a create: a value another record holds that must
			// be unique; another body has another.
			continue
		}
		// As for a create: the server error is a failure, and another
		// body may still show whether the change is kept.
		s.verdict(r, checkStatefulUpdate, expectStatus(r, o.Status, "the declared status of "+opName(o)))
	}
	if taken := s.r.takenValue(res); taken != "" {
		s.note("%s answered %d to %d bodies repeating the %s of another record: the change was not checked", opName(o), res.Response.Status, createTries, taken)
		return nil, false
	}
	bad := expectStatus(res, o.Status, "the declared status of "+opName(o))
	if bad == nil && rec == nil {
		bad = fail("the changed record", "%s", statusText(&res.Response))
	}
	if bad == nil {
		bad = s.compareChange(c, o, cur, rec, want, set, only)
	}
	s.verdict(res, checkStatefulUpdate, bad)
	if rec == nil || res.Response.Status/100 != 2 {
		return nil, false
	}
	if read := s.find(c, model.ReadOne); read != nil {
		res, v := s.step(read, fmt.Sprintf("%s → %s: read back equals the %s answer", opName(o), opName(read), o.Method), ExpectSuccess, call{path: map[string]string{read.IDParam: pathKey(rec, read.IDParam, id)}})
		bad := expectStatus(res, read.Status, "the record just changed")
		got, answered, view := asRead(v, rec, o, read)
		if bad == nil && !reflect.DeepEqual(got, answered) {
			bad = fail("the "+o.Method+" answer", "%s", firstDifference(got, answered, ""))
		}
		s.verdict(res, checkStatefulUpdate, bad)
		if m, ok := v.(map[string]any); ok && bad == nil && view {
			rec = m // the next change and the lists see the record as it is read
		}
	}
	return rec, true
}

// awayFromDefaults changes, in a replace's body, each field that holds
// the default the create gives it (a boolean, an enum member) to another
// value the body's model accepts: an update that resets the fields it was
// not sent to their defaults then shows. The body stays when no such
// change is accepted.
func (s *seqRun) awayFromDefaults(c *model.Collection, o *model.Operation, body []byte, want map[string]any, set map[string]bool) ([]byte, map[string]any, map[string]bool) {
	jb, _ := s.bodyOf(o)
	_, cs := s.bodyOf(s.createOp(c))
	if jb == nil || cs == nil {
		return body, want, set
	}
	var m map[string]any
	if json.Unmarshal(body, &m) != nil {
		return body, want, set
	}
	changed := false
	for _, name := range sortedKeys(m) {
		p := cs.Properties[name]
		if p == nil || p.Value == nil || p.Value.Default == nil || !jsonEqual(m[name], p.Value.Default) {
			continue
		}
		switch d := p.Value.Default.(type) {
		case bool:
			m[name], changed = !d, true
		default:
			for _, e := range p.Value.Enum {
				if !jsonEqual(e, d) {
					m[name], changed = e, true
					break
				}
			}
		}
	}
	if !changed {
		return body, want, set
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return body, want, set
	}
	w, st, items := jb.read(raw)
	if items != nil {
		return body, want, set
	}
	return raw, w, st
}

// tick waits, for a target whose clock writes whole seconds (no fraction
// in updated_at), until the next second: updated_at must then move.
func (s *seqRun) tick(c *model.Collection, cur map[string]any) {
	for _, f := range c.Fields {
		if v, _ := cur[f.Name].(string); f.Stamp == "updated" && v != "" && !strings.Contains(v, ".") {
			if wait := time.Until(s.lastWrite.Add(1100 * time.Millisecond)); wait > 0 {
				select {
				case <-time.After(wait):
				case <-s.ctx.Done():
				}
			}
			return
		}
	}
}

// serverTime reports whether f is a time the server computes, one the
// contract marks readOnly and date-time but not the record's creation
// (gotify's expiresAt, lastUsed): it may move with any change, as an
// update's time does.
func serverTime(f *model.Field) bool {
	return f != nil && f.Schema != nil && f.Schema.ReadOnly && f.Format == "date-time" && f.Stamp != "created"
}

// shownOnce reports whether the field name, which the answer after leaves
// out, is a credential the record was answered with once (a token only
// its create shows): an optional field whose name marks a credential.
func shownOnce(name string, f *model.Field, after map[string]any) bool {
	_, present := after[name]
	return !present && model.SecretName(name) && (f == nil || !f.Required)
}

// unlistedSecrets is shown, the record as read or created, without the
// optional fields whose name marks a credential (model.SecretName) that
// the list item got leaves out: a token a create answers once (gotify's
// client token) is no list's to show again.
func unlistedSecrets(got, shown any, c *model.Collection) any {
	g, ok := got.(map[string]any)
	sh, ok2 := shown.(map[string]any)
	if !ok || !ok2 {
		return shown
	}
	var out map[string]any
	for k := range sh {
		if _, listed := g[k]; listed || !model.SecretName(k) {
			continue
		}
		if f := c.Field(k); f != nil && f.Required {
			continue
		}
		if out == nil {
			out = maps.Clone(sh)
		}
		delete(out, k)
	}
	if out == nil {
		return shown
	}
	return out
}

// compareChange: the fields sent (for PUT, every body field, defaults
// included) have the values FastAPI read; every other field is as before,
// but updated_at, which moved forward. A change o answers in a schema of
// its own (model.Operation.View) is held to the members it declares.
func (s *seqRun) compareChange(c *model.Collection, o *model.Operation, before, after, want map[string]any, set map[string]bool, only []string) *verdict {
	key := o.IDParam
	changed := map[string]bool{}
	for name := range want {
		if only == nil || set[name] {
			changed[name] = true
		}
	}
	if v := sentFieldsKept(after, want, set, c, sortedKeys(changed)); v != nil {
		return v
	}
	// A record addressed by a key of its own (/posts/{slug}) may get a
	// new one from what a replace sent (the slug of the new title): it
	// moved, and the read after follows it.
	movable := ""
	if key != "id" && only == nil {
		if _, sent := want[key]; !sent {
			movable = key
		}
	}
	for _, name := range sortedKeys(before) {
		f := c.Field(name)
		if changed[name] || (f != nil && f.Stamp == "updated") || name == movable || !viewShows(o, name) || serverTime(f) || shownOnce(name, f, after) {
			continue
		}
		if f != nil && f.Embed != nil && f.Join != nil && changed[f.Join.Name] {
			continue
		}
		if !reflect.DeepEqual(before[name], after[name]) {
			return fail(fmt.Sprintf("%s kept (%s, not sent)", name, quoteAny(before[name])), "%s", quoteAny(after[name]))
		}
	}
	for _, f := range c.Fields {
		if f.Stamp != "updated" || !viewShows(o, f.Name) {
			continue
		}
		old, _ := before[f.Name].(string)
		now, _ := after[f.Name].(string)
		if now == "" {
			return fail(f.Name+" set by the change", "%s", quoteAny(after[f.Name]))
		}
		tn, err := parseTime(now)
		if err != nil {
			return fail(f.Name+" a date-time", "%s", quoteAny(now))
		}
		if old == "" {
			continue
		}
		to, err := parseTime(old)
		if err != nil {
			continue
		}
		if !tn.After(to) {
			return fail(fmt.Sprintf("%s later than before the change (%s)", f.Name, old), "%s", now)
		}
	}
	return nil
}

// remove deletes the record and checks it is gone.
func (s *seqRun) remove(c *model.Collection, o *model.Operation, id string, cur map[string]any) {
	if !s.enabled[checkStatefulDelete] {
		return
	}
	res, _ := s.step(o, fmt.Sprintf("%s: the record is deleted (%d, no body)", opName(o), o.Status), ExpectSuccess, call{path: map[string]string{o.IDParam: pathKey(cur, o.IDParam, id)}})
	bad := expectStatus(res, o.Status, "the declared status of "+opName(o))
	if bad == nil && o.Status == http.StatusNoContent && len(res.Response.Body) > 0 {
		bad = fail("no body with a 204", "%s", snippet(res.Response.Body))
	}
	s.verdict(res, checkStatefulDelete, bad)
	gone := res.Response.Status/100 == 2
	if read := s.find(c, model.ReadOne); read != nil {
		res, _ := s.step(read, fmt.Sprintf("%s → %s: the deleted record is not found", opName(o), opName(read)), ExpectNotFound, call{path: map[string]string{read.IDParam: pathKey(cur, read.IDParam, id)}})
		s.verdict(res, checkStatefulDelete, expectStatus(res, http.StatusNotFound, "the record was deleted"))
		gone = res.Response.Status == http.StatusNotFound
	}
	if gone {
		// A record the target kept is deleted again at the end.
		s.forget(c, id)
	}
	s.inLists(c, cur, id, false, checkStatefulDelete)
}

func (s *seqRun) forget(c *model.Collection, id string) {
	s.cleanup = slices.DeleteFunc(s.cleanup, func(x created) bool { return x.coll == c && x.id == id })
	for p, pid := range s.parents {
		if p == c {
			if sid, _ := scalarQuery(pid); sid == id {
				delete(s.parents, p)
			}
		}
	}
}

// cleanUp deletes, newest first, every record the sequences created and
// did not delete; failures are notes.
func (s *seqRun) cleanUp() {
	ctx := context.WithoutCancel(s.ctx)
	for i := len(s.cleanup) - 1; i >= 0; i-- {
		x := s.cleanup[i]
		del := s.find(x.coll, model.Delete)
		if del == nil {
			continue
		}
		path := maps.Clone(x.under)
		if path == nil {
			path = map[string]string{}
		}
		path[del.IDParam] = x.id
		resp := s.r.send(ctx, s.plainRequest(del, path, nil))
		if resp.Status/100 != 2 && resp.Status != http.StatusNotFound {
			s.note("could not delete %s %s the sequences created: %s", x.coll, x.id, statusText(&resp))
		}
	}
	s.cleanup = nil
}

// ---- registration and login ---------------------------------------------

// registration: register a new account, log in with it, and the current
// user is that account. It returns the account, a throwaway the rest of
// the run may change and delete; nil when none was registered.
func (s *seqRun) registration() *account {
	login := s.findKind(model.Login)
	// Only an account anyone can register is a throwaway: one an admin's
	// create makes is registered and logged in as before, and left to the
	// run's cleanup.
	reg := registerOp(s.m)
	throwaway := reg != nil
	if reg == nil {
		reg = s.find(s.m.Login, model.Create)
	}
	if login == nil || reg == nil {
		if reg, login := s.accountOps(); reg != nil && login != nil {
			s.registerPlain(reg, login)
			return nil
		}
		s.loginCurrentUser()
		return nil
	}
	jb, schema := s.bodyOf(reg)
	if jb == nil {
		return nil
	}
	// Not from the seed: a run again against the same target must not
	// find its account taken.
	user := fmt.Sprintf("mm_%012x", rand.Uint64()&0xffffffffffff)
	pass := fmt.Sprintf("Mm-%016x", rand.Uint64())
	key := "username"
	if k := s.m.Login.UserKey; k != nil && k.Name != key {
		// Accounts named by their email: the login form's username is it.
		key, user = k.Name, user+"@example.com"
	}
	fixed := map[string]any{key: user}
	if schema.Properties["password"] != nil {
		fixed["password"] = pass
	}
	body, want, set, err := s.genBody(reg, fixed, nil, nil)
	if err != nil {
		s.note("registration: %v", err)
		return nil
	}
	if reg.BodyWrap != "" {
		body, want, set, user = freshAccount(body, reg.BodyWrap, user, pass, login.LoginBy)
	}
	res, v := s.step(reg, fmt.Sprintf("%s: a new account %q is registered", opName(reg), user), ExpectSuccess, call{json: body})
	acct, _ := v.(map[string]any)
	bad := expectStatus(res, reg.Status, "the declared status of "+opName(reg))
	if bad == nil {
		bad = sentFieldsKept(acct, want, set, s.m.Login, nil)
	}
	if bad == nil && acct != nil {
		if _, leaked := acct["password"]; leaked {
			bad = fail("no password in the answer", "password %s", quoteAny(acct["password"]))
		}
	}
	s.verdict(res, checkRegistrationLogin, bad)
	if res.Response.Status/100 != 2 {
		return nil
	}
	// A throwaway is the sequences' own: deleted as such, or named as
	// left behind.
	res.Case.ownCleanup = throwaway
	token := s.loginStep(login, user, pass, "the new account's credentials")
	if token == "" {
		if throwaway {
			s.note("the account %q %s registered stays: it could not log in to be deleted", user, opName(reg))
		}
		return nil
	}
	auth := s.r.cred.value(token)
	if me := s.findKind(model.CurrentUser); me != nil {
		res, v := s.step(me, fmt.Sprintf("%s → %s → %s: the current user is the new account", opName(reg), opName(login), opName(me)), ExpectSuccess, call{auth: &auth})
		bad := expectStatus(res, me.Status, "the token's user")
		if bad == nil && !reflect.DeepEqual(withoutToken(v), withoutToken(acct)) {
			// A token issued again (each answer of a JSON API's user
			// carries one) is no difference of the account.
			bad = fail("the registered account", "%s", firstDifference(withoutToken(v), withoutToken(acct), ""))
		}
		s.verdict(res, checkRegistrationLogin, bad)
	}
	s.registerTaken(reg, login, user, pass, fixed)
	if !throwaway {
		return nil
	}
	return &account{login: login, user: user, pass: pass, auth: auth, rec: acct}
}

// accountOps are a registration (a POST whose JSON body takes a username
// and a password) and a login form (username and password), read from the
// operations themselves: for a contract whose accounts are no collection
// (their schema has no id), so the model has no login collection.
func (s *seqRun) accountOps() (reg, login *model.Operation) {
	for _, o := range s.m.Operations {
		if o.Method != "POST" {
			continue
		}
		x := s.op(o)
		if x.inputs.Form && login == nil {
			names := map[string]bool{}
			for _, in := range x.inputs.List {
				if in.In == "body" {
					names[in.Name] = true
				}
			}
			if names["username"] && names["password"] {
				login = o
			}
			continue
		}
		if _, schema := s.bodyOf(o); schema != nil && reg == nil &&
			schema.Properties["username"] != nil && schema.Properties["password"] != nil {
			reg = o
		}
	}
	return reg, login
}

// registerPlain registers a new account, logs in with it, and registers
// its username again, for accounts the model has no collection of.
func (s *seqRun) registerPlain(reg, login *model.Operation) {
	user := fmt.Sprintf("mm_%012x", rand.Uint64()&0xffffffffffff)
	pass := fmt.Sprintf("Mm-%016x", rand.Uint64())
	fixed := map[string]any{"username": user, "password": pass}
	body, _, _, err := s.genBody(reg, fixed, nil, nil)
	if err != nil {
		s.note("registration: %v", err)
		return
	}
	res, v := s.step(reg, fmt.Sprintf("%s: a new account %q is registered", opName(reg), user), ExpectSuccess, call{json: body})
	bad := expectStatus(res, reg.Status, "the declared status of "+opName(reg))
	if acct, _ := v.(map[string]any); bad == nil && acct != nil && acct["username"] != nil && acct["username"] != user {
		bad = fail(fmt.Sprintf("username %q", user), "%s", quoteAny(acct["username"]))
	}
	s.verdict(res, checkRegistrationLogin, bad)
	if res.Response.Status/100 != 2 {
		return
	}
	if s.loginStep(login, user, pass, "the new account's credentials") == "" {
		return
	}
	s.registerTaken(reg, login, user, pass, fixed)
}

// registerTaken registers the account's username again, with another
// password: a username is what the login tells accounts apart by, so the
// second registration must be refused (4xx), and the first account must
// still log in with its own password.
func (s *seqRun) registerTaken(reg, login *model.Operation, user, pass string, fixed map[string]any) {
	again := map[string]any{}
	for k, v := range fixed {
		again[k] = v
	}
	if _, ok := again["password"]; ok {
		again["password"] = fmt.Sprintf("Mm-%016x", rand.Uint64())
	}
	body, _, _, err := s.genBody(reg, again, nil, nil)
	if err != nil {
		return
	}
	if reg.BodyWrap != "" {
		body, _, _, _ = freshAccount(body, reg.BodyWrap, user, fmt.Sprintf("Mm-%016x", rand.Uint64()), login.LoginBy)
	}
	res, _ := s.step(reg, fmt.Sprintf("%s: the username %q again is refused", opName(reg), user), ExpectAnswered, call{json: body})
	var bad *verdict
	if st := res.Response.Status; st/100 != 4 || st == http.StatusUnauthorized || st == http.StatusForbidden {
		bad = fail("a refusal (4xx): the username is taken", "%s", statusText(&res.Response))
	}
	s.verdict(res, checkRegistrationLogin, bad)
	if bad == nil {
		return
	}
	s.loginStep(login, user, pass, "the first account's credentials, after the second registration")
}

// loginStep logs in through the form and expects a token, with the status
// the login declares for its success (200, or the route's status_code).
func (s *seqRun) loginStep(login *model.Operation, user, pass, what string) string {
	return s.accountLogin(login, user, pass, what, checkRegistrationLogin)
}

// loginCurrentUser: without a registration, the configured account logs
// in and is the current user.
func (s *seqRun) loginCurrentUser() {
	login, me := s.findKind(model.Login), s.findKind(model.CurrentUser)
	if login == nil || me == nil || s.r.cfg.Username == "" {
		return
	}
	token := s.loginStep(login, s.r.cfg.Username, s.r.cfg.Password, "the given credentials")
	if token == "" {
		return
	}
	auth := s.r.cred.value(token)
	res, v := s.step(me, fmt.Sprintf("%s → %s: the current user is %q", opName(login), opName(me), s.r.cfg.Username), ExpectSuccess, call{auth: &auth})
	bad := expectStatus(res, me.Status, "the token's user")
	if m, _ := v.(map[string]any); bad == nil && m["username"] != s.r.cfg.Username {
		bad = fail(fmt.Sprintf("username %q", s.r.cfg.Username), "%s", quoteAny(m["username"]))
	}
	s.verdict(res, checkRegistrationLogin, bad)
}

// ---- paging and filters -------------------------------------------------

// pagingAndFilters: limit is honoured, consecutive pages join into the
// larger page, page objects count right, a filter filters.
func (s *seqRun) pagingAndFilters(o *model.Operation) {
	pg := o.Paging
	ids := func(items []any) []string {
		var out []string
		for _, it := range items {
			id, _, _ := recordID(it)
			out = append(out, id)
		}
		return out
	}
	get := func(name string, q url.Values) (*Result, any, []any, bool) {
		res, v := s.request(o, nil, q)
		res.Case.Name = name
		if bad := expectStatus(res, o.Status, "a list"); bad != nil || res.Response.Unchecked != "" {
			s.verdict(res, checkPagingFilters, bad) // none when not read (tooLarge)
			return res, v, nil, false
		}
		return res, v, itemsIn(o, v), true
	}
	switch {
	case pg.Limit != "":
		const n = 2
		q := func(skip, limit int) url.Values {
			v := url.Values{pg.Limit: {strconv.Itoa(limit)}}
			if pg.Skip != "" {
				v.Set(pg.Skip, strconv.Itoa(skip))
			}
			return v
		}
		res, _, a, ok := get(fmt.Sprintf("%s?%s=%d: at most %d items", opName(o), pg.Limit, n, n), q(0, n))
		if !ok {
			return
		}
		if len(a) > n {
			s.verdict(res, checkPagingFilters, fail(fmt.Sprintf("at most %d items", n), "%d items", len(a)))
			return
		}
		s.verdict(res, checkPagingFilters, nil)
		if pg.Skip == "" {
			break
		}
		_, _, b, ok := get(fmt.Sprintf("%s?%s=%d&%s=%d: the second page", opName(o), pg.Skip, n, pg.Limit, n), q(n, n))
		if !ok {
			return
		}
		res, _, all, ok := get("", q(0, 2*n))
		if !ok {
			return
		}
		res.Case.Name = fmt.Sprintf("%s: %s=0&%s=%d, then %s=%d, join into %s=%d", opName(o), pg.Skip, pg.Limit, n, pg.Skip, n, pg.Limit, 2*n)
		joined := append(ids(a), ids(b)...)
		if got := ids(all); !slices.Equal(got, joined) {
			s.verdict(res, checkPagingFilters, fail(fmt.Sprintf("ids %v (page 2 starts where page 1 ended)", joined), "ids %v", got))
		} else {
			s.verdict(res, checkPagingFilters, nil)
		}
	case pg.Page != "" && pg.Size != "":
		const n = 2
		q := func(page, size int) url.Values {
			return url.Values{pg.Page: {strconv.Itoa(page)}, pg.Size: {strconv.Itoa(size)}}
		}
		var bodies []map[string]any
		var pages [][]any
		var results []*Result
		first := firstPage(o)
		for _, p := range [][2]int{{first, n}, {first + 1, n}, {first, 2 * n}} {
			res, v, items, ok := get(fmt.Sprintf("%s?%s=%d&%s=%d: a consistent page", opName(o), pg.Page, p[0], pg.Size, p[1]), q(p[0], p[1]))
			if !ok {
				return
			}
			m, isPage := v.(map[string]any)
			var bad *verdict
			switch {
			case isPage:
				bad = pageConsistent(m, first, p[0], p[1], len(items))
			case len(items) > p[1]:
				// a bare list (its total in headers, or nowhere): only
				// the size is the document's to check
				bad = fail(fmt.Sprintf("at most %d items", p[1]), "%d items", len(items))
			}
			s.verdict(res, checkPagingFilters, bad)
			bodies, pages, results = append(bodies, m), append(pages, items), append(results, res)
		}
		res := results[2]
		joined := append(ids(pages[0]), ids(pages[1])...)
		if got := ids(pages[2]); !slices.Equal(got, joined) {
			s.verdict(res, checkPagingFilters, fail(fmt.Sprintf("ids %v (page 2 starts where page 1 ended)", joined), "ids %v", got))
		} else if bodies[0]["total"] != bodies[2]["total"] {
			s.verdict(res, checkPagingFilters, fail(fmt.Sprintf("total %v on every page", bodies[0]["total"]), "%v", bodies[2]["total"]))
		}
	}
	// Filters: a value a listed record has; every item of the filtered
	// list has it.
	q := url.Values{}
	if pg.Limit != "" {
		q.Set(pg.Limit, strconv.Itoa(pageLimit(o, pg.Limit)))
	}
	if pg.Size != "" {
		q.Set(pg.Size, strconv.Itoa(pageLimit(o, pg.Size)))
	}
	resp := s.r.send(s.ctx, s.plainRequest(o, nil, q))
	if s.tooLarge(o, resp.Body) {
		return
	}
	var v any
	json.Unmarshal(resp.Body, &v)
	all := itemsIn(o, v)
	for _, f := range o.Filters {
		var val string
		found := false
		for _, it := range all {
			m, _ := it.(map[string]any)
			if x, ok := scalarQuery(m[f]); ok {
				val, found = x, true
				break
			}
		}
		if !found || !s.queryAccepts(o, f, val) {
			continue
		}
		fq := url.Values{f: {val}}
		for k, x := range q {
			fq[k] = x
		}
		res, _, items, ok := get(fmt.Sprintf("%s?%s=%s: every item has %s %s", opName(o), f, val, f, val), fq)
		if !ok {
			continue
		}
		var bad *verdict
		if len(items) == 0 {
			bad = fail(fmt.Sprintf("the listed records with %s=%s", f, val), "an empty list")
		}
		for _, it := range items {
			m, _ := it.(map[string]any)
			if x, _ := scalarQuery(m[f]); x != val {
				bad = fail(fmt.Sprintf("only items with %s=%s", f, val), "item %s has %s %s", quoteAny(m["id"]), f, quoteAny(m[f]))
				break
			}
		}
		s.verdict(res, checkPagingFilters, bad)
	}
}

// pageConsistent checks a page object: page and size as asked, pages from
// total and size, and as many items as the page holds.
func pageConsistent(m map[string]any, first, page, size, n int) *verdict {
	num := func(k string) (int, bool) {
		f, ok := m[k].(float64)
		return int(f), ok && f == math.Trunc(f)
	}
	total, ok := num("total")
	if !ok {
		return fail("a page with a total", "%s", quoteAny(m))
	}
	if p, ok := num("page"); ok && p != page {
		return fail(fmt.Sprintf("page %d", page), "page %d", p)
	}
	if sz, ok := num("size"); ok && sz != size {
		return fail(fmt.Sprintf("size %d", size), "size %d", sz)
	}
	if ps, ok := num("pages"); ok {
		if want := (total + size - 1) / size; ps != want {
			return fail(fmt.Sprintf("pages %d (total %d, size %d)", want, total, size), "pages %d", ps)
		}
	}
	if want := min(size, max(0, total-(page-first)*size)); n != want {
		return fail(fmt.Sprintf("%d items (total %d, page %d, size %d)", want, total, page, size), "%d items", n)
	}
	return nil
}

// rekey is the key of a record keyed by a field of its own after a change
// (a replace may give an article the slug of its new title): the records
// to delete at the end, and a parent kept for others, follow it. A record
// with an id keeps its id.
func (s *seqRun) rekey(c *model.Collection, id string, next map[string]any) string {
	if _, _, hasID := recordID(next); hasID {
		return id
	}
	k, ok := keyOfColl(next, c)
	if !ok || k == id {
		return id
	}
	for i := range s.cleanup {
		if s.cleanup[i].coll == c && s.cleanup[i].id == id {
			s.cleanup[i].id = k
		}
	}
	if pid, ok := s.parents[c]; ok && fmt.Sprint(pid) == id {
		s.parents[c] = k
	}
	return k
}
