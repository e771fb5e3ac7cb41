package fake

import (
	"bytes"
	"slices"
	"strconv"
	"time"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/fastapi"
)

const (
	// defaultPct is how often a value with a default is the default.
	defaultPct = 10
	// examplePct is how often a value with examples of its own is one of
	// them: often enough that the data reads as the document shows it,
	// not so often that twenty pets are all called doggie.
	examplePct = 50
	// maxRepeat is how many times one object schema may nest in itself
	// before the rest of the value is made minimal: null where nullable,
	// empty arrays, only the required properties.
	maxRepeat = 2
	// softDepth is the nesting depth past which every value is minimal.
	softDepth = 12
	// hardDepth is where even a minimal value stops: only an unsatisfiable
	// schema (an object requiring itself) gets there.
	hardDepth = 48
	// retries bounds each attempt at a value that needs luck: a string
	// matching a pattern, a unique array item, an exclusive oneOf branch.
	retries = 8
)

// state is one Append call's walk.
type state struct {
	f        *gofakeit.Faker
	g        *Generator
	stack    []*openapi3.Schema // the objects being written, outermost first
	stackBuf [softDepth]*openapi3.Schema
	depth    int
	base     int  // where the value starts in dst
	over     bool // the value has gone past MaxValueBytes: the rest is null
	answer   bool // an answer's value: writeOnly properties left out
	memory        // what the object being written has said of itself so far
}

// memory is what an object's earlier properties decided, for its later
// ones.
type memory struct {
	// subject is what the object is called (its name or username): a
	// biography names the person, an avatar URL is made from the username.
	subject string
	// born and created are its birth and creation dates: a death comes
	// after the birth, an update after the creation.
	born, created time.Time
	// errKind is which error an error object reports, plus one: its type
	// and message agree.
	errKind int
}

func (st *state) chance(percent int) bool { return st.f.IntN(100) < percent }

// gen appends a value for n. allowNull is false for a union's branch (the
// union decides on null); minimal asks for the smallest valid value; ov
// forces a discriminator property.
func (st *state) gen(dst []byte, n *node, allowNull, minimal bool, ov *override) []byte {
	if st.over || len(dst)-st.base > MaxValueBytes {
		st.over = true
		return append(dst, "null"...)
	}
	if len(dst)-st.base > FullValueBytes {
		minimal = true
	}
	if st.depth >= hardDepth || minimal && !n.terminal {
		// No minimal value of n ends (an object that requires itself):
		// cut it short here rather than at hardDepth, which for an
		// object requiring two of itself is 2^hardDepth objects away.
		return append(dst, "null"...)
	}
	if n.nullPct > 0 && allowNull && (minimal || st.chance(n.nullPct)) {
		return append(dst, "null"...)
	}
	if n.def != nil && (minimal || st.chance(defaultPct)) {
		return append(dst, n.def...)
	}
	if len(n.examples) > 0 && (minimal || st.chance(examplePct)) {
		return append(dst, n.examples[st.f.IntN(len(n.examples))]...)
	}
	if len(n.nots) == 0 {
		return st.value(dst, n, minimal, ov)
	}
	mark := len(dst)
	for try := 0; ; try++ {
		dst = st.value(dst, n, minimal, ov)
		if try == retries || !st.matchesAny(dst[mark:], n.nots) {
			return dst
		}
		dst = dst[:mark]
	}
}

// matchesAny reports whether the JSON value b validates against one of
// schemas.
func (st *state) matchesAny(b []byte, schemas []*openapi3.Schema) bool {
	v, err := decode(b)
	if err != nil {
		return false
	}
	for _, s := range schemas {
		if st.g.sp.Validate(s, v, false) == nil {
			return true
		}
	}
	return false
}

