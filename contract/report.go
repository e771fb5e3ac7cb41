package contract

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
	"unicode"
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
}

// Failures counts failed checks.
func (r *Report) Failures() int {
	n := 0
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
		parts = append(parts, "-X", req.Method)
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

// shellQuote quotes s for a POSIX shell; bytes a terminal would mangle use
// bash's $'…' form.
func shellQuote(s string) string {
	plain := true
	for _, r := range s {
		if !unicode.IsPrint(r) || r == '\n' {
			plain = false
			break
		}
	}
	if plain {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, "\\x%02x", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteString("'")
	return b.String()
}

// WriteText writes the human report: a summary per operation and check,
// then every failure with its request, expectation, answer and a curl
// command that reproduces it.
func (r *Report) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	ew.printf("moviemock contract: %s (contract %s, seed %d)\n", r.BaseURL, r.Spec, r.Seed)
	for _, n := range r.Notes {
		ew.printf("note: %s\n", n)
	}
	ew.printf("\nOperations:\n")
	for _, t := range r.ByOperation() {
		ew.printf("  %-50s %4d cases  %5d checks passed  %3d failed\n", t.Name, t.Cases, t.Passed, t.Failed)
	}
	ew.printf("\nChecks:\n")
	for _, t := range r.ByCheck() {
		mark := "ok  "
		if t.Failed > 0 {
			mark = "FAIL"
		}
		ew.printf("  %s %-30s %5d passed  %3d failed\n", mark, t.Name, t.Passed, t.Failed)
	}
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
			ew.printf("\n%d) %s — %s %s case %q\n", n, c.Check, res.Case.Operation, res.Case.Kind, res.Case.Name)
			ew.printf("   request:   %s %s\n", res.Case.Request.Method, res.Case.Request.URL)
			if res.Case.Request.Body != "" {
				ew.printf("   body:      %s\n", res.Case.Request.Body)
			}
			ew.printf("   expected:  %s\n", c.Expected)
			ew.printf("   got:       %s\n", c.Got)
			ew.printf("   reproduce: %s\n", Curl(res.Case.Request))
		}
	}
	cases := len(r.Results)
	if n == 0 {
		ew.printf("\nPASSED: %d cases, every check passed (%v)\n", cases, r.Duration.Round(time.Millisecond))
	} else {
		failedCases := 0
		for _, res := range r.Results {
			if res.Failed() {
				failedCases++
			}
		}
		ew.printf("\nFAILED: %d failed checks in %d of %d cases (%v)\n", n, failedCases, cases, r.Duration.Round(time.Millisecond))
	}
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

// jsonReport is the machine-readable report; its field names are stable.
type jsonReport struct {
	BaseURL    string       `json:"base_url"`
	Spec       string       `json:"spec"`
	Seed       uint64       `json:"seed"`
	StartedAt  time.Time    `json:"started_at"`
	DurationMS int64        `json:"duration_ms"`
	Passed     bool         `json:"passed"`
	Summary    jsonSummary  `json:"summary"`
	Notes      []string     `json:"notes"`
	Operations []Tally      `json:"operations"`
	Checks     []Tally      `json:"checks"`
	Results    []jsonResult `json:"results"`
}

type jsonSummary struct {
	Cases        int `json:"cases"`
	FailedCases  int `json:"failed_cases"`
	ChecksPassed int `json:"checks_passed"`
	ChecksFailed int `json:"checks_failed"`
}

type jsonResult struct {
	Case     *Case         `json:"case"`
	Response jsonResponse  `json:"response"`
	Checks   []CheckResult `json:"checks"`
	Curl     string        `json:"curl"`
}

type jsonResponse struct {
	Response
	Body       string  `json:"body,omitempty"`
	DurationMS float64 `json:"duration_ms"`
}

// WriteJSON writes the report as JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	out := jsonReport{
		BaseURL: r.BaseURL, Spec: r.Spec, Seed: r.Seed, StartedAt: r.Started.UTC(),
		DurationMS: r.Duration.Milliseconds(), Notes: r.Notes,
		Operations: r.ByOperation(), Checks: r.ByCheck(),
	}
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
		body := string(res.Response.Body)
		if len(body) > 4096 {
			body = body[:4096] + "…"
		}
		out.Results = append(out.Results, jsonResult{
			Case: res.Case, Checks: res.Checks, Curl: Curl(res.Case.Request),
			Response: jsonResponse{Response: res.Response, Body: body, DurationMS: float64(res.Response.Duration.Microseconds()) / 1000},
		})
	}
	out.Passed = out.Summary.ChecksFailed == 0
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// JUnit XML: one testsuite per operation, one testcase per check and case.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name      string      `xml:"name,attr"`
	Tests     int         `xml:"tests,attr"`
	Failures  int         `xml:"failures,attr"`
	Time      string      `xml:"time,attr"`
	Timestamp string      `xml:"timestamp,attr"`
	Cases     []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// WriteJUnit writes the report as JUnit XML.
func (r *Report) WriteJUnit(w io.Writer) error {
	out := junitSuites{Name: "moviemock contract", Time: seconds(r.Duration)}
	index := map[string]int{}
	for _, res := range r.Results {
		suiteName := res.Case.Operation + " " + res.Case.Method + " " + res.Case.Path
		i, ok := index[suiteName]
		if !ok {
			i = len(out.Suites)
			index[suiteName] = i
			out.Suites = append(out.Suites, junitSuite{Name: suiteName, Timestamp: r.Started.UTC().Format(time.RFC3339)})
		}
		s := &out.Suites[i]
		for _, c := range res.Checks {
			tc := junitCase{
				Name:      fmt.Sprintf("%s: %s case %d %s", c.Check, res.Case.Kind, res.Case.Index, res.Case.Name),
				Classname: res.Case.Operation + "." + c.Check,
				Time:      seconds(res.Response.Duration),
			}
			if !c.Passed {
				tc.Failure = &junitFailure{
					Message: "expected " + c.Expected + ", got " + c.Got,
					Type:    c.Check,
					Text: fmt.Sprintf("request: %s %s\nexpected: %s\ngot: %s\nreproduce: %s\n",
						res.Case.Request.Method, res.Case.Request.URL, c.Expected, c.Got, Curl(res.Case.Request)),
				}
				s.Failures++
				out.Failures++
			}
			s.Tests++
			out.Tests++
			s.Cases = append(s.Cases, tc)
		}
	}
	for i := range out.Suites {
		var d time.Duration
		for _, res := range r.Results {
			if res.Case.Operation+" "+res.Case.Method+" "+res.Case.Path == out.Suites[i].Name {
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
