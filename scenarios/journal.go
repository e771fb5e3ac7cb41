package scenarios

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/moviemock/moviemock/internal/jsonscan"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/status"
)

// Entry is one request as the journal keeps it: what the client sent
// (secrets blanked, large values cut: see Truncated) and how moviemock
// answered. It is recorded as the answer begins, so it is in the journal
// before the client sees any of the answer.
type Entry struct {
	Seq      int64               `json:"seq"`
	Time     time.Time           `json:"time"`
	Method   string              `json:"method"`
	Path     string              `json:"path"`               // as sent, a secret path parameter's value redacted (model.RedactPath)
	Template string              `json:"template,omitempty"` // the contract path it fell under
	Query    string              `json:"query,omitempty"`
	Headers  map[string][]string `json:"headers"`
	Form     map[string]string   `json:"form,omitempty"`
	// Body is a JSON request body as sent, compacted, secrets blanked;
	// BodyBytes is the size of any body sent, JSON or not, as far as read.
	Body      json.RawMessage `json:"body,omitempty"`
	BodyBytes int             `json:"body_bytes,omitempty"`
	// BodyNote says why a body sent is not shown, or why the answer is
	// not the handler's (the 408 of a body that arrived too slowly).
	BodyNote string `json:"body_note,omitempty"`
	// Truncated names what the entry keeps only in part, sorted: "path",
	// "query", "session", "prefer", "headers.NAME" and "form.NAME" (a value
	// cut to its first bytes), "headers" and "form" (fields left out once
	// the entry's room for them was used), "body" (a body too large to
	// keep). A journal of a thousand entries must not hold a thousand
	// megabyte forms.
	Truncated []string `json:"truncated,omitempty"`
	Session   string   `json:"session,omitempty"`
	Scenario  string   `json:"scenario,omitempty"`
	Rule      string   `json:"rule,omitempty"`  // the rule that answered; empty: the normal answer
	State     string   `json:"state,omitempty"` // the scenario's state after the request
	Prefer    string   `json:"prefer,omitempty"`
	Fault     string   `json:"fault,omitempty"`
	Status    int      `json:"status"`      // 0: no answer was sent (a fault)
	Duration  float64  `json:"duration_ms"` // until the answer began
	// AnsweredBy says who answered, kept only with Options.Annotate:
	// "scenario" (a scenario's rule, Prefer, or the engine's own error
	// about them), or what the handler behind the engine said with
	// SetAnsweredBy ("upstream", or "mock: " and why, under moviemock
	// proxy).
	AnsweredBy string `json:"answered_by,omitempty"`
	// Violations are the contract checks the exchange failed, one line
	// each ("CHECK: expected … got …"), as AddViolations gave them: each
	// cut to 4 KiB, 16 KiB in all (Truncated then names "violations").
	// They may be added after the entry was recorded.
	Violations []string `json:"violations,omitempty"`
	// Response is what the entry keeps of the answer, once it was sent
	// whole (the stream sends an entry as its answer begins, without it).
	Response *Answer `json:"response,omitempty"`

	// resolved says Template is worked out. A request's contract path is
	// found when the journal is read, unless a rule needed it anyway:
	// matching it on every request cost a sixth of a normal answer.
	resolved bool
	size     int   // bytes the entry holds, as bytes() counts them
	amended  int64 // the journal's count of amendments when this one was last amended; 0: never
}

// Answer is the part of an answer a journal entry keeps: its content
// type and, for a JSON body of at most 16 KiB, the body compacted with its
// secrets blanked (an access_token of a login). A larger body is left out
// and Truncated names "response".
type Answer struct {
	Type  string          `json:"type,omitempty"`
	Body  json.RawMessage `json:"body,omitempty"`
	Bytes int64           `json:"bytes"`          // the body's size as sent
	Note  string          `json:"note,omitempty"` // why a body sent is not shown

	// raw is the body as sent, until the journal is first read (see
	// shown): no reader ever sees it; sent are the credentials its
	// request carried, blanked wherever raw echoes them.
	raw  []byte
	sent []string
}

// What one entry keeps at most, so that the journal's size in bytes
// follows from its size in entries (and JournalBytes bounds it anyway).
const (
	maxJournalValue   = 4 << 10  // the path, the query, one header or form value
	maxJournalHeaders = 16 << 10 // the headers, names and values
	maxJournalForm    = 32 << 10 // the form, names and values
	// The contract violations, each line cut to maxJournalValue.
	maxJournalViolations = 16 << 10
)

