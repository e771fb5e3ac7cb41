package contract

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/golang-jwt/jwt/v5"
)

func schemaOf(t *testing.T, doc string) *openapi3.Schema {
	t.Helper()
	var s openapi3.Schema
	if err := json.Unmarshal([]byte(doc), &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

// An answer field the schema does not declare is flagged when its name
// says it holds a credential, at any depth; declared ones, dicts and
// harmless extras are not.
func TestSecretIn(t *testing.T) {
	t.Parallel()
	user := `{"type":"object","properties":{"id":{"type":"integer"},"username":{"type":"string"},"meta":{"type":"object"}}}`
	tests := []struct {
		name, schema, body, want string
	}{
		{"clean", user, `{"id":1,"username":"a"}`, ""},
		{"hashed_password", user, `{"id":1,"username":"a","hashed_password":"x"}`, "hashed_password"},
		{"in a list", `{"type":"array","items":` + user + `}`, `[{"id":1},{"id":2,"client_secret":"s"}]`, "[1].client_secret"},
		{"harmless extra", user, `{"id":1,"nickname":"a"}`, ""},
		{"a dict declares no names", user, `{"id":1,"meta":{"refresh_token":"x"}}`, ""},
		{"declared token", `{"type":"object","properties":{"access_token":{"type":"string"}}}`, `{"access_token":"x"}`, ""},
		{"anyOf alternative", `{"anyOf":[` + user + `,{"type":"null"}]}`, `{"id":1,"password":"p"}`, "password"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var v any
			if err := json.Unmarshal([]byte(tc.body), &v); err != nil {
				t.Fatal(err)
			}
			budget := 1000
			if got := secretIn(schemaOf(t, tc.schema), v, "", 0, &budget); got != tc.want {
				t.Errorf("secretIn = %q, want %q", got, tc.want)
			}
		})
	}
}

// An application's own refusal of a write is excused only when the body
// explains it: a unique value for a 409/400, a reference for a 404.
func TestExplainedRefusal(t *testing.T) {
	t.Parallel()
	post := &operation{id: "create", method: "POST", op: openapi3.NewOperation()}
	get := &operation{id: "read", method: "GET", op: openapi3.NewOperation()}
	tests := []struct {
		name   string
		op     *operation
		body   string
		status int
		answer string
		want   bool
	}{
		{"taken username", post, `{"username":"a","password":"p"}`, 400, `{"detail":"Username already registered"}`, true},
		{"taken email 409", post, `{"email":"a@b.c"}`, 409, `{"detail":"Email taken"}`, true},
		{"unknown parent", post, `{"movie_id":"tt1","content":"x"}`, 404, `{"detail":"Movie not found"}`, true},
		{"409 with nothing unique", post, `{"title":"x"}`, 409, `{"detail":"Conflict"}`, false},
		{"not FastAPI's shape", post, `{"username":"a"}`, 409, `{"error":"taken"}`, false},
		{"a validation error", post, `{"username":"a"}`, 422, `{"detail":"x"}`, false},
		{"a read", get, `{"username":"a"}`, 409, `{"detail":"x"}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := &Result{Case: &Case{op: tc.op, Request: Request{Body: tc.body}}, Response: Response{Status: tc.status, Body: []byte(tc.answer)}}
			if got := explainedRefusal(res) != ""; got != tc.want {
				t.Errorf("explainedRefusal = %v, want %v", got, tc.want)
			}
		})
	}
}

// The forged tokens keep what the real one says and break one thing each.
func TestTamperedTokens(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_800_000_000, 0)
	claims := jwt.MapClaims{"sub": "alice", "exp": now.Add(time.Hour).Unix(), "iat": now.Unix()}
	real, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte("k"))
	if err != nil {
		t.Fatal(err)
	}
	forged := tamperedTokens("Bearer "+real, now)
	if len(forged) != 2 {
		t.Fatalf("%d forgeries, want 2", len(forged))
	}
	parts := strings.Split(real, ".")
	wrongSig := strings.Split(strings.TrimPrefix(forged[0].header, "Bearer "), ".")
	if wrongSig[0] != parts[0] || wrongSig[1] != parts[1] || wrongSig[2] == parts[2] {
		t.Errorf("wrong signature: %q from %q", forged[0].header, real)
	}
	expired := strings.Split(strings.TrimPrefix(forged[1].header, "Bearer "), ".")
	if expired[0] != parts[0] || expired[2] != parts[2] {
		t.Errorf("expired: %q from %q", forged[1].header, real)
	}
	got := jwt.MapClaims{}
	if _, _, err := jwt.NewParser().ParseUnverified(strings.Join(expired, "."), got); err != nil {
		t.Fatal(err)
	}
	if got["sub"] != "alice" || got["exp"].(float64) >= float64(now.Unix()) {
		t.Errorf("expired claims %v", got)
	}
	for _, auth := range []string{"", "Basic x", "Bearer not-a-jwt"} {
		if f := tamperedTokens(auth, now); len(f) != 0 {
			t.Errorf("tamperedTokens(%q) = %v", auth, f)
		}
	}
}
