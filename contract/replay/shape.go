package replay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// kinds is a set of JSON value kinds.
type kinds uint8

const (
	kNull kinds = 1 << iota
	kBool
	kNumber
	kString
	kObject
	kArray
	kInteger // a number written without fraction or exponent
)

var kindNames = []struct {
	k    kinds
	name string
}{{kObject, "object"}, {kArray, "array"}, {kString, "string"}, {kInteger, "integer"}, {kNumber, "number"}, {kBool, "boolean"}, {kNull, "null"}}

// String is the kinds joined by "|", in a fixed order: "string|null".
func (k kinds) String() string {
	var parts []string
	for _, n := range kindNames {
		if k&n.k != 0 {
			parts = append(parts, n.name)
		}
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, "|")
}

// node is what a body holds at one path, over every value found there
// (every item of an array: the union of their shapes). The nodes of a
// shape are a tree, one step a node: a node's path is written only when
// a change or a note names it, so reading a body costs what the body
// does, however deep its paths.
type node struct {
	kinds   kinds
	present int // values seen at the path
	objects int // of which objects: what a field's presence is counted against
	items   int // items of the arrays seen at the path

	parent *node
	step   step
	key    string // the field's name, for a field
	fields map[string]*node
	item   *node // the items of the lists at the path ([])
	member *node // the values of the dicts at the path ({})
	depth  int
	text   string // the path once written; see path
	shown  bool
}

// step is how a node is reached from its parent.
type step uint8

const (
	stepBody   step = iota
	stepField       // .title, ["a.b"]
	stepItem        // []
	stepMember      // {}
)

// child is n's node one step below, nil when none is recorded.
func (n *node) child(st step, key string) *node {
	switch st {
	case stepItem:
		return n.item
	case stepMember:
		return n.member
	}
	return n.fields[key]
}

// maxKeyShown bounds how much of one field's name a path shows: a longer
// name is cut, so that a path, at most DefaultMaxDepth steps, stays short
// whatever the keys of the body.
const maxKeyShown = 128

// path is n's path as a report writes it ("items[].title", "" the body),
// written once, from the parent's.
func (n *node) path() string {
	if n.shown || n.parent == nil {
		return n.text
	}
	parent := n.parent.path()
	switch n.step {
	case stepItem:
		n.text = parent + "[]"
	case stepMember:
		n.text = parent + "{}"
	default:
		key := n.key
		if len(key) > maxKeyShown {
			key = strings.ToValidUTF8(key[:maxKeyShown], "") + "…"
		}
		n.text = fieldPath(parent, key)
	}
	n.shown = true
	return n.text
}

// Shape is the union shape of a JSON body: the kinds of value found at
// each path ("" the body, "title" a field, "[]" the items of a list,
// "items[].title" a field of the items of a field). Values are not kept.
type Shape struct {
	root  *node
	order []*node // paths as first seen, each after its parent
	// Deep: parts deeper than the depth budget were not recorded (alike in
	// both bodies compared, so nothing is reported of them); DeepAt is the
	// path of the first value whose contents were not.
	Deep   bool
	DeepAt string
}

// Limits bound what ShapeOf reads of a body.
type Limits struct {
	MaxValues int // JSON values (each item, field and container counts one)
	MaxDepth  int // nesting levels recorded; deeper ones are read, not recorded
	MaxPaths  int // distinct paths
}

// Defaults of Limits.
const (
	DefaultMaxDepth = 32
	DefaultMaxPaths = 10_000
)

// ErrBudget means a body holds more than Limits allow: its shape is not
// compared.
var ErrBudget = errors.New("over budget")

// ShapeOf reads the shape of the JSON body data within lim. The objects at
// the paths dicts names are dicts (a contract's dict[str, X]: an object of
// no properties): their keys are values, so their members are read as one
// path, "reactions{}". An error says the body is not JSON, or wraps
// ErrBudget. Its cost is linear in the body: parts deeper than
// lim.MaxDepth are read without recursion and not recorded.
func ShapeOf(data []byte, lim Limits, dicts map[string]bool) (*Shape, error) {
	if lim.MaxDepth <= 0 {
		lim.MaxDepth = DefaultMaxDepth
	}
	if lim.MaxPaths <= 0 {
		lim.MaxPaths = DefaultMaxPaths
	}
	s := &Shape{root: &node{}}
	s.order = append(s.order, s.root)
	r := &shapeReader{dec: json.NewDecoder(bytes.NewReader(data)), lim: lim, s: s, dicts: dictTree(dicts)}
	r.dec.UseNumber()
	if err := r.value(s.root, r.dicts); err != nil {
		return nil, err
	}
	if _, err := r.dec.Token(); err != io.EOF {
		return nil, errors.New("not JSON: more after the value")
	}
	return s, nil
}

