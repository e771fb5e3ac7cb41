package mock

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A panic in a handler is FastAPI's plain 500, logged; one after the
// answer began leaves the answer alone; http.ErrAbortHandler still aborts.
func TestRecoverPanics(t *testing.T) {
	var logged bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logged, nil))
	h := logRequests(log, nil, recoverPanics(log, nil, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/late" {
			w.WriteHeader(http.StatusTeapot)
		}
		if r.URL.Path == "/abort" {
			panic(http.ErrAbortHandler)
		}
		panic("boom")
	})))

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/person/1", nil))
	if rec.Code != 500 || rec.Body.String() != "Internal Server Error" || rec.Header().Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Errorf("%d %q %q", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
	}
	if !strings.Contains(logged.String(), "panic=boom") || !strings.Contains(logged.String(), "status=500") {
		t.Errorf("log: %s", logged.String())
	}

	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/late", nil))
	if rec.Code != http.StatusTeapot || rec.Body.Len() != 0 {
		t.Errorf("a panic after the answer began: %d %q", rec.Code, rec.Body)
	}

	defer func() {
		if v := recover(); v != http.ErrAbortHandler {
			t.Errorf("ErrAbortHandler was swallowed: %v", v)
		}
	}()
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/abort", nil))
}
