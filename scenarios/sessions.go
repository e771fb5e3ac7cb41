package scenarios

import (
	"container/list"
	"time"
)

// session is one X-Mock-Session's state machines.
type session struct {
	id        string
	scenario  string // chosen for the session; "": the global one
	instances map[string]*instance
	created   time.Time
	lastUsed  time.Time
	requests  int
	elem      *list.Element // in Engine.lru
}

// Sessions are found by id in Engine.sessions and kept in use order in
// Engine.lru, most recently used first: a request moves its session to the
// front, so the least recently used is at the back, and so is any session
// idle past SessionTTL. Expiry and eviction take from the back and stop at
// the first session still live: each request costs the same however many
// sessions there are. (A scan of every session per new session made
// --max-sessions 100000 answer 144 requests a second instead of 2,600.)
//
// The control API deletes sessions from the map alone; their elements are
// left in the list, recognised as stale (the map no longer holds that very
// session) and dropped when they reach the back.

// session returns the session id, creating it; expired sessions are
// dropped first, then the least recently used while there are too many.
// The caller holds e.mu.
func (e *Engine) session(id string) *session {
	now := e.opts.Now()
	if s := e.sessions[id]; s != nil && now.Sub(s.lastUsed) < e.opts.SessionTTL {
		s.lastUsed = now
		e.lru.MoveToFront(s.elem)
		return s
	}
	e.expire(now)
	if s := e.sessions[id]; s != nil { // expired, though a later one lives (the clock went back)
		e.lru.Remove(s.elem)
		delete(e.sessions, id)
	}
	for len(e.sessions) >= e.opts.MaxSessions && e.lru.Len() > 0 {
		e.dropOldest()
	}
	s := &session{id: id, instances: map[string]*instance{}, created: now, lastUsed: now}
	s.elem = e.lru.PushFront(s)
	e.sessions[id] = s
	return s
}

// expire drops sessions idle for SessionTTL. The caller holds e.mu.
func (e *Engine) expire(now time.Time) {
	for el := e.lru.Back(); el != nil; el = e.lru.Back() {
		if s := el.Value.(*session); e.sessions[s.id] == s && now.Sub(s.lastUsed) < e.opts.SessionTTL {
			return
		}
		e.dropOldest()
	}
}

// dropOldest forgets the least recently used session. The caller holds
// e.mu.
func (e *Engine) dropOldest() {
	s := e.lru.Remove(e.lru.Back()).(*session)
	if e.sessions[s.id] == s {
		delete(e.sessions, s.id)
	}
}
