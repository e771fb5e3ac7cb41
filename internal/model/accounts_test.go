package model

import (
	"path/filepath"
	"testing"
)

// TestLoginCollection: the login collection is the one with a username;
// without one, the accounts a login form logs in may be named by their
// email: the collection with an email that a POST creates from a body
// taking an email and a password. A contract without a login form has
// no login collection, whatever its schemas.
func TestLoginCollection(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, path    string
		login, key    string
		currentUserOp string // the path of the CurrentUser operation, if any
	}{
		{"username", filepath.Join("..", "..", "testdata", "contracts", "movies", "openapi.json"), "User", "username", "/users/me"},
		{"email, with a login form", filepath.Join("..", "..", "testdata", "corpus", "services", "openapi", "hex_todo.json"), "UserRegistry", "email", "/account/oauth2/instrospect"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := compileFile(t, tc.path)
			if collName(m.Login) != tc.login {
				t.Fatalf("Login = %q, want %q", collName(m.Login), tc.login)
			}
			if m.Login.UserKey == nil || m.Login.UserKey.Name != tc.key {
				t.Errorf("UserKey = %v, want %s", m.Login.UserKey, tc.key)
			}
			if m.Login.Secret != "password" {
				t.Errorf("Secret = %q", m.Login.Secret)
			}
			found := ""
			for _, o := range m.Operations {
				if o.Kind == CurrentUser {
					found = o.Path
				}
			}
			if found != tc.currentUserOp {
				t.Errorf("current user operation %q, want %q", found, tc.currentUserOp)
			}
		})
	}
}
