package contract

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
)

// The login of a document that is no OAuth2 password form: a JSON body
// holding a password and a username or an email, however wrapped
// (RealWorld's POST /users/login {"user": {"email", "password"}}), whose
// answer holds a token somewhere ({"user": {"token": …}}). The token goes
// where the document's security scheme says: a bearer header, or an API
// key in a header, the query or a cookie.

// ErrLogin means the run could not log in with the credentials given, or
// the target refused every secured case sent with what the login earned:
// a run of refusals would test nothing, so it stops.
var ErrLogin = errors.New("login failed")

// tokenFormat is how a token is written where an API key goes when
// --auth-format says nothing: as it is.
const tokenFormat = "{token}"

// tokenAfterToken finds a token written after the word Token in an
// example of the header: "Token xxxxxx.yyyyyyy.zzzzzz" (RealWorld),
// "Token <jwt>".
var tokenAfterToken = regexp.MustCompile(`\bToken\s+(?:x{3,}|<|\{|\[|ey)`)

// bearerWord is the word Bearer in a description.
var bearerWord = regexp.MustCompile(`\bBearer\b`)

// apiKeyFormat is how a token is written in an API key's place: after the
// word the scheme's description puts before it in an Authorization
// header: Bearer where it names the word ("Enter 'Bearer' [space] and then
// your token", Swashbuckle's usual text; Kavita's "JWT with Bearer"),
// Token where its example writes one so; else as it is.
func apiKeyFormat(v *openapi3.SecurityScheme) string {
	if v.In != "header" || !strings.EqualFold(v.Name, "Authorization") {
		return tokenFormat
	}
	switch {
	case bearerWord.MatchString(v.Description):
		return "Bearer {token}"
	case tokenAfterToken.MatchString(v.Description):
		return "Token {token}"
	}
	return tokenFormat
}

// credPlace is where the document wants the token the login earned, and
// how it is written there.
type credPlace struct {
	scheme string // the security scheme's name in the document
	in     string // "header", "query" or "cookie"
	name   string // Authorization, X-API-Key, api_key…
	format string // "Bearer {token}", "{token}", the --auth-format
}

// value is the token written as the place wants it.
func (p credPlace) value(token string) string {
	return strings.ReplaceAll(p.format, "{token}", token)
}

// describe says where the token goes, for the report's notes.
func (p credPlace) describe() string {
	shown := strings.ReplaceAll(p.format, "{token}", "<token>")
	if p.scheme == "" {
		return fmt.Sprintf("the %s %s as %q", p.in, p.name, shown)
	}
	return fmt.Sprintf("the %s %s as %q (security scheme %s)", p.in, p.name, shown, p.scheme)
}

// bearerHeader is the place of a bearer token.
func (p credPlace) bearerHeader() bool {
	return p.in == "header" && strings.EqualFold(p.name, "Authorization") && strings.HasPrefix(p.format, "Bearer ")
}

// placeFor is where the token goes: the first scheme, in document order of
// the operations that require one, that carries a token (OAuth2, OpenID
// Connect, HTTP bearer, an API key); an Authorization bearer header when
// none does. format, when set (--auth-format), writes the token.
func placeFor(sp *spec.Spec, format string) credPlace {
	doc := sp.Doc
	p := credPlace{in: "header", name: "Authorization", format: "Bearer {token}"}
	if doc.Components == nil {
		if format != "" {
			p.format = format
		}
		return p
	}
	reqs := []openapi3.SecurityRequirements{doc.Security}
	for _, path := range sp.Paths() {
		item := doc.Paths.Value(path)
		for _, method := range []string{"GET", "PUT", "POST", "DELETE", "PATCH"} {
			if op := item.GetOperation(method); op != nil && op.Security != nil {
				reqs = append(reqs, *op.Security)
			}
		}
	}
	found := false
	for _, rs := range reqs {
		for _, req := range rs {
			for _, name := range sortedKeys(req) {
				s := doc.Components.SecuritySchemes[name]
				if found || s == nil || s.Value == nil {
					continue
				}
				switch v := s.Value; {
				case v.Type == "oauth2" || v.Type == "openIdConnect" || (v.Type == "http" && strings.EqualFold(v.Scheme, "bearer")):
					p, found = credPlace{scheme: name, in: "header", name: "Authorization", format: "Bearer {token}"}, true
				case v.Type == "apiKey" && v.Name != "" && (v.In == "header" || v.In == "query" || v.In == "cookie"):
					p, found = credPlace{scheme: name, in: v.In, name: v.Name, format: apiKeyFormat(v)}, true
				}
			}
		}
	}
	if format != "" {
		p.format = format
	}
	return p
}

