package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/moviemock/moviemock/scenarios"
)

const (
	defaultBodyTimeout      = 30 * time.Second
	defaultLimitConcurrency = 4096
	// defaultMinBodyRate is the least a request body must average, in
	// bytes a second, once it has taken bodyRateGrace: Kestrel's
	// MinRequestBodyDataRate (240 bytes/s after a 5 s grace).
	defaultMinBodyRate = 240
	// writeChunk is the most written under one write deadline: a large
	// answer read steadily by a slow client is not cut off for taking
	// longer than the body timeout as a whole.
	writeChunk = 64 << 10
	// limitWarnEvery spaces the warnings that the connection limit is
	// reached: one per rejected request would flood the log.
	limitWarnEvery = 10 * time.Second
	// rejectReadGrace is how long the rest of a request's body may take
	// to arrive when the request is answered 503 for the connection limit.
	rejectReadGrace = time.Second
)

// bodyRateGrace is how long a request body may take before the minimum
// rate applies (a variable so that tests can shorten it).
var bodyRateGrace = 5 * time.Second

// connLimits bound what clients can hold of the server: connections served
// at once (beyond them a request gets uvicorn's 503 at once), how long a
// request body may go without a byte arriving or an answer without a byte
// leaving, and how slowly a request body may arrive. The timeouts are per
// read and per write, not per request, so a scripted delay or trickle runs
// as long as it is told to; the rate counts only the time spent waiting
// for the body, so a handler that reads it late is not the client's fault.
type connLimits struct {
	max  int64         // connections served at once; 0: no limit
	body time.Duration // 0: no body timeout
	rate int64         // least bytes a second of a request body after bodyRateGrace; 0: none
	log  *slog.Logger

	open   atomic.Int64 // admitted connections
	conns  sync.Map     // net.Conn → *connSlot, while open (max > 0 only)
	warned atomic.Int64 // when the limit was last logged, in Unix nanoseconds
}

// connSlot is one connection's place in the limit.
type connSlot struct{ state atomic.Int32 }

const (
	slotWaiting  = iota // over the limit so far
	slotAdmitted        // counted in open
	slotReleased        // closed
)

// conn is what the limits keep of one connection, in its context.
type conn struct {
	slot *connSlot // its place in the limit; nil without one
	// armed is when the write deadline was last set on it (Unix
	// nanoseconds): one answer after another on a keep-alive connection
	// renews it only as often as deadlineWriter.arm says.
	armed atomic.Int64
}

type connKey struct{}

// apply installs the limits on srv; its Handler must already be set.
func (l *connLimits) apply(srv *http.Server) {
	if l.max > 0 || l.body > 0 {
		srv.ConnContext = l.connContext
	}
	if l.max > 0 {
		srv.ConnState = l.connState
	}
	if l.max > 0 || l.body > 0 || l.rate > 0 {
		srv.Handler = l.handler(srv.Handler)
	}
}

// connContext admits a new connection if the limit allows: it is called
// once per connection, as the server accepts it.
func (l *connLimits) connContext(ctx context.Context, c net.Conn) context.Context {
	info := &conn{}
	if l.max > 0 {
		info.slot = &connSlot{}
		l.conns.Store(c, info.slot)
		l.admit(info.slot)
	}
	return context.WithValue(ctx, connKey{}, info)
}

func (l *connLimits) connState(c net.Conn, st http.ConnState) {
	if st != http.StateClosed && st != http.StateHijacked {
		return
	}
	if v, ok := l.conns.LoadAndDelete(c); ok {
		if v.(*connSlot).state.Swap(slotReleased) == slotAdmitted {
			l.open.Add(-1)
		}
	}
}

// admit gives s a place if it has none and one is free.
func (l *connLimits) admit(s *connSlot) bool {
	switch s.state.Load() {
	case slotAdmitted:
		return true
	case slotReleased:
		return false
	}
	for {
		n := l.open.Load()
		if n >= l.max {
			return false
		}
		if l.open.CompareAndSwap(n, n+1) {
			break
		}
	}
	if !s.state.CompareAndSwap(slotWaiting, slotAdmitted) { // closed meanwhile
		l.open.Add(-1)
		return false
	}
	return true
}

