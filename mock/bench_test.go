package mock_test

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/mock"
)

// discard is a ResponseWriter that keeps nothing, so benchmarks measure the
// handler and not a recorder's buffer.
type discard struct{ h http.Header }

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(b []byte) (int, error) { return len(b), nil }
func (d *discard) WriteHeader(int)             {}

func benchHandler(b *testing.B, srv http.Handler, newReq func() *http.Request) {
	b.ReportAllocs()
	w := &discard{h: http.Header{}}
	for b.Loop() {
		clear(w.h)
		srv.ServeHTTP(w, newReq())
	}
}

// BenchmarkEndpoints drives each endpoint through the full handler
// (routing, validation, rendering; no logging).
func BenchmarkEndpoints(b *testing.B) {
	srv := newServer(b, mock.Config{})
	get := func(target string) func() *http.Request {
		r := httptest.NewRequest("GET", target, nil)
		return func() *http.Request { return r }
	}
	b.Run("GET /person/{id}", func(b *testing.B) { benchHandler(b, srv, get("/person/1")) })
	b.Run("GET /person/{id} 422", func(b *testing.B) { benchHandler(b, srv, get("/person/abc")) })
	b.Run("GET /reviews/{id}", func(b *testing.B) { benchHandler(b, srv, get("/reviews/b42bfd96-9925-4da9-8c96-eed6b998b81f")) })
	b.Run("GET /reviews", func(b *testing.B) { benchHandler(b, srv, get("/reviews")) })
	b.Run("POST /auth/login", func(b *testing.B) {
		benchHandler(b, srv, func() *http.Request {
			r := httptest.NewRequest("POST", "/auth/login", strings.NewReader("username=alice&password=wonderland"))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			return r
		})
	})
	b.Run("POST /auth/login 422", func(b *testing.B) {
		benchHandler(b, srv, func() *http.Request {
			r := httptest.NewRequest("POST", "/auth/login", strings.NewReader("grant_type=x"))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			return r
		})
	})
}

// BenchmarkMillionReviews generates 1,000,000 reviews (with 10,000 persons
// and 1,000 users), writes them as a fixture directory, loads it back
// (every record validated), and serves single reads and the streamed list
// from it. It reports the heap the loaded data set holds per review:
//
//	go test ./mock -run '^$' -bench MillionReviews -benchtime 3x
func BenchmarkMillionReviews(b *testing.B) {
	if testing.Short() {
		b.Skip("-short")
	}
	m, err := model.Embedded()
	if err != nil {
		b.Fatal(err)
	}
	opts := fixtures.GenerateOptions{Seed: 1, Counts: map[string]int{"persons": 10_000, "users": 1_000, "reviews": 1_000_000}}
	const reviewCount = 1_000_000
	b.Run("generate", func(b *testing.B) {
		for b.Loop() {
			if _, err := fixtures.Generate(m, opts); err != nil {
				b.Fatal(err)
			}
		}
	})
	dir := b.TempDir()
	func() { // the generated set is garbage before the load starts
		d, err := fixtures.Generate(m, opts)
		if err != nil {
			b.Fatal(err)
		}
		if err := fixtures.WriteDir(d, dir); err != nil {
			b.Fatal(err)
		}
	}()
	var d *fixtures.Dataset
	b.Run("load", func(b *testing.B) {
		for b.Loop() {
			d = nil
			var err error
			if d, err = fixtures.LoadDir(dir, m); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		b.ReportMetric(float64(heapHeld(func() { d = nil }))/float64(reviewCount), "heap-B/review")
	})
	if d == nil {
		var err error
		if d, err = fixtures.LoadDir(dir, m); err != nil {
			b.Fatal(err)
		}
	}
	srv := newServer(b, mock.Config{Data: d})
	reviews := d.Model.Collection("Review")
	recs := d.Table(reviews).Recs
	last := recs[len(recs)-1].Str(reviews.ID)
	b.Run("GET /reviews/{id}", func(b *testing.B) {
		r := httptest.NewRequest("GET", "/reviews/"+last, nil)
		benchHandler(b, srv, func() *http.Request { return r })
	})
	b.Run("GET /reviews", func(b *testing.B) {
		r := httptest.NewRequest("GET", "/reviews", nil)
		benchHandler(b, srv, func() *http.Request { return r })
	})
}

// heapHeld is how much live heap drop releases.
func heapHeld(drop func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	drop()
	runtime.GC()
	runtime.ReadMemStats(&after)
	return before.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc)
}
