package contract

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
)

// Observed is the Kind of a case the runner did not make: an exchange a
// proxy relayed between a client and the upstream.
const Observed Kind = "observed"

// Exchange is one request and the answer the upstream gave, as a proxy saw
// them.
type Exchange struct {
	Method string // "GET"; "" means Request.Method
	// Template is the contract path the request fell under
	// ("/reviews/{review_id}"); "" when none.
	Template string
	// Request is as sent: Method, URL (full; the upstream's or the
	// proxy's), Header, Body.
	Request Request
	// RequestChecked says the proxy validated the request the way FastAPI
	// does; Rejection is then nil for a request FastAPI accepts, else what
	// FastAPI answers it with.
	RequestChecked bool
	Rejection      *Rejection
	// Response is the upstream's answer: Status, Header, Body (complete up
	// to the proxy's cap, else Truncated), Duration, Error.
	Response Response
	Time     time.Time // when the request came in; zero: Config.Now()
}

// Rejection is FastAPI's answer to a request it refuses before the
// application sees it.
type Rejection struct {
	Status int             // 422, or 400 for a body it cannot parse
	Items  []RejectionItem // for a 422: the detail items, in order
	Detail string          // for a 400: the detail string
}

// RejectionItem is one item of a 422's detail list.
type RejectionItem struct {
	Loc       []any
	Msg, Type string
}

// MaxKeptFailures is how many failing exchanges an Observer keeps whole;
// those after are only counted.
const MaxKeptFailures = 500

// maxKeptRequestBody bounds the request body a kept failure holds.
const maxKeptRequestBody = 16 << 10

// tokenLeeway is how far a token's exp may lie before the request and the
// token still count as usable: the proxy's clock and the upstream's differ.
const tokenLeeway = 10 * time.Second

// requestConformance applies to observed exchanges only: the runner makes
// invalid requests on purpose, so it is not in Checks.
var requestConformance = check{"request_conformance", "the request is one the contract accepts: a client sending what FastAPI rejects learns it here", checkRequestConformance}

// observedApply are the checks of Checks that apply to an observed
// exchange; the others compare cases, need generated cases, or are the
// stateful sequences'.
var observedApply = map[string]bool{
	"not_a_server_error": true, "status_code_conformance": true, "content_type_conformance": true,
	"response_schema_conformance": true, "response_headers_conformance": true,
	"negative_data_rejection": true, "positive_data_acceptance": true, "validation_error_shape": true,
	"jwt_wellformed": true, "token_type_bearer": true, "unique_ids": true, "author_consistency": true,
	"max_response_time": true, "auth_required": true, "paging_and_filters": true,
}

// ObservedChecks lists the checks an Observer applies, in the order its
// reports show them: those of Checks that judge a single exchange, and
// request_conformance after validation_error_shape. max_response_time
// applies only when Config.MaxResponseTime is set.
var ObservedChecks = observedChecks()

func observedChecks() []check {
	var out []check
	for _, c := range Checks {
		if observedApply[c.name] {
			out = append(out, c)
		}
		if c.name == "validation_error_shape" {
			out = append(out, requestConformance)
		}
	}
	return out
}

// observedFacts is what the checks know of an observed exchange beyond its
// request and response.
type observedFacts struct {
	checked   bool
	rejection *Rejection
	// tokenProblem says why the request carries no usable bearer token,
	// for a secured operation; "": it does, or the operation is open.
	tokenProblem string
	query        url.Values
	path         map[string]string // path parameter values, unescaped
}

// Observer applies the runner's checks to exchanges it did not make, one
// at a time, and keeps what a report needs: the failing results (the first
// MaxKeptFailures, then a count), and tallies per operation and per check.
// It is safe for concurrent use.
type Observer struct {
	r      *runner
	ops    map[string]*operation // by "METHOD /template"
	order  []*operation
	checks []*check
	notes  []string
	fields map[string]bool // contractSecretFields

	mu      sync.Mutex
	started time.Time
	next    int // the next exchange's Index
	checked int
	failed  int
	outside int
	// mocked and unanswered count the exchanges the upstream did not
	// answer (NotReached); mockedOp those of each operation the mock
	// answered.
	mocked, unanswered int
	mockedOp           map[*operation]int
	failures           []*Result
	notKept            int
	// unchecked counts the exchanges whose body the checks did not read
	// (Response.Unchecked), uncheckedWhy the first one's reason.
	unchecked    int
	uncheckedWhy string
	byOp         map[*operation]*opTally
	byCheck      map[string]*Tally
}