// handler answers 503 to a connection beyond the limit, as uvicorn's
// --limit-concurrency does (same body, same headers, connection closed),
// and puts the timeouts on the request's body and answer.
func (l *connLimits) handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info, _ := r.Context().Value(connKey{}).(*conn)
		if info != nil && info.slot != nil && !l.admit(info.slot) {
			l.reject(w)
			return
		}
		// The server's own writer, for its deadlines and flushes; a
		// controller of it is made when one is first set (a renewal comes
		// once in many answers on a connection).
		raw := w
		var rc *http.ResponseController
		if (l.body > 0 || l.rate > 0) && r.Body != nil && r.Body != http.NoBody {
			rc = http.NewResponseController(raw)
			b := &deadlineBody{ReadCloser: r.Body, rc: rc, timeout: l.body, rate: l.rate, grace: bodyRateGrace}
			r.Body = b
			if l.rate > 0 {
				sw := &slowBodyWriter{ResponseWriter: w, body: b, rate: l.rate}
				defer sw.finish()
				w = sw
			}
		}
		if l.body > 0 {
			dw := &deadlineWriter{ResponseWriter: w, raw: raw, rc: rc, timeout: l.body}
			if info != nil {
				dw.armed = &info.armed
			} else {
				dw.armed = new(atomic.Int64)
			}
			// The deadline stays on a keep-alive connection after a
			// request: renew it before the server writes anything of this
			// one (a 100 Continue), and after the handler, for what the
			// server writes then (headers, the buffered rest) — after a
			// scripted delay, say.
			dw.arm()
			next.ServeHTTP(dw, r)
			dw.arm()
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (l *connLimits) reject(w http.ResponseWriter) {
	now := time.Now().UnixNano()
	if last := l.warned.Load(); now-last >= int64(limitWarnEvery) && l.warned.CompareAndSwap(last, now) && l.log != nil {
		l.log.Warn("Exceeded concurrency limit: answering 503 (--limit-concurrency)", "limit", l.max)
	}
	// net/http reads what is left of a small body before it answers, so
	// that a client busy sending it does not miss the answer; a client
	// that drips it would hold the connection as long as it likes.
	http.NewResponseController(w).SetReadDeadline(time.Now().Add(rejectReadGrace))
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Content-Length", "19")
	h.Set("Connection", "close")
	w.WriteHeader(http.StatusServiceUnavailable)
	io.WriteString(w, "Service Unavailable")
}

// errBodyTooSlow is a request body's read error once it arrives slower
// than the minimum rate.
var errBodyTooSlow = errors.New("the request body arrives slower than --min-body-rate")

// deadlineBody gives every read of a request body a read deadline: the
// body timeout (a client that stops sending its body is cut off), or,
// sooner, the moment the body would fall below the minimum rate if no
// byte came: once it has been waited for longer than the grace, it must
// have averaged rate bytes a second. A client dripping a byte every two
// seconds, which no per-read timeout catches, is cut off after the grace.
type deadlineBody struct {
	io.ReadCloser
	rc      *http.ResponseController
	timeout time.Duration // 0: none
	rate    int64         // 0: none
	grace   time.Duration

	read   int64         // bytes so far
	waited time.Duration // time spent in Read so far
	slow   atomic.Bool   // cut off for its rate
	err    error         // the first failure or io.EOF, sticky
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	if b.err != nil {
		// A second reader after a timeout (the scenario engine, then the
		// mock) must not renew the deadline and wait as long again; nor
		// after the end, where a deadline would stay on the connection,
		// end net/http's background read and cancel the request's
		// context (a scripted delay, the proxy's upstream request).
		return 0, b.err
	}
	// No need to clear the deadline at the body's end: net/http (Go 1.26,
	// connReader.startBackgroundRead) clears it there itself, so a
	// scripted delay or trickle after the body is not cut off. After a
	// timeout it stays, and the server's reads of the rest fail too.
	now := time.Now()
	var deadline, rateDue time.Time
	if b.timeout > 0 {
		deadline = now.Add(b.timeout)
	}
	if b.rate > 0 {
		allowed := max(b.grace, time.Duration(float64(b.read)/float64(b.rate)*float64(time.Second)))
		rateDue = now.Add(allowed - b.waited)
		if deadline.IsZero() || rateDue.Before(deadline) {
			deadline = rateDue
		} else {
			rateDue = time.Time{}
		}
	}
	b.rc.SetReadDeadline(deadline)
	n, err := b.ReadCloser.Read(p)
	b.read += int64(n)
	b.waited += time.Since(now)
	if err == io.EOF {
		b.err = io.EOF
	} else if err != nil {
		var ne net.Error
		if !rateDue.IsZero() && !time.Now().Before(rateDue) && errors.As(err, &ne) && ne.Timeout() {
			b.slow.Store(true)
			err = errBodyTooSlow
		}
		b.err = err
	}
	return n, err
}

// slowBodyWriter answers 408 for a request whose body was cut off for its
// rate, in place of whatever the handler answers then (the mock's 400 for
// a body it could not read, the proxy's nothing), as Kestrel and Apache's
// mod_reqtimeout do; an answer begun before is left as it is.
type slowBodyWriter struct {
	http.ResponseWriter
	body     *deadlineBody
	rate     int64
	started  bool
	replaced bool
}

func (w *slowBodyWriter) WriteHeader(code int) {
	if w.replaced {
		return
	}
	if w.started {
		w.ResponseWriter.WriteHeader(code) // net/http warns of a superfluous call
		return
	}
	if w.body.slow.Load() {
		w.tooSlow()
		return
	}
	if code >= 200 {
		w.started = true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *slowBodyWriter) Write(p []byte) (int, error) {
	if !w.started && !w.replaced {
		w.WriteHeader(http.StatusOK)
	}
	if w.replaced {
		return 0, errBodyTooSlow
	}
	return w.ResponseWriter.Write(p)
}

func (w *slowBodyWriter) Flush() {
	if !w.replaced {
		http.NewResponseController(w.ResponseWriter).Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *slowBodyWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Replaces says the 408 goes out in place of the handler's answer
// (status.Replacer): the journal and the request log record what the
// client gets, not the 400 the handler gave for a body it could not read.
func (w *slowBodyWriter) Replaces(code int) (int, string) {
	switch {
	case w.replaced:
	case w.started, code >= 100 && code < 200, !w.body.slow.Load():
		return code, "" // an answer begun in time, an interim 100 Continue
	}
	return http.StatusRequestTimeout, w.why()
}

// why is what the 408 says.
func (w *slowBodyWriter) why() string {
	return fmt.Sprintf("the request body arrived slower than %d bytes a second (--min-body-rate) after %v", w.rate, w.body.grace)
}

// finish answers 408 when the handler gave up on a body cut off for its
// rate without answering (or aborted).
func (w *slowBodyWriter) finish() {
	if v := recover(); v != nil {
		if v != http.ErrAbortHandler || !w.body.slow.Load() {
			panic(v)
		}
	}
	if !w.started && !w.replaced && w.body.slow.Load() {
		w.tooSlow()
	}
}

// tooSlow writes the 408, the connection closed after it.
func (w *slowBodyWriter) tooSlow() {
	w.replaced = true
	h := w.ResponseWriter.Header()
	for k := range h {
		delete(h, k)
	}
	body := "Request Timeout: " + w.why()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Connection", "close")
	h.Set(scenarios.HeaderError, "true")
	w.ResponseWriter.WriteHeader(http.StatusRequestTimeout)
	io.WriteString(w.ResponseWriter, body)
}

// deadlineWriter gives every write of an answer the body timeout, renewed
// as bytes leave: a client that stops reading is dropped, with the memory
// its answer holds, while a scripted trickle, which writes a little at a
// time, runs as long as it is told to.
type deadlineWriter struct {
	http.ResponseWriter
	raw     http.ResponseWriter      // the server's writer, which rc controls
	rc      *http.ResponseController // nil until first needed
	timeout time.Duration
	armed   *atomic.Int64 // when the deadline was last set (Unix nanoseconds), kept per connection
}

func (w *deadlineWriter) Write(p []byte) (n int, err error) {
	for len(p) > 0 {
		w.arm()
		m, err := w.ResponseWriter.Write(p[:min(len(p), writeChunk)])
		n += m
		if err != nil {
			return n, err
		}
		p = p[m:]
	}
	return n, nil
}

// arm renews the write deadline. Within a sixteenth of the timeout of the
// last renewal on the connection (by this answer or one before it) it is
// left as is, which saves resetting a timer on every small write and every
// small answer, and still leaves a write at least 15/16 of the timeout.
func (w *deadlineWriter) arm() {
	now := time.Now()
	if last := w.armed.Load(); last != 0 && now.UnixNano()-last < int64(w.timeout/16) {
		return
	}
	w.armed.Store(now.UnixNano())
	w.controller().SetWriteDeadline(now.Add(w.timeout))
}

func (w *deadlineWriter) controller() *http.ResponseController {
	if w.rc == nil {
		w.rc = http.NewResponseController(w.raw)
	}
	return w.rc
}

func (w *deadlineWriter) WriteHeader(code int) {
	w.arm()
	w.ResponseWriter.WriteHeader(code)
}

func (w *deadlineWriter) Flush() {
	w.arm()
	w.controller().Flush()
}

// Unwrap lets http.ResponseController reach the connection (hijack).
func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
