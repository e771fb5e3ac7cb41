package compare_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract/compare"
)

// The corpus of contract pairs (testdata/changes/README.md): the movies and
// tasks contracts, each changed in many realistic ways by its FastAPI app,
// with what a client of the OLD contract suffers from each change.
const changesDir = "../../testdata/changes"

// pairContracts are the contracts the corpus changes.
var pairContracts = []string{"movies", "tasks"}

// expectations is a contract's expected.json.
type expectations struct {
	Old   string         `json:"old"` // the OLD document, from the module root
	Pairs []expectedPair `json:"pairs"`
}

// expectedPair is one change: NEW is testdata/changes/<contract>/<Name>.json.
type expectedPair struct {
	Name    string `json:"name"`
	Did     string `json:"did"`     // what the backend developer did
	Class   string `json:"class"`   // breaking, warning or safe (nothing above info)
	Suffers string `json:"suffers"` // what a client of the OLD contract suffers
	// Touches are the operations ("METHOD /path", in OLD or, for an added
	// one, NEW) the change concerns: no other may have a warning or worse.
	Touches  []string          `json:"touches"`
	Findings []expectedFinding `json:"findings"` // each must be in the report
	// AtMost are places whose findings must not be above a level: what
	// the engine alone takes for worse than a FastAPI client suffers.
	AtMost []expectedFinding `json:"at_most"`
	// Oasdiff says how the engine alone reads the change, where the
	// expectation differs from it.
	Oasdiff string `json:"oasdiff"`
}

// expectedFinding matches a Change: its level, its operation, ID its id or
// one of the engine's ids behind it ("" any), Where a substring of its Where.
type expectedFinding struct {
	Level     string `json:"level"`
	Operation string `json:"operation"`
	ID        string `json:"id"`
	Where     string `json:"where"`
}

func (f expectedFinding) String() string {
	s := f.Level + " " + f.Operation
	if f.ID != "" {
		s += " [" + f.ID + "]"
	}
	if f.Where != "" {
		s += fmt.Sprintf(" where %q", f.Where)
	}
	return s
}

func (f expectedFinding) place(c compare.Change) bool {
	return c.Operation() == f.Operation && strings.Contains(c.Where, f.Where) &&
		(f.ID == "" || c.ID == f.ID || slices.Contains(c.Engine, f.ID))
}

// pending are expectations the comparison does not meet yet, by
// "<contract>/<name>", with why: reported, not failed, until met (then the
// test fails: take the entry off).
var pending = map[string]string{}

func loadExpectations(t *testing.T, contract string) expectations {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(changesDir, contract, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var e expectations
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		t.Fatalf("%s/expected.json: %v", contract, err)
	}
	return e
}

// TestPairsCorpus checks the corpus itself: a NEW document for every
// expectation and the other way round, at least 15 changes that break or
// warn and 3 safe ones per contract, and well-formed expectations.
func TestPairsCorpus(t *testing.T) {
	for _, contract := range pairContracts {
		e := loadExpectations(t, contract)
		names := map[string]bool{}
		unsafe, safe := 0, 0
		for _, p := range e.Pairs {
			where := contract + "/" + p.Name
			if names[p.Name] {
				t.Errorf("%s: listed twice", where)
			}
			names[p.Name] = true
			if _, err := os.Stat(filepath.Join(changesDir, contract, p.Name+".json")); err != nil {
				t.Errorf("%s: no NEW document: %v", where, err)
			}
			if p.Did == "" || p.Suffers == "" || len(p.Touches) == 0 {
				t.Errorf("%s: say what was done (did), what a client suffers (suffers) and which operations it touches", where)
			}
			switch p.Class {
			case "breaking", "warning":
				unsafe++
				if len(p.Findings) == 0 {
					t.Errorf("%s: a %s change expects no finding", where, p.Class)
				}
			case "safe":
				safe++
			default:
				t.Errorf("%s: class %q, want breaking, warning or safe", where, p.Class)
			}
			for _, f := range append(slices.Clone(p.Findings), p.AtMost...) {
				if _, err := parseLevel(f.Level); err != nil {
					t.Errorf("%s: %s: %v", where, f, err)
				}
				if !slices.Contains(p.Touches, f.Operation) {
					t.Errorf("%s: %s is on an operation the change does not touch (touches)", where, f)
				}
			}
		}
		if unsafe < 15 || safe < 3 {
			t.Errorf("%s: %d breaking or warning changes and %d safe ones, want at least 15 and 3", contract, unsafe, safe)
		}
		files, _ := filepath.Glob(filepath.Join(changesDir, contract, "*.json"))
		for _, f := range files {
			if name := strings.TrimSuffix(filepath.Base(f), ".json"); name != "expected" && !names[name] {
				t.Errorf("%s: no expectation for it in %s/expected.json", f, contract)
			}
		}
		for key := range pending {
			if c, name, _ := strings.Cut(key, "/"); c == contract && !names[name] {
				t.Errorf("pending %s: no such pair", key)
			}
		}
	}
}

func parseLevel(s string) (compare.Level, error) {
	var l compare.Level
	err := l.UnmarshalText([]byte(s))
	return l, err
}

