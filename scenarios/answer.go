package scenarios

import (
	"bufio"
	"bytes"
	"context"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/status"
)

// answer carries out a rule: its delay, then its response, passthrough or
// fault.
func (e *Engine) answer(w *status.Writer, r *http.Request, next http.Handler, rule *Rule, tr *trace) {
	if rule.Delay != nil && !sleep(r.Context(), e.delay(rule.Delay)) {
		return // the client gave up
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

func writeResponse(w http.ResponseWriter, resp *Response) {
	h := w.Header()
	for _, kv := range resp.Headers {
		h.Add(kv[0], kv[1])
	}
	body := resp.body()
	if len(body) > 0 {
		h.Set("Content-Type", resp.ContentType)
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(resp.Status)
	w.Write(body)
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
	return len(p.Set) > 0 || len(p.Where) > 0 || p.Offset > 0 || p.Limit != 0
}

// passthrough is the normal answer with the rule's changes. Without body
// changes it is streamed as the mock sends it.
func passthrough(w http.ResponseWriter, r *http.Request, next http.Handler, p *Passthrough) {
	if !p.changesBody() && p.Status == 0 {
		for _, kv := range p.Headers {
			w.Header().Add(kv[0], kv[1])
		}
		next.ServeHTTP(w, r)
		return
	}
	c := capture(r, next)
	writeCaptured(w, changed(c, p))
}

// changed applies p to a captured answer. Only a JSON 200 has its body
// changed: an error answer stays what the mock said.
func changed(c *captured, p *Passthrough) *captured {
	for _, kv := range p.Headers {
		c.header.Add(kv[0], kv[1])
	}
	if p.changesBody() && c.code == http.StatusOK && strings.HasPrefix(c.header.Get("Content-Type"), "application/json") {
		if body, err := apply(c.body.Bytes(), p.Set, p.Where, p.Offset, p.Limit); err == nil {
			c.body.Reset()
			c.body.Write(body)
		}
	}
	if p.Status != 0 {
		c.code = p.Status
	}
	return c
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
	c := capture(r, next)
	if rule.Passthrough != nil {
		c = changed(c, rule.Passthrough)
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
		conn, rw := hijack(w, c.code)
		defer conn.Close()
		c.header.Set("Content-Length", strconv.Itoa(len(body)))
		c.header.Del("Transfer-Encoding")
		writeRawHead(rw, c)
		rw.Write(body[:n])
		rw.Flush()
	case FaultTrickle:
		c := render(r, next, rule)
		writeHead(w, c)
		rc := http.NewResponseController(w)
		body := c.body.Bytes()
		for len(body) > 0 {
			n := min(f.Chunk, len(body))
			if _, err := w.Write(body[:n]); err != nil {
				return
			}
			rc.Flush()
			body = body[n:]
			if len(body) > 0 && !sleep(r.Context(), f.Interval) {
				return
			}
		}
	}
}

// closeConn ends the request's connection without an answer: with a TCP
// reset (RST) when reset is set, else an orderly close.
func closeConn(w *status.Writer, reset bool) {
	conn, _ := hijack(w, 0)
	if tcp, isTCP := conn.(*net.TCPConn); isTCP && reset {
		tcp.SetLinger(0) // close sends RST instead of FIN
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
