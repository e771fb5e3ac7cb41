package fastapi

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
)

// ErrorItem is one entry of a 422 body's "detail" list, as FastAPI writes it
// since 0.128.1: type, loc, msg, input, and ctx only for error types that have
// one. FastAPI never writes pydantic's "url" key.
type ErrorItem struct {
	Type  string
	Loc   []any // strings and ints: ["path", "person_id"], ["body", "username"]
	Msg   string
	Input any  // nil is written as null
	Ctx   []KV // omitted when empty

	// unanswerable: FastAPI fails on this error instead of reporting it
	// (see Unanswerable).
	unanswerable bool
}

// Unanswerable reports whether FastAPI, holding these errors, answers 500
// Internal Server Error instead of 422: pydantic raised a Python exception
// while validating (a lone surrogate it had to encode), or Starlette could
// not write an error's input as JSON (NaN or an infinity, allow_nan=False;
// a lone surrogate, UTF-8; nesting deeper than MaxInputDepth). Only
// JSONBody.Validate produces such items. WriteValidation answers 500 for
// them; a caller writing the body itself must check.
func Unanswerable(items []ErrorItem) bool {
	for i := range items {
		if items[i].unanswerable {
			return true
		}
	}
	return false
}

// AppendItem appends one error item as JSON.
func AppendItem(dst []byte, it ErrorItem) []byte {
	dst = append(dst, `{"type":`...)
	dst = AppendString(dst, it.Type)
	dst = append(dst, `,"loc":`...)
	dst = AppendValue(dst, it.Loc)
	dst = append(dst, `,"msg":`...)
	dst = AppendString(dst, it.Msg)
	dst = append(dst, `,"input":`...)
	dst = AppendValue(dst, it.Input)
	if len(it.Ctx) > 0 {
		dst = append(dst, `,"ctx":`...)
		dst = AppendValue(dst, it.Ctx)
	}
	return append(dst, '}')
}

// AppendValidationBody appends {"detail":[items…]}.
func AppendValidationBody(dst []byte, items []ErrorItem) []byte {
	dst = append(dst, `{"detail":[`...)
	for i, it := range items {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendItem(dst, it)
	}
	return append(dst, "]}"...)
}

// Missing is pydantic's error for an absent required value; FastAPI builds it
// itself with input None.
func Missing(loc ...any) ErrorItem {
	return ErrorItem{Type: "missing", Loc: loc, Msg: "Field required"}
}

// Errors pydantic v2 (pydantic-core 2.x) raises when it coerces a string, with
// its messages verbatim.
const (
	msgIntParsing   = "Input should be a valid integer, unable to parse string as an integer"
	msgFloatParsing = "Input should be a valid number, unable to parse string as a number"
	msgBoolParsing  = "Input should be a valid boolean, unable to interpret input"
)

// IntParsing is pydantic's error for a string that is not a lax integer.
func IntParsing(input string, loc ...any) ErrorItem {
	return ErrorItem{Type: "int_parsing", Loc: loc, Msg: msgIntParsing, Input: input}
}

// IntParsingSize is pydantic's error for a string of more digits than
// Python converts to an int (MaxIntDigits).
func IntParsingSize(input string, loc ...any) ErrorItem {
	return ErrorItem{Type: "int_parsing_size", Loc: loc, Msg: "Unable to parse input string as an integer, exceeded maximum size", Input: input}
}

// FloatParsing is pydantic's error for a string that is not a number.
func FloatParsing(input string, loc ...any) ErrorItem {
	return ErrorItem{Type: "float_parsing", Loc: loc, Msg: msgFloatParsing, Input: input}
}

// BoolParsing is pydantic's error for a string that is not a boolean.
func BoolParsing(input string, loc ...any) ErrorItem {
	return ErrorItem{Type: "bool_parsing", Loc: loc, Msg: msgBoolParsing, Input: input}
}

