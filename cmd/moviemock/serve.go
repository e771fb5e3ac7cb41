package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/gcheadroom"
	"github.com/moviemock/moviemock/internal/logbuf"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/problems"
	"github.com/moviemock/moviemock/mock"
	"github.com/moviemock/moviemock/scenarios"
)

const (
	defaultAddr     = "127.0.0.1:8000"
	defaultSeed     = 1
	defaultPersons  = 200
	defaultUsers    = 20
	defaultReviews  = 1000
	defaultRecords  = 20 // generated records of a collection the first contract does not have
	specTimeout     = 30 * time.Second
	shutdownTimeout = 5 * time.Second
	maxHeaderBytes  = 64 << 10 // the request line and headers as sent; beyond it: 431 Request Header Fields Too Large
	watchInterval   = time.Second
	logInterval     = 100 * time.Millisecond // how late a request log line may be
	gcHeadroom      = 64 << 20               // the garbage collector's headroom (internal/gcheadroom)
)

// netHTTPHeaderSlack is what net/http (Go 1.26) reads beyond
// Server.MaxHeaderBytes before it answers 431: it limits the connection's
// reads to MaxHeaderBytes+4096 ("bufio slop"). MaxHeaderBytes is set that
// much below maxHeaderBytes, so that a request whose line and headers, as
// sent, take maxHeaderBytes bytes passes and one byte more gets 431.
const netHTTPHeaderSlack = 4096

// The server's limits on slow and idle clients (variables so that tests
// can shorten them). A client that takes longer than readHeaderTimeout to
// send its headers (slowloris) is cut off, and so is a keep-alive
// connection idle for idleTimeout; uvicorn's keep-alive is shorter still.
// Bodies have no read timeout: a scripted delay or trickle must be able to
// run as long as it is told to.
var (
	readHeaderTimeout = 10 * time.Second
	idleTimeout       = 120 * time.Second
)

const serveUsage = `Usage: moviemock serve [flags]

Serves the OpenAPI document --spec names (3.0, 3.1 or Swagger 2.0, from any
generator or written by hand) as its backend answers: a FastAPI app's
document exactly as the app (FastAPI's 422 bodies and all), any other in the
document's own words (the statuses and error shapes it declares). Without
--spec it serves the embedded example contract and its data. Beside the API:
/openapi.json, /openapi.yaml, /docs and /redoc (their Swagger UI and ReDoc
assets built in, so they work offline).

Every operation is answered by convention from the document: reads, lists
(filtered by query parameters that name a field, paged by skip/limit,
offset/limit or page/size), nested lists, creates, replaces, updates,
deletes, the OAuth2 password login, registration and the current user.
Login accepts the users of the contract's schema with a username (from the
data) and every --account; a contract with no such schema, whose accounts
live in the backend's code, gets the demo account johndoe:secret (FastAPI's
tutorials' user) unless --account names others.
Writes stick (per X-Mock-Session when a request names one, else for
everyone) until POST /__mock/reset. An operation no convention places is
answered with its declared example, else a body generated for its schema.

Examples:
  moviemock serve                                  embedded data on 127.0.0.1:8000
  moviemock serve --spec http://127.0.0.1:8001/openapi.json --fixtures ./data
                                                   the backend's own contract
  moviemock serve --addr 127.0.0.1:9000 --quiet
  moviemock serve --fixtures ./my-fixtures         your own data (JSON or YAML)
  moviemock serve --generate --seed 42 --reviews 100000
  moviemock serve --require-auth --token-lifetime 5m
  moviemock serve --spec openapi.json --account alice:wonderland
                                                   log in as alice as well
  moviemock serve --spec openapi.json --account 'admin@example.com:changethis:is_superuser=true'
                                                   an account with fields of its user set
  moviemock serve --cors-origin http://localhost:5173
  moviemock serve --scenario flaky-connection      every request by a scenario
  moviemock serve --scenarios ./scenarios          your own scenario files too

Scenarios: a request can choose one with the header X-Mock-Scenario: NAME,
keep a state machine of its own with X-Mock-Session: ID, and pick an answer
Prism-style with Prefer: code=404 | example=NAME | dynamic=true. The
control API under /__mock/ (see /__mock/openapi.json) switches scenarios,
resets state and reads the request journal. Fixture and scenario folders are
watched: an edit is loaded without a restart, a broken edit is logged and
the previous files keep serving.

Every flag can also be set by the environment variable named after it.

Flags:
`

