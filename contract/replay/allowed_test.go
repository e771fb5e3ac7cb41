package replay_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/contract/replay"
)

// schemaOf loads the response schema sch (JSON) of a small document whose
// components.schemas are components (JSON, "" none), resolving its $refs.
func schemaOf(t *testing.T, version, sch, components string) *openapi3.SchemaRef {
	t.Helper()
	if components == "" {
		components = "{}"
	}
	doc := fmt.Sprintf(`{"openapi":%q,"info":{"title":"t","version":"1"},"paths":{"/x":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":%s}}}}}}},"components":{"schemas":%s}}`, version, sch, components)
	loaded, err := openapi3.NewLoader().LoadFromData([]byte(doc))
	if err != nil {
		t.Fatalf("load %s: %v", doc, err)
	}
	return loaded.Paths.Value("/x").Get.Responses.Value("200").Value.Content.Get("application/json").Schema
}

// movie is a FastAPI model of Optional fields, a union and an Any, as
// FastAPI 0.141 writes it (3.1).
const movieComponents = `{
 "Movie":{"type":"object","required":["id","title"],"properties":{
  "id":{"type":"string"},
  "title":{"type":"string"},
  "year":{"anyOf":[{"type":"integer"},{"type":"null"}]},
  "rating":{"anyOf":[{"type":"number"},{"type":"null"}]},
  "code":{"anyOf":[{"type":"integer"},{"type":"string"}]},
  "extra":{},
  "poster":{"anyOf":[{"$ref":"#/components/schemas/Poster"},{"type":"null"}]},
  "cast":{"type":"array","items":{"$ref":"#/components/schemas/Person"}},
  "reactions":{"type":"object","additionalProperties":{"anyOf":[{"type":"integer"},{"type":"null"}]}},
  "meta":{"type":"object","additionalProperties":true},
  "strict":{"type":"integer"}}},
 "Poster":{"type":"object","properties":{"url":{"type":"string"},"width":{"anyOf":[{"type":"integer"},{"type":"null"}]}}},
 "Person":{"type":"object","properties":{"name":{"type":"string"},"born":{"anyOf":[{"type":"string"},{"type":"null"}]},"friends":{"type":"array","items":{"$ref":"#/components/schemas/Person"}}}}}`