type opTally struct {
	exchanges, answered int
	passed, failed      int
	statuses            map[int]bool
	checks              map[string]*Tally
}

// NewObserver makes an Observer of cfg.Spec (nil: the embedded contract).
// Of cfg it reads Spec, Checks and ExcludeChecks, JWTSecret,
// FrameworkStatuses, MaxResponseTime (0: speed is not judged),
// MaxCheckValues, Now, and
// BaseURL (the upstream, for the report only; it may be empty).
func NewObserver(cfg Config) (*Observer, error) {
	if cfg.Spec == nil {
		sp, err := spec.Embedded()
		if err != nil {
			return nil, err
		}
		cfg.Spec = sp
	}
	if cfg.FrameworkStatuses == nil {
		cfg.FrameworkStatuses = DefaultFrameworkStatuses
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.MaxResponseTime < 0 {
		return nil, errors.New("contract: max response time must not be negative")
	}
	if cfg.MaxCheckValues <= 0 {
		cfg.MaxCheckValues = DefaultMaxCheckValues
	}
	for _, list := range [][]string{cfg.Checks, cfg.ExcludeChecks} {
		for _, name := range list {
			if checkByName(name) == nil {
				return nil, fmt.Errorf("contract: unknown check %q (see --help for the list)", name)
			}
		}
	}
	o := &Observer{r: &runner{cfg: &cfg, sp: cfg.Spec}, ops: map[string]*operation{}, fields: contractSecretFields(cfg.Spec)}
	o.r.model, o.r.modelErr = cfg.compiled()
	o.r.setFramework()
	for _, op := range operations(cfg.Spec, o.r.model, &o.notes) {
		if op.untestable != "" {
			o.notes = append(o.notes, fmt.Sprintf("%s %s: not checked: %s", op.method, op.path, op.untestable))
		} else {
			o.order = append(o.order, op)
		}
	}
	for _, op := range o.order {
		o.ops[op.method+" "+op.path] = op
		if o.r.model != nil {
			for _, mo := range o.r.model.Operations {
				if mo.Method == op.method && mo.Path == op.path {
					op.model = mo
				}
			}
		}
	}
	if o.r.modelErr != nil {
		o.notes = append(o.notes, "paging_and_filters is not applied: the contract compiles to no model: "+o.r.modelErr.Error())
	}
	for i := range ObservedChecks {
		c := &ObservedChecks[i]
		if len(cfg.Checks) > 0 && !slices.Contains(cfg.Checks, c.name) || slices.Contains(cfg.ExcludeChecks, c.name) {
			continue
		}
		if c.name == "max_response_time" && cfg.MaxResponseTime == 0 {
			continue
		}
		o.checks = append(o.checks, c)
	}
	o.Reset()
	return o, nil
}

// secret reports whether a body field named name holds a credential.
func (o *Observer) secret(name string) bool { return model.SecretName(name) || o.fields[name] }

// Reset forgets every exchange checked so far.
func (o *Observer) Reset() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.started = o.r.cfg.Now()
	o.next, o.checked, o.failed, o.outside, o.notKept = 0, 0, 0, 0, 0
	o.mocked, o.unanswered = 0, 0
	o.mockedOp = map[*operation]int{}
	o.failures = nil
	o.byOp = map[*operation]*opTally{}
	o.byCheck = map[string]*Tally{}
}

