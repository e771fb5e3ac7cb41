package model

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/spec"
)

// Kind is the convention an operation is answered by.
type Kind uint8

// The conventions, FastAPI's usual CRUD shapes.
const (
	Example      Kind = iota // no convention: the declared example, else a generated body
	ReadOne                  // GET /things/{thing_id}
	List                     // GET /things
	NestedList               // GET /parents/{parent_id}/things
	Create                   // POST /things, JSON body
	NestedCreate             // POST /parents/{parent_id}/things
	Replace                  // PUT /things/{thing_id}
	Update                   // PATCH /things/{thing_id}
	Delete                   // DELETE /things/{thing_id}
	Login                    // the OAuth2 password form; Coll is the login collection, nil when the contract has none
	CurrentUser              // GET /users/me: the token's user
	Action                   // POST /things/{thing_id}/verb answering that thing
)

// The conventions on shapes beyond FastAPI's CRUD.
const (
	UpdateMe       Kind = Action + 1 + iota // PUT or PATCH /users/me: the token's user changed
	DeleteMe                                // DELETE /users/me: the token's user removed
	ChangePassword                          // PATCH /users/me/password {current_password, new_password}
	Values                                  // GET /tags {"tags": […]}: the values of a collection's array field (tagList)
)

var kindNames = [...]string{"example", "read", "list", "nested list", "create", "nested create", "replace", "update", "delete", "login", "current user", "action", "update me", "delete me", "change password", "values"}

func (k Kind) String() string { return kindNames[k] }

// Me reports whether k works on the token's own user (its read, update,
// deletion or password change), which no other user can stand for.
func (k Kind) Me() bool {
	return k == CurrentUser || k == UpdateMe || k == DeleteMe || k == ChangePassword
}

// Operation is one operation of the contract and how it is answered.
type Operation struct {
	Method, Path string
	ID           string // operationId; "" when the document gives none
	Op           *openapi3.Operation
	Item         *openapi3.PathItem
	Kind         Kind
	// Secured: the operation declares an OAuth2 (or HTTP bearer) security
	// requirement, so FastAPI's OAuth2PasswordBearer answers 401 first.
	Secured bool
	// Guarded: the operation declares a security requirement of any scheme
	// (an API key as well), none of its alternatives optional or naming
	// only schemes the document does not define.
	Guarded bool
	// Basic: the operation declares an HTTP basic requirement, so FastAPI's
	// HTTPBasic answers 401 with WWW-Authenticate: Basic first unless the
	// request carries credentials.
	Basic bool

	Status   int                 // the declared success status: the lowest 2xx
	Response *openapi3.SchemaRef // its application/json schema; nil: no body
	// StatusKey is the key of Op.Responses that declares the success
	// answer: Status itself ("201"), else the range holding it ("2XX"),
	// else "default" (an operation declaring no success status of its
	// own, answered 200); "" when it declares none of them.
	StatusKey string
	// Media is the media type the success response is answered in:
	// application/json when it declares that, else the first it declares
	// in the order written (text/html, image/png, text/event-stream); ""
	// when it declares no content.
	Media string
	// MediaSchema is Media's schema, Items its itemSchema (a streamed
	// response: text/event-stream, application/jsonl); nil when none.
	MediaSchema, Items *openapi3.SchemaRef
	Shape              Shape // how Response carries records
	// Envelope is the member of the response object that holds the record
	// ({"article": {…}}) or the list's records ({"data": […], "count": n},
	// a page's "items"); "" when the record or the array is the body.
	Envelope string
	// BodyWrap is the member of the JSON request body that holds the
	// record's fields (POST /articles {"article": {…}}); "" when the body
	// is the record.
	BodyWrap string
	// LoginBy is, for a Login taking a JSON body (POST /users/login
	// {"user": {"email", "password"}}), the body member naming the account
	// (email or username); "" for the OAuth2 form.
	LoginBy string
	// TokenOnly: a JSON login answering a token alone ({"token": …}), not
	// the account's record.
	TokenOnly bool
	// Ancestors are the records the path names on the way to the one the
	// operation is on (GET /projects/{id}/views/{view}/buckets: the
	// project), each a prefix of the path that reads a collection, but
	// the IDParam's and the ParentParam's: a key none has is a 404, as a
	// backend looking each up answers. Only outside FastAPI documents.
	Ancestors []Ancestor
	// Scoped: a nested list or create whose parent the records do not name
	// in a field of theirs (/articles/{slug}/comments answering Comments
	// with no slug): the store keeps each record's parent beside it.
	Scoped bool
	// ParentField is, for a Scoped operation, the field of the records
	// holding their parent's key by name (a Webhook's project_id under
	// /projects/{id}/webhooks): a create sets it to the parent's. Nil
	// where the records have none.
	ParentField *Field
	// Project is, for a list whose items the document writes inline as a
	// part of a collection's fields (articles without their body), those
	// fields in the record's order: each record is served as them. nil
	// when the items are the collection's schema.
	Project []string
	// View is, for an operation answering Coll's records in a schema of
	// its own (see viewsOf: a create answering PetCreate where the record
	// path reads PetRead), that schema's members in its order: each
	// record is served as them. nil when it answers Coll's schema.
	View []ViewMember
	// Link is, for an operation answering Coll's records in a view that
	// links to each (see findLinkViews: a summary {name, url} without
	// the id), where the links point; nil for others.
	Link *Link
	// ValuesOf is, for Values, the array field whose values it lists.
	ValuesOf *Field
	// Passwords are, for ChangePassword, the body members holding the
	// current and the new password.
	Passwords [2]string

	Coll *Collection // the collection it reads or writes
	// IDParam is the path parameter holding the record's id (read one,
	// replace, update, delete).
	IDParam string
	// ParentParam is the path parameter of a nested list or create, which is
	// also the name of Coll's field it fills or filters (movie_id); Parent
	// is the collection it refers to, if the contract has one.
	ParentParam string
	Parent      *Collection
	Filters     []string // query parameters naming a field of Coll: equality filters
	Paging      Paging
	// Loose are the query parameters that filter by a field they do not
	// name exactly (?tag= on tagList, ?author= on an embedded author).
	Loose []Loose
	// ByActor are the query parameters naming a flag an action sets per
	// user (?favorited=jake): the records that account set it on.
	ByActor []Loose
	// Example is the declared example of the success response, compact, or
	// nil.
	Example []byte
	// Why says why an Example operation fits no convention.
	Why string
	// SecretPath names the path parameters whose value is a credential
	// (SecretPathParams): /reset-password/{token}.
	SecretPath []string

	// Inputs are what the operation validates, compiled once: as
	// FastAPI's (fastapi.CompileInputs) for a FastAPI document or a strict
	// model, else with what cannot be enforced degraded
	// (fastapi.CompileInputsLax). The mock, the runner and the scenarios
	// read them.
	Inputs fastapi.Inputs
	// InputsErr: the inputs could not be compiled (a FastAPI document's
	// construct the mock cannot validate as FastAPI would, or any under
	// Strict); Inputs holds what was compiled before the error (the
	// parameters before a body, say), and the mock answers the operation
	// from its example.
	InputsErr error
	// Degraded lists, once each, what of the operation is not enforced as
	// declared: "WHERE: WHAT is not enforced (WHY)", WHERE a component
	// schema's field (Pet.id), a parameter or the request body.
	Degraded []string
}

