package traffic_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/internal/traffic"
)

// harSample is a HAR as Chromium saves it (abridged), with what Playwright
// writes instead in its last entries: no _resourceType.
const harSample = `{"log":{"version":"1.2","creator":{"name":"WebInspector","version":"537.36"},"pages":[{"startedDateTime":"2026-01-01T00:00:00.000Z","id":"page_1","title":"http://127.0.0.1:5173/","pageTimings":{}}],"entries":[
{"_resourceType":"document","request":{"method":"GET","url":"http://127.0.0.1:5173/","headers":[]},"response":{"status":200,"headers":[],"content":{"size":10,"mimeType":"text/html","text":"<html></html>"}}},
{"_resourceType":"script","request":{"method":"GET","url":"http://127.0.0.1:5173/app.js","headers":[]},"response":{"status":200,"headers":[],"content":{"size":1,"mimeType":"text/javascript"}}},
{"_resourceType":"preflight","request":{"method":"OPTIONS","url":"http://127.0.0.1:8000/reviews","headers":[{"name":"Access-Control-Request-Method","value":"POST"}]},"response":{"status":200,"headers":[],"content":{"size":0,"mimeType":"x-unknown"}}},
{"_resourceType":"fetch","request":{"method":"POST","url":"http://127.0.0.1:8000/auth/login","headers":[{"name":"content-type","value":"application/x-www-form-urlencoded"}],"postData":{"mimeType":"application/x-www-form-urlencoded","text":"username=ada&password=pw","params":[{"name":"username","value":"ada"}]}},"response":{"status":200,"headers":[{"name":"content-type","value":"application/json"}],"content":{"size":20,"mimeType":"application/json","text":"eyJhY2Nlc3NfdG9rZW4iOiJ4In0=","encoding":"base64"}}},
{"_resourceType":"fetch","request":{"method":"GET","url":"http://127.0.0.1:8000/movies?year=1999&limit=5","headers":[{"name":":authority","value":"x"},{"name":"authorization","value":"Bearer x"}]},"response":{"status":200,"headers":[],"content":{"size":2,"mimeType":"application/json","text":"[]"}}},
{"_resourceType":"xhr","request":{"method":"DELETE","url":"http://127.0.0.1:8000/reviews/7","headers":[]},"response":{"status":204,"headers":[],"content":{"size":0,"mimeType":"x-unknown"}}},
{"_resourceType":"fetch","request":{"method":"GET","url":"http://127.0.0.1:8000/movies/9","headers":[]},"response":{"status":0,"headers":[],"content":{"size":0},"_error":"net::ERR_FAILED"}},
{"_resourceType":"fetch","request":{"method":"GET","url":"http://127.0.0.1:8000/__mock/journal","headers":[]},"response":{"status":200,"headers":[],"content":{"size":2,"text":"[]"}}},
{"_resourceType":"fetch","request":{"method":"GET","url":"http://127.0.0.1:8000/movies/3","headers":[]},"response":{"status":200,"headers":[],"content":{"size":5000,"mimeType":"application/json"}}},
{"request":{"method":"GET","url":"http://127.0.0.1:8000/logo.png","headers":[]},"response":{"status":200,"headers":[],"content":{"size":5,"mimeType":"image/png"}}},
{"request":{"method":"GET","url":"http://127.0.0.1:8000/page","headers":[{"name":"Sec-Fetch-Dest","value":"document"}]},"response":{"status":200,"headers":[],"content":{"size":5,"mimeType":"text/html"}}},
{"request":{"method":"POST","url":"http://127.0.0.1:8000/users","headers":[{"name":"Sec-Fetch-Dest","value":"empty"}],"postData":{"mimeType":"application/x-www-form-urlencoded","params":[{"name":"a b","value":"c&d"}]}},"response":{"status":201,"headers":[],"content":{"size":2,"mimeType":"application/json","text":"{}"}}},
{"request":{"method":"GET","url":"data:text/plain,hi","headers":[]},"response":{"status":200,"headers":[],"content":{"size":2}}}
]}}`

