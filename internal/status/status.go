// Package status provides the http.ResponseWriter wrapper that remembers
// what was answered (status code and body size), shared by the request log
// and the scenario journal so that one request wraps its writer once.
package status

import "net/http"

// Writer remembers the status and size of a response.
type Writer struct {
	http.ResponseWriter
	Code  int   // 0 until a header or body is written
	Bytes int64 // body bytes written
}

// Wrap returns w as a *Writer, reusing it when it already is one.
func Wrap(w http.ResponseWriter) *Writer {
	if sw, ok := w.(*Writer); ok {
		return sw
	}
	return &Writer{ResponseWriter: w}
}

func (w *Writer) WriteHeader(code int) {
	if w.Code == 0 {
		w.Code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *Writer) Write(b []byte) (int, error) {
	if w.Code == 0 {
		w.Code = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.Bytes += int64(n)
	return n, err
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