// compileInputs compiles o's inputs once, as m's framework and
// strictness say.
func (m *Model) compileInputs(o *Operation) {
	if m.Strict || m.Framework == framework.FastAPI {
		// A document not FastAPI's has every JSON body validated, strict
		// or not: FastAPI's rule (only where it declares a 422) is its own.
		o.Inputs, o.InputsErr = fastapi.CompileInputsFor(m.Spec, o.Op, o.Item, m.Framework != framework.FastAPI)
	} else {
		var notes fastapi.Degradations
		o.Inputs, notes, o.InputsErr = fastapi.CompileInputsLax(m.Spec, o.Op, o.Item)
		o.Degraded = notes
	}
	if o.InputsErr != nil {
		o.Degraded = append(o.Degraded, fmt.Sprintf("its inputs are not enforced (%v): answered from its example", o.InputsErr))
	}
}

// RedactPath is path, a request's path this operation matched, as the
// journal and the reports show it: the value of every secret path
// parameter (SecretPath) Redacted (see the function RedactPath).
func (o *Operation) RedactPath(path string) string {
	if len(o.SecretPath) == 0 {
		return path
	}
	return RedactPath(o.Path, path, func(name string) bool { return slices.Contains(o.SecretPath, name) })
}

// Paging names the query parameters a list pages by.
type Paging struct {
	Skip  string // skip or offset: 0-based
	Limit string // limit
	Page  string // page, with Size: counted from FirstPage
	Size  string // size, page_size or per_page
	// FirstPage is the number of the first page: 0 where the page
	// parameter allows 0 (fastapi-pagination's zero-based Params, page:
	// int = Query(0, ge=0)), else 1.
	FirstPage int64
}

func (o *Operation) String() string { return o.Method + " " + o.Path }

// SuccessStatus is the status an operation answers when it succeeds: the
// lowest 2xx it declares (a route's status_code=201), else its redirect
// (see redirectStatus), else 200.
func SuccessStatus(op *openapi3.Operation) int {
	status, _ := successResponse(op)
	return status
}

// successResponse is the lowest 2xx status an operation declares (else
// its redirect, see redirectStatus) and its JSON schema. An operation
// that declares neither, but a 2XX range or a default response, answers
// 200 with that response's.
func successResponse(op *openapi3.Operation) (int, *openapi3.SchemaRef) {
	best := 0
	var schema *openapi3.SchemaRef
	if op.Responses == nil {
		return 200, nil
	}
	for code, resp := range op.Responses.Map() {
		n, err := strconv.Atoi(code)
		if err != nil || n < 200 || n > 299 || (best != 0 && n > best) {
			continue
		}
		best, schema = n, jsonSchema(resp)
	}
	if best == 0 {
		best = redirectStatus(op)
		if key := successKey(op, best); key == "2XX" || key == "default" {
			schema = jsonSchema(op.Responses.Value(key))
		}
	}
	return best, schema
}

// jsonSchema is the application/json schema of resp, or nil.
func jsonSchema(resp *openapi3.ResponseRef) *openapi3.SchemaRef {
	if resp == nil || resp.Value == nil {
		return nil
	}
	if mt := resp.Value.Content.Get("application/json"); mt != nil {
		return mt.Schema
	}
	return nil
}

// successKey is the key of op's responses that declares its answer with
// the success status (successResponse's): the status, else its range
// ("2XX"), else, for 200, "default". "" when none does.
func successKey(op *openapi3.Operation, status int) string {
	if op.Responses == nil {
		return ""
	}
	key := strconv.Itoa(status)
	if op.Responses.Value(key) != nil {
		return key
	}
	if r := key[:1] + "XX"; op.Responses.Value(r) != nil {
		return r
	}
	if status == 200 && op.Responses.Default() != nil {
		return "default" // no 2xx of its own: successResponse chose 200
	}
	return ""
}

// redirectStatus is the lowest 3xx an operation without a 2xx declares
// (FastAPI's response_class=RedirectResponse: 307, or the route's
// status_code), else 200.
func redirectStatus(op *openapi3.Operation) int {
	best := 0
	for code := range op.Responses.Map() {
		if n, err := strconv.Atoi(code); err == nil && n >= 300 && n <= 399 && (best == 0 || n < best) {
			best = n
		}
	}
	if best == 0 {
		return 200
	}
	return best
}

