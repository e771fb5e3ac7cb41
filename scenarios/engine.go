package scenarios

import (
	"bytes"
	"container/list"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/openapiprofile"
	"github.com/moviemock/moviemock/internal/status"
)

// Request headers that choose what answers.
const (
	HeaderScenario = "X-Mock-Scenario" // a scenario for this request; "none" for none
	HeaderSession  = "X-Mock-Session"  // a state machine of the client's own
	HeaderError    = "X-Mock-Error"    // set on moviemock's own error answers
)

// Defaults of Options.
const (
	DefaultMaxSessions  = 1000
	DefaultSessionTTL   = 30 * time.Minute
	DefaultJournalSize  = 1000
	DefaultJournalBytes = 64 << 20
	DefaultMaxBody      = 1 << 20
)

// Options tune an Engine. The zero value is usable.
type Options struct {
	Scenario    string        // active for every request from the start; "": none
	MaxSessions int           // sessions kept at once; the least recently used goes first
	SessionTTL  time.Duration // a session idle this long is forgotten
	JournalSize int           // requests the journal keeps; a negative size keeps none
	// JournalBytes bounds the memory the journal holds (0:
	// DefaultJournalBytes): the oldest entries go first. An entry keeps
	// at most some 70 KiB of what was sent (see Entry.Truncated).
	JournalBytes int64
	MaxBody      int64            // bytes of a form read to match and journal it
	Now          func() time.Time // nil: time.Now
	Seed         uint64           // random delays and generated data; 0: 1
	// NotFound gives the detail of each operation's own 404, by operationId,
	// for Prefer: code=404 (default "Not Found").
	NotFound map[string]string
	Logger   *slog.Logger
	// Refusals words the statuses a scripted Prefer: code=… answers
	// without a body of its own under the plain-OpenAPI profile, in the
	// operation's declared shape; nil: FastAPI's.
	Refusals *openapiprofile.Profile
	// OnReset is told of every reset, so that what the mock keeps beside
	// the engine (the writes) goes with it: the session's id, or "" for a
	// reset of everything.
	OnReset func(session string)
	// Authorize is the backend's security dependency, which FastAPI runs
	// before an endpoint, for the operation method template (a path of
	// the contract): when the operation demands a token the request
	// lacks, it answers the 401 and reports false. A scripted answer
	// stands for the endpoint's, so it comes after (see Rule.BeforeAuth).
	// nil: nothing is secured.
	Authorize func(w http.ResponseWriter, r *http.Request, method, template string) bool
	// Served tells the control panel what the mock serves, which the
	// engine does not know: the contract's operations and the data
	// (GET /__mock/overview). nil: nothing is known.
	Served func() Served
	// Records pages a collection's records as the session (""; the
	// global state) is served them (GET /__mock/data/{collection}); an
	// unknown collection is an error wrapping ErrNoCollection. nil: no
	// data to browse.
	Records func(collection, session string, offset, limit int) (Records, error)
	// Annotate gives every request that Journaling or Handler passes on a
	// note in its context, which the handler behind fills with
	// SetAnsweredBy and AddViolations, and has the journal say who
	// answered (Entry.AnsweredBy). Off, a request pays nothing for it.
	Annotate bool
}

// Engine answers requests by the active scenarios, keeping one state
// machine per scenario globally and one per session. It is safe for
// concurrent use.
type Engine struct {
	opts    Options
	set     atomic.Pointer[Set]
	active  atomic.Pointer[string]
	journal journal
	started time.Time

	mu       sync.Mutex
	global   map[string]*instance
	sessions map[string]*session
	lru      list.List // the sessions, most recently used first: see sessions.go
	rng      *rand.Rand
	dynamic  uint64 // generated answers so far, for their seeds
}

// instance is one run of a scenario's state machine.
type instance struct {
	sc    *Scenario
	state string
	seen  []int // requests each rule's match held for
	taken []int // requests each rule answered
	// opened is when each rule's window opened (see windowed); nil until
	// a rule with a window counts.
	opened []time.Time
}

func newInstance(sc *Scenario) *instance {
	return &instance{sc: sc, state: sc.Initial, seen: make([]int, len(sc.Rules)), taken: make([]int, len(sc.Rules))}
}

