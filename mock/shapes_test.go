package mock_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// shapesNow is the mock's clock in these tests: what a create stamps.
var shapesNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// contractModel compiles one of testdata/contracts' documents. The
// RealWorld document's `format: password` is taken out of the test's copy
// in memory: the mock does not yet accept that format on a request body.
func contractModel(t testing.TB, path string) (*spec.Spec, *model.Model) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b = []byte(strings.ReplaceAll(string(b), "format: password", ""))
	sp, err := spec.Load(b, path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Compile(sp)
	if err != nil {
		t.Fatal(err)
	}
	return sp, m
}

// contractServer serves a contract of testdata/contracts with data (nil:
// three generated records of each collection).
func contractServer(t testing.TB, path string, data func(m *model.Model) *fixtures.Dataset, accounts []mock.Account) http.Handler {
	t.Helper()
	sp, m := contractModel(t, path)
	var d *fixtures.Dataset
	if data != nil {
		d = data(m)
	} else {
		var err error
		if d, err = fixtures.Generate(m, fixtures.GenerateOptions{Seed: 3, Default: 3}); err != nil {
			t.Fatal(err)
		}
	}
	srv, err := mock.New(mock.Config{Spec: sp, Model: m, Data: d, Accounts: accounts, Now: func() time.Time { return shapesNow }})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// step is one request of a conversation and what its answer must hold:
// want maps a path in the JSON answer (members and indexes joined by
// dots; "#" is an array's length) to the JSON value there, or to
// "<absent>". save keeps the string at a path as the token later steps
// send (scheme: the Authorization scheme they send it with).
type step struct {
	method, target, body string
	status               int
	want                 map[string]string
	save                 string
}

// converse runs steps in order against srv, sending the saved token.
func converse(t testing.TB, srv http.Handler, scheme string, steps []step) {
	t.Helper()
	token := ""
	for i, s := range steps {
		r := httptest.NewRequest(s.method, s.target, strings.NewReader(s.body))
		switch {
		case strings.HasPrefix(s.body, "username="):
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		case s.body != "":
			r.Header.Set("Content-Type", "application/json")
		}
		if token != "" {
			r.Header.Set("Authorization", scheme+" "+token)
		}
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		if w.Code != s.status {
			t.Fatalf("step %d: %s %s: status %d, want %d: %s", i, s.method, s.target, w.Code, s.status, w.Body)
		}
		var v any
		if len(s.want) > 0 || s.save != "" {
			if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
				t.Fatalf("step %d: %s %s: %v: %s", i, s.method, s.target, err, w.Body)
			}
		}
		for path, want := range s.want {
			var buf strings.Builder
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			got := "<absent>"
			if x, ok := pick(v, path); ok {
				_ = enc.Encode(x)
				got = strings.TrimSuffix(buf.String(), "\n")
			}
			if got != want {
				t.Errorf("step %d: %s %s: %s is %s, want %s\n%s", i, s.method, s.target, path, got, want, w.Body)
			}
		}
		if s.save != "" {
			x, _ := pick(v, s.save)
			token, _ = x.(string)
			if token == "" {
				t.Fatalf("step %d: no token at %s: %s", i, s.save, w.Body)
			}
		}
	}
}

