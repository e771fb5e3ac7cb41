package contract

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/moviemock/moviemock/internal/fake"
	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
)

// Defaults of Config.
const (
	DefaultTimeout         = 5 * time.Second
	DefaultMaxResponseTime = 2 * time.Second
	DefaultExamples        = 10
	DefaultWorkers         = 1
	// MaxBodyBytes is the most of a response body the runner reads.
	MaxBodyBytes = 16 << 20
	// maxItemReads bounds how many listed items list_item_consistency reads.
	maxItemReads = 100
)

// DefaultFrameworkStatuses are statuses a FastAPI server answers although
// the contract does not declare them (fastapi.FrameworkStatuses).
var DefaultFrameworkStatuses = fastapi.FrameworkStatuses

// Config is a contract run.
type Config struct {
	BaseURL string
	Spec    *spec.Spec // nil: the embedded openapi.yaml
	// Model is Spec compiled, when the caller has it already (nil:
	// compiled from Spec).
	Model *model.Model
	// Username and Password log in with the contract's login form, for the
	// positive login case, the wrong-credentials cases and a bearer token
	// sent with every other request.
	Username, Password string
	// AuthFormat writes the token a login earned where the document's
	// security scheme wants it, "{token}" standing for it ("Token
	// {token}"); "": "Bearer {token}" for a bearer scheme, the token
	// alone for an API key.
	AuthFormat string
	// Token is a credential the target issued, given instead of a login:
	// sent where the document's security scheme wants it, as AuthFormat
	// writes it. "": none.
	Token           string
	Seed            uint64
	Checks          []string // nil: all
	ExcludeChecks   []string
	Examples        int // generated cases per operation
	Workers         int
	Timeout         time.Duration // per request
	MaxResponseTime time.Duration
	// IDs gives known ids by path parameter name ("person_id": ["1"]).
	IDs    map[string][]string
	Header http.Header // sent with every request
	// Query and Cookie are query parameters and cookies sent with every
	// request; one the contract declares takes this value in every case
	// that does not test the parameter itself.
	Query, Cookie url.Values
	JWTSecret     []byte // verifies tokens' signatures when set
	// AdminToken is a secret beside them the reports never show: the
	// --admin-token of a proxy's mock.
	AdminToken        string
	FrameworkStatuses []int     // nil: DefaultFrameworkStatuses
	Progress          io.Writer // a character per finished case; nil: none
	Client            *http.Client
	Now               func() time.Time
	// MaxBodyBytes is the most of a response body read; 0: MaxBodyBytes.
	MaxBodyBytes int64
	// MaxCheckValues is the most JSON values a body may hold for the checks
	// that read it; 0: DefaultMaxCheckValues. A larger body is not read by
	// them: Response.Unchecked says so, and the report's notes.
	MaxCheckValues int
	// NoWrites skips every case and sequence with an unsafe method (POST,
	// PUT, PATCH, DELETE), logins excepted.
	NoWrites bool
	// AllowDestructive lets cases change or delete records the runner did
	// not create itself; without it, only its own records are touched.
	AllowDestructive bool
	// MaxFailures stops the run after this many failed cases; 0: never.
	MaxFailures int
	// ExcludeOperations are operations left out of the run, each an
	// operationId or "METHOD /path": an operation the runner cannot test
	// fails the run unless it is excluded.
	ExcludeOperations []string
}

// ErrUnreachable means the target could not be connected to at all.
var ErrUnreachable = errors.New("target unreachable")

// Run derives cases from the contract, sends them to cfg.BaseURL, and checks
// every response. It fails only when it cannot run: bad configuration, or a
// target nothing answers at (wrapping ErrUnreachable). Everything the target
// does wrong is in the report.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.fill(); err != nil {
		return nil, err
	}
	r := &runner{cfg: &cfg, sp: cfg.Spec}
	if err := probe(ctx, cfg.BaseURL, cfg.Timeout); err != nil {
		return nil, err
	}
	start := cfg.Now()
	report := r.run(ctx)
	if r.stop != nil {
		return nil, r.stop
	}
	report.Started = start
	report.Duration = cfg.Now().Sub(start)
	return report, nil
}

// compiled is the contract's model: Model when it is Spec's, else
// compiled from Spec.
func (cfg *Config) compiled() (*model.Model, error) {
	if cfg.Model != nil && cfg.Model.Spec == cfg.Spec {
		return cfg.Model, nil
	}
	return model.Compile(cfg.Spec)
}