// Check applies the checks to ex and returns the result; nil when
// ex.Method and ex.Template name no operation of the contract. The result's
// Case has Kind Observed, the operation's id, method and path template,
// ex.Request with its credentials redacted, and a running Index.
func (o *Observer) Check(ex *Exchange) *Result {
	if ex == nil {
		return nil
	}
	method := strings.ToUpper(ex.Method)
	if method == "" {
		method = strings.ToUpper(ex.Request.Method)
	}
	op := o.ops[method+" "+ex.Template]
	if op == nil || ex.Template == "" {
		o.mu.Lock()
		o.outside++
		o.mu.Unlock()
		return nil
	}
	at := ex.Time
	if at.IsZero() {
		at = o.r.cfg.Now()
	}
	facts := &observedFacts{checked: ex.RequestChecked, query: url.Values{}}
	if ex.RequestChecked {
		facts.rejection = ex.Rejection
	}
	if u, err := url.Parse(ex.Request.URL); err == nil {
		facts.query = u.Query()
		facts.path = pathValues(op.path, u)
	}
	if op.secured {
		facts.tokenProblem = tokenProblem(ex.Request.Header.Get("Authorization"), o.r.cfg.JWTSecret, at)
	}

	o.mu.Lock()
	index := o.next
	o.next++
	o.mu.Unlock()

	c := &Case{
		Index: index, Operation: op.id, Method: op.method, Path: op.path, Kind: Observed,
		Name: "exchange " + strconv.Itoa(index), Request: keptRequest(ex.Request, o.secret), op: op, obs: facts,
	}
	// Kept with its secret path parameters redacted (the values are in
	// facts.path for the checks): a violation's URL and reproduction,
	// the log and the journal show none.
	c.Request.URL = c.redactPath(c.Request.URL)
	if !ex.Time.IsZero() {
		c.Name += " at " + ex.Time.UTC().Format("2006-01-02T15:04:05.000Z")
	}
	if len(ex.Request.Body) > maxKeptRequestBody {
		c.Name += fmt.Sprintf(" (request body of %d bytes, kept up to %d)", len(ex.Request.Body), maxKeptRequestBody)
	}
	if rej := facts.rejection; rej != nil {
		c.Expect = ExpectRejection
		if rej.Status == http.StatusUnprocessableEntity && len(rej.Items) > 0 {
			c.Field = rej.Items[0].Loc
		}
	} else if facts.checked {
		c.Expect = ExpectNotRejected
	}

	res := &Result{Case: c, Response: ex.Response}
	res.Response.Header = ex.Response.Header.Clone()
	res.Response.Excerpt, res.Response.Skipped = nil, ""
	res.Response.summarize()
	x := o.r.input(res)
	x.now = at
	for _, chk := range o.checks {
		if v := chk.apply(x); v != nil {
			res.Checks = append(res.Checks, CheckResult{Check: chk.name, Passed: v == pass, Expected: clip(v.expected), Got: clip(v.got)})
		}
	}
	if res.Failed() {
		// What the log, the journal and GET /__mock/violations show of
		// the failure is redacted here, once: the exchange's own
		// credentials, the run's secrets, secret fields at any depth.
		x := NewRedactor(Credentials{JWTSecret: string(o.r.cfg.JWTSecret), AdminToken: o.r.cfg.AdminToken})
		x.fields = o.fields
		x.learn(&Result{Case: &Case{Request: ex.Request}, Response: Response{Header: ex.Response.Header, Body: ex.Response.Body}})
		for i := range res.Checks {
			res.Checks[i].Expected, res.Checks[i].Got = x.Text(res.Checks[i].Expected), x.Text(res.Checks[i].Got)
		}
		res.Response.Excerpt = []byte(x.Text(string(res.Response.Excerpt)))
		res.Response.Error = x.Text(res.Response.Error)
		c.Request.URL = x.Text(c.Request.URL)
	}
	res.Response.Body = nil
	if res.Response.Header.Get("Set-Cookie") != "" {
		res.Response.Header = res.Response.Header.Clone()
		res.Response.Header["Set-Cookie"] = redactCookies(res.Response.Header["Set-Cookie"], true)
	}

	o.mu.Lock()
	defer o.mu.Unlock()
	o.checked++
	if u := res.Response.Unchecked; u != "" {
		if o.unchecked == 0 {
			o.uncheckedWhy = c.Name + ": " + u
		}
		o.unchecked++
	}
	t := o.byOp[op]
	if t == nil {
		t = &opTally{statuses: map[int]bool{}, checks: map[string]*Tally{}}
		o.byOp[op] = t
	}
	t.exchanges++
	if s := res.Response.Status; s != 0 {
		t.answered++
		t.statuses[s] = true
	}
	for _, cr := range res.Checks {
		all := o.byCheck[cr.Check]
		if all == nil {
			all = &Tally{Name: cr.Check}
			o.byCheck[cr.Check] = all
		}
		per := t.checks[cr.Check]
		if per == nil {
			per = &Tally{Name: cr.Check}
			t.checks[cr.Check] = per
		}
		if cr.Passed {
			all.Passed++
			per.Passed++
			t.passed++
		} else {
			all.Failed++
			per.Failed++
			t.failed++
		}
	}
	if res.Failed() {
		o.failed++
		if len(o.failures) < MaxKeptFailures {
			o.failures = append(o.failures, res)
		} else {
			o.notKept++
		}
	}
	return copyResult(res)
}