// enter moves to state. The counts of rules that wait for that state
// start over, so "times: 3" in a state means three times per visit.
func (in *instance) enter(state string) {
	in.state = state
	for i, r := range in.sc.Rules {
		if slices.Contains(r.InStates, state) {
			in.seen[i], in.taken[i] = 0, 0
			if in.opened != nil {
				in.opened[i] = time.Time{}
			}
		}
	}
}

// New builds an Engine over set.
func New(set *Set, opts Options) (*Engine, error) {
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = DefaultMaxSessions
	}
	if opts.SessionTTL <= 0 {
		opts.SessionTTL = DefaultSessionTTL
	}
	if opts.JournalSize == 0 {
		opts.JournalSize = DefaultJournalSize
	}
	if opts.JournalBytes <= 0 {
		opts.JournalBytes = DefaultJournalBytes
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Seed == 0 {
		opts.Seed = 1
	}
	if opts.Scenario != "" {
		if _, ok := set.Get(opts.Scenario); !ok {
			return nil, fmt.Errorf("scenario %q: no such scenario (known: %s)", opts.Scenario, strings.Join(set.Names(), ", "))
		}
	}
	e := &Engine{
		opts:     opts,
		global:   map[string]*instance{},
		sessions: map[string]*session{},
		rng:      rand.New(rand.NewPCG(opts.Seed, 0x5ce4a7105)),
		started:  opts.Now(),
	}
	e.journal.size = max(0, opts.JournalSize)
	e.journal.maxBytes = opts.JournalBytes
	e.set.Store(set)
	e.active.Store(&opts.Scenario)
	return e, nil
}

// Set is the scenarios the engine runs now.
func (e *Engine) Set() *Set { return e.set.Load() }

// Swap replaces the scenarios, as after an edit of their files. State
// machines of unchanged scenarios keep their state; those of changed ones
// start over. An active scenario that is gone is deactivated.
func (e *Engine) Swap(set *Set) {
	e.set.Store(set)
	if name := *e.active.Load(); name != "" {
		if _, ok := set.Get(name); !ok {
			e.active.Store(new(string))
			if e.opts.Logger != nil {
				e.opts.Logger.Warn("active scenario removed by reload; none is active now", "scenario", name)
			}
		}
	}
}

// Active is the scenario every request without a choice of its own gets.
func (e *Engine) Active() string { return *e.active.Load() }

// Activate makes name the global scenario ("" for none), its state machine
// started afresh.
func (e *Engine) Activate(name string) error {
	if name != "" {
		if _, ok := e.Set().Get(name); !ok {
			return e.unknown(name)
		}
	}
	e.mu.Lock()
	delete(e.global, name)
	e.mu.Unlock()
	e.active.Store(&name)
	return nil
}

func (e *Engine) unknown(name string) error {
	return fmt.Errorf("no scenario %q (known: %s)", name, strings.Join(e.Set().Names(), ", "))
}

// Reset puts everything back as it was at start: the start-up scenario
// active, every state machine and session forgotten, the journal empty.
func (e *Engine) Reset() {
	e.mu.Lock()
	e.global = map[string]*instance{}
	e.sessions = map[string]*session{}
	e.lru.Init()
	e.mu.Unlock()
	name := e.opts.Scenario
	if _, ok := e.Set().Get(name); !ok {
		name = ""
	}
	e.active.Store(&name)
	e.journal.clear("")
	if e.opts.OnReset != nil {
		e.opts.OnReset("")
	}
}

// trace is what the engine did with one request, for the journal.
type trace struct {
	session, scenario, rule, state, prefer, fault string
	form                                          map[string]string
	body                                          json.RawMessage
	bodyBytes                                     int
	bodyNote                                      string
	bodyCut                                       bool // a body too large to keep
	// secrets are the credentials the request carried (its secret
	// headers, query parameters and fields): blanked where its answer
	// echoes one.
	secrets []string
	facts   *facts // what was worked out of the request: ownFacts, once serve has begun
	// ownFacts holds facts in the trace's own memory: one allocation a
	// request fewer.
	ownFacts facts
	// answeredBy is "scenario" when the engine answers itself, for
	// Entry.AnsweredBy (with Options.Annotate).
	answeredBy string
}

