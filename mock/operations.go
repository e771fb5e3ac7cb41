package mock

import (
	"bytes"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/model"
)

// The conventions. Each handler gets inputs the contract already validated
// and the state the request works on; what is left is the application's own
// logic, as the usual FastAPI CRUD code has it, and its HTTPExceptions.

// bufPool holds response buffers, so a request allocates none.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 2048); return &b }}

func writePooled(w http.ResponseWriter, status int, render func([]byte) []byte) {
	bp := bufPool.Get().(*[]byte)
	body := render((*bp)[:0])
	fastapi.WriteJSON(w, status, body)
	if cap(body) <= 64<<10 {
		*bp = body
		bufPool.Put(bp)
	}
}

// call is one request as a handler sees it.
type call struct {
	s    *Server
	o    *operation
	w    http.ResponseWriter
	r    *http.Request
	args argList
	st   *state
	user *fixtures.Record // the bearer token's user, when the operation is secured
	body fastapi.Model    // a JSON body, validated
	// parsed is that body as sent, before validation: which members a
	// wrapped body sent (bodyFields).
	parsed fastapi.Parsed
	// unwrapped are the record's fields of a body that wraps them
	// (bodyFields), once read.
	unwrapped *[]fastapi.ModelField
}

func (c *call) view() view { return view{base: c.st.base, ov: c.st.ov} }

func (c *call) notFound(coll *model.Collection) {
	if c.s.refuse(c.w, c.o, http.StatusNotFound, problem(coll.Title+" not found")) {
		return
	}
	if c.o.notFound != nil {
		fastapi.WriteJSON(c.w, http.StatusNotFound, c.o.notFound)
		return
	}
	fastapi.WriteDetail(c.w, http.StatusNotFound, coll.Title+" not found")
}

// key is the lookup key of the id in path parameter param, false when no
// record can have it (an integer beyond int64).
func (c *call) key(coll *model.Collection, param string) (string, bool) {
	v := c.args.get(param)
	if coll.IDKind == model.IntID {
		n, ok := integer(v)
		if !ok {
			return "", false
		}
		return strconv.FormatInt(n, 10), true
	}
	return fixtures.IDKey(coll, v.Str), true
}

// find is the record path parameter param names, and its key: by id, or
// where param is another field of coll (a slug, a username) the first
// record whose field holds the value, as the backend's
// filter(Post.slug == slug).first() finds it. The scan is linear: such
// lookups are not indexed.
func (c *call) find(coll *model.Collection, param string) (string, *fixtures.Record, bool) {
	if f := coll.Field(param); f != nil && f != coll.ID {
		want, ok := c.paramJSON(param, f)
		if !ok {
			return "", nil, false
		}
		var found *fixtures.Record
		c.view().each(coll, func(r *fixtures.Record) bool {
			if bytes.Equal(r.Value(f), want) {
				found = r
				return false
			}
			return true
		})
		if found == nil {
			return "", nil, false
		}
		return found.Key(coll), found, true
	}
	key, ok := c.key(coll, param)
	if !ok {
		return "", nil, false
	}
	rec, ok := c.view().get(coll, key)
	return key, rec, ok
}

// integer is the int64 a path or query value names: an integer input's
// parsed value, or the decimal text of a string input that addresses an
// integer field (springdoc's DELETE /store/order/{orderId} declares a
// string where its GET declares the int64 id: Spring parses either into
// the Long its repository takes). False beyond int64, or for text that
// is no integer: no record holds it.
func integer(v fastapi.Value) (int64, bool) {
	if v.Int.Text != "" {
		return v.Int.Int64, v.Int.Fits
	}
	n, err := strconv.ParseInt(v.Str, 10, 64)
	return n, err == nil
}

// paramJSON is a path or query value as the field f holds it.
func (c *call) paramJSON(name string, f *model.Field) ([]byte, bool) {
	return valueJSON(c.args.get(name), f)
}