// NotReached counts an exchange the upstream did not answer: the mock
// answered it instead (mocked: the upstream was unreachable, lacks the
// operation, or the operation is always mocked), or moviemock answered it
// with an error of its own (a 502, 504 or 413). method and template name
// the contract operation the request fell under ("" template: none). Such
// an exchange is not checked; a session whose exchanges none reached the
// upstream checked nothing.
func (o *Observer) NotReached(method, template string, mocked bool) {
	op := o.ops[strings.ToUpper(method)+" "+template]
	o.mu.Lock()
	defer o.mu.Unlock()
	if !mocked {
		o.unanswered++
		return
	}
	o.mocked++
	if op != nil && template != "" {
		o.mockedOp[op]++
	}
}

// copyResult is a copy of res the caller may change: the kept result is
// not.
func copyResult(res *Result) *Result {
	cp := *res
	cp.Checks = slices.Clone(res.Checks)
	return &cp
}

// Failures lists the failing results kept so far, oldest first; they are
// copies.
func (o *Observer) Failures() []*Result {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make([]*Result, len(o.failures))
	for i, res := range o.failures {
		out[i] = copyResult(res)
	}
	return out
}

// Counts says how many exchanges were checked (those of a contract
// operation) and how many of them failed a check.
func (o *Observer) Counts() (checked, failed int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.checked, o.failed
}

// Summary is every count of the exchanges so far, as a report's summary has
// them (its Checks and Operations aside).
func (o *Observer) Summary() ObservedSummary {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.summary()
}

// summary is the counts of ObservedSummary; o.mu is held.
func (o *Observer) summary() ObservedSummary {
	s := ObservedSummary{Exchanges: o.checked, Failed: o.failed, NotKept: o.notKept, Outside: o.outside,
		Mocked: o.mocked, Unanswered: o.unanswered}
	for _, t := range o.byCheck {
		s.Violations += t.Failed
	}
	return s
}

// Report is everything observed so far, for WriteText, WriteJSON,
// WriteJUnit and WriteHTML: the failing exchanges kept, per-operation and
// per-check tallies, and the coverage of operations and statuses seen.
func (o *Observer) Report() *Report {
	o.mu.Lock()
	defer o.mu.Unlock()
	now := o.r.cfg.Now()
	rep := &Report{
		BaseURL: o.r.cfg.BaseURL, Spec: o.r.sp.Source(), Started: o.started, Duration: now.Sub(o.started),
		Notes:        slices.Clone(o.notes),
		Credentials:  Credentials{JWTSecret: string(o.r.cfg.JWTSecret), AdminToken: o.r.cfg.AdminToken},
		secretFields: o.fields,
	}
	counts := o.summary()
	sum := &counts
	sum.perOperation = map[string][]Tally{}
	for _, res := range o.failures {
		rep.Results = append(rep.Results, copyResult(res))
	}
	if o.outside > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("%d exchanges matched no operation of the contract and were not checked", o.outside))
	}
	if o.unchecked > 0 {
		rep.Notes = append(rep.Notes, uncheckedNote(o.unchecked, o.uncheckedWhy))
	}
	if o.notKept > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("%d failing exchanges after the first %d are counted but not listed", o.notKept, MaxKeptFailures))
	}
	for _, c := range ObservedChecks {
		if t := o.byCheck[c.name]; t != nil {
			sum.Checks = append(sum.Checks, *t)
		}
	}
	for _, op := range o.order {
		cov := newCoverage(op)
		cov.Mocked = o.mockedOp[op]
		t := o.byOp[op]
		if t == nil {
			cov.classify(nil)
			rep.Coverage = append(rep.Coverage, cov)
			continue
		}
		name := op.id + " " + op.method + " " + op.path
		sum.Operations = append(sum.Operations, Tally{Name: name, Cases: t.exchanges, Passed: t.passed, Failed: t.failed})
		for _, c := range ObservedChecks {
			if ct := t.checks[c.name]; ct != nil {
				sum.perOperation[name] = append(sum.perOperation[name], *ct)
			}
		}
		cov.Cases, cov.Sent, cov.Answered, cov.Kinds[Observed] = t.exchanges, t.exchanges, t.answered, t.exchanges
		cov.classify(t.statuses)
		rep.Coverage = append(rep.Coverage, cov)
	}
	rep.Observed = sum
	return rep
}

