package replay

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html/template"
	"io"
	"strings"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/problems"
)

// Counts are a report's tallies.
type Counts struct {
	Calls    int `json:"calls"`    // recorded calls
	Replayed int `json:"replayed"` // sent
	Skipped  int `json:"skipped"`
	Changed  int `json:"changed"` // replayed calls with a change of any level
	Breaking int `json:"breaking"`
	Warning  int `json:"warning"`
	Info     int `json:"info"`
}

// Counts tallies the calls and their changes.
func (r *Report) Counts() Counts {
	n := Counts{Calls: len(r.Results)}
	for _, res := range r.Results {
		if res.Skipped != "" {
			n.Skipped++
			continue
		}
		n.Replayed++
		if len(res.Changes) > 0 {
			n.Changed++
		}
		for _, c := range res.Changes {
			switch c.Level {
			case Breaking:
				n.Breaking++
			case Warning:
				n.Warning++
			default:
				n.Info++
			}
		}
	}
	return n
}

// FailOn reads a --fail-on value: breaking, warning or never (never: a
// level above every change).
func FailOn(s string) (Level, error) {
	switch s {
	case "breaking":
		return Breaking, nil
	case "warning":
		return Warning, nil
	case "never":
		return Breaking + 1, nil
	}
	return 0, fmt.Errorf("%q: use breaking, warning or never", s)
}

// failing reports whether res has a change at or above the failing level.
func (r *Report) failing(res *Result) bool {
	return res.Skipped == "" && res.Worst() >= r.failOn && len(res.Changes) > 0
}

// Failed is the number of calls with a change at or above the level the
// replay fails on (Config.FailOn).
func (r *Report) Failed() int {
	n := 0
	for _, res := range r.Results {
		if r.failing(res) {
			n++
		}
	}
	return n
}

// SummaryLine is the report's last line, for a CI log to grep:
// "moviemock replay: PASSED …" or "moviemock replay: FAILED …".
func (r *Report) SummaryLine() string {
	n := r.Counts()
	verdict := "PASSED"
	if r.Failed() > 0 {
		verdict = "FAILED"
	}
	var what string
	if n.Changed == 0 {
		what = "no shape change in " + problems.Plural(n.Replayed, "call", "calls") + " replayed"
	} else {
		what = fmt.Sprintf("%s, %s, %s in %d of %s replayed", problems.Plural(n.Breaking, "breaking change", "breaking changes"),
			problems.Plural(n.Warning, "warning", "warnings"), problems.Plural(n.Info, "info", "info"), n.Changed, problems.Plural(n.Replayed, "call", "calls"))
	}
	if n.Skipped > 0 {
		what += fmt.Sprintf(" (%d skipped)", n.Skipped)
	}
	return fmt.Sprintf("moviemock replay: %s: %s (--fail-on %s)", verdict, what, r.FailOn)
}

// redacted is r as the writers show it: every text through the
// redaction rule, and made safe to print (contract.Safe).
func (r *Report) redacted() *Report {
	x := r.redact
	if x == nil {
		x = contract.NewRedactor(contract.Credentials{})
	}
	show := func(s string) string { return contract.Safe(x.Text(s)) }
	out := *r
	out.Source, out.BaseURL, out.Spec, out.RecordedSpec = show(r.Source), show(r.BaseURL), show(r.Spec), show(r.RecordedSpec)
	out.Notes = make([]string, len(r.Notes))
	for i, n := range r.Notes {
		out.Notes[i] = show(n)
	}
	out.Results = make([]*Result, len(r.Results))
	for i, res := range r.Results {
		cp := *res
		cp.Path, cp.Sent, cp.Operation, cp.Skipped, cp.Compared = show(x.URL(res.Path)), show(x.URL(res.Sent)), show(res.Operation), show(res.Skipped), show(res.Compared)
		cp.Method = show(res.Method)
		cp.Recorded.ContentType, cp.Got.ContentType = show(res.Recorded.ContentType), show(res.Got.ContentType)
		cp.Changes = make([]Change, len(res.Changes))
		for j, c := range res.Changes {
			c.Path, c.Was, c.Now = show(c.Path), show(c.Was), show(c.Now)
			cp.Changes[j] = c
		}
		cp.Notes = make([]string, len(res.Notes))
		for j, n := range res.Notes {
			cp.Notes[j] = show(n)
		}
		out.Results[i] = &cp
	}
	return &out
}

// answer is an answer as the text report shows it: "200 application/json".
func (a Answer) String() string {
	if a.Status == 0 {
		return "none"
	}
	if a.ContentType == "" {
		return fmt.Sprint(a.Status)
	}
	return fmt.Sprintf("%d %s", a.Status, a.ContentType)
}

// title is a call as the reports name it: "#3 GET /movies/tt0137523".
func (res *Result) title() string {
	t := fmt.Sprintf("#%d %s %s", res.Index, res.Method, res.Path)
	if res.Login {
		t += " (login)"
	}
	return t
}

