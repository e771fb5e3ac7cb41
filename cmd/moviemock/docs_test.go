package main

// The documentation (README.md and docs/*.md) is held to the code here: the
// README stays an entrance, every relative link and anchor resolves, and
// every number the code can produce (record counts, the shipped scenarios,
// the runner's checks and case counts, defaults and bounds) is the number
// the code produces. A number that is a measurement (a benchmark reading)
// is not checked; docs/performance.md says when and where it was taken.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/contract/replay"
	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/fake"
	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/reference"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/internal/traffic"
	"github.com/moviemock/moviemock/mock"
	"github.com/moviemock/moviemock/proxy"
	"github.com/moviemock/moviemock/scenarios"
	"gopkg.in/yaml.v3"
)

// repoRoot is the module's root, seen from this package's directory.
const repoRoot = "../.."

// maxReadmeLines keeps the README an entrance: the rest lives in docs/.
const maxReadmeLines = 150

// generatedDocs are pages written from the code (TestReference -update):
// the README links them, but their text is not this test's to shape.
var generatedDocs = map[string]bool{"docs/reference.md": true}

// docPages reads README.md and every docs/*.md, by path from the root.
func docPages(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, filepath.Join(repoRoot, "README.md"))
	pages := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(repoRoot, f)
		pages[filepath.ToSlash(rel)] = string(b)
	}
	if len(pages) < 2 {
		t.Fatalf("found %d documentation pages: is the test run from cmd/moviemock?", len(pages))
	}
	return pages
}

var (
	fenceRe      = regexp.MustCompile("(?ms)^```.*?^```[ \t]*$")
	inlineCodeRe = regexp.MustCompile("`[^`\n]+`")
	linkRe       = regexp.MustCompile(`!?\[([^\]]*)\]\(([^)\s]+)\)`)
	headingRe    = regexp.MustCompile(`(?m)^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$`)
)

// prose is a page without its fenced code blocks: what GitHub renders as
// headings and links.
func prose(text string) string { return fenceRe.ReplaceAllString(text, "") }

// links lists the link targets of a page, outside code.
func links(text string) []string {
	text = inlineCodeRe.ReplaceAllString(prose(text), "code")
	var out []string
	for _, m := range linkRe.FindAllStringSubmatch(text, -1) {
		out = append(out, m[2])
	}
	return out
}

// anchors are the ids GitHub gives a page's headings: the heading's text
// lower-cased, every character but letters, digits, spaces, hyphens and
// underscores dropped, spaces made hyphens; a repeated id gets -1, -2 ….
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, m := range headingRe.FindAllStringSubmatch(prose(text), -1) {
		h := linkRe.ReplaceAllString(m[1], "$1") // a link's text stays
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		id := b.String()
		if n := seen[id]; n > 0 {
			out[fmt.Sprintf("%s-%d", id, n)] = true
		} else {
			out[id] = true
		}
		seen[id]++
	}
	return out
}

func TestDocsAnchorSlugs(t *testing.T) {
	t.Parallel()
	got := anchors("# How faithful it is\n## Logging in and `--require-auth`\n## Any contract: when the backend grows\n" +
		"## The proxy: `moviemock proxy`\n```sh\n# not a heading\n```\n## Notes\n## Notes\n### 1. A frontend with no backend yet\n")
	for _, want := range []string{"how-faithful-it-is", "logging-in-and---require-auth", "any-contract-when-the-backend-grows",
		"the-proxy-moviemock-proxy", "notes", "notes-1", "1-a-frontend-with-no-backend-yet"} {
		if !got[want] {
			t.Errorf("no anchor %q in %v", want, got)
		}
	}
	if got["not-a-heading"] {
		t.Error("a comment in a code block became an anchor")
	}
}

// The README is an entrance: short, and a way to every page of docs/.
func TestDocsReadmeIsAnEntrance(t *testing.T) {
	t.Parallel()
	pages := docPages(t)
	readme := pages["README.md"]
	if n := strings.Count(readme, "\n"); n > maxReadmeLines {
		t.Errorf("README.md has %d lines, more than %d: move the detail to a page of docs/", n, maxReadmeLines)
	}
	linked := map[string]bool{}
	for _, l := range links(readme) {
		p, _, _ := strings.Cut(l, "#")
		linked[path.Clean(p)] = true
	}
	for page := range pages {
		if page != "README.md" && !linked[page] {
			t.Errorf("README.md does not link %s: every page of docs/ is listed there", page)
		}
	}
	for page := range generatedDocs {
		if !linked[page] {
			t.Errorf("README.md does not link %s", page)
		}
	}
	for page, text := range pages {
		if page == "README.md" || generatedDocs[page] {
			continue
		}
		first := strings.SplitN(text, "\n\n", 3)
		if len(first) < 2 || !strings.Contains(first[1], "(../README.md)") {
			t.Errorf("%s: the paragraph under the title says what the page is for and links back to the README", page)
		}
	}
}

// Every relative link of the documentation reaches a file, and its #anchor
// a heading of that file.
func TestDocsLinksResolve(t *testing.T) {
	t.Parallel()
	pages := docPages(t)
	for page, text := range pages {
		for _, l := range links(text) {
			if strings.Contains(l, "://") || strings.HasPrefix(l, "mailto:") {
				continue
			}
			p, anchor, _ := strings.Cut(l, "#")
			target := page
			if p != "" {
				target = path.Join(path.Dir(page), p)
			}
			if strings.HasPrefix(target, "../") {
				t.Errorf("%s: link %s leaves the repository", page, l)
				continue
			}
			if _, err := os.Stat(filepath.Join(repoRoot, filepath.FromSlash(target))); err != nil {
				t.Errorf("%s: link %s: no file %s", page, l, target)
				continue
			}
			if anchor == "" {
				continue
			}
			body, ok := pages[target]
			if !ok {
				t.Errorf("%s: link %s: an anchor into a file that is not a page", page, l)
				continue
			}
			if !anchors(body)[anchor] {
				t.Errorf("%s: link %s: %s has no heading #%s", page, l, target, anchor)
			}
		}
	}
}

// said returns the submatches of re in the page, failing when the page no
// longer says it: the sentence changed, and so must the test.
func said(t *testing.T, pages map[string]string, page, re string) []string {
	t.Helper()
	m := regexp.MustCompile(re).FindStringSubmatch(squash(pages[page]))
	if m == nil {
		t.Fatalf("%s no longer says /%s/: the sentence changed; change the test with it", page, re)
	}
	return m
}

