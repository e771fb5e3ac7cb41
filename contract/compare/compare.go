// Package compare says what changed between two versions of a contract and
// what each change does to a client: every change classed breaking, warning
// or info, with the operation it concerns (in the OLD document), where in it
// (a parameter, a body field, the security), and why a client suffers.
//
// oasdiff (github.com/oasdiff/oasdiff) finds the changes; this package reads
// its findings again (rules.go) by the framework profile NEW shows, as the
// mock and the runner choose it. For every document, an Optional (anyOf
// [T, {type: null}]) is one change, "made nullable", not a type change, an
// anyOf added and the fields below removed, and findings no client can see
// (the version not bumped) are dropped. A FastAPI document is read as its
// backend means it: a response field with a default is sent in every answer
// although it is not in `required`, so removing it breaks a client that
// reads it, and every security scheme of a route is required. Any other is
// read by its own words: its security requirements are alternatives, and an
// invalid request is refused with the status its operation declares. Both documents are read by
// internal/spec, under its budgets, as every other command reads a contract.
//
// It neither fetches documents nor writes reports to files: cmd/moviemock
// does.
package compare

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/oasdiff/oasdiff/checker"
	"github.com/oasdiff/oasdiff/diff"
	"github.com/oasdiff/oasdiff/load"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/spec"
)

// Engine names the comparison engine and its version, for the reports.
const Engine = "oasdiff v1.35.0"

// Level is how hard a change hits a client.
type Level int

const (
	// Info: no client that followed the OLD document is affected.
	Info Level = iota
	// Warning: some clients may be affected (they send what is now ignored,
	// or handle only the values they knew).
	Warning
	// Breaking: a client that followed the OLD document fails: its
	// request is refused, or it cannot read the answer.
	Breaking
)

var levelNames = [...]string{Info: "info", Warning: "warning", Breaking: "breaking"}

func (l Level) String() string {
	if l < Info || l > Breaking {
		return fmt.Sprintf("level(%d)", int(l))
	}
	return levelNames[l]
}

// MarshalText writes a level by its name.
func (l Level) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// UnmarshalText reads a level's name.
func (l *Level) UnmarshalText(b []byte) error {
	i := slices.Index(levelNames[:], string(b))
	if i < 0 {
		return fmt.Errorf("unknown level %q (info, warning or breaking)", b)
	}
	*l = Level(i)
	return nil
}

// Change is one change between the documents, as a client meets it.
type Change struct {
	// ID names the kind of change: oasdiff's check id, or this package's
	// where it reads oasdiff's findings again (see Rules).
	ID    string `json:"id"`
	Level Level  `json:"level"`
	// Method and Path are the operation in the OLD document (in NEW for an
	// added one); both empty for a document-wide change.
	Method string `json:"method,omitempty"`
	Path   string `json:"path,omitempty"`
	// Where is the place in the operation: "query parameter limit",
	// "request body: priority", "response 200 body: items[].title",
	// "security"; empty for the operation itself.
	Where string `json:"where,omitempty"`
	// Why is what a client suffers, in one sentence.
	Why string `json:"why"`
	// Text is the change itself, as oasdiff words it.
	Text string `json:"text"`
	// Engine lists the ids of oasdiff's findings the change stands for,
	// when it replaces oasdiff's id or tells several findings as one.
	Engine []string `json:"engine_ids,omitempty"`
	// Hits are the recorded calls the change touches (diff --traffic), in
	// the recording's order, the first 100; HitCount counts them all.
	Hits     []Hit `json:"hits,omitempty"`
	HitCount int   `json:"hit_count,omitempty"`

	at place // where exactly, for MarkTraffic
}

// Operation is "METHOD /path", or "" for a document-wide change.
func (c *Change) Operation() string {
	if c.Method == "" {
		return ""
	}
	return c.Method + " " + c.Path
}

// Hit is a recorded call a change touches: its place in the recording
// (1-based), its method and path, and the field involved when known.
type Hit struct {
	Index  int    `json:"index"`
	Method string `json:"method"`
	Path   string `json:"path"`
	Field  string `json:"field,omitempty"`
}

