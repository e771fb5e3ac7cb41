package replay_test

import (
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/contract/replay"
)

func TestCompare(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		was, now string
		want     []string // Change.String() with its level
		dicts    []string // the paths of dicts
	}{
		{"values differ, shape alike", `{"id":1,"title":"Fight Club","tags":["a"]}`, `{"id":2,"title":"Heat","tags":["b","c"]}`, nil, nil},
		{"a field removed", `{"id":1,"title":"x"}`, `{"id":1}`, []string{"breaking removed: title (was string)"}, nil},
		{"a field added", `{"id":1}`, `{"id":1,"poster":{"url":"u"}}`, []string{"info added: poster (object)"}, nil},
		{"a field made null", `{"rating":8.5}`, `{"rating":null}`, []string{"breaking made null: rating (was number, now null)"}, nil},
		{"integers became decimals", `[{"runtime":139},{"runtime":null}]`, `[{"runtime":139.0},{"runtime":null}]`, []string{"breaking type changed: [].runtime (was integer|null, now number|null)"}, nil},
		{"decimals written as integers are no change", `{"rating":8.5}`, `{"rating":8}`, nil, nil},
		{"an exponent is a decimal", `{"n":1}`, `{"n":1e3}`, []string{"breaking type changed: n (was integer, now number)"}, nil},
		{"null in the recording says nothing of the type", `{"rating":null}`, `{"rating":"high"}`, nil, nil},
		{"a type changed", `{"year":1999}`, `{"year":"1999"}`, []string{"breaking type changed: year (was integer, now string)"}, nil},
		{"the items of a list, their union", `[{"a":1,"b":null},{"a":2,"b":"x"}]`, `[{"a":3,"b":"y"}]`, nil, nil},
		{"a field removed from the items", `[{"a":1,"b":"x"},{"a":2,"b":"y"}]`, `[{"a":1}]`, []string{"breaking removed: [].b (was string)"}, nil},
		{"a field no longer in every item", `[{"a":1,"b":"x"}]`, `[{"a":1,"b":"y"},{"a":2}]`, []string{"warning not always there: [].b (missing from 1 of 2)"}, nil},
		{"an empty list says nothing of its items", `{"items":[{"a":1}]}`, `{"items":[]}`, nil, nil},
		{"a page wrapper", `[{"id":1}]`, `{"items":[{"id":1}],"total":1}`, []string{"breaking type changed: (body) (was array, now object)"}, nil},
		{"nested fields", `{"items":[{"cast":[{"name":"x"}]}]}`, `{"items":[{"cast":[{"name":1}]}]}`, []string{"breaking type changed: items[].cast[].name (was string, now integer)"}, nil},
		{"a removed subtree is one change", `{"a":{"b":{"c":1}}}`, `{}`, []string{"breaking removed: a (was object)"}, nil},
		{"an added subtree is one change", `{}`, `{"a":{"b":{"c":1}}}`, []string{"info added: a (object)"}, nil},
		{"a field whose object became a string", `{"a":{"b":1}}`, `{"a":"b"}`, []string{"breaking type changed: a (was object, now string)"}, nil},
		{"keys that read as paths are quoted", `{"a.b":1}`, `{"a.b":"1"}`, []string{`breaking type changed: ["a.b"] (was integer, now string)`}, nil},
		{"a fields of a quoted key", `{"a.b":{"c":1}}`, `{"a.b":{}}`, []string{`breaking removed: ["a.b"].c (was integer)`}, nil},
		{"a dict's keys are values", `[{"reactions":{"like":4,"love":1}}]`, `[{"reactions":{"wow":2}}]`, nil, []string{"[].reactions"}},
		{"a dict's values have a shape", `{"reactions":{"like":4}}`, `{"reactions":{"wow":"2"}}`, []string{"breaking type changed: reactions{} (was integer, now string)"}, []string{"reactions"}},
		{"an empty dict says nothing of its values", `{"reactions":{"like":4}}`, `{"reactions":{}}`, nil, []string{"reactions"}},
		{"an object read as fields without the contract", `{"reactions":{"like":4}}`, `{"reactions":{"wow":2}}`, []string{"breaking removed: reactions.like (was integer)", "info added: reactions.wow (integer)"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dicts := map[string]bool{}
			for _, d := range tc.dicts {
				dicts[d] = true
			}
			was, err := replay.ShapeOf([]byte(tc.was), replay.Limits{}, dicts)
			if err != nil {
				t.Fatal(err)
			}
			now, err := replay.ShapeOf([]byte(tc.now), replay.Limits{}, dicts)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range replay.Compare(was, now) {
				got = append(got, c.Level.String()+" "+c.String())
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Compare(%s, %s):\n got %q\nwant %q", tc.was, tc.now, got, tc.want)
			}
		})
	}
}

