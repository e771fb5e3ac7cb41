package contract

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
)

// Unauthenticated is the kind of a case sending a secured operation no
// token, or one no server issued.
const Unauthenticated Kind = "unauthenticated"

// ExpectAuthRequired: 401 with WWW-Authenticate: Bearer.
const ExpectAuthRequired Expect = "auth_required"

// securedBy reports whether op declares (or inherits from the document) a
// security requirement FastAPI answers with 401 Bearer: an OAuth2 scheme
// or HTTP bearer. A requirement list holding an empty requirement ({})
// makes the token optional: not secured.
func securedBy(doc *openapi3.T, op *openapi3.Operation) bool {
	reqs := doc.Security
	if op.Security != nil {
		reqs = *op.Security
	}
	secured := false
	for _, req := range reqs {
		if len(req) == 0 {
			return false
		}
		for name := range req {
			if bearerScheme(doc, name) {
				secured = true
			}
		}
	}
	return secured
}

func bearerScheme(doc *openapi3.T, name string) bool {
	if doc.Components == nil {
		return false
	}
	s := doc.Components.SecuritySchemes[name]
	if s == nil || s.Value == nil {
		return false
	}
	return s.Value.Type == "oauth2" || (s.Value.Type == "http" && strings.EqualFold(s.Value.Scheme, "bearer"))
}

// tokenURLs are the tokenUrl of every OAuth2 password flow the document
// declares, as paths relative to the server when they are relative.
func tokenURLs(sp *spec.Spec) []string {
	doc := sp.Doc
	if doc.Components == nil {
		return nil
	}
	var out []string
	for _, name := range sortedKeys(doc.Components.SecuritySchemes) {
		s := doc.Components.SecuritySchemes[name]
		if s == nil || s.Value == nil || s.Value.Type != "oauth2" || s.Value.Flows == nil || s.Value.Flows.Password == nil {
			continue
		}
		if u := s.Value.Flows.Password.TokenURL; u != "" {
			out = append(out, u)
		}
	}
	return out
}

// isTokenURL reports whether an operation's path is a declared tokenUrl.
func isTokenURL(sp *spec.Spec, method, path string) bool {
	if method != "POST" {
		return false
	}
	for _, u := range tokenURLs(sp) {
		if p, err := url.Parse(u); err == nil && !p.IsAbs() && "/"+strings.TrimPrefix(p.Path, "/") == path {
			return true
		}
	}
	return false
}

// logInTokenURL logs in through a tokenUrl no operation of the contract
// describes: an OAuth2 password form posted with the credentials given.
func (r *runner) logInTokenURL(ctx context.Context, b *builder, report *Report) {
	if r.cfg.Username == "" || b.headers.Get("Authorization") != "" {
		return
	}
	for _, u := range tokenURLs(r.sp) {
		target := u
		if p, err := url.Parse(u); err != nil {
			continue
		} else if !p.IsAbs() {
			target = strings.TrimSuffix(r.cfg.BaseURL, "/") + "/" + strings.TrimPrefix(u, "/")
		}
		form := url.Values{"username": {r.cfg.Username}, "password": {r.cfg.Password}, "grant_type": {"password"}}
		resp := r.send(ctx, Request{Method: "POST", URL: target, Header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}, Body: form.Encode()})
		var v any
		if resp.Status/100 != 2 || json.Unmarshal(resp.Body, &v) != nil {
			continue
		}
		if tok := model.TokenIn(v); tok != "" {
			if b.headers == nil {
				b.headers = http.Header{}
			}
			r.useToken(b, tok)
			report.Notes = append(report.Notes, fmt.Sprintf("logged in at the tokenUrl %s as %q; every other request carries its bearer token", u, r.cfg.Username))
			return
		}
	}
}

// badTokens are Authorization headers FastAPI's OAuth2PasswordBearer and a
// JWT-checking dependency refuse: none at all, another scheme, a token that
// is no JWT, a JWT whose signature is wrong.
var badTokens = []struct{ name, header string }{
	{"no Authorization header", ""},
	{"a Basic Authorization header", "Basic bW92aWVtb2NrOm1vdmllbW9jaw=="},
	{"a bearer token that is not a JWT", "Bearer moviemock-not-a-token"},
	{"a JWT with a wrong signature", "Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhbGljZSIsImV4cCI6NDEwMjQ0NDgwMH0.bW92aWVtb2NrLWJhZC1zaWduYXR1cmUtbW92aWVtb2Nr"},
}

