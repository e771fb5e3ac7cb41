package contract_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// postsBackend is the posts part of a blog (the document of the corpus's
// fastapi_blog service): posts addressed by a slug made from the title, a
// replace re-slugs the post, posts with one title share a slug (the first
// is read, or deleted), pages of fastapi-pagination counted from
// firstPage.
type postsBackend struct {
	firstPage int
	mu        sync.Mutex
	next      int
	posts     []map[string]any
}

var nonSlug = regexp.MustCompile(`[^a-z0-9]+`)

func slugOf(title string) string {
	return strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(title), "-"), "-")
}

func (b *postsBackend) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	defer b.mu.Unlock()
	answer := func(status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(v)
	}
	invalid := func() {
		answer(422, map[string]any{"detail": []any{map[string]any{"type": "missing", "loc": []any{"body"}, "msg": "Field required", "input": nil}}})
	}
	notFound := func() { answer(404, map[string]any{"detail": "Post not found"}) }
	readPost := func() (map[string]any, bool) {
		var in map[string]any
		if r.Header.Get("Content-Type") != "application/json" || json.NewDecoder(r.Body).Decode(&in) != nil {
			invalid()
			return nil, false
		}
		for _, k := range []string{"title", "body", "summary"} {
			if s, ok := in[k].(string); !ok || s == "" && k == "title" {
				invalid()
				return nil, false
			}
		}
		return in, true
	}
	find := func(slug string) int {
		return slices.IndexFunc(b.posts, func(p map[string]any) bool { return p["slug"] == slug })
	}
	switch {
	case r.URL.Path == "/token" && r.Method == http.MethodPost:
		r.ParseForm()
		if r.PostForm.Get("username") != "leodoe" || r.PostForm.Get("password") != "leodoepass" {
			answer(401, map[string]any{"detail": "Incorrect username or password"})
			return
		}
		answer(200, map[string]any{"access_token": "t", "token_type": "bearer"})
	case r.URL.Path == "/posts" && r.Method == http.MethodGet:
		page, size := b.firstPage, 50
		if v := r.URL.Query().Get("page"); v != "" {
			page, _ = strconv.Atoi(v)
		}
		if v := r.URL.Query().Get("size"); v != "" {
			size, _ = strconv.Atoi(v)
		}
		if page < b.firstPage || size < 1 || size > 100 {
			invalid()
			return
		}
		items := []any{}
		for i := (page - b.firstPage) * size; i < len(b.posts) && i < (page-b.firstPage+1)*size; i++ {
			items = append(items, b.posts[i])
		}
		answer(200, map[string]any{"items": items, "total": len(b.posts), "page": page, "size": size})
	case r.URL.Path == "/posts" && r.Method == http.MethodPost:
		in, ok := readPost()
		if !ok {
			return
		}
		b.next++
		p := map[string]any{"title": in["title"], "body": in["body"], "summary": in["summary"], "id": b.next,
			"published_at": "2026-01-02T03:04:05", "slug": slugOf(in["title"].(string)), "author_id": "1"}
		b.posts = append(b.posts, p)
		answer(201, p)
	case strings.HasPrefix(r.URL.Path, "/posts/"):
		i := find(strings.TrimPrefix(r.URL.Path, "/posts/"))
		if i < 0 {
			notFound()
			return
		}
		switch r.Method {
		case http.MethodGet:
			answer(200, b.posts[i])
		case http.MethodPut:
			in, ok := readPost()
			if !ok {
				return
			}
			p := b.posts[i]
			p["title"], p["body"], p["summary"], p["slug"] = in["title"], in["body"], in["summary"], slugOf(in["title"].(string))
			answer(200, p)
		case http.MethodDelete:
			b.posts = slices.Delete(b.posts, i, i+1)
			w.WriteHeader(http.StatusNoContent)
		}
	default:
		answer(404, map[string]any{"detail": "Not Found"})
	}
}