// squash joins a page's lines, so that a sentence is found across a line
// break.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// number reads "1,000", "4300" or a number word as an int.
func number(t *testing.T, s string) int {
	t.Helper()
	words := []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
		"eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"}
	if i := slices.Index(words, strings.ToLower(s)); i >= 0 {
		return i
	}
	n, err := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	if err != nil {
		t.Fatalf("%q is not a number", s)
	}
	return n
}

// expectNumber fails unless the page says re with its first submatch equal
// to want.
func expectNumber(t *testing.T, pages map[string]string, page, re string, want int) {
	t.Helper()
	if got := number(t, said(t, pages, page, re)[1]); got != want {
		t.Errorf("%s says %d where /%s/ is; the code says %d", page, got, re, want)
	}
}

// section is a page's text from the heading named title to the next
// heading of the same or a higher level.
func section(t *testing.T, pages map[string]string, page, title string) string {
	t.Helper()
	text := pages[page]
	re := regexp.MustCompile(`(?m)^(#+) ` + regexp.QuoteMeta(title) + `\s*$`)
	loc := re.FindStringSubmatchIndex(text)
	if loc == nil {
		t.Fatalf("%s has no heading %q", page, title)
	}
	level := text[loc[2]:loc[3]]
	rest := text[loc[1]:]
	end := regexp.MustCompile(`(?m)^#{1,` + strconv.Itoa(len(level)) + `} `).FindStringIndex(prose(rest))
	if end != nil {
		// prose() removed code blocks: find the same heading line in rest.
		line := prose(rest)[end[0]:]
		line, _, _ = strings.Cut(line, "\n")
		if i := strings.Index(rest, "\n"+line+"\n"); i >= 0 {
			return rest[:i]
		}
	}
	return rest
}

