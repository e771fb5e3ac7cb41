package contract

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Report is a finished run.
type Report struct {
	BaseURL  string        `json:"base_url"`
	Spec     string        `json:"spec"`
	Seed     uint64        `json:"seed"`
	Started  time.Time     `json:"started_at"`
	Duration time.Duration `json:"-"`
	Notes    []string      `json:"notes,omitempty"`
	Results  []*Result     `json:"results"`
	// Stopped says why the run ended before every case was sent (an
	// unresponsive target, --max-failures); "" when it did not.
	Stopped string `json:"stopped,omitempty"`
	// Coverage is per operation: the statuses seen, the kinds of case run.
	Coverage []Coverage `json:"coverage,omitempty"`
	// Untested lists the operations the run could not test: each fails
	// the run, unless excluded by name (Config.ExcludeOperations).
	Untested []Untested `json:"untested,omitempty"`
	// Observed is set on the report of exchanges a proxy relayed
	// (Observer.Report): Results then lists only the failing exchanges
	// kept, and the tallies are the Observer's, of every exchange.
	Observed *ObservedSummary `json:"observed,omitempty"`
	// Credentials are the run's secrets: every writer hides them
	// (Redactor), and what it finds in the results besides.
	Credentials Credentials `json:"-"`
	// redactedCopy: the report is already the writers' copy (redacted).
	redactedCopy bool
	// secretFields are the fields the contract marks writeOnly or format:
	// password: the writers hide their values as those of
	// model.SecretName's.
	secretFields map[string]bool
	// Verbose: the text report lists every failed check after the
	// distinct ones, not only how many there are.
	Verbose bool `json:"-"`
}

// Untested is an operation the run could not test, and why.
type Untested struct {
	Operation string `json:"operation"`
	Method    string `json:"method"`
	Path      string `json:"path"`
	Why       string `json:"why"`
}

// Skipped counts the cases not sent.
func (r *Report) Skipped() int {
	n := 0
	for _, res := range r.Results {
		if res.Response.Skipped != "" {
			n++
		}
	}
	return n
}

// FailedCases counts the cases with a failed check (observed: the
// exchanges).
func (r *Report) FailedCases() int {
	if r.Observed != nil {
		return r.Observed.Failed
	}
	n := 0
	for _, res := range r.Results {
		if res.Failed() {
			n++
		}
	}
	return n
}

// Failures counts failed checks.
func (r *Report) Failures() int {
	if r.Observed != nil {
		n := 0
		for _, t := range r.Observed.Checks {
			n += t.Failed
		}
		return n
	}
	n := len(r.Untested) // an operation not tested fails the run
	for _, res := range r.Results {
		for _, c := range res.Checks {
			if !c.Passed {
				n++
			}
		}
	}
	return n
}

// Tally is passed and failed checks.
type Tally struct {
	Name   string `json:"name"`
	Cases  int    `json:"cases,omitempty"`
	Passed int    `json:"passed"`
	Failed int    `json:"failed"`
}

// ByCheck tallies results per check, in Checks order.
func (r *Report) ByCheck() []Tally {
	if r.Observed != nil {
		return r.Observed.Checks
	}
	var out []Tally
	for _, c := range Checks {
		t := Tally{Name: c.name}
		for _, res := range r.Results {
			for _, cr := range res.Checks {
				if cr.Check != c.name {
					continue
				}
				if cr.Passed {
					t.Passed++
				} else {
					t.Failed++
				}
			}
		}
		if t.Passed+t.Failed > 0 {
			out = append(out, t)
		}
	}
	return out
}

// ByOperation tallies results per operation, in case order.
func (r *Report) ByOperation() []Tally {
	if r.Observed != nil {
		return r.Observed.Operations
	}
	var out []Tally
	index := map[string]int{}
	for _, res := range r.Results {
		name := res.Case.Operation + " " + res.Case.Method + " " + res.Case.Path
		i, ok := index[name]
		if !ok {
			i = len(out)
			index[name] = i
			out = append(out, Tally{Name: name})
		}
		out[i].Cases++
		for _, c := range res.Checks {
			if c.Passed {
				out[i].Passed++
			} else {
				out[i].Failed++
			}
		}
	}
	return out
}