type shapeReader struct {
	dec    *json.Decoder
	lim    Limits
	s      *Shape
	dicts  *dictNode
	values int
}

// count counts one value against the values budget.
func (r *shapeReader) count() error {
	if r.values++; r.lim.MaxValues > 0 && r.values > r.lim.MaxValues {
		return fmt.Errorf("the body holds more than %d JSON values (--max-check-values): %w", r.lim.MaxValues, ErrBudget)
	}
	return nil
}

// at is the node below parent by st and key, made when new.
func (r *shapeReader) at(parent *node, st step, key string) (*node, error) {
	if n := parent.child(st, key); n != nil {
		return n, nil
	}
	if len(r.s.order) >= r.lim.MaxPaths {
		return nil, fmt.Errorf("the body has more than %d distinct field paths: %w", r.lim.MaxPaths, ErrBudget)
	}
	n := &node{parent: parent, step: st, key: key, depth: parent.depth + 1}
	switch st {
	case stepItem:
		parent.item = n
	case stepMember:
		parent.member = n
	default:
		if parent.fields == nil {
			parent.fields = map[string]*node{}
		}
		parent.fields[key] = n
	}
	r.s.order = append(r.s.order, n)
	return n, nil
}

// value reads one value into n; d is the dicts' tree at n (nil: no dict
// at or below it).
func (r *shapeReader) value(n *node, d *dictNode) error {
	tok, err := r.dec.Token()
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	if err := r.count(); err != nil {
		return err
	}
	n.present++
	var k kinds
	switch t := tok.(type) {
	case nil:
		k = kNull
	case bool:
		k = kBool
	case json.Number:
		k = kNumber
		if !strings.ContainsAny(string(t), ".eE") {
			k = kInteger
		}
	case string:
		k = kString
	case json.Delim:
		if t != '{' && t != '[' {
			return errors.New("not JSON: unexpected " + t.String())
		}
		k = kArray
		if t == '{' {
			k = kObject
			n.objects++
		}
		if n.depth >= r.lim.MaxDepth {
			// The contents are deeper than the budget: read, counted,
			// not recorded.
			if r.dec.More() && !r.s.Deep {
				r.s.Deep, r.s.DeepAt = true, n.path()
			}
			if err := r.skip(t); err != nil {
				return err
			}
			break
		}
		for r.dec.More() {
			st, key, cd := stepItem, "", (*dictNode)(nil)
			if t == '{' {
				kt, err := r.dec.Token()
				if err != nil {
					return fmt.Errorf("not JSON: %w", err)
				}
				key, _ = kt.(string)
				st = stepField
				if d != nil && d.dict {
					st, key = stepMember, ""
				}
			}
			if st != stepField {
				n.items++
			}
			if d != nil {
				cd = d.child(st, key)
			}
			c, err := r.at(n, st, key)
			if err != nil {
				return err
			}
			if err := r.value(c, cd); err != nil {
				return err
			}
		}
		if _, err := r.dec.Token(); err != nil { // the closing delimiter
			return fmt.Errorf("not JSON: %w", err)
		}
	}
	n.kinds |= k
	return nil
}

// skip reads the rest of the container open opened, counting its values,
// without recursion: its nesting costs a bit a level.
func (r *shapeReader) skip(open json.Delim) error {
	inObject := []bool{open == '{'} // per open container: an object?
	key := open == '{'              // the next token is a key
	for len(inObject) > 0 {
		tok, err := r.dec.Token()
		if err != nil {
			return fmt.Errorf("not JSON: %w", err)
		}
		top := len(inObject) - 1
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			inObject = inObject[:top]
			key = top > 0 && inObject[top-1] // the enclosing object's next key
			continue
		}
		if inObject[top] && key {
			key = false // a key: its value follows
			continue
		}
		if err := r.count(); err != nil {
			return err
		}
		if d, ok := tok.(json.Delim); ok {
			inObject = append(inObject, d == '{')
			key = d == '{'
			continue
		}
		key = inObject[top]
	}
	return nil
}