// pick is the value at path in v (see step); false when there is none.
func pick(v any, path string) (any, bool) {
	for _, part := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[part]; !ok {
				return nil, false
			}
		case []any:
			if part == "#" {
				return len(x), true
			}
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

const (
	realworldDoc = "../testdata/contracts/realworld/openapi.yml"
	fullstackDoc = "../testdata/corpus/documents/fastapi-full-stack-template/openapi.json"
)

// On RealWorld's document the mock keeps state through its envelopes: a
// user registers ({"user": {…}}), logs in by JSON and gets a token the
// mock accepts as "Token …"; an article created is stored as sent (title,
// body, tagList), gets its slug from its title, its author from the
// token's user, zero favorites and the clock's stamps (written as the
// plain-OpenAPI profile writes a date-time: with milliseconds, as a
// generated record's are too; a generated record's flags that an action
// sets, favorited and following, start false; a generated article's author
// is one of the generated profiles, which can be read and followed); it is
// listed with
// articlesCount one higher (without its body, as the list's items declare), read by slug, found by ?tag= and ?author=,
// updated, commented on under its own slug, favorited (the flag set, the
// count moved once) and unfavorited, deleted, and then 404. No operation
// declares a 404, so a profile the mock has no record of is followed as
// the stand-in its read answers, and kept so; profiles are never listed,
// while an article (listed) the mock has no record of is not favorited.
func TestRealWorldConversation(t *testing.T) {
	t.Parallel()
	srv := contractServer(t, realworldDoc, nil, nil)
	const now = `"2026-03-01T12:00:00.000Z"`
	converse(t, srv, "Token", []step{
		{"GET", "/articles", "", 200, map[string]string{"articlesCount": "3", "articles.#": "3", "articles.0.slug": `"the-usual-suspects-1"`,
			"articles.0.createdAt": `"2023-07-10T01:05:04.000Z"`, "articles.0.author.username": `"ricky227"`, "articles.0.favorited": "false", "articles.1.favorited": "false",
			"articles.2.favorited": "false", "articles.0.author.following": "false"}, ""},
		{"GET", "/articles?limit=1&offset=1", "", 200, map[string]string{"articlesCount": "3", "articles.#": "1"}, ""},
		{"GET", "/user", "", 401, nil, ""},
		{"POST", "/articles", `{"article":{"title":"t","description":"d","body":"b"}}`, 401, nil, ""},
		{"POST", "/users", `{"user":{"username":"jake","email":"jake@jake.jake","password":"jakejake"}}`, 201,
			map[string]string{"user.username": `"jake"`, "user.email": `"jake@jake.jake"`}, ""},
		{"POST", "/users/login", `{"user":{"email":"jake@jake.jake","password":"wrong"}}`, 401,
			map[string]string{"status": "401", "detail": `"incorrect email or password"`}, ""},
		{"POST", "/users/login", `{"user":{"email":"jake@jake.jake","password":"jakejake"}}`, 200,
			map[string]string{"user.username": `"jake"`}, "user.token"},
		{"GET", "/user", "", 200, map[string]string{"user.username": `"jake"`, "user.email": `"jake@jake.jake"`}, ""},
		{"PUT", "/user", `{"user":{"bio":"I like to skateboard"}}`, 200, map[string]string{"user.bio": `"I like to skateboard"`, "user.username": `"jake"`}, ""},
		{"GET", "/user", "", 200, map[string]string{"user.bio": `"I like to skateboard"`}, ""},
		{"GET", "/profiles/jake", "", 200, map[string]string{"profile.username": `"jake"`, "profile.bio": `"I like to skateboard"`, "profile.following": "false"}, ""},
		{"POST", "/profiles/jake/follow", "", 200, map[string]string{"profile.username": `"jake"`, "profile.following": "true"}, ""},
		{"PUT", "/user", `{"user":{"image":"https://example.com/jake.png"}}`, 200, nil, ""},
		{"GET", "/profiles/jake", "", 200, map[string]string{"profile.following": "true", "profile.image": `"https://example.com/jake.png"`}, ""},
		{"DELETE", "/profiles/jake/follow", "", 200, map[string]string{"profile.following": "false"}, ""},
		{"GET", "/profiles/jake", "", 200, map[string]string{"profile.following": "false", "profile.bio": `"I like to skateboard"`}, ""},
		// no operation declares a 404: a name no account has reads as its
		// stand-in, and is followed as that stand-in, the read agreeing
		{"GET", "/profiles/nobody-of-that-name", "", 200, map[string]string{"profile.following": "false"}, ""},
		{"POST", "/profiles/nobody-of-that-name/follow", "", 200, map[string]string{"profile.username": `"nobody-of-that-name"`, "profile.following": "true"}, ""},
		{"GET", "/profiles/nobody-of-that-name", "", 200, map[string]string{"profile.following": "true"}, ""},
		{"DELETE", "/profiles/nobody-of-that-name/follow", "", 200, map[string]string{"profile.following": "false"}, ""},
		{"GET", "/profiles/nobody-of-that-name", "", 200, map[string]string{"profile.following": "false"}, ""},
		{"POST", "/articles", `{"article":{"title":"How to train your dragon","description":"Ever wonder how?","body":"You have to believe","tagList":["reactjs","dragons"]}}`, 201,
			map[string]string{"article.slug": `"how-to-train-your-dragon"`, "article.title": `"How to train your dragon"`, "article.body": `"You have to believe"`,
				"article.tagList": `["reactjs","dragons"]`, "article.author.username": `"jake"`, "article.author.bio": `"I like to skateboard"`,
				"article.favoritesCount": "0", "article.favorited": "false", "article.createdAt": now, "article.updatedAt": now}, ""},
		{"POST", "/articles", `{"article":{"title":"How to train your dragon","description":"again","body":"b"}}`, 201,
			map[string]string{"article.slug": `"how-to-train-your-dragon-2"`, "article.tagList": `[]`}, ""},
		{"GET", "/articles", "", 200, map[string]string{"articlesCount": "5", "articles.3.slug": `"how-to-train-your-dragon"`,
			"articles.3.description": `"Ever wonder how?"`, "articles.3.body": "<absent>"}, ""},
		{"GET", "/articles/how-to-train-your-dragon", "", 200, map[string]string{"article.description": `"Ever wonder how?"`}, ""},
		{"GET", "/tags", "", 200, map[string]string{"tags.#": "7", "tags.5": `"reactjs"`, "tags.6": `"dragons"`}, ""},
		{"GET", "/profiles/ricky227", "", 200, map[string]string{"profile.username": `"ricky227"`, "profile.following": "false"}, ""},
		{"POST", "/profiles/ricky227/follow", "", 200, map[string]string{"profile.following": "true"}, ""},
		{"GET", "/articles?tag=dragons", "", 200, map[string]string{"articlesCount": "1", "articles.0.slug": `"how-to-train-your-dragon"`}, ""},
		{"GET", "/articles?author=jake", "", 200, map[string]string{"articlesCount": "2"}, ""},
		{"GET", "/articles?author=jake&tag=nothing", "", 200, map[string]string{"articlesCount": "0", "articles": "[]"}, ""},
		{"PUT", "/articles/how-to-train-your-dragon", `{"article":{"title":"Did you train your dragon?"}}`, 200,
			map[string]string{"article.title": `"Did you train your dragon?"`, "article.slug": `"how-to-train-your-dragon"`, "article.body": `"You have to believe"`}, ""},
		{"GET", "/articles/how-to-train-your-dragon/comments", "", 200, map[string]string{"comments": "[]"}, ""},
		{"POST", "/articles/how-to-train-your-dragon/comments", `{"comment":{"body":"Thank you so much!"}}`, 200,
			map[string]string{"comment.body": `"Thank you so much!"`, "comment.author.username": `"jake"`, "comment.id": "4"}, ""},
		{"GET", "/articles/how-to-train-your-dragon/comments", "", 200, map[string]string{"comments.#": "1", "comments.0.id": "4"}, ""},
		{"GET", "/articles/how-to-train-your-dragon-2/comments", "", 200, map[string]string{"comments": "[]"}, ""},
		{"POST", "/articles/no-such-article/comments", `{"comment":{"body":"x"}}`, 404, nil, ""},
		{"GET", "/articles/no-such-article/comments", "", 404, nil, ""},
		{"DELETE", "/articles/how-to-train-your-dragon-2/comments/4", "", 404, nil, ""},
		{"DELETE", "/articles/how-to-train-your-dragon/comments/4", "", 204, nil, ""},
		{"GET", "/articles/how-to-train-your-dragon/comments", "", 200, map[string]string{"comments": "[]"}, ""},
		{"POST", "/articles/how-to-train-your-dragon/favorite", "", 200, map[string]string{"article.slug": `"how-to-train-your-dragon"`, "article.favorited": "true", "article.favoritesCount": "1"}, ""},
		{"POST", "/articles/how-to-train-your-dragon/favorite", "", 200, map[string]string{"article.favorited": "true", "article.favoritesCount": "1"}, ""},
		{"GET", "/articles/how-to-train-your-dragon", "", 200, map[string]string{"article.favorited": "true", "article.favoritesCount": "1"}, ""},
		{"DELETE", "/articles/how-to-train-your-dragon/favorite", "", 200, map[string]string{"article.favorited": "false", "article.favoritesCount": "0"}, ""},
		// articles are listed: an action creates no record the list would
		// show, so an article the mock has no record of is not favorited
		{"POST", "/articles/no-such-article/favorite", "", 404, nil, ""},
		{"DELETE", "/articles/how-to-train-your-dragon", "", 204, nil, ""},
		{"GET", "/articles/how-to-train-your-dragon", "", 404, nil, ""},
		{"POST", "/articles/how-to-train-your-dragon/favorite", "", 404, nil, ""},
		{"GET", "/articles", "", 200, map[string]string{"articlesCount": "4"}, ""},
	})
}

// Generated records of a sub-collection belong to their parents: every
// comment is listed under exactly one article.
func TestRealWorldGeneratedComments(t *testing.T) {
	t.Parallel()
	srv := contractServer(t, realworldDoc, nil, nil)
	total := 0
	for i := 1; i <= 3; i++ {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, httptest.NewRequest("GET", "/articles", nil))
		var list struct {
			Articles []struct{ Slug string } `json:"articles"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &list); err != nil {
			t.Fatal(err)
		}
		w = httptest.NewRecorder()
		srv.ServeHTTP(w, httptest.NewRequest("GET", "/articles/"+list.Articles[i-1].Slug+"/comments", nil))
		var comments struct {
			Comments []json.RawMessage `json:"comments"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &comments); err != nil || w.Code != 200 {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
		total += len(comments.Comments)
	}
	if total != 3 {
		t.Errorf("%d comments under the articles, want the 3 generated", total)
	}
}

// On the full-stack FastAPI template the mock keeps state through
// {"data": […], "count": n}: a new user's item list is empty, an item
// created is listed with the count grown, a DELETE answers the declared
// Message; /users/me is whoever the token names, its updates persist, a
// password change checks the current one and changes the login, and a
// deleted user's token is refused.
func TestFullStackConversation(t *testing.T) {
	t.Parallel()
	srv := contractServer(t, fullstackDoc, nil, nil)
	login := func(pass string) string { return "username=new%40example.com&password=" + pass }
	converse(t, srv, "Bearer", []step{
		{"POST", "/api/v1/users/signup", `{"email":"new@example.com","password":"password123","full_name":"New"}`, 200,
			map[string]string{"email": `"new@example.com"`, "full_name": `"New"`, "is_superuser": "false"}, ""},
		{"POST", "/api/v1/login/access-token", login("password123"), 200, nil, "access_token"},
		{"GET", "/api/v1/users/me", "", 200, map[string]string{"email": `"new@example.com"`, "full_name": `"New"`}, ""},
		{"GET", "/api/v1/items/", "", 200, map[string]string{"data": "[]", "count": "0"}, ""},
		{"POST", "/api/v1/items/", `{"title":"Foo","description":"bar"}`, 200, map[string]string{"title": `"Foo"`, "description": `"bar"`}, ""},
		{"POST", "/api/v1/items/", `{"title":"Baz"}`, 200, map[string]string{"title": `"Baz"`, "description": "null"}, ""},
		{"GET", "/api/v1/items/", "", 200, map[string]string{"count": "2", "data.#": "2", "data.0.title": `"Foo"`, "data.1.title": `"Baz"`}, ""},
		{"GET", "/api/v1/items/?skip=1&limit=5", "", 200, map[string]string{"count": "2", "data.#": "1", "data.0.title": `"Baz"`}, ""},
		{"PATCH", "/api/v1/users/me", `{"full_name":"Renamed"}`, 200, map[string]string{"full_name": `"Renamed"`, "email": `"new@example.com"`}, ""},
		{"GET", "/api/v1/users/me", "", 200, map[string]string{"full_name": `"Renamed"`}, ""},
		{"PATCH", "/api/v1/users/me/password", `{"current_password":"wrongwrong","new_password":"newpassword1"}`, 400, map[string]string{"detail": `"Incorrect password"`}, ""},
		{"PATCH", "/api/v1/users/me/password", `{"current_password":"password123","new_password":"newpassword1"}`, 200, map[string]string{"message": `"Password updated successfully"`}, ""},
		{"POST", "/api/v1/login/access-token", login("password123"), 401, nil, ""},
		{"POST", "/api/v1/login/access-token", login("newpassword1"), 200, nil, "access_token"},
		{"GET", "/api/v1/users/me", "", 200, map[string]string{"full_name": `"Renamed"`}, ""},
		{"DELETE", "/api/v1/users/me", "", 200, map[string]string{"message": `"User deleted successfully"`}, ""},
		{"GET", "/api/v1/users/me", "", 401, nil, ""},
	})
}

// An item deleted answers the declared Message, not the record, and is
// gone: its read is a 404 and the list no longer holds it.
func TestFullStackDeleteAnswersMessage(t *testing.T) {
	t.Parallel()
	srv := contractServer(t, fullstackDoc, nil, nil)
	w := httptest.NewRecorder()
	r := httptest.NewRequest("POST", "/api/v1/users/signup", strings.NewReader(`{"email":"a@example.com","password":"password123"}`))
	r.Header.Set("Content-Type", "application/json")
	srv.ServeHTTP(w, r)
	w = httptest.NewRecorder()
	r = httptest.NewRequest("POST", "/api/v1/login/access-token", strings.NewReader("username=a%40example.com&password=password123"))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	srv.ServeHTTP(w, r)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	_ = json.Unmarshal(w.Body.Bytes(), &tok)
	w = httptest.NewRecorder()
	r = httptest.NewRequest("POST", "/api/v1/items/", strings.NewReader(`{"title":"Foo"}`))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	srv.ServeHTTP(w, r)
	var item struct{ ID string }
	if err := json.Unmarshal(w.Body.Bytes(), &item); err != nil || item.ID == "" {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	bearer := func(method, target string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		r := httptest.NewRequest(method, target, nil)
		r.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		srv.ServeHTTP(w, r)
		return w
	}
	for _, tc := range []struct {
		method, target string
		status         int
		body           string
	}{
		{"DELETE", "/api/v1/items/" + item.ID, 200, `{"message":"ItemPublic deleted successfully"}`},
		{"GET", "/api/v1/items/" + item.ID, 404, `{"detail":"ItemPublic not found"}`},
		{"GET", "/api/v1/items/", 200, `{"data":[],"count":0}`},
		{"DELETE", "/api/v1/items/" + item.ID, 404, `{"detail":"ItemPublic not found"}`},
	} {
		if w := bearer(tc.method, tc.target); w.Code != tc.status || w.Body.String() != tc.body {
			t.Errorf("%s %s: %d %s, want %d %s", tc.method, tc.target, w.Code, w.Body, tc.status, tc.body)
		}
	}
}

// An --account naming a fixture's user logs in as that record, its
// fields kept: the template's admin is a superuser and sees every item,
// where another user sees only their own.
func TestAccountKeepsFixtureFields(t *testing.T) {
	t.Parallel()
	data := func(m *model.Model) *fixtures.Dataset {
		fsys := fstest.MapFS{
			"user_publics.json": {Data: []byte(`[
{"id":"11111111-1111-4111-8111-111111111111","email":"admin@example.com","is_active":true,"is_superuser":true,"full_name":"Admin","password":"fixturepass"},
{"id":"22222222-2222-4222-8222-222222222222","email":"user@example.com","is_active":true,"is_superuser":false,"full_name":"User","password":"userpass1"}]`)},
			"item_publics.json": {Data: []byte(`[
{"id":"33333333-3333-4333-8333-333333333333","title":"Admin's","description":null,"owner_id":"11111111-1111-4111-8111-111111111111"},
{"id":"44444444-4444-4444-8444-444444444444","title":"User's","description":null,"owner_id":"22222222-2222-4222-8222-222222222222"}]`)},
		}
		d, err := fixtures.LoadFS(fsys, "fixtures", m)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	srv := contractServer(t, fullstackDoc, data, []mock.Account{{Username: "admin@example.com", Password: "changethis"}})
	for _, tc := range []struct {
		name, user, pass string
		steps            []step
	}{
		{"admin", "admin%40example.com", "changethis", []step{
			{"GET", "/api/v1/users/me", "", 200, map[string]string{"is_superuser": "true", "full_name": `"Admin"`, "id": `"11111111-1111-4111-8111-111111111111"`}, ""},
			{"GET", "/api/v1/items/", "", 200, map[string]string{"count": "2"}, ""},
		}},
		{"user", "user%40example.com", "userpass1", []step{
			{"GET", "/api/v1/users/me", "", 200, map[string]string{"is_superuser": "false"}, ""},
			{"GET", "/api/v1/items/", "", 200, map[string]string{"count": "1", "data.0.title": `"User's"`}, ""},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			steps := append([]step{{"POST", "/api/v1/login/access-token", "username=" + tc.user + "&password=" + tc.pass, 200, nil, "access_token"}}, tc.steps...)
			converse(t, srv, "Bearer", steps)
		})
	}
}

// A list envelope tells the truth about the whole list: its count-like
// members the number matching, has_more and next whether a page follows,
// previous whether one precedes, whatever the envelope's member names.
func TestListEnvelopePaging(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, envelope, query string
		want                  map[string]string
		limitOnly             bool // the list takes a limit and no offset
	}{
		{"results with next and previous", `"count":{"type":"integer"},"next":{"type":["string","null"]},"previous":{"type":["string","null"]},"results":{"type":"array","items":{"$ref":"#/components/schemas/Thing"}}`,
			"?offset=2&limit=2", map[string]string{"count": "5", "results.#": "2", "results.0.id": "3", "next": `"http://example.com/things?limit=2&offset=4"`, "previous": `"http://example.com/things?limit=2&offset=0"`}, false},
		{"last page", `"count":{"type":"integer"},"next":{"type":["string","null"]},"previous":{"type":["string","null"]},"results":{"type":"array","items":{"$ref":"#/components/schemas/Thing"}}`,
			"?offset=4&limit=2", map[string]string{"count": "5", "results.#": "1", "next": "null", "previous": `"http://example.com/things?limit=2&offset=2"`}, false},
		{"an empty page", `"count":{"type":"integer"},"next":{"type":["string","null"]},"previous":{"type":["string","null"]},"results":{"type":"array","items":{"$ref":"#/components/schemas/Thing"}}`,
			"?offset=1&limit=0", map[string]string{"count": "5", "results.#": "0", "next": "null"}, false},
		{"a limit alone", `"count":{"type":"integer"},"next":{"type":["string","null"]},"results":{"type":"array","items":{"$ref":"#/components/schemas/Thing"}}`,
			"?limit=2", map[string]string{"count": "5", "results.#": "2", "next": "null"}, true},
		{"data and has_more", `"data":{"type":"array","items":{"$ref":"#/components/schemas/Thing"}},"has_more":{"type":"boolean"}`,
			"?offset=0&limit=3", map[string]string{"data.#": "3", "has_more": "true"}, false},
		{"data and has_more, the end", `"data":{"type":"array","items":{"$ref":"#/components/schemas/Thing"}},"has_more":{"type":"boolean"}`,
			"?offset=3&limit=3", map[string]string{"data.#": "2", "has_more": "false"}, false},
		{"camelCase count", `"things":{"type":"array","items":{"$ref":"#/components/schemas/Thing"}},"thingsCount":{"type":"integer"}`,
			"?limit=1", map[string]string{"things.#": "1", "thingsCount": "5"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			params := `{"name":"offset","in":"query","schema":{"type":"integer"}},{"name":"limit","in":"query","schema":{"type":"integer"}}`
			if tc.limitOnly {
				params = `{"name":"limit","in":"query","schema":{"type":"integer"}}`
			}
			doc := `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{"/things":{"get":{
"parameters":[` + params + `],
"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"object","properties":{` + tc.envelope + `}}}}}}}}},
"components":{"schemas":{"Thing":{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"}},"required":["id","name"]}}}}`
			sp, err := spec.Load([]byte(doc), "things.json")
			if err != nil {
				t.Fatal(err)
			}
			m, err := model.Compile(sp)
			if err != nil {
				t.Fatal(err)
			}
			d, err := fixtures.Generate(m, fixtures.GenerateOptions{Seed: 1, Default: 5})
			if err != nil {
				t.Fatal(err)
			}
			srv, err := mock.New(mock.Config{Spec: sp, Model: m, Data: d})
			if err != nil {
				t.Fatal(err)
			}
			converse(t, srv, "", []step{{"GET", "/things" + tc.query, "", 200, tc.want, ""}})
		})
	}
}

// The mock's tokens are accepted as "Token …" outside FastAPI documents
// only: FastAPI's OAuth2PasswordBearer takes "Bearer …" alone.
func TestTokenScheme(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, doc, register, login, me, tokenAt, scheme string
		status                                          int
	}{
		{"realworld, Token", realworldDoc, `{"user":{"username":"u1","email":"u1@example.com","password":"password1"}}`,
			`{"user":{"email":"u1@example.com","password":"password1"}}`, "/user", "user.token", "Token", 200},
		{"realworld, Bearer", realworldDoc, `{"user":{"username":"u1","email":"u1@example.com","password":"password1"}}`,
			`{"user":{"email":"u1@example.com","password":"password1"}}`, "/user", "user.token", "Bearer", 200},
		// An API key the mock cannot verify (its value is not "Token"
		// or "Bearer" and one of the mock's tokens) is accepted when
		// present, as the plain-OpenAPI profile accepts any credential
		// it cannot check; the current user is then some user.
		{"realworld, another scheme", realworldDoc, `{"user":{"username":"u1","email":"u1@example.com","password":"password1"}}`,
			`{"user":{"email":"u1@example.com","password":"password1"}}`, "/user", "user.token", "Basic", 200},
		{"fullstack, Bearer", fullstackDoc, `{"email":"u1@example.com","password":"password1"}`,
			"username=u1%40example.com&password=password1", "/api/v1/users/me", "access_token", "Bearer", 200},
		{"fullstack, Token", fullstackDoc, `{"email":"u1@example.com","password":"password1"}`,
			"username=u1%40example.com&password=password1", "/api/v1/users/me", "access_token", "Token", 401},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := contractServer(t, tc.doc, nil, nil)
			register, login := "/users", "/users/login"
			regStatus := 201
			if tc.doc == fullstackDoc {
				register, login, regStatus = "/api/v1/users/signup", "/api/v1/login/access-token", 200
			}
			converse(t, srv, tc.scheme, []step{
				{"POST", register, tc.register, regStatus, nil, ""},
				{"POST", login, tc.login, 200, nil, tc.tokenAt},
				{"GET", tc.me, "", tc.status, nil, ""},
			})
		})
	}
}

