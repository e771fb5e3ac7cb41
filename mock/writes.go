package mock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/openapiprofile"
)

// Writes: create, replace, update and delete, as the usual FastAPI CRUD
// code does them. Each works on the request's state under its write lock;
// with ReadOnly it answers as if it had written and keeps nothing.

// detailUsernameTaken is the usual registration endpoint's 400.
const detailUsernameTaken = "Username already registered"

// bodyValue is the body's value for the record field f, rendered as the
// record holds it; set reports whether the client sent it.
func (c *call) bodyValue(f *model.Field) (v []byte, set, ok bool) {
	for _, bf := range c.bodyFields() {
		if bf.Name != f.Name || bf.JSON == nil {
			continue
		}
		out, err := fixtures.CanonFor(c.o.m.Coll, c.s.spec, nil, f.Ref, bf.JSON)
		if err != nil || c.o.m.Coll.Sparse && bf.Set && !c.s.fits(f, out) {
			return nil, false, false // a body field of another type than the record's: not taken
		}
		return out, bf.Set, true
	}
	return nil, false, false
}

// fits reports whether the JSON value v is valid for the record field f:
// a body may name a relation by its id (owner: 7) where the record holds
// the related object, which an answer must not echo.
func (s *Server) fits(f *model.Field, v []byte) bool { return s.fitsSchema(f.Ref, v) }

// fitsSchema reports whether the JSON value v is valid for the schema ref.
func (s *Server) fitsSchema(ref *openapi3.SchemaRef, v []byte) bool {
	var x any
	if ref == nil || ref.Value == nil || json.Unmarshal(v, &x) != nil {
		return false
	}
	return s.spec.Validate(ref.Value, x, false) == nil
}

// viewSent is what a write keeps of its body for the members only coll's
// views declare (model.Collection.ViewOnly: the owner a create sends,
// that PetCreate shows and PetRead does not), over was, what the record
// kept before: each value sent that a view declaring it accepts, as the
// backend stores every column a write sends whichever schema reads it. A
// replace keeps only what it sends; a create or an update keeps the rest
// of was. Its values are fixtures.Record.Sent's.
func (c *call) viewSent(coll *model.Collection, was map[string][]byte) map[string][]byte {
	if len(coll.ViewOnly) == 0 {
		return nil
	}
	var out map[string][]byte
	if c.o.m.Kind != model.Replace {
		out = was
	}
	cloned := false
	for _, bf := range c.bodyFields() {
		if !bf.Set || bf.JSON == nil {
			continue
		}
		for _, vm := range coll.ViewOnly {
			if vm.Name != bf.Name {
				continue
			}
			v, err := fixtures.CanonFor(coll, c.s.spec, nil, vm.Ref, bf.JSON)
			if err != nil || !c.s.fitsSchema(vm.Ref, v) {
				continue // another type than this view's (owner: 7 where PetCreate shows an object)
			}
			if !cloned {
				out, cloned = maps.Clone(out), true // was is the old record's: never changed in place
				if out == nil {
					out = map[string][]byte{}
				}
			}
			out[bf.Name] = v
			break
		}
	}
	return out
}

// bodySecret is the password a registration body carries.
func (c *call) bodySecret(coll *model.Collection) string {
	for _, bf := range c.bodyFields() {
		if bf.Name == coll.Secret && bf.JSON != nil && bf.JSON[0] == '"' {
			var s string
			if err := jsonUnmarshalString(bf.JSON, &s); err == nil {
				return s
			}
		}
	}
	return ""
}