// fieldPath is the path of field key of the object at path: title,
// items[].title; a key that would read as more than one step is quoted:
// ["a.b"].
func fieldPath(path, key string) string {
	if key == "" || strings.ContainsAny(key, ".[]{}\"") || strings.TrimSpace(key) != key {
		return path + "[" + strconv.Quote(key) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// parentOf is the path of the object or array holding path, and whether
// path is an item of it ([]) rather than a field; ok false for the body.
func parentOf(path string) (parent string, item, ok bool) {
	if path == "" {
		return "", false, false
	}
	if strings.HasSuffix(path, "[]") {
		return strings.TrimSuffix(path, "[]"), true, true
	}
	if strings.HasSuffix(path, "{}") {
		return strings.TrimSuffix(path, "{}"), true, true
	}
	if strings.HasSuffix(path, "\"]") {
		// A quoted key: strconv.Quote escapes every " in it, so the last
		// [" opens it.
		if i := strings.LastIndex(path, "[\""); i >= 0 {
			return path[:i], false, true
		}
	}
	i := strings.LastIndex(path, ".")
	if i < 0 {
		return "", false, true
	}
	return path[:i], false, true
}

// Level is how much a change matters to a client: Info (a field added),
// Warning (a field no longer in every item), Breaking (the status, the
// content type, a field removed, made null or of another type, no answer).
type Level int

// The levels, least first.
const (
	Info Level = iota
	Warning
	Breaking
)

func (l Level) String() string {
	switch l {
	case Warning:
		return "warning"
	case Breaking:
		return "breaking"
	}
	return "info"
}

// MarshalText writes the level's name.
func (l Level) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// The kinds of change.
const (
	ChangeStatus      = "status"       // the status differs
	ChangeContentType = "content-type" // the media type differs
	ChangeNoAnswer    = "no-answer"    // no complete answer came
	ChangeRemoved     = "removed"      // a field no answer has any more
	ChangeNull        = "made-null"    // a value never null before is null now
	ChangeType        = "type"         // a value of a kind not seen before
	ChangeOptional    = "optional"     // a field in every recorded object is missing from some now
	ChangeAdded       = "added"        // a field the recording never had
)

// Change is one difference between the recorded answer and the new one.
type Change struct {
	Level Level  `json:"level"`
	Kind  string `json:"kind"`
	// Path is the JSON path (items[].title; "" the body itself) of a
	// field's change.
	Path string `json:"path,omitempty"`
	Was  string `json:"was,omitempty"`
	Now  string `json:"now,omitempty"`
	// Note says what the contracts allow there, for a value made null or
	// of another type: whether it may be a value rather than a change.
	Note string `json:"note,omitempty"`
}

// Where is the change's path as a report shows it.
func (c Change) Where() string {
	if c.Path == "" {
		return "(body)"
	}
	return c.Path
}

// String says the change in a line: "removed: items[].title (was string)".
func (c Change) String() string {
	switch c.Kind {
	case ChangeStatus:
		return "status: was " + c.Was + ", now " + c.Now
	case ChangeContentType:
		return "content type: was " + c.Was + ", now " + c.Now
	case ChangeNoAnswer:
		return "no complete answer: " + c.Now
	case ChangeRemoved:
		return "removed: " + c.Where() + " (was " + c.Was + ")"
	case ChangeAdded:
		return "added: " + c.Where() + " (" + c.Now + ")"
	case ChangeNull:
		return "made null: " + c.Where() + " (was " + c.Was + ", now " + c.Now + ")" + c.note()
	case ChangeType:
		return "type changed: " + c.Where() + " (was " + c.Was + ", now " + c.Now + ")" + c.note()
	case ChangeOptional:
		return "not always there: " + c.Where() + " (" + c.Now + ")"
	}
	return c.Kind + ": " + c.Where()
}

func (c Change) note() string {
	if c.Note == "" {
		return ""
	}
	return ": " + c.Note
}

// Contracts are what the contracts allow at each path of one call's
// answer; a nil one says nothing.
type Contracts struct {
	// Recorded is the contract the recording was made against (its
	// response schema for the recorded status): a value null or of a kind
	// it allows at a path is a value, not a change.
	Recorded *Allowed
	// Target is the target's contract: a value it allows is only said to
	// be maybe a value (the change of a field made nullable looks alike).
	Target *Allowed
}

// The notes of Change.Note.
const (
	NoteMaybeValue   = "the target's contract allows it: it may be a value (--recorded-spec tells)"
	NoteNotAllowed   = "the recorded contract did not allow it"
	NoteNotDescribed = "the recorded contract does not describe it"
)

// Compare is CompareWith knowing no contract.
func Compare(was, now *Shape) []Change {
	out, _ := CompareWith(was, now, Contracts{})
	return out
}

// CompareWith is every change of shape from was (the recorded answer's)
// to now (the new answer's), and the values excused: made null or of
// another type where cs.Recorded allows them (at the path, or anywhere
// below a part it says nothing of: {}, Any):
//
//   - a field or the items of a list are compared only where both bodies
//     hold an object, or a non-empty list, at its parent: a list that came
//     back empty says nothing of its items, and a parent whose kind
//     changed is reported once, not field by field;
//   - removed (breaking): a field of the recorded objects no new object
//     at that place has; only the topmost of a removed subtree;
//   - made null (breaking): null where the recording had only non-null
//     values; type changed (breaking): a kind other than null the
//     recording never had there; null in the recording says nothing of
//     the type. A number is an integer when written without fraction or
//     exponent (FastAPI writes a float field's 139 as 139.0): an integer
//     where the recording had decimals is no change (a backend in another
//     language writes 8.0 as 8), decimals where it had only integers are;
//   - not always there (warning): a field every recorded object had that
//     some new objects lack;
//   - added (info): a field the recorded objects never had; only the
//     topmost of an added subtree.
//
// The members of a dict (ShapeOf's dicts) are compared as a list's items
// are: by the union of their shapes, their keys being values. A value
// made null or of another type is excused when the recorded contract
// allows it there; otherwise its Note says what the contracts allow.
func CompareWith(was, now *Shape, cs Contracts) (out, excused []Change) {
	wm, nm := counterparts(was, now), counterparts(now, was)
	for _, w := range was.order {
		if !comparable(w, wm) {
			continue
		}
		n := wm[w]
		if n == nil {
			out = append(out, Change{Level: Breaking, Kind: ChangeRemoved, Path: w.path(), Was: w.kinds.String()})
			continue
		}
		if w.step == stepField {
			wp, np := w.parent, n.parent
			if w.present >= wp.objects && n.present < np.objects {
				out = append(out, Change{Level: Warning, Kind: ChangeOptional, Path: w.path(), Was: "in every object", Now: fmt.Sprintf("missing from %d of %d", np.objects-n.present, np.objects)})
			}
		}
		wk, nk := w.kinds&^kNull, n.kinds&^kNull
		if wk&kNumber != 0 {
			nk &^= kInteger
		}
		if wk != 0 && nk&^wk != 0 {
			c := Change{Level: Breaking, Kind: ChangeType, Path: w.path(), Was: w.kinds.String(), Now: n.kinds.String()}
			if cs.allowed(&c, nk&^wk) {
				excused = append(excused, c)
			} else {
				out = append(out, c)
			}
		}
		if wk != 0 && w.kinds&kNull == 0 && n.kinds&kNull != 0 {
			c := Change{Level: Breaking, Kind: ChangeNull, Path: w.path(), Was: w.kinds.String(), Now: n.kinds.String()}
			if cs.allowed(&c, kNull) {
				excused = append(excused, c)
			} else {
				out = append(out, c)
			}
		}
	}
	for _, n := range now.order {
		if nm[n] != nil || !comparable(n, nm) {
			continue
		}
		out = append(out, Change{Level: Info, Kind: ChangeAdded, Path: n.path(), Now: n.kinds.String()})
	}
	return out, excused
}

// counterparts maps each node of s to the node of o at the same path,
// when o has one: a node's is its parent's child by the same step.
func counterparts(s, o *Shape) map[*node]*node {
	m := make(map[*node]*node, len(s.order))
	m[s.root] = o.root
	for _, n := range s.order[1:] {
		if p := m[n.parent]; p != nil {
			if c := p.child(n.step, n.key); c != nil {
				m[n] = c
			}
		}
	}
	return m
}

// comparable reports whether n, a node of one shape, can be compared
// with the other (m its counterparts there): the body always; a field
// where both hold objects at its parent, an item or a dict's member where
// both hold some at its parent.
func comparable(n *node, m map[*node]*node) bool {
	if n.parent == nil {
		return true
	}
	a, b := n.parent, m[n.parent]
	if b == nil {
		return false
	}
	if n.step != stepField {
		return a.items > 0 && b.items > 0
	}
	return a.objects > 0 && b.objects > 0
}

// allowed reports whether the recorded contract allows the kinds k new
// at c's path; when it does not, c's Note says what the contracts allow.
func (cs Contracts) allowed(c *Change, k kinds) bool {
	rec, known := cs.Recorded.At(c.Path)
	if known && k&^rec == 0 {
		return true
	}
	if tk, ok := cs.Target.At(c.Path); ok && k&^tk == 0 {
		switch {
		case cs.Recorded == nil:
			c.Note = NoteMaybeValue
		case known:
			c.Note = NoteNotAllowed
		default:
			c.Note = NoteNotDescribed
		}
	}
	return false
}

// Dicts are the paths of the objects sch describes as dicts — an object
// of no properties whose additionalProperties are not false (FastAPI's
// dict[str, X], a free-form object) — read within a budget of schemas
// visited and DefaultMaxDepth.
func Dicts(sch *openapi3.SchemaRef) map[string]bool {
	out := map[string]bool{}
	budget := maxDictSchemas
	var walk func(path string, ref *openapi3.SchemaRef, depth int)
	walk = func(path string, ref *openapi3.SchemaRef, depth int) {
		if budget--; ref == nil || ref.Value == nil || depth > DefaultMaxDepth || budget < 0 {
			return
		}
		s := ref.Value
		for _, list := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
			for _, e := range list {
				walk(path, e, depth+1)
			}
		}
		for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
			walk(fieldPath(path, name), s.Properties[name], depth+1)
		}
		if s.Items != nil {
			walk(path+"[]", s.Items, depth+1)
		}
		ap := s.AdditionalProperties
		if len(s.Properties) == 0 && (s.Type.Is("object") || ap.Schema != nil || ap.Has != nil && *ap.Has) && (ap.Has == nil || *ap.Has) {
			out[path] = true
			walk(path+"{}", ap.Schema, depth+1)
		}
	}
	walk("", sch, 0)
	return out
}