// postsDoc is the fastapi_blog document, its posts and login only.
func postsDoc(t *testing.T) *spec.Spec {
	t.Helper()
	path := filepath.Join("..", "testdata", "corpus", "services", "openapi", "fastapi_blog.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	paths := doc["paths"].(map[string]any)
	for p := range paths {
		if p != "/posts" && p != "/posts/{slug}" && p != "/token" {
			delete(paths, p)
		}
	}
	data, _ = json.Marshal(doc)
	sp, err := spec.Load(data, path)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// TestRecordsAddressedBySlug: a record addressed by a key of its own is
// read, changed and deleted by that key (not its id), a replace that gives
// it a new key (the slug of the new title) moves it, pages counted from 0
// are read as such, and records listed before any write are read before
// the runner's own writes (a delete of another record with the same slug
// would take the listed one).
func TestRecordsAddressedBySlug(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		firstPage int
		seeded    bool
	}{
		{name: "pages from 0", firstPage: 0},
		{name: "pages from 0, a post listed", firstPage: 0, seeded: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := &postsBackend{firstPage: tc.firstPage}
			if tc.seeded {
				// The runner's own posts get the same title (and so the
				// same slug) as this one when its valid values match.
				b.next = 1
				b.posts = []map[string]any{{"title": "Consistent eye being the foundation of loneliness", "body": "b", "summary": "s",
					"id": 1, "published_at": "2026-01-02T03:04:05", "slug": "consistent-eye-being-the-foundation-of-loneliness", "author_id": "1"}}
			}
			report := run(t, b, contract.Config{Spec: postsDoc(t), Username: "leodoe", Password: "leodoepass", Examples: 2,
				Checks: []string{"not_a_server_error", "positive_data_acceptance", "stateful_create_read", "stateful_update", "paging_and_filters"}})
			got := tallies(report)
			if f := failed(report); len(f) > 0 {
				t.Errorf("failures:\n%s", strings.Join(f, "\n"))
			}
			for _, name := range []string{"stateful_create_read", "stateful_update", "paging_and_filters"} {
				if got[name][0] == 0 {
					t.Errorf("%s never passed: %v\n%q", name, got[name], report.Notes)
				}
			}
			var slugged bool
			for _, res := range report.Results {
				if res.Case.Path == "/posts/{slug}" && res.Response.Status == 200 && !strings.HasSuffix(res.Case.Request.URL, "/posts/1") {
					slugged = true
				}
			}
			if !slugged {
				t.Error("no post was read by its slug")
			}
			firstListed, firstWrite := -1, -1
			for i, res := range report.Results {
				if firstListed < 0 && strings.Contains(res.Case.Name, "(listed by ") {
					firstListed = i
				}
				if firstWrite < 0 && res.Case.Method != http.MethodGet && !strings.HasPrefix(res.Case.Path, "/token") {
					firstWrite = i
				}
			}
			if tc.seeded && (firstListed < 0 || firstListed > firstWrite) {
				t.Errorf("the listed post is read at case %d, after the first write (case %d)", firstListed, firstWrite)
			}
		})
	}
}

// TestLookupWithNothingToLookUp: a read whose only inputs are optional
// query parameters selecting the record (GET /users/user?username=…) may
// answer the 404 it declares when none is given; a note says so. Without
// a declared 404 it is a failure.
func TestLookupWithNothingToLookUp(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		declared bool
	}{
		{name: "404 declared", declared: true},
		{name: "404 undeclared"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join("..", "testdata", "corpus", "services", "openapi", "fastapi_blog.json")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			json.Unmarshal(data, &doc)
			paths := doc["paths"].(map[string]any)
			for p := range paths {
				if p != "/users/user" {
					delete(paths, p)
				}
			}
			get := paths["/users/user"].(map[string]any)["get"].(map[string]any)
			delete(get, "security")
			if !tc.declared {
				delete(get["responses"].(map[string]any), "404")
			}
			data, _ = json.Marshal(doc)
			sp, err := spec.Load(data, path)
			if err != nil {
				t.Fatal(err)
			}
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				q := r.URL.Query()
				if r.URL.Path != "/users/user" {
					w.WriteHeader(404)
					w.Write([]byte(`{"detail":"Not Found"}`))
					return
				}
				if !q.Has("username") && !q.Has("user_id") {
					w.WriteHeader(404)
					w.Write([]byte(`{"detail":"User not found"}`))
					return
				}
				if v := q.Get("user_id"); v != "" {
					if _, err := strconv.Atoi(v); err != nil {
						w.WriteHeader(422)
						w.Write([]byte(`{"detail":[{"type":"int_parsing","loc":["query","user_id"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"x"}]}`))
						return
					}
				}
				w.Write([]byte(`{"username":"leodoe","profile":"p","email":"leodoe@test.org","disabled":false}`))
			})
			report := run(t, h, contract.Config{Spec: sp, Examples: 3, Checks: []string{"positive_data_acceptance", "status_code_conformance"}})
			f := failed(report)
			if tc.declared && len(f) > 0 {
				t.Errorf("failures:\n%s", strings.Join(f, "\n"))
			}
			if !tc.declared && len(f) == 0 {
				t.Error("an undeclared 404 passes")
			}
			if note := hasNote(report, "none of them given"); note != tc.declared {
				t.Errorf("note: %v, want %v: %q", note, tc.declared, report.Notes)
			}
		})
	}
}

// TestWritesKeepTheKeyTheyAddress runs the suite against the mock of the
// corpus's blog, whose PUT /users/{username} takes a body with a username:
// a positive case that sent another one would rename the user, and every
// later case would address one that is gone (404).
func TestWritesKeepTheKeyTheyAddress(t *testing.T) {
	t.Parallel()
	sp := docAt(t, "services", "openapi", "fastapi_blog.json")
	srv, err := mock.New(mock.Config{Spec: sp, Accounts: []mock.Account{{Username: "leodoe", Password: "leodoepass"}}})
	if err != nil {
		t.Fatal(err)
	}
	report := run(t, srv, contract.Config{Spec: sp, Username: "leodoe", Password: "leodoepass", Examples: contract.DefaultExamples})
	for _, tally := range report.ByCheck() {
		if tally.Failed > 0 {
			t.Errorf("%s: %d failed", tally.Name, tally.Failed)
		}
	}
	ran := false
	for _, r := range report.Results {
		if r.Case.Method == "PUT" && strings.HasPrefix(r.Case.Path, "/users/{") && r.Case.Kind == contract.Positive {
			ran = true
		}
	}
	if !ran {
		t.Error("no positive PUT /users/{username} ran")
	}
}
