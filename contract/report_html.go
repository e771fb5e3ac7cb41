package contract

import (
	"crypto/sha256"
	"encoding/base64"
	"html/template"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// WriteHTML writes the report as one self-contained HTML page, to open
// from a CI artifact with no network: the summary (and the same summary
// line the text report ends with), the notes, a table per operation and
// per check, then every failure with its request, expectation, answer and a
// curl command that reproduces it, with a copy button.
//
// The page loads nothing: its CSS and its few lines of script are inline,
// and its Content-Security-Policy forbids any other source (the script is
// allowed by its hash, so no other inline script would run). Everything the
// target sent goes through Safe — control characters are invisible in a
// browser, so they are shown escaped — and then html/template, which
// escapes it for where it lands: a `<script>` or `</pre>` in a body is text.
// Without JavaScript the page reads the same; only the copy buttons stay
// hidden.
func (r *Report) WriteHTML(w io.Writer) error {
	r = r.redacted()
	return htmlReport.Execute(w, r.htmlView())
}

// htmlView is what the page shows, every string from the target or the
// contract already through Safe (or safeBlock).
type htmlView struct {
	// Observed: a proxy's report (Observer.Report); Cases counts the
	// exchanges observed.
	Observed bool
	Title    string
	// Outcome is the run's class: passed, failed, or unchecked (nothing
	// was checked: not a pass, whatever failed); Label says it.
	Outcome, Label string
	Target         string
	Spec           string
	Seed           uint64
	Started        string
	Duration       string
	Cases          int
	FailedCases    int
	Skipped        int
	Failures       int
	Stopped        string
	Verdict        string
	SummaryLine    string
	Notes          []string
	Operations     []htmlOperation
	Checks         []htmlCheck
	SkipReasons    []htmlCount
	Failed         []htmlFailure
	Distinct       []htmlDistinct
}

// htmlDistinct is one cause of failure (Report.Distinct) and its smallest
// failing case, First the number of that case's failure in the full list.
type htmlDistinct struct {
	N, Count, First        int
	Check, Operation, Path string
	Message                string
	CaseName               string
	Method, URL            string
	Expected, Got          string
	Curl                   string
}

type htmlOperation struct {
	Name       string // "operationId METHOD /path", as ByOperation names it
	ID         string
	Method     string
	Path       string
	Cases      int
	Mocked     int // observed: exchanges the mock answered instead of the upstream
	Passed     int
	Failed     int
	Declared   string
	Seen       string
	Unseen     string
	Undeclared string
	Kinds      string
	Skipped    int
}

type htmlCheck struct {
	Name, About    string
	Passed, Failed int
}

type htmlCount struct {
	N    int
	What string
}

type htmlHeader struct{ Name, Value string }

type htmlFailure struct {
	N                         int
	Check                     string
	Operation, Kind, CaseName string
	Method, URL               string
	RequestHeaders            []htmlHeader
	RequestBody               string
	Expected, Got             string
	Status                    string
	Error                     string
	ResponseHeaders           []htmlHeader
	HeadersTrimmed            bool
	ResponseBody              string
	Curl                      string
}

// outcomeLabels are the words of each outcome.
var outcomeLabels = map[string]string{"passed": "PASSED", "failed": "FAILED", "unchecked": "NOT CHECKED"}

func (r *Report) htmlView() htmlView {
	v := htmlView{
		Observed:    r.Observed != nil,
		Title:       "moviemock contract report",
		Outcome:     r.outcome(),
		Label:       outcomeLabels[r.outcome()],
		Target:      Safe(r.BaseURL),
		Spec:        Safe(r.Spec),
		Seed:        r.Seed,
		Duration:    r.Duration.Round(time.Millisecond).String(),
		Cases:       len(r.Results),
		FailedCases: r.FailedCases(),
		Skipped:     r.Skipped(),
		Failures:    r.Failures(),
		Stopped:     Safe(r.Stopped),
		Verdict:     Safe(r.verdict()),
		SummaryLine: Safe(r.SummaryLine()),
	}
	if !r.Started.IsZero() {
		v.Started = r.Started.UTC().Format(time.RFC3339)
	}
	if r.Observed != nil {
		v.Title = "moviemock proxy report"
		v.Cases = r.Observed.Exchanges
	}
	for _, n := range r.Notes {
		v.Notes = append(v.Notes, Safe(n))
	}

	coverage := r.coverage()
	byName := map[string]*Coverage{}
	for i := range coverage {
		c := &coverage[i]
		byName[c.Operation+" "+c.Method+" "+c.Path] = c
	}
	for _, t := range r.ByOperation() {
		op := htmlOperation{Name: Safe(t.Name), ID: Safe(t.Name), Cases: t.Cases, Passed: t.Passed, Failed: t.Failed}
		if c := byName[t.Name]; c != nil {
			op.fill(c)
		}
		v.Operations = append(v.Operations, op)
	}
	for i := range coverage {
		if c := &coverage[i]; c.Cases == 0 {
			op := htmlOperation{Name: Safe(c.Operation + " " + c.Method + " " + c.Path)}
			op.fill(c)
			v.Operations = append(v.Operations, op)
		}
	}

	about := map[string]string{}
	for _, c := range append(slices.Clone(Checks), ObservedChecks...) {
		about[c.name] = c.about
	}
	for _, t := range r.ByCheck() {
		v.Checks = append(v.Checks, htmlCheck{Name: Safe(t.Name), About: Safe(about[t.Name]), Passed: t.Passed, Failed: t.Failed})
	}

	reasons := map[string]int{}
	for _, res := range r.Results {
		if why := res.Response.Skipped; why != "" {
			if reasons[why] == 0 {
				v.SkipReasons = append(v.SkipReasons, htmlCount{What: why})
			}
			reasons[why]++
		}
	}
	for i := range v.SkipReasons {
		v.SkipReasons[i].N = reasons[v.SkipReasons[i].What]
		v.SkipReasons[i].What = Safe(v.SkipReasons[i].What)
	}

	for _, res := range r.Results {
		for _, c := range res.Checks {
			if c.Passed {
				continue
			}
			req, resp := res.Case.Request, &res.Response
			f := htmlFailure{
				N:               len(v.Failed) + 1,
				Check:           Safe(c.Check),
				Operation:       Safe(res.Case.Operation),
				Kind:            Safe(string(res.Case.Kind)),
				CaseName:        Safe(strconv.Quote(res.Case.Name)),
				Method:          Safe(req.Method),
				URL:             Safe(req.URL),
				RequestHeaders:  htmlHeaders(req.Header),
				Expected:        Safe(c.Expected),
				Got:             Safe(c.Got),
				Error:           Safe(resp.Error),
				ResponseHeaders: htmlHeaders(resp.Header),
				HeadersTrimmed:  resp.HeadersTrimmed,
				ResponseBody:    safeBlock(resp.excerptText()),
				Curl:            Safe(res.reproduce()),
			}
			if len(req.Body) > ExcerptBytes {
				f.RequestBody = safeBlock(req.Body[:ExcerptBytes] + "…")
			} else {
				f.RequestBody = safeBlock(req.Body)
			}
			if resp.Status != 0 {
				f.Status = strconv.Itoa(resp.Status)
			}
			v.Failed = append(v.Failed, f)
		}
	}
	for i, d := range r.Distinct() {
		first := 0
		n := 0
		for _, res := range r.Results {
			for _, c := range res.Checks {
				if !c.Passed {
					n++
					if res == d.Smallest && c == d.Failure && first == 0 {
						first = n
					}
				}
			}
		}
		req := d.Smallest.Case.Request
		v.Distinct = append(v.Distinct, htmlDistinct{
			N: i + 1, Count: d.Count, First: first,
			Check: Safe(d.Check), Operation: Safe(d.Operation), Path: Safe(d.Method + " " + d.Path),
			Message:  Safe(d.Message),
			CaseName: Safe(string(d.Smallest.Case.Kind) + " case " + strconv.Quote(d.Smallest.Case.Name)),
			Method:   Safe(req.Method), URL: Safe(req.URL),
			Expected: Safe(d.Failure.Expected), Got: Safe(d.Failure.Got),
			Curl: Safe(d.Smallest.reproduce()),
		})
	}
	return v
}

func (op *htmlOperation) fill(c *Coverage) {
	op.ID, op.Method, op.Path = Safe(c.Operation), Safe(c.Method), Safe(c.Path)
	op.Declared = Safe(listOrNone(c.Declared))
	op.Seen = Safe(listOrNone(c.Seen))
	op.Unseen = Safe(listOrNone(c.Unseen))
	var undeclared []string
	for _, n := range c.Undeclared {
		undeclared = append(undeclared, strconv.Itoa(n))
	}
	op.Undeclared = listOrNone(undeclared)
	op.Kinds = Safe(listOrNone(c.kindsRun()))
	op.Skipped = c.Skipped
	op.Mocked = c.Mocked
}

// htmlHeaders is h sorted by name, each value on its own row.
func htmlHeaders(h map[string][]string) []htmlHeader {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	sort.Strings(names)
	var out []htmlHeader
	for _, k := range names {
		for _, v := range h[k] {
			out = append(out, htmlHeader{Name: Safe(k), Value: Safe(v)})
		}
	}
	return out
}

// safeBlock is Safe line by line: a body in a <pre> keeps its line breaks,
// every other control character is shown escaped.
func safeBlock(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Safe(l)
	}
	return strings.Join(lines, "\n")
}

