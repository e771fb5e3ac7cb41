package model_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
)

// compileFile compiles one of testdata/contracts' documents.
func compileFile(t *testing.T, path string, opts ...model.Option) *model.Model {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(b, path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Compile(sp, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

const (
	realworld = "../../testdata/contracts/realworld/openapi.yml"
	fullstack = "../../testdata/corpus/documents/fastapi-full-stack-template/openapi.json"
)

// Two real documents outside FastAPI's CRUD shapes place their operations
// under conventions: RealWorld's envelopes ({"article": …}, {"articles":
// […], "articlesCount"}), records keyed by slug and username, a JSON
// login, the current user at /user, comments scoped to their article; the
// full-stack FastAPI template's {"data": […], "count"} lists and its
// /users/me operations.
func TestRealDocumentsPlaced(t *testing.T) {
	t.Parallel()
	type want struct {
		kind     model.Kind
		coll     string
		envelope string
		wrap     string
		idParam  string
		scoped   bool
	}
	for _, tc := range []struct {
		doc, op string
		want    want
	}{
		{realworld, "GET /articles", want{model.List, "Article", "articles", "", "", false}},
		{realworld, "GET /articles/feed", want{model.List, "Article", "articles", "", "", false}},
		{realworld, "POST /articles", want{model.Create, "Article", "article", "article", "", false}},
		{realworld, "GET /articles/{slug}", want{model.ReadOne, "Article", "article", "", "slug", false}},
		{realworld, "PUT /articles/{slug}", want{model.Replace, "Article", "article", "article", "slug", false}},
		{realworld, "DELETE /articles/{slug}", want{model.Delete, "Article", "", "", "slug", false}},
		{realworld, "GET /articles/{slug}/comments", want{model.NestedList, "Comment", "comments", "", "", true}},
		{realworld, "POST /articles/{slug}/comments", want{model.NestedCreate, "Comment", "comment", "comment", "", true}},
		{realworld, "DELETE /articles/{slug}/comments/{id}", want{model.Delete, "Comment", "", "", "id", false}},
		{realworld, "POST /articles/{slug}/favorite", want{model.Action, "Article", "article", "", "slug", false}},
		{realworld, "GET /profiles/{username}", want{model.ReadOne, "Profile", "profile", "", "username", false}},
		{realworld, "POST /users", want{model.Create, "User", "user", "user", "", false}},
		{realworld, "POST /users/login", want{model.Login, "User", "user", "user", "", false}},
		{realworld, "GET /user", want{model.CurrentUser, "User", "user", "", "", false}},
		{realworld, "PUT /user", want{model.UpdateMe, "User", "user", "user", "", false}},
		{realworld, "GET /tags", want{model.Values, "Article", "tags", "", "", false}},
		{fullstack, "GET /api/v1/items/", want{model.List, "ItemPublic", "data", "", "", false}},
		{fullstack, "GET /api/v1/users/", want{model.List, "UserPublic", "data", "", "", false}},
		{fullstack, "DELETE /api/v1/items/{id}", want{model.Delete, "ItemPublic", "", "", "id", false}},
		{fullstack, "GET /api/v1/users/me", want{model.CurrentUser, "UserPublic", "", "", "", false}},
		{fullstack, "PATCH /api/v1/users/me", want{model.UpdateMe, "UserPublic", "", "", "", false}},
		{fullstack, "DELETE /api/v1/users/me", want{model.DeleteMe, "UserPublic", "", "", "", false}},
		{fullstack, "PATCH /api/v1/users/me/password", want{model.ChangePassword, "UserPublic", "", "", "", false}},
	} {
		t.Run(tc.op, func(t *testing.T) {
			t.Parallel()
			m := compileFile(t, tc.doc)
			var o *model.Operation
			for _, x := range m.Operations {
				if model.Named(tc.op, x.ID, x.Method, x.Path) {
					o = x
				}
			}
			if o == nil {
				t.Fatalf("no operation %s", tc.op)
			}
			coll := ""
			if o.Coll != nil {
				coll = o.Coll.Name
			}
			got := want{o.Kind, coll, o.Envelope, o.BodyWrap, o.IDParam, o.Scoped}
			if got != tc.want {
				t.Errorf("got %+v (%s), want %+v", got, o.Why, tc.want)
			}
		})
	}
}

// Records without an id are keyed by the field the path names (an
// Article by its slug, a Profile by its username), the account by its
// username; a list's query parameters that name no field exactly filter
// loosely (?tag= by an element of tagList, ?author= by the embedded
// author's username); the password change names its two members.
func TestRealDocumentsKeysAndFilters(t *testing.T) {
	t.Parallel()
	m := compileFile(t, realworld)
	for coll, key := range map[string]string{"Article": "slug", "Profile": "username", "User": "username", "Comment": "id"} {
		if c := m.Collection(coll); c == nil || c.ID.Name != key {
			t.Errorf("%s: key %v, want %s", coll, c, key)
		}
	}
	if m.Login != m.Collection("User") || m.Login.UserKey.Name != "username" {
		t.Errorf("login collection %v", m.Login)
	}
	if f := m.Collection("Article").Field("createdAt"); f.Stamp != "created" {
		t.Errorf("createdAt stamp %q", f.Stamp)
	}
	list := m.Operation("GetArticles")
	var loose []string
	for _, l := range list.Loose {
		loose = append(loose, l.Param+"→"+l.Field.Name)
	}
	if want := []string{"tag→tagList", "author→author"}; !slices.Equal(loose, want) {
		t.Errorf("loose filters %v, want %v", loose, want)
	}
	if want := []string{"slug", "title", "description", "tagList", "createdAt", "updatedAt", "favorited", "favoritesCount", "author"}; !slices.Equal(list.Project, want) {
		t.Errorf("list items %v, want the Article's fields but body: %v", list.Project, want)
	}
	if o := m.Operation("GetArticleComments"); o.Project != nil {
		t.Errorf("comments' items are the Comment schema, yet projected to %v", o.Project)
	}
	if len(list.Filters) != 0 {
		t.Errorf("filters %v: ?favorited= names a user, not the boolean favorited", list.Filters)
	}
	if len(list.ByActor) != 1 || list.ByActor[0].Param != "favorited" || list.ByActor[0].Field.Name != "favorited" {
		t.Errorf("by actor %v, want ?favorited= on the flag favorited", list.ByActor)
	}
	flags := func(c *model.Collection) (names []string) {
		for _, f := range c.Flags {
			names = append(names, f.Name)
		}
		for _, f := range c.FlagEmbeds {
			names = append(names, "embeds "+f.Name)
		}
		return names
	}
	if got := flags(m.Collection("Article")); !slices.Equal(got, []string{"favorited", "embeds author"}) {
		t.Errorf("Article's per-user flags %v", got)
	}
	if got := flags(m.Collection("Profile")); !slices.Equal(got, []string{"following"}) {
		t.Errorf("Profile's per-user flags %v", got)
	}
	if list.Paging.Skip != "offset" || list.Paging.Limit != "limit" {
		t.Errorf("paging %+v", list.Paging)
	}
	fs := compileFile(t, fullstack)
	if o := fs.Operation("users-update_password_me"); o.Passwords != [2]string{"current_password", "new_password"} {
		t.Errorf("passwords %v", o.Passwords)
	}
}

// Under the FastAPI profile, schemas without an id stay out of the
// collections (FastAPI's own answers for them are compared byte for
// byte), and so do the conventions read only for other documents.
func TestNaturalKeysNotUnderFastAPI(t *testing.T) {
	t.Parallel()
	m := compileFile(t, realworld, model.WithFramework(framework.FastAPI))
	if len(m.Collections) != 1 || m.Collections[0].Name != "Comment" {
		t.Errorf("collections %v, want only Comment", m.Collections)
	}
	for _, id := range []string{"GetArticle", "GetCurrentUser", "CreateArticleFavorite"} {
		if o := m.Operation(id); o.Kind != model.Example {
			t.Errorf("%s: %v, want example", id, o.Kind)
		}
	}
}

// Envelopes: an object holding one array of a collection's records
// beside count-like members is a list; one holding one record is that
// record; anything else beside the array is not an envelope.
func TestEnvelopes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, schema string
		kind         model.Kind
		envelope     string
	}{
		{"data and count", `{"type":"object","properties":{"data":{"type":"array","items":{"$ref":"#/components/schemas/Thing"}},"count":{"type":"integer"}}}`, model.List, "data"},
		{"items and total", `{"type":"object","properties":{"items":{"type":"array","items":{"$ref":"#/components/schemas/Thing"}},"total":{"type":"integer"}}}`, model.List, "items"},
		{"results, count, next, previous", `{"type":"object","properties":{"count":{"type":"integer"},"next":{"type":["string","null"]},"previous":{"anyOf":[{"type":"string"},{"type":"null"}]},"results":{"type":"array","items":{"$ref":"#/components/schemas/Thing"}}}}`, model.List, "results"},
		{"data and has_more", `{"type":"object","properties":{"data":{"type":"array","items":{"$ref":"#/components/schemas/Thing"}},"has_more":{"type":"boolean"}}}`, model.List, "data"},
		{"camelCase count", `{"type":"object","properties":{"things":{"type":"array","items":{"$ref":"#/components/schemas/Thing"}},"thingsCount":{"type":"integer"}}}`, model.List, "things"},
		{"one record", `{"type":"object","properties":{"thing":{"$ref":"#/components/schemas/Thing"}}}`, model.ReadOne, "thing"},
		{"array beside an object", `{"type":"object","properties":{"data":{"type":"array","items":{"$ref":"#/components/schemas/Thing"}},"meta":{"type":"object"}}}`, model.Example, ""},
		{"two arrays", `{"type":"object","properties":{"a":{"type":"array","items":{"$ref":"#/components/schemas/Thing"}},"b":{"type":"array","items":{"$ref":"#/components/schemas/Thing"}}}}`, model.Example, ""},
		{"record beside a count", `{"type":"object","properties":{"thing":{"$ref":"#/components/schemas/Thing"},"count":{"type":"integer"}}}`, model.Example, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path, params := "/things", ""
			if tc.kind == model.ReadOne {
				path, params = "/things/{id}", `"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],`
			}
			doc := `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{"` + path + `":{"get":{` + params +
				`"responses":{"200":{"description":"ok","content":{"application/json":{"schema":` + tc.schema + `}}}}}}},
"components":{"schemas":{"Thing":{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"}},"required":["id","name"]}}}}`
			sp, err := spec.Load([]byte(doc), "x.json")
			if err != nil {
				t.Fatal(err)
			}
			m, err := model.Compile(sp)
			if err != nil {
				t.Fatal(err)
			}
			o := m.Operations[0]
			if o.Kind != tc.kind || o.Envelope != tc.envelope {
				t.Errorf("kind %v envelope %q (%s), want %v %q", o.Kind, o.Envelope, o.Why, tc.kind, tc.envelope)
			}
		})
	}
}

