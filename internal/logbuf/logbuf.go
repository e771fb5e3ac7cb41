// Package logbuf buffers a log's lines and writes them out a few times a
// second, rather than with a system call per line: at tens of thousands of
// requests a second, one write(2) per request log line cost the mock a
// tenth of its throughput. A line is never split, and nothing is held for
// longer than the interval.
package logbuf

import (
	"io"
	"sync"
	"time"
)

// maxBuffer is how much is held before it is written out at once.
const maxBuffer = 64 << 10

// Writer is an io.Writer that buffers what is written to it.
type Writer struct {
	mu   sync.Mutex
	out  io.Writer
	buf  []byte
	err  error // the first error writing out, returned by every later call
	stop chan struct{}
	done chan struct{}
}

// New buffers writes to out, writing them out every interval; Close stops
// it.
func New(out io.Writer, interval time.Duration) *Writer {
	w := &Writer{out: out, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				w.Flush()
			case <-w.stop:
				return
			}
		}
	}()
	return w
}

// Write buffers p, one whole line or more as a logger writes them.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return 0, w.err
	}
	w.buf = append(w.buf, p...)
	if len(w.buf) >= maxBuffer {
		w.flushLocked()
	}
	return len(p), nil
}

// Flush writes out what is buffered.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.flushLocked()
	return w.err
}

func (w *Writer) flushLocked() {
	if len(w.buf) == 0 || w.err != nil {
		return
	}
	_, w.err = w.out.Write(w.buf)
	w.buf = w.buf[:0]
}

// Close stops the ticker and writes out what is left.
func (w *Writer) Close() error {
	select {
	case <-w.stop:
	default:
		close(w.stop)
		<-w.done
	}
	return w.Flush()
}
