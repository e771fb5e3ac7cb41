package scenarios

import (
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "embed"

	"github.com/gorilla/mux"

	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/spec"
)

// AdminPrefix is where the control API lives.
const AdminPrefix = "/__mock/"

//go:embed control/openapi.yaml
var adminYAML []byte

var adminSpec = sync.OnceValues(func() (*spec.Spec, error) {
	return spec.Load(adminYAML, "scenarios/control/openapi.yaml")
})

// AdminSpec is the control API's OpenAPI document.
func AdminSpec() (*spec.Spec, error) { return adminSpec() }

// Admin is the control API (see control/openapi.yaml). Without a token it
// answers loopback callers only; with one, everyone must send it (as a
// bearer token or in X-Mock-Admin-Token), loopback callers too: a reverse
// proxy on the same host makes every outsider a loopback caller. In both
// cases it answers no page of another site (see guard). The control
// panel's files, which hold no data, are served to everyone (see
// servePanel).
//
// extra are routes of whoever mounts the control API (moviemock proxy's
// /__mock/violations), served under the same guard; a route of the
// engine's own with the same method and path comes first. Admin panics on
// a route it could never serve: a path not under AdminPrefix, no method
// or no handler, as http.ServeMux does on a bad pattern.
//
// Its OpenAPI document is loaded on first use, not here: it is needed only
// to serve itself and to check an activation, and loading it would add a
// third of moviemock's start-up time.
func (e *Engine) Admin(token string, extra ...Route) http.Handler {
	for _, rt := range extra {
		if !strings.HasPrefix(rt.Path, AdminPrefix) || rt.Method == "" || rt.Handler == nil {
			panic(fmt.Sprintf("scenarios: control API route %s %q: want a method, a path under %s and a handler", rt.Method, rt.Path, AdminPrefix))
		}
	}
	a := &admin{e: e}
	r := a.router(extra)
	r.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, apiError{"no such control endpoint: " + r.URL.Path + " (see /__mock/openapi.json)"})
	})
	r.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusMethodNotAllowed, apiError{r.Method + " is not allowed on " + r.URL.Path})
	})
	guarded := guard(token, r)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if name := panelFile(r); name != "" {
			servePanel(w, r, name)
			return
		}
		guarded.ServeHTTP(w, r)
	})
}

// router routes the control API's operations, and extra. Every one of its
// routes is an operation of control/openapi.yaml (TestRoutesDocumented),
// which is what docs/reference.md lists.
func (a *admin) router(extra []Route) *mux.Router {
	// No path cleaning: gorilla/mux answers a path with "." or ".."
	// segments (/__mock/sessions/../journal) with a 301 to the cleaned
	// one, which a client follows with the same method (DELETE): a
	// session's route would turn into another route. Such a path is
	// answered here, as a session id refused or as no route.
	r := mux.NewRouter().SkipClean(true)
	r.HandleFunc("/__mock/", a.index).Methods("GET")
	r.HandleFunc("/__mock/health", a.health).Methods("GET")
	r.HandleFunc("/__mock/overview", a.overview).Methods("GET")
	r.HandleFunc("/__mock/data/{collection}", a.data).Methods("GET")
	r.HandleFunc("/__mock/journal/stream", a.journalStream).Methods("GET")
	r.HandleFunc("/__mock/reset", a.resetAll).Methods("POST")
	r.HandleFunc("/__mock/scenarios", a.listScenarios).Methods("GET")
	r.HandleFunc("/__mock/scenarios/{name}", a.getScenario).Methods("GET")
	r.HandleFunc("/__mock/active", a.getActive).Methods("GET")
	r.HandleFunc("/__mock/active", a.activate).Methods("PUT")
	r.HandleFunc("/__mock/active", a.deactivate).Methods("DELETE")
	r.HandleFunc("/__mock/active/reset", a.resetActive).Methods("POST")
	r.HandleFunc("/__mock/sessions", a.listSessions).Methods("GET")
	r.HandleFunc("/__mock/sessions/{id}", a.getSession).Methods("GET")
	r.HandleFunc("/__mock/sessions/{id}", a.activateSession).Methods("PUT")
	r.HandleFunc("/__mock/sessions/{id}", a.endSession).Methods("DELETE")
	r.HandleFunc("/__mock/sessions/{id}/reset", a.resetSession).Methods("POST")
	r.HandleFunc("/__mock/journal", a.journal).Methods("GET")
	r.HandleFunc("/__mock/journal", a.clearJournal).Methods("DELETE")
	r.HandleFunc("/__mock/openapi.json", func(w http.ResponseWriter, r *http.Request) {
		if sp := a.spec(w); sp != nil {
			writeRaw(w, "application/json", sp.JSON())
		}
	}).Methods("GET")
	r.HandleFunc("/__mock/openapi.yaml", func(w http.ResponseWriter, r *http.Request) {
		if sp := a.spec(w); sp != nil {
			writeRaw(w, "application/yaml", sp.YAML())
		}
	}).Methods("GET")
	for _, rt := range extra {
		r.Handle(rt.Path, rt.Handler).Methods(rt.Method)
	}
	return r
}