func TestCompareWithRecordedContract(t *testing.T) {
	t.Parallel()
	const movie = `{"$ref":"#/components/schemas/Movie"}`
	const movies = `{"type":"array","items":{"$ref":"#/components/schemas/Movie"}}`
	tests := []struct {
		name         string
		version      string // "": 3.1.0
		schema       string
		components   string
		was, now     string
		dicts        []string
		withoutSpec  []string // the changes knowing no contract
		withRecorded []string // the changes knowing the recorded contract
		excused      int      // of which excused with it
	}{
		{"an Optional field made null", "", movie, movieComponents,
			`{"id":"a","title":"x","year":1999}`, `{"id":"b","title":"y","year":null}`, nil,
			[]string{"breaking made null: year (was integer, now null)"}, nil, 1},
		{"a required field made null is still a change", "", movie, movieComponents,
			`{"id":"a","title":"x"}`, `{"id":"b","title":null}`, nil,
			[]string{"breaking made null: title (was string, now null)"},
			[]string{"breaking made null: title (was string, now null)"}, 0},
		{"a union's other kind", "", movie, movieComponents,
			`{"id":"a","title":"x","code":7}`, `{"id":"b","title":"y","code":"7b"}`, nil,
			[]string{"breaking type changed: code (was integer, now string)"}, nil, 1},
		{"a kind no branch of the union allows", "", movie, movieComponents,
			`{"id":"a","title":"x","code":7}`, `{"id":"b","title":"y","code":true}`, nil,
			[]string{"breaking type changed: code (was integer, now boolean)"},
			[]string{"breaking type changed: code (was integer, now boolean)"}, 0},
		{"an integer field is not a number", "", movie, movieComponents,
			`{"id":"a","title":"x","strict":7}`, `{"id":"b","title":"y","strict":7.5}`, nil,
			[]string{"breaking type changed: strict (was integer, now number)"},
			[]string{"breaking type changed: strict (was integer, now number)"}, 0},
		{"a float field written 8 then 8.5", "", movie, movieComponents,
			`{"id":"a","title":"x","rating":8}`, `{"id":"b","title":"y","rating":8.5}`, nil,
			[]string{"breaking type changed: rating (was integer, now number)"}, nil, 1},
		{"Any, and below it", "", movie, movieComponents,
			`{"id":"a","title":"x","extra":{"a":[1]}}`, `{"id":"b","title":"y","extra":{"a":["s",null]}}`, nil,
			[]string{"breaking type changed: extra.a[] (was integer, now string|null)", "breaking made null: extra.a[] (was integer, now string|null)"}, nil, 2},
		{"a removed field is still removed", "", movie, movieComponents,
			`{"id":"a","title":"x","year":1999}`, `{"id":"b","title":"y"}`, nil,
			[]string{"breaking removed: year (was integer)"}, []string{"breaking removed: year (was integer)"}, 0},
		{"in a list's items, through $ref", "", movies, movieComponents,
			`[{"id":"a","title":"x","poster":{"url":"u","width":3}}]`, `[{"id":"a","title":"x","poster":null},{"id":"b","title":"y","poster":{"url":"v","width":null}}]`, nil,
			[]string{"breaking made null: [].poster (was object, now object|null)", "breaking made null: [].poster.width (was integer, now null)"}, nil, 2},
		{"a recursive schema", "", movie, movieComponents,
			`{"id":"a","title":"x","cast":[{"name":"n","friends":[{"name":"m","born":"1970","friends":[{"born":"1980"}]}]}]}`,
			`{"id":"a","title":"x","cast":[{"name":"n","friends":[{"name":"m","born":null,"friends":[{"born":null}]}]}]}`, nil,
			[]string{"breaking made null: cast[].friends[].born (was string, now null)", "breaking made null: cast[].friends[].friends[].born (was string, now null)"}, nil, 2},
		{"a dict's values, read as a dict", "", movie, movieComponents,
			`{"id":"a","title":"x","reactions":{"like":4}}`, `{"id":"a","title":"x","reactions":{"wow":null}}`, []string{"reactions"},
			[]string{"breaking made null: reactions{} (was integer, now null)"}, nil, 1},
		{"a dict's values, read as fields", "", movie, movieComponents,
			`{"id":"a","title":"x","reactions":{"like":4}}`, `{"id":"a","title":"x","reactions":{"like":null}}`, nil,
			[]string{"breaking made null: reactions.like (was integer, now null)"}, nil, 1},
		{"a free-form dict", "", movie, movieComponents,
			`{"id":"a","title":"x","meta":{"k":{"n":1}}}`, `{"id":"a","title":"x","meta":{"k":{"n":"1"}}}`, nil,
			[]string{"breaking type changed: meta.k.n (was integer, now string)"}, nil, 1},
		{"a field the contract does not declare", "", movie, movieComponents,
			`{"id":"a","title":"x","legacy":1}`, `{"id":"a","title":"x","legacy":null}`, nil,
			[]string{"breaking made null: legacy (was integer, now null)"},
			[]string{"breaking made null: legacy (was integer, now null)"}, 0},
		{"3.0's nullable", "3.0.3", `{"type":"object","properties":{"year":{"type":"integer","nullable":true},"title":{"type":"string"}}}`, "",
			`{"title":"x","year":1999}`, `{"title":null,"year":null}`, nil,
			[]string{"breaking made null: title (was string, now null)", "breaking made null: year (was integer, now null)"},
			[]string{"breaking made null: title (was string, now null)"}, 1},
		{"a type array", "", `{"type":"object","properties":{"year":{"type":["integer","null"]}}}`, "",
			`{"year":1999}`, `{"year":null}`, nil,
			[]string{"breaking made null: year (was integer, now null)"}, nil, 1},
		{"allOf narrows", "", `{"type":"object","properties":{"n":{"allOf":[{},{"type":"integer"}]}}}`, "",
			`{"n":1}`, `{"n":"1"}`, nil,
			[]string{"breaking type changed: n (was integer, now string)"},
			[]string{"breaking type changed: n (was integer, now string)"}, 0},
		{"an enum's values", "", `{"type":"object","properties":{"v":{"enum":[1,"one",null]}}}`, "",
			`{"v":1}`, `{"v":"one"}`, nil,
			[]string{"breaking type changed: v (was integer, now string)"}, nil, 1},
		{"the body of no schema", "", `{}`, "",
			`[1]`, `{"a":null}`, nil,
			[]string{"breaking type changed: (body) (was array, now object)"}, nil, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			version := tc.version
			if version == "" {
				version = "3.1.0"
			}
			sch := schemaOf(t, version, tc.schema, tc.components)
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
			lines := func(cs []replay.Change) []string {
				var out []string
				for _, c := range cs {
					out = append(out, c.Level.String()+" "+c.String())
				}
				return out
			}
			if got := lines(replay.Compare(was, now)); !slices.Equal(got, tc.withoutSpec) {
				t.Errorf("without a contract:\n got %q\nwant %q", got, tc.withoutSpec)
			}
			got, excused := replay.CompareWith(was, now, replay.Contracts{Recorded: replay.AllowedBy(sch)})
			if !slices.Equal(lines(got), tc.withRecorded) || len(excused) != tc.excused {
				t.Errorf("with the recorded contract:\n got %q, %d excused\nwant %q, %d excused", lines(got), len(excused), tc.withRecorded, tc.excused)
			}
			// The target's contract alone only says a change may be a
			// value: the changes the recorded one excuses, here.
			maybe := map[string]bool{}
			for _, c := range excused {
				maybe[c.Kind+" "+c.Path] = true
			}
			got, none := replay.CompareWith(was, now, replay.Contracts{Target: replay.AllowedBy(sch)})
			if len(got) != len(tc.withoutSpec) || len(none) != 0 {
				t.Fatalf("with the target's contract: %q, %d excused: want %d changes, none excused", lines(got), len(none), len(tc.withoutSpec))
			}
			for _, c := range got {
				if (c.Note == replay.NoteMaybeValue) != maybe[c.Kind+" "+c.Path] {
					t.Errorf("with the target's contract: %s: note %q", c, c.Note)
				}
			}
		})
	}
}