func TestShapeOfBudgets(t *testing.T) {
	t.Parallel()
	deep := ""
	for range 40 {
		deep += `{"a":`
	}
	deep += "1"
	for range 40 {
		deep += "}"
	}
	tests := []struct {
		name     string
		body     string
		lim      replay.Limits
		budget   bool // ErrBudget
		notJSON  bool
		wantDeep bool
	}{
		{"within the values budget", `[1,2,3]`, replay.Limits{MaxValues: 4}, false, false, false},
		{"over the values budget", `[1,2,3,4]`, replay.Limits{MaxValues: 4}, true, false, false},
		{"over the paths budget", `{"a":1,"b":2,"c":3}`, replay.Limits{MaxPaths: 3}, true, false, false},
		{"deeper than the depth budget is read, not recorded", deep, replay.Limits{}, false, false, true},
		{"not JSON", `{"a":`, replay.Limits{}, false, true, false},
		{"two values", `{} {}`, replay.Limits{}, false, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, err := replay.ShapeOf([]byte(tc.body), tc.lim, nil)
			switch {
			case tc.budget:
				if !errors.Is(err, replay.ErrBudget) {
					t.Fatalf("err %v, want ErrBudget", err)
				}
			case tc.notJSON:
				if err == nil || errors.Is(err, replay.ErrBudget) {
					t.Fatalf("err %v, want not JSON", err)
				}
			case err != nil:
				t.Fatal(err)
			case s.Deep != tc.wantDeep:
				t.Errorf("Deep %v, want %v", s.Deep, tc.wantDeep)
			}
		})
	}
}

