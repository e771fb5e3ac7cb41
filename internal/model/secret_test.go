package model

import "testing"

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