// TestPairs compares each pair and holds the report to the expectation:
// exactly the expected class, every expected finding, nothing above the
// level an at_most entry allows, and no warning or breaking finding on an
// operation the change does not touch.
func TestPairs(t *testing.T) {
	for _, contract := range pairContracts {
		e := loadExpectations(t, contract)
		oldName := filepath.Join("..", "..", filepath.FromSlash(e.Old))
		old, err := os.ReadFile(oldName)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range e.Pairs {
			t.Run(contract+"/"+p.Name, func(t *testing.T) {
				newName := filepath.Join(changesDir, contract, p.Name+".json")
				doc, err := os.ReadFile(newName)
				if err != nil {
					t.Fatal(err)
				}
				r, err := compare.Compare(old, doc, oldName, newName, compare.Options{})
				if err != nil {
					t.Fatal(err)
				}
				problems := checkPair(p, r)
				key := contract + "/" + p.Name
				why, isPending := pending[key]
				switch {
				case len(problems) > 0 && isPending:
					t.Logf("pending (%s):\n  %s", why, strings.Join(problems, "\n  "))
				case len(problems) > 0:
					t.Errorf("%s (%s):\n  %s\nthe report:\n%s", key, p.Did, strings.Join(problems, "\n  "), describe(r))
				case isPending:
					t.Errorf("%s meets its expectation now: take it off pending", key)
				}
			})
		}
	}
}

// checkPair says how r differs from what p expects; nothing if it does not.
func checkPair(p expectedPair, r *compare.Report) []string {
	var problems []string
	top := compare.Info
	for _, c := range r.Changes {
		top = max(top, c.Level)
	}
	class := top.String()
	if top == compare.Info {
		class = "safe"
	}
	if class != p.Class {
		problems = append(problems, fmt.Sprintf("class %s, want %s", class, p.Class))
	}
	for _, f := range p.Findings {
		want, _ := parseLevel(f.Level)
		found := slices.ContainsFunc(r.Changes, func(c compare.Change) bool { return c.Level == want && f.place(c) })
		if !found {
			var near []string
			for _, c := range r.Changes {
				if c.Operation() == f.Operation {
					near = append(near, fmt.Sprintf("%s [%s] where %q", c.Level, c.ID, c.Where))
				}
			}
			problems = append(problems, fmt.Sprintf("no finding %s; on that operation: %s", f, orNone(near)))
		}
	}
	for _, f := range p.AtMost {
		limit, _ := parseLevel(f.Level)
		for _, c := range r.Changes {
			if c.Level > limit && f.place(c) {
				problems = append(problems, fmt.Sprintf("%s [%s] %s where %q: want at most %s (%s)", c.Level, c.ID, c.Operation(), c.Where, f.Level, c.Text))
			}
		}
	}
	for _, c := range r.Changes {
		if c.Level >= compare.Warning && !slices.Contains(p.Touches, c.Operation()) {
			op := c.Operation()
			if op == "" {
				op = "the document"
			}
			problems = append(problems, fmt.Sprintf("%s [%s] on %s, which the change does not touch: %s", c.Level, c.ID, op, c.Text))
		}
	}
	return problems
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, "; ")
}

// describe lists a report's changes, one a line.
func describe(r *compare.Report) string {
	var b strings.Builder
	for _, c := range r.Changes {
		fmt.Fprintf(&b, "  %-8s %-45s %-40s %q\n", c.Level, c.ID, c.Operation(), c.Where)
	}
	if b.Len() == 0 {
		return "  (no change)\n"
	}
	return b.String()
}

// TestCheckPair holds the pairs' checker to what it must catch.
func TestCheckPair(t *testing.T) {
	p := expectedPair{
		Name: "x", Class: "breaking", Touches: []string{"GET /a", "POST /a"},
		Findings: []expectedFinding{{Level: "breaking", Operation: "GET /a", ID: "engine-id", Where: "name"}},
		AtMost:   []expectedFinding{{Level: "info", Operation: "POST /a", Where: "request body: name"}},
	}
	found := compare.Change{ID: "ours", Engine: []string{"engine-id"}, Level: compare.Breaking, Method: "GET", Path: "/a", Where: "response 200 body: name"}
	for _, tc := range []struct {
		name    string
		changes []compare.Change
		want    []string // substrings of the problems, in order
	}{
		{"met", []compare.Change{found, {Level: compare.Info, Method: "POST", Path: "/a", Where: "request body: name"}}, nil},
		{"class", []compare.Change{{Level: compare.Warning, Method: "GET", Path: "/a", Where: "name"}},
			[]string{"class warning, want breaking", "no finding breaking GET /a [engine-id]"}},
		{"at most", []compare.Change{found, {Level: compare.Warning, Method: "POST", Path: "/a", Where: "request body: name"}},
			[]string{`warning [] POST /a where "request body: name": want at most info`}},
		{"untouched", []compare.Change{found, {Level: compare.Warning, Method: "GET", Path: "/b"}, {Level: compare.Breaking}},
			[]string{"warning [] on GET /b, which the change does not touch", "breaking [] on the document"}},
		{"safe", nil, []string{"class safe, want breaking", "no finding"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := checkPair(p, &compare.Report{Changes: tc.changes})
			if len(got) != len(tc.want) {
				t.Fatalf("problems %q, want %d", got, len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("problem %d %q, want it to say %q", i, got[i], w)
				}
			}
		})
	}
}