// FuzzShapes sends arbitrary requests, with a token of a registered user
// or without, to the mock of a document of envelopes, natural keys and
// sub-collections: whatever comes in, the mock answers without a 5xx.
func FuzzShapes(f *testing.F) {
	for _, seed := range []struct{ method, target, body string }{
		{"POST", "/articles", `{"article":{"title":"A b","description":"d","body":"b","tagList":["x"]}}`},
		{"POST", "/articles", `{"article":{"title":"","description":"d","body":"b","tagList":null}}`},
		{"POST", "/articles", `{"article":null}`},
		{"PUT", "/articles/a-b", `{"article":{"title":null}}`},
		{"GET", "/articles?tag=x&author=&offset=-1&limit=0", ""},
		{"POST", "/articles/a-b/comments", `{"comment":{"body":"c"}}`},
		{"DELETE", "/articles/a-b/comments/99999999999999999999", ""},
		{"POST", "/articles/%00/favorite", ""},
		{"PUT", "/user", `{"user":{"username":"jake","password":"p"}}`},
		{"POST", "/users/login", `{"user":{"email":1,"password":[]}}`},
		{"GET", "/profiles/jake", ""},
		{"GET", "/tags", ""},
	} {
		f.Add(seed.method, seed.target, seed.body, true)
	}
	srv := contractServer(f, realworldDoc, nil, nil)
	var token string
	converse(f, srv, "Token", []step{
		{"POST", "/users", `{"user":{"username":"jake","email":"jake@jake.jake","password":"jakejake"}}`, 201, nil, ""},
	})
	w := httptest.NewRecorder()
	r := httptest.NewRequest("POST", "/users/login", strings.NewReader(`{"user":{"email":"jake@jake.jake","password":"jakejake"}}`))
	r.Header.Set("Content-Type", "application/json")
	srv.ServeHTTP(w, r)
	var login struct{ User struct{ Token string } }
	if err := json.Unmarshal(w.Body.Bytes(), &login); err != nil || login.User.Token == "" {
		f.Fatalf("login: %d %s", w.Code, w.Body)
	}
	token = login.User.Token
	f.Fuzz(func(t *testing.T, method, target, body string, authed bool) {
		if !strings.HasPrefix(target, "/") || strings.ContainsAny(target, " \r\n#") {
			return
		}
		switch method {
		case "GET", "POST", "PUT", "PATCH", "DELETE":
		default:
			return
		}
		r, err := http.NewRequest(method, "http://example.com"+target, strings.NewReader(body))
		if err != nil {
			return
		}
		r.Header.Set("Content-Type", "application/json")
		if authed {
			r.Header.Set("Authorization", "Token "+token)
		}
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		if w.Code >= 500 {
			t.Errorf("%s %s %q: %d %s", method, target, body, w.Code, w.Body)
		}
	})
}

