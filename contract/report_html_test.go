package contract_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
)

// element is a node of the page as parseHTML reads it.
type element struct {
	name     string
	attr     map[string]string
	children []*element
	text     strings.Builder // the text directly inside, decoded
}

// Text is the decoded text of e and everything in it.
func (e *element) Text() string {
	var b strings.Builder
	var walk func(*element)
	walk = func(e *element) {
		b.WriteString(e.text.String())
		for _, c := range e.children {
			walk(c)
		}
	}
	walk(e)
	return b.String()
}

// all is every element under e (e included) that match accepts.
func (e *element) all(match func(*element) bool) []*element {
	var out []*element
	if match(e) {
		out = append(out, e)
	}
	for _, c := range e.children {
		out = append(out, c.all(match)...)
	}
	return out
}

func (e *element) hasClass(c string) bool {
	return strings.Contains(" "+e.attr["class"]+" ", " "+c+" ")
}

func byID(id string) func(*element) bool {
	return func(e *element) bool { return e.attr["id"] == id }
}

func byClass(name, class string) func(*element) bool {
	return func(e *element) bool { return e.name == name && e.hasClass(class) }
}

// htmlVoid are the void elements the page uses: they have no end tag.
var htmlVoid = map[string]bool{"meta": true, "br": true}

// parseHTML reads the page as nested elements and fails the test unless
// every element is closed in order (void ones aside), with a single root
// <html>. encoding/xml, not golang.org/x/net/html: the module does not
// depend on x/net, and the page is written to be XML-shaped. RawToken, not
// Token: Token in non-strict mode silently closes mismatched elements.
func parseHTML(t *testing.T, page []byte) *element {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(page))
	d.Strict = false // attributes without a value (hidden), HTML entities
	d.Entity = xml.HTMLEntity
	doc := &element{name: "#document"}
	stack := []*element{doc}
	for {
		tok, err := d.RawToken()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the page does not parse: %v", err)
		}
		top := stack[len(stack)-1]
		switch tok := tok.(type) {
		case xml.StartElement:
			e := &element{name: strings.ToLower(tok.Name.Local), attr: map[string]string{}}
			for _, a := range tok.Attr {
				name := strings.ToLower(a.Name.Local)
				if a.Name.Space != "" {
					name = strings.ToLower(a.Name.Space) + ":" + name
				}
				e.attr[name] = a.Value
			}
			top.children = append(top.children, e)
			if !htmlVoid[e.name] {
				stack = append(stack, e)
			}
		case xml.EndElement:
			if name := strings.ToLower(tok.Name.Local); name != top.name {
				t.Fatalf("</%s> closes <%s>", name, top.name)
			}
			stack = stack[:len(stack)-1]
		case xml.CharData:
			top.text.Write(tok)
		}
	}
	if len(stack) != 1 {
		t.Fatalf("<%s> is never closed", stack[len(stack)-1].name)
	}
	if len(doc.children) != 1 || doc.children[0].name != "html" {
		t.Fatalf("the page is not one <html> element: %d top-level elements", len(doc.children))
	}
	return doc.children[0]
}

func writeHTML(t *testing.T, report *contract.Report) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := report.WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// checkSelfContained fails unless the page would load nothing: no element
// that fetches, no src or href but a link within the page ("#id"), no CSS
// import or url().
func checkSelfContained(t *testing.T, page []byte, root *element) {
	t.Helper()
	for _, e := range root.all(func(*element) bool { return true }) {
		switch e.name {
		case "link", "img", "iframe", "object", "embed", "base", "form", "audio", "video", "source", "frame":
			t.Errorf("the page has a <%s>", e.name)
		}
		for name := range e.attr {
			switch name {
			case "href":
				v := e.attr[name]
				id := strings.TrimPrefix(v, "#")
				if !regexp.MustCompile(`^#[A-Za-z0-9_-]+$`).MatchString(v) {
					t.Errorf("<%s> has href=%q", e.name, v)
				} else if len(root.all(func(e *element) bool { return e.attr["id"] == id })) == 0 {
					t.Errorf("<%s href=%q> links to no element of the page", e.name, v)
				}
			case "src", "srcset", "action", "formaction", "poster", "background", "xlink:href", "ping":
				t.Errorf("<%s> has %s=%q", e.name, name, e.attr[name])
			}
		}
	}
	if s := root.all(func(e *element) bool { return e.name == "script" }); len(s) != 1 {
		t.Errorf("%d <script> elements, want 1 (the copy button's)", len(s))
	}
	for _, re := range []string{`(?i)@import`, `(?i)url\s*\(`, `(?i)(src|href)\s*=\s*["']?\s*(https?:)?//`, `(?i)http-equiv="refresh"`} {
		if loc := regexp.MustCompile(re).FindIndex(page); loc != nil {
			t.Errorf("the page holds %q", page[loc[0]:loc[1]])
		}
	}
}

