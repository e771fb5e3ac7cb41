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
// (every item of an array: the union of their shapes).
type node struct {
	kinds   kinds
	present int // values seen at the path
	objects int // of which objects: what a field's presence is counted against
	items   int // items of the arrays seen at the path
}

// Shape is the union shape of a JSON body: the kinds of value found at
// each path ("" the body, "title" a field, "[]" the items of a list,
// "items[].title" a field of the items of a field). Values are not kept.
type Shape struct {
	nodes map[string]*node
	order []string // paths as first seen
	// Deep: parts deeper than the depth budget were not recorded (alike in
	// both bodies compared, so nothing is reported of them).
	Deep bool
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
// ErrBudget.
func ShapeOf(data []byte, lim Limits, dicts map[string]bool) (*Shape, error) {
	if lim.MaxDepth <= 0 {
		lim.MaxDepth = DefaultMaxDepth
	}
	if lim.MaxPaths <= 0 {
		lim.MaxPaths = DefaultMaxPaths
	}
	s := &Shape{nodes: map[string]*node{}}
	r := &shapeReader{dec: json.NewDecoder(bytes.NewReader(data)), lim: lim, s: s, dicts: dicts}
	r.dec.UseNumber()
	if err := r.value("", 0, nil); err != nil {
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
	dicts  map[string]bool
	values int
}

// value reads one value at path; parent is the node of the object or
// array holding it (nil: the body).
func (r *shapeReader) value(path string, depth int, _ *node) error {
	tok, err := r.dec.Token()
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	if r.values++; r.lim.MaxValues > 0 && r.values > r.lim.MaxValues {
		return fmt.Errorf("the body holds more than %d JSON values (--max-check-values): %w", r.lim.MaxValues, ErrBudget)
	}
	record := depth <= r.lim.MaxDepth
	var n *node
	if record {
		if n = r.s.nodes[path]; n == nil {
			if len(r.s.nodes) >= r.lim.MaxPaths {
				return fmt.Errorf("the body has more than %d distinct field paths: %w", r.lim.MaxPaths, ErrBudget)
			}
			n = &node{}
			r.s.nodes[path] = n
			r.s.order = append(r.s.order, path)
		}
		n.present++
	} else {
		r.s.Deep = true
	}
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
		switch t {
		case '{':
			k = kObject
			if n != nil {
				n.objects++
			}
			for r.dec.More() {
				kt, err := r.dec.Token()
				if err != nil {
					return fmt.Errorf("not JSON: %w", err)
				}
				key, _ := kt.(string)
				child := fieldPath(path, key)
				if r.dicts[path] {
					child = path + "{}"
					if n != nil {
						n.items++
					}
				}
				if err := r.value(child, depth+1, n); err != nil {
					return err
				}
			}
		case '[':
			k = kArray
			for r.dec.More() {
				if n != nil {
					n.items++
				}
				if err := r.value(path+"[]", depth+1, n); err != nil {
					return err
				}
			}
		default:
			return errors.New("not JSON: unexpected " + t.String())
		}
		if _, err := r.dec.Token(); err != nil { // the closing delimiter
			return fmt.Errorf("not JSON: %w", err)
		}
	}
	if n != nil {
		n.kinds |= k
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
	comparable := func(s, o *Shape, path string) bool {
		parent, item, ok := parentOf(path)
		if !ok {
			return true
		}
		a, b := s.nodes[parent], o.nodes[parent]
		if a == nil || b == nil {
			return false
		}
		if item {
			return a.items > 0 && b.items > 0
		}
		return a.objects > 0 && b.objects > 0
	}
	for _, path := range was.order {
		w := was.nodes[path]
		if !comparable(was, now, path) {
			continue
		}
		n := now.nodes[path]
		if n == nil {
			out = append(out, Change{Level: Breaking, Kind: ChangeRemoved, Path: path, Was: w.kinds.String()})
			continue
		}
		if parent, item, ok := parentOf(path); ok && !item {
			wp, np := was.nodes[parent], now.nodes[parent]
			if w.present >= wp.objects && n.present < np.objects {
				out = append(out, Change{Level: Warning, Kind: ChangeOptional, Path: path, Was: "in every object", Now: fmt.Sprintf("missing from %d of %d", np.objects-n.present, np.objects)})
			}
		}
		wk, nk := w.kinds&^kNull, n.kinds&^kNull
		if wk&kNumber != 0 {
			nk &^= kInteger
		}
		if wk != 0 && nk&^wk != 0 {
			c := Change{Level: Breaking, Kind: ChangeType, Path: path, Was: w.kinds.String(), Now: n.kinds.String()}
			if cs.allowed(&c, nk&^wk) {
				excused = append(excused, c)
			} else {
				out = append(out, c)
			}
		}
		if wk != 0 && w.kinds&kNull == 0 && n.kinds&kNull != 0 {
			c := Change{Level: Breaking, Kind: ChangeNull, Path: path, Was: w.kinds.String(), Now: n.kinds.String()}
			if cs.allowed(&c, kNull) {
				excused = append(excused, c)
			} else {
				out = append(out, c)
			}
		}
	}
	for _, path := range now.order {
		if was.nodes[path] != nil || !comparable(now, was, path) {
			continue
		}
		out = append(out, Change{Level: Info, Kind: ChangeAdded, Path: path, Now: now.nodes[path].kinds.String()})
	}
	return out, excused
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
	for _, path := range was.order {
		w, n := was.nodes[path], now.nodes[path]
		if n != nil && w.items > 0 && n.kinds&kArray != 0 && n.items == 0 {
			out = append(out, path)
		}
	}
	return out
}
