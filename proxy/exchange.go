package proxy

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/scenarios"
)

// exchange is one request forwarded to the upstream.
type exchange struct {
	p     *Proxy
	r     *http.Request
	op    *model.Operation  // nil: no operation of the contract
	vars  map[string]string // op's path parameters
	body  []byte            // the request's
	start time.Time
}

// buffers are relay's copy buffers.
var buffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// maxReportBody is the most of a request body a violation's reproduction
// keeps.
const maxReportBody = 64 << 10

// relay sends the upstream's answer on as it arrives, keeping a copy (up to
// MaxCheckBytes) for the checks and the recording. The checks run once the
// body is complete, before its last byte goes out: when the client has the
// whole answer, its violations are in the journal.
func (x *exchange) relay(w http.ResponseWriter, resp *http.Response) {
	defer resp.Body.Close()
	p := x.p
	scenarios.SetAnsweredBy(x.r, "upstream")
	p.copyHeaders(w.Header(), resp.Header)
	length := resp.ContentLength
	if length >= 0 && bodyAllowed(resp.StatusCode) {
		w.Header().Set("Content-Length", strconv.FormatInt(length, 10))
	}
	w.WriteHeader(resp.StatusCode)

	keep := x.op != nil && (p.cfg.Observer != nil || p.cfg.Recorder != nil)
	kept := keeper{mem: p.checkMem, max: p.cfg.MaxCheckBytes}
	defer kept.release()
	truncated, overBudget := false, false
	if keep && length > 0 && length <= p.cfg.MaxCheckBytes && !kept.grow(length) {
		truncated, overBudget = true, true
	}
	rc := http.NewResponseController(w)
	bp := buffers.Get().(*[]byte)
	defer buffers.Put(bp)
	buf := *bp
	var sent int64
	var held []byte // the last byte, sent after the checks
	var readErr error
	clientGone := false
	for {
		n, err := resp.Body.Read(buf)
		if n > 0 {
			chunk := buf[:n]
			if keep && !truncated {
				switch kept.add(chunk) {
				case keepTooLarge:
					truncated = true
				case keepOverBudget:
					truncated, overBudget = true, true
				}
			}
			sent += int64(n)
			if length > 0 && sent >= length {
				held = []byte{chunk[n-1]}
				chunk = chunk[:n-1]
			}
			if !clientGone && len(chunk) > 0 {
				if _, werr := w.Write(chunk); werr != nil {
					clientGone = true
				}
			}
			if !clientGone && held == nil {
				rc.Flush()
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			readErr = err
			break
		}
	}
	if readErr != nil && x.r.Context().Err() != nil {
		// The client went away, and the proxy stopped reading the
		// upstream's answer for it: nothing the upstream did wrong.
		panic(http.ErrAbortHandler)
	}
	if x.op == nil && p.cfg.Observer != nil {
		// Outside the contract: counted as having reached the upstream.
		p.cfg.Observer.Check(&contract.Exchange{Method: x.r.Method})
	}
	if x.op != nil {
		body := kept.buf
		out := contract.Response{Status: resp.StatusCode, Header: resp.Header, Truncated: truncated, Size: sent, Duration: time.Since(x.start)}
		encoding := resp.Header.Get("Content-Encoding")
		switch {
		case readErr != nil:
			out.Error = fmt.Sprintf("the body broke off after %d bytes: %s", sent, describe(readErr))
		case overBudget:
			out.Unchecked = p.overBudget()
		case truncated:
			out.Unchecked = fmt.Sprintf("the body is larger than the %d bytes the proxy keeps for the checks", p.cfg.MaxCheckBytes)
		default:
			decoded := keeper{mem: p.checkMem, max: p.cfg.MaxCheckBytes}
			defer decoded.release()
			var err error
			if body, truncated, err = decode(encoding, body, &decoded); err != nil {
				out.Error = err.Error()
			}
			out.Truncated = truncated
			if truncated && body == nil && decoded.over {
				out.Unchecked = p.overBudget()
			} else if truncated && body == nil && knownEncoding(encoding) {
				// A gzip bomb (15 KB that decode to gigabytes) stops here.
				out.Unchecked = fmt.Sprintf("the body decodes (Content-Encoding %s) to more than the %d bytes the proxy keeps for the checks", encoding, p.cfg.MaxCheckBytes)
			} else if truncated {
				out.Unchecked = fmt.Sprintf("the body's Content-Encoding %q is not one the checks decode (gzip, deflate)", encoding)
			}
		}
		if out.Unchecked != "" && p.cfg.Logger != nil {
			p.cfg.Logger.Warn("answer not checked", "operation", x.op.String(), "path", shownPath(x.op, x.r.URL.Path), "status", resp.StatusCode, "why", out.Unchecked)
		}
		if !out.Truncated {
			out.Body = body
		}
		x.check(&out)
		if p.cfg.Recorder != nil && out.Error == "" && !out.Truncated && resp.StatusCode/100 == 2 {
			if x.op.Kind == model.Delete && x.op.Coll != nil {
				// The latest answer of a deleted record is its delete.
				if id := x.vars[x.op.IDParam]; id != "" {
					p.cfg.Recorder.Forget(x.op.Coll, id)
				}
			} else {
				p.cfg.Recorder.Observe(x.op, resp.StatusCode, body)
				if why, _ := p.cfg.Recorder.Stopped(); why != "" && !p.recordStopped.Swap(true) && p.cfg.Logger != nil {
					p.cfg.Logger.Warn("recording stopped", "why", why)
				}
			}
		}
	}
	if readErr != nil {
		// The upstream broke its answer off: so does the proxy, rather than
		// pass a cut body on as complete.
		if p.cfg.Logger != nil {
			p.cfg.Logger.Warn("the upstream's answer broke off", "method", x.r.Method, "path", shownPath(x.op, x.r.URL.Path), "bytes", sent, "error", describe(readErr))
		}
		panic(http.ErrAbortHandler)
	}
	if held != nil && !clientGone {
		w.Write(held)
	}
}

// bodyAllowed reports whether an answer with status carries a body (or,
// to a HEAD, the length of one).
func bodyAllowed(status int) bool {
	return status >= 200 && status != http.StatusNoContent && status != http.StatusNotModified
}

// check checks the exchange against the contract, and puts what failed in
// the journal and the log.
func (x *exchange) check(resp *contract.Response) {
	p := x.p
	if p.cfg.Observer == nil {
		return
	}
	ex := &contract.Exchange{
		Method:   x.r.Method,
		Template: x.op.Path,
		Request:  x.request(),
		Response: *resp,
		Time:     x.start,
	}
	x.r.Body = io.NopCloser(bytes.NewReader(x.body))
	if _, v := p.mock.CheckRequest(x.r); v.Status != http.StatusInternalServerError {
		ex.RequestChecked = true
		if v.Status != 0 {
			rej := &contract.Rejection{Status: v.Status, Detail: v.Detail}
			for _, it := range v.Items {
				rej.Items = append(rej.Items, contract.RejectionItem{Loc: it.Loc, Msg: it.Msg, Type: it.Type})
			}
			ex.Rejection = rej
		}
	}
	res := p.cfg.Observer.Check(ex)
	if res == nil || !res.Failed() {
		return
	}
	var lines []string
	for _, c := range res.Checks {
		if c.Passed {
			continue
		}
		line := c.Check + ": expected " + c.Expected + ", got " + c.Got
		lines = append(lines, line)
		if log := p.cfg.Logger; log != nil {
			log.Warn("contract violation", "operation", x.op.String(), "path", shownPath(x.op, x.r.URL.Path), "status", resp.Status,
				"check", c.Check, "expected", c.Expected, "got", c.Got)
		}
	}
	scenarios.AddViolations(x.r, lines...)
}

// request is the request as forwarded, for a violation's reproduction.
func (x *exchange) request() contract.Request {
	h := x.r.Header.Clone()
	removeHop(h)
	h.Del("Content-Length") // curl counts it itself
	for _, name := range mockHeaders {
		h.Del(name)
	}
	body := x.body
	if len(body) > maxReportBody {
		body = body[:maxReportBody]
	}
	return contract.Request{Method: x.r.Method, URL: x.p.target(x.r).String(), Header: h, Body: string(body)}
}

// knownEncoding reports whether decode undoes encoding.
func knownEncoding(encoding string) bool {
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "gzip", "x-gzip", "deflate":
		return true
	}
	return false
}

// decode undoes a body's Content-Encoding for the checks into into, up to
// its max bytes decoded (and as long as the memory for the checks lasts,
// into.over says when not): past it, or in an encoding it does not know (br, zstd), the body
// is not checked (skipped reports it so). A body that does not decode is
// broken, which err says.
func decode(encoding string, body []byte, into *keeper) (decoded []byte, skipped bool, err error) {
	var r io.Reader
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "", "identity":
		return body, false, nil
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, false, fmt.Errorf("the body is not the gzip its Content-Encoding says: %v", err)
		}
		r = zr
	case "deflate":
		zr, err := zlib.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, false, fmt.Errorf("the body is not the deflate its Content-Encoding says: %v", err)
		}
		r = zr
	default:
		return nil, true, nil
	}
	res, err := into.readAll(r)
	switch {
	case res == keepOverBudget:
		into.over = true
		return nil, true, nil
	case res == keepTooLarge:
		return nil, true, nil
	case err != nil:
		return nil, false, fmt.Errorf("the body does not decode as its Content-Encoding %s says: %v", encoding, err)
	}
	return into.buf, false, nil
}
