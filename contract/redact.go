package contract

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
)

// The environment variables a reproduction reads the credentials from.
const (
	PasswordVar = "MOVIEMOCK_PASSWORD"
	TokenVar    = "MOVIEMOCK_TOKEN"
)

// Credentials are the secrets a run was given: a report never shows them.
type Credentials struct {
	Password   string // --password
	JWTSecret  string // --jwt-secret
	AdminToken string // the mock's --admin-token, of a proxy
	Token      string // the bearer token the run logged in with
}

// Redactor is the one rule by which everything a report writes (text,
// JSON, JUnit, HTML, curl reproductions, notes) hides credentials:
//
//   - the values it knows (--password, --jwt-secret, every bearer token
//     sent or issued, cookie values, the value of every body field whose
//     name model.SecretName marks) are replaced wherever they appear, also
//     URL- or JSON-encoded: a bearer token by its first 8 characters and
//     "…", anything else by "[redacted]";
//   - Authorization and Cookie headers, and the secret fields of a form
//     or JSON body, are redacted whatever their value (as a proxy's kept
//     exchanges are, keptRequest); a secret field is one model.SecretName
//     marks (password, secret, api_key, …token) or one the contract marks
//     writeOnly or format: password, at any depth of the JSON, in request
//     and response bodies and in any text that quotes JSON (a check's
//     expected and got, an excerpt cut short), a token shown by its start;
//   - a curl reproduction reads the password and the token from
//     $MOVIEMOCK_PASSWORD and $MOVIEMOCK_TOKEN, and any other credential
//     header from a variable named after it ($MOVIEMOCK_X_API_KEY,
//     HeaderVar), so that it still runs; the report's note names each.
type Redactor struct {
	password string
	masks    map[string]string // value → what is shown instead
	order    []string          // masks' keys, longest first
	tokens   map[string]bool
	used     map[string]bool // the variables a reproduction read
	// headerVars are the variables a reproduction reads a redacted
	// header from (MOVIEMOCK_X_API_KEY), each with what it holds.
	headerVars map[string]string
	fields     map[string]bool // the contract's writeOnly and format: password fields
}

// minSecret is the length below which a value seen in a secret-named field
// is not hidden elsewhere in the report: "a" would blank every a.
const minSecret = 6

// NewRedactor is the rule for a run given c.
func NewRedactor(c Credentials) *Redactor {
	x := &Redactor{password: c.Password, masks: map[string]string{}, tokens: map[string]bool{}, used: map[string]bool{}, headerVars: map[string]string{}}
	if len(c.Password) >= 3 {
		x.add(c.Password, false)
	}
	if len(c.JWTSecret) >= 3 {
		x.add(c.JWTSecret, false)
	}
	if len(c.AdminToken) >= 3 {
		x.add(c.AdminToken, false)
	}
	x.addAuthorization(c.Token)
	return x
}

// add makes the redactor hide v (a bearer token: token).
func (x *Redactor) add(v string, token bool) {
	if v == "" || x.masks[v] != "" || strings.Contains(v, "redacted") || strings.Contains(v, "…") {
		return // what a proxy kept is already redacted
	}
	mask := model.Redacted
	if token {
		x.tokens[v] = true
		mask = "…"
		if len(v) > 16 {
			mask = v[:8] + "…"
		}
	}
	forms := []string{v, url.QueryEscape(v), url.PathEscape(v)}
	if b, err := json.Marshal(v); err == nil {
		forms = append(forms, string(b[1:len(b)-1]))
	}
	for _, f := range forms {
		if _, ok := x.masks[f]; !ok && f != "" {
			x.masks[f] = mask
			x.order = append(x.order, f)
		}
	}
	sort.SliceStable(x.order, func(i, j int) bool { return len(x.order[i]) > len(x.order[j]) })
}

// addAuthorization hides the credentials of an Authorization value.
func (x *Redactor) addAuthorization(v string) {
	scheme, cred, found := strings.Cut(strings.TrimSpace(v), " ")
	switch {
	case !found:
		if len(scheme) >= minSecret {
			x.add(scheme, false)
		}
	case strings.EqualFold(scheme, "bearer"):
		if cred = strings.TrimSpace(cred); len(cred) >= minSecret {
			x.add(cred, true)
		}
	case len(cred) >= minSecret:
		x.add(strings.TrimSpace(cred), false)
	}
}

