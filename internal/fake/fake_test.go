package fake

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/spec"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// seeds is how many values of each schema TestValid checks.
const seeds = 500

type contract struct {
	name string
	sp   *spec.Spec
}

func loadFile(t testing.TB, path string) *spec.Spec {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(data, filepath.Base(path))
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

func contracts(t testing.TB) []contract {
	t.Helper()
	embedded, err := spec.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	return []contract{
		{"embedded", embedded},
		{"contract31", loadFile(t, "testdata/contract31.yaml")},
		{"contract30", loadFile(t, "testdata/contract30.yaml")},
	}
}

func componentNames(sp *spec.Spec) []string {
	var names []string
	for name := range sp.Doc.Components.Schemas {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// TestValid generates many values of every component schema of every
// contract and validates each with kin-openapi, as the mock's own response
// check does. It also checks that each is canonical FastAPI JSON.
func TestValid(t *testing.T) {
	t.Parallel()
	for _, c := range contracts(t) {
		g := New(c.sp)
		for _, name := range componentNames(c.sp) {
			ref := c.sp.Doc.Components.Schemas[name]
			t.Run(c.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				failures := 0
				var buf []byte
				for seed := uint64(1); seed <= seeds && failures < 5; seed++ {
					buf = g.Append(buf[:0], gofakeit.New(seed), "", ref)
					v, err := decode(buf)
					if err != nil {
						t.Fatalf("seed %d: not JSON: %v\n%s", seed, err, buf)
					}
					if err := c.sp.Validate(ref.Value, v, true); err != nil {
						failures++
						t.Errorf("seed %d: invalid value\n%s\n%v", seed, buf, err)
					}
					if err := canonical(buf); err != nil {
						failures++
						t.Errorf("seed %d: %v\n%s", seed, err, buf)
					}
				}
			})
		}
	}
}

// canonical checks that b is one JSON value exactly as FastAPI writes it:
// rendering what it decodes to (members in order, numbers as written) gives
// b back, and every float is written as Python's repr writes it.
func canonical(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := ordered(dec)
	if err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("trailing data")
	}
	if again := fastapi.AppendValue(nil, v); !bytes.Equal(again, b) {
		return fmt.Errorf("not canonical: re-rendered as\n%s", again)
	}
	return checkNumbers(v)
}

// ordered decodes one value keeping object members in order ([]fastapi.KV).
func ordered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		obj := []fastapi.KV{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := ordered(dec)
			if err != nil {
				return nil, err
			}
			obj = append(obj, fastapi.KV{Key: k.(string), Value: v})
		}
		_, err := dec.Token()
		return obj, err
	case json.Delim('['):
		arr := []any{}
		for dec.More() {
			v, err := ordered(dec)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		_, err := dec.Token()
		return arr, err
	}
	return tok, nil
}

func checkNumbers(v any) error {
	switch x := v.(type) {
	case json.Number:
		s := string(x)
		if strings.ContainsAny(s, ".eE") {
			f, err := x.Float64()
			if err != nil {
				return err
			}
			if py := string(fastapi.AppendValue(nil, f)); py != s {
				return fmt.Errorf("float %s is written %s by Python", s, py)
			}
		}
	case []any:
		for _, e := range x {
			if err := checkNumbers(e); err != nil {
				return err
			}
		}
	case []fastapi.KV:
		for _, kv := range x {
			if err := checkNumbers(kv.Value); err != nil {
				return err
			}
		}
	}
	return nil
}