// Report is the comparison of two documents.
type Report struct {
	// Old and New name the documents as they were given.
	Old, New string
	// Framework is the profile the changes are read by: FastAPI's habits
	// where NEW is FastAPI's document, the documents' own words for any
	// other; FrameworkWhy is what showed it (or that a flag chose it).
	Framework    framework.Name
	FrameworkWhy string
	// Changes are sorted by operation (path, then method), then level
	// (breaking first), then where.
	Changes []Change
	// Dropped counts oasdiff's findings no client can see, left out.
	Dropped int
	// FailOn is the level the reports' verdict is judged at (Verdict);
	// "" is FailOnBreaking.
	FailOn FailOn
	// MaxChanges is the number of oasdiff's findings the comparison
	// collects at most (0: no limit); Stopped, that it stopped there, so
	// the changes are those of the first operations only and the verdict
	// is of what was seen.
	MaxChanges int
	Stopped    bool
	// Traffic is what MarkTraffic knows of the recorded calls; nil
	// without.
	Traffic *Traffic
}

// Count is the number of changes at level l.
func (r *Report) Count(l Level) int {
	n := 0
	for i := range r.Changes {
		if r.Changes[i].Level == l {
			n++
		}
	}
	return n
}

// FailOn is the level of change that fails a comparison (diff --fail-on).
type FailOn string

// The --fail-on values.
const (
	FailOnBreaking FailOn = "breaking"
	FailOnWarning  FailOn = "warning"
	FailOnNever    FailOn = "never"
)

// FailOns are the values ParseFailOn takes, for usage texts.
var FailOns = []FailOn{FailOnBreaking, FailOnWarning, FailOnNever, FailOnBreakingUsed}

// ParseFailOn reads a --fail-on value.
func ParseFailOn(s string) (FailOn, error) {
	if i := slices.Index(FailOns, FailOn(s)); i >= 0 {
		return FailOns[i], nil
	}
	names := make([]string, len(FailOns))
	for i, f := range FailOns {
		names[i] = string(f)
	}
	return "", fmt.Errorf("%q: use %s", s, strings.Join(names, ", "))
}

// Verdict is the changes that fail the comparison under f, in report order:
// none means it passes.
func (r *Report) Verdict(f FailOn) []Change {
	var min Level
	used := false
	switch f {
	case FailOnBreaking:
		min = Breaking
	case FailOnBreakingUsed:
		min, used = Breaking, true
	case FailOnWarning:
		min = Warning
	default:
		return nil
	}
	var failing []Change
	for _, c := range r.Changes {
		if c.Level >= min && (!used || c.HitCount > 0) {
			failing = append(failing, c)
		}
	}
	return failing
}

// Options hold a comparison to budgets.
type Options struct {
	// Limits are the loader's budgets for each document (the size: diff
	// --max-spec-bytes).
	Limits spec.Limits
	// MaxDepth refuses a document whose schemas nest deeper (diff
	// --max-depth; 0: no limit): see DefaultMaxDepth.
	MaxDepth int
	// OldPath and NewPath are the files the documents were read from: a
	// document's references to other files ("./models.yaml#/Pet") are
	// read beside it, under the same budgets (spec.LoadFile). "" for a
	// document from elsewhere (a URL), whose references stay its own.
	OldPath, NewPath string
}

// loadSide loads one side's document: from its file when it has one.
func loadSide(data []byte, name, path string, lim spec.Limits) (*spec.Spec, error) {
	if path != "" {
		return spec.LoadFile(data, path, lim)
	}
	return spec.LoadLimited(data, name, lim)
}

// LoadError is a document that could not be read: Side is "OLD" or "NEW".
type LoadError struct {
	Side, Name string
	Err        error
}

// Error names the side; Err names the document and what is wrong.
func (e *LoadError) Error() string { return fmt.Sprintf("%s: %v", e.Side, e.Err) }

func (e *LoadError) Unwrap() error { return e.Err }

// Compare loads two documents (YAML or JSON, OpenAPI 3.0 or 3.1, FastAPI's
// as it serves them) and compares them. A document that does not load is a
// *LoadError naming its side.
func Compare(old, new []byte, oldName, newName string, opts Options) (*Report, error) {
	so, sn, err := Load(old, new, oldName, newName, opts)
	if err != nil {
		return nil, err
	}
	return CompareSpecs(so, sn)
}

