package model

import "strings"

// SecretName reports whether a field's name says it holds a credential,
// whatever its schema says (FastAPI's plain str password of a registration
// body has no format): it holds "password" or "secret", or is or ends with
// "token" (token, access_token, refreshToken; not token_type), or is an
// API key (api_key, apiKey, x-api-key). The journal
// blanks such fields, the contract reports redact them, and a recording
// never writes them: one rule, so that what one hides the others do not
// show.
func SecretName(name string) bool {
	n := strings.ToLower(name)
	key := strings.NewReplacer("_", "", "-", "").Replace(n)
	return strings.Contains(n, "password") || strings.Contains(n, "secret") || strings.HasSuffix(n, "token") || strings.HasSuffix(key, "apikey")
}
