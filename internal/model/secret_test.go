package model

import (
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

func TestSecretName(t *testing.T) {
	for name, want := range map[string]bool{
		"password": true, "new_password": true, "hashedPassword": true, "client_secret": true,
		"token": true, "access_token": true, "refreshToken": true, "API_TOKEN": true,
		"api_key": true, "apiKey": true, "X-API-Key": true,
		"token_type": false, "tokens": false, "api_keys_count": false, "username": false, "title": false, "pass": false,
	} {
		if got := SecretName(name); got != want {
			t.Errorf("SecretName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestRedactQuery(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"page=2&size=10", "page=2&size=10"},
		{"api_key=k9Q2z&page=2", "api_key=[redacted]&page=2"},
		{"access%5Ftoken=abc&token_type=bearer", "access%5Ftoken=[redacted]&token_type=bearer"},
		{"password=a&password=b&flag", "password=[redacted]&password=[redacted]&flag"},
		{"client+secret=x&%zz=1", "client+secret=[redacted]&%zz=1"},
	} {
		if got := RedactQuery(tc.in, SecretName); got != tc.want {
			t.Errorf("RedactQuery(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// A secret path parameter's value is found by its place in the template
// and redacted, the rest of the path kept byte for byte.
func TestRedactPath(t *testing.T) {
	for _, tc := range []struct{ name, template, path, want string }{
		{"token", "/reset-password/{token}", "/reset-password/abc.def-123", "/reset-password/[redacted]"},
		{"not secret", "/users/{user_id}", "/users/42", "/users/42"},
		{"no parameter", "/users/me", "/users/me", "/users/me"},
		{"value equal to a fixed segment", "/invitations/{invite_token}/accept", "/invitations/accept/accept", "/invitations/[redacted]/accept"},
		{"api key and an id", "/users/{user_id}/api-keys/{api_key}", "/users/7/api-keys/k9Q2z", "/users/7/api-keys/[redacted]"},
		{"trailing slash", "/verify-email/{token}/", "/verify-email/t0k3n/", "/verify-email/[redacted]/"},
		{"base path", "/reset-password/{token}", "/api/v1/reset-password/abc", "/api/v1/reset-password/[redacted]"},
		{"fixed text around", "/keys/{api_key}.json", "/keys/k9Q2z.json", "/keys/[redacted].json"},
		{"several in a segment", "/x/{token}-{n}", "/x/abc-1", "/x/[redacted]"},
		{"spanning parameter", "/files/{secret_path}", "/files/a/b", "/files/[redacted]/[redacted]"},
		{"spanning before the secret", "/files/{file_path}/{token}", "/files/a/b/t", "/files/a/[redacted]/[redacted]"},
		{"encoded", "/reset-password/{token}", "/reset-password/a%2Fb", "/reset-password/[redacted]"},
		{"shorter than the template", "/a/{token}/b", "/a", "/[redacted]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := RedactPath(tc.template, tc.path, SecretName); got != tc.want {
				t.Errorf("RedactPath(%q, %q) = %q, want %q", tc.template, tc.path, got, tc.want)
			}
		})
	}
}

// A path parameter is secret by its name or by what its schema says
// (SecretStr: format password, writeOnly), also inside an anyOf.
func TestSecretParam(t *testing.T) {
	str := func(s openapi3.Schema) *openapi3.SchemaRef { return openapi3.NewSchemaRef("", &s) }
	for _, tc := range []struct {
		name string
		p    *openapi3.Parameter
		want bool
	}{
		{"token", &openapi3.Parameter{Name: "token", In: "path"}, true},
		{"invite_token", &openapi3.Parameter{Name: "invite_token", In: "path"}, true},
		{"id", &openapi3.Parameter{Name: "id", In: "path", Schema: str(openapi3.Schema{Type: &openapi3.Types{"string"}})}, false},
		{"format password", &openapi3.Parameter{Name: "code", In: "path", Schema: str(openapi3.Schema{Format: "password"})}, true},
		{"writeOnly", &openapi3.Parameter{Name: "code", In: "path", Schema: str(openapi3.Schema{WriteOnly: true})}, true},
		{"anyOf", &openapi3.Parameter{Name: "code", In: "path", Schema: str(openapi3.Schema{AnyOf: openapi3.SchemaRefs{str(openapi3.Schema{Format: "password", WriteOnly: true})}})}, true},
		{"nil", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := SecretParam(tc.p); got != tc.want {
				t.Errorf("SecretParam = %v, want %v", got, tc.want)
			}
		})
	}
}
