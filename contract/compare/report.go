package compare

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/moviemock/moviemock/internal/framework"
)

// document is the operation name of the document-wide changes in the
// reports.
const document = "(document)"

func (r *Report) failOn() FailOn {
	if r.FailOn == "" {
		return FailOnBreaking
	}
	return r.FailOn
}

// Failed reports whether a change fails the comparison under its FailOn.
func (r *Report) Failed() bool { return len(r.Verdict(r.failOn())) > 0 }

// counts is "2 breaking, 1 warning, 3 info".
func (r *Report) counts() string {
	return fmt.Sprintf("%d breaking, %d %s, %d info", r.Count(Breaking), r.Count(Warning), plural(r.Count(Warning), "warning", "warnings"), r.Count(Info))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Operations are the operations with a change, in report order, the
// document-wide changes last.
func (r *Report) Operations() []string {
	var ops []string
	seen := map[string]bool{}
	doc := false
	for i := range r.Changes {
		op := r.Changes[i].Operation()
		if op == "" {
			doc = true
			continue
		}
		if !seen[op] {
			seen[op] = true
			ops = append(ops, op)
		}
	}
	if doc {
		ops = append(ops, document)
	}
	return ops
}

func opName(c *Change) string {
	if op := c.Operation(); op != "" {
		return op
	}
	return document
}

// operationCount is the number of operations with a change.
func (r *Report) operationCount() int {
	ops := r.Operations()
	if slices.Contains(ops, document) {
		return len(ops) - 1
	}
	return len(ops)
}

// SummaryLine is the comparison in one line a CI log can grep:
//
//	moviemock diff: FAILED 2 breaking, 1 warning, 4 info (--fail-on breaking) · 3 operations changed
func (r *Report) SummaryLine() string {
	verdict := "PASSED"
	if r.Failed() {
		verdict = "FAILED"
	}
	ops := r.Operations()
	n := len(ops)
	if slices.Contains(ops, document) {
		n--
	}
	line := fmt.Sprintf("moviemock diff: %s %s (--fail-on %s) · %d %s changed", verdict, r.counts(), r.failOn(), n, plural(n, "operation", "operations"))
	if r.Stopped {
		line += " · " + r.stoppedNote()
	}
	if r.Traffic != nil {
		line += fmt.Sprintf(" · %d breaking used · %d of %d recorded calls hit a change", r.Used(Breaking), r.Traffic.Hit, r.Traffic.Calls)
	}
	return line
}

// stoppedNote says the comparison stopped collecting, and how to move it.
func (r *Report) stoppedNote() string {
	return fmt.Sprintf("PARTIAL: stopped collecting past %d %s (--max-changes %d); the verdict is of those seen, raise --max-changes for all", r.MaxChanges, plural(r.MaxChanges, "change", "changes"), r.MaxChanges)
}

// maxUnmatchedShown bounds the calls matching no operation the text and
// HTML reports list (the JSON lists them all).
const maxUnmatchedShown = 50

// trafficLine is what the recording holds and what of it hit a change.
func (r *Report) trafficLine() string {
	t := r.Traffic
	return fmt.Sprintf("%d %s (%d skipped: pages, scripts, preflights …), %d hit a change, %d match no operation of OLD; %d breaking, %d warning, %d info %s hit",
		t.Calls, plural(t.Calls, "call", "calls"), t.Skipped, t.Hit, len(t.Unmatched), r.Used(Breaking), r.Used(Warning), r.Used(Info),
		plural(r.Used(Breaking)+r.Used(Warning)+r.Used(Info), "change", "changes"))
}

// group is the changes of one level that read the same (the same id and
// reason, on a field of the same name) in several operations: one schema
// used by several of them.
type group struct {
	first Change
	// ops are the operations, the first's first; each other one with its
	// own place when it differs from the first's ("POST /items (response
	// 201 body: title)").
	ops      []string
	opCount  int   // the operations, ops holding the first maxAlsoShown+1
	hits     []Hit // of every change in the group, in the recording's order
	hitCount int
}

// leaf is the last name of a change's place: "title" for "response 200
// body: [].title"; a place without a field is itself.
func leaf(where string) string {
	_, field, ok := strings.Cut(where, ": ")
	if !ok {
		return where
	}
	if i := strings.LastIndexAny(field, ".]"); i >= 0 {
		field = field[i+1:]
	}
	return field
}

// groups are the changes at level l, each told once with every operation
// it is in, in report order.
func (r *Report) groups(l Level) []*group {
	var gs []*group
	index := map[[3]string]*group{}
	for _, c := range r.Changes {
		if c.Level != l {
			continue
		}
		key := [3]string{c.ID, c.Why, leaf(c.Where)}
		g, ok := index[key]
		op := opName(&c)
		if !ok || c.Method == "" {
			g = &group{first: c}
			index[key] = g
			gs = append(gs, g)
		} else if c.Where != g.first.Where {
			op += " (" + c.Where + ")"
		}
		if g.opCount++; len(g.ops) <= maxAlsoShown {
			g.ops = append(g.ops, op)
		}
		g.hits = append(g.hits, c.Hits...)
		g.hitCount += c.HitCount
	}
	for _, g := range gs {
		slices.SortStableFunc(g.hits, func(a, b Hit) int { return a.Index - b.Index })
	}
	return gs
}

// maxAlsoShown bounds the other operations the text and HTML reports name
// for a change told once for several (a schema they share); the rest are
// counted. The JSON and JUnit reports list each change in each operation.
const maxAlsoShown = 5

// also is the other operations of a group: "GET /a, GET /b and 7 more".
func (g *group) also() string {
	s := strings.Join(g.ops[1:], ", ")
	if more := g.opCount - len(g.ops); more > 0 {
		s += fmt.Sprintf(" and %d more %s", more, plural(more, "place", "places"))
	}
	return s
}

// ReadBy says how the changes were read: the profile and what chose it
// ("" for a report that names none).
func (r *Report) ReadBy() string {
	if r.Framework == "" {
		return ""
	}
	if r.Framework == framework.FastAPI {
		return fmt.Sprintf("fastapi profile, as a FastAPI backend means the documents (%s)", r.FrameworkWhy)
	}
	return fmt.Sprintf("%s profile, by the documents' own words (%s)", r.Framework, r.FrameworkWhy)
}

// WriteText writes the report for a reader: breaking changes first, then
// warnings, then info, each grouped by operation; a change the same in
// several operations (a schema they share) is told once with the others
// named. It ends with SummaryLine.
func (r *Report) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	ew.printf("moviemock diff: OLD %s → NEW %s (%s)\n", r.Old, r.New, Engine)
	if r.Framework != "" {
		ew.printf("Read by the %s\n", r.ReadBy())
	}
	if len(r.Changes) == 0 {
		ew.printf("\nNo change a client can see.\n")
	}
	for l := Breaking; l >= Info; l-- {
		gs := r.groups(l)
		if len(gs) == 0 {
			continue
		}
		ew.printf("\n%s (%d)\n", strings.ToUpper(l.String()), r.Count(l))
		last := ""
		for _, g := range gs {
			c := g.first
			if op := opName(&c); op != last {
				ew.printf("  %s\n", op)
				last = op
			}
			ew.printf("    %s", c.ID)
			if c.Where != "" {
				ew.printf("  %s", c.Where)
			}
			ew.printf("\n      %s\n      why: %s\n", c.Text, c.Why)
			if g.opCount > 1 {
				ew.printf("      also in: %s\n", g.also())
			}
			if g.hitCount > 0 {
				ew.printf("      hits %s\n", hitsLine(g.hitCount, g.hits))
			}
		}
	}
	if t := r.Traffic; t != nil {
		ew.printf("\nRECORDED CALLS (%s, %s)\n  %s\n", t.Source, t.Kind, r.trafficLine())
		for i, u := range t.Unmatched {
			if i == maxUnmatchedShown {
				ew.printf("  … and %d more\n", len(t.Unmatched)-i)
				break
			}
			ew.printf("  no operation: %s %s (#%d): %s\n", u.Method, u.Path, u.Index, u.Why)
		}
		for _, n := range t.Notes {
			ew.printf("  note: %s\n", n)
		}
	}
	if r.Stopped {
		ew.printf("\n%s: the changed operations after the %d above were not compared\n", r.stoppedNote(), r.operationCount())
	}
	if r.Dropped > 0 {
		ew.printf("\n(%d of oasdiff's findings left out: about info.version, which no client sees)\n", r.Dropped)
	}
	ew.printf("\n%s\n", r.SummaryLine())
	return ew.err
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}