// firstColumn lists the backquoted names of a section's table rows.
func firstColumn(text string) []string {
	var out []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([^`]+)` \\|").FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// The Go the pages ask for is go.mod's.
func TestDocsGoVersion(t *testing.T) {
	t.Parallel()
	pages := docPages(t)
	mod, err := os.ReadFile(filepath.Join(repoRoot, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	for _, page := range []string{"README.md", "docs/development.md"} {
		if got := said(t, pages, page, `Go (\S+) or later`)[1]; got != string(m[1]) {
			t.Errorf("%s asks for Go %s; go.mod says %s", page, got, m[1])
		}
	}
}

// The embedded default data: its counts, and the users table with the
// passwords login checks.
func TestDocsEmbeddedData(t *testing.T) {
	t.Parallel()
	pages := docPages(t)
	data, err := fixtures.Default()
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	movies := map[string]bool{}
	type user struct{ password, role string }
	users := map[string]user{}
	for _, c := range data.Model.Collections {
		table := data.Table(c)
		count[c.File] = len(table.Recs)
		for i := range table.Recs {
			rec := &table.Recs[i]
			var v struct {
				MovieID  string `json:"movie_id"`
				Username string `json:"username"`
				Role     string `json:"role"`
			}
			if err := json.Unmarshal(rec.JSON, &v); err != nil {
				t.Fatal(err)
			}
			if c.File == "reviews" {
				movies[v.MovieID] = true
			}
			if c == data.Model.Login {
				users[v.Username] = user{rec.Secret, v.Role}
			}
		}
	}
	for _, page := range []string{"README.md", "docs/mock.md"} {
		expectNumber(t, pages, page, `(\d+) film people`, count["persons"])
		expectNumber(t, pages, page, `film people, (\d+) users`, count["users"])
		expectNumber(t, pages, page, `(\d+) reviews[ .]`, count["reviews"])
	}
	expectNumber(t, pages, "docs/mock.md", `reviews of (\d+) movies`, len(movies))

	table := section(t, pages, "docs/mock.md", "The embedded default data")
	rows := regexp.MustCompile("(?m)^\\| (\\S+) +\\| `([^`]+)` +\\| (\\S+) +\\|$").FindAllStringSubmatch(table, -1)
	listed := map[string]bool{}
	for _, r := range rows {
		name, password, role := r[1], r[2], r[3]
		listed[name] = true
		u, ok := users[name]
		switch {
		case !ok:
			t.Errorf("docs/mock.md lists user %s, whom the embedded data does not have", name)
		case u.password != password:
			t.Errorf("docs/mock.md gives %s the password %q; login checks %q", name, password, u.password)
		case u.role != role:
			t.Errorf("docs/mock.md gives %s the role %s; the data says %s", name, role, u.role)
		}
	}
	for name := range users {
		if !listed[name] {
			t.Errorf("docs/mock.md's users table lacks %s", name)
		}
	}
}

var tryItCurlRe = regexp.MustCompile(`^curl (.*?)(?:\s+# .*)?$`)

// shellWords splits a command line on spaces, keeping single-quoted words
// whole.
func shellWords(s string) []string {
	var out []string
	var b strings.Builder
	quoted, inWord := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				out = append(out, b.String())
				b.Reset()
			}
			inWord = false
		default:
			b.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		out = append(out, b.String())
	}
	return out
}

// curlRequest builds the request a README curl line sends, to base instead
// of the address the README names.
func curlRequest(t *testing.T, line, base string) *http.Request {
	t.Helper()
	m := tryItCurlRe.FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("not a curl line: %s", line)
	}
	method, target, body := "", "", ""
	header := http.Header{}
	words := shellWords(m[1])
	for i := 0; i < len(words); i++ {
		switch w := words[i]; {
		case w == "-X":
			i++
			method = words[i]
		case w == "-d":
			i++
			body = words[i]
			header.Set("Content-Type", "application/x-www-form-urlencoded")
		case w == "-H":
			i++
			k, v, _ := strings.Cut(words[i], ":")
			header.Add(k, strings.TrimSpace(v))
		case strings.HasPrefix(w, "http://"):
			target = w
		default:
			t.Fatalf("curl option %q: teach the test it", w)
		}
	}
	if method == "" {
		method = "GET"
		if body != "" {
			method = "POST"
		}
	}
	u, _, ok := strings.Cut(strings.TrimPrefix(target, "http://"), "/")
	if !ok || u == "" {
		t.Fatalf("no URL in %s", line)
	}
	req, err := http.NewRequest(method, base+target[len("http://")+len(u):], strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header
	return req
}

// elidedMatch reports whether got is want with each "…" standing for any
// text.
func elidedMatch(want, got string) bool {
	parts := strings.Split(want, "…")
	if !strings.HasPrefix(got, parts[0]) {
		return false
	}
	got = got[len(parts[0]):]
	for i, p := range parts[1:] {
		if i == len(parts)-2 {
			return strings.HasSuffix(got, p)
		}
		j := strings.Index(got, p)
		if j < 0 {
			return false
		}
		got = got[j+len(p):]
	}
	return got == ""
}

func TestDocsElidedMatch(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		want, got string
		ok        bool
	}{
		{`{"a":1}`, `{"a":1}`, true},
		{`{"a":1}`, `{"a":12}`, false},
		{`{"t":"ab…","n":1}`, `{"t":"abcdef","n":1}`, true},
		{`[{"id":"b4…",…}…]`, `[{"id":"b42","x":1},{"id":"c"}]`, true},
		{`a…b…c`, `aXbYc`, true},
		{`a…b…c`, `aXcYb`, false},
	} {
		if got := elidedMatch(tc.want, tc.got); got != tc.ok {
			t.Errorf("elidedMatch(%q, %q) = %v, want %v", tc.want, tc.got, got, tc.ok)
		}
	}
}

// The README's "Try it" block, against the mock on its embedded data: each
// curl line and the answer on the "# …" line under it ("…" elides; a status
// other than 200 comes first; after three spaces, a remark, where "all N
// things" is the length of the list).
func TestDocsTryIt(t *testing.T) {
	t.Parallel()
	pages := docPages(t)
	readme := pages["README.md"]
	i := strings.Index(readme, "Try it:")
	if i < 0 {
		t.Fatal(`README.md has no "Try it:" block`)
	}
	block := fenceRe.FindString(readme[i:])
	base, _ := serve(t, noEnv, "--quiet")
	lines := strings.Split(block, "\n")
	var curls int
	for n, line := range lines {
		if !strings.HasPrefix(line, "curl ") {
			continue
		}
		curls++
		req := curlRequest(t, line, base)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		answer := ""
		if n+1 < len(lines) && strings.HasPrefix(lines[n+1], "# ") {
			answer = strings.TrimPrefix(lines[n+1], "# ")
		}
		if answer == "" {
			if resp.StatusCode != 200 {
				t.Errorf("%s: %d, want 200", line, resp.StatusCode)
			}
			continue
		}
		want, remark, _ := strings.Cut(answer, "   ")
		status := 200
		if m := regexp.MustCompile(`^(\d{3}) (.*)$`).FindStringSubmatch(want); m != nil {
			status, _ = strconv.Atoi(m[1])
			want = m[2]
		}
		if resp.StatusCode != status {
			t.Errorf("%s: status %d, README says %d", line, resp.StatusCode, status)
		}
		listed := strings.HasSuffix(want, ", …]")
		if listed {
			want = strings.TrimSuffix(want, ", …]") + "…]"
		}
		if !elidedMatch(want, string(body)) {
			t.Errorf("%s:\n README: %s\n answer: %.600s", line, answer, body)
		}
		if m := regexp.MustCompile(`all (\d+) \w+`).FindStringSubmatch(remark); m != nil {
			var list []json.RawMessage
			if err := json.Unmarshal(body, &list); err != nil {
				t.Errorf("%s: not a list: %v", line, err)
			} else if len(list) != number(t, m[1]) {
				t.Errorf("%s: %d items, README says %s", line, len(list), m[0])
			}
		}
	}
	if curls < 4 {
		t.Errorf("the Try it block has %d curl lines", curls)
	}
}

// The shipped scenarios: the table lists exactly them, and the counts
// quoted are theirs.
func TestDocsScenarios(t *testing.T) {
	t.Parallel()
	pages := docPages(t)
	var out strings.Builder
	if err := run(context.Background(), []string{"scenarios", "list"}, noEnv, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	var shipped []string
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) > 0 {
			shipped = append(shipped, f[0])
		}
	}
	files, err := fs.Glob(scenarios.Shipped().FS, "*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(shipped) {
		t.Fatalf("scenarios list prints %d scenarios, scenarios/ ships %d files", len(shipped), len(files))
	}
	table := firstColumn(section(t, pages, "docs/scenarios.md", "The scenarios that ship"))
	sort.Strings(shipped)
	sortedTable := slices.Clone(table)
	sort.Strings(sortedTable)
	if !slices.Equal(sortedTable, shipped) {
		t.Errorf("docs/scenarios.md's table lists %v; moviemock ships %v", table, shipped)
	}
	expectNumber(t, pages, "README.md", `prints the (\d+) that ship`, len(shipped))
}

// The checks table lists the runner's checks, in the order reports show
// them.
func TestDocsChecks(t *testing.T) {
	t.Parallel()
	pages := docPages(t)
	var names []string
	for _, c := range contract.Checks {
		names = append(names, c.Name())
	}
	table := firstColumn(section(t, pages, "docs/contract-testing.md", "The checks"))
	if !slices.Equal(table, names) {
		t.Errorf("docs/contract-testing.md's checks table lists\n %v\nthe runner has\n %v", table, names)
	}
	var statuses []string
	for _, s := range contract.DefaultFrameworkStatuses {
		statuses = append(statuses, strconv.Itoa(s))
	}
	if got := said(t, pages, "docs/contract-testing.md", `--framework-statuses\x60, default ([0-9,]+)\)`)[1]; got != strings.Join(statuses, ",") {
		t.Errorf("docs/contract-testing.md gives --framework-statuses' default as %s; it is %s", got, strings.Join(statuses, ","))
	}
	if got := said(t, pages, "docs/scenarios.md", `one FastAPI answers by itself \(([0-9, ]+)\)`)[1]; got != strings.Join(statuses, ", ") {
		t.Errorf("docs/scenarios.md gives the statuses FastAPI answers by itself as %s; they are %s", got, strings.Join(statuses, ", "))
	}
}

// contractLine runs moviemock contract against base and returns its last
// line, the one for a CI log.
func contractLine(t *testing.T, args ...string) string {
	t.Helper()
	var out strings.Builder
	if err := run(context.Background(), append([]string{"contract", "--max-response-time", slowOK}, args...), noEnv, &out, io.Discard); err != nil {
		t.Fatalf("moviemock contract %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	return lines[len(lines)-1]
}

// The summary lines the pages quote are what moviemock contract prints
// against the mock of the embedded contract and of the grown one, and the
// case counts quoted are theirs.
func TestDocsContractRuns(t *testing.T) {
	t.Parallel()
	pages := docPages(t)
	embedded, _ := serve(t, noEnv, "--quiet")
	grownSpec := filepath.Join(repoRoot, "testdata", "contracts", "movies", "openapi.json")
	grown, _ := serve(t, noEnv, "--quiet", "--spec", grownSpec,
		"--fixtures", filepath.Join(repoRoot, "testdata", "contracts", "movies", "fixtures"))
	lines := []string{
		contractLine(t, "--base-url", embedded),
		contractLine(t, "--base-url", grown, "--spec", grownSpec, "--username", "alice", "--password", "wonderland"),
	}
	for page, text := range pages {
		for _, q := range regexp.MustCompile("`(moviemock contract: PASSED [^`]*)`").FindAllStringSubmatch(squash(text), -1) {
			if !slices.Contains(lines, q[1]) {
				t.Errorf("%s quotes\n %s\nmoviemock contract prints\n %s", page, q[1], strings.Join(lines, "\n "))
			}
		}
	}
	cases := number(t, regexp.MustCompile(`PASSED (\d+) cases`).FindStringSubmatch(lines[0])[1])
	expectNumber(t, pages, "docs/contract-testing.md", `the default suite is (\d+) cases`, cases)
	expectNumber(t, pages, "docs/performance.md", `The default suite \((\d+) cases\)`, cases)

	// The shipped scenarios that fit the grown contract.
	resp, err := http.Get(grown + "/__mock/health")
	if err != nil {
		t.Fatal(err)
	}
	var health struct{ Scenarios int }
	json.NewDecoder(resp.Body).Decode(&health)
	resp.Body.Close()
	expectNumber(t, pages, "docs/scenarios.md", `\(all (\w+) on the grown movies contract\)`, health.Scenarios)
	shipped, _ := fs.Glob(scenarios.Shipped().FS, "*.yaml")
	if health.Scenarios != len(shipped) {
		t.Errorf(`docs/scenarios.md says "all" shipped scenarios fit the grown movies contract: %d of %d do`, health.Scenarios, len(shipped))
	}
}

// The proxy's summary lines the pages quote are what the proxy prints after
// a run in front of an upstream that breaks the contract, one that keeps
// it, and one nothing listens at: the same words in the same order, only
// the numbers the page's own ("…" elides).
func TestDocsProxySummaryLines(t *testing.T) {
	t.Parallel()
	pages := docPages(t)
	m, err := mock.New(mock.Config{DisableAdmin: true})
	if err != nil {
		t.Fatal(err)
	}
	good := httptest.NewServer(m)
	t.Cleanup(good.Close)
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/person/") { // a Person without a name, its id a string
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"id":"one"}`)
			return
		}
		m.ServeHTTP(w, r)
	}))
	t.Cleanup(bad.Close)
	var lines []string
	for _, upstream := range []string{bad.URL, good.URL, "http://127.0.0.1:1"} { // port 1: nothing listens
		p := startProxy(t, upstream)
		for _, path := range []string{"/person/1", "/person/2", "/reviews?limit=2"} {
			mockCall(t, p.base, "GET", path, "")
		}
		p.stop(t)
		out := strings.TrimSpace(p.out.String())
		lines = append(lines, out[strings.LastIndex(out, "\n")+1:])
	}
	for i, verdict := range []string{"FAILED", "PASSED", "NOT CHECKED"} {
		if !strings.HasPrefix(lines[i], "moviemock proxy: "+verdict+" ") {
			t.Fatalf("run %d: the last line is %q, not the %s summary", i+1, lines[i], verdict)
		}
	}
	digits := regexp.MustCompile(`[0-9]+`)
	quoted := 0
	for page, text := range pages {
		for _, q := range regexp.MustCompile("`(moviemock proxy: (?:PASSED|FAILED|NOT CHECKED)[^`]*)`").FindAllStringSubmatch(squash(text), -1) {
			quoted++
			parts := strings.Split(q[1], "…")
			for i, p := range parts {
				parts[i] = digits.ReplaceAllString(regexp.QuoteMeta(p), `[0-9]+`)
			}
			re := regexp.MustCompile("^" + strings.Join(parts, ".*") + "$")
			if !slices.ContainsFunc(lines, re.MatchString) {
				t.Errorf("%s quotes\n %s\nthe proxy prints lines such as\n %s", page, q[1], strings.Join(lines, "\n "))
			}
		}
	}
	if quoted < 2 {
		t.Errorf("the pages quote %d summary lines of the proxy; docs/proxy.md quotes a FAILED and a NOT CHECKED one", quoted)
	}
}

// The corpus: its sizes, the single-bug versions, and the results table,
// which is what known.json (held true by TestCorpus) leaves passing.
func TestDocsCorpus(t *testing.T) {
	t.Parallel()
	pages := docPages(t)
	type app struct {
		Name string   `json:"name"`
		Bugs []string `json:"bugs"`
	}
	type known map[string]map[string]struct {
		Kind string `json:"kind"`
	}
	read := func(corpus, file string, v any) {
		b, err := os.ReadFile(filepath.Join(repoRoot, "testdata", "corpus", corpus, file))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s/%s: %v", corpus, file, err)
		}
	}
	sizes := map[string]int{}
	for _, corpus := range []string{"fastapi-docs", "services"} {
		var apps struct{ Apps []app }
		var k known
		read(corpus, "apps.json", &apps)
		read(corpus, "known.json", &k)
		n := len(apps.Apps)
		sizes[corpus] = n
		failing := map[string]int{}
		bugs := 0
		for _, a := range apps.Apps {
			bugs += len(a.Bugs)
		}
		for _, invariants := range k {
			for inv, e := range invariants {
				kind := inv
				if strings.HasPrefix(inv, "bug:") {
					kind = "bug"
				}
				failing[kind]++
				if e.Kind == "moviemock falls short" {
					failing["short"]++
				}
			}
		}
		caught := "—"
		if bugs > 0 {
			caught = fmt.Sprintf("%d of %d", bugs-failing["bug"], bugs)
		}
		row := fmt.Sprintf("| %s | %d | %d | %d | %d (%d apps break their document) | %d (%d apps answer from their code) | %s |",
			corpus, n, n-failing["serve"], n-failing["mock"], n-failing["app"], failing["app"], n-failing["same"], failing["same"], caught)
		if !strings.Contains(pages["docs/fidelity.md"], row+"\n") {
			t.Errorf("docs/fidelity.md's corpus table has no row\n %s\nwhich known.json gives", row)
		}
		if failing["short"] > 0 && strings.Contains(squash(pages["docs/fidelity.md"]), "There are none today") {
			t.Errorf(`docs/fidelity.md says no failure is moviemock's; %s/known.json has %d`, corpus, failing["short"])
		}
	}
	expectNumber(t, pages, "docs/fidelity.md", `the standard library: (\d+) apps`, sizes["fastapi-docs"])
	expectNumber(t, pages, "README.md", `the proof on (\d+) apps`, sizes["fastapi-docs"])
	expectNumber(t, pages, "README.md", `documentation and (\d+) open-source services`, sizes["services"])
	expectNumber(t, pages, "docs/fidelity.md", `\x60testdata/corpus/services\x60: (\w+) open-source`, sizes["services"])

	// The service the suite's benchmark runs on.
	m := said(t, pages, "docs/performance.md", `\(\x60(\w+)\x60, (\d+) operations`)
	b, err := os.ReadFile(filepath.Join(repoRoot, "testdata", "corpus", "services", "openapi", m[1]+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	ops := 0
	for _, item := range doc.Paths {
		for method := range item {
			if slices.Contains([]string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}, method) {
				ops++
			}
		}
	}
	if number(t, m[2]) != ops {
		t.Errorf("docs/performance.md gives %s %s operations; its document has %d", m[1], m[2], ops)
	}

	// The single-bug versions of the grown backend.
	src, err := os.ReadFile(filepath.Join(repoRoot, "internal", "reference", "app", "movies.py"))
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile(`(?s)\nBUGS = \{\n(.*?)\n\}\n`).FindSubmatch(src)
	if block == nil {
		t.Fatal("no BUGS = {…} table in internal/reference/app/movies.py")
	}
	bugs := len(regexp.MustCompile(`(?m)^    "([a-z0-9_]+)": `).FindAll(block[1], -1))
	expectNumber(t, pages, "docs/contract-testing.md", `(\d+) realistic single-bug versions`, bugs)

	// pydantic's lax integers, as recorded from pydantic itself.
	var lax []json.RawMessage
	b, err = os.ReadFile(filepath.Join(repoRoot, "internal", "fastapi", "testdata", "laxint_pydantic.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &lax); err != nil {
		t.Fatal(err)
	}
	expectNumber(t, pages, "docs/fidelity.md", `against pydantic [0-9.]+ on (\d+) inputs`, len(lax))
}

// quantity reads a default or a bound as the code writes it or the pages
// do: a duration (30s, 30m0s), a size (64MiB, 64 KiB) or a number, as one
// comparable value.
func quantity(s string) (int64, bool) {
	s = strings.ReplaceAll(strings.Trim(s, "`\""), " ", "")
	if d, err := time.ParseDuration(s); err == nil {
		return int64(d), true
	}
	for _, u := range []struct {
		suffix string
		n      int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}} {
		if v, ok := strings.CutSuffix(s, u.suffix); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			return n * u.n, err == nil
		}
	}
	n, err := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64)
	return n, err == nil
}

