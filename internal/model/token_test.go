package model

import (
	"encoding/json"
	"testing"
)

// A login's token is found by the name of its member, however deep its
// answer holds it: the access token before any other, a refresh token
// last, a member of equal preference nearer the top first.
func TestTokenIn(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, answer, want string
	}{
		{"FastAPI's OAuth2 answer", `{"access_token":"a","token_type":"bearer"}`, "a"},
		{"simplejwt's pair", `{"refresh":"r","access":"a"}`, "a"},
		{"dj-rest-auth's key", `{"key":"k"}`, "k"},
		{"RealWorld's user", `{"user":{"email":"a@b.c","token":"t","bio":null}}`, "t"},
		{"an envelope of data", `{"data":{"access_token":"a","expires_in":3600}}`, "a"},
		{"camel case, deep", `{"data":{"auth":{"accessToken":"c"}}}`, "c"},
		{"a refresh token beside the access token", `{"refresh_token":"r","accessToken":"a"}`, "a"},
		{"the access token deeper than a refresh token", `{"refreshToken":"r","data":{"access_token":"a"}}`, "a"},
		{"a name ending in token", `{"sessionToken":"s","user":{"id":1}}`, "s"},
		{"a refresh token alone", `{"refresh_token":"r"}`, "r"},
		{"the shallower of two", `{"access_token":"a","data":{"token":"b"}}`, "a"},
		{"a token of a user beside a jwt", `{"jwt":"j","user":{"token":"t"}}`, "j"},
		{"empty", `{"token":""}`, ""},
		{"no token", `{"token_type":"bearer","refresh":"r","expires_in":1}`, ""},
		{"not a string", `{"token":{"value":"v"}}`, ""},
		{"a list", `[{"token":"x"}]`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var v any
			if err := json.Unmarshal([]byte(tc.answer), &v); err != nil {
				t.Fatal(err)
			}
			if got := TokenIn(v); got != tc.want {
				t.Errorf("TokenIn(%s) = %q, want %q", tc.answer, got, tc.want)
			}
		})
	}
}

// The mock puts its token in the member the runner reads it from: the
// one of a schema's properties TokenMember names.
func TestTokenMember(t *testing.T) {
	t.Parallel()
	all := func(string) bool { return true }
	for _, tc := range []struct {
		names []string
		ok    func(string) bool
		want  string
	}{
		{[]string{"refresh", "access", "user"}, all, "access"},
		{[]string{"key"}, all, "key"},
		{[]string{"refresh_token", "id_token", "access_token"}, all, "access_token"},
		{[]string{"token", "jwt"}, all, "token"},
		{[]string{"username", "email", "token", "bio"}, all, "token"},
		{[]string{"refresh_token", "expires_in"}, all, "refresh_token"},
		{[]string{"token_type", "expires_in"}, all, ""},
		{[]string{"access", "token"}, func(n string) bool { return n != "access" }, "token"},
	} {
		if got := TokenMember(tc.names, tc.ok); got != tc.want {
			t.Errorf("TokenMember(%q) = %q, want %q", tc.names, got, tc.want)
		}
	}
}

// The field of the login collection a login's answer carries its token
// in is the one the rule names, of type string: RealWorld's token, or an
// accessToken.
func TestTokenField(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		fields []*Field
		want   string
	}{
		{[]*Field{{Name: "email", Type: "string"}, {Name: "token", Type: "string"}}, "token"},
		{[]*Field{{Name: "refreshToken", Type: "string"}, {Name: "accessToken", Type: "string"}}, "accessToken"},
		{[]*Field{{Name: "token", Type: "integer"}, {Name: "jwt", Type: "string"}}, "jwt"},
		{[]*Field{{Name: "username", Type: "string"}, {Name: "token_type", Type: "string"}}, ""},
	} {
		c := &Collection{Fields: tc.fields, byName: map[string]*Field{}}
		for _, f := range tc.fields {
			c.byName[f.Name] = f
		}
		got := ""
		if f := c.TokenField(); f != nil {
			got = f.Name
		}
		if got != tc.want {
			t.Errorf("TokenField of %v = %q, want %q", tc.fields, got, tc.want)
		}
	}
}