// jsonReport is the JSON report; its field names are documented in
// docs/contract-changes.md and kept stable.
type jsonReport struct {
	Old         string      `json:"old"`
	New         string      `json:"new"`
	Engine      string      `json:"engine"`
	Framework   string      `json:"framework,omitempty"`
	ReadBy      string      `json:"read_by,omitempty"`
	FailOn      FailOn      `json:"fail_on"`
	Failed      bool        `json:"failed"`
	Summary     jsonSummary `json:"summary"`
	SummaryLine string      `json:"summary_line"`
	Changes     []Change    `json:"changes"`
	Traffic     *Traffic    `json:"traffic,omitempty"`
}

type jsonSummary struct {
	Breaking   int `json:"breaking"`
	Warning    int `json:"warning"`
	Info       int `json:"info"`
	Operations int `json:"operations"`
	Dropped    int `json:"dropped"`
	// Stopped: the comparison stopped at MaxChanges of oasdiff's
	// findings (diff --max-changes), so the changes are partial.
	Stopped    bool `json:"stopped,omitempty"`
	MaxChanges int  `json:"max_changes,omitempty"`
	// Of the changes, those that hit a recorded call (with --traffic).
	BreakingUsed *int `json:"breaking_used,omitempty"`
	WarningUsed  *int `json:"warning_used,omitempty"`
	InfoUsed     *int `json:"info_used,omitempty"`
}

