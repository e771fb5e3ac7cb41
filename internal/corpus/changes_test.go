package corpus

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestPredecessors(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "openapi"), 0o755); err != nil {
		t.Fatal(err)
	}
	docs := map[string]string{
		"body.tutorial001_py310":     `{"a": 1}`,
		"body.tutorial002_an_py310":  `{"a": 2}`,
		"body.tutorial002_py310":     `{"a": 2}`, // the same bytes as its _an_: no change
		"body.tutorial003_py310":     `{"a": 3}`,
		"events.tutorial001_py310":   `{"a": 4}`, // another topic: no predecessor
		"app_testing.main_py310":     `{"a": 5}`, // no .tutorial: no topic
		"app_testing.tutorial_py310": `{"a": 6}`,
	}
	var apps []corpusApp
	for name, doc := range docs {
		if err := os.WriteFile(filepath.Join(dir, "openapi", name+".json"), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		apps = append(apps, corpusApp{Name: name})
	}
	predecessors(t, dir, apps)
	got := map[string]string{}
	for _, a := range apps {
		if a.old != nil {
			got[a.Name] = a.old.Name
		}
	}
	want := map[string]string{
		"body.tutorial002_an_py310": "body.tutorial001_py310",
		"body.tutorial003_py310":    "body.tutorial002_py310",
	}
	if !maps.Equal(got, want) {
		t.Errorf("predecessors: %v, want %v", got, want)
	}
}

func TestChangeOutcome(t *testing.T) {
	base := verdict{failure: "unknown_id_not_found: FAILED", failed: map[string]int{"unknown_id_not_found": 1}}
	for _, tc := range []struct {
		name string
		ch   change
		base verdict
		want []string
	}{
		{"passes against both", change{}, verdict{}, nil},
		{"fails as against itself", change{against: base}, base, nil},
		{"a check fails more cases", change{against: verdict{failure: "x", failed: map[string]int{"unknown_id_not_found": 2}}}, base, []string{"unknown_id_not_found"}},
		{"another check fails", change{against: verdict{failure: "x", failed: map[string]int{"unknown_id_not_found": 1, "positive_data_acceptance": 3}}}, base, []string{"positive_data_acceptance"}},
		{"the run fails with no check failing", change{against: verdict{failure: "timed out", failed: map[string]int{}}}, verdict{}, []string{"run"}},
		{"diff does not answer", change{diffErr: "diff: exit status 2"}, verdict{}, []string{"diff"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.ch.outcome(tc.base)
			if !slices.Equal(o.found, tc.want) || (o.failure == "") != (tc.want == nil) {
				t.Errorf("outcome: found %q (failure %q), want %q", o.found, o.failure, tc.want)
			}
		})
	}
}
