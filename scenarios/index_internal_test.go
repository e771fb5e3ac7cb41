package scenarios

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
)

// The scenarios find a request's path as the mock routes it: a concrete
// path before its templated counterpart under the plain-OpenAPI profile,
// the first declared under FastAPI's.
func TestIndexRouteOrder(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("..", "mock", "testdata", "openapi", "literal-vs-template.yaml"))
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
		x, err := newIndex(sp, m)
		if err != nil {
			t.Fatal(err)
		}
		if p := x.matchPath("/numbers/Local.json"); p == nil || p.template != tc.want {
			t.Errorf("%s: /numbers/Local.json falls under %v, want %s", tc.profile, p, tc.want)
		}
	}
}
