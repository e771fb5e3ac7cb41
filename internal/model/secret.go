package model

import (
	"net/url"
	"strings"
)

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
	key := keySeparators.Replace(n)
	return strings.Contains(n, "password") || strings.Contains(n, "secret") || strings.HasSuffix(n, "token") || strings.HasSuffix(key, "apikey")
}

// keySeparators are taken out of a name before it is compared with
// "apikey". Built once: a Replacer builds its tables on first use, which
// cost more than the rest of SecretName when made on every call.
var keySeparators = strings.NewReplacer("_", "", "-", "")

// Redacted is what a secret's value is shown as.
const Redacted = "[redacted]"

// RedactQuery is the raw query string q with the value of every parameter
// whose name secret reports (SecretName, or what a contract marks)
// replaced by Redacted, the rest kept byte for byte: a ?token= or an
// ?api_key= in a journal entry or a report's URL shows no credential.
func RedactQuery(q string, secret func(string) bool) string {
	if q == "" {
		return q
	}
	var b strings.Builder
	for i, p := range strings.Split(q, "&") {
		if i > 0 {
			b.WriteByte('&')
		}
		name, _, hasValue := strings.Cut(p, "=")
		if hasValue && secret(queryName(name)) {
			b.WriteString(name)
			b.WriteString("=" + Redacted)
			continue
		}
		b.WriteString(p)
	}
	return b.String()
}

// queryName is a query parameter's name as sent, decoded where it can be.
func queryName(s string) string {
	if n, err := url.QueryUnescape(s); err == nil {
		return n
	}
	return s
}
