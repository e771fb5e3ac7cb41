package contract_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/reference"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// corpusService is an app of testdata/corpus/services/apps.json, as far as
// the benchmark needs it.
type corpusService struct {
	Name     string   `json:"name"`
	Module   string   `json:"module"`
	Dir      string   `json:"dir"`
	Env      []string `json:"env"`
	Args     []string `json:"args"`
	Requires []string `json:"requires"`
}

// largestService returns the corpus service whose document has the most
// operations, loaded.
func largestService(b *testing.B) (corpusService, *spec.Spec) {
	dir := filepath.Join("..", "testdata", "corpus", "services")
	data, err := os.ReadFile(filepath.Join(dir, "apps.json"))
	if err != nil {
		b.Fatal(err)
	}
	var man struct{ Apps []corpusService }
	if err := json.Unmarshal(data, &man); err != nil {
		b.Fatal(err)
	}
	var best corpusService
	var bestSpec *spec.Spec
	most := 0
	for _, app := range man.Apps {
		name := filepath.Join("openapi", app.Name+".json")
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			b.Fatal(err)
		}
		sp, err := spec.Load(data, name)
		if err != nil {
			b.Logf("%s: %v", app.Name, err)
			continue
		}
		n := 0
		for _, item := range sp.Doc.Paths.Map() {
			n += len(item.Operations())
		}
		if n > most {
			most, best, bestSpec = n, app, sp
		}
	}
	if bestSpec == nil {
		b.Fatal("no corpus service loads")
	}
	b.Logf("%s: %d operations", best.Name, most)
	best.Dir = filepath.Join(dir, best.Dir)
	return best, bestSpec
}

// BenchmarkCorpusService runs the whole suite against the corpus service
// with the most operations: against the real app (the runner and a Python
// backend), and against the mock of its document (the runner's own cost,
// nearly). It reports the cases each run sends:
//
//	go test ./contract -run '^$' -bench CorpusService -benchtime 5x
func BenchmarkCorpusService(b *testing.B) {
	app, sp := largestService(b)
	cfg := contract.Config{Spec: sp, Seed: 1, Examples: contract.DefaultExamples, Workers: contract.DefaultWorkers,
		Timeout: 30 * time.Second, MaxResponseTime: 30 * time.Second}
	for i := 0; i+1 < len(app.Args); i += 2 {
		switch app.Args[i] {
		case "--username":
			cfg.Username = app.Args[i+1]
		case "--password":
			cfg.Password = app.Args[i+1]
		}
	}
	bench := func(b *testing.B, base string) {
		cfg := cfg
		cfg.BaseURL = base
		benchSuite(b, cfg)
	}
	b.Run("app", func(b *testing.B) {
		backend := reference.StartApp(b, reference.App{Dir: app.Dir, Module: app.Module, Env: app.Env, Requires: app.Requires})
		bench(b, backend.URL)
	})
	b.Run("mock", func(b *testing.B) {
		// The mock knows the account the runner logs in with, as
		// serve --account would.
		srv, err := mock.New(mock.Config{Spec: sp, Accounts: []mock.Account{{Username: cfg.Username, Password: cfg.Password}}})
		if err != nil {
			b.Fatal(err)
		}
		ts := httptest.NewServer(srv)
		defer ts.Close()
		bench(b, ts.URL)
	})
}

// benchSuite runs the suite configured by cfg once per iteration and
// reports the cases each run sends.
func benchSuite(b *testing.B, cfg contract.Config) {
	var cases int
	for b.Loop() {
		report, err := contract.Run(context.Background(), cfg)
		if err != nil {
			b.Fatal(err)
		}
		cases = len(report.Results)
	}
	b.ReportMetric(float64(cases), "cases/op")
}
