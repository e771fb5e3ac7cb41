package fake

import (
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"
)

// The budgets of generation. Whatever a schema asks for, one generated
// value stays within what a request or an answer can carry: a schema that
// asks for more (minLength: 1e8, minItems: 1e8, an object that requires
// two of itself) gets values cut to these, which it then refuses, and New
// says so in a note (Notes) rather than spend gigabytes or minutes on one
// value.
const (
	// MaxStringLength is the most characters of one generated string.
	MaxStringLength = 1 << 20
	// MaxItems is the most items of one generated array, and members of
	// one generated dict.
	MaxItems = 10_000
	// MaxValueBytes is the most one generated value writes, all nested
	// values included: past it, every value still to write is null and
	// arrays and dicts end. It is what the contract runner reads of an
	// answer.
	MaxValueBytes = 16 << 20
	// FullValueBytes is how much of one generated value is written in
	// full: past it, every value still to write is minimal (only required
	// properties, the fewest items, null where nullable), so still valid.
	// A document of many nested lists of distinct models (a series of
	// volumes of chapters of files, each with lists of its own) otherwise
	// grows each record as 4^depth, to MaxValueBytes per record and
	// minutes per collection.
	FullValueBytes = 64 << 10
)

// note records what the plans of the document cannot honour. The caller
// holds g.mu.
func (g *Generator) note(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	for _, n := range g.notes {
		if n == msg {
			return
		}
	}
	g.notes = append(g.notes, msg)
}

// Notes says which schemas of the document no generated value can satisfy
// within the budgets, or at all (an object that requires itself with no
// way to end), each naming the schema.
func (g *Generator) Notes() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.notes...)
}

// where names the value a plan is for in a note.
func where(name, ctx string) string {
	switch {
	case ctx != "" && name != "":
		return ctx + "." + name
	case name != "":
		return name
	case ctx != "":
		return ctx
	}
	return "a value"
}

// Finite reports whether a finite value satisfies ref: false for an object
// that requires itself with no way to end (Notes names it), true for a nil
// ref. A list of such objects is finite: it may be empty.
func (g *Generator) Finite(ref *openapi3.SchemaRef) bool {
	return ref == nil || g.plan(ref, "").terminal
}
