package fastapi

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"
	"unicode/utf8"
)

// Form is a parsed request form: for each name, the last value sent, which is
// what Starlette's FormData.get and so FastAPI's Form() parameters read.
type Form map[string]string

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
			return nil, err
		}
		return ParseURLEncoded(b), nil
	case "multipart/form-data":
		boundary := params["boundary"]
		if boundary == "" {
			return nil, &FormError{Status: http.StatusBadRequest, Detail: DetailMissingBoundary}
		}
		return parseMultipart(io.LimitReader(body, limit+1), boundary, limit)
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

// parseOptionsHeader splits a Content-Type as python-multipart does: the
// media type lower-cased, then its parameters. A header Go's mime package
// rejects still yields its media type.
func parseOptionsHeader(v string) (string, map[string]string) {
	if v == "" {
		return "", nil
	}
	mt, params, err := mime.ParseMediaType(v)
	if err == nil {
		return mt, params
	}
	head, rest, _ := strings.Cut(v, ";")
	params = map[string]string{}
	for _, p := range strings.Split(rest, ";") {
		k, val, ok := strings.Cut(p, "=")
		if ok {
			params[strings.ToLower(strings.TrimSpace(k))] = strings.Trim(strings.TrimSpace(val), `"`)
		}
	}
	return strings.ToLower(strings.TrimSpace(head)), params
}

// ParseURLEncoded parses an application/x-www-form-urlencoded body as
// python-multipart's QuerystringParser (non-strict) and Starlette's FormParser
// do: fields are split on '&', or on ';' where no '&' follows; a field without
// '=' is a name with an empty value; names and values are decoded with
// unquote_plus after reading the raw bytes as latin-1, so percent-escapes are
// UTF-8 but raw non-ASCII bytes are not.
func ParseURLEncoded(body []byte) Form {
	form := Form{}
	// nextAmp is the first '&' at or after i (-1: none left). Tracking it,
	// rather than searching the rest of the body for every field as
	// python-multipart does, keeps the parse linear for a body of many
	// ';'-separated fields.
	nextAmp := bytes.IndexByte(body, '&')
	i := 0
	for i < len(body) {
		if body[i] == '&' || body[i] == ';' {
			i++
			continue
		}
		if nextAmp >= 0 && nextAmp < i {
			if nextAmp = bytes.IndexByte(body[i:], '&'); nextAmp >= 0 {
				nextAmp += i
			}
		}
		end := nextAmp
		if end < 0 {
			if semi := bytes.IndexByte(body[i:], ';'); semi >= 0 {
				end = i + semi
			} else {
				end = len(body)
			}
		}
		field := body[i:end]
		name, value, _ := bytes.Cut(field, []byte{'='})
		form[unquotePlus(name)] = unquotePlus(value)
		i = end
	}
	return form
}

// unquotePlus is Python's urllib.parse.unquote_plus applied to bytes decoded
// as latin-1: '+' is a space, %XX runs are decoded as UTF-8 with errors
// replaced, any other byte b is the code point U+00bb.
func unquotePlus(b []byte) string {
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
		case c == '+':
			out = append(out, ' ')
		case c < utf8.RuneSelf:
			out = append(out, c)
		default:
			out = utf8.AppendRune(out, rune(c))
		}
	}
	flush()
	return string(out)
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

func parseMultipart(body io.Reader, boundary string, limit int64) (Form, error) {
	mr := multipart.NewReader(body, boundary)
	form := Form{}
	var total int64
	for {
		part, err := mr.NextRawPart()
		if err == io.EOF {
			return form, nil
		}
		if err != nil {
			return nil, &FormError{Status: http.StatusBadRequest, Detail: DetailBodyParse, Err: err}
		}
		data, err := io.ReadAll(io.LimitReader(part, MaxPartSize+1))
		if err != nil {
			return nil, &FormError{Status: http.StatusBadRequest, Detail: DetailBodyParse, Err: err}
		}
		if len(data) > MaxPartSize && part.FileName() == "" {
			return nil, &FormError{Status: http.StatusBadRequest, Detail: "Part exceeded maximum size of 1024KB."}
		}
		total += int64(len(data))
		if total > limit {
			return nil, ErrBodyTooLarge
		}
		name := part.FormName()
		if !utf8.Valid(data) {
			return nil, &FormError{Status: http.StatusBadRequest, Detail: DetailBodyParse, Err: errors.New("field value is not UTF-8")}
		}
		form[name] = string(data)
	}
}