// tamperedTokens are forgeries of the token the run logged in with (auth,
// "Bearer <JWT>"), which a backend that checks less than it should takes
// for the real one: the same claims under a wrong signature (a backend
// that reads the claims without verifying them), and the claims expired
// under the real signature. A made-up token would be refused by such a
// backend for another reason (its user does not exist), and prove nothing.
func tamperedTokens(auth string, now time.Time) []struct{ name, header string } {
	tok, ok := strings.CutPrefix(auth, "Bearer ")
	parts := strings.Split(tok, ".")
	if !ok || len(parts) != 3 {
		return nil
	}
	enc := base64.RawURLEncoding
	sig, err := enc.DecodeString(parts[2])
	if err != nil || len(sig) == 0 {
		return nil
	}
	for i := range sig {
		sig[i] ^= 0x5a
	}
	out := []struct{ name, header string }{
		{"the run's token with a wrong signature (same claims)", "Bearer " + parts[0] + "." + parts[1] + "." + enc.EncodeToString(sig)},
	}
	raw, err := enc.DecodeString(parts[1])
	var claims map[string]any
	if err != nil || json.Unmarshal(raw, &claims) != nil || claims["exp"] == nil {
		return out
	}
	claims["exp"] = now.Add(-time.Hour).Unix()
	if _, ok := claims["iat"]; ok {
		claims["iat"] = now.Add(-2 * time.Hour).Unix()
	}
	payload, err := json.Marshal(claims)
	if err != nil {
		return out
	}
	return append(out, struct{ name, header string }{
		"the run's token expired (its claims' exp an hour ago, its signature kept)", "Bearer " + parts[0] + "." + enc.EncodeToString(payload) + "." + parts[2],
	})
}

// firstTokenCase is the first of badTokens that sends a bearer token.
const firstTokenCase = 2

// issuesJWTs reports whether the runner holds a bearer token that is a
// JWT: one the login issued, or the Authorization header the user gave.
func (b *builder) issuesJWTs() bool {
	tok, ok := strings.CutPrefix(b.headers.Get("Authorization"), "Bearer ")
	return ok && isJWT(tok)
}

// isJWT reports whether tok is a JWT: three parts, a header naming an alg.
func isJWT(tok string) bool {
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return false
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[0])
	var header struct {
		Alg string `json:"alg"`
	}
	return err == nil && json.Unmarshal(raw, &header) == nil && header.Alg != ""
}

// authCases sends a secured operation, with otherwise valid inputs, each
// bad token: FastAPI answers 401 before it validates parameters or the
// body (a body that is not JSON at all aside), so the inputs matter not.
func (b *builder) authCases(o *operation, base values) {
	if o.keyed {
		// Before basic: an operation the run's key opens alone beside
		// basic credentials is refused only without the key.
		b.keyedCases(o, base)
		return
	}
	if o.basic {
		b.basicCases(o, base)
		return
	}
	if !o.secured {
		return
	}
	if base == nil {
		base = b.fillAnything(o)
		if o.inputs.JSON != nil {
			if body := b.validBody(o); body != "" {
				base[bodyKey] = body
			}
		}
	}
	for i, t := range badTokens {
		if i >= firstTokenCase && !b.issuesJWTs() {
			// The scheme says a token is needed, not what a token is:
			// only a server seen issuing JWTs owes a 401 to one it did
			// not issue (FastAPI's OAuth2PasswordBearer and HTTPBearer
			// take any token).
			continue
		}
		v := clone(base)
		v[authKey] = t.header
		b.unauthenticated(o, t.name, v)
	}
	for _, t := range tamperedTokens(b.headers.Get("Authorization"), b.cfg.Now()) {
		v := clone(base)
		v[authKey] = t.header
		b.unauthenticated(o, t.name, v)
	}
	// FastAPI's order: a body that parses as JSON but breaks the model is
	// judged after security, so without a token it is still a 401 (only a
	// body that is not JSON at all is refused first).
	if o.inputs.JSON != nil {
		parsed, early, err := o.inputs.JSON.Read("application/json", true, []byte("{}"))
		if err != nil || len(early) > 0 {
			return
		}
		if _, late := o.inputs.JSON.Validate(parsed); len(late) > 0 && !fastapi.Unanswerable(late) {
			v := clone(base)
			v[bodyKey] = "{}"
			v[authKey] = badTokens[0].header
			b.unauthenticated(o, badTokens[0].name+", and a body the model refuses ({})", v)
		}
	}
}

// basicCases sends an operation secured by HTTP basic no credentials:
// FastAPI's HTTPBasic answers 401 with WWW-Authenticate: Basic.
func (b *builder) basicCases(o *operation, base values) {
	if base == nil {
		base = b.fillAnything(o)
		if o.inputs.JSON != nil {
			if body := b.validBody(o); body != "" {
				base[bodyKey] = body
			}
		}
	}
	for _, t := range []struct{ name, header string }{
		{"no Authorization header", ""},
		{"a Bearer Authorization header", "Bearer moviemock-not-basic"},
	} {
		v := clone(base)
		v[authKey] = t.header
		b.unauthenticated(o, t.name, v)
	}
}