// maxDictSchemas bounds the schemas Dicts visits (a recursive schema is
// visited down to DefaultMaxDepth along each branch).
const maxDictSchemas = 10_000

// emptied are the paths of lists the recording had items in that came
// back empty: their items could not be compared.
func emptied(was, now *Shape) []string {
	var out []string
	m := counterparts(was, now)
	for _, w := range was.order {
		if n := m[w]; n != nil && w.items > 0 && n.kinds&kArray != 0 && n.items == 0 {
			out = append(out, w.path())
		}
	}
	return out
}

// dictNode is the dicts' paths as a tree, walked beside a body's.
type dictNode struct {
	dict   bool
	fields map[string]*dictNode
	item   *dictNode
	member *dictNode
}

func (d *dictNode) child(st step, key string) *dictNode {
	switch st {
	case stepItem:
		return d.item
	case stepMember:
		return d.member
	}
	return d.fields[key]
}

// dictTree is the tree of the paths of dicts (as Dicts writes them); nil
// for none. A path that does not read as one is left out.
func dictTree(dicts map[string]bool) *dictNode {
	if len(dicts) == 0 {
		return nil
	}
	root := &dictNode{}
	for path, ok := range dicts {
		if !ok {
			continue
		}
		d := root
		for rest := path; rest != "" && d != nil; {
			var st step
			var key string
			st, key, rest = nextStep(rest, d == root && rest == path)
			d = d.grow(st, key)
		}
		if d != nil {
			d.dict = true
		}
	}
	return root
}

