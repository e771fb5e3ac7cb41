package contract_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
)

// TestProbedIDsNoteNamesEachOnce: the ids the runner tries for a path
// parameter no list names (person_id: the contract's examples, then 1 to
// 5) are tried and listed once each, though an example is one of 1 to 5.
func TestProbedIDsNoteNamesEachOnce(t *testing.T) {
	t.Parallel()
	report := run(t, newMock(t), contract.Config{})
	list := regexp.MustCompile(`found by trying \[([^\]]*)\]`)
	seen := false
	for _, n := range report.Notes {
		m := list.FindStringSubmatch(n)
		if m == nil {
			continue
		}
		seen = true
		ids := strings.Fields(m[1])
		for i, id := range ids {
			for _, other := range ids[:i] {
				if id == other {
					t.Errorf("note names %s twice: %s", id, n)
				}
			}
		}
	}
	if !seen {
		t.Fatalf("no note of probed ids: %q", report.Notes)
	}
}