var helpDefaultRe = regexp.MustCompile(`\(default ([^)]*)\)`)

// flagDefaults maps each flag of a command to the default its --help
// gives ("" for none).
func flagDefaults(t *testing.T, command string) map[string]string {
	t.Helper()
	var out strings.Builder
	run(context.Background(), []string{command, "--help"}, noEnv, &out, &out)
	defaults := map[string]string{}
	flag := ""
	for _, line := range strings.Split(out.String(), "\n") {
		if m := regexp.MustCompile(`^  --([a-z0-9-]+)`).FindStringSubmatch(line); m != nil {
			flag = m[1]
			defaults[flag] = ""
			continue
		}
		if flag != "" && strings.HasPrefix(line, "    ") {
			if m := helpDefaultRe.FindStringSubmatch(line); m != nil {
				defaults[flag] = m[1]
			}
		}
	}
	if len(defaults) < 3 {
		t.Fatalf("moviemock %s --help lists %d flags:\n%s", command, len(defaults), out.String())
	}
	return defaults
}

// Each limits table row that names a flag gives the flag's default, as
// the command's --help does.
func TestDocsLimitsDefaults(t *testing.T) {
	t.Parallel()
	pages := docPages(t)
	text := pages["docs/limits.md"]
	rowRe := regexp.MustCompile("^\\| ([^|]+) \\| ([^|]+) \\| `--([a-z0-9-]+)` \\|")
	command, rows := "", 0
	helps := map[string]map[string]string{}
	for _, line := range strings.Split(prose(text), "\n") {
		if strings.HasPrefix(line, "#") {
			command = ""
			if m := regexp.MustCompile("`moviemock (\\w+)`").FindStringSubmatch(line); m != nil {
				command = m[1]
			}
			continue
		}
		m := rowRe.FindStringSubmatch(line)
		if m == nil || command == "" {
			continue
		}
		rows++
		if helps[command] == nil {
			helps[command] = flagDefaults(t, command)
		}
		bound, doc, flag := m[1], strings.TrimSpace(m[2]), m[3]
		def, ok := helps[command][flag]
		if !ok {
			t.Errorf("docs/limits.md: %s: moviemock %s has no flag --%s", bound, command, flag)
			continue
		}
		if doc == "—" {
			if def != "" {
				t.Errorf("docs/limits.md: %s: no default given; --%s's is %s", bound, flag, def)
			}
			continue
		}
		a, okA := quantity(doc)
		b, okB := quantity(def)
		if !okA || !okB || a != b {
			t.Errorf("docs/limits.md: %s: default %s; moviemock %s --help gives --%s's as %q", bound, doc, command, flag, def)
		}
	}
	if rows < 10 {
		t.Errorf("docs/limits.md: %d table rows with a flag: did the tables change shape?", rows)
	}
}