// opensAlone reports whether scheme alone is one alternative of op's
// security requirements (the document's when it declares none): its
// credential opens op without another's (dj-rest-auth's session cookie
// beside HTTP basic).
func opensAlone(doc *openapi3.T, op *openapi3.Operation, scheme string) bool {
	reqs := doc.Security
	if op.Security != nil {
		reqs = *op.Security
	}
	for _, req := range reqs {
		if _, ok := req[scheme]; ok && len(req) == 1 {
			return true
		}
	}
	return false
}

// authorizationOpens reports whether the Authorization header every
// request carries may open o, secured by HTTP basic: one is set, and it
// is not the run's token written for a scheme none of o's alternatives
// names (gotify's login takes basic credentials only, not the client
// token its other operations take in Authorization). A header given
// (--header) is trusted.
func (b *builder) authorizationOpens(o *operation) bool {
	h := b.headers.Get("Authorization")
	switch {
	case h == "":
		return false
	case b.rawToken == "" || b.cred.scheme == "" || b.cred.in != "header" || !strings.EqualFold(b.cred.name, "Authorization") ||
		h != b.cred.value(b.rawToken):
		return true
	}
	return names(b.sp.Doc, o.op, b.cred.scheme)
}

// names reports whether an alternative of op's requirements (the
// document's when it declares none) names scheme.
func names(doc *openapi3.T, op *openapi3.Operation, scheme string) bool {
	reqs := doc.Security
	if op.Security != nil {
		reqs = *op.Security
	}
	for _, req := range reqs {
		if _, ok := req[scheme]; ok {
			return true
		}
	}
	return false
}

// requires reports whether op needs the credential of scheme: every
// alternative of its requirements (the document's when it declares none)
// names it. An empty alternative ({}) makes credentials optional.
func requires(doc *openapi3.T, op *openapi3.Operation, scheme string) bool {
	reqs := doc.Security
	if op.Security != nil {
		reqs = *op.Security
	}
	if scheme == "" || len(reqs) == 0 {
		return false
	}
	for _, req := range reqs {
		if _, ok := req[scheme]; !ok {
			return false
		}
	}
	return true
}

// useToken sends token, written as the place wants it, with every request
// after: in b's headers, or among the query parameters or cookies of the
// run. It is the run's credential from then on.
func (r *runner) useToken(b *builder, token string) {
	v := r.cred.value(token)
	switch r.cred.in {
	case "query":
		if r.cfg.Query == nil {
			r.cfg.Query = map[string][]string{}
		}
		r.cfg.Query.Set(r.cred.name, v)
	case "cookie":
		if r.cfg.Cookie == nil {
			r.cfg.Cookie = map[string][]string{}
		}
		r.cfg.Cookie.Set(r.cred.name, v)
	default:
		if b.headers == nil {
			b.headers = http.Header{}
		}
		b.headers.Set(r.cred.name, v)
	}
	r.rawToken, r.token, b.rawToken = token, v, token
}

// holdsCredential reports whether the run sends a credential where the
// document wants it: one given (--header, --query, --cookie) or earned.
func (r *runner) holdsCredential(b *builder) bool {
	switch r.cred.in {
	case "query":
		return r.cfg.Query.Get(r.cred.name) != ""
	case "cookie":
		return r.cfg.Cookie.Get(r.cred.name) != ""
	}
	return b.headers.Get(r.cred.name) != ""
}

// jsonLogin reports whether o is a login taking a JSON body: the model's
// JSON login (LoginBy), or a login taking JSON beside its form (Django
// REST framework's {username, email, password}); not an OAuth2 form.
func (o *operation) jsonLogin() bool {
	return o.model != nil && o.model.Kind == model.Login && o.inputs.JSON != nil
}

// loginBy is the member a JSON login names the account by: its LoginBy,
// else username (a login taking JSON beside its form reads the account
// by its username, as the form does).
func loginBy(o *model.Operation) string {
	if o.LoginBy != "" {
		return o.LoginBy
	}
	return "username"
}

// loginBody is the JSON body of a login o with user and pass: the member
// naming the account (loginBy) and the password, in the envelope the
// document wraps them in.
func loginBody(o *model.Operation, user, pass string) string {
	var v any = map[string]any{loginBy(o): user, "password": pass}
	if o.BodyWrap != "" {
		v = map[string]any{o.BodyWrap: v}
	}
	raw, _ := json.Marshal(v)
	return string(raw)
}