func TestDicts(t *testing.T) {
	t.Parallel()
	obj := func(props map[string]*openapi3.SchemaRef) *openapi3.SchemaRef {
		s := openapi3.NewObjectSchema()
		s.Properties = props
		return s.NewRef()
	}
	yes, no := true, false
	anyDict := openapi3.NewObjectSchema()
	anyDict.AdditionalProperties = openapi3.AdditionalProperties{Has: &yes}
	intDict := openapi3.NewObjectSchema()
	intDict.AdditionalProperties = openapi3.AdditionalProperties{Schema: openapi3.NewObjectSchema().WithProperty("n", openapi3.NewIntegerSchema()).NewRef()}
	closed := openapi3.NewObjectSchema()
	closed.AdditionalProperties = openapi3.AdditionalProperties{Has: &no}
	nullable := &openapi3.Schema{AnyOf: openapi3.SchemaRefs{anyDict.NewRef(), openapi3.NewSchemaRef("", &openapi3.Schema{Type: &openapi3.Types{"null"}})}}
	review := obj(map[string]*openapi3.SchemaRef{
		"reactions": anyDict.NewRef(),
		"counts":    intDict.NewRef(),
		"closed":    closed.NewRef(),
		"maybe":     nullable.NewRef(),
		"title":     openapi3.NewStringSchema().NewRef(),
	})
	list := openapi3.NewArraySchema()
	list.Items = review
	got := slices.Sorted(maps.Keys(replay.Dicts(list.NewRef())))
	want := []string{"[].counts", "[].maybe", "[].reactions"}
	if !slices.Equal(got, want) {
		t.Errorf("Dicts = %q, want %q", got, want)
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

// A body's shape costs memory in proportion to the body, however deep it
// nests and however long its keys: no path is written per level or per
// value, only for what a report names. Written per level, 20,000 lists
// in one another took 400 MB, and a list of 2,000 objects below 31 keys of
// 10 KB each wrote 2,000 paths of 310 KB.
func TestShapeOfCostIsLinear(t *testing.T) {
	// Not parallel: the bytes allocated are counted for the whole process.
	long := strings.Repeat("k", 10_000)
	var wide strings.Builder
	for range 31 {
		wide.WriteString(`{"` + long + `":`)
	}
	wide.WriteString("[")
	for i := range 2000 {
		if i > 0 {
			wide.WriteString(",")
		}
		fmt.Fprintf(&wide, `{"a":%d}`, i)
	}
	wide.WriteString("]" + strings.Repeat("}", 31))
	for _, tc := range []struct {
		name string
		body string
	}{
		{"nested 20,000 deep", strings.Repeat("[", 20_000) + strings.Repeat("]", 20_000)},
		{"objects nested 20,000 deep", strings.Repeat(`{"a":`, 20_000) + "1" + strings.Repeat("}", 20_000)},
		{"long keys above many values", wide.String()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s *replay.Shape
			var err error
			got := allocated(func() { s, err = replay.ShapeOf([]byte(tc.body), replay.Limits{}, nil) })
			if err != nil {
				t.Fatal(err)
			}
			// encoding/json's decoder takes about 40 bytes a value.
			if most := uint64(100*len(tc.body)) + 1<<20; got > most {
				t.Errorf("%d bytes allocated for a body of %d: more than %d", got, len(tc.body), most)
			}
			if cs := replay.Compare(s, s); len(cs) != 0 {
				t.Errorf("the body compared with itself: %v", cs)
			}
		})
	}
}

// The depth budget names where it cut: the path of the first value whose
// contents were not recorded, a key too long to show cut short.
func TestShapeOfDeepAt(t *testing.T) {
	t.Parallel()
	body := `{"items":[` + strings.Repeat(`{"next":`, 40) + "1" + strings.Repeat("}", 40) + `]}`
	s, err := replay.ShapeOf([]byte(body), replay.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "items[]" + strings.Repeat(".next", replay.DefaultMaxDepth-2)
	if !s.Deep || s.DeepAt != want {
		t.Errorf("Deep %v at %q, want %q", s.Deep, s.DeepAt, want)
	}
	long := strings.Repeat("é", 200)
	s, err = replay.ShapeOf([]byte(`{"`+long+`":{"a":1}}`), replay.Limits{MaxDepth: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Deep || len(s.DeepAt) > 200 || !strings.HasSuffix(s.DeepAt, "…") {
		t.Errorf("DeepAt %q: want the key cut short", s.DeepAt)
	}
}

// A deep part is read without recursion and still counted against the
// values budget.
func TestShapeOfDeepCounted(t *testing.T) {
	t.Parallel()
	body := strings.Repeat(`[1,{"a":"x","b":`, 100) + "null" + strings.Repeat("}]", 100)
	_, err := replay.ShapeOf([]byte(body), replay.Limits{MaxDepth: 2, MaxValues: 400}, nil)
	if !errors.Is(err, replay.ErrBudget) {
		t.Errorf("err %v, want the values budget (the body holds 401)", err)
	}
	s, err := replay.ShapeOf([]byte(body), replay.Limits{MaxDepth: 2, MaxValues: 401}, nil)
	if err != nil || !s.Deep {
		t.Errorf("err %v, deep %v: want 401 values read", err, s != nil && s.Deep)
	}
	if _, err := replay.ShapeOf([]byte(`[[[[{"a" 1}]]]]`), replay.Limits{MaxDepth: 1}, nil); err == nil || errors.Is(err, replay.ErrBudget) {
		t.Errorf("err %v, want not JSON", err)
	}
}
