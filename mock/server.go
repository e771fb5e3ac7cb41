package mock

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gorilla/mux"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/fake"
	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/openapiprofile"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/scenarios"
)

// Defaults of Config.
const (
	// DefaultJWTSecret signs tokens when no secret is configured. It is a
	// documented development secret: anyone can forge tokens with it.
	DefaultJWTSecret = "moviemock-development-secret-do-not-use-in-production"
	// DefaultTokenLifetime is FastAPI's usual ACCESS_TOKEN_EXPIRE_MINUTES.
	DefaultTokenLifetime = 30 * time.Minute
	// DefaultMaxBodyBytes bounds a request body: far above any form FastAPI
	// answers normally (its limits are per field and on the number of
	// fields), low enough that one request cannot take the memory.
	DefaultMaxBodyBytes = 64 << 20
)

// Config is what a Server is built from. The zero value serves the embedded
// contract and data with FastAPI's defaults.
type Config struct {
	Spec          *spec.Spec        // nil: the embedded openapi.yaml
	Model         *model.Model      // nil: compiled from Spec
	Data          *fixtures.Dataset // nil: the embedded default data, as far as Spec's schemas take it
	Now           func() time.Time  // nil: time.Now; the clock of tokens
	JWTSecret     []byte            // nil: DefaultJWTSecret
	TokenLifetime time.Duration     // 0: DefaultTokenLifetime
	// RequireAuth makes every operation but login demand a bearer token this
	// mock issued and that has not expired.
	RequireAuth bool
	// Accounts are the usernames and passwords login accepts beside the
	// login collection's users (the contract's schema with a username).
	// Nil: none when the contract has a login collection, else
	// DefaultAccount, so that a contract whose accounts live outside it
	// (FastAPI's security tutorials' fake_users_db) can still log in.
	Accounts []Account
	// CORS configures Starlette's CORSMiddleware (nil: fastapi.DefaultCORS,
	// any origin with credentials). CORSOrigins, when set, replaces its
	// allowed origins. DisableCORS turns CORS handling off.
	CORS        *fastapi.CORS
	CORSOrigins []string
	DisableCORS bool
	Logger      *slog.Logger // nil: no request log
	// MaxBodyBytes bounds a request body; 0: DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// ReadOnly answers writes without keeping them. MaxWriteBytes bounds
	// the records the global state and each session may hold beyond the
	// loaded data (0: DefaultMaxWriteBytes).
	ReadOnly      bool
	MaxWriteBytes int64

	// Scenarios can script any answer (nil: the shipped scenarios, checked
	// against Spec and Data). Scenario is active for every request from the
	// start ("": none); requests choose their own with X-Mock-Scenario and
	// X-Mock-Session, and the control API under /__mock/ switches them.
	Scenarios *scenarios.Set
	Scenario  string
	// DisableAdmin turns the control API off; AdminToken, when set, is
	// required of every caller of it, loopback ones too.
	DisableAdmin bool
	AdminToken   string
	MaxSessions  int           // 0: scenarios.DefaultMaxSessions
	SessionTTL   time.Duration // 0: scenarios.DefaultSessionTTL
	JournalSize  int           // 0: scenarios.DefaultJournalSize; negative: no journal
	JournalBytes int64         // 0: scenarios.DefaultJournalBytes; the oldest entries go first
	Seed         uint64        // random delays and generated answers; 0: 1

	// Dispatch, when set, stands where the mock's own answers are: it gets
	// them as an http.Handler and returns the handler the scenarios pass
	// requests on to. The proxy forwards requests to an upstream there,
	// and answers from the mock what the upstream lacks.
	Dispatch func(mock http.Handler) http.Handler
	// Annotate lets the handler Dispatch returns say in the journal who
	// answered and what the contract checks found (scenarios.SetAnsweredBy,
	// scenarios.AddViolations).
	Annotate bool
	// AdminRoutes are control API routes beside the engine's own, under
	// its guard.
	AdminRoutes []scenarios.Route
}

// Server is the mock: an http.Handler answering the contract's operations
// exactly as the FastAPI backend does. Build it with New; it is safe for
// concurrent use.
type Server struct {
	cfg    Config
	spec   *spec.Spec
	model  *model.Model
	store  *store
	lists  atomic.Pointer[listCache]
	engine *scenarios.Engine
	tokens tokens
	// issuesJWTs: the contract has a login the mock answers with its own
	// tokens (model.Login operations).
	issuesJWTs bool
	// accounts are Config.Accounts by username: each a record of the login
	// collection (generated, the username and password set), or when the
	// contract has none a record holding the password only.
	accounts map[string]*fixtures.Record
	// keys are, per collection, the fields other than the id that path
	// parameters address its records by (a slug, a username).
	keys map[*model.Collection]map[*model.Field]bool
	// named are the values the contract names for path parameters and
	// those the answers of Example operations hold: the records of the
	// operations that keep none (operation.lookup); gathered when first
	// asked for, since it reads every answer.
	named   func() map[string]bool
	shown   func() map[string]map[string]any // shownObjects, made once
	handler http.Handler
	fake    *fake.Generator
	// oa words the refusals of a contract under the plain-OpenAPI
	// profile; nil under FastAPI's.
	oa *openapiprofile.Profile

	randMu sync.Mutex
	rand   *rand.Rand // UUIDs and generated values of created records

	paths []pathRoute // every path the router knows, for 405 and 307
	// router answers the contract's operations; byRoute finds the
	// operation of a route it matched (Match).
	router  *mux.Router
	byRoute map[*mux.Route]*operation
	// ops are the contract's operations as answered (one whose inputs
	// the mock cannot validate is answered from its example), for the
	// control panel.
	ops []*model.Operation
	// secured holds the operations that demand a token, by method and
	// path template, for scripted answers: see authorize.
	secured map[[2]string]*operation
}

