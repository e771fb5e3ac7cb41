package compare

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/internal/traffic"
)

// place is where in its operation a change is, as read from oasdiff's
// finding: what the traffic marking needs beyond Where's words.
type place struct {
	side, status      string // "request", "response" or ""; the response's status
	paramIn, param    string // a parameter's location and name
	prop              string // oasdiff's property path in the body, "" the body itself
	hasProp           bool   // about a body or a field in it
	field             string // the field as Where names it ("[].poster")
	operationWide     bool   // about the whole operation (removed, security)
	everyCall, unsent bool   // see hitRule
}

// FailOnBreakingUsed fails on the breaking changes that hit a recorded
// call (diff --traffic SRC --fail-on breaking-used).
const FailOnBreakingUsed FailOn = "breaking-used"

// Traffic is what a comparison knows of the recorded calls it marked the
// changes with (MarkTraffic).
type Traffic struct {
	Source  string `json:"source"` // the file, as given
	Kind    string `json:"kind"`   // "har" or "journal"
	Calls   int    `json:"calls"`
	Skipped int    `json:"skipped"` // entries that are no API call (pages, preflights …)
	// Hit counts the calls that hit at least one change.
	Hit int `json:"hit"`
	// Unmatched are the calls no operation of OLD matches.
	Unmatched []Unmatched `json:"unmatched"`
	// Notes say what of the recording was left out and why: the calls to
	// other servers than the API's, counted per server; the bodies over
	// the size limit, their calls named.
	Notes []string `json:"notes,omitempty"`
}

// Unmatched is a recorded call no operation of OLD matches.
type Unmatched struct {
	Index  int    `json:"index"`
	Method string `json:"method"`
	Path   string `json:"path"`
	Why    string `json:"why"`
}

// maxHitsKept bounds the hits a change keeps (the count goes on: see
// Change.HitCount).
const maxHitsKept = 100

// MarkTraffic marks each change with the calls of src it hits, the calls
// matched to operations by the OLD document old (as the mock routes
// them), and lists the calls that match none. The rule (hitRule) is in
// docs/contract-changes.md.
func (r *Report) MarkTraffic(src *traffic.Source, old *spec.Spec) {
	before := len(src.Skipped)
	matched := traffic.KeepAPIServers(src, traffic.MatchSpec(src, old))
	t := &Traffic{Source: contract.Safe(src.Name), Kind: src.Kind, Calls: len(src.Calls), Skipped: len(src.Skipped), Unmatched: []Unmatched{}}
	t.Notes = trafficNotes(src, len(src.Skipped)-before)
	byOp := map[[2]string][]traffic.Matched{}
	for _, m := range matched {
		if m.Path == "" {
			t.Unmatched = append(t.Unmatched, Unmatched{Index: m.Call.Index, Method: contract.Safe(m.Call.Method), Path: contract.Safe(m.Call.Path), Why: m.Why})
			continue
		}
		byOp[[2]string{m.Method, m.Path}] = append(byOp[[2]string{m.Method, m.Path}], m)
	}
	hit := map[int]bool{}
	fields := bodyFields{}
	for i := range r.Changes {
		c := &r.Changes[i]
		c.Hits, c.HitCount = nil, 0
		var calls []traffic.Matched
		switch {
		case c.Method != "":
			calls = byOp[[2]string{c.Method, c.Path}]
		case strings.Contains(c.ID, "security"):
			// A document-wide security change: every call matched.
			for _, m := range matched {
				if m.Path != "" {
					calls = append(calls, m)
				}
			}
		}
		for _, m := range calls {
			field, ok := c.hits(m.Call, old, fields)
			if !ok {
				continue
			}
			hit[m.Call.Index] = true
			c.HitCount++
			if len(c.Hits) < maxHitsKept {
				c.Hits = append(c.Hits, Hit{Index: m.Call.Index, Method: contract.Safe(m.Call.Method), Path: contract.Safe(callPath(m, old)), Field: contract.Safe(field)})
			}
		}
	}
	t.Hit = len(hit)
	r.Traffic = t
}

// maxNoteItems bounds the servers, and the calls, a note of Traffic names
// (it counts them all).
const maxNoteItems = 10