// ObservedSummary is what a report of observed exchanges (Observer.Report)
// counts beyond the failing results it lists.
type ObservedSummary struct {
	Exchanges int `json:"exchanges"` // exchanges of a contract operation, checked
	Failed    int `json:"failed"`    // of them, those with a failed check
	// NotKept counts the failing exchanges after MaxKeptFailures: in Failed,
	// not in the report's Results.
	NotKept int `json:"not_kept,omitempty"`
	// Outside counts exchanges the upstream answered that no operation of
	// the contract describes: not checked.
	Outside int `json:"outside_contract,omitempty"`
	// Violations counts the failed checks: an exchange (in Failed) may
	// have several.
	Violations int `json:"violations"`
	// Mocked counts the exchanges the mock answered instead of the
	// upstream, Unanswered those moviemock answered with an error of its
	// own (the upstream failed): neither reached the upstream, neither is
	// checked.
	Mocked     int     `json:"mocked,omitempty"`
	Unanswered int     `json:"unanswered,omitempty"`
	Checks     []Tally `json:"checks"`
	Operations []Tally `json:"operations"` // Cases: exchanges
	// perOperation is each operation's tally per check, for JUnit.
	perOperation map[string][]Tally
}

// Total counts every exchange: those that reached the upstream and those
// that did not.
func (o *ObservedSummary) Total() int { return o.Reached() + o.Mocked + o.Unanswered }

// Reached counts the exchanges the upstream answered: checked, or outside
// the contract.
func (o *ObservedSummary) Reached() int { return o.Exchanges + o.Outside }

// keptRequest is req as a report keeps it: credentials redacted (secret:
// the secret fields of its body), the body bounded.
func keptRequest(req Request, secret func(string) bool) Request {
	out := req
	out.Header = req.Header.Clone()
	for _, name := range []string{"Authorization", "Proxy-Authorization"} {
		if vs := out.Header.Values(name); len(vs) > 0 {
			for i, v := range vs {
				vs[i] = redactAuthorization(v)
			}
			out.Header[http.CanonicalHeaderKey(name)] = vs
		}
	}
	for name, vs := range out.Header {
		switch http.CanonicalHeaderKey(name) {
		case "Authorization", "Proxy-Authorization", "Cookie":
			continue
		}
		for i, v := range vs {
			if model.SecretHeader(name, v) { // X-Api-Key, X-Session-Id, a JWT under any name
				vs[i] = model.Redacted
			}
		}
	}
	if vs := out.Header.Values("Cookie"); len(vs) > 0 {
		out.Header["Cookie"] = redactCookies(vs, false)
	}
	out.Body = redactBody(req.Header.Get("Content-Type"), req.Body, secret)
	if len(out.Body) > maxKeptRequestBody {
		out.Body = out.Body[:maxKeptRequestBody]
	}
	return out
}

// redactAuthorization keeps an Authorization value's scheme when it is a
// registered one (model.RedactHeader): "Bearer [redacted]"; of a long
// bearer token its first 8 characters, as the Redactor shows a token it
// knows: "Bearer eyJhbGci…". Any other value is blanked whole: "SECRET
// rest" shows nothing of its first word.
func redactAuthorization(v string) string {
	scheme, cred, found := strings.Cut(strings.TrimSpace(v), " ")
	if cred = strings.TrimSpace(cred); found && strings.EqualFold(scheme, "bearer") && len(cred) > 16 {
		return scheme + " " + cred[:8] + "…"
	}
	return model.RedactHeader("Authorization", v)
}

// redactCookies keeps cookie names: "session=[redacted]"; of a Set-Cookie
// (set) the attributes after the value too.
func redactCookies(vs []string, set bool) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		if set {
			first, attrs, _ := strings.Cut(v, ";")
			name, _, _ := strings.Cut(first, "=")
			out[i] = strings.TrimSpace(name) + "=[redacted]"
			if attrs != "" {
				out[i] += ";" + attrs
			}
			continue
		}
		var parts []string
		for _, c := range strings.Split(v, ";") {
			name, _, _ := strings.Cut(c, "=")
			if name = strings.TrimSpace(name); name != "" {
				parts = append(parts, name+"=[redacted]")
			}
		}
		out[i] = strings.Join(parts, "; ")
	}
	return out
}

