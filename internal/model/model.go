// Package model compiles an OpenAPI contract once into what the mock, the
// fixtures and the scenarios share: its collections (the schemas it serves
// records of), their fields, their relations, and each operation with the
// convention that answers it. Nothing in it names the Movie and Review
// Service: the conventions are FastAPI's usual CRUD shapes, read from any
// document.
//
// It does not hold records (package fixtures does) nor answer requests
// (package mock does).
package model

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/spec"
)

// Model is a compiled contract. It is immutable.
type Model struct {
	Spec        *spec.Spec
	Collections []*Collection // in the order the document writes their schemas
	// Login is the collection whose schema has a username: whom login checks,
	// registration adds to and tokens name. Nil when there is none.
	Login      *Collection
	Operations []*Operation // in path order, then GET, PUT, POST, DELETE, OPTIONS, HEAD, PATCH, TRACE
	// Framework is the profile the contract is answered and judged by:
	// the one the document shows (framework.Detect), or the one asked
	// for. FrameworkWhy says what decided it, for the start-up block.
	Framework    framework.Name
	FrameworkWhy string
	// Strict: every operation's inputs were compiled as FastAPI's
	// (fastapi.CompileInputs), refusing what the mock cannot validate as
	// FastAPI would; the scenarios then refuse such a contract, as they
	// did before constructs were degraded (--strict).
	Strict bool

	byName map[string]*Collection
	byFile map[string]*Collection
	// degraded are the schemas not served as collections, and why
	// (Degraded lists them first).
	degraded []string
	keys     map[string]string // schema → its natural key where it has no id (naturalKeys)
	// views are the schemas that show another collection's records
	// (viewsOf), each as a reference to it.
	views map[string]*openapi3.SchemaRef
	// topLevel are the collections a path without parameters lists
	// (standsAlone), found on first use while compiling.
	topLevel map[*Collection]bool
	// reads are, for each collection, the segments before the parameter
	// of the paths reading one of its records (readUnder).
	reads map[*Collection][]string
	// links are the schemas that show a collection's records by a link
	// to each instead of their id (findLinkViews).
	links map[string]*linkView
	// byProp and projections serve projectionOf while compiling.
	byProp      map[string][]string
	projections map[*openapi3.Schema]string
	// itemPaths serves recordPath while compiling.
	itemPaths map[string][]string
}

// Option changes how Compile reads a contract.
type Option func(*Model)

// WithFramework answers and judges the contract by the profile name
// instead of the one the document shows; "" keeps the detected one.
func WithFramework(name framework.Name) Option {
	return func(m *Model) {
		if name != "" {
			m.Framework, m.FrameworkWhy = name, "asked for"
		}
	}
}

// WithStrict compiles every operation's inputs strictly (see
// Model.Strict), whatever the framework.
func WithStrict(strict bool) Option {
	return func(m *Model) { m.Strict = m.Strict || strict }
}

// Degraded lists, once each, what of the contract is not enforced as
// declared, each degradation led by the operations it concerns ("POST
// /pets, PUT /pets: Pet.tag: …"): a component's shared by several is
// listed once. A request body's names its operation already.
func (m *Model) Degraded() []string {
	notes := slices.Clone(m.degraded)
	ops := map[string][]string{}
	for _, o := range m.Operations {
		for _, d := range o.Degraded {
			if _, seen := ops[d]; !seen {
				notes = append(notes, d)
			}
			if !slices.Contains(ops[d], o.String()) {
				ops[d] = append(ops[d], o.String())
			}
		}
	}
	out := make([]string, len(notes))
	for i, d := range notes {
		if strings.HasPrefix(d, "request body of ") {
			out[i] = d
			continue
		}
		out[i] = strings.Join(ops[d], ", ") + ": " + d
	}
	return out
}

// Compile reads sp's collections and operations.
func Compile(sp *spec.Spec, opts ...Option) (*Model, error) {
	m := &Model{Spec: sp, byName: map[string]*Collection{}, byFile: map[string]*Collection{}, views: map[string]*openapi3.SchemaRef{}}
	m.Framework, m.FrameworkWhy = framework.Detect(sp.Doc)
	for _, opt := range opts {
		opt(m)
	}
	if err := m.findCollections(); err != nil {
		return nil, err
	}
	if err := m.classify(); err != nil {
		return nil, err
	}
	m.findViews()
	m.findFlags()
	m.findKeys()
	m.byProp, m.projections, m.itemPaths = nil, nil, nil
	return m, nil
}

// findKeys sets each collection's Keys: the fields other than its id that
// an operation's record parameter names.
func (m *Model) findKeys() {
	for _, o := range m.Operations {
		if o.Coll == nil || o.IDParam == "" {
			continue
		}
		if f := o.Coll.Field(o.IDParam); f != nil && f != o.Coll.ID && !slices.Contains(o.Coll.Keys, f) {
			o.Coll.Keys = append(o.Coll.Keys, f)
		}
	}
}

// Collection returns the collection of the schema called name.
func (m *Model) Collection(name string) *Collection { return m.byName[name] }

// ByFile returns the collection whose fixture file is called file (no
// ending): "reviews".
func (m *Model) ByFile(file string) *Collection { return m.byFile[file] }