// successMedia is the media type the success response (declared under
// key) is answered in, and its schema and item schema.
func successMedia(sp *spec.Spec, path, method string, op *openapi3.Operation, key string) (string, *openapi3.SchemaRef, *openapi3.SchemaRef) {
	if op.Responses == nil || key == "" {
		return "", nil, nil
	}
	resp := op.Responses.Value(key)
	if resp == nil || resp.Value == nil || len(resp.Value.Content) == 0 {
		return "", nil, nil
	}
	content := resp.Value.Content
	media := ""
	if mt := content.Get("application/json"); mt != nil {
		// Get matches application/* and */* too: the media type is the
		// key it matched, as declared.
		media = ContentKey(content, mt)
	} else if order := sp.KeyOrder("paths", path, strings.ToLower(method), "responses", key, "content"); len(order) > 0 && content[order[0]] != nil {
		media = order[0]
	} else {
		for mt := range content {
			if media == "" || mt < media {
				media = mt
			}
		}
	}
	mt := content[media]
	if mt == nil {
		return media, nil, nil
	}
	return media, mt.Schema, mt.ItemSchema
}

// ContentKey is the media type content declares mt under: the key that
// content.Get matched, which may be a range (application/*, */*) or carry
// parameters. Indexing content by the name asked of Get instead finds
// nothing when Get matched a range.
func ContentKey(content openapi3.Content, mt *openapi3.MediaType) string {
	if content["application/json"] == mt {
		return "application/json"
	}
	var key string
	for k, v := range content {
		if v == mt && (key == "" || k < key) {
			key = k
		}
	}
	return key
}

// classify places every operation of the document under a convention.
func (m *Model) classify() error {
	doc := m.Spec.Doc
	for _, path := range m.Spec.Paths() {
		item := doc.Paths.Value(path)
		for _, method := range methods {
			op := item.GetOperation(method)
			if op == nil {
				continue
			}
			o := &Operation{Method: method, Path: path, ID: op.OperationID, Op: op, Item: item, Secured: securedBy(doc, op), Basic: BasicAuth(doc, op)}
			o.Status, o.Response = successResponse(op)
			o.StatusKey = successKey(op, o.Status)
			o.Media, o.MediaSchema, o.Items = successMedia(m.Spec, path, method, op, o.StatusKey)
			o.Example = declaredExample(m.Spec, path, method, o.StatusKey, o.Media, o.MediaSchema)
			o.SecretPath = SecretPathParams(item, op)
			m.compileInputs(o)
			o.Guarded = declaresSecurity(doc, op)
			m.place(o)
			if o.Link != nil && o.Coll == nil {
				// answering a link view by no convention: its
				// example or its schema, links and all
				o.View, o.Link = nil, nil
			}
			if o.Kind != Example && m.Framework != framework.FastAPI {
				o.Ancestors = m.ancestors(o)
			}
			m.Operations = append(m.Operations, o)
		}
	}
	return nil
}

// params lists an operation's parameters of one location, path item's and
// operation's together.
func params(o *Operation, in string) []*openapi3.Parameter {
	var out []*openapi3.Parameter
	for _, list := range []openapi3.Parameters{o.Item.Parameters, o.Op.Parameters} {
		for _, p := range list {
			if p.Value != nil && p.Value.In == in {
				out = slices.DeleteFunc(out, func(q *openapi3.Parameter) bool { return q.Name == p.Value.Name })
				out = append(out, p.Value)
			}
		}
	}
	return out
}

// segments splits a path template; lastParam is the final segment's
// parameter name when the path ends in one.
func segments(path string) (segs []string, lastParam string) {
	segs = strings.Split(strings.Trim(path, "/"), "/")
	if last := segs[len(segs)-1]; strings.HasPrefix(last, "{") && strings.HasSuffix(last, "}") {
		lastParam = last[1 : len(last)-1]
	}
	return segs, lastParam
}