// A document served under a base path (RealWorld's servers name
// https://api.realworld.show/api) is answered there too: /api/articles as
// /articles, a write under it kept as any other, a trailing slash answered
// as the path without it. A path that only begins with the same letters is
// not the base path.
func TestServerBasePath(t *testing.T) {
	t.Parallel()
	srv := contractServer(t, realworldDoc, nil, nil)
	converse(t, srv, "Token", []step{
		{"GET", "/api/articles", "", 200, map[string]string{"articlesCount": "3", "articles.0.slug": `"the-usual-suspects-1"`}, ""},
		{"GET", "/api/articles/the-usual-suspects-1", "", 200, map[string]string{"article.slug": `"the-usual-suspects-1"`}, ""},
		{"POST", "/api/users", `{"user":{"username":"jake","email":"jake@jake.jake","password":"jakejake"}}`, 201, nil, ""},
		{"GET", "/profiles/jake", "", 200, map[string]string{"profile.username": `"jake"`}, ""},
		{"GET", "/articles", "", 200, map[string]string{"articlesCount": "3"}, ""},
		{"POST", "/api/articles/", `{"article":{"title":"t","description":"d","body":"b"}}`, 401, nil, ""},
		{"GET", "/api/articles/", "", 200, map[string]string{"articlesCount": "3"}, ""},
		{"GET", "/apiarticles", "", 404, nil, ""},
		{"GET", "/api", "", 404, nil, ""},
	})
}