// learn adds the secrets a result carries: its request's credentials and
// secret-named fields, and the tokens and cookies its answer issued.
func (x *Redactor) learn(res *Result) {
	if res == nil || res.Case == nil {
		return
	}
	req := res.Case.Request
	for _, v := range req.Header.Values("Authorization") {
		x.addAuthorization(v)
	}
	for _, v := range req.Header.Values("Cookie") {
		for _, c := range strings.Split(v, ";") {
			if _, val, ok := strings.Cut(c, "="); ok && len(strings.TrimSpace(val)) >= minSecret {
				x.add(strings.TrimSpace(val), false)
			}
		}
	}
	for _, v := range res.Response.Header.Values("Set-Cookie") {
		first, _, _ := strings.Cut(v, ";")
		if _, val, ok := strings.Cut(first, "="); ok && len(strings.TrimSpace(val)) >= minSecret {
			x.add(strings.TrimSpace(val), false)
		}
	}
	for name, vs := range req.Header {
		for _, v := range vs {
			if (x.secret(name) || model.SecretValue(v)) && len(v) >= minSecret {
				x.add(v, false)
				if _, cred, ok := strings.Cut(strings.TrimSpace(v), " "); ok && len(strings.TrimSpace(cred)) >= minSecret {
					x.add(strings.TrimSpace(cred), false)
				}
			}
		}
	}
	if _, q, ok := strings.Cut(req.URL, "?"); ok {
		if vals, err := url.ParseQuery(q); err == nil {
			for k, vs := range vals {
				for _, v := range vs {
					if x.secret(k) && len(v) >= minSecret {
						x.add(v, strings.HasSuffix(strings.ToLower(k), "token"))
					}
				}
			}
		}
	}
	x.learnBody(req.Header.Get("Content-Type"), req.Body)
	x.learnBody("application/json", string(res.Response.bodyText()))
}

// learnBody adds the values of body's secret-named fields.
func (x *Redactor) learnBody(contentType, body string) {
	if body == "" {
		return
	}
	if strings.HasPrefix(contentType, "application/x-www-form-urlencoded") {
		if vals, err := url.ParseQuery(body); err == nil {
			for k, vs := range vals {
				for _, v := range vs {
					if x.secret(k) && len(v) >= minSecret {
						x.add(v, strings.HasSuffix(strings.ToLower(k), "token"))
					}
				}
			}
		}
		return
	}
	var v any
	if json.Unmarshal([]byte(body), &v) != nil {
		return
	}
	budget := 10000
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if budget--; budget < 0 || depth > 32 {
			return
		}
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if s, ok := e.(string); ok && x.secret(k) && len(s) >= minSecret {
					x.add(s, strings.HasSuffix(strings.ToLower(k), "token"))
				}
				walk(e, depth+1)
			}
		case []any:
			for _, e := range v {
				walk(e, depth+1)
			}
		}
	}
	walk(v, 0)
}

// secret reports whether a field named name holds a credential: by its
// name, or by what the contract says of it.
func (x *Redactor) secret(name string) bool {
	return model.SecretName(name) || x != nil && x.fields[name]
}

// Text is s with every secret the redactor knows replaced, and the value
// of every secret field quoted as JSON in it.
func (x *Redactor) Text(s string) string {
	if x == nil || s == "" {
		return s
	}
	for _, v := range x.order {
		if strings.Contains(s, v) {
			s = replaceWord(s, v, x.masks[v])
		}
	}
	return redactFields(s, x.secret)
}

// memberPatterns are jsonMember, a JSON member as it appears in text,
// whole or cut short: a quoted name, a colon, and a string (maybe
// unterminated) or a number; and quotedMember, one inside a quoted string,
// its quotes escaped (a check's got quoting a body: with body
// "{\"password\":\"x\"}"). Compiled when first used: their {1,200}
// expands to 200 copies, and compiling them at every start was a quarter
// of serve's time to its first answer.
var memberPatterns = sync.OnceValues(func() (jsonMember, quotedMember *regexp.Regexp) {
	return regexp.MustCompile(`"((?:[^"\\]|\\.){1,200})"\s*:\s*("(?:[^"\\]|\\.)*(?:"|$)|-?[0-9][0-9.eE+-]*)`),
		regexp.MustCompile(`\\"([^"\\]{1,200})\\"\s*:\s*(\\"(?:[^"\\]|\\[^"])*(?:\\"|"|$)|-?[0-9][0-9.eE+-]*)`)
})

