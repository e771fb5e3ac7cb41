package fastapi

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"unicode/utf8"
)

// This file is Python 3.11's json.loads(body: bytes) as Starlette's
// Request.json() calls it: the encoding guessed from the first bytes and
// decoded with errors="surrogatepass", then the C scanner (Modules/_json.c)
// with its exact error messages and character positions. The result is a
// Python object graph (pyValue) that the validators read as pydantic reads
// the dicts, lists, strs, ints and floats json.loads returns.

// pyKind is the Python type of a value json.loads returned.
type pyKind uint8

const (
	pyNone pyKind = iota
	pyBool
	pyInt
	pyFloat
	pyStr
	pyList
	pyDict
	pyBytes // a body FastAPI did not parse as JSON (bytes)
)

// pyValue is one Python value. Strings are held as WTF-8: UTF-8 in which a
// lone surrogate (which a Python str can hold, from a "\ud800" escape or
// surrogatepass decoding) is written as its own 3-byte sequence.
type pyValue struct {
	kind  pyKind
	b     bool
	i     int64    // pyInt, when big is nil
	big   *big.Int // pyInt beyond int64
	f     float64
	s     string    // pyStr (WTF-8) or pyBytes (raw)
	items []pyValue // pyList items, pyDict values
	keys  []string  // pyDict keys, in insertion order
}

// get is dict.get(key): nil when absent.
func (v *pyValue) get(key string) *pyValue {
	for i := range v.keys {
		if v.keys[i] == key {
			return &v.items[i]
		}
	}
	return nil
}

// errBodyDecode is a body Python cannot turn into text or whose JSON it
// cannot turn into objects although it is well formed (an int of more than
// 4,300 digits, nesting deeper than the recursion limit): FastAPI answers
// 400 "There was an error parsing the body".
var errBodyDecode = errors.New("body is not decodable as Python reads JSON")

// MaxJSONDepth is how deeply nested arrays and objects may be before
// Python's json.loads gives up with a RecursionError (a 400). The C scanner
// counts against the interpreter's recursion limit (1000), shared with the
// frames already on the stack when FastAPI reads the body: measured with
// uvicorn 0.51 (h11) on Python 3.11.7, 959 nested containers parse and 960
// do not. In-process (ASGI) callers have fewer frames and get a little
// further; the difference only matters to bodies nobody sends.
const MaxJSONDepth = 959

// MaxInputDepth is the deepest value FastAPI can echo as a validation
// error's "input": jsonable_encoder and json.dumps recurse once per level,
// and past this (measured as MaxJSONDepth) the 422 becomes a RecursionError
// and so a 500.
const MaxInputDepth = 954

// jsonDecodeError is Python's json.JSONDecodeError: msg without the
// position suffix, pos a character (code point) offset.
type jsonDecodeError struct {
	msg string
	pos int
}

// pyJSONText decodes a request body as json.loads(bytes) does before
// scanning: json.detect_encoding picks UTF-8 (a BOM is skipped), UTF-16 or
// UTF-32 (with or without BOM, guessed from NUL bytes), and the bytes are
// decoded with "surrogatepass", so encoded lone surrogates pass. The text
// comes back as WTF-8.
func pyJSONText(b []byte) (string, error) {
	switch {
	case hasPrefix(b, "\x00\x00\xfe\xff"):
		return decodeUTF32(b[4:], true)
	case hasPrefix(b, "\xff\xfe\x00\x00"):
		return decodeUTF32(b[4:], false)
	case hasPrefix(b, "\xfe\xff"):
		return decodeUTF16(b[2:], true)
	case hasPrefix(b, "\xff\xfe"):
		return decodeUTF16(b[2:], false)
	case hasPrefix(b, "\xef\xbb\xbf"):
		return decodeUTF8(b[3:])
	}
	if len(b) >= 4 {
		switch {
		case b[0] == 0 && b[1] != 0:
			return decodeUTF16(b, true)
		case b[0] == 0:
			return decodeUTF32(b, true)
		case b[1] == 0 && (b[2] != 0 || b[3] != 0):
			return decodeUTF16(b, false)
		case b[1] == 0:
			return decodeUTF32(b, false)
		}
	} else if len(b) == 2 {
		switch {
		case b[0] == 0:
			return decodeUTF16(b, true)
		case b[1] == 0:
			return decodeUTF16(b, false)
		}
	}
	return decodeUTF8(b)
}

func hasPrefix(b []byte, p string) bool { return len(b) >= len(p) && string(b[:len(p)]) == p }

