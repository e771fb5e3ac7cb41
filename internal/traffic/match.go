package traffic

import (
	"cmp"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/gorilla/mux"

	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
)

// Matched is a call and the contract operation it is for.
type Matched struct {
	Call *Call
	// Method and Path are the operation's, as the document writes them
	// ("/movies/{movie_id}"); "" when none matches.
	Method, Path string
	Op           *model.Operation  // Match's; nil: no operation, or MatchSpec
	Params       map[string]string // the path parameters, decoded
	// Why says why Op is nil: "no path matches", or "the path has no
	// POST (it has GET, DELETE)".
	Why string
}

// Match finds each call's operation in the contract m, as the mock routes
// a request: the paths in the document's order, a template's parameter
// matching one segment (Starlette's {name}), the path decoded and not
// cleaned. A path under the path of the contract's first server URL
// (FastAPI's root_path, "/api") matches with that prefix taken off too. A
// HEAD matches the GET of its path when the contract has no HEAD, as
// Starlette routes it. One Matched per call, in order.
func Match(src *Source, m *model.Model) []Matched {
	ops := map[[2]string]*model.Operation{}
	for _, o := range m.Operations {
		ops[[2]string{o.Method, o.Path}] = o
	}
	out := matchSpec(src, m.Spec, m.Framework)
	for i := range out {
		out[i].Op = ops[[2]string{out[i].Method, out[i].Path}]
	}
	return out
}

// KeepAPIServers takes out of src the calls made to another server than
// the API's, and of matched (Match's or MatchSpec's for src) theirs: a
// browser's HAR holds every call the page made, to an analytics or
// error-reporting service, a CDN or another API as well. The API's server
// is the one with the most calls that match an operation (all of those
// tied); a call to any other becomes an entry of src.Skipped, saying so.
// A source whose calls all went to one server (a journal's always do), or
// none of whose calls matches, is left whole: nothing tells the API apart.
func KeepAPIServers(src *Source, matched []Matched) []Matched {
	hits, all := map[string]int{}, map[string]bool{}
	for _, m := range matched {
		all[m.Call.Origin] = true
		if m.Path != "" {
			hits[m.Call.Origin]++
		}
	}
	most := 0
	for _, n := range hits {
		most = max(most, n)
	}
	if len(all) < 2 || most == 0 {
		return matched
	}
	api, others := map[string]bool{}, false
	for origin := range all {
		api[origin] = hits[origin] == most
		others = others || !api[origin]
	}
	if !others {
		return matched
	}
	// Room for every call, so that the pointers kept point into it.
	calls := make([]Call, 0, len(src.Calls))
	kept := make([]Matched, 0, len(matched))
	for _, m := range matched {
		c := *m.Call
		if !api[c.Origin] {
			src.Skipped = append(src.Skipped, Skip{Index: c.Index, Method: c.Method, URL: clipString(c.Origin+c.Path, 200),
				Reason: otherServerReason + " (" + clipString(c.Origin, 100) + "): the API's is the one most calls matching the contract went to", origin: clipString(c.Origin, 100)})
			continue
		}
		calls = append(calls, c)
		m.Call = &calls[len(calls)-1]
		kept = append(kept, m)
	}
	src.Calls = calls
	slices.SortStableFunc(src.Skipped, func(a, b Skip) int { return cmp.Compare(a.Index, b.Index) })
	return kept
}

const otherServerReason = "another server than the API's"

// OtherServer is the server of a call KeepAPIServers took out, as its
// Skip names it; ok false for a Skip of another reason.
func OtherServer(s Skip) (origin string, ok bool) {
	return s.origin, s.origin != ""
}

// MatchSpec is Match on a document that is only loaded, not compiled (as
// moviemock diff reads OLD): Op stays nil, Method and Path say the
// operation.
func MatchSpec(src *Source, sp *spec.Spec) []Matched {
	fw := framework.OpenAPI
	if sp != nil {
		fw, _ = framework.Detect(sp.Doc)
	}
	return matchSpec(src, sp, fw)
}

