package compare_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract/compare"
)

// A document whose schemas nest past the budget is refused before oasdiff
// walks it (its cost grows with the cube of the depth), naming the side,
// where the nesting starts and the flag; within the budget, or with none,
// it is compared.
func TestLoadRefusesDeepNesting(t *testing.T) {
	deep, shallow := chainDoc(300, "integer"), chainDoc(200, "string")
	for _, c := range []struct {
		name      string
		old, new  []byte
		max       int
		wantSide  string
		wantError bool
	}{
		{"deep OLD", deep, shallow, 256, "OLD", true},
		{"deep NEW", shallow, deep, 256, "NEW", true},
		{"within the budget", shallow, chainDoc(200, "integer"), 256, "", false},
		{"no budget", deep, chainDoc(300, "string"), 0, "", false},
	} {
		old, new, err := compare.Load(c.old, c.new, "old.json", "new.json", compare.Options{MaxDepth: c.max})
		if !c.wantError {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
				continue
			}
			if r, err := compare.CompareSpecs(old, new); err != nil || len(r.Changes) == 0 {
				t.Errorf("%s: compared: %v, %d changes", c.name, err, len(r.Changes))
			}
			continue
		}
		var le *compare.LoadError
		var deepErr *compare.TooDeepError
		if !errors.As(err, &le) || le.Side != c.wantSide || !errors.As(err, &deepErr) {
			t.Errorf("%s: %v, want a refusal of %s for its depth", c.name, err, c.wantSide)
			continue
		}
		for _, want := range []string{"components.schemas.M0", "more than 256 deep", "--max-depth"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %q does not say %q", c.name, err, want)
			}
		}
	}
}
