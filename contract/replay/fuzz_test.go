package replay_test

import (
	"testing"

	"github.com/moviemock/moviemock/contract/replay"
)

// FuzzShape reads two bodies as a target could send them: within the
// budgets, never a panic, and a body compared with itself shows no change.
func FuzzShape(f *testing.F) {
	for _, s := range [][2]string{
		{`[{"id":1,"title":"x"}]`, `{"items":[{"id":1}],"total":1}`},
		{`{"a.b":{"c":[null,1,"x"]}}`, `{"a.b":{"c":[]}}`},
		{`{"":{"[\"]":1}}`, `{"":{"[\"]":"1"}}`},
		{`[[[[[]]]]]`, `1`},
	} {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		lim := replay.Limits{MaxValues: 1000, MaxDepth: 8, MaxPaths: 200}
		sa, errA := replay.ShapeOf(a, lim, nil)
		sb, errB := replay.ShapeOf(b, lim, nil)
		if errA != nil || errB != nil {
			return
		}
		if cs := replay.Compare(sa, sa); len(cs) != 0 {
			t.Fatalf("%s compared with itself: %v", a, cs)
		}
		_ = replay.Compare(sa, sb)
		_ = replay.Compare(sb, sa)
	})
}
