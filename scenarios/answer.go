package scenarios

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/status"
)

// answer carries out a rule: its delay, then its response, passthrough or
// fault.
func (e *Engine) answer(w *status.Writer, r *http.Request, next http.Handler, rule *Rule, tr *trace) {
	if rule.Delay != nil && !sleep(r.Context(), e.delay(rule.Delay)) {
		return // the client gave up
	}
	if rule.afterAuth() && tr.facts != nil && !e.authorized(w, tr.facts) {
		return
	}
	switch {
	case rule.Fault != nil:
		tr.fault = rule.Fault.Kind
		e.fault(w, r, next, rule)
	case rule.Respond != nil:
		writeResponse(w, rule.Respond)
	case rule.Passthrough != nil:
		passthrough(w, r, next, rule.Passthrough)
	}
}

// afterAuth reports whether the rule's answer stands for the endpoint's
// (a response, or an unhandled exception in it), which FastAPI reaches only
// once the security dependency let the request through; BeforeAuth says
// the rule models something in front of the backend instead. Other answers
// come from the mock, which runs the security dependency itself, or break
// the connection before anything answers.
func (r *Rule) afterAuth() bool {
	return !r.BeforeAuth && (r.Respond != nil || r.Fault != nil && r.Fault.Kind == FaultCrash)
}

// authorized runs the backend's security dependency (Options.Authorize)
// for the operation a request falls under, before a scripted answer: a
// request the operation refuses gets its 401 instead, and authorized
// reports false.
func (e *Engine) authorized(w http.ResponseWriter, f *facts) bool {
	if e.opts.Authorize == nil {
		return true
	}
	p, _ := f.route()
	if p == nil {
		return true
	}
	op := p.op(f.r.Method)
	if op == nil {
		return true
	}
	return e.opts.Authorize(w, f.r, op.method, op.template)
}

