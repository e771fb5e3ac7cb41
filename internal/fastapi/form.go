package fastapi

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"unicode/utf8"
)

// Form is a parsed request form: for each name, the last value sent, which is
// what Starlette's FormData.get and so FastAPI's Form() parameters read. A
// name whose last value was a file part (one with a filename) is in Files,
// not Fields. Entries keeps every value in the order sent, which is what
// FormData.getlist reads for a list field and what a form model sees.
type Form struct {
	Fields  map[string]string
	Files   map[string]*UploadFile
	Entries []FormEntry
}

// FormEntry is one value of a form: a text field, or a file part.
type FormEntry struct {
	Name  string
	Value string
	File  *UploadFile // nil for a text field
}

// Values is every value sent for name, in order.
func (f Form) Values(name string) []FormEntry {
	var out []FormEntry
	for _, e := range f.Entries {
		if e.Name == name {
			out = append(out, e)
		}
	}
	return out
}

// Names is the distinct names of the form in the order they first came,
// the order of Starlette's FormData.keys().
func (f Form) Names() []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range f.Entries {
		if !seen[e.Name] {
			seen[e.Name] = true
			out = append(out, e.Name)
		}
	}
	return out
}

// Len is the number of names in the form.
func (f Form) Len() int { return len(f.Fields) + len(f.Files) }

func (f *Form) setField(name, value string) {
	if f.Fields == nil {
		f.Fields = map[string]string{}
	}
	f.Fields[name] = value
	delete(f.Files, name)
	f.Entries = append(f.Entries, FormEntry{Name: name, Value: value})
}

func (f *Form) setFile(name string, file *UploadFile) {
	if f.Files == nil {
		f.Files = map[string]*UploadFile{}
	}
	f.Files[name] = file
	delete(f.Fields, name)
	f.Entries = append(f.Entries, FormEntry{Name: name, File: file})
}

// Starlette 1.3's form limits (Request.form defaults), each a 400 with the
// detail Starlette words.
const (
	MaxFormFields = 1000
	MaxFormFiles  = 1000
)

// FormError is a form that could not be parsed: Status and Detail are the
// HTTPException FastAPI answers with.
type FormError struct {
	Status int
	Detail string
	Err    error
}

func (e *FormError) Error() string {
	if e.Err != nil {
		return e.Detail + ": " + e.Err.Error()
	}
	return e.Detail
}

func (e *FormError) Unwrap() error { return e.Err }

// MaxPartSize is Starlette's default max_part_size for a multipart field.
const MaxPartSize = 1024 * 1024

// ErrBodyTooLarge is returned when a body is over the caller's limit.
var ErrBodyTooLarge = errors.New("request body too large")

// ParseForm reads the request body as Starlette's Request.form() does for a
// FastAPI Form() endpoint: application/x-www-form-urlencoded and
// multipart/form-data are parsed; any other or absent Content-Type (JSON
// included) is an empty form, so the endpoint answers 422 "missing", never
// 415. At most limit bytes are read; a longer body is ErrBodyTooLarge. A
// form already parsed from the body (WithForm) is returned as it is.
func ParseForm(r *http.Request, limit int64) (Form, error) {
	if pf, ok := r.Context().Value(parsedFormKey{}).(*parsedForm); ok && pf.size <= limit {
		return pf.form, nil
	}
	return ParseFormBody(r.Header.Get("Content-Type"), r.Body, limit)
}

// ParseFormBody parses body as a form sent with contentType, by ParseForm's
// rules.
func ParseFormBody(contentType string, body io.Reader, limit int64) (Form, error) {
	mediaType, params := parseOptionsHeader(contentType)
	switch mediaType {
	case "application/x-www-form-urlencoded":
		b, err := readLimited(body, limit)
		if err != nil {
			return Form{}, err
		}
		return ParseURLEncoded(b)
	case "multipart/form-data":
		boundary := params["boundary"]
		if boundary == "" {
			return Form{}, &FormError{Status: http.StatusBadRequest, Detail: DetailMissingBoundary}
		}
		return parseMultipart(io.LimitReader(body, limit+1), boundary, params["charset"], limit)
	}
	return Form{}, nil
}

// IsForm reports whether FastAPI reads a form from a body sent with
// contentType.
func IsForm(contentType string) bool {
	mediaType, _ := parseOptionsHeader(contentType)
	return mediaType == "application/x-www-form-urlencoded" || mediaType == "multipart/form-data"
}

type parsedFormKey struct{}

type parsedForm struct {
	form Form
	size int64
}

// WithForm returns r carrying form, which ParseFormBody parsed from r's
// body of size bytes, so that ParseForm does not read and parse it again.
func WithForm(r *http.Request, form Form, size int64) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), parsedFormKey{}, &parsedForm{form: form, size: size}))
}

func readLimited(r io.Reader, limit int64) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, &FormError{Status: http.StatusBadRequest, Detail: DetailBodyParse, Err: err}
	}
	if int64(len(body)) > limit {
		return nil, ErrBodyTooLarge
	}
	return body, nil
}