func runServe(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	return serveCommand(ctx, "serve", args, getenv, stdout, stderr, nil)
}

// serveOptions are where serve's flags (and proxy's, beside its own) put
// their values.
type serveOptions struct {
	addr, specFlag, dir, secret, originRegex      *string
	scenario, scenarioDir, adminToken             *string
	readOnly, requireAuth, corsCredentials        *bool
	adapt                                         *bool
	corsPrivate, noCORS, quiet, noAdmin           *bool
	corsMaxAge, maxSessions, journalSize          *int
	maxWrite, maxBody, journalBytes               int64
	maxSpecBytes                                  *int64
	framework                                     *frameworkOpts
	explain                                       *string
	lifetime, sessionTTL, interval                time.Duration
	accounts                                      []mock.Account
	origins, corsMethods, corsHeaders, corsExpose listFlag
	gen                                           *generateOpts
	limits                                        *connLimits
}

// serveFlags defines serve's flags, and the proxy's beside them when px is
// given. Every one of them can also be set by its environment variable
// (envVar): the command table says so.
func serveFlags(name string, px *proxyFlags) (*flag.FlagSet, *serveOptions) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	o := &serveOptions{}
	o.addr = fs.String("addr", defaultAddr, "`host:port` to listen on")
	o.specFlag = fs.String("spec", "", "serve this OpenAPI `file or URL` (YAML or JSON, 3.0, 3.1 or Swagger 2.0; default: the embedded openapi.yaml)")
	o.maxSpecBytes = maxSpecBytesFlag(fs)
	o.framework = frameworkFlags(fs)
	o.explain = fs.String("explain", "", "print why the `operation` (its operationId, or \"METHOD /path\") is answered as it is, and exit")
	o.readOnly = fs.Bool("read-only", false, "answer writes without keeping them")
	o.maxWrite = int64(mock.DefaultMaxWriteBytes)
	fs.Func("max-write-bytes", "bytes of written records the global state and each session may hold, e.g. 32MiB; beyond it a write gets 507 (default 32MiB)", func(v string) (err error) {
		o.maxWrite, err = parseSize(v)
		return err
	})
	o.dir = fs.String("fixtures", "", "serve the fixture `directory` instead of the embedded data")
	o.adapt = fs.Bool("adapt-fixtures", false, "adapt the --fixtures records written for another version of the contract to this one (fields dropped, values converted or generated); the banner lists every change")
	o.gen = generateFlags(fs, "serve generated data instead of the embedded data")
	o.secret = fs.String("jwt-secret", "", "HS256 `secret` for tokens (default: the documented development secret)")
	o.lifetime = mock.DefaultTokenLifetime
	fs.Func("token-lifetime", "how long a token is valid, e.g. 30m (default 30m0s)", func(v string) (err error) {
		o.lifetime, err = parseDuration(v)
		return err
	})
	fs.Func("account", "`name:password[:field=value,...]` login accepts beside the contract's users (repeatable), with fields of its user record set, e.g. admin@example.com:changethis:is_superuser=true; without one, a contract with no schema of users logs in johndoe:secret", func(v string) error {
		a, err := parseAccount(v)
		if err != nil {
			return err
		}
		o.accounts = append(o.accounts, a)
		return nil
	})
	o.requireAuth = fs.Bool("require-auth", false, "demand a bearer token from login on every read")
	fs.Var(&o.origins, "cors-origin", "allow only this browser `origin` (repeatable, comma-separated; default any)")
	o.originRegex = fs.String("cors-origin-regex", "", "also allow browser origins matching this `regexp` whole, as Starlette's allow_origin_regex")
	fs.Var(&o.corsMethods, "cors-methods", "`methods` a preflight may ask for (comma-separated; default *: all)")
	fs.Var(&o.corsHeaders, "cors-headers", "request `headers` a preflight may ask for (comma-separated; default *: any)")
	fs.Var(&o.corsExpose, "cors-expose-headers", "answer `headers` a browser script may read, e.g. Retry-After,WWW-Authenticate")
	o.corsCredentials = fs.Bool("cors-credentials", true, "allow credentials (cookies, Authorization) from other origins")
	o.corsMaxAge = fs.Int("cors-max-age", 600, "`seconds` a browser may cache a preflight answer")
	o.corsPrivate = fs.Bool("cors-private-network", false, "answer private-network preflights (Access-Control-Request-Private-Network)")
	o.noCORS = fs.Bool("no-cors", false, "answer no CORS headers and no preflights")
	o.maxBody = int64(mock.DefaultMaxBodyBytes)
	fs.Func("max-body-size", "largest request body read, e.g. 64MiB; larger gets 413 (default 64MiB)", func(v string) (err error) {
		o.maxBody, err = parseSize(v)
		return err
	})
	o.quiet = fs.Bool("quiet", false, "no request log")
	o.scenario = fs.String("scenario", "", "scenario `name` active for every request from the start")
	o.scenarioDir = fs.String("scenarios", "", "load the scenario files of `directory` beside the shipped ones")
	o.noAdmin = fs.Bool("no-admin", false, "turn the control API under /__mock/ off")
	o.adminToken = fs.String("admin-token", "", "require this `token` of every caller of the control API, loopback ones too (behind a reverse proxy, set one)")
	o.maxSessions = fs.Int("max-sessions", scenarios.DefaultMaxSessions, "X-Mock-Session state machines kept at once")
	o.sessionTTL = scenarios.DefaultSessionTTL
	fs.Func("session-ttl", "forget a session idle this long (default 30m0s)", func(v string) (err error) {
		o.sessionTTL, err = parseDuration(v)
		return err
	})
	o.journalSize = fs.Int("journal-size", scenarios.DefaultJournalSize, "requests the journal keeps; 0 keeps none")
	o.journalBytes = int64(scenarios.DefaultJournalBytes)
	fs.Func("journal-bytes", "memory the journal may hold, e.g. 64MiB; the oldest entries go first (default 64MiB)", func(v string) (err error) {
		if o.journalBytes, err = parseSize(v); err == nil && o.journalBytes <= 0 {
			err = fmt.Errorf("give more than 0 (--journal-size 0 keeps no journal)")
		}
		return err
	})
	o.interval = watchInterval
	fs.Func("watch-interval", "how often fixture and scenario folders are checked for edits; 0 stops watching (default 1s)", func(v string) (err error) {
		o.interval, err = parseDurationOrZero(v)
		return err
	})
	o.limits = &connLimits{max: defaultLimitConcurrency, body: defaultBodyTimeout}
	fs.Func("body-timeout", "cut off a client whose request body or answer moves no byte for this long; 0: never (default 30s)", func(v string) (err error) {
		o.limits.body, err = parseDurationOrZero(v)
		return err
	})
	o.limits.rate = defaultMinBodyRate
	fs.Func("min-body-rate", fmt.Sprintf("answer 408 and close the connection when a request body, once it has taken %v, has averaged fewer bytes a second than this; 0: no minimum (default %d)", bodyRateGrace, defaultMinBodyRate), func(v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("%q is not a number of bytes a second (0: no minimum)", v)
		}
		o.limits.rate = n
		return nil
	})
	fs.Func("limit-concurrency", fmt.Sprintf("connections served at once; beyond them a request gets 503 at once; 0: no limit (default %d)", defaultLimitConcurrency), func(v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("%q is not a number of connections (0: no limit)", v)
		}
		o.limits.max = n
		return nil
	})
	if px != nil {
		px.define(fs)
	}
	return fs, o
}