// trafficNotes are Traffic's notes on src: the calls KeepAPIServers took
// out (others of them), counted per server, and the calls whose bodies
// were left out over the size limit.
func trafficNotes(src *traffic.Source, others int) []string {
	var notes []string
	if others > 0 {
		count := map[string]int{}
		var order []string
		for _, s := range src.Skipped {
			origin, ok := traffic.OtherServer(s)
			if !ok {
				continue
			}
			if count[origin] == 0 {
				order = append(order, origin)
			}
			count[origin]++
		}
		slices.SortStableFunc(order, func(a, b string) int { return count[b] - count[a] })
		var parts []string
		for i, o := range order {
			if i == maxNoteItems {
				parts = append(parts, fmt.Sprintf("and %d more servers", len(order)-i))
				break
			}
			parts = append(parts, fmt.Sprintf("%s (%d)", contract.Safe(o), count[o]))
		}
		notes = append(notes, fmt.Sprintf("%d %s to other servers than the API's left out (the API's is the one most calls matching OLD went to): %s",
			others, plural(others, "call", "calls"), strings.Join(parts, ", ")))
	}
	var cut []string
	n := 0
	for i := range src.Calls {
		c := &src.Calls[i]
		for _, note := range c.Notes {
			if !strings.Contains(note, "over the limit") {
				continue
			}
			if n++; len(cut) < maxNoteItems {
				cut = append(cut, fmt.Sprintf("#%d %s", c.Index, contract.Safe(note)))
			}
			break
		}
	}
	if n > 0 {
		if n > len(cut) {
			cut = append(cut, fmt.Sprintf("and %d more", n-len(cut)))
		}
		notes = append(notes, fmt.Sprintf("%d %s a body over the size limit, left out: what it sent or got is not read (%s)",
			n, plural(n, "call has", "calls have"), strings.Join(cut, "; ")))
	}
	return notes
}

// callPath is a matched call's path with its query, cut for a report, a
// secret's value blanked (?token=, ?api_key=, a secret path parameter of
// the operation it matched in old, /reset-password/{token}: one rule
// with the journal's).
func callPath(m traffic.Matched, old *spec.Spec) string {
	c := m.Call
	p := c.Path
	if m.Path != "" && old != nil && old.Doc != nil && old.Doc.Paths != nil {
		if item := old.Doc.Paths.Value(m.Path); item != nil {
			if secret := model.SecretPathParams(item, item.GetOperation(m.Method)); len(secret) > 0 {
				p = model.RedactPath(m.Path, p, func(name string) bool { return slices.Contains(secret, name) })
			}
		}
	}
	if c.Query != "" {
		p += "?" + model.RedactQuery(c.Query, model.SecretName)
	}
	if len(p) > 200 {
		p = p[:200] + "…"
	}
	return p
}

// hitRule sets what calls to its operation a change hits:
//
//   - everyCall: the operation removed, its security added or changed, a
//     new required parameter or body field (or one that became required),
//     a request body that became required, and any change of the
//     operation as a whole: every call to it;
//   - a change of a parameter or a request body field: the calls that sent
//     it (unsent: a default changed, the calls that did not);
//   - a change of the request body itself: the calls that sent a body;
//   - a change of a response (a field, the body, the status, a header):
//     the calls whose recorded status is that response's ("2XX" a status
//     from 200 to 299, "default" one the operation declares no other
//     answer for).
func (p *place) hitRule(id string) {
	switch {
	case strings.HasPrefix(id, "api-removed") || strings.HasPrefix(id, "api-path-removed") || strings.Contains(id, "security"),
		id == "new-required-request-parameter", id == "request-parameter-became-required",
		id == "new-required-request-property", id == "request-property-became-required",
		id == "request-body-became-required", id == "new-required-request-header-property":
		p.everyCall = true
	case strings.Contains(id, "default-value") && p.side != "response":
		p.unsent = true
	}
	if p.param == "" && !p.hasProp && p.side == "" && p.status == "" {
		p.everyCall, p.operationWide = true, true
	}
}

// hits reports whether c hits call, and the field involved ("" for the
// operation as a whole).
func (c *Change) hits(call *traffic.Call, old *spec.Spec, fields bodyFields) (string, bool) {
	p := &c.at
	switch {
	case p.everyCall:
		if p.param != "" {
			return p.param, true
		}
		return p.field, true
	case p.param != "":
		return p.param, sentParam(call, p.paramIn, p.param) != p.unsent
	case p.side == "request" && p.prop == "":
		return "", len(call.Body) > 0
	case p.side == "request":
		return p.field, fields.sent(call, p.prop) != p.unsent
	case p.status != "":
		return p.field, statusIs(p.status, call.Status, declared(old, c.Method, c.Path))
	}
	return p.field, true
}

// sentParam reports whether call sent the parameter name in in.
func sentParam(call *traffic.Call, in, name string) bool {
	switch in {
	case "path":
		return true
	case "query":
		q, _ := url.ParseQuery(call.Query) // what it could read of a broken one
		_, ok := q[name]
		return ok
	case "header":
		return len(call.Header.Values(name)) > 0
	case "cookie":
		r := &http.Request{Header: http.Header{"Cookie": call.Header.Values("Cookie")}}
		_, err := r.Cookie(name)
		return err == nil
	}
	return false
}