func TestHTMLReportHostileTarget(t *testing.T) {
	t.Parallel()
	const script = `<script>alert("owned")</script>`
	evil := "\x1b[2J\x1b[H\rPASSED: 42 cases\n" + script + "</pre></html><html><!-- ]]> &amp; \u202egnp.exe\u0085\x9b31m\x7f\xff"
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("X-Evil", script+"\u202eowned\u0085")
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte(evil))
	})
	report := run(t, h, contract.Config{Examples: 2, IDs: map[string][]string{"person_id": {"1"}}})
	if report.Failures() == 0 {
		t.Fatal("no failure")
	}
	page := writeHTML(t, report)
	root := parseHTML(t, page)
	checkSelfContained(t, page, root)

	// What the target sent is text, shown escaped, never markup.
	if n := bytes.Count(bytes.ToLower(page), []byte("<html")); n != 1 {
		t.Errorf("%d <html in the page", n)
	}
	if bytes.Contains(page, []byte("<script>alert")) || bytes.Contains(page, []byte("<!-- ]]>")) {
		t.Error("the target's markup is in the page unescaped")
	}
	if i := bytes.IndexFunc(page, func(r rune) bool {
		return (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u202e' || r == '\ufffd'
	}); i >= 0 {
		t.Errorf("the page holds %q: %q", page[i:i+4], page[max(0, i-80):min(len(page), i+80)])
	}
	bodies := root.all(byClass("pre", "response-body"))
	if len(bodies) == 0 {
		t.Fatal("no response body shown")
	}
	wantBody := `\x1b[2J\x1b[H\rPASSED: 42 cases` + "\n" + script + `</pre></html><html><!-- ]]> &amp; \u202egnp.exe\u0085\x9b31m\x7f\xff`
	if got := bodies[0].Text(); got != wantBody {
		t.Errorf("response body shown as\n%q\nwant\n%q", got, wantBody)
	}
	if text := root.Text(); !strings.Contains(text, script+`\u202eowned\u0085`) {
		t.Error("the X-Evil header is not shown escaped")
	}

	// The summary, with the line the text report ends with.
	for _, id := range []string{"summary", "operations", "checks", "failures"} {
		if n := len(root.all(byID(id))); n != 1 {
			t.Errorf("%d elements #%s, want 1", n, id)
		}
	}
	summary := root.all(byID("summary"))[0]
	if !summary.hasClass("failed") || !strings.Contains(summary.Text(), "FAILED") {
		t.Errorf("summary does not say FAILED: %q", summary.Text())
	}
	if got := root.all(byID("summary-line"))[0].Text(); got != report.SummaryLine() {
		t.Errorf("summary line %q, want %q", got, report.SummaryLine())
	}
	var text bytes.Buffer
	if err := report.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(text.String(), report.SummaryLine()+"\n") {
		t.Error("the text report does not end with the same summary line")
	}

	// Every failure, in order, with the curl that reproduces it.
	var curls []string
	redactor := report.Redactor()
	for _, res := range report.Results {
		for _, c := range res.Checks {
			if !c.Passed {
				curls = append(curls, redactor.Curl(res.Case.Request))
			}
		}
	}
	failures := root.all(byClass("article", "failure"))
	if len(failures) != report.Failures() || len(failures) != len(curls) {
		t.Fatalf("%d .failure elements, want %d", len(failures), report.Failures())
	}
	for i, f := range failures {
		pre := f.all(byClass("pre", "curl"))
		if len(pre) != 1 || pre[0].Text() != curls[i] {
			t.Errorf("failure %d: curl %v, want %q", i+1, pre, curls[i])
			continue
		}
		if b := f.all(byClass("button", "copy")); len(b) != 1 || b[0].attr["data-copy"] != pre[0].attr["id"] {
			t.Errorf("failure %d: no copy button for its curl", i+1)
		} else if _, hidden := b[0].attr["hidden"]; !hidden {
			t.Errorf("failure %d: the copy button shows without JavaScript", i+1)
		}
		for _, class := range []string{"request-line", "expected", "got", "status"} {
			if len(f.all(func(e *element) bool { return e.hasClass(class) })) != 1 {
				t.Errorf("failure %d has no .%s", i+1, class)
			}
		}
	}
}

