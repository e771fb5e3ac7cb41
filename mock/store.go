package mock

import (
	clist "container/list" // "list" is the List operation
	"sync"
	"time"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/model"
)

// DefaultMaxWriteBytes bounds the records one state (the global one, or one
// session's) may hold beyond the loaded data.
const DefaultMaxWriteBytes = 32 << 20

// state is the data as one client sees it: the loaded data set, and the
// writes made on top of it (nil: none). Writes never touch the data set;
// they live in an overlay, copy-on-write, so a session's writes are seen by
// that session alone and a reset is dropping the overlay.
type state struct {
	mu   sync.RWMutex
	base *fixtures.Dataset
	ov   *overlay

	// A session's: its id, when last used, its place in store.lru.
	id   string
	used time.Time
	elem *clist.Element

	// shownMu guards shown: per collection index, the largest integer
	// id a stand-in was answered for (standIn, under the read lock). A
	// create gives a larger one, so the record a client was shown is
	// never another it then creates.
	shownMu sync.Mutex
	shown   map[int]int64
}

// showID notes that a stand-in of c with integer id was answered.
func (s *state) showID(c *model.Collection, id int64) {
	s.shownMu.Lock()
	defer s.shownMu.Unlock()
	if s.shown == nil {
		s.shown = map[int]int64{}
	}
	if id > s.shown[c.Index] {
		s.shown[c.Index] = id
	}
}

// shownID is the largest integer id a stand-in of c was answered for.
func (s *state) shownID(c *model.Collection) int64 {
	s.shownMu.Lock()
	defer s.shownMu.Unlock()
	return s.shown[c.Index]
}

// overlay is the writes of one state, per collection.
type overlay struct {
	colls []*collOverlay // by collection index; nil: unchanged
	bytes int64          // the JSON bytes of every record it holds
	// marks are the accounts that set each flag an action sets per user
	// (flags.go).
	marks map[mark]map[string]bool
	// aliases are the names accounts had before a rename (rekey.go), each
	// to the account's name now: a token issued under the old name names
	// the account still.
	aliases map[string]string
}

// collOverlay is one collection's changes: records replaced or deleted
// (nil) by key, and records created, in creation order.
type collOverlay struct {
	changed map[string]*fixtures.Record
	added   []*fixtures.Record
	addedAt map[string]int // key → index in added
	nextID  int64          // integer ids: the next one to give
	// removed are the keys deleted in this state and not written since:
	// a read of one is a 404, never a stand-in (standIn).
	removed map[string]bool
	// removedBy are, for each key field a path reads records by
	// (Collection.Keys), the values (JSON) the records deleted in this
	// state held, not held by a record written since: as removed.
	removedBy map[*model.Field]map[string]bool
}

// view reads a state's records. It holds no lock; the caller holds the
// state's.
type view struct {
	base *fixtures.Dataset
	ov   *overlay
}

func (v view) co(c *model.Collection) *collOverlay {
	if v.ov == nil {
		return nil
	}
	return v.ov.colls[c.Index]
}

// removed reports whether key was deleted from c in this state.
func (v view) removed(c *model.Collection, key string) bool {
	co := v.co(c)
	return co != nil && co.removed[key]
}

// removedBy reports whether a record of c deleted in this state held the
// value val (JSON) of its key field f, and no record written since does.
func (v view) removedBy(c *model.Collection, f *model.Field, val []byte) bool {
	co := v.co(c)
	return co != nil && co.removedBy[f][string(val)]
}

// get returns the record of c whose key is key.
func (v view) get(c *model.Collection, key string) (*fixtures.Record, bool) {
	if co := v.co(c); co != nil {
		if r, ok := co.changed[key]; ok {
			return r, r != nil
		}
		if i, ok := co.addedAt[key]; ok {
			return co.added[i], true
		}
	}
	return v.base.Table(c).Get(key)
}

// each calls fn with c's records in list order until fn returns false.
func (v view) each(c *model.Collection, fn func(r *fixtures.Record) bool) {
	t := v.base.Table(c)
	co := v.co(c)
	for i := range t.Recs {
		r := &t.Recs[i]
		if co != nil {
			if nr, ok := co.changed[r.Key(c)]; ok {
				if nr == nil {
					continue
				}
				r = nr
			}
		}
		if !fn(r) {
			return
		}
	}
	if co != nil {
		for _, r := range co.added {
			if r != nil && !fn(r) {
				return
			}
		}
	}
}

// count is how many records c has in this view.
func (v view) count(c *model.Collection) int {
	co := v.co(c)
	n := v.base.Table(c).Len()
	if co == nil {
		return n
	}
	for key, r := range co.changed {
		if _, inBase := v.base.Table(c).Get(key); inBase && r == nil {
			n--
		}
	}
	for _, r := range co.added {
		if r != nil {
			n++
		}
	}
	return n
}

// user returns the login record called name.
func (v view) user(name string) (*fixtures.Record, bool) {
	c := v.base.Model.Login
	if c == nil {
		return nil, false
	}
	if co := v.co(c); co != nil {
		user := c.UserKey
		var found *fixtures.Record
		v.each(c, func(r *fixtures.Record) bool {
			if r.Str(user) == name {
				found = r
				return false
			}
			return true
		})
		return found, found != nil
	}
	return v.base.Table(c).ByUsername(name)
}

// holder is the account a token's subject names: the login record called
// name, else the one renamed from name since, whose tokens keep working
// as a backend's do that names its users by an id no update changes.
func (v view) holder(name string) (*fixtures.Record, bool) {
	if r, ok := v.user(name); ok || v.ov == nil {
		return r, ok
	}
	if now, ok := v.ov.aliases[name]; ok {
		return v.user(now)
	}
	return nil, false
}