// bytes is roughly the memory e holds: its strings, and a guess at the
// overhead of the struct, the maps and the slices.
func (e *Entry) bytes() int {
	n := 512 + len(e.Method) + len(e.Path) + len(e.Template) + len(e.Query) + len(e.Body) + len(e.BodyNote) +
		len(e.Session) + len(e.Scenario) + len(e.Rule) + len(e.State) + len(e.Prefer) + len(e.Fault) + len(e.AnsweredBy)
	for k, vs := range e.Headers {
		n += 64 + len(k)
		for _, v := range vs {
			n += 16 + len(v)
		}
	}
	for k, v := range e.Form {
		n += 64 + len(k) + len(v)
	}
	for _, t := range e.Truncated {
		n += 16 + len(t)
	}
	for _, v := range e.Violations {
		n += 16 + len(v)
	}
	return n + e.Response.bytes()
}

// bytes is roughly the memory r holds (0 for none), its part of
// Entry.bytes.
func (r *Answer) bytes() int {
	if r == nil {
		return 0
	}
	return 64 + len(r.Type) + len(r.Body) + len(r.Note) + len(r.raw) + secretsSize(r.sent)
}

// answerCopy keeps the first maxJournalBody+1 bytes of an answer's body.
// An answer whose Content-Length was known as it began (size) is copied
// into a buffer of its own size, which the journal then keeps; any other
// goes into a buffer from answerBufs, copied out at the end: most answers
// are journaled, and growing a fresh copy for each cost more than the
// rest of the journaling.
type answerCopy struct {
	size int     // the answer's declared length, 0 when not known or too large
	own  []byte  // size's buffer
	b    *[]byte // answerBufs' buffer
}

var answerBufs = sync.Pool{New: func() any { b := make([]byte, 0, maxJournalBody+1); return &b }}

// expect notes the answer's Content-Length, read as the answer begins.
func (c *answerCopy) expect(h http.Header) {
	if vs := h["Content-Length"]; len(vs) == 1 {
		if n, err := strconv.Atoi(vs[0]); err == nil && n > 0 && n <= maxJournalBody {
			c.size = n
		}
	}
}

func (c *answerCopy) Write(p []byte) (int, error) {
	if c.b == nil && c.size > 0 {
		if c.own == nil {
			c.own = make([]byte, 0, c.size)
		}
		if len(c.own)+len(p) <= c.size {
			c.own = append(c.own, p...)
			return len(p), nil
		}
		// More than declared: the pool's buffer from here on.
		c.b = answerBufs.Get().(*[]byte)
		*c.b = append(*c.b, c.own...)
		c.own = nil
	}
	if c.b == nil {
		c.b = answerBufs.Get().(*[]byte)
	}
	if room := maxJournalBody + 1 - len(*c.b); room > 0 {
		*c.b = append(*c.b, p[:min(len(p), room)]...)
	}
	return len(p), nil
}

// release gives the buffer back.
func (c *answerCopy) release() {
	if c.b != nil {
		*c.b = (*c.b)[:0]
		answerBufs.Put(c.b)
		c.b = nil
	}
	c.own = nil
}

// response is what the journal keeps of an answer of n bytes with header
// h: a copy of a body small enough to keep, else why not. The body is
// checked as JSON, compacted and its secret fields blanked when the
// journal is first read (see shown), not on every answer: that cost a
// tenth of a read's throughput. The pool's buffer goes back to the pool.
//
// sent are the credentials the request carried (trace.secrets): an answer
// that echoes one (a validation error's "input") shows it blanked.
func (c *answerCopy) response(h http.Header, n int64, sent []string) *Answer {
	// The header's own map, read without canonicalising constant names.
	r := &Answer{Type: clipString(first(h["Content-Type"])), Bytes: n}
	b := c.own
	if c.b != nil {
		b = *c.b
	}
	switch {
	case n == 0:
	case first(h["Content-Encoding"]) != "":
		r.Note = "encoded: " + clipString(first(h["Content-Encoding"]))
	case n > maxJournalBody || len(b) != int(n):
		r.Note = fmt.Sprintf("larger than %d bytes, not kept", maxJournalBody)
	case c.b == nil:
		r.raw, r.sent = b, sent // its own buffer, given to the journal
		c.own = nil
	default:
		r.raw, r.sent = bytes.Clone(b), sent
	}
	return r
}

// shown is r as the journal shows it: a body kept as sent (raw) compacted,
// its secret fields blanked, or the note that it is not JSON. It is a new
// Answer: readers may hold copies of entries sharing r.
func (r *Answer) shown() *Answer {
	if r == nil || r.raw == nil {
		return r
	}
	out := &Answer{Type: r.Type, Bytes: r.Bytes, Note: r.Note}
	raw := r.raw
	if end, k := jsonscan.Value(raw, 0); k == jsonscan.Invalid || end != len(raw) || !jsonscan.Compact(raw) {
		// Not as the mock writes JSON (compact, nothing around it):
		// compacted, then checked as FastAPI's parser would.
		var compact bytes.Buffer
		if json.Compact(&compact, raw) != nil {
			out.Note = "not JSON"
			return out
		}
		raw = compact.Bytes()
		if end, _ := jsonscan.Value(raw, 0); end != len(raw) {
			out.Note = "not JSON"
			return out
		}
	}
	out.Body = redactJSON(raw, model.SecretName, r.sent, nil)
	return out
}