// serveCommand is the serve command, and the proxy command when px is given: the
// same mock, with the proxy's flags beside serve's.
func serveCommand(ctx context.Context, name string, args []string, getenv func(string) string, stdout, stderr io.Writer, px *proxyFlags) (err error) {
	fs, o := serveFlags(name, px)
	usage := serveUsage
	if px != nil {
		usage = proxyHelp()
	}
	help, err := parseFlags(fs, args)
	if help {
		printUsage(fs, true, stdout, usage)
		return nil
	}
	if err != nil {
		return err
	}
	// A server: the collector waits for the heap to grow by 64 MiB, or by
	// its live size when that is larger, not by its live size alone:
	// reads run at a fifth less CPU (docs/performance.md), and loading
	// runs with few collections too. GOGC or GOMEMLIMIT set leave the
	// collector as the user set it.
	gcheadroom.Set(gcHeadroom, getenv)
	fromEnv, err := envDefaults(fs, getenv)
	if err != nil {
		return err
	}
	defer func() { err = blameEnv(err, fromEnv) }() // name the variable behind a flag an error names
	if *o.dir != "" && o.gen.enabled {
		return usagef("%s: --fixtures and --generate both choose the data: give one", name)
	}
	if *o.adapt && *o.dir == "" {
		return usagef("%s: --adapt-fixtures only applies with --fixtures", name)
	}
	cors, err := corsConfig(o.origins, *o.originRegex, o.corsMethods, o.corsHeaders, o.corsExpose, *o.corsCredentials, *o.corsMaxAge, *o.corsPrivate)
	if err != nil {
		return err
	}
	if *o.noCORS && (len(o.origins) > 0 || *o.originRegex != "") {
		return usagef("%s: --cors-origin and --no-cors contradict each other", name)
	}
	if err := o.gen.check(fs, fromEnv); err != nil {
		return err
	}
	if *o.maxSessions <= 0 {
		return usagef("%s: --max-sessions must be at least 1", name)
	}
	if *o.journalSize < 0 {
		return usagef("%s: --journal-size must not be negative", name)
	}
	if *o.journalSize == 0 {
		*o.journalSize = -1 // Config's 0 means the default
	}
	if o.sessionTTL <= 0 {
		return usagef("%s: --session-ttl must be longer than 0", name)
	}
	if px != nil {
		if err := px.check(); err != nil {
			return err
		}
	}

	modelOpts, err := o.framework.options(name)
	if err != nil {
		return err
	}
	if *o.specFlag == "" && *o.dir == "" && !o.gen.enabled && *o.explain == "" {
		fixtures.PrepareDefault() // on the other core, while the contract loads
	}
	// Loading a large or hostile document takes a while: a signal during
	// it stops it there, not only once serving. A context done before
	// serve began (a caller asking for a start and a stop) loads all.
	loading := ctx
	if ctx.Err() != nil {
		loading = context.Background()
	}
	m, err := interruptible(loading, name, "nothing served", func() (*model.Model, error) {
		return loadModel(ctx, name, *o.specFlag, *o.maxSpecBytes, stderr, modelOpts...)
	})
	if err != nil {
		return err
	}
	if *o.explain != "" {
		return explain(stdout, name, m, *o.explain)
	}
	files := &sources{model: m, fixtures: *o.dir, adapt: *o.adapt, scenarios: *o.scenarioDir, gen: o.gen}
	watching := o.interval > 0 && (*o.dir != "" || *o.scenarioDir != "")
	var loaded stamps
	if watching {
		loaded = files.stamp() // before the load: an edit from now on is seen
	}
	type loaded3 struct {
		data   *fixtures.Dataset
		source string
		set    *scenarios.Set
	}
	l, err := interruptible(loading, name, "nothing served", func() (loaded3, error) {
		data, source, set, err := files.load()
		return loaded3{data, source, set}, err
	})
	if err != nil {
		return err
	}
	data, source, set := l.data, l.source, l.set
	if *o.scenario != "" {
		if _, ok := set.Get(*o.scenario); !ok {
			return usagef("%s: --scenario %q: no such scenario (known: %s)", name, *o.scenario, strings.Join(set.Names(), ", "))
		}
	}
	cfg := mock.Config{
		Spec:          m.Spec,
		Model:         m,
		Data:          data,
		ReadOnly:      *o.readOnly,
		MaxWriteBytes: o.maxWrite,
		TokenLifetime: o.lifetime,
		RequireAuth:   *o.requireAuth,
		Accounts:      o.accounts,
		CORS:          cors,
		DisableCORS:   *o.noCORS,
		MaxBodyBytes:  o.maxBody,
		Scenarios:     set,
		Scenario:      *o.scenario,
		DisableAdmin:  *o.noAdmin,
		AdminToken:    *o.adminToken,
		MaxSessions:   *o.maxSessions,
		SessionTTL:    o.sessionTTL,
		JournalSize:   *o.journalSize,
		JournalBytes:  o.journalBytes,
		Seed:          o.gen.seed,
	}
	if *o.secret != "" {
		cfg.JWTSecret = []byte(*o.secret)
	}
	// The request log is written out every logInterval rather than a line
	// at a time; the rest of stderr is not buffered.
	logOut := logbuf.New(stderr, logInterval)
	defer logOut.Close()
	logger := slog.New(slog.NewTextHandler(logOut, nil))
	if !*o.quiet {
		cfg.Logger = logger
	}
	var handler http.Handler
	var srv *mock.Server
	if px != nil {
		p, err := px.build(cfg, m, *o.secret, logger)
		if err != nil {
			return err
		}
		handler, srv = p, p.Mock()
	} else {
		if srv, err = mock.New(cfg); err != nil {
			return err
		}
		handler = srv
	}
	for _, n := range srv.GenerationNotes() {
		fmt.Fprintf(stderr, "moviemock: %s: warning: --spec %s: generated values: %s\n", name, m.Spec.Source(), n)
	}

	ln, err := net.Listen("tcp", *o.addr)
	if err != nil {
		return fmt.Errorf("%s: cannot listen on %s: %w", name, *o.addr, unwrapNetErr(err))
	}
	if w := secretWarning(ln.Addr(), *o.secret != ""); w != "" {
		fmt.Fprintln(stderr, w)
	}
	hs := &http.Server{
		Handler: handler,
		// Requests end with the server: a scripted hang or delay must not
		// hold a shutdown up.
		BaseContext:    func(net.Listener) context.Context { return ctx },
		MaxHeaderBytes: maxHeaderBytes - netHTTPHeaderSlack,
		// OPTIONS * goes to the mock, which answers 404 as Starlette does,
		// not Go's built-in 200.
		DisableGeneralOptionsHandler: true,
		ErrorLog:                     slog.NewLogLogger(slog.NewTextHandler(stderr, nil), slog.LevelWarn),
	}
	o.limits.log = slog.New(slog.NewTextHandler(stderr, nil))
	o.limits.apply(hs)
	// readHeaderTimeout and idleTimeout, kept by a clock rather than by
	// read deadlines on every request.
	clock := newConnClock(readHeaderTimeout, idleTimeout)
	defer clock.Stop()
	clocked := clock.apply(hs, ln)
	// The banner, written at once: what is served and where.
	base, _, _ := strings.Cut(serveURL(*o.addr, ln.Addr()), " ") // without "(listening on all interfaces)"
	what := banner{spec: *o.specFlag, source: source, scenarioDir: *o.scenarioDir, base: base, admin: !*o.noAdmin}
	if px != nil {
		fmt.Fprintf(stdout, "moviemock proxying %s on %s%s\n%s%s", px.upstream, serveURL(*o.addr, ln.Addr()), activeScenario(*o.scenario), px.startLine(source), what.text(m, data, set))
	} else {
		fmt.Fprintf(stdout, "moviemock serving %s on %s%s\n%s", source, serveURL(*o.addr, ln.Addr()), activeScenario(*o.scenario), what.text(m, data, set))
	}

	served := make(chan error, 1)
	go func() { served <- hs.Serve(clocked) }()
	if watching {
		go files.watch(ctx, loaded, o.interval, srv, logger)
	}
	recordCtx, stopRecording := context.WithCancel(context.Background())
	recorded := make(chan struct{})
	if px != nil {
		go func() { defer close(recorded); px.record(recordCtx, stderr) }()
	} else {
		close(recorded)
	}
	defer func() {
		stopRecording()
		<-recorded
		if px != nil && err == nil {
			err = px.finish(stdout, stderr)
		}
	}()
	select {
	case err := <-served:
		return fmt.Errorf("%s: %w", name, err)
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("%s: shutdown: %w", name, err)
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// serveURL is the address to print for a server asked to listen on addr
// and listening on actual: the URL a user can open. Go reports a wildcard
// address as [::] whatever was asked, which no browser opens; loopback
// reaches it on every system (Go listens dual-stack on a wildcard). A host
// name is printed as given.
func serveURL(addr string, actual net.Addr) string {
	port := ""
	if tcp, ok := actual.(*net.TCPAddr); ok {
		port = strconv.Itoa(tcp.Port)
	}
	host, _, err := net.SplitHostPort(addr)
	if port == "" || err != nil {
		return "http://" + actual.String()
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		return "http://" + net.JoinHostPort("127.0.0.1", port) + " (listening on all interfaces)"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// activeScenario is what the start-up line says of --scenario.
func activeScenario(name string) string {
	if name == "" {
		return ""
	}
	return fmt.Sprintf(", scenario %q active for every request", name)
}

// secretWarning is the warning for listening on addr beyond loopback with
// the public development JWT secret; empty when there is nothing to warn of.
func secretWarning(addr net.Addr, secretSet bool) string {
	if secretSet || isLoopback(addr) {
		return ""
	}
	return fmt.Sprintf("moviemock: warning: listening on %s beyond loopback with the public development JWT secret: anyone who can reach it can forge tokens; set --jwt-secret", addr)
}

func isLoopback(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// unwrapNetErr keeps the useful end of a listen error ("address already in
// use") without Go's "listen tcp …:" prefix, which the caller restates.
func unwrapNetErr(err error) error {
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err
	}
	return err
}

// corsConfig is Starlette's CORSMiddleware configuration the cors flags
// describe. An origin a browser can never send (a trailing slash, no
// scheme, a wildcard) is refused: Starlette compares origins as strings, so
// it would never match and every cross-origin call would fail.
func corsConfig(origins []string, regex string, methods, headers, expose []string, credentials bool, maxAge int, private bool) (*fastapi.CORS, error) {
	c := fastapi.DefaultCORS()
	if len(origins) > 0 || regex != "" {
		c.AllowOrigins = origins
	}
	for _, o := range origins {
		if why := fastapi.CheckOrigin(o); why != "" {
			return nil, usagef("serve: --cors-origin %q can never match a browser's Origin: %s", o, why)
		}
	}
	if regex != "" {
		if _, err := regexp.Compile(regex); err != nil {
			return nil, usagef("serve: --cors-origin-regex %q: %v", regex, err)
		}
	}
	c.AllowOriginRegex = regex
	if len(methods) > 0 {
		for i, m := range methods {
			if methods[i] = strings.ToUpper(m); !validToken(m) && m != "*" {
				return nil, usagef("serve: --cors-methods: %q is not an HTTP method", m)
			}
		}
		c.AllowMethods = methods
	}
	if len(headers) > 0 {
		c.AllowHeaders = headers
	}
	for _, h := range append(slices.Clone(headers), expose...) {
		if !validToken(h) && h != "*" {
			return nil, usagef("serve: %q is not a header name", h)
		}
	}
	c.ExposeHeaders = expose
	c.AllowCredentials = credentials
	if maxAge < 0 {
		return nil, usagef("serve: --cors-max-age must not be negative")
	}
	c.MaxAge = maxAge
	c.AllowPrivateNetwork = private
	return &c, nil
}

// validToken reports whether s is an HTTP token (a method or header name).
func validToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`()<>@,;:\"/[]?={}`, c) >= 0 {
			return false
		}
	}
	return true
}

// bannerListed is how many operations the start-up block lists on one
// line; past it, they are grouped by what answers them, each group's first
// few named. Conventions name a collection each, so a grown contract's
// list stays readable longer than one of reasons (bannerConventions).
const (
	bannerListed      = 12
	bannerConventions = 40
)

// bannerGroupNames is how many operations a group names before "and N more".
const bannerGroupNames = 4

// conventionOf says which convention answers o, and of which collection.
func conventionOf(o *model.Operation) string {
	what := o.Kind.String()
	if o.Coll != nil {
		what += " " + o.Coll.Name
	}
	return what
}

// groupedLines writes one line per group of ops (by key, in order of first
// appearance): its count, the key, and its first few operations. A large
// document's hundreds of operations stay a screenful.
func groupedLines(line func(label, format string, args ...any), ops []*model.Operation, key func(*model.Operation) string) {
	var order []string
	groups := map[string][]string{}
	for _, o := range ops {
		k := key(o)
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], o.String())
	}
	for _, k := range order {
		names := groups[k]
		shown := strings.Join(names[:min(len(names), bannerGroupNames)], ", ")
		if more := len(names) - bannerGroupNames; more > 0 {
			shown += fmt.Sprintf(" and %d more", more)
		}
		line("", "  %d %s: %s", len(names), k, shown)
	}
}

