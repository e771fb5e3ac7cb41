package compare_test

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract/compare"
	"github.com/moviemock/moviemock/internal/reference"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/internal/traffic"
)

// pageHAR is what testdata/traffic/page.html called, recorded by Chromium
// (cmd/moviemock TestBrowserRecordHAR): #3 POST /auth/login (a form,
// 200), #4 GET /movies?year=1999&limit=5 (200), #5 GET
// /movies/tt0137523 (200), #6 GET /movies/tt0137523/reviews (200), #8 GET
// /users/me with a bearer token (200), #10 POST /reviews with a JSON body
// {movie_id, content} (201); the rest are the page, its script and two
// preflights.
const pageHAR = "../../testdata/traffic/movies-page.har"

// pageHits are, for each pair of testdata/changes/movies, the changes the
// page's calls hit, as "METHOD path | where", derived from what the page
// calls (the hit rule of docs/contract-changes.md). Every other change of
// the pair must hit nothing.
var pageHits = map[string][]string{
	// The page sends limit=5: a new default does not reach it.
	"limit_default_changed": nil,
	// The page sends limit (GET /movies); it never calls GET /reviews.
	"limit_max_lowered": {"GET /movies | query parameter limit"},
	// The login answered 200, which is no longer a success.
	"login_201": {"POST /auth/login | response 200"},
	// A new required header: every call to /users/me.
	"me_client_header": {"GET /users/me | header parameter x-client-version"},
	// The page deletes nothing.
	"movie_delete_removed":      nil,
	"movie_description_changed": nil,
	// The page creates no movie; the new field is in the answers it read.
	"movie_director_required": {"GET /movies | response 200 body: [].director", "GET /movies/{movie_id} | response 200 body: director"},
	// The list and the movie it read lost poster; POST and PATCH it never
	// calls.
	"movie_poster_removed": {"GET /movies | response 200 body: [].poster", "GET /movies/{movie_id} | response 200 body: poster"},
	// A new required query parameter: every call to the movie's reviews.
	"movie_reviews_sort_required": {"GET /movies/{movie_id}/reviews | query parameter sort"},
	"movie_runtime_float":         {"GET /movies | response 200 body: [].runtime", "GET /movies/{movie_id} | response 200 body: runtime"},
	"movie_tagline_added":         {"GET /movies | response 200 body: [].tagline", "GET /movies/{movie_id} | response 200 body: tagline"},
	"movie_year_nullable":         {"GET /movies | response 200 body: [].year", "GET /movies/{movie_id} | response 200 body: year"},
	"movies_paged":                {"GET /movies | response 200 body"},
	// The page reads no person, no reaction, no /reviews list, registers
	// no user.
	"person_id_string":        nil,
	"person_path_renamed":     nil,
	"persons_list_added":      nil,
	"reaction_emoji_narrowed": nil,
	"reaction_emoji_added":    nil,
	"reactions_emoji_filter":  nil,
	// The movie's reviews (200) and the review it wrote (201) lost author.
	"review_author_removed": {"GET /movies/{movie_id}/reviews | response 200 body: [].author", "POST /reviews | response 201 body: author"},
	// spoiler is new in both answers; the page did not send one.
	"review_spoiler_added":   {"GET /movies/{movie_id}/reviews | response 200 body: [].spoiler", "POST /reviews | response 201 body: spoiler"},
	"reviews_filter_renamed": nil,
	"reviews_list_secured":   nil,
	"username_max_length":    nil,
}