// outcome is one word for the call: unchanged, changed, skipped.
func (res *Result) outcome() string {
	switch {
	case res.Skipped != "":
		return "skipped"
	case len(res.Changes) > 0:
		return "changed"
	}
	return "unchanged"
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

// WriteText writes the report for a terminal or a CI log: a line per
// call with its changes under it, the notes, and the summary line last.
func (r *Report) WriteText(w io.Writer) error {
	r = r.redacted()
	ew := &errWriter{w: w}
	ew.printf("moviemock replay: %s (%s, %s) to %s", r.Source, r.Kind, problems.Plural(len(r.Results), "call", "calls"), r.BaseURL)
	if r.Spec != "" {
		ew.printf(" (contract %s)", r.Spec)
	}
	if r.RecordedSpec != "" {
		ew.printf(" (recorded against %s)", r.RecordedSpec)
	}
	ew.printf("\n")
	for _, res := range r.Results {
		ew.printf("%s", res.title())
		if res.Operation != "" && res.Operation != res.Method+" "+res.Path {
			ew.printf(" [%s]", res.Operation)
		}
		if res.Skipped != "" {
			ew.printf(": skipped: %s\n", res.Skipped)
			continue
		}
		if res.Recorded == res.Got {
			ew.printf(": %s (%s)\n", res.outcome(), res.Got)
		} else {
			ew.printf(": %s: was %s, now %s\n", res.outcome(), res.Recorded, res.Got)
		}
		if res.Sent != "" {
			ew.printf("    sent as %s\n", res.Sent)
		}
		for _, c := range res.Changes {
			ew.printf("    [%s] %s\n", c.Level, c)
		}
		if res.More > 0 {
			ew.printf("    … and %d more changes\n", res.More)
		}
		if res.Compared != "" && res.Compared != "shape" {
			ew.printf("    compared: %s\n", res.Compared)
		}
		for _, n := range res.Notes {
			ew.printf("    note: %s\n", n)
		}
	}
	for _, n := range r.Notes {
		ew.printf("note: %s\n", n)
	}
	ew.printf("%s\n", r.SummaryLine())
	return ew.err
}

// WriteJSON writes the report as one JSON object: the calls with their
// changes, the counts, the notes and the summary line.
func (r *Report) WriteJSON(w io.Writer) error {
	r = r.redacted()
	out := struct {
		*Report
		Counts     Counts  `json:"counts"`
		Failed     int     `json:"failed"`
		DurationMS float64 `json:"duration_ms"`
		Summary    string  `json:"summary"`
	}{r, r.Counts(), r.Failed(), float64(r.Duration) / float64(time.Millisecond), r.SummaryLine()}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

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
	Skipped   int         `xml:"skipped,attr"`
	Time      string      `xml:"time,attr"`
	Timestamp string      `xml:"timestamp,attr"`
	Cases     []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string `xml:"name,attr"`
	Classname string `xml:"classname,attr"`
	Time      string `xml:"time,attr"`
	Failure   *struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	} `xml:"failure,omitempty"`
	Skipped *struct {
		Message string `xml:"message,attr"`
	} `xml:"skipped,omitempty"`
	SystemOut string `xml:"system-out,omitempty"`
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// WriteJUnit writes the report as JUnit XML: one test case per recorded
// call, failed when it has a change at or above --fail-on, skipped when
// not sent; the changes below that level are in its system-out.
func (r *Report) WriteJUnit(w io.Writer) error {
	r = r.redacted()
	suite := junitSuite{Name: "moviemock replay " + r.Source, Time: seconds(r.Duration), Timestamp: r.Started.UTC().Format(time.RFC3339)}
	for _, res := range r.Results {
		jc := junitCase{Name: res.title(), Classname: "replay", Time: seconds(res.Duration)}
		if res.Operation != "" {
			jc.Classname = "replay." + res.Operation
		}
		var lines []string
		for _, c := range res.Changes {
			lines = append(lines, c.Level.String()+": "+c.String())
		}
		if res.More > 0 {
			lines = append(lines, fmt.Sprintf("… and %d more changes", res.More))
		}
		if res.Compared != "" && res.Compared != "shape" {
			lines = append(lines, "compared: "+res.Compared)
		}
		lines = append(lines, res.Notes...)
		switch {
		case res.Skipped != "":
			jc.Skipped = &struct {
				Message string `xml:"message,attr"`
			}{res.Skipped}
			suite.Skipped++
		case r.failing(res):
			jc.Failure = &struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Text    string `xml:",chardata"`
			}{Message: res.Changes[0].String(), Type: res.Worst().String(), Text: strings.Join(lines, "\n")}
			suite.Failures++
		default:
			jc.SystemOut = strings.Join(lines, "\n")
		}
		suite.Cases = append(suite.Cases, jc)
		suite.Tests++
	}
	out := junitSuites{Name: "moviemock replay", Tests: suite.Tests, Failures: suite.Failures, Skipped: suite.Skipped, Time: suite.Time, Suites: []junitSuite{suite}}
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

// WriteHTML writes the report as one self-contained page (no script, no
// fetch), styled as the contract report.
func (r *Report) WriteHTML(w io.Writer) error {
	r = r.redacted()
	outcome := "passed"
	if r.Failed() > 0 {
		outcome = "failed"
	}
	return htmlReport.Execute(w, struct {
		*Report
		Outcome, Label, Summary, Duration string
		Counts                            Counts
	}{r, outcome, strings.ToUpper(outcome), r.SummaryLine(), r.Duration.Round(time.Millisecond).String(), r.Counts()})
}

var htmlReport = template.Must(template.New("replay").Funcs(template.FuncMap{
	"failing": func(r *Report, res *Result) bool { return r.failing(res) },
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<title>{{.Label}} · moviemock replay · {{.BaseURL}}</title>
<style>` + contract.ReportCSS + `
td.breaking { color: var(--fail); font-weight: 600; }
td.warning { color: var(--warn); font-weight: 600; }
ul.changes { margin: 0; padding-left: 1.1rem; }
li.breaking { color: var(--fail); }
li.warning { color: var(--warn); }
</style>
</head>
<body>
<h1>moviemock replay</h1>
<section id="summary" class="{{.Outcome}}">
<h2>Summary: <span class="verdict">{{.Label}}</span></h2>
<dl>
<dt>Recording</dt><dd><code class="source">{{.Source}}</code> ({{.Kind}})</dd>
<dt>Target</dt><dd><code class="target">{{.BaseURL}}</code></dd>
{{- if .Spec}}
<dt>Contract</dt><dd><code class="spec">{{.Spec}}</code></dd>
{{- end}}
{{- if .RecordedSpec}}
<dt>Recorded against</dt><dd><code class="spec">{{.RecordedSpec}}</code></dd>
{{- end}}
<dt>Started</dt><dd>{{.Started.UTC.Format "2006-01-02 15:04:05 UTC"}}</dd>
<dt>Duration</dt><dd class="duration">{{.Duration}}</dd>
<dt>Calls</dt><dd class="calls">{{.Counts.Calls}} ({{.Counts.Replayed}} replayed, {{.Counts.Skipped}} skipped)</dd>
<dt>Changes</dt><dd class="changes">{{.Counts.Breaking}} breaking, {{.Counts.Warning}} warnings, {{.Counts.Info}} info, in {{.Counts.Changed}} calls</dd>
<dt>Fails on</dt><dd>{{.FailOn}}</dd>
</dl>
<pre id="summary-line">{{.Summary}}</pre>
</section>
{{if .Notes}}
<section id="notes">
<h2>Notes</h2>
<ul>
{{- range .Notes}}
<li>{{.}}</li>
{{- end}}
</ul>
</section>
{{end}}
<section id="calls">
<h2>Calls</h2>
<table>
<thead><tr><th class="num">#</th><th>Call</th><th>Recorded</th><th>Now</th><th>Changes</th></tr></thead>
<tbody>
{{- range .Results}}
<tr id="call-{{.Index}}" class="{{if failing $.Report .}}fail{{else if .Skipped}}unchecked{{else}}ok{{end}}" data-outcome="{{.Outcome}}">
<td class="num">{{.Index}}</td>
<th scope="row"><code>{{.Method}} {{.Path}}</code>{{if .Login}} <span class="opid">login</span>{{end}}{{if and .Operation (ne .Operation (printf "%s %s" .Method .Path))}}<br><span class="opid">{{.Operation}}</span>{{end}}{{if .Sent}}<br><span class="opid">sent as {{.Sent}}</span>{{end}}</th>
{{- if .Skipped}}
<td>{{.Recorded}}</td><td colspan="2" class="none">skipped: {{.Skipped}}</td>
{{- else}}
<td>{{.Recorded}}</td><td>{{.Got}}</td>
<td>{{if .Changes}}<ul class="changes">{{range .Changes}}<li class="{{.Level}}" data-kind="{{.Kind}}">{{.Level}}: {{.}}</li>{{end}}</ul>{{else}}<span class="none">none</span>{{end}}
{{- if .More}}<p class="none">… and {{.More}} more changes</p>{{end}}
{{- if and .Compared (ne .Compared "shape")}}<p class="none">compared: {{.Compared}}</p>{{end}}
{{- range .Notes}}<p class="none">{{.}}</p>{{end}}</td>
{{- end}}
</tr>
{{- end}}
</tbody>
</table>
</section>
</body>
</html>
`))

// Outcome is one word for the call, for the HTML page.
func (res *Result) Outcome() string { return res.outcome() }
