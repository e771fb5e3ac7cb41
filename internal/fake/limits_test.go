package fake

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/brianvoe/gofakeit/v7"

	"github.com/moviemock/moviemock/internal/spec"
)

// A schema that asks for more than a value can carry gets a bounded value
// at once and a note naming it, never minutes or gigabytes for one value:
// minLength 1e8, minItems 1e8, an object that requires two of itself; an
// object that requires itself is reported as having no finite value. Each
// of the first three hung or went past 4 GB.
func TestBudgets(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, item string
		note       string
	}{
		{"minLength 1e8", `{"type":"object","properties":{"s":{"type":"string","minLength":100000000}},"required":["s"]}`,
			"Item.s: minLength 100000000 is more than a generated string holds (1048576 characters)"},
		{"minItems 1e8", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"string"},"minItems":100000000}},"required":["l"]}`,
			"minItems 100000000 is more than a generated array holds (10000 items)"},
		{"requires two of itself", `{"type":"object","properties":{"n":{"type":"string"},"a":{"$ref":"#/components/schemas/Item"},"b":{"$ref":"#/components/schemas/Item"}},"required":["n","a","b"]}`,
			"schema Item: no finite value satisfies it (it requires itself, with no way to end)"},
		{"requires itself", `{"type":"object","properties":{"n":{"type":"string"},"child":{"$ref":"#/components/schemas/Item"}},"required":["n","child"]}`,
			"schema Item: no finite value satisfies it"},
		{"optional self-reference is fine", `{"type":"object","properties":{"n":{"type":"string"},"child":{"$ref":"#/components/schemas/Item"}},"required":["n"]}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc := `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{},"components":{"schemas":{"Item":` + tc.item + `}}}`
			sp, err := spec.Load([]byte(doc), "doc")
			if err != nil {
				t.Fatal(err)
			}
			g := New(sp)
			notes := strings.Join(g.Notes(), "\n")
			if tc.note == "" && notes != "" || !strings.Contains(notes, tc.note) {
				t.Errorf("notes %q, want %q", notes, tc.note)
			}
			b := g.Append(nil, gofakeit.New(1), "", sp.Doc.Components.Schemas["Item"])
			if len(b) > MaxValueBytes+MaxStringLength*4+1024 {
				t.Errorf("a value of %d bytes", len(b))
			}
		})
	}
}

// A long string costs in proportion to its length: compare the two
// sub-benchmarks (a minLength of 400,000 took 15.5 s when the string was
// recounted at every word).
func BenchmarkLongString(b *testing.B) {
	for _, n := range []string{"100000", "400000"} {
		doc := `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{},"components":{"schemas":{"S":{"type":"string","minLength":` + n + `}}}}`
		sp, err := spec.Load([]byte(doc), "doc")
		if err != nil {
			b.Fatal(err)
		}
		g := New(sp)
		b.Run(n, func(b *testing.B) {
			for b.Loop() {
				g.Append(nil, gofakeit.New(1), "", sp.Doc.Components.Schemas["S"])
			}
		})
	}
}

// A chain of distinct models, each holding a list of the next, asks for
// nothing large, but written in full it grows as 4^depth: each record of
// such a document (an ASP.NET library: series of volumes of chapters of
// files…) was written up to MaxValueBytes, and serve took minutes to
// generate 20 of each. Past FullValueBytes the rest of a value is minimal,
// so a value stays near that size and still valid.
func TestNestedListsStayNearFullValueBytes(t *testing.T) {
	t.Parallel()
	const levels = 8
	var schemas []string
	for i := 0; i < levels; i++ {
		props := `"id":{"type":"integer"},"title":{"type":"string"},"summary":{"type":"string"},"created":{"type":"string","format":"date-time"}`
		if i+1 < levels {
			for _, list := range []string{"items", "more", "others", "rest"} {
				props += fmt.Sprintf(`,%q:{"type":"array","items":{"$ref":"#/components/schemas/L%d"}}`, list, i+1)
			}
		}
		schemas = append(schemas, fmt.Sprintf(`"L%d":{"type":"object","properties":{%s},"required":["id","title"]}`, i, props))
	}
	doc := `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{},"components":{"schemas":{` + strings.Join(schemas, ",") + `}}}`
	sp, err := spec.Load([]byte(doc), "doc")
	if err != nil {
		t.Fatal(err)
	}
	g := New(sp)
	root := sp.Doc.Components.Schemas["L0"]
	for seed := uint64(1); seed <= 5; seed++ {
		b := g.Append(nil, gofakeit.New(seed), "", root)
		if len(b) > 4*FullValueBytes {
			t.Errorf("seed %d: a value of %d bytes, want about %d at most", seed, len(b), FullValueBytes)
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if err := root.Value.VisitJSON(v); err != nil {
			t.Errorf("seed %d: the value does not fit its schema: %v", seed, err)
		}
	}
}