// bodyFields are the fields each call's body has, read once a call: a
// recording may hold many megabytes of bodies, and a comparison hundreds
// of changes to body fields.
type bodyFields map[*traffic.Call]map[string]bool

// maxBodyFields bounds the field paths kept of one body, and their depth.
const (
	maxBodyFields = 10_000
	maxFieldDepth = 32
)

// sent reports whether call's body has the field at oasdiff's property
// path prop ("tags/items/name": items are an array's elements): in a JSON
// body, at any element of the arrays on the way; in a form, the first
// name. A segment that names no property (an anyOf's subschema) ends the
// path: the field above it was sent.
func (f bodyFields) sent(call *traffic.Call, prop string) bool {
	have, ok := f[call]
	if !ok {
		have = fieldsOf(call)
		f[call] = have
	}
	var segs []string
	for _, seg := range strings.Split(strings.Trim(prop, "/"), "/") {
		if seg == "" || strings.ContainsAny(seg, "[ #") {
			break
		}
		segs = append(segs, seg)
	}
	if len(segs) == 0 {
		return len(call.Body) > 0
	}
	return have[strings.Join(segs, "/")]
}

// fieldsOf lists the field paths of a call's body, as oasdiff writes them
// ("tags", "tags/items", "tags/items/name"), the first maxBodyFields.
func fieldsOf(call *traffic.Call) map[string]bool {
	out := map[string]bool{}
	if len(call.Body) == 0 {
		return out
	}
	mt, params, _ := mime.ParseMediaType(call.BodyType)
	switch mt {
	case "application/x-www-form-urlencoded":
		q, _ := url.ParseQuery(string(call.Body)) // what it could read of a broken one
		for k := range q {
			if len(out) < maxBodyFields {
				out[k] = true
			}
		}
		return out
	case "multipart/form-data":
		mr := multipart.NewReader(bytes.NewReader(call.Body), params["boundary"])
		for len(out) < maxBodyFields {
			part, err := mr.NextPart()
			if err != nil {
				break
			}
			out[part.FormName()] = true
			io.Copy(io.Discard, part)
		}
		return out
	}
	var v any
	if json.Unmarshal(call.Body, &v) != nil {
		return out
	}
	var walk func(v any, path string, depth int)
	walk = func(v any, path string, depth int) {
		if depth > maxFieldDepth || len(out) >= maxBodyFields {
			return
		}
		join := func(seg string) string {
			if path == "" {
				return seg
			}
			return path + "/" + seg
		}
		switch x := v.(type) {
		case map[string]any:
			for k, child := range x {
				if len(out) >= maxBodyFields {
					return
				}
				out[join(k)] = true
				walk(child, join(k), depth+1)
			}
		case []any:
			for _, e := range x {
				out[join("items")] = true
				walk(e, join("items"), depth+1)
			}
		}
	}
	walk(v, "", 0)
	return out
}

// statusIs reports whether a recorded status falls under a response's
// key: the status itself, a range ("2XX"), or "default" (any the
// operation declares no other answer for).
func statusIs(key string, status int, declared []string) bool {
	switch {
	case key == strconv.Itoa(status):
		return true
	case len(key) == 3 && strings.HasSuffix(strings.ToUpper(key), "XX"):
		return key[0] == byte('0'+status/100) && !slices.Contains(declared, strconv.Itoa(status))
	case key == "default":
		s := strconv.Itoa(status)
		return !slices.Contains(declared, s) && !slices.Contains(declared, s[:1]+"XX")
	}
	return false
}

// declared are the response keys an operation of the document declares.
func declared(sp *spec.Spec, method, path string) []string {
	if sp == nil || sp.Doc == nil || sp.Doc.Paths == nil {
		return nil
	}
	item := sp.Doc.Paths.Value(path)
	if item == nil {
		return nil
	}
	op := item.GetOperation(method)
	if op == nil || op.Responses == nil {
		return nil
	}
	var out []string
	for k := range op.Responses.Map() {
		out = append(out, strings.ToUpper(k))
	}
	return out
}

// Used is the number of changes at level l that hit a recorded call.
func (r *Report) Used(l Level) int {
	n := 0
	for i := range r.Changes {
		if r.Changes[i].Level == l && r.Changes[i].HitCount > 0 {
			n++
		}
	}
	return n
}

// hitsLine is a change's hits in one line: "2 recorded calls: GET
// /movies?year=1999 (#4, [].poster), GET /movies/tt01 (#5) …".
func hitsLine(count int, hits []Hit) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d recorded %s: ", count, plural(count, "call", "calls"))
	for i, h := range hits {
		if i == 3 {
			b.WriteString(", …")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %s (#%d", h.Method, h.Path, h.Index)
		if h.Field != "" {
			b.WriteString(", " + h.Field)
		}
		b.WriteString(")")
	}
	return b.String()
}