func (cfg *Config) fill() error {
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("contract: base URL %q is not an http(s) URL with a host", cfg.BaseURL)
	}
	if cfg.Spec == nil {
		if cfg.Spec, err = spec.Embedded(); err != nil {
			return err
		}
	}
	if cfg.Seed == 0 {
		cfg.Seed = 1
	}
	if cfg.Workers <= 0 {
		cfg.Workers = DefaultWorkers
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxResponseTime <= 0 {
		cfg.MaxResponseTime = DefaultMaxResponseTime
	}
	if cfg.FrameworkStatuses == nil {
		cfg.FrameworkStatuses = DefaultFrameworkStatuses
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = MaxBodyBytes
	}
	if cfg.MaxCheckValues <= 0 {
		cfg.MaxCheckValues = DefaultMaxCheckValues
	}
	if cfg.AuthFormat != "" && !strings.Contains(cfg.AuthFormat, "{token}") {
		return fmt.Errorf("contract: auth format %q does not say where the token goes: write {token} in it (e.g. 'Token {token}')", cfg.AuthFormat)
	}
	if cfg.Examples < 0 {
		return errors.New("contract: examples must not be negative")
	}
	if cfg.MaxFailures < 0 {
		return errors.New("contract: max failures must not be negative")
	}
	for _, list := range [][]string{cfg.Checks, cfg.ExcludeChecks} {
		for _, name := range list {
			if checkByName(name) == nil {
				return fmt.Errorf("contract: unknown check %q (see --help for the list)", name)
			}
		}
	}
	var unknown []string
	for _, name := range cfg.ExcludeOperations {
		if !slices.ContainsFunc(cfg.Spec.Paths(), func(path string) bool {
			item := cfg.Spec.Doc.Paths.Value(path)
			for method, op := range item.Operations() {
				if model.Named(name, op.OperationID, method, path) {
					return true
				}
			}
			return false
		}) {
			unknown = append(unknown, strconv.Quote(name))
		}
	}
	if len(unknown) > 0 {
		return fmt.Errorf("contract: exclude operation %s: no such operation in the contract (give an operationId or \"METHOD /path\")", strings.Join(unknown, ", "))
	}
	if cfg.Client == nil {
		cfg.Client = NewClient(cfg.Timeout, cfg.Workers)
	}
	return nil
}

// NewClient is the runner's HTTP client: every step of a request
// (connecting, TLS, the answer's headers, the whole answer) within
// timeout, at most conns idle connections kept, response headers bounded,
// redirects answered rather than followed, and no Accept-Encoding the
// caller did not set. moviemock replay sends with it too.
func NewClient(timeout time.Duration, conns int) *http.Client {
	return &http.Client{
		Timeout: timeout,
		// A redirect is an answer to check, not to follow.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Transport: &http.Transport{
			Proxy:                  http.ProxyFromEnvironment,
			DialContext:            (&net.Dialer{Timeout: timeout}).DialContext,
			MaxIdleConnsPerHost:    conns,
			ResponseHeaderTimeout:  timeout,
			TLSHandshakeTimeout:    timeout,
			MaxResponseHeaderBytes: maxHeaderBytes,
			// No Accept-Encoding the case did not ask for (see send).
			DisableCompression: true,
		},
	}
}

// probe tells an unreachable target (nothing listens, no such host) from a
// misbehaving one: only the first is an error of the run.
func probe(ctx context.Context, base string, timeout time.Duration) error {
	u, _ := url.Parse(base)
	host := u.Host
	if u.Port() == "" {
		if u.Scheme == "https" {
			host = net.JoinHostPort(u.Hostname(), "443")
		} else {
			host = net.JoinHostPort(u.Hostname(), "80")
		}
	}
	d := net.Dialer{Timeout: timeout}
	conn, err := d.DialContext(ctx, "tcp", host)
	if err != nil {
		return fmt.Errorf("contract: %w: %s: %v", ErrUnreachable, base, err)
	}
	conn.Close()
	return nil
}

type runner struct {
	cfg *Config
	sp  *spec.Spec
	// model is the contract's collections and conventions, compiled once
	// for the cases and the sequences; nil (modelErr says why) when the
	// model cannot read the contract.
	model    *model.Model
	modelErr error
	// framework is the profile the target is judged by (setFramework);
	// "" judges as FastAPI's.
	framework framework.Name
	// token is the Authorization value the login with the given
	// credentials earned, for the sequences; empty when there is none.
	token string
	// rawToken is the token itself, as the login answered it.
	rawToken string
	// cred is where the document wants the token (placeFor).
	cred credPlace
	// basic is the Authorization header of the HTTP basic credentials
	// the run sends the operations they open (basicCredentials), for the
	// sequences; "" when none.
	basic string
	// stop is why the run stopped before its cases (ErrLogin); nil when
	// it ran.
	stop error
	// robust is send's and execute's bookkeeping: unresponsive operations,
	// early stops, what is kept of each response (robust.go).
	robust runState
	// held are the values the target's records were seen to hold.
	held heldValues
}