// Data is the loaded data set the server answers from now (without
// writes).
func (s *Server) Data() *fixtures.Dataset {
	s.store.global.mu.RLock()
	defer s.store.global.mu.RUnlock()
	return s.store.global.base
}

// Model is the compiled contract the server answers.
func (s *Server) Model() *model.Model { return s.model }

// GenerationNotes says which schemas of the contract generated values
// cannot satisfy within the generator's budgets, or at all (an object that
// requires itself): each such value is cut short.
func (s *Server) GenerationNotes() []string { return s.fake.Notes() }

// pathRoute is one path template and the methods its routes answer.
type pathRoute struct {
	route   *mux.Route // matches the path only
	methods []string
}

// operation binds a contract operation to the convention that answers it.
type operation struct {
	m        *model.Operation
	inputs   fastapi.Inputs
	secured  bool // the 401s run first: declared, or RequireAuth
	basic    bool // HTTP basic: a 401 unless the request carries credentials
	handle   func(c *call)
	defaults map[string]int64 // integer query parameters' declared defaults
	example  []byte           // an Example operation's answer (see answer)
	gen      func() []byte    // when set, makes the answer on first use
	// alts are an Example operation's answers in each media type it
	// declares, the default first, for a document not FastAPI's: the
	// request's Accept picks one (see pickMedia).
	alts []mediaAlt
	// notFound is the 404 body the operation declares, when FastAPI's
	// {"detail": "… not found"} does not fit the declared schema (the
	// application returns JSONResponse(status_code=404, content=…));
	// nil: that detail.
	notFound []byte
	// media is the Content-Type of an Example operation's answer that is
	// not JSON ("" for JSON), stream whether it goes out streamed.
	media  string
	stream bool
	// location is the Location of an Example operation answering a
	// redirect (response_class=RedirectResponse).
	location string
	// lookup: an Example operation under path parameters that declares a
	// 404 answers it for a value neither the contract nor the mock's
	// answers name (Server.named).
	lookup bool
	// holders are, for the path parameters of a lookup operation (or of
	// an operation by convention whose path names records on the way to
	// its own: othersFirst), the collection each names a record of: the
	// one a read at the path up to the parameter answers (GET /pets/{id}
	// for /pets/{id}/owner).
	holders map[string]*model.Collection
	// refusal is a login's status for wrong credentials; token its
	// answer's members when the declared schema has more than
	// access_token and token_type (nil: just those).
	refusal int
	token   []tokenMember
	// anyUser: a request's token names its user though the operation's
	// scheme is not one the mock enforces; needsUser: the operation works
	// on that user (the current user's read and changes), a 401 without.
	anyUser, needsUser bool
	// security is what the plain-OpenAPI profile holds a request to:
	// every scheme the operation declares (nil: none, or FastAPI's
	// profile, which checks secured and basic instead).
	security *openapiprofile.Security
	// headers are, per status, the response headers the operation
	// declares required, under the plain-OpenAPI profile (nil: none).
	headers map[int][]requiredHeader
}

var handlers = map[model.Kind]func(c *call){
	model.ReadOne: readOne, model.List: list, model.NestedList: list,
	model.Create: create, model.NestedCreate: create,
	model.Replace: modify, model.Update: modify, model.Delete: remove,
	model.Login: login, model.CurrentUser: currentUser, model.Example: example,
	model.UpdateMe: changeMe, model.DeleteMe: deleteMe, model.ChangePassword: changePassword, model.Values: values,
	// An action's effect is the backend's own: the record it answers is
	// the one its path names, as it is (a 404 when there is none).
	model.Action: action,
}

// othersFirst is handle, after a 404 for a record the path names on
// the way to the operation's own (model.Operation.Ancestors, and under
// the plain-OpenAPI profile any path parameter but the record's and its
// parent's where the operation declares a 404) that neither the state
// holds nor the mock's answers named, as an operation answered from its
// example refuses one (namedRecord).
func othersFirst(mo *model.Operation, handle func(c *call)) func(c *call) {
	return func(c *call) {
		if c.namedRecord(mo.IDParam, mo.ParentParam) {
			handle(c)
		}
	}
}

