package mock

import (
	"bytes"
	"cmp"
	"encoding/json"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/brianvoe/gofakeit/v7"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
)

// Resource shapes beyond FastAPI's CRUD: records wrapped in an envelope
// ({"article": {…}}), lists beside their counts ({"data": […], "count":
// n}), request bodies wrapping the record's fields, records keyed by a
// field other than an id, the token's user read and changed in place.

// writeRecord answers the operation's success status with rec, wrapped in
// the response's envelope when it declares one. The login collection's
// token field ({"user": {…, "token"}}: model's TokenField) carries a
// token of the user's when one is issued for the answer.
func (c *call) writeRecord(rec *fixtures.Record, token string) {
	rec = c.personal(c.o.m.Coll, rec)
	if token != "" && c.s.model.Framework != framework.FastAPI {
		if f := c.o.m.Coll.TokenField(); f != nil && c.o.m.Coll == c.s.model.Login {
			vals := rec.Vals(c.o.m.Coll)
			vals[f.Index] = fastapi.AppendString(nil, token)
			nr := fixtures.Build(c.o.m.Coll, vals, nil, rec.Secret, nil)
			nr.Carry(rec)
			rec = &nr
		}
	}
	body := rec.JSON
	if c.o.m.View != nil {
		body = c.appendView(nil, c.o.m.Coll, rec)
	}
	if env := c.o.m.Envelope; env != "" && c.o.m.Shape == model.OneShape {
		out := make([]byte, 0, len(body)+len(env)+5)
		out = append(out, '{')
		out = fastapi.AppendString(out, env)
		out = append(out, ':')
		out = append(out, body...)
		body = append(out, '}')
	}
	fastapi.WriteJSON(c.w, c.o.m.Status, body)
}

// bodyFields are the request body's members that carry the record's
// fields: the body's own, or those of the member it wraps them in
// (Operation.BodyWrap).
func (c *call) bodyFields() []fastapi.ModelField {
	if c.o.inputs.Form && c.o.inputs.JSON == nil {
		return c.formFields()
	}
	wrap := c.o.m.BodyWrap
	if wrap == "" {
		return c.body.Fields
	}
	if c.unwrapped != nil {
		return *c.unwrapped
	}
	var out []fastapi.ModelField
	for _, bf := range c.body.Fields {
		if bf.Name != wrap || len(bf.JSON) == 0 || bf.JSON[0] != '{' {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(bf.JSON))
		dec.UseNumber()
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			break
		}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				break
			}
			name, _ := tok.(string)
			var raw json.RawMessage
			if dec.Decode(&raw) != nil {
				break
			}
			if string(raw) == "null" && !c.parsed.Sent(wrap, name) {
				// the wrapped model's dump writes the members left out
				// as null: not sent, for a create or an update alike
				continue
			}
			out = append(out, fastapi.ModelField{Name: name, Set: true, JSON: raw})
		}
	}
	c.unwrapped = &out
	return out
}

// formFields are the fields a form body sent, as JSON values of their
// kinds: a text as a string, an integer, a number or a boolean as that, a
// repeated field as a list, a field holding JSON (an object) as its
// value; a file as its name. A field not sent is left out.
func (c *call) formFields() []fastapi.ModelField {
	if c.unwrapped != nil {
		return *c.unwrapped
	}
	var out []fastapi.ModelField
	for i := range c.args.ins.List {
		in := &c.args.ins.List[i]
		v := c.args.vals[i]
		if in.In != "body" || !v.Set {
			continue
		}
		var raw []byte
		if in.List {
			raw = append(raw, '[')
			for j, item := range v.List {
				if j > 0 {
					raw = append(raw, ',')
				}
				raw = appendFormValue(raw, in, item)
			}
			raw = append(raw, ']')
		} else {
			raw = appendFormValue(nil, in, v.Str)
		}
		out = append(out, fastapi.ModelField{Name: in.Name, Set: true, JSON: raw})
	}
	c.unwrapped = &out
	return out
}

