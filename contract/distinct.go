package contract

import (
	"regexp"
	"strings"
)

// Distinct is one cause of failure: the failed checks of one check on one
// operation whose messages are the same once the values that vary from
// case to case are taken out (NormalizeMessage).
type Distinct struct {
	Check     string `json:"check"`
	Operation string `json:"operation"`
	Method    string `json:"method"`
	Path      string `json:"path"`
	// Message is the normalised "expected …, got …" the failures share.
	Message string `json:"message"`
	// Count is how many failed checks have this cause.
	Count int `json:"count"`
	// Smallest is the failing case with the shortest request (URL and
	// body), the one to reproduce first; Failure is its failed check.
	Smallest *Result     `json:"-"`
	Failure  CheckResult `json:"-"`
}

var (
	quotedDouble = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	quotedSingle = regexp.MustCompile(`'(?:[^'\\]|\\.)*'`)
	uuidLike     = regexp.MustCompile(`(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)
	hexRun       = regexp.MustCompile(`(?i)\b[0-9a-f]{8,}\b`)
	number       = regexp.MustCompile(`\d+(?:\.\d+)?(?:[eE][-+]?\d+)?`)
	// assigned is a name=value outside quotes, as a filter or a query
	// names one: movie_id=tt0137523 and movie_id=<a uuid> are one cause.
	assigned = regexp.MustCompile(`\b([A-Za-z_][A-Za-z0-9_.\-]*)=[^\s,;)&"']+`)
)

// NormalizeMessage is msg with the values that vary per case written as
// placeholders: the body after a status ("500 Internal Server Error with
// body …": the status is the cause, the body echoes the case) becomes …,
// quoted inputs ("…" and '…': generated strings, ids) "…", UUIDs <uuid>,
// hex ids of 8 or more characters <hex>, the value of a name=value …,
// and every number N. Statuses
// and status classes stay: "got 500" and "got 404", "5xx" and "4xx" are
// different causes.
func NormalizeMessage(msg string) string {
	if i := strings.Index(msg, " with body "); i >= 0 {
		msg = msg[:i+len(" with body ")] + "…"
	}
	msg = quotedDouble.ReplaceAllString(msg, `"…"`)
	msg = quotedSingle.ReplaceAllString(msg, `'…'`)
	msg = assigned.ReplaceAllString(msg, "$1=…")
	msg = uuidLike.ReplaceAllString(msg, "<uuid>")
	msg = hexRun.ReplaceAllStringFunc(msg, func(s string) string {
		if strings.ContainsAny(s, "0123456789") && strings.ContainsAny(strings.ToLower(s), "abcdef") {
			return "<hex>"
		}
		return s
	})
	var b strings.Builder
	last := 0
	for _, m := range number.FindAllStringIndex(msg, -1) {
		s := msg[m[0]:m[1]]
		status := len(s) == 3 && s[0] >= '1' && s[0] <= '5' && !strings.ContainsAny(s, ".eE")
		class := len(s) == 1 && strings.HasPrefix(strings.ToLower(msg[m[1]:]), "xx")
		// Digits inside a word (base64url, utf8mb4) are part of its name.
		inWord := m[0] > 0 && m[1] < len(msg) && letter(msg[m[0]-1]) && letter(msg[m[1]])
		b.WriteString(msg[last:m[0]])
		if status || class || inWord {
			b.WriteString(s)
		} else {
			b.WriteString("N")
		}
		last = m[1]
	}
	b.WriteString(msg[last:])
	return b.String()
}

func letter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// requestSize is how long a request is: its URL and its body.
func requestSize(req Request) int { return len(req.URL) + len(req.Body) }

// Distinct groups the failed checks by cause, in the order their first
// failure appears: each with how many failed checks share it and the
// smallest failing case.
func (r *Report) Distinct() []Distinct {
	var out []Distinct
	index := map[string]int{}
	for _, res := range r.Results {
		for _, c := range res.Checks {
			if c.Passed {
				continue
			}
			msg := NormalizeMessage("expected " + c.Expected + ", got " + c.Got)
			key := c.Check + "\x00" + res.Case.Operation + "\x00" + res.Case.Method + " " + res.Case.Path + "\x00" + msg
			i, ok := index[key]
			if !ok {
				i = len(out)
				index[key] = i
				out = append(out, Distinct{Check: c.Check, Operation: res.Case.Operation,
					Method: res.Case.Method, Path: res.Case.Path, Message: msg, Smallest: res, Failure: c})
			}
			d := &out[i]
			d.Count++
			if requestSize(res.Case.Request) < requestSize(d.Smallest.Case.Request) {
				d.Smallest, d.Failure = res, c
			}
		}
	}
	return out
}