// Lookup finds a collection by its schema name, its file name or its file
// name singular ("Review", "reviews", "review"), as scenarios name them.
func (m *Model) Lookup(name string) *Collection {
	if c := m.byName[name]; c != nil {
		return c
	}
	if c := m.byFile[name]; c != nil {
		return c
	}
	for _, c := range m.Collections {
		if c.Singular == name {
			return c
		}
	}
	return nil
}

// Operation returns the operation with operationId id, or nil.
func (m *Model) Operation(id string) *Operation {
	for _, op := range m.Operations {
		if op.ID == id {
			return op
		}
	}
	return nil
}

// componentRef is the component schema name a reference points at, or "".
func componentRef(ref *openapi3.SchemaRef) string {
	if ref == nil {
		return ""
	}
	name, _ := strings.CutPrefix(ref.Ref, "#/components/schemas/")
	if name == ref.Ref {
		return ""
	}
	return name
}

// nonNull is the schema a nullable anyOf wraps (FastAPI's Optional[X]:
// anyOf [X, {type: null}]), or ref itself.
func nonNull(ref *openapi3.SchemaRef) *openapi3.SchemaRef {
	if ref == nil || ref.Value == nil {
		return ref
	}
	v := ref.Value
	if len(v.AnyOf) == 2 {
		for i, alt := range v.AnyOf {
			if alt.Value != nil && alt.Value.Type.Is("null") {
				return v.AnyOf[1-i]
			}
		}
	}
	return ref
}

// snake writes a schema name as Python would name its table: "ReviewReaction"
// → "review_reaction".
func snake(name string) string {
	var b strings.Builder
	rs := []rune(name)
	for i, r := range rs {
		if unicode.IsUpper(r) {
			if i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) ||
				(i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1]))) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		if r == '-' || r == ' ' {
			r = '_'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// plural is the English plural of a snake_case name, as fixture files are
// named: persons, reviews, categories, boxes.
func plural(s string) string {
	switch {
	case strings.HasSuffix(s, "s") || strings.HasSuffix(s, "x") || strings.HasSuffix(s, "z") ||
		strings.HasSuffix(s, "ch") || strings.HasSuffix(s, "sh"):
		return s + "es"
	case strings.HasSuffix(s, "y") && len(s) > 1 && !strings.ContainsRune("aeiou", rune(s[len(s)-2])):
		return s[:len(s)-1] + "ies"
	}
	return s + "s"
}

// Files lists the fixture file names the model knows, for messages.
func (m *Model) Files() []string {
	out := make([]string, 0, len(m.Collections))
	for _, c := range m.Collections {
		out = append(out, c.File)
	}
	return out
}

func (m *Model) String() string {
	return fmt.Sprintf("%d collections, %d operations", len(m.Collections), len(m.Operations))
}

// securedBy reports whether op declares (or inherits) a security
// requirement FastAPI answers with its 401s: an OAuth2 or HTTP bearer
// scheme.
func securedBy(doc *openapi3.T, op *openapi3.Operation) bool {
	reqs := doc.Security
	if op.Security != nil {
		reqs = *op.Security
	}
	for _, req := range reqs {
		for name := range req {
			if doc.Components == nil {
				continue
			}
			s := doc.Components.SecuritySchemes[name]
			if s == nil || s.Value == nil {
				continue
			}
			if s.Value.Type == "oauth2" || (s.Value.Type == "http" && strings.EqualFold(s.Value.Scheme, "bearer")) {
				return true
			}
		}
	}
	return false
}

// Named reports whether name, as a user writes an operation on a command
// line, names the operation with operationId id at method and path: the
// operationId, or "METHOD /path/template" (the method in any case).
func Named(name, id, method, path string) bool {
	name = strings.TrimSpace(name)
	m, p, _ := strings.Cut(name, " ")
	return (id != "" && id == name) || (strings.EqualFold(m, method) && strings.TrimSpace(p) == path)
}

// BasicAuth reports whether op declares (or inherits) a requirement of an
// HTTP basic scheme, none of the alternatives being optional ({}).
func BasicAuth(doc *openapi3.T, op *openapi3.Operation) bool {
	reqs := doc.Security
	if op.Security != nil {
		reqs = *op.Security
	}
	basic := false
	for _, req := range reqs {
		if len(req) == 0 {
			return false
		}
		for name := range req {
			if doc.Components == nil {
				continue
			}
			if s := doc.Components.SecuritySchemes[name]; s != nil && s.Value != nil && s.Value.Type == "http" && strings.EqualFold(s.Value.Scheme, "basic") {
				basic = true
			}
		}
	}
	return basic
}

var methods = []string{"GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"}

// isOwner names the fields a create fills from the bearer token's user.
func isOwner(name string) bool {
	return name == "author_id" || name == "user_id" || name == "owner_id"
}

var embedded = sync.OnceValues(func() (*Model, error) {
	sp, err := spec.Embedded()
	if err != nil {
		return nil, err
	}
	return Compile(sp)
})

// Embedded is the embedded contract compiled, once.
func Embedded() (*Model, error) { return embedded() }