// appendFormValue writes one validated form value as JSON of its input's
// kind.
func appendFormValue(b []byte, in *fastapi.Input, s string) []byte {
	if in.Object != nil && json.Valid([]byte(s)) {
		return append(b, s...)
	}
	switch in.Kind {
	case fastapi.Integer:
		if n, ok := fastapi.ParseLaxInt(s); ok {
			return append(b, n.Text...)
		}
	case fastapi.Number:
		if f, ok := fastapi.ParseLaxFloat(s); ok && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return strconv.AppendFloat(b, f, 'g', -1, 64)
		}
	case fastapi.Boolean:
		if t, ok := fastapi.ParseLaxBool(s); ok {
			return strconv.AppendBool(b, t)
		}
	}
	return fastapi.AppendString(b, s)
}

// appendEnvelope writes a list envelope: its declared members in order,
// the records in the member holding them, the count-like members the
// number of records matching before paging, has_more whether records
// follow the page, next and previous null unless a page follows or
// precedes (then the request's own URL with the page moved; an empty
// page, which would be its own next, has none).
func (c *call) appendEnvelope(b []byte, recs []*fixtures.Record, total int, start int64) []byte {
	o := c.o.m
	b = append(b, '{')
	more := start+int64(len(recs)) < int64(total)
	// a list with no offset nor page parameter has no other page to
	// link to: its next would be itself
	movable := o.Paging.Skip != "" || o.Paging.Page != "" && o.Paging.Size != ""
	page := int64(len(recs)) // the page's length, as asked for
	if p := o.Paging; p.Limit != "" {
		page = c.intArg(p.Limit, page)
	} else if p.Size != "" {
		page = c.intArg(p.Size, page)
	}
	n := 0
	for _, name := range c.s.spec.PropertyOrder(o.Response) {
		at := len(b)
		if n > 0 {
			b = append(b, ',')
		}
		b = fastapi.AppendString(b, name)
		b = append(b, ':')
		n++
		l := strings.ToLower(name)
		switch {
		case name == o.Envelope:
			b = c.appendList(b, recs)
		case model.CountMember(name):
			b = strconv.AppendInt(b, int64(total), 10)
		case l == "has_more" || l == "hasmore" || l == "has_next" || l == "hasnext":
			b = strconv.AppendBool(b, more)
		case (l == "next" || l == "next_page" || l == "nextpage") && more && len(recs) > 0 && movable:
			// (an empty page, limit=0, has no next: it would be itself)
			b = fastapi.AppendString(b, c.pageURL(start+int64(len(recs))))
		case (l == "previous" || l == "prev") && start > 0 && len(recs) > 0 && movable:
			b = fastapi.AppendString(b, c.pageURL(max(0, start-page)))
		default:
			if f := c.o.m.Paging; name == f.Limit && name != "" {
				b = strconv.AppendInt(b, c.intArg(name, int64(len(recs))), 10)
			} else if name == f.Skip && name != "" {
				b = strconv.AppendInt(b, start, 10)
			} else if name == f.Page && name != "" {
				b = strconv.AppendInt(b, c.intArg(name, f.FirstPage), 10)
			} else if name == f.Size && name != "" {
				b = strconv.AppendInt(b, page, 10)
			} else if (l == "pages" || l == "total_pages" || l == "totalpages") && f.Size != "" {
				b = strconv.AppendInt(b, (int64(total)+max(page, 1)-1)/max(page, 1), 10)
			} else if c.sparseNull(name) {
				b, n = b[:at], n-1
			} else {
				b = c.appendPageMember(b, name)
			}
		}
	}
	return append(b, '}')
}

// appendPageMember writes a list envelope's member no convention names:
// a link to the page itself (href, self, url: Spotify's paging object)
// is the request's URL; one that may be null, or left out, is null; any other a
// value of its schema, the same for every page.
func (c *call) appendPageMember(b []byte, name string) []byte {
	s := c.o.m.Response.Value
	p := s.Properties[name]
	if p == nil || p.Value == nil || spec.Nullable(p.Value) || !slices.Contains(s.Required, name) {
		return append(b, "null"...)
	}
	switch strings.ToLower(name) {
	case "href", "self", "url", "link", "uri":
		if p.Value.Type.Is("string") {
			return fastapi.AppendString(b, c.requestURL(c.r.URL.RequestURI()))
		}
	}
	return c.s.fake.AppendAnswer(b, gofakeit.New(uint64(len(name))), name, p)
}

