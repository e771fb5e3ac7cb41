package mock

import (
	"cmp"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/golang-jwt/jwt/v5"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/openapiprofile"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/scenarios"
)

// tokens issues and checks the mock's access tokens: HS256 JWTs with sub
// (the username), iat and exp, as FastAPI's OAuth2 tutorial code makes them.
type tokens struct {
	secret   []byte
	lifetime time.Duration
	now      func() time.Time
}

func (t tokens) issue(username string) (string, error) {
	now := t.now()
	claims := jwt.RegisteredClaims{
		Subject:   username,
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(t.lifetime)),
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(t.secret)
}

// verify checks a token as FastAPI's tutorial does, with PyJWT 2.x's
// defaults: jwt.decode(token, SECRET_KEY, algorithms=["HS256"]). HS256
// only (no alg none, no algorithm confusion), signed with the secret; exp
// is checked when present but not required, an iat or nbf in the future is
// refused, and so is any aud, since no audience is expected; sub must name
// a user.
func (t tokens) verify(token string) (string, bool) {
	var claims jwt.RegisteredClaims
	_, err := jwt.ParseWithClaims(token, &claims, func(*jwt.Token) (any, error) { return t.secret, nil },
		jwt.WithValidMethods([]string{"HS256"}),
		jwt.WithIssuedAt(),
		jwt.WithTimeFunc(t.now),
	)
	if err != nil || claims.Subject == "" || len(claims.Audience) > 0 {
		return "", false
	}
	return claims.Subject, true
}

// passwordMatches is login's check of a password against the account's,
// in constant time. An account without a password (a fixture's "password":
// null, as a recording writes every user) matches none, the empty one
// included: it gets the 401 of a wrong password.
func passwordMatches(u *fixtures.Record, password string) bool {
	return u.Secret != "" && subtle.ConstantTimeCompare([]byte(u.Secret), []byte(password)) == 1
}

// authenticate is FastAPI's OAuth2PasswordBearer dependency followed by the
// usual get_current_user: no header or another scheme is "Not
// authenticated"; a token that fails verification, or names a user who does
// not exist, is "Could not validate credentials".
func (s *Server) authenticate(r *http.Request, st *state) (*fixtures.Record, string, bool) {
	authorization := r.Header.Get("Authorization")
	scheme, param, _ := strings.Cut(authorization, " ")
	if authorization == "" || !(strings.EqualFold(scheme, "bearer") || (strings.EqualFold(scheme, "token") && s.model.Framework != framework.FastAPI)) {
		return nil, fastapi.DetailNotAuthenticated, false
	}
	// FastAPI 0.128.1 and later strip the token (str.strip() of the
	// latin-1 header value).
	param = strings.Trim(param, fastapi.Latin1Space)
	username, ok := s.tokens.verify(param)
	if !ok {
		return nil, fastapi.DetailBadCredentials, false
	}
	st.mu.RLock()
	user, ok := view{base: st.base, ov: st.ov}.holder(username)
	st.mu.RUnlock()
	if !ok {
		if user = s.accounts[username]; user == nil {
			return nil, fastapi.DetailBadCredentials, false
		}
	}
	return user, "", true
}

// tokenUser is the user a token of the mock's in the Authorization header
// names, with a scheme (Bearer, Token) or bare, as an API key in that
// header carries it; nil when it names none. Outside FastAPI documents an
// operation that does not demand a token still serves the user who sends
// one their own flags (flags.go) and fills them in as author.
func (s *Server) tokenUser(r *http.Request, st *state) *fixtures.Record {
	if user, _, ok := s.authenticate(r, st); ok {
		return user
	}
	name, mine, ok := s.tokens.mine(strings.Trim(r.Header.Get("Authorization"), fastapi.Latin1Space))
	if !mine || !ok {
		return nil
	}
	st.mu.RLock()
	user, found := view{base: st.base, ov: st.ov}.holder(name)
	st.mu.RUnlock()
	if !found {
		return s.accounts[name]
	}
	return user
}

// authorize is the security dependency in front of the scenario engine's
// scripted answers (scenarios.Options.Authorize): a request to an operation
// that demands a token gets the 401 it would get from the operation itself.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request, method, template string) bool {
	o := s.secured[[2]string{method, template}]
	if o == nil {
		return true
	}
	st := s.store.state(r.Header.Get(scenarios.HeaderSession))
	if o.security != nil {
		_, ok := s.checkSecurity(w, r, st, o)
		return ok
	}
	if _, detail, ok := s.authenticate(r, st); !ok {
		s.writeUnauthorized(w, o, detail)
		return false
	}
	return true
}