func TestHTMLReportPassing(t *testing.T) {
	t.Parallel()
	report := run(t, newMock(t), contract.Config{})
	if report.Failures() != 0 {
		t.Fatalf("the mock fails: %v", failed(report))
	}
	page := writeHTML(t, report)
	root := parseHTML(t, page)
	checkSelfContained(t, page, root)
	if s := root.all(byID("summary"))[0]; !s.hasClass("passed") || !strings.Contains(s.Text(), "PASSED") {
		t.Errorf("summary: %q", s.Text())
	}
	if got := root.all(byID("summary-line"))[0].Text(); got != report.SummaryLine() || !strings.HasPrefix(got, "moviemock contract: PASSED") {
		t.Errorf("summary line %q", got)
	}
	if n := len(root.all(byClass("article", "failure"))); n != 0 {
		t.Errorf("%d failures shown", n)
	}

	// The coverage of declared statuses, per operation.
	orNone := func(l []string) string {
		if len(l) == 0 {
			return "none"
		}
		return strings.Join(l, ", ")
	}
	if len(report.Coverage) == 0 {
		t.Fatal("no coverage")
	}
	unseen := 0
	for _, c := range report.Coverage {
		name := c.Operation + " " + c.Method + " " + c.Path
		rows := root.all(func(e *element) bool { return e.name == "tr" && e.attr["data-operation"] == name })
		if len(rows) != 1 {
			t.Errorf("%d rows for %s", len(rows), name)
			continue
		}
		cell := func(class string) string {
			cells := rows[0].all(byClass("td", class))
			if len(cells) != 1 {
				t.Fatalf("%s: %d td.%s", name, len(cells), class)
			}
			return cells[0].Text()
		}
		if got, want := cell("seen"), orNone(c.Seen); got != want {
			t.Errorf("%s: seen %q, want %q", name, got, want)
		}
		if got, want := cell("unseen"), orNone(c.Unseen); got != want {
			t.Errorf("%s: never seen %q, want %q", name, got, want)
		}
		if got, want := cell("declared"), orNone(c.Declared); got != want {
			t.Errorf("%s: declared %q, want %q", name, got, want)
		}
		if c.Sent > 0 && !strings.Contains(cell("kinds"), "positive") {
			t.Errorf("%s: kinds run %q", name, cell("kinds"))
		}
		unseen += len(c.Unseen)
	}
	if unseen == 0 {
		t.Log("every declared status seen: the never-seen column is only checked as none")
	}

	// Every check that ran, with what it requires.
	about := map[string]string{}
	for _, c := range contract.Checks {
		about[c.Name()] = c.About()
	}
	for _, tally := range report.ByCheck() {
		rows := root.all(func(e *element) bool { return e.name == "tr" && e.attr["data-check"] == tally.Name })
		if len(rows) != 1 {
			t.Errorf("%d rows for check %s", len(rows), tally.Name)
			continue
		}
		if a := rows[0].all(byClass("td", "about")); len(a) != 1 || a[0].Text() != about[tally.Name] {
			t.Errorf("check %s: no description", tally.Name)
		}
	}
}

// A run that checked nothing (a proxy none of whose exchanges reached the
// upstream, a contract run whose every case was skipped) is not styled as
// a pass: its summary says NOT CHECKED in the warning style.
func TestHTMLReportNotChecked(t *testing.T) {
	t.Parallel()
	obs, err := contract.NewObserver(contract.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		obs.NotReached("GET", "/person/{person_id}", true)
	}
	skipped := &contract.Report{BaseURL: "http://127.0.0.1:1", Results: []*contract.Result{
		{Case: &contract.Case{Name: "a write", Method: "POST", Path: "/movies"}, Response: contract.Response{Skipped: "--no-writes"}},
	}}
	for _, tc := range []struct {
		name   string
		report *contract.Report
	}{
		{"proxy, nothing reached the upstream", obs.Report()},
		{"contract, every case skipped", skipped},
		{"contract, no case", &contract.Report{BaseURL: "http://127.0.0.1:1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := writeHTML(t, tc.report)
			root := parseHTML(t, page)
			s := root.all(byID("summary"))[0]
			if !s.hasClass("unchecked") || s.hasClass("passed") || !strings.Contains(s.Text(), "NOT CHECKED") || strings.Contains(s.Text(), "PASSED") {
				t.Errorf("summary (class %q): %q", s.attr["class"], s.Text())
			}
			if title := root.all(func(e *element) bool { return e.name == "title" })[0].Text(); !strings.HasPrefix(title, "NOT CHECKED") {
				t.Errorf("title %q", title)
			}
			if line := tc.report.SummaryLine(); !strings.Contains(line, "NOT CHECKED") {
				t.Errorf("summary line %q", line)
			}
			if !bytes.Contains(page, []byte("#summary.unchecked {")) {
				t.Error("no style for an unchecked run")
			}
		})
	}
}