func TestLoadHAR(t *testing.T) {
	t.Parallel()
	src, err := traffic.Load(strings.NewReader(harSample), "app.har", traffic.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if src.Kind != "har" || src.Creator != "WebInspector 537.36" {
		t.Errorf("kind %q creator %q", src.Kind, src.Creator)
	}
	var got []string
	for _, c := range src.Calls {
		got = append(got, fmt.Sprintf("%d %s %d body=%q type=%q resp=%q kept=%v notes=%q", c.Index, c.String(), c.Status, c.Body, c.BodyType, c.Response, c.ResponseKept, c.Notes))
	}
	want := []string{
		`4 POST /auth/login 200 body="username=ada&password=pw" type="application/x-www-form-urlencoded" resp="{\"access_token\":\"x\"}" kept=true notes=[]`,
		`5 GET /movies?year=1999&limit=5 200 body="" type="" resp="[]" kept=true notes=[]`,
		`6 DELETE /reviews/7 204 body="" type="" resp="" kept=true notes=[]`,
		`9 GET /movies/3 200 body="" type="" resp="" kept=false notes=["response body not kept in the HAR"]`,
		`12 POST /users 201 body="a+b=c%26d" type="application/x-www-form-urlencoded" resp="{}" kept=true notes=[]`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if h := src.Calls[1].Header; h.Get("Authorization") != "Bearer x" || h.Get(":authority") != "" {
		t.Errorf("headers %v: want canonical names, no pseudo-headers", h)
	}
	got = nil
	for _, s := range src.Skipped {
		got = append(got, fmt.Sprintf("%d %s %s", s.Index, s.Method, s.Reason))
	}
	want = []string{
		"1 GET a page (_resourceType document)",
		"2 GET a script (_resourceType script)",
		"3 OPTIONS CORS preflight",
		"7 GET no answer (net::ERR_FAILED)",
		"8 GET the mock's control API",
		"10 GET an asset (image/png)",
		"11 GET not fetch or XHR (Sec-Fetch-Dest: document)",
		"13 GET not an HTTP request (data:)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("skipped:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// journalSample is GET /__mock/journal's JSON: a login form (its password
// blanked), a JSON write, a preflight, a fault, a body not kept, and an
// entry with the answer's part of journals that keep it.
const journalSample = `[
{"seq":1,"time":"2026-01-01T00:00:00Z","method":"POST","path":"/auth/login","headers":{"Content-Type":["application/x-www-form-urlencoded"]},"form":{"username":"ada","password":"[redacted]"},"body_bytes":30,"status":200,"duration_ms":1},
{"seq":2,"time":"2026-01-01T00:00:00Z","method":"OPTIONS","path":"/reviews","headers":{"Access-Control-Request-Method":["POST"]},"status":200,"duration_ms":0},
{"seq":3,"time":"2026-01-01T00:00:00Z","method":"POST","path":"/reviews","template":"/reviews","headers":{"Content-Type":["application/json"],"Authorization":["Bearer [redacted]"]},"body":{"movie_id":1,"rating":9},"body_bytes":26,"status":201,"duration_ms":1},
{"seq":4,"time":"2026-01-01T00:00:00Z","method":"GET","path":"/movies","query":"year=1999","headers":{},"fault":"reset","status":0,"duration_ms":1},
{"seq":5,"time":"2026-01-01T00:00:00Z","method":"POST","path":"/movies","headers":{"Content-Type":["text/csv"]},"body_bytes":99,"body_note":"not JSON","status":422,"duration_ms":1},
{"seq":6,"time":"2026-01-01T00:00:00Z","method":"GET","path":"/movies/1","headers":{},"status":200,"duration_ms":1,"response":{"type":"application/json","body":{"id":1},"bytes":8}},
{"seq":7,"time":"2026-01-01T00:00:00Z","method":"GET","path":"/movies","query":"q=xxxxxxxxxx","headers":{},"truncated":["query"],"status":200,"duration_ms":1,"response":{"type":"application/json","bytes":900000,"note":"larger than 65536 bytes"}}
]`

func TestLoadJournal(t *testing.T) {
	t.Parallel()
	src, err := traffic.Load(strings.NewReader(journalSample), "journal.json", traffic.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if src.Kind != "journal" {
		t.Errorf("kind %q", src.Kind)
	}
	var got []string
	for _, c := range src.Calls {
		got = append(got, fmt.Sprintf("%d %s %d body=%q type=%q resp=%q kept=%v notes=%q", c.Index, c.String(), c.Status, c.Body, c.BodyType, c.Response, c.ResponseKept, c.Notes))
	}
	want := []string{
		`1 POST /auth/login 200 body="password=%5Bredacted%5D&username=ada" type="application/x-www-form-urlencoded" resp="" kept=false notes=["response body not kept in the journal"]`,
		`3 POST /reviews 201 body="{\"movie_id\":1,\"rating\":9}" type="application/json" resp="" kept=false notes=["response body not kept in the journal"]`,
		`5 POST /movies 422 body="" type="text/csv" resp="" kept=false notes=["request body of 99 bytes not kept in the journal: not JSON" "response body not kept in the journal"]`,
		`6 GET /movies/1 200 body="" type="" resp="{\"id\":1}" kept=true notes=[]`,
		`7 GET /movies?q=xxxxxxxxxx 200 body="" type="" resp="" kept=false notes=["cut in the journal: query" "response body of 900000 bytes not kept in the journal: larger than 65536 bytes"]`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	got = nil
	for _, s := range src.Skipped {
		got = append(got, fmt.Sprintf("%d %s %s %s", s.Index, s.Method, s.URL, s.Reason))
	}
	want = []string{"2 OPTIONS /reviews CORS preflight", "4 GET /movies no answer (fault reset)"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("skipped:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestLoadRefuses(t *testing.T) {
	t.Parallel()
	entry := func(s string) string { return `{"log":{"entries":[` + s + `]}}` }
	ok := `{"request":{"method":"GET","url":"http://h/a","headers":[]},"response":{"status":200,"headers":[],"content":{"size":0}}}`
	many := make([]string, 600)
	for i := range many {
		many[i] = `{"name":"X","value":"y"}`
	}
	for _, tc := range []struct{ name, in, want string }{
		{"empty", ``, "x.har: not JSON: unexpected end of JSON input"},
		{"not json", `{"log":`, "x.har: not JSON: unexpected end of JSON input"},
		{"deep", strings.Repeat("[", 20000) + strings.Repeat("]", 20000), "x.har: not JSON"},
		{"scalar", `"a"`, "x.har: neither a HAR"},
		{"no log", `{"entries":[]}`, `x.har: no "log" object: not a HAR`},
		{"no entries", `{"log":{"entries":{}}}`, `x.har: log: no "entries" array`},
		{"url type", entry(`{"request":{"method":"GET","url":5}}`), "x.har: entry 1: request.url: want string, got a JSON number"},
		{"bad url", entry(ok + `,{"request":{"method":"GET","url":"http://h/%zz"},"response":{"status":200}}`), `x.har: entry 2: request.url: parse "http://h/%zz": invalid URL escape "%zz"`},
		{"bad method", entry(`{"request":{"method":"GE T","url":"http://h/"},"response":{"status":200}}`), `x.har: entry 1: request.method: "GE T" is not a method`},
		{"status", entry(`{"request":{"method":"GET","url":"http://h/"},"response":{"status":20000}}`), `x.har: entry 1: response.status: 20000 is no HTTP status`},
		{"headers", entry(`{"request":{"method":"GET","url":"http://h/","headers":[` + strings.Join(many, ",") + `]},"response":{"status":200}}`), `x.har: entry 1: request.headers: 600 headers, over 512`},
		{"base64", entry(`{"request":{"method":"GET","url":"http://h/"},"response":{"status":200,"content":{"text":"!!","encoding":"base64"}}}`), `x.har: entry 1: response.content.text: encoding base64: illegal base64 data at input byte 0`},
		{"encoding", entry(`{"request":{"method":"GET","url":"http://h/"},"response":{"status":200,"content":{"text":"a","encoding":"gzip"}}}`), `x.har: entry 1: response.content.text: encoding "gzip": neither base64 nor none`},
		{"journal entry", `[1]`, "x.har: entry 1: not an object: not a journal entry"},
		{"journal path", `[{"method":"GET","path":"movies","status":200}]`, `x.har: entry 1: path: "movies" does not start with /`},
		{"journal headers", `[{"method":"GET","path":"/","headers":{"A":"b"},"status":200}]`, `x.har: entry 1: headers: want []string, got a JSON string`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := traffic.Load(strings.NewReader(tc.in), "x.har", traffic.DefaultLimits)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %v, want %s…", err, tc.want)
			}
		})
	}
}

func TestLoadLimits(t *testing.T) {
	t.Parallel()
	lim := traffic.Limits{MaxBytes: int64(len(harSample)) - 1}
	if _, err := traffic.Load(strings.NewReader(harSample), "app.har", lim); err == nil || !strings.Contains(err.Error(), "app.har: over the limit of") {
		t.Errorf("MaxBytes: %v", err)
	}
	path := filepath.Join(t.TempDir(), "big.har")
	if err := os.WriteFile(path, []byte(harSample), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := traffic.LoadFile(path, lim); err == nil || !strings.Contains(err.Error(), "big.har: ") {
		t.Errorf("LoadFile MaxBytes: %v", err)
	}
	if _, err := traffic.Load(strings.NewReader(harSample), "app.har", traffic.Limits{MaxCalls: 2}); err == nil || err.Error() != "app.har: entry 6: more than 2 calls" {
		t.Errorf("MaxCalls: %v", err)
	}
	src, err := traffic.Load(strings.NewReader(harSample), "app.har", traffic.Limits{MaxBody: 10})
	if err != nil {
		t.Fatal(err)
	}
	c := src.Calls[0]
	want := []string{"request body of 24 bytes over the limit of 10, left out", "response body of 28 bytes over the limit of 10, left out"}
	if c.Body != nil || c.ResponseKept || strings.Join(c.Notes, "|") != strings.Join(want, "|") {
		t.Errorf("MaxBody: body %q kept %v notes %q", c.Body, c.ResponseKept, c.Notes)
	}
}

func movies(t testing.TB) *model.Model {
	t.Helper()
	data, err := os.ReadFile("../../testdata/contracts/movies/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(data, "openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Compile(sp)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestMatch(t *testing.T) {
	t.Parallel()
	m := movies(t)
	calls := []traffic.Call{
		{Method: "GET", Path: "/movies"},
		{Method: "GET", Path: "/movies/12"},
		{Method: "GET", Path: "/movies/a b"},
		{Method: "GET", Path: "/movies/12/reviews"},
		{Method: "HEAD", Path: "/movies/12"},
		{Method: "POST", Path: "/auth/login"},
		{Method: "PUT", Path: "/movies/12"},
		{Method: "GET", Path: "/movies/12/"},
		{Method: "GET", Path: "/nowhere"},
	}
	want := []string{
		"GET /movies map[]",
		"GET /movies/{movie_id} map[movie_id:12]",
		"GET /movies/{movie_id} map[movie_id:a b]",
		"GET /movies/{movie_id}/reviews map[movie_id:12]",
		"GET /movies/{movie_id} map[movie_id:12]",
		"POST /auth/login map[]",
		"none: the path has no PUT (it has GET, DELETE, PATCH)",
		"none: no path of the contract matches",
		"none: no path of the contract matches",
	}
	got := traffic.Match(&traffic.Source{Calls: calls}, m)
	for i, g := range got {
		s := "none: " + g.Why
		if g.Op != nil {
			s = fmt.Sprintf("%s %v", g.Op, g.Params)
		}
		if g.Call != &calls[i] {
			t.Errorf("%d: Call is not the source's", i)
		}
		if s != want[i] {
			t.Errorf("%s: %s, want %s", calls[i].String(), s, want[i])
		}
	}
}

// A contract served under a root path ("servers": [{"url": "/api"}])
// matches calls with and without it.
func TestMatchServerPrefix(t *testing.T) {
	t.Parallel()
	doc := `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"servers":[{"url":"/api/"}],"paths":{"/items/{id}":{"get":{"operationId":"get_item","parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],"responses":{"200":{"description":"ok"}}}}}}`
	sp, err := spec.Load([]byte(doc), "openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Compile(sp)
	if err != nil {
		t.Fatal(err)
	}
	got := traffic.Match(&traffic.Source{Calls: []traffic.Call{{Method: "GET", Path: "/api/items/3"}, {Method: "GET", Path: "/items/4"}, {Method: "GET", Path: "/apiitems/4"}}}, m)
	for i, want := range []string{"3", "4", ""} {
		if got[i].Params["id"] != want || (want == "") != (got[i].Op == nil) {
			t.Errorf("call %d: %v %v, want id %q", i, got[i].Op, got[i].Params, want)
		}
	}
}

// The committed recording of testdata/traffic/page.html, as Chromium
// saved it: its calls with their bodies and answers, and the page, its
// script and the two preflights skipped.
func TestLoadMoviesPageHAR(t *testing.T) {
	t.Parallel()
	src, err := traffic.LoadFile("../../testdata/traffic/movies-page.har", traffic.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	m := movies(t)
	var got []string
	for _, mt := range traffic.Match(src, m) {
		c := mt.Call
		if mt.Op == nil || !c.ResponseKept || !strings.HasPrefix(c.ResponseType, "application/json") || len(c.Notes) > 0 {
			t.Errorf("%s: op %v, response kept %v %q, notes %q", c, mt.Op, c.ResponseKept, c.ResponseType, c.Notes)
		}
		got = append(got, fmt.Sprintf("#%d %s %s %d %s", c.Index, c.Method, mt.Op.Path, c.Status, c.BodyType))
	}
	want := []string{
		"#3 POST /auth/login 200 application/x-www-form-urlencoded;charset=UTF-8",
		"#4 GET /movies 200 ",
		"#5 GET /movies/{movie_id} 200 ",
		"#6 GET /movies/{movie_id}/reviews 200 ",
		"#8 GET /users/me 200 ",
		"#10 POST /reviews 201 application/json",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if c := src.Calls[0]; string(c.Body) != "username=alice&password=wonderland" || !strings.Contains(string(c.Response), `"access_token"`) {
		t.Errorf("login: sent %q, answered %q", c.Body, c.Response)
	}
	if c := src.Calls[4]; !strings.HasPrefix(c.Header.Get("Authorization"), "Bearer ") {
		t.Errorf("/users/me sent no bearer token: %v", c.Header)
	}
	var skipped []string
	for _, s := range src.Skipped {
		skipped = append(skipped, fmt.Sprintf("#%d %s", s.Index, s.Reason))
	}
	if want := "#1 a page (_resourceType document)|#2 a script (_resourceType script)|#7 CORS preflight|#9 CORS preflight"; strings.Join(skipped, "|") != want {
		t.Errorf("skipped %q, want %q", skipped, want)
	}
}

// A dev server's prefix comes off the calls under it, and they match.
func TestTrimPrefix(t *testing.T) {
	t.Parallel()
	src := &traffic.Source{Calls: []traffic.Call{{Method: "GET", Path: "/api/movies"}, {Method: "GET", Path: "/apimovies"}, {Method: "GET", Path: "/movies"}}}
	if n := traffic.TrimPrefix(src, "/api/"); n != 1 {
		t.Errorf("trimmed %d", n)
	}
	got := traffic.Match(src, movies(t))
	for i, want := range []bool{true, false, true} {
		if (got[i].Op != nil) != want {
			t.Errorf("%s: op %v", src.Calls[i].Path, got[i].Op)
		}
	}
}

// A browser's recording holds the calls to other servers too: those no
// call of which matches an operation are not the API's, and are skipped.
func TestKeepAPIServers(t *testing.T) {
	t.Parallel()
	m := movies(t)
	api, cdn, telemetry := "http://127.0.0.1:8000", "https://cdn.example", "https://telemetry.example"
	for _, tc := range []struct {
		name    string
		calls   []traffic.Call
		kept    []int    // indexes of the calls kept
		skipped []string // the skipped entries' URLs
	}{
		{"other servers", []traffic.Call{
			{Index: 1, Method: "GET", Path: "/movies", Origin: api},
			{Index: 2, Method: "POST", Path: "/collect", Origin: telemetry},
			{Index: 3, Method: "GET", Path: "/nowhere", Origin: api},
			{Index: 4, Method: "GET", Path: "/movies/12", Origin: cdn}, // a path like the API's is not enough
			{Index: 5, Method: "GET", Path: "/movies/12", Origin: api},
		}, []int{1, 3, 5}, nil},
		{"one server", []traffic.Call{
			{Index: 1, Method: "GET", Path: "/nowhere", Origin: api},
			{Index: 2, Method: "GET", Path: "/movies", Origin: api},
		}, []int{1, 2}, nil},
		{"a journal", []traffic.Call{
			{Index: 1, Method: "GET", Path: "/nowhere"},
			{Index: 2, Method: "GET", Path: "/movies"},
		}, []int{1, 2}, nil},
		{"nothing matches: nothing tells the API apart", []traffic.Call{
			{Index: 1, Method: "GET", Path: "/a", Origin: api},
			{Index: 2, Method: "GET", Path: "/b", Origin: telemetry},
		}, []int{1, 2}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := &traffic.Source{Calls: tc.calls, Skipped: []traffic.Skip{{Index: 99, URL: "last"}}}
			matched := traffic.KeepAPIServers(src, traffic.Match(src, m))
			var kept []int
			for i, mt := range matched {
				if mt.Call != &src.Calls[i] {
					t.Errorf("matched[%d].Call is not the source's call %d", i, i)
				}
				kept = append(kept, mt.Call.Index)
			}
			if fmt.Sprint(kept) != fmt.Sprint(tc.kept) {
				t.Errorf("kept calls %v, want %v", kept, tc.kept)
			}
			var skipped []string
			for _, s := range src.Skipped {
				skipped = append(skipped, fmt.Sprintf("%d %s", s.Index, s.URL))
			}
			want := len(tc.calls) - len(tc.kept) + 1
			if len(skipped) != want || src.Skipped[len(skipped)-1].Index != 99 {
				t.Errorf("skipped %q: want the %d calls to other servers before the entry there was", skipped, want-1)
			}
			for _, s := range src.Skipped[:len(skipped)-1] {
				if !strings.Contains(s.Reason, "another server") || strings.HasPrefix(s.URL, api) {
					t.Errorf("skipped %+v", s)
				}
			}
		})
	}
}

// Under the plain-OpenAPI profile a concrete path is matched before its
// templated counterpart, whatever the document's order; under FastAPI's
// the first declared wins, as Starlette routes.
func TestMatchConcreteBeforeTemplated(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("..", "..", "mock", "testdata", "openapi", "literal-vs-template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(raw, "literal-vs-template.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		profile framework.Name
		want    string
	}{
		{framework.OpenAPI, "/numbers/Local.json"},
		{framework.FastAPI, "/numbers/{Sid}.json"},
	} {
		m, err := model.Compile(sp, model.WithFramework(tc.profile))
		if err != nil {
			t.Fatal(err)
		}
		got := traffic.Match(&traffic.Source{Calls: []traffic.Call{{Method: "GET", Path: "/numbers/Local.json"}}}, m)
		if got[0].Path != tc.want {
			t.Errorf("%s: GET /numbers/Local.json matched %q, want %q", tc.profile, got[0].Path, tc.want)
		}
	}
	if got := traffic.MatchSpec(&traffic.Source{Calls: []traffic.Call{{Method: "GET", Path: "/numbers/Local.json"}}}, sp); got[0].Path != "/numbers/Local.json" {
		t.Errorf("MatchSpec: %q", got[0].Path)
	}
}
