package model

import (
	"slices"
	"strings"
)

// How a login's answer names the token it issues, as the mock writes it
// and the runner reads it: one rule, so that the member the mock puts a
// token in is the one the runner takes it from. FastAPI's OAuth2 answer
// says access_token; djangorestframework-simplejwt's {access, refresh};
// dj-rest-auth's and DRF's token auth {key}; RealWorld's {"user": {…,
// token}}; others {"data": {"accessToken": …}}, {jwt}, {id_token}.

// TokenPreference is how surely a member named name of a login's answer
// carries the token to send with the requests after it, compared lower
// case without separators (_ - .): 4 the access token (access_token,
// accessToken, access); 3 a name that is a token and nothing else
// (token, jwt, auth_token, id_token, key: dj-rest-auth's); 2 any other
// name ending in token (sessionToken, bearer_token); 1 a refresh token
// (refresh_token, refreshToken), which a login issues beside its access
// token and which no other request takes; 0 no token (token_type,
// refresh, expires_in, user).
func TokenPreference(name string) int {
	n := strings.ToLower(strings.NewReplacer("_", "", "-", "", ".", "").Replace(name))
	switch n {
	case "accesstoken", "access":
		return 4
	case "token", "jwt", "authtoken", "idtoken", "key":
		return 3
	}
	if !strings.HasSuffix(n, "token") {
		return 0
	}
	if strings.Contains(n, "refresh") {
		return 1
	}
	return 2
}

// maxTokenDepth bounds how deep an answer is searched for its token.
const maxTokenDepth = 8

// TokenIn is the token an answer v holds (a decoded JSON value): the
// non-empty string member of the highest TokenPreference, at any depth up
// to maxTokenDepth through objects ({"user": {"token": …}}, {"data":
// {"access_token": …}}), the shallowest of equal preference first, then
// the first by name. "" when it holds none.
func TokenIn(v any) string {
	best, bestPref := "", 0
	level := []any{v}
	for depth := 0; depth < maxTokenDepth && len(level) > 0; depth++ {
		var next []any
		for _, x := range level {
			m, ok := x.(map[string]any)
			if !ok {
				continue
			}
			keys := make([]string, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				if s, ok := m[k].(string); ok && s != "" {
					if p := TokenPreference(k); p > bestPref {
						best, bestPref = s, p
					}
					continue
				}
				next = append(next, m[k])
			}
		}
		level = next
	}
	return best
}

// TokenMember is the one of names (the members of a login's answer, in
// the document's order) that carries its token: the highest
// TokenPreference of those ok accepts (a string), the first of equal
// preference. "" when none is named for a token.
func TokenMember(names []string, ok func(name string) bool) string {
	best, bestPref := "", 0
	for _, name := range names {
		if p := TokenPreference(name); p > bestPref && ok(name) {
			best, bestPref = name, p
		}
	}
	return best
}

// TokenField is the string field of c's records that carries a token
// (TokenMember): RealWorld's User.token, which a login or registration
// answering the account fills with the token it issues. Nil when none.
func (c *Collection) TokenField() *Field {
	names := make([]string, 0, len(c.Fields))
	for _, f := range c.Fields {
		names = append(names, f.Name)
	}
	name := TokenMember(names, func(name string) bool { return c.byName[name].Type == "string" })
	if name == "" {
		return nil
	}
	return c.byName[name]
}