// TestDeterministic: the same seed gives the same bytes, from another
// Generator too and from many goroutines at once; other seeds give other
// values.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	for _, c := range contracts(t) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			g1, g2 := New(c.sp), New(c.sp)
			for _, name := range componentNames(c.sp) {
				ref := c.sp.Doc.Components.Schemas[name]
				want := make([][]byte, 20)
				for i := range want {
					want[i] = g1.Append(nil, gofakeit.New(uint64(i+1)), "", ref)
				}
				var wg sync.WaitGroup
				for i := range want {
					wg.Add(1)
					go func() {
						defer wg.Done()
						if got := g2.Append(nil, gofakeit.New(uint64(i+1)), "", ref); !bytes.Equal(got, want[i]) {
							t.Errorf("%s seed %d: %s, then %s", name, i+1, want[i], got)
						}
					}()
				}
				wg.Wait()
				distinct := map[string]bool{}
				for _, b := range want {
					distinct[string(b)] = true
				}
				if len(distinct) < 2 && name != "closed" {
					t.Errorf("%s: 20 seeds gave one value: %s", name, want[0])
				}
			}
		})
	}
}

// TestLazyConcurrent compiles schemas the Generator has not seen from many
// goroutines at once (run with -race).
func TestLazyConcurrent(t *testing.T) {
	t.Parallel()
	sp := loadFile(t, "testdata/contract31.yaml")
	g := New(sp)
	movie := sp.Doc.Components.Schemas["Movie"].Value
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for name, p := range movie.Properties {
				ref := &openapi3.SchemaRef{Value: p.Value}
				b := g.Append(nil, gofakeit.New(uint64(i+1)), name, ref)
				v, err := decode(b)
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				if err := sp.Validate(p.Value, v, true); err != nil {
					t.Errorf("%s: %s: %v", name, b, err)
				}
			}
		}()
	}
	wg.Wait()
}

// TestNullable: a nullable optional field is null now and then, not always;
// a field that may not be null never is (TestValid); cut-off recursion
// ends in null where it can.
func TestNullable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		contract, schema, prop string
		lo, hi                 int // percent of null values
	}{
		{"contract31", "Movie", "original_title", 10, 35},
		{"contract31", "Movie", "release_date", 10, 35},
		{"contract31", "Person", "deathday", 60, 95}, // most people are alive
		{"contract31", "Person", "bio", 10, 35},
		{"contract31", "Movie", "title", 0, 0},
		{"contract30", "Movie", "tagline", 10, 35},
		{"contract30", "Person", "email", 10, 35},
		{"contract30", "Movie", "director", 10, 35},
		{"contract30", "Movie", "producer", 0, 0},
		{"embedded", "Person", "biography", 10, 35},
		{"embedded", "Body_login_auth_login_post", "grant_type", 10, 35},
	}
	byName := map[string]*spec.Spec{}
	for _, c := range contracts(t) {
		byName[c.name] = c.sp
	}
	for _, tc := range tests {
		t.Run(tc.contract+"/"+tc.schema+"."+tc.prop, func(t *testing.T) {
			t.Parallel()
			sp := byName[tc.contract]
			g := New(sp)
			ref := sp.Doc.Components.Schemas[tc.schema]
			nulls := 0
			const n = 400
			for seed := uint64(1); seed <= n; seed++ {
				var obj map[string]any
				if err := json.Unmarshal(g.Append(nil, gofakeit.New(seed), "", ref), &obj); err != nil {
					t.Fatal(err)
				}
				if v, ok := obj[tc.prop]; !ok {
					t.Fatalf("seed %d: no %s", seed, tc.prop)
				} else if v == nil {
					nulls++
				}
			}
			if pct := nulls * 100 / n; pct < tc.lo || pct > tc.hi {
				t.Errorf("%d%% null, want %d–%d%%", pct, tc.lo, tc.hi)
			}
		})
	}
}

// TestRecursion: recursive schemas give values of bounded depth.
func TestRecursion(t *testing.T) {
	t.Parallel()
	sp := loadFile(t, "testdata/contract31.yaml")
	g := New(sp)
	for _, name := range []string{"Comment", "TreeNode", "LinkedItem", "TreeMeta"} {
		t.Run(name, func(t *testing.T) {
			deepest := 0
			for seed := uint64(1); seed <= 200; seed++ {
				b := g.Append(nil, gofakeit.New(seed), "", sp.Doc.Components.Schemas[name])
				deepest = max(deepest, depth(b))
			}
			if deepest > 12 {
				t.Errorf("values nest %d deep", deepest)
			}
			if deepest < 3 {
				t.Errorf("values nest only %d deep: the recursion is never followed", deepest)
			}
		})
	}
}

