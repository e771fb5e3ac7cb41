// Package gcheadroom gives a long-running server's garbage collector a
// fixed headroom: it collects when the heap has grown by its live size or
// by a constant, whichever is larger, not by its live size alone.
//
// Go collects each time the heap doubles (GOGC=100). A mock's live heap is
// small (a few megabytes: the compiled contract, its data, the libraries'
// tables) and every request allocates a few kilobytes, so the collector
// would run every thousand or so requests and take a fifth of the CPU of a
// read. With a headroom of H bytes the goal is live+max(live, H): on a small
// heap collections are H/live times rarer and the heap holds at most H of
// garbage; on a heap larger than H (a data set of a million records) it is
// GOGC=100 as before. Unlike a higher GOGC, which multiplies the goal (and
// with it the peak a large data set reaches), the headroom adds at most a
// constant.
//
// It works by setting GOGC after every collection, from the live heap that
// collection found (a finalizer runs once per cycle), as
// 100·max(live, H)/live.
package gcheadroom

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// minLive is the live heap assumed before the first collection has
// measured it: the runtime's own smallest goal.
const minLive = 4 << 20

// maxPercent bounds the GOGC set, whatever the live heap.
const maxPercent = 100_000

var (
	mu       sync.Mutex
	headroom uint64 // 0: none
	gen      int    // bumped by every Set, so that an earlier hook stops
)

// Set gives the collector a headroom of n bytes, replacing any earlier one;
// 0 removes it and restores GOGC=100. getenv is how the environment is
// read: a user who set GOGC or GOMEMLIMIT has tuned the collector already,
// and is left alone. It reports whether a headroom is in force.
func Set(n int, getenv func(string) string) bool {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return false
	}
	mu.Lock()
	gen++
	if n <= 0 {
		headroom = 0
		mu.Unlock()
		debug.SetGCPercent(100)
		return false
	}
	headroom = uint64(n)
	g := gen
	mu.Unlock()
	adjust(g)
	hook(g)
	return true
}

// sentinel is an object whose finalizer runs after each collection that
// found it unreachable: one per cycle. It holds a pointer so that it is not
// batched by the tiny allocator, whose objects' finalizers may never run.
type sentinel struct {
	_ *int
	_ [16]byte
}

func hook(g int) {
	runtime.SetFinalizer(&sentinel{}, func(*sentinel) {
		if adjust(g) {
			hook(g)
		}
	})
}

// adjust sets GOGC from the live heap the last collection found; false
// when a later Set has taken over.
func adjust(g int) bool {
	mu.Lock()
	defer mu.Unlock()
	if g != gen || headroom == 0 {
		return false
	}
	debug.SetGCPercent(Percent(liveHeap(), headroom))
	return true
}

// Percent is the GOGC that gives a live heap of live bytes a headroom of h:
// 100·max(live, h)/live, at least 100, at most maxPercent.
func Percent(live, h uint64) int {
	if live == 0 {
		live = minLive
	}
	if h <= live {
		return 100
	}
	return int(min(100*h/live, maxPercent))
}

func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