// BenchmarkCompileInlineLists compiles a document of many schemas and
// many lists whose items are written inline: each inline item schema is
// matched against the schemas sharing its rarest property, once.
func BenchmarkCompileInlineLists(b *testing.B) {
	const n = 2000
	var doc strings.Builder
	doc.WriteString(`{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{`)
	for i := range n {
		if i > 0 {
			doc.WriteByte(',')
		}
		fmt.Fprintf(&doc, `"/p%d":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"array","items":{"type":"object","properties":{"a":{"type":"string"},"b%d":{"type":"string"}}}}}}}}}}`, i, i)
	}
	doc.WriteString(`},"components":{"schemas":{`)
	for i := range n {
		if i > 0 {
			doc.WriteByte(',')
		}
		fmt.Fprintf(&doc, `"S%d":{"type":"object","properties":{"id":{"type":"integer"},"a":{"type":"string"},"b%d":{"type":"string"},"c":{"type":"string"}}}`, i, i)
	}
	doc.WriteString(`}}}`)
	sp, err := spec.Load([]byte(doc.String()), "many.json")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		m, err := model.Compile(sp)
		if err != nil {
			b.Fatal(err)
		}
		if len(m.Collections) != n {
			b.Fatalf("%d collections, want %d", len(m.Collections), n)
		}
	}
}

