package proxy

import (
	"io"
	"sync/atomic"
)

// checkMemory is the memory every exchange in flight keeps for the checks
// and the recording (its copy of the body, and the body decoded), held to
// a total: an exchange that cannot have its bytes is relayed all the same,
// unchecked.
type checkMemory struct {
	max  int64
	used atomic.Int64
	peak atomic.Int64 // the most used at once, for the tests
}

// take reserves n bytes, or reports that the total would pass max.
func (m *checkMemory) take(n int64) bool {
	for {
		u := m.used.Load()
		if u+n > m.max {
			return false
		}
		if m.used.CompareAndSwap(u, u+n) {
			for p := m.peak.Load(); u+n > p && !m.peak.CompareAndSwap(p, u+n); p = m.peak.Load() {
			}
			return true
		}
	}
}

// give returns n reserved bytes.
func (m *checkMemory) give(n int64) { m.used.Add(-n) }

// keepResult is what keeper.add made of its bytes.
type keepResult int

const (
	keepOK         keepResult = iota
	keepTooLarge              // past the exchange's own bound (MaxCheckBytes)
	keepOverBudget            // past what the exchanges in flight may keep together
)

// keeper is a copy of a body kept for the checks, its capacity reserved
// from a checkMemory: the bytes it holds are the bytes it reserved.
type keeper struct {
	mem  *checkMemory
	max  int64 // the most bytes kept
	buf  []byte
	held int64 // reserved from mem: buf's capacity
	over bool  // readAll stopped for want of memory
}

// add appends p, or keeps nothing more when the body passes max or the
// memory cannot be had (and then frees what it held).
func (k *keeper) add(p []byte) keepResult {
	need := int64(len(k.buf)) + int64(len(p))
	if need > k.max {
		k.release()
		return keepTooLarge
	}
	if need > int64(cap(k.buf)) {
		size := max(2*int64(cap(k.buf)), need, 4<<10)
		size = min(size, k.max)
		if !k.grow(size) {
			return keepOverBudget
		}
	}
	k.buf = append(k.buf, p...)
	return keepOK
}

// grow makes buf's capacity size, reserving it; false (and nothing held)
// when the memory cannot be had.
func (k *keeper) grow(size int64) bool {
	if size <= int64(cap(k.buf)) {
		return true
	}
	if !k.mem.take(size - k.held) {
		k.release()
		return false
	}
	b := make([]byte, len(k.buf), size)
	copy(b, k.buf)
	k.buf, k.held = b, size
	return true
}

// release frees the copy and its reservation.
func (k *keeper) release() {
	k.buf = nil
	if k.held > 0 {
		k.mem.give(k.held)
		k.held = 0
	}
}

// readAll keeps what r reads, as add does, until r ends or add refuses.
func (k *keeper) readAll(r io.Reader) (keepResult, error) {
	chunk := make([]byte, 32<<10)
	for {
		n, err := r.Read(chunk)
		if n > 0 {
			if res := k.add(chunk[:n]); res != keepOK {
				return res, nil
			}
		}
		if err == io.EOF {
			return keepOK, nil
		}
		if err != nil {
			return keepOK, err
		}
	}
}
