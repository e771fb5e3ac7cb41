package model

import (
	"net/url"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// SecretName reports whether a field, parameter, header or cookie named
// name holds a credential, whatever its schema says (FastAPI's plain str
// password of a registration body has no format). The journal blanks such
// values, the contract, replay and diff reports redact them, a replay
// never sends them and a recording never writes them: one rule, so that
// what one hides the others do not show. It errs on the side of hiding.
//
// The name is compared lower case, with its separators (_ - . and spaces)
// and a leading "x-" taken out, and with a bracketed part read as a name
// of its own (access_token[], user[password]). A name is secret when it
//
//   - holds password, passwd, passphrase or secret (client_secret);
//   - ends with token or tokens (access_token, refreshToken, X-CSRF-Token,
//     tokens), credential(s) (not Access-Control-Allow-Credentials), jwt,
//     authorization or authentication (X-Authorization,
//     Proxy-Authorization), cookie or cookie2 (Set-Cookie), sessionid or
//     sessid (X-Session-Id, JSESSIONID, PHPSESSID), or an API, access,
//     private, signing, session or auth key (api_key, X-Access-Key,
//     AWSAccessKeyId);
//   - is, whole, key (dj-rest-auth's token), sig, signature, auth,
//     session, sid, pwd or otp, or its last word is auth or pwd
//     (basicAuth, X-Auth, user_pwd); or is a header (x-…) holding
//     signature (X-Amz-Signature, X-Hub-Signature-256).
//
// Not secret, as ordinary names that merely contain such letters:
// token_type, keyword, monkey, author, primary_key, session_count,
// sessions, api_keys_count, signed, side, time_signature,
// author_signature (a music track's, a post's). Where a document uses a
// whole name in another sense (Spotify's key of a track, an integer) it
// is hidden all the same: the rule errs on the side of hiding.
func SecretName(name string) bool {
	if i := strings.IndexByte(name, '['); i >= 0 {
		// access_token[] (a PHP or Rails array), user[password]: each
		// part is a name.
		for _, part := range strings.FieldsFunc(name, func(r rune) bool { return r == '[' || r == ']' }) {
			if secretName(part) {
				return true
			}
		}
		return false
	}
	return secretName(name)
}

func secretName(name string) bool {
	var buf [64]byte
	k := buf[:0]
	last := 0 // where the last word starts in k
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'A' && c <= 'Z':
			if i > 0 && name[i-1] >= 'a' && name[i-1] <= 'z' {
				last = len(k) // camelCase: a word begins
			}
			k = append(k, c+'a'-'A')
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 0x80:
			k = append(k, c)
		default:
			last = len(k)
		}
	}
	n := string(k) // k stays on the stack for short names: no copy escapes
	header := len(name) > 2 && (name[0] == 'x' || name[0] == 'X') && (name[1] == '-' || name[1] == '_')
	if header {
		n = n[1:]
		last = max(last-1, 0)
	}
	if strings.HasPrefix(n, "accesscontrol") {
		return false // CORS: Access-Control-Allow-Credentials: true
	}
	if header && strings.Contains(n, "signature") {
		return true // X-Amz-Signature, X-Hub-Signature-256
	}
	word := n[last:]
	for _, part := range secretParts {
		if strings.Contains(n, part) {
			return true
		}
	}
	for _, suf := range secretSuffixes {
		if strings.HasSuffix(n, suf) {
			return true
		}
	}
	switch n {
	case "key", "sig", "signature", "auth", "session", "sid", "pwd", "otp":
		return true
	}
	return word == "auth" || word == "pwd"
}

var (
	// secretParts make a name secret wherever they are in it.
	secretParts = []string{"password", "passwd", "passphrase", "secret"}
	// secretSuffixes make a name secret at its end.
	secretSuffixes = []string{"token", "tokens", "credential", "credentials", "jwt",
		"authorization", "authentication", "cookie", "cookie2", "sessionid", "sessid",
		"apikey", "apikeys", "accesskey", "accesskeyid", "privatekey", "signingkey", "sessionkey", "authkey"}
)

// SecretValue reports whether a value looks like a credential whatever
// its name: it starts with an HTTP authentication scheme and a credential
// ("Bearer …", "Basic …", "Token …", "Digest …"), or it holds a JWT (three
// base64url parts separated by dots, the first starting "eyJ", the
// encoding of `{"`).
func SecretValue(v string) bool {
	t := strings.TrimSpace(v)
	if scheme, cred, ok := strings.Cut(t, " "); ok && strings.TrimSpace(cred) != "" {
		switch strings.ToLower(scheme) {
		case "bearer", "basic", "token", "digest":
			return true
		}
	}
	return holdsJWT(t)
}

