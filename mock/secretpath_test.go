package mock_test

import (
	"bytes"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// The request log shows a secret path parameter's value redacted (by
// name, or by its schema: a SecretStr), other paths as requested.
func TestRequestLogRedactsSecretPathParameters(t *testing.T) {
	sp, err := spec.Load([]byte(`{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{
 "/reset-password/{token}":{"post":{"parameters":[{"name":"token","in":"path","required":true,"schema":{"type":"string"}}],"responses":{"200":{"description":"OK"}}}},
 "/codes/{code}":{"get":{"parameters":[{"name":"code","in":"path","required":true,"schema":{"type":"string","format":"password","writeOnly":true}}],"responses":{"200":{"description":"OK"}}}},
 "/users/{user_id}":{"get":{"parameters":[{"name":"user_id","in":"path","required":true,"schema":{"type":"string"}}],"responses":{"200":{"description":"OK"}}}}}}`), "openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	m, err := mock.New(mock.Config{Spec: sp, Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, method, path, shown, secret string }{
		{"by name", "POST", "/reset-password/reset-secret-0123", "/reset-password/[redacted]", "reset-secret-0123"},
		{"by name, a method the path lacks", "GET", "/reset-password/reset-secret-4567", "/reset-password/[redacted]", "reset-secret-4567"},
		{"by schema", "GET", "/codes/code-secret-89", "/codes/[redacted]", "code-secret-89"},
		{"not secret", "GET", "/users/alice", "/users/alice", ""},
		{"outside the contract", "GET", "/nothing/here", "/nothing/here", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logged.Reset()
			m.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(tc.method, tc.path, nil))
			if l := logged.String(); !strings.Contains(l, "path="+tc.shown+" ") || tc.secret != "" && strings.Contains(l, tc.secret) {
				t.Errorf("log %q; want path=%s", l, tc.shown)
			}
		})
	}
}
