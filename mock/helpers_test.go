package mock_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"sync"
	"testing"

	"github.com/golang-jwt/jwt/v5"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
)

// parseToken verifies token with secret and returns its claims.
func parseToken(t *testing.T, token, secret string) jwt.MapClaims {
	t.Helper()
	claims := jwt.MapClaims{}
	parsed, err := jwt.ParseWithClaims(token, claims, func(*jwt.Token) (any, error) { return []byte(secret), nil },
		jwt.WithValidMethods([]string{"HS256"}), jwt.WithoutClaimsValidation())
	if err != nil || !parsed.Valid {
		t.Fatalf("token %q does not verify: %v", token, err)
	}
	return claims
}

// signed makes a token with the given algorithm, secret and claims.
func signed(t *testing.T, alg, secret string, claims map[string]any) string {
	t.Helper()
	s, err := jwt.NewWithClaims(jwt.GetSigningMethod(alg), jwt.MapClaims(claims)).SignedString([]byte(secret))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// unsignedToken is an "alg": "none" token for sub.
func unsignedToken(sub string) string {
	enc := base64.RawURLEncoding
	header, _ := json.Marshal(map[string]string{"alg": "none", "typ": "JWT"})
	payload, _ := json.Marshal(map[string]any{"sub": sub, "exp": 4102444800})
	return enc.EncodeToString(header) + "." + enc.EncodeToString(payload) + "."
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func newLogger(w *syncBuffer) *slog.Logger { return slog.New(slog.NewTextHandler(w, nil)) }

func generated(t testing.TB, reviews int) *fixtures.Dataset {
	t.Helper()
	m, err := model.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	d, err := fixtures.Generate(m, fixtures.GenerateOptions{Seed: 3, Counts: map[string]int{"persons": 100, "users": 10, "reviews": reviews}})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// compiled is sp's model answered by the profile name.
func compiled(t testing.TB, sp *spec.Spec, name framework.Name) *model.Model {
	t.Helper()
	m, err := model.Compile(sp, model.WithFramework(name))
	if err != nil {
		t.Fatal(err)
	}
	return m
}