// first is a header's first value, "" when it has none.
func first(vs []string) string {
	if len(vs) == 0 {
		return ""
	}
	return vs[0]
}

func clipString(s string) string {
	var cut []string
	return clip(s, "", &cut)
}

// respond puts r in the entry numbered seq, if the journal still holds
// it: not an amendment (the streams sent the entry as its answer began,
// and do not send it again for this). A body not kept for its size is
// named in Truncated.
func (j *journal) respond(seq int64, r *Answer) {
	j.mu.Lock()
	defer j.mu.Unlock()
	i := j.n - 1 // most often the newest: answers end in the order they began
	if i < 0 || j.at(i).Seq != seq {
		i = sort.Search(j.n, func(i int) bool { return j.at(i).Seq >= seq })
		if i == j.n || j.at(i).Seq != seq {
			return
		}
	}
	e := j.at(i)
	old := e.size
	e.size += r.bytes() - e.Response.bytes()
	e.Response = r
	if r.Bytes > maxJournalBody && r.Note != "" && !strings.HasPrefix(r.Note, "encoded") {
		// A new slice: readers may hold copies sharing the old one.
		t := append(slices.Clip(e.Truncated), "response")
		slices.Sort(t)
		e.Truncated = t
		e.size = e.bytes()
	}
	j.bytes += int64(e.size - old)
	for j.n > 1 && j.bytes > j.maxBytes {
		j.dropOldest()
	}
}

// addViolations appends vs to e's violations, within what an entry keeps
// of them. It never writes to the arrays e's slices share with copies of
// e made before: a reader copies an entry under the journal's lock and
// encodes it after.
func addViolations(e *Entry, vs []string) {
	if len(vs) == 0 {
		return
	}
	room := maxJournalViolations
	for _, v := range e.Violations {
		room -= len(v)
	}
	out, cut := slices.Clip(e.Violations), false
	for _, v := range vs {
		if room <= 0 {
			cut = true
			break
		}
		if n := min(len(v), maxJournalValue, room); n < len(v) {
			v, cut = cutCopy(v, n), true
		}
		room -= len(v)
		out = append(out, v)
	}
	e.Violations = out
	if cut && !slices.Contains(e.Truncated, "violations") {
		t := append(slices.Clip(e.Truncated), "violations")
		slices.Sort(t)
		e.Truncated = t
	}
}

// journal keeps the last size requests, and no more than maxBytes of them.
type journal struct {
	size     int
	maxBytes int64
	mu       sync.Mutex
	ring     []Entry // a circular buffer: n entries from head, oldest first
	head, n  int
	bytes    int64 // what the n entries hold, by Entry.bytes
	seq      int64 // entries ever added
	// added is closed, and set to nil, when an entry is added or amended:
	// made only when a stream waits (see wait), so a request pays a nil
	// check when nobody listens.
	added chan struct{}
	// amends counts the amendments ever made (see amend); amendLog holds
	// the Seq of the last amendLogSize amended entries, the amendment
	// numbered v at (v-1)%amendLogSize, for the streams to resend them.
	amends   int64
	amendLog []int64
}

// amendLogSize is how many amendments a stream can fall behind before it
// looks through every entry held for those it missed.
const amendLogSize = 256

func (j *journal) at(i int) *Entry { return &j.ring[(j.head+i)%len(j.ring)] }

// add records e and returns its Seq.
func (j *journal) add(e Entry) int64 {
	e.size = e.bytes()
	j.mu.Lock()
	defer j.mu.Unlock()
	j.seq++
	e.Seq = j.seq
	// The newest entry is kept even when it alone is over maxBytes.
	for j.n > 0 && (j.n >= j.size || j.bytes+int64(e.size) > j.maxBytes) {
		j.dropOldest()
	}
	if j.n == len(j.ring) {
		// Grown as it fills: a large --journal-size costs nothing until used.
		ring := make([]Entry, min(max(2*len(j.ring), 64), j.size))
		for i := range j.n {
			ring[i] = *j.at(i)
		}
		j.ring, j.head = ring, 0
	}
	*j.at(j.n) = e
	j.n++
	j.bytes += int64(e.size)
	j.wake()
	return e.Seq
}

