package fastapi

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// appendInput writes v as FastAPI writes a validation error's "input":
// jsonable_encoder, then Starlette's json.dumps(ensure_ascii=False,
// allow_nan=False) encoded as UTF-8. It reports false where that raises
// and FastAPI answers 500 instead of 422: a NaN or infinite float
// (ValueError), a lone surrogate in a string or key (UnicodeEncodeError),
// bytes that are not UTF-8 (jsonable_encoder's bytes.decode()), nesting
// deeper than MaxInputDepth (RecursionError).
func appendInput(dst []byte, v *pyValue) ([]byte, bool) {
	return appendInputDepth(dst, v, 0)
}

func appendInputDepth(dst []byte, v *pyValue, depth int) ([]byte, bool) {
	switch v.kind {
	case pyNone:
		return append(dst, "null"...), true
	case pyBool:
		return strconv.AppendBool(dst, v.b), true
	case pyInt:
		return v.appendInt(dst), true
	case pyFloat:
		if math.IsNaN(v.f) || math.IsInf(v.f, 0) {
			return dst, false
		}
		return appendFloat(dst, v.f), true
	case pyStr:
		if hasSurrogate(v.s) {
			return dst, false
		}
		return AppendString(dst, v.s), true
	case pyBytes:
		if !utf8.ValidString(v.s) {
			return dst, false
		}
		return AppendString(dst, v.s), true
	}
	if depth >= MaxInputDepth {
		return dst, false
	}
	ok := true
	if v.kind == pyList {
		dst = append(dst, '[')
		for i := range v.items {
			if i > 0 {
				dst = append(dst, ',')
			}
			var good bool
			dst, good = appendInputDepth(dst, &v.items[i], depth+1)
			ok = ok && good
		}
		return append(dst, ']'), ok
	}
	dst = append(dst, '{')
	for i, k := range v.keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		if hasSurrogate(k) {
			ok = false
		}
		dst = AppendString(dst, k)
		dst = append(dst, ':')
		var good bool
		dst, good = appendInputDepth(dst, &v.items[i], depth+1)
		ok = ok && good
	}
	return append(dst, '}'), ok
}

func (v *pyValue) appendInt(dst []byte) []byte {
	if v.big != nil {
		return v.big.Append(dst, 10)
	}
	return strconv.AppendInt(dst, v.i, 10)
}

// appendDumpString writes a validated str as json.dumps(ensure_ascii=False)
// does; a lone surrogate, which then cannot be sent as UTF-8, is written
// as its \u escape and reported.
func appendDumpString(dst []byte, s string) ([]byte, bool) {
	if !hasSurrogate(s) {
		return AppendString(dst, s), true
	}
	var clean strings.Builder
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		if isSurrogateAt(s, i) {
			r := rune(s[i]&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
			str := AppendString(nil, clean.String())
			dst = append(dst, str[1:len(str)-1]...)
			clean.Reset()
			dst = append(dst, '\\', 'u', hexDigits[r>>12], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF])
			i += 3
			continue
		}
		clean.WriteByte(s[i])
		i++
	}
	str := AppendString(nil, clean.String())
	dst = append(dst, str[1:len(str)-1]...)
	return append(dst, '"'), false
}

// lossy is a WTF-8 string as pydantic-core turns a Python str it cannot
// encode into a Rust String (a dict key in a location or in model_dump's
// keys): each byte of an encoded surrogate becomes U+FFFD.
func lossy(s string) string {
	if !hasSurrogate(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if isSurrogateAt(s, i) {
			b.WriteString("\ufffd\ufffd\ufffd")
			i += 3
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// appendAnyDump writes a value validated as Any as model_dump(mode="json")
// infers it: a NaN or infinite float becomes null.
func appendAnyDump(dst []byte, v *pyValue) ([]byte, bool) {
	switch v.kind {
	case pyFloat:
		if math.IsNaN(v.f) || math.IsInf(v.f, 0) {
			return append(dst, "null"...), true
		}
		return appendFloat(dst, v.f), true
	case pyStr:
		return appendDumpString(dst, v.s)
	case pyList:
		ok := true
		dst = append(dst, '[')
		for i := range v.items {
			if i > 0 {
				dst = append(dst, ',')
			}
			var good bool
			dst, good = appendAnyDump(dst, &v.items[i])
			ok = ok && good
		}
		return append(dst, ']'), ok
	case pyDict:
		ok := true
		dst = append(dst, '{')
		for i, k := range v.keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			var good bool
			dst, good = appendDumpString(dst, k)
			ok = ok && good
			dst = append(dst, ':')
			dst, good = appendAnyDump(dst, &v.items[i])
			ok = ok && good
		}
		return append(dst, '}'), ok
	}
	return appendInput(dst, v)
}

// appendDumpFloat writes a validated float as json.dumps does by default
// (allow_nan=True: NaN, Infinity); false when it is one of those, which
// Starlette's JSONResponse refuses.
func appendDumpFloat(dst []byte, f float64) ([]byte, bool) {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...), false
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...), false
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...), false
	}
	return appendFloat(dst, f), true
}

// rustFloat writes f as Rust's Display for f64, which pydantic-core uses in
// messages ("greater than 0", "a multiple of 0.5"): the shortest digits
// that round-trip, never an exponent, no ".0".
func rustFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// pyRepr is Python's repr() of a str, as pydantic quotes Literal and Enum
// values in messages.
func pyRepr(s string) string {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	b := []byte{quote}
	for _, r := range s {
		switch {
		case r == rune(quote) || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\t':
			b = append(b, '\\', 't')
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\r':
			b = append(b, '\\', 'r')
		case r < ' ' || r == 0x7f:
			b = append(b, '\\', 'x', hexDigits[r>>4], hexDigits[r&0xF])
		case r < utf8.RuneSelf || unicode.IsPrint(r):
			b = utf8.AppendRune(b, r)
		case r < 0x100:
			b = append(b, '\\', 'x', hexDigits[r>>4], hexDigits[r&0xF])
		case r < 0x10000:
			b = append(b, '\\', 'u')
			b = append(b, hexDigits[r>>12], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF])
		default:
			b = append(b, '\\', 'U')
			for shift := 28; shift >= 0; shift -= 4 {
				b = append(b, hexDigits[r>>shift&0xF])
			}
		}
	}
	return string(append(b, quote))
}