// valueJSON is v as the field f holds it.
func valueJSON(v fastapi.Value, f *model.Field) ([]byte, bool) {
	switch f.Type {
	case "integer":
		n, ok := integer(v)
		if !ok {
			return nil, false
		}
		return strconv.AppendInt(nil, n, 10), true
	case "number":
		x, ok := fastapi.ParseLaxFloat(v.Str)
		return fastapi.AppendValue(nil, x), ok
	case "boolean":
		b, ok := fastapi.ParseLaxBool(v.Str)
		return strconv.AppendBool(nil, b), ok
	}
	return fastapi.AppendString(nil, v.Str), true
}

func readOne(c *call) {
	coll := c.o.m.Coll
	c.st.mu.RLock()
	defer c.st.mu.RUnlock()
	if rec, ok := c.viewed(coll); ok {
		c.writeRecord(&rec, "")
		return
	}
	_, rec, ok := c.find(coll, c.o.m.IDParam)
	if !ok {
		if rec = c.standIn(coll, c.o.m.IDParam); rec == nil {
			c.notFound(coll)
			return
		}
	}
	c.writeRecord(rec, "")
}

// listCacheLimit is the largest whole list kept rendered in memory; larger
// lists are streamed.
const listCacheLimit = 4 << 20

// streamChunk is how much of a streamed list is rendered before it is
// written out.
const streamChunk = 64 << 10

func list(c *call) {
	coll, o := c.o.m.Coll, c.o.m
	c.st.mu.RLock()
	locked := true
	defer func() {
		if locked {
			c.st.mu.RUnlock()
		}
	}()
	v := c.view()
	var match []func(r *fixtures.Record) bool
	if o.Scoped {
		parent, _, ok := c.find(o.Parent, o.ParentParam)
		if !ok && c.parentStandIn(o.Parent, o.ParentParam) == nil {
			c.notFound(o.Parent)
			return
		}
		match = append(match, func(r *fixtures.Record) bool { return ok && r.Parent == parent })
	} else if o.Kind == model.NestedList {
		f := coll.Field(o.ParentParam)
		want, ok := c.paramJSON(o.ParentParam, f)
		if p := o.Parent; p != nil && v.count(p) > 0 {
			var found bool
			if ok {
				_, found = v.get(p, string(want))
			}
			if !found {
				c.notFound(p)
				return
			}
		}
		match = append(match, func(r *fixtures.Record) bool { return ok && bytes.Equal(r.Value(f), want) })
	}
	for _, name := range o.Filters {
		a := c.args.get(name)
		if !a.Set {
			continue
		}
		f := coll.Field(name)
		if a.List != nil && f.Type != "array" && c.s.oa != nil {
			// A list of values for a field holding one, outside FastAPI
			// documents (SmallRye's ?id=1&id=2 on an integer id): the
			// records holding any of them.
			var wants [][]byte
			for _, item := range a.List {
				if want, ok := valueJSON(fastapi.Value{Set: true, Str: item}, f); ok {
					wants = append(wants, want)
				}
			}
			match = append(match, func(r *fixtures.Record) bool {
				return slices.ContainsFunc(wants, func(w []byte) bool { return bytes.Equal(r.Value(f), w) })
			})
			continue
		}
		want, ok := c.paramJSON(name, f)
		match = append(match, func(r *fixtures.Record) bool { return ok && bytes.Equal(r.Value(f), want) })
	}
	for _, l := range o.Loose {
		if c.args.get(l.Param).Set {
			match = append(match, c.looseMatch(l))
		}
	}
	for _, l := range o.ByActor {
		if c.args.get(l.Param).Set {
			match = append(match, c.actedBy(l))
		}
	}
	if m := c.ownRecords(coll); m != nil {
		match = append(match, m)
	}
	start, stop, paged := c.window(o.Paging)
	if o.Shape == model.ArrayShape && len(match) == 0 && !paged && v.co(coll) == nil && o.Project == nil && o.View == nil && len(coll.Flags) == 0 && len(coll.FlagEmbeds) == 0 {
		// The loaded data never changes: it is sent without the lock,
		// which a slow client (or a scenario's trickle) would otherwise
		// hold against every write for as long as the list takes.
		c.st.mu.RUnlock()
		locked = false
		c.s.wholeList(c.w, v.base, coll)
		return
	}
	var recs []*fixtures.Record
	v.each(coll, func(r *fixtures.Record) bool {
		for _, m := range match {
			if !m(r) {
				return true
			}
		}
		recs = append(recs, r)
		return true
	})
	total := len(recs)
	first := int64(0)
	if paged {
		lo, hi := pySlice(start, stop, total)
		recs, first = recs[lo:hi], int64(lo)
	}
	writePooled(c.w, o.Status, func(b []byte) []byte {
		if o.Shape == model.PageShape && (o.Envelope != "items" || c.s.oa != nil) {
			// FastAPI's page ({items, total, page, size, pages}) is
			// appendPage's; any other document's envelope is written
			// by its members' names.
			return c.appendEnvelope(b, recs, total, first)
		}
		if o.Shape == model.PageShape {
			return c.appendPage(b, recs, total)
		}
		return c.appendList(b, recs)
	})
}

