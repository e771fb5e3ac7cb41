package mock_test

import (
	"strings"
	"testing"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/model"
)

// A flag a fixture file holds (favorited: true) is what every reader sees
// until that reader acts on it: a reader's undo clears it for that reader
// only, and moves the count from the fixture's.
func TestActionFlagFromFixtureKept(t *testing.T) {
	t.Parallel()
	var slug string
	srv := contractServer(t, "../testdata/corpus/documents/realworld/openapi.yml", func(m *model.Model) *fixtures.Dataset {
		d, err := fixtures.Generate(m, fixtures.GenerateOptions{Seed: 3, Default: 3})
		if err != nil {
			t.Fatal(err)
		}
		arts := m.Lookup("Article")
		if arts == nil {
			t.Fatalf("no Article collection among %s", strings.Join(m.Files(), ", "))
		}
		tab := d.Table(arts)
		vals := tab.Recs[0].Vals(arts)
		vals[arts.Field("favorited").Index] = []byte("true")
		vals[arts.Field("favoritesCount").Index] = []byte("5")
		tab.Recs[0] = fixtures.Build(arts, vals, nil, tab.Recs[0].Secret, nil)
		slug = tab.Recs[0].Str(arts.Field("slug"))
		return d
	}, nil)
	call, tokens := realWorldUsers(t, srv)
	art := "/articles/" + slug
	for _, s := range []struct {
		method, target, token string
		want                  map[string]any
	}{
		{"GET", art, "", map[string]any{"article.favorited": true, "article.favoritesCount": 5}},
		{"GET", art, tokens["alice"], map[string]any{"article.favorited": true}},
		{"POST", art + "/favorite", tokens["alice"], map[string]any{"article.favorited": true, "article.favoritesCount": 5}},
		{"DELETE", art + "/favorite", tokens["alice"], map[string]any{"article.favorited": false, "article.favoritesCount": 4}},
		{"GET", art, tokens["alice"], map[string]any{"article.favorited": false, "article.favoritesCount": 4}},
		{"GET", art, tokens["bob"], map[string]any{"article.favorited": true, "article.favoritesCount": 4}},
		{"POST", art + "/favorite", tokens["alice"], map[string]any{"article.favorited": true, "article.favoritesCount": 5}},
	} {
		got := call(s.method, s.target, "", s.token)
		for path, want := range s.want {
			v, _ := pick(got, path)
			if f, ok := v.(float64); ok {
				v = int(f)
			}
			if v != want {
				t.Errorf("%s %s: %s is %v, want %v", s.method, s.target, path, v, want)
			}
		}
	}
}