// redactBody hides the secret fields (secret) of a form or JSON body, at
// any depth of the JSON.
func redactBody(contentType, body string, secret func(string) bool) string {
	switch {
	case strings.HasPrefix(contentType, "application/x-www-form-urlencoded"):
		parts := strings.Split(body, "&")
		changed := false
		for i, p := range parts {
			name, _, _ := strings.Cut(p, "=")
			if n, err := url.QueryUnescape(name); err == nil && secret(n) {
				parts[i], changed = name+"=%5Bredacted%5D", true
			}
		}
		if changed {
			return strings.Join(parts, "&")
		}
	case strings.Contains(contentType, "json"):
		return redactFields(body, secret)
	}
	return body
}

// pathValues reads the template's parameters from the request path. The
// template is matched against the path's last segments: a proxy may serve
// the API under a prefix.
func pathValues(template string, u *url.URL) map[string]string {
	tsegs := strings.Split(strings.Trim(template, "/"), "/")
	psegs := strings.Split(strings.Trim(u.EscapedPath(), "/"), "/")
	if len(psegs) < len(tsegs) {
		return nil
	}
	psegs = psegs[len(psegs)-len(tsegs):]
	out := map[string]string{}
	for i, t := range tsegs {
		if strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}") {
			if v, err := url.PathUnescape(psegs[i]); err == nil {
				out[t[1:len(t)-1]] = v
			}
		}
	}
	return out
}

// tokenProblem says why an Authorization value is no usable bearer token
// at time at, or "" when it is one (as far as can be told: without a
// secret, any JWT is).
func tokenProblem(auth string, secret []byte, at time.Time) string {
	if auth == "" {
		return "a request without an Authorization header"
	}
	// FastAPI's get_authorization_scheme_param: the scheme is what comes
	// before the first space, compared without case.
	scheme, token, _ := strings.Cut(auth, " ")
	if !strings.EqualFold(scheme, "bearer") {
		return "a request whose Authorization header is not a bearer token"
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return "a bearer token that is not a JWT"
	}
	for _, p := range parts[:2] {
		raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(p, "="))
		var obj map[string]any
		if err != nil || json.Unmarshal(raw, &obj) != nil {
			return "a bearer token that is not a JWT"
		}
	}
	if secret == nil {
		return ""
	}
	_, err := jwt.Parse(token, func(*jwt.Token) (any, error) { return secret, nil },
		jwt.WithValidMethods([]string{"HS256", "HS384", "HS512"}), jwt.WithTimeFunc(func() time.Time { return at }), jwt.WithLeeway(tokenLeeway))
	switch {
	case err == nil:
		return ""
	case errors.Is(err, jwt.ErrTokenExpired):
		return "a JWT that expired before the request (" + at.UTC().Format(time.RFC3339) + ")"
	case errors.Is(err, jwt.ErrTokenNotValidYet):
		return "a JWT not valid yet at the request (" + at.UTC().Format(time.RFC3339) + ")"
	case errors.Is(err, jwt.ErrTokenMalformed):
		return "a bearer token that is not a JWT"
	}
	return "a JWT whose signature does not verify with --jwt-secret"
}

// checkRequestConformance: the client sent what the contract accepts.
func checkRequestConformance(x *checkInput) *verdict {
	c := x.c()
	if c.Kind != Observed || c.obs == nil || !c.obs.checked {
		return nil
	}
	if c.obs.rejection == nil {
		return pass
	}
	return fail("a request the contract accepts", "%s", describeRejection(c.obs.rejection))
}

// describeRejection is "422: body.title: Field required; query.limit: …"
// or "400: There was an error parsing the body".
func describeRejection(rej *Rejection) string {
	if rej.Status != http.StatusUnprocessableEntity || len(rej.Items) == 0 {
		detail := rej.Detail
		if detail == "" {
			detail = http.StatusText(rej.Status)
		}
		return strconv.Itoa(rej.Status) + ": " + detail
	}
	var parts []string
	for i, it := range rej.Items {
		if i == 5 {
			parts = append(parts, fmt.Sprintf("and %d more", len(rej.Items)-5))
			break
		}
		var loc []string
		for _, l := range it.Loc {
			loc = append(loc, fmt.Sprint(l))
		}
		parts = append(parts, strings.Join(loc, ".")+": "+it.Msg)
	}
	return strconv.Itoa(rej.Status) + ": " + strings.Join(parts, "; ")
}