func (st *state) value(dst []byte, n *node, minimal bool, ov *override) []byte {
	switch n.kind {
	case kNull:
		return append(dst, "null"...)
	case kBool:
		return strconv.AppendBool(dst, st.chance(n.truePct))
	case kEnum:
		return append(dst, n.enum[st.f.IntN(len(n.enum))]...)
	case kInt:
		return strconv.AppendInt(dst, st.integer(n.num), 10)
	case kNum:
		return fastapi.AppendValue(dst, st.number(n.num))
	case kStr:
		return fastapi.AppendString(dst, st.str(n.str))
	case kArr:
		return st.array(dst, n.arr, minimal)
	case kObj:
		return st.object(dst, n.obj, minimal, ov)
	case kUnion:
		return st.oneOf(dst, n.union, minimal, ov)
	}
	return append(dst, "null"...)
}

func (st *state) oneOf(dst []byte, u *unionPlan, minimal bool, ov *override) []byte {
	pick := func() branch {
		if minimal {
			for _, b := range u.branches {
				if b.node.cheap {
					return b
				}
			}
			for _, b := range u.branches {
				if b.node.terminal {
					return b
				}
			}
			return u.branches[0]
		}
		return u.branches[st.f.IntN(len(u.branches))]
	}
	mark := len(dst)
	for try := 0; ; try++ {
		b := pick()
		o := b.override
		if o == nil {
			o = ov
		}
		dst = st.gen(dst, b.node, false, minimal, o)
		if !u.exclusive || st.onlyBranch(dst[mark:], u, b.schema) {
			return dst
		}
		if dst = st.setApart(dst, mark, u, b.schema); try == retries || st.onlyBranch(dst[mark:], u, b.schema) {
			return dst
		}
		dst = dst[:mark]
	}
}

// setApart makes the object dst[mark:], a value of the oneOf member own
// that other members accept too (a Car that is also a Motorcycle, each
// open to any other property), match own alone where it can: for each
// other member it matches, a property that member declares and own does
// not is added, with a value of a type that member refuses. Without such
// a property the value is left as it is.
func (st *state) setApart(dst []byte, mark int, u *unionPlan, own *openapi3.Schema) []byte {
	if own == nil {
		return dst
	}
	mine := declared(own, nil, 0)
	for _, br := range u.branches {
		val := dst[mark:]
		if br.schema == own || br.schema == nil || len(val) < 2 || val[0] != '{' || val[len(val)-1] != '}' ||
			!st.matchesAny(val, []*openapi3.Schema{br.schema}) {
			continue
		}
		theirs := declared(br.schema, nil, 0)
		names := make([]string, 0, len(theirs))
		for name := range theirs {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			if mine[name] != nil || bytes.Contains(val, fastapi.AppendString(nil, name)) {
				continue
			}
			var wrong string
			switch ps := theirs[name]; {
			case ps.Type.Includes("string"):
				wrong = "0"
			case len(ps.Type.Slice()) > 0:
				wrong = `"x"`
			default:
				continue // any value will do for it
			}
			cand := append([]byte(nil), val[:len(val)-1]...)
			if len(val) > 2 {
				cand = append(cand, ',')
			}
			cand = append(fastapi.AppendString(cand, name), ':')
			cand = append(append(cand, wrong...), '}')
			if st.matchesAny(cand, []*openapi3.Schema{own}) && !st.matchesAny(cand, []*openapi3.Schema{br.schema}) {
				dst = append(dst[:mark], cand...)
				break
			}
		}
	}
	return dst
}

// declared adds the properties schema s declares (its allOf members' too)
// to into, by name.
func declared(s *openapi3.Schema, into map[string]*openapi3.Schema, depth int) map[string]*openapi3.Schema {
	if into == nil {
		into = map[string]*openapi3.Schema{}
	}
	if s == nil || depth > 8 {
		return into
	}
	for name, p := range s.Properties {
		if p != nil && p.Value != nil && into[name] == nil {
			into[name] = p.Value
		}
	}
	for _, m := range s.AllOf {
		if m != nil {
			declared(m.Value, into, depth+1)
		}
	}
	return into
}