// Response is what came back for a case.
//
// send returns the whole body (up to Config.MaxBodyBytes) in Body; a Result
// keeps only Excerpt, Size and SHA256 once its checks have read the body.
type Response struct {
	Status int         `json:"status,omitempty"`
	Header http.Header `json:"headers,omitempty"`
	// HeadersTrimmed: the headers were longer than a report keeps.
	HeadersTrimmed bool   `json:"headers_trimmed,omitempty"`
	Body           []byte `json:"-"`
	// Excerpt is the start of the body (at most ExcerptBytes), a copy.
	Excerpt []byte `json:"-"`
	// Size is the number of body bytes read; with Truncated, the body was
	// longer and reading stopped there.
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256,omitempty"` // of the bytes read
	// Truncated: the body was longer than MaxBodyBytes.
	Truncated bool `json:"truncated,omitempty"`
	// Unchecked says why the checks that read the body (its schema, its
	// ids, a token in it) did not: a budget it exceeds. They do not apply
	// then; the report's notes count such responses.
	Unchecked string        `json:"unchecked,omitempty"`
	Duration  time.Duration `json:"-"`
	Error     string        `json:"error,omitempty"` // no complete response: why
	// Skipped says why the request was not sent (an unresponsive target or
	// operation, --max-failures); no check applies to a skipped case.
	Skipped string `json:"skipped,omitempty"`
	// shown is the excerpt a redacted report shows (nil: excerptText's).
	shown *string
}

// send performs req with the runner's client. It sends nothing once the
// target is found unresponsive or the run stopped (Skipped says why).
func (r *runner) send(ctx context.Context, req Request) Response {
	if why := r.robust.notSending(); why != "" {
		return Response{Error: why, Skipped: why}
	}
	start := time.Now()
	var resp *http.Response
	for attempt := 0; ; attempt++ {
		hreq, err := http.NewRequestWithContext(ctx, req.Method, req.URL, strings.NewReader(req.Body))
		if err != nil {
			return Response{Error: "cannot build the request: " + err.Error()}
		}
		hreq.Header = req.Header.Clone()
		if hreq.Header == nil {
			hreq.Header = http.Header{}
		}
		if _, set := hreq.Header["User-Agent"]; !set {
			// Only the headers the case sets: a backend may refuse any header
			// it does not declare (a pydantic header model with
			// extra="forbid"), and net/http would add its User-Agent. An
			// empty value makes net/http send none.
			hreq.Header["User-Agent"] = []string{""}
		}
		if host := hreq.Header.Get("Host"); host != "" {
			// net/http sends req.Host, never a Host header: a --header
			// Host (for an app that trusts only its own host names,
			// Starlette's TrustedHostMiddleware) goes there.
			hreq.Host = host
			hreq.Header.Del("Host")
		}
		reused := false
		hreq = hreq.WithContext(httptrace.WithClientTrace(hreq.Context(), &httptrace.ClientTrace{
			GotConn: func(info httptrace.GotConnInfo) { reused = info.Reused },
		}))
		resp, err = r.cfg.Client.Do(hreq)
		if err != nil && reused && attempt < maxStaleRetries && staleConnection(err) && ctx.Err() == nil {
			// The server closed a kept-alive connection before reading
			// this request (some close it after an answer without saying
			// Connection: close): the request was never received, so it
			// goes again on a new connection, as browsers do (RFC 9112
			// §9.3.1). net/http does so itself only for GET and HEAD.
			start = time.Now()
			continue
		}
		if err == nil {
			break
		}
		out := Response{Error: describeTransportError(err, r.cfg.Timeout), Duration: time.Since(start)}
		r.robust.answered(ctx, &out)
		return out
	}
	defer resp.Body.Close()
	limit := r.cfg.MaxBodyBytes
	body, err := readBody(resp.Body, limit)
	out := Response{Status: resp.StatusCode, Header: resp.Header, Body: body, Duration: time.Since(start)}
	if int64(len(body)) > limit {
		out.Body, out.Truncated = body[:limit], true
		out.Error = fmt.Sprintf("response body larger than %d bytes: stopped reading", limit)
		if resp.Uncompressed {
			out.Error = fmt.Sprintf("response body larger than %d bytes once decompressed (it came gzip-encoded): stopped reading", limit)
		}
	} else if err != nil {
		out.Error = "the body broke off after " + fmt.Sprint(len(body)) + " bytes: " + describeTransportError(err, r.cfg.Timeout)
	}
	out.summarize()
	r.robust.answered(ctx, &out)
	return out
}

