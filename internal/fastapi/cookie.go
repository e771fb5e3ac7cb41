package fastapi

import (
	"net/http"
	"strings"
)

// Cookies reads the request's Cookie headers as Starlette 1.3 does
// (starlette/requests.py, cookie_parser), which is laxer than net/http's
// Request.Cookie: that one drops a value holding a quote, a backslash or
// a byte above 0x7f, where Starlette keeps it. Every Cookie header counts,
// in order; each is split on ";", a chunk without "=" is a value with the
// empty name, name and value are stripped of white space (Python's
// str.strip on the latin-1 text), a value in double quotes is unquoted
// (http.cookies._unquote), and a later name wins. Values stay the raw
// bytes, read as latin-1 as every other header value is.
func Cookies(h http.Header) map[string]string {
	out := map[string]string{}
	for _, line := range h.Values("Cookie") {
		for chunk := range strings.SplitSeq(line, ";") {
			key, val, ok := strings.Cut(chunk, "=")
			if !ok {
				key, val = "", chunk
			}
			key, val = strings.Trim(key, Latin1Space), strings.Trim(val, Latin1Space)
			if key != "" || val != "" {
				out[key] = unquoteCookie(val)
			}
		}
	}
	return out
}

// unquoteCookie is Python's http.cookies._unquote: a value in double
// quotes loses them, \ooo (octal, first digit 0-3) is that byte and \X is
// X (any byte but a newline); anything else is kept as it is.
func unquoteCookie(s string) string {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s
	}
	s = s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		if i+3 < len(s) && '0' <= s[i+1] && s[i+1] <= '3' && isOctal(s[i+2]) && isOctal(s[i+3]) {
			b.WriteByte((s[i+1]-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0'))
			i += 3
			continue
		}
		if s[i+1] == '\n' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte(s[i+1])
		i++
	}
	return b.String()
}

func isOctal(c byte) bool { return '0' <= c && c <= '7' }
