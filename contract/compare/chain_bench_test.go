package compare_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
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
		// The deepest place is told with its repeated name counted.
		deepest := fmt.Sprintf("response 200 body: next×%d.id", n-1)
		if !slices.ContainsFunc(r.Changes, func(c compare.Change) bool { return c.Where == deepest }) {
			t.Errorf("no change at %q", deepest)
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

// opsChainDoc is a chain of n models, each referring to the next, each the
// answer of an operation of its own (GET /mi answers Mi); with x, every
// model has one optional property more.
func opsChainDoc(n int, x bool) []byte {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"/m%d":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/M%d"}}}}}}}`, i, i)
	}
	b.WriteString(`},"components":{"schemas":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"M%d":{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"}`, i)
		if i+1 < n {
			fmt.Fprintf(&b, `,"next":{"$ref":"#/components/schemas/M%d"}`, i+1)
		}
		if x {
			b.WriteString(`,"x":{"type":"string"}`)
		}
		b.WriteString(`}}`)
	}
	b.WriteString(`}}}`)
	return []byte(b.String())
}

// A chain of n models each answered by an operation, a property added to
// every model: oasdiff finds the property once for each operation that
// reaches it, n²/2 findings, the deepest n places long. The reports tell
// a place with its repeated names counted, and a change shared by many
// operations once with a few of them named: the text and HTML reports grow
// with the chain, not with its findings times their length (before, twice
// the chain wrote 8 times the text: 3.2 MB for 150 models, 186 MB for 600).
func TestDiffChainOfOperationsReport(t *testing.T) {
	size := map[int]map[string]int{}
	for _, n := range []int{40, 80} {
		old, err := spec.LoadLimited(opsChainDoc(n, false), "old.json", spec.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		new, err := spec.LoadLimited(opsChainDoc(n, true), "new.json", spec.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := compare.CompareSpecs(old, new)
		if err != nil {
			t.Fatal(err)
		}
		if want := n * (n + 1) / 2; len(r.Changes) != want || r.Stopped {
			t.Fatalf("%d models: %d changes (stopped %v), want %d", n, len(r.Changes), r.Stopped, want)
		}
		size[n] = map[string]int{}
		for _, f := range []struct {
			name  string
			write func(io.Writer) error
		}{{"text", r.WriteText}, {"html", r.WriteHTML}, {"json", r.WriteJSON}, {"junit", r.WriteJUnit}} {
			var b strings.Builder
			if err := f.write(&b); err != nil {
				t.Fatal(err)
			}
			size[n][f.name] = b.Len()
			if strings.Contains(b.String(), "next.next.next.") {
				t.Errorf("%d models, %s report: a place with its names repeated in full", n, f.name)
			}
			if f.name == "json" && !strings.Contains(b.String(), fmt.Sprintf("next×%d.x", n-1)) {
				t.Errorf("%d models: the deepest place is not told as next×%d.x", n, n-1)
			}
		}
	}
	t.Logf("report bytes, 40 then 80 models: %v, %v", size[40], size[80])
	for _, f := range []string{"text", "html"} {
		if ratio := float64(size[80][f]) / float64(size[40][f]); ratio > 2.5 {
			t.Errorf("%s report: twice the chain wrote %.1f times the bytes (%d, then %d)", f, ratio, size[40][f], size[80][f])
		}
	}
	// The JSON and JUnit reports tell each finding: their bytes grow with
	// the findings (4 times), not with the findings times their length
	// (before: 5.1 and 5.5 times).
	for _, f := range []string{"json", "junit"} {
		if ratio := float64(size[80][f]) / float64(size[40][f]); ratio > 4.5 {
			t.Errorf("%s report: twice the chain (4 times the findings) wrote %.1f times the bytes (%d, then %d)", f, ratio, size[40][f], size[80][f])
		}
	}
}

// Past its budget of findings a comparison stops, and every report says
// the verdict is of what was seen, naming the flag that moves it.
func TestDiffMaxChanges(t *testing.T) {
	old, err := spec.LoadLimited(opsChainDoc(60, false), "old.json", spec.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	new, err := spec.LoadLimited(opsChainDoc(60, true), "new.json", spec.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := compare.CompareSpecsMax(old, new, 200)
	if err != nil {
		t.Fatal(err)
	}
	// 1,830 findings in all; it stops at the operation that passes 200,
	// one operation's worth (at most 60) past it.
	if !r.Stopped || len(r.Changes) < 200 || len(r.Changes) > 260 {
		t.Fatalf("stopped %v with %d changes, want it stopped at 200 to 260", r.Stopped, len(r.Changes))
	}
	for _, f := range []struct {
		name  string
		write func(io.Writer) error
	}{{"text", r.WriteText}, {"html", r.WriteHTML}, {"json", r.WriteJSON}, {"junit", r.WriteJUnit}} {
		var b strings.Builder
		if err := f.write(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "PARTIAL") || !strings.Contains(b.String(), "--max-changes 200") {
			t.Errorf("the %s report does not say it is partial and which flag moves it", f.name)
		}
	}
	if all, err := compare.CompareSpecsMax(old, new, 0); err != nil || all.Stopped || len(all.Changes) != 60*61/2 {
		t.Errorf("without a budget: %d changes, stopped %v, err %v", len(all.Changes), all.Stopped, err)
	}
}

// Collected path by path (under a budget), the changes are those oasdiff
// finds in one call over the whole document (no budget): on every pair of
// testdata/changes, and on the movies contract and its second version.
func TestDiffByPathIsOneCall(t *testing.T) {
	var pairs [][2]string
	for _, app := range []string{"movies", "tasks"} {
		news, err := filepath.Glob("../../testdata/changes/" + app + "/*.json")
		if err != nil || len(news) == 0 {
			t.Fatalf("%s: no changed documents (%v)", app, err)
		}
		for _, n := range news {
			if filepath.Base(n) != "expected.json" {
				pairs = append(pairs, [2]string{"../../testdata/contracts/" + app + "/openapi.json", n})
			}
		}
	}
	pairs = append(pairs, [2]string{"../../testdata/contracts/movies/openapi.json", "../../testdata/contracts/movies2/openapi.json"})
	for _, p := range pairs {
		var docs [2]*spec.Spec
		for i, name := range p {
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			if docs[i], err = spec.LoadLimited(b, name, spec.Limits{}); err != nil {
				t.Fatal(err)
			}
		}
		byPath, err := compare.CompareSpecsMax(docs[0], docs[1], compare.DefaultMaxChanges)
		if err != nil {
			t.Fatal(err)
		}
		once, err := compare.CompareSpecsMax(docs[0], docs[1], 0)
		if err != nil {
			t.Fatal(err)
		}
		var a, b strings.Builder
		byPath.MaxChanges, once.MaxChanges = 0, 0
		byPath.WriteJSON(&a)
		once.WriteJSON(&b)
		if a.String() != b.String() {
			t.Errorf("%s → %s: path by path, %d changes, %d dropped; in one call, %d changes, %d dropped", p[0], p[1], len(byPath.Changes), byPath.Dropped, len(once.Changes), once.Dropped)
		}
	}
}
