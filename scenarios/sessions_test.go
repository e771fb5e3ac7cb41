package scenarios

import (
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"
)

// order is the sessions' ids, most recently used first, as the engine
// keeps them; stale ones (deleted by the control API) marked so.
func (e *Engine) order() []string {
	var ids []string
	for el := e.lru.Front(); el != nil; el = el.Next() {
		s := el.Value.(*session)
		if e.sessions[s.id] != s {
			ids = append(ids, s.id+"(stale)")
			continue
		}
		ids = append(ids, s.id)
	}
	return ids
}

// Beyond MaxSessions the least recently used session goes; a session idle
// for SessionTTL is forgotten, one in use is kept; one the control API
// deleted neither lingers nor takes its successor with it.
func TestSessionEvictionAndExpiry(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	e := testEngine(t, Options{MaxSessions: 3, SessionTTL: time.Minute, Now: func() time.Time { return now }})
	at := func(sec int, ids ...string) {
		t.Helper()
		now = time.Date(2026, 1, 1, 0, 0, sec, 0, time.UTC)
		for _, id := range ids {
			e.session(id)
		}
	}
	want := func(what string, ids ...string) {
		t.Helper()
		if got := e.order(); !slices.Equal(got, ids) {
			t.Errorf("%s: sessions %q, want %q", what, got, ids)
		}
		if len(e.sessions) != len(slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return len(id) > 2 })) {
			t.Errorf("%s: %d sessions in the map", what, len(e.sessions))
		}
	}
	at(0, "a")
	at(1, "b")
	at(2, "c")
	at(3, "a")
	want("a used again", "a", "c", "b")
	at(4, "d")
	want("d beyond the limit: b, least recently used, goes", "d", "a", "c")
	at(59, "d")
	at(63, "d")
	want("a and c idle past the TTL are kept until a new session comes", "d", "a", "c")
	at(63, "e")
	want("e comes: a and c idle past the TTL go, d in use stays", "e", "d")

	delete(e.sessions, "e") // as DELETE /__mock/sessions/e does
	at(64, "e")
	want("e again after a delete", "e", "e(stale)", "d")
	at(65, "f")
	at(66, "g")
	want("g beyond the limit: d goes", "g", "f", "e", "e(stale)")
	at(67, "h")
	want("h beyond the limit: the stale e goes, then the new e", "h", "g", "f")

	at(200, "i")
	want("everything idle: only i", "i")
	e.expire(now.Add(time.Hour))
	want("i idle")
}

// The cost of a request that starts a new session when MaxSessions are
// kept already: one session expires or is evicted per request. It must not
// grow with the number of sessions (it did: every session was scanned).
func BenchmarkNewSessions(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			e := testEngine(b, Options{MaxSessions: n, Now: func() time.Time { return now }})
			for i := range n {
				e.session("warm" + strconv.Itoa(i))
			}
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				now = now.Add(time.Microsecond)
				e.mu.Lock()
				e.session(strconv.Itoa(i))
				e.mu.Unlock()
			}
		})
	}
}
