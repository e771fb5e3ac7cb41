package mock

import (
	"crypto/subtle"
	"net/http"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/fastapi"
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
	if authorization == "" || !strings.EqualFold(scheme, "bearer") {
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
	user, ok := view{base: st.base, ov: st.ov}.user(username)
	st.mu.RUnlock()
	if !ok {
		return nil, fastapi.DetailBadCredentials, false
	}
	return user, "", true
}

// authorize is the security dependency in front of the scenario engine's
// scripted answers (scenarios.Options.Authorize): a request to an operation
// that demands a token gets the 401 it would get from the operation itself.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request, method, template string) bool {
	if !s.secured[[2]string{method, template}] {
		return true
	}
	st := s.store.state(r.Header.Get(scenarios.HeaderSession))
	if _, detail, ok := s.authenticate(r, st); !ok {
		writeUnauthorized(w, detail)
		return false
	}
	return true
}

func writeUnauthorized(w http.ResponseWriter, detail string) {
	w.Header().Set("WWW-Authenticate", "Bearer")
	fastapi.WriteDetail(w, http.StatusUnauthorized, detail)
}
