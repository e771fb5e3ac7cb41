package mock

import (
	"net/http"
	"sync"

	"github.com/gorilla/mux"
)

// Bounds of routeCache: the paths it remembers, and the longest it
// remembers. A client sending endless distinct paths empties it now and
// then; it never holds more than routeCacheSize·routeCachePath bytes of
// paths.
const (
	routeCacheSize = 4096
	routeCachePath = 256
)

// routeCache remembers which route the router chose for a method and path,
// and the path parameters it read, so that a path asked for again is not
// matched against every route's pattern again. The router stays the one
// that decides: a path is remembered only after it matched a route, and
// what the router does with anything else (404, 405, the redirects) it
// does itself. A matched request carries its path parameters as the router
// would give them (mux.Vars).
type routeCache struct {
	router *mux.Router
	mu     sync.RWMutex
	n      int
	byPath map[string]map[string]routeHit // method → path → hit
}

// routeHit is what the router found for a method and path: the handler of
// the route it matched and the parameters, shared by every request for
// that path and never written.
type routeHit struct {
	handler http.Handler
	vars    map[string]string
}

func newRouteCache(router *mux.Router) *routeCache {
	return &routeCache{router: router, byPath: map[string]map[string]routeHit{}}
}

func (c *routeCache) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if hit, ok := c.lookup(r); ok {
		hit.serve(w, r)
		return
	}
	var m mux.RouteMatch
	if c.router.Match(r, &m) && m.MatchErr == nil && m.Handler != nil {
		hit := routeHit{handler: m.Handler, vars: m.Vars}
		if len(r.URL.Path) <= routeCachePath {
			c.remember(r, hit)
		}
		hit.serve(w, r)
		return
	}
	c.router.ServeHTTP(w, r) // 404, 405 and the redirects, as the router answers them
}

// serve runs the route's handler on r with the parameters matched: an
// operation's own handler takes them as they are, any other gets them in
// the request, as the router would give them (mux.Vars).
func (hit routeHit) serve(w http.ResponseWriter, r *http.Request) {
	if h, ok := hit.handler.(*opHandler); ok {
		h.serve(w, r, hit.vars)
		return
	}
	hit.handler.ServeHTTP(w, mux.SetURLVars(r, hit.vars))
}

func (c *routeCache) lookup(r *http.Request) (routeHit, bool) {
	c.mu.RLock()
	hit, ok := c.byPath[r.Method][r.URL.Path]
	c.mu.RUnlock()
	return hit, ok
}

func (c *routeCache) remember(r *http.Request, hit routeHit) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n >= routeCacheSize {
		clear(c.byPath)
		c.n = 0
	}
	paths := c.byPath[r.Method]
	if paths == nil {
		paths = map[string]routeHit{}
		c.byPath[r.Method] = paths
	}
	if _, ok := paths[r.URL.Path]; !ok {
		paths[r.URL.Path] = hit
		c.n++
	}
}
