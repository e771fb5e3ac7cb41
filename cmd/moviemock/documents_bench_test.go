package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/moviemock/moviemock/mock"
)

// BenchmarkDocumentLoad times what serve builds from each public document
// of testdata/corpus/documents before it listens (the document loaded and
// compiled, its data and scenarios, the mock), and reports the heap the
// built mock holds (heap-B: live bytes after a collection with the mock
// kept, less those before). A document serve refuses, or panics on, is
// skipped with why; internal/corpus's TestDocuments says the same of each.
//
//	go test ./cmd/moviemock -run '^$' -bench DocumentLoad -benchtime 3x
func BenchmarkDocumentLoad(b *testing.B) {
	dirs, err := filepath.Glob(filepath.Join("..", "..", "testdata", "corpus", "documents", "*", "SOURCE.md"))
	if err != nil || len(dirs) == 0 {
		b.Fatalf("no documents (%v)", err)
	}
	for _, src := range dirs {
		dir := filepath.Dir(src)
		entries, err := os.ReadDir(dir)
		if err != nil {
			b.Fatal(err)
		}
		var doc string
		for _, e := range entries {
			if e.Name() != "SOURCE.md" && e.Name() != "LICENSE" {
				doc = filepath.Join(dir, e.Name())
			}
		}
		b.Run(filepath.Base(dir), func(b *testing.B) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			srv, err := buildServed(doc)
			if err != nil {
				b.Skip(err)
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			runtime.KeepAlive(srv)
			for b.Loop() {
				if _, err := buildServed(doc); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)), "heap-B")
		})
	}
}

// buildServed builds the mock serve --spec doc serves with no other flag;
// a panic is an error.
func buildServed(doc string) (srv *mock.Server, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	m, err := loadModel(context.Background(), "serve", doc, 0, io.Discard)
	if err != nil {
		return nil, err
	}
	files := &sources{model: m, gen: &generateOpts{counts: countFlag{}}} // no --generate
	data, _, set, err := files.load()
	if err != nil {
		return nil, err
	}
	return mock.New(mock.Config{Spec: m.Spec, Model: m, Data: data, Scenarios: set})
}
