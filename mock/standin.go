package mock

import (
	"bytes"
	"encoding/json"
	"hash/fnv"
	"math/rand/v2"
	"net/http"
	"strconv"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/openapiprofile"
)

// standIn is, under the plain-OpenAPI profile, the record an operation
// that declares no 404 (nor 4XX, nor default) answers for a key the mock
// has no record of: a 404 would answer what the document says it never
// does. As Prism answers any id, the record is generated for coll, holds
// the value path parameter param names (its id, or the key field param
// is), and is the same for the same value. Nil under FastAPI's profile,
// whose application answers its HTTPException(404), or where the
// operation declares the 404. A value the key field's schema refuses (a
// name of one letter where names have four or more) is no key a record
// can hold: the stand-in's key is then generated as its other fields,
// so that the answer still fits the schema. Where the 404 is declared, a
// key an Example operation's answer shows as the key field's value is
// answered so too.
func (c *call) standIn(coll *model.Collection, param string) *fixtures.Record {
	return c.standInFor(coll, param, c.o.m.Op)
}

// parentStandIn is the stand-in of the parent record path parameter
// param names where the parent's own read answers one (it declares no
// 404): the record a client was shown, so records may be made and listed
// under it. Nil where the read refuses unknown keys, under FastAPI's
// profile, or where the document lists the parents: there the record made
// real would join the list (as an action's, see action).
func (c *call) parentStandIn(parent *model.Collection, param string) *fixtures.Record {
	if c.s.oa == nil || listed(c.s.model, parent) {
		return nil
	}
	for _, o := range c.s.model.Operations {
		if o.Kind == model.ReadOne && o.Coll == parent {
			return c.standInFor(parent, param, o.Op)
		}
	}
	return nil
}

// standInFor is standIn where op's declared responses decide.
func (c *call) standInFor(coll *model.Collection, param string, op *openapi3.Operation) *fixtures.Record {
	if c.s.oa == nil {
		return nil
	}
	by := coll.Field(param)
	if by == nil {
		by = coll.ID
	}
	// A key an answer of the mock showed (a list answered from its
	// example, Goa's: [{"id": "123abc", …}]) names the record a client
	// was told of: the object shown, as far as it fits.
	shown := c.s.shown()[by.Name+"\x00"+c.args.get(param).Str]
	if shown == nil && openapiprofile.Response(op, http.StatusNotFound) != nil {
		return nil // the declared 404: a key nothing named
	}
	var want []byte
	if by == coll.ID {
		key, ok := c.key(coll, param)
		if !ok || c.view().removed(coll, key) {
			// A record this state deleted reads as gone: a frontend
			// deleting and reading again expects its 404.
			return nil
		}
		want = []byte(key) // an id's key is its JSON text
		if n, err := strconv.ParseInt(key, 10, 64); err == nil && coll.IDKind == model.IntID {
			c.st.showID(coll, n)
		}
	} else {
		v, ok := c.paramJSON(param, by)
		if !ok || c.view().removedBy(coll, by, v) {
			// (a key a record this state deleted held reads as gone too)
			return nil
		}
		want = v
	}
	valid := c.s.fieldAccepts(by, want)
	h := fnv.New64a()
	h.Write([]byte(coll.Name))
	h.Write([]byte{0})
	h.Write(want)
	f := gofakeit.NewFaker(rand.NewPCG(c.s.cfg.Seed, h.Sum64()), false)
	vals := make([][]byte, len(coll.Fields))
	for _, fl := range coll.Fields {
		switch {
		case fl == by && valid:
			vals[fl.Index] = want
		case fl.Embed != nil:
			// joined
		default:
			made := c.s.fake.AppendAnswer(nil, f, fl.Name, fl.Ref)
			if v, ok := shown[fl.Name]; ok {
				// The value shown, over the one made: an object shown in
				// a smaller view (a winery's name) keeps the members the
				// field's schema requires beside it.
				var base any
				dec := json.NewDecoder(bytes.NewReader(made))
				dec.UseNumber()
				if dec.Decode(&base) != nil {
					base = nil
				}
				if b, err := json.Marshal(shownOver(base, v, 0)); err == nil && c.s.fieldAccepts(fl, b) {
					made = b
				}
			}
			vals[fl.Index] = made
		}
	}
	rec := fixtures.Build(coll, vals, c.view().join, "", nil)
	return &rec
}

// fieldAccepts reports whether the JSON text v validates against the
// schema of the field f.
func (s *Server) fieldAccepts(f *model.Field, v []byte) bool {
	if f.Ref == nil || f.Ref.Value == nil {
		return true
	}
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	var x any
	if dec.Decode(&x) != nil {
		return false
	}
	return s.spec.Validate(f.Ref.Value, x, false) == nil
}

// shownOver is v over base: v's members over base's where both are
// objects, else v.
func shownOver(base, v any, depth int) any {
	b, bok := base.(map[string]any)
	m, mok := v.(map[string]any)
	if !bok || !mok || depth > 64 {
		return v
	}
	out := make(map[string]any, len(b)+len(m))
	for k, x := range b {
		out[k] = x
	}
	for k, x := range m {
		out[k] = shownOver(b[k], x, depth+1)
	}
	return out
}