// sparseNull reports whether the member name of the operation's response
// object, which has no value to write, is left out rather than written
// null: outside FastAPI documents, a member the object does not require
// whose schema refuses null (a 3.1 document's next: {type: string,
// nullable: true}, nullable being no keyword of 3.1). FastAPI writes
// every member of its model, None as null.
func (c *call) sparseNull(name string) bool {
	r := c.o.m.Response
	if c.s.model.Framework == framework.FastAPI || r == nil || r.Value == nil || slices.Contains(r.Value.Required, name) {
		return false
	}
	p := r.Value.Properties[name]
	return p != nil && !c.s.fake.NullOK(p.Value)
}

// pageURL is the request's URL with the list starting at start: its skip
// or offset parameter set, else its page.
func (c *call) pageURL(start int64) string {
	p := c.o.m.Paging
	u := *c.r.URL
	q := u.Query()
	switch {
	case p.Skip != "":
		q.Set(p.Skip, strconv.FormatInt(start, 10))
	case p.Page != "" && p.Size != "":
		size := max(c.intArg(p.Size, 50), 1)
		q.Set(p.Page, strconv.FormatInt(start/size+p.FirstPage, 10))
	}
	u.RawQuery = q.Encode()
	return c.requestURL(u.RequestURI())
}

// requestURL is the absolute URL of uri, a path the operation answers,
// on the host the request named, under the base path of the document's
// servers it came by (underServerPaths answers /api/things as /things),
// which the links an answer writes keep.
func (c *call) requestURL(uri string) string {
	scheme := "http"
	if c.r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + c.r.Host + c.basePath() + uri
}

// basePath is the part of the request's path before the path the
// operation answers: a server's base path (/api), else "".
func (c *call) basePath() string {
	u, err := url.ParseRequestURI(c.r.RequestURI)
	if err != nil {
		return ""
	}
	// a trailing slash the mock answers as the path without it (or
	// the other way round) is no part of the base
	base, ok := strings.CutSuffix(strings.TrimSuffix(u.EscapedPath(), "/"), strings.TrimSuffix(c.r.URL.EscapedPath(), "/"))
	if !ok {
		return ""
	}
	return base
}

// linkTo is the link to rec that the operation's view
// shows in place of its id (model.Operation.Link): the URL of the
// record's read, its other path parameters the request's own (a nested
// list's parent), absolute unless the document writes such links as
// paths.
func (c *call) linkTo(rec *fixtures.Record) []byte {
	l := c.o.m.Link
	key := string(rec.Value(l.Field))
	if strings.HasPrefix(key, `"`) {
		var s string
		if json.Unmarshal([]byte(key), &s) == nil {
			key = s
		}
	}
	params := map[string]string{l.Param: key}
	for _, in := range c.o.inputs.List {
		if a := c.args.get(in.Name); in.In == "path" && in.Name != l.Param && a.Set {
			params[in.Name] = a.Str
		}
	}
	if l.Relative {
		return fastapi.AppendString(nil, c.basePath()+l.Expand(params))
	}
	return fastapi.AppendString(nil, c.requestURL(l.Expand(params)))
}

// looseMatch is the test of a Loose filter: an array field holding the
// value, or an embedded record whose key is the value.
func (c *call) looseMatch(l model.Loose) func(r *fixtures.Record) bool {
	want := fastapi.AppendString(nil, c.args.get(l.Param).Str)
	if l.Field.Type == "array" {
		return func(r *fixtures.Record) bool { return jsonHas(r.Value(l.Field), "", want) }
	}
	key := c.s.model.EmbeddedKey(l.Field)
	return func(r *fixtures.Record) bool { return jsonHas(r.Value(l.Field), key.Name, want) }
}

// jsonHas reports whether v, an array, holds want, or, an object, holds
// want in its member called member.
func jsonHas(v []byte, member string, want []byte) bool {
	if member == "" {
		var items []json.RawMessage
		if json.Unmarshal(v, &items) != nil {
			return false
		}
		for _, it := range items {
			if bytes.Equal(it, want) {
				return true
			}
		}
		return false
	}
	var obj map[string]json.RawMessage
	return json.Unmarshal(v, &obj) == nil && bytes.Equal(obj[member], want)
}