// Handler wraps the mock's normal handler: every request is journaled, and
// answered by the scenario that applies to it (its own, its session's, or
// the global one) when one of its rules matches, else by next. Inside
// Journaling it leaves the journaling to that.
func (e *Engine) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if jw, ok := w.(*journaled); ok && jw.e == e {
			e.serve(jw.Writer, r, next, &jw.tr)
			return
		}
		e.record(w, r, func(jw *journaled, r *http.Request) { e.serve(jw.Writer, r, next, &jw.tr) })
	})
}

// Journaling journals every request that passes through it, for a Handler
// further in to fill in what the scenarios did. It goes outside the layers
// that answer requests themselves, which Handler never sees: Starlette's
// CORS answers preflights. The layers between must pass the
// ResponseWriter on as they got it.
func (e *Engine) Journaling(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.record(w, r, func(jw *journaled, r *http.Request) { next.ServeHTTP(jw, r) })
	})
}

// journaled is the writer of a request being journaled, and its trace.
type journaled struct {
	*status.Writer // the request log's, when there is one
	e              *Engine
	tr             trace
	own            status.Writer // Writer, when there is no log
	seq            int64         // the journal entry's, once recorded
	answer         answerCopy    // the answer's body, as far as the journal keeps it

	// What Started journals: the request, its note and when it came.
	r     *http.Request
	n     *note
	start time.Time
}

// Started journals the request as its answer begins (status.Starter).
func (jw *journaled) Started() {
	if jw.Tee != nil {
		jw.answer.expect(jw.Header())
	}
	jw.e.addEntry(jw.r, jw, jw.n, jw.start)
}

// record runs serve with a journaled writer, and the request with a note
// (Options.Annotate): the request goes into the journal as its answer
// begins (or as serve returns without one), and the fault of a scenario
// into the request log.
func (e *Engine) record(w http.ResponseWriter, r *http.Request, serve func(*journaled, *http.Request)) {
	start := e.opts.Now()
	var n *note
	if e.opts.Annotate {
		r, n = annotated(r, &e.journal)
	}
	jw := &journaled{e: e}
	if sw, ok := w.(*status.Writer); ok {
		jw.Writer = sw
	} else {
		jw.own.ResponseWriter = w
		jw.Writer = &jw.own
	}
	if e.journal.size > 0 {
		// Journaled as the answer begins: a client that has seen any of
		// it, even a reset, finds the request in the journal.
		jw.r, jw.n, jw.start = r, n, start
		jw.OnStart = jw
		jw.Tee = &jw.answer
	}
	serve(jw, r)
	jw.Start(0) // no answer at all: a hang the client gave up on
	jw.Fault = jw.tr.fault
	if jw.Tee != nil {
		jw.Tee = nil
		// An answer a writer further out gave instead (status.Replacer)
		// is not the one the journal saw written: it keeps none.
		if jw.seq != 0 && jw.Code != 0 && jw.Replaced == "" {
			e.journal.respond(jw.seq, jw.answer.response(jw.Header(), jw.Bytes, jw.tr.secrets))
		}
		jw.answer.release()
	}
}