// copyScript shows the copy buttons and copies a curl command: to the
// clipboard, else (no clipboard API, as on some file:// pages) by
// selecting it. It has no "<" or "&", so the page stays well-formed XML
// apart from its void elements.
const copyScript = `
document.querySelectorAll("button.copy").forEach(function (b) {
  b.hidden = false;
  b.addEventListener("click", function () {
    var pre = document.getElementById(b.getAttribute("data-copy"));
    var done = function () {
      b.textContent = "Copied";
      setTimeout(function () { b.textContent = "Copy"; }, 1500);
    };
    var select = function () {
      var range = document.createRange();
      range.selectNodeContents(pre);
      var sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      try { if (document.execCommand("copy")) { done(); } } catch (e) {}
    };
    if (navigator.clipboard) {
      navigator.clipboard.writeText(pre.textContent).then(done, select);
    } else {
      select();
    }
  });
});
`

// ReportCSS is the style of moviemock's HTML reports: this one and diff's
// (package compare), which look alike.
const ReportCSS = htmlCSS

const htmlCSS = `
:root { --fail: #b3261e; --pass: #1e6b34; --warn: #8a5300; --muted: #5f6368; --line: #d0d4d9; --code: #f4f5f7; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 80rem; padding: 1rem 1.5rem 3rem; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; background: #fff; }
h1 { font-size: 1.4rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 2rem 0 .5rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; }
h3 { font-size: 1rem; margin: 0 0 .5rem; }
h4 { font-size: .85rem; margin: .75rem 0 .25rem; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .85rem; }
pre { background: var(--code); border: 1px solid var(--line); border-radius: 4px; padding: .5rem .75rem; margin: .25rem 0; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 24rem; overflow: auto; }
.verdict { font-weight: 700; }
.passed .verdict, tr.ok td.mark { color: var(--pass); }
.failed .verdict, tr.fail td.mark, td.fail { color: var(--fail); font-weight: 600; }
#summary { border-left: 6px solid var(--pass); padding: .25rem 1rem .5rem; }
#summary.failed { border-left-color: var(--fail); }
#summary.unchecked { border-left-color: var(--warn); background: #fff8e1; }
.unchecked .verdict { color: var(--warn); }
tr.unchecked td.cases { color: var(--warn); font-weight: 600; }
#summary h2 { border: 0; margin-top: .5rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: .5rem 0; }
dt { color: var(--muted); }
dd { margin: 0; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
article.distinct { border-top: 1px solid var(--line); margin-top: 1.2rem; padding-top: .3rem; }
table.distinct-index td:last-child { overflow-wrap: anywhere; }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top; }
thead th { background: var(--code); font-size: .85rem; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.unseen { color: var(--muted); }
.opid { color: var(--muted); font-size: .85rem; }
.failure { border: 1px solid var(--line); border-left: 4px solid var(--fail); border-radius: 4px; padding: .75rem 1rem; margin: 1rem 0; }
.failure p { margin: .25rem 0; overflow-wrap: anywhere; }
table.headers { width: auto; max-width: 100%; }
table.headers th, table.headers td { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .8rem; overflow-wrap: anywhere; }
.reproduce { position: relative; }
button.copy { font: inherit; font-size: .8rem; padding: .15rem .6rem; cursor: pointer; }
.none { color: var(--muted); }
@media print { pre { max-height: none; } button.copy { display: none; } }
`