// naturalKey is the key of a record created without one, where the key is
// not an id (an Article's slug): the slug of the body's title (or name)
// when the key is a slug, else a generated value; made unique in v.
func (c *call) naturalKey(v view, coll *model.Collection, vals [][]byte) []byte {
	f := coll.ID
	if f.Type != "string" || !strings.Contains(strings.ToLower(f.Name), "slug") {
		return c.uniqueValue(v, coll, f)
	}
	var title string
	for _, name := range []string{"title", "name"} {
		if tf := coll.Field(name); tf != nil && vals[tf.Index] != nil {
			_ = jsonUnmarshalString(vals[tf.Index], &title)
			break
		}
	}
	base := fixtures.Slug(title)
	if base == "" {
		return c.uniqueValue(v, coll, f)
	}
	val := fastapi.AppendString(nil, base)
	for n := 2; ; n++ {
		if _, taken := v.get(coll, string(val)); !taken {
			return val
		}
		val = fastapi.AppendString(nil, base+"-"+strconv.Itoa(n))
	}
}

// userAs is the token's user as the field f embeds a record of another
// collection keyed like the login collection (an Article's author, a
// Profile, named by its username): the user's fields of the embedded
// schema's names, the rest their defaults (false, null). nil when f embeds
// no such record or there is no user.
func (c *call) userAs(f *model.Field) []byte {
	login := c.s.model.Login
	key := c.s.model.EmbeddedKey(f)
	if c.user == nil || login == nil || key == nil || login.UserKey == nil || key.Name != login.UserKey.Name || c.user.JSON == nil {
		return nil
	}
	embedded := c.s.model.Lookup(strings.TrimPrefix(f.Ref.Ref, "#/components/schemas/"))
	if embedded == nil {
		embedded = c.s.model.Collection(key.Name)
	}
	if embedded == nil {
		return nil
	}
	rec := project(c.user, login, embedded)
	return rec.JSON
}

// viewed is, for a collection that is a view of the accounts
// (model.Collection.ViewOf), the account the path names seen through it,
// with the fields the accounts do not have (a profile's following) as
// the view's own record of that key holds them; false when coll is no
// view or no account has the key.
func (c *call) viewed(coll *model.Collection) (fixtures.Record, bool) {
	from := coll.ViewOf
	if from == nil {
		return fixtures.Record{}, false
	}
	_, acct, ok := c.find(from, c.o.m.IDParam)
	if !ok {
		return fixtures.Record{}, false
	}
	rec := project(acct, from, coll)
	if own, ok := c.view().get(coll, rec.Key(coll)); ok {
		vals := rec.Vals(coll)
		for _, f := range coll.Fields {
			if from.Field(f.Name) == nil {
				vals[f.Index] = own.Value(f)
			}
		}
		rec = fixtures.Build(coll, vals, nil, "", nil)
	}
	return rec, true
}

// project is rec, a record of from, seen as a record of to: its fields of
// to's names, the others false (booleans) or their defaults.
func project(rec *fixtures.Record, from, to *model.Collection) fixtures.Record {
	vals := make([][]byte, len(to.Fields))
	for _, tf := range to.Fields {
		if ff := from.Field(tf.Name); ff != nil {
			vals[tf.Index] = rec.Value(ff)
		} else if tf.Default == nil && tf.Type == "boolean" {
			vals[tf.Index] = []byte("false")
		}
	}
	return fixtures.Build(to, vals, nil, "", nil)
}

// ownRecords is the test of a secured list's records against the token's
// user where the records have an owner (owner_id naming an account): a
// user sees their own, as the usual backend filters by
// owner_id == current_user.id; a superuser (an account whose
// is_superuser, or is_admin, is true) sees every one. nil: no such test.
func (c *call) ownRecords(coll *model.Collection) func(r *fixtures.Record) bool {
	login := c.s.model.Login
	if !c.o.m.Secured || c.user == nil || c.user.JSON == nil || login == nil {
		return nil
	}
	for _, name := range []string{"is_superuser", "is_admin", "isAdmin", "superuser", "admin"} {
		if f := login.Field(name); f != nil && string(c.user.Value(f)) == "true" {
			return nil
		}
	}
	for _, f := range coll.Fields {
		if f.Owner && f.Refers == login && f.Embed == nil {
			want := ownerValue(f, c.user.Value(login.ID))
			return func(r *fixtures.Record) bool { return bytes.Equal(r.Value(f), want) }
		}
	}
	return nil
}

