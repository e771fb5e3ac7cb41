package mock_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// movies2Mock serves testdata/contracts/movies2 with its fixtures.
func movies2Mock(t *testing.T) http.Handler {
	t.Helper()
	dir := filepath.Join("..", "testdata", "contracts", "movies2")
	data, err := os.ReadFile(filepath.Join(dir, "openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(data, "movies2/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Compile(sp)
	if err != nil {
		t.Fatal(err)
	}
	d, err := fixtures.LoadDir(filepath.Join(dir, "fixtures"), m)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: sp, Model: m, Data: d})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// The answers of internal/reference/app/movies2.py (FastAPI 0.141.1), run
// for real, to the requests where a contract-driven mock can go wrong: a
// client-chosen id kept, a taken one refused, a Unicode digit matching \d,
// an explicit null into a field that cannot hold it ignored, an action
// (POST /reviews/{review_id}/reactions) answering the record it acts on.
func TestMovies2LikeFastAPI(t *testing.T) {
	t.Parallel()
	h := movies2Mock(t)
	do := func(method, path, body, auth string) (int, string) {
		t.Helper()
		r := httptest.NewRequest(method, path, strings.NewReader(body))
		switch {
		case strings.HasPrefix(body, "{"):
			r.Header.Set("Content-Type", "application/json")
		case body != "":
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		if auth != "" {
			r.Header.Set("Authorization", auth)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code, w.Body.String()
	}
	_, tok := do("POST", "/auth/login", url.Values{"username": {"alice"}, "password": {"wonderland"}}.Encode(), "")
	i := strings.Index(tok, `"access_token":"`)
	if i < 0 {
		t.Fatalf("login: %s", tok)
	}
	tok = tok[i+len(`"access_token":"`):]
	auth := "Bearer " + tok[:strings.IndexByte(tok, '"')]

	steps := []struct {
		name, method, path, body string
		status                   int
		has                      string // a piece of the answer
	}{
		{"create keeps the client's id", "POST", "/movies", `{"id":"tt9900001","title":"X","year":2001}`, 201, `"id":"tt9900001"`},
		{"the id reads back", "GET", "/movies/tt9900001", "", 200, `"title":"X"`},
		{"a taken id is a conflict", "POST", "/movies", `{"id":"tt9900001","title":"X","year":2001}`, 409, `{"detail":"Movie already exists"}`},
		{"unicode digits match \\d", "GET", "/movies/tt%D9%A1%D9%A2%D9%A3%D9%A4%D9%A5%D9%A6%D9%A7", "", 404, `{"detail":"Movie not found"}`},
		{"too few digits do not", "GET", "/movies/tt00", "", 422, `"string_pattern_mismatch"`},
		{"a null title is not stored", "PATCH", "/movies/tt9900001", `{"title":null,"year":2002}`, 200, `"title":"X","year":2002`},
		{"nor served later", "GET", "/movies/tt9900001", "", 200, `"title":"X"`},
		{"an action answers the record its path names", "POST", "/reviews/2/reactions", `{"kind":"like"}`, 200, `{"id":2,"movie_id":"tt0111161"`},
		{"an action on no record is a 404", "POST", "/reviews/999/reactions", `{"kind":"like"}`, 404, `{"detail":"Review not found"}`},
	}
	for _, s := range steps {
		a := ""
		if s.method != "GET" {
			a = auth
		}
		code, body := do(s.method, s.path, s.body, a)
		if code != s.status || !strings.Contains(body, s.has) {
			t.Errorf("%s: %s %s = %d %s, want %d with %s", s.name, s.method, s.path, code, body, s.status, s.has)
		}
	}
}