// cspHash allows copyScript, and nothing else, to run.
var cspHash = func() string {
	sum := sha256.Sum256([]byte(copyScript))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}()

// htmlReport is the page. The CSS and the script are static text of the
// template, not values: html/template would escape a value in <script> as
// a JavaScript string.
var htmlReport = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src '` + cspHash + `'; base-uri 'none'; form-action 'none'">
<title>{{.Label}} · {{.Title}} · {{.Target}}</title>
<style>` + htmlCSS + `</style>
</head>
<body>
<h1>{{.Title}}</h1>

<section id="summary" class="{{.Outcome}}">
<h2>Summary: <span class="verdict">{{.Label}}</span></h2>
<dl>
<dt>{{if .Observed}}Upstream{{else}}Target{{end}}</dt><dd><code class="target">{{.Target}}</code></dd>
<dt>Contract</dt><dd><code class="spec">{{.Spec}}</code></dd>
{{- if not .Observed}}
<dt>Seed</dt><dd class="seed">{{.Seed}}</dd>
{{- end}}
{{- if .Started}}
<dt>Started</dt><dd>{{.Started}}</dd>
{{- end}}
<dt>Duration</dt><dd class="duration">{{.Duration}}</dd>
{{- if .Observed}}
<dt>Exchanges observed</dt><dd class="exchanges">{{.Cases}} ({{.FailedCases}} failed)</dd>
{{- else}}
<dt>Cases</dt><dd>{{.Cases}} ({{.FailedCases}} failed{{if .Skipped}}, {{.Skipped}} skipped, not sent{{end}})</dd>
{{- end}}
<dt>Failed checks</dt><dd>{{.Failures}}</dd>
{{- if .Stopped}}
<dt>Stopped early</dt><dd class="stopped">{{.Stopped}}; {{.Skipped}} cases not run</dd>
{{- end}}
</dl>
<p class="verdict-line">{{.Verdict}}</p>
<pre id="summary-line">{{.SummaryLine}}</pre>
</section>
<!-- The causes first: what to fix, before the tallies. -->
{{if .Distinct}}
<section id="distinct">
<h2>Distinct failures ({{len .Distinct}})</h2>
<p>The failed checks grouped by cause (check, operation, and the message with the values that vary per case taken out), each with its smallest failing case.</p>
<table class="distinct-index">
<thead><tr><th>#</th><th>Check</th><th>Operation</th><th class="num">Failures</th><th>Cause</th></tr></thead>
<tbody>
{{- range .Distinct}}
<tr><td><a href="#distinct-{{.N}}">{{.N}}</a></td><td><code>{{.Check}}</code></td><td>{{.Operation}} <code>{{.Path}}</code></td><td class="num">{{.Count}}</td><td>{{.Message}}</td></tr>
{{- end}}
</tbody>
</table>
{{- range .Distinct}}
<article class="distinct" id="distinct-{{.N}}" data-check="{{.Check}}" data-operation="{{.Operation}}" data-count="{{.Count}}">
<h3>{{.N}}) <code>{{.Check}}</code> — {{.Operation}} {{.Path}} — <span class="count">{{.Count}}</span> {{if eq .Count 1}}failure{{else}}failures{{end}}</h3>
<p class="cause">{{.Message}}</p>
<p>Smallest failing case: {{.CaseName}} (failure {{.First}} in the full list)</p>
<p><code class="request-line">{{.Method}} {{.URL}}</code></p>
<h4>Expected</h4>
<p class="expected">{{.Expected}}</p>
<h4>Got</h4>
<p class="got">{{.Got}}</p>
<h4>Reproduce</h4>
<pre class="distinct-curl" id="distinct-curl-{{.N}}">{{.Curl}}</pre>
<button type="button" class="copy" data-copy="distinct-curl-{{.N}}" hidden>Copy</button>
</article>
{{- end}}
</section>
{{end}}
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
<section id="operations">
<h2>Operations</h2>
<table>
<thead><tr><th>Operation</th><th>{{if .Observed}}Exchanges{{else}}Cases{{end}}</th><th>Checks passed</th><th>Checks failed</th><th>Declared statuses</th><th>Seen</th><th>Never seen</th><th>Undeclared seen</th><th>Kinds of case run</th></tr></thead>
<tbody>
{{- range .Operations}}
<tr data-operation="{{.Name}}" class="{{if .Failed}}fail{{else if and (not .Passed) (not .Cases)}}unchecked{{else}}ok{{end}}">
<th scope="row"><code>{{.Method}} {{.Path}}</code><br><span class="opid">{{.ID}}</span></th>
<td class="num cases">{{if .Cases}}{{.Cases}}{{if .Mocked}} (and {{.Mocked}} answered by the mock){{end}}{{else if .Mocked}}answered by the mock only ({{.Mocked}}), not checked{{else if $.Observed}}not seen{{else}}no cases{{end}}</td>
<td class="num passed">{{.Passed}}</td>
<td class="num failed{{if .Failed}} fail{{end}}">{{.Failed}}</td>
<td class="declared">{{.Declared}}</td>
<td class="seen">{{.Seen}}</td>
<td class="unseen">{{.Unseen}}</td>
<td class="undeclared">{{.Undeclared}}</td>
<td class="kinds">{{.Kinds}}{{if .Skipped}}; {{.Skipped}} cases skipped{{end}}</td>
</tr>
{{- end}}
</tbody>
</table>
</section>

