package spec

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/moviemock/moviemock/internal/jsonscan"
)

// A JSON document is held to the budgets by scanning its text, not by
// building the YAML node tree first: the tree (parseJSONNode), its
// checkTree walk and its rendering back to JSON (NodeJSON) were half of
// loading a 1 MB FastAPI document, and a reader that never asks for Root,
// JSON or YAML (diff, which reads only the kin-openapi document) never
// needs them. The tree is then built when first asked for.
//
// The scan is conservative: it accepts only text whose tree would pass
// every check and whose kin-openapi reading does not depend on the route
// through the tree. Anything else (a syntax error, a repeated key, an enum
// or a nesting near its budget, invalid UTF-8, a number the tree would
// write differently) takes the tree's route, which says what is wrong in
// the words it always used.

// fastMaxDepth is the nesting the scan takes; deeper is left to the tree,
// which counts the levels exactly as it always has (maxJSONDepth,
// MaxDepth).
const fastMaxDepth = maxJSONDepth - 8

// scanJSON reports whether data, a JSON document (isJSON), takes the fast
// route, and returns the text kin-openapi is to read: compact, its numbers
// written as the tree writes them (data itself when it is so).
func scanJSON(data []byte) ([]byte, bool) {
	s := &fastScan{data: data}
	i := jsonscan.Space(data, 0)
	end := s.value(i, 0)
	if end < 0 || jsonscan.Space(data, end) != len(data) {
		return nil, false
	}
	if s.numbers != nil {
		out := make([]byte, 0, len(data))
		last := 0
		for _, n := range s.numbers {
			out = append(append(out, data[last:n.start]...), n.text...)
			last = n.end
		}
		data = append(out, data[last:]...)
	}
	if i == 0 && end == len(s.data) && jsonscan.Compact(data) {
		return data, true
	}
	var buf bytes.Buffer
	buf.Grow(len(data))
	if err := json.Compact(&buf, data); err != nil {
		return nil, false
	}
	return buf.Bytes(), true
}

type fastScan struct {
	data  []byte
	names [][]byte // the member names of the objects open, as a stack
	// fold: names are compared folded, as encoding/json matches them to
	// fields (sameByCase); folded holds their text, as a stack.
	fold   bool
	folded []byte
	// numbers are the numbers kin-openapi is to read written otherwise.
	numbers []number
}

// number is the text data[start:end] is to be replaced with.
type number struct {
	start, end int
	text       []byte
}

// manyMembers is where an object's names go into a set: below it, a
// linear search is cheaper (a FastAPI document's objects are small but
// for paths and schemas).
const manyMembers = 32

// value scans the value at data[i] and returns its end, or -1 when the
// document takes the tree's route.
func (s *fastScan) value(i, depth int) int {
	data := s.data
	if i >= len(data) {
		return -1
	}
	switch c := data[i]; {
	case c == '{':
		if depth >= fastMaxDepth {
			return -1
		}
		base, mark := len(s.names), len(s.folded)
		var set map[string]struct{}
		end := jsonscan.Members(data, i, func(raw []byte, escaped bool, v int) int {
			name := raw[1 : len(raw)-1]
			if escaped {
				str, ok := jsonscan.Str(raw, true)
				if !ok {
					return -1
				}
				name = []byte(str)
			}
			key := name
			if s.fold {
				at := len(s.folded)
				s.folded = appendFolded(s.folded, name)
				name = s.folded[at:]
			}
			switch open := s.names[base:]; {
			case set != nil:
				if _, dup := set[string(name)]; dup {
					return -1
				}
				set[string(name)] = struct{}{}
			case slices.ContainsFunc(open, func(n []byte) bool { return bytes.Equal(n, name) }):
				return -1
			case len(open) == manyMembers:
				set = make(map[string]struct{}, 2*manyMembers)
				for _, n := range open {
					set[string(n)] = struct{}{}
				}
				set[string(name)] = struct{}{}
			default:
				s.names = append(s.names, name)
			}
			if string(key) == "enum" && v < len(data) && data[v] == '[' {
				return s.enum(v, depth+1)
			}
			return s.value(v, depth+1)
		})
		s.names, s.folded = s.names[:base], s.folded[:mark]
		return end
	case c == '[':
		if depth >= fastMaxDepth {
			return -1
		}
		return jsonscan.Elements(data, i, func(v int) int { return s.value(v, depth+1) })
	case c == '-' || c >= '0' && c <= '9':
		end := jsonscan.End(data, i)
		if end < 0 {
			return -1
		}
		if s.fold {
			return end
		}
		text, ok := numberText(data[i:end])
		if !ok {
			return -1
		}
		if text != nil {
			s.numbers = append(s.numbers, number{i, end, text})
		}
		return end
	}
	return jsonscan.End(data, i)
}

// enum scans an enum's values, which may be no more than MaxEnumValues.
func (s *fastScan) enum(i, depth int) int {
	if depth >= fastMaxDepth {
		return -1
	}
	n := 0
	return jsonscan.Elements(s.data, i, func(v int) int {
		if n++; n > MaxEnumValues {
			return -1
		}
		return s.value(v, depth+1)
	})
}

// sameByCase reports whether no object in the value obj (compact, scanned)
// has two names that differ by case alone (get, GET; FastAPI serves what
// openapi_extra says, "Description" beside "description"). encoding/json
// decodes both such members into one field, the last one read winning, so
// their order matters.
func sameByCase(obj []byte) bool {
	s := &fastScan{data: obj, fold: true}
	return s.value(0, 0) >= 0
}

// appendFolded appends name folded as encoding/json folds a member's name
// to match it to a field (bytes.EqualFold): ASCII letters in upper case,
// any other letter the smallest of its fold set.
func appendFolded(out, name []byte) []byte {
	for i := 0; i < len(name); {
		if c := name[i]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			out = append(out, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(name[i:])
		for {
			r2 := unicode.SimpleFold(r)
			if r2 <= r {
				r = r2
				break
			}
			r = r2
		}
		out = utf8.AppendRune(out, r)
		i += n
	}
	return out
}

// numberText is the text kin-openapi is to read for the number lit, as
// it reads the tree's rendering of it: nil for lit itself; false when the
// document takes the tree's route. NodeJSON writes the number YAML decodes
// (an integer within int64 as written, a float as encoding/json writes a
// float64: 2100.0 as 2100, which kin-openapi then reads into its integer
// fields, such as maxLength, where it refuses a fraction), and
// kin-openapi's Paths decodes every path item into Go values and encodes
// it again, every number through a float64. An integer of 15 digits or
// fewer (but -0) comes out of both as written, a float as encoding/json
// writes its float64; a longer integer, -0 and a float out of range take
// the tree's route.
func numberText(lit []byte) ([]byte, bool) {
	if bytes.IndexAny(lit, ".eE") < 0 {
		digits := lit
		if lit[0] == '-' {
			digits = lit[1:]
		}
		return nil, len(digits) <= 15 && !(lit[0] == '-' && string(digits) == "0")
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil || math.IsInf(f, 0) {
		return nil, false
	}
	out, err := json.Marshal(f)
	if err != nil {
		return nil, false
	}
	if bytes.Equal(out, lit) {
		return nil, true
	}
	return out, true
}
