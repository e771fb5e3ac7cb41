package scenarios

import (
	"github.com/moviemock/moviemock/fixtures"

	"regexp"
	"time"

	"github.com/moviemock/moviemock/internal/fastapi"
)

// Scenario is a named state machine of rules, loaded from one file.
type Scenario struct {
	Name        string
	Description string
	Initial     string   // the state a fresh instance starts in
	States      []string // every state a rule names, Initial first
	Rules       []*Rule
	File        string
	Line        int
	// Shipped says the scenario is one built into moviemock, not one of a
	// folder's (whose File may begin as the shipped ones' do).
	Shipped bool

	matchesForm bool   // a rule matches on form fields
	closes      bool   // a rule closes connections: see closesConnections
	source      []byte // the file's text, to tell a changed scenario on reload
}

// Rule is one "when this, answer that" of a scenario. The first rule whose
// match holds, and whose times and every allow it, answers a request.
type Rule struct {
	Label string // "rule 2" or "rule 2 (refuse)", for the journal and errors
	Line  int

	// Match. Empty fields match anything.
	Methods  []string
	Template string // path template from the contract
	Exact    string // exact path, instead of a template
	Params   []valueMatch
	Query    []valueMatch
	Headers  []valueMatch
	Form     []valueMatch
	InStates []string

	// Times and Every count matches since the rule's state (InStates) was
	// last entered, or since the start for a rule of any state; with a
	// Window, within the window the first counted match opens, and anew
	// once it has passed (a rate limiter's "5 per 30 seconds").
	Times  int           // answer only the first Times matches; 0: no limit
	Every  int           // answer only every Every-th match; 0: each one
	Window time.Duration // 0: no window

	Delay       *Delay
	Respond     *Response
	Passthrough *Passthrough
	Fault       *Fault
	Then        string // state to move to once the rule answers; "" stays
	OffSpec     bool
	// BeforeAuth says the rule models something in front of the backend
	// (a rate limiter, a proxy): its response comes before the security
	// dependency's 401, where the endpoint's would come after it.
	BeforeAuth bool
}

// valueMatch holds one request value (a path or query parameter, a header,
// a form field) to a condition.
type valueMatch struct {
	name    string
	input   *fastapi.Input // the contract's declaration, when it has one
	equals  *string        // canonical form (see canonical)
	re      *regexp.Regexp
	present *bool
}

// Delay holds an answer back for a fixed or a uniformly random time.
type Delay struct {
	Min, Max time.Duration
}

// Response is a scripted answer.
type Response struct {
	Status      int
	Headers     [][2]string
	ContentType string
	Body        []byte // nil: no body
	// generated renders a generated body on first use instead: a large
	// list would slow every load of the scenarios down.
	generated func() []byte
}

// body is the response's body.
func (r *Response) body() []byte {
	if r.generated != nil {
		return r.generated()
	}
	return r.Body
}

// Passthrough is the mock's normal answer, changed.
type Passthrough struct {
	// IfStatus limits the changes to a normal answer of that status: the
	// mock's own refusal (a 401 to a wrong password) worded as the app
	// words it, every other answer sent unchanged. 0: any answer.
	IfStatus int
	Status   int // 0: unchanged
	Headers  [][2]string
	Set      []member // replaced in the object, or in each element of a list
	// Whole: the answer IfStatus names is declared with no content, so
	// Set is its whole body, a JSON object of those members, in place of
	// the mock's own.
	Whole  bool
	Where  []member // keep only list elements with these values
	Offset int
	Limit  int // 0: no limit
	// Envelope is the member of the answer object that holds its records
	// ({"articles": […], "articlesCount": n}, {"article": {…}}): Set,
	// Where, Offset and Limit change them, and a count of the envelope
	// follows Where. "" when the records are the answer.
	Envelope string
	// Order orders a list's elements by the member it names, "-" first
	// for descending (-createdAt: newest first), before offset and limit.
	Order string
	// paging is the list's paging when Where is set, so that where keeps
	// from the whole list (see unpaged); nil when it has none.
	paging *listPaging
}

// member is a JSON object member: its name and compact value.
type member struct {
	name  string
	value []byte
	// path is, for a where's dotted field (author.following), the member
	// names from the list element down; nil: name alone.
	path []string
}

// Fault kinds: how a connection misbehaves.
const (
	FaultReset     = "reset"     // the connection is reset (RST), nothing sent
	FaultEmpty     = "empty"     // the connection is closed, nothing sent
	FaultMalformed = "malformed" // the answer's body, its last byte cut: invalid JSON
	FaultTruncate  = "truncate"  // the full Content-Length, then the body cut off and the connection closed
	FaultTrickle   = "trickle"   // the answer sent a few bytes at a time
	FaultHang      = "hang"      // nothing sent until the client gives up (or For passes)
	// FaultCrash is an unhandled exception in the backend: Starlette's
	// ServerErrorMiddleware answers 500 text/plain "Internal Server Error"
	// from outside CORSMiddleware, so the answer has no CORS headers and a
	// browser reports a CORS error, not a readable 500. A respond with
	// status 500 models an HTTPException(500) instead, which keeps them.
	FaultCrash = "crash"
)

var faultKinds = []string{FaultReset, FaultEmpty, FaultMalformed, FaultTruncate, FaultTrickle, FaultHang, FaultCrash}

// Fault is a broken delivery of an answer (the rule's response, or the normal
// answer when it has none).
type Fault struct {
	Kind     string
	Bytes    int           // truncate: bytes of body sent (-1: half of it)
	Chunk    int           // trickle: bytes per write
	Interval time.Duration // trickle: pause between writes
	For      time.Duration // hang: then close the connection; 0: until the client gives up
}

// Set is a loaded, checked collection of scenarios. It is immutable.
type Set struct {
	data    *fixtures.Dataset // what fixture references and generated answers come from
	index   *contractIndex
	list    []*Scenario // by name
	byName  map[string]*Scenario
	skipped []Skipped
}

// Skipped is a scenario of an optional source left out of a set because it
// does not fit the contract.
type Skipped struct {
	Name   string // empty when the file did not get as far as its name
	File   string
	Reason string // the first problem found
}

// Skipped lists the scenarios of optional sources left out, in the order
// their files were read.
func (s *Set) Skipped() []Skipped { return s.skipped }

// Scenarios lists the set by name.
func (s *Set) Scenarios() []*Scenario { return s.list }

// Get returns the scenario called name.
func (s *Set) Get(name string) (*Scenario, bool) {
	sc, ok := s.byName[name]
	return sc, ok
}

// Names lists the scenario names in order.
func (s *Set) Names() []string {
	out := make([]string, len(s.list))
	for i, sc := range s.list {
		out[i] = sc.Name
	}
	return out
}