// Neutral words of the plain-OpenAPI profile's 401s.
const (
	detailNoCredentials  = "authentication required"
	detailBadCredentials = "invalid or expired credentials"
)

// writeUnauthorized answers a request o refuses for its credentials (o
// nil: a scripted answer's operation): FastAPI's detail, or under the
// plain-OpenAPI profile the declared shape, challenged for the schemes o
// declares.
func (s *Server) writeUnauthorized(w http.ResponseWriter, o *operation, detail string) {
	challenge := "Bearer"
	if o != nil && o.security != nil {
		// the schemes the operation declares, not FastAPI's token alone
		challenge = o.security.Challenge()
	}
	if challenge != "" {
		w.Header().Set("WWW-Authenticate", challenge)
	}
	if s.oa != nil {
		words := detailBadCredentials
		if detail == fastapi.DetailNotAuthenticated {
			words = detailNoCredentials
		}
		s.refuse(w, o, http.StatusUnauthorized, problem(words))
		return
	}
	fastapi.WriteDetail(w, http.StatusUnauthorized, detail)
}

// Account is a username and password login accepts.
type Account struct {
	Username, Password string
	// Fields set fields of the account's record in the login collection
	// (is_superuser=true), each value read by its field's schema type.
	Fields []AccountField
}

// AccountField is one field an Account sets: its name in the login
// collection's schema and its value as written (true, 7, Ada, ["a"]).
type AccountField struct{ Name, Value string }

// DefaultAccount is the account login accepts when the contract has no
// login collection and Config.Accounts is nil: the johndoe of FastAPI's
// security tutorials, password "secret". It is public: a mock that
// listens beyond loopback should be given its own with Accounts.
var DefaultAccount = Account{Username: "johndoe", Password: "secret"}

// maxAccounts bounds Config.Accounts.
const maxAccounts = 1000

// openAccounts makes the records of accounts (Config.Accounts). Under a
// login collection each is a record of it, so that the current user and
// the records a token's user owns are answered as for a user of the data:
// its username set, its id past the data's integer ids (else generated),
// the rest generated for the schema. A user of the data with the same
// username stays who the token names; the account's password also logs
// it in.
func (s *Server) openAccounts(accounts []Account) error {
	c := s.model.Login
	if accounts == nil && c == nil {
		accounts = []Account{DefaultAccount}
	}
	if len(accounts) > maxAccounts {
		return fmt.Errorf("%d accounts: at most %d", len(accounts), maxAccounts)
	}
	s.accounts = make(map[string]*fixtures.Record, len(accounts))
	var nextID int64
	if c != nil && c.IDKind == model.IntID {
		for _, r := range s.cfg.Data.Table(c).Recs {
			if n, err := strconv.ParseInt(r.Key(c), 10, 64); err == nil && n > nextID {
				nextID = n
			}
		}
	}
	now := fastapi.AppendString(nil, s.model.Framework.FormatDateTime(s.cfg.Now()))
	for _, a := range accounts {
		if a.Username == "" {
			return errors.New("an account with an empty username")
		}
		if c == nil {
			if len(a.Fields) > 0 {
				return fmt.Errorf("account %s: fields %s: the contract has no schema of users to set them on", a.Username, a.Fields[0].Name)
			}
			s.accounts[a.Username] = &fixtures.Record{Secret: a.Password}
			continue
		}
		if _, inData := s.cfg.Data.Table(c).ByUsername(a.Username); inData && len(a.Fields) > 0 {
			return fmt.Errorf("account %s: a user of the data (%s) has that %s, and login answers its record: set field %s in the data instead", a.Username, c.File, c.UserKey.Name, a.Fields[0].Name)
		}
		vals := make([][]byte, len(c.Fields))
		for _, f := range c.Fields {
			switch {
			case f == c.UserKey:
				vals[f.Index] = fastapi.AppendString(nil, a.Username)
			case f == c.ID && c.IDKind == model.IntID:
				nextID++
				vals[f.Index] = strconv.AppendInt(nil, nextID, 10)
			case f.Embed != nil, f.Default != nil:
				// joined, or the default
			case f.Stamp != "":
				vals[f.Index] = now
			default:
				vals[f.Index] = s.fakeValue(f)
			}
		}
		for _, af := range a.Fields {
			f := c.Field(af.Name)
			if f == nil || f == c.UserKey || f.Embed != nil {
				return fmt.Errorf("account %s: %s is no field of %s an account can set (its fields: %s)", a.Username, af.Name, c.Name, settable(c))
			}
			v, err := s.accountValue(c, f, af.Value)
			if err != nil {
				return fmt.Errorf("account %s: field %s: %w", a.Username, af.Name, err)
			}
			vals[f.Index] = v
		}
		rec := fixtures.Build(c, vals, nil, a.Password, nil)
		s.accounts[a.Username] = &rec
	}
	return nil
}