// redactFields replaces the value of every member of a secret field that
// text quotes as JSON, at any depth and whether or not text is whole JSON
// (an excerpt cut short, a check's got): "[redacted]". What is already
// masked (a token shown by its start and "…") stays.
func redactFields(text string, secret func(string) bool) string {
	if !strings.Contains(text, ":") {
		return text
	}
	jsonMember, quotedMember := memberPatterns()
	for _, re := range []*regexp.Regexp{jsonMember, quotedMember} {
		quote := `"`
		if re == quotedMember {
			quote = `\"`
		}
		text = re.ReplaceAllStringFunc(text, func(m string) string {
			sub := re.FindStringSubmatchIndex(m)
			name, err := strconv.Unquote(`"` + m[sub[2]:sub[3]] + `"`)
			if err != nil {
				name = m[sub[2]:sub[3]]
			}
			v := m[sub[4]:sub[5]]
			if !secret(name) || strings.Contains(v, model.Redacted) || strings.Contains(v, "…") || strings.Contains(v, passMark) {
				return m
			}
			end := ""
			if re == quotedMember && strings.HasSuffix(v, `"`) && !strings.HasSuffix(v, `\"`) {
				end = `"` // the quoted string ends inside the value, cut short
			}
			shown := model.Redacted
			// A token is shown as the Redactor shows one it knows: its
			// first 8 characters and "…".
			if inner := strings.TrimPrefix(v, quote); strings.HasSuffix(strings.ToLower(name), "token") && len(inner) > 16+len(quote) && !strings.ContainsAny(inner[:8], `\"`) {
				shown = inner[:8] + "…"
			}
			return m[:sub[4]] + quote + shown + quote + end
		})
	}
	return text
}

// replaceWord replaces v in s where it is not part of a longer word: a
// password "secret" leaves client_secret and --jwt-secret alone.
func replaceWord(s, v, with string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, v)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(v)
		before := b.Len() > 0 || i > 0
		var prev byte
		if i > 0 {
			prev = s[i-1]
		} else if before {
			prev = lastByte(&b)
		}
		if (i == 0 && !before || !wordByte(prev) || !wordByte(v[0])) && (end == len(s) || !wordByte(s[end]) || !wordByte(v[len(v)-1])) {
			b.WriteString(s[:i])
			b.WriteString(with)
		} else {
			b.WriteString(s[:end])
		}
		s = s[end:]
	}
}

func lastByte(b *strings.Builder) byte {
	s := b.String()
	return s[len(s)-1]
}

// wordByte is true of the bytes a name is made of.
func wordByte(c byte) bool {
	return c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// Request is req as a report shows it: its Authorization, Cookie and
// secret-named body fields redacted, and every known secret replaced.
func (x *Redactor) Request(req Request) Request {
	out := req
	out.Header = req.Header.Clone()
	for name, vs := range out.Header {
		switch strings.ToLower(name) {
		case "authorization", "proxy-authorization":
			for i, v := range vs {
				scheme, cred, found := strings.Cut(strings.TrimSpace(v), " ")
				if found && strings.EqualFold(scheme, "bearer") && x.masks[strings.TrimSpace(cred)] != "" {
					vs[i] = scheme + " " + x.masks[strings.TrimSpace(cred)]
				} else {
					vs[i] = redactAuthorization(v)
				}
			}
		case "cookie":
			out.Header[name] = redactCookies(vs, false)
		default:
			for i, v := range vs {
				if x.secret(name) || model.SecretValue(v) { // X-API-Key, X-Auth-Token, a JWT: whatever the value
					vs[i] = model.Redacted
					continue
				}
				vs[i] = x.Text(v)
			}
		}
	}
	out.URL = x.Text(redactURL(req.URL, x.secret))
	out.Body = x.Text(redactBody(req.Header.Get("Content-Type"), req.Body, x.secret))
	return out
}

// secretPathParam reports whether c's path parameter name holds a
// credential: by what its operation declares (model.SecretPathParams:
// its name, or a schema the contract marks format: password or
// writeOnly), by its name alone when the case's operation is not known
// (a report read back).
func (c *Case) secretPathParam(name string) bool {
	if c.op != nil {
		if c.op.model != nil {
			return slices.Contains(c.op.model.SecretPath, name)
		}
		return slices.Contains(model.SecretPathParams(c.op.item, c.op.op), name)
	}
	return model.SecretName(name)
}

// redactPath is u, the URL of a request to c's operation, with the value
// of every secret path parameter redacted by its place in c's template
// (model.RedactPath): /reset-password/{token} shows
// /reset-password/[redacted] in the request line, the curl reproduction,
// the JSON. What is sent is never this: only what is shown.
func (c *Case) redactPath(u string) string {
	if c == nil || !strings.Contains(c.Path, "{") {
		return u
	}
	return redactURLPath(u, c.Path, c.secretPathParam)
}

// redactURLPath is u (a URL, or a path with its query) with its path's
// secret parameters redacted by template (model.RedactPath); the scheme,
// the host, the query and the fragment are kept as they are.
func redactURLPath(u, template string, secret func(string) bool) string {
	head, rest := "", u
	if i := strings.Index(u, "://"); i >= 0 {
		j := strings.IndexByte(u[i+3:], '/')
		if j < 0 {
			return u
		}
		head, rest = u[:i+3+j], u[i+3+j:]
	}
	path, tail := rest, ""
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		path, tail = rest[:i], rest[i:]
	}
	return head + model.RedactPath(template, path, secret) + tail
}

