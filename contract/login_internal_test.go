package contract

import (
	"fmt"
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
)

// The token goes where the scheme the operations require says, written
// as --auth-format says when it is given.
func TestPlaceFor(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{
"/a":{"get":{"security":[{%s:[]}],"responses":{"200":{"description":"ok"}}}}},
"components":{"securitySchemes":{
 "bearer":{"type":"http","scheme":"bearer"},
 "oauth":{"type":"oauth2","flows":{"password":{"tokenUrl":"/token","scopes":{}}}},
 "header":{"type":"apiKey","in":"header","name":"Authorization"},
 "query":{"type":"apiKey","in":"query","name":"api_key"},
 "cookie":{"type":"apiKey","in":"cookie","name":"session"}}}}`
	for _, tc := range []struct {
		scheme, format string
		want           credPlace
	}{
		{"bearer", "", credPlace{"bearer", "header", "Authorization", "Bearer {token}"}},
		{"oauth", "", credPlace{"oauth", "header", "Authorization", "Bearer {token}"}},
		{"header", "", credPlace{"header", "header", "Authorization", "{token}"}},
		{"header", "Token {token}", credPlace{"header", "header", "Authorization", "Token {token}"}},
		{"query", "", credPlace{"query", "query", "api_key", "{token}"}},
		{"cookie", "", credPlace{"cookie", "cookie", "session", "{token}"}},
	} {
		t.Run(tc.scheme+tc.format, func(t *testing.T) {
			t.Parallel()
			sp, err := spec.Load([]byte(fmt.Sprintf(doc, `"`+tc.scheme+`"`)), "t")
			if err != nil {
				t.Fatal(err)
			}
			if got := placeFor(sp, tc.format); got != tc.want {
				t.Errorf("placeFor = %+v, want %+v", got, tc.want)
			}
			if !requires(sp.Doc, sp.Doc.Paths.Value("/a").Get, tc.scheme) {
				t.Errorf("GET /a does not require %s", tc.scheme)
			}
		})
	}
}