func appendRecords(b []byte, recs []*fixtures.Record) []byte {
	b = append(b, '[')
	for i, r := range recs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, r.JSON...)
	}
	return append(b, ']')
}

// appendPage writes a page object: its declared properties in order, items
// the records, total the count before paging, and the paging values.
func (c *call) appendPage(b []byte, recs []*fixtures.Record, total int) []byte {
	o := c.o.m
	page, size := c.intArg(o.Paging.Page, o.Paging.FirstPage), c.intArg(o.Paging.Size, 50)
	limit, skip := c.intArg(o.Paging.Limit, 100), c.intArg(o.Paging.Skip, 0)
	b = append(b, '{')
	for i, name := range c.s.spec.PropertyOrder(o.Response) {
		if i > 0 {
			b = append(b, ',')
		}
		b = fastapi.AppendString(b, name)
		b = append(b, ':')
		switch name {
		case "items":
			if o.View != nil {
				b = c.appendList(b, recs) // each record as the items' own schema shows it
				break
			}
			b = appendRecords(b, c.personalAll(recs))
		case "total":
			b = strconv.AppendInt(b, int64(total), 10)
		case "page":
			b = strconv.AppendInt(b, page, 10)
		case "size", "page_size", "per_page":
			b = strconv.AppendInt(b, size, 10)
		case "pages":
			pages := int64(0)
			if size > 0 {
				pages = (int64(total) + size - 1) / size
			}
			b = strconv.AppendInt(b, pages, 10)
		case "limit":
			b = strconv.AppendInt(b, limit, 10)
		case "skip", "offset":
			b = strconv.AppendInt(b, skip, 10)
		default:
			b = append(b, "null"...)
		}
	}
	return append(b, '}')
}

// intArg is an integer query parameter's value, else its declared default,
// else def.
func (c *call) intArg(name string, def int64) int64 {
	if name == "" {
		return def
	}
	if v := c.args.get(name); v.Set && v.Int.Fits {
		return v.Int.Int64
	}
	if d, ok := c.o.defaults[name]; ok {
		return d
	}
	return def
}

// window is the Python slice a list's paging takes: items[skip:skip+limit]
// or items[(page-1)*size:page*size]. paged is false when the list has no
// paging parameters.
func (c *call) window(p model.Paging) (start, stop int64, paged bool) {
	switch {
	case p.Page != "" && p.Size != "":
		page, size := c.intArg(p.Page, p.FirstPage)-p.FirstPage, c.intArg(p.Size, 50)
		return page * size, (page + 1) * size, true
	case p.Skip != "" || p.Limit != "":
		skip := c.intArg(p.Skip, 0)
		if p.Limit == "" {
			return skip, math.MaxInt64, true
		}
		if _, hasDefault := c.o.defaults[p.Limit]; !c.args.get(p.Limit).Set && !hasDefault {
			return skip, math.MaxInt64, true // Optional[int] = None: no limit
		}
		return skip, skip + c.intArg(p.Limit, 0), true
	}
	return 0, 0, false
}

