package mock

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/mux"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/fastapi"
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
	Data          *fixtures.Dataset // nil: the embedded default data
	Now           func() time.Time  // nil: time.Now; the clock of tokens
	JWTSecret     []byte            // nil: DefaultJWTSecret
	TokenLifetime time.Duration     // 0: DefaultTokenLifetime
	// RequireAuth makes every operation but login demand a bearer token this
	// mock issued and that has not expired.
	RequireAuth bool
	// CORS configures Starlette's CORSMiddleware (nil: fastapi.DefaultCORS,
	// any origin with credentials). CORSOrigins, when set, replaces its
	// allowed origins. DisableCORS turns CORS handling off.
	CORS        *fastapi.CORS
	CORSOrigins []string
	DisableCORS bool
	Logger      *slog.Logger // nil: no request log
	// MaxBodyBytes bounds a request body; 0: DefaultMaxBodyBytes.
	MaxBodyBytes int64

	// Scenarios can script any answer (nil: the shipped scenarios, checked
	// against Spec and Data). Scenario is active for every request from the
	// start ("": none); requests choose their own with X-Mock-Scenario and
	// X-Mock-Session, and the control API under /__mock/ switches them.
	Scenarios *scenarios.Set
	Scenario  string
	// DisableAdmin turns the control API off; AdminToken lets callers
	// beyond loopback use it.
	DisableAdmin bool
	AdminToken   string
	MaxSessions  int           // 0: scenarios.DefaultMaxSessions
	SessionTTL   time.Duration // 0: scenarios.DefaultSessionTTL
	JournalSize  int           // 0: scenarios.DefaultJournalSize; negative: no journal
	Seed         uint64        // random delays and generated answers; 0: 1
}

// Server is the mock: an http.Handler answering the contract's operations
// exactly as the FastAPI backend does. Build it with New; it is safe for
// concurrent use.
type Server struct {
	cfg     Config
	spec    *spec.Spec
	view    atomic.Pointer[dataView]
	engine  *scenarios.Engine
	tokens  tokens
	handler http.Handler

	paths []pathRoute // every path the router knows, for 405 and 307
}

// dataView is the data set being served, with what is derived from it.
// Reload swaps it whole.
type dataView struct {
	data     *fixtures.Dataset
	listOnce sync.Once
	listBody []byte // GET /reviews, rendered once when small
}

// data is the data set requests are answered from now.
func (s *Server) data() *fixtures.Dataset { return s.view.Load().data }

// Data is the data set the server answers from now.
func (s *Server) Data() *fixtures.Dataset { return s.data() }

// pathRoute is one path template and the methods its routes answer.
type pathRoute struct {
	route   *mux.Route // matches the path only
	methods []string
}

// operation binds a contract operation to the code that answers it.
type operation struct {
	id     string
	inputs fastapi.Inputs
	public bool // reachable without a token even with RequireAuth
	handle func(s *Server, w http.ResponseWriter, r *http.Request, args argList)
}

// implementations answer the contract's operations, by operationId. New
// refuses a contract with an operation missing here, and an entry here the
// contract does not have.
var implementations = map[string]struct {
	handle   func(s *Server, w http.ResponseWriter, r *http.Request, args argList)
	public   bool
	notFound string // the detail of the endpoint's own 404
}{
	"getPerson":   {handle: (*Server).getPerson, notFound: detailPersonNotFound},
	"login":       {handle: (*Server).login, public: true},
	"getReview":   {handle: (*Server).getReview, notFound: detailReviewNotFound},
	"listReviews": {handle: (*Server).listReviews},
}

const (
	detailPersonNotFound = "Person not found"
	detailReviewNotFound = "Review not found"
)