// checkPaging is paging_and_filters for an observed exchange (the
// sequences give the runner's verdicts themselves): a 200 of a list holds
// at most limit (or size) items, and only items the filters and the
// parent in its path select. What cannot be compared safely is not judged.
func checkPaging(x *checkInput) *verdict {
	c := x.c()
	if c.Kind != Observed || c.obs == nil || c.op.model == nil || x.resp().Status != c.op.success() {
		return nil
	}
	mo := c.op.model
	if (mo.Kind != model.List && mo.Kind != model.NestedList) || (c.obs.checked && c.obs.rejection != nil) {
		return nil
	}
	var items []any
	var ok bool
	switch mo.Shape {
	case model.ArrayShape:
		items, ok = x.json.([]any)
	case model.PageShape:
		var page map[string]any
		if page, ok = x.json.(map[string]any); ok {
			items, ok = page["items"].([]any)
		}
	}
	if !ok {
		return nil // response_schema_conformance reports it
	}
	applied := false
	for _, p := range []string{mo.Paging.Limit, mo.Paging.Size} {
		raw, given := singleValue(c.obs.query, p)
		if p == "" || !given {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(raw))
		if err != nil || n < 0 {
			continue
		}
		applied = true
		if len(items) > n {
			return fail(fmt.Sprintf("at most %d items (%s=%d)", n, p, n), "%d items", len(items))
		}
	}
	selects := func(field, raw, why string) *verdict {
		for i, item := range items {
			m, ok := item.(map[string]any)
			if !ok {
				continue
			}
			got, has := m[field]
			if !has {
				continue
			}
			equal, comparable := sameValue(got, raw)
			if !comparable {
				continue
			}
			applied = true
			if !equal {
				return fail(fmt.Sprintf("only items whose %s is %s (%s)", field, strconv.Quote(raw), why), "item %d has %s %s", i, field, quoteAny(got))
			}
		}
		return nil
	}
	for _, f := range mo.Filters {
		if raw, given := singleValue(c.obs.query, f); given {
			if v := selects(f, raw, "the "+f+" filter"); v != nil {
				return v
			}
		}
	}
	if mo.Kind == model.NestedList && mo.ParentParam != "" && !mo.Scoped {
		if raw, given := c.obs.path[mo.ParentParam]; given {
			if v := selects(mo.ParentParam, raw, "the parent in the path"); v != nil {
				return v
			}
		}
	}
	if !applied {
		return nil
	}
	return pass
}

// singleValue is a query parameter's value when it is given once, or
// several times alike; false when absent or ambiguous.
func singleValue(q url.Values, name string) (string, bool) {
	vs := q[name]
	if name == "" || len(vs) == 0 {
		return "", false
	}
	for _, v := range vs[1:] {
		if v != vs[0] {
			return "", false
		}
	}
	return vs[0], true
}

// sameValue compares an item's JSON value with a query or path value as
// FastAPI would have parsed it; comparable is false when that cannot be
// told safely.
func sameValue(got any, raw string) (equal, comparable bool) {
	switch g := got.(type) {
	case nil:
		return false, true // no query value parses as null
	case float64:
		n, err := strconv.ParseFloat(strings.TrimSpace(raw), 64)
		if err != nil {
			return false, false
		}
		return n == g, true
	case string:
		return g == raw, true
	case bool:
		// pydantic's lax booleans.
		switch strings.ToLower(strings.TrimSpace(raw)) {
		case "true", "1", "yes", "on", "t", "y":
			return g, true
		case "false", "0", "no", "off", "f", "n":
			return !g, true
		}
	}
	return false, false
}

// checkAuth is auth_required: the runner's rule (checkAuthRequired), and
// for an observed exchange of a secured operation, that a request without
// a usable bearer token is not answered with a 2xx.
func checkAuth(x *checkInput) *verdict {
	c := x.c()
	if s := x.resp().Status; c.Kind == Observed && c.op.secured && c.obs != nil && c.obs.tokenProblem != "" && s/100 == 2 {
		return fail("401 with WWW-Authenticate: Bearer", "a %d to %s", s, c.obs.tokenProblem)
	}
	return checkAuthRequired(x)
}