// New builds a Server from cfg.
func New(cfg Config) (*Server, error) {
	if cfg.Spec == nil {
		sp, err := spec.Embedded()
		if err != nil {
			return nil, err
		}
		cfg.Spec = sp
	}
	if cfg.Model == nil || cfg.Model.Spec != cfg.Spec {
		var m *model.Model
		var err error
		if em, _ := model.Embedded(); em != nil && em.Spec == cfg.Spec {
			m = em
		} else if m, err = model.Compile(cfg.Spec); err != nil {
			return nil, err
		}
		cfg.Model = m
	}
	if cfg.Data == nil {
		d, err := fixtures.LoadDefault(cfg.Model)
		if err != nil {
			return nil, err
		}
		cfg.Data = d
	}
	if cfg.Data.Model != cfg.Model {
		return nil, fmt.Errorf("the data set was loaded for another contract")
	}
	if cfg.MaxWriteBytes <= 0 {
		cfg.MaxWriteBytes = DefaultMaxWriteBytes
	}
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = scenarios.DefaultMaxSessions
	}
	if cfg.SessionTTL <= 0 {
		cfg.SessionTTL = scenarios.DefaultSessionTTL
	}
	if cfg.Seed == 0 {
		cfg.Seed = 1
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.JWTSecret == nil {
		cfg.JWTSecret = []byte(DefaultJWTSecret)
	}
	if cfg.TokenLifetime == 0 {
		cfg.TokenLifetime = DefaultTokenLifetime
	}
	if cfg.TokenLifetime < 0 {
		return nil, fmt.Errorf("token lifetime %v is negative", cfg.TokenLifetime)
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	s := &Server{
		cfg:    cfg,
		spec:   cfg.Spec,
		model:  cfg.Model,
		store:  newStore(cfg.Data, cfg.MaxSessions, cfg.SessionTTL, cfg.Now),
		tokens: tokens{secret: cfg.JWTSecret, lifetime: cfg.TokenLifetime, now: cfg.Now},
		fake:   fake.New(cfg.Spec, fake.DateTimes(cfg.Model.Framework.FormatDateTime), fake.Times(cfg.Model.Framework.FormatTime), fake.Examples()),
		rand:   rand.New(rand.NewPCG(cfg.Seed, 0x6d6f7669656d6f63)),
	}
	if cfg.Model.Framework == framework.OpenAPI {
		s.oa = openapiprofile.New(cfg.Spec, s.fake, cfg.Seed)
	}
	for _, mo := range cfg.Model.Operations {
		s.issuesJWTs = s.issuesJWTs || mo.Kind == model.Login
	}
	if err := s.openAccounts(cfg.Accounts); err != nil {
		return nil, err
	}
	router, err := s.routes()
	if err != nil {
		return nil, err
	}
	s.named = sync.OnceValue(s.namedValues)
	s.shown = sync.OnceValue(s.shownObjects)
	s.keys = map[*model.Collection]map[*model.Field]bool{}
	for _, c := range s.model.Collections {
		for _, f := range c.Keys {
			if s.keys[c] == nil {
				s.keys[c] = map[*model.Field]bool{}
			}
			s.keys[c][f] = true
		}
	}
	if cfg.Scenarios == nil {
		set, err := scenarios.Load(cfg.Spec, cfg.Data, scenarios.ShippedFor(cfg.Spec))
		if err != nil {
			return nil, err
		}
		cfg.Scenarios = set
	}
	notFound := map[string]string{}
	for _, o := range s.model.Operations {
		if o.Coll != nil && o.ID != "" && o.IDParam != "" {
			notFound[o.ID] = o.Coll.Title + " not found"
		}
	}
	s.engine, err = scenarios.New(cfg.Scenarios, scenarios.Options{
		Scenario:     cfg.Scenario,
		MaxSessions:  cfg.MaxSessions,
		SessionTTL:   cfg.SessionTTL,
		JournalSize:  cfg.JournalSize,
		JournalBytes: cfg.JournalBytes,
		MaxBody:      cfg.MaxBodyBytes,
		Now:          cfg.Now,
		Seed:         cfg.Seed,
		NotFound:     notFound,
		Refusals:     s.oa,
		Logger:       cfg.Logger,
		OnReset:      func(session string) { s.store.reset(session) },
		Authorize:    s.authorize,
		Served:       s.served,
		Records:      s.records,
		Annotate:     cfg.Annotate,
	})
	if err != nil {
		return nil, err
	}
	var inner http.Handler = newRouteCache(router)
	if cfg.Dispatch != nil {
		inner = cfg.Dispatch(inner)
	}
	h := s.engine.Handler(inner)
	if !cfg.DisableCORS {
		c := fastapi.DefaultCORS()
		if cfg.CORS != nil {
			c = *cfg.CORS
		}
		if len(cfg.CORSOrigins) > 0 {
			c.AllowOrigins = cfg.CORSOrigins
		}
		if h, err = c.Middleware(h); err != nil {
			return nil, err
		}
	}
	// The journal outside CORS: the preflights it answers are journaled too.
	h = s.engine.Journaling(h)
	// The files /docs and /redoc load are moviemock's own, not the API's:
	// they stay out of the journal (and out of scenarios' reach).
	h = around(assetsURL, router, h)
	if !cfg.DisableAdmin {
		// Outside CORS: the control API answers no preflight and sends no
		// Access-Control-* header, so no page of another site reads it or
		// sends it more than a simple request (see scenarios' guard).
		h = mountAdmin(s.engine.Admin(cfg.AdminToken, cfg.AdminRoutes...), h)
	}
	if bases := serverPaths(s.spec); len(bases) > 0 {
		h = underServerPaths(bases, h)
	}
	h = fastapi.RequestTarget(h)
	h = recoverPanics(cfg.Logger, s.engine.ShownPath, h)
	if cfg.Logger != nil {
		h = logRequests(cfg.Logger, s.engine.ShownPath, h)
	}
	s.handler = h
	return s, nil
}

// serverPaths are the base paths of sp's servers (/api of
// https://api.realworld.show/api, variables at their defaults), longest
// first; none that is "/" or that a path of the document starts with
// itself.
func serverPaths(sp *spec.Spec) []string {
	var out []string
	for _, srv := range sp.Doc.Servers {
		base, err := srv.BasePath()
		if base = strings.TrimRight(base, "/"); err != nil || base == "" || !strings.HasPrefix(base, "/") || slices.Contains(out, base) {
			continue
		}
		owned := false
		for _, p := range sp.Paths() {
			if p == base || strings.HasPrefix(p, base+"/") {
				owned = true
				break
			}
		}
		if !owned {
			out = append(out, base)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out
}

// underServerPaths answers a request under a base path of the document's
// servers as the path below it (/api/articles as /articles): a frontend
// pointed at the backend's URL, path and all, reaches the mock unchanged.
// Paths without it are answered as they are.
func underServerPaths(bases []string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, base := range bases {
			rest, ok := strings.CutPrefix(r.URL.Path, base)
			if !ok || rest != "" && rest[0] != '/' {
				continue
			}
			if rest == "" {
				rest = "/"
			}
			r2 := *r
			u := *r.URL
			u.Path = rest
			if raw, ok := strings.CutPrefix(u.RawPath, base); ok && raw != "" {
				u.RawPath = raw
			} else {
				u.RawPath = ""
			}
			r2.URL = &u
			next.ServeHTTP(w, &r2)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// around sends requests under prefix to direct, the rest to next.
func around(prefix string, direct, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, prefix) {
			direct.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// mountAdmin sends requests under scenarios.AdminPrefix to the control API,
// the rest to next.
func mountAdmin(admin, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, scenarios.AdminPrefix) {
			admin.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Engine is the scenario engine: what the control API drives, for Go tests
// that would rather call it directly.
func (s *Server) Engine() *scenarios.Engine { return s.engine }

// Reload swaps in a new data set and scenarios (either nil: unchanged),
// as after an edit of their files; requests in flight finish on the old
// ones. The scenarios must have been loaded against the new data. A new
// data set drops every write made on the old one.
func (s *Server) Reload(data *fixtures.Dataset, set *scenarios.Set) {
	if data != nil {
		s.store.rebase(data)
	}
	if set != nil {
		s.engine.Swap(set)
	}
}

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// routes registers every operation of the contract, then the documents
// FastAPI itself serves.
func (s *Server) routes() (*mux.Router, error) {
	// Starlette matches the raw decoded path: no cleaning of // or /./, no
	// redirect of its own.
	router := mux.NewRouter().SkipClean(true)
	paths := mux.NewRouter().SkipClean(true)
	s.router, s.byRoute = router, map[*mux.Route]*operation{}
	s.secured = map[[2]string]*operation{}
	byPath := map[string][]*model.Operation{}
	for _, o := range s.model.Operations {
		byPath[o.Path] = append(byPath[o.Path], o)
	}
	for _, tmpl := range framework.RouteOrder(s.spec.Paths(), s.model.Framework) {
		var methods []string
		for _, mo := range byPath[tmpl] {
			o, err := s.compileOperation(mo)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", mo.Method, tmpl, err)
			}
			// Path before Methods: gorilla/mux v1.8.1 clears an earlier
			// route's method mismatch when a later route's method matcher
			// succeeds first, turning a 405 into a 404.
			route := router.Path(tmpl).Methods(mo.Method).Handler(s.operationHandler(o))
			s.byRoute[route] = o
			s.ops = append(s.ops, o.m)
			if o.secured || o.security != nil {
				s.secured[[2]string{mo.Method, tmpl}] = o
			}
			methods = append(methods, mo.Method)
		}
		if len(methods) > 1 {
			methods = firstRouteMethods(byPath[tmpl], s.spec.KeyOrder("paths", tmpl))
		}
		s.paths = append(s.paths, pathRoute{route: paths.Path(tmpl), methods: methods})
	}
	if err := s.addDocRoutes(router, paths); err != nil {
		return nil, err
	}
	router.NotFoundHandler = http.HandlerFunc(s.notFound)
	router.MethodNotAllowedHandler = http.HandlerFunc(s.methodNotAllowed)
	return router, nil
}

// firstRouteMethods is what Starlette's 405 names for a path several
// operations share: the methods of the first route declared for it. The
// document does not keep the order of declaration (FastAPI writes a path's
// operations in the fixed order of its PathItem model: get, put, post,
// delete, …), so the first operation the document lists stands for it.
// Operations sharing its operationId are one route of several methods
// (api_route): FastAPI names them all, first the one the operationId ends
// with, list(route.methods)[0]; the order of the rest is that of a Python
// set, which the document does not show.
func firstRouteMethods(ops []*model.Operation, order []string) []string {
	rank := func(o *model.Operation) int {
		if i := slices.Index(order, strings.ToLower(o.Method)); i >= 0 {
			return i
		}
		return len(order)
	}
	ops = slices.Clone(ops)
	slices.SortStableFunc(ops, func(a, b *model.Operation) int { return rank(a) - rank(b) })
	first := ops[0]
	methods := []string{first.Method}
	if first.ID == "" {
		return methods
	}
	for _, o := range ops[1:] {
		if o.ID == first.ID {
			methods = append(methods, o.Method)
		}
	}
	if i := strings.LastIndexByte(first.ID, '_'); i >= 0 && len(methods) > 1 {
		lead := strings.ToUpper(first.ID[i+1:])
		if j := slices.Index(methods, lead); j > 0 {
			methods = append([]string{lead}, slices.Delete(methods, j, j+1)...)
		}
	}
	return methods
}

// argList gives an operation its validated inputs by name.
type argList struct {
	ins  *fastapi.Inputs
	vals []fastapi.Value
}

func (a argList) get(name string) fastapi.Value {
	for i := range a.ins.List {
		if a.ins.List[i].Name == name {
			return a.vals[i]
		}
	}
	return fastapi.Value{}
}

// compileOperation compiles what an operation validates and how it is
// answered.
func (s *Server) compileOperation(mo *model.Operation) (*operation, error) {
	ins, err := mo.Inputs, mo.InputsErr
	if err != nil {
		// An input the mock cannot validate as FastAPI would (a body
		// union, say) does not stop the server: the operation is answered
		// from its example, and the start-up line says why.
		if s.cfg.Logger != nil {
			s.cfg.Logger.Warn("answered from its example only", "operation", mo.String(), "reason", err.Error())
		}
		clone := *mo
		clone.Kind, clone.Why = model.Example, err.Error()
		mo = &clone
		ins = fastapi.Inputs{}
	}
	o := &operation{m: mo, inputs: ins, handle: handlers[mo.Kind], defaults: map[string]int64{},
		secured: mo.Secured || (s.cfg.RequireAuth && mo.Kind != model.Login), basic: mo.Basic}
	o.anyUser = s.model.Framework != framework.FastAPI
	switch {
	case mo.Kind.Me():
		o.needsUser = true
	case o.anyUser && mo.Guarded && mo.Kind != model.Example:
		// a write filling its author from the token's user, outside
		// FastAPI documents whose schemes (an API key) the mock does not
		// otherwise enforce: without the user it could not fill it
		o.needsUser = true
	}
	for _, list := range []openapi3.Parameters{mo.Item.Parameters, mo.Op.Parameters} {
		for _, p := range list {
			if p.Value == nil || p.Value.In != "query" || p.Value.Schema == nil || p.Value.Schema.Value == nil {
				continue
			}
			if d, ok := p.Value.Schema.Value.Default.(float64); ok {
				o.defaults[p.Value.Name] = int64(d)
			}
		}
	}
	if s.oa != nil {
		o.headers = s.requiredHeaders(mo, s.answerFaker()())
		o.security = openapiprofile.CompileSecurity(s.spec.Doc, mo.Op)
		if o.security != nil && s.model.Anonymous(mo) {
			// a login or a registration inherits no token requirement
			o.security, o.secured, o.needsUser = nil, false, false
		}
	}
	if mo.Kind != model.Example && s.oa != nil && o.handle != nil && (len(mo.Ancestors) > 0 || mo.Op.Responses.Value("404") != nil && len(mo.OtherPathParams()) > 0) {
		o.holders = s.holders(mo)
		for _, a := range mo.Ancestors {
			if o.holders[a.Param] == nil {
				if o.holders == nil {
					o.holders = map[string]*model.Collection{}
				}
				o.holders[a.Param] = a.Coll
			}
		}
		o.handle = othersFirst(mo, o.handle)
	}
	if !s.fake.Finite(mo.Response) {
		// No value of the response model exists: FastAPI's response
		// validation fails whatever the endpoint returns, 500. The
		// start-up warning names the schema (GenerationNotes).
		o.handle = answerUnsatisfiable
	}
	o.notFound = s.declaredNotFound(mo)
	if mo.Kind == model.Example && strings.Contains(mo.Path, "{") && mo.Op.Responses.Value("404") != nil {
		o.lookup, o.holders = true, s.holders(mo)
	}
	if mo.Kind == model.Login {
		o.refusal, o.token = loginRefusal(mo), s.tokenMembers(mo)
	}
	if mo.Status/100 == 3 {
		o.location = redirectLocation(mo)
	}
	if mo.Kind != model.Example && s.oa != nil && mo.Shape != model.OneShape && mo.Response != nil && mo.Response.Value != nil &&
		!spec.Nullable(mo.Response.Value) && len(mo.Response.Value.Properties) == 0 && !mo.Response.Value.Type.Is("object") {
		// A write answering neither its record nor nothing (Kavita's
		// DELETE answering a boolean): its example, else a value of its
		// schema, true for a boolean (it succeeded); never the null of
		// FastAPI's endpoint returning None, which the schema refuses.
		o.example = mo.Example
		if o.example == nil && mo.Response.Value.Type.Is("boolean") {
			o.example = []byte("true")
		}
		if o.example == nil && s.fake.Finite(mo.Response) {
			o.gen = s.generated(mo.Response, s.answerFaker())
		}
	}
	if mo.Kind == model.Example {
		// A generated answer is made when the operation is first answered
		// (a document of thousands of operations starts without making
		// them all), by a faker seeded as at start: the same bytes.
		newFaker := s.answerFaker()
		if o.alts = s.mediaAlternatives(mo, newFaker); len(o.alts) > 0 {
			o.example, o.gen, o.media, o.stream = o.alts[0].body, o.alts[0].gen, o.alts[0].media, o.alts[0].stream
			return o, nil
		}
		switch {
		case mo.Media != "" && !fastapi.IsJSONMedia(mo.Media):
			o.example, o.media, o.stream = s.mediaAnswer(mo, newFaker())
		default:
			o.example = mo.Example
			schema := mo.Response
			if schema == nil {
				schema = mo.MediaSchema // a +json media type
			}
			if o.example == nil && schema != nil {
				o.gen = s.generated(schema, newFaker)
			}
			if mo.Media != "" && mo.Media != "application/json" && (o.example != nil || o.gen != nil) {
				o.media = mo.Media // application/problem+json, say
			}
		}
	}
	return o, nil
}

// answerFaker makes the faker of the operation being compiled's generated
// answers, seeded as at start (the server's seed, the operation's place):
// the same bytes every time.
func (s *Server) answerFaker() func() *gofakeit.Faker {
	seed, stream := s.cfg.Seed, uint64(len(s.paths))
	return func() *gofakeit.Faker { return gofakeit.NewFaker(rand.NewPCG(seed, stream), false) }
}

// generated is a value of schema made when first answered (a document of
// thousands of operations starts without making them all): an answer's,
// writeOnly members left out, under the plain-OpenAPI profile.
func (s *Server) generated(schema *openapi3.SchemaRef, newFaker func() *gofakeit.Faker) func() []byte {
	s.fake.Finite(schema) // its plan, as Append would compile it
	answer := s.oa != nil
	return sync.OnceValue(func() []byte {
		if answer {
			return s.fake.AppendAnswer(nil, newFaker(), "", schema)
		}
		return s.fake.Append(nil, newFaker(), "", schema)
	})
}

// answer is an Example operation's answer (its default one, when it
// declares several media types), made on first use when generated.
func (o *operation) answer() []byte {
	if o.gen != nil {
		return o.gen()
	}
	return o.example
}

// answerUnsatisfiable answers an operation whose success schema no finite
// value satisfies (an object that requires itself) as FastAPI does, whose
// response validation fails: 500, after the request was validated. It is
// never served a value cut short with null.
func answerUnsatisfiable(c *call) {
	c.w.Header().Set(scenarios.HeaderError, "true")
	if c.s.refuse(c.w, c.o, http.StatusInternalServerError, problem("no value satisfies the declared response schema")) {
		return
	}
	fastapi.WriteServerError(c.w)
}

// operationHandler runs what FastAPI runs before an endpoint: reading a
// JSON body (its 400 and json_invalid come first), the security dependency
// (401 before any 422), then parameter and body validation.
func (s *Server) operationHandler(o *operation) http.Handler {
	return &opHandler{s: s, o: o}
}

// opHandler is an operation's handler. The route cache hands it the path
// parameters it matched (serve); the router, through the request (mux.Vars),
// which costs a copy of the request a call.
type opHandler struct {
	s *Server
	o *operation
}

func (h *opHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.serve(w, r, mux.Vars(r)) }

func (h *opHandler) serve(w http.ResponseWriter, r *http.Request, vars map[string]string) {
	s, o := h.s, h.o
	if o.headers != nil {
		w = &headerWriter{ResponseWriter: w, headers: o.headers}
	}
	// The header's own map, its name already canonical: Get would
	// canonicalise it again on every request.
	session := ""
	if vs := r.Header[scenarios.HeaderSession]; len(vs) > 0 {
		session = vs[0]
	}
	st := s.store.state(session)
	c := &call{s: s, o: o, w: w, r: r, st: st}
	if o.security != nil {
		// The plain-OpenAPI profile: credentials before the body, as
		// authentication middleware runs before a handler reads it.
		user, ok := s.checkSecurity(w, r, st, o)
		if !ok {
			return
		}
		c.user = user
	}
	if s.unsupportedMedia(w, o, r) {
		return
	}
	parsed, items, err := s.readJSON(o, r)
	if err != nil {
		s.writeBodyError(w, o, err)
		return
	} else if len(items) > 0 && !s.refuseInput(w, o, items) {
		fastapi.WriteValidation(w, items)
		return
	} else if len(items) > 0 {
		return
	}
	if o.security == nil && o.secured {
		user, detail, ok := s.authenticate(r, st)
		if !ok {
			s.writeUnauthorized(w, o, detail)
			return
		}
		c.user = user
	}
	if c.user == nil && o.anyUser && r.Header.Get("Authorization") != "" {
		// A credential the profile accepts, or a scheme the mock
		// does not enforce (an API key in Authorization: Token …),
		// still names, when the mock issued it, the user a write
		// fills in as author and whose flags a read shows.
		c.user = s.tokenUser(r, st)
	}
	if c.user == nil && o.needsUser && (o.security == nil || o.m.Kind.Me()) {
		// A write filling its author goes on without one where
		// the profile accepted a credential the mock cannot tell
		// the user of; the current user's own operations cannot.
		s.writeUnauthorized(w, o, fastapi.DetailNotAuthenticated)
		return
	}
	if o.security == nil && o.basic && !fastapi.BasicCredentials(r.Header.Get("Authorization")) {
		// Any well-formed credentials pass: the contract does not
		// say whose they are.
		w.Header().Set("WWW-Authenticate", "Basic")
		if !s.refuse(w, o, http.StatusUnauthorized, problem(detailNoCredentials)) {
			fastapi.WriteDetail(w, http.StatusUnauthorized, fastapi.DetailNotAuthenticated)
		}
		return
	}
	// The handler is called through a func value, so vals is on the
	// heap whatever its size: allocated at the size needed.
	vals := make([]fastapi.Value, len(o.inputs.List))
	if items, err = s.validateAll(o, r, vars, parsed, vals, c); err != nil {
		s.writeBodyError(w, o, err)
		return
	}
	if len(items) > 0 {
		if !s.refuseInput(w, o, items) {
			fastapi.WriteValidation(w, items)
		}
		return
	}
	c.args = argList{ins: &o.inputs, vals: vals}
	o.handle(c)
}

// readJSON reads and parses o's JSON body, if it takes one: the error
// FastAPI answers before anything else (a body it cannot read), or the
// json_invalid items of a body that is not JSON.
func (s *Server) readJSON(o *operation, r *http.Request) (fastapi.Parsed, []fastapi.ErrorItem, error) {
	if o.inputs.JSON == nil {
		return fastapi.Parsed{}, nil, nil
	}
	body, err := readBody(r, s.cfg.MaxBodyBytes)
	if err != nil {
		return fastapi.Parsed{}, nil, err
	}
	ct, hasCT := r.Header["Content-Type"]
	first := ""
	if hasCT && len(ct) > 0 {
		first = ct[0]
	}
	return o.inputs.JSON.Read(first, hasCT, body)
}

// validateAll validates o's parameters into vals and its parsed JSON body
// (into c.body when c is given): the 422's items, or the error of a form
// that could not be read.
func (s *Server) validateAll(o *operation, r *http.Request, vars map[string]string, parsed fastapi.Parsed, vals []fastapi.Value, c *call) ([]fastapi.ErrorItem, error) {
	items, err := s.validate(r, vars, &o.inputs, vals)
	if err != nil {
		return nil, err
	}
	if o.inputs.JSON != nil {
		body, bodyItems := o.inputs.JSON.Validate(parsed)
		if c != nil {
			c.body, c.parsed = body, parsed
		}
		items = append(items, bodyItems...)
	}
	return items, nil
}

// Verdict is what FastAPI answers a request with before its endpoint runs:
// nothing (Status 0: the endpoint runs), a 422 with Items, or an error
// Status with Detail (400 for a body it cannot parse, 413 for one too
// large). Under the plain-OpenAPI profile the Items come with the status
// the operation declares for bad input (openapiprofile.BadInputStatus).
type Verdict struct {
	Status int
	Items  []fastapi.ErrorItem
	Detail string
}

// Match finds the contract operation r is for, and its path parameters;
// nil when r is for none.
func (s *Server) Match(r *http.Request) (*model.Operation, map[string]string) {
	if o, vars := s.route(r); o != nil {
		return o.m, vars
	}
	return nil, nil
}

// route is the operation r is for and its path parameters; nil when none.
func (s *Server) route(r *http.Request) (*operation, map[string]string) {
	var match mux.RouteMatch
	if !s.router.Match(r, &match) || match.MatchErr != nil {
		return nil, nil
	}
	return s.byRoute[match.Route], match.Vars
}

// CheckRequest validates r as the backend would before its endpoint runs,
// reading r's body: the operation it is for (nil when none) and FastAPI's
// verdict. The security dependency is left out: whose tokens are valid is
// the backend's business.
func (s *Server) CheckRequest(r *http.Request) (*model.Operation, Verdict) {
	o, vars := s.route(r)
	if o == nil {
		return nil, Verdict{}
	}
	parsed, items, err := s.readJSON(o, r)
	if err == nil && len(items) == 0 {
		items, err = s.validateAll(o, r, vars, parsed, make([]fastapi.Value, len(o.inputs.List)), nil)
	}
	switch {
	case err != nil:
		code, detail := bodyError(err)
		if s.oa != nil && code == http.StatusBadRequest {
			code = openapiprofile.BadInputStatus(o.m.Op)
		}
		return o.m, Verdict{Status: code, Detail: detail}
	case s.oa != nil && len(items) > 0:
		// The plain-OpenAPI profile: the status the operation declares
		// for bad input.
		return o.m, Verdict{Status: openapiprofile.BadInputStatus(o.m.Op), Items: items}
	case fastapi.Unanswerable(items):
		return o.m, Verdict{Status: http.StatusInternalServerError, Detail: "Internal Server Error"}
	case len(items) > 0:
		return o.m, Verdict{Status: http.StatusUnprocessableEntity, Items: items}
	}
	return o.m, Verdict{}
}

// readBody reads a request body up to limit bytes.
func readBody(r *http.Request, limit int64) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(body)) > limit {
		return nil, fastapi.ErrBodyTooLarge
	}
	return body, nil
}

// uuid is a random (version 4) UUID from the server's seeded source.
func (s *Server) uuid() string {
	s.randMu.Lock()
	hi, lo := s.rand.Uint64(), s.rand.Uint64()
	s.randMu.Unlock()
	var b [16]byte
	for i := 0; i < 8; i++ {
		b[i], b[8+i] = byte(hi>>(56-8*i)), byte(lo>>(56-8*i))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// fakeValue is a generated value for a field a create must fill and nothing
// gives.
func (s *Server) fakeValue(f *model.Field) []byte {
	s.randMu.Lock()
	seed := s.rand.Uint64()
	s.randMu.Unlock()
	return s.fake.Append(nil, gofakeit.NewFaker(rand.NewPCG(seed, 0), false), f.Name, f.Ref)
}

// viewValue is the value of a view's required member that coll's record
// keyed key does not hold (see appendView): generated by a faker seeded
// by the server's seed and the collection, key and member, the same bytes
// each time.
func (s *Server) viewValue(coll *model.Collection, key string, vm model.ViewMember) []byte {
	h := fnv.New64a()
	for _, part := range []string{coll.Name, key, vm.Name} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return s.fake.AppendAnswer(nil, gofakeit.NewFaker(rand.NewPCG(s.cfg.Seed, h.Sum64()), false), vm.Name, vm.Ref)
}

func jsonUnmarshalString(raw []byte, s *string) error { return json.Unmarshal(raw, s) }

// writeBodyError answers a body that could not be read as a form.
func (s *Server) writeBodyError(w http.ResponseWriter, o *operation, err error) {
	code, detail := bodyError(err)
	if s.oa != nil {
		if code == http.StatusBadRequest {
			code = openapiprofile.BadInputStatus(o.m.Op)
		}
		s.refuse(w, o, code, openapiprofile.Problem{In: "body", Detail: "could not be read: " + strings.ToLower(strings.TrimSuffix(detail, "."))})
		return
	}
	fastapi.WriteDetail(w, code, detail)
}

// bodyError is the status and detail FastAPI answers a body it could not
// read with.
func bodyError(err error) (int, string) {
	var fe *fastapi.FormError
	if errors.As(err, &fe) {
		return fe.Status, fe.Detail
	}
	if errors.Is(err, fastapi.ErrBodyTooLarge) {
		return http.StatusRequestEntityTooLarge, "Request Entity Too Large"
	}
	return http.StatusBadRequest, fastapi.DetailBodyParse
}

// methodNotAllowed answers a known path with the wrong method as Starlette
// does: 405 with the route's methods in Allow.
func (s *Server) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	var match mux.RouteMatch
	for _, p := range s.paths {
		if p.route.Match(r, &match) {
			w.Header().Set("Allow", strings.Join(p.methods, ", "))
			break
		}
	}
	if s.refuse(w, nil, http.StatusMethodNotAllowed, problem("method "+r.Method+" is not allowed on this path")) {
		return
	}
	fastapi.WriteDetail(w, http.StatusMethodNotAllowed, fastapi.DetailMethodNotAllowed)
}

// notFound answers a path no route matches. Like Starlette's
// redirect_slashes, a path that would match with its trailing slashes
// removed (or one added) is redirected there with 307, whatever the method.
// Under the plain-OpenAPI profile, whose document says nothing of such a
// redirect, a path with trailing slashes that matches without them is
// answered as that path, as most routers outside Starlette do (Express,
// h3, ASP.NET Core): POST /articles/ is POST /articles.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	if p := r.URL.Path; s.oa != nil && len(p) > 1 && strings.HasSuffix(p, "/") {
		if alt := strings.TrimRight(p, "/"); alt != "" && s.pathKnown(r, alt) {
			r2 := *r
			u := *r.URL
			u.Path, u.RawPath = alt, ""
			r2.URL = &u
			s.router.ServeHTTP(w, &r2)
			return
		}
	}
	if p := r.URL.Path; p != "/" && p != "" && s.oa == nil {
		alt := p + "/"
		if strings.HasSuffix(p, "/") {
			alt = strings.TrimRight(p, "/")
		}
		if s.pathKnown(r, alt) {
			w.Header().Set("Location", redirectURL(r, alt))
			w.Header().Set("Content-Length", "0")
			w.WriteHeader(http.StatusTemporaryRedirect)
			return
		}
	}
	if s.refuse(w, nil, http.StatusNotFound, problem("no operation answers "+r.Method+" "+r.URL.Path)) {
		return
	}
	fastapi.WriteDetail(w, http.StatusNotFound, fastapi.DetailNotFound)
}

func (s *Server) pathKnown(r *http.Request, path string) bool {
	r2 := *r
	u := *r.URL
	u.Path, u.RawPath = path, ""
	r2.URL = &u
	var match mux.RouteMatch
	return slices.ContainsFunc(s.paths, func(p pathRoute) bool { return p.route.Match(&r2, &match) })
}

// redirectURL builds Starlette's RedirectResponse location: absolute, from
// the request's scheme and Host header, query kept, quoted with Python's
// urllib.parse.quote and Starlette's safe characters.
func redirectURL(r *http.Request, path string) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	host := r.Host
	u := scheme + "://" + host + path
	if r.URL.RawQuery != "" {
		u += "?" + r.URL.RawQuery
	}
	return pyQuote(u, ":/%#?=@[]!$&'()*+,;")
}

// pyQuote is Python's urllib.parse.quote(s, safe): every byte but ASCII
// letters, digits, "_.-~" and safe is percent-encoded (upper-case hex).
func pyQuote(s, safe string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '_' || c == '.' || c == '-' || c == '~' || (c < 0x80 && strings.IndexByte(safe, c) >= 0) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&0xF])
	}
	return b.String()
}