// New builds a Server from cfg.
func New(cfg Config) (*Server, error) {
	if cfg.Spec == nil {
		sp, err := spec.Embedded()
		if err != nil {
			return nil, err
		}
		cfg.Spec = sp
	}
	if cfg.Data == nil {
		d, err := fixtures.Default()
		if err != nil {
			return nil, err
		}
		cfg.Data = d
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
		tokens: tokens{secret: cfg.JWTSecret, lifetime: cfg.TokenLifetime, now: cfg.Now},
	}
	s.view.Store(&dataView{data: cfg.Data})
	router, err := s.routes()
	if err != nil {
		return nil, err
	}
	if cfg.Scenarios == nil {
		// The shipped scenarios are written for the embedded contract.
		var sources []scenarios.Source
		if embedded, _ := spec.Embedded(); cfg.Spec == embedded {
			sources = append(sources, scenarios.Shipped())
		}
		set, err := scenarios.Load(cfg.Spec, cfg.Data, sources...)
		if err != nil {
			return nil, err
		}
		cfg.Scenarios = set
	}
	notFound := map[string]string{}
	for id, impl := range implementations {
		notFound[id] = impl.notFound
	}
	s.engine, err = scenarios.New(cfg.Scenarios, scenarios.Options{
		Scenario:    cfg.Scenario,
		MaxSessions: cfg.MaxSessions,
		SessionTTL:  cfg.SessionTTL,
		JournalSize: cfg.JournalSize,
		MaxBody:     cfg.MaxBodyBytes,
		Now:         cfg.Now,
		Seed:        cfg.Seed,
		NotFound:    notFound,
		Logger:      cfg.Logger,
	})
	if err != nil {
		return nil, err
	}
	h := s.engine.Handler(router)
	if !cfg.DisableAdmin {
		h = mountAdmin(s.engine.Admin(cfg.AdminToken), h)
	}
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
	h = fastapi.RequestTarget(h)
	h = recoverPanics(cfg.Logger, h)
	if cfg.Logger != nil {
		h = logRequests(cfg.Logger, h)
	}
	s.handler = h
	return s, nil
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
// ones. The scenarios must have been loaded against the new data.
func (s *Server) Reload(data *fixtures.Dataset, set *scenarios.Set) {
	if data != nil {
		s.view.Store(&dataView{data: data})
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
	seen := map[string]bool{}
	for _, tmpl := range s.spec.Paths() {
		item := s.spec.Doc.Paths.Value(tmpl)
		var methods []string
		for _, method := range []string{"GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"} {
			op := item.GetOperation(method)
			if op == nil {
				continue
			}
			impl, ok := implementations[op.OperationID]
			if !ok {
				return nil, fmt.Errorf("%s %s: operation %q has no implementation in the mock", method, tmpl, op.OperationID)
			}
			seen[op.OperationID] = true
			ins, err := fastapi.CompileInputs(s.spec, op, item)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", method, tmpl, err)
			}
			o := &operation{id: op.OperationID, inputs: ins, public: impl.public, handle: impl.handle}
			// Path before Methods: gorilla/mux v1.8.1 clears an earlier
			// route's method mismatch when a later route's method matcher
			// succeeds first, turning a 405 into a 404.
			router.Path(tmpl).Methods(method).Handler(s.operationHandler(o))
			methods = append(methods, method)
		}
		s.paths = append(s.paths, pathRoute{route: paths.Path(tmpl), methods: methods})
	}
	for id := range implementations {
		if !seen[id] {
			return nil, fmt.Errorf("the contract has no operation %q, which the mock implements", id)
		}
	}
	if err := s.addDocRoutes(router, paths); err != nil {
		return nil, err
	}
	router.NotFoundHandler = http.HandlerFunc(s.notFound)
	router.MethodNotAllowedHandler = http.HandlerFunc(s.methodNotAllowed)
	return router, nil
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

// operationHandler runs what FastAPI runs before an endpoint: the security
// dependency (401 before any 422), then parameter and body validation.
func (s *Server) operationHandler(o *operation) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.RequireAuth && !o.public {
			if detail, ok := s.authenticate(r); !ok {
				writeUnauthorized(w, detail)
				return
			}
		}
		// The handler is called through a func value, so vals is on the
		// heap whatever its size: allocated at the size needed.
		vals := make([]fastapi.Value, len(o.inputs.List))
		items, err := s.validate(r, &o.inputs, vals)
		if err != nil {
			writeBodyError(w, err)
			return
		}
		if len(items) > 0 {
			fastapi.WriteValidation(w, items)
			return
		}
		o.handle(s, w, r, argList{ins: &o.inputs, vals: vals})
	})
}

// writeBodyError answers a body that could not be read as a form.
func writeBodyError(w http.ResponseWriter, err error) {
	var fe *fastapi.FormError
	if errors.As(err, &fe) {
		fastapi.WriteDetail(w, fe.Status, fe.Detail)
		return
	}
	if errors.Is(err, fastapi.ErrBodyTooLarge) {
		fastapi.WriteDetail(w, http.StatusRequestEntityTooLarge, "Request Entity Too Large")
		return
	}
	fastapi.WriteDetail(w, http.StatusBadRequest, fastapi.DetailBodyParse)
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
	fastapi.WriteDetail(w, http.StatusMethodNotAllowed, fastapi.DetailMethodNotAllowed)
}

// notFound answers a path no route matches. Like Starlette's
// redirect_slashes, a path that would match with its trailing slashes
// removed (or one added) is redirected there with 307, whatever the method.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	if p := r.URL.Path; p != "/" && p != "" {
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
