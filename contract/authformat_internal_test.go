package contract

import (
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// An API key in Authorization is written after the word its description
// puts before it: RealWorld's example "Token xxxxxx.yyyyyyy.zzzzzz",
// Swashbuckle's "Enter 'Bearer' [space] and then your token", Kavita's
// "JWT with Bearer"; a description that says neither, or a key in another
// header, is sent as it is.
func TestAPIKeyFormat(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, description, want string
	}{
		{"Authorization", "The following format must be in the 'Authorization' header :\n\n    Token xxxxxx.yyyyyyy.zzzzzz\n", "Token {token}"},
		{"Authorization", "Enter 'Bearer' [space] and then your token in the text input below.\r\n\r\nExample: \"Bearer 12345abcdef\"", "Bearer {token}"},
		{"Authorization", "Please insert JWT with Bearer into field", "Bearer {token}"},
		{"Authorization", "a valid JWT token after registering", "{token}"},
		{"Authorization", "", "{token}"},
		{"X-API-Key", "Bearer of the key", "{token}"},
	} {
		v := &openapi3.SecurityScheme{Type: "apiKey", In: "header", Name: tc.name, Description: tc.description}
		if got := apiKeyFormat(v); got != tc.want {
			t.Errorf("%s %q: %q, want %q", tc.name, tc.description, got, tc.want)
		}
	}
}