func (e *Engine) serve(w *status.Writer, r *http.Request, next http.Handler, tr *trace) {
	h := r.Header
	// The header's own map: the server gave it canonical names, and
	// canonicalising these constant ones again on every request was a
	// fiftieth of a read.
	sessionID := first(h[HeaderSession])
	name, named := "", false
	if vs := h[HeaderScenario]; len(vs) > 0 {
		name, named = strings.TrimSpace(vs[0]), true
		if name == "none" {
			name = ""
		}
	}
	if sessionID != "" {
		if err := CheckSessionID(sessionID); err != nil {
			tr.answeredBy = "scenario"
			writeMockError(w, http.StatusBadRequest, HeaderSession+": "+err.Error())
			return
		}
	}
	tr.session = sessionID
	if sessionID != "" {
		// A request naming a session starts it, scenario or not: the
		// mock keeps the session's writes, which the control API resets.
		e.mu.Lock()
		e.session(sessionID)
		e.mu.Unlock()
	}
	tr.ownFacts = facts{e: e, r: r, set: e.Set()}
	f := &tr.ownFacts
	tr.facts = f
	if e.journal.size > 0 && writes(r.Method) {
		if fastapi.IsForm(h.Get("Content-Type")) {
			tr.form = f.journalForm(tr)
		} else {
			f.journalBody(tr)
		}
	}
	if prefer := first(h["Prefer"]); prefer != "" {
		tr.answeredBy = "scenario" // before the answer begins; undone if none
		if e.prefer(w, f, prefer, tr) {
			return
		}
		tr.answeredBy = ""
	}
	if sessionID == "" && !named && *e.active.Load() == "" {
		next.ServeHTTP(w, f.r)
		return
	}
	sc, err := e.pick(f.set, sessionID, name, named)
	if err != nil {
		tr.answeredBy = "scenario"
		writeMockError(w, http.StatusBadRequest, fmt.Sprintf("%s: %v", HeaderScenario, err))
		return
	}
	if sc == nil {
		next.ServeHTTP(w, f.r)
		return
	}
	tr.scenario = sc.Name
	if sc.closes {
		w.Header().Set("Connection", "close") // see closesConnections
	}
	if sc.matchesForm {
		f.formFields() // read now: not under the engine's lock
	}
	rule := e.choose(sc, sessionID, f, tr)
	if rule == nil {
		next.ServeHTTP(w, f.r)
		return
	}
	tr.answeredBy = "scenario"
	e.answer(w, f.r, next, rule, tr)
}

// pick finds the scenario for a request: the one it names, its session's,
// or the global one.
func (e *Engine) pick(set *Set, sessionID, name string, named bool) (*Scenario, error) {
	if !named && sessionID != "" {
		e.mu.Lock()
		if s := e.sessions[sessionID]; s != nil && s.scenario != "" {
			name, named = s.scenario, true
		}
		e.mu.Unlock()
	}
	if !named {
		name = *e.active.Load()
	}
	if name == "" {
		return nil, nil
	}
	sc, ok := set.Get(name)
	if !ok {
		return nil, e.unknown(name)
	}
	return sc, nil
}

// facts is what rules match a request on, each piece worked out once, and
// only when asked for.
type facts struct {
	e   *Engine
	r   *http.Request // carries the parsed form once it is read
	set *Set

	routed bool
	tmpl   *pathInfo
	vars   map[string]string

	queried bool
	query   url.Values

	formRead bool
	form     fastapi.Form
}

// route is the contract path the request falls under, with its
// parameters; nil when none.
func (f *facts) route() (*pathInfo, map[string]string) {
	if !f.routed {
		f.tmpl, f.vars = f.set.index.match(f.r)
		f.routed = true
	}
	return f.tmpl, f.vars
}

func (f *facts) queryValues() url.Values {
	if !f.queried {
		f.query = f.r.URL.Query()
		f.queried = true
	}
	return f.query
}

// formFields is the request's form, nil when it has none or it does not
// parse (the mock then answers as FastAPI does). The body is read once:
// the mock gets it back, and the parsed form with it.
func (f *facts) formFields() fastapi.Form {
	if f.formRead {
		return f.form
	}
	f.formRead = true
	ct := f.r.Header.Get("Content-Type")
	if !fastapi.IsForm(ct) {
		return fastapi.Form{}
	}
	b := f.e.body(f.r)
	if b == nil {
		return fastapi.Form{}
	}
	form, err := fastapi.ParseFormBody(ct, bytes.NewReader(b), f.e.opts.MaxBody)
	if err != nil {
		return fastapi.Form{}
	}
	f.form = form
	f.r = fastapi.WithForm(f.r, form, int64(len(b)))
	return form
}

// body reads up to MaxBody bytes of r's body and puts them back, so the
// mock reads the same body after.
func (e *Engine) body(r *http.Request) []byte {
	if r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, e.opts.MaxBody+1))
	rest := r.Body
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(b), rest), rest}
	if err != nil || int64(len(b)) > e.opts.MaxBody {
		return nil
	}
	return b
}

