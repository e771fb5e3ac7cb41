package contract_test

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// BenchmarkDocumentOnMock runs the default suite, as `moviemock contract`
// runs it, against the mock of public documents of other frameworks than
// FastAPI (a hand-written one with an API key, Spotify's 97 operations,
// Harbor's Swagger 2.0 of 203), given a token as a user gives the one
// their backend issued; it reports the cases each run sends:
//
//	go test ./contract -run '^$' -bench DocumentOnMock -benchtime 3x
func BenchmarkDocumentOnMock(b *testing.B) {
	for _, doc := range []string{"realworld/openapi.yml", "spotify/fixed-spotify-open-api.yml", "goharbor-v2/swagger.yaml"} {
		b.Run(filepath.Dir(doc), func(b *testing.B) {
			path := filepath.Join("../testdata/corpus/documents", doc)
			raw, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			sp, err := spec.LoadFile(raw, path, spec.Limits{})
			if err != nil {
				b.Fatal(err)
			}
			srv, err := mock.New(mock.Config{Spec: sp})
			if err != nil {
				b.Fatal(err)
			}
			ts := httptest.NewServer(srv)
			defer ts.Close()
			cfg := contract.Config{Spec: sp, BaseURL: ts.URL, Seed: 1, Examples: contract.DefaultExamples, Workers: contract.DefaultWorkers,
				Timeout: 30 * time.Second, MaxResponseTime: 30 * time.Second, Token: "benchmark-token"}
			benchSuite(b, cfg)
		})
	}
}