// An account (--account) logs in through a JSON login by the member the
// login names accounts by, RealWorld's email as well as a username; its
// token is then the account's.
func TestJSONLoginOfAnAccount(t *testing.T) {
	t.Parallel()
	srv := contractServer(t, realworldDoc, nil, []mock.Account{{Username: "ada@example.com", Password: "pw"}})
	converse(t, srv, "Token", []step{
		{"POST", "/users/login", `{"user":{"email":"ada@example.com","password":"nope"}}`, 401, nil, ""},
		{"POST", "/users/login", `{"user":{"email":"ada@example.com","password":"pw"}}`, 200,
			map[string]string{"user.username": `"ada@example.com"`}, "user.token"},
		{"GET", "/user", "", 200, map[string]string{"user.username": `"ada@example.com"`}, ""},
	})
}

// An action's flag is the account's that did it: on the corpus's RealWorld
// document two accounts registered by its own POST /users favorite and
// follow; each sees its own favorited and following (in the article, its
// embedded author and the profile), an anonymous read sees neither,
// favoritesCount counts the accounts, and ?favorited=NAME lists what that
// account favorited.
func TestActionFlagsPerUser(t *testing.T) {
	t.Parallel()
	srv := contractServer(t, "../testdata/corpus/documents/realworld/openapi.yml", nil, nil)
	call, tokens := realWorldUsers(t, srv)
	first := call("GET", "/articles", "", "")
	slug0, _ := pick(first, "articles.0.slug")
	slug1, _ := pick(first, "articles.1.slug")
	author, _ := pick(first, "articles.0.author.username")
	count0, _ := pick(first, "articles.0.favoritesCount")
	base := int(count0.(float64))
	a, b := tokens["alice"], tokens["bob"]
	art, prof := "/articles/"+slug0.(string), "/profiles/"+author.(string)
	for _, s := range []struct {
		method, target, token string
		want                  map[string]any
	}{
		{"POST", art + "/favorite", a, map[string]any{"article.favorited": true, "article.favoritesCount": base + 1}},
		{"POST", art + "/favorite", a, map[string]any{"article.favorited": true, "article.favoritesCount": base + 1}},
		{"GET", art, b, map[string]any{"article.favorited": false, "article.favoritesCount": base + 1}},
		{"GET", art, "", map[string]any{"article.favorited": false, "article.favoritesCount": base + 1}},
		{"GET", art, a, map[string]any{"article.favorited": true}},
		{"POST", art + "/favorite", b, map[string]any{"article.favorited": true, "article.favoritesCount": base + 2}},
		{"POST", "/articles/" + slug1.(string) + "/favorite", b, map[string]any{"article.favorited": true}},
		{"GET", "/articles?favorited=alice", "", map[string]any{"articlesCount": 1, "articles.0.slug": slug0, "articles.0.favorited": false}},
		{"GET", "/articles?favorited=alice", a, map[string]any{"articlesCount": 1, "articles.0.favorited": true}},
		{"GET", "/articles?favorited=bob", a, map[string]any{"articlesCount": 2}},
		{"GET", "/articles?favorited=nobody", "", map[string]any{"articlesCount": 0}},
		{"DELETE", art + "/favorite", a, map[string]any{"article.favorited": false, "article.favoritesCount": base + 1}},
		{"GET", art, b, map[string]any{"article.favorited": true, "article.favoritesCount": base + 1}},
		{"GET", "/articles?favorited=alice", "", map[string]any{"articlesCount": 0}},
		{"POST", prof + "/follow", a, map[string]any{"profile.following": true}},
		{"GET", prof, a, map[string]any{"profile.following": true}},
		{"GET", prof, b, map[string]any{"profile.following": false}},
		{"GET", prof, "", map[string]any{"profile.following": false}},
		{"GET", art, a, map[string]any{"article.author.following": true}},
		{"GET", art, b, map[string]any{"article.author.following": false}},
		{"GET", "/articles?limit=1", a, map[string]any{"articles.0.author.following": true, "articles.0.favorited": false}},
		{"DELETE", prof + "/follow", a, map[string]any{"profile.following": false}},
		{"GET", art, a, map[string]any{"article.author.following": false}},
	} {
		got := call(s.method, s.target, "", s.token)
		for path, want := range s.want {
			x, _ := pick(got, path)
			if n, ok := want.(int); ok {
				want = float64(n)
			}
			if x != want {
				who := map[string]string{a: "alice", b: "bob", "": "anonymous"}[s.token]
				t.Errorf("%s %s as %s: %s is %v, want %v", s.method, s.target, who, path, x, want)
			}
		}
	}
}