// Load loads both documents, side by side: on two cores that halves the
// wait for two large ones. An error is a *LoadError, OLD's first; a
// media type written as null is one, on either side, naming where.
func Load(old, new []byte, oldName, newName string, opts Options) (*spec.Spec, *spec.Spec, error) {
	var sn *spec.Spec
	var errNew error
	done := make(chan struct{})
	go func() {
		defer close(done)
		sn, errNew = loadSide(new, newName, opts.NewPath, opts.Limits)
	}()
	so, errOld := loadSide(old, oldName, opts.OldPath, opts.Limits)
	<-done
	if errOld != nil {
		return nil, nil, &LoadError{Side: "OLD", Name: oldName, Err: errOld}
	}
	if errNew != nil {
		return nil, nil, &LoadError{Side: "NEW", Name: newName, Err: errNew}
	}
	for _, d := range []struct {
		side, name string
		s          *spec.Spec
	}{{"OLD", oldName, so}, {"NEW", newName, sn}} {
		if where := nullMediaType(d.s.Doc); where != "" {
			return nil, nil, &LoadError{Side: d.side, Name: d.name, Err: fmt.Errorf("%s: %s", contract.Safe(d.name), contract.Safe(where))}
		}
		if e := tooDeep(d.s.Doc, opts.MaxDepth); e != nil {
			e.Where = contract.Safe(e.Where)
			return nil, nil, &LoadError{Side: d.side, Name: d.name, Err: fmt.Errorf("%s: %w", contract.Safe(d.name), e)}
		}
	}
	return so, sn, nil
}

// DefaultMaxChanges is how many of oasdiff's findings a comparison
// collects by default (diff --max-changes).
const DefaultMaxChanges = 10000

// CompareSpecs compares two loaded documents, collecting at most
// DefaultMaxChanges findings. It does not change them.
func CompareSpecs(old, new *spec.Spec) (*Report, error) {
	return CompareSpecsMax(old, new, DefaultMaxChanges)
}

// CompareSpecsMax compares two loaded documents, collecting oasdiff's
// findings until maxChanges are found (0: no limit): then Report.Stopped
// says the report holds only those. The changes are read by the profile
// NEW shows (CompareSpecsAs). It does not change the documents.
func CompareSpecsMax(old, new *spec.Spec, maxChanges int) (*Report, error) {
	return CompareSpecsAs(old, new, maxChanges, "")
}

// CompareSpecsAs is CompareSpecsMax reading the changes by the profile
// fw: "" for the one NEW shows (framework.Detect), as the mock and the
// runner of NEW would choose it. The behaviour a client meets after the
// change is NEW's backend's.
func CompareSpecsAs(old, new *spec.Spec, maxChanges int, fw framework.Name) (r *Report, err error) {
	if old == nil || new == nil {
		return nil, errors.New("compare: a document is missing")
	}
	// Both documents come from outside: a panic in the engine on one of
	// them is an error naming them, not a crash.
	defer func() {
		if p := recover(); p != nil {
			r, err = nil, fmt.Errorf("compare %s and %s: the comparison failed on these documents: %v", old.Source(), new.Source(), p)
		}
	}()
	// oasdiff reads FastAPI's Optional of an inline schema as the schema
	// made nullable, so that it compares the constraints inside.
	s1 := &load.SpecInfo{Spec: optionalsMerged(old.Doc), Url: old.Source(), Version: version(old)}
	s2 := &load.SpecInfo{Spec: optionalsMerged(new.Doc), Url: new.Source(), Version: version(new)}
	d, sources, err := diff.GetWithOperationsSourcesMap(diff.NewConfig(diff.WithExcludeElements(notSeen)), s1, s2)
	if err != nil {
		return nil, fmt.Errorf("compare %s and %s: %w", old.Source(), new.Source(), err)
	}
	found, stopped := check(d, sources, maxChanges)
	r = &Report{Old: contract.Safe(old.Source()), New: contract.Safe(new.Source()), MaxChanges: maxChanges, Stopped: stopped}
	r.Framework, r.FrameworkWhy = fw, "chosen by --framework"
	if fw == "" {
		var mark string
		r.Framework, mark = framework.Detect(new.Doc)
		r.FrameworkWhy = "NEW shows it: " + contract.Safe(mark)
	}
	r.Changes, r.Dropped = read(found, old, new, r.Framework)
	sortChanges(r.Changes)
	return r, nil
}