// Route is a control API endpoint of the mounter's own (see Admin).
type Route struct {
	Method  string // GET, DELETE…
	Path    string // exact, under AdminPrefix: "/__mock/violations"
	Handler http.Handler
}

// guard decides who may use the control API. The API has no CORS (the
// server mounts it outside its CORS layer), so a page of another site can
// neither read its answers nor get a preflight through; what such a page
// can still send is a "simple" request: a GET, or a POST that is a form, a
// text/plain body, or a body (or none) without a Content-Type. guard
// refuses, in turn:
//
//   - an Origin of another site (any Origin other than this Host's, or a
//     localhost one): browsers send Origin with every POST, and with every
//     cross-origin fetch, so a POST of another site's page never gets
//     through, whatever its Content-Type;
//   - without a token: a caller beyond loopback, a loopback caller that is
//     a proxy (Forwarded, X-Forwarded-For or X-Real-IP: someone else's
//     request), and a Host that is not localhost or an IP address (a page
//     whose own name resolves to 127.0.0.1, DNS rebinding, is same-origin
//     with us and sends no foreign Origin);
//   - with a token: anyone who does not send it;
//   - a POST, PUT or DELETE with a Content-Type other than JSON: the types
//     a form or a simple fetch can send, refused even if Origin is missing.
func guard(token string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" && !sameSite(o, r.Host) {
			refuse(w, http.StatusForbidden, "the control API does not answer pages of other sites (Origin "+strconv.Quote(o)+", Host "+strconv.Quote(r.Host)+"); call it from curl or a test, or from a page served on this host or on localhost")
			return
		}
		if token == "" {
			if !loopback(r.RemoteAddr) {
				refuse(w, http.StatusForbidden, "the control API answers loopback callers only; start moviemock with --admin-token to allow others")
				return
			}
			if h := forwarded(r.Header); h != "" {
				refuse(w, http.StatusForbidden, "the control API answers loopback callers only, and this request came through a proxy ("+h+"); start moviemock with --admin-token, which every caller must then send")
				return
			}
			if !localHost(r.Host) {
				refuse(w, http.StatusForbidden, "the control API does not answer requests for Host "+strconv.Quote(r.Host)+": without --admin-token it answers only requests for localhost or an IP address (any other name may be a page of another site pointing its own name at this machine: DNS rebinding); start moviemock with --admin-token to use other names")
				return
			}
		} else {
			sent := r.Header.Get("X-Mock-Admin-Token")
			if scheme, param, ok := strings.Cut(r.Header.Get("Authorization"), " "); ok && strings.EqualFold(scheme, "bearer") {
				sent = param
			}
			if subtle.ConstantTimeCompare([]byte(sent), []byte(token)) != 1 {
				w.Header().Set("WWW-Authenticate", "Bearer")
				refuse(w, http.StatusUnauthorized, "the control API needs the admin token from every caller, loopback ones too (Authorization: Bearer … or X-Mock-Admin-Token)")
				return
			}
		}
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
		default:
			if ct := r.Header.Get("Content-Type"); ct != "" && !fastapi.IsJSONContentType(ct) {
				refuse(w, http.StatusUnsupportedMediaType, r.Method+" "+r.URL.Path+" with Content-Type "+strconv.Quote(ct)+": the control API takes a JSON body (Content-Type: application/json) or no body and no Content-Type; a form or text/plain request is what a page of another site can send unasked")
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// refuse answers a request guard turns away, marked as moviemock's own.
func refuse(w http.ResponseWriter, code int, detail string) {
	w.Header().Set(HeaderError, "true")
	writeJSON(w, code, apiError{detail})
}

// forwarded names the first header by which a proxy says whom it forwards
// for, or is "".
func forwarded(h http.Header) string {
	for _, name := range []string{"Forwarded", "X-Forwarded-For", "X-Real-Ip"} {
		if _, ok := h[name]; ok {
			return name
		}
	}
	return ""
}

// hostname is host (a Host header or an origin's host) without its port
// and IPv6 brackets, lower-cased.
func hostname(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	return strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
}

// localHost reports whether a Host header names this machine in a way no
// other site can claim: localhost (and names under .localhost, which
// browsers resolve to loopback themselves) or an IP address. An empty Host
// (HTTP/1.0) is no browser's.
func localHost(host string) bool {
	h := strings.TrimSuffix(hostname(host), ".")
	return h == "" || h == "localhost" || strings.HasSuffix(h, ".localhost") || net.ParseIP(h) != nil
}

// sameSite reports whether origin (an Origin header) is a page of this
// host, or of localhost or a loopback address: ports aside, the sites of
// this host and of the developer's own machine.
func sameSite(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || u.Scheme != "http" && u.Scheme != "https" {
		return false // "null" (a sandboxed or file page) included
	}
	o := strings.TrimSuffix(hostname(u.Host), ".")
	if o == strings.TrimSuffix(hostname(host), ".") {
		return true
	}
	if o == "localhost" || strings.HasSuffix(o, ".localhost") {
		return true
	}
	ip := net.ParseIP(o)
	return ip != nil && ip.IsLoopback()
}

func loopback(remoteAddr string) bool {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		host = remoteAddr
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

type admin struct {
	e *Engine
}

// spec is the control API's document, or nil after answering 500 when it
// does not load (it is embedded and tested: a broken build).
func (a *admin) spec(w http.ResponseWriter) *spec.Spec {
	sp, err := AdminSpec()
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, apiError{err.Error()})
		return nil
	}
	return sp
}

