package compare_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract/compare"
)

// What a document names reaches every report escaped: a field named with
// markup or a terminal escape neither runs in the page nor drives the
// terminal; the reports agree on the verdict.
func TestReportsEscapeWhatDocumentsSay(t *testing.T) {
	t.Parallel()
	old := doc{item: `"id": {"type": "integer"}, "<img src=x onerror=alert(1)>\u001b[31m": {"type": "string", "default": "x"}`, itemRequired: `"id"`}
	new := doc{item: `"id": {"type": "integer"}`, itemRequired: `"id"`}
	r, err := compare.Compare(old.bytes(), new.bytes(), "old.json", "new.json", compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Count(compare.Breaking) != 3 {
		t.Fatalf("%d breaking changes, want 3 (the field removed from three answers)", r.Count(compare.Breaking))
	}
	tests := []struct {
		format string
		write  func(*bytes.Buffer) error
		want   []string
		never  []string
	}{
		{"text", func(b *bytes.Buffer) error { return r.WriteText(b) },
			[]string{`\x1b[31m`, "BREAKING (3)", "also in: POST /items (response 200 body: <img", "moviemock diff: FAILED 3 breaking, 0 warnings, 0 info (--fail-on breaking) · 3 operations changed"},
			[]string{"\x1b"}},
		{"html", func(b *bytes.Buffer) error { return r.WriteHTML(b) },
			[]string{"&lt;img src=x onerror=alert(1)&gt;", `<section id="summary" class="failed">`, "Also in: POST /items (response 200 body: &lt;img"},
			[]string{"<img", "\x1b"}},
		{"junit", func(b *bytes.Buffer) error { return r.WriteJUnit(b) },
			[]string{`<testsuites name="moviemock diff" tests="3" failures="3">`, "&lt;img src=x"},
			[]string{"<img", "\x1b"}},
		{"json", func(b *bytes.Buffer) error { return r.WriteJSON(b) },
			[]string{`"failed": true`, `"breaking": 3`, `"summary_line": "moviemock diff: FAILED`},
			[]string{"\x1b", `\u001b`}},
	}
	for _, tc := range tests {
		t.Run(tc.format, func(t *testing.T) {
			t.Parallel()
			var b bytes.Buffer
			if err := tc.write(&b); err != nil {
				t.Fatal(err)
			}
			for _, want := range tc.want {
				if !strings.Contains(b.String(), want) {
					t.Errorf("lacks %q:\n%s", want, b.String())
				}
			}
			for _, never := range tc.never {
				if strings.Contains(b.String(), never) {
					t.Errorf("holds %q", never)
				}
			}
		})
	}
}

// The JSON report's field names are documented: a change's are stable.
func TestJSONReportFields(t *testing.T) {
	t.Parallel()
	r, err := compare.Compare(doc{}.bytes(), doc{noDelete: true}.bytes(), "old.json", "new.json", compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r.FailOn = compare.FailOnNever
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"old", "new", "engine", "fail_on", "failed", "summary", "summary_line", "changes"} {
		if _, ok := got[k]; !ok {
			t.Errorf("no %q in %s", k, b.String())
		}
	}
	if got["failed"] != false || got["fail_on"] != "never" {
		t.Errorf("failed %v, fail_on %v", got["failed"], got["fail_on"])
	}
	c := got["changes"].([]any)[0].(map[string]any)
	for _, k := range []string{"id", "level", "method", "path", "why", "text"} {
		if _, ok := c[k]; !ok {
			t.Errorf("a change has no %q: %v", k, c)
		}
	}
}

// A report of many operations changed is written in time with its size:
// each change is read once, not once per operation. Read per operation,
// 2,000 operations took 4 million allocations for the JUnit report, and
// as many comparisons of names for the HTML one.
func TestReportCostIsLinear(t *testing.T) {
	// Not parallel: AllocsPerRun counts for the whole process.
	const n = 2000
	r := &compare.Report{Old: "old.json", New: "new.json"}
	for i := range n {
		r.Changes = append(r.Changes, compare.Change{ID: "response-property-removed", Level: compare.Breaking, Method: "GET", Path: fmt.Sprintf("/v%d/movies/{movie_id}/reviews/{review_id}", i),
			Where: "response 200 body: title", Why: "a client that reads the field now finds nothing", Text: "removed"})
	}
	for _, f := range []struct {
		name  string
		write func(io.Writer) error
	}{{"html", r.WriteHTML}, {"junit", r.WriteJUnit}, {"text", r.WriteText}, {"json", r.WriteJSON}} {
		allocs := testing.AllocsPerRun(1, func() {
			if err := f.write(io.Discard); err != nil {
				t.Fatal(err)
			}
		})
		if allocs > 200*n {
			t.Errorf("%s: %.0f allocations for %d changes", f.name, allocs, n)
		}
	}
}
