package compare_test

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract/compare"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/internal/traffic"
)

// FuzzMarkTraffic marks a comparison's changes with a recording as a
// frontend could have saved it (a HAR or a journal): within the budgets,
// never a panic; every hit is a call of the recording, a change keeps at
// most 100 hits and counts them all, and every report is written.
func FuzzMarkTraffic(f *testing.F) {
	f.Add([]byte(itemsJournal))
	if har, err := os.ReadFile(pageHAR); err == nil {
		f.Add(har)
	}
	f.Add([]byte(`{"log":{"entries":[{"request":{"method":"GET","url":"http://a/items?limit=5","headers":[]},"response":{"status":200,"headers":[],"content":{"mimeType":"application/json","text":"[{\"title\":1}]"}}},` +
		`{"request":{"method":"POST","url":"http://b/items","headers":[],"postData":{"mimeType":"application/json","text":"{\"tags\":[{\"name\":\"x\"}]}"}},"response":{"status":200,"headers":[],"content":{"text":""}}}]}}`))
	f.Add([]byte(`[{"method":"DELETE","path":"/items/1","status":204}]`))
	old, err := spec.Load(doc{params: `{"name": "limit", "in": "query", "schema": {"type": "integer", "default": 10}}`}.bytes(), "old.json")
	if err != nil {
		f.Fatal(err)
	}
	nw, err := spec.Load(doc{noDelete: true, params: `{"name": "limit", "in": "query", "schema": {"type": "integer", "default": 20}}, {"name": "q", "in": "query", "required": true, "schema": {"type": "string"}}`,
		item: `"id": {"type": "integer", "title": "Id"}`, itemRequired: `"id"`}.bytes(), "new.json")
	if err != nil {
		f.Fatal(err)
	}
	base, err := compare.CompareSpecs(old, nw)
	if err != nil {
		f.Fatal(err)
	}
	lim := traffic.Limits{MaxBytes: 1 << 20, MaxCalls: 500, MaxBody: 4 << 10}
	f.Fuzz(func(t *testing.T, rec []byte) {
		src, err := traffic.Load(bytes.NewReader(rec), "rec", lim)
		if err != nil {
			return
		}
		calls := map[int]bool{}
		for _, c := range src.Calls {
			calls[c.Index] = true
		}
		r := *base
		r.Changes = slices.Clone(base.Changes)
		r.MarkTraffic(src, old)
		if r.Traffic == nil || r.Traffic.Hit > r.Traffic.Calls || len(r.Traffic.Unmatched) > r.Traffic.Calls {
			t.Fatalf("traffic %+v", r.Traffic)
		}
		for _, c := range r.Changes {
			if len(c.Hits) > 100 || c.HitCount < len(c.Hits) {
				t.Fatalf("%s: %d hits kept of %d", c.ID, len(c.Hits), c.HitCount)
			}
			for _, h := range c.Hits {
				if !calls[h.Index] {
					t.Fatalf("%s: a hit #%d no call of the recording has", c.ID, h.Index)
				}
			}
		}
		var out bytes.Buffer
		for _, write := range []func(*bytes.Buffer) error{
			func(b *bytes.Buffer) error { return r.WriteText(b) }, func(b *bytes.Buffer) error { return r.WriteJSON(b) },
			func(b *bytes.Buffer) error { return r.WriteJUnit(b) }, func(b *bytes.Buffer) error { return r.WriteHTML(b) },
		} {
			out.Reset()
			if err := write(&out); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), "moviemock diff") {
				t.Fatalf("a report without its summary line")
			}
		}
	})
}