// An update of the current user that would take another account's name
// or e-mail is refused where the operation declares the status a create
// refuses a taken name with: on the corpus's RealWorld document PUT /user
// declares 422, answered in its {"errors": {"body": […]}}, and with a 409
// added to the document (in memory) the 409; the full-stack template's
// PATCH /users/me declares neither 409 nor 400 and keeps the update, as
// before, while with a 409 added it answers FastAPI's detail. A value the
// account already holds, or a free one, is kept.
func TestUpdateMeTakenName(t *testing.T) {
	t.Parallel()
	const rw = "../testdata/corpus/documents/realworld/openapi.yml"
	conflict := func(path, method string) func(*openapi3.T) {
		return func(doc *openapi3.T) {
			resp := openapi3.NewResponse().WithDescription("Conflict")
			if like := doc.Paths.Find(path).GetOperation(method).Responses.Value("422"); like != nil && path == "/user" {
				resp = like.Value // RealWorld's GenericError
			}
			doc.Paths.Find(path).GetOperation(method).Responses.Set("409", &openapi3.ResponseRef{Value: resp})
		}
	}
	rwRegister := func(name string) step {
		return step{"POST", "/users", `{"user":{"username":"` + name + `","email":"` + name + `@example.com","password":"secret123"}}`, 201, nil, ""}
	}
	rwLogin := step{"POST", "/users/login", `{"user":{"email":"alice@example.com","password":"secret123"}}`, 200, nil, "user.token"}
	fsRegister := func(name string) step {
		return step{"POST", "/api/v1/users/signup", `{"email":"` + name + `@example.com","password":"secret123"}`, 200, nil, ""}
	}
	fsLogin := step{"POST", "/api/v1/login/access-token", "username=alice%40example.com&password=secret123", 200, nil, "access_token"}
	for _, tc := range []struct {
		name, doc string
		mutate    func(*openapi3.T)
		scheme    string
		steps     []step
	}{
		{"realworld declares 422", rw, nil, "Token", []step{
			rwRegister("bob"), rwRegister("alice"), rwLogin,
			{"PUT", "/user", `{"user":{"email":"bob@example.com"}}`, 422, map[string]string{"errors.body.#": "1"}, ""},
			{"GET", "/user", "", 200, map[string]string{"user.email": `"alice@example.com"`, "user.username": `"alice"`}, ""},
			{"PUT", "/user", `{"user":{"email":"alice@example.com","bio":"same e-mail"}}`, 200, map[string]string{"user.bio": `"same e-mail"`}, ""},
			{"PUT", "/user", `{"user":{"email":"alice2@example.com"}}`, 200, map[string]string{"user.email": `"alice2@example.com"`}, ""},
		}},
		{"realworld with a 409", rw, conflict("/user", "PUT"), "Token", []step{
			rwRegister("bob"), rwRegister("alice"), rwLogin,
			{"PUT", "/user", `{"user":{"email":"bob@example.com"}}`, 409, map[string]string{"errors.body.0": `"email is already taken"`}, ""},
		}},
		{"template declares neither", fullstackDoc, nil, "Bearer", []step{
			fsRegister("bob"), fsRegister("alice"), fsLogin,
			{"PATCH", "/api/v1/users/me", `{"email":"bob@example.com"}`, 200, map[string]string{"email": `"bob@example.com"`}, ""},
		}},
		{"template with a 409", fullstackDoc, conflict("/api/v1/users/me", "PATCH"), "Bearer", []step{
			fsRegister("bob"), fsRegister("alice"), fsLogin,
			{"PATCH", "/api/v1/users/me", `{"email":"bob@example.com"}`, 409, map[string]string{"detail": `"UserPublic with this email already exists"`}, ""},
			{"PATCH", "/api/v1/users/me", `{"full_name":"Alice"}`, 200, map[string]string{"full_name": `"Alice"`, "email": `"alice@example.com"`}, ""},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, err := os.ReadFile(tc.doc)
			if err != nil {
				t.Fatal(err)
			}
			sp, err := spec.Load(b, tc.doc)
			if err != nil {
				t.Fatal(err)
			}
			if tc.mutate != nil {
				tc.mutate(sp.Doc)
			}
			m, err := model.Compile(sp)
			if err != nil {
				t.Fatal(err)
			}
			d, err := fixtures.Generate(m, fixtures.GenerateOptions{Seed: 3, Default: 3})
			if err != nil {
				t.Fatal(err)
			}
			srv, err := mock.New(mock.Config{Spec: sp, Model: m, Data: d, Now: func() time.Time { return shapesNow }})
			if err != nil {
				t.Fatal(err)
			}
			converse(t, srv, tc.scheme, tc.steps)
		})
	}
}

