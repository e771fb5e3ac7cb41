package status

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// replacing answers 408 in place of any final answer, as the 408 of a
// body that arrived too slowly does.
type replacing struct{ http.ResponseWriter }

func (replacing) Replaces(code int) (int, string) {
	if code >= 100 && code < 200 {
		return code, ""
	}
	return http.StatusRequestTimeout, "too slow"
}

// wrapping passes the writer on, as a deadline writer does.
type wrapping struct{ http.ResponseWriter }

func (w wrapping) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// What a Writer records is what the client gets: a Replacer further out,
// even behind other writers, has its status recorded and why.
func TestWriterReplaced(t *testing.T) {
	for _, tc := range []struct {
		name     string
		w        http.ResponseWriter
		code     int
		want     int
		replaced string
	}{
		{"no replacer", httptest.NewRecorder(), 400, 400, ""},
		{"replacer", replacing{httptest.NewRecorder()}, 400, 408, "too slow"},
		{"replacer behind a wrapper", wrapping{replacing{httptest.NewRecorder()}}, 400, 408, "too slow"},
		{"no answer", replacing{httptest.NewRecorder()}, 0, 408, "too slow"},
		{"interim answer", replacing{httptest.NewRecorder()}, 100, 100, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &Writer{ResponseWriter: tc.w}
			w.Start(tc.code)
			if w.Code != tc.want || w.Replaced != tc.replaced {
				t.Errorf("Code %d, Replaced %q; want %d, %q", w.Code, w.Replaced, tc.want, tc.replaced)
			}
		})
	}
}