type apiError struct {
	Detail string `json:"detail"`
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeRawStatus(w, code, "application/json", body)
}

func writeRaw(w http.ResponseWriter, ct string, body []byte) {
	writeRawStatus(w, http.StatusOK, ct, body)
}

func writeRawStatus(w http.ResponseWriter, code int, ct string, body []byte) {
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(code)
	w.Write(body)
}

type health struct {
	Status    string  `json:"status"`
	Uptime    float64 `json:"uptime_seconds"`
	Scenarios int     `json:"scenarios"`
	Active    *string `json:"active"`
	Sessions  int     `json:"sessions"`
	Journal   int     `json:"journal"`
}

func (a *admin) health(w http.ResponseWriter, r *http.Request) {
	e := a.e
	e.mu.Lock()
	e.expire(e.opts.Now())
	n := len(e.sessions)
	e.mu.Unlock()
	writeJSON(w, http.StatusOK, health{
		Status:    "ok",
		Uptime:    e.opts.Now().Sub(e.started).Seconds(),
		Scenarios: len(e.Set().list),
		Active:    nullable(e.Active()),
		Sessions:  n,
		Journal:   e.journal.len(),
	})
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func (a *admin) resetAll(w http.ResponseWriter, r *http.Request) {
	a.e.Reset()
	a.health(w, r)
}

type scenarioSummary struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	File        string   `json:"file"`
	Initial     string   `json:"initial"`
	States      []string `json:"states"`
	Rules       int      `json:"rules"`
}

func summary(sc *Scenario) scenarioSummary {
	return scenarioSummary{sc.Name, sc.Description, sc.File, sc.Initial, sc.States, len(sc.Rules)}
}

func (a *admin) listScenarios(w http.ResponseWriter, r *http.Request) {
	out := []scenarioSummary{}
	for _, sc := range a.e.Set().list {
		out = append(out, summary(sc))
	}
	writeJSON(w, http.StatusOK, out)
}

type ruleView struct {
	Label   string   `json:"label"`
	Line    int      `json:"line"`
	Methods []string `json:"methods,omitempty"`
	Path    string   `json:"path,omitempty"`
	States  []string `json:"states,omitempty"`
	Times   int      `json:"times,omitempty"`
	Every   int      `json:"every,omitempty"`
	Window  string   `json:"window,omitempty"`
	Delay   string   `json:"delay,omitempty"`
	Answer  string   `json:"answer"`
	Status  int      `json:"status,omitempty"`
	Fault   string   `json:"fault,omitempty"`
	Then    string   `json:"then,omitempty"`
	OffSpec bool     `json:"off_spec,omitempty"`
	// BeforeAuth: the answer comes before the backend's 401.
	BeforeAuth bool `json:"before_auth,omitempty"`
}