// realWorldUsers registers alice and bob on srv, a mock of the RealWorld
// document, and logs them in: call sends a request (a JSON body, an
// Authorization "Token" when token is not empty), fails the test on a
// status other than 2xx and returns the answer decoded; tokens are the
// accounts' by name.
func realWorldUsers(t *testing.T, srv http.Handler) (call func(method, target, body, token string) map[string]any, tokens map[string]string) {
	t.Helper()
	call = func(method, target, body, token string) map[string]any {
		t.Helper()
		r := httptest.NewRequest(method, target, strings.NewReader(body))
		if body != "" {
			r.Header.Set("Content-Type", "application/json")
		}
		if token != "" {
			r.Header.Set("Authorization", "Token "+token)
		}
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		if w.Code/100 != 2 {
			t.Fatalf("%s %s: status %d: %s", method, target, w.Code, w.Body)
		}
		var v map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
			t.Fatalf("%s %s: %v: %s", method, target, err, w.Body)
		}
		return v
	}
	tokens = map[string]string{}
	for _, name := range []string{"alice", "bob"} {
		call("POST", "/users", `{"user":{"username":"`+name+`","email":"`+name+`@example.com","password":"secret123"}}`, "")
		u := call("POST", "/users/login", `{"user":{"email":"`+name+`@example.com","password":"secret123"}}`, "")
		tok, _ := pick(u, "user.token")
		tokens[name], _ = tok.(string)
	}
	return call, tokens
}