// pySlice is Python's slice bounds for seq[start:stop] on n items.
func pySlice(start, stop int64, n int) (int, int) {
	norm := func(i int64) int {
		if i < 0 {
			i += int64(n)
			if i < 0 {
				i = 0
			}
		}
		if i > int64(n) {
			i = int64(n)
		}
		return int(i)
	}
	lo, hi := norm(start), norm(stop)
	if hi < lo {
		hi = lo
	}
	return lo, hi
}

// wholeList serves every record of coll: a small list rendered once and
// served from memory, a large one rendered chunk by chunk as it is written
// (chunked transfer encoding), so no second copy of the data set is held.
func (s *Server) wholeList(w http.ResponseWriter, base *fixtures.Dataset, coll *model.Collection) {
	lv := s.lists.Load()
	if lv == nil || lv.base != base {
		lv = &listCache{base: base, bodies: make([]listBody, len(base.Model.Collections))}
		s.lists.Store(lv)
	}
	lb := &lv.bodies[coll.Index]
	lb.once.Do(func() { lb.body = renderList(base.Table(coll), listCacheLimit) })
	if lb.body != nil {
		fastapi.WriteJSON(w, http.StatusOK, lb.body)
		return
	}
	t := base.Table(coll)
	w.Header()["Content-Type"] = []string{"application/json"}
	w.WriteHeader(http.StatusOK)
	bp := bufPool.Get().(*[]byte)
	buf := append((*bp)[:0], '[')
	for i := range t.Recs {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, t.Recs[i].JSON...)
		if len(buf) >= streamChunk {
			if _, err := w.Write(buf); err != nil {
				return // the client went away
			}
			buf = buf[:0]
		}
	}
	w.Write(append(buf, ']'))
}

// listCache holds the rendered whole lists of one data set.
type listCache struct {
	base   *fixtures.Dataset
	bodies []listBody
}

type listBody struct {
	once sync.Once
	body []byte
}

// renderList renders a whole list, or returns nil once it grows past limit.
func renderList(t *fixtures.Table, limit int) []byte {
	body := []byte{'['}
	for i := range t.Recs {
		if i > 0 {
			body = append(body, ',')
		}
		body = append(body, t.Recs[i].JSON...)
		if len(body) > limit {
			return nil
		}
	}
	return append(body, ']')
}

// login is FastAPI's OAuth2 password flow: the form is already validated
// (username, password present; grant_type "password" or absent), so what is
// left is checking the credentials (a user of the login collection's, or a
// configured account) and issuing a JWT.
func login(c *call) {
	username, password := c.args.get("username").Str, c.args.get("password").Str
	if by := c.o.m.LoginBy; by != "" {
		jsonLogin(c, by)
		return
	}
	if c.o.inputs.JSON != nil && username == "" && password == "" {
		// A login taking JSON beside its form (Django REST framework's
		// {username, email, password}): the credentials are members of
		// the body, the account named by its username, else its email.
		username, password = bodyCredentials(c.bodyFields())
	}
	c.st.mu.RLock()
	u, ok := c.view().user(username)
	c.st.mu.RUnlock()
	ok = ok && passwordMatches(u, password)
	if a := c.s.accounts[username]; !ok && a != nil {
		ok = passwordMatches(a, password)
	}
	if !ok {
		if c.o.refusal == http.StatusUnauthorized {
			c.w.Header().Set("WWW-Authenticate", "Bearer")
		}
		if !c.s.refuse(c.w, c.o, c.o.refusal, problem("incorrect username or password")) {
			fastapi.WriteDetail(c.w, c.o.refusal, fastapi.DetailWrongLogin)
		}
		return
	}
	token, err := c.s.tokens.issue(username)
	if err != nil {
		panic(err) // HS256 with a []byte key cannot fail; if it does, FastAPI's 500
	}
	c.writeToken(token)
}