func create(c *call) {
	coll, o := c.o.m.Coll, c.o.m
	c.st.mu.Lock()
	defer c.st.mu.Unlock()
	v := c.view()
	vals := make([][]byte, len(coll.Fields))
	parent := ""
	var parentKey []byte // the parent's key, for o.ParentField
	if o.Scoped {
		key, prec, ok := c.find(o.Parent, o.ParentParam)
		if !ok {
			// a parent its read shows (a stand-in) is made real, as
			// the record the new one is made under
			if prec = c.parentStandIn(o.Parent, o.ParentParam); prec == nil {
				c.notFound(o.Parent)
				return
			}
			if key = prec.Key(o.Parent); !c.store(o.Parent, key, prec) {
				return
			}
		}
		parent = key
		if o.ParentField != nil && prec != nil {
			parentKey = prec.Value(o.Parent.ID)
		}
	} else if o.Kind == model.NestedCreate {
		f := coll.Field(o.ParentParam)
		want, ok := c.paramJSON(o.ParentParam, f)
		if p := o.Parent; p != nil && v.count(p) > 0 {
			found := false
			if ok {
				_, found = v.get(p, string(want))
			}
			if !found {
				c.notFound(p)
				return
			}
		}
		vals[f.Index] = want
	}
	now := fastapi.AppendString(nil, c.s.model.Framework.FormatDateTime(c.s.cfg.Now()))
	for _, f := range coll.Fields {
		if vals[f.Index] != nil {
			continue
		}
		val, set, ok := c.bodyValue(f)
		if coll.Sparse && ok && !set && string(val) == "null" {
			ok = false // not sent, no default: not a null to keep
		}
		switch {
		case f == coll.ID && ok && string(val) != "null":
			// The client chose the id (a create body that carries it, as
			// POST /movies {"id": "tt0137523", …}): the record keeps it,
			// and a taken one is refused as such backends refuse it.
			if _, taken := v.get(coll, string(val)); taken {
				if !c.s.refuse(c.w, c.o, http.StatusConflict, problem(coll.Title+" already exists")) {
					fastapi.WriteDetail(c.w, http.StatusConflict, coll.Title+" already exists")
				}
				return
			}
			vals[f.Index] = val
		case f == coll.ID && f.Name != "id" && f.Type == "string":
			// a natural key (an Article's slug): made once the other
			// fields are known, below
		case f == coll.ID:
			vals[f.Index] = c.newID(coll)
		case f.Embed != nil:
			// joined
		case ok && (string(val) != "null" || !c.s.keyField(coll, f)):
			vals[f.Index] = val
		case c.s.keyField(coll, f):
			vals[f.Index] = c.uniqueValue(v, coll, f)
		case f.Stamp != "":
			vals[f.Index] = now
		case f.Owner && c.user != nil && f.Refers != nil:
			vals[f.Index] = ownerValue(f, c.user.Value(f.Refers.ID))
		case f.Type == "object" && c.userAs(f) != nil:
			vals[f.Index] = c.userAs(f)
		case f.Default != nil:
		case f.Type == "integer" && model.CountMember(f.Name) && c.s.model.Framework != framework.FastAPI:
			// favoritesCount, comments_count: nothing counted yet
			vals[f.Index] = []byte("0")
		case f.Type == "boolean" && f.Required && c.s.model.Framework != framework.FastAPI:
			// favorited, following: not yet
			vals[f.Index] = []byte("false")
		case coll.Sparse && !f.Required:
			// left out: the document's answer need not hold it
		case f.Type == "array" && (!coll.Sparse || f.Required):
			// a list nothing was sent for is empty (tagList: [])
			vals[f.Index] = []byte("[]")
		case f.Type == "object" && !coll.Sparse:
			vals[f.Index] = []byte("{}")
		default:
			vals[f.Index] = c.s.fakeValue(f)
		}
	}
	if vals[coll.ID.Index] == nil {
		vals[coll.ID.Index] = c.naturalKey(v, coll, vals)
	}
	if parentKey != nil {
		vals[o.ParentField.Index] = parentKey // the path's parent, whatever the body said
	}
	if c.refsMissing(coll, vals) {
		return
	}
	secret := ""
	if coll.Secret != "" {
		secret = c.bodySecret(coll)
		if user := coll.UserKey; user != nil {
			name := vals[user.Index]
			taken := false
			v.each(coll, func(r *fixtures.Record) bool {
				taken = bytes.Equal(r.Value(user), name)
				return !taken
			})
			if taken {
				if !c.s.refuse(c.w, c.o, c.s.conflictStatus(c.o), problem("username is already taken")) {
					fastapi.WriteDetail(c.w, http.StatusBadRequest, detailUsernameTaken)
				}
				return
			}
		}
	}
	rec := fixtures.Build(coll, vals, v.join, secret, nil)
	rec.Parent, rec.Sent = parent, c.viewSent(coll, nil)
	if !c.store(coll, rec.Key(coll), &rec) {
		return
	}
	if coll == c.s.model.Login && coll.TokenField() != nil && c.answersRecord() {
		// a registration answering the account with its token
		token, err := c.s.tokens.issue(rec.Str(coll.UserKey))
		if err != nil {
			panic(err) // HS256 with a []byte key cannot fail
		}
		c.writeRecord(&rec, token)
		return
	}
	c.answer(&rec)
}

// newID is the id of a created record: the next integer (never one used
// before in this state), else a UUID.
func (c *call) newID(coll *model.Collection) []byte {
	if coll.IDKind == model.IntID {
		co := c.st.writeable(coll)
		id := co.nextID
		if shown := c.st.shownID(coll); shown >= id && shown < math.MaxInt64 {
			id = shown + 1
		}
		if !c.s.cfg.ReadOnly {
			co.nextID = id + 1
		}
		return fmt.Appendf(nil, "%d", id)
	}
	return fastapi.AppendString(nil, c.s.uuid())
}