func (e *Engine) delay(d *Delay) time.Duration {
	if d.Max == d.Min {
		return d.Min
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return d.Min + time.Duration(e.rng.Int64N(int64(d.Max-d.Min)+1))
}

// sleep waits d, or until ctx ends (false).
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// windowed starts rule i's counts over when its window has passed since
// the first match it counted. The caller holds e.mu.
func (in *instance) windowed(i int, window time.Duration, now time.Time) {
	if in.opened == nil {
		in.opened = make([]time.Time, len(in.seen))
	}
	if in.opened[i].IsZero() || now.Sub(in.opened[i]) >= window {
		in.opened[i] = now
		in.seen[i], in.taken[i] = 0, 0
	}
}

// closesConnections reports whether a rule of sc ends a connection before
// any answer. Browsers (Chromium's HttpNetworkTransaction) and Go's
// Transport silently send a request again when a reused keep-alive
// connection closes before the first byte of its answer, taking the close
// for a race with the server's idle timeout: such a fault is only seen on
// a connection's first request. So every answer of such a scenario is sent
// with Connection: close.
func (sc *Scenario) closesConnections() bool {
	for _, r := range sc.Rules {
		if f := r.Fault; f != nil && (f.Kind == FaultReset || f.Kind == FaultEmpty || f.Kind == FaultHang && f.For > 0) {
			return true
		}
	}
	return false
}

func writeResponse(w http.ResponseWriter, resp *Response) {
	body := resp.body()
	writeResponseHead(w, resp, len(body))
	w.Write(body)
}

func writeResponseHead(w http.ResponseWriter, resp *Response, n int) {
	h := w.Header()
	for _, kv := range resp.Headers {
		h.Add(kv[0], kv[1])
	}
	if n > 0 {
		h.Set("Content-Type", resp.ContentType)
	}
	h.Set("Content-Length", strconv.Itoa(n))
	w.WriteHeader(resp.Status)
}

// captured is an answer held in memory.
type captured struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func (c *captured) Header() http.Header { return c.header }
func (c *captured) Write(b []byte) (int, error) {
	if c.code == 0 {
		c.code = http.StatusOK
	}
	return c.body.Write(b)
}
func (c *captured) WriteHeader(code int) {
	if c.code == 0 {
		c.code = code
	}
}

// capture runs the mock's normal handler into memory.
func capture(r *http.Request, next http.Handler) *captured {
	c := &captured{header: http.Header{}}
	next.ServeHTTP(c, r)
	if c.code == 0 {
		c.code = http.StatusOK
	}
	return c
}

func (p *Passthrough) changesBody() bool {
	return len(p.Set) > 0 || len(p.Where) > 0 || p.Offset > 0 || p.Limit != 0 || p.Order != ""
}

// applies reports whether p changes a normal answer of status code: any,
// or the one its IfStatus names.
func (p *Passthrough) applies(code int) bool {
	return p.IfStatus == 0 || p.IfStatus == code
}

// passthrough is the normal answer with the rule's changes, sent on as the
// mock writes it.
func passthrough(w http.ResponseWriter, r *http.Request, next http.Handler, p *Passthrough) {
	if !p.changesBody() && p.Status == 0 && p.IfStatus == 0 {
		for _, kv := range p.Headers {
			w.Header().Add(kv[0], kv[1])
		}
		next.ServeHTTP(w, r)
		return
	}
	r, p = p.unpaged(r)
	s := &relay{w: w, ctx: r.Context(), p: p}
	next.ServeHTTP(s, r)
	s.finish()
}

// maxFiltered is how many records a where reads of a paged list: the page
// the request asks for is cut from those it keeps.
const maxFiltered = 10_000

// listPaging names the paging parameters of a list operation
// (model.Paging), and the most records one request may ask for.
type listPaging struct {
	model.Paging
	max      int64 // the limit or size asked for
	defLimit int64 // the limit's or size's declared default; -1: none
}

// unpaged is the request a where filters: its list asked for from the
// start, maxFiltered records (or as many as the document allows), so that
// where keeps from every record and not from one page; the request's own
// page is then cut from what where kept, before the rule's own offset and
// limit. A list without paging, or a rule without where, is left as is.
func (p *Passthrough) unpaged(r *http.Request) (*http.Request, *Passthrough) {
	pg := p.paging
	if len(p.Where) == 0 && p.Order == "" || pg == nil {
		return r, p
	}
	q := r.URL.Query()
	bad := false
	num := func(name string, def int64) int64 {
		if name == "" || !q.Has(name) {
			return def
		}
		v, err := strconv.ParseInt(q.Get(name), 10, 64)
		if err != nil || v < 0 {
			bad = true // the mock refuses it as it stands
		}
		return v
	}
	var off, lim int64 // lim -1: no limit
	switch {
	case pg.Limit != "":
		off, lim = num(pg.Skip, 0), num(pg.Limit, pg.defLimit)
		q.Del(pg.Skip)
		q.Set(pg.Limit, strconv.FormatInt(pg.max, 10))
	case pg.Size != "":
		size := num(pg.Size, pg.defLimit)
		off, lim = (num(pg.Page, pg.FirstPage)-pg.FirstPage)*max(size, 0), size
		q.Set(pg.Page, strconv.FormatInt(pg.FirstPage, 10))
		q.Set(pg.Size, strconv.FormatInt(pg.max, 10))
	default:
		return r, p
	}
	if bad || off < 0 {
		return r, p
	}
	r2 := r.Clone(r.Context())
	r2.URL.RawQuery = q.Encode()
	r2.RequestURI = r2.URL.RequestURI()
	cp := *p
	// The request's page of what where kept, then the rule's page of that.
	cp.Offset = int(min(off, maxFiltered)) + p.Offset
	switch {
	case p.Limit < 0 || lim == 0:
		cp.Limit = -1
	case lim < 0:
		cp.Limit = p.Limit
	default:
		left := int(min(lim, maxFiltered)) - p.Offset
		if p.Limit > 0 {
			left = min(left, p.Limit)
		}
		cp.Limit = left
		if left <= 0 {
			cp.Limit = -1
		}
	}
	return r2, &cp
}

// changed applies p to a captured answer. Only a JSON 200 has its body
// changed: an error answer stays what the mock said.
func changed(c *captured, p *Passthrough) *captured {
	if !p.applies(c.code) {
		return c
	}
	for _, kv := range p.Headers {
		c.header.Add(kv[0], kv[1])
	}
	if changes(p, c.code, c.header) {
		if body, err := applyPassthrough(c.body.Bytes(), p); err == nil {
			c.body.Reset()
			c.body.Write(body)
		}
	}
	if p.Status != 0 {
		unchallenged(c.header, c.code, p.Status)
		c.code = p.Status
	}
	return c
}

// unchallenged drops the WWW-Authenticate challenge of a 401 sent on under
// another status: only a 401 carries one (RFC 9110, 11.6.1), and an app's
// 400 to a wrong password has none.
func unchallenged(h http.Header, from, to int) {
	if from == http.StatusUnauthorized && to != http.StatusUnauthorized {
		h.Del("WWW-Authenticate")
	}
}

// changes reports whether p changes the body of an answer with code and
// header h: only a JSON 200's, or the JSON answer of the status IfStatus
// names.
func changes(p *Passthrough, code int, h http.Header) bool {
	want := http.StatusOK
	if p.IfStatus != 0 {
		want = p.IfStatus
	}
	return p.changesBody() && code == want && strings.HasPrefix(h.Get("Content-Type"), "application/json")
}

func writeCaptured(w http.ResponseWriter, c *captured) {
	writeHead(w, c)
	w.Write(c.body.Bytes())
}

// writeHead sends c's status and headers, with the Content-Length of its
// whole body.
func writeHead(w http.ResponseWriter, c *captured) {
	h := w.Header()
	for k, vs := range c.header {
		h[k] = vs
	}
	h.Del("Transfer-Encoding")
	h.Set("Content-Length", strconv.Itoa(c.body.Len()))
	w.WriteHeader(c.code)
}

// render is the answer a fault delivers badly: the rule's response, its
// passthrough, or the mock's normal answer.
func render(r *http.Request, next http.Handler, rule *Rule) *captured {
	if resp := rule.Respond; resp != nil {
		c := &captured{header: http.Header{}, code: resp.Status}
		for _, kv := range resp.Headers {
			c.header.Add(kv[0], kv[1])
		}
		body := resp.body()
		if len(body) > 0 {
			c.header.Set("Content-Type", resp.ContentType)
		}
		c.body.Write(body)
		return c
	}
	p := rule.Passthrough
	if p != nil {
		r, p = p.unpaged(r)
	}
	c := capture(r, next)
	if p != nil {
		c = changed(c, p)
	}
	return c
}

func (e *Engine) fault(w *status.Writer, r *http.Request, next http.Handler, rule *Rule) {
	f := rule.Fault
	switch f.Kind {
	case FaultReset:
		closeConn(w, true)
	case FaultEmpty:
		closeConn(w, false)
	case FaultCrash:
		fastapi.ClearForCrash(w.Header())
		fastapi.WriteServerError(w)
	case FaultHang:
		ctx := r.Context()
		if f.For > 0 {
			if sleep(ctx, f.For) {
				closeConn(w, false)
			}
			return
		}
		<-ctx.Done()
	case FaultMalformed:
		c := render(r, next, rule)
		if c.body.Len() > 0 {
			c.body.Truncate(c.body.Len() - 1)
		} else {
			c.body.WriteByte('{')
		}
		writeCaptured(w, c)
	case FaultTruncate:
		c := render(r, next, rule)
		body := c.body.Bytes()
		n := f.Bytes
		if n < 0 || n >= len(body) {
			n = len(body) / 2
		}
		// What the middleware around the engine put in the answer's
		// header (CORS) goes out too: the browser must see a cut-off
		// answer, not a CORS error.
		h := w.Header().Clone()
		for k, vs := range c.header {
			h[k] = vs
		}
		c.header = h
		conn, rw := hijack(w, c.code)
		defer conn.Close()
		c.header.Set("Content-Length", strconv.Itoa(len(body)))
		c.header.Del("Transfer-Encoding")
		writeRawHead(rw, c)
		rw.Write(body[:n])
		rw.Flush()
	case FaultTrickle:
		s := &relay{w: w, ctx: r.Context(), trickle: f}
		if resp := rule.Respond; resp != nil {
			body := resp.body()
			writeResponseHead(w, resp, len(body))
			s.code, s.started = resp.Status, true
			s.send(body)
			return
		}
		s.p = rule.Passthrough
		next.ServeHTTP(s, r)
		s.finish()
	}
}

// closeConn ends the request's connection without an answer: with a TCP
// reset (RST) when reset is set, else an orderly close.
func closeConn(w *status.Writer, reset bool) {
	conn, _ := hijack(w, 0)
	if tcp, isTCP := conn.(interface{ SetLinger(sec int) error }); isTCP && reset {
		tcp.SetLinger(0) // close sends RST instead of FIN (a *net.TCPConn, or serve's wrapper of one)
	}
	conn.Close()
}

// hijack takes the connection over to answer code by hand (0: not at all).
// A connection that cannot be taken (HTTP/2) is aborted instead, which is
// the closest it gets.
func hijack(w *status.Writer, code int) (net.Conn, *bufio.ReadWriter) {
	w.Start(code)
	conn, rw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	return conn, rw
}

// writeRawHead writes an HTTP/1.1 status line and headers by hand, for a
// hijacked connection.
func writeRawHead(rw *bufio.ReadWriter, c *captured) {
	rw.WriteString("HTTP/1.1 " + strconv.Itoa(c.code) + " " + http.StatusText(c.code) + "\r\n")
	c.header.Set("Date", time.Now().UTC().Format(http.TimeFormat))
	c.header.Write(rw)
	rw.WriteString("\r\n")
}

// holdLimit is how much of a changed or trickled answer is held back
// before it is sent: an answer that ends within it goes out with its
// Content-Length, a longer one as it is written (chunked).
const holdLimit = 64 << 10

// relay is the ResponseWriter the mock answers into when its answer is
// sent on changed (a passthrough's changes) or slowly (a trickle): the
// answer goes on as the mock writes it, a list element by element, so no
// more than a piece of a large answer is held at once.
//
// A trickle's pauses fall between the mock's writes, never inside one: the
// mock may write an answer it renders whole under its data's lock, which a
// pause must not hold.
type relay struct {
	w       http.ResponseWriter
	ctx     context.Context
	p       *Passthrough // nil: the answer's body unchanged
	trickle *Fault       // nil: sent at once

	code    int         // the mock's status; 0 until it gives one
	change  *bodyChange // nil: the body goes on as the mock writes it
	held    []byte      // written and not yet sent
	started bool        // the status line is sent
	chunks  int         // trickle: chunks sent
	err     error       // sending failed: the client is gone
	whole   bool        // the body is the rule's (Passthrough.Whole): the mock's is dropped
}

func (s *relay) Header() http.Header { return s.w.Header() }

func (s *relay) WriteHeader(code int) {
	if s.code != 0 {
		return
	}
	s.code = code
	if s.p != nil && !s.p.applies(code) {
		s.p = nil // not the answer the rule changes: sent as the mock wrote it
	}
	if p := s.p; p != nil {
		h := s.w.Header()
		for _, kv := range p.Headers {
			h.Add(kv[0], kv[1])
		}
		if p.Whole && code == p.IfStatus {
			h.Set("Content-Type", "application/json")
			s.whole = true
			s.hold(appendObject(nil, p.Set))
		} else if changes(p, code, h) {
			s.change = newBodyChange(p, s.hold)
		}
	}
}

func (s *relay) Write(b []byte) (int, error) {
	if s.code == 0 {
		s.WriteHeader(http.StatusOK)
	}
	if s.trickle != nil && len(s.held) >= holdLimit {
		s.drain(false)
	}
	if s.err != nil {
		return 0, s.err
	}
	if s.whole {
		return len(b), nil // the rule's body is sent instead
	}
	if s.change != nil {
		s.change.write(b)
	} else {
		s.hold(b)
	}
	return len(b), s.err
}

// hold takes the next bytes of the answer as it is to be sent.
func (s *relay) hold(b []byte) {
	if s.started && s.trickle == nil && len(s.held) == 0 {
		s.send(b)
		return
	}
	s.held = append(s.held, b...)
	if s.trickle == nil && len(s.held) >= holdLimit {
		s.drain(false)
	}
}

// finish sends what is left once the mock has answered.
func (s *relay) finish() {
	if s.code == 0 {
		s.WriteHeader(http.StatusOK)
	}
	if s.change != nil {
		s.change.close()
	}
	if s.err == nil {
		s.drain(true)
	}
}

// drain sends what is held (a trickle's whole chunks only, unless final),
// sending the status line first.
func (s *relay) drain(final bool) {
	if !s.started {
		s.start(final)
	}
	n := len(s.held)
	if f := s.trickle; f != nil && !final {
		n -= n % f.Chunk
	}
	s.send(s.held[:n])
	s.held = s.held[:copy(s.held, s.held[n:])]
}

// start sends the status line and headers: with the Content-Length of
// what is held when that is the whole answer, else without one when the
// body is changed (the mock's no longer holds).
func (s *relay) start(whole bool) {
	s.started = true
	h := s.w.Header()
	if whole {
		h.Del("Transfer-Encoding")
		h.Set("Content-Length", strconv.Itoa(len(s.held)))
	} else if s.change != nil {
		h.Del("Content-Length")
	}
	code := s.code
	if s.p != nil && s.p.Status != 0 {
		code = s.p.Status
		unchallenged(h, s.code, code)
	}
	s.w.WriteHeader(code)
}

// send writes b to the client: at once, or a trickle's chunk at a time
// with its pause between chunks.
func (s *relay) send(b []byte) {
	f := s.trickle
	if f == nil {
		if len(b) > 0 && s.err == nil {
			_, s.err = s.w.Write(b)
		}
		return
	}
	rc := http.NewResponseController(s.w)
	for len(b) > 0 && s.err == nil {
		if s.chunks > 0 && !sleep(s.ctx, f.Interval) {
			s.err = s.ctx.Err()
			return
		}
		n := min(f.Chunk, len(b))
		if _, err := s.w.Write(b[:n]); err != nil {
			s.err = err
			return
		}
		rc.Flush()
		s.chunks++
		b = b[n:]
	}
}

// bodyChange applies a passthrough's body changes to a JSON answer as it
// is written: a list element by element, each handed to emit once read; an
// object whole, at close. An answer that is neither goes on unchanged, and
// so does a list element that is not an object (the loader holds set and
// where to the contract's list of objects, so neither happens with the
// mock's answers).
type bodyChange struct {
	p    *Passthrough
	emit func([]byte)

	kind byte   // 0 until the first byte: '[' a list, '{' an object, '-' anything else
	lead []byte // white space before the first byte
	elem []byte // the element being read, or the whole object

	// The element being read: how deep in it, in a string of it, after a
	// backslash in that string, a number or literal (which ends at the
	// next delimiter).
	depth            int
	str, esc, scalar bool
	ended            bool // the list's "]" was read, or its limit reached
	kept, skipped    int
	// counting goes on reading a list past its limit, to count in matched
	// every element where keeps (an envelope's count says how many).
	counting bool
	matched  int
	held     [][]byte // the elements where kept, under Order
	err      error    // the first part that could not be changed

	// Reused from one element to the next.
	out     []byte            // an element changed
	ms      []member          // its members
	names   map[string]string // member names seen
	compact []byte            // a member's value, compacted
}

func newBodyChange(p *Passthrough, emit func([]byte)) *bodyChange {
	return &bodyChange{p: p, emit: emit}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

var errNotJSON = errors.New("the answer is neither a JSON object nor a list")

func (c *bodyChange) write(b []byte) {
	if c.kind == 0 {
		i := 0
		for i < len(b) && isSpace(b[i]) {
			i++
		}
		c.lead = append(c.lead, b[:i]...)
		if i == len(b) {
			return
		}
		b = b[i:]
		switch b[0] {
		case '[':
			c.kind = '['
			c.emit([]byte{'['})
			b = b[1:]
		case '{':
			c.kind = '{'
		default:
			c.kind = '-'
			c.err = errNotJSON
			c.emit(c.lead)
		}
	}
	switch c.kind {
	case '-':
		c.emit(b)
	case '{':
		c.elem = append(c.elem, b...)
	case '[':
		c.list(b)
	}
}

// list reads the next bytes of a list.
func (c *bodyChange) list(b []byte) {
	for len(b) > 0 && !c.ended {
		if len(c.elem) == 0 {
			i := 0
			for i < len(b) && (isSpace(b[i]) || b[i] == ',') {
				i++
			}
			if b = b[i:]; len(b) == 0 {
				return
			}
			if b[0] == ']' {
				c.ended = true
				return
			}
			c.depth, c.str, c.esc = 0, false, false
			c.scalar = b[0] != '{' && b[0] != '[' && b[0] != '"'
		}
		n, done := c.scan(b)
		c.elem = append(c.elem, b[:n]...)
		b = b[n:]
		if done {
			c.element(c.elem)
			c.elem = c.elem[:0]
		}
	}
}

// scan finds where the element begun in c.elem ends in b: the bytes of b
// that belong to it, and whether it is complete.
func (c *bodyChange) scan(b []byte) (int, bool) {
	for i := 0; i < len(b); i++ {
		ch := b[i]
		if c.str {
			switch {
			case c.esc:
				c.esc = false
			case ch == '\\':
				c.esc = true
			case ch == '"':
				c.str = false
				if c.depth == 0 {
					return i + 1, true
				}
			default:
				// Skip ahead to the next quote or backslash.
				if j := bytes.IndexAny(b[i:], "\"\\"); j > 0 {
					i += j - 1
				} else if j < 0 {
					return len(b), false
				}
			}
			continue
		}
		if c.scalar {
			if ch == ',' || ch == ']' || isSpace(ch) {
				return i, true
			}
			continue
		}
		switch ch {
		case '"':
			c.str = true
		case '{', '[':
			c.depth++
		case '}', ']':
			if c.depth--; c.depth == 0 {
				return i + 1, true
			}
		}
	}
	return len(b), false
}

// element changes one list element and hands it on, unless where, offset
// or limit leave it out.
func (c *bodyChange) element(e []byte) {
	p := c.p
	full := p.Limit < 0 || p.Limit > 0 && c.kept == p.Limit
	if p.Order != "" {
		full = false // every element is held, ordered at close
	}
	if full && !c.counting {
		c.ended = true
		return
	}
	ok, err := c.matchesWhere(e, p.Where)
	if err != nil {
		c.fail(err)
		ok = true
	}
	if !ok {
		return
	}
	if c.matched++; full {
		return
	}
	if p.Order != "" {
		c.held = append(c.held, append([]byte(nil), e...))
		return
	}
	c.page(e)
}

// page hands on an element where kept, unless offset or limit leave it
// out, with set's fields replaced.
func (c *bodyChange) page(e []byte) {
	p := c.p
	if p.Limit < 0 || p.Limit > 0 && c.kept == p.Limit {
		return
	}
	if c.skipped < p.Offset {
		c.skipped++
		return
	}
	if c.kept > 0 {
		c.emit([]byte{','})
	}
	c.kept++
	var err error
	if c.out, err = c.setObject(c.out[:0], e, p.Set); err != nil {
		c.fail(err)
		c.emit(e)
		return
	}
	c.emit(c.out)
}

func (c *bodyChange) fail(err error) {
	if c.err == nil {
		c.err = err
	}
}

// close ends the answer: the list's last element and its "]", or the
// changed object.
func (c *bodyChange) close() {
	switch c.kind {
	case '[':
		if len(c.elem) > 0 && c.scalar && !c.ended {
			c.element(c.elem)
		}
		if c.p.Order != "" {
			c.ordered()
		}
		c.emit([]byte{']'})
	case '{':
		obj := bytes.TrimRight(c.elem, " \t\r\n")
		var out []byte
		var err error
		if c.p.Envelope != "" {
			out, err = c.envelope(obj)
		} else {
			out, err = c.setObject(nil, obj, c.p.Set)
		}
		if err != nil {
			c.fail(err)
			c.emit(c.lead)
			c.emit(c.elem)
			return
		}
		c.emit(out)
	}
}

// apply changes a whole JSON answer: set replaces fields of the object, or
// of each element of a list; a list keeps only elements matching where,
// from offset, at most limit of them (-1: none). Member order is kept. The
// error is the first part that could not be changed.
func apply(body []byte, set, where []member, offset, limit int) ([]byte, error) {
	return applyPassthrough(body, &Passthrough{Set: set, Where: where, Offset: offset, Limit: limit})
}

// applyPassthrough changes a whole JSON answer as p says (see apply, and
// Passthrough.Envelope).
func applyPassthrough(body []byte, p *Passthrough) ([]byte, error) {
	out, c := change(body, p, false)
	return out, c.err
}

// change runs a bodyChange of p over a whole body.
func change(body []byte, p *Passthrough, counting bool) ([]byte, *bodyChange) {
	var out []byte
	c := newBodyChange(p, func(b []byte) { out = append(out, b...) })
	c.counting = counting
	c.write(body)
	c.close()
	if out == nil {
		out = []byte{}
	}
	return out, c
}

// envelope changes the records the envelope obj holds in its member
// p.Envelope, as a whole answer of them would be changed: a list element
// by element, one record's fields. When where left elements of a list out,
// the envelope's counts (count, total, articlesCount: integers) say how
// many it kept, offset and limit aside, as the mock's own envelopes count
// the records matching before paging.
func (c *bodyChange) envelope(obj []byte) ([]byte, error) {
	ms, err := c.members(obj)
	if err != nil {
		return nil, err
	}
	ms = slices.Clone(ms) // c.ms is reused
	i := slices.IndexFunc(ms, func(m member) bool { return m.name == c.p.Envelope })
	if i < 0 {
		return append([]byte(nil), obj...), nil
	}
	inner := *c.p
	inner.Envelope = ""
	out, sub := change(ms[i].value, &inner, true)
	if sub.err != nil {
		return nil, sub.err
	}
	ms[i].value = out
	if sub.kind == '[' && len(c.p.Where) > 0 {
		for j, m := range ms {
			if j != i && model.CountMember(m.name) && isInteger(m.value) {
				ms[j].value = strconv.AppendInt(nil, int64(sub.matched), 10)
			}
		}
	}
	return appendObject(nil, ms), nil
}

// isInteger reports whether a JSON value is an integer.
func isInteger(v []byte) bool {
	if len(v) > 0 && v[0] == '-' {
		v = v[1:]
	}
	if len(v) == 0 {
		return false
	}
	for _, ch := range v {
		if ch < '0' || ch > '9' {
			return false
		}
	}
	return true
}

var errNotObject = errors.New("not a JSON object")

// members reads a JSON object's members in order, their values slices of
// obj. It splits valid JSON, as the mock writes it, without checking it:
// json.Decoder would check it again for every element of a long list.
func (c *bodyChange) members(obj []byte) ([]member, error) {
	i := skipSpace(obj, 0)
	if i == len(obj) || obj[i] != '{' {
		return nil, errNotObject
	}
	out := c.ms[:0]
	for i = skipSpace(obj, i+1); i < len(obj) && obj[i] != '}'; {
		if obj[i] != '"' {
			return nil, errNotObject
		}
		end := valueEnd(obj, i)
		if end < 0 {
			return nil, errNotObject
		}
		name, err := c.name(obj[i:end])
		if err != nil {
			return nil, err
		}
		if i = skipSpace(obj, end); i == len(obj) || obj[i] != ':' {
			return nil, errNotObject
		}
		i = skipSpace(obj, i+1)
		if end = valueEnd(obj, i); end < 0 {
			return nil, errNotObject
		}
		out = append(out, member{name: name, value: obj[i:end]})
		if i = skipSpace(obj, end); i < len(obj) && obj[i] == ',' {
			i = skipSpace(obj, i+1)
		}
	}
	c.ms = out
	if i == len(obj) {
		return nil, errNotObject
	}
	return out, nil
}

// name decodes a member name (a JSON string), once for every element
// that has it.
func (c *bodyChange) name(quoted []byte) (string, error) {
	if name, ok := c.names[string(quoted)]; ok {
		return name, nil
	}
	var name string
	if err := json.Unmarshal(quoted, &name); err != nil {
		return "", err
	}
	if c.names == nil {
		c.names = map[string]string{}
	}
	if len(c.names) < 1000 {
		c.names[string(quoted)] = name
	}
	return name, nil
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// valueEnd is where the JSON value starting at b[i] ends; -1 when it does
// not end within b.
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"', '{', '[':
	default: // a number or literal
		for j := i; j < len(b); j++ {
			if c := b[j]; c == ',' || c == '}' || c == ']' || isSpace(c) {
				return j
			}
		}
		return len(b)
	}
	depth, str := 0, false
	for j := i; j < len(b); j++ {
		ch := b[j]
		if str {
			switch ch {
			case '\\':
				j++
			case '"':
				str = false
				if depth == 0 {
					return j + 1
				}
			}
			continue
		}
		switch ch {
		case '"':
			str = true
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return j + 1
			}
		}
	}
	return -1
}