// notAuthenticated403 reports whether r is FastAPI's refusal of missing
// credentials before 0.122, which an application may keep
// (make_not_authenticated_error): 403 {"detail":"Not authenticated"}, from
// an operation secured otherwise than by HTTP basic (always a 401).
func notAuthenticated403(o *operation, r *Response) bool {
	if o == nil || !o.secured || o.basic || r.Status != http.StatusForbidden {
		return false
	}
	raw := r.Body
	if len(raw) == 0 {
		raw = r.Excerpt
	}
	return string(bytes.TrimSpace(raw)) == `{"detail":"Not authenticated"}`
}

// checkAuthRequired: a secured operation without a valid token is a 401
// with WWW-Authenticate: Bearer; so is any 401 of an OAuth2 operation.
func checkAuthRequired(x *checkInput) *verdict {
	r := x.resp()
	c := x.c()
	if !x.answered() {
		return nil
	}
	if c.Expect != ExpectAuthRequired && (r.Status != http.StatusUnauthorized || !(c.op.secured || c.op.tokenEndpoint || c.op.basic)) {
		return nil
	}
	challenge := "Bearer"
	if c.op.basic {
		challenge = "Basic"
	}
	want := "401 with WWW-Authenticate: " + challenge
	if notAuthenticated403(c.op, r) {
		return pass
	}
	if x.r.openAPI() && c.op.keyed && r.Status == http.StatusForbidden && declares4xx(c.op.op, http.StatusForbidden) {
		return pass // a refusal the operation declares for it
	}
	if r.Status != http.StatusUnauthorized {
		return fail(want, "%s", statusText(r))
	}
	h := r.Header.Get("WWW-Authenticate")
	if x.r.openAPI() {
		// Any scheme the operation declares may be the one challenged
		// (an operation taking Basic or Bearer), each in its own words.
		if schemes := x.r.challenges(c.op.op); len(schemes) > 0 {
			if !owesChallenge(schemes) && h == "" {
				// No RFC names a challenge for an API key: a 401 without
				// one is right; one naming another scheme is not.
				return pass
			}
			if !namesChallenge(h, schemes) {
				return fail("401 with WWW-Authenticate naming "+strings.Join(schemes, " or "), "WWW-Authenticate %q", h)
			}
			return pass
		}
	}
	if !strings.HasPrefix(strings.ToLower(h), strings.ToLower(challenge)) {
		return fail(want, "WWW-Authenticate %q", h)
	}
	return pass
}

// keyedCases sends an operation keyed by the run's credential (an API key
// the login earned, in a header, the query or a cookie) without it, with
// one no server issued, and with the run's own token under a wrong
// signature when it is a JWT: each must be refused as unauthenticated.
func (b *builder) keyedCases(o *operation, base values) {
	if base == nil {
		base = b.fillAnything(o)
		if o.inputs.JSON != nil {
			if body := b.validBody(o); body != "" {
				base[bodyKey] = body
			}
		}
	}
	// A server issuing JWTs is sent a JWT it did not issue: one that
	// takes any other string as its key would be right to (the document
	// does not say what a key is).
	made := "moviemock-not-a-token"
	if isJWT(b.rawToken) {
		made = strings.TrimPrefix(badTokens[3].header, "Bearer ")
	}
	cases := []struct{ name, value string }{{"no " + b.cred.name, ""}}
	if b.rawToken != "" && (!b.givenToken || isJWT(b.rawToken)) {
		// A key the runner was given (--token), not seen issued by a
		// login, says nothing of what the server's keys are: as for a
		// bearer token (authCases), only one seen to be a JWT makes a
		// key no server issued one the target owes a 401. Nor does a
		// run that holds no key (HTTP basic credentials opening the
		// operation beside it, gotify's).
		cases = append(cases, struct{ name, value string }{b.cred.name + " no server issued", b.cred.value(made)})
	}
	for _, t := range tamperedTokens("Bearer "+b.rawToken, b.cfg.Now()) {
		cases = append(cases, struct{ name, value string }{t.name, b.cred.value(strings.TrimPrefix(t.header, "Bearer "))})
	}
	for _, t := range cases {
		v := clone(base)
		v[authKey] = t.value
		b.unauthenticated(o, t.name, v)
	}
}

// unauthenticated adds the case sending o the values v, which carry no
// valid credentials, expecting a 401. Under the plain-OpenAPI profile a
// request that satisfies another alternative of o's security requirements
// is let in, rightly: the alternatives are OR (Basic credentials open an
// operation that takes a bearer token or basic credentials; any
// Authorization value is a key in an API key carried there), so such a
// case is not sent. Its made-up and forged tokens count as refused.
func (b *builder) unauthenticated(o *operation, name string, v values) {
	if b.model != nil && b.model.Framework == framework.OpenAPI && credentialed(b.sp.Doc, o.op, b.request(o, v), refuseTokens) {
		return
	}
	b.add(o, Unauthenticated, ExpectAuthRequired, name, v, nil)
}