// check is oasdiff's findings of every level on d, operation path by
// path, until max are found (0: no limit); stopped says it ended there.
//
// oasdiff tells a change below a schema once for every operation that
// reaches it, with its whole place: a chain of n models each referring
// to the next, changed in each, and answered by an operation each, is n²/2
// findings whose places are n long, and walking them costs n³. Checked a
// path at a time, the cost stops with the findings: the document-wide
// checks first, then each changed path in order.
func check(d *diff.Diff, sources *diff.OperationsSourcesMap, max int) (checker.Changes, bool) {
	config := checker.NewConfig(checker.GetAllChecks())
	if max <= 0 || d == nil || d.PathsDiff == nil || len(d.PathsDiff.Modified) == 0 {
		found := checker.CheckBackwardCompatibilityUntilLevel(config, d, sources, checker.INFO)
		return found, max > 0 && len(found) > max
	}
	// The document without its changed paths (their added and removed
	// ones stay), then each changed path alone, with the context the
	// checks read (the documents' info, versions, security, paths).
	rest := *d
	paths := *d.PathsDiff
	paths.Modified = nil
	rest.PathsDiff = &paths
	found := checker.CheckBackwardCompatibilityUntilLevel(config, &rest, sources, checker.INFO)
	// A finding two calls both make (the document's security, seen from
	// the document and from each operation's context) is told once, as
	// the versioning policy's, judged again on each path.
	type key struct{ id, method, path, text string }
	loc := checker.NewDefaultLocalizer()
	keyOf := func(f checker.Change) key {
		if slices.Contains(versionPolicy, f.GetId()) {
			return key{id: f.GetId()}
		}
		return key{f.GetId(), f.GetOperation(), f.GetPath(), f.GetUncolorizedText(loc)}
	}
	seen := map[key]bool{}
	for _, f := range found {
		seen[keyOf(f)] = true
	}
	for _, p := range slices.Sorted(maps.Keys(d.PathsDiff.Modified)) {
		if len(found) >= max {
			return found, true
		}
		one := diff.Diff{
			InfoDiff:        d.InfoDiff,
			PathsDiff:       &diff.PathsDiff{Modified: diff.ModifiedPaths{p: d.PathsDiff.Modified[p]}, Base: d.PathsDiff.Base, Revision: d.PathsDiff.Revision},
			BaseInfo:        d.BaseInfo,
			RevisionInfo:    d.RevisionInfo,
			BaseOpenAPI:     d.BaseOpenAPI,
			RevisionOpenAPI: d.RevisionOpenAPI,
			SecurityContext: d.SecurityContext,
		}
		for _, f := range checker.CheckBackwardCompatibilityUntilLevel(config, &one, sources, checker.INFO) {
			if k := keyOf(f); !seen[k] {
				seen[k] = true
				found = append(found, f)
			}
		}
	}
	return found, len(found) > max
}

// notSeen are the parts of a document oasdiff need not compare: no client
// sees a change to a description, a title (FastAPI titles every field), a
// summary or an example, and comparing them is work on every schema.
var notSeen = []string{diff.ExcludeDescriptionOption, diff.ExcludeTitleOption, diff.ExcludeSummaryOption, diff.ExcludeExamplesOption}

func version(s *spec.Spec) string {
	if s.Doc.Info == nil {
		return ""
	}
	return s.Doc.Info.Version
}

// methodOrder is the order of methods within a path.
var methodOrder = []string{"GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE", "TRACE", "CONNECT", "QUERY"}

func methodRank(m string) int {
	if i := slices.Index(methodOrder, m); i >= 0 {
		return i
	}
	return len(methodOrder)
}

func sortChanges(cs []Change) {
	slices.SortStableFunc(cs, func(a, b Change) int {
		return cmp.Or(
			cmp.Compare(a.Path, b.Path),
			cmp.Compare(methodRank(a.Method), methodRank(b.Method)),
			cmp.Compare(a.Method, b.Method),
			cmp.Compare(b.Level, a.Level),
			cmp.Compare(a.Where, b.Where),
			cmp.Compare(a.ID, b.ID),
			cmp.Compare(a.Text, b.Text),
		)
	})
}