func (a *admin) getScenario(w http.ResponseWriter, r *http.Request) {
	name := mux.Vars(r)["name"]
	sc, ok := a.e.Set().Get(name)
	if !ok {
		writeJSON(w, http.StatusNotFound, apiError{a.e.unknown(name).Error()})
		return
	}
	rules := make([]ruleView, 0, len(sc.Rules))
	for _, rule := range sc.Rules {
		v := ruleView{Label: rule.Label, Line: rule.Line, Methods: rule.Methods, Path: rule.Template + rule.Exact,
			States: rule.InStates, Times: rule.Times, Every: rule.Every, Then: rule.Then, OffSpec: rule.OffSpec}
		v.BeforeAuth = rule.BeforeAuth
		if rule.Window > 0 {
			v.Window = rule.Window.String()
		}
		if d := rule.Delay; d != nil {
			v.Delay = d.Min.String()
			if d.Max != d.Min {
				v.Delay += "–" + d.Max.String()
			}
		}
		switch {
		case rule.Respond != nil:
			v.Answer, v.Status = "respond", rule.Respond.Status
		case rule.Passthrough != nil:
			v.Answer, v.Status = "passthrough", rule.Passthrough.Status
		default:
			v.Answer = "fault"
		}
		if rule.Fault != nil {
			v.Fault = rule.Fault.Kind
		}
		rules = append(rules, v)
	}
	writeJSON(w, http.StatusOK, struct {
		scenarioSummary
		RuleList []ruleView `json:"rule_list"`
	}{summary(sc), rules})
}

type activeView struct {
	Scenario *string `json:"scenario"`
	State    *string `json:"state"`
}

func (a *admin) activeView() activeView {
	name := a.e.Active()
	v := activeView{Scenario: nullable(name)}
	if sc, ok := a.e.Set().Get(name); ok {
		a.e.mu.Lock()
		state := sc.Initial
		if inst := a.e.global[name]; inst != nil {
			state = inst.state
		}
		a.e.mu.Unlock()
		v.State = &state
	}
	return v
}

func (a *admin) getActive(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, a.activeView())
}

// readActivate reads an Activate body, checked against the control API's
// schema.
func (a *admin) readActivate(w http.ResponseWriter, r *http.Request) (string, bool) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<10))
	var v any
	if err == nil {
		err = json.Unmarshal(body, &v)
	}
	if err != nil {
		writeJSON(w, http.StatusBadRequest, apiError{`want a JSON body such as {"scenario": "empty-catalog"}: ` + err.Error()})
		return "", false
	}
	sp := a.spec(w)
	if sp == nil {
		return "", false
	}
	if viols := spec.Violations(sp.Validate(sp.Schema("Activate"), v, true)); len(viols) > 0 {
		msgs := make([]string, len(viols))
		for i, vi := range viols {
			msgs[i] = vi.String()
		}
		writeJSON(w, http.StatusBadRequest, apiError{`want {"scenario": NAME or null}: ` + strings.Join(msgs, "; ")})
		return "", false
	}
	name, _ := v.(map[string]any)["scenario"].(string)
	if name != "" {
		if _, ok := a.e.Set().Get(name); !ok {
			writeJSON(w, http.StatusNotFound, apiError{a.e.unknown(name).Error()})
			return "", false
		}
	}
	return name, true
}