// answerMessage answers an operation whose success schema is not the
// record it changed (a DELETE declaring a Message): an object of its
// declared members, a message or detail string saying what was done, the
// rest generated (the operation's example, made when first used).
func (c *call) answerMessage(what string) {
	o := c.o.m
	if o.Response == nil || o.Response.Value == nil || len(o.Response.Value.Properties) == 0 {
		c.w.Header()["Content-Type"] = []string{"application/json"}
		c.w.WriteHeader(o.Status)
		return
	}
	var example map[string]json.RawMessage
	if body := c.o.answer(); body != nil {
		_ = json.Unmarshal(body, &example)
	}
	b := []byte{'{'}
	for i, name := range c.s.spec.PropertyOrder(o.Response) {
		if i > 0 {
			b = append(b, ',')
		}
		b = fastapi.AppendString(b, name)
		b = append(b, ':')
		p := o.Response.Value.Properties[name]
		switch {
		case (name == "message" || name == "detail" || name == "msg") && p.Value != nil && p.Value.Type.Is("string"):
			b = fastapi.AppendString(b, what)
		case example[name] != nil:
			b = append(b, example[name]...)
		default:
			b = append(b, "null"...)
		}
	}
	fastapi.WriteJSON(c.w, o.Status, append(b, '}'))
}

// answersRecord reports whether the operation's success schema is its
// collection's record (itself, or in an envelope), so that a write
// answers the record it wrote rather than some other declared body.
func (c *call) answersRecord() bool {
	o := c.o.m
	return o.Response != nil && o.Shape == model.OneShape && o.Response.Value != nil
}

// changeMe is UpdateMe: the token's user changed by the fields sent, its
// key too where a body may change it (a username the path names the
// account by: rekey.go), and what refers to it following (follow).
func changeMe(c *call) {
	coll := c.o.m.Coll
	c.st.mu.Lock()
	defer c.st.mu.Unlock()
	v := c.view()
	old := c.user
	vals := old.Vals(coll)
	for _, f := range coll.Fields {
		if f == coll.ID {
			if key := c.newKey(coll); key != nil {
				vals[f.Index] = key // a new username, where it keys the account
			}
			continue
		}
		if f.Embed != nil {
			continue
		}
		if val, set, ok := c.bodyValue(f); ok && set && (string(val) != "null" || f.Nullable) {
			vals[f.Index] = val
		}
		if f.Stamp == "updated" {
			vals[f.Index] = fastapi.AppendString(nil, c.s.model.Framework.FormatDateTime(c.s.cfg.Now()))
		}
	}
	status := c.s.meConflictStatus(c.o)
	var taken *model.Field
	if status != 0 {
		taken = takenBy(v, coll, old, vals)
	}
	if taken == nil && keyTaken(v, coll, old.Key(coll), vals) {
		// never kept: it would replace the other account
		taken, status = coll.ID, cmp.Or(status, c.s.conflictStatus(c.o))
	}
	if taken != nil {
		c.refuseTaken(status, coll, taken)
		return
	}
	secret := old.Secret
	if s := c.bodySecret(coll); s != "" {
		secret = s
	}
	rec := fixtures.Build(coll, vals, v.join, secret, nil)
	rec.Carry(old)
	rec.Sent = c.viewSent(coll, old.Sent)
	if !c.rekey(coll, old.Key(coll), &rec) {
		return
	}
	c.follow(old, &rec)
	c.user = &rec
	c.writeRecord(&rec, c.bearer())
}

