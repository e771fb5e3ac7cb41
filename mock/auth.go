package mock

import (
	"net/http"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/moviemock/moviemock/internal/fastapi"
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

// verify checks a token this mock issued: HS256 only (no alg none, no
// algorithm confusion), signed with the secret, exp present and not passed.
func (t tokens) verify(token string) (string, bool) {
	var claims jwt.RegisteredClaims
	_, err := jwt.ParseWithClaims(token, &claims, func(*jwt.Token) (any, error) { return t.secret, nil },
		jwt.WithValidMethods([]string{"HS256"}),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(t.now),
	)
	if err != nil || claims.Subject == "" {
		return "", false
	}
	return claims.Subject, true
}

// authenticate is FastAPI's OAuth2PasswordBearer dependency followed by the
// usual get_current_user: no header or another scheme is "Not
// authenticated"; a token that fails verification, or names a user who does
// not exist, is "Could not validate credentials".
func (s *Server) authenticate(r *http.Request) (string, bool) {
	authorization := r.Header.Get("Authorization")
	scheme, param, _ := strings.Cut(authorization, " ")
	if authorization == "" || !strings.EqualFold(scheme, "bearer") {
		return fastapi.DetailNotAuthenticated, false
	}
	username, ok := s.tokens.verify(param)
	if !ok {
		return fastapi.DetailBadCredentials, false
	}
	if _, ok := s.data().UserByName(username); !ok {
		return fastapi.DetailBadCredentials, false
	}
	return "", true
}

func writeUnauthorized(w http.ResponseWriter, detail string) {
	w.Header().Set("WWW-Authenticate", "Bearer")
	fastapi.WriteDetail(w, http.StatusUnauthorized, detail)
}