// settable lists the fields of the login collection c an Account sets:
// all but its user key (the account's name) and joined records.
func settable(c *model.Collection) string {
	var names []string
	for _, f := range c.Fields {
		if f != c.UserKey && f.Embed == nil {
			names = append(names, f.Name)
		}
	}
	return strings.Join(names, ", ")
}

// accountValue is text, an AccountField's value, as the record of c holds
// field f: read by the field's schema type (a boolean, a number, a string
// as it stands, JSON for an array or object; null where the field may be
// null), and held to the field's schema.
func (s *Server) accountValue(c *model.Collection, f *model.Field, text string) ([]byte, error) {
	var raw []byte
	switch {
	case text == "null" && f.Nullable:
		raw = []byte("null")
	case f.Type == "boolean":
		b, err := strconv.ParseBool(text)
		if err != nil {
			return nil, fmt.Errorf("%q is not a boolean (true or false)", text)
		}
		raw = strconv.AppendBool(nil, b)
	case f.Type == "integer":
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", text)
		}
		raw = strconv.AppendInt(nil, n, 10)
	case f.Type == "number":
		x, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, fmt.Errorf("%q is not a number", text)
		}
		raw = strconv.AppendFloat(nil, x, 'g', -1, 64)
	case f.Type == "string":
		raw = fastapi.AppendString(nil, text)
	default:
		if !json.Valid([]byte(text)) {
			return nil, fmt.Errorf("%q is not JSON, as a value of type %s is written", text, cmp.Or(f.Type, "any"))
		}
		raw = []byte(text)
	}
	out, err := fixtures.CanonFor(c, s.spec, nil, f.Ref, raw)
	if err != nil {
		return nil, fmt.Errorf("%q: %w", text, err)
	}
	var x any
	if err := json.Unmarshal(out, &x); err != nil {
		return nil, fmt.Errorf("%q: %w", text, err)
	}
	if err := s.spec.Validate(f.Ref.Value, x, false); err != nil {
		var why []string
		for _, v := range spec.Violations(err) {
			why = append(why, v.String())
		}
		return nil, fmt.Errorf("the value does not fit its schema: %s", strings.Join(why, "; "))
	}
	return out, nil
}

// loginRefusal is the status of a login with wrong credentials: the 401
// the operation declares, else its 403 (a JSON login's "invalid username
// or password"), else its 400 (FastAPI's first OAuth2 tutorial, raising
// HTTPException(400, "Incorrect username or password")), else the 401
// with WWW-Authenticate: Bearer of the JWT tutorial.
func loginRefusal(o *model.Operation) int {
	if r := o.Op.Responses; r != nil && r.Value("401") == nil {
		switch {
		case r.Value("403") != nil:
			return http.StatusForbidden
		case r.Value("400") != nil:
			return http.StatusBadRequest
		}
	}
	return http.StatusUnauthorized
}

// tokenMember is one member of a login's answer: value nil for the token.
type tokenMember struct {
	name  string
	value []byte
}

// tokenMembers is the answer of login o when its declared schema is an
// object with more than access_token and token_type (an expiry, a refresh
// token), or names its token otherwise (Django REST framework's {key} and
// {access, refresh, user}): every property in the document's order, the
// token member the token (the one model.TokenMember names: access_token,
// access, token, key, jwt, …, never a refresh token before an access
// token), token_type "bearer" where the schema takes it, the rest
// generated once. Nil when the schema has no more than access_token and
// token_type, or no member for the token.
func (s *Server) tokenMembers(o *model.Operation) []tokenMember {
	ref := o.Response
	if ref == nil || ref.Value == nil {
		return nil
	}
	props := ref.Value.Properties
	order := s.spec.PropertyOrder(ref)
	token := "access_token"
	if props[token] == nil {
		token = model.TokenMember(order, func(name string) bool {
			return props[name] != nil && props[name].Value != nil && s.spec.Validate(props[name].Value, "t", false) == nil
		})
	}
	if token == "" {
		return nil
	}
	if token == "access_token" && (len(props) == 1 || len(props) == 2 && props["token_type"] != nil) {
		return nil
	}
	f := gofakeit.NewFaker(rand.NewPCG(s.cfg.Seed, uint64(len(props))), false)
	var out []tokenMember
	for _, name := range order {
		m := tokenMember{name: name}
		switch {
		case name == token:
		case name == "token_type" && props[name].Value != nil && s.spec.Validate(props[name].Value, "bearer", false) == nil:
			m.value = []byte(`"bearer"`)
		default:
			m.value = s.fake.Append(nil, f, name, props[name])
		}
		out = append(out, m)
	}
	return out
}

