package scenarios

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/spec"
)

// secretPathDoc declares credentials in path parameters, as FastAPI apps
// do: by name (token, api_key) or by schema (a SecretStr: format
// password, writeOnly).
const secretPathDoc = `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{
 "/reset-password/{token}":{"get":{"parameters":[{"name":"token","in":"path","required":true,"schema":{"type":"string"}}],"responses":{"200":{"description":"OK"}}}},
 "/users/{user_id}/api-keys/{api_key}":{"delete":{"parameters":[{"name":"user_id","in":"path","required":true,"schema":{"type":"integer"}},{"name":"api_key","in":"path","required":true,"schema":{"type":"string"}}],"responses":{"204":{"description":"gone"}}}},
 "/codes/{code}":{"get":{"parameters":[{"name":"code","in":"path","required":true,"schema":{"type":"string","format":"password","writeOnly":true}}],"responses":{"200":{"description":"OK"}}}},
 "/users/{user_id}":{"get":{"parameters":[{"name":"user_id","in":"path","required":true,"schema":{"type":"string"}}],"responses":{"200":{"description":"OK"}}}}}}`

// A secret path parameter's value is journaled redacted, found by its
// place in the template of the path the request fell under; other
// parameters, and paths outside the contract, are kept as sent.
func TestJournalRedactsSecretPathParameters(t *testing.T) {
	sp, err := spec.Load([]byte(secretPathDoc), "openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	set, err := Load(sp, &fixtures.Dataset{})
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(set, Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := e.Handler(answerOK)
	for _, tc := range []struct {
		name, method, target, path, template, secret string
	}{
		{"by name", "GET", "/reset-password/eyJhbGciOi.xyz", "/reset-password/[redacted]", "/reset-password/{token}", "eyJhbGciOi"},
		{"an id kept, the key redacted", "DELETE", "/users/7/api-keys/k9Q2zk9Q2z", "/users/7/api-keys/[redacted]", "/users/{user_id}/api-keys/{api_key}", "k9Q2z"},
		{"by schema", "GET", "/codes/hunter22", "/codes/[redacted]", "/codes/{code}", "hunter22"},
		{"not secret", "GET", "/users/alice", "/users/alice", "/users/{user_id}", ""},
		{"outside the contract", "GET", "/reset-password/a/b", "/reset-password/a/b", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(tc.method, tc.target, nil))
			got := e.Journal(Filter{Limit: 1})
			if len(got) != 1 {
				t.Fatalf("%d entries", len(got))
			}
			if en := got[0]; en.Path != tc.path || en.Template != tc.template || tc.secret != "" && strings.Contains(en.Path, tc.secret) {
				t.Errorf("journaled path %q, template %q; want %q, %q", en.Path, en.Template, tc.path, tc.template)
			}
		})
	}
}