// writes reports whether a request with method may carry a body the
// journal shows.
func writes(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

// journalForm is the request's form for the journal, fields the contract
// marks as passwords blanked.
func (f *facts) journalForm(tr *trace) map[string]string {
	form := f.formFields()
	if form.Len() == 0 {
		return nil
	}
	p, _ := f.route()
	out := make(map[string]string, form.Len())
	for k, v := range form.Fields {
		if model.SecretName(k) || (p != nil && p.secret(f.r.Method, k)) || model.SecretValue(v) {
			tr.secrets = appendSecret(tr.secrets, v)
			v = redacted
		}
		out[k] = v
	}
	for k, file := range form.Files {
		out[k] = fmt.Sprintf("[file %q, %d bytes]", file.Filename, len(file.Content))
	}
	return out
}

const redacted = model.Redacted

// choose runs the request through sc's state machine (the session's own
// when sessionID is set) and returns the rule that answers, or nil.
func (e *Engine) choose(sc *Scenario, sessionID string, f *facts, tr *trace) *Rule {
	e.mu.Lock()
	defer e.mu.Unlock()
	inst := e.instance(sc, sessionID)
	defer func() { tr.state = inst.state }()
	for i, rule := range sc.Rules {
		if !rule.matches(f, inst.state) {
			continue
		}
		if rule.Window > 0 {
			inst.windowed(i, rule.Window, e.opts.Now())
		}
		inst.seen[i]++
		if rule.Times > 0 && inst.taken[i] >= rule.Times {
			continue
		}
		if rule.Every > 0 && inst.seen[i]%rule.Every != 0 {
			continue
		}
		inst.taken[i]++
		if rule.Then != "" {
			inst.enter(rule.Then)
		}
		tr.rule = rule.Label
		return rule
	}
	return nil
}

// instance returns sc's state machine, global or the session's, creating
// it (and the session) on first use. The caller holds e.mu.
func (e *Engine) instance(sc *Scenario, sessionID string) *instance {
	instances := e.global
	if sessionID != "" {
		s := e.session(sessionID)
		s.requests++
		instances = s.instances
	}
	inst := instances[sc.Name]
	if inst == nil || inst.sc != sc && !bytes.Equal(inst.sc.source, sc.source) {
		inst = newInstance(sc)
		instances[sc.Name] = inst
	}
	inst.sc = sc
	return inst
}

func (r *Rule) matches(f *facts, state string) bool {
	x := f.set.index
	if len(r.InStates) > 0 && !slices.Contains(r.InStates, state) {
		return false
	}
	if len(r.Methods) > 0 && !slices.Contains(r.Methods, f.r.Method) {
		return false
	}
	if r.Exact != "" && f.r.URL.Path != r.Exact {
		return false
	}
	tmpl, vars := f.route()
	if r.Template != "" && (tmpl == nil || tmpl.template != r.Template) {
		return false
	}
	for _, m := range r.Params {
		v, ok := vars[m.name]
		if !m.matches(x, v, ok) {
			return false
		}
	}
	for _, m := range r.Query {
		vs := f.queryValues()[m.name]
		v, ok := "", len(vs) > 0
		if ok {
			v = vs[len(vs)-1] // FastAPI reads the last
		}
		if !m.matches(x, v, ok) {
			return false
		}
	}
	for _, m := range r.Headers {
		vs := f.r.Header.Values(m.name)
		v, ok := "", len(vs) > 0
		if ok {
			v = vs[0]
		}
		if !m.matches(x, v, ok) {
			return false
		}
	}
	for _, m := range r.Form {
		v, ok := f.formFields().Fields[m.name]
		if !m.matches(x, v, ok && v != "") {
			return false
		}
	}
	return true
}

func (m *valueMatch) matches(x *contractIndex, raw string, present bool) bool {
	if m.present != nil {
		return present == *m.present
	}
	if !present {
		return false
	}
	if m.re != nil {
		return m.re.MatchString(raw)
	}
	if m.input != nil {
		v, item := m.input.Check(x.sp, raw, true)
		if item != nil {
			return false
		}
		raw = canonical(m.input, v)
	}
	return raw == *m.equals
}

// writeMockError answers a request moviemock itself cannot make sense of
// (an unknown scenario, an unknown example): 400 with a detail that says
// so, marked with X-Mock-Error so it is never taken for the backend's.
func writeMockError(w http.ResponseWriter, code int, detail string) {
	w.Header().Set(HeaderError, "true")
	fastapi.WriteDetail(w, code, "moviemock: "+detail)
}
