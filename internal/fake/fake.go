package fake

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/spec"
)

// Generator writes generated values for the schemas of one contract. It is
// safe for concurrent use: plans are compiled under a lock the first time a
// schema is asked for (every component schema is compiled by New), and are
// read-only afterwards.
type Generator struct {
	sp        *spec.Spec
	v31       bool
	names     map[*openapi3.Schema]string // component schema → its name
	schemaIDs map[*openapi3.Schema]int    // schema → a number of its own, for memo keys

	mu    sync.Mutex
	memo  map[memoKey]*node
	fresh []*node  // nodes made since the last finish, for the fixed point
	top   sync.Map // topKey → *node
	notes []string // what the plans cannot honour (Notes)

	dateTime func(time.Time) string // how a date-time is written
	timeOf   func(time.Time) string // how a time (of day) is written
	examples bool                   // a property's own examples are its values (Examples)
}

// Option changes how a Generator writes values.
type Option func(*Generator)

// DateTimes writes date-times with format instead of pydantic's form (a
// framework profile's: framework.Name.FormatDateTime).
func DateTimes(format func(time.Time) string) Option {
	return func(g *Generator) {
		if format != nil {
			g.dateTime = format
		}
	}
}

// Times writes values of format "time" with format instead of pydantic's
// form, which has no offset (a framework profile's:
// framework.Name.FormatTime).
func Times(format func(time.Time) string) Option {
	return func(g *Generator) {
		if format != nil {
			g.timeOf = format
		}
	}
}

// Examples makes a property's own example or examples (those written on
// the property's schema, not on a component it names) its values, drawn
// among them, in place of generated ones: a hand-written document's
// examples are what its authors want to see. Only examples the schema
// accepts are taken, and not objects (nor lists of them), whose members
// would come out of the document's order, writeOnly ones included.
func Examples() Option {
	return func(g *Generator) { g.examples = true }
}

// memoKey names one compiled plan: the same schemas reached under the same
// property name, in the same object, with the same required-ness share one
// plan. Plans are registered before their children are compiled, so $ref
// cycles end.
type memoKey struct {
	ids      string
	name     string
	ctx      string
	required bool
}

// topKey names a top-level plan: by the schema and the $ref it was reached
// by, not by the SchemaRef's address, so a caller may make a SchemaRef per
// call. (Plans are kept per schema: schemas should be the contract's, or as
// long-lived as the Generator.)
type topKey struct {
	schema *openapi3.Schema
	ref    string
	name   string
}

// New compiles a plan for every component schema of sp.
func New(sp *spec.Spec, opts ...Option) *Generator {
	g := &Generator{
		sp:        sp,
		dateTime:  fastapi.FormatDateTime,
		timeOf:    fastapi.FormatTime,
		v31:       sp.Doc.IsOpenAPI31OrLater(),
		names:     map[*openapi3.Schema]string{},
		memo:      map[memoKey]*node{},
		schemaIDs: map[*openapi3.Schema]int{},
	}
	for _, o := range opts {
		o(g)
	}
	if sp.Doc.Components == nil {
		return g
	}
	names := make([]string, 0, len(sp.Doc.Components.Schemas))
	for name, ref := range sp.Doc.Components.Schemas {
		names = append(names, name)
		// A component that is itself a $ref shares its target's schema:
		// only the target names it, so the map does not depend on map order.
		if ref != nil && ref.Value != nil && ref.Ref == "" {
			g.names[ref.Value] = name
		}
	}
	slices.Sort(names)
	for _, name := range names {
		if n := g.plan(sp.Doc.Components.Schemas[name], ""); !n.terminal {
			g.note("schema %s: no finite value satisfies it (it requires itself, with no way to end): no answer of it is valid, and an operation answering it gets FastAPI's 500", name)
		}
	}
	return g
}

// Append appends one generated value for the schema ref as canonical FastAPI
// JSON. name is the property the value is for ("" for a top-level value); it
// chooses realistic values (an email for "email", an image URL for
// "poster_url", a plausible year for "year"…) wherever the schema leaves a
// choice. The value depends only on ref, name and f's state: the same seed
// gives the same bytes. A nil ref (or one not resolved) is an unconstrained
// schema.
func (g *Generator) Append(dst []byte, f *gofakeit.Faker, name string, ref *openapi3.SchemaRef) []byte {
	st := state{f: f, g: g, base: len(dst)}
	st.stack = st.stackBuf[:0]
	return st.gen(dst, g.plan(ref, name), true, false, nil)
}

// AppendAnswer is Append for a value an API answers with: a writeOnly
// property (OpenAPI's "sent in a request, never in a response": a
// password) is left out, required or not.
func (g *Generator) AppendAnswer(dst []byte, f *gofakeit.Faker, name string, ref *openapi3.SchemaRef) []byte {
	st := state{f: f, g: g, base: len(dst), answer: true}
	st.stack = st.stackBuf[:0]
	return st.gen(dst, g.plan(ref, name), true, false, nil)
}

