package replay_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/moviemock/moviemock/contract/replay"
)

func TestCompare(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		was, now string
		want     []string // Change.String() with its level
	}{
		{"values differ, shape alike", `{"id":1,"title":"Fight Club","tags":["a"]}`, `{"id":2,"title":"Heat","tags":["b","c"]}`, nil},
		{"a field removed", `{"id":1,"title":"x"}`, `{"id":1}`, []string{"breaking removed: title (was string)"}},
		{"a field added", `{"id":1}`, `{"id":1,"poster":{"url":"u"}}`, []string{"info added: poster (object)"}},
		{"a field made null", `{"rating":8.5}`, `{"rating":null}`, []string{"breaking made null: rating (was number, now null)"}},
		{"integers became decimals", `[{"runtime":139},{"runtime":null}]`, `[{"runtime":139.0},{"runtime":null}]`, []string{"breaking type changed: [].runtime (was integer|null, now number|null)"}},
		{"decimals written as integers are no change", `{"rating":8.5}`, `{"rating":8}`, nil},
		{"an exponent is a decimal", `{"n":1}`, `{"n":1e3}`, []string{"breaking type changed: n (was integer, now number)"}},
		{"null in the recording says nothing of the type", `{"rating":null}`, `{"rating":"high"}`, nil},
		{"a type changed", `{"year":1999}`, `{"year":"1999"}`, []string{"breaking type changed: year (was integer, now string)"}},
		{"the items of a list, their union", `[{"a":1,"b":null},{"a":2,"b":"x"}]`, `[{"a":3,"b":"y"}]`, nil},
		{"a field removed from the items", `[{"a":1,"b":"x"},{"a":2,"b":"y"}]`, `[{"a":1}]`, []string{"breaking removed: [].b (was string)"}},
		{"a field no longer in every item", `[{"a":1,"b":"x"}]`, `[{"a":1,"b":"y"},{"a":2}]`, []string{"warning not always there: [].b (missing from 1 of 2)"}},
		{"an empty list says nothing of its items", `{"items":[{"a":1}]}`, `{"items":[]}`, nil},
		{"a page wrapper", `[{"id":1}]`, `{"items":[{"id":1}],"total":1}`, []string{"breaking type changed: (body) (was array, now object)"}},
		{"nested fields", `{"items":[{"cast":[{"name":"x"}]}]}`, `{"items":[{"cast":[{"name":1}]}]}`, []string{"breaking type changed: items[].cast[].name (was string, now integer)"}},
		{"a removed subtree is one change", `{"a":{"b":{"c":1}}}`, `{}`, []string{"breaking removed: a (was object)"}},
		{"an added subtree is one change", `{}`, `{"a":{"b":{"c":1}}}`, []string{"info added: a (object)"}},
		{"a field whose object became a string", `{"a":{"b":1}}`, `{"a":"b"}`, []string{"breaking type changed: a (was object, now string)"}},
		{"keys that read as paths are quoted", `{"a.b":1}`, `{"a.b":"1"}`, []string{`breaking type changed: ["a.b"] (was integer, now string)`}},
		{"a fields of a quoted key", `{"a.b":{"c":1}}`, `{"a.b":{}}`, []string{`breaking removed: ["a.b"].c (was integer)`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			was, err := replay.ShapeOf([]byte(tc.was), replay.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			now, err := replay.ShapeOf([]byte(tc.now), replay.Limits{})
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
			s, err := replay.ShapeOf([]byte(tc.body), tc.lim)
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
