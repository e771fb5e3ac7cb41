package fastapi

import (
	"math"
)

// literalSet is the values of a Literal[...] or of an Enum class, and
// pydantic-core's LiteralLookup over them.
type literalSet struct {
	values   []litValue
	expected string // "'a', 'b' or 'c'"
	enumKind enumKind

	trueID, falseID int             // -1: none
	ints            map[int64]int   // expected_int
	strs            map[string]int  // expected_str
	pyDict          []int           // expected_py_dict: bools and None, by Python equality
	primitives      []int           // expected_py_primitives: a Python dict, so True and 1 are one key
	primitiveIDs    []int           // the value each primitives key maps to
	primitiveAt     map[primKey]int // the index in primitives of each key
}

// primKey is a primitives key up to Python equality: a str by its text, a
// bool or an int by its value as a number (True == 1).
type primKey struct {
	str bool
	s   string
	n   float64
}

type litValue struct {
	v    pyValue
	json []byte
	repr string
}

type enumKind uint8

const (
	enumPlain enumKind = iota
	enumStr            // class X(str, Enum)
	enumInt            // IntEnum, class X(int, Enum)
)

// build fills the lookups as LiteralLookup::new does.
func (l *literalSet) build() {
	l.trueID, l.falseID = -1, -1
	l.ints, l.strs = map[int64]int{}, map[string]int{}
	for id, lv := range l.values {
		v := &lv.v
		switch v.kind {
		case pyBool:
			if v.b {
				l.trueID = id
			} else {
				l.falseID = id
			}
			l.setPrimitive(id)
			l.pyDict = append(l.pyDict, id)
		case pyInt:
			l.ints[v.i] = id
			l.setPrimitive(id)
		case pyStr:
			l.strs[v.s] = id
			l.setPrimitive(id)
		default:
			l.pyDict = append(l.pyDict, id)
		}
	}
}

// setPrimitive is dict.__setitem__: an equal key keeps its place and takes
// the new value. The keys are found by hash, as Python's dict does: a
// Literal of 50,000 values costs 50,000 steps, not their square.
func (l *literalSet) setPrimitive(id int) {
	v := &l.values[id].v
	key := primKey{str: v.kind == pyStr, s: v.s}
	if !key.str {
		key.n, _ = pyNum(v)
	}
	if l.primitiveAt == nil {
		l.primitiveAt = map[primKey]int{}
	}
	if k, ok := l.primitiveAt[key]; ok {
		l.primitiveIDs[k] = id
		return
	}
	l.primitiveAt[key] = len(l.primitives)
	l.primitives = append(l.primitives, id)
	l.primitiveIDs = append(l.primitiveIDs, id)
}

// pyEqual is Python's == between JSON values as dict lookup uses it
// (numbers compare by value across bool, int and float).
func pyEqual(a, b *pyValue) bool {
	an, aNum := pyNum(a)
	bn, bNum := pyNum(b)
	switch {
	case aNum && bNum:
		return an == bn && !math.IsNaN(an)
	case a.kind == pyStr && b.kind == pyStr:
		return a.s == b.s
	case a.kind == pyNone && b.kind == pyNone:
		return true
	}
	return false
}

// pyNum gives a bool, int or float as a float64 (ints beyond the float
// range never equal a literal here, whose ints fit in int64).
func pyNum(v *pyValue) (float64, bool) {
	switch v.kind {
	case pyBool:
		if v.b {
			return 1, true
		}
		return 0, true
	case pyInt:
		if v.big != nil {
			return math.Inf(1), true
		}
		return float64(v.i), true
	case pyFloat:
		return v.f, true
	}
	return 0, false
}

// lookup is LiteralLookup::validate. The int is an index into values, or
// -1; ok false when it added an error (an int beyond int64 compared with
// int literals: int_parsing_size) or crashed.
func (l *literalSet) lookup(st *vstate, v *pyValue) (int, bool) {
	if v.kind == pyBool {
		if v.b && l.trueID >= 0 {
			return l.trueID, true
		}
		if !v.b && l.falseID >= 0 {
			return l.falseID, true
		}
	}
	if len(l.ints) > 0 && v.kind == pyInt {
		if v.big != nil {
			st.add("int_parsing_size", msgIntSize, v, nil)
			return -1, false
		}
		if id, ok := l.ints[v.i]; ok {
			return id, true
		}
	}
	if len(l.strs) > 0 && v.kind == pyStr {
		if st.surrogateCrash(v) {
			return -1, false
		}
		if id, ok := l.strs[v.s]; ok {
			return id, true
		}
	}
	for _, id := range l.pyDict {
		if pyEqual(&l.values[id].v, v) {
			return id, true
		}
	}
	for k, key := range l.primitives {
		if pyEqual(&l.values[key].v, v) {
			return l.primitiveIDs[k], true
		}
	}
	return -1, true
}

func (n *vnode) validateLiteral(st *vstate, v *pyValue, out []byte) ([]byte, bool) {
	id, ok := n.lit.lookup(st, v)
	if !ok {
		return out, false
	}
	if id < 0 {
		st.add("literal_error", "Input should be "+n.lit.expected, v, []KV{{"expected", n.lit.expected}})
		return out, false
	}
	return append(out, n.lit.values[id].json...), true
}

// validateEnum is pydantic-core's EnumValidator for the three kinds of
// Enum class the schema can stand for, then the class call (Enum(value):
// a lookup by Python equality) it falls back to.
func (n *vnode) validateEnum(st *vstate, v *pyValue, out []byte) ([]byte, bool) {
	l := n.lit
	id := -1
	switch l.enumKind {
	case enumStr:
		if v.kind == pyStr {
			if st.surrogateCrash(v) {
				return out, false
			}
			if k, ok := l.strs[v.s]; ok {
				id = k
			}
		}
	case enumInt:
		var probe vstate
		x, ok := probe.laxInt(v)
		switch {
		case probe.crash:
			st.crash = true
			return out, false
		case ok && x.big != nil:
			st.add("int_parsing_size", msgIntSize, v, nil)
			return out, false
		case ok:
			if k, found := l.ints[x.small]; found {
				id = k
			}
		}
	default:
		var ok bool
		if id, ok = l.lookup(st, v); !ok {
			return out, false
		}
		if id < 0 && (v.kind == pyInt || v.kind == pyFloat) {
			var probe vstate
			if x, ok := probe.laxInt(v); ok && x.big == nil {
				if k, found := l.ints[x.small]; found {
					id = k
				}
			}
		}
	}
	if id < 0 {
		for k := range l.values {
			if pyEqual(&l.values[k].v, v) {
				id = k
				break
			}
		}
	}
	if id < 0 {
		if st.surrogateCrash(v) {
			return out, false
		}
		st.add("enum", "Input should be "+l.expected, v, []KV{{"expected", l.expected}})
		return out, false
	}
	return append(out, l.values[id].json...), true
}