// banner is what serve (and proxy) say at start-up below the first line,
// one labelled line each: the contract (its title and version, from where),
// the data and its collections, the operations understood, the scenarios
// loaded, and the URLs of the API, its docs and the control panel.
type banner struct {
	spec, source, scenarioDir string // --spec ("" embedded), the data's source, --scenarios
	base                      string // the URL to open
	admin                     bool   // the control panel is on
}

func (bn banner) text(m *model.Model, data *fixtures.Dataset, set *scenarios.Set) string {
	var b strings.Builder
	line := func(label, format string, args ...any) {
		fmt.Fprintf(&b, "  %-11s %s\n", label, fmt.Sprintf(format, args...))
	}
	from := "the embedded " + m.Spec.Source()
	if bn.spec != "" {
		from = bn.spec
	}
	title := "untitled"
	if info := m.Spec.Doc.Info; info != nil && info.Title != "" {
		title = strconv.Quote(info.Title)
		if info.Version != "" {
			title += " " + info.Version
		}
	}
	line("contract", "%s, from %s", title, from)
	line("framework", "%s (%s)", m.Framework, m.FrameworkWhy)
	if len(m.Collections) == 0 {
		line("data", "%s", bn.source)
	} else {
		line("data", "%s: %s: %s", bn.source, problems.Plural(len(m.Collections), "collection", "collections"), data.Counts())
	}
	if empty := data.Empty(); len(empty) > 0 {
		line("", "starting empty (no records): %s", strings.Join(empty, ", "))
	}
	adaptedLines(line, data.Adapted)
	var conv, examples []string
	var convOps, exampleOps []*model.Operation
	for _, o := range m.Operations {
		if o.Kind == model.Example {
			examples = append(examples, fmt.Sprintf("%s (%s)", o, o.Why))
			exampleOps = append(exampleOps, o)
			continue
		}
		conv = append(conv, fmt.Sprintf("%s: %s", o, conventionOf(o)))
		convOps = append(convOps, o)
	}
	switch {
	case len(conv) > bannerConventions:
		line("operations", "%d by convention:", len(conv))
		groupedLines(line, convOps, conventionOf)
	case len(conv) > 0:
		line("operations", "%d by convention: %s", len(conv), strings.Join(conv, "; "))
	default:
		line("operations", "none by convention (no collection, login or user operation)")
	}
	switch {
	case len(examples) > bannerListed:
		line("", "%d answered from examples only (serve --explain OPERATION says more):", len(examples))
		groupedLines(line, exampleOps, func(o *model.Operation) string { return o.Why })
	case len(examples) > 0:
		line("", "%d answered from examples only: %s", len(examples), strings.Join(examples, "; "))
	}
	degradedLines(line, m.Degraded())
	var shipped int
	var own []string
	for _, sc := range set.Scenarios() {
		if !sc.Shipped {
			own = append(own, sc.Name)
		} else {
			shipped++
		}
	}
	loaded := problems.Plural(shipped, "shipped", "shipped")
	if bn.scenarioDir != "" {
		loaded += fmt.Sprintf(", %d from %s", len(own), bn.scenarioDir)
		if len(own) > 0 {
			loaded += ": " + strings.Join(own, ", ")
		}
	}
	line("scenarios", "%s", loaded)
	if skipped := set.Skipped(); len(skipped) > 0 {
		names := make([]string, len(skipped))
		for i, sk := range skipped {
			names[i] = cmp.Or(sk.Name, sk.File)
		}
		line("", "%s (scenarios list --spec says why): %s", problems.Plural(len(skipped), "shipped scenario does not fit this contract and is left out", "shipped scenarios do not fit this contract and are left out"), strings.Join(names, ", "))
	}
	line("API", "%s/", bn.base)
	line("docs", "%s/docs (Swagger UI), %s/redoc (ReDoc)", bn.base, bn.base)
	if bn.admin {
		line("panel", "%s/__mock/ (control panel; control API under /__mock/)", bn.base)
	} else {
		line("panel", "off (--no-admin)")
	}
	return b.String()
}

