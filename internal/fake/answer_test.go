package fake

import (
	"math"
	"strings"
	"testing"

	"github.com/brianvoe/gofakeit/v7"

	"github.com/moviemock/moviemock/internal/spec"
)

const answerDoc = `{
  "openapi": "3.0.3",
  "info": {"title": "answers", "version": "1"},
  "paths": {},
  "components": {"schemas": {
    "Account": {"type": "object", "required": ["name", "password"], "properties": {
      "name": {"type": "string"},
      "password": {"type": "string", "writeOnly": true},
      "token": {"type": "string", "readOnly": true}}},
    "Near32": {"type": "integer", "format": "int32", "minimum": 2147483000},
    "Below32": {"type": "integer", "format": "int32", "maximum": -2147483000}
  }}
}`

// An answer leaves out writeOnly properties, required or not, and keeps
// readOnly ones; a request's value (Append) has both.
func TestAppendAnswer(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(answerDoc), "answers.json")
	if err != nil {
		t.Fatal(err)
	}
	g := New(sp)
	ref := sp.Doc.Components.Schemas["Account"]
	for seed := uint64(1); seed <= 50; seed++ {
		for _, tc := range []struct {
			answer   bool
			password bool
		}{{true, false}, {false, true}} {
			raw := g.Append(nil, gofakeit.New(seed), "", ref)
			if tc.answer {
				raw = g.AppendAnswer(nil, gofakeit.New(seed), "", ref)
			}
			v, err := decode(raw)
			if err != nil {
				t.Fatal(err)
			}
			obj := v.(map[string]any)
			if _, ok := obj["password"]; ok != tc.password {
				t.Fatalf("answer %v: %s has password %v, want %v", tc.answer, raw, ok, tc.password)
			}
			if _, ok := obj["token"]; !ok {
				t.Fatalf("answer %v: %s lacks the readOnly token", tc.answer, raw)
			}
		}
	}
}

// An int32 stays within 32 bits where its bounds leave room beyond them.
func TestInt32Range(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(answerDoc), "answers.json")
	if err != nil {
		t.Fatal(err)
	}
	g := New(sp)
	for _, name := range []string{"Near32", "Below32"} {
		ref := sp.Doc.Components.Schemas[name]
		for seed := uint64(1); seed <= 200; seed++ {
			raw := g.Append(nil, gofakeit.New(seed), "", ref)
			v, err := decode(raw)
			if err != nil {
				t.Fatal(err)
			}
			n, err := v.(interface{ Int64() (int64, error) }).Int64()
			if err != nil || n > math.MaxInt32 || n < math.MinInt32 {
				t.Fatalf("%s: %s is no int32 (%v)", name, raw, err)
			}
			if err := sp.Validate(ref.Value, v, false); err != nil {
				t.Fatalf("%s: %s: %v", name, raw, err)
			}
		}
	}
}

const ecmaDoc = `{
  "openapi": "3.0.3",
  "info": {"title": "patterns", "version": "1"},
  "paths": {},
  "components": {"schemas": {
    "Lookahead": {"type": "string", "pattern": "^(?!admin)[a-z]{3,8}$", "example": "guest"},
    "Backref": {"type": "string", "pattern": "^(ab)-\\1$", "example": "ab-ab"},
    "Hopeless": {"type": "string", "pattern": "^(x)\\1$"}
  }}
}`

// A pattern only the ECMA-262 engine runs is checked with it: a value
// that fails it is not written where the name's value, a word, or the
// schema's example passes; where nothing can, the generator says so.
func TestECMAPatterns(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(ecmaDoc), "patterns.json")
	if err != nil {
		t.Fatal(err)
	}
	g := New(sp)
	for _, name := range []string{"Lookahead", "Backref"} {
		ref := sp.Doc.Components.Schemas[name]
		for seed := uint64(1); seed <= 100; seed++ {
			raw := g.Append(nil, gofakeit.New(seed), name, ref)
			v, err := decode(raw)
			if err != nil {
				t.Fatal(err)
			}
			if err := sp.Validate(ref.Value, v, false); err != nil {
				t.Fatalf("%s: %s: %v", name, raw, err)
			}
		}
	}
	notes := strings.Join(g.Notes(), "\n")
	if !strings.Contains(notes, `^(x)\\1$`) || strings.Contains(notes, "admin") || strings.Contains(notes, `(ab)`) {
		t.Errorf("notes:\n%s\nwant one for Hopeless's pattern only", notes)
	}
}