// matchSpec is MatchSpec with the paths tried in profile fw's order
// (framework.RouteOrder).
func matchSpec(src *Source, sp *spec.Spec, fw framework.Name) []Matched {
	rt := newRouter(sp, fw)
	out := make([]Matched, len(src.Calls))
	for i := range src.Calls {
		out[i] = rt.match(&src.Calls[i])
	}
	return out
}

type router struct {
	ops    *mux.Router
	byOp   map[*mux.Route][2]string // method and path
	paths  []pathMethods            // every path, for saying which methods it has
	prefix string                   // the first server URL's path, "" or "/api"
}

type pathMethods struct {
	route   *mux.Route
	methods []string
}

// methodOrder is the order model.Operation lists a path's methods in.
var methodOrder = []string{"GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"}

func newRouter(sp *spec.Spec, fw framework.Name) *router {
	// As the mock's router: Starlette matches the raw decoded path, no
	// cleaning of // or /./.
	rt := &router{ops: mux.NewRouter().SkipClean(true), byOp: map[*mux.Route][2]string{}}
	paths := mux.NewRouter().SkipClean(true)
	if sp == nil || sp.Doc == nil || sp.Doc.Paths == nil {
		return rt
	}
	for _, tmpl := range framework.RouteOrder(sp.Paths(), fw) {
		item := sp.Doc.Paths.Value(tmpl)
		if item == nil {
			continue
		}
		var methods []string
		for _, method := range methodOrder {
			if item.GetOperation(method) == nil {
				continue
			}
			// Path before Methods: gorilla/mux v1.8.1 loses an earlier
			// route's method mismatch otherwise (see mock.routes).
			rt.byOp[rt.ops.Path(tmpl).Methods(method)] = [2]string{method, tmpl}
			methods = append(methods, method)
		}
		rt.paths = append(rt.paths, pathMethods{route: paths.Path(tmpl), methods: methods})
	}
	if doc := sp.Doc; len(doc.Servers) > 0 && doc.Servers[0] != nil {
		if u, err := url.Parse(doc.Servers[0].URL); err == nil {
			rt.prefix = strings.TrimRight(u.Path, "/")
		}
	}
	return rt
}

func (rt *router) match(c *Call) Matched {
	out := Matched{Call: c}
	for _, path := range rt.candidates(c.Path) {
		methods := []string{c.Method}
		if c.Method == http.MethodHead {
			methods = append(methods, http.MethodGet)
		}
		for _, method := range methods {
			r := &http.Request{Method: method, URL: &url.URL{Path: path}, Header: http.Header{}}
			var rm mux.RouteMatch
			if rt.ops.Match(r, &rm) && rm.MatchErr == nil {
				if o, ok := rt.byOp[rm.Route]; ok {
					out.Method, out.Path, out.Params = o[0], o[1], rm.Vars
					return out
				}
			}
		}
	}
	out.Why = "no path of the contract matches"
	for _, path := range rt.candidates(c.Path) {
		r := &http.Request{Method: c.Method, URL: &url.URL{Path: path}, Header: http.Header{}}
		var rm mux.RouteMatch
		for _, p := range rt.paths {
			if p.route.Match(r, &rm) {
				out.Why = "the path has no " + c.Method + " (it has " + strings.Join(p.methods, ", ") + ")"
				return out
			}
		}
	}
	return out
}

// candidates are the paths a call's path may be in the contract: itself,
// and without the server URL's prefix.
func (rt *router) candidates(path string) []string {
	if rt.prefix != "" && strings.HasPrefix(path, rt.prefix+"/") {
		return []string{path, strings.TrimPrefix(path, rt.prefix)}
	}
	return []string{path}
}

// TrimPrefix takes prefix ("/api": where a dev server's proxy forwards
// the frontend's calls) off the path of each call under it, for matching
// them to a contract that does not name it, and reports how many it
// changed.
func TrimPrefix(src *Source, prefix string) int {
	prefix = strings.TrimRight(prefix, "/")
	if prefix == "" {
		return 0
	}
	n := 0
	for i := range src.Calls {
		c := &src.Calls[i]
		if strings.HasPrefix(c.Path, prefix+"/") {
			c.Path = c.Path[len(prefix):]
			n++
		}
	}
	return n
}