// maxListedLines bounds a banner's list of degradations or adaptations: a
// contract with many says how many more there are.
const maxListedLines = 40

// degradedLines writes what of the contract is not enforced as declared,
// one degradation a line, each once.
func degradedLines(line func(label, format string, args ...any), degraded []string) {
	if len(degraded) > 0 {
		listLines(line, "degraded", problems.Plural(len(degraded), "construct", "constructs")+" not enforced as declared (--strict refuses the contract instead):", degraded)
	}
}

// adaptedLines writes what --adapt-fixtures changed, one change a line.
func adaptedLines(line func(label, format string, args ...any), adapted []fixtures.Adaptation) {
	if len(adapted) > 0 {
		listLines(line, "adapted", problems.Plural(len(adapted), "change", "changes")+" so that records written for another version fit this contract (--adapt-fixtures):", adapted)
	}
}

// listLines writes a labelled header, then items one a line, at most
// maxListedLines of them.
func listLines[T any](line func(label, format string, args ...any), label, header string, items []T) {
	line(label, "%s", header)
	for i, it := range items {
		if i == maxListedLines {
			line("", "… and %d more", len(items)-i)
			break
		}
		line("", "%s", it)
	}
}

// parseDurationOrZero is parseDuration that also takes 0 (with or without a
// unit), which turns what the flag times off.
func parseDurationOrZero(v string) (time.Duration, error) {
	if d, err := time.ParseDuration(v); err == nil && d == 0 || v == "0" {
		return 0, nil
	}
	return parseDuration(v)
}

