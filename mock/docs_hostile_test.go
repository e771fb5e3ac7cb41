package mock_test

import (
	"strings"
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// A contract other than the embedded one may be hostile: /redoc renders it
// in ReDoc's untrusted-spec mode, and no page's <title> lets its title
// open a tag. The embedded contract's pages stay FastAPI's (TestDocsPages).
func TestDocsHostileContract(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi": "3.1.0", "info": {"title": "A & B</title><script>alert(1)</script>", "version": "1"},
  "paths": {"/items": {"get": {"responses": {"200": {"description": "OK"}}}}}}`
	sp, err := spec.Load([]byte(doc), "hostile.json")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, mock.Config{Spec: sp})
	for _, tc := range []struct {
		path string
		want []string
	}{
		{"/redoc", []string{`<redoc spec-url="/openapi.json" untrusted-spec></redoc>`, "<title>A & B&lt;/title>&lt;script>alert(1)&lt;/script> - ReDoc</title>"}},
		{"/docs", []string{"<title>A & B&lt;/title>&lt;script>alert(1)&lt;/script> - Swagger UI</title>"}},
	} {
		rec := serve(srv, request{target: tc.path})
		for _, want := range tc.want {
			if !strings.Contains(rec.Body.String(), want) {
				t.Errorf("%s: no %q in\n%s", tc.path, want, rec.Body.String())
			}
		}
		if strings.Contains(rec.Body.String(), "<script>alert") {
			t.Errorf("%s: the title's <script> is markup", tc.path)
		}
	}
	if body := serve(newServer(t, mock.Config{}), request{target: "/redoc"}).Body.String(); strings.Contains(body, "untrusted-spec") {
		t.Errorf("/redoc of the embedded contract: untrusted-spec, unlike FastAPI's page")
	}
}