// A JSON login answering a token alone (POST /login {username, password,
// long_token, totp_passcode} answering {token}, as Vikunja's does) logs
// in the accounts its registration makes, not those of another collection
// with a username (members an authenticated user adds); wrong credentials
// get the 403 it declares for them, and the token is the account's.
func TestJSONLoginAnsweringAToken(t *testing.T) {
	t.Parallel()
	srv := contractServer(t, "testdata/token-login.yaml", nil, nil)
	converse(t, srv, "Bearer", []step{
		{"POST", "/register", `{"username":"zed","email":"zed@example.com","password":"secret-pw"}`, 200, map[string]string{"username": `"zed"`}, ""},
		{"POST", "/login", `{"username":"zed","password":"wrong"}`, 403, nil, ""},
		{"POST", "/login", `{"username":"nobody","password":"secret-pw"}`, 403, nil, ""},
		{"POST", "/login", `{"username":"zed","password":"secret-pw","long_token":true}`, 200, nil, "token"},
		{"GET", "/user", "", 200, map[string]string{"username": `"zed"`, "email": `"zed@example.com"`}, ""},
	})
}

// A document whose every operation inherits a token requirement (as
// Swashbuckle writes a global Bearer) still signs up and logs in without
// one: no one has a token before. Its other operations keep it, a create
// of other records taking a password (a member an administrator adds)
// too.
func TestLoginInheritsNoTokenRequirement(t *testing.T) {
	t.Parallel()
	srv := contractServer(t, "testdata/token-login-global.yaml", nil, []mock.Account{{Username: "ada", Password: "secret-pw"}})
	converse(t, srv, "Bearer", []step{
		{"GET", "/user", "", 401, nil, ""},
		{"POST", "/members", `{"username":"m","password":"pw-of-m","role":1}`, 401, nil, ""},
		{"POST", "/login", `{"username":"ada","password":"wrong"}`, 403, nil, ""},
		{"POST", "/login", `{"username":"ada","password":"secret-pw"}`, 200, nil, "token"},
		{"GET", "/user", "", 200, map[string]string{"username": `"ada"`}, ""},
	})
	converse(t, srv, "Bearer", []step{
		{"POST", "/register", `{"username":"zed","email":"zed@example.com","password":"zed-pw-1"}`, 200, map[string]string{"username": `"zed"`}, ""},
		{"POST", "/login", `{"username":"zed","password":"zed-pw-1"}`, 200, nil, "token"},
		{"GET", "/user", "", 200, map[string]string{"username": `"zed"`}, ""},
	})
}

// A delete answering a boolean (an ASP.NET controller's bool) answers
// true, for a record it deleted and for an id it never had (the document
// declares no 404): never the null its schema refuses.
func TestDeleteAnsweringABoolean(t *testing.T) {
	t.Parallel()
	srv := contractServer(t, "testdata/delete-boolean.yaml", nil, nil)
	for _, target := range []string{"/api/Series/1", "/api/Series/987654321"} {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, httptest.NewRequest("DELETE", target, nil))
		if w.Code != 200 || strings.TrimSpace(w.Body.String()) != "true" {
			t.Errorf("DELETE %s: %d %s, want 200 true", target, w.Code, w.Body)
		}
	}
}