// parseAccount reads --account's name:password[:field=value,...]. The
// password runs to the first ":" followed by a field name and "=" (so it
// may hold a ":" otherwise), and each field's value to the next ","
// followed by a field name and "=" (so a value may hold commas and colons:
// full_name=Doe, Jane or image=https://…).
func parseAccount(v string) (mock.Account, error) {
	name, rest, ok := strings.Cut(v, ":")
	if !ok || name == "" || rest == "" {
		return mock.Account{}, fmt.Errorf("%q is not name:password", v)
	}
	password, fields := rest, ""
	for i := 0; i < len(rest); i++ {
		if rest[i] == ':' && fieldStart(rest[i+1:]) {
			password, fields = rest[:i], rest[i+1:]
			break
		}
	}
	if password == "" {
		return mock.Account{}, fmt.Errorf("%q is not name:password: the password is empty", v)
	}
	a := mock.Account{Username: name, Password: password}
	for fields != "" {
		end := len(fields)
		for i := 0; i < len(fields); i++ {
			if fields[i] == ',' && fieldStart(fields[i+1:]) {
				end = i
				break
			}
		}
		fname, value, _ := strings.Cut(fields[:end], "=")
		a.Fields = append(a.Fields, mock.AccountField{Name: fname, Value: value})
		fields = strings.TrimPrefix(fields[end:], ",")
	}
	return a, nil
}

// fieldStart reports whether s starts with a field name and "=":
// is_superuser=, fullName=.
func fieldStart(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '=':
			return i > 0
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && (c >= '0' && c <= '9' || c == '-'):
		default:
			return false
		}
	}
	return false
}