// wake tells the streams waiting that the journal changed. The caller
// holds j.mu.
func (j *journal) wake() {
	if j.added != nil {
		close(j.added)
		j.added = nil
	}
}

// amend changes the entry numbered seq with fn, if the journal still
// holds it, and reports whether it did. The bytes the journal holds follow
// the entry's new size; when they go over maxBytes the oldest entries go,
// as when one is added, but never the newest.
func (j *journal) amend(seq int64, fn func(*Entry)) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	i := sort.Search(j.n, func(i int) bool { return j.at(i).Seq >= seq })
	if i == j.n || j.at(i).Seq != seq {
		return false
	}
	e := j.at(i)
	fn(e)
	old := e.size
	e.size = e.bytes()
	j.bytes += int64(e.size - old)
	j.amends++
	e.amended = j.amends
	if j.amendLog == nil {
		j.amendLog = make([]int64, amendLogSize)
	}
	j.amendLog[(j.amends-1)%amendLogSize] = seq
	for j.n > 1 && j.bytes > j.maxBytes {
		j.dropOldest()
	}
	j.wake()
	return true
}

// amendedSince copies what f selects of the entries up to seq (those a
// stream has sent) amended after the amendment numbered seen, oldest
// first, and the number of the last amendment made.
func (j *journal) amendedSince(seen, seq int64, f Filter, template func(path string) string) ([]Entry, int64) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.amends <= seen {
		return nil, j.amends
	}
	var out []Entry
	keep := func(i int) {
		if e := j.resolved(i, template); f.keeps(e) {
			out = append(out, *e)
		}
	}
	if j.amends-seen > amendLogSize {
		// Fallen behind the log: look through every entry.
		for i := 0; i < j.n && j.at(i).Seq <= seq; i++ {
			if j.at(i).amended > seen {
				keep(i)
			}
		}
		return out, j.amends
	}
	seqs := make([]int64, 0, j.amends-seen)
	for v := seen + 1; v <= j.amends; v++ {
		if s := j.amendLog[(v-1)%amendLogSize]; s <= seq {
			seqs = append(seqs, s)
		}
	}
	slices.Sort(seqs)
	for _, s := range slices.Compact(seqs) {
		if i := sort.Search(j.n, func(i int) bool { return j.at(i).Seq >= s }); i < j.n && j.at(i).Seq == s {
			keep(i)
		}
	}
	return out, j.amends
}

// marks are the Seq of the newest entry ever added and the number of the
// last amendment, read together: where a new stream starts.
func (j *journal) marks() (seq, amends int64) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.seq, j.amends
}

// wait returns a channel closed once an entry after seq is added or an
// entry is amended after the amendment numbered seen, or nil when that
// has happened already.
func (j *journal) wait(seq, seen int64) <-chan struct{} {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.seq > seq || j.amends > seen {
		return nil
	}
	if j.added == nil {
		j.added = make(chan struct{})
	}
	return j.added
}

// after copies what f selects of the entries added after seq, oldest
// first, at most journalBatch of them, and the Seq to ask after next.
func (j *journal) after(seq int64, f Filter, template func(path string) string) ([]Entry, int64) {
	j.mu.Lock()
	defer j.mu.Unlock()
	var out []Entry
	i := sort.Search(j.n, func(i int) bool { return j.at(i).Seq > seq })
	for ; i < j.n && len(out) < journalBatch; i++ {
		e := j.resolved(i, template)
		seq = e.Seq
		if f.keeps(e) {
			out = append(out, *e)
		}
	}
	if i == j.n {
		seq = max(seq, j.seq) // entries cleared or dropped meanwhile
	}
	return out, seq
}

func (j *journal) dropOldest() {
	old := j.at(0)
	j.bytes -= int64(old.size)
	*old = Entry{} // let the garbage collector have its strings
	j.head = (j.head + 1) % len(j.ring)
	j.n--
}

// Filter selects journal entries; empty fields select all.
type Filter struct {
	Method, Path, Session, Scenario string // Path: exact or a contract template
	Limit                           int    // the newest Limit; 0: all
}

func (f Filter) keeps(e *Entry) bool {
	return (f.Method == "" || strings.EqualFold(f.Method, e.Method)) &&
		(f.Path == "" || f.Path == e.Path || f.Path == e.Template) &&
		(f.Session == "" || f.Session == e.Session) &&
		(f.Scenario == "" || f.Scenario == e.Scenario)
}

// journalBatch is how many entries scan copies under the lock at a time.
const journalBatch = 256