// maxStaleRetries bounds how often send sends a request again after a
// kept-alive connection turned out closed.
const maxStaleRetries = 2

// staleConnection reports whether err is a connection the server had
// already closed: reset, or closed before any byte of an answer.
func staleConnection(err error) bool {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return false
	}
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) || errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF)
}

// describeTransportError says in plain words why no (complete) response came.
func describeTransportError(err error, timeout time.Duration) string {
	var ne net.Error
	switch {
	case errors.As(err, &ne) && ne.Timeout(), errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("no complete response within the %v timeout (%v)", timeout, unwrapURLError(err))
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "the connection closed before a complete response (" + unwrapURLError(err).Error() + ")"
	case errors.Is(err, syscall.ECONNRESET):
		return "the connection was reset (" + unwrapURLError(err).Error() + ")"
	case strings.Contains(err.Error(), "malformed HTTP"):
		// net/http exports no error value for a response that is not HTTP.
		return "the answer is not HTTP (" + unwrapURLError(err).Error() + ")"
	}
	return unwrapURLError(err).Error()
}

func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// run is the whole suite: log in, discover ids, build and send the cases,
// check the responses.
func (r *runner) run(ctx context.Context) *Report {
	report := &Report{BaseURL: r.cfg.BaseURL, Spec: r.sp.Source(), Seed: r.cfg.Seed}
	r.model, r.modelErr = r.cfg.compiled()
	r.setFramework()
	r.cred = placeFor(r.sp, r.cfg.AuthFormat)
	all := operations(r.sp, r.model, &report.Notes)
	gen := fake.New(r.sp)
	for _, o := range all {
		if o.untestable == "" {
			o.untestable = unsatisfiable(gen, o.op)
		}
	}
	var ops []*operation
	for _, o := range all {
		switch {
		case slices.ContainsFunc(r.cfg.ExcludeOperations, func(name string) bool { return model.Named(name, o.op.OperationID, o.method, o.path) }):
			report.Notes = append(report.Notes, fmt.Sprintf("%s: excluded (--exclude-operation)", o.id))
		case o.untestable != "":
			report.Untested = append(report.Untested, Untested{Operation: o.id, Method: o.method, Path: o.path, Why: o.untestable})
		default:
			ops = append(ops, o)
		}
	}
	b := &builder{
		cfg: r.cfg, sp: r.sp, notes: &report.Notes,
		rng:        rand.New(rand.NewPCG(r.cfg.Seed, 0x6d6f7669656d6f63)),
		ids:        map[string][]string{},
		slots:      map[string][]string{},
		emptyList:  map[string]bool{},
		records:    map[string]bool{},
		formValues: map[string]string{},
		headers:    r.cfg.Header.Clone(),
		own:        map[*operation][]string{},
		nonce:      uint32(r.cfg.Now().UnixNano()/1e6) ^ uint32(r.cfg.Seed),
		fake:       gen,
		cred:       r.cred,
	}
	b.attachModel(ops, r.model)
	for _, o := range ops {
		if r.model != nil && r.openAPI() && r.model.Anonymous(o.model) {
			// a login or a registration inherits no token requirement
			// (model.Anonymous): it owes no 401
			o.secured = false
			continue
		}
		o.keyed = r.openAPI() && !o.secured && r.cred.scheme != "" &&
			(!o.basic && requires(r.sp.Doc, o.op, r.cred.scheme) || o.basic && opensAlone(r.sp.Doc, o.op, r.cred.scheme))
		o.needsCredential = o.secured || o.keyed
	}
	for name, ids := range r.cfg.IDs {
		if len(ids) > 0 {
			b.ids[name] = append([]string(nil), ids...)
		}
	}
	// The contract's examples are only candidates: the target may not have
	// those records or accounts, and a correct server must not fail for it.
	candidates := r.learnExamples(ops, b)
	trustedLogin := r.cfg.Username != "" || r.cfg.Password != ""
	if trustedLogin {
		b.formValues["username"], b.formValues["password"] = r.cfg.Username, r.cfg.Password
	}

	if r.cfg.Token != "" && !r.holdsCredential(b) {
		r.useToken(b, r.cfg.Token)
		b.givenToken = true
		report.Notes = append(report.Notes, fmt.Sprintf("every request carries the given token (--token) in %s", r.cred.describe()))
	}
	// Discovery runs first and in order: a token for the other requests,
	// then the lists, whose ids the item reads use, then probes for ids
	// nothing listed.
	loginOp := false
	for _, o := range ops {
		switch {
		case o.tokenEndpoint:
			loginOp = true
			r.logIn(ctx, o, b, report, trustedLogin)
		case o.jsonLogin() && trustedLogin:
			loginOp = true
			if !r.holdsCredential(b) {
				if err := r.logInJSON(ctx, o, b, report); err != nil {
					r.stop = err
					return report
				}
			}
		}
	}
	r.logInTokenURL(ctx, b, report)
	if trustedLogin && r.cfg.Header.Get("Authorization") == "" && r.token == "" {
		r.token = b.headers.Get("Authorization")
	}
	if trustedLogin && (loginOp || len(tokenURLs(r.sp)) > 0) && !r.holdsCredential(b) {
		r.stop = fmt.Errorf("%w: no login of the contract with --username %q gave a token (%s)", ErrLogin, r.cfg.Username, r.cred.describe())
		return report
	}
	b.hasLogin = loginOp || len(tokenURLs(r.sp)) > 0
	if trustedLogin && !b.hasLogin {
		r.basicCredentials(ops, b, report)
	}
	for _, o := range ops {
		for _, it := range ops {
			if it.listOf != o {
				continue
			}
			items := r.discoverList(ctx, o, b)
			if k := slot(it, it.itemParam); items != nil && len(items) == 0 {
				// looked, and none: no ids of another resource's under
				// the same name either
				b.emptyList[k] = true
				if _, looked := b.slots[k]; !looked {
					b.slots[k] = []string{}
				}
			}
			for _, item := range items {
				key := keyOf
				if it.keyField {
					key = fieldOf
				}
				id, ok := key(item, it.itemParam)
				if !ok {
					// an item without its id, linking to its read
					id, ok = viewLink(o.model, item, it.itemParam)
				}
				if ok && len(b.slotIDs(it, it.itemParam)) < maxItemReads {
					b.learn(it, it.itemParam, id)
				}
			}
			break
		}
	}
	r.probeIDs(ctx, ops, b, candidates, report)
	// Records of the runner's own: for the cases that change or delete
	// one, and for reads nothing else gave an id for.
	r.createOwn(ctx, ops, b, report)

	b.build(ops)
	b.cases = r.withoutStayingCreates(ops, b.cases, report)
	built := len(b.cases)
	// list_item_consistency: read every listed item (bounded).
	for _, it := range ops {
		if it.listOf == nil {
			continue
		}
		base, _ := b.validValues(it)
		for _, id := range b.idsOf(it, it.itemParam) {
			v := clone(base)
			if v == nil {
				v = values{}
			}
			v[it.itemParam] = id
			b.add(it, Positive, ExpectSuccess, fmt.Sprintf("%s=%q (listed by %s)", it.itemParam, id, it.listOf.id), v, nil)
		}
	}
	// They go first: the records were listed before any case wrote, and
	// a write of the runner's own (a delete of a record sharing the key,
	// a replace that re-keys it) must not race them.
	b.cases = slices.Concat(b.cases[built:], b.cases[:built])

	report.Results = r.execute(ctx, b.cases)
	if trustedLogin || r.cfg.Token != "" {
		if err := r.refusedEverywhere(report.Results); err != nil {
			r.stop = err
			r.cleanUp(ctx, ops, b, report)
			return report
		}
	}
	report.Results = append(report.Results, r.sequences(ctx, report)...)
	r.cleanUp(ctx, ops, b, report)
	r.check(report, ops)
	report.Notes = append(report.Notes, madeUpNotes(report.Results)...)
	report.Notes = append(report.Notes, unpairedNotes(report.Results)...)
	r.untested(report, ops)
	report.Notes = testedLater(report.Notes, report.Results)
	report.Credentials = Credentials{Password: r.cfg.Password, JWTSecret: string(r.cfg.JWTSecret), AdminToken: r.cfg.AdminToken, Token: r.token}
	report.secretFields = contractSecretFields(r.sp)
	if report.Credentials.Token == "" {
		report.Credentials.Token = r.cfg.Header.Get("Authorization")
	}
	return report
}