// redactURL is u with the values of its secret query and matrix
// parameters redacted (model.RedactQuery, model.RedactMatrix).
func redactURL(u string, secret func(string) bool) string {
	base, q, ok := strings.Cut(u, "?")
	if strings.Contains(base, ";") {
		base = model.RedactMatrix(base) // /cart;jsessionid=…
	}
	if !ok {
		return base
	}
	frag := ""
	if i := strings.IndexByte(q, '#'); i >= 0 {
		q, frag = q[:i], q[i:]
	}
	return base + "?" + model.RedactQuery(q, secret) + frag
}

// The marks Curl puts where a reproduction reads a variable.
const passMark, tokenMark = "MOVIEMOCKPASSWORDMARK", "MOVIEMOCKTOKENMARK"

// Curl is a shell command that sends req again, its credentials read from
// $MOVIEMOCK_PASSWORD (the --password) and $MOVIEMOCK_TOKEN (a bearer
// token), every other secret redacted.
func (x *Redactor) Curl(req Request) string {
	shown := x.Request(req)
	// The headers: a bearer token becomes $MOVIEMOCK_TOKEN.
	for name, vs := range req.Header {
		if k := http.CanonicalHeaderKey(name); k != "Authorization" && k != "Proxy-Authorization" {
			continue
		}
		for i, v := range vs {
			scheme, cred, found := strings.Cut(strings.TrimSpace(v), " ")
			// A token the redactor knows, or one already hidden (a
			// proxy's kept exchange): the reproduction reads it.
			cred = strings.TrimSpace(cred)
			if found && strings.EqualFold(scheme, "bearer") && (x.tokens[cred] || strings.HasSuffix(cred, "…") || cred == model.Redacted) {
				shown.Header[name][i] = scheme + " " + tokenMark
				x.used[TokenVar] = true
			}
		}
	}
	// Any other credential header (X-Api-Key, a Cookie, an Authorization
	// of another scheme) is read from a variable named after it.
	var marks []string
	for _, name := range slices.Sorted(maps.Keys(shown.Header)) {
		vs := shown.Header[name]
		for i, v := range vs {
			if strings.Contains(v, tokenMark) || !strings.Contains(v, model.Redacted) || !x.credentialHeader(name, req.Header[name]) {
				continue
			}
			k := HeaderVar(name)
			what := "the " + http.CanonicalHeaderKey(name) + " header's value"
			scheme, rest, _ := strings.Cut(v, " ")
			if rest == model.Redacted {
				// Its scheme kept: the variable holds what follows it.
				k = HeaderVar(name + "_" + scheme)
				what = "the credentials of the " + http.CanonicalHeaderKey(name) + " header, after " + scheme
			}
			mark := "MOVIEMOCKVAR" + k + "MARK"
			if rest == model.Redacted {
				vs[i] = scheme + " " + mark
			} else {
				vs[i] = mark
			}
			if _, seen := x.headerVars[k]; !seen {
				x.headerVars[k] = what
			}
			if !slices.Contains(marks, k) {
				marks = append(marks, k)
			}
		}
	}
	var extra []string
	ct := req.Header.Get("Content-Type")
	switch {
	case x.password == "" || req.Body == "":
	case strings.HasPrefix(ct, "application/x-www-form-urlencoded"):
		// The password field is sent with --data-urlencode, the rest as is.
		var kept []string
		for _, p := range strings.Split(req.Body, "&") {
			name, v, _ := strings.Cut(p, "=")
			n, err1 := url.QueryUnescape(name)
			val, err2 := url.QueryUnescape(v)
			if err1 == nil && err2 == nil && val == x.password {
				extra = append(extra, "--data-urlencode", `"`+n+"=$"+PasswordVar+`"`)
				x.used[PasswordVar] = true
				continue
			}
			kept = append(kept, p)
		}
		shown.Body = x.Text(redactBody(ct, strings.Join(kept, "&"), x.secret))
		if len(kept) == 0 {
			shown.Body = ""
		}
	case strings.Contains(ct, "json"):
		if b, err := json.Marshal(x.password); err == nil && strings.Contains(req.Body, string(b)) {
			shown.Body = x.Text(strings.ReplaceAll(req.Body, string(b), `"`+passMark+`"`))
			x.used[PasswordVar] = true
		}
	}
	cmd := Curl(shown)
	if len(extra) > 0 {
		cmd += " " + strings.Join(extra, " ")
	}
	// A mark is inside a quoted word: close it, read the variable, reopen.
	reopen := "'"
	if strings.Contains(cmd, "$'") {
		reopen = "$'"
	}
	cmd = strings.ReplaceAll(cmd, tokenMark, `'"$`+TokenVar+`"`+reopen)
	cmd = strings.ReplaceAll(cmd, passMark, `'"$`+PasswordVar+`"`+reopen)
	for _, k := range marks {
		cmd = strings.ReplaceAll(cmd, "MOVIEMOCKVAR"+k+"MARK", `'"$`+k+`"`+reopen)
	}
	for _, v := range append([]string{TokenVar, PasswordVar}, marks...) { // an empty word left after it
		cmd = strings.ReplaceAll(cmd, `"$`+v+`"`+reopen+"'", `"$`+v+`"`)
	}
	return cmd
}

