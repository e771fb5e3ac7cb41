package gcheadroom

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func noEnv(string) string { return "" }

func heapGoal() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// gogc reads the collector's percent without changing it.
func gogc() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// collect runs a collection and waits for the hook it sets off.
func collect(t *testing.T, want func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		runtime.GC()
		if want() {
			return
		}
	}
}

func TestPercent(t *testing.T) {
	for _, c := range []struct {
		live, h uint64
		want    int
	}{
		{4 << 20, 64 << 20, 1600},
		{64 << 20, 64 << 20, 100},
		{500 << 20, 64 << 20, 100},
		{0, 64 << 20, 1600}, // not yet measured: the runtime's smallest goal
		{1, 64 << 20, maxPercent},
	} {
		if got := Percent(c.live, c.h); got != c.want {
			t.Errorf("Percent(%d, %d) = %d, want %d", c.live, c.h, got, c.want)
		}
	}
}

// On a small heap the goal is at least the live heap plus the headroom, and
// stays so collection after collection; on a heap larger than the headroom
// it is GOGC=100's; removing the headroom gives GOGC=100 back.
func TestHeadroomFollowsTheLiveHeap(t *testing.T) {
	const h = 64 << 20
	defer Set(0, noEnv)
	if !Set(h, noEnv) {
		t.Fatal("Set reported no headroom")
	}
	for i := range 3 {
		collect(t, func() bool { return heapGoal() >= liveHeap()+h*9/10 })
		if goal, live := heapGoal(), liveHeap(); goal < live+h*9/10 {
			t.Fatalf("collection %d: goal %d for a live heap of %d: want about %d more", i+1, goal, live, h)
		}
	}
	big := make([][]byte, 0, 96)
	for range 96 { // 96 MiB live, more than the headroom
		big = append(big, make([]byte, 1<<20))
	}
	collect(t, func() bool { return gogc() == 100 })
	if p := gogc(); p != 100 {
		t.Errorf("GOGC %d with %d bytes live, more than the headroom: want 100", p, liveHeap())
	}
	runtime.KeepAlive(big)
	big = nil
	collect(t, func() bool { return gogc() > 100 })
	if p := gogc(); p <= 100 {
		t.Errorf("GOGC %d once the large heap was freed: want the headroom back", p)
	}
	Set(0, noEnv)
	runtime.GC()
	runtime.GC()
	if p := gogc(); p != 100 {
		t.Errorf("GOGC %d after the headroom was removed, want 100", p)
	}
}

// A user who tuned the collector is left alone.
func TestHeadroomLeavesUserSettings(t *testing.T) {
	defer debug.SetGCPercent(100)
	debug.SetGCPercent(300)
	for _, name := range []string{"GOGC", "GOMEMLIMIT"} {
		env := func(k string) string {
			if k == name {
				return "300"
			}
			return ""
		}
		if Set(64<<20, env) {
			t.Errorf("%s set: Set put a headroom in force anyway", name)
		}
		runtime.GC()
		if p := gogc(); p != 300 {
			t.Errorf("%s set: GOGC %d, want the user's 300", name, p)
		}
	}
}