// parseOptionsHeader is python-multipart 0.0.32's parse_options_header: a
// header without ';' is lower-cased and stripped; otherwise its first part
// is kept as written (so "Multipart/Form-Data; boundary=x" is no form for
// Starlette), parameter names are lower-cased, quoted values unquoted, and
// RFC 2231 "name*" parameters ignored.
func parseOptionsHeader(v string) (string, map[string]string) {
	if v == "" {
		return "", nil
	}
	if !strings.Contains(v, ";") {
		return strings.TrimSpace(strings.ToLower(v)), nil
	}
	parts := pyParseParam(v)
	params := map[string]string{}
	for _, seg := range parts[1:] {
		key, val, _ := strings.Cut(seg, "=")
		if strings.Contains(key, "*") {
			continue
		}
		if len(val) >= 2 && val[0] == '"' && val[len(val)-1] == '"' {
			val = strings.ReplaceAll(strings.ReplaceAll(val[1:len(val)-1], `\\`, `\`), `\"`, `"`)
		}
		if key == "filename" && (len(val) >= 3 && val[1:3] == `:\` || strings.HasPrefix(val, `\\`)) {
			val = val[strings.LastIndexByte(val, '\\')+1:]
		}
		params[key] = val
	}
	return parts[0], params
}

// pyParseParam is python-multipart's _parseparam (the standard library's
// email.message._parseparam as vendored there, quirks included): the
// ';'-separated parts of a header, a ';' inside double quotes not
// separating, names lower-cased.
func pyParseParam(v string) []string {
	s := ";" + v
	var plist []string
	start := 0
	for pyFind(s, ";", start) == start {
		start++
		end := pyFind(s, ";", start)
		ind, diff := start, 0
		for end > 0 {
			diff += pyCount(s, `"`, ind, end) - pyCount(s, `\"`, ind, end)
			if diff%2 == 0 {
				break
			}
			ind, end = end, pyFind(s, ";", end+1)
		}
		if end < 0 {
			end = len(s)
		}
		var f string
		if i := pyFindRange(s, "=", start, end); i == -1 {
			f = pySlice(s, start, end)
		} else {
			f = strings.ToLower(strings.TrimRight(pySlice(s, start, i), pyWhitespace)) + "=" + strings.TrimLeft(pySlice(s, i+1, end), pyWhitespace)
		}
		plist = append(plist, strings.Trim(f, pyWhitespace))
		start = end
	}
	return plist
}

// pyWhitespace is what Python's str.strip() removes from ASCII text.
const pyWhitespace = " \t\n\r\v\f\x1c\x1d\x1e\x1f\x85"

// pyFind is Python's s.find(sub, start).
func pyFind(s, sub string, start int) int { return pyFindRange(s, sub, start, len(s)) }

// pyFindRange is Python's s.find(sub, start, end) for non-negative bounds.
func pyFindRange(s, sub string, start, end int) int {
	end = min(end, len(s))
	if start > end {
		return -1
	}
	if i := strings.Index(s[start:end], sub); i >= 0 {
		return start + i
	}
	return -1
}

// pyCount is Python's s.count(sub, start, end) for non-negative bounds.
func pyCount(s, sub string, start, end int) int {
	end = min(end, len(s))
	if start > end {
		return 0
	}
	return strings.Count(s[start:end], sub)
}

// pySlice is Python's s[start:end] for non-negative bounds.
func pySlice(s string, start, end int) string {
	end = min(end, len(s))
	if start >= end {
		return ""
	}
	return s[start:end]
}

// ParseURLEncoded parses an application/x-www-form-urlencoded body as
// python-multipart 0.0.32's QuerystringParser (non-strict) and Starlette's
// FormParser do: fields are split on '&' only (';' is an ordinary
// character since python-multipart 0.0.30), empty fields are skipped, a
// field without '=' is a name with an empty value; names and values are
// decoded with unquote_plus after reading the raw bytes as latin-1, so
// percent-escapes are UTF-8 but raw non-ASCII bytes are not. A field whose
// name and value are together over MaxPartSize bytes, or a field beyond
// MaxFormFields, is Starlette's 400, whichever comes first in the body.
func ParseURLEncoded(body []byte) (Form, error) {
	form := Form{Fields: map[string]string{}}
	fields := 0
	for len(body) > 0 {
		field := body
		if amp := bytes.IndexByte(body, '&'); amp >= 0 {
			field, body = body[:amp], body[amp+1:]
		} else {
			body = nil
		}
		if len(field) == 0 {
			continue
		}
		name, value, hasValue := bytes.Cut(field, []byte{'='})
		size := len(name) + len(value)
		if !hasValue {
			size = len(field)
		}
		if size > MaxPartSize {
			return Form{}, &FormError{Status: http.StatusBadRequest, Detail: DetailFieldTooLarge}
		}
		if fields++; fields > MaxFormFields {
			return Form{}, &FormError{Status: http.StatusBadRequest, Detail: DetailTooManyFields}
		}
		form.setField(unquotePlus(name), unquotePlus(value))
	}
	return form, nil
}

// unquotePlus is Python's urllib.parse.unquote_plus applied to bytes decoded
// as latin-1: '+' is a space, %XX runs are decoded as UTF-8 with errors
// replaced, any other byte b is the code point U+00bb.
func unquotePlus(b []byte) string { return string(unquoteBytes(b, true)) }

// unquoteBytes is unquotePlus, with '+' a space only when plus is set
// (urllib.parse.unquote otherwise).
func unquoteBytes(b []byte, plus bool) []byte {
	var out []byte
	var pending []byte
	flush := func() {
		out = appendUTF8Replace(out, pending)
		pending = pending[:0]
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '%' && i+2 < len(b) && isHex(b[i+1]) && isHex(b[i+2]) {
			pending = append(pending, unhex(b[i+1])<<4|unhex(b[i+2]))
			i += 2
			continue
		}
		flush()
		switch {
		case c == '+' && plus:
			out = append(out, ' ')
		case c < utf8.RuneSelf:
			out = append(out, c)
		default:
			out = utf8.AppendRune(out, rune(c))
		}
	}
	flush()
	return out
}

// appendUTF8Replace decodes b as UTF-8 the way Python's
// bytes.decode("utf-8", "replace") does: each maximal invalid subpart
// becomes one U+FFFD.
func appendUTF8Replace(dst, b []byte) []byte {
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r != utf8.RuneError || size > 1 {
			dst = append(dst, b[:size]...)
			b = b[size:]
			continue
		}
		dst = append(dst, "\ufffd"...)
		b = b[maximalSubpart(b):]
	}
	return dst
}

// maximalSubpart is the length of the longest prefix of b that starts a
// valid UTF-8 sequence (at least 1), per Unicode's "maximal subpart" rule.
func maximalSubpart(b []byte) int {
	c := b[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c >= 0xE1 && c <= 0xEC, c == 0xEE, c == 0xEF:
		need = 2
	case c == 0xED:
		need, hi = 2, 0x9F
	case c == 0xF0:
		need, lo = 3, 0x90
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	case c == 0xF4:
		need, hi = 3, 0x8F
	default:
		return 1
	}
	n := 1
	for k := 0; k < need && n < len(b); k++ {
		x := b[n]
		if k == 0 {
			if x < lo || x > hi {
				break
			}
		} else if x < 0x80 || x > 0xBF {
			break
		}
		n++
	}
	return n
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

func parseMultipart(body io.Reader, boundary, charset string, limit int64) (Form, error) {
	mr := multipart.NewReader(body, boundary)
	form := Form{}
	var total int64
	fields, files := 0, 0
	for {
		part, err := mr.NextRawPart()
		if err == io.EOF {
			return form, nil
		}
		if err != nil {
			return Form{}, &FormError{Status: http.StatusBadRequest, Detail: DetailBodyParse, Err: err}
		}
		_, opts := parseOptionsHeader(part.Header.Get("Content-Disposition"))
		name, ok := opts["name"]
		if !ok {
			return Form{}, &FormError{Status: http.StatusBadRequest, Detail: DetailNoPartName}
		}
		filename, isFile := opts["filename"]
		if isFile {
			if files++; files > MaxFormFiles {
				return Form{}, &FormError{Status: http.StatusBadRequest, Detail: DetailTooManyFiles}
			}
		} else if fields++; fields > MaxFormFields {
			return Form{}, &FormError{Status: http.StatusBadRequest, Detail: DetailTooManyFields}
		}
		max := int64(MaxPartSize)
		if isFile {
			max = limit - total
		}
		data, err := io.ReadAll(io.LimitReader(part, max+1))
		if err != nil {
			return Form{}, &FormError{Status: http.StatusBadRequest, Detail: DetailBodyParse, Err: err}
		}
		if int64(len(data)) > max && !isFile {
			return Form{}, &FormError{Status: http.StatusBadRequest, Detail: "Part exceeded maximum size of 1024KB."}
		}
		if total += int64(len(data)); total > limit {
			return Form{}, ErrBodyTooLarge
		}
		name = safeDecode(name, charset)
		if isFile {
			form.setFile(name, &UploadFile{Filename: safeDecode(filename, charset), Content: data, Header: rawPartHeaders(part)})
			continue
		}
		form.setField(name, safeDecode(string(data), charset))
	}
}

// Latin1 is the bytes of s read as latin-1, as Starlette reads header
// values: each byte one code point.
func Latin1(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return safeDecode(s, "latin-1")
		}
	}
	return s
}

// safeDecode is Starlette's _user_safe_decode: the bytes of s in charset
// (UTF-8 unless the request names another), or latin-1 when they are not.
func safeDecode(s, charset string) string {
	switch strings.ToLower(charset) {
	case "", "utf-8", "utf8":
		if utf8.ValidString(s) {
			return s
		}
	case "latin-1", "latin1", "iso-8859-1":
	default:
		if utf8.ValidString(s) {
			return s // other codecs are read as UTF-8, close enough for a mock
		}
	}
	out := make([]byte, 0, len(s)*2)
	for i := 0; i < len(s); i++ {
		out = utf8.AppendRune(out, rune(s[i]))
	}
	return string(out)
}