// credentialHeader reports whether a header of a request, its values vs,
// holds a credential: Authorization, Cookie, one the shared rule names
// (model.SecretName, model.SecretValue), or one the contract marks.
func (x *Redactor) credentialHeader(name string, vs []string) bool {
	if x.secret(name) {
		return true
	}
	for _, v := range vs {
		if model.SecretValue(v) {
			return true
		}
	}
	return false
}

// HeaderVar is the environment variable a reproduction reads a redacted
// header's credential from: MOVIEMOCK_ and the header's name upper case,
// every other character an underscore (X-Api-Key: MOVIEMOCK_X_API_KEY).
func HeaderVar(name string) string {
	b := []byte("MOVIEMOCK_" + strings.ToUpper(name))
	for i := len("MOVIEMOCK_"); i < len(b); i++ {
		if c := b[i]; !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '_'
		}
	}
	return string(b)
}

// Note says how to set the variables the reproductions read; "" when none
// does.
func (x *Redactor) Note() string {
	var vars []string
	if x.used[PasswordVar] {
		vars = append(vars, PasswordVar+" (the --password)")
	}
	if x.used[TokenVar] {
		vars = append(vars, TokenVar+" (the access_token the target issues when you log in)")
	}
	for _, k := range slices.Sorted(maps.Keys(x.headerVars)) {
		vars = append(vars, k+" ("+x.headerVars[k]+")")
	}
	if len(vars) == 0 {
		return "credentials are redacted in this report"
	}
	list := strings.Join(vars, " and ")
	if len(vars) > 2 {
		list = strings.Join(vars[:len(vars)-1], ", ") + " and " + vars[len(vars)-1]
	}
	return "credentials are redacted in this report; the reproductions read them from the environment: export " + list + " before pasting one"
}

// Redactor is the rule the report's writers apply: its Credentials and
// the secrets its results carry.
func (r *Report) Redactor() *Redactor {
	x := NewRedactor(r.Credentials)
	x.fields = r.secretFields
	for _, res := range r.Results {
		x.learn(res)
	}
	return x
}