// Bounds and defaults quoted in prose are the code's.
func TestDocsConstants(t *testing.T) {
	// Not parallel: other tests shorten the server's timeouts for a while.
	pages := docPages(t)
	var out strings.Builder
	if err := run(context.Background(), []string{"fixtures", "generate", "--out", t.TempDir()}, noEnv, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	generated := map[string]int{}
	for _, m := range regexp.MustCompile(`(\d+) (\w+)`).FindAllStringSubmatch(out.String(), -1) {
		generated[m[2]] = number(t, m[1])
	}
	serveHelp := flagDefaults(t, "serve")
	helpInt := func(flag string) int {
		v, ok := quantity(serveHelp[flag])
		if !ok {
			t.Fatalf("serve --%s: no default in --help", flag)
		}
		return int(v)
	}
	helpMinutes := func(flag string) int {
		d, err := time.ParseDuration(serveHelp[flag])
		if err != nil {
			t.Fatalf("serve --%s: %v", flag, err)
		}
		return int(d.Minutes())
	}
	for _, c := range []struct {
		page, re string
		want     int
	}{
		{"docs/fidelity.md", `to (\S+) digits is valid`, fastapi.MaxIntDigits},
		{"docs/limits.md", `more than (\S+) digits`, fastapi.MaxIntDigits},
		{"docs/fidelity.md", `more than (\S+) fields is`, fastapi.MaxFormFields},
		{"docs/limits.md", `more than (\S+) form fields`, fastapi.MaxFormFields},
		{"docs/fidelity.md", `a multipart part over (\d+) MiB`, fastapi.MaxPartSize >> 20},
		{"docs/limits.md", `a multipart part over (\d+) MiB`, fastapi.MaxPartSize >> 20},
		{"docs/fidelity.md", `--max-body-size\x60, (\d+) MiB by default`, mock.DefaultMaxBodyBytes >> 20},
		{"docs/limits.md", `headers must arrive within (\d+) s`, int(readHeaderTimeout / time.Second)},
		{"docs/limits.md", `idle for (\d+) s is closed`, int(idleTimeout / time.Second)},
		{"docs/limits.md", `headers over (\d+) KiB get`, maxHeaderBytes >> 10},
		{"docs/limits.md", `report keeps a (\d+) KiB excerpt`, contract.ExcerptBytes >> 10},
		{"docs/contract-testing.md", `report keeps a (\d+) KiB excerpt`, contract.ExcerptBytes >> 10},
		{"docs/limits.md", `read up to (\d+) MiB`, contract.MaxBodyBytes >> 20},
		{"docs/limits.md", `Of an answer's body, (\d+) MiB at most`, proxy.DefaultMaxCheckBytes >> 20},
		{"docs/limits.md", `A \x60--spec\x60 URL must answer within (\d+) s`, int(specTimeout / time.Second)},
		{"docs/limits.md", `The recording is read within (\d+) MiB`, int(traffic.DefaultLimits.MaxBytes >> 20)},
		{"docs/limits.md", `MiB, (\S+) calls and`, traffic.DefaultLimits.MaxCalls},
		{"docs/limits.md", `calls and (\d+) MiB a body`, traffic.DefaultLimits.MaxBody >> 20},
		{"docs/limits.md", `A shape records (\d+) levels`, replay.DefaultMaxDepth},
		{"docs/limits.md", `and (\S+) distinct field paths`, replay.DefaultMaxPaths},
		{"docs/limits.md", `A call keeps at most (\d+) changes`, replay.MaxChanges},
		{"docs/limits.md", `At most (\S+) ids are remembered`, replay.MaxIDs},
		{"docs/limits.md", `After (\d+) calls in a row without`, replay.TargetStrikes},
		{"docs/limits.md", `\*\*Nesting\*\*: (\d+) levels`, spec.MaxDepth},
		{"docs/limits.md", `at most (\S+) values in one`, spec.MaxEnumValues},
		{"docs/limits.md", `A generated string: at most (\S+) characters`, fake.MaxStringLength},
		{"docs/limits.md", `A generated array or dict: at most (\S+) items`, fake.MaxItems},
		{"docs/limits.md", `A whole generated value: (\d+) MiB`, fake.MaxValueBytes >> 20},
		{"docs/mock.md", `written out every (\d+) ms`, int(logInterval / time.Millisecond)},
		{"docs/writes-and-sessions.md", `\((\d+) MiB by default\)`, mock.DefaultMaxWriteBytes >> 20},
		{"docs/scenarios.md", `at most (\d+) MiB of them`, scenarios.DefaultJournalBytes >> 20},
		{"docs/mock.md", `default to (\d+) persons`, generated["persons"]},
		{"docs/mock.md", `default to \d+ persons, (\d+) users`, generated["users"]},
		{"docs/mock.md", `default to \d+ persons, \d+ users and (\d+) reviews`, generated["reviews"]},
		{"docs/mock.md", `each collection gets \((\d+)\)`, helpInt("records")},
		{"docs/mock.md", `\x60--token-lifetime\x60 \((\d+) minutes\)`, helpMinutes("token-lifetime")},
		{"docs/writes-and-sessions.md", `\x60--session-ttl\x60 \((\d+) minutes\)`, helpMinutes("session-ttl")},
		{"docs/writes-and-sessions.md", `\x60--max-sessions\x60 \((\d+)\)`, helpInt("max-sessions")},
	} {
		expectNumber(t, pages, c.page, c.re, c.want)
	}

	// The limits table's rows without a flag, where the bound is the
	// server's own.
	fixed := map[string]int64{
		"request headers arrive within":        int64(readHeaderTimeout),
		"an idle keep-alive connection":        int64(idleTimeout),
		"request headers":                      maxHeaderBytes,
		"a request log line may wait":          int64(logInterval),
		"graceful shutdown waits for requests": int64(shutdownTimeout),
	}
	rows := regexp.MustCompile("(?m)^\\| ([^|]+?) \\| ([^|]+?) \\| — \\|").FindAllStringSubmatch(pages["docs/limits.md"], -1)
	for _, r := range rows {
		want, ok := fixed[r[1]]
		if !ok {
			continue // a bound this test does not know; its page is its proof
		}
		delete(fixed, r[1])
		if got, ok := quantity(r[2]); !ok || got != want {
			t.Errorf("docs/limits.md: %s: %s; the server's is %v", r[1], r[2], want)
		}
	}
	for bound := range fixed {
		t.Errorf("docs/limits.md has no row %q", bound)
	}
}

// The numbers of the shipped scenarios' table ("the first 3 logins",
// "300 ms–1.5 s", "20,000 generated reviews") are in the scenario's file;
// a status the file does not spell (a crash's 500) and approximations
// ("~7.6 MB") are left to the scenarios' own tests.
func TestDocsScenarioNumbers(t *testing.T) {
	t.Parallel()
	pages := docPages(t)
	table := section(t, pages, "docs/scenarios.md", "The scenarios that ship")
	rowRe := regexp.MustCompile("(?m)^\\| `([^`]+)` \\| ([^|]+) \\|")
	numRe := regexp.MustCompile(`(~?)\b(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?:\s*(ms|s)\b|st\b|nd\b|rd\b|th\b)?`)
	rows := rowRe.FindAllStringSubmatch(table, -1)
	if len(rows) == 0 {
		t.Fatal("docs/scenarios.md: no scenario table")
	}
	for _, row := range rows {
		name, does := row[1], row[2]
		src, err := fs.ReadFile(scenarios.Shipped().FS, name+".yaml")
		if err != nil {
			t.Errorf("docs/scenarios.md: %s: %v", name, err)
			continue
		}
		ints, durations := scenarioValues(t, src)
		for _, m := range numRe.FindAllStringSubmatch(does, -1) {
			approx, text, unit := m[1] != "", strings.ReplaceAll(m[2], ",", ""), m[3]
			if approx {
				continue
			}
			if unit != "" {
				d, err := time.ParseDuration(text + unit)
				if err != nil {
					t.Fatal(err)
				}
				if !durations[d] {
					t.Errorf("docs/scenarios.md: %s: %s: no such duration in scenarios/%s.yaml", name, m[0], name)
				}
				continue
			}
			n, err := strconv.Atoi(text)
			if err != nil {
				continue // a decimal without a unit: a size such as 7.6 MB
			}
			if !ints[n] && !durations[time.Duration(n)*time.Second] && http.StatusText(n) == "" {
				t.Errorf("docs/scenarios.md: %s: %s: no such number in scenarios/%s.yaml", name, m[0], name)
			}
		}
	}
}

// scenarioValues collects the numbers and durations a scenario file's
// values hold, its description aside.
func scenarioValues(t *testing.T, src []byte) (map[int]bool, map[time.Duration]bool) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		t.Fatal(err)
	}
	ints, durations := map[int]bool{}, map[time.Duration]bool{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		switch n.Kind {
		case yaml.ScalarNode:
			for _, w := range regexp.MustCompile(`\d+(?:\.\d+)?(?:ms|s|m)?`).FindAllString(n.Value, -1) {
				if d, err := time.ParseDuration(w); err == nil {
					durations[d] = true
				} else if i, err := strconv.Atoi(w); err == nil {
					ints[i] = true
				}
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value != "description" {
					walk(n.Content[i+1])
				}
			}
		default:
			for _, c := range n.Content {
				walk(c)
			}
		}
	}
	walk(&doc)
	return ints, durations
}

