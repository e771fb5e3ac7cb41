package compare

import (
	"html/template"
	"io"
	"strings"

	"github.com/moviemock/moviemock/contract"
)

// WriteHTML writes the report as one self-contained HTML page in the style
// of the contract report: the summary and its line, a table of the
// operations with their counts, then the changes by level and operation.
// The page loads nothing and runs no script (its Content-Security-Policy
// says so); every string from the documents is escaped by html/template.
func (r *Report) WriteHTML(w io.Writer) error {
	v := htmlView{
		Old: r.Old, New: r.New, Engine: Engine, ReadBy: r.ReadBy(), FailOn: string(r.failOn()),
		Outcome: "passed", Label: "PASSED", SummaryLine: r.SummaryLine(),
		Breaking: r.Count(Breaking), Warning: r.Count(Warning), Info: r.Count(Info), Dropped: r.Dropped,
	}
	if r.Failed() {
		v.Outcome, v.Label = "failed", "FAILED"
	}
	if t := r.Traffic; t != nil {
		v.Traffic, v.TrafficLine = t, r.trafficLine()
		v.Unmatched = t.Unmatched[:min(len(t.Unmatched), maxUnmatchedShown)]
		v.MoreUnmatched = len(t.Unmatched) - len(v.Unmatched)
	}
	// Counted in one pass: a document of thousands of operations changed
	// is not read once per operation.
	rows := map[string]*htmlOp{}
	for i := range r.Changes {
		c := &r.Changes[i]
		row := rows[opName(c)]
		if row == nil {
			row = &htmlOp{Name: opName(c)}
			rows[row.Name] = row
		}
		switch c.Level {
		case Breaking:
			row.Breaking++
		case Warning:
			row.Warning++
		default:
			row.Info++
		}
	}
	for _, op := range r.Operations() {
		v.Operations = append(v.Operations, *rows[op])
	}
	for l := Breaking; l >= Info; l-- {
		gs := r.groups(l)
		if len(gs) == 0 {
			continue
		}
		sec := htmlLevel{Name: l.String(), Title: strings.ToUpper(l.String()[:1]) + l.String()[1:], Count: r.Count(l)}
		for _, g := range gs {
			hc := htmlChange{Change: g.first, Op: opName(&g.first), Also: g.also(), GroupHits: g.hitCount}
			if g.hitCount > 0 {
				hc.HitsLine = hitsLine(g.hitCount, g.hits)
			}
			sec.Changes = append(sec.Changes, hc)
		}
		v.Levels = append(v.Levels, sec)
	}
	return htmlPage.Execute(w, v)
}

type htmlView struct {
	Old, New, Engine, ReadBy, FailOn, Outcome, Label, SummaryLine string
	Breaking, Warning, Info, Dropped                              int
	Operations                                                    []htmlOp
	Levels                                                        []htmlLevel
	Traffic                                                       *Traffic
	TrafficLine                                                   string
	Unmatched                                                     []Unmatched
	MoreUnmatched                                                 int
}

type htmlOp struct {
	Name                    string
	Breaking, Warning, Info int
}

type htmlLevel struct {
	Name, Title string
	Count       int
	Changes     []htmlChange
}

type htmlChange struct {
	Change
	Op, Also, HitsLine string
	GroupHits          int // of every operation the change is told for
}

// diffCSS adds the levels' colours to the contract report's style.
const diffCSS = `
.change { border: 1px solid var(--line); border-left: 4px solid var(--muted); border-radius: 4px; padding: .5rem 1rem; margin: .75rem 0; }
.change.breaking { border-left-color: var(--fail); }
.change.warning { border-left-color: var(--warn); }
.change p { margin: .2rem 0; overflow-wrap: anywhere; }
.why { color: #1f2328; }
.also, .id { color: var(--muted); font-size: .85rem; }
.hits { font-size: .9rem; }
td.breaking { color: var(--fail); font-weight: 600; }
td.warning { color: var(--warn); font-weight: 600; }
`

var htmlPage = template.Must(template.New("diff").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<title>{{.Label}} · moviemock diff · {{.Old}} → {{.New}}</title>
<style>` + contract.ReportCSS + diffCSS + `</style>
</head>
<body>
<h1>moviemock diff</h1>

<section id="summary" class="{{.Outcome}}">
<h2>Summary: <span class="verdict">{{.Label}}</span></h2>
<dl>
<dt>OLD</dt><dd><code class="old">{{.Old}}</code></dd>
<dt>NEW</dt><dd><code class="new">{{.New}}</code></dd>
<dt>Engine</dt><dd>{{.Engine}}{{with .ReadBy}}, read by the {{.}}{{end}}</dd>
<dt>Fails on</dt><dd><code>--fail-on {{.FailOn}}</code></dd>
<dt>Changes</dt><dd class="counts">{{.Breaking}} breaking, {{.Warning}} warning, {{.Info}} info</dd>
{{- if .Dropped}}
<dt>Left out</dt><dd>{{.Dropped}} of oasdiff's findings about info.version, which no client sees</dd>
{{- end}}
</dl>
<pre id="summary-line">{{.SummaryLine}}</pre>
</section>
{{if .Operations}}
<section id="operations">
<h2>Operations</h2>
<table>
<thead><tr><th>Operation</th><th>Breaking</th><th>Warning</th><th>Info</th></tr></thead>
<tbody>
{{- range .Operations}}
<tr data-operation="{{.Name}}"><th scope="row"><code>{{.Name}}</code></th><td class="num{{if .Breaking}} breaking{{end}}">{{.Breaking}}</td><td class="num{{if .Warning}} warning{{end}}">{{.Warning}}</td><td class="num">{{.Info}}</td></tr>
{{- end}}
</tbody>
</table>
</section>
{{else}}
<p class="none">No change a client can see.</p>
{{end}}
{{- range .Levels}}
<section id="{{.Name}}">
<h2>{{.Title}} ({{.Count}})</h2>
{{- range .Changes}}
<article class="change {{.Level}}" data-id="{{.ID}}" data-operation="{{.Op}}">
<h3><code>{{.Op}}</code>{{if .Where}} — {{.Where}}{{end}}</h3>
<p class="text">{{.Text}}</p>
<p class="why"><strong>Why:</strong> {{.Why}}</p>
<p class="id"><code>{{.ID}}</code>{{range .Engine}} (oasdiff <code>{{.}}</code>){{end}}</p>
{{- if .Also}}
<p class="also">Also in: {{.Also}}</p>
{{- end}}
{{- if .HitsLine}}
<p class="hits" data-hits="{{.GroupHits}}"><strong>Hits</strong> {{.HitsLine}}</p>
{{- end}}
</article>
{{- end}}
</section>
{{- end}}
{{- with .Traffic}}
<section id="traffic">
<h2>Recorded calls</h2>
<p><code>{{.Source}}</code> ({{.Kind}}): {{$.TrafficLine}}</p>
{{- range .Notes}}
<p>{{.}}</p>
{{- end}}
{{- if $.Unmatched}}
<table>
<thead><tr><th>#</th><th>Call</th><th>Matches no operation of OLD</th></tr></thead>
<tbody>
{{- range $.Unmatched}}
<tr><td class="num">{{.Index}}</td><td><code>{{.Method}} {{.Path}}</code></td><td>{{.Why}}</td></tr>
{{- end}}
</tbody>
</table>
{{- if $.MoreUnmatched}}
<p>… and {{$.MoreUnmatched}} more (the JSON report lists them all).</p>
{{- end}}
{{- end}}
</section>
{{- end}}
</body>
</html>
`))