func depth(b []byte) int {
	d, deepest, inString, escaped := 0, 0, false, false
	for _, c := range b {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			d++
			deepest = max(deepest, d)
		case c == '}' || c == ']':
			d--
		}
	}
	return deepest
}

// TestGolden shows what the generator makes of the embedded contract and of
// the Names schema: review the diff when it changes (go test -update).
// Values belong to the pinned gofakeit version.
func TestGolden(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	for _, c := range contracts(t) {
		if c.name == "contract30" {
			continue
		}
		g := New(c.sp)
		for _, name := range componentNames(c.sp) {
			if c.name == "contract31" && name != "Names" && name != "Movie" {
				continue
			}
			for seed := uint64(1); seed <= 3; seed++ {
				fmt.Fprintf(&out, "%s %s %d\n", c.name, name, seed)
				out.Write(g.Append(nil, gofakeit.New(seed), "", c.sp.Doc.Components.Schemas[name]))
				out.WriteByte('\n')
			}
		}
	}
	const path = "testdata/examples.golden"
	if *update {
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("output differs from %s (go test -update to accept):\n%s", path, out.Bytes())
	}
}

func BenchmarkAppendReview(b *testing.B) {
	sp, err := spec.Embedded()
	if err != nil {
		b.Fatal(err)
	}
	g := New(sp)
	ref := sp.Doc.Components.Schemas["Review"]
	f := gofakeit.New(1)
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf = g.Append(buf[:0], f, "", ref)
	}
	b.SetBytes(int64(len(buf)))
}

func BenchmarkAppendPerson(b *testing.B) {
	sp, err := spec.Embedded()
	if err != nil {
		b.Fatal(err)
	}
	g := New(sp)
	ref := sp.Doc.Components.Schemas["Person"]
	f := gofakeit.New(1)
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf = g.Append(buf[:0], f, "", ref)
	}
}

func BenchmarkNew(b *testing.B) {
	sp, err := spec.Embedded()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		New(sp)
	}
}

// TestPydanticAcceptsFormats generates request bodies for a model with
// the types whose string form pydantic checks (a set, an HttpUrl, a
// timedelta, base64 bytes: testdata/formats_openapi.json, served by
// contract/testdata/formats_app.py) and requires FastAPI's own rules
// (fastapi.JSONBody) to accept every one; base64 bytes decode to text, as
// an application that reads them as a string expects.
func TestPydanticAcceptsFormats(t *testing.T) {
	t.Parallel()
	sp := loadFile(t, "testdata/formats_openapi.json")
	item := sp.Doc.Paths.Value("/items")
	ins, err := fastapi.CompileInputs(sp, item.Post, item)
	if err != nil {
		t.Fatal(err)
	}
	ref := item.Post.RequestBody.Value.Content["application/json"].Schema
	g := New(sp)
	var buf []byte
	for seed := uint64(1); seed <= 200; seed++ {
		buf = g.Append(buf[:0], gofakeit.New(seed), "", ref)
		parsed, items, err := ins.JSON.Read("application/json", true, buf)
		if err == nil && len(items) == 0 {
			_, items = ins.JSON.Validate(parsed)
		}
		if err != nil || len(items) > 0 {
			t.Fatalf("seed %d: %s refused: %v %+v", seed, buf, err, items)
		}
		var v struct{ Blob string }
		if err := json.Unmarshal(buf, &v); err != nil {
			t.Fatal(err)
		}
		text, err := base64.StdEncoding.DecodeString(v.Blob)
		if err != nil || !utf8.Valid(text) {
			t.Fatalf("seed %d: blob %q is not base64 of text", seed, v.Blob)
		}
	}
}