// Outside FastAPI documents a form of a username and a password is a login
// only where it is the body's one form or on a login path: petstore's POST
// /user takes a User as JSON, XML or a form, and registers one. Under
// FastAPI's profile the rule is the OAuth2 password form's, as before.
func TestFormOfAUserIsNoLogin(t *testing.T) {
	m := compileFile(t, "../../testdata/corpus/documents/swagger-petstore-3/openapi.yaml")
	for _, o := range m.Operations {
		if o.Method == "POST" && o.Path == "/user" && o.Kind != model.Create {
			t.Errorf("POST /user: %s, want create", o.Kind)
		}
	}
	const doc = `{"openapi":"3.0.3","info":{"title":"t","version":"1"},
"paths":{"/token":{"post":{"requestBody":{"content":{"application/x-www-form-urlencoded":{"schema":{"type":"object",
  "properties":{"username":{"type":"string"},"password":{"type":"string"}}}}}},
  "responses":{"200":{"description":"OK","content":{"application/json":{"schema":{"type":"object","properties":{"access_token":{"type":"string"}}}}}}}}}}}`
	sp, err := spec.Load([]byte(doc), "token.json")
	if err != nil {
		t.Fatal(err)
	}
	tm, err := model.Compile(sp)
	if err != nil {
		t.Fatal(err)
	}
	if got := tm.Operations[0].Kind; got != model.Login {
		t.Errorf("POST /token, a form alone: %s, want login", got)
	}
}

// A schema whose id the mock cannot key records by (an object) is no
// collection: its operations are answered from their schemas, the start-up
// block says why, and only a strict model refuses the document (ogen's
// sample).
func TestOddIDIsNoCollection(t *testing.T) {
	const doc = `{"openapi":"3.0.3","info":{"title":"t","version":"1"},
"paths":{"/data":{"get":{"responses":{"200":{"description":"OK","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/Data"}}}}}}}}},
"components":{"schemas":{"Data":{"type":"object","required":["id"],"properties":{"id":{"type":"object","properties":{"a":{"type":"string"}}}}}}}}`
	sp, err := spec.Load([]byte(doc), "odd.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Compile(sp)
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	if m.Collection("Data") != nil {
		t.Error("Data is a collection")
	}
	if d := m.Degraded(); len(d) != 1 || !strings.Contains(d[0], "schema Data: not served as a collection (its id is neither an integer nor a string)") {
		t.Errorf("Degraded = %q", d)
	}
	if _, err := model.Compile(sp, model.WithStrict(true)); err == nil || !strings.Contains(err.Error(), "its id is neither an integer nor a string") {
		t.Errorf("strict Compile = %v, want the refusal", err)
	}
}