// Knowing both contracts, a value the target's allows and the recorded
// one did not is the contract's change, and the change says so.
func TestCompareWithBothContracts(t *testing.T) {
	t.Parallel()
	base := schemaOf(t, "3.1.0", `{"type":"object","properties":{"year":{"type":"integer"}}}`, "")
	head := schemaOf(t, "3.1.0", `{"type":"object","properties":{"year":{"anyOf":[{"type":"integer"},{"type":"null"}]},"n":{"type":"integer"}}}`, "")
	was, _ := replay.ShapeOf([]byte(`{"year":1999,"n":1}`), replay.Limits{}, nil)
	now, _ := replay.ShapeOf([]byte(`{"year":null,"n":null}`), replay.Limits{}, nil)
	got, excused := replay.CompareWith(was, now, replay.Contracts{Recorded: replay.AllowedBy(base), Target: replay.AllowedBy(head)})
	var lines []string
	for _, c := range got {
		lines = append(lines, c.String())
	}
	want := []string{"made null: year (was integer, now null): " + replay.NoteNotAllowed, "made null: n (was integer, now null)"}
	if !slices.Equal(lines, want) || len(excused) != 0 {
		t.Errorf("got %q, %d excused\nwant %q", lines, len(excused), want)
	}
}

// A hostile contract (recursion, a wide union, deep nesting) is read
// within the budgets, quickly.
func TestAllowedByBudgets(t *testing.T) {
	t.Parallel()
	var wide strings.Builder
	wide.WriteString(`{"anyOf":[`)
	for i := range 50_000 {
		if i > 0 {
			wide.WriteString(",")
		}
		wide.WriteString(`{"$ref":"#/components/schemas/Wide"}`)
	}
	wide.WriteString(`]}`)
	deep := strings.Repeat(`{"type":"object","properties":{"a":`, 200) + `{"type":"integer"}` + strings.Repeat(`}}`, 200)
	tests := []struct {
		name, schema, components string
	}{
		{"self-recursive union", `{"$ref":"#/components/schemas/Wide"}`, `{"Wide":` + wide.String() + `}`},
		{"recursive through fields", `{"$ref":"#/components/schemas/N"}`, `{"N":{"type":"object","properties":{"a":{"$ref":"#/components/schemas/N"},"b":{"$ref":"#/components/schemas/N"},"c":{"type":"array","items":{"$ref":"#/components/schemas/N"}}}}}`},
		{"deeper than the depth budget", deep, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sch := schemaOf(t, "3.1.0", tc.schema, tc.components)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			done := make(chan *replay.Allowed, 1)
			go func() { done <- replay.AllowedBy(sch) }()
			var a *replay.Allowed
			select {
			case a = <-done:
			case <-ctx.Done():
				t.Fatal("AllowedBy did not finish within a minute")
			}
			// Whatever it read, a body past it is compared as without a
			// contract.
			body := `{"a":` + strings.Repeat(`{"a":`, 60) + `1` + strings.Repeat(`}`, 61)
			now := `{"a":` + strings.Repeat(`{"a":`, 60) + `null` + strings.Repeat(`}`, 61)
			was, _ := replay.ShapeOf([]byte(body), replay.Limits{}, nil)
			got, _ := replay.ShapeOf([]byte(now), replay.Limits{}, nil)
			replay.CompareWith(was, got, replay.Contracts{Recorded: a, Target: a})
		})
	}
}
