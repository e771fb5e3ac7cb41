// Package status provides the http.ResponseWriter wrapper that remembers
// what was answered (status code and body size), shared by the request log
// and the scenario journal so that one request wraps its writer once.
package status

import (
	"io"
	"net/http"
)

// Writer remembers the status and size of a response.
type Writer struct {
	http.ResponseWriter
	Code  int   // 0 until a header or body is written
	Bytes int64 // body bytes written
	// Fault is how the answer was broken on purpose (a scenario's fault:
	// reset, hang, truncate…), "" when it was not: Code and Bytes alone
	// make a reset look like an empty 200.
	Fault string
	// Replaced says why the client got Code rather than what the handler
	// answered: a writer further out (a Replacer) answered in its place;
	// "" when it did not.
	Replaced string

	// OnStart, when set, is told once as the answer begins: before its
	// status line is sent, or when Start says the connection is taken over.
	// What it records is then in place before the client can see any of
	// the answer. An interface rather than a func: the journal's is the
	// request's own writer, where a closure was an allocation per request.
	OnStart Starter
	// Tee, when set, gets a copy of the body as it is written (the
	// journal keeps a bounded part of the answer).
	Tee io.Writer
}

// Starter is told when an answer begins.
type Starter interface{ Started() }

// Wrap returns w as a *Writer, reusing it when it already is one.
func Wrap(w http.ResponseWriter) *Writer {
	if sw, ok := w.(*Writer); ok {
		return sw
	}
	return &Writer{ResponseWriter: w}
}

func (w *Writer) WriteHeader(code int) {
	if w.Code == 0 {
		w.Start(code)
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *Writer) Write(b []byte) (int, error) {
	if w.Code == 0 {
		w.Start(http.StatusOK)
	}
	n, err := w.ResponseWriter.Write(b)
	w.Bytes += int64(n)
	if w.Tee != nil && n > 0 {
		w.Tee.Write(b[:n])
	}
	return n, err
}

// Replacer is a ResponseWriter that may answer in place of the handler
// it wraps: the 408 of a request whose body arrived too slowly, which
// replaces the handler's 400 (or its answer of nothing). Replaces is what
// the client gets when the handler answers code (0: nothing): the status
// sent and why, or code and "" when the answer goes out as the handler
// gives it.
type Replacer interface {
	Replaces(code int) (int, string)
}

// Start records code as the answer's status (0: none) and runs OnStart,
// without writing anything: for an answer that takes the connection over.
// A Replacer further out that will answer instead has its status
// recorded, and why (Replaced): what is recorded is what the client gets.
func (w *Writer) Start(code int) {
	if w.Code == 0 {
		w.Code = code
		if c, why := replaces(w.ResponseWriter, code); why != "" {
			w.Code, w.Replaced = c, why
		}
	}
	if f := w.OnStart; f != nil {
		w.OnStart = nil
		f.Started()
	}
}

// maxUnwrap bounds the writers replaces looks through.
const maxUnwrap = 16

// replaces asks the first Replacer among rw and the writers it wraps what
// the client gets for code.
func replaces(rw http.ResponseWriter, code int) (int, string) {
	for range maxUnwrap {
		if r, ok := rw.(Replacer); ok {
			return r.Replaces(code)
		}
		u, ok := rw.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			break
		}
		rw = u.Unwrap()
	}
	return code, ""
}

// Status is the code sent, 200 when the handler wrote nothing.
func (w *Writer) Status() int {
	if w.Code == 0 {
		return http.StatusOK
	}
	return w.Code
}

// Unwrap lets http.ResponseController reach the connection (flush, hijack).
func (w *Writer) Unwrap() http.ResponseWriter { return w.ResponseWriter }