// decodeUTF8 is bytes.decode("utf-8", "surrogatepass"): strict UTF-8 except
// that encoded surrogates (ED A0..BF xx) are kept.
func decodeUTF8(b []byte) (string, error) {
	if !validWTF8(b) {
		return "", errBodyDecode
	}
	return string(b), nil
}

// validWTF8 reports whether b is UTF-8 in which surrogate code points may
// also appear, each as its own 3-byte sequence.
func validWTF8(b []byte) bool {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			if c == 0xED && i+2 < len(b) && b[i+1] >= 0xA0 && b[i+1] <= 0xBF && b[i+2] >= 0x80 && b[i+2] <= 0xBF {
				i += 3
				continue
			}
			return false
		}
		i += size
	}
	return true
}

func decodeUTF16(b []byte, bigEndian bool) (string, error) {
	if len(b)%2 != 0 {
		return "", errBodyDecode // Python: "truncated data"
	}
	out := make([]byte, 0, len(b))
	unit := func(i int) rune {
		if bigEndian {
			return rune(b[i])<<8 | rune(b[i+1])
		}
		return rune(b[i+1])<<8 | rune(b[i])
	}
	for i := 0; i < len(b); i += 2 {
		u := unit(i)
		if u >= 0xD800 && u < 0xDC00 && i+3 < len(b) {
			if lo := unit(i + 2); lo >= 0xDC00 && lo < 0xE000 {
				out = utf8.AppendRune(out, 0x10000+(u-0xD800)<<10+(lo-0xDC00))
				i += 2
				continue
			}
		}
		out = appendWTF8(out, u)
	}
	return string(out), nil
}

func decodeUTF32(b []byte, bigEndian bool) (string, error) {
	if len(b)%4 != 0 {
		return "", errBodyDecode
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i += 4 {
		var u uint32
		if bigEndian {
			u = uint32(b[i])<<24 | uint32(b[i+1])<<16 | uint32(b[i+2])<<8 | uint32(b[i+3])
		} else {
			u = uint32(b[i+3])<<24 | uint32(b[i+2])<<16 | uint32(b[i+1])<<8 | uint32(b[i])
		}
		if u > utf8.MaxRune {
			return "", errBodyDecode
		}
		out = appendWTF8(out, rune(u))
	}
	return string(out), nil
}

// appendWTF8 is utf8.AppendRune, except that a surrogate code point is
// written as its 3-byte sequence instead of U+FFFD.
func appendWTF8(dst []byte, r rune) []byte {
	if r >= 0xD800 && r < 0xE000 {
		return append(dst, 0xE0|byte(r>>12), 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
	}
	return utf8.AppendRune(dst, r)
}

// isSurrogateAt reports whether s[i:] starts with an encoded surrogate.
func isSurrogateAt(s string, i int) bool {
	return s[i] == 0xED && i+2 < len(s) && s[i+1] >= 0xA0
}

// hasSurrogate reports whether the WTF-8 string s holds a lone surrogate,
// which Python cannot encode as UTF-8.
func hasSurrogate(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == 0xED && isSurrogateAt(s, i) {
			return true
		}
	}
	return false
}

// pyLen is len(s) in Python: code points.
func pyLen(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i]&0xC0 != 0x80 {
			n++
		}
	}
	return n
}

// pyLoads is json.loads on the decoded text: a value, a JSONDecodeError
// (FastAPI's 422 json_invalid), or errBodyDecode.
func pyLoads(text string) (pyValue, *jsonDecodeError, error) {
	p := pyScanner{s: text}
	i := p.skipSpace(0)
	v, end, err := p.scan(i, 0)
	if err != nil {
		return pyValue{}, p.decodeErr(err), p.fatal(err)
	}
	if end = p.skipSpace(end); end != len(text) {
		return pyValue{}, &jsonDecodeError{"Extra data", pyLen(text[:end])}, nil
	}
	return v, nil, nil
}

// scanError is an error at a byte offset: a JSONDecodeError's message, or
// stop (StopIteration: "Expecting value"), or fatal (not a JSONDecodeError).
type scanError struct {
	msg   string
	pos   int
	fatal error
}

func (e *scanError) Error() string { return e.msg }

type pyScanner struct{ s string }

func (p *pyScanner) decodeErr(err error) *jsonDecodeError {
	se := err.(*scanError)
	if se.fatal != nil {
		return nil
	}
	return &jsonDecodeError{se.msg, pyLen(p.s[:se.pos])}
}

func (p *pyScanner) fatal(err error) error {
	if se := err.(*scanError); se.fatal != nil {
		return se.fatal
	}
	return nil
}

func (p *pyScanner) skipSpace(i int) int {
	for i < len(p.s) {
		switch p.s[i] {
		case ' ', '\t', '\n', '\r':
			i++
			continue
		}
		break
	}
	return i
}

