package loadgen_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/moviemock/moviemock/internal/loadgen"
)

// Every answer is read in full whatever its framing, over the same
// connections: a body left unread would break the next answer's parse.
func TestRunReadsEveryAnswer(t *testing.T) {
	var served atomic.Int64
	big := strings.Repeat("x", 200<<10)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		switch r.URL.Path {
		case "/chunked":
			w.Write([]byte(big)) // too big to buffer: chunked
		case "/empty":
			w.WriteHeader(http.StatusNoContent)
		case "/login":
			if r.FormValue("username") != "alice" {
				w.WriteHeader(http.StatusBadRequest)
			}
			w.Write([]byte("{}"))
		default:
			w.Write([]byte("hello"))
		}
	}))
	defer ts.Close()
	addr := strings.TrimPrefix(ts.URL, "http://")
	for _, tc := range []struct {
		name string
		req  []byte
	}{
		{"length", loadgen.Request("GET", "/", "")},
		{"chunked", loadgen.Request("GET", "/chunked", "")},
		{"no body", loadgen.Request("GET", "/empty", "")},
		{"form", loadgen.Request("POST", "/login", "username=alice", "Content-Type: application/x-www-form-urlencoded")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			served.Store(0)
			res, err := loadgen.Run(context.Background(), addr, tc.req, loadgen.Options{Conns: 4, Requests: 200})
			if err != nil || res.Answers != 200 || res.Errors != 0 || served.Load() != 200 {
				t.Fatalf("%+v %v, served %d", res, err, served.Load())
			}
		})
	}
}

// An answer with another status is an error, named.
func TestRunCountsWrongStatus(t *testing.T) {
	ts := httptest.NewServer(http.NotFoundHandler())
	defer ts.Close()
	res, err := loadgen.Run(context.Background(), strings.TrimPrefix(ts.URL, "http://"),
		loadgen.Request("GET", "/", ""), loadgen.Options{Conns: 2, Requests: 10, Status: 200})
	if err != nil || res.Answers != 0 || res.Errors != 10 || res.FirstErr == nil || !strings.Contains(res.FirstErr.Error(), "status 404") {
		t.Fatalf("%+v %v", res, err)
	}
}
