package logbuf_test

import (
	"bytes"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/moviemock/moviemock/internal/logbuf"
)

type syncBuffer struct {
	mu     sync.Mutex
	b      bytes.Buffer
	writes int
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writes++
	return s.b.Write(p)
}

func (s *syncBuffer) String() (string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String(), s.writes
}

// Lines arrive whole and in order, in far fewer writes than lines, by the
// next tick; Close writes out the rest.
func TestLinesArriveWholeAndSoon(t *testing.T) {
	out := &syncBuffer{}
	// At most a write a tick: 100 writes would take the 1000 lines 20 s,
	// which no loaded machine takes.
	w := logbuf.New(out, 200*time.Millisecond)
	var want strings.Builder
	for i := range 1000 {
		line := strings.Repeat("x", i%80) + "\n"
		w.Write([]byte(line))
		want.WriteString(line)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, writes := out.String()
		if got == want.String() {
			if writes >= 100 {
				t.Errorf("%d writes for 1000 lines", writes)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 30 s, %d of %d bytes written", len(got), want.Len())
		}
		time.Sleep(5 * time.Millisecond)
	}
	w.Write([]byte("last\n"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got, _ := out.String(); !strings.HasSuffix(got, "x\nlast\n") {
		t.Errorf("Close lost the last line: %q", got[len(got)-20:])
	}
	w.Close() // a second Close is harmless
}

type failing struct{}

func (failing) Write(p []byte) (int, error) { return 0, errors.New("disk full") }

// A write error is kept and returned, not dropped.
func TestWriteErrorIsReported(t *testing.T) {
	w := logbuf.New(failing{}, time.Hour)
	w.Write([]byte("a\n"))
	if err := w.Flush(); err == nil || err.Error() != "disk full" {
		t.Errorf("Flush: %v", err)
	}
	if _, err := w.Write([]byte("b\n")); err == nil {
		t.Error("Write after a failed flush succeeded")
	}
	w.Close()
}