// writeToken answers a login with the token it issued: FastAPI's
// {"access_token", "token_type": "bearer"}, or every member of the
// answer's declared schema with the token in its token member (see
// tokenMembers).
func (c *call) writeToken(token string) {
	body := make([]byte, 0, len(token)+48)
	if c.o.token == nil {
		body = append(body, `{"access_token":`...)
		body = fastapi.AppendString(body, token)
		body = append(body, `,"token_type":"bearer"}`...)
		fastapi.WriteJSON(c.w, c.o.m.Status, body)
		return
	}
	body = append(body, '{')
	for i, m := range c.o.token {
		if i > 0 {
			body = append(body, ',')
		}
		body = fastapi.AppendString(body, m.name)
		body = append(body, ':')
		if m.value == nil {
			body = fastapi.AppendString(body, token)
		} else {
			body = append(body, m.value...)
		}
	}
	fastapi.WriteJSON(c.w, c.o.m.Status, append(body, '}'))
}

func currentUser(c *call) {
	if c.user == nil {
		// A credential the mock did not issue, and no user to stand
		// for it (plain-OpenAPI profile).
		if !c.s.refuse(c.w, c.o, http.StatusUnauthorized, problem(detailBadCredentials)) {
			fastapi.WriteDetail(c.w, http.StatusUnauthorized, fastapi.DetailBadCredentials)
		}
		return
	}
	c.writeRecord(c.user, c.bearer())
}

// example answers an operation no convention places: its declared
// example, else a body generated for its schema (made when first answered).
func example(c *call) {
	if c.o.lookup && !c.namedRecord() {
		return
	}
	switch {
	case len(c.o.alts) > 1:
		a := pickMedia(c.o.alts, c.r.Header.Get("Accept"))
		if body := a.bytes(); body == nil {
			c.w.WriteHeader(c.o.m.Status)
		} else if a.media == "" {
			fastapi.WriteJSON(c.w, c.o.m.Status, body)
		} else {
			writeMedia(c.w, c.o.m.Status, a.media, a.stream, body)
		}
	case c.o.media != "":
		writeMedia(c.w, c.o.m.Status, c.o.media, c.o.stream, c.o.answer())
	case c.o.answer() == nil:
		if c.o.location != "" {
			// Starlette's RedirectResponse: no body, Content-Length 0.
			c.w.Header()["Location"] = []string{c.o.location}
			c.w.Header()["Content-Length"] = []string{"0"}
		}
		c.w.WriteHeader(c.o.m.Status)
	default:
		fastapi.WriteJSON(c.w, c.o.m.Status, c.o.answer())
	}
}

// namedRecord answers the 404 of an Example operation whose path names a
// record neither the contract, the mock's answers nor the mock's records
// know (operation.lookup), as the application's own lookup would
// (FastAPI's HTTPException(404, "Item not found")), and reports whether
// the record is known; the parameters skip names are not looked at. A
// parameter naming a record of a collection
// (operation.holders) names one the state holds: the pet a GET
// /pets/{id}/owner asks about is the one GET /pets/{id} reads.
func (c *call) namedRecord(skip ...string) bool {
	last := ""
	for _, in := range c.o.inputs.List {
		if in.In != "path" || slices.Contains(skip, in.Name) {
			continue
		}
		last = in.Name
		if coll := c.o.holders[in.Name]; coll != nil {
			c.st.mu.RLock()
			_, _, ok := c.find(coll, in.Name)
			c.st.mu.RUnlock()
			if ok {
				continue
			}
		}
		if named := c.s.named(); named[in.Name+"\x00"+c.args.get(in.Name).Str] || named["\x00"+c.args.get(in.Name).Str] {
			continue
		}
		detail := "Not found"
		if stem, ok := strings.CutSuffix(last, "_id"); ok && stem != "" {
			detail = strings.ToUpper(stem[:1]) + strings.ReplaceAll(stem[1:], "_", " ") + " not found"
		}
		if c.s.refuse(c.w, c.o, http.StatusNotFound, problem(detail)) {
			return false
		}
		if c.o.notFound != nil {
			fastapi.WriteJSON(c.w, http.StatusNotFound, c.o.notFound)
			return false
		}
		fastapi.WriteDetail(c.w, http.StatusNotFound, detail)
		return false
	}
	return true
}
