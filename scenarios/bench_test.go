package scenarios_test

import (
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/moviemock/moviemock/mock"
)

// The cost of a scripted answer through the whole handler: the rule
// matched in a session's state machine, the answer written, the request
// journaled.
func BenchmarkScenarioAnswer(b *testing.B) {
	srv, err := mock.New(mock.Config{})
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct{ name, scenario, path string }{
		{"respond", "empty-catalog", "/reviews"},
		{"passthrough set", "sparse-person", "/person/1"},
		{"no rule matches", "empty-catalog", "/person/1"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				r := httptest.NewRequest("GET", tc.path, nil)
				r.Header.Set("X-Mock-Scenario", tc.scenario)
				r.Header.Set("X-Mock-Session", fmt.Sprint("s", i%100))
				w := httptest.NewRecorder()
				srv.ServeHTTP(w, r)
				if w.Code != 200 {
					b.Fatal(w.Code, w.Body)
				}
			}
		})
	}
}