<section id="checks">
<h2>Checks</h2>
<table>
<thead><tr><th></th><th>Check</th><th>What it requires</th><th>Passed</th><th>Failed</th></tr></thead>
<tbody>
{{- range .Checks}}
<tr data-check="{{.Name}}" class="{{if .Failed}}fail{{else}}ok{{end}}">
<td class="mark">{{if .Failed}}FAIL{{else}}ok{{end}}</td>
<th scope="row"><code>{{.Name}}</code></th>
<td class="about">{{.About}}</td>
<td class="num passed">{{.Passed}}</td>
<td class="num failed">{{.Failed}}</td>
</tr>
{{- end}}
</tbody>
</table>
</section>
{{if .SkipReasons}}
<section id="skipped">
<h2>Skipped: {{.Skipped}} cases not sent</h2>
<ul>
{{- range .SkipReasons}}
<li>{{.N}} × {{.What}}</li>
{{- end}}
</ul>
</section>
{{end}}
<section id="failures">
<h2>Failures{{if .Failed}} ({{len .Failed}}){{end}}</h2>
{{- if not .Failed}}
<p class="none">None: every check passed.</p>
{{- else}}
<details{{if not .Distinct}} open{{end}}>
<summary>Every failed check, one by one ({{len .Failed}})</summary>
{{- end}}
{{- range .Failed}}
<article class="failure" id="failure-{{.N}}" data-check="{{.Check}}">
<h3>{{.N}}) <code>{{.Check}}</code> — {{.Operation}} {{.Kind}} case {{.CaseName}}</h3>
<div class="request">
<h4>Request</h4>
<p><code class="request-line">{{.Method}} {{.URL}}</code></p>
{{- if .RequestHeaders}}
<table class="headers">
{{- range .RequestHeaders}}
<tr><th>{{.Name}}</th><td>{{.Value}}</td></tr>
{{- end}}
</table>
{{- end}}
{{- if .RequestBody}}
<pre class="body request-body">{{.RequestBody}}</pre>
{{- end}}
</div>
<div class="expectation">
<h4>Expected</h4>
<p class="expected">{{.Expected}}</p>
<h4>Got</h4>
<p class="got">{{.Got}}</p>
</div>
<div class="response">
<h4>Response</h4>
<p>{{if .Status}}status <code class="status">{{.Status}}</code>{{else}}no status{{end}}{{if .Error}}: <span class="error">{{.Error}}</span>{{end}}</p>
{{- if .ResponseHeaders}}
<table class="headers">
{{- range .ResponseHeaders}}
<tr><th>{{.Name}}</th><td>{{.Value}}</td></tr>
{{- end}}
</table>
{{- if .HeadersTrimmed}}
<p class="none">(more headers came than the report keeps)</p>
{{- end}}
{{- end}}
{{- if .ResponseBody}}
<pre class="body response-body">{{.ResponseBody}}</pre>
{{- end}}
</div>
<div class="reproduce">
<h4>Reproduce</h4>
<pre class="curl" id="curl-{{.N}}">{{.Curl}}</pre>
<button type="button" class="copy" data-copy="curl-{{.N}}" hidden>Copy</button>
</div>
</article>
{{- end}}
{{- if .Failed}}
</details>
{{- end}}
</section>

<script>` + copyScript + `</script>
</body>
</html>
`))
