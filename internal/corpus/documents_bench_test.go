package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
	"github.com/moviemock/moviemock/scenarios"
)

// BenchmarkDocumentLoad times what `moviemock serve --spec` does with each
// corpus document before it listens (load, compile, the default data, the
// shipped scenarios, the mock), in process, and reports the heap the
// built mock holds (heap-B: live bytes after a collection, the mock kept,
// less those before). A document serve refuses or panics on is skipped
// with why.
//
//	go test ./internal/corpus -run '^$' -bench DocumentLoad -benchtime 5x
func BenchmarkDocumentLoad(b *testing.B) {
	root := filepath.Join(moduleRoot(b), "testdata", "corpus", "documents")
	sources, err := filepath.Glob(filepath.Join(root, "*", "SOURCE.md"))
	if err != nil || len(sources) == 0 {
		b.Fatalf("no documents under %s (%v)", root, err)
	}
	for _, src := range sources {
		d, err := openDocument(filepath.Dir(src))
		if err != nil {
			b.Fatal(err)
		}
		data, err := os.ReadFile(d.path)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(d.name, func(b *testing.B) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			srv, err := buildMock(data, filepath.Base(d.path))
			if err != nil {
				b.Skip(err)
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			runtime.KeepAlive(srv)
			for b.Loop() {
				if _, err := buildMock(data, filepath.Base(d.path)); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)), "heap-B")
		})
	}
}

// buildMock builds the mock of a document as serve does with no flags; a
// panic is an error.
func buildMock(data []byte, source string) (srv *mock.Server, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	sp, err := spec.LoadLimited(data, source, spec.Limits{})
	if err != nil {
		return nil, err
	}
	m, err := model.Compile(sp)
	if err != nil {
		return nil, err
	}
	ds, err := fixtures.LoadDefault(m)
	if err != nil {
		return nil, err
	}
	set, err := scenarios.Load(sp, ds, scenarios.ShippedFor(sp))
	if err != nil {
		return nil, err
	}
	return mock.New(mock.Config{Spec: sp, Model: m, Data: ds, Scenarios: set})
}