// setObject appends obj to dst with set's members replaced, or added at
// the end.
func (c *bodyChange) setObject(dst, obj []byte, set []member) ([]byte, error) {
	if len(set) == 0 {
		return append(dst, obj...), nil
	}
	ms, err := c.members(obj)
	if err != nil {
		return nil, err
	}
	for _, s := range set {
		i := slices.IndexFunc(ms, func(m member) bool { return m.name == s.name })
		if i < 0 {
			ms = append(ms, s)
		} else {
			ms[i].value = s.value
		}
	}
	c.ms = ms
	return appendObject(dst, ms), nil
}

// ordered pages the held elements in the order of the member Order names
// ("-" first: descending): numbers by value, other values by their JSON
// text (an RFC 3339 date-time, a string); an element without the member
// last. The sort is stable: equal ones keep the answer's order.
func (c *bodyChange) ordered() {
	name, desc := strings.CutPrefix(c.p.Order, "-")
	type keyed struct {
		e   []byte
		num float64
		isN bool
		txt []byte
		has bool
	}
	ks := make([]keyed, len(c.held))
	for i, e := range c.held {
		ks[i].e = e
		ms, err := c.members(e)
		if err != nil {
			continue
		}
		if j := slices.IndexFunc(ms, func(m member) bool { return m.name == name }); j >= 0 {
			v := ms[j].value
			ks[i].has = true
			ks[i].txt = v
			if f, err := strconv.ParseFloat(string(v), 64); err == nil {
				ks[i].num, ks[i].isN = f, true
			}
		}
	}
	slices.SortStableFunc(ks, func(a, b keyed) int {
		if a.has != b.has {
			if a.has {
				return -1
			}
			return 1
		}
		var r int
		if a.isN && b.isN {
			r = cmp.Compare(a.num, b.num)
		} else {
			r = bytes.Compare(a.txt, b.txt)
		}
		if desc {
			r = -r
		}
		return r
	})
	for _, k := range ks {
		c.page(k.e)
	}
	c.held = nil
}

