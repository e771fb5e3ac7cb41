package contract

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"sort"
	"strings"
	"sync"
)

const (
	// ExcerptBytes is how much of a body a result keeps for the report.
	ExcerptBytes = 4 << 10
	// maxHeaderBytes bounds the response headers read; maxKeptHeaderBytes
	// the headers a result keeps.
	maxHeaderBytes     = 64 << 10
	maxKeptHeaderBytes = 8 << 10
	// maxMessageBytes bounds a check's expected and got texts.
	maxMessageBytes = 2 << 10

	// opStrikes: an operation that gives no complete answer this many
	// times in a row is unresponsive; its other cases are skipped.
	opStrikes = 2
	// targetStrikes: the target is unresponsive after this many requests
	// in a row got no complete answer, whatever their operation (some
	// operations each); discoveryStrikes is the same before the cases,
	// when the runner looks for ids and a token.
	targetStrikes    = 5
	discoveryStrikes = 3

	// Bounds of what list_item_consistency keeps between cases: listed
	// items per list response, list items kept whole for a field-by-field
	// message, and the size of a kept single read or item.
	maxListedKept    = 4 * maxItemReads
	maxItemValues    = 2 * maxItemReads
	maxKeptValueSize = 64 << 10
)

// deferredChecks compare cases with each other: they run in check, after
// every case, on what observe kept. Every other check runs as the response
// arrives, on the whole body.
var deferredChecks = map[string]bool{"list_item_consistency": true}

// runState is the runner's bookkeeping of answers and of what it keeps of
// each response. Its zero value is ready; it is safe for the workers.
type runState struct {
	mu sync.Mutex
	// streak counts requests in a row without a complete answer;
	// lastMiss is the last one's error.
	streak   int
	lastMiss string
	cases    bool   // the cases are running (targetStrikes applies)
	dead     string // why the target is unresponsive; "": it answers
	// discovery is why discovery stopped sending, for a note; "": it did not.
	discovery string
	stopped   string // why the run stopped early (MaxFailures)
	failed    int    // failed cases so far
	// per operation: misses in a row, why it is unresponsive.
	opStreak map[*operation]int
	opDead   map[*operation]string
	ops      []*operation // operations with cases
	// what list_item_consistency needs, by result and by list operation.
	observed map[*Result]*observation
	wanted   map[*operation]map[string]bool // ids read singly, by list
	reads    map[*operation]map[string]*itemRead
	tables   map[[32]byte][]listedItem
	values   map[[32]byte]any
}

// observation is what observe did to a result.
type observation struct {
	pre    int          // checks the result had before (sequences' own)
	listed []listedItem // for a list response: its items with wanted ids
}

// listedItem is an item of a list response, as kept for consistency.
type listedItem struct {
	index  int
	id     string
	digest [32]byte
}

// itemRead is a single read kept for consistency.
type itemRead struct {
	index  int    // case index: the last read of an id counts
	url    string // as shown: a secret path parameter redacted
	digest [32]byte
	value  any // nil when larger than maxKeptValueSize
}

func readBody(r io.Reader, limit int64) ([]byte, error) {
	return io.ReadAll(io.LimitReader(r, limit+1))
}

// summarize sets Size, SHA256 and Excerpt from Body.
func (resp *Response) summarize() {
	resp.Size = int64(len(resp.Body))
	if len(resp.Body) > 0 {
		sum := sha256.Sum256(resp.Body)
		resp.SHA256 = hex.EncodeToString(sum[:])
	}
	// A copy: the excerpt must not keep the whole body alive.
	resp.Excerpt = append([]byte(nil), resp.Body[:min(len(resp.Body), ExcerptBytes)]...)
	resp.Header, resp.HeadersTrimmed = trimHeader(resp.Header)
}

// bodyText is the body as far as the result kept it.
func (resp *Response) bodyText() []byte {
	if resp.Body != nil {
		return resp.Body
	}
	return resp.Excerpt
}

// noAnswer is true when the request got no complete answer: no status, or
// a body that broke off or timed out (a body too large is an answer).
func (resp *Response) noAnswer() bool {
	return resp.Skipped == "" && (resp.Status == 0 || (resp.Error != "" && !resp.Truncated))
}