// untested adds to the report the operations the runner could build no
// case for. An operation left out on purpose (by --no-writes, or a DELETE
// naming no record without --allow-destructive) is not one;
// one whose cases were skipped (an unresponsive target) has its skips
// reported already.
func (r *runner) untested(report *Report, ops []*operation) {
	for _, o := range ops {
		if r.cfg.NoWrites && o.unsafe() || o.wipes() && !r.cfg.AllowDestructive {
			// left out on purpose, and a note says so
			continue
		}
		if !slices.ContainsFunc(report.Results, func(res *Result) bool {
			return res.Case.Method == o.method && res.Case.Path == o.path
		}) {
			report.Untested = append(report.Untested, Untested{Operation: o.id, Method: o.method, Path: o.path, Why: "the runner could build no case for it"})
		}
	}
}

// learnExamples reads the contract's examples: candidate ids for path
// parameters (parameter examples, the id of an item read's example
// response), and form values (the login form's example) into b.formValues.
func (r *runner) learnExamples(ops []*operation, b *builder) map[string][]string {
	candidates := map[string][]string{}
	for _, o := range ops {
		for _, in := range o.inputs.List {
			if in.In != "path" {
				continue
			}
			for _, p := range append(o.item.Parameters, o.op.Parameters...) {
				if p.Value != nil && p.Value.Name == in.Name && p.Value.Example != nil {
					candidates[in.Name] = append(candidates[in.Name], valueText(p.Value.Example))
				}
			}
			if resp := o.op.Responses.Value(strconv.Itoa(o.success())); resp != nil && resp.Value != nil && strings.HasSuffix(o.path, "{"+in.Name+"}") {
				if mt := resp.Value.Content.Get("application/json"); mt != nil {
					for _, name := range sortedKeys(mt.Examples) {
						if ex := mt.Examples[name]; ex.Value != nil {
							if id, ok := idOf(ex.Value.Value); ok {
								candidates[in.Name] = append(candidates[in.Name], id)
							}
						}
					}
				}
			}
		}
		if o.inputs.Form && o.op.RequestBody != nil && o.op.RequestBody.Value != nil {
			// Fields not set yet take the form's example values: its
			// scalars. An object or a list (Goa's form of bottles) is
			// not one field's text, which fmt would write in Go's
			// syntax ([map[name:…]]): formValue makes those as their
			// encoding says.
			learn := func(example any) {
				if m, ok := example.(map[string]any); ok {
					for k, v := range m {
						switch v.(type) {
						case map[string]any, []any, nil:
							continue
						}
						if _, set := b.formValues[k]; !set {
							b.formValues[k] = valueText(v)
						}
					}
				}
			}
			for _, mt := range o.op.RequestBody.Value.Content {
				for _, name := range sortedKeys(mt.Examples) {
					if ex := mt.Examples[name]; ex.Value != nil {
						learn(ex.Value.Value)
					}
				}
				learn(mt.Example)
			}
		}
	}
	return candidates
}