func (a *admin) activate(w http.ResponseWriter, r *http.Request) {
	name, ok := a.readActivate(w, r)
	if !ok {
		return
	}
	if err := a.e.Activate(name); err != nil {
		writeJSON(w, http.StatusNotFound, apiError{err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, a.activeView())
}

func (a *admin) deactivate(w http.ResponseWriter, r *http.Request) {
	a.e.Activate("")
	writeJSON(w, http.StatusOK, a.activeView())
}

func (a *admin) resetActive(w http.ResponseWriter, r *http.Request) {
	a.e.mu.Lock()
	a.e.global = map[string]*instance{}
	a.e.mu.Unlock()
	writeJSON(w, http.StatusOK, a.activeView())
}

type sessionView struct {
	ID       string            `json:"id"`
	Scenario *string           `json:"scenario"`
	States   map[string]string `json:"states"`
	Requests int               `json:"requests"`
	Created  time.Time         `json:"created"`
	LastUsed time.Time         `json:"last_used"`
	Expires  time.Time         `json:"expires"`
}

// view describes s. The caller holds e.mu.
func (e *Engine) view(s *session) sessionView {
	v := sessionView{ID: s.id, Scenario: nullable(s.scenario), States: map[string]string{}, Requests: s.requests,
		Created: s.created.UTC(), LastUsed: s.lastUsed.UTC(), Expires: s.lastUsed.Add(e.opts.SessionTTL).UTC()}
	for name, inst := range s.instances {
		v.States[name] = inst.state
	}
	return v
}

func (a *admin) listSessions(w http.ResponseWriter, r *http.Request) {
	e := a.e
	e.mu.Lock()
	e.expire(e.opts.Now())
	out := make([]sessionView, 0, len(e.sessions))
	for _, s := range e.sessions {
		out = append(out, e.view(s))
	}
	e.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		return out[i].Created.Before(out[j].Created) || out[i].Created.Equal(out[j].Created) && out[i].ID < out[j].ID
	})
	writeJSON(w, http.StatusOK, out)
}

// sessionID is the session id of the path, or "" after answering 400 for
// one that CheckSessionID refuses.
func sessionID(w http.ResponseWriter, r *http.Request) string {
	id := mux.Vars(r)["id"]
	if err := CheckSessionID(id); err != nil {
		writeJSON(w, http.StatusBadRequest, apiError{err.Error()})
		return ""
	}
	return id
}

// withSession runs fn on the live session named in the path, or answers 404.
func (a *admin) withSession(w http.ResponseWriter, r *http.Request, fn func(s *session)) {
	id := sessionID(w, r)
	if id == "" {
		return
	}
	e := a.e
	e.mu.Lock()
	e.expire(e.opts.Now())
	s := e.sessions[id]
	if s == nil {
		e.mu.Unlock()
		writeJSON(w, http.StatusNotFound, apiError{"no session " + strconv.Quote(id) + " (sessions start with a request carrying X-Mock-Session, or with PUT)"})
		return
	}
	fn(s)
	v := e.view(s)
	e.mu.Unlock()
	writeJSON(w, http.StatusOK, v)
}

func (a *admin) getSession(w http.ResponseWriter, r *http.Request) {
	a.withSession(w, r, func(*session) {})
}

func (a *admin) activateSession(w http.ResponseWriter, r *http.Request) {
	id := sessionID(w, r)
	if id == "" {
		return
	}
	name, ok := a.readActivate(w, r)
	if !ok {
		return
	}
	e := a.e
	e.mu.Lock()
	s := e.session(id)
	s.scenario = name
	delete(s.instances, name)
	v := e.view(s)
	e.mu.Unlock()
	writeJSON(w, http.StatusOK, v)
}

func (a *admin) endSession(w http.ResponseWriter, r *http.Request) {
	id := sessionID(w, r)
	if id == "" {
		return
	}
	e := a.e
	e.mu.Lock()
	_, ok := e.sessions[id]
	delete(e.sessions, id)
	e.mu.Unlock()
	if e.opts.OnReset != nil {
		e.opts.OnReset(id)
	}
	if !ok {
		writeJSON(w, http.StatusNotFound, apiError{"no session " + strconv.Quote(id)})
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (a *admin) resetSession(w http.ResponseWriter, r *http.Request) {
	a.withSession(w, r, func(s *session) { s.instances = map[string]*instance{} })
	if CheckSessionID(mux.Vars(r)["id"]) == nil && a.e.opts.OnReset != nil {
		a.e.opts.OnReset(mux.Vars(r)["id"])
	}
}

func (a *admin) journal(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := Filter{Method: q.Get("method"), Path: q.Get("path"), Session: q.Get("session"), Scenario: q.Get("scenario")}
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 0 {
			writeJSON(w, http.StatusBadRequest, apiError{"limit " + strconv.Quote(l) + " is not a whole number ≥ 0"})
			return
		}
		f.Limit = n
	}
	// Streamed entry by entry: a journal of many megabytes, encoded whole,
	// took several times its size in memory.
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	a.e.WriteJournal(w, f) // an error: the client went away
}

func (a *admin) clearJournal(w http.ResponseWriter, r *http.Request) {
	n := a.e.journal.clear(r.URL.Query().Get("session"))
	writeJSON(w, http.StatusOK, map[string]int{"cleared": n})
}
