package mock

import (
	"slices"
	"strconv"
	"testing"
	"time"
)

// order is the sessions' ids, most recently used first.
func (st *store) order() []string {
	var ids []string
	for el := st.lru.Front(); el != nil; el = el.Next() {
		ids = append(ids, el.Value.(*state).id)
	}
	return ids
}

// The store's sessions: beyond maxSessions the least recently used goes,
// one idle for the TTL is forgotten, one in use kept; a reset of one or
// of all drops them from the use order too.
func TestStoreSessionEvictionAndExpiry(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	st := newStore(nil, 3, time.Minute, func() time.Time { return now })
	at := func(sec int, ids ...string) {
		t.Helper()
		now = time.Date(2026, 1, 1, 0, 0, sec, 0, time.UTC)
		for _, id := range ids {
			st.state(id)
		}
	}
	want := func(what string, ids ...string) {
		t.Helper()
		if got := st.order(); !slices.Equal(got, ids) || len(st.sessions) != len(ids) {
			t.Errorf("%s: sessions %q (%d in the map), want %q", what, got, len(st.sessions), ids)
		}
	}
	at(0, "a")
	first := st.state("a")
	at(1, "b")
	at(2, "c")
	at(3, "a")
	want("a used again", "a", "c", "b")
	if st.state("a") != first {
		t.Error("a used again is a new state: its writes were lost")
	}
	at(4, "d")
	want("d beyond the limit: b, least recently used, goes", "d", "a", "c")
	at(63, "d", "e")
	want("e comes: a and c idle past the TTL go, d in use stays", "e", "d")
	st.reset("d")
	want("d reset", "e")
	at(64, "d", "f", "g")
	want("g beyond the limit: e goes", "g", "f", "d")
	st.reset("")
	want("all reset")
	at(65, "h")
	want("h after a reset", "h")
	st.rebase(nil)
	want("a new data set")
}

// The cost of a request that starts a new session when maxSessions are
// kept already. It must not grow with the number of sessions.
func BenchmarkStoreNewSessions(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			st := newStore(nil, n, time.Hour, func() time.Time { return now })
			for i := range n {
				st.state("warm" + strconv.Itoa(i))
			}
			for i := 0; b.Loop(); i++ {
				now = now.Add(time.Microsecond)
				st.state(strconv.Itoa(i))
			}
		})
	}
}