// scan calls fn with what f selects, oldest first, as of the call: in
// batches copied under the lock, so that no more than a batch is copied at
// once and fn (writing to a slow client) never holds up requests. Entries
// dropped meanwhile are skipped. template finds the contract path of an
// entry that lacks it.
func (j *journal) scan(f Filter, template func(path string) string, fn func([]Entry) error) error {
	j.mu.Lock()
	last, from := j.seq, int64(0) // show entries with from < Seq ≤ last
	if f.Limit > 0 {
		found := 0
		for i := j.n - 1; i >= 0 && found < f.Limit; i-- {
			if e := j.resolved(i, template); f.keeps(e) {
				found++
				from = e.Seq - 1
			}
		}
		if found < f.Limit {
			from = 0
		}
	}
	j.mu.Unlock()
	batch := make([]Entry, 0, journalBatch)
	for {
		batch = batch[:0]
		more := false
		j.mu.Lock()
		i := sort.Search(j.n, func(i int) bool { return j.at(i).Seq > from })
		for ; i < j.n && j.at(i).Seq <= last; i++ {
			if len(batch) == journalBatch {
				more = true
				break
			}
			e := j.resolved(i, template)
			from = e.Seq
			if f.keeps(e) {
				batch = append(batch, *e)
			}
		}
		j.mu.Unlock()
		if len(batch) > 0 {
			if err := fn(batch); err != nil {
				return err
			}
		}
		if !more {
			return nil
		}
	}
}

// resolved is the i-th entry as readers see it: its Template worked out,
// its answer's body redacted (Answer.shown). Every reader of entries comes
// through here, so nothing unredacted leaves the journal. The caller holds
// j.mu.
func (j *journal) resolved(i int, template func(path string) string) *Entry {
	e := j.at(i)
	if !e.resolved {
		e.Template, e.resolved = template(e.Path), true
	}
	if e.Response != nil && e.Response.raw != nil {
		e.Response = e.Response.shown()
		// What the entry holds changes by the redaction's few bytes; the
		// next entry added keeps the journal within maxBytes.
		old := e.size
		e.size = e.bytes()
		j.bytes += int64(e.size - old)
	}
	return e
}

// clear forgets every entry, or those of one session.
func (j *journal) clear(session string) int {
	j.mu.Lock()
	defer j.mu.Unlock()
	n := j.n
	if session == "" {
		j.ring, j.head, j.n, j.bytes = nil, 0, 0, 0
		return n
	}
	kept := make([]Entry, 0, len(j.ring))
	j.bytes = 0
	for i := range j.n {
		if e := j.at(i); e.Session != session {
			kept = append(kept, *e)
			j.bytes += int64(e.size)
		}
	}
	j.ring, j.head, j.n = kept[:cap(kept)], 0, len(kept)
	return n - len(kept)
}

// len is how many entries the journal holds.
func (j *journal) len() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.n
}

// held is how many bytes the journal holds, by Entry.bytes.
func (j *journal) held() int64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.bytes
}

// Journal lists recorded requests, oldest first.
func (e *Engine) Journal(f Filter) []Entry {
	out := []Entry{}
	e.journal.scan(f, e.template, func(batch []Entry) error {
		out = append(out, batch...)
		return nil
	})
	return out
}

