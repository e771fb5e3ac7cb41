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
