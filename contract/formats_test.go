package contract_test

import (
	"os"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// The runner sends values pydantic accepts for the string formats it
// validates (HttpUrl, date, timedelta in required query parameters; a set,
// an HttpUrl, a timedelta and base64 bytes in a body), predicts FastAPI's
// 422 for the others, and the mock agrees with it. The document is the
// one testdata/formats_app.py serves; against that app under uvicorn the
// runner passes as well.
func TestFormattedInputs(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/formats_openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(data, "formats_openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: sp})
	if err != nil {
		t.Fatal(err)
	}
	report := run(t, srv, contract.Config{Spec: sp, Examples: 30})
	if f := failed(report); len(f) > 0 {
		t.Errorf("%d failures on a correct server:\n%s", len(f), strings.Join(f, "\n"))
	}
	for _, n := range report.Notes {
		if strings.Contains(n, "no positive case") || strings.Contains(n, "not tested") {
			t.Errorf("note: %s", n)
		}
	}
	positives := map[string]int{}
	negatives := map[string]bool{}
	for _, res := range report.Results {
		switch res.Case.Kind {
		case contract.Positive:
			positives[res.Case.Operation]++
		case contract.Negative:
			negatives[strings.SplitN(res.Case.Name, "=", 2)[0]] = true
		}
	}
	if len(positives) != 2 {
		t.Errorf("positive cases per operation: %v, want both operations", positives)
	}
	for _, name := range []string{"u", "d", "du"} {
		if !negatives[name] {
			t.Errorf("no negative case for the formatted parameter %s: %v", name, negatives)
		}
	}
}

// response_schema_conformance accepts a date-time as pydantic writes any
// datetime: with an offset, or without one for a naive datetime
// ("2024-08-13T10:00:00", which FastAPI sends for datetime(2024, 8, 13, 10)).
func TestNaiveDateTimeConforms(t *testing.T) {
	t.Parallel()
	sp := fastapiDoc(t)
	op := sp.Doc.Paths.Value("/reviews/{review_id}").Get
	for _, tc := range []struct {
		created string
		ok      bool
	}{
		{"2024-08-13T10:00:00Z", true},
		{"2024-08-13T10:00:00.123456+02:00", true},
		{"2024-08-13T10:00:00", true},
		{"2024-08-13T10:00:00.400000", true},
		{"2024-08-13 10:00:00", false},
		{"2024-08-13", false},
		{"2024-02-30T10:00:00", false},
	} {
		t.Run(tc.created, func(t *testing.T) {
			t.Parallel()
			body := `{"id":"r1","movie_id":"m1","author_id":1,"content":"c","created_at":"` + tc.created + `","updated_at":"2024-08-13T10:00:00Z","reactions":{}}`
			declared, err := contract.BodyConforms(sp, op, 200, "application/json", []byte(body))
			if !declared || (err == nil) != tc.ok {
				t.Errorf("BodyConforms = %v, %v; want ok %v", declared, err, tc.ok)
			}
		})
	}
}
