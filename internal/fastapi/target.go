package fastapi

import (
	"net/http"
	"strings"
)

// DetailInvalidRequest is what uvicorn (on h11) answers, as text/plain
// with Connection: close, for a request line h11 refuses.
const DetailInvalidRequest = "Invalid HTTP request received."

// RequestTarget gives next the request target as uvicorn 0.51 on h11 hands
// it to Starlette, where Go's server reads it differently:
//   - a target with a byte h11 does not allow (only visible ASCII, 0x21 to
//     0x7e) is uvicorn's 400 text/plain "Invalid HTTP request received."
//     and the connection is closed; Go would route raw non-ASCII bytes;
//   - an absolute-form target (GET http://host/person/1) keeps its whole
//     text as the path (uvicorn splits only the query off), so no route
//     matches: 404; Go would route the path inside it.
//
// Targets Go's server refuses before any handler runs (a broken
// percent-escape, a missing Host) cannot be reached from here; docs/fidelity.md
// lists them.
func RequestTarget(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		target := r.RequestURI
		for i := 0; i < len(target); i++ {
			if c := target[i]; c < 0x21 || c > 0x7e {
				w.Header().Set("Connection", "close")
				WritePlain(w, http.StatusBadRequest, DetailInvalidRequest)
				return
			}
		}
		if target != "" && target[0] != '/' && target != "*" {
			raw, _, _ := strings.Cut(target, "?")
			r2 := *r
			u := *r.URL
			u.Path, u.RawPath = pyUnquote(raw), ""
			r2.URL = &u
			r = &r2
		}
		next.ServeHTTP(w, r)
	})
}

// pyUnquote is Python's urllib.parse.unquote: %XX runs decoded as UTF-8
// (errors replaced), an invalid escape left as it is.
func pyUnquote(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	return string(unquoteBytes([]byte(s), false))
}