// plan returns the compiled plan for a top-level value.
func (g *Generator) plan(ref *openapi3.SchemaRef, name string) *node {
	key := topKey{name: name}
	if ref != nil {
		key.schema, key.ref = ref.Value, ref.Ref
	}
	if n, ok := g.top.Load(key); ok {
		return n.(*node)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if n, ok := g.top.Load(key); ok {
		return n.(*node)
	}
	var refs []*openapi3.SchemaRef
	if ref != nil && ref.Value != nil {
		refs = []*openapi3.SchemaRef{ref}
	}
	n := g.compile(refs, name, "", true)
	g.finish()
	g.top.Store(key, n)
	return n
}

// compile returns the plan for a value that must satisfy every schema in
// refs (none: an unconstrained value). The caller holds g.mu.
func (g *Generator) compile(refs []*openapi3.SchemaRef, name, ctx string, required bool) *node {
	key := memoKey{ids: g.ids(refs), name: name, ctx: ctx, required: required}
	if n := g.memo[key]; n != nil {
		return n
	}
	n := g.newNode()
	g.memo[key] = n
	f := g.gather(refs)
	g.build(n, f, name, ctx, required)
	return n
}

func (g *Generator) newNode() *node {
	n := &node{}
	g.fresh = append(g.fresh, n)
	return n
}

// ids identifies a list of schemas for the memo: the schema values and the
// names they were reached by (which decide property order).
func (g *Generator) ids(refs []*openapi3.SchemaRef) string {
	var b []byte
	for _, r := range refs {
		id, ok := g.schemaIDs[r.Value]
		if !ok {
			id = len(g.schemaIDs) + 1
			g.schemaIDs[r.Value] = id
		}
		b = strconv.AppendInt(b, int64(id), 36)
		b = append(b, '|')
		b = append(b, g.componentName(r)...)
		b = append(b, ';')
	}
	return string(b)
}

// componentName is the name of the component schema ref is, or points at.
func (g *Generator) componentName(ref *openapi3.SchemaRef) string {
	if ref == nil {
		return ""
	}
	if name, ok := strings.CutPrefix(ref.Ref, "#/components/schemas/"); ok {
		return name
	}
	return g.names[ref.Value]
}

// propertyOrder lists ref's properties as the document wrote them.
// spec.PropertyOrder reads the order through the $ref; a component's own
// SchemaRef (from Components.Schemas) has none, so one is made for it.
func (g *Generator) propertyOrder(ref *openapi3.SchemaRef) []string {
	if ref.Ref == "" {
		if name := g.names[ref.Value]; name != "" {
			ref = &openapi3.SchemaRef{Ref: "#/components/schemas/" + name, Value: ref.Value}
		}
	}
	order := g.sp.PropertyOrder(ref)
	if len(order) == len(ref.Value.Properties) {
		return order
	}
	// The document's key order and kin-openapi's map disagree (a property
	// added by the loader?): keep the written order, then the rest sorted.
	var out []string
	for _, name := range order {
		if ref.Value.Properties[name] != nil {
			out = append(out, name)
		}
	}
	var rest []string
	for name := range ref.Value.Properties {
		if !slices.Contains(out, name) {
			rest = append(rest, name)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// finish computes, for the nodes compiled since the last call, which ones
// can end a recursion (a fixed point, since plans may be cyclic), and prunes
// their unions. The caller
// holds g.mu.
func (g *Generator) finish() {
	for changed := true; changed; {
		changed = false
		for _, n := range g.fresh {
			if !n.terminal && n.computeTerminal() {
				n.terminal = true
				changed = true
			}
			if !n.cheap && n.computeCheap() {
				n.cheap = true
				changed = true
			}
		}
	}
	for _, n := range g.fresh {
		if n.kind == kUnion && len(n.union.branches) > 1 {
			g.prune(n.union)
		}
	}
	g.fresh = g.fresh[:0]
}

// prune drops the branches of a union that no value of validates (a date
// under maxLength: 8, say), judged by a few probes: choosing one would
// write an invalid value. With no branch left, all are kept.
func (g *Generator) prune(u *unionPlan) {
	var live []branch
	for _, b := range u.branches {
		for seed := uint64(1); seed <= probes; seed++ {
			st := state{f: gofakeit.New(seed), g: g}
			st.stack = st.stackBuf[:0]
			if g.validRendered(st.gen(nil, b.node, false, false, b.override), u.schemas) {
				live = append(live, b)
				break
			}
		}
	}
	if len(live) > 0 {
		u.branches = live
	}
}

// probes is how many values of a union's branch are tried before it is
// judged unsatisfiable.
const probes = 4