// Curl is a shell command that sends req again.
func Curl(req Request) string {
	parts := []string{"curl", "-i"}
	if req.Method != "GET" {
		method := req.Method
		if strings.TrimFunc(method, func(r rune) bool { return 'A' <= r && r <= 'Z' }) != "" {
			// A token can still hold & $ ' |: a client's own method
			// (a proxy's exchange) is quoted as any other word.
			method = shellQuote(method)
		}
		parts = append(parts, "-X", method)
	}
	parts = append(parts, shellQuote(req.URL))
	names := make([]string, 0, len(req.Header))
	for k := range req.Header {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		for _, v := range req.Header[k] {
			parts = append(parts, "-H", shellQuote(k+": "+v))
		}
	}
	if req.Body != "" {
		parts = append(parts, "--data-raw", shellQuote(req.Body))
	}
	return strings.Join(parts, " ")
}

// shellQuote quotes s for a POSIX shell; bytes a terminal would mangle
// (control characters, bidi overrides, invalid UTF-8) use bash's $'…' form.
func shellQuote(s string) string {
	plain := utf8.ValidString(s)
	for _, r := range s {
		if !plain || !unicode.IsPrint(r) || needsEscape(r) {
			plain = false
			break
		}
	}
	if plain {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\'' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case (r == utf8.RuneError && size == 1) || !unicode.IsPrint(r) || needsEscape(r):
			for _, c := range []byte(s[i : i+size]) {
				fmt.Fprintf(&b, "\\x%02x", c)
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteString("'")
	return b.String()
}

// needsEscape is true for the characters a report must not print as they
// are: C0 controls (newline and tab included), DEL, C1 controls, bidi
// controls (U+202E…) and the line and paragraph separators.
func needsEscape(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x2028 || r == 0x2029 || unicode.Is(unicode.Bidi_Control, r)
}

// Safe is s with every character needsEscape names, and every byte that is
// not UTF-8, written as an escape (\x1b, \r, \u202e): what a target sent
// can then neither drive the terminal nor reorder the line it is on.
func Safe(s string) string {
	clean := true
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || needsEscape(r) {
			clean = false
			break
		}
		i += size
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80 && needsEscape(r):
			fmt.Fprintf(&b, "\\x%02x", r)
		case needsEscape(r):
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// WriteText writes the human report: a summary per operation (with the
// statuses seen and the kinds of case run) and per check, then every
// failure with its request, expectation, answer and a curl command that
// reproduces it, and last one summary line. Everything the target sent is
// escaped (Safe): it cannot drive the terminal.
func (r *Report) WriteText(w io.Writer) error {
	r = r.redacted()
	ew := &errWriter{w: w}
	unit, none := "cases", "no cases"
	if o := r.Observed; o != nil {
		unit, none = "exchanges", "not seen"
		target := "upstream " + Safe(r.BaseURL)
		if r.BaseURL == "" {
			target = "proxy"
		}
		ew.printf("moviemock proxy: %s (contract %s): %s\n", target, Safe(r.Spec), o.line(r.Failures()))
	} else {
		ew.printf("moviemock contract: %s (contract %s, seed %d)\n", Safe(r.BaseURL), Safe(r.Spec), r.Seed)
	}
	for _, n := range r.Notes {
		ew.printf("note: %s\n", Safe(n))
	}
	coverage := r.coverage()
	byName := map[string]*Coverage{}
	for i := range coverage {
		c := &coverage[i]
		byName[c.Operation+" "+c.Method+" "+c.Path] = c
	}
	ew.printf("\nOperations:\n")
	for _, t := range r.ByOperation() {
		ew.printf("  %-50s %4d %s  %5d checks passed  %3d failed\n", Safe(t.Name), t.Cases, unit, t.Passed, t.Failed)
		if c := byName[t.Name]; c != nil {
			c.writeText(ew)
		}
	}
	for _, c := range coverage {
		if c.Cases == 0 {
			what := none
			if c.Mocked > 0 {
				what = fmt.Sprintf("answered by the mock only (%s), not checked", plural(c.Mocked, "exchange", "exchanges"))
			}
			ew.printf("  %-50s    %s\n", Safe(c.Operation+" "+c.Method+" "+c.Path), what)
		}
	}
	ew.printf("\nChecks:\n")
	for _, t := range r.ByCheck() {
		mark := "ok  "
		if t.Failed > 0 {
			mark = "FAIL"
		}
		ew.printf("  %s %-30s %5d passed  %3d failed\n", mark, t.Name, t.Passed, t.Failed)
	}
	if skipped := r.Skipped(); skipped > 0 {
		ew.printf("\nSkipped: %d cases not sent\n", skipped)
		reasons := map[string]int{}
		var order []string
		for _, res := range r.Results {
			if why := res.Response.Skipped; why != "" {
				if reasons[why] == 0 {
					order = append(order, why)
				}
				reasons[why]++
			}
		}
		for _, why := range order {
			ew.printf("  %4d  %s\n", reasons[why], Safe(why))
		}
	}
	if r.Stopped != "" {
		ew.printf("\nStopped early: %s; %d cases not run\n", Safe(r.Stopped), r.Skipped())
	}
	if len(r.Untested) > 0 {
		ew.printf("\nNot tested (each fails the run; leave one out with --exclude-operation):\n")
		for _, u := range r.Untested {
			name := u.Operation
			if name == "" {
				name = u.Method + " " + u.Path
			}
			ew.printf("  %s %s %s: %s\n", Safe(u.Operation), Safe(u.Method), Safe(u.Path), Safe(u.Why))
			ew.printf("     --exclude-operation %s\n", Safe(shellQuote(name)))
		}
	}
	distinct := r.Distinct()
	failed := 0
	for _, d := range distinct {
		failed += d.Count
	}
	if len(distinct) > 0 {
		ew.printf("\nDistinct failures: %s of %d failed checks, each with its smallest failing case:\n", plural(len(distinct), "cause", "causes"), failed)
		for i, d := range distinct {
			ew.printf("\n%d) %s — %s %s %s — %s\n", i+1, Safe(d.Check), Safe(d.Operation), Safe(d.Method), Safe(d.Path), plural(d.Count, "failure", "failures"))
			ew.printf("   cause:     %s\n", Safe(d.Message))
			r.writeFailureText(ew, d.Smallest, d.Failure, true)
		}
	}
	if failed > 0 && !r.Verbose && r.Observed == nil {
		ew.printf("\n%d failed checks in all; rerun with --verbose to list every one\n", failed)
	} else {
		n := 0
		for _, res := range r.Results {
			for _, c := range res.Checks {
				if c.Passed {
					continue
				}
				n++
				if n == 1 {
					ew.printf("\nFailures:\n")
				}
				if r.Observed != nil {
					ew.printf("\n%d) %s — %s, %s\n", n, Safe(c.Check), Safe(res.Case.Operation), Safe(res.Case.Name))
				} else {
					ew.printf("\n%d) %s — %s %s case %s\n", n, Safe(c.Check), Safe(res.Case.Operation), Safe(string(res.Case.Kind)), Safe(strconv.Quote(res.Case.Name)))
				}
				r.writeFailureText(ew, res, c, false)
			}
		}
	}
	ew.printf("\n%s\n", r.verdict())
	ew.printf("%s\n", r.SummaryLine())
	return ew.err
}

// writeFailureText writes one failed check c of res: its request,
// expectation, answer and a curl command that reproduces it; withCase
// names the case first.
func (r *Report) writeFailureText(ew *errWriter, res *Result, c CheckResult, withCase bool) {
	if withCase {
		if r.Observed != nil {
			ew.printf("   smallest:  %s\n", Safe(res.Case.Name))
		} else {
			ew.printf("   smallest:  %s case %s\n", Safe(string(res.Case.Kind)), Safe(strconv.Quote(res.Case.Name)))
		}
	}
	ew.printf("   request:   %s %s\n", Safe(res.Case.Request.Method), Safe(res.Case.Request.URL))
	if res.Case.Request.Body != "" {
		ew.printf("   body:      %s\n", Safe(res.Case.Request.Body))
	}
	ew.printf("   expected:  %s\n", Safe(c.Expected))
	ew.printf("   got:       %s\n", Safe(c.Got))
	if r.Observed != nil {
		answered := "no response: " + res.Response.Error
		if st := res.Response.Status; st != 0 {
			answered = fmt.Sprintf("%d %s", st, http.StatusText(st))
		}
		ew.printf("   answered:  %s\n", Safe(answered))
	}
	ew.printf("   reproduce: %s\n", Safe(res.reproduce()))
}

// verdict is "PASSED: …" or "FAILED: …", the line above the summary line.
// outcome is how the run ended: "failed" (a check failed, or an
// operation could not be tested), "unchecked" (nothing failed because
// nothing was checked: no exchange reached the upstream, or no case ran a
// check), or "passed".
func (r *Report) outcome() string {
	switch {
	case r.Failures() > 0:
		return "failed"
	case r.Observed != nil && r.Observed.Reached() == 0, r.Observed == nil && r.checksRun() == 0:
		return "unchecked"
	}
	return "passed"
}

// checksRun counts the checks applied to the results.
func (r *Report) checksRun() int {
	n := 0
	for _, res := range r.Results {
		n += len(res.Checks)
	}
	return n
}

func (r *Report) verdict() string {
	if o := r.Observed; o != nil {
		if n := r.Failures(); n > 0 {
			return fmt.Sprintf("FAILED: %s in %d of %d exchanges checked (%v)", plural(n, "violation", "violations"), o.Failed, o.Exchanges, r.Duration.Round(time.Millisecond))
		}
		if o.Reached() == 0 {
			return fmt.Sprintf("NOT CHECKED: none of %s reached the upstream (%v)", plural(o.Total(), "exchange", "exchanges"), r.Duration.Round(time.Millisecond))
		}
		return fmt.Sprintf("PASSED: %d exchanges checked, every check passed (%v)", o.Exchanges, r.Duration.Round(time.Millisecond))
	}
	cases := len(r.Results)
	if n := r.Failures(); n > 0 {
		return fmt.Sprintf("FAILED: %d failed checks in %d of %d cases (%v)", n, r.FailedCases(), cases, r.Duration.Round(time.Millisecond))
	}
	if r.outcome() == "unchecked" {
		return fmt.Sprintf("NOT CHECKED: no check ran (%s, %d skipped) (%v)", plural(cases, "case", "cases"), r.Skipped(), r.Duration.Round(time.Millisecond))
	}
	return fmt.Sprintf("PASSED: %d cases, every check passed (%v)", cases, r.Duration.Round(time.Millisecond))
}

// SummaryLine is the report in one line a CI log can grep:
//
//	moviemock contract: FAILED 3 of 278 cases (2 checks failing) · 18/18 operations tested · 40/52 declared statuses seen
func (r *Report) SummaryLine() string {
	var b strings.Builder
	failedCases := r.FailedCases()
	if o := r.Observed; o != nil {
		verdict := "PASSED "
		if r.Failures() > 0 {
			verdict = "FAILED "
		} else if o.Reached() == 0 {
			verdict = "NOT CHECKED "
		}
		b.WriteString("moviemock proxy: " + verdict + o.line(r.Failures()))
	} else if r.outcome() == "unchecked" {
		fmt.Fprintf(&b, "moviemock contract: NOT CHECKED %d cases (no check ran)", len(r.Results)-r.Skipped())
	} else if failedCases == 0 && r.Failures() == 0 {
		fmt.Fprintf(&b, "moviemock contract: PASSED %d cases", len(r.Results)-r.Skipped())
	} else {
		failing := 0
		for _, t := range r.ByCheck() {
			if t.Failed > 0 {
				failing++
			}
		}
		plural := "s"
		if failing == 1 {
			plural = ""
		}
		fmt.Fprintf(&b, "moviemock contract: FAILED %d of %d cases (%d check%s failing, %d distinct)", failedCases, len(r.Results), failing, plural, len(r.Distinct()))
	}
	cov := r.coverage()
	tested, seen, declared := 0, 0, 0
	for _, c := range cov {
		if c.Positive > 0 {
			tested++
		}
		seen += len(c.Seen)
		declared += len(c.Declared)
	}
	verb := "tested"
	if r.Observed != nil {
		verb = "seen"
	}
	all := len(cov)
	for _, u := range r.Untested {
		if !slices.ContainsFunc(cov, func(c Coverage) bool { return c.Method == u.Method && c.Path == u.Path }) {
			all++ // an operation whose inputs did not compile
		}
	}
	fmt.Fprintf(&b, " · %d/%d operations %s · %d/%d declared statuses seen", tested, all, verb, seen, declared)
	if n := len(r.Untested); n > 0 {
		fmt.Fprintf(&b, " · %d operations not tested", n)
	}
	if n := r.Skipped(); n > 0 {
		fmt.Fprintf(&b, " · %d cases skipped", n)
	}
	if r.Stopped != "" {
		b.WriteString(" · stopped early")
	}
	return b.String()
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

// jsonReport is the machine-readable report; its field names are stable.
type jsonReport struct {
	BaseURL    string      `json:"base_url"`
	Spec       string      `json:"spec"`
	Seed       uint64      `json:"seed"`
	StartedAt  time.Time   `json:"started_at"`
	DurationMS int64       `json:"duration_ms"`
	Passed     bool        `json:"passed"`
	Summary    jsonSummary `json:"summary"`
	Stopped    string      `json:"stopped,omitempty"`
	Notes      []string    `json:"notes"`
	Operations []Tally     `json:"operations"`
	Coverage   []Coverage  `json:"coverage"`
	Checks     []Tally     `json:"checks"`
	// Distinct is the failed checks grouped by cause (Report.Distinct);
	// Results is every case.
	Distinct []jsonDistinct `json:"distinct"`
	Results  []jsonResult   `json:"results"`
	// Observed: a proxy's report; results lists the failing exchanges kept.
	Observed *ObservedSummary `json:"observed,omitempty"`
}

// jsonDistinct is one cause of failure with its smallest failing case.
type jsonDistinct struct {
	Distinct
	Smallest jsonSmallest `json:"smallest"`
}

// jsonSmallest is the smallest failing case of a cause: the case, its
// failed check, how to send it again, and where it is in results.
type jsonSmallest struct {
	Case     *Case  `json:"case"`
	Expected string `json:"expected"`
	Got      string `json:"got"`
	Curl     string `json:"curl"`
	Result   int    `json:"result"`
}

type jsonSummary struct {
	Cases                int    `json:"cases"`
	FailedCases          int    `json:"failed_cases"`
	DistinctFailures     int    `json:"distinct_failures"`
	SkippedCases         int    `json:"skipped_cases"`
	ChecksPassed         int    `json:"checks_passed"`
	ChecksFailed         int    `json:"checks_failed"`
	Operations           int    `json:"operations"`
	OperationsTested     int    `json:"operations_tested"`
	DeclaredStatuses     int    `json:"declared_statuses"`
	DeclaredStatusesSeen int    `json:"declared_statuses_seen"`
	Line                 string `json:"line"`
}

type jsonResult struct {
	Case     *Case         `json:"case"`
	Response jsonResponse  `json:"response"`
	Checks   []CheckResult `json:"checks"`
	Curl     string        `json:"curl"`
}

type jsonResponse struct {
	Response
	// Body is the start of the body (ExcerptBytes at most), "…" after it
	// when there was more; Size and SHA256 are of the whole body read.
	Body       string  `json:"body,omitempty"`
	DurationMS float64 `json:"duration_ms"`
}

// WriteJSON writes the report as JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	r = r.redacted()
	out := jsonReport{
		BaseURL: r.BaseURL, Spec: r.Spec, Seed: r.Seed, StartedAt: r.Started.UTC(),
		DurationMS: r.Duration.Milliseconds(), Notes: r.Notes, Stopped: r.Stopped,
		Operations: r.ByOperation(), Checks: r.ByCheck(), Coverage: r.coverage(),
	}
	out.Summary.SkippedCases = r.Skipped()
	out.Summary.Operations = len(out.Coverage)
	for _, c := range out.Coverage {
		if c.Positive > 0 {
			out.Summary.OperationsTested++
		}
		out.Summary.DeclaredStatuses += len(c.Declared)
		out.Summary.DeclaredStatusesSeen += len(c.Seen)
	}
	out.Summary.Line = r.SummaryLine()
	if out.Notes == nil {
		out.Notes = []string{}
	}
	for _, res := range r.Results {
		out.Summary.Cases++
		if res.Failed() {
			out.Summary.FailedCases++
		}
		for _, c := range res.Checks {
			if c.Passed {
				out.Summary.ChecksPassed++
			} else {
				out.Summary.ChecksFailed++
			}
		}
		body := res.Response.excerptText()
		out.Results = append(out.Results, jsonResult{
			Case: res.Case, Checks: res.Checks, Curl: res.reproduce(),
			Response: jsonResponse{Response: res.Response, Body: body, DurationMS: float64(res.Response.Duration.Microseconds()) / 1000},
		})
	}
	out.Distinct = []jsonDistinct{}
	for _, d := range r.Distinct() {
		out.Distinct = append(out.Distinct, jsonDistinct{Distinct: d, Smallest: jsonSmallest{
			Case: d.Smallest.Case, Expected: d.Failure.Expected, Got: d.Failure.Got,
			Curl: d.Smallest.reproduce(), Result: slices.Index(r.Results, d.Smallest),
		}})
	}
	out.Summary.DistinctFailures = len(out.Distinct)
	if o := r.Observed; o != nil {
		out.Observed = o
		out.Summary.Cases, out.Summary.FailedCases = o.Exchanges, o.Failed
		out.Summary.ChecksPassed, out.Summary.ChecksFailed = 0, 0
		for _, t := range o.Checks {
			out.Summary.ChecksPassed += t.Passed
			out.Summary.ChecksFailed += t.Failed
		}
	}
	if out.Results == nil {
		out.Results = []jsonResult{}
	}
	out.Passed = out.Summary.ChecksFailed == 0
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// excerptText is the start of the body (ExcerptBytes at most), "…" after
// it when there was more.
func (resp *Response) excerptText() string {
	if resp.shown != nil {
		return *resp.shown
	}
	excerpt := resp.bodyText()
	body := string(excerpt[:min(len(excerpt), ExcerptBytes)])
	if int64(len(body)) < resp.Size || resp.Truncated {
		body += "…"
	}
	return body
}

// JUnit XML: one testsuite per operation, one testcase per check and case.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr,omitempty"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name      string      `xml:"name,attr"`
	Tests     int         `xml:"tests,attr"`
	Failures  int         `xml:"failures,attr"`
	Skipped   int         `xml:"skipped,attr,omitempty"`
	Time      string      `xml:"time,attr"`
	Timestamp string      `xml:"timestamp,attr"`
	Cases     []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// WriteJUnit writes the report as JUnit XML.
func (r *Report) WriteJUnit(w io.Writer) error {
	r = r.redacted()
	out := junitSuites{Name: "moviemock contract", Time: seconds(r.Duration)}
	index := map[string]int{}
	// suite is the suite named name, added at the end when new; the
	// pointer holds until the next suite is added.
	suite := func(name string) *junitSuite {
		i, ok := index[name]
		if !ok {
			i = len(out.Suites)
			index[name] = i
			out.Suites = append(out.Suites, junitSuite{Name: name, Timestamp: r.Started.UTC().Format(time.RFC3339)})
		}
		return &out.Suites[i]
	}
	if r.Observed != nil {
		out.Name = "moviemock proxy"
		// A suite per operation seen, in the report's order, whose passed
		// checks are one testcase per check (the exchanges are not kept).
		for _, t := range r.Observed.Operations {
			name := Safe(t.Name)
			index[name] = len(out.Suites)
			s := junitSuite{Name: name, Timestamp: r.Started.UTC().Format(time.RFC3339)}
			classname := strings.SplitN(t.Name, " ", 2)[0]
			for _, ct := range r.Observed.perOperation[t.Name] {
				if ct.Passed == 0 {
					continue
				}
				s.Cases = append(s.Cases, junitCase{
					Name:      Safe(fmt.Sprintf("%s: %d observed exchanges passed", ct.Name, ct.Passed)),
					Classname: Safe(classname + "." + ct.Name),
					Time:      seconds(0),
				})
				s.Tests++
				out.Tests++
			}
			out.Suites = append(out.Suites, s)
		}
	}
	for _, res := range r.Results {
		s := suite(Safe(res.Case.Operation + " " + res.Case.Method + " " + res.Case.Path))
		if why := res.Response.Skipped; why != "" {
			s.Cases = append(s.Cases, junitCase{
				Name:      Safe(fmt.Sprintf("skipped: %s case %d %s", res.Case.Kind, res.Case.Index, res.Case.Name)),
				Classname: Safe(res.Case.Operation),
				Time:      seconds(0),
				Skipped:   &junitSkipped{Message: Safe(why)},
			})
			s.Tests++
			s.Skipped++
			out.Tests++
			out.Skipped++
			continue
		}
		for _, c := range res.Checks {
			if r.Observed != nil || !c.Passed {
				continue // passed: counted above; failed: by cause below
			}
			s.Cases = append(s.Cases, junitCase{
				Name:      Safe(fmt.Sprintf("%s: %s case %d %s", c.Check, res.Case.Kind, res.Case.Index, res.Case.Name)),
				Classname: Safe(res.Case.Operation + "." + c.Check),
				Time:      seconds(res.Response.Duration),
			})
			s.Tests++
			out.Tests++
		}
	}
	// A failed testcase per distinct failure, not per failed check: a CI
	// page lists each failed testcase as a row, and one cause failing in
	// 27 cases is one bug to fix, not 27 rows burying the others.
	for _, d := range r.Distinct() {
		s := suite(Safe(d.Operation + " " + d.Method + " " + d.Path))
		res, c := d.Smallest, d.Failure
		count := plural(d.Count, "failure", "failures")
		var others []string
		for _, o := range r.Results {
			for _, oc := range o.Checks {
				if !oc.Passed && oc.Check == d.Check && o.Case.Operation == d.Operation && o.Case.Method == d.Method && o.Case.Path == d.Path &&
					NormalizeMessage("expected "+oc.Expected+", got "+oc.Got) == d.Message {
					others = append(others, Safe(fmt.Sprintf("  %s case %d %s", o.Case.Kind, o.Case.Index, o.Case.Name)))
				}
			}
		}
		// XML 1.0 holds no control characters but tab and newlines: what
		// the target sent is escaped.
		s.Cases = append(s.Cases, junitCase{
			Name:      Safe(fmt.Sprintf("%s: %s (%s)", d.Check, d.Message, count)),
			Classname: Safe(d.Operation + "." + d.Check),
			Time:      seconds(res.Response.Duration),
			Failure: &junitFailure{
				Message: Safe(count + ": " + d.Message),
				Type:    Safe(d.Check),
				Text: Safe(fmt.Sprintf("smallest failing case: %s case %d %s", res.Case.Kind, res.Case.Index, res.Case.Name)) + "\n" +
					fmt.Sprintf("request: %s %s\nexpected: %s\ngot: %s\nreproduce: %s\n",
						Safe(res.Case.Request.Method), Safe(res.Case.Request.URL), Safe(c.Expected), Safe(c.Got), Safe(res.reproduce())) +
					"failing cases:\n" + strings.Join(others, "\n") + "\n",
			},
		})
		s.Failures++
		s.Tests++
		out.Failures++
		out.Tests++
	}
	for i := range out.Suites {
		var d time.Duration
		for _, res := range r.Results {
			if Safe(res.Case.Operation+" "+res.Case.Method+" "+res.Case.Path) == out.Suites[i].Name {
				d += res.Response.Duration
			}
		}
		out.Suites[i].Time = seconds(d)
	}
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

// Coverage is what the run exercised of one operation.
type Coverage struct {
	Operation string `json:"operation"`
	Method    string `json:"method"`
	Path      string `json:"path"`
	Cases     int    `json:"cases"`
	Sent      int    `json:"sent"`     // cases sent
	Answered  int    `json:"answered"` // cases with a status
	Skipped   int    `json:"skipped"`  // cases not sent
	// Positive counts the answered cases that sent valid inputs (positive
	// cases, sequence steps owed a success): an operation is tested only
	// when one of them ran.
	Positive int `json:"positive_answered"`
	// Kinds counts the cases sent, by kind (positive, negative, …).
	Kinds map[Kind]int `json:"kinds"`
	// Declared are the statuses the contract declares ("default" aside);
	// Seen those some answer had, Unseen those none had.
	Declared []string `json:"declared_statuses"`
	Seen     []string `json:"declared_statuses_seen"`
	Unseen   []string `json:"declared_statuses_unseen"`
	// Undeclared are statuses answered that the contract does not declare.
	Undeclared []int `json:"undeclared_statuses_seen,omitempty"`
	// Mocked counts the exchanges of the operation a proxy's mock answered
	// instead of the upstream: not checked, not in Cases.
	Mocked int `json:"mocked,omitempty"`
}

// coverage is r.Coverage, or what the results alone tell.
func (r *Report) coverage() []Coverage {
	if r.Coverage != nil {
		return r.Coverage
	}
	return coverageOf(nil, r.Results)
}

// kindOrder is the order kinds are listed in; others follow by name.
var kindOrder = []Kind{Positive, Negative, UnknownID, WrongCredentials, Generated}

// coverageOf tallies the results per operation, in the order of ops (nil:
// the order the results first name them).
func coverageOf(ops []*operation, results []*Result) []Coverage {
	// By id, method and path, not pointer: the sequences describe the
	// operations they step through with operations of their own.
	index := map[string]int{}
	var out []Coverage
	add := func(o *operation) int {
		key := o.id + " " + o.method + " " + o.path
		if i, ok := index[key]; ok {
			return i
		}
		index[key] = len(out)
		out = append(out, newCoverage(o))
		return index[key]
	}
	for _, o := range ops {
		add(o)
	}
	statuses := map[int]map[int]bool{}
	for _, res := range results {
		o := res.Case.op
		if o == nil {
			continue
		}
		i := add(o)
		c := &out[i]
		c.Cases++
		if res.Response.Skipped != "" {
			c.Skipped++
			continue
		}
		c.Sent++
		c.Kinds[res.Case.Kind]++
		if s := res.Response.Status; s != 0 {
			c.Answered++
			if (res.Case.Kind == Positive || res.Case.Kind == Observed || (res.Case.Kind == Sequence && res.Case.Expect == ExpectSuccess)) &&
				!((len(res.Case.madeUp) > 0 || res.Case.unpaired != "") && res.Response.Status >= 400) {
				// A key the runner made up tests the operation only
				// where the target took it (madeUpNotes).
				c.Positive++
			}
			if statuses[i] == nil {
				statuses[i] = map[int]bool{}
			}
			statuses[i][s] = true
		}
	}
	for i := range out {
		out[i].classify(statuses[i])
	}
	return out
}

// newCoverage is o's coverage before anything was sent: its declared
// statuses, none of them seen yet.
func newCoverage(o *operation) Coverage {
	c := Coverage{Operation: o.id, Method: o.method, Path: o.path, Kinds: map[Kind]int{},
		Declared: []string{}, Seen: []string{}, Unseen: []string{}}
	if o.op != nil && o.op.Responses != nil {
		for code := range o.op.Responses.Map() {
			if code != "default" {
				c.Declared = append(c.Declared, code)
			}
		}
	}
	slices.Sort(c.Declared)
	return c
}

// classify sorts the statuses answered (got) into the declared ones seen,
// leaving the rest of the declared unseen, and the undeclared ones.
func (c *Coverage) classify(got map[int]bool) {
	matched := map[int]bool{}
	for _, code := range c.Declared {
		hit := false
		for s := range got {
			if statusMatches(code, s) {
				hit, matched[s] = true, true
			}
		}
		if hit {
			c.Seen = append(c.Seen, code)
		} else {
			c.Unseen = append(c.Unseen, code)
		}
	}
	for s := range got {
		if !matched[s] {
			c.Undeclared = append(c.Undeclared, s)
		}
	}
	slices.Sort(c.Undeclared)
}

// statusMatches is true when status is the declared code ("404", "4XX").
func statusMatches(code string, status int) bool {
	if len(code) == 3 && (code[1] == 'X' || code[1] == 'x') {
		return int(code[0]-'0') == status/100
	}
	n, err := strconv.Atoi(code)
	return err == nil && n == status
}

func (c *Coverage) writeText(ew *errWriter) {
	line := "statuses seen " + listOrNone(c.Seen)
	if len(c.Unseen) > 0 {
		line += "; never seen " + strings.Join(c.Unseen, ", ")
	}
	if len(c.Undeclared) > 0 {
		var s []string
		for _, n := range c.Undeclared {
			s = append(s, strconv.Itoa(n))
		}
		line += "; undeclared " + strings.Join(s, ", ")
	}
	ew.printf("      %s\n", Safe(line))
	line = "kinds run: " + listOrNone(c.kindsRun())
	if c.Skipped > 0 {
		line += fmt.Sprintf("; %d cases skipped", c.Skipped)
	}
	ew.printf("      %s\n", Safe(line))
}

// kindsRun is "positive 12", "negative 30", … for the kinds of case sent,
// in kindOrder, then the others by name.
func (c *Coverage) kindsRun() []string {
	var kinds []string
	for _, k := range kindOrder {
		if n := c.Kinds[k]; n > 0 {
			kinds = append(kinds, fmt.Sprintf("%s %d", k, n))
		}
	}
	var other []string
	for k := range c.Kinds {
		if !slices.Contains(kindOrder, k) {
			other = append(other, string(k))
		}
	}
	slices.Sort(other)
	for _, k := range other {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, c.Kinds[Kind(k)]))
	}
	return kinds
}

func listOrNone(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	return strings.Join(l, ", ")
}

// line is "12 of 14 exchanges reached the upstream, 12 checked, 2 failed
// with 3 violations": a violation is one failed check, an exchange fails
// with one or more. failedChecks is the report's count of them.
func (o *ObservedSummary) line(failedChecks int) string {
	s := fmt.Sprintf("%d of %s reached the upstream, %d checked, %d failed", o.Reached(), plural(o.Total(), "exchange", "exchanges"), o.Exchanges, o.Failed)
	if failedChecks > 0 {
		s += " with " + plural(failedChecks, "violation", "violations")
	}
	return s
}

// plural is "1 exchange" or "n exchanges".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