// place decides o's convention, leaving it Example (with a reason) when
// none fits.
func (m *Model) place(o *Operation) {
	_, last := segments(o.Path)
	pathParams := params(o, "path")
	name, shape, member := recordsOf(o.Response, m.projectionOf)
	coll := m.byName[name]
	if coll == nil && name != "" {
		coll = m.placeLinkView(o, name)
	}
	o.Shape, o.Envelope = shape, member
	if coll != nil && (shape == ArrayShape || shape == PageShape) {
		o.Project = m.projection(o.Response, member, coll)
	}
	if v := m.views[name]; v != nil && coll != nil {
		if n, _, _ := recordsOf(o.Response, nil); n == name {
			// the view's own schema, not inline items projectionOf
			// found it holds
			o.View = viewMembers(m.Spec, v, coll)
		}
	}
	jsonBody := bodySchema(o.Op, "application/json")
	if inner, wrap := bodyEnvelope(jsonBody); wrap != "" {
		jsonBody, o.BodyWrap = inner, wrap
	} else if inner, wrap := namedEnvelope(jsonBody); wrap != "" && wrap == o.Envelope && shape == OneShape && m.Framework != framework.FastAPI {
		// a named wrapper ({"note": NewNote} as NoteBody) in the member
		// the answer wraps the record in too
		jsonBody, o.BodyWrap = inner, wrap
	}
	secured := o.Secured || (m.Framework != framework.FastAPI && o.Guarded)
	if m.Login != nil && secured && len(pathParams) == 0 {
		if o.placeMe(m, coll, shape, jsonBody) {
			return
		}
	}
	form := bodySchema(o.Op, "application/x-www-form-urlencoded")
	if form == nil {
		form = bodySchema(o.Op, "multipart/form-data")
	}
	// A form's fields are a record's as a JSON body's members are: a
	// create or an update taking only a form (Stripe's, Twilio's, a
	// FastAPI endpoint of Form() fields) stores what it sends.
	recBody := jsonBody
	if recBody == nil && form != nil && form.Value != nil && len(form.Value.Properties) > 0 {
		recBody = form
	}
	switch m.conventionMethod(o, coll, shape, last) {
	case "POST":
		if form != nil && form.Value != nil && form.Value.Properties["username"] != nil && form.Value.Properties["password"] != nil &&
			(m.Framework == framework.FastAPI || jsonBody == nil || loginPath(o.Path)) {
			// Outside FastAPI documents, a body that is a form of a
			// username and a password and also JSON (petstore's POST
			// /user: JSON, XML or a form of a User) registers an account;
			// a login is a form alone, or on a login path.
			// Without a schema with a username (the login collection) the
			// accounts are not the contract's to say: Coll is nil and the
			// mock's configured accounts log in.
			o.Kind, o.Coll = Login, m.Login
			return
		}
		if by := jsonLogin(jsonBody); by != "" && m.Framework != framework.FastAPI && loginPath(o.Path) && m.Login != nil && len(pathParams) == 0 && m.Login.Field(by) != nil &&
			(coll == m.Login && shape == OneShape || coll == nil && tokenAnswer(o.Response)) {
			// A login answering the account ({"user": {…, "token"}}), or
			// only a token ({"token": …}, {"access_token", "expires_in"}).
			o.Kind, o.Coll, o.LoginBy, o.TokenOnly = Login, m.Login, by, coll == nil
			return
		}
		if coll != nil && shape == OneShape && jsonBody == nil && o.actionOn(m, coll, pathParams, last) {
			return
		}
		if coll == nil && o.Response == nil && o.Media == "" && recBody != nil && m.Framework != framework.FastAPI && last == "" {
			// A create answering no body (201 with a Location, as
			// Spring, Harbor and petstore 2.0's POST /pets do): of the
			// records the same path lists. Not one answering a body of
			// another media type (SmallRye's text/plain key of POST
			// /api/user/apikey): no record is that answer.
			if l := m.listAt(o.Path); l != nil {
				coll, shape = l, OneShape
			}
		}
		if coll == nil || shape != OneShape || recBody == nil {
			o.Why = "not a create: answers no record of a collection, or takes no body of its fields"
			return
		}
		o.Coll = coll
		if len(pathParams) == 0 {
			o.Kind = Create
			return
		}
		// A path parameter before a literal segment that is the records'
		// own id (POST /pets/{id}/categories answering a Category) names
		// no field of theirs: it is the parent's key, or the record an
		// action is on.
		own := coll.ownKey(pathParams[len(pathParams)-1].Name)
		if p := pathParams[len(pathParams)-1].Name; last == "" && coll.Field(p) != nil && !own {
			o.Kind, o.ParentParam, o.Parent = NestedCreate, p, coll.Field(p).Refers
			return
		}
		if p := pathParams[len(pathParams)-1].Name; last == "" && (m.Framework != framework.FastAPI && coll.Field(p) == nil || own) {
			if parent := m.readAt(parentPath(o.Path)); parent != nil && parent != coll && parent.keyedBy(p) {
				o.Kind, o.ParentParam, o.Parent, o.Scoped, o.ParentField = NestedCreate, p, parent, true, coll.parentField(parent)
				coll.ScopedBy = parent
				return
			}
		}
		if p := pathParams[len(pathParams)-1].Name; last == "" && (p == "id" || p == coll.Singular+"_id" || (coll.ID.Name == p && m.Framework != framework.FastAPI)) {
			// POST /reviews/{review_id}/reactions answering a Review: an
			// action on the record its path names (a like counted), which
			// answers that record.
			o.Kind, o.IDParam = Action, p
			return
		}
		o.Why = "a " + o.Method + " under a path parameter that names no field of " + coll.Name
	case "GET":
		switch {
		case coll != nil && shape == OneShape && last != "" && len(pathParams) == 1:
			o.Kind, o.Coll, o.IDParam = ReadOne, coll, last
		case coll != nil && shape == OneShape && len(pathParams) == 0 && coll == m.Login && secured && len(o.Op.Parameters)+len(o.Item.Parameters) == 0:
			o.Kind, o.Coll = CurrentUser, coll
		case coll != nil && (shape == ArrayShape || shape == PageShape) && len(pathParams) == 0:
			o.Kind, o.Coll = List, coll
			m.listParams(o)
		case coll != nil && (shape == ArrayShape || shape == PageShape) && last == "" && len(pathParams) >= 1:
			p := pathParams[len(pathParams)-1].Name
			own := coll.ownKey(p)
			if parent := m.readAt(parentPath(o.Path)); (coll.Field(p) == nil && m.Framework != framework.FastAPI || own) && parent != nil && parent != coll && parent.keyedBy(p) {
				o.Kind, o.Coll, o.ParentParam, o.Parent, o.Scoped, o.ParentField = NestedList, coll, p, parent, true, coll.parentField(parent)
				coll.ScopedBy = parent
				m.listParams(o)
				return
			}
			if coll.Field(p) == nil || own {
				o.Why = fmt.Sprintf("a nested list whose %s names no field of %s", p, coll.Name)
				return
			}
			o.Kind, o.Coll, o.ParentParam, o.Parent = NestedList, coll, p, coll.Field(p).Refers
			m.listParams(o)
		case coll == nil && len(pathParams) == 0 && m.valuesOf(o):
		default:
			o.Why = "answers no record or list of a collection by a convention"
		}
	case "PUT", "PATCH":
		if coll == nil || shape != OneShape || recBody == nil || last == "" {
			o.Why = "not an update: answers no record of a collection by id, or takes no body of its fields"
			return
		}
		o.Kind, o.Coll, o.IDParam = Replace, coll, last
		if o.Method == "PATCH" {
			o.Kind = Update
		}
	case "DELETE":
		if last == "" && coll != nil && shape == OneShape && o.actionOn(m, coll, pathParams, last) {
			return
		}
		if last == "" {
			o.Why = "a DELETE not ending in an id parameter"
			return
		}
		// The collection is the one the same path reads, else the one the
		// parameter names (review_id → Review).
		if get := o.Item.Get; get != nil {
			_, s := successResponse(get)
			if n, sh, _ := recordsOf(s, m.projectionOf); sh == OneShape {
				coll = m.byName[n]
			}
		}
		if coll == nil && m.Framework != framework.FastAPI {
			// DELETE /articles/{slug}/comments/{id}: the collection the
			// parent path lists; DELETE /application/{id} beside GET
			// /application and no read of one application (gotify's): the
			// collection its own path lists. Only under a parent's path
			// is a record that exists on its own taken off, not deleted.
			up := parentPath(o.Path)
			if l := m.listAt(up); l != nil && (!strings.Contains(up, "{") || !m.standsAlone(l)) {
				coll = l
			}
		}
		if coll == nil {
			if base, ok := strings.CutSuffix(last, "_id"); ok {
				coll = m.Lookup(base)
			}
		}
		if coll == nil {
			o.Why = "a DELETE of no collection the contract reads"
			return
		}
		o.Kind, o.Coll, o.IDParam = Delete, coll, last
	default:
		o.Why = "no convention for " + o.Method
	}
}

