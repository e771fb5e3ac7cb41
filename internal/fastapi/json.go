package fastapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/moviemock/moviemock/internal/jsonscan"
)

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string the way Python's
// json.dumps(ensure_ascii=False) writes it, which is what Starlette's
// JSONResponse sends: non-ASCII raw, only '"', '\\' and control characters
// escaped (short forms for \b \f \n \r \t, \u00xx for the rest). Unlike
// encoding/json it leaves <, >, & and U+2028/U+2029 alone. Invalid UTF-8
// becomes U+FFFD.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				dst = append(dst, s[start:i]...)
				dst = append(dst, "\ufffd"...)
				i++
				start = i
				continue
			}
			i += size
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"':
			dst = append(dst, '\\', '"')
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// KV is one member of an ordered JSON object.
type KV struct {
	Key   string
	Value any
}

// RawJSON is JSON already written as FastAPI writes it: AppendValue copies
// it unchanged.
type RawJSON []byte

// AppendValue appends v as compact Python-style JSON. It takes what
// encoding/json decodes (nil, bool, float64, json.Number, string, []any,
// map[string]any) plus int, int64, []string, []KV (an object in the given
// order) and json.RawMessage (re-encoded compactly). Map keys are sorted.
func AppendValue(dst []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...)
	case bool:
		return strconv.AppendBool(dst, x)
	case string:
		return AppendString(dst, x)
	case int:
		return strconv.AppendInt(dst, int64(x), 10)
	case int64:
		return strconv.AppendInt(dst, x, 10)
	case float64:
		return appendFloat(dst, x)
	case json.Number:
		return append(dst, x...)
	case []string:
		dst = append(dst, '[')
		for i, s := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, s)
		}
		return append(dst, ']')
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendValue(dst, e)
		}
		return append(dst, ']')
	case []KV:
		dst = append(dst, '{')
		for i, kv := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, kv.Key)
			dst = append(dst, ':')
			dst = AppendValue(dst, kv.Value)
		}
		return append(dst, '}')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, k)
			dst = append(dst, ':')
			dst = AppendValue(dst, x[k])
		}
		return append(dst, '}')
	case RawJSON:
		return append(dst, x...)
	case json.RawMessage:
		out, err := AppendCompact(dst, x)
		if err != nil {
			return append(dst, "null"...)
		}
		return out
	default:
		return AppendString(dst, fmt.Sprint(x))
	}
}

// appendFloat writes a float the way Python's float repr does for the values
// JSON can carry: integral values keep a ".0", exponents use "e+XX".
func appendFloat(dst []byte, f float64) []byte {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return append(dst, "null"...)
	}
	abs := math.Abs(f)
	if abs != 0 && (abs < 1e-4 || abs >= 1e16) {
		b := strconv.AppendFloat(nil, f, 'e', -1, 64)
		// Go writes e+16 / e-05, Python e+16 / e-05: same. Go omits a
		// mantissa dot ("1e+16"), as Python does.
		return append(dst, b...)
	}
	b := strconv.AppendFloat(nil, f, 'f', -1, 64)
	if bytes.IndexByte(b, '.') < 0 {
		b = append(b, '.', '0')
	}
	return append(dst, b...)
}

// IsCompact reports whether raw is one JSON value already as AppendCompact
// writes it: no escapes to re-encode, no white space outside strings.
func IsCompact(raw []byte) bool {
	return bytes.IndexByte(raw, '\\') < 0 && jsonscan.End(raw, 0) == len(raw) && jsonscan.Compact(raw)
}

// AppendCompact re-encodes the JSON text raw compactly in Python style,
// keeping object members in their order and numbers as written.
func AppendCompact(dst []byte, raw []byte) ([]byte, error) {
	if IsCompact(raw) {
		return append(dst, raw...), nil
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		// No escapes: every string is already as Python writes it, so
		// removing insignificant white space is all there is to do.
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			return dst, err
		}
		return append(dst, buf.Bytes()...), nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	dst, err := appendCompactValue(dst, dec)
	if err != nil {
		return dst, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return dst, fmt.Errorf("trailing data after JSON value")
	}
	return dst, nil
}

func appendCompactValue(dst []byte, dec *json.Decoder) ([]byte, error) {
	tok, err := dec.Token()
	if err != nil {
		return dst, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			dst = append(dst, '{')
			for first := true; dec.More(); first = false {
				if !first {
					dst = append(dst, ',')
				}
				key, err := dec.Token()
				if err != nil {
					return dst, err
				}
				dst = AppendString(dst, key.(string))
				dst = append(dst, ':')
				if dst, err = appendCompactValue(dst, dec); err != nil {
					return dst, err
				}
			}
			if _, err := dec.Token(); err != nil {
				return dst, err
			}
			return append(dst, '}'), nil
		case '[':
			dst = append(dst, '[')
			for first := true; dec.More(); first = false {
				if !first {
					dst = append(dst, ',')
				}
				if dst, err = appendCompactValue(dst, dec); err != nil {
					return dst, err
				}
			}
			if _, err := dec.Token(); err != nil {
				return dst, err
			}
			return append(dst, ']'), nil
		}
		return dst, fmt.Errorf("unexpected %v", t)
	default:
		return AppendValue(dst, t), nil
	}
}

// FormatDateTime writes t as pydantic v2 serialises an aware UTC datetime:
// "2024-01-02T03:04:05Z", with six fractional digits only when the
// microseconds are not zero ("2024-01-02T03:04:05.123000Z"). Python
// datetimes hold microseconds, so finer digits are dropped.
func FormatDateTime(t time.Time) string {
	t = t.UTC()
	b := make([]byte, 0, 27)
	b = t.AppendFormat(b, "2006-01-02T15:04:05")
	b = appendMicros(b, t)
	return string(append(b, 'Z'))
}

// FormatTime writes the time of day of t (in UTC) as pydantic v2
// serialises a naive time, which is what a FastAPI model's time field
// holds: "03:04:05", with six fractional digits only when the
// microseconds are not zero. It has no offset, which JSON Schema's
// format "time" (RFC 3339 full-time) asks for: FastAPI's documents say
// "format: time" all the same.
func FormatTime(t time.Time) string {
	t = t.UTC()
	b := make([]byte, 0, 15)
	b = t.AppendFormat(b, time.TimeOnly)
	b = appendMicros(b, t)
	return string(b)
}

// appendMicros appends t's fraction of a second as Python writes a time's
// microseconds: six digits after a dot, nothing when they are zero.
func appendMicros(b []byte, t time.Time) []byte {
	us := t.Nanosecond() / 1000
	if us == 0 {
		return b
	}
	b = append(b, '.')
	s := strconv.Itoa(us)
	for i := len(s); i < 6; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}