// WriteJournal writes what Journal(f) lists as a JSON array, entry by
// entry: the journal may hold many megabytes, and its answer is never
// built whole in memory.
func (e *Engine) WriteJournal(w io.Writer, f Filter) error {
	sep := []byte{'['}
	err := e.journal.scan(f, e.template, func(batch []Entry) error {
		for i := range batch {
			b, err := json.Marshal(&batch[i])
			if err != nil {
				return fmt.Errorf("journal entry %d: %w", batch[i].Seq, err)
			}
			if _, err := w.Write(append(sep, b...)); err != nil {
				return err
			}
			sep = []byte{','}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if sep[0] == '[' {
		_, err = w.Write([]byte("[]"))
	} else {
		_, err = w.Write([]byte{']'})
	}
	return err
}

// template is the contract path path falls under, "" when none.
func (e *Engine) template(path string) string {
	if p := e.Set().index.matchPath(path); p != nil {
		return p.template
	}
	return ""
}

// ShownPath is path as the journal and the request log show it: the
// value of every secret path parameter of the contract path it falls
// under redacted (model.RedactPath: /reset-password/{token}); as it is
// outside the contract, and at no cost when the contract has no secret
// path parameter.
func (e *Engine) ShownPath(path string) string {
	x := e.Set().index
	if x == nil || !x.secretPaths {
		return path
	}
	if p := x.matchPath(path); p != nil {
		return p.redact(path)
	}
	return path
}

// secretHeaders are never journaled as sent.
var secretHeaders = map[string]bool{"Authorization": true, "Proxy-Authorization": true, "Cookie": true, "X-Mock-Admin-Token": true}

// secretHeaderName is model.SecretName(name), remembered for the first
// maxSecretHeaderNames names asked about: clients send the same few
// headers again and again, and working the rule out for each cost a
// twentieth of a read.
func secretHeaderName(name string) bool {
	if v, ok := secretHeaderNames.Load(name); ok {
		return v.(bool)
	}
	v := model.SecretName(name)
	if secretHeaderCount.Add(1) <= maxSecretHeaderNames {
		secretHeaderNames.Store(strings.Clone(name), v)
	}
	return v
}

var (
	secretHeaderNames sync.Map // header name → model.SecretName of it
	secretHeaderCount atomic.Int64
)

// maxSecretHeaderNames bounds secretHeaderNames: names are the client's
// to choose.
const maxSecretHeaderNames = 1024

func (e *Engine) entry(r *http.Request, w *status.Writer, tr *trace, start time.Time) Entry {
	var cut []string
	headers, size := map[string][]string(r.Header), 0
	for k, vs := range r.Header {
		if secretHeaders[k] || secretHeaderName(k) || secretValues(vs) {
			headers = nil
			break
		}
		size += len(k)
		for _, v := range vs {
			size += len(v)
			if len(v) > maxJournalValue {
				size = maxJournalHeaders + 1
			}
		}
	}
	if headers == nil || size > maxJournalHeaders {
		headers, cut = journalHeaders(r.Header, tr, cut)
	}
	// else the request's own map, kept as it is: nothing in it is blanked
	// or cut, and no layer changes a request's headers (docassets clones
	// the request first). A copy of it was a twentieth of a read.
	code := w.Code
	if code == 0 && tr.fault == "" {
		code = http.StatusOK
	}
	template, resolved := "", false
	var tmpl *pathInfo
	if f := tr.facts; f != nil && f.routed {
		resolved, tmpl = true, f.tmpl
	} else if x := e.Set().index; x != nil && x.secretPaths {
		// A path parameter's value may be a credential: the template is
		// found now, so that the path is kept redacted.
		resolved, tmpl = true, x.matchPath(r.URL.Path)
	}
	path := model.RedactMatrix(ownPath(r)) // /cart;jsessionid=…
	if tmpl != nil {
		template = tmpl.template
		path = tmpl.redact(path)
	}
	form := tr.form
	if len(form) > 0 {
		form, cut = clipForm(form, cut)
	}
	if tr.bodyCut {
		cut = append(cut, "body")
	}
	en := Entry{
		Time:      start,
		Method:    r.Method,
		Path:      clip(path, "path", &cut),
		Template:  template,
		Query:     clip(redactQuery(r.URL.RawQuery, tr), "query", &cut),
		Headers:   headers,
		Form:      form,
		Body:      tr.body,
		BodyBytes: tr.bodyBytes,
		BodyNote:  tr.bodyNote,
		Session:   clip(tr.session, "session", &cut),
		Scenario:  tr.scenario,
		Rule:      tr.rule,
		State:     tr.state,
		Prefer:    clip(tr.prefer, "prefer", &cut),
		Fault:     tr.fault,
		Status:    code,
		Duration:  float64(e.opts.Now().Sub(start).Microseconds()) / 1000,
		resolved:  resolved,
	}
	if w.Replaced != "" {
		// Answered in the handler's place (the 408 of a body that came
		// too slowly): the status is the one sent, and this says why.
		en.BodyNote = w.Replaced
	}
	if len(cut) > 0 {
		slices.Sort(cut)
		en.Truncated = cut
	}
	return en
}

// journalHeaders is a copy of h as the journal keeps it: credentials
// blanked (tr.secrets learns them), values cut to the budget.
func journalHeaders(h http.Header, tr *trace, cut []string) (map[string][]string, []string) {
	headers := make(map[string][]string, len(h))
	size := 0
	for k, vs := range h {
		if named := secretHeaders[k] || secretHeaderName(k); named || secretValues(vs) {
			// Blanked whole (model.RedactHeader): only a registered
			// scheme is kept, "Bearer [redacted]" still saying a token
			// was sent.
			out := make([]string, len(vs))
			for i, v := range vs {
				out[i] = v
				if named || model.SecretValue(v) {
					out[i] = model.RedactHeader(k, v)
					tr.secrets = appendSecret(tr.secrets, v)
					if _, cred, ok := strings.Cut(strings.TrimSpace(v), " "); ok {
						tr.secrets = appendSecret(tr.secrets, strings.TrimSpace(cred))
					}
				}
			}
			vs = out
		}
		size += len(k)
		for _, v := range vs {
			size += len(v)
			if len(v) > maxJournalValue {
				size = maxJournalHeaders + 1
			}
		}
		headers[k] = vs
	}
	if size > maxJournalHeaders {
		headers, cut = clipHeaders(headers, cut)
	}
	return headers, cut
}

// ownPath is r's path, copied when it may be a slice of a long request
// line that the journal would otherwise keep whole.
func ownPath(r *http.Request) string {
	if len(r.RequestURI) > maxJournalValue && len(r.URL.Path) <= maxJournalValue {
		return strings.Clone(r.URL.Path)
	}
	return r.URL.Path
}

// clip is s cut to maxJournalValue bytes, at a character's start; a cut
// is named in *cut. The part kept is a copy: a slice would keep all of s.
func clip(s, name string, cut *[]string) string {
	if len(s) <= maxJournalValue {
		return s
	}
	*cut = append(*cut, name)
	return cutCopy(s, maxJournalValue)
}

// cutCopy is a copy of s's first n bytes at most, cut at a character's
// start.
func cutCopy(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strings.Clone(s[:n])
}

// clipHeaders keeps headers within maxJournalHeaders: each value cut to
// maxJournalValue, names taken in order until the room is used, the rest
// left out. Only a request with large headers comes here.
func clipHeaders(headers map[string][]string, cut []string) (map[string][]string, []string) {
	out := make(map[string][]string, len(headers))
	room, left := maxJournalHeaders, false
	for _, k := range slices.Sorted(maps.Keys(headers)) {
		if len(k) > room || len(k) > maxJournalValue {
			left = true
			continue
		}
		room -= len(k)
		vs := make([]string, 0, len(headers[k]))
		for _, v := range headers[k] {
			n := min(len(v), maxJournalValue, room)
			if n < len(v) {
				cut = append(cut, "headers."+k)
				v = cutCopy(v, n)
			}
			room -= len(v)
			vs = append(vs, v)
		}
		out[k] = vs
	}
	if left {
		cut = append(cut, "headers")
	}
	return out, slices.Compact(cut)
}

// clipForm keeps a form within maxJournalForm as clipHeaders keeps
// headers.
func clipForm(form map[string]string, cut []string) (map[string]string, []string) {
	size := 0
	for k, v := range form {
		size += len(k) + len(v)
		if len(v) > maxJournalValue {
			size = maxJournalForm + 1
			break
		}
	}
	if size <= maxJournalForm {
		return form, cut
	}
	out := make(map[string]string, len(form))
	room, left := maxJournalForm, false
	for _, k := range slices.Sorted(maps.Keys(form)) {
		if len(k) > room || len(k) > maxJournalValue {
			left = true
			continue
		}
		room -= len(k)
		v := form[k]
		if n := min(len(v), maxJournalValue, room); n < len(v) {
			cut = append(cut, "form."+k)
			v = cutCopy(v, n)
		}
		room -= len(v)
		out[k] = v
	}
	if left {
		cut = append(cut, "form")
	}
	return out, cut
}

// maxJournalBody bounds the JSON body an entry keeps: the journal holds a
// thousand entries by default, and a bulk upload is not worth keeping whole.
const maxJournalBody = 16 << 10

// journalBody puts a write's body in the trace for the journal: a JSON body
// compacted with its secrets blanked, anything else only by its size.
func (f *facts) journalBody(tr *trace) {
	if f.r.Body == nil || f.r.Body == http.NoBody {
		return
	}
	b := f.e.body(f.r)
	if b == nil {
		if f.r.ContentLength > 0 {
			tr.bodyBytes = int(f.r.ContentLength)
		}
		tr.bodyNote = fmt.Sprintf("larger than %d bytes", f.e.opts.MaxBody)
		tr.bodyCut = true
		return
	}
	tr.bodyBytes = len(b)
	if len(b) == 0 {
		return
	}
	switch {
	case len(b) > maxJournalBody:
		tr.bodyNote = fmt.Sprintf("larger than %d bytes, not kept", maxJournalBody)
		tr.bodyCut = true
	default:
		// FastAPI's parser, which jsonscan follows, refuses what
		// encoding/json lets by, such as bytes that are not UTF-8.
		var compact bytes.Buffer
		if json.Compact(&compact, b) != nil {
			tr.bodyNote = "not JSON"
			return
		}
		raw := compact.Bytes()
		if end, _ := jsonscan.Value(raw, 0); end != len(raw) {
			tr.bodyNote = "not JSON"
			return
		}
		p, _ := f.route()
		tr.body = redactJSON(raw, func(name string) bool {
			return model.SecretName(name) || (p != nil && p.secret(f.r.Method, name))
		}, nil, &tr.secrets)
	}
}

// redactJSON copies the compact JSON value raw, which jsonscan.Value
// accepts, with the value of every member whose name secret reports, at
// any depth, replaced by "[redacted]"; so is every string equal to one of
// sent (the credentials the request carried, echoed by its answer), or
// holding one of at least minEcho bytes, and the "input" of a validation
// error whose "loc" ends with a secret field's name (FastAPI's 422:
// {"loc": ["body", "password"], "input": "…"}). The string values of the
// members it blanks are added to blanked, when not nil.
func redactJSON(raw []byte, secret func(string) bool, sent []string, blanked *[]string) []byte {
	out := make([]byte, 0, len(raw))
	var walk func(i int) int
	walk = func(i int) int {
		switch raw[i] {
		case '{':
			out = append(out, '{')
			first := true
			input := secretLoc(raw, i, secret)
			end := jsonscan.Members(raw, i, func(name []byte, escaped bool, v int) int {
				if !first {
					out = append(out, ',')
				}
				first = false
				key, _ := jsonscan.Str(name, escaped)
				out = append(out, name...)
				out = append(out, ':')
				if secret(key) || input && key == "input" {
					end := jsonscan.End(raw, v)
					if blanked != nil && raw[v] == '"' {
						if s, ok := jsonscan.Str(raw[v:end], true); ok {
							*blanked = appendSecret(*blanked, s)
						}
					}
					out = append(out, `"`+redacted+`"`...)
					return end
				}
				return walk(v)
			})
			out = append(out, '}')
			return end
		case '[':
			out = append(out, '[')
			first := true
			end := jsonscan.Elements(raw, i, func(v int) int {
				if !first {
					out = append(out, ',')
				}
				first = false
				return walk(v)
			})
			out = append(out, ']')
			return end
		}
		end := jsonscan.End(raw, i)
		if raw[i] == '"' && len(sent) > 0 {
			if s, ok := jsonscan.Str(raw[i:end], bytes.IndexByte(raw[i:end], '\\') >= 0); ok && echoes(s, sent) {
				out = append(out, `"`+redacted+`"`...)
				return end
			}
		}
		out = append(out, raw[i:end]...)
		return end
	}
	walk(0)
	return out
}

// secretLoc reports whether the object at raw[i] is a validation error
// about a secret field: its "loc" is an array whose last member is a
// name secret reports.
func secretLoc(raw []byte, i int, secret func(string) bool) bool {
	found := false
	jsonscan.Members(raw, i, func(name []byte, escaped bool, v int) int {
		end := jsonscan.End(raw, v)
		if string(name) != `"loc"` || raw[v] != '[' {
			return end
		}
		last := ""
		jsonscan.Elements(raw, v, func(e int) int {
			eEnd := jsonscan.End(raw, e)
			last = ""
			if raw[e] == '"' {
				last, _ = jsonscan.Str(raw[e:eEnd], true)
			}
			return eEnd
		})
		found = last != "" && secret(last)
		return end
	})
	return found
}

// minEcho is the length from which a credential the request sent is
// blanked also inside a longer string of its answer ("SECRETX is too
// short"); a shorter one only where it is the whole string.
const minEcho = 8

// echoes reports whether s, a string of an answer, is or holds one of
// the credentials the request sent.
func echoes(s string, sent []string) bool {
	for _, v := range sent {
		if s == v || len(v) >= minEcho && strings.Contains(s, v) {
			return true
		}
	}
	return false
}

// appendSecret adds v to the credentials a request sent, when it is long
// enough not to blank ordinary words (at least 3 bytes) and not there yet;
// at most 64 are kept.
func appendSecret(sent []string, v string) []string {
	if len(v) < 3 || len(sent) >= 64 || v == redacted || slices.Contains(sent, v) {
		return sent
	}
	return append(sent, v)
}

// redactQuery is the raw query q as the journal keeps it
// (model.RedactQuery), the values it blanks added to tr's secrets.
func redactQuery(q string, tr *trace) string {
	shown := model.RedactQuery(q, model.SecretName)
	if shown == q {
		return q
	}
	for _, part := range strings.Split(q, "&") {
		name, v, _ := strings.Cut(part, "=")
		if !strings.Contains(shown, name+"="+redacted) {
			continue
		}
		if u, err := url.QueryUnescape(v); err == nil {
			tr.secrets = appendSecret(tr.secrets, u)
		}
	}
	return shown
}

// secretValues reports whether any of vs looks like a credential
// whatever its header's name (model.SecretValue: a JWT, "Bearer …").
func secretValues(vs []string) bool {
	for _, v := range vs {
		if model.SecretValue(v) {
			return true
		}
	}
	return false
}

// secretsSize is what a list of credentials adds to an entry's size.
func secretsSize(ss []string) int {
	n := 0
	for _, s := range ss {
		n += 16 + len(s)
	}
	return n
}