// holdsJWT reports whether s holds a JWT: eyJ and at least 10 base64url
// characters, a dot, at least 2 more, a dot (the signature after it may
// be empty: alg none).
func holdsJWT(s string) bool {
	for {
		i := strings.Index(s, "eyJ")
		if i < 0 {
			return false
		}
		s = s[i:]
		a := b64urlRun(s)
		if a >= 10 && a < len(s) && s[a] == '.' {
			if b := b64urlRun(s[a+1:]); b >= 2 && a+1+b < len(s) && s[a+1+b] == '.' {
				return true
			}
		}
		s = s[3:]
	}
}

func b64urlRun(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '=') {
			return i
		}
	}
	return len(s)
}

// SecretHeader reports whether a header's value is a credential: by its
// name (SecretName: Authorization, Cookie, X-Api-Key, X-Session-Id) or by
// its value (SecretValue: a "Bearer …" or a JWT under any name).
func SecretHeader(name, value string) bool { return SecretName(name) || SecretValue(value) }

// RedactHeader is a secret header's value as it is shown: Redacted, the
// whole of it. Only an Authorization (or Proxy-Authorization) value keeps
// its scheme, and only one of the registered schemes (Bearer, Basic,
// Digest, Token, Negotiate): "Bearer [redacted]" still says a token was
// sent, while "SECRET rest" shows nothing of its first word.
func RedactHeader(name, value string) string {
	if strings.EqualFold(name, "Authorization") || strings.EqualFold(name, "Proxy-Authorization") {
		if scheme, _, ok := strings.Cut(strings.TrimSpace(value), " "); ok {
			switch strings.ToLower(scheme) {
			case "bearer", "basic", "digest", "token", "negotiate":
				return scheme + " " + Redacted
			}
		}
	}
	return Redacted
}

// RedactMatrix is path with the value of every secret matrix parameter
// of its segments (/cart;jsessionid=ABC: by SecretName, or by
// SecretValue) replaced by Redacted; path as it is when it holds no ";".
func RedactMatrix(path string) string {
	if !strings.Contains(path, ";") {
		return path
	}
	segs := strings.Split(path, "/")
	for i, seg := range segs {
		if !strings.Contains(seg, ";") {
			continue
		}
		params := strings.Split(seg, ";")
		for j := 1; j < len(params); j++ {
			name, v, ok := strings.Cut(params[j], "=")
			if ok && (SecretName(queryName(name)) || SecretValue(queryName(v))) {
				params[j] = name + "=" + Redacted
			}
		}
		segs[i] = strings.Join(params, ";")
	}
	return strings.Join(segs, "/")
}

// Redacted is what a secret's value is shown as.
const Redacted = "[redacted]"