// redacted is a copy of r as the writers show it: every result's request,
// answer, checks and reproduction, the notes and reasons through the
// report's Redactor.
func (r *Report) redacted() *Report {
	if r.redactedCopy {
		return r
	}
	x := r.Redactor()
	out := *r
	out.redactedCopy = true
	out.BaseURL = x.Text(r.BaseURL)
	out.Stopped = x.Text(r.Stopped)
	out.Untested = slices.Clone(r.Untested)
	for i := range out.Untested {
		out.Untested[i].Why = x.Text(out.Untested[i].Why)
	}
	out.Results = make([]*Result, len(r.Results))
	for i, res := range r.Results {
		cp := *res
		if res.Case != nil {
			c := *res.Case
			c.Name = x.Text(c.Name)
			c.Request.URL = c.redactPath(c.Request.URL)
			cp.curl = x.Curl(c.Request)
			c.Request = x.Request(c.Request)
			cp.Case = &c
		}
		cp.Response.Header = res.Response.Header.Clone()
		for name, vs := range cp.Response.Header {
			if strings.EqualFold(name, "Set-Cookie") {
				cp.Response.Header[name] = redactCookies(vs, true)
				continue
			}
			for j, v := range vs {
				vs[j] = x.Text(v)
			}
		}
		shown := x.Text(res.Response.excerptText())
		cp.Response.shown = &shown
		cp.Response.Body, cp.Response.Excerpt = nil, []byte(shown)
		cp.Response.Error = x.Text(res.Response.Error)
		cp.Response.Skipped = x.Text(res.Response.Skipped)
		cp.Checks = slices.Clone(res.Checks)
		for j := range cp.Checks {
			cp.Checks[j].Expected = x.Text(cp.Checks[j].Expected)
			cp.Checks[j].Got = x.Text(cp.Checks[j].Got)
		}
		out.Results[i] = &cp
	}
	out.Notes = make([]string, 0, len(r.Notes)+1)
	for _, n := range r.Notes {
		out.Notes = append(out.Notes, x.Text(n))
	}
	if r.Credentials.Password != "" || r.Credentials.JWTSecret != "" || r.Credentials.Token != "" || len(x.tokens) > 0 || len(x.headerVars) > 0 {
		out.Notes = append(out.Notes, x.Note())
	}
	return &out
}

// reproduce is the curl command of res, as the report shows it.
func (res *Result) reproduce() string {
	if res.curl != "" {
		return res.curl
	}
	return Curl(res.Case.Request)
}

// maxSecretFieldSchemas bounds the schemas contractSecretFields visits.
const maxSecretFieldSchemas = 20000

// contractSecretFields are the names of the properties sp marks writeOnly
// or format: password, anywhere in its component schemas and its
// operations' request and response bodies.
func contractSecretFields(sp *spec.Spec) map[string]bool {
	out := map[string]bool{}
	if sp == nil || sp.Doc == nil {
		return out
	}
	seen := map[*openapi3.Schema]bool{}
	var walk func(ref *openapi3.SchemaRef, depth int)
	walk = func(ref *openapi3.SchemaRef, depth int) {
		if ref == nil || ref.Value == nil || seen[ref.Value] || len(seen) >= maxSecretFieldSchemas || depth > 64 {
			return
		}
		s := ref.Value
		seen[s] = true
		for name, p := range s.Properties {
			if p != nil && p.Value != nil && (p.Value.WriteOnly || p.Value.Format == "password") {
				out[name] = true
			}
			walk(p, depth+1)
		}
		walk(s.Items, depth+1)
		if s.AdditionalProperties.Schema != nil {
			walk(s.AdditionalProperties.Schema, depth+1)
		}
		for _, list := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
			for _, e := range list {
				walk(e, depth+1)
			}
		}
	}
	if c := sp.Doc.Components; c != nil {
		for _, s := range c.Schemas {
			walk(s, 0)
		}
	}
	if sp.Doc.Paths != nil {
		for _, item := range sp.Doc.Paths.Map() {
			for _, op := range item.Operations() {
				if rb := op.RequestBody; rb != nil && rb.Value != nil {
					for _, mt := range rb.Value.Content {
						walk(mt.Schema, 0)
					}
				}
				if op.Responses != nil {
					for _, r := range op.Responses.Map() {
						if r != nil && r.Value != nil {
							for _, mt := range r.Value.Content {
								walk(mt.Schema, 0)
							}
						}
					}
				}
			}
		}
	}
	return out
}