// logIn posts the known credentials once; a token that comes back is sent
// as a bearer token with every request after, unless the user set an
// Authorization header. Credentials from the contract's example that the
// target refuses are forgotten: only --username/--password are owed a login.
func (r *runner) logIn(ctx context.Context, o *operation, b *builder, report *Report, trusted bool) {
	vals, _ := b.validValues(o)
	if vals == nil {
		return
	}
	resp := r.send(ctx, b.request(o, vals))
	if resp.Status/100 != 2 { // what status the login declares is for the checks to say
		if !trusted {
			delete(b.formValues, "username")
			delete(b.formValues, "password")
			report.Notes = append(report.Notes, fmt.Sprintf("%s: the contract's example credentials were refused (%d); give --username and --password to test a successful login", o.id, resp.Status))
		}
		return
	}
	if b.headers.Get("Authorization") != "" {
		return
	}
	var v any
	if json.Unmarshal(resp.Body, &v) != nil {
		return
	}
	if tok := model.TokenIn(v); tok != "" {
		if b.headers == nil {
			b.headers = http.Header{}
		}
		r.useToken(b, tok)
		report.Notes = append(report.Notes, fmt.Sprintf("logged in as %q (%s %s); every other request carries its bearer token", vals["username"], o.method, o.path))
	}
}