// meConflictStatus is the status an update of the current user answers
// when it would take another account's name or e-mail: under the
// plain-OpenAPI profile the status a create refuses a taken one with
// (conflictStatus), where o declares it; under FastAPI's, 409 or else 400
// where o declares it. 0 where o declares no such status: the update is
// kept, as before (the document says nothing of a taken name).
func (s *Server) meConflictStatus(o *operation) int {
	declared := func(status int) bool {
		return o.m.Op.Responses != nil && o.m.Op.Responses.Value(strconv.Itoa(status)) != nil
	}
	if s.oa != nil {
		if status := s.conflictStatus(o); declared(status) {
			return status
		}
		return 0
	}
	for _, status := range []int{http.StatusConflict, http.StatusBadRequest} {
		if declared(status) {
			return status
		}
	}
	return 0
}

// takenBy is the field of the accounts that names one (the login's user
// key, a username, an e-mail) to which vals, old's fields changed, give a
// value another account of v holds; nil when none.
func takenBy(v view, coll *model.Collection, old *fixtures.Record, vals [][]byte) *model.Field {
	self := old.Key(coll)
	for _, f := range coll.Fields {
		if f.Type != "string" || !(f == coll.UserKey || f.Format == "email" || strings.EqualFold(f.Name, "email") || strings.EqualFold(f.Name, "username")) {
			continue
		}
		want := vals[f.Index]
		if want == nil || string(want) == "null" || bytes.Equal(want, old.Value(f)) {
			continue
		}
		taken := false
		v.each(coll, func(r *fixtures.Record) bool {
			taken = r.Key(coll) != self && bytes.Equal(r.Value(f), want)
			return !taken
		})
		if taken {
			return f
		}
	}
	return nil
}

// deleteMe is DeleteMe: the token's user removed.
func deleteMe(c *call) {
	coll := c.o.m.Coll
	c.st.mu.Lock()
	defer c.st.mu.Unlock()
	if !c.store(coll, c.user.Key(coll), nil) {
		return
	}
	if c.answersRecord() && c.o.m.Coll == coll && c.o.m.Envelope == "" && isRecordSchema(c) {
		c.writeRecord(c.user, "")
		return
	}
	c.answerMessage("User deleted successfully")
}

// changePassword is ChangePassword: the current password checked (400
// "Incorrect password" when wrong), the new one kept.
func changePassword(c *call) {
	coll := c.o.m.Coll
	var cur, next string
	for _, bf := range c.bodyFields() {
		var s string
		if jsonUnmarshalString(bf.JSON, &s) != nil {
			continue
		}
		switch bf.Name {
		case c.o.m.Passwords[0]:
			cur = s
		case c.o.m.Passwords[1]:
			next = s
		}
	}
	if !passwordMatches(c.user, cur) {
		fastapi.WriteDetail(c.w, http.StatusBadRequest, "Incorrect password")
		return
	}
	if cur == next {
		fastapi.WriteDetail(c.w, http.StatusBadRequest, "New password cannot be the same as the current one")
		return
	}
	c.st.mu.Lock()
	defer c.st.mu.Unlock()
	rec := fixtures.Build(coll, c.user.Vals(coll), c.view().join, next, nil)
	rec.Carry(c.user)
	if !c.store(coll, rec.Key(coll), &rec) {
		return
	}
	c.answerMessage("Password updated successfully")
}

// isRecordSchema reports whether the operation's response names its
// collection's schema.
func isRecordSchema(c *call) bool {
	name, _ := strings.CutPrefix(c.o.m.Response.Ref, "#/components/schemas/")
	return c.s.model.Collection(name) == c.o.m.Coll
}

// bearer is the token the request carries, "" when none.
func (c *call) bearer() string {
	_, param, ok := strings.Cut(c.r.Header.Get("Authorization"), " ")
	if !ok {
		return ""
	}
	return strings.TrimSpace(param)
}

