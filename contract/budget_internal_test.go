package contract

import (
	"runtime"
	"strings"
	"testing"
)

// allocatedBy is the heap bytes fn allocates.
func allocatedBy(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// nested is depth objects, one in the other, each under a key of keyLen
// characters, the innermost holding an author_id that its author's id
// contradicts.
func nested(depth, keyLen int) any {
	key := strings.Repeat("k", keyLen)
	var v any = map[string]any{"author_id": 1.0, "author": map[string]any{"id": 2.0}}
	for range depth {
		v = map[string]any{key: []any{v}}
	}
	return v
}

// author_consistency walks an answer in memory proportional to the answer,
// not to its depth times its size: a path is spelled out only for the
// problem reported.
func TestIDConsistencyMemory(t *testing.T) {
	const depth, keyLen = 400, 1000
	x := &checkInput{res: &Result{Response: Response{Status: 200}}, json: nested(depth, keyLen)}
	var v *verdict
	used := allocatedBy(func() { v = checkIDConsistency(x) })
	if v == nil || v == pass || !strings.Contains(v.got, "author_id is 1 but") || !strings.HasSuffix(v.got, "author.id is 2") {
		t.Fatalf("verdict %+v", v)
	}
	if want := "…" + strings.Repeat("k", keyLen) + ".[0]author_id"; !strings.HasPrefix(v.got, want) {
		t.Errorf("path %.40q…", v.got)
	}
	// The answer's keys alone are depth*keyLen = 400 KB; a path string per
	// level would be depth²*keyLen/2 = 80 MB.
	if limit := uint64(4 * depth * keyLen); used > limit {
		t.Errorf("the walk allocated %d bytes, more than %d", used, limit)
	}
}
