package fake

import (
	"regexp"
	"testing"
	"time"

	"github.com/brianvoe/gofakeit/v7"

	"github.com/moviemock/moviemock/internal/spec"
)

const clockDoc = `{
  "openapi": "3.1.0",
  "info": {"title": "clock", "version": "1"},
  "paths": {},
  "components": {"schemas": {
    "Clock": {
      "type": "object", "required": ["at"],
      "properties": {"at": {"type": "string", "format": "time"}}
    }
  }}
}`

// TestTimes: a value of format "time" is written as the Times option
// says, pydantic's naive time by default.
func TestTimes(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(clockDoc), "clock.json")
	if err != nil {
		t.Fatal(err)
	}
	rfc3339 := func(t time.Time) string { return t.UTC().Format("15:04:05Z07:00") }
	tests := []struct {
		name string
		g    *Generator
		want *regexp.Regexp
	}{
		{"pydantic", New(sp), regexp.MustCompile(`^\{"at":"\d\d:\d\d:\d\d"\}$`)},
		{"option", New(sp, Times(rfc3339)), regexp.MustCompile(`^\{"at":"\d\d:\d\d:\d\dZ"\}$`)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for seed := uint64(1); seed <= 20; seed++ {
				b := tc.g.Append(nil, gofakeit.New(seed), "", sp.Doc.Components.Schemas["Clock"])
				if !tc.want.Match(b) {
					t.Fatalf("%s, want %s", b, tc.want)
				}
			}
		})
	}
}