func (r *runner) discoverList(ctx context.Context, o *operation, b *builder) []any {
	resp := r.send(ctx, b.request(o, values{}))
	if resp.Status/100 != 2 || countValues(resp.Body, r.cfg.MaxCheckValues) > r.cfg.MaxCheckValues {
		return nil // no ids from a list too large to decode (--max-check-values)
	}
	var items []any
	if json.Unmarshal(resp.Body, &items) == nil {
		return items
	}
	var v any
	if o.model != nil && o.model.Envelope != "" && json.Unmarshal(resp.Body, &v) == nil {
		items, _ = unwrap(o.model, v).([]any)
		return items
	}
	// A page: {"items": [...], "total": ...}.
	var page struct {
		Items []any `json:"items"`
	}
	if json.Unmarshal(resp.Body, &page) == nil {
		return page.Items
	}
	return nil
}

// integerCandidates are the ids probeIDs tries for an integer parameter
// beyond the contract's examples, and for a string one holding the id of
// the record o reads, named as that id, when the id is an integer
// (drf-spectacular writes PokéAPI's {id}, which takes a name or an id, as
// a string; its records' id is an integer). A parameter of another name
// ({name}) holds a key of its own.
func integerCandidates(o *operation, in fastapi.Input) []string {
	ids := []string{"1", "2", "3", "4", "5"}
	if in.Kind == fastapi.Integer {
		return ids
	}
	if m := o.model; m != nil && m.Coll != nil && m.Coll.ID != nil && m.Coll.ID.Type == "integer" && m.IDParam == in.Name && m.Coll.ID.Name == in.Name {
		return ids
	}
	return nil
}

// probeIDs finds records for path parameters no id is trusted for: it
// reads each candidate (the contract's examples, then ids 1 to 5 for an
// integer) and keeps those the target answers 200 for. Records whose list
// answered empty are not looked for: what a read then answers (a
// server's stand-in for any key) is no record the list holds. The read of the
// record a parameter names is asked first, and its word is final: a list
// under the parameter (GET /projects/{id}/comments) may answer an empty
// list for any key, which names no record.
func (r *runner) probeIDs(ctx context.Context, ops []*operation, b *builder, candidates map[string][]string, report *Report) {
	ops = slices.Clone(ops)
	slices.SortStableFunc(ops, func(x, y *operation) int { return cmp.Compare(readsLast(x), readsLast(y)) })
	probed := map[string]bool{}
	for _, o := range ops {
		if o.method != "GET" {
			continue
		}
		for _, in := range o.inputs.List {
			if in.In != "path" || len(b.cfg.IDs[in.Name]) > 0 || len(b.slotIDs(o, in.Name)) > 0 || probed[slot(o, in.Name)] || b.emptyList[slot(o, in.Name)] {
				continue
			}
			if readsLast(o) == 0 && slot(o, in.Name) == o.path {
				probed[o.path] = true
			}
			var try []string
			for _, id := range slices.Concat(candidates[in.Name], integerCandidates(o, in)) {
				if !slices.Contains(try, id) {
					try = append(try, id) // each once, in the note too
				}
			}
			base := b.fillAnything(o)
			var found []string
			for _, id := range try {
				v := clone(base)
				v[in.Name] = id
				if resp := r.send(ctx, b.request(o, v)); resp.Status == o.success() {
					found = append(found, id)
				}
			}
			k := slot(o, in.Name)
			if _, looked := b.slots[k]; !looked {
				b.slots[k] = []string{}
			}
			b.slots[k] = append(b.slots[k], found...)
			if len(b.ids[in.Name]) == 0 {
				b.ids[in.Name] = found
			}
			if len(found) > 0 {
				report.Notes = append(report.Notes, fmt.Sprintf("%s: %s %v found by trying %v", o.id, in.Name, found, try))
			}
		}
	}
}

// withoutStayingCreates leaves out the generated cases that would make
// records the contract cannot delete: those a create of a collection with
// no delete is sent as valid. Its positive cases and its refusals still
// run; each random valid body would only leave one more record behind.
func (r *runner) withoutStayingCreates(ops []*operation, cases []*Case, report *Report) []*Case {
	left := map[*operation]int{}
	out := cases[:0]
	for _, c := range cases {
		o := c.op
		if c.Kind == Generated && c.Expect != ExpectRejection && o != nil && o.model != nil &&
			(o.model.Kind == model.Create || o.model.Kind == model.NestedCreate) && deleterOf(ops, o) == nil {
			left[o]++
			continue
		}
		out = append(out, c)
	}
	for _, o := range ops {
		if n := left[o]; n > 0 {
			report.Notes = append(report.Notes, fmt.Sprintf("%s: %d generated valid bodies not sent: the contract cannot delete the records they would leave", o.id, n))
		}
	}
	return out
}

