package contract_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/spec"
)

// zeros is a JSON list of n zeros: what a gzip bomb of a few kilobytes
// decodes to, at test scale.
func zeros(n int) []byte {
	return []byte("[" + strings.Repeat("0,", n-1) + "0]")
}

// A body past MaxCheckValues is not read by the checks on bodies: they do
// not apply, and the report says why; under the budget the same body is
// judged.
func TestCheckValueBudget(t *testing.T) {
	t.Parallel()
	body := zeros(2000)
	for _, tc := range []struct {
		name       string
		max        int
		judged     bool
		noteHas    string
		uncheckHas string
	}{
		{"under the budget", 0, true, "", ""},
		{"past the budget", 1000, false, "1 responses too large for the checks on bodies", "more than 1000 JSON values (--max-check-values)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o, err := contract.NewObserver(contract.Config{Now: func() time.Time { return observeNow }, BaseURL: "http://upstream.test", MaxCheckValues: tc.max})
			if err != nil {
				t.Fatal(err)
			}
			ex := exchange{method: "GET", template: "/reviews", url: "/reviews", status: 200, body: body}
			res := o.Check(ex.build())
			judged := slices.ContainsFunc(res.Checks, func(c contract.CheckResult) bool { return c.Check == "response_schema_conformance" })
			if judged != tc.judged {
				t.Errorf("response_schema_conformance applied: %v, want %v (%+v)", judged, tc.judged, res.Checks)
			}
			if !strings.Contains(res.Response.Unchecked, tc.uncheckHas) || (tc.uncheckHas == "") != (res.Response.Unchecked == "") {
				t.Errorf("Unchecked %q, want it to hold %q", res.Response.Unchecked, tc.uncheckHas)
			}
			notes := strings.Join(o.Report().Notes, "\n")
			if tc.noteHas != "" && !strings.Contains(notes, tc.noteHas) {
				t.Errorf("notes %q lack %q", notes, tc.noteHas)
			}
		})
	}
}

// The schema check of a long list of wrong items keeps the first violation,
// not one per item (kin-openapi's MultiErrors would hold millions for a
// 15 MiB list), and says it stopped there; a short one lists them all.
func TestSchemaViolationsBounded(t *testing.T) {
	sp, err := spec.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	op := sp.Doc.Paths.Find("/reviews").Get
	for _, tc := range []struct {
		name      string
		items     int
		has       string
		maxAllocs float64
	}{
		{"short list", 10, "and 5 more", 0},
		{"long list", 50_000, "the first violation: a body of more than", 5_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := zeros(tc.items)
			var err error
			allocs := testing.AllocsPerRun(1, func() {
				_, err = contract.BodyConforms(sp, op, http.StatusOK, "application/json", body)
			})
			if err == nil {
				t.Fatal("a list of zeros conforms to a list of reviews")
			}
			if got := contract.DescribeSchemaError(err); !strings.Contains(got, tc.has) {
				t.Errorf("described as %q, want %q in it", got, tc.has)
			}
			if tc.maxAllocs > 0 && allocs > tc.maxAllocs {
				t.Errorf("%.0f allocations to check %d items, more than %.0f", allocs, tc.items, tc.maxAllocs)
			}
		})
	}
}
