package fastapi

import (
	"encoding/base64"
	"strings"
)

// BasicCredentials reports whether an Authorization header carries what
// FastAPI's HTTPBasic takes (fastapi/security/http.py, 0.141): the scheme
// "basic" in any case, then base64 that decodes to ASCII holding a colon.
// Anything else is its 401 {"detail":"Not authenticated"} with
// WWW-Authenticate: Basic. Python's b64decode drops bytes outside the
// alphabet before it checks the padding; so does this.
func BasicCredentials(header string) bool {
	scheme, param, _ := strings.Cut(header, " ")
	if header == "" || !strings.EqualFold(scheme, "basic") {
		return false
	}
	kept := strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '+' || r == '/' || r == '=' {
			return r
		}
		return -1
	}, param)
	data, err := base64.StdEncoding.DecodeString(kept)
	if err != nil {
		return false
	}
	for _, c := range data {
		if c >= 0x80 {
			return false
		}
	}
	return strings.Contains(string(data), ":")
}