// logInJSON logs in through a JSON login with --username and --password;
// the token of its answer goes where the document wants it. A refusal,
// or an answer without a token, is the error the run stops with.
func (r *runner) logInJSON(ctx context.Context, o *operation, b *builder, report *Report) error {
	resp := r.send(ctx, b.request(o, values{bodyKey: loginBody(o.model, r.cfg.Username, r.cfg.Password)}))
	if resp.Status/100 != 2 {
		return fmt.Errorf("%w: %s %s with --username %q answered %s: check the credentials (the account must exist on the target)", ErrLogin, o.method, o.path, r.cfg.Username, statusText(&resp))
	}
	var v any
	if json.Unmarshal(resp.Body, &v) != nil {
		return fmt.Errorf("%w: %s %s answered %d with no JSON body to read a token from", ErrLogin, o.method, o.path, resp.Status)
	}
	tok := model.TokenIn(v)
	if tok == "" {
		return fmt.Errorf("%w: %s %s answered %d with no token in its body (no string member named access_token, access, token, key, jwt or …token)", ErrLogin, o.method, o.path, resp.Status)
	}
	r.useToken(b, tok)
	report.Notes = append(report.Notes, fmt.Sprintf("logged in as %q (%s %s); every other request carries its token in %s", r.cfg.Username, o.method, o.path, r.cred.describe()))
	return nil
}

// refusedEverywhere is the error the run stops with when every positive
// case of a secured operation, sent with the run's credential, was
// refused (401 or 403): the token is not where or how the target wants
// it. nil when one of them got through, or none was sent.
func (r *runner) refusedEverywhere(results []*Result) error {
	sent, refused := 0, 0
	for _, res := range results {
		c := res.Case
		if c == nil || c.op == nil || c.Kind != Positive || !c.op.needsCredential || res.Response.Status == 0 {
			continue
		}
		if _, own := c.Request.Header["Authorization"]; !own && r.cred.in == "header" && c.Request.Header.Get(r.cred.name) == "" {
			continue
		}
		sent++
		if s := res.Response.Status; s == http.StatusUnauthorized || s == http.StatusForbidden {
			refused++
		}
	}
	if sent == 0 || refused < sent {
		return nil
	}
	hint := "give the format the target wants with --auth-format, e.g. --auth-format 'Token {token}'"
	return fmt.Errorf("%w: all %d cases of secured operations sent with the run's credential in %s were refused (401 or 403): %s, or check the account's rights", ErrLogin, sent, r.cred.describe(), hint)
}

// jsonLoginCases are a JSON login's own cases: the given credentials
// (--username, --password) must log in; a wrong password for that account
// and an account no one has must not. Without credentials nothing can
// log in: a note says so.
func (b *builder) jsonLoginCases(o *operation) {
	user := b.cfg.Username
	if user == "" {
		*b.notes = append(*b.notes, fmt.Sprintf("%s: no positive case: a login needs an account of the target (give --username and --password)", o.id))
	} else {
		b.add(o, Positive, ExpectSuccess, fmt.Sprintf("%s=%q with its password", loginBy(o.model), user),
			values{bodyKey: loginBody(o.model, user, b.cfg.Password)}, nil)
	}
	wrong := fmt.Sprintf("moviemock-wrong-%08x", b.rng.Uint32())
	if user != "" {
		b.add(o, WrongCredentials, ExpectUnauthorized, fmt.Sprintf("%s=%q with a wrong password", loginBy(o.model), user),
			values{bodyKey: loginBody(o.model, user, wrong)}, nil)
	}
	nobody := "moviemock-nobody-" + wrong[len(wrong)-8:]
	if loginBy(o.model) == "email" {
		nobody += "@example.com"
	}
	b.add(o, WrongCredentials, ExpectUnauthorized, fmt.Sprintf("a %s no account has", loginBy(o.model)), values{bodyKey: loginBody(o.model, nobody, wrong)}, nil)
}

// changesAccount reports whether o changes or removes the account whose
// token it is sent with: an update of the current user, its deletion, a
// password change; also a password set that follows no convention of the
// model: a write that needs credentials, names no record on its path and
// sends a password (gotify's POST /current/user/password {"pass"}, which
// gives the account the request authenticates as that password).
func changesAccount(o *operation) bool {
	if o.model == nil {
		return false
	}
	switch o.model.Kind {
	case model.UpdateMe, model.DeleteMe, model.ChangePassword:
		return true
	case model.Example:
		return o.model.Guarded && o.unsafe() && !strings.Contains(o.path, "{") && setsPassword(o)
	}
	return false
}

// accountChange names the change to the account o makes, for a note.
func accountChange(o *operation) string {
	if o.model.Kind == model.Example {
		return "it sets a password"
	}
	return o.model.Kind.String()
}