// grow is d's child by st and key, made when new; nil for no step.
func (d *dictNode) grow(st step, key string) *dictNode {
	var slot **dictNode
	switch st {
	case stepBody:
		return nil
	case stepItem:
		slot = &d.item
	case stepMember:
		slot = &d.member
	default:
		if d.fields == nil {
			d.fields = map[string]*dictNode{}
		}
		if c := d.fields[key]; c != nil {
			return c
		}
		c := &dictNode{}
		d.fields[key] = c
		return c
	}
	if *slot == nil {
		*slot = &dictNode{}
	}
	return *slot
}

// nextStep reads the first step of a path as fieldPath writes it ([],
// {}, ["quoted"], .name, or name at the start); stepBody when it reads as
// none.
func nextStep(path string, first bool) (st step, key, rest string) {
	switch {
	case strings.HasPrefix(path, "[]"):
		return stepItem, "", path[2:]
	case strings.HasPrefix(path, "{}"):
		return stepMember, "", path[2:]
	case strings.HasPrefix(path, "[\""):
		q, err := strconv.QuotedPrefix(path[1:])
		if err != nil || !strings.HasPrefix(path[1+len(q):], "]") {
			return stepBody, "", ""
		}
		key, _ := strconv.Unquote(q)
		return stepField, key, path[2+len(q):]
	case strings.HasPrefix(path, "."):
		path = path[1:]
	case !first:
		return stepBody, "", ""
	}
	end := strings.IndexAny(path, ".[{")
	if end < 0 {
		end = len(path)
	}
	if end == 0 {
		return stepBody, "", ""
	}
	return stepField, path[:end], path[end:]
}
