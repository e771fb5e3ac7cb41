package mock_test

import (
	"net/http/httptest"
	"testing"

	"github.com/moviemock/moviemock/internal/reference"
	"github.com/moviemock/moviemock/mock"
)

// TestReadAllocations holds a read of a record to the allocations it makes
// once the route and the journal are warm, the journal on as serve runs
// it. Each allocation costs a read a few hundred instructions and, more,
// garbage to collect; docs/performance.md says where they went. An
// allocation added on this path fails it: remove it, or raise the bound
// here and say why there.
func TestReadAllocations(t *testing.T) {
	if reference.RaceEnabled {
		t.Skip("the race detector changes what allocates: sync.Pool drops what it is given at random")
	}
	srv := newServer(t, mock.Config{})
	for _, c := range []struct {
		target string
		status int
		max    float64
	}{
		{"/person/1", 200, 16},
		{"/reviews/b42bfd96-9925-4da9-8c96-eed6b998b81f", 200, 18},
	} {
		req := httptest.NewRequest("GET", c.target, nil)
		req.Header.Set("Accept", "application/json")
		serve := func() {
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, req)
			if rec.Code != c.status {
				t.Fatalf("GET %s: %d %s", c.target, rec.Code, rec.Body)
			}
		}
		serve() // the route cache learns the path
		got := testing.AllocsPerRun(200, serve)
		t.Logf("GET %s: %.0f allocations (at most %.0f)", c.target, got, c.max)
		if got > c.max {
			t.Errorf("GET %s makes %.0f allocations a read, more than %.0f", c.target, got, c.max)
		}
	}
}
