package fastapi

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// LaxInt is a string pydantic v2 accepted as an int in lax mode.
type LaxInt struct {
	Int64 int64 // the value, when Fits
	Fits  bool  // false for values beyond int64: valid for pydantic, never a stored id
	Float float64
	Text  string // canonical decimal form: "12", "-1", "99999999999999999999999"
}

// ParseLaxInt parses s as pydantic-core does when a str is validated as int
// in lax mode (path, query and form values always are): surrounding Unicode
// white space is stripped, then an optional sign, ASCII digits with single
// underscores between them, and an optional fraction made only of zeros
// ("12.000"). No size limit. Anything else (1.5, 1e3, 0x10, "", non-ASCII
// digits) is an int_parsing error, and so is a number of more than
// MaxIntDigits significant digits (IntTooLong is checked first). Checked
// against pydantic 2.13.
func ParseLaxInt(s string) (LaxInt, bool) {
	t := strings.TrimSpace(s) // Unicode White_Space, as Rust's str::trim
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	intPart, frac, hasFrac := strings.Cut(t, ".")
	if hasFrac {
		if frac == "" || strings.Trim(frac, "0") != "" {
			return LaxInt{}, false
		}
	}
	if intPart == "" {
		return LaxInt{}, false
	}
	digits := make([]byte, 0, len(intPart))
	for i := 0; i < len(intPart); i++ {
		c := intPart[i]
		switch {
		case c >= '0' && c <= '9':
			digits = append(digits, c)
		case c == '_' && i > 0 && i+1 < len(intPart) && isDigit(intPart[i-1]) && isDigit(intPart[i+1]):
		default:
			return LaxInt{}, false
		}
	}
	d := strings.TrimLeft(string(digits), "0")
	if len(d) > MaxIntDigits {
		return LaxInt{}, false
	}
	if d == "" {
		return LaxInt{Fits: true, Text: "0"}, true
	}
	text := d
	if neg {
		text = "-" + d
	}
	li := LaxInt{Text: text}
	if v, err := strconv.ParseInt(text, 10, 64); err == nil {
		li.Int64, li.Fits, li.Float = v, true, float64(v)
		return li, true
	}
	f, _ := new(big.Float).SetString(text)
	li.Float, _ = f.Float64()
	if math.IsInf(li.Float, 0) {
		li.Float = math.Copysign(math.MaxFloat64, li.Float)
	}
	return li, true
}

// MaxIntDigits is Python's int_max_str_digits, which pydantic-core enforces
// on strings parsed as int.
const MaxIntDigits = 4300

// IntTooLong reports whether pydantic answers s, a string validated as an
// int, with int_parsing_size rather than parsing it: after the white space,
// a '+' and leading zeros (and underscores among them), the run of ASCII
// digits that starts the number is longer than MaxIntDigits (counting a '-'
// as one more). What follows the run is not looked at: "1…1x" with 4,301
// ones is int_parsing_size, with 4,300 int_parsing. Measured on pydantic
// 2.13.4 (testdata/laxint_pydantic.json); one known difference: pydantic
// answers int_parsing for a '-' followed by leading zeros and more than
// 4,299 digits.
func IntTooLong(s string) bool {
	if len(s) <= MaxIntDigits {
		return false
	}
	t := strings.TrimSpace(s)
	n := 0
	switch {
	case strings.HasPrefix(t, "+"):
		t = t[1:]
	case strings.HasPrefix(t, "-"):
		t, n = t[1:], 1
	}
	t = strings.TrimLeft(t, "0_")
	for i := 0; i < len(t) && isDigit(t[i]); i++ {
		n++
	}
	return n > MaxIntDigits
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// ParseLaxFloat parses s as pydantic-core's str_as_float: Rust's f64
// syntax (inf, infinity and nan in any case, with a sign) after trimming
// Unicode white space, else the untrimmed string with single underscores
// between digits removed. Checked against pydantic 2.13.
func ParseLaxFloat(s string) (float64, bool) { return strAsFloat(s) }

// ParseLaxBool parses s as pydantic-core's str_as_bool: "0", "1", and
// f/n/no/off/false, t/y/yes/on/true in any ASCII case. No white space is
// trimmed (" true" is bool_parsing).
func ParseLaxBool(s string) (bool, bool) {
	var st vstate
	return st.laxBool(&pyValue{kind: pyStr, s: s})
}
