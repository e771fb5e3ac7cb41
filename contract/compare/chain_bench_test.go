package compare_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract/compare"
	"github.com/moviemock/moviemock/internal/spec"
)

// chainDoc is a document of n models each referring to the next, the
// first the answer of one operation; typ is the type of each model's id.
func chainDoc(n int, typ string) []byte {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/m":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/M0"}}}}}}}},"components":{"schemas":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"M%d":{"type":"object","properties":{"id":{"type":%q}`, i, typ)
		if i+1 < n {
			fmt.Fprintf(&b, `,"next":{"$ref":"#/components/schemas/M%d"}`, i+1)
		}
		b.WriteString(`}}`)
	}
	b.WriteString(`}}}`)
	return []byte(b.String())
}

// A chain of models, each referring to the next, changed in every model:
// oasdiff finds one change a model, each a level deeper, so its findings
// are as long as the chain is deep (their text grows with its square).
// Reading them costs as much again, not the chain's depth times over:
// each place in a body is resolved once, from its parent's. Read place
// by place, 400 models took 357 MB, 6 times what 200 took.
func TestDiffChainCost(t *testing.T) {
	// Not parallel: the bytes allocated are counted for the whole process.
	cost := map[int]uint64{}
	for _, n := range []int{200, 400} {
		old, err := spec.LoadLimited(chainDoc(n, "integer"), "old.json", spec.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		new, err := spec.LoadLimited(chainDoc(n, "string"), "new.json", spec.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		var r *compare.Report
		cost[n] = allocated(func() { r, err = compare.CompareSpecs(old, new) })
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Changes) != n {
			t.Fatalf("%d models: %d changes, want one a model", n, len(r.Changes))
		}
		if c := r.Changes[len(r.Changes)-1]; !strings.HasSuffix(c.Where, strings.Repeat("next.", n-1)+"id") {
			t.Errorf("the deepest change is at %q", c.Where)
		}
	}
	if ratio := float64(cost[400]) / float64(cost[200]); ratio > 4.5 {
		t.Errorf("twice the models cost %.1f times the memory (%d bytes, then %d): more than the square of the size", ratio, cost[200], cost[400])
	}
}

// allocated is the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// BenchmarkDiffChain is diff of chains of n models, each referring to the
// next, alike or changed in every model.
func BenchmarkDiffChain(b *testing.B) {
	for _, n := range []int{150, 300, 600} {
		for _, changed := range []bool{false, true} {
			old, new := chainDoc(n, "integer"), chainDoc(n, "integer")
			if changed {
				new = chainDoc(n, "string")
			}
			b.Run(fmt.Sprintf("n=%d/changed=%v", n, changed), func(b *testing.B) {
				b.ReportAllocs()
				var cpu0 time.Duration
				n := 0
				for b.Loop() {
					if n == 0 {
						cpu0 = cpuTime()
					}
					n++
					if _, err := compare.Compare(old, new, "old.json", "new.json", compare.Options{}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(n), "cpu-ms/op")
			})
		}
	}
}