func errAt(msg string, pos int) error { return &scanError{msg: msg, pos: pos} }

func stopAt(pos int) error { return &scanError{msg: "Expecting value", pos: pos} }

var errTooDeep = &scanError{fatal: errBodyDecode}

// scan is scan_once_unicode: one value starting exactly at i.
func (p *pyScanner) scan(i, depth int) (pyValue, int, error) {
	s := p.s
	if i >= len(s) {
		return pyValue{}, 0, stopAt(i)
	}
	switch s[i] {
	case '"':
		str, end, err := p.scanString(i + 1)
		return pyValue{kind: pyStr, s: str}, end, err
	case '{':
		if depth+1 > MaxJSONDepth {
			return pyValue{}, 0, errTooDeep
		}
		return p.scanObject(i+1, depth+1)
	case '[':
		if depth+1 > MaxJSONDepth {
			return pyValue{}, 0, errTooDeep
		}
		return p.scanArray(i+1, depth+1)
	case 'n':
		if hasAt(s, i, "null") {
			return pyValue{kind: pyNone}, i + 4, nil
		}
	case 't':
		if hasAt(s, i, "true") {
			return pyValue{kind: pyBool, b: true}, i + 4, nil
		}
	case 'f':
		if hasAt(s, i, "false") {
			return pyValue{kind: pyBool}, i + 5, nil
		}
	case 'N':
		if hasAt(s, i, "NaN") {
			return pyValue{kind: pyFloat, f: math.NaN()}, i + 3, nil
		}
	case 'I':
		if hasAt(s, i, "Infinity") {
			return pyValue{kind: pyFloat, f: math.Inf(1)}, i + 8, nil
		}
	case '-':
		if hasAt(s, i, "-Infinity") {
			return pyValue{kind: pyFloat, f: math.Inf(-1)}, i + 9, nil
		}
	}
	return p.scanNumber(i)
}

func hasAt(s string, i int, word string) bool {
	return len(s)-i >= len(word) && s[i:i+len(word)] == word
}

func isDigitAt(s string, i int) bool { return i < len(s) && s[i] >= '0' && s[i] <= '9' }

// scanNumber is _match_number_unicode, quirks included: "1." and "1e" end
// the number before the dot or the e.
func (p *pyScanner) scanNumber(start int) (pyValue, int, error) {
	s := p.s
	i := start
	if s[i] == '-' {
		i++
		if i >= len(s) {
			return pyValue{}, 0, stopAt(start)
		}
	}
	switch {
	case s[i] >= '1' && s[i] <= '9':
		i++
		for isDigitAt(s, i) {
			i++
		}
	case s[i] == '0':
		i++
	default:
		return pyValue{}, 0, stopAt(start)
	}
	isFloat := false
	if i < len(s)-1 && s[i] == '.' && isDigitAt(s, i+1) {
		isFloat = true
		i += 2
		for isDigitAt(s, i) {
			i++
		}
	}
	if i < len(s)-1 && (s[i] == 'e' || s[i] == 'E') {
		eStart := i
		i++
		if i < len(s)-1 && (s[i] == '-' || s[i] == '+') {
			i++
		}
		for isDigitAt(s, i) {
			i++
		}
		if isDigitAt(s, i-1) {
			isFloat = true
		} else {
			i = eStart
		}
	}
	text := s[start:i]
	if isFloat {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return pyValue{}, 0, &scanError{fatal: errBodyDecode}
		}
		return pyValue{kind: pyFloat, f: f}, i, nil
	}
	v, ok := pyIntFromDecimal(text)
	if !ok {
		// int(): "Exceeds the limit (4300 digits) for integer string
		// conversion", a ValueError, not a JSONDecodeError.
		return pyValue{}, 0, &scanError{fatal: errBodyDecode}
	}
	return v, i, nil
}

// pyIntFromDecimal is int(text) for an optional '-' and ASCII digits,
// false beyond Python's 4,300-digit limit.
func pyIntFromDecimal(text string) (pyValue, bool) {
	digits := text
	if digits != "" && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) > MaxIntDigits {
		return pyValue{}, false
	}
	if n, err := strconv.ParseInt(text, 10, 64); err == nil {
		return pyValue{kind: pyInt, i: n}, true
	}
	b, ok := new(big.Int).SetString(text, 10)
	if !ok {
		return pyValue{}, false
	}
	return pyValue{kind: pyInt, big: b}, true
}