// WriteJSON writes the report as one JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	ops := r.Operations()
	n := len(ops)
	if slices.Contains(ops, document) {
		n--
	}
	out := jsonReport{
		Old: r.Old, New: r.New, Engine: Engine, Framework: string(r.Framework), ReadBy: r.FrameworkWhy, FailOn: r.failOn(), Failed: r.Failed(),
		Summary:     jsonSummary{Breaking: r.Count(Breaking), Warning: r.Count(Warning), Info: r.Count(Info), Operations: n, Dropped: r.Dropped, Stopped: r.Stopped},
		SummaryLine: r.SummaryLine(),
		Changes:     r.Changes,
		Traffic:     r.Traffic,
	}
	if r.Stopped {
		out.Summary.MaxChanges = r.MaxChanges
	}
	if r.Traffic != nil {
		b, w, i := r.Used(Breaking), r.Used(Warning), r.Used(Info)
		out.Summary.BreakingUsed, out.Summary.WarningUsed, out.Summary.InfoUsed = &b, &w, &i
	}
	if out.Changes == nil {
		out.Changes = []Change{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the report as JUnit XML: one testcase per operation
// with a change, failed when one of its changes fails the comparison
// (FailOn); the changes below that level are its system-out.
func (r *Report) WriteJUnit(w io.Writer) error {
	// Each change read once, not once per operation: a document of
	// thousands of operations changed is written in time with its size.
	type key struct{ id, method, path, where, text string }
	failing := map[key]bool{}
	for _, f := range r.Verdict(r.failOn()) {
		failing[key{f.ID, f.Method, f.Path, f.Where, f.Text}] = true
	}
	fails := func(c *Change) bool { return failing[key{c.ID, c.Method, c.Path, c.Where, c.Text}] }
	byOp := map[string][]*Change{}
	for i := range r.Changes {
		c := &r.Changes[i]
		byOp[opName(c)] = append(byOp[opName(c)], c)
	}
	suite := junitSuite{Name: "moviemock diff " + r.Old + " → " + r.New}
	for _, op := range r.Operations() {
		tc := junitCase{Name: op, Classname: "moviemock.diff"}
		var failed, rest []string
		for _, c := range byOp[op] {
			line := fmt.Sprintf("[%s] %s", c.Level, c.ID)
			if c.Where != "" {
				line += " " + c.Where
			}
			line += ": " + c.Text + "\n  why: " + c.Why
			if c.HitCount > 0 {
				line += "\n  hits " + hitsLine(c.HitCount, c.Hits)
			}
			if fails(c) {
				failed = append(failed, line)
			} else {
				rest = append(rest, line)
			}
		}
		if len(failed) > 0 {
			tc.Failure = &junitFailure{
				Message: fmt.Sprintf("%d %s at or above --fail-on %s", len(failed), plural(len(failed), "change", "changes"), r.failOn()),
				Type:    "change",
				Text:    strings.Join(failed, "\n"),
			}
			suite.Failures++
		}
		if len(rest) > 0 {
			tc.SystemOut = strings.Join(rest, "\n")
		}
		suite.Cases = append(suite.Cases, tc)
	}
	if t := r.Traffic; t != nil {
		// The recording itself: never a failure, its calls that match no
		// operation of OLD in system-out.
		tc := junitCase{Name: "recorded calls: " + t.Source, Classname: "moviemock.diff", SystemOut: r.trafficLine()}
		for _, u := range t.Unmatched {
			tc.SystemOut += fmt.Sprintf("\nno operation: %s %s (#%d): %s", u.Method, u.Path, u.Index, u.Why)
		}
		for _, n := range t.Notes {
			tc.SystemOut += "\nnote: " + n
		}
		suite.Cases = append(suite.Cases, tc)
	}
	if r.Stopped {
		// Never a failure: the changes above are those seen.
		suite.Cases = append(suite.Cases, junitCase{Name: "comparison stopped", Classname: "moviemock.diff", SystemOut: r.stoppedNote()})
	}
	suite.Tests = len(suite.Cases)
	out := junitSuites{Name: "moviemock diff", Tests: suite.Tests, Failures: suite.Failures, Suites: []junitSuite{suite}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
