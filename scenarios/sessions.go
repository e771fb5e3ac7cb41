package scenarios

import (
	"container/list"
	"fmt"
	"strings"
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

// MaxSessionIDBytes bounds a session id: it is kept with every journal
// entry of its session and in every session's state (a UUID is 36 bytes).
const MaxSessionIDBytes = 256

// CheckSessionID says what is wrong with id as a session id (X-Mock-Session,
// /__mock/sessions/{id}), or is nil. An id is an HTTP token (RFC 9110
// 5.6.2: letters, digits and !#$%&'*+-.^_`|~), other than "." and "..":
// it is a path segment of the control API, and a browser resolves a
// segment "." or ".." (even written %2e) before it sends the request, so
// the panel's "Reset" of a session ".." would reset everything and its
// "Forget" of "../journal" would clear the journal.
func CheckSessionID(id string) error {
	if id == "." || id == ".." {
		return fmt.Errorf("session id %q is not allowed: \".\" and \"..\" are path segments that name another control API route", id)
	}
	if id == "" {
		return fmt.Errorf("the session id is empty")
	}
	if len(id) > MaxSessionIDBytes {
		return fmt.Errorf("the session id is %d bytes long; at most %d are allowed", len(id), MaxSessionIDBytes)
	}
	for i := 0; i < len(id); i++ {
		if !tokenChar(id[i]) {
			return fmt.Errorf("session id %q: %q is not allowed; a session id is made of letters, digits and !#$%%&'*+-.^_`|~ (an HTTP token), and is not \".\" or \"..\"", id, id[i:i+1])
		}
	}
	return nil
}

// tokenChar reports whether c is a tchar of RFC 9110 5.6.2.
func tokenChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}