// setsPassword reports whether o's JSON body holds a password: a member
// named for one (password, newPassword, passwd, pass, pwd) or one the
// contract marks format: password.
func setsPassword(o *operation) bool {
	_, s := jsonBodySchema(o)
	if s == nil {
		return false
	}
	for name, p := range s.Properties {
		l := strings.ToLower(name)
		if strings.Contains(l, "password") || strings.Contains(l, "passwd") || l == "pass" || l == "pwd" ||
			p != nil && p.Value != nil && p.Value.Format == "password" {
			return true
		}
	}
	return false
}

// wrappedIn reports whether a JSON body is wrapped in member already: an
// object of that one member holding an object.
func wrappedIn(body []byte, member string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil || len(m) != 1 {
		return false
	}
	inner := bytes.TrimSpace(m[member])
	return len(inner) > 0 && inner[0] == '{'
}

// freshAccount makes a registration body that wraps the account in a
// member ({"user": {"username", "email", "password"}}) register a new
// account: its username and email made of name, its password pass. It
// returns the body, the account's fields and which were sent, and the
// name the login takes (by, "email" or "username").
func freshAccount(body []byte, wrap, name, pass, by string) ([]byte, map[string]any, map[string]bool, string) {
	var outer map[string]any
	if json.Unmarshal(body, &outer) != nil {
		return body, nil, nil, name
	}
	inner, _ := outer[wrap].(map[string]any)
	if inner == nil {
		return body, nil, nil, name
	}
	name = strings.TrimSuffix(name, "@example.com")
	if _, ok := inner["username"]; ok {
		inner["username"] = name
	}
	if _, ok := inner["email"]; ok {
		inner["email"] = name + "@example.com"
	}
	inner["password"] = pass
	raw, err := json.Marshal(outer)
	if err != nil {
		return body, nil, nil, name
	}
	set := map[string]bool{}
	want := map[string]any{}
	for k, v := range inner {
		if k != "password" {
			want[k], set[k] = v, true
		}
	}
	if by == "email" {
		return raw, want, set, name + "@example.com"
	}
	return raw, want, set, name
}

// withoutToken is an account's answer without the token it carries
// (a string member model.TokenPreference names), which every answer may
// issue anew.
func withoutToken(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := make(map[string]any, len(m))
	for k, x := range m {
		if _, isString := x.(string); isString && model.TokenPreference(k) > 0 {
			continue
		}
		out[k] = x
	}
	return out
}

// keyOfColl is the key of a record of c in its own field (c.ID: an
// article's slug), when the collection has one.
func keyOfColl(rec map[string]any, c *model.Collection) (string, bool) {
	if c == nil || c.ID == nil || rec == nil {
		return "", false
	}
	return keyOf(rec, c.ID.Name)
}

// basicCredentials makes --username and --password the run's HTTP basic
// credentials when the contract has no login to give them to: they are
// sent to every operation declaring an HTTP basic scheme that they open,
// alone or with the --header, --query and --cookie given (one
// alternative of its security requirements satisfied). A request that
// carries an Authorization header already keeps it.
func (r *runner) basicCredentials(ops []*operation, b *builder, report *Report) {
	if b.headers.Get("Authorization") != "" {
		return
	}
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte(r.cfg.Username+":"+r.cfg.Password))
	n := 0
	for _, o := range ops {
		if !model.BasicAuth(r.sp.Doc, o.op) {
			continue
		}
		req := b.request(o, values{})
		if req.Header == nil {
			req.Header = http.Header{}
		}
		req.Header.Set("Authorization", basic)
		if credentialed(r.sp.Doc, o.op, req, nil) {
			o.basicOpens = true
			n++
		}
	}
	if n == 0 {
		return
	}
	b.basic, r.basic = basic, basic
	report.Notes = append(report.Notes, fmt.Sprintf("the contract has no login: --username %q and --password go as HTTP basic credentials to the %d operations they open", r.cfg.Username, n))
}

// credentialHint says which flags give the runner a credential for o.
func (b *builder) credentialHint(o *operation) string {
	if b.hasLogin {
		return "give --username and --password for the contract's login, or a token the target issued with --token"
	}
	switch {
	case b.basic != "" && model.BasicAuth(b.sp.Doc, o.op):
		return "the contract has no login, and the basic credentials given satisfy none of its security requirements alone: give a token the target issued with --token, or what the requirement takes beside them with --header, --query or --cookie"
	case model.BasicAuth(b.sp.Doc, o.op):
		return "the contract has no login: give a token the target issued with --token, --username and --password as HTTP basic credentials, or --header"
	}
	return "the contract has no login: give a token the target issued with --token, or --header"
}
