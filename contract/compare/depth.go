package compare

import (
	"fmt"
	"maps"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"
)

// DefaultMaxDepth is how deep schemas may nest in one another for diff to
// compare them (diff --max-depth). oasdiff builds the whole place of every
// finding below a schema at each step it takes down, so one operation
// over a chain of n models each holding the next costs n³: 2,000 deep
// took 27 s, 256 deep takes a few hundredths of a second. Documents
// written by hand or by a framework nest a few tens deep.
const DefaultMaxDepth = 256

// TooDeepError is a document whose schemas nest deeper than the
// comparison's budget.
type TooDeepError struct {
	Where string // where the deepest nesting starts: components.schemas.M0, GET /m: response 200
	Max   int
}

func (e *TooDeepError) Error() string {
	return fmt.Sprintf("%s: schemas nest more than %d deep, past the comparison's budget (oasdiff's cost grows with the cube of the depth); raise --max-depth to compare it, 0 for no limit", e.Where, e.Max)
}

// tooDeep is where doc's schemas first nest deeper than max: nil when they
// do not. Each schema is measured once (a chain of n models costs n), and
// a walk never goes more than max+1 levels down; a schema met again below
// itself (recursion) ends that branch, as oasdiff ends it.
func tooDeep(doc *openapi3.T, max int) *TooDeepError {
	if doc == nil || max <= 0 {
		return nil
	}
	w := &depthWalk{max: max, memo: map[*openapi3.Schema]int{}, open: map[*openapi3.Schema]bool{}}
	if c := doc.Components; c != nil {
		for _, name := range slices.Sorted(maps.Keys(c.Schemas)) {
			if w.depth(c.Schemas[name], 1) > max {
				return &TooDeepError{Where: "components.schemas." + name, Max: max}
			}
		}
	}
	if doc.Paths == nil {
		return nil
	}
	for _, path := range slices.Sorted(maps.Keys(doc.Paths.Map())) {
		item := doc.Paths.Value(path)
		if item == nil {
			continue
		}
		ops := item.Operations()
		for _, method := range slices.Sorted(maps.Keys(ops)) {
			if where := w.operation(ops[method], item.Parameters); where != "" {
				return &TooDeepError{Where: method + " " + path + ": " + where, Max: max}
			}
		}
	}
	return nil
}

type depthWalk struct {
	max  int
	memo map[*openapi3.Schema]int
	open map[*openapi3.Schema]bool // on the walk's way down
}

// operation is the first of op's schemas that nests past the budget, ""
// when none does.
func (w *depthWalk) operation(op *openapi3.Operation, shared openapi3.Parameters) string {
	if op == nil {
		return ""
	}
	for _, list := range []openapi3.Parameters{shared, op.Parameters} {
		for _, p := range list {
			if p == nil || p.Value == nil {
				continue
			}
			if w.depth(p.Value.Schema, 1) > w.max || w.content(p.Value.Content) {
				return "parameter " + p.Value.Name
			}
		}
	}
	if rb := op.RequestBody; rb != nil && rb.Value != nil && w.content(rb.Value.Content) {
		return "request body"
	}
	if op.Responses != nil {
		for _, status := range slices.Sorted(maps.Keys(op.Responses.Map())) {
			r := op.Responses.Value(status)
			if r == nil || r.Value == nil {
				continue
			}
			if w.content(r.Value.Content) {
				return "response " + status
			}
			for _, name := range slices.Sorted(maps.Keys(r.Value.Headers)) {
				if h := r.Value.Headers[name]; h != nil && h.Value != nil && w.depth(h.Value.Schema, 1) > w.max {
					return "response " + status + " header " + name
				}
			}
		}
	}
	return ""
}

func (w *depthWalk) content(c openapi3.Content) bool {
	for _, mt := range c {
		if mt != nil && w.depth(mt.Schema, 1) > w.max {
			return true
		}
	}
	return false
}

// depth is how many schemas nest from ref down, ref's own level being
// level; past max it stops and answers max+1.
func (w *depthWalk) depth(ref *openapi3.SchemaRef, level int) int {
	if ref == nil || ref.Value == nil {
		return 0
	}
	if level > w.max {
		return w.max + 1
	}
	s := ref.Value
	if d, ok := w.memo[s]; ok {
		return d
	}
	if w.open[s] {
		return 0
	}
	w.open[s] = true
	deepest := 0
	below := func(r *openapi3.SchemaRef) {
		if deepest <= w.max {
			deepest = max(deepest, w.depth(r, level+1))
		}
	}
	for _, list := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf, s.PrefixItems} {
		for _, r := range list {
			below(r)
		}
	}
	for _, m := range []openapi3.Schemas{s.Properties, s.PatternProperties, s.DependentSchemas} {
		for _, r := range m {
			below(r)
		}
	}
	for _, r := range []*openapi3.SchemaRef{s.Items, s.AdditionalProperties.Schema, s.Not, s.Contains, s.PropertyNames, s.If, s.Then, s.Else} {
		below(r)
	}
	delete(w.open, s)
	d := 1 + deepest
	if d > w.max {
		return w.max + 1
	}
	w.memo[s] = d
	return d
}