// onlyBranch reports whether the value b matches no oneOf branch but its
// own: kin-openapi rejects a value that matches two.
func (st *state) onlyBranch(b []byte, u *unionPlan, own *openapi3.Schema) bool {
	var others []*openapi3.Schema
	for _, br := range u.branches {
		if br.schema != own {
			others = append(others, br.schema)
		}
	}
	return !st.matchesAny(b, others)
}

func (st *state) array(dst []byte, p *arrPlan, minimal bool) []byte {
	n := p.minItems
	if !minimal && st.depth < softDepth {
		hi := max(p.minItems, 4)
		if p.items.kind == kObj && st.open(p.items.obj.ident) {
			// Friends of friends: a recursive list is short, or values
			// grow as 4^depth.
			hi = max(p.minItems, 2)
		}
		if p.maxItems >= 0 {
			hi = min(hi, p.maxItems)
		}
		n = st.f.IntRange(p.minItems, max(p.minItems, hi))
	}
	if len(p.prefix) == 0 && p.items != nil && !p.items.terminal {
		n = p.minItems // no item ends: the list is as short as it may be, [] if it may
	}
	n = min(n, MaxItems)
	if p.unique && len(p.prefix) == 0 && p.contains == nil && p.items.nullPct == 0 && p.items.def == nil &&
		(p.items.kind == kEnum || p.items.kind == kBool) {
		return st.distinct(dst, p.items, n)
	}
	st.depth++
	dst = append(dst, '[')
	var starts []int // where each item begins, for uniqueItems
	for i := 0; i < n && !st.over; i++ {
		item := p.items
		if i < len(p.prefix) {
			item = p.prefix[i]
		} else if i < len(p.prefix)+p.minContains {
			item = p.contains
		}
		if i > 0 {
			dst = append(dst, ',')
		}
		mark := len(dst)
		for try := 0; ; try++ {
			dst = st.gen(dst, item, true, minimal, nil)
			if !p.unique || !repeats(dst, starts, mark) {
				break
			}
			dst = dst[:mark]
			if try == retries*2 {
				break
			}
		}
		if len(dst) == mark { // no new unique item: stop here
			if i > 0 {
				dst = dst[:mark-1]
			}
			break
		}
		if p.unique {
			starts = append(starts, mark)
		}
	}
	st.depth--
	return append(dst, ']')
}

// opened counts the objects of schema s being written.
func (st *state) opened(s *openapi3.Schema) int {
	n := 0
	for _, x := range st.stack {
		if x == s {
			n++
		}
	}
	return n
}

func (st *state) open(s *openapi3.Schema) bool { return st.opened(s) > 0 }

// distinct appends n distinct members of an enum (or booleans) in random
// order: drawing and retrying would often miss the last one.
func (st *state) distinct(dst []byte, n *node, count int) []byte {
	members := n.enum
	if n.kind == kBool {
		members = [][]byte{[]byte("false"), []byte("true")}
	}
	order := make([]int, len(members))
	for i := range order {
		order[i] = i
	}
	for i := len(order) - 1; i > 0; i-- {
		j := st.f.IntN(i + 1)
		order[i], order[j] = order[j], order[i]
	}
	dst = append(dst, '[')
	for i, k := range order[:min(count, len(order))] {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, members[k]...)
	}
	return append(dst, ']')
}

// repeats reports whether the item dst[mark:] equals an earlier one
// (starts holds where each began; each ends before the next one's comma).
func repeats(dst []byte, starts []int, mark int) bool {
	item := dst[mark:]
	for i, s := range starts {
		end := mark - 1
		if i+1 < len(starts) {
			end = starts[i+1] - 1
		}
		if bytes.Equal(dst[s:end], item) {
			return true
		}
	}
	return false
}

