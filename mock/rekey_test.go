package mock_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// A user of the corpus's RealWorld document who changes their username
// (the key its path /profiles/{username} names) keeps the new one: the
// answer and GET /user say it, the profile is read under it (its bio
// kept) and no longer under the old one, the token issued before still
// works, the article and comment written before show the new name as
// their author's, the favorite and the follow made before still show,
// and ?author= and ?favorited= find them under the new name. A name
// another account holds is refused as PUT /user declares (422), and
// changes nothing; a later bio change shows in the author too.
func TestUpdateMeRenames(t *testing.T) {
	t.Parallel()
	srv := contractServer(t, "../testdata/corpus/documents/realworld/openapi.yml", nil, nil)
	register := func(name string) step {
		return step{"POST", "/users", `{"user":{"username":"` + name + `","email":"` + name + `@example.com","password":"secret123"}}`, 201,
			map[string]string{"user.username": `"` + name + `"`}, "user.token"}
	}
	converse(t, srv, "Token", []step{register("bob")})
	converse(t, srv, "Token", []step{
		register("zed"),
		{"PUT", "/user", `{"user":{"bio":"before"}}`, 200, map[string]string{"user.bio": `"before"`}, ""},
		{"POST", "/articles", `{"article":{"title":"Hello","description":"d","body":"b"}}`, 201,
			map[string]string{"article.slug": `"hello"`, "article.author.username": `"zed"`}, ""},
		{"POST", "/articles/hello/comments", `{"comment":{"body":"first"}}`, 200, map[string]string{"comment.author.username": `"zed"`}, ""},
		{"POST", "/articles/hello/favorite", "", 200, map[string]string{"article.favorited": "true", "article.favoritesCount": "1"}, ""},
		{"POST", "/profiles/zed/follow", "", 200, map[string]string{"profile.following": "true"}, ""},
		{"POST", "/profiles/bob/follow", "", 200, map[string]string{"profile.following": "true"}, ""},

		{"PUT", "/user", `{"user":{"username":"zed2","bio":"hi"}}`, 200, map[string]string{"user.username": `"zed2"`, "user.bio": `"hi"`}, ""},
		{"GET", "/user", "", 200, map[string]string{"user.username": `"zed2"`, "user.bio": `"hi"`, "user.email": `"zed@example.com"`}, ""},
		{"GET", "/profiles/zed2", "", 200, map[string]string{"profile.username": `"zed2"`, "profile.bio": `"hi"`, "profile.following": "true"}, ""},
		{"GET", "/profiles/zed", "", 404, nil, ""},
		{"GET", "/profiles/bob", "", 200, map[string]string{"profile.following": "true"}, ""},
		{"GET", "/articles/hello", "", 200, map[string]string{"article.author.username": `"zed2"`, "article.author.bio": `"hi"`,
			"article.author.following": "true", "article.favorited": "true", "article.favoritesCount": "1"}, ""},
		{"GET", "/articles/hello/comments", "", 200, map[string]string{"comments.#": "1", "comments.0.author.username": `"zed2"`}, ""},
		{"GET", "/articles?author=zed2", "", 200, map[string]string{"articlesCount": "1", "articles.0.slug": `"hello"`}, ""},
		{"GET", "/articles?author=zed", "", 200, map[string]string{"articlesCount": "0"}, ""},
		{"GET", "/articles?favorited=zed2", "", 200, map[string]string{"articlesCount": "1", "articles.0.favorited": "true"}, ""},

		{"PUT", "/user", `{"user":{"username":"bob"}}`, 422, map[string]string{"errors.body.#": "1"}, ""},
		{"GET", "/user", "", 200, map[string]string{"user.username": `"zed2"`}, ""},
		{"GET", "/profiles/bob", "", 200, map[string]string{"profile.username": `"bob"`, "profile.email": "<absent>"}, ""},

		{"PUT", "/user", `{"user":{"bio":"after"}}`, 200, map[string]string{"user.username": `"zed2"`, "user.bio": `"after"`}, ""},
		{"GET", "/articles/hello", "", 200, map[string]string{"article.author.username": `"zed2"`, "article.author.bio": `"after"`}, ""},
		{"POST", "/users/login", `{"user":{"email":"zed@example.com","password":"secret123"}}`, 200,
			map[string]string{"user.username": `"zed2"`}, "user.token"},
		{"GET", "/user", "", 200, map[string]string{"user.username": `"zed2"`}, ""},
	})
}

// An article whose slug a PUT sends (the corpus's RealWorld document with
// slug added to its UpdateArticle) is kept under the new
// slug: read there with its comments and its favorite, and no longer
// under the old one; a slug another article has is refused as the
// document declares bad input (422), as a taken name is.
func TestReplaceRenamesArticle(t *testing.T) {
	t.Parallel()
	const doc = "../testdata/corpus/documents/realworld/openapi.yml"
	b, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	const update = "    UpdateArticle:\n      type: object\n      properties:\n"
	if !bytes.Contains(b, []byte(update)) {
		t.Fatalf("%s: no UpdateArticle schema to add a slug to", doc)
	}
	path := filepath.Join(t.TempDir(), "openapi.yml")
	b = bytes.Replace(b, []byte(update), []byte(update+"        slug:\n          type: string\n"), 1)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := contractServer(t, path, nil, nil)
	converse(t, srv, "Token", []step{
		{"POST", "/users", `{"user":{"username":"zed","email":"zed@example.com","password":"secret123"}}`, 201, nil, "user.token"},
		{"POST", "/articles", `{"article":{"title":"Hello","description":"d","body":"b"}}`, 201, map[string]string{"article.slug": `"hello"`}, ""},
		{"POST", "/articles", `{"article":{"title":"Other","description":"d","body":"b"}}`, 201, map[string]string{"article.slug": `"other"`}, ""},
		{"POST", "/articles/hello/comments", `{"comment":{"body":"first"}}`, 200, nil, ""},
		{"POST", "/articles/hello/favorite", "", 200, map[string]string{"article.favorited": "true"}, ""},

		{"PUT", "/articles/hello", `{"article":{"slug":"hello-again","title":"Hello again"}}`, 200,
			map[string]string{"article.slug": `"hello-again"`, "article.title": `"Hello again"`, "article.body": `"b"`}, ""},
		{"GET", "/articles/hello-again", "", 200, map[string]string{"article.title": `"Hello again"`, "article.favorited": "true", "article.favoritesCount": "1"}, ""},
		{"GET", "/articles/hello", "", 404, nil, ""},
		{"GET", "/articles/hello-again/comments", "", 200, map[string]string{"comments.#": "1", "comments.0.body": `"first"`}, ""},
		{"GET", "/articles/hello/comments", "", 404, nil, ""},
		{"GET", "/articles?favorited=zed", "", 200, map[string]string{"articlesCount": "1", "articles.0.slug": `"hello-again"`}, ""},

		{"PUT", "/articles/hello-again", `{"article":{"slug":"other"}}`, 422, map[string]string{"errors.body.#": "1"}, ""},
		{"GET", "/articles/other", "", 200, map[string]string{"article.title": `"Other"`}, ""},
		{"GET", "/articles/hello-again", "", 200, map[string]string{"article.title": `"Hello again"`}, ""},
	})
}