// refsMissing answers 404 when a relation field names a record its
// collection, having records, does not have. Under the plain-OpenAPI
// profile an operation that declares no 404 (nor 4XX, nor default:
// utoipa's POST /tasks declares 201 and 400) takes the reference as it
// takes a key the mock has no record of on a read (standIn): a 404 would
// answer what the document says it never does, and a 400 would call
// values the schema accepts invalid.
func (c *call) refsMissing(coll *model.Collection, vals [][]byte) bool {
	if c.s.oa != nil && openapiprofile.Response(c.o.m.Op, http.StatusNotFound) == nil {
		return false
	}
	v := c.view()
	for _, f := range coll.Fields {
		if f.Refers == nil || f.Embed != nil || f.Owner || vals[f.Index] == nil || string(vals[f.Index]) == "null" {
			continue
		}
		if c.o.m.Kind == model.NestedCreate && f.Name == c.o.m.ParentParam {
			continue
		}
		if v.count(f.Refers) == 0 {
			continue
		}
		if _, ok := v.get(f.Refers, string(vals[f.Index])); !ok {
			c.notFound(f.Refers)
			return true
		}
	}
	return false
}

// store keeps rec (nil: deletes key) unless the mock is read-only, then
// re-renders the records that embed it. It answers 507 and returns false
// when the state would outgrow its bound.
func (c *call) store(coll *model.Collection, key string, rec *fixtures.Record) bool {
	if c.s.cfg.ReadOnly {
		return true
	}
	if rec != nil && c.st.ov != nil && c.st.ov.bytes+int64(len(rec.JSON)) > c.s.cfg.MaxWriteBytes {
		fastapi.WriteDetail(c.w, http.StatusInsufficientStorage, fmt.Sprintf(
			"moviemock: this state already holds %d bytes of writes (the bound is %d, --max-write-bytes); reset it with POST /__mock/reset or its session's reset",
			c.st.ov.bytes, c.s.cfg.MaxWriteBytes))
		return false
	}
	c.st.put(coll, key, rec)
	c.cascade(coll, key)
	return true
}

// cascade re-renders, in this state, the records that embed the record
// of coll with key: an edited user shows in their reviews at once.
func (c *call) cascade(coll *model.Collection, key string) {
	v := c.view()
	for _, other := range c.s.model.Collections {
		for _, f := range other.Fields {
			if f.Embed != coll {
				continue
			}
			var redo []*fixtures.Record
			v.each(other, func(r *fixtures.Record) bool {
				if string(r.Value(f.Join)) == key {
					redo = append(redo, r)
				}
				return true
			})
			for _, r := range redo {
				nr := fixtures.Build(other, r.Vals(other), v.join, r.Secret, nil)
				nr.Carry(r)
				c.st.put(other, nr.Key(other), &nr)
			}
		}
	}
}

// answer writes the operation's success status with the record, or no
// body when the operation declares none.
func (c *call) answer(rec *fixtures.Record) {
	switch {
	case c.o.m.Response == nil || c.o.m.Status == http.StatusNoContent:
		// FastAPI's Response(status_code=204) of a JSON route: the JSON
		// media type, no body, no Content-Length.
		c.w.Header()["Content-Type"] = []string{"application/json"}
		c.w.WriteHeader(c.o.m.Status)
	case c.o.m.Shape == model.OneShape:
		c.writeRecord(rec, "")
	case c.o.answer() != nil: // a value of the declared schema (see compileOperation)
		fastapi.WriteJSON(c.w, c.o.m.Status, c.o.answer())
	default: // an endpoint that returns None
		fastapi.WriteJSON(c.w, c.o.m.Status, []byte("null"))
	}
}

