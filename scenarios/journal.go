package scenarios

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/moviemock/moviemock/internal/jsonscan"
	"github.com/moviemock/moviemock/internal/status"
)

// Entry is one request as the journal keeps it: what the client sent
// (secrets blanked) and how moviemock answered. It is recorded as the answer
// begins, so it is in the journal before the client sees any of the answer.
type Entry struct {
	Seq      int64               `json:"seq"`
	Time     time.Time           `json:"time"`
	Method   string              `json:"method"`
	Path     string              `json:"path"`
	Template string              `json:"template,omitempty"` // the contract path it fell under
	Query    string              `json:"query,omitempty"`
	Headers  map[string][]string `json:"headers"`
	Form     map[string]string   `json:"form,omitempty"`
	// Body is a JSON request body as sent, compacted, secrets blanked;
	// BodyBytes is the size of any body sent, JSON or not, as far as read.
	Body      json.RawMessage `json:"body,omitempty"`
	BodyBytes int             `json:"body_bytes,omitempty"`
	BodyNote  string          `json:"body_note,omitempty"` // why a body sent is not shown
	Session   string          `json:"session,omitempty"`
	Scenario  string          `json:"scenario,omitempty"`
	Rule      string          `json:"rule,omitempty"`  // the rule that answered; empty: the normal answer
	State     string          `json:"state,omitempty"` // the scenario's state after the request
	Prefer    string          `json:"prefer,omitempty"`
	Fault     string          `json:"fault,omitempty"`
	Status    int             `json:"status"`      // 0: no answer was sent (a fault)
	Duration  float64         `json:"duration_ms"` // until the answer began

	// resolved says Template is worked out. A request's contract path is
	// found when the journal is read, unless a rule needed it anyway:
	// matching it on every request cost a sixth of a normal answer.
	resolved bool
}

// journal keeps the last size requests.
type journal struct {
	size int
	mu   sync.Mutex
	ring []Entry
	next int   // where the next entry goes once the ring is full
	seq  int64 // entries ever added
}

func (j *journal) add(e Entry) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.seq++
	e.Seq = j.seq
	if len(j.ring) < j.size {
		j.ring = append(j.ring, e)
		return
	}
	j.ring[j.next] = e
	j.next = (j.next + 1) % j.size
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

// entries lists what f selects, oldest first; template finds the contract
// path of an entry that lacks it.
func (j *journal) entries(f Filter, template func(path string) string) []Entry {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := []Entry{}
	for i := range j.ring {
		e := &j.ring[(j.next+i)%len(j.ring)]
		if !e.resolved {
			e.Template, e.resolved = template(e.Path), true
		}
		if f.keeps(e) {
			out = append(out, *e)
		}
	}
	if f.Limit > 0 && len(out) > f.Limit {
		out = out[len(out)-f.Limit:]
	}
	return out
}

// clear forgets every entry, or those of one session.
func (j *journal) clear(session string) int {
	j.mu.Lock()
	defer j.mu.Unlock()
	n := len(j.ring)
	if session == "" {
		j.ring, j.next = nil, 0
		return n
	}
	kept := make([]Entry, 0, len(j.ring))
	for i := range j.ring {
		e := j.ring[(j.next+i)%len(j.ring)]
		if e.Session != session {
			kept = append(kept, e)
		}
	}
	j.ring, j.next = kept, 0
	return n - len(kept)
}

// len is how many entries the journal holds.
func (j *journal) len() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.ring)
}

// Journal lists recorded requests, oldest first.
func (e *Engine) Journal(f Filter) []Entry {
	return e.journal.entries(f, func(path string) string {
		if p := e.Set().index.matchPath(path); p != nil {
			return p.template
		}
		return ""
	})
}

// secretHeaders are never journaled as sent.
var secretHeaders = map[string]bool{"Authorization": true, "Proxy-Authorization": true, "Cookie": true, "X-Mock-Admin-Token": true}

func (e *Engine) entry(r *http.Request, w *status.Writer, tr *trace, start time.Time) Entry {
	headers := make(map[string][]string, len(r.Header))
	for k, vs := range r.Header {
		if secretHeaders[k] {
			out := make([]string, len(vs))
			for i, v := range vs {
				// Keep the scheme: "Bearer [redacted]" still says a token was sent.
				if scheme, _, ok := strings.Cut(v, " "); ok && k != "Cookie" {
					out[i] = scheme + " " + redacted
				} else {
					out[i] = redacted
				}
			}
			vs = out
		}
		headers[k] = vs
	}
	code := w.Code
	if code == 0 && tr.fault == "" {
		code = http.StatusOK
	}
	template, resolved := "", false
	if f := tr.facts; f != nil && f.routed {
		resolved = true
		if f.tmpl != nil {
			template = f.tmpl.template
		}
	}
	return Entry{
		Time:      start,
		Method:    r.Method,
		Path:      r.URL.Path,
		Template:  template,
		Query:     r.URL.RawQuery,
		Headers:   headers,
		Form:      tr.form,
		Body:      tr.body,
		BodyBytes: tr.bodyBytes,
		BodyNote:  tr.bodyNote,
		Session:   tr.session,
		Scenario:  tr.scenario,
		Rule:      tr.rule,
		State:     tr.state,
		Prefer:    tr.prefer,
		Fault:     tr.fault,
		Status:    code,
		Duration:  float64(e.opts.Now().Sub(start).Microseconds()) / 1000,
		resolved:  resolved,
	}
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
		return
	}
	tr.bodyBytes = len(b)
	if len(b) == 0 {
		return
	}
	switch {
	case len(b) > maxJournalBody:
		tr.bodyNote = fmt.Sprintf("larger than %d bytes, not kept", maxJournalBody)
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
			return secretName(name) || (p != nil && p.secret(f.r.Method, name))
		})
	}
}

// redactJSON copies the compact JSON value raw, which jsonscan.Value
// accepts, with the value of every
// member whose name secret reports, at any depth, replaced by "[redacted]".
func redactJSON(raw []byte, secret func(string) bool) []byte {
	out := make([]byte, 0, len(raw))
	var walk func(i int) int
	walk = func(i int) int {
		switch raw[i] {
		case '{':
			out = append(out, '{')
			first := true
			end := jsonscan.Members(raw, i, func(name []byte, escaped bool, v int) int {
				if !first {
					out = append(out, ',')
				}
				first = false
				key, _ := jsonscan.Str(name, escaped)
				out = append(out, name...)
				out = append(out, ':')
				if secret(key) {
					out = append(out, `"`+redacted+`"`...)
					return jsonscan.End(raw, v)
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
		out = append(out, raw[i:end]...)
		return end
	}
	walk(0)
	return out
}

// secretName reports whether a field's name says it holds a credential,
// whatever its schema says: FastAPI's plain str password of a
// registration body has no format.
func secretName(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "password") || strings.Contains(n, "secret") || n == "token" || strings.HasSuffix(n, "_token")
}
