package compare_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract/compare"
)

// bigPair is two FastAPI documents of about size bytes each: the movies
// contract's operations and schemas repeated under /vN (each copy with
// its own schemas, FastAPI's validation errors shared), and NEW with a
// change of a realistic kind in every copy: a response field removed, a
// field made nullable, a required body field added, an operation removed,
// a query parameter renamed.
func bigPair(tb testing.TB, size int) (old, new []byte) {
	tb.Helper()
	base, err := os.ReadFile("../../testdata/contracts/movies/openapi.json")
	if err != nil {
		tb.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(base, &doc); err != nil {
		tb.Fatal(err)
	}
	paths := doc["paths"].(map[string]any)
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	shared := map[string]bool{"HTTPValidationError": true, "ValidationError": true}
	pathsJSON, _ := json.Marshal(paths)
	schemasJSON, _ := json.Marshal(schemas)
	// copyOf is the paths and schemas of copy k, its own schemas renamed.
	copyOf := func(text []byte, k int) map[string]any {
		s := string(text)
		for name := range schemas {
			if !shared[name] {
				s = strings.ReplaceAll(s, `"#/components/schemas/`+name+`"`, fmt.Sprintf(`"#/components/schemas/%sV%d"`, name, k))
			}
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			tb.Fatal(err)
		}
		return m
	}
	build := func(changed bool) []byte {
		outPaths, outSchemas := map[string]any{}, map[string]any{}
		perCopy, next := 0, 0 // a copy's size; the copy after which to measure
		for name := range shared {
			outSchemas[name] = schemas[name]
		}
		for k := 0; ; k++ {
			ps, ss := copyOf(pathsJSON, k), copyOf(schemasJSON, k)
			for p, item := range ps {
				for _, op := range item.(map[string]any) {
					o := op.(map[string]any)
					o["operationId"] = fmt.Sprintf("%s_v%d", o["operationId"], k)
				}
				outPaths[fmt.Sprintf("/v%d%s", k, p)] = item
			}
			for name, s := range ss {
				if !shared[name] {
					outSchemas[fmt.Sprintf("%sV%d", name, k)] = s
				}
			}
			if changed {
				movie := ss["Movie"].(map[string]any)["properties"].(map[string]any)
				switch k % 5 {
				case 0: // a response field with a default removed
					delete(movie, "original_language")
				case 1: // a response field made nullable
					movie["title"] = map[string]any{"anyOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "null"}}, "title": "Title"}
				case 2: // a new required body field
					create := ss["MovieCreate"].(map[string]any)
					create["properties"].(map[string]any)["rating"] = map[string]any{"type": "number", "title": "Rating"}
					create["required"] = append(create["required"].([]any), "rating")
				case 3: // an operation removed
					delete(outPaths[fmt.Sprintf("/v%d/movies/{movie_id}", k)].(map[string]any), "delete")
				case 4: // a query parameter renamed
					for _, p := range outPaths[fmt.Sprintf("/v%d/movies", k)].(map[string]any)["get"].(map[string]any)["parameters"].([]any) {
						if p := p.(map[string]any); p["name"] == "limit" {
							p["name"] = "size"
						}
					}
				}
			}
			// The document grows by about a copy's size: marshalled whole
			// only when it may be large enough, so that building a 16 MB
			// one is not quadratic.
			if k == 0 {
				one, _ := json.Marshal(map[string]any{"p": ps, "s": ss})
				perCopy = len(one)
				next = size / perCopy * 9 / 10
			}
			if k < next {
				continue
			}
			doc["paths"], doc["components"].(map[string]any)["schemas"] = outPaths, outSchemas
			out, err := json.Marshal(doc)
			if err != nil {
				tb.Fatal(err)
			}
			if len(out) >= size {
				return out
			}
			next = k + 1 + (size-len(out))/perCopy
		}
	}
	return build(false), build(true)
}

// BenchmarkDiff1MB is diff of two 1 MB documents: both loaded (parsed,
// held to the budgets, validated), compared by oasdiff, read. It reports
// the CPU time of the process per diff too (cpu-ms/op, the garbage
// collector's included): on a machine that other work keeps busy, ns/op
// is the wait, cpu-ms/op what the diff itself costs.
func BenchmarkDiff1MB(b *testing.B) {
	old, new := bigPair(b, 1<<20)
	b.SetBytes(int64(len(old) + len(new)))
	var r *compare.Report
	var cpu0 time.Duration
	n := 0
	for b.Loop() {
		if n == 0 {
			cpu0 = cpuTime()
		}
		n++
		var err error
		if r, err = compare.Compare(old, new, "old.json", "new.json", compare.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(n), "cpu-ms/op")
	b.ReportMetric(float64(len(r.Changes)), "changes")
}

// BenchmarkDiff15MB is BenchmarkDiff1MB on two documents of 15 MiB, near
// the 16 MiB each may be by default (--max-spec-bytes).
func BenchmarkDiff15MB(b *testing.B) {
	old, new := bigPair(b, 15<<20)
	b.SetBytes(int64(len(old) + len(new)))
	var r *compare.Report
	var cpu0 time.Duration
	n := 0
	for b.Loop() {
		if n == 0 {
			cpu0 = cpuTime()
		}
		n++
		var err error
		if r, err = compare.Compare(old, new, "old.json", "new.json", compare.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(n), "cpu-ms/op")
	b.ReportMetric(float64(len(r.Changes)), "changes")
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// The benchmark's documents differ by the changes it makes, read as they
// should be.
func TestBigPair(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("two 1 MB documents")
	}
	old, new := bigPair(t, 1<<20)
	r, err := compare.Compare(old, new, "old.json", "new.json", compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int{}
	for _, c := range r.Changes {
		ids[c.ID]++
	}
	for _, id := range []string{"response-optional-property-removed", compare.IDResponsePropertyNullable, "new-required-request-property", "api-removed-without-deprecation", "request-parameter-removed"} {
		if ids[id] == 0 {
			t.Errorf("no %s among %v", id, ids)
		}
	}
	if ids["response-property-list-of-types-widened"] != 0 {
		t.Errorf("a made-nullable change left as oasdiff's list-of-types-widened: %v", ids)
	}
}