// scanString is scanstring_unicode with strict=True: end is the index just
// after the opening quote.
func (p *pyScanner) scanString(end int) (string, int, error) {
	s := p.s
	begin := end - 1
	var buf []byte
	for {
		next := end
		var c byte
		for ; next < len(s); next++ {
			c = s[next]
			if c == '"' || c == '\\' {
				break
			}
			if c <= 0x1f {
				return "", 0, errAt("Invalid control character at", next)
			}
		}
		if next >= len(s) {
			return "", 0, errAt("Unterminated string starting at", begin)
		}
		if c == '"' && buf == nil {
			return s[end:next], next + 1, nil
		}
		buf = append(buf, s[end:next]...)
		next++
		if c == '"' {
			return string(buf), next, nil
		}
		if next == len(s) {
			return "", 0, errAt("Unterminated string starting at", begin)
		}
		c = s[next]
		if c != 'u' {
			end = next + 1
			switch c {
			case '"', '\\', '/':
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			default:
				return "", 0, errAt("Invalid \\escape", end-2)
			}
			buf = append(buf, c)
			continue
		}
		// \uXXXX. Python checks that four characters and one more follow;
		// whether it fails there or on a non-hex digit, the message and
		// the position (the 'u') are the same.
		next++
		end = next + 4
		if end >= len(s) {
			return "", 0, errAt("Invalid \\uXXXX escape", next-1)
		}
		r, ok := hex4(s[next:end])
		if !ok {
			return "", 0, errAt("Invalid \\uXXXX escape", end-5)
		}
		if r >= 0xD800 && r < 0xDC00 && end+6 < len(s) && s[end] == '\\' && s[end+1] == 'u' {
			r2, ok := hex4(s[end+2 : end+6])
			if !ok {
				return "", 0, errAt("Invalid \\uXXXX escape", end+1)
			}
			if r2 >= 0xDC00 && r2 < 0xE000 {
				r = 0x10000 + (r-0xD800)<<10 + (r2 - 0xDC00)
				end += 6
			}
		}
		buf = appendWTF8(buf, r)
	}
}

func hex4(h string) (rune, bool) {
	var r rune
	for i := 0; i < 4; i++ {
		c := h[i]
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}

// scanObject is _parse_object_unicode: i is just after the '{'. A repeated
// key keeps its first place and takes the last value, as a Python dict.
func (p *pyScanner) scanObject(i, depth int) (pyValue, int, error) {
	s := p.s
	v := pyValue{kind: pyDict}
	var index map[string]int
	i = p.skipSpace(i)
	if i < len(s) && s[i] == '}' {
		return v, i + 1, nil
	}
	for {
		if i >= len(s) || s[i] != '"' {
			return pyValue{}, 0, errAt("Expecting property name enclosed in double quotes", i)
		}
		key, next, err := p.scanString(i + 1)
		if err != nil {
			return pyValue{}, 0, err
		}
		i = p.skipSpace(next)
		if i >= len(s) || s[i] != ':' {
			return pyValue{}, 0, errAt("Expecting ':' delimiter", i)
		}
		i = p.skipSpace(i + 1)
		val, next, err := p.scan(i, depth)
		if err != nil {
			return pyValue{}, 0, err
		}
		at := -1
		if index != nil {
			if k, ok := index[key]; ok {
				at = k
			}
		} else {
			for k := range v.keys {
				if v.keys[k] == key {
					at = k
					break
				}
			}
		}
		if at >= 0 {
			v.items[at] = val
		} else {
			v.keys = append(v.keys, key)
			v.items = append(v.items, val)
			if index != nil {
				index[key] = len(v.keys) - 1
			} else if len(v.keys) > 16 {
				index = make(map[string]int, 2*len(v.keys))
				for k, name := range v.keys {
					index[name] = k
				}
			}
		}
		i = p.skipSpace(next)
		if i < len(s) && s[i] == '}' {
			return v, i + 1, nil
		}
		if i >= len(s) || s[i] != ',' {
			return pyValue{}, 0, errAt("Expecting ',' delimiter", i)
		}
		i = p.skipSpace(i + 1)
	}
}

// scanArray is _parse_array_unicode: i is just after the '['.
func (p *pyScanner) scanArray(i, depth int) (pyValue, int, error) {
	s := p.s
	v := pyValue{kind: pyList}
	i = p.skipSpace(i)
	if i < len(s) && s[i] == ']' {
		return v, i + 1, nil
	}
	for {
		val, next, err := p.scan(i, depth)
		if err != nil {
			return pyValue{}, 0, err
		}
		v.items = append(v.items, val)
		i = p.skipSpace(next)
		if i < len(s) && s[i] == ']' {
			return v, i + 1, nil
		}
		if i >= len(s) || s[i] != ',' {
			return pyValue{}, 0, errAt("Expecting ',' delimiter", i)
		}
		i = p.skipSpace(i + 1)
	}
}
