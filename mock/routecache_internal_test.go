package mock

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/gorilla/mux"
)

// The route cache answers as the router does: a path asked for again gets
// its own parameters, a method the route lacks its 405, an unknown path
// its 404; only matched paths are kept, short ones, and never more than
// routeCacheSize.
func TestRouteCacheAnswersAsTheRouter(t *testing.T) {
	router := mux.NewRouter().SkipClean(true)
	router.Path("/items/{id}").Methods("GET").HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "item "+mux.Vars(r)["id"])
	})
	router.Path("/items").Methods("POST").HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "created")
	})
	router.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(404) })
	router.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(405) })
	c := newRouteCache(router)
	do := func(method, path string) (int, string) {
		t.Helper()
		w := httptest.NewRecorder()
		c.ServeHTTP(w, httptest.NewRequest(method, path, nil))
		return w.Code, w.Body.String()
	}
	want := func(method, path string, code int, body string) {
		t.Helper()
		for i := range 2 { // the first fills the cache, the second reads it
			if gotCode, gotBody := do(method, path); gotCode != code || gotBody != body {
				t.Errorf("%s %s, time %d: %d %q, want %d %q", method, path, i+1, gotCode, gotBody, code, body)
			}
		}
	}
	want("GET", "/items/1", 200, "item 1")
	want("GET", "/items/2", 200, "item 2")
	want("POST", "/items", 200, "created")
	want("PUT", "/items/1", 405, "")
	want("GET", "/nothing", 404, "")
	long := "/items/" + strings.Repeat("x", routeCachePath)
	want("GET", long, 200, "item "+strings.Repeat("x", routeCachePath))
	if c.n != 3 {
		t.Errorf("%d paths kept, want 3 (GET /items/1, GET /items/2, POST /items): %v", c.n, c.byPath)
	}
	if _, ok := c.byPath["GET"][long]; ok {
		t.Errorf("a path of %d bytes was kept", len(long))
	}
	for i := range routeCacheSize + 10 {
		id := strconv.Itoa(i)
		if code, body := do("GET", "/items/"+id); code != 200 || body != "item "+id {
			t.Fatalf("GET /items/%s: %d %q", id, code, body)
		}
		if c.n > routeCacheSize {
			t.Fatalf("%d paths kept, more than %d", c.n, routeCacheSize)
		}
	}
}