// listParams finds a list's filters and paging among its query parameters.
func (m *Model) listParams(o *Operation) {
	for _, p := range params(o, "query") {
		switch p.Name {
		case "skip", "offset":
			o.Paging.Skip = p.Name
		case "limit":
			o.Paging.Limit = p.Name
		case "page":
			o.Paging.Page, o.Paging.FirstPage = p.Name, firstPage(p)
		case "size", "page_size", "per_page":
			o.Paging.Size = p.Name
		default:
			if f := o.Coll.Field(p.Name); f != nil && (f.Type != "object" || m.Framework == framework.FastAPI) && !m.otherQuestion(p, f) {
				o.Filters = append(o.Filters, p.Name)
			} else if f := m.looseFilter(o.Coll, p); f != nil {
				o.Loose = append(o.Loose, Loose{Param: p.Name, Field: f})
			}
		}
	}
}

// firstPage is the first page number a page parameter allows: 0 where its
// minimum is 0 (inclusive) or, with no minimum, its default is 0; else 1.
func firstPage(p *openapi3.Parameter) int64 {
	if p.Schema == nil || p.Schema.Value == nil {
		return 1
	}
	s := p.Schema.Value
	if s.Min != nil {
		if *s.Min == 0 && !s.ExclusiveMin.IsTrue() {
			return 0
		}
		return 1
	}
	if d, ok := s.Default.(float64); ok && d == 0 {
		return 0
	}
	return 1
}

// bodySchema is an operation's request body schema for one media type.
func bodySchema(op *openapi3.Operation, media string) *openapi3.SchemaRef {
	if op.RequestBody == nil || op.RequestBody.Value == nil {
		return nil
	}
	mt := op.RequestBody.Value.Content.Get(media)
	if mt == nil {
		return nil
	}
	return mt.Schema
}

// DeclaredExample is declaredExample for any of an operation's media
// types: the example the document gives for its success response in
// media, or nil.
func DeclaredExample(sp *spec.Spec, o *Operation, media string, schema *openapi3.SchemaRef) []byte {
	return declaredExample(sp, o.Path, o.Method, o.StatusKey, media, schema)
}

// declaredExample is the example the document gives for a success
// response in media type media: its media type's example, else its first
// named example, else the schema's own example; compact, members as
// written. An example the response schema refuses is passed over (the
// document loads with examples unvalidated, as FastAPI serves them): the
// answer must be one the contract allows. The example of a media type
// that is not JSON is its bytes: a JSON string's text.
func declaredExample(sp *spec.Spec, path, method, key string, media string, schema *openapi3.SchemaRef) []byte {
	if media == "" || key == "" {
		return nil
	}
	base := []string{"paths", path, strings.ToLower(method), "responses", key, "content", media}
	var candidates [][]byte
	if raw, ok := sp.RawJSON(append(base, "example")...); ok {
		candidates = append(candidates, raw)
	}
	for _, name := range sp.KeyOrder(append(base, "examples")...) {
		if raw, ok := sp.RawJSON(append(base, "examples", name, "value")...); ok {
			candidates = append(candidates, raw)
		}
	}
	if raw, ok := sp.RawJSON(append(base, "schema", "example")...); ok {
		candidates = append(candidates, raw)
	}
	if raw, ok := sp.RawJSON(append(base, "schema", "examples")...); ok {
		var list []json.RawMessage
		if json.Unmarshal(raw, &list) == nil {
			for _, x := range list {
				candidates = append(candidates, x)
			}
		}
	}
	for _, raw := range candidates {
		if !fastapi.IsJSONMedia(media) {
			var text string
			if json.Unmarshal(raw, &text) == nil {
				return []byte(text)
			}
			continue // a JSON value for a body that is not JSON
		}
		if schema == nil || schema.Value == nil {
			return raw
		}
		var v any
		if json.Unmarshal(raw, &v) == nil && sp.Validate(schema.Value, v, false) == nil {
			return raw
		}
	}
	return nil
}

// placeMe places the operations on the token's user, a path without
// parameters: a PUT or PATCH answering the login collection (the user
// changed), a DELETE beside the read of the current user (the user
// removed), a PATCH or PUT whose body holds two passwords (the current one
// and the new). It reports whether o was placed.
func (o *Operation) placeMe(m *Model, coll *Collection, shape Shape, body *openapi3.SchemaRef) bool {
	switch o.Method {
	case "PUT", "PATCH":
		if body == nil || body.Value == nil {
			return false
		}
		if cur, next := passwordPair(body.Value); cur != "" {
			o.Kind, o.Coll, o.Passwords = ChangePassword, m.Login, [2]string{cur, next}
			return true
		}
		if coll == m.Login && shape == OneShape {
			o.Kind, o.Coll = UpdateMe, coll
			return true
		}
	case "DELETE":
		if get := o.Item.Get; get != nil {
			_, s := successResponse(get)
			if n, sh, _ := recordsOf(s, m.projectionOf); sh == OneShape && m.byName[n] == m.Login {
				o.Kind, o.Coll = DeleteMe, m.Login
				return true
			}
		}
	}
	return false
}