// jsonLogin is a Login taking a JSON body (POST /users/login {"user":
// {"email", "password"}}): the account the body's member by names, its
// password checked, answered as the account's record with a token of its
// own, or with the token alone where the answer is a token's schema, which
// the mock then accepts (as Bearer or Token).
func jsonLogin(c *call, by string) {
	coll := c.o.m.Coll
	var name, password string
	for _, bf := range c.bodyFields() {
		switch bf.Name {
		case by:
			_ = jsonUnmarshalString(bf.JSON, &name)
		case "password":
			_ = jsonUnmarshalString(bf.JSON, &password)
		}
	}
	f := coll.Field(by)
	want := fastapi.AppendString(nil, name)
	var u *fixtures.Record
	c.st.mu.RLock()
	c.view().each(coll, func(r *fixtures.Record) bool {
		if bytes.Equal(r.Value(f), want) {
			u = r
			return false
		}
		return true
	})
	c.st.mu.RUnlock()
	if a := c.s.accounts[name]; a != nil && (u == nil || !passwordMatches(u, password)) {
		// an account (--account) is named by whatever the login takes,
		// its email as well as its username
		u = a
	}
	if u == nil || !passwordMatches(u, password) {
		// In the document's own words outside FastAPI's profile, as the
		// form login's refusal (login in operations.go).
		if !c.s.refuse(c.w, c.o, c.o.refusal, problem("incorrect "+by+" or password")) {
			fastapi.WriteDetail(c.w, c.o.refusal, fastapi.DetailWrongLogin)
		}
		return
	}
	token, err := c.s.tokens.issue(u.Str(coll.UserKey))
	if err != nil {
		panic(err) // HS256 with a []byte key cannot fail
	}
	if c.o.m.TokenOnly {
		// a login answering a token alone ({"token": …})
		c.writeToken(token)
		return
	}
	c.writeRecord(u, token)
}

// bodyCredentials are the account name and password of a login's JSON
// body fields: its username member, else its email, and its password.
func bodyCredentials(fields []fastapi.ModelField) (name, password string) {
	var email string
	for _, bf := range fields {
		switch bf.Name {
		case "username":
			_ = jsonUnmarshalString(bf.JSON, &name)
		case "email":
			_ = jsonUnmarshalString(bf.JSON, &email)
		case "password":
			_ = jsonUnmarshalString(bf.JSON, &password)
		}
	}
	return cmp.Or(name, email), password
}

// action is an Action: the record its path names, as it is; outside
// FastAPI documents, a POST or DELETE on /things/{key}/verb whose record
// has a flag of the verb (favorite → favorited, follow → following, like
// → liked) sets it (POST) or clears it (DELETE) for the request's user
// (see flags.go), and moves the count of the verb beside it
// (favoritesCount) with it when that user's flag changed.
func action(c *call) {
	o := c.o.m
	coll := o.Coll
	if c.s.model.Framework == framework.FastAPI || (o.Method != "POST" && o.Method != "DELETE") {
		readOne(c)
		return
	}
	flag, count := o.VerbFields()
	if flag == nil {
		readOne(c)
		return
	}
	c.st.mu.Lock()
	defer c.st.mu.Unlock()
	key, old, ok := c.find(coll, o.IDParam)
	if v, seen := c.viewed(coll); seen {
		// a profile followed: the flag is the view's own, kept in its
		// collection beside the account's fields
		key, old, ok = v.Key(coll), &v, true
	}
	if !ok {
		// a key the read answers with its stand-in (the operation
		// declares no 404) is followed or favorited as that record, and
		// kept so: the read shows the flag after. Not in a collection the
		// document lists: there the record kept would join the list, and
		// an action creates no record a list shows.
		if listed(c.s.model, coll) {
			c.notFound(coll)
			return
		}
		if old = c.standIn(coll, o.IDParam); old == nil {
			c.notFound(coll)
			return
		}
		key = old.Key(coll)
	}
	set, who := o.Method == "POST", c.actor()
	was := c.view().flag(coll, flag, key, who, old.Value(flag))
	vals := old.Vals(coll)
	if count != nil && was != set {
		n, _ := strconv.ParseInt(string(old.Value(count)), 10, 64)
		if set {
			n++
		} else if n > 0 {
			n--
		}
		vals[count.Index] = strconv.AppendInt(nil, n, 10)
	}
	rec := fixtures.Build(coll, vals, c.view().join, old.Secret, nil)
	rec.Carry(old)
	if !c.store(coll, key, &rec) {
		return
	}
	if !c.s.cfg.ReadOnly {
		c.st.setMark(coll, flag, key, who, set)
	}
	c.writeRecord(&rec, "")
}

