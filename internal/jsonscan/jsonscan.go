// Package jsonscan finds and checks JSON values in text without decoding
// them into Go values: the fast path under bulk loads (a million fixture
// records), where encoding/json's scan-then-decode and its allocations
// dominate. It is strict: what it accepts is valid JSON (RFC 8259) that
// encoding/json decodes, and reads back unchanged: strings in valid UTF-8,
// numbers within float64's range. A caller that needs to know why
// text was refused asks encoding/json, which says where and what.
package jsonscan

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// Kind is the type of a JSON value, told by its first byte.
type Kind uint8

const (
	Invalid Kind = iota
	Null
	Bool
	Number
	String
	Array
	Object
)

// Space skips JSON white space from i.
func Space(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// Value checks the value starting at data[i] (no white space before it) and
// returns where it ends and its kind; Invalid when it is not one valid JSON
// value, or nests deeper than MaxDepth.
func Value(data []byte, i int) (end int, kind Kind) {
	return value(data, i, 0)
}

// MaxDepth bounds nesting, as encoding/json does (10,000), so that hostile
// text cannot exhaust the stack.
const MaxDepth = 10000

func value(data []byte, i, depth int) (int, Kind) {
	if i >= len(data) {
		return i, Invalid
	}
	switch c := data[i]; {
	case c == '"':
		end, _, ok := stringEnd(data, i)
		if !ok {
			return end, Invalid
		}
		return end, String
	case c == '{':
		if depth >= MaxDepth {
			return i, Invalid
		}
		end := Members(data, i, func(_ []byte, _ bool, v int) int { return valueEnd(data, v, depth+1) })
		if end < 0 {
			return i, Invalid
		}
		return end, Object
	case c == '[':
		if depth >= MaxDepth {
			return i, Invalid
		}
		end := Elements(data, i, func(v int) int { return valueEnd(data, v, depth+1) })
		if end < 0 {
			return i, Invalid
		}
		return end, Array
	case c == 't':
		return literal(data, i, "true", Bool)
	case c == 'f':
		return literal(data, i, "false", Bool)
	case c == 'n':
		return literal(data, i, "null", Null)
	case c == '-' || c >= '0' && c <= '9':
		end := numberEnd(data, i)
		if end < 0 || !fitsFloat(data[i:end]) {
			return i, Invalid
		}
		return end, Number
	}
	return i, Invalid
}

// End is where the value at data[i] ends, or -1 when there is no valid
// value there.
func End(data []byte, i int) int { return valueEnd(data, i, 0) }

// valueEnd is where the value at data[i] ends, or -1.
func valueEnd(data []byte, i, depth int) int {
	end, k := value(data, i, depth)
	if k == Invalid {
		return -1
	}
	return end
}

func literal(data []byte, i int, word string, k Kind) (int, Kind) {
	if len(data)-i >= len(word) && string(data[i:i+len(word)]) == word {
		return i + len(word), k
	}
	return i, Invalid
}

// numberEnd is the end of the number at data[i], or -1.
func numberEnd(data []byte, i int) int {
	if data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && data[i] >= '1' && data[i] <= '9':
		for i++; i < len(data) && isDigit(data[i]); i++ {
		}
	default:
		return -1
	}
	if i < len(data) && data[i] == '.' {
		i++
		if i >= len(data) || !isDigit(data[i]) {
			return -1
		}
		for ; i < len(data) && isDigit(data[i]); i++ {
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) || !isDigit(data[i]) {
			return -1
		}
		for ; i < len(data) && isDigit(data[i]); i++ {
		}
	}
	return i
}

// fitsFloat reports whether a number's text is within float64's range,
// as encoding/json needs to decode it into an interface value. Without an
// exponent that takes 309 digits or more.
func fitsFloat(lit []byte) bool {
	if len(lit) < 300 && !bytes.ContainsAny(lit, "eE") {
		return true
	}
	_, err := strconv.ParseFloat(string(lit), 64)
	return err == nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// stringEnd checks the string starting at data[i] ('"') and returns where
// it ends and whether it holds escapes. When it is not valid, end is where
// it went wrong: len(data) when the text ended first. Invalid UTF-8 is refused:
// encoding/json would replace it, so it does not read back unchanged.
func stringEnd(data []byte, i int) (end int, escaped, ok bool) {
	for i++; i < len(data); {
		for i < len(data) && plain[data[i]] {
			i++
		}
		if i == len(data) {
			break
		}
		c := data[i]
		switch {
		case c == '"':
			return i + 1, escaped, true
		case c == '\\':
			escaped = true
			if i+1 >= len(data) {
				return len(data), escaped, false // cut short
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(data) && isHex4(data[i+2:]) {
					return len(data), escaped, false // cut short
				}
				if i+6 > len(data) || !isHex4(data[i+2:i+6]) {
					return i, escaped, false
				}
				i += 6
			default:
				return i, escaped, false
			}
		case c < 0x20:
			return i, escaped, false
		case c < utf8.RuneSelf:
			i++
		default:
			if !utf8.FullRune(data[i:]) {
				return len(data), escaped, false // cut short, or broken: the caller tells by reading on
			}
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				return i, escaped, false
			}
			i += size
		}
	}
	return i, escaped, false
}