// diff --traffic marks exactly the changes the page's calls touch, in
// every pair of the movies contract, and no call goes unmatched.
func TestPairsTraffic(t *testing.T) {
	t.Parallel()
	oldData, err := os.ReadFile("../../testdata/contracts/movies/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	src, err := traffic.LoadFile(pageHAR, traffic.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	pairs, err := reference.ChangeFiles(reference.AppMovies)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, pair := range pairs {
		name, path := pair.Change, pair.Path
		seen++
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			want, ok := pageHits[name]
			if !ok {
				t.Fatalf("no expectation for the pair %s: say which changes the page's calls hit", name)
			}
			newData, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			old, err := spec.Load(oldData, "openapi.json")
			if err != nil {
				t.Fatal(err)
			}
			nw, err := spec.Load(newData, name+".json")
			if err != nil {
				t.Fatal(err)
			}
			r, err := compare.CompareSpecs(old, nw)
			if err != nil {
				t.Fatal(err)
			}
			r.MarkTraffic(src, old)
			var got []string
			for _, c := range r.Changes {
				if c.HitCount != len(c.Hits) {
					t.Errorf("%s: %d hits kept of %d", c.Operation(), len(c.Hits), c.HitCount)
				}
				if c.HitCount > 0 {
					got = append(got, c.Operation()+" | "+c.Where)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("changes hit:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
			if tr := r.Traffic; tr == nil || tr.Calls != 6 || tr.Skipped != 4 || len(tr.Unmatched) != 0 {
				t.Errorf("traffic %+v", tr)
			}
		})
	}
	if seen != len(pageHits) {
		t.Errorf("%d pairs, %d expectations: a pair is gone", seen, len(pageHits))
	}
}

// itemsJournal is a journal (GET /__mock/journal) of calls to the items
// document of compare_test.go.
const itemsJournal = `[
{"seq":1,"method":"GET","path":"/items","query":"limit=5&access_token=abc","headers":{},"status":200,"duration_ms":1},
{"seq":2,"method":"GET","path":"/items","headers":{},"status":200,"duration_ms":1},
{"seq":3,"method":"POST","path":"/items","headers":{"Content-Type":["application/json"]},"body":{"title":"a","tags":[{"name":"x"}]},"status":200,"duration_ms":1},
{"seq":4,"method":"POST","path":"/items","headers":{"Content-Type":["application/json"]},"body":{"title":"b"},"status":422,"duration_ms":1},
{"seq":5,"method":"GET","path":"/items/3","headers":{},"status":404,"duration_ms":1},
{"seq":6,"method":"DELETE","path":"/items/3","headers":{},"status":200,"duration_ms":1},
{"seq":7,"method":"GET","path":"/nothing","headers":{},"status":404,"duration_ms":1},
{"seq":8,"method":"PUT","path":"/items/3","headers":{},"status":405,"duration_ms":1}
]`

// The hit rule, change by change, on a journal of calls to the items
// document.
func TestMarkTraffic(t *testing.T) {
	t.Parallel()
	src, err := traffic.Load(strings.NewReader(itemsJournal), "journal.json", traffic.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	limit := func(def, max string) string {
		return `{"name": "limit", "in": "query", "required": false, "schema": {"type": "integer", "default": ` + def + max + `, "title": "Limit"}}`
	}
	tagsIn := `"title": {"type": "string", "title": "Title"}, "tags": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string", "maxLength": 10}}}}`
	for _, tc := range []struct {
		name     string
		old, new doc
		want     []string // "METHOD path | where: #index field, …"
	}{
		{"operation removed: every call", doc{}, doc{noDelete: true}, []string{"DELETE /items/{item_id} | : #6"}},
		{"parameter changed: the calls that sent it", doc{params: limit("10", `, "maximum": 50`)}, doc{params: limit("10", `, "maximum": 30`)},
			[]string{"GET /items | query parameter limit: #1 limit"}},
		{"default changed: the calls that did not send it", doc{params: limit("10", "")}, doc{params: limit("20", "")},
			[]string{"GET /items | query parameter limit: #2 limit"}},
		{"new required parameter: every call", doc{}, doc{params: limit("10", "") + `, {"name": "q", "in": "query", "required": true, "schema": {"type": "string"}}`},
			[]string{"GET /items | query parameter q: #1 q, #2 q"}},
		{"body field changed: the calls that sent it", doc{in: tagsIn, inRequired: `"title"`},
			doc{in: strings.Replace(tagsIn, `"maxLength": 10`, `"maxLength": 5`, 1), inRequired: `"title"`},
			[]string{"POST /items | request body: tags[].name: #3 tags[].name"}},
		{"new required body field: every call", doc{}, doc{in: `"title": {"type": "string", "title": "Title"}, "n": {"type": "integer"}`, inRequired: `"title", "n"`},
			[]string{"POST /items | request body: n: #3 n, #4 n"}},
		{"response field removed: the calls answered with that status", doc{},
			doc{item: `"id": {"type": "integer", "title": "Id"}, "rating": {"type": "number", "title": "Rating", "default": 0}`, itemRequired: `"id"`},
			[]string{"GET /items | response 200 body: [].title: #1 [].title, #2 [].title", "POST /items | response 200 body: title: #3 title"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			old, err := spec.Load(tc.old.bytes(), "old.json")
			if err != nil {
				t.Fatal(err)
			}
			nw, err := spec.Load(tc.new.bytes(), "new.json")
			if err != nil {
				t.Fatal(err)
			}
			r, err := compare.CompareSpecs(old, nw)
			if err != nil {
				t.Fatal(err)
			}
			r.MarkTraffic(src, old)
			var got []string
			for _, c := range r.Changes {
				if c.HitCount == 0 {
					continue
				}
				var hs []string
				for _, h := range c.Hits {
					hs = append(hs, strings.TrimSpace("#"+strconv.Itoa(h.Index)+" "+h.Field))
				}
				got = append(got, c.Operation()+" | "+c.Where+": "+strings.Join(hs, ", "))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("hits:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
			want := []compare.Unmatched{{Index: 7, Method: "GET", Path: "/nothing", Why: "no path of the contract matches"},
				{Index: 8, Method: "PUT", Path: "/items/3", Why: "the path has no PUT (it has GET, DELETE)"}}
			if !slices.Equal(r.Traffic.Unmatched, want) {
				t.Errorf("unmatched %+v", r.Traffic.Unmatched)
			}
		})
	}
}

// --fail-on breaking-used fails on the breaking changes a call hits, and
// every format shows the hits and the calls matching no operation.
func TestTrafficReports(t *testing.T) {
	t.Parallel()
	src, err := traffic.Load(strings.NewReader(itemsJournal), "journal.json", traffic.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	old, err := spec.Load(doc{}.bytes(), "old.json")
	if err != nil {
		t.Fatal(err)
	}
	// DELETE removed (called: #6, breaking), and GET /items' operationId
	// changed (a warning; its calls #1 and #2 hit it).
	removedBoth, err := spec.Load(doc{noDelete: true, listID: "renamed"}.bytes(), "new.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := compare.CompareSpecs(old, removedBoth)
	if err != nil {
		t.Fatal(err)
	}
	r.MarkTraffic(src, old)
	r.FailOn = compare.FailOnBreakingUsed
	if v := r.Verdict(compare.FailOnBreakingUsed); len(v) != 1 || v[0].Method != "DELETE" {
		t.Errorf("breaking-used verdict %+v", v)
	}
	var text, js, junit, html bytes.Buffer
	for _, w := range []struct {
		buf   *bytes.Buffer
		write func(*bytes.Buffer) error
	}{
		{&text, func(b *bytes.Buffer) error { return r.WriteText(b) }},
		{&js, func(b *bytes.Buffer) error { return r.WriteJSON(b) }},
		{&junit, func(b *bytes.Buffer) error { return r.WriteJUnit(b) }},
		{&html, func(b *bytes.Buffer) error { return r.WriteHTML(b) }},
	} {
		if err := w.write(w.buf); err != nil {
			t.Fatal(err)
		}
	}
	for name, tc := range map[string]struct {
		out  string
		want []string
	}{
		"text": {text.String(), []string{"hits 1 recorded call: DELETE /items/3 (#6)", "no operation: GET /nothing (#7): no path of the contract matches", "(--fail-on breaking-used)", "· 1 breaking used · 3 of 8 recorded calls hit a change",
			"hits 2 recorded calls: GET /items?limit=5&access_token=[redacted] (#1), GET /items (#2)"}},
		"junit": {junit.String(), []string{"hits 1 recorded call: DELETE /items/3 (#6)", `<testcase name="recorded calls: journal.json"`, "no operation: PUT /items/3 (#8)"}},
		"html":  {html.String(), []string{`<p class="hits" data-hits="1"><strong>Hits</strong> 1 recorded call: DELETE /items/3 (#6)</p>`, `<section id="traffic">`, "<code>GET /nothing</code>"}},
	} {
		for _, w := range tc.want {
			if !strings.Contains(tc.out, w) {
				t.Errorf("%s report: no %q in\n%s", name, w, tc.out)
			}
		}
	}
	for name, out := range map[string]string{"text": text.String(), "json": js.String(), "junit": junit.String(), "html": html.String()} {
		if strings.Contains(out, "access_token=abc") {
			t.Errorf("the %s report shows a recorded secret", name)
		}
	}
	var out struct {
		Failed  bool
		Summary struct {
			BreakingUsed *int `json:"breaking_used"`
		}
		Changes []compare.Change
		Traffic compare.Traffic
	}
	if err := json.Unmarshal(js.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if !out.Failed || out.Summary.BreakingUsed == nil || *out.Summary.BreakingUsed != 1 || out.Traffic.Calls != 8 || out.Traffic.Hit != 3 || len(out.Traffic.Unmatched) != 2 {
		t.Errorf("JSON report: %s", js.String())
	}
}

// harOf is a HAR of calls, each "METHOD URL STATUS" with an answer body
// of n bytes of JSON.
func harOf(t *testing.T, calls []string, n int) string {
	t.Helper()
	var entries []any
	for _, c := range calls {
		f := strings.Fields(c)
		status, _ := strconv.Atoi(f[2])
		body := `"` + strings.Repeat("x", n) + `"`
		entries = append(entries, map[string]any{
			"request":  map[string]any{"method": f[0], "url": f[1], "headers": []any{}},
			"response": map[string]any{"status": status, "headers": []any{}, "content": map[string]any{"mimeType": "application/json", "text": body}},
		})
	}
	b, err := json.Marshal(map[string]any{"log": map[string]any{"version": "1.2", "entries": entries}})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// What the recording leaves out, every report says: the calls to other
// servers than the API's, counted per server, and the bodies over the
// size limit, their calls named.
func TestTrafficNotes(t *testing.T) {
	t.Parallel()
	har := harOf(t, []string{
		"GET http://127.0.0.1:8000/items 200",
		"GET https://cdn.example/app.json 200",
		"GET http://127.0.0.1:8000/items/3 200",
		"GET https://auth.example/items 200",
		"GET https://cdn.example/items 200",
	}, 100)
	src, err := traffic.Load(strings.NewReader(har), "page.har", traffic.Limits{MaxBytes: 1 << 20, MaxCalls: 100, MaxBody: 50})
	if err != nil {
		t.Fatal(err)
	}
	old, err := spec.Load(doc{}.bytes(), "old.json")
	if err != nil {
		t.Fatal(err)
	}
	nw, err := spec.Load(doc{noDelete: true}.bytes(), "new.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := compare.CompareSpecs(old, nw)
	if err != nil {
		t.Fatal(err)
	}
	r.MarkTraffic(src, old)
	want := []string{
		"3 calls to other servers than the API's left out (the API's is the one most calls matching OLD went to): https://cdn.example (2), https://auth.example (1)",
		"2 calls have a body over the size limit, left out: what it sent or got is not read (#1 response body of 102 bytes over the limit of 50, left out; #3 response body of 102 bytes over the limit of 50, left out)",
	}
	if !slices.Equal(r.Traffic.Notes, want) {
		t.Fatalf("notes:\n  %s\nwant:\n  %s", strings.Join(r.Traffic.Notes, "\n  "), strings.Join(want, "\n  "))
	}
	for _, format := range []string{"text", "json", "junit", "html"} {
		var out bytes.Buffer
		var err error
		switch format {
		case "text":
			err = r.WriteText(&out)
		case "json":
			err = r.WriteJSON(&out)
		case "junit":
			err = r.WriteJUnit(&out)
		case "html":
			err = r.WriteHTML(&out)
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{"https://cdn.example (2)", "#3 response body of 102 bytes over the limit"} {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s report: no %q", format, w)
			}
		}
	}
}