// join renders an embedded record as this view has it.
func (v view) join(f *model.Field, key []byte) []byte {
	r, ok := v.get(f.Embed, string(key))
	if !ok {
		return nil
	}
	return r.JSON
}

// writes is the state's overlay, made on first write.
func (s *state) writes() *overlay {
	if s.ov == nil {
		s.ov = &overlay{colls: make([]*collOverlay, len(s.base.Model.Collections))}
	}
	return s.ov
}

// writeable returns c's overlay, made on first write.
func (s *state) writeable(c *model.Collection) *collOverlay {
	co := s.writes().colls[c.Index]
	if co == nil {
		co = &collOverlay{changed: map[string]*fixtures.Record{}, addedAt: map[string]int{}}
		if c.IDKind == model.IntID {
			co.nextID = maxIntID(s.base.Table(c)) + 1
		}
		s.ov.colls[c.Index] = co
	}
	return co
}

// put stores r (nil: deletes key) in c.
func (s *state) put(c *model.Collection, key string, r *fixtures.Record) {
	var old *fixtures.Record
	if r == nil && len(c.Keys) > 0 {
		old, _ = view{base: s.base, ov: s.ov}.get(c, key)
	}
	co := s.writeable(c)
	if r != nil {
		s.ov.bytes += int64(len(r.JSON))
		delete(co.removed, key)
		for _, f := range c.Keys {
			delete(co.removedBy[f], string(r.Value(f)))
		}
	} else {
		if co.removed == nil {
			co.removed = map[string]bool{}
		}
		co.removed[key] = true
		if old != nil {
			if co.removedBy == nil {
				co.removedBy = map[*model.Field]map[string]bool{}
			}
			for _, f := range c.Keys {
				if co.removedBy[f] == nil {
					co.removedBy[f] = map[string]bool{}
				}
				co.removedBy[f][string(old.Value(f))] = true
			}
		}
	}
	if i, ok := co.addedAt[key]; ok {
		if r == nil {
			co.added[i] = nil
			delete(co.addedAt, key)
			return
		}
		co.added[i] = r
		return
	}
	if _, inBase := s.base.Table(c).Get(key); inBase {
		co.changed[key] = r
		return
	}
	if r != nil {
		co.addedAt[key] = len(co.added)
		co.added = append(co.added, r)
	}
}

// maxIntID is the largest integer id of t, 0 when none.
func maxIntID(t *fixtures.Table) int64 {
	var m int64
	for i := range t.Recs {
		var n int64
		for _, ch := range t.Recs[i].Value(t.Coll.ID) {
			if ch >= '0' && ch <= '9' {
				n = n*10 + int64(ch-'0')
			}
		}
		if t.Recs[i].Value(t.Coll.ID)[0] == '-' {
			n = -n
		}
		m = max(m, n)
	}
	return m
}

// store holds the global state and the sessions'. The sessions are kept
// in use order as well, most recently used first, so that expiry and
// eviction take from the back of lru and stop at the first live one: a
// request costs the same however many sessions there are.
type store struct {
	mu          sync.Mutex
	global      *state
	sessions    map[string]*state
	lru         clist.List // of *state, most recently used first
	maxSessions int
	ttl         time.Duration
	now         func() time.Time
}

func newStore(base *fixtures.Dataset, maxSessions int, ttl time.Duration, now func() time.Time) *store {
	return &store{global: &state{base: base}, sessions: map[string]*state{}, maxSessions: maxSessions, ttl: ttl, now: now}
}

// state is the state a request works on: its session's, else the global
// one. A session starts as the loaded data.
func (st *store) state(session string) *state {
	if session == "" {
		return st.global
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	now := st.now()
	s := st.sessions[session]
	if s != nil && now.Sub(s.used) < st.ttl {
		s.used = now
		st.lru.MoveToFront(s.elem)
		return s
	}
	for el := st.lru.Back(); el != nil && now.Sub(el.Value.(*state).used) >= st.ttl; el = st.lru.Back() {
		st.drop(el.Value.(*state))
	}
	if s := st.sessions[session]; s != nil { // expired, though a later one lives (the clock went back)
		st.drop(s)
	}
	for len(st.sessions) >= st.maxSessions {
		st.drop(st.lru.Back().Value.(*state))
	}
	st.global.mu.RLock()
	base := st.global.base
	st.global.mu.RUnlock()
	s = &state{base: base, used: now, id: session}
	s.elem = st.lru.PushFront(s)
	st.sessions[session] = s
	return s
}

// peek is the live state of session, or nil: unlike state, it neither
// starts the session nor counts as its use.
func (st *store) peek(session string) *state {
	st.mu.Lock()
	defer st.mu.Unlock()
	if s := st.sessions[session]; s != nil && st.now().Sub(s.used) < st.ttl {
		return s
	}
	return nil
}

// drop forgets the session s. The caller holds st.mu.
func (st *store) drop(s *state) {
	st.lru.Remove(s.elem)
	delete(st.sessions, s.id)
}

// reset drops the writes of one session, or of everyone ("").
func (st *store) reset(session string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if session != "" {
		if s := st.sessions[session]; s != nil {
			st.drop(s)
		}
		return
	}
	st.sessions = map[string]*state{}
	st.lru.Init()
	st.global.mu.Lock()
	st.global.ov = nil
	st.global.mu.Unlock()
}

// rebase serves a new data set (a reload): every write is dropped.
func (st *store) rebase(base *fixtures.Dataset) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.sessions = map[string]*state{}
	st.lru.Init()
	st.global.mu.Lock()
	st.global.base, st.global.ov = base, nil
	st.global.mu.Unlock()
}
