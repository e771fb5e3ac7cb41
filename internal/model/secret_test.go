package model

import (
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// TestSecretName is the rule's table: the names it hides, and the
// ordinary names around them it leaves alone.
func TestSecretName(t *testing.T) {
	for name, want := range map[string]bool{
		// Today's: password, secret, …token, API keys.
		"password": true, "new_password": true, "hashedPassword": true, "client_secret": true,
		"token": true, "access_token": true, "refreshToken": true, "API_TOKEN": true,
		"api_key": true, "apiKey": true, "X-API-Key": true,
		// Headers under other names.
		"X-Authorization": true, "Authorization": true, "Authentication": true, "Proxy-Authorization": true,
		"X-Auth": true, "X-Session-Id": true, "X-Access-Key": true, "X-Auth-Token": true, "X-CSRF-Token": true,
		"Cookie": true, "Cookie2": true, "Set-Cookie": true, "X-Amz-Signature": true,
		// Fields and parameters.
		"pwd": true, "user_pwd": true, "passwd": true, "jwt": true, "id_jwt": true, "tokens": true, "access_tokens": true,
		"sig": true, "signature": true, "key": true, "session": true, "sessionid": true, "session_id": true,
		"JSESSIONID": true, "PHPSESSID": true, "sid": true, "auth": true, "basicAuth": true, "otp": true,
		"AWSAccessKeyId": true, "private_key": true, "credentials": true, "passphrase": true,
		// Arrays and nested names.
		"access_token[]": true, "key[]": true, "user[password]": true, "tokens[0]": true,
		// Ordinary names that merely hold such letters.
		"token_type": false, "keyword": false, "monkey": false, "author": false, "authored_by": false,
		"session_count": false, "sessions": false, "primary_key": false, "keys": false, "api_keys_count": false,
		"username": false, "title": false, "pass": false, "signed": false, "side": false, "sidebar": false,
		"authority": false, "auth_type": false, "authorization_url": false, "X-Mock-Session": false,
		"X-Request-Id": false, "time_signature": false, "author_signature": false, "Access-Control-Allow-Credentials": false, "X-Hub-Signature-256": true, "Content-Type": false, "WWW-Authenticate": false, "ids[]": false, "": false,
	} {
		if got := SecretName(name); got != want {
			t.Errorf("SecretName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestSecretValue(t *testing.T) {
	const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl"
	for v, want := range map[string]bool{
		"Bearer abc": true, "bearer abc": true, "Basic YWxpY2U6d29uZGVy": true, "Token 0123": true, "Digest username=x": true,
		jwt: true, "x " + jwt + " y": true, "eyJhbGciOiJub25lIn0.eyJzdWIiOiJhIn0.": true,
		"Bearer": false, "Bearer ": false, "basically fine": false, "a token of thanks": false,
		"eyJ": false, "eyJhbGciOiJIUzI1NiJ9": false, "eyJhbGciOiJIUzI1NiJ9.e": false, "1.2.3": false,
		"alice": false, "2026-01-01T00:00:00Z": false, "": false,
	} {
		if got := SecretValue(v); got != want {
			t.Errorf("SecretValue(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestRedactHeader(t *testing.T) {
	for _, tc := range []struct{ name, value, want string }{
		{"Authorization", "Bearer abc", "Bearer [redacted]"},
		{"authorization", "Basic YWxp", "Basic [redacted]"},
		{"Authorization", "SECRET rest", "[redacted]"},
		{"Authorization", "SECRET", "[redacted]"},
		{"X-Api-Key", "k secret", "[redacted]"},
		{"X-Authorization", "Bearer eyJ", "[redacted]"},
	} {
		if got := RedactHeader(tc.name, tc.value); got != tc.want {
			t.Errorf("RedactHeader(%q, %q) = %q, want %q", tc.name, tc.value, got, tc.want)
		}
	}
}

func TestRedactMatrix(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/cart", "/cart"},
		{"/cart;jsessionid=ABC123/items", "/cart;jsessionid=[redacted]/items"},
		{"/a;color=red;sid=x", "/a;color=red;sid=[redacted]"},
		{"/a;v=1", "/a;v=1"},
	} {
		if got := RedactMatrix(tc.in); got != tc.want {
			t.Errorf("RedactMatrix(%q) = %q, want %q", tc.in, got, tc.want)
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
		{"access_token[]=a1&access_token%5B%5D=a2&key=k&sig=s&page=1", "access_token[]=[redacted]&access_token%5B%5D=[redacted]&key=[redacted]&sig=[redacted]&page=1"},
		{"auth=Bearer+abc&q=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.x", "auth=[redacted]&q=[redacted]"},
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