// Constraint is the pydantic error for a value that broke the JSON Schema
// keyword (pattern, minLength, maximum, enum, …) whose bound is limit. The
// bool is false for a keyword pydantic has no error type for.
func Constraint(keyword string, limit any, input any, loc ...any) (ErrorItem, bool) {
	it := ErrorItem{Loc: loc, Input: input}
	switch keyword {
	case "pattern":
		p := fmt.Sprint(limit)
		it.Type, it.Msg, it.Ctx = "string_pattern_mismatch", "String should match pattern '"+p+"'", []KV{{"pattern", p}}
	case "minLength":
		n := toInt(limit)
		it.Type, it.Msg, it.Ctx = "string_too_short", "String should have at least "+plural(n, "character"), []KV{{"min_length", n}}
	case "maxLength":
		n := toInt(limit)
		it.Type, it.Msg, it.Ctx = "string_too_long", "String should have at most "+plural(n, "character"), []KV{{"max_length", n}}
	case "minimum":
		it.Type, it.Msg, it.Ctx = "greater_than_equal", "Input should be greater than or equal to "+pyNumber(limit), []KV{{"ge", limit}}
	case "maximum":
		it.Type, it.Msg, it.Ctx = "less_than_equal", "Input should be less than or equal to "+pyNumber(limit), []KV{{"le", limit}}
	case "exclusiveMinimum":
		it.Type, it.Msg, it.Ctx = "greater_than", "Input should be greater than "+pyNumber(limit), []KV{{"gt", limit}}
	case "exclusiveMaximum":
		it.Type, it.Msg, it.Ctx = "less_than", "Input should be less than "+pyNumber(limit), []KV{{"lt", limit}}
	case "multipleOf":
		it.Type, it.Msg, it.Ctx = "multiple_of", "Input should be a multiple of "+pyNumber(limit), []KV{{"multiple_of", limit}}
	case "enum":
		expected := enumExpected(limit)
		it.Type, it.Msg, it.Ctx = "enum", "Input should be "+expected, []KV{{"expected", expected}}
	default:
		return it, false
	}
	return it, true
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

func toInt(v any) int {
	switch x := v.(type) {
	case int:
		return x
	case int64:
		return int(x)
	case uint64:
		return int(x)
	case float64:
		return int(x)
	}
	return 0
}

// pyNumber writes a bound the way pydantic does: integers without a fraction.
func pyNumber(v any) string {
	switch x := v.(type) {
	case float64:
		if x == float64(int64(x)) {
			return strconv.FormatInt(int64(x), 10)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

// enumExpected renders allowed values as pydantic does: 'a', 'b' or 'c'.
func enumExpected(limit any) string {
	values, _ := limit.([]any)
	parts := make([]string, len(values))
	for i, v := range values {
		if s, ok := v.(string); ok {
			parts[i] = "'" + s + "'"
		} else {
			parts[i] = pyNumber(v)
		}
	}
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// Latin1Space is what Python's str.strip() removes from a header value
// (read as latin-1): ASCII white space, the separators 0x1c-0x1f, NEL and
// NO-BREAK SPACE, as single bytes.
const Latin1Space = " \t\n\r\v\f\x1c\x1d\x1e\x1f\x85\xa0"

// Detail bodies FastAPI's HTTPException handler and Starlette write.
const (
	DetailNotFound         = "Not Found"
	DetailMethodNotAllowed = "Method Not Allowed"
	DetailNotAuthenticated = "Not authenticated"
	DetailBadCredentials   = "Could not validate credentials"
	DetailWrongLogin       = "Incorrect username or password"
	DetailBodyParse        = "There was an error parsing the body"
	DetailMissingBoundary  = "Missing boundary in multipart."
	DetailFieldTooLarge    = "Field exceeded maximum size of 1024KB."
	DetailTooManyFields    = "Too many fields. Maximum number of fields is 1000."
	DetailTooManyFiles     = "Too many files. Maximum number of files is 1000."
	DetailNoPartName       = `The Content-Disposition header field "name" must be provided.`
)

// FrameworkStatuses are statuses a FastAPI server answers although its
// OpenAPI document does not declare them: bad body, unauthorised, not
// found, wrong method, too large, validation error. Each comes with an
// HTTPException's {"detail": …} body.
var FrameworkStatuses = []int{400, 401, 404, 405, 413, 422}

// AppendDetail appends {"detail":"…"}, the body of every HTTPException.
func AppendDetail(dst []byte, detail string) []byte {
	dst = append(dst, `{"detail":`...)
	dst = AppendString(dst, detail)
	return append(dst, '}')
}

// WriteJSON sends body with FastAPI's JSONResponse headers.
func WriteJSON(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Content-Length"] = ContentLength(len(body))
	w.WriteHeader(status)
	w.Write(body)
}

var jsonContentType = []string{"application/json"}

// ContentLength is the Content-Length header's value for n bytes, the same
// slice for the same n below 8 KiB: most answers are that small, and
// making the value anew was two allocations an answer. Like
// jsonContentType it is shared: a header's value slice is replaced, never
// written into.
func ContentLength(n int) []string {
	if n < 0 || n >= len(lengths) {
		return []string{strconv.Itoa(n)}
	}
	if v := lengths[n].Load(); v != nil {
		return *v
	}
	v := []string{strconv.Itoa(n)}
	lengths[n].Store(&v)
	return v
}

var lengths [8 << 10]atomic.Pointer[[]string]

// WriteDetail sends an HTTPException's {"detail": …} body.
func WriteDetail(w http.ResponseWriter, status int, detail string) {
	WriteJSON(w, status, AppendDetail(make([]byte, 0, 32+len(detail)), detail))
}

// WriteValidation sends a 422 with the given items, or FastAPI's 500 when
// it could not have sent them (Unanswerable).
func WriteValidation(w http.ResponseWriter, items []ErrorItem) {
	if Unanswerable(items) {
		WriteServerError(w)
		return
	}
	WriteJSON(w, http.StatusUnprocessableEntity, AppendValidationBody(make([]byte, 0, 256), items))
}

// WriteServerError sends Starlette's ServerErrorMiddleware answer.
func WriteServerError(w http.ResponseWriter) {
	WritePlain(w, http.StatusInternalServerError, "Internal Server Error")
}

// WritePlain sends a Starlette PlainTextResponse.
func WritePlain(w http.ResponseWriter, status int, body string) {
	h := w.Header()
	h["Content-Type"] = []string{"text/plain; charset=utf-8"}
	h["Content-Length"] = ContentLength(len(body))
	w.WriteHeader(status)
	io.WriteString(w, body)
}