// plain marks the bytes a string holds as they are: printable ASCII but
// the quote and the backslash.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func isHex4(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// Members walks the object starting at data[i] ('{'), calling member with
// each member's name (still quoted, as in the text), whether the name holds
// escapes, and where its value starts. member checks the value and returns
// where it ends, or -1 to stop. Members returns the end of the object, or
// -1 when the text is not an object or member stopped.
func Members(data []byte, i int, member func(name []byte, escaped bool, v int) (vEnd int)) int {
	if i >= len(data) || data[i] != '{' {
		return -1
	}
	i = Space(data, i+1)
	if i < len(data) && data[i] == '}' {
		return i + 1
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return -1
		}
		nameEnd, escaped, ok := stringEnd(data, i)
		if !ok {
			return -1
		}
		name := data[i:nameEnd]
		i = Space(data, nameEnd)
		if i >= len(data) || data[i] != ':' {
			return -1
		}
		next, end := after(data, member(name, escaped, Space(data, i+1)), '}')
		if end != 0 {
			return end
		}
		i = next
	}
}

// after reads what follows a member or element that ended at vEnd (-1:
// it did not): a ',' and the start of the next one (next), or the closing
// bracket and the end of the whole (end), or nothing valid (end -1).
func after(data []byte, vEnd int, closing byte) (next, end int) {
	if vEnd < 0 {
		return 0, -1
	}
	i := Space(data, vEnd)
	switch {
	case i < len(data) && data[i] == ',':
		return Space(data, i+1), 0
	case i < len(data) && data[i] == closing:
		return 0, i + 1
	}
	return 0, -1
}

// Elements walks the array starting at data[i] ('['), calling element with
// where each element starts; like Members, element returns where the
// element ends (or -1), and Elements the end of the array (or -1).
func Elements(data []byte, i int, element func(v int) (vEnd int)) int {
	if i >= len(data) || data[i] != '[' {
		return -1
	}
	i = Space(data, i+1)
	if i < len(data) && data[i] == ']' {
		return i + 1
	}
	for {
		next, end := after(data, element(i), ']')
		if end != 0 {
			return end
		}
		i = next
	}
}

// Skip finds the end of the value at data[i] by its strings and brackets
// alone, without checking it: for cutting a list into elements that are
// each checked later. Brackets of either kind count alike. It returns
// Short when the text ends first, Broken when a string in it is not valid.
func Skip(data []byte, i int) int {
	if i >= len(data) {
		return Short
	}
	if c := data[i]; c != '{' && c != '[' {
		if c == '"' {
			return skipString(data, i)
		}
		for i < len(data) && !delimiter[data[i]] {
			i++
		}
		if i == len(data) {
			return Short
		}
		return i
	}
	depth := 0
	for ; i < len(data); i++ {
		switch data[i] {
		case '"':
			end := skipString(data, i)
			if end < 0 {
				return end
			}
			i = end - 1
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return Short
}

// What Skip returns when it finds no end.
const (
	Short  = -1 // the text ends before the value does
	Broken = -2 // the value is not valid JSON
)

func skipString(data []byte, i int) int {
	end, _, ok := stringEnd(data, i)
	switch {
	case ok:
		return end
	case end >= len(data):
		return Short
	}
	return Broken
}

// delimiter marks the bytes that end a scalar.
var delimiter = func() (t [256]bool) {
	for _, c := range []byte(" \t\r\n,]}") {
		t[c] = true
	}
	return t
}()

// Str returns the string value raw (quoted, as Value found it) holds.
func Str(raw []byte, escaped bool) (string, bool) {
	if !escaped {
		return string(raw[1 : len(raw)-1]), true
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// Compact reports whether raw, a value Value accepted, has no white space
// outside its strings: encoding/json's Compact would leave it as it is.
func Compact(raw []byte) bool {
	for i := 0; i < len(raw); i++ {
		switch raw[i] {
		case ' ', '\t', '\n', '\r':
			return false
		case '"':
			end, _, _ := stringEnd(raw, i)
			i = end - 1
		}
	}
	return true
}
