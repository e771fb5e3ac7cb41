package fake

import (
	"regexp"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/spec"
)

type kind uint8

const (
	kStr   kind = iota // also an unconstrained schema: a short string
	kNull              // type: "null" and nothing else
	kBool              // true or false
	kInt               // integer
	kNum               // number: written as Python writes a float
	kEnum              // one of a list of literals (enum, const)
	kArr               // array
	kObj               // object: properties, or a dict
	kUnion             // one of several plans (anyOf, oneOf, a type list)
)

// node is the compiled plan for one value.
type node struct {
	kind     kind
	nullPct  int      // how often a value is null, in percent; 0 when null is invalid
	def      []byte   // the default, rendered and checked valid; nil when none
	examples [][]byte // the value's own examples, rendered and checked valid
	truePct  int      // kBool
	enum     [][]byte
	str      *strPlan
	num      *numPlan
	arr      *arrPlan
	obj      *objPlan
	union    *unionPlan
	nots     []*openapi3.Schema // a value must match none of these
	terminal bool               // a minimal value of this plan needs no recursion
	cheap    bool               // a minimal value of this plan has no object with required members
}

// strPlan is how to make a string.
type strPlan struct {
	minLen int
	maxLen int    // -1: no limit
	format string // a format this package makes values for, or ""
	res    []*regexp.Regexp
	ecma   []spec.Matcher // patterns only the ECMA-262 engine runs: checked, not generated from
	// examples are the schema's examples that match ecma: a value for a
	// pattern nothing is generated from.
	examples []string
	regex    string // the first pattern, in Go syntax, for gofakeit's Regex
	hint     *hint  // a value source chosen from the property's name, or nil
	span     span   // dates and date-times come from here
	date     bool   // with no format, the hint's dates are written as dates
}

// numPlan is how to make an integer or a number.
type numPlan struct {
	integer bool
	from    float64 // values are drawn from [from, to]…
	to      float64
	dec     int // …and rounded to dec decimals (numbers only)
	// …then checked against the schema's own bounds:
	lo, hi       float64
	hasLo, hasHi bool
	loEx, hiEx   bool
	mult         []float64
}

type arrPlan struct {
	items       *node
	prefix      []*node
	contains    *node // the first minContains items after the prefix come from here
	minContains int
	minItems    int
	maxItems    int // -1: no limit
	unique      bool
}

type prop struct {
	name      string
	key       []byte // `"name":`
	node      *node
	required  bool
	writeOnly bool // never in an answer (AppendAnswer)
}

type objPlan struct {
	ident *openapi3.Schema // the schema, for counting recursion
	props []prop
	// pairs are the members naming an object member's id (bucket_id
	// beside a bucket with an id of the same plan): the object is written
	// with that id.
	pairs []idPair
	dict  *dictPlan // extra members, or nil
	// minProps and maxProps bound the members written (maxProps -1: no
	// bound): optional properties are left out, or kept, to fit them.
	minProps int
	maxProps int
}

// idPair is a member x_id (props[id]) and an object member x (props[obj])
// whose id has x_id's plan.
type idPair struct{ id, obj int }

// dictPlan makes the members of a dict (additionalProperties).
type dictPlan struct {
	value   *node
	keys    [][]string      // key lists to take keys from (one is picked per dict)
	keyNode *node           // propertyNames: keys are made by this plan
	min     int             // the members minProperties asks beyond the declared ones
	taken   map[string]bool // declared properties: never used as keys
	// patterns are patternProperties: with any, every member is made for
	// one of them, its key from the pattern, its value from its schemas.
	patterns []*dictPattern
}

// dictPattern makes the members of a dict whose names match a pattern of
// patternProperties.
type dictPattern struct {
	re    *regexp.Regexp
	regex string // for gofakeit's Regex
	refs  []*openapi3.SchemaRef
	value *node
}

type branch struct {
	node     *node
	schema   *openapi3.Schema // the branch as written, for oneOf checks
	override *override        // the discriminator's value for this branch
}

type unionPlan struct {
	branches  []branch
	exclusive bool // oneOf without a usable discriminator: check one branch matches
	schemas   []*openapi3.Schema
}

// override forces one property of an object to a value: the discriminator
// of the oneOf branch the object was made for.
type override struct {
	prop  string
	value []byte
}

// span is a range of dates, and how a date in it relates to others of the
// same object (a death after the birth, an update after the creation).
type span struct {
	from, to time.Time
	rel      relation
}

type relation uint8

const (
	relNone relation = iota
	relBirth
	relDeath
	relCreated
	relUpdated
)

// computeCheap reports whether a minimal value of n is written without an
// object that has required members: such an optional property is written
// even in a minimal value, others are left out (which ends recursion through
// optional properties).
func (n *node) computeCheap() bool {
	if n.nullPct > 0 || n.def != nil || len(n.examples) > 0 {
		return true
	}
	switch n.kind {
	case kArr:
		return n.arr.minItems == 0
	case kObj:
		for _, p := range n.obj.props {
			if p.required {
				return false
			}
		}
		return n.obj.dict == nil || n.obj.dict.min == 0
	case kUnion:
		for _, b := range n.union.branches {
			if b.node.cheap {
				return true
			}
		}
		return false
	}
	return true
}

// computeTerminal reports whether a minimal value of n ends without
// recursion, given what is known of its children so far.
func (n *node) computeTerminal() bool {
	if n.nullPct > 0 || n.def != nil || len(n.examples) > 0 {
		return true
	}
	switch n.kind {
	case kArr:
		return n.arr.minItems == 0 || (n.arr.items == nil || n.arr.items.terminal)
	case kObj:
		for _, p := range n.obj.props {
			if p.required && !p.node.terminal {
				return false
			}
		}
		return true
	case kUnion:
		for _, b := range n.union.branches {
			if b.node.terminal {
				return true
			}
		}
		return false
	}
	return true
}