// trimHeader keeps at most maxKeptHeaderBytes of header names and values.
func trimHeader(h http.Header) (http.Header, bool) {
	n := 0
	for k, vs := range h {
		n += len(k)
		for _, v := range vs {
			n += len(v)
		}
	}
	if n <= maxKeptHeaderBytes {
		return h, false
	}
	out := http.Header{}
	budget := maxKeptHeaderBytes
	for _, k := range sortedKeys(h) {
		for _, v := range h[k] {
			if budget <= 0 {
				return out, true
			}
			if len(k)+len(v) > budget {
				v = v[:max(0, budget-len(k))] + "…"
			}
			budget -= len(k) + len(v)
			out[k] = append(out[k], v)
		}
	}
	return out, true
}

// notSending says why send sends nothing: the target is unresponsive or
// the run stopped.
func (st *runState) notSending() string {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.stopped != "" {
		return st.stopped
	}
	return st.dead
}

// answered counts the target's misses in a row; after too many the target
// is unresponsive and send sends nothing more.
func (st *runState) answered(ctx context.Context, resp *Response) {
	if ctx.Err() != nil {
		return // the run was cancelled: not the target's fault
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if !resp.noAnswer() {
		st.streak = 0
		return
	}
	st.streak++
	st.lastMiss = resp.Error
	limit, when := discoveryStrikes, "looking for ids and a token"
	if st.cases {
		limit, when = targetStrikes, "running the cases"
	}
	if st.streak >= limit && st.dead == "" {
		st.dead = fmt.Sprintf("not sent: the target is unresponsive: %d requests in a row got no complete answer while %s (last: %s)", st.streak, when, st.lastMiss)
	}
}

// beginCases gives the cases their own chance: a target that did not
// answer discovery is tried again, and judged by the cases' answers.
func (st *runState) beginCases(cases []*Case) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.dead != "" && !st.cases {
		st.discovery = strings.TrimPrefix(st.dead, "not sent: ")
	}
	st.cases, st.dead, st.streak = true, "", 0
	if st.opStreak == nil {
		st.opStreak, st.opDead = map[*operation]int{}, map[*operation]string{}
	}
	if st.wanted == nil {
		st.wanted = map[*operation]map[string]bool{}
	}
	seen := map[*operation]bool{}
	for _, c := range cases {
		if c.op == nil {
			continue
		}
		if !seen[c.op] {
			seen[c.op] = true
			st.ops = append(st.ops, c.op)
		}
		// The ids read singly are the listed items consistency compares.
		if c.op.listOf != nil && c.Kind == Positive {
			if id, ok := lastSegment(c.Request.URL); ok {
				if st.wanted[c.op.listOf] == nil {
					st.wanted[c.op.listOf] = map[string]bool{}
				}
				st.wanted[c.op.listOf][id] = true
			}
		}
	}
}

func lastSegment(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", false
	}
	id, err := url.PathUnescape(path.Base(u.EscapedPath()))
	return id, err == nil
}

// skipReason says why a case of op is not sent, or "".
func (st *runState) skipReason(op *operation) string {
	st.mu.Lock()
	defer st.mu.Unlock()
	switch {
	case st.stopped != "":
		return st.stopped
	case st.dead != "":
		return st.dead
	}
	return st.opDead[op]
}