// readsLast is 0 for an operation reading the record its last path
// parameter names (a single record answered on a path ending in it), 1
// for any other.
func readsLast(o *operation) int {
	if m := o.model; m != nil && m.Shape == model.OneShape && strings.HasSuffix(o.path, "}") {
		return 0
	}
	return 1
}

// execute sends every case with cfg.Workers workers; results keep case
// order. Each response's checks run as it arrives (list_item_consistency,
// which compares cases, runs in check), and the result keeps only an
// excerpt of the body. An operation that gives no complete answer
// opStrikes times in a row is unresponsive, a target that gives none
// targetStrikes times in a row is too: their remaining cases are skipped,
// as are all cases once MaxFailures cases failed.
func (r *runner) execute(ctx context.Context, cases []*Case) []*Result {
	st := &r.robust
	st.beginCases(cases)
	results := make([]*Result, len(cases))
	next := make(chan int)
	var wg sync.WaitGroup
	var progress sync.Mutex
	for w := 0; w < r.cfg.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				c := cases[i]
				mark := "."
				if why := st.skipReason(c.op); why != "" {
					results[i], mark = &Result{Case: c, Response: Response{Skipped: why}}, "s"
				} else {
					res := &Result{Case: c, Response: r.send(ctx, c.Request)}
					if res.Response.Skipped == "" {
						st.caseAnswered(ctx, c.op, &res.Response)
						r.observe(res)
						if res.Failed() {
							mark = "F"
							st.caseFailed(r.cfg.MaxFailures)
						}
					} else {
						mark = "s"
					}
					results[i] = res
				}
				if r.cfg.Progress != nil {
					progress.Lock()
					io.WriteString(r.cfg.Progress, mark)
					progress.Unlock()
				}
			}
		}()
	}
	for i := range cases {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if r.cfg.Progress != nil {
		io.WriteString(r.cfg.Progress, "\n")
	}
	for i, res := range results {
		if res == nil { // cancelled before it was sent
			results[i] = &Result{Case: cases[i], Response: Response{Error: "not sent: the run was cancelled"}}
		}
	}
	return results
}

func idOf(v any) (string, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return "", false
	}
	switch id := m["id"].(type) {
	case string:
		return id, id != ""
	case float64:
		return fmt.Sprint(int64(id)), id == float64(int64(id))
	case json.Number:
		return id.String(), true
	}
	return "", false
}

// fieldOf is the value of a record's field param, as a path takes it.
func fieldOf(v any, param string) (string, bool) {
	if m, ok := v.(map[string]any); ok && param != "" {
		switch k := m[param].(type) {
		case string:
			return k, k != ""
		case float64:
			return fmt.Sprint(int64(k)), k == float64(int64(k))
		}
	}
	return "", false
}

// keyOf is the value a record gives the path parameter param: its field
// of that name (a post's slug for /posts/{slug}, a user's username), else
// its id.
func keyOf(v any, param string) (string, bool) {
	if m, ok := v.(map[string]any); ok && param != "" && param != "id" {
		switch k := m[param].(type) {
		case string:
			if k != "" {
				return k, true
			}
		case float64:
			if k == float64(int64(k)) {
				return fmt.Sprint(int64(k)), true
			}
		}
	}
	return idOf(v)
}

// createdKey is the key of the record a create answered with, for the
// path parameter param: the record's (keyOf), or the answer itself where
// it is a bare integer or UUID (Swashbuckle's POST /stores answering the
// new store's id). Other bare text may be a message ("created"), no key.
func createdKey(v any, param string) (string, bool) {
	switch k := v.(type) {
	case string:
		return k, bareUUID.MatchString(k)
	case float64:
		return fmt.Sprint(int64(k)), k == float64(int64(k))
	}
	return keyOf(v, param)
}

var bareUUID = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// testedLater is notes without those saying an operation got no positive
// case where a sequence's valid request to it ran after all (a follow of
// the throwaway account, an update-me on it): a note must not contradict
// the run's own coverage.
func testedLater(notes []string, results []*Result) []string {
	ran := map[string]bool{}
	for _, c := range coverageOf(nil, results) {
		if c.Positive > 0 {
			ran[c.Operation] = true
		}
	}
	return slices.DeleteFunc(notes, func(n string) bool {
		id, rest, ok := strings.Cut(n, ": ")
		return ok && strings.HasPrefix(rest, "no positive case") && ran[id]
	})
}
