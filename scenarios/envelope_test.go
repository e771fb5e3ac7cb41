package scenarios_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
	"github.com/moviemock/moviemock/scenarios"
)

// realworld compiles the committed RealWorld document, whose answers wrap
// their records: {"articles": […], "articlesCount": n}, {"article": {…}}.
func realworld(t *testing.T) (*spec.Spec, *model.Model, *fixtures.Dataset) {
	t.Helper()
	const path = "../testdata/corpus/documents/realworld/openapi.yml"
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(text, path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Compile(sp)
	if err != nil {
		t.Fatal(err)
	}
	data, err := fixtures.Generate(m, fixtures.GenerateOptions{Seed: 1, Default: 5})
	if err != nil {
		t.Fatal(err)
	}
	return sp, m, data
}

// A passthrough on an envelope's answer changes the records it holds: set
// replaces a field of each article listed or of the one read, where keeps
// the articles with a value and articlesCount says how many it kept,
// offset and limit page them (the count still says how many matched).
func TestPassthroughReachesIntoEnvelopes(t *testing.T) {
	t.Parallel()
	sp, m, data := realworld(t)
	set, err := scenarios.Load(sp, data, scenarios.Source{Name: "test", FS: fstest.MapFS{"rw.yaml": {Data: []byte(`name: rw
description: app rules of a RealWorld backend
rules:
  - match: {method: GET, path: /articles, query: {favorited: {present: true}}}
    passthrough: {where: {favorited: true}}
  - match: {method: GET, path: /articles, query: {tag: dragons}}
    passthrough: {set: {tagList: [dragons, training]}}
  - match: {method: GET, path: /articles, query: {limit: 20}}
    passthrough: {where: {favorited: false}, offset: 1, limit: 2}
  - match: {method: GET, path: "/articles/{slug}"}
    passthrough: {set: {favoritesCount: 7}}
`)}}})
	if err != nil {
		t.Fatal(err)
	}
	ts, _ := newServer(t, mock.Config{Spec: sp, Model: m, Data: data, Scenarios: set, Scenario: "rw"})
	c := newClient(t, ts, "", "")
	type list struct {
		Articles []struct {
			Slug           string   `json:"slug"`
			TagList        []string `json:"tagList"`
			FavoritesCount int      `json:"favoritesCount"`
		} `json:"articles"`
		ArticlesCount int `json:"articlesCount"`
	}
	read := func(path string, v any) {
		t.Helper()
		a := c.get(path)
		c.want(path, a, 200, "")
		if err := json.Unmarshal([]byte(a.body), v); err != nil {
			t.Fatalf("%s: %v: %s", path, err, a.body)
		}
	}
	var all, none, tagged, paged list
	read("/articles", &all)
	if all.ArticlesCount != 5 || len(all.Articles) != 5 {
		t.Fatalf("GET /articles: %d articles, count %d; want the 5 generated", len(all.Articles), all.ArticlesCount)
	}
	read("/articles?favorited=jake", &none)
	if none.ArticlesCount != 0 || len(none.Articles) != 0 {
		t.Errorf("where favorited: %d articles, count %d; want none favorited yet", len(none.Articles), none.ArticlesCount)
	}
	read("/articles?tag=dragons", &tagged)
	for _, a := range tagged.Articles {
		if strings.Join(a.TagList, ",") != "dragons,training" {
			t.Errorf("set tagList: %s has %v", a.Slug, a.TagList)
		}
	}
	read("/articles?limit=20", &paged)
	if paged.ArticlesCount != 5 || len(paged.Articles) != 2 || paged.Articles[0].Slug != all.Articles[1].Slug {
		t.Errorf("offset 1, limit 2: %+v; want articles 2 and 3 of 5", paged)
	}
	var one struct {
		Article struct {
			Slug           string `json:"slug"`
			FavoritesCount int    `json:"favoritesCount"`
		} `json:"article"`
	}
	read("/articles/"+all.Articles[0].Slug, &one)
	if one.Article.Slug != all.Articles[0].Slug || one.Article.FavoritesCount != 7 {
		t.Errorf("set on the one article: %+v", one.Article)
	}
}

// A field a passthrough names is one of the records an envelope holds,
// and where is refused on an envelope holding one record. A where's
// dotted field names properties down the record's schema, each checked
// (the file and line say which); set takes whole fields only.
func TestPassthroughEnvelopeRefusals(t *testing.T) {
	t.Parallel()
	sp, _, data := realworld(t)
	for _, tc := range []struct{ name, rule, want string }{
		{"the envelope's own member", `{match: {method: GET, path: /articles}, passthrough: {set: {articlesCount: 1}}}`,
			`the answer of GET /articles has no field "articlesCount" (it has author, createdAt`},
		{"where on one record", `{match: {method: GET, path: "/articles/{slug}"}, passthrough: {where: {favorited: true}}}`,
			`GET /articles/{slug} does not answer with a list`},
		{"a dotted where's unknown name", `{match: {method: GET, path: /articles/feed}, passthrough: {where: {author.followed: true}}}`,
			`bad.yaml:4: scenario "bad": rule 1: passthrough.where.author.followed: the answer of GET /articles/feed has no field "author.followed": author has no property "followed" (it has username, bio, image, following)`},
		{"a dotted where through a string", `{match: {method: GET, path: /articles/feed}, passthrough: {where: {slug.length: 3}}}`,
			`has no field "slug.length": slug is not an object of declared properties`},
		{"a dotted where's value of another type", `{match: {method: GET, path: /articles/feed}, passthrough: {where: {author.following: "yes"}}}`,
			`passthrough.where.author.following: `},
		{"a dotted set", `{match: {method: GET, path: /articles/feed}, passthrough: {set: {author.following: true}}}`,
			`the answer of GET /articles/feed has no field "author.following" (it has author, createdAt`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := "name: bad\ndescription: d\nrules:\n  - " + tc.rule + "\n"
			_, err := scenarios.Load(sp, data, scenarios.Source{Name: "test", FS: fstest.MapFS{"bad.yaml": {Data: []byte(text)}}})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}

// realworldExample runs the mock of RealWorld's document under the
// example scenario for it (docs/examples/realworld), which must load.
func realworldExample(t *testing.T) *httptest.Server {
	t.Helper()
	sp, m, data := realworld(t)
	text, err := os.ReadFile("../docs/examples/realworld/realworld.yaml")
	if err != nil {
		t.Fatal(err)
	}
	set, err := scenarios.Load(sp, data, scenarios.Source{Name: "docs/examples/realworld", FS: fstest.MapFS{"realworld.yaml": {Data: text}}})
	if err != nil {
		t.Fatal(err)
	}
	ts, _ := newServer(t, mock.Config{Spec: sp, Model: m, Data: data, Scenarios: set, Scenario: "realworld"})
	return ts
}

// The example scenario for RealWorld's document (docs/examples) loads
// against it: a fresh mock's ?favorited= lists no article, and a wrong
// login's 401, declared with no content, is the rule's whole body (the
// app's {"errors": {…}}, as JSON) while a right login goes on as the mock
// answers it.
func TestExampleRealWorldScenario(t *testing.T) {
	t.Parallel()
	ts := realworldExample(t)
	c := newClient(t, ts, "", "")
	c.want("?favorited=", c.get("/articles?favorited=jake"), 200, `{"articles":[],"articlesCount":0}`)
	post := func(path, body string) (int, string, string) {
		t.Helper()
		resp, err := http.Post(ts.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
	}
	if code, _, body := post("/users", `{"user":{"username":"jake","email":"jake@jake.jake","password":"jakejake"}}`); code != 201 {
		t.Fatalf("register: %d %s", code, body)
	}
	code, ctype, body := post("/users/login", `{"user":{"email":"jake@jake.jake","password":"wrong"}}`)
	if code != 401 || ctype != "application/json" || body != `{"errors":{"email or password":["is invalid"]}}` {
		t.Errorf("wrong login: %d %s %s", code, ctype, body)
	}
	if code, _, body := post("/users/login", `{"user":{"email":"jake@jake.jake","password":"jakejake"}}`); code != 200 || !strings.Contains(body, `"token"`) {
		t.Errorf("right login: %d %s", code, body)
	}
}

// A where filters the whole list, not the page the mock would answer: the
// request's own page (limit, offset, the document's default limit of 20)
// is cut from what it kept, then the rule's own offset from that page, and
// articlesCount says how many it kept.
func TestPassthroughWhereBeforePaging(t *testing.T) {
	t.Parallel()
	sp, m, _ := realworld(t)
	data, err := fixtures.Generate(m, fixtures.GenerateOptions{Seed: 1, Default: 25})
	if err != nil {
		t.Fatal(err)
	}
	type list struct {
		Articles []struct {
			Slug string `json:"slug"`
		} `json:"articles"`
		ArticlesCount int `json:"articlesCount"`
	}
	read := func(c *client, path string) list {
		t.Helper()
		a := c.get(path)
		c.want(path, a, 200, "")
		var l list
		if err := json.Unmarshal([]byte(a.body), &l); err != nil {
			t.Fatalf("%s: %v: %s", path, err, a.body)
		}
		return l
	}
	plain, _ := newServer(t, mock.Config{Spec: sp, Model: m, Data: data})
	all := read(newClient(t, plain, "", ""), "/articles?limit=25")
	if len(all.Articles) != 25 {
		t.Fatalf("%d articles, want the 25 generated", len(all.Articles))
	}
	last := all.Articles[23].Slug
	set, err := scenarios.Load(sp, data, scenarios.Source{Name: "test", FS: fstest.MapFS{"w.yaml": {Data: []byte(`name: w
description: one article past the first page, or every unfavorited one
rules:
  - match: {method: GET, path: /articles, query: {pick: one}}
    passthrough: {where: {slug: ` + last + `}}
  - match: {method: GET, path: /articles}
    passthrough: {where: {favorited: false}, offset: 1}
`)}}})
	if err != nil {
		t.Fatal(err)
	}
	ts, _ := newServer(t, mock.Config{Spec: sp, Model: m, Data: data, Scenarios: set, Scenario: "w"})
	c := newClient(t, ts, "", "")
	for _, tc := range []struct {
		path     string
		count, n int
		first    int // index in all of the first article answered
	}{
		{"/articles?pick=one", 1, 1, 23},
		{"/articles", 25, 19, 1},           // the default limit's page, less the rule's offset
		{"/articles?offset=20", 25, 4, 21}, // 25 kept, from the 21st, less the rule's one
		{"/articles?offset=2&limit=3", 25, 2, 3},
		{"/articles?limit=1", 25, 0, 0}, // the rule's offset takes the one article
	} {
		got := read(c, tc.path)
		if got.ArticlesCount != tc.count || len(got.Articles) != tc.n || tc.n > 0 && got.Articles[0].Slug != all.Articles[tc.first].Slug {
			t.Errorf("%s: %d articles, count %d, first %v; want %d, count %d, from article %d", tc.path, len(got.Articles), got.ArticlesCount, got.Articles, tc.n, tc.count, tc.first)
		}
	}
}

// order sorts the whole list before the request's page is cut from it:
// -createdAt answers the newest of all 25 articles first, 20 of them.
func TestPassthroughOrder(t *testing.T) {
	t.Parallel()
	sp, m, _ := realworld(t)
	data, err := fixtures.Generate(m, fixtures.GenerateOptions{Seed: 1, Default: 25})
	if err != nil {
		t.Fatal(err)
	}
	set, err := scenarios.Load(sp, data, scenarios.Source{Name: "test", FS: fstest.MapFS{"o.yaml": {Data: []byte(`name: o
description: newest first
rules:
  - match: {method: GET, path: /articles}
    passthrough: {order: -createdAt}
`)}}})
	if err != nil {
		t.Fatal(err)
	}
	ts, _ := newServer(t, mock.Config{Spec: sp, Model: m, Data: data, Scenarios: set, Scenario: "o"})
	c := newClient(t, ts, "", "")
	read := func(path string) []string {
		t.Helper()
		a := c.get(path)
		c.want(path, a, 200, "")
		var l struct {
			Articles []struct {
				CreatedAt string `json:"createdAt"`
			} `json:"articles"`
		}
		if err := json.Unmarshal([]byte(a.body), &l); err != nil {
			t.Fatal(err)
		}
		out := make([]string, len(l.Articles))
		for i, a := range l.Articles {
			out[i] = a.CreatedAt
		}
		return out
	}
	all := read("/articles?limit=25")
	page := read("/articles")
	if len(all) != 25 || len(page) != 20 {
		t.Fatalf("%d and %d articles, want 25 and 20", len(all), len(page))
	}
	sorted := slices.Clone(all)
	slices.Sort(sorted)
	slices.Reverse(sorted)
	if !slices.Equal(all, sorted) || !slices.Equal(page, sorted[:20]) {
		t.Errorf("not newest first:\n%v\n%v", all, page)
	}
	if _, err := scenarios.Load(sp, data, scenarios.Source{Name: "test", FS: fstest.MapFS{"o.yaml": {Data: []byte(`name: o
description: d
rules:
  - match: {method: GET, path: /articles}
    passthrough: {order: -nothing}
`)}}}); err == nil || !strings.Contains(err.Error(), `have no field "nothing"`) {
		t.Errorf("order by an unknown field: %v", err)
	}
}

// The example scenario's feed lists the articles of the authors the
// reader follows, as the reader sees them (author.following), and
// articlesCount counts them: none before a follow, the followed author's
// own after it, none again after the unfollow.
func TestExampleRealWorldFeed(t *testing.T) {
	t.Parallel()
	ts := realworldExample(t)
	call := func(method, path, token, body string, want int) map[string]any {
		t.Helper()
		req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Token "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var v map[string]any
		if resp.StatusCode != want || json.Unmarshal(b, &v) != nil {
			t.Fatalf("%s %s: %d %s, want %d with a JSON object", method, path, resp.StatusCode, b, want)
		}
		return v
	}
	register := func(name string) string {
		t.Helper()
		v := call("POST", "/users", "", `{"user":{"username":"`+name+`","email":"`+name+`@example.com","password":"`+name+`-secret"}}`, 201)
		token, _ := v["user"].(map[string]any)["token"].(string)
		if token == "" {
			t.Fatalf("register %s: no token in %v", name, v)
		}
		return token
	}
	jake, anna := register("jake"), register("anna")
	var mine []string
	for _, title := range []string{"Dragons", "Training"} {
		v := call("POST", "/articles", anna, `{"article":{"title":"`+title+`","description":"d","body":"b"}}`, 201)
		mine = append(mine, v["article"].(map[string]any)["slug"].(string))
	}
	feed := func(what string, want []string) {
		t.Helper()
		v := call("GET", "/articles/feed", jake, "", 200)
		var got []string
		for _, a := range v["articles"].([]any) {
			a := a.(map[string]any)
			got = append(got, a["slug"].(string))
			if author := a["author"].(map[string]any); author["username"] != "anna" || author["following"] != true {
				t.Errorf("%s: %s by %v", what, a["slug"], author)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) || v["articlesCount"] != float64(len(want)) {
			t.Errorf("%s: the feed lists %v, articlesCount %v; want %v", what, got, v["articlesCount"], want)
		}
	}
	feed("before a follow", nil)
	call("POST", "/profiles/anna/follow", jake, "", 200)
	slices.Sort(mine)
	feed("following anna", mine)
	call("DELETE", "/profiles/anna/follow", jake, "", 200)
	feed("after the unfollow", nil)
}