// modify is replace (PUT: every field of the body model) and update (PATCH:
// only the fields sent); a natural key sent (a slug) re-keys the record
// (rekey).
func modify(c *call) {
	coll, o := c.o.m.Coll, c.o.m
	c.st.mu.Lock()
	defer c.st.mu.Unlock()
	v := c.view()
	key, old, ok := c.find(coll, o.IDParam)
	if !ok {
		if old = c.standIn(coll, o.IDParam); old == nil {
			c.notFound(coll)
			return
		}
		key = old.Key(coll)
	}
	vals := old.Vals(coll)
	for _, f := range coll.Fields {
		if f == coll.ID {
			if k := c.newKey(coll); k != nil {
				vals[f.Index] = k // a new slug, as sent
			}
			continue
		}
		if f.Embed != nil {
			continue
		}
		if val, set, ok := c.bodyValue(f); ok && (set || o.Kind == model.Replace) {
			// A null the request schema allows into a field the record's
			// schema does not (PATCH {"title": null} with title: str) is
			// not stored: FastAPI would fail to serve the record (its
			// response validation, a 500), so a working backend ignores
			// it, as model_dump(exclude_none=True) or "if v is not None"
			// does. Stored, the mock would break its own contract.
			if coll.Sparse && !set && string(val) == "null" {
				// A replace that leaves it out: the record does too, but
				// for a field the record's schema requires (gotify's
				// Application requires the description its
				// ApplicationParams leaves optional), which keeps what it
				// held: the answer must still be a record.
				if !f.Required {
					vals[f.Index] = nil
				}
				continue
			}
			if string(val) == "null" && !f.Nullable {
				continue
			}
			vals[f.Index] = val
		}
		if f.Stamp == "updated" {
			vals[f.Index] = fastapi.AppendString(nil, c.s.model.Framework.FormatDateTime(c.s.cfg.Now()))
		}
	}
	if c.refsMissing(coll, vals) {
		return
	}
	if keyTaken(v, coll, key, vals) {
		c.refuseTaken(c.s.conflictStatus(c.o), coll, coll.ID)
		return
	}
	secret := old.Secret
	if s := c.bodySecret(coll); s != "" {
		secret = s
	}
	rec := fixtures.Build(coll, vals, v.join, secret, nil)
	rec.Carry(old)
	rec.Sent = c.viewSent(coll, old.Sent)
	if !c.rekey(coll, key, &rec) {
		return
	}
	if coll == c.s.model.Login {
		c.follow(old, &rec)
	}
	c.answer(&rec)
}

func remove(c *call) {
	coll, o := c.o.m.Coll, c.o.m
	c.st.mu.Lock()
	defer c.st.mu.Unlock()
	key, old, ok := c.find(coll, o.IDParam)
	if ok && !c.underParent(coll, old) {
		c.notFound(coll) // the record is another parent's
		return
	}
	if !ok {
		if old = c.standIn(coll, o.IDParam); old == nil {
			c.notFound(coll)
			return
		}
		c.answerDeleted(old) // nothing to delete
		return
	}
	if !c.store(coll, key, nil) {
		return
	}
	c.answerDeleted(old)
}

// answerDeleted answers a delete of old: its declared body when that is
// another than the record (a Message), else the record.
func (c *call) answerDeleted(old *fixtures.Record) {
	o := c.o.m
	if r := o.Response; r != nil && r.Value != nil && len(r.Value.Properties) > 0 && o.Envelope == "" && !isRecordSchema(c) {
		c.answerMessage(o.Coll.Title + " deleted successfully")
		return
	}
	c.answer(old)
}

// ownerValue is the id of the token's user as the owner field f holds it:
// an integer id in a string field is its decimal text, as the backend's
// model converts it (pydantic's coerce_numbers_to_str, or str(user.id))
// for the answer to fit the field's schema.
func ownerValue(f *model.Field, id []byte) []byte {
	if f.Type == "string" && len(id) > 0 && (id[0] == '-' || id[0] >= '0' && id[0] <= '9') {
		return fastapi.AppendString(nil, string(id))
	}
	return id
}

// keyField reports whether a path parameter addresses coll's records by f
// (GET /posts/{slug}): a key of the record beside its id.
func (s *Server) keyField(coll *model.Collection, f *model.Field) bool {
	return f != coll.ID && s.keys[coll] != nil && s.keys[coll][f]
}

// uniqueValue is a generated value of f no record of coll in v has: a
// create that does not set a key field gets one, as the backend computes
// one (a slug from the title), else the record could never be addressed.
func (c *call) uniqueValue(v view, coll *model.Collection, f *model.Field) []byte {
	taken := func(val []byte) bool {
		found := false
		v.each(coll, func(r *fixtures.Record) bool {
			found = bytes.Equal(r.Value(f), val)
			return !found
		})
		return found
	}
	val := c.s.fakeValue(f)
	for i := 0; taken(val) && i < 8; i++ {
		val = c.s.fakeValue(f)
	}
	if taken(val) && f.Type == "string" {
		var s string
		if jsonUnmarshalString(val, &s) == nil {
			val = fastapi.AppendString(nil, fmt.Sprintf("%s-%d", s, v.count(coll)+1))
		}
	}
	return val
}