// appendList writes a list's records, each as the list's items declare
// it: the whole record, or the fields of Operation.Project.
func (c *call) appendList(b []byte, recs []*fixtures.Record) []byte {
	o := c.o.m
	recs = c.personalAll(recs)
	if o.View != nil {
		b = append(b, '[')
		for i, r := range recs {
			if i > 0 {
				b = append(b, ',')
			}
			b = c.appendView(b, o.Coll, r)
		}
		return append(b, ']')
	}
	if o.Project == nil {
		return appendRecords(b, recs)
	}
	b = append(b, '[')
	for i, r := range recs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		for j, name := range o.Project {
			if j > 0 {
				b = append(b, ',')
			}
			b = fastapi.AppendString(b, name)
			b = append(b, ':')
			b = append(b, r.Value(o.Coll.Field(name))...)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendView writes rec, a record of coll, as the operation's own schema
// shows it (model.Operation.View: a create answering PetCreate where the
// record is read as a PetRead): the members of that schema the record
// holds, in its fields or as a write sent them (Record.Sent: owner, in
// PetCreate alone), and each one it lacks that this or another view
// requires generated from the record's key, so that every answer showing
// it agrees as the backend's stored value would. Members the schema does
// not declare are left out.
func (c *call) appendView(b []byte, coll *model.Collection, rec *fixtures.Record) []byte {
	b = append(b, '{')
	n := 0
	for _, vm := range c.o.m.View {
		var v []byte
		if vm.Link && c.o.m.Link != nil {
			v = c.linkTo(rec)
		} else if f := vm.Field; f != nil && rec.Has(f) {
			v = rec.Value(f)
			if string(v) == "null" && !spec.Nullable(vm.Ref.Value) {
				v = nil // a null the view refuses: not held, for the view
			}
		} else if sent, ok := rec.Sent[vm.Name]; ok && vm.Field == nil && c.s.fitsSchema(vm.Ref, sent) {
			v = sent // kept beside the record's fields (viewSent)
		}
		if v == nil && (vm.Required || vm.Field == nil && coll.ViewRequired(vm.Name)) {
			v = c.s.viewValue(coll, rec.Key(coll), vm)
		}
		if v == nil {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = fastapi.AppendString(b, vm.Name)
		b = append(b, ':')
		b = append(b, v...)
	}
	return append(b, '}')
}

// underParent reports whether rec, a record of a sub-collection
// (model.Collection.ScopedBy), is under the parent the request's path
// names by its key (DELETE /articles/{slug}/comments/{id}: a comment of
// that article). Records of other collections, or a path naming no
// parent, pass.
func (c *call) underParent(coll *model.Collection, rec *fixtures.Record) bool {
	p := coll.ScopedBy
	if p == nil {
		return true
	}
	for _, in := range c.o.inputs.List {
		if in.In == "path" && in.Name == p.ID.Name && in.Name != c.o.m.IDParam {
			key, _, ok := c.find(p, in.Name)
			return ok && key == rec.Parent
		}
	}
	return true
}

// values is Values: the distinct strings of an array field across the
// records (every tag of every article), in the order first met.
func values(c *call) {
	o := c.o.m
	c.st.mu.RLock()
	defer c.st.mu.RUnlock()
	seen := map[string]bool{}
	b := []byte{'{'}
	b = fastapi.AppendString(b, o.Envelope)
	b = append(b, ":["...)
	c.view().each(o.Coll, func(r *fixtures.Record) bool {
		var items []json.RawMessage
		if json.Unmarshal(r.Value(o.ValuesOf), &items) != nil {
			return true
		}
		for _, it := range items {
			if len(it) == 0 || it[0] != '"' || seen[string(it)] {
				continue
			}
			if len(seen) > 0 {
				b = append(b, ',')
			}
			seen[string(it)] = true
			b = append(b, it...)
		}
		return true
	})
	fastapi.WriteJSON(c.w, o.Status, append(b, "]}"...))
}

// listed reports whether an operation of m lists coll.
func listed(m *model.Model, coll *model.Collection) bool {
	for _, o := range m.Operations {
		if o.Coll == coll && (o.Kind == model.List || o.Kind == model.NestedList) {
			return true
		}
	}
	return false
}
