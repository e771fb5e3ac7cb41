package mock

import (
	"bytes"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/model"
)

// Writes that change a record's key. A record keyed by a natural key (an
// Article by its slug, a User by its username, as the path names it) is
// stored under the key a write sends, and what refers to it by its key
// follows: the records under it or naming it, the flags set on it, and,
// for an account, its profile, the copies of it other records embed, the
// flags it set and the tokens it holds.

// rekeyable reports whether a write's body may change the key of coll's
// records: a natural key (a string not called id), outside FastAPI
// documents, whose ids are the database's and no body changes.
func (s *Server) rekeyable(coll *model.Collection) bool {
	return s.model.Framework != framework.FastAPI && coll.ID.Name != "id" && coll.ID.Type == "string"
}

// newKey is the key the request's body gives its record of coll, nil when
// it sends none or coll's keys do not change.
func (c *call) newKey(coll *model.Collection) []byte {
	if !c.s.rekeyable(coll) {
		return nil
	}
	val, set, ok := c.bodyValue(coll.ID)
	if !ok || !set || string(val) == "null" {
		return nil
	}
	return val
}

// keyTaken reports whether vals, the fields of coll's record keyed old
// changed, give it a key another record of v has.
func keyTaken(v view, coll *model.Collection, old string, vals [][]byte) bool {
	key := string(vals[coll.ID.Index])
	if key == old {
		return false
	}
	_, taken := v.get(coll, key)
	return taken
}

// refuseTaken answers a write refused with status because it would give
// f of coll's record a value another record holds.
func (c *call) refuseTaken(status int, coll *model.Collection, f *model.Field) {
	if !c.s.refuse(c.w, c.o, status, problem(f.Name+" is already taken")) {
		fastapi.WriteDetail(c.w, status, coll.Title+" with this "+f.Name+" already exists")
	}
}

// rekey keeps rec, the record of coll that was keyed old, as store does,
// under its own key; where that changed, no longer under old (a read of
// old is then a 404), and the records under it (its comments) or naming
// it by key (author_id), and the flags set on it, follow it to the new
// key. False when store refused it.
func (c *call) rekey(coll *model.Collection, old string, rec *fixtures.Record) bool {
	now := rec.Key(coll)
	if !c.store(coll, now, rec) {
		return false
	}
	if now == old || c.s.cfg.ReadOnly {
		return true
	}
	c.st.put(coll, old, nil)
	c.st.moveMarks(coll, old, now)
	v := c.view()
	for _, other := range c.s.model.Collections {
		var refs []*model.Field
		for _, f := range other.Fields {
			if f.Refers == coll {
				refs = append(refs, f)
			}
		}
		if other.ScopedBy != coll && refs == nil {
			continue
		}
		var redo []fixtures.Record
		v.each(other, func(r *fixtures.Record) bool {
			under := other.ScopedBy == coll && r.Parent == old
			var vals [][]byte
			for _, f := range refs {
				if string(r.Value(f)) == old {
					if vals == nil {
						vals = r.Vals(other)
					}
					vals[f.Index] = []byte(now)
				}
			}
			if !under && vals == nil {
				return true
			}
			if vals == nil {
				vals = r.Vals(other)
			}
			nr := fixtures.Build(other, vals, v.join, r.Secret, nil)
			nr.Carry(r)
			if under {
				nr.Parent = now
			}
			redo = append(redo, nr)
			return true
		})
		for i := range redo {
			c.st.put(other, redo[i].Key(other), &redo[i])
		}
	}
	return true
}

// follow keeps what refers to the login collection's account by its name
// (its user key) in step with its update from old to rec, outside FastAPI
// documents: the copies of it other records embed (an article's author,
// as userAs filled it in) show it as it is now; and where its name
// changed, its profile (a view of it, with what the view holds of its
// own) and the flags set on it move to the new name, the flags it set are
// its under the new name, and the tokens issued under the old name name
// it still.
func (c *call) follow(old, rec *fixtures.Record) {
	login := c.s.model.Login
	if c.s.cfg.ReadOnly || login == nil || login.UserKey == nil || c.s.model.Framework == framework.FastAPI {
		return
	}
	was, now := old.Value(login.UserKey), rec.Value(login.UserKey)
	renamed := !bytes.Equal(was, now)
	for _, other := range c.s.model.Collections {
		if renamed && other.ViewOf == login {
			c.moveView(other, string(was), string(now))
		}
		for _, f := range other.Fields {
			if key := c.s.model.EmbeddedKey(f); f.Embed == nil && key != nil && key.Name == login.UserKey.Name {
				c.refreshCopies(other, f, was, rec)
			}
		}
	}
	if renamed {
		c.st.rename(old.Str(login.UserKey), rec.Str(login.UserKey))
	}
}

// moveView keeps the record the view w holds of its own for the account
// named old (a profile's following) under the account's new name, now,
// and no longer under old, with the flags set on it.
func (c *call) moveView(w *model.Collection, old, now string) {
	v := c.view()
	own, ok := v.get(w, old)
	c.st.put(w, old, nil)
	switch {
	case ok:
		vals := own.Vals(w)
		vals[w.ID.Index] = []byte(now)
		nr := fixtures.Build(w, vals, v.join, own.Secret, nil)
		nr.Carry(own)
		c.st.put(w, now, &nr)
	default:
		if _, held := v.get(w, now); held {
			c.st.put(w, now, nil) // another's of that name before: not the account's
		}
	}
	c.st.moveMarks(w, old, now)
}

// refreshCopies sets, in the records of coll whose field f embeds a copy
// of the account named was, the members the account has to rec's values.
func (c *call) refreshCopies(coll *model.Collection, f *model.Field, was []byte, rec *fixtures.Record) {
	login, v := c.s.model.Login, c.view()
	key := c.s.model.EmbeddedKey(f).Name
	var redo []fixtures.Record
	v.each(coll, func(r *fixtures.Record) bool {
		raw := r.Value(f)
		if !bytes.Contains(raw, was) {
			return true
		}
		members, ok := objectMembers(raw)
		if !ok {
			return true
		}
		mine := false
		for i, m := range members {
			if m.name == key {
				mine = bytes.Equal(m.val, was)
			}
			if lf := login.Field(m.name); lf != nil && rec.Has(lf) {
				members[i].val = rec.Value(lf)
			}
		}
		if out := appendObject(nil, members); mine && !bytes.Equal(out, raw) {
			vals := r.Vals(coll)
			vals[f.Index] = out
			nr := fixtures.Build(coll, vals, v.join, r.Secret, nil)
			nr.Carry(r)
			redo = append(redo, nr)
		}
		return true
	})
	for i := range redo {
		c.st.put(coll, redo[i].Key(coll), &redo[i])
	}
}

// rename keeps that the account called old is called now: the flags it
// set are its under the new name, and a token naming the old one names it
// (view.holder). The caller holds the state's lock.
func (s *state) rename(old, now string) {
	ov := s.writes()
	for _, who := range ov.marks {
		if on, ok := who[old]; ok {
			delete(who, old)
			who[now] = on
		}
	}
	if ov.aliases == nil {
		ov.aliases = map[string]string{}
	}
	for from, to := range ov.aliases {
		if to == old {
			ov.aliases[from] = now
		}
	}
	delete(ov.aliases, now) // an account's own name again
	ov.aliases[old] = now
	ov.bytes += int64(len(old) + len(now))
}
