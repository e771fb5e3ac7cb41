package mock

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/model"
)

// Flags an action sets per user (model.Collection.Flags): favorited is
// the favorite of whoever reads, as a backend computes it from its
// favorites table for the current user. The state keeps, per record and
// flag, the accounts that set it; a record is served with the reader's
// own flags, its count (favoritesCount) the number of accounts. A reader
// that never acted on a record sees the value the record holds (false
// where the mock generated it, what a fixture file wrote), so a fixture's
// favorited: true is kept until that reader undoes it.

// mark names one flag of one record.
type mark struct {
	coll, field int
	key         string
}

// marked reports whether who set flag f on the record of c with key by
// an action (not what the record holds).
func (v view) marked(c *model.Collection, f *model.Field, key, who string) bool {
	on, acted := v.acted(c, f, key, who)
	return acted && on
}

// acted is what who's last action on flag f of the record of c with key
// left it at; acted is false when who never acted on it.
func (v view) acted(c *model.Collection, f *model.Field, key, who string) (on, acted bool) {
	if v.ov == nil {
		return false, false
	}
	on, acted = v.ov.marks[mark{c.Index, f.Index, key}][who]
	return on, acted
}

// flag is flag f of the record of c with key as who sees it: its last
// action's, else stored, the value the record holds ("true" or not).
func (v view) flag(c *model.Collection, f *model.Field, key, who string, stored []byte) bool {
	if on, acted := v.acted(c, f, key, who); acted {
		return on
	}
	return string(stored) == "true"
}

// setMark records that who set (on) or cleared flag f on the record of c
// with key. The caller holds the state's lock.
func (s *state) setMark(c *model.Collection, f *model.Field, key, who string, on bool) {
	s.writes()
	k := mark{c.Index, f.Index, key}
	if s.ov.marks == nil {
		s.ov.marks = map[mark]map[string]bool{}
	}
	if s.ov.marks[k] == nil {
		s.ov.marks[k] = map[string]bool{}
	}
	if _, seen := s.ov.marks[k][who]; !seen {
		s.ov.bytes += int64(len(key) + len(who))
	}
	// An undo is kept too (false): it hides what the record holds.
	s.ov.marks[k][who] = on
}

// actor is the name an action is kept under: the account the request's
// token names (its user key, as the token's subject), "" for a request
// naming none, whose flags only other such requests see.
func (c *call) actor() string {
	if c.user == nil {
		return ""
	}
	if l := c.s.model.Login; l != nil && l.UserKey != nil && c.user.JSON != nil {
		return c.user.Str(l.UserKey)
	}
	for name, rec := range c.s.accounts {
		if rec == c.user {
			return name
		}
	}
	return ""
}

// personal is rec, a record of coll, as the request's user sees it: each
// flag an action sets per user (its own and those of the records it
// embeds) true where this user set it. rec itself when coll has none. The
// caller holds the state's lock.
func (c *call) personal(coll *model.Collection, rec *fixtures.Record) *fixtures.Record {
	if coll == nil || (len(coll.Flags) == 0 && len(coll.FlagEmbeds) == 0) {
		return rec
	}
	v, who := c.view(), c.actor()
	vals := rec.Vals(coll)
	key := rec.Key(coll)
	for _, f := range coll.Flags {
		if rec.Has(f) || !coll.Sparse {
			vals[f.Index] = strconv.AppendBool(nil, v.flag(coll, f, key, who, rec.Value(f)))
		}
	}
	for _, f := range coll.FlagEmbeds {
		if e := c.s.model.EmbeddedColl(f); e != nil && rec.Has(f) {
			vals[f.Index] = personalEmbed(v, e, rec.Value(f), who)
		}
	}
	out := fixtures.Build(coll, vals, nil, rec.Secret, nil)
	out.Carry(rec)
	return &out
}

// personalEmbed is raw, an embedded record of e (an article's author),
// with e's flags as who set them; raw unchanged when it is no object.
func personalEmbed(v view, e *model.Collection, raw []byte, who string) []byte {
	members, ok := objectMembers(raw)
	if !ok {
		return raw
	}
	i := slices.IndexFunc(members, func(m member) bool { return m.name == e.ID.Name })
	if i < 0 {
		return raw
	}
	key := string(members[i].val)
	for i, m := range members {
		if f := e.Field(m.name); f != nil && slices.Contains(e.Flags, f) {
			members[i].val = strconv.AppendBool(nil, v.flag(e, f, key, who, m.val))
		}
	}
	return appendObject(nil, members)
}

// member is one member of a JSON object, its value as written.
type member struct {
	name string
	val  []byte
}

// objectMembers are the members of raw, a JSON object, in order; false
// when raw is no object.
func objectMembers(raw []byte) ([]member, bool) {
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	var members []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		name, _ := tok.(string)
		var val json.RawMessage
		if dec.Decode(&val) != nil {
			return nil, false
		}
		members = append(members, member{name, val})
	}
	return members, true
}

// appendObject writes members as a JSON object.
func appendObject(b []byte, members []member) []byte {
	b = append(b, '{')
	for i, m := range members {
		if i > 0 {
			b = append(b, ',')
		}
		b = fastapi.AppendString(b, m.name)
		b = append(b, ':')
		b = append(b, m.val...)
	}
	return append(b, '}')
}

// moveMarks keeps the flags set on the record of c keyed old as the
// flags of its new key, now (a renamed record is followed, favorited, as
// it was); those of a record keyed now before are dropped with it. The
// caller holds the state's lock.
func (s *state) moveMarks(c *model.Collection, old, now string) {
	if s.ov == nil {
		return
	}
	var moved []mark
	for k := range s.ov.marks {
		switch {
		case k.coll != c.Index:
		case k.key == now:
			delete(s.ov.marks, k)
		case k.key == old:
			moved = append(moved, k)
		}
	}
	for _, k := range moved {
		s.ov.marks[mark{k.coll, k.field, now}] = s.ov.marks[k]
		delete(s.ov.marks, k)
	}
}

// actedBy is the test of a ByActor filter: the records the account the
// parameter names set the flag on (?favorited=jake).
func (c *call) actedBy(l model.Loose) func(r *fixtures.Record) bool {
	v, coll, who := c.view(), c.o.m.Coll, c.args.get(l.Param).Str
	return func(r *fixtures.Record) bool { return v.marked(coll, l.Field, r.Key(coll), who) }
}

// personalAll is recs of the operation's collection, each personal.
func (c *call) personalAll(recs []*fixtures.Record) []*fixtures.Record {
	coll := c.o.m.Coll
	if coll == nil || (len(coll.Flags) == 0 && len(coll.FlagEmbeds) == 0) {
		return recs
	}
	out := make([]*fixtures.Record, len(recs))
	for i, r := range recs {
		out[i] = c.personal(coll, r)
	}
	return out
}