// RedactQuery is the raw query string q with the value of every parameter
// whose name secret reports (SecretName, or what a contract marks), or
// whose value looks like a credential (SecretValue: ?auth=Bearer…, a
// JWT), replaced by Redacted, the rest kept byte for byte: a ?token=, an
// ?api_key= or an ?access_token[]= in a journal entry or a report's URL
// shows no credential.
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
		if hasValue && (secret(queryName(name)) || SecretValue(queryName(p[len(name)+1:]))) {
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

// SecretParam reports whether a parameter's value is a credential: its
// name says so (SecretName), or its schema marks it as the contract marks
// a secret field, format: password or writeOnly (pydantic's SecretStr),
// also as a member of an anyOf or oneOf (an optional SecretStr).
func SecretParam(p *openapi3.Parameter) bool {
	if p == nil {
		return false
	}
	if SecretName(p.Name) {
		return true
	}
	if p.Schema == nil || p.Schema.Value == nil {
		return false
	}
	s := p.Schema.Value
	if secretSchema(s) {
		return true
	}
	for _, list := range []openapi3.SchemaRefs{s.AnyOf, s.OneOf, s.AllOf} {
		for _, e := range list {
			if e != nil && e.Value != nil && secretSchema(e.Value) {
				return true
			}
		}
	}
	return false
}

func secretSchema(s *openapi3.Schema) bool { return s.Format == "password" || s.WriteOnly }

// SecretPathParams are the names of the path parameters of an operation
// (its path item's and its own) whose value is a credential (SecretParam):
// GET /reset-password/{token}, /api-keys/{api_key}. Nil when none.
func SecretPathParams(item *openapi3.PathItem, op *openapi3.Operation) []string {
	var out []string
	for _, list := range []openapi3.Parameters{itemParams(item), opParams(op)} {
		for _, p := range list {
			if p != nil && p.Value != nil && p.Value.In == "path" && SecretParam(p.Value) && !slices.Contains(out, p.Value.Name) {
				out = append(out, p.Value.Name)
			}
		}
	}
	return out
}

func itemParams(item *openapi3.PathItem) openapi3.Parameters {
	if item == nil {
		return nil
	}
	return item.Parameters
}

func opParams(op *openapi3.Operation) openapi3.Parameters {
	if op == nil {
		return nil
	}
	return op.Parameters
}

// TemplateParams are the names of the parameters a path template holds,
// in order.
func TemplateParams(template string) []string {
	var out []string
	for _, seg := range strings.Split(template, "/") {
		out = append(out, segmentParams(seg)...)
	}
	return out
}

// segmentParams are the names of the parameters of one template segment:
// {token}, or the several of {name}.{ext}.
func segmentParams(seg string) []string {
	var out []string
	for {
		open := strings.IndexByte(seg, '{')
		if open < 0 {
			return out
		}
		end := strings.IndexByte(seg[open:], '}')
		if end < 0 {
			return out
		}
		name, _, _ := strings.Cut(seg[open+1:open+end], ":") // Starlette's {path:path}
		out = append(out, name)
		seg = seg[open+end+1:]
	}
}

// RedactPath is path, a request's path that template matched, with the
// value of every parameter of template that secret reports replaced by
// Redacted, the rest kept byte for byte: /reset-password/{token} shows
// /reset-password/[redacted]. The value is found by its place in the
// template, never by searching for it: a token "users" leaves /users
// alone. path may start with segments the template does not name (a
// server's base path, /api/v1), found by the template's fixed segments
// at the end; where a parameter may span several segments (Starlette's
// {file_path:path}) every segment it could cover is redacted. A path
// with no secret parameter comes back as it is.
func RedactPath(template, path string, secret func(string) bool) string {
	if !strings.Contains(template, "{") || secret == nil {
		return path
	}
	tsegs := strings.Split(template, "/")
	var hits []int // the template segments holding a secret parameter
	for i, seg := range tsegs {
		for _, name := range segmentParams(seg) {
			if secret(name) {
				hits = append(hits, i)
				break
			}
		}
	}
	if len(hits) == 0 {
		return path
	}
	psegs := strings.Split(path, "/")
	d := len(psegs) - len(tsegs)
	if d < 0 {
		// Fewer segments than the template has: not a path it matched.
		// Whatever could be a secret's goes.
		for j := min(hits[0], len(psegs)-1); j >= 0 && j < len(psegs); j++ {
			if j > 0 || psegs[j] != "" {
				psegs[j] = Redacted
			}
		}
		return strings.Join(psegs, "/")
	}
	// k leading segments are a prefix the template does not name, and d-k
	// more are taken by a parameter spanning segments: the largest k at
	// which every fixed segment of the template is in its place.
	k := d
	for ; k > 0; k-- {
		if fixedFit(tsegs, psegs, k, d) {
			break
		}
	}
	for _, i := range hits {
		if k == d {
			psegs[i+k] = redactSegment(tsegs[i], psegs[i+k], secret)
			continue
		}
		for j := i + k; j <= i+d; j++ {
			psegs[j] = Redacted
		}
	}
	return strings.Join(psegs, "/")
}

// fixedFit reports whether every fixed segment i of the template (one
// with no parameter) is path segment i+k, or i+d past a parameter that
// spans segments.
func fixedFit(tsegs, psegs []string, k, d int) bool {
	for i, seg := range tsegs {
		if strings.Contains(seg, "{") || i == 0 { // the "" before the first /: a prefix's
			continue
		}
		if psegs[i+k] != seg && psegs[i+d] != seg {
			return false
		}
	}
	return true
}

// redactSegment is a path segment with the value of the template
// segment's secret parameter redacted: the whole segment for {token},
// the fixed text around it kept for {token}.json; the whole segment when
// it holds several parameters or does not fit.
func redactSegment(tseg, pseg string, secret func(string) bool) string {
	names := segmentParams(tseg)
	open, end := strings.IndexByte(tseg, '{'), strings.LastIndexByte(tseg, '}')
	if len(names) != 1 || open < 0 || end < open {
		return Redacted
	}
	pre, suf := tseg[:open], tseg[end+1:]
	if len(pseg) < len(pre)+len(suf) || !strings.HasPrefix(pseg, pre) || !strings.HasSuffix(pseg, suf) {
		return Redacted
	}
	return pre + Redacted + suf
}