// The scenario the page teaches with loads, as written.
func TestDocsExampleScenario(t *testing.T) {
	t.Parallel()
	pages := docPages(t)
	text := section(t, pages, "docs/scenarios.md", "Writing a scenario")
	block := fenceRe.FindString(text)
	m := regexp.MustCompile(`(?m)^# \S+/(\S+\.yaml)\n`).FindStringSubmatch(block)
	if !strings.HasPrefix(block, "```yaml\n") || m == nil {
		t.Fatalf("docs/scenarios.md: the first block under Writing a scenario is not a scenario file:\n%s", block)
	}
	dir := t.TempDir()
	body := strings.TrimSuffix(strings.TrimPrefix(block, "```yaml\n"), "```")
	if err := os.WriteFile(filepath.Join(dir, m[1]), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs strings.Builder
	if err := run(context.Background(), []string{"scenarios", "check", dir}, noEnv, &out, &errs); err != nil {
		t.Errorf("docs/scenarios.md's example scenario does not load: %v\n%s", err, errs.String())
	}
}

// goPackages lists the module's package directories (with Go files other
// than tests), and the fuzz targets of each, by directory from the root.
func goPackages(t *testing.T) map[string][]string {
	t.Helper()
	pkgs := map[string][]string{}
	fuzzRe := regexp.MustCompile(`(?m)^func (Fuzz\w+)\(`)
	err := filepath.WalkDir(repoRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && p != repoRoot && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(name, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(repoRoot, filepath.Dir(p))
		rel = filepath.ToSlash(rel)
		if !strings.HasSuffix(name, "_test.go") {
			if _, ok := pkgs[rel]; !ok {
				pkgs[rel] = nil
			}
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range fuzzRe.FindAllSubmatch(src, -1) {
			pkgs[rel] = append(pkgs[rel], string(m[1]))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// The development page's layout names every package, and its list of fuzz
// targets is every fuzz target.
func TestDocsLayoutAndFuzzTargets(t *testing.T) {
	t.Parallel()
	pages := docPages(t)
	layout := section(t, pages, "docs/development.md", "Working on moviemock")
	listed := map[string]bool{} // "./dir FuzzX"
	for _, item := range regexp.MustCompile(`\n\s*- `).Split(layout, -1) {
		if m := regexp.MustCompile("^`\\./([^`]+)`").FindStringSubmatch(item); m != nil {
			for _, f := range regexp.MustCompile(`Fuzz\w+`).FindAllString(item, -1) {
				listed["./"+m[1]+" "+f] = true
			}
		}
	}
	for dir, fuzz := range goPackages(t) {
		if dir == "." {
			continue // the root package only embeds openapi.yaml
		}
		if !regexp.MustCompile("(?m)^ *- .*`" + regexp.QuoteMeta(dir) + "`").MatchString(layout) {
			t.Errorf("docs/development.md's layout does not name the package %s", dir)
		}
		for _, f := range fuzz {
			if !listed["./"+dir+" "+f] {
				t.Errorf("docs/development.md does not list the fuzz target %s of ./%s", f, dir)
			}
		}
	}
}

// CI runs every fuzz target for a while, each named once in .ci/run as
// "fuzz ./dir FuzzX COUNT", and names no target that does not exist.
func TestCIFuzzesEveryTarget(t *testing.T) {
	t.Parallel()
	script, err := os.ReadFile(filepath.Join(repoRoot, ".ci/run"))
	if err != nil {
		t.Fatal(err)
	}
	run := map[string]int{} // "./dir FuzzX" → times named
	for _, m := range regexp.MustCompile(`(?m)^fuzz (\./\S+) (Fuzz\w+) \d+`).FindAllSubmatch(script, -1) {
		run[string(m[1])+" "+string(m[2])]++
	}
	exists := map[string]bool{}
	for dir, fuzz := range goPackages(t) {
		for _, f := range fuzz {
			target := "./" + dir + " " + f
			exists[target] = true
			if run[target] != 1 {
				t.Errorf(".ci/run fuzzes %s %d times, want once", target, run[target])
			}
		}
	}
	for target := range run {
		if !exists[target] {
			t.Errorf(".ci/run fuzzes %s, which is no fuzz target", target)
		}
	}
}

// Every "go test ./pkg -run/-bench/-fuzz NAME" the pages give names a
// test, benchmark or fuzz target of that package.
func TestDocsTestCommands(t *testing.T) {
	t.Parallel()
	pages := docPages(t)
	cmdRe := regexp.MustCompile("go test (\\./[\\w/]+)([^`\\n]*)")
	argRe := regexp.MustCompile(`-(run|bench|fuzz) +('[^']*'|\S+)`)
	funcs := map[string][]string{} // package dir → its Test, Benchmark and Fuzz functions
	kinds := map[string]string{"run": "Test", "bench": "Benchmark", "fuzz": "Fuzz"}
	var commands int
	for page, text := range pages {
		for _, c := range cmdRe.FindAllStringSubmatch(text, -1) {
			dir := strings.TrimPrefix(c[1], "./")
			for _, a := range argRe.FindAllStringSubmatch(c[2], -1) {
				pattern := strings.Trim(a[2], "'")
				if pattern == "^$" {
					continue
				}
				commands++
				if funcs[dir] == nil {
					files, _ := filepath.Glob(filepath.Join(repoRoot, dir, "*_test.go"))
					if len(files) == 0 {
						t.Errorf("%s: %s: no tests in ./%s", page, c[0], dir)
					}
					for _, f := range files {
						src, err := os.ReadFile(f)
						if err != nil {
							t.Fatal(err)
						}
						for _, m := range regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz)\w*)\(`).FindAllSubmatch(src, -1) {
							funcs[dir] = append(funcs[dir], string(m[1]))
						}
					}
				}
				re, err := regexp.Compile(pattern)
				if err != nil {
					t.Errorf("%s: %s: %v", page, c[0], err)
					continue
				}
				found := slices.ContainsFunc(funcs[dir], func(f string) bool {
					return strings.HasPrefix(f, kinds[a[1]]) && re.MatchString(f)
				})
				if !found {
					t.Errorf("%s: %s: ./%s has no %s function matching %s", page, c[0], dir, kinds[a[1]], pattern)
				}
			}
		}
	}
	if commands < 5 {
		t.Errorf("found %d go test commands naming a test: did the pages change shape?", commands)
	}
}

// The scenarios of the README's tour answer as their comments say
// ("# per request: []": the body; "# per session: 401": the status).
func TestDocsTourScenarios(t *testing.T) {
	t.Parallel()
	pages := docPages(t)
	readme := pages["README.md"]
	i := strings.Index(readme, "### 3.")
	if i < 0 {
		t.Fatal("README.md has no third use in its tour")
	}
	block := strings.ReplaceAll(fenceRe.FindString(readme[i:]), "\\\n", " ")
	base, _ := serve(t, noEnv, "--quiet")
	var checked int
	for _, line := range strings.Split(block, "\n") {
		m := regexp.MustCompile(`^(curl .*?)\s+# [^:]*: (.+)$`).FindStringSubmatch(line)
		if m == nil {
			continue
		}
		checked++
		command := strings.Join(strings.Fields(m[1]), " ")
		req := curlRequest(t, command, base)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		want := m[2]
		if regexp.MustCompile(`^\d{3}$`).MatchString(want) {
			if strconv.Itoa(resp.StatusCode) != want {
				t.Errorf("%s: %d, README says %s", command, resp.StatusCode, want)
			}
		} else if !elidedMatch(want, string(body)) {
			t.Errorf("%s: %s, README says %s", command, body, want)
		}
	}
	if checked < 2 {
		t.Errorf("checked %d curl lines of the tour's third use", checked)
	}
}

// TestDocsContractPairs: the counts of contract pairs docs/contract-changes.md
// gives are those of testdata/changes, by class.
func TestDocsContractPairs(t *testing.T) {
	t.Parallel()
	classes := map[string]int{}
	total := 0
	for _, c := range []string{"movies", "tasks"} {
		b, err := os.ReadFile(filepath.Join(repoRoot, "testdata", "changes", c, "expected.json"))
		if err != nil {
			t.Fatal(err)
		}
		var expected struct {
			Pairs []struct{ Class string }
		}
		if err := json.Unmarshal(b, &expected); err != nil {
			t.Fatalf("testdata/changes/%s/expected.json: %v", c, err)
		}
		for _, p := range expected.Pairs {
			classes[p.Class]++
			total++
		}
	}
	page, err := os.ReadFile(filepath.Join(repoRoot, "docs", "contract-changes.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(page)), " ")
	for _, want := range []string{
		fmt.Sprintf("%d contract pairs written by FastAPI", total),
		fmt.Sprintf("holds %d contract pairs", total),
		fmt.Sprintf("%d breaking (", classes["breaking"]),
		fmt.Sprintf("%d warnings (", classes["warning"]),
		fmt.Sprintf("%d safe changes (", classes["safe"]),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("docs/contract-changes.md does not say %q (testdata/changes: %d pairs, %v)", want, total, classes)
		}
	}
}

// A fresh clone runs every proof: the FastAPI stack they compare with is
// vendored, whole (each package of its VERSIONS.txt with its licence), and
// the one line that gives python3 the rest is the line the README,
// docs/development.md and .ci/run give, which CI runs the tests with the
// stack required by.
func TestFreshCloneRunsTheProofs(t *testing.T) {
	t.Parallel()
	for _, page := range []string{"README.md", "docs/development.md", ".ci/run"} {
		text, err := os.ReadFile(filepath.Join(repoRoot, page))
		if err != nil {
			t.Fatal(err)
		}
		// Markdown may wrap the line; the command itself stays whole.
		if !strings.Contains(strings.Join(strings.Fields(string(text)), " "), reference.PipInstall) {
			t.Errorf("%s does not give the line %s", page, reference.PipInstall)
		}
	}
	script, err := os.ReadFile(filepath.Join(repoRoot, ".ci/run"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"export " + reference.EnvRequire + "=1", "unset " + reference.EnvStack} {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(line) + `$`).Match(script) {
			t.Errorf(".ci/run has no line %q: a proof could skip in CI, or run a stack other than the vendored one", line)
		}
	}

	stack := filepath.Join(repoRoot, filepath.FromSlash(reference.StackDir))
	versions, err := os.ReadFile(filepath.Join(stack, "VERSIONS.txt"))
	if err != nil {
		t.Fatal(err)
	}
	licences, err := os.ReadDir(filepath.Join(stack, "licenses"))
	if err != nil {
		t.Fatal(err)
	}
	// The table's rows: package, version, repository, tag, commit.
	rows := regexp.MustCompile(`(?m)^([a-z][\w-]*) +(\d[\w.]*) +github\.com/`).FindAllStringSubmatch(string(versions), -1)
	if len(rows) < 7 {
		t.Fatalf("%s/VERSIONS.txt lists %d packages, want the 7 of the stack", reference.StackDir, len(rows))
	}
	for _, row := range rows {
		name := row[1]
		module := strings.ReplaceAll(name, "-", "_")
		if _, err := os.Stat(filepath.Join(stack, module, "__init__.py")); err != nil {
			t.Errorf("%s: VERSIONS.txt lists %s %s, which is not vendored: %v", reference.StackDir, name, row[2], err)
		}
		if !slices.ContainsFunc(licences, func(e os.DirEntry) bool { return strings.HasPrefix(e.Name(), name+"-LICENSE") }) {
			t.Errorf("%s/licenses has no %s-LICENSE*", reference.StackDir, name)
		}
	}
}