// caseAnswered counts op's misses in a row.
func (st *runState) caseAnswered(ctx context.Context, op *operation, resp *Response) {
	if op == nil || ctx.Err() != nil {
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if !resp.noAnswer() {
		st.opStreak[op] = 0
		return
	}
	st.opStreak[op]++
	if st.opStreak[op] >= opStrikes && st.opDead[op] == "" {
		st.opDead[op] = fmt.Sprintf("not sent: %s %s is unresponsive: %d requests in a row got no complete answer (last: %s)", op.method, op.path, st.opStreak[op], resp.Error)
		for _, o := range st.ops {
			if st.opDead[o] == "" {
				return
			}
		}
		if st.dead == "" {
			st.dead = "not sent: the target is unresponsive: every operation got no complete answer " + fmt.Sprint(opStrikes) + " times in a row"
		}
	}
}

// caseFailed counts failed cases and stops the run at maxFailures.
func (st *runState) caseFailed(maxFailures int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.failed++
	if maxFailures > 0 && st.failed >= maxFailures && st.stopped == "" {
		st.stopped = fmt.Sprintf("not sent: the run stopped after %d failed cases (--max-failures %d)", st.failed, maxFailures)
	}
}

// stopReason is why the run ended early, for the report; "" if it did not.
func (st *runState) stopReason() string {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.stopped != "" {
		return strings.TrimPrefix(st.stopped, "not sent: ")
	}
	return strings.TrimPrefix(st.dead, "not sent: ")
}

// observe applies the checks that read the body to res, keeps what the
// cross-case checks need, and drops the body but for its excerpt.
func (r *runner) observe(res *Result) {
	st := &r.robust
	st.mu.Lock()
	if st.observed == nil {
		st.observed = map[*Result]*observation{}
	}
	if st.observed[res] != nil {
		st.mu.Unlock()
		return
	}
	obs := &observation{pre: len(res.Checks)}
	st.observed[res] = obs
	st.mu.Unlock()

	if res.Response.Excerpt == nil && res.Response.Body != nil {
		res.Response.summarize() // a response made without send
	}
	x := r.input(res)
	if o := res.Case.op; o != nil && o.model != nil && res.Case.Kind != Sequence {
		// A sequence holds its steps' values as it goes (seqRun.step).
		r.held.hold(o.model, res.Response.Status, x.json)
	}
	for _, c := range r.cfg.enabled() {
		if deferredChecks[c.name] {
			continue
		}
		if v := c.apply(x); v != nil {
			res.Checks = append(res.Checks, CheckResult{Check: c.name, Passed: v == pass, Expected: clip(v.expected), Got: clip(v.got)})
		}
	}
	if r.consistencyEnabled() {
		r.keep(res, x, obs)
	}
	res.Response.Body = nil
}

func (r *runner) consistencyEnabled() bool {
	for _, c := range r.cfg.enabled() {
		if c.name == "list_item_consistency" {
			return true
		}
	}
	return false
}

// input is the checks' view of res, its body decoded once.
func (r *runner) input(res *Result) *checkInput {
	x := &checkInput{r: r, res: res, now: r.cfg.Now()}
	if limit := r.cfg.MaxCheckValues; limit > 0 && res.Response.Unchecked == "" && !res.Response.Truncated && countValues(res.Response.Body, limit) > limit {
		res.Response.Unchecked = fmt.Sprintf("the body holds more than %d JSON values (--max-check-values): the checks that read bodies stopped there", limit)
	}
	if res.Response.Unchecked != "" {
		// As for a body cut short: nothing decoded, and the checks that
		// read the body do not apply.
		x.decoded, x.decodeErr = true, errUnchecked
		return x
	}
	if !res.Response.Truncated {
		body := res.Response.Body
		x.decoded = true
		x.decodeErr = json.Unmarshal(body, &x.value)
		if x.decodeErr == nil && len(body) > 0 && isJSON(res.Response.Header) {
			x.json = x.value
		}
	}
	return x
}

// errUnchecked is the decoding error of a body the checks do not read.
var errUnchecked = errors.New("the body is not read by the checks")

// bodyConforms is BodyConforms on the body decoded once.
func (x *checkInput) bodyConforms() (declared bool, err error) {
	r := x.resp()
	return conforms(x.r.sp, x.c().op.op, r.Status, r.Header.Get("Content-Type"), r.Body, func() (any, error) {
		if !x.decoded {
			var v any
			err := json.Unmarshal(r.Body, &v)
			return v, err
		}
		return x.value, x.decodeErr
	})
}

// detailLocs is the loc of every item of an HTTPValidationError's detail;
// false when there is no detail list.
func detailLocs(v any) ([][]any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	detail, ok := m["detail"].([]any)
	if !ok {
		return nil, false
	}
	locs := [][]any{}
	for _, d := range detail {
		var loc []any
		switch d := d.(type) {
		case nil:
		case map[string]any:
			switch l := d["loc"].(type) {
			case nil:
			case []any:
				loc = l
			default:
				return nil, false
			}
		default:
			return nil, false
		}
		locs = append(locs, loc)
	}
	return locs, true
}

// clip bounds a message taken from the target.
func clip(s string) string {
	if len(s) <= maxMessageBytes {
		return s
	}
	cut := maxMessageBytes
	for cut > 0 && cut > maxMessageBytes-4 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… (%d bytes in all)", len(s))
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

func digestOf(v any) ([32]byte, int) {
	b, _ := json.Marshal(v)
	return sha256.Sum256(b), len(b)
}

// keep records what list_item_consistency needs of res: a list's items
// whose ids are read singly (their digests), and single reads of them.
func (r *runner) keep(res *Result, x *checkInput, obs *observation) {
	st := &r.robust
	o := res.Case.op
	if o == nil || res.Response.Status != o.success() {
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.wanted == nil {
		st.wanted = map[*operation]map[string]bool{}
	}
	if items, ok := x.json.([]any); ok {
		wanted := st.wanted[o]
		table := []listedItem{}
		h := sha256.New()
		for i, item := range items {
			id, ok := idOf(item)
			if !ok || !wanted[id] || len(table) == maxListedKept {
				continue
			}
			d, size := digestOf(item)
			table = append(table, listedItem{index: i, id: id, digest: d})
			fmt.Fprintf(h, "%d %q %x\n", i, id, d)
			if st.values == nil {
				st.values = map[[32]byte]any{}
			}
			if _, have := st.values[d]; !have && len(st.values) < maxItemValues && size <= maxKeptValueSize {
				st.values[d] = item
			}
		}
		// Equal tables (a stable list read many times) are kept once.
		var key [32]byte
		copy(key[:], h.Sum(nil))
		if st.tables == nil {
			st.tables = map[[32]byte][]listedItem{}
		}
		if t, ok := st.tables[key]; ok {
			table = t
		} else {
			st.tables[key] = table
		}
		obs.listed = table
	}
	if o.listOf == nil || res.Case.Kind != Positive {
		return
	}
	id, ok := idOf(x.json)
	if !ok || !st.wanted[o.listOf][id] {
		return
	}
	if st.reads == nil {
		st.reads = map[*operation]map[string]*itemRead{}
	}
	if st.reads[o.listOf] == nil {
		st.reads[o.listOf] = map[string]*itemRead{}
	}
	if old := st.reads[o.listOf][id]; old != nil && old.index > res.Case.Index {
		return
	}
	d, size := digestOf(x.json)
	read := &itemRead{index: res.Case.Index, url: res.Case.redactPath(res.Case.Request.URL), digest: d}
	if size <= maxKeptValueSize {
		read.value = x.json
	}
	st.reads[o.listOf][id] = read
}

// finish is check's part: it observes results nobody observed yet (steps
// of sequences), then applies the deferred checks to every result, each in
// its place in Checks order.
func (r *runner) finish(results []*Result) {
	for _, res := range results {
		if res.Response.Skipped == "" {
			r.observe(res)
		}
	}
	var deferred []*check
	for _, c := range r.cfg.enabled() {
		if deferredChecks[c.name] {
			deferred = append(deferred, c)
		}
	}
	if len(deferred) == 0 {
		return
	}
	order := map[string]int{}
	for i, c := range Checks {
		order[c.name] = i
	}
	st := &r.robust
	now := r.cfg.Now()
	for _, res := range results {
		st.mu.Lock()
		obs := st.observed[res]
		var reads map[string]*itemRead
		if res.Case.op != nil {
			reads = st.reads[res.Case.op]
		}
		st.mu.Unlock()
		if obs == nil {
			continue
		}
		x := &checkInput{r: r, res: res, now: now, listed: obs.listed, itemReads: reads}
		added := false
		for _, c := range deferred {
			if v := c.apply(x); v != nil {
				res.Checks = append(res.Checks, CheckResult{Check: c.name, Passed: v == pass, Expected: clip(v.expected), Got: clip(v.got)})
				added = true
			}
		}
		if added {
			tail := res.Checks[obs.pre:]
			sort.SliceStable(tail, func(i, j int) bool { return order[tail[i].Check] < order[tail[j].Check] })
		}
	}
}