func (st *state) object(dst []byte, p *objPlan, minimal bool, ov *override) []byte {
	if !minimal {
		minimal = st.opened(p.ident) >= maxRepeat || len(st.stack) >= softDepth
	}
	if len(st.stack) < cap(st.stack) {
		st.stack = append(st.stack, p.ident)
		defer func() { st.stack = st.stack[:len(st.stack)-1] }()
	}
	var chosen []bool // nil: the members leaves does not leave out
	if p.maxProps >= 0 || p.minProps > 0 {
		chosen = st.choose(p, minimal, ov)
	}
	st.depth++
	saved := st.memory
	st.memory = memory{}
	dst = append(dst, '{')
	first, have := true, 0
	// x_id is made first, and x is written with it as its id.
	var pre [][]byte
	var ids []*override
	for _, pair := range p.pairs {
		if ov != nil && (ov.prop == p.props[pair.id].name || ov.prop == p.props[pair.obj].name) {
			continue
		}
		v := st.gen(nil, p.props[pair.id].node, true, minimal, nil)
		if string(v) == "null" {
			continue
		}
		if pre == nil {
			pre, ids = make([][]byte, len(p.props)), make([]*override, len(p.props))
		}
		pre[pair.id], ids[pair.obj] = v, &override{prop: "id", value: v}
	}
	if ov != nil && !p.declares(ov.prop) {
		dst = append(fastapi.AppendString(dst, ov.prop), ':')
		dst = append(dst, ov.value...)
		first, have = false, 1
	}
	for i := range p.props {
		pr := &p.props[i]
		if chosen != nil && !chosen[i] || chosen == nil && st.leaves(pr, minimal) {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		have++
		dst = append(dst, pr.key...)
		switch {
		case ov != nil && ov.prop == pr.name:
			dst = append(dst, ov.value...)
		case pre != nil && pre[i] != nil:
			dst = append(dst, pre[i]...)
		case pre != nil && ids[i] != nil:
			dst = st.gen(dst, pr.node, true, minimal, ids[i])
		default:
			dst = st.gen(dst, pr.node, true, minimal, nil)
		}
	}
	if p.dict != nil {
		dst = st.dict(dst, p, minimal, first, have)
	}
	st.memory = saved
	st.depth--
	return append(dst, '}')
}

// leaves reports whether the object being written (on top of the stack)
// leaves out its property pr, unless minProperties asks for it: a
// writeOnly one in an answer; in a minimal value, an optional one whose
// minimal value has required members (it may recurse) or leads back into
// an object being written, this one included (see ends).
func (st *state) leaves(pr *prop, minimal bool) bool {
	if st.answer && pr.writeOnly {
		return true
	}
	return minimal && !pr.required && (!pr.node.cheap || !st.ends(pr.node))
}

// ends reports whether a minimal value of n holds no object of a schema
// being written (nor any object, past softDepth): an optional property
// such a value is for may be written in a minimal value without leading
// back into the object being written, and so without end.
func (st *state) ends(n *node) bool {
	if n.nullPct > 0 || n.def != nil || len(n.examples) > 0 {
		return true
	}
	switch n.kind {
	case kObj:
		return len(st.stack) < softDepth && !st.open(n.obj.ident)
	case kArr:
		return n.arr.minItems == 0 || st.ends(n.arr.items)
	case kUnion:
		return len(st.stack) < softDepth
	}
	return true
}

// choose decides which properties an object with minProperties or
// maxProperties writes: those it writes anyway (see leaves), less
// optional ones at random down to maxProperties, plus optional ones it
// would leave out, in order, up to minProperties (extra members of a dict
// count too: see dict). A required property, and the discriminator, are
// always written.
func (st *state) choose(p *objPlan, minimal bool, ov *override) []bool {
	chosen := make([]bool, len(p.props))
	n := 0
	if ov != nil && !p.declares(ov.prop) {
		n++
	}
	var optional, spare []int // written and optional; left out and may be written
	for i := range p.props {
		pr := &p.props[i]
		forced := pr.required || ov != nil && ov.prop == pr.name
		switch {
		case !st.leaves(pr, minimal):
			chosen[i] = true
			n++
			if !forced {
				optional = append(optional, i)
			}
		case !forced && !(st.answer && pr.writeOnly) && pr.node.terminal:
			spare = append(spare, i)
		}
	}
	for p.maxProps >= 0 && n > p.maxProps && len(optional) > 0 {
		k := st.f.IntN(len(optional))
		chosen[optional[k]] = false
		optional = slices.Delete(optional, k, k+1)
		n--
	}
	for ; n < p.minProps && len(spare) > 0; n++ {
		chosen[spare[0]] = true
		spare = spare[1:]
	}
	return chosen
}

func (p *objPlan) declares(name string) bool {
	for i := range p.props {
		if p.props[i].name == name {
			return true
		}
	}
	return false
}

// dict appends the extra members of an object p that has written have
// members already: as many as minProperties still asks, at most as many
// as maxProperties still allows.
func (st *state) dict(dst []byte, p *objPlan, minimal, first bool, have int) []byte {
	d := p.dict
	lo := max(0, p.minProps-have)
	hi := max(lo, 3)
	if p.maxProps >= 0 {
		hi = min(hi, max(0, p.maxProps-have))
	}
	n := lo
	if !minimal {
		n = st.f.IntRange(lo, max(lo, hi))
	}
	n = min(n, MaxItems)
	if len(d.patterns) > 0 {
		return st.patternMembers(dst, d, n, minimal, first)
	}
	var keys []string
	if len(d.keys) > 0 {
		list := d.keys[st.f.IntN(len(d.keys))]
		// Like fixtures' reactions: each key of the list with one chance in
		// three, in the list's order, then more if the schema wants more.
		for _, k := range list {
			if !minimal && len(keys) < hi && !d.taken[k] && st.chance(35) {
				keys = append(keys, k)
			}
		}
		for _, k := range list {
			if len(keys) >= lo {
				break
			}
			if !d.taken[k] && !contains(keys, k) {
				keys = append(keys, k)
			}
		}
		n = max(len(keys), lo)
	}
	for i := len(keys); i < n && !st.over; i++ {
		for try := 0; try <= retries; try++ {
			var k string
			if d.keyNode != nil {
				k = st.keyFrom(d.keyNode)
			} else {
				k = lowerWord(st.f)
				if try > 2 {
					k += "_" + strconv.Itoa(i+1)
				}
			}
			if !d.taken[k] && !contains(keys, k) {
				keys = append(keys, k)
				break
			}
		}
	}
	for _, k := range keys {
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(fastapi.AppendString(dst, k), ':')
		dst = st.gen(dst, d.value, true, minimal, nil)
	}
	return dst
}

// patternMembers appends n members of a dict with patternProperties, each
// made for one of them: a key its pattern makes (that no other pattern
// matches, as its value would then have to satisfy both), a value of its
// schemas. A pattern that makes no such key gives fewer members.
func (st *state) patternMembers(dst []byte, d *dictPlan, n int, minimal, first bool) []byte {
	var keys []string
	for i := 0; i < n && !st.over; i++ {
		for try := 0; try <= retries; try++ {
			dp := d.patterns[st.f.IntN(len(d.patterns))]
			k := st.f.Regex(dp.regex)
			if d.taken[k] || contains(keys, k) || !dp.re.MatchString(k) ||
				slices.ContainsFunc(d.patterns, func(o *dictPattern) bool { return o != dp && o.re.MatchString(k) }) {
				continue
			}
			keys = append(keys, k)
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = append(fastapi.AppendString(dst, k), ':')
			dst = st.gen(dst, dp.value, true, minimal, nil)
			break
		}
	}
	return dst
}

// keyFrom makes a dict key with the propertyNames plan.
func (st *state) keyFrom(n *node) string {
	if n.kind == kEnum {
		v, err := strconv.Unquote(string(n.enum[st.f.IntN(len(n.enum))]))
		if err == nil {
			return v
		}
	}
	if n.kind == kStr {
		return st.str(n.str)
	}
	return lowerWord(st.f)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