// isJWT reports whether token is a JWT in its compact form: three
// base64url parts, the first a JSON header naming an alg.
func isJWT(token string) bool {
	head, _, ok := strings.Cut(token, ".")
	if !ok || strings.Count(token, ".") != 2 {
		return false
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(head, "="))
	var header struct {
		Alg string `json:"alg"`
	}
	return err == nil && json.Unmarshal(raw, &header) == nil && header.Alg != ""
}

// mine reports whether token looks like one this mock issues (an HS256
// JWT with sub and exp and no issuer): such a token is verified, every
// other one accepted as the backend's business. For one of the mock's own
// it also says whose it is, false when it fails verification (expired,
// tampered).
func (t tokens) mine(token string) (username string, mine, ok bool) {
	if strings.Count(token, ".") != 2 {
		// Not a JWT (an API key, say): jwt/v5's ParseUnverified refuses
		// any token not of three segments, after allocating its parser
		// and error.
		return "", false, false
	}
	var claims jwt.RegisteredClaims
	parsed, _, err := jwt.NewParser().ParseUnverified(token, &claims)
	if err != nil || parsed.Method == nil || parsed.Method.Alg() != "HS256" || claims.Issuer != "" || claims.Subject == "" || claims.ExpiresAt == nil {
		return "", false, false
	}
	username, ok = t.verify(token)
	return username, true, ok
}

// checkSecurity holds r to every security scheme o declares, as the
// plain-OpenAPI profile does (openapiprofile.Security.Check): the user a
// token of the mock's names, and true when r may pass; else it has
// answered 401 in o's declared shape. A credential the mock did not issue
// names no one: an operation on the current user (reading, updating or
// deleting it) acts on the first user there is.
func (s *Server) checkSecurity(w http.ResponseWriter, r *http.Request, st *state, o *operation) (*fixtures.Record, bool) {
	var user *fixtures.Record
	out := o.security.Check(r, func(sc openapiprofile.Scheme, token string) bool {
		name, mine, ok := s.tokens.mine(token)
		if !mine {
			// Where the document's own login hands out the mock's JWTs,
			// a bearer token that is no JWT at all is refused, as the
			// backend that issues JWTs refuses what it cannot decode; a
			// JWT it did not issue (another issuer's) is the backend's
			// business, and so is any API key.
			return !(s.issuesJWTs && sc.Bearer() && !isJWT(token))
		}
		if !ok {
			return false
		}
		st.mu.RLock()
		u, found := view{base: st.base, ov: st.ov}.holder(name)
		st.mu.RUnlock()
		if !found {
			if u = s.accounts[name]; u == nil {
				return false
			}
		}
		user = u
		return true
	})
	if !out.OK {
		if out.Challenge != "" {
			w.Header().Set("WWW-Authenticate", out.Challenge)
		}
		detail := detailNoCredentials
		if out.Refused {
			detail = detailBadCredentials
		}
		s.refuse(w, o, http.StatusUnauthorized, problem(detail))
		return nil, false
	}
	if user == nil && o.m.Kind.Me() {
		// The current user's own operations (read, update, delete, a
		// password change) act on the user it stands for.
		user = s.someUser(st)
	}
	return user, true
}

// someUser is who a credential the mock did not issue stands for: the
// first user of the login collection, else the first account by name;
// nil when there is none.
func (s *Server) someUser(st *state) *fixtures.Record {
	if c := s.model.Login; c != nil {
		var first *fixtures.Record
		st.mu.RLock()
		view{base: st.base, ov: st.ov}.each(c, func(r *fixtures.Record) bool {
			first = r
			return false
		})
		st.mu.RUnlock()
		if first != nil {
			return first
		}
	}
	names := make([]string, 0, len(s.accounts))
	for name := range s.accounts {
		names = append(names, name)
	}
	slices.Sort(names)
	if len(names) == 0 || s.accounts[names[0]].JSON == nil {
		return nil
	}
	return s.accounts[names[0]]
}