// passwordPair names the members of a password change's body: two string
// members whose names hold "password", the one named current or old first.
// "" when the body is not one.
func passwordPair(v *openapi3.Schema) (current, next string) {
	if len(v.Properties) != 2 {
		return "", ""
	}
	var names []string
	for name, p := range v.Properties {
		if !strings.Contains(strings.ToLower(name), "password") || p.Value == nil || !p.Value.Type.Is("string") {
			return "", ""
		}
		names = append(names, name)
	}
	slices.Sort(names)
	for i, name := range names {
		if l := strings.ToLower(name); strings.Contains(l, "current") || strings.Contains(l, "old") {
			return name, names[1-i]
		}
	}
	return "", ""
}

// jsonLogin names the member a JSON login body names the account by: a
// body of a password and an email or a username, requiring nothing else.
// "" when it is not one.
func jsonLogin(body *openapi3.SchemaRef) string {
	if body == nil || body.Value == nil || body.Value.Properties["password"] == nil {
		return ""
	}
	for _, by := range []string{"email", "username"} {
		if body.Value.Properties[by] == nil {
			continue
		}
		// Beside the two, only what a login may leave out: a "remember
		// me", a one-time code.
		for _, r := range body.Value.Required {
			if r != by && r != "password" {
				return ""
			}
		}
		return by
	}
	return ""
}

// tokenAnswer reports whether a login's answer is a token alone: an object
// with a string member named for one (model.TokenMember), and no more than
// a token's company (its type, expiry, refresh token, scope).
func tokenAnswer(resp *openapi3.SchemaRef) bool {
	if resp == nil || resp.Value == nil || len(resp.Value.Properties) == 0 || len(resp.Value.Properties) > 6 {
		return false
	}
	names := make([]string, 0, len(resp.Value.Properties))
	for name := range resp.Value.Properties {
		names = append(names, name)
	}
	slices.Sort(names)
	return TokenMember(names, func(name string) bool {
		p := resp.Value.Properties[name]
		return p != nil && p.Value != nil && p.Value.Type.Is("string")
	}) != ""
}

// bodyEnvelope reads a JSON request body of one object member holding an
// object ({"article": {title, …}}) as that object, wrap the member's name.
// wrap is "" when the body is no such envelope.
func bodyEnvelope(body *openapi3.SchemaRef) (inner *openapi3.SchemaRef, wrap string) {
	if componentRef(body) != "" {
		return body, ""
	}
	return oneMember(body)
}

// namedEnvelope is bodyEnvelope of a component: a named schema of one
// object member, which may be a model of its own; the caller decides.
func namedEnvelope(body *openapi3.SchemaRef) (inner *openapi3.SchemaRef, wrap string) {
	if componentRef(body) == "" {
		return body, ""
	}
	return oneMember(body)
}

// oneMember is body's one member, where it has one and that holds an
// object of properties, and its name; body and "" otherwise.
func oneMember(body *openapi3.SchemaRef) (inner *openapi3.SchemaRef, wrap string) {
	if body == nil || body.Value == nil || len(body.Value.Properties) != 1 {
		return body, ""
	}
	for name, p := range body.Value.Properties {
		if p.Value != nil && p.Value.Type.Is("object") && len(p.Value.Properties) > 0 {
			return p, name
		}
	}
	return body, ""
}

// readAt is the collection whose record a GET of path answers, or nil.
func (m *Model) readAt(path string) *Collection {
	item := m.Spec.Doc.Paths.Value(path)
	if item == nil {
		// the same path with other parameter names: /projects/{id}
		// for /projects/{project}/views's parent
		item = m.Spec.Doc.Paths.Find(path)
	}
	if item == nil || item.Get == nil {
		return nil
	}
	_, s := successResponse(item.Get)
	if n, sh, _ := recordsOf(s, m.projectionOf); sh == OneShape {
		return m.byName[n]
	}
	return nil
}

// standsAlone reports whether c's records exist apart from any parent:
// the accounts, or records a path without parameters lists (GET /labels).
// A DELETE under a parent's path of such a record (DELETE
// /tasks/{task}/labels/{label}, /tasks/{taskID}/assignees/{userID})
// takes it off the parent, not out of existence.
func (m *Model) standsAlone(c *Collection) bool {
	if c == nil {
		return false
	}
	if c == m.Login {
		return true
	}
	if m.topLevel == nil {
		m.topLevel = map[*Collection]bool{}
		for _, path := range m.Spec.Paths() {
			if !strings.Contains(path, "{") {
				if l := m.listAt(path); l != nil {
					m.topLevel[l] = true
				}
			}
		}
	}
	return m.topLevel[c]
}

// OtherPathParams are o's path parameters but the record's (IDParam) and
// its parent's (ParentParam): those naming records on the way to them.
func (o *Operation) OtherPathParams() []string {
	var out []string
	for _, in := range o.Inputs.List {
		if in.In == "path" && in.Name != o.IDParam && in.Name != o.ParentParam {
			out = append(out, in.Name)
		}
	}
	return out
}

// Ancestor is a path parameter naming a record of Coll by its key.
type Ancestor struct {
	Param string
	Coll  *Collection
}

// ancestors are o's Ancestors.
func (m *Model) ancestors(o *Operation) []Ancestor {
	var out []Ancestor
	segs, _ := segments(o.Path)
	for i, seg := range segs {
		name, ok := strings.CutPrefix(seg, "{")
		if name, ok = strings.CutSuffix(name, "}"); !ok || name == o.IDParam || name == o.ParentParam {
			continue
		}
		if c := m.readAt("/" + strings.Join(segs[:i+1], "/")); c != nil && c.keyedBy(name) {
			out = append(out, Ancestor{Param: name, Coll: c})
		}
	}
	return out
}

