package contract

import (
	"encoding/json"
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

// An answer that keeps the x_id and x the request sent, unequal as sent
// (a generated body of a task in a bucket), is the runner's own values
// echoed: author_consistency demands nothing of it. One the server made
// unequal still fails.
func TestIDConsistencyOfWhatWasSent(t *testing.T) {
	t.Parallel()
	sent := `{"task":{"bucket_id":3,"bucket":{"id":4}}}`
	var answer any
	if err := json.Unmarshal([]byte(sent), &answer); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		body string
		fail bool
	}{{sent, false}, {`{"task":{"bucket_id":4,"bucket":{"id":4}}}`, true}, {"", true}} {
		x := &checkInput{res: &Result{Case: &Case{Request: Request{Body: tc.body}}, Response: Response{Status: 200}}, json: answer}
		v := checkIDConsistency(x)
		if failed := v != nil && v != pass; failed != tc.fail {
			t.Errorf("sent %q: verdict %+v, want failed %v", tc.body, v, tc.fail)
		}
	}
}