// appendObject writes ms as a JSON object.
func appendObject(dst []byte, ms []member) []byte {
	dst = append(dst, '{')
	for i, m := range ms {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = fastapi.AppendString(dst, m.name)
		dst = append(dst, ':')
		dst = append(dst, m.value...)
	}
	return append(dst, '}')
}

// matchesWhere reports whether the object elem has where's values.
func (c *bodyChange) matchesWhere(elem []byte, where []member) (bool, error) {
	if len(where) == 0 {
		return true, nil
	}
	ms, err := c.members(elem)
	if err != nil {
		return false, err
	}
	// The whole fields first, from ms; then the dotted ones, whose
	// reading reuses c.ms.
	for _, dotted := range []bool{false, true} {
		for _, w := range where {
			if (w.path != nil) != dotted {
				continue
			}
			var val []byte
			if dotted {
				val = c.memberAt(elem, w.path)
			} else if i := slices.IndexFunc(ms, func(m member) bool { return m.name == w.name }); i >= 0 {
				val = ms[i].value
			}
			if val == nil {
				return false, nil
			}
			c.compact, err = fastapi.AppendCompact(c.compact[:0], val)
			if err != nil || !bytes.Equal(c.compact, w.value) {
				return false, nil
			}
		}
	}
	return true, nil
}

// memberAt is the value at path in the JSON object obj (author.following:
// the following of its author); nil when a name on the way is missing or
// holds no object.
func (c *bodyChange) memberAt(obj []byte, path []string) []byte {
	for _, name := range path {
		ms, err := c.members(obj)
		if err != nil {
			return nil
		}
		i := slices.IndexFunc(ms, func(m member) bool { return m.name == name })
		if i < 0 {
			return nil
		}
		obj = ms[i].value
	}
	return obj
}