// conventionMethod is the method o's convention is found by: its own,
// but outside FastAPI documents a path's methods can be used the other
// way round (Vikunja's go-swagger document creates with PUT /projects
// and changes with POST /projects/{id}). A PUT to a path ending in a
// literal segment, where the path has no POST and lists the records the
// PUT answers, creates as a POST does; a POST to the path of a read of
// the records it answers, where the path has no PUT nor PATCH, replaces
// as a PUT does.
func (m *Model) conventionMethod(o *Operation, coll *Collection, shape Shape, last string) string {
	if m.Framework == framework.FastAPI || coll == nil || shape != OneShape {
		return o.Method
	}
	switch {
	case o.Method == "PUT" && last == "" && o.Item.Post == nil && (m.listAt(o.Path) == coll || m.readUnder(coll, o.Path)):
		return "POST"
	case o.Method == "POST" && last != "" && o.Item.Put == nil && o.Item.Patch == nil && m.readAt(o.Path) == coll:
		return "PUT"
	}
	return o.Method
}

// readUnder reports whether a GET of one record of c is at a path whose
// segment before its parameter is path's last (GET /tasks/{id} for PUT
// /projects/{id}/tasks, which makes a task where nothing lists them).
func (m *Model) readUnder(c *Collection, path string) bool {
	if m.reads == nil {
		m.reads = map[*Collection][]string{}
		for _, p := range m.Spec.Paths() {
			segs, last := segments(p)
			if last == "" || len(segs) < 2 {
				continue
			}
			if r := m.readAt(p); r != nil {
				m.reads[r] = append(m.reads[r], segs[len(segs)-2])
			}
		}
	}
	segs, _ := segments(path)
	return slices.Contains(m.reads[c], segs[len(segs)-1])
}

// listAt is the collection the GET of path lists, if it lists one.
func (m *Model) listAt(path string) *Collection {
	item := m.Spec.Doc.Paths.Value(path)
	if item == nil || item.Get == nil {
		return nil
	}
	_, s := successResponse(item.Get)
	if n, sh, _ := recordsOf(s, m.projectionOf); sh == ArrayShape || sh == PageShape {
		return m.byName[n]
	}
	return nil
}

// parentPath is path without its last segment: /articles/{slug} for
// /articles/{slug}/comments.
func parentPath(path string) string {
	i := strings.LastIndexByte(strings.TrimSuffix(path, "/"), '/')
	if i <= 0 {
		return "/"
	}
	return path[:i]
}

// declaresSecurity reports whether op declares (or inherits) a security
// requirement of any scheme, none of its alternatives optional ({}). An
// alternative naming only schemes the document does not define (springdoc's
// api_key beside a securitySchemes without it) holds no request to
// anything, as openapiprofile.CompileSecurity reads it: it is optional too.
func declaresSecurity(doc *openapi3.T, op *openapi3.Operation) bool {
	reqs := doc.Security
	if op.Security != nil {
		reqs = *op.Security
	}
	for _, req := range reqs {
		defined := false
		for name := range req {
			if doc.Components != nil && doc.Components.SecuritySchemes[name] != nil && doc.Components.SecuritySchemes[name].Value != nil {
				defined = true
				break
			}
		}
		if !defined {
			return false
		}
	}
	return len(reqs) > 0
}

// actionOn places a POST or DELETE without a body under the path of one
// record, answering that record's collection (POST or DELETE
// /articles/{slug}/favorite answering the Article), as an Action on the
// record the path names by its key. Documents of FastAPI keep their
// reading (an Action there is a POST with a body on {id} or {thing_id}).
func (o *Operation) actionOn(m *Model, coll *Collection, pathParams []*openapi3.Parameter, last string) bool {
	if m.Framework == framework.FastAPI || last != "" || len(pathParams) == 0 {
		return false
	}
	if p := pathParams[len(pathParams)-1].Name; p == coll.ID.Name {
		o.Kind, o.Coll, o.IDParam = Action, coll, p
		return true
	}
	return false
}

// Loose is a query parameter filtering a list by a field whose value is
// not the parameter's: a record matches when Field is an array holding
// the value (?tag=dragons on "tagList": ["dragons"]), or an embedded
// record whose key is the value (?author=jake on "author": {"username":
// "jake"}).
type Loose struct {
	Param string
	Field *Field
}

// looseFilter is the field a query parameter of a list of coll filters
// by loosely (see Loose), or nil. Only documents that are not FastAPI's
// are read so.
func (m *Model) looseFilter(coll *Collection, p *openapi3.Parameter) *Field {
	if m.Framework == framework.FastAPI || p.Schema == nil || p.Schema.Value == nil || !p.Schema.Value.Type.Is("string") {
		return nil
	}
	if f := coll.Field(p.Name); f != nil {
		if f.Type == "object" && m.EmbeddedKey(f) != nil {
			return f
		}
		return nil
	}
	for _, f := range coll.Fields {
		if f.Type != "array" || f.Schema.Items == nil || f.Schema.Items.Value == nil || !f.Schema.Items.Value.Type.Is("string") {
			continue
		}
		// tag → tagList, tags, tag_list, tag_ids
		if l := strings.ToLower(f.Name); strings.HasPrefix(l, strings.ToLower(p.Name)) {
			return f
		}
	}
	return nil
}

// EmbeddedKey is the key field of the collection whose record f embeds
// without a join (Article.author, a Profile, by its username), or nil.
func (m *Model) EmbeddedKey(f *Field) *Field {
	if c := m.EmbeddedColl(f); c != nil {
		return c.ID
	}
	return nil
}

// EmbeddedColl is the collection whose record f embeds, joined (Embed) or
// not (Article.author, a Profile); nil when f holds no collection's record.
func (m *Model) EmbeddedColl(f *Field) *Collection {
	if f.Embed != nil {
		return f.Embed
	}
	return m.byName[componentRef(nonNull(f.Ref))]
}

// loginPath reports whether a path's last segment names a login:
// /users/login, /auth/signin, /sessions, /token. A JSON body of a name
// and a password elsewhere (POST /account/user) registers an account.
func loginPath(path string) bool {
	segs, _ := segments(path)
	last := strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(segs[len(segs)-1]))
	switch last {
	case "login", "signin", "logon", "session", "sessions", "token", "tokens", "authenticate", "auth":
		return true
	}
	return false
}

// otherQuestion reports whether a query parameter named like a field asks
// another question than the field's value, outside FastAPI documents: a
// string parameter on a field of another type (?favorited=jake, a user's
// name, on the boolean favorited) is no equality filter.
func (m *Model) otherQuestion(p *openapi3.Parameter, f *Field) bool {
	return m.Framework != framework.FastAPI && p.Schema != nil && p.Schema.Value != nil &&
		p.Schema.Value.Type.Is("string") && f.Type != "string"
}

// projection is Operation.Project for a list response whose records are
// in member (the body itself when ""), nil when its items are a
// reference or hold every field of coll.
func (m *Model) projection(resp *openapi3.SchemaRef, member string, coll *Collection) []string {
	arr := resp
	if member != "" && resp.Value != nil {
		arr = resp.Value.Properties[member]
	}
	if arr == nil || arr.Value == nil || arr.Value.Items == nil || componentRef(arr.Value.Items) != "" || arr.Value.Items.Value == nil {
		return nil
	}
	inline := arr.Value.Items.Value.Properties
	if len(inline) >= len(coll.Fields) {
		return nil
	}
	var props []string // in the record's order: an inline schema's own is not kept
	for _, f := range coll.Fields {
		if inline[f.Name] != nil {
			props = append(props, f.Name)
		}
	}
	if len(props) != len(inline) {
		return nil
	}
	return props
}

// valuesOf places a GET answering {"tags": [strings]} as Values: the
// distinct values of the array of strings field of a collection that the
// member names (tags → tagList, tags). Only outside FastAPI documents.
func (m *Model) valuesOf(o *Operation) bool {
	if m.Framework == framework.FastAPI || o.Response == nil || o.Response.Value == nil || len(o.Response.Value.Properties) != 1 {
		return false
	}
	for member, p := range o.Response.Value.Properties {
		if p.Value == nil || !p.Value.Type.Is("array") || p.Value.Items == nil || p.Value.Items.Value == nil || !p.Value.Items.Value.Type.Is("string") {
			return false
		}
		stem := strings.TrimSuffix(strings.ToLower(member), "s")
		if len(stem) < 2 {
			return false
		}
		for _, c := range m.Collections {
			for _, f := range c.Fields {
				if f.Type == "array" && f.Schema.Items != nil && f.Schema.Items.Value != nil && f.Schema.Items.Value.Type.Is("string") &&
					strings.HasPrefix(strings.ToLower(f.Name), stem) {
					o.Kind, o.Coll, o.ValuesOf, o.Envelope = Values, c, f, member
					return true
				}
			}
		}
	}
	return false
}

// VerbFields are the boolean field and the count an action's path's last
// segment names: favorite → favorited and favoritesCount. nil when the
// record has no such flag.
func (o *Operation) VerbFields() (flag, count *Field) {
	if o.Kind != Action || o.Coll == nil {
		return nil, nil
	}
	segs := strings.Split(strings.Trim(o.Path, "/"), "/")
	stem := strings.TrimSuffix(strings.ToLower(segs[len(segs)-1]), "e")
	if len(stem) < 3 || strings.HasPrefix(stem, "{") {
		return nil, nil
	}
	for _, f := range o.Coll.Fields {
		l := strings.ToLower(f.Name)
		switch {
		case flag == nil && f.Type == "boolean" && strings.HasPrefix(l, stem):
			flag = f
		case count == nil && f.Type == "integer" && strings.HasPrefix(l, stem) && CountMember(f.Name):
			count = f
		}
	}
	if flag == nil {
		return nil, nil
	}
	return flag, count
}

// CountMember reports whether an envelope's member tells how many records
// match: count, total, totalCount, total_count, articlesCount, items_count.
func CountMember(name string) bool {
	l := strings.ToLower(name)
	return l == "count" || l == "total" || strings.HasSuffix(l, "count") || strings.HasPrefix(l, "total")
}

// ViewMember is one member of a view (Operation.View).
type ViewMember struct {
	Name string
	Ref  *openapi3.SchemaRef // the view's schema of it
	// Field is the collection's field of that name; nil when the
	// collection has none.
	Field    *Field
	Required bool
	// Link: the member holds the URL of the record's read (Operation.Link),
	// not a value of the record's.
	Link bool
}

// viewMembers are the members of the view schema v of coll's records.
func viewMembers(sp *spec.Spec, v *openapi3.SchemaRef, coll *Collection) []ViewMember {
	var out []ViewMember
	for _, name := range sp.PropertyOrder(v) {
		out = append(out, ViewMember{Name: name, Ref: v.Value.Properties[name], Field: coll.Field(name), Required: slices.Contains(v.Value.Required, name)})
	}
	return out
}

// Anonymous reports whether o is one anyone may call whatever security
// the document puts on every operation: a login, or a registration (a
// create of the login collection's records taking a password), that
// states no security of its own. Swashbuckle writes a global Bearer on
// every operation, these too, but no one holds a token before signing up
// and logging in. A requirement the operation states itself (a client's
// basic credentials) holds.
func (m *Model) Anonymous(o *Operation) bool {
	if o == nil || o.Op == nil || o.Op.Security != nil || m.Framework == framework.FastAPI {
		return false
	}
	if o.Kind == Login {
		return true
	}
	return o.Kind == Create && o.Coll != nil && o.Coll == m.Login && takesPassword(o.Op)
}

// takesPassword reports whether op's JSON body holds a password, itself or
// in the one member it wraps the record in ({"user": {…, "password"}}).
func takesPassword(op *openapi3.Operation) bool {
	body := bodySchema(op, "application/json")
	if inner, _ := bodyEnvelope(body); inner != nil {
		body = inner
	}
	return body != nil && body.Value != nil && body.Value.Properties["password"] != nil
}
