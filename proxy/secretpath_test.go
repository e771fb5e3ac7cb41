package proxy_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
	"github.com/moviemock/moviemock/proxy"
)

// secretPathDoc declares credentials in path parameters, by name and by
// schema (a SecretStr: format password, writeOnly); each answers
// {"ok": true}.
const secretPathDoc = `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{
 "/reset-password/{token}":{"get":{"operationId":"reset","parameters":[{"name":"token","in":"path","required":true,"schema":{"type":"string"}}],"responses":{"200":{"description":"OK","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Ok"}}}}}}},
 "/codes/{code}":{"get":{"operationId":"code","parameters":[{"name":"code","in":"path","required":true,"schema":{"type":"string","format":"password","writeOnly":true}}],"responses":{"200":{"description":"OK","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Ok"}}}}}}}},
 "components":{"schemas":{"Ok":{"type":"object","required":["ok"],"properties":{"ok":{"type":"boolean"}}}}}}`

// A request whose path holds a credential is forwarded as sent, and the
// proxy's log, its journal and its violations show the value redacted.
func TestSecretPathParametersRedacted(t *testing.T) {
	sp, err := spec.Load([]byte(secretPathDoc), "openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	got := map[string]bool{}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got[r.URL.Path] = true
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"nope":1}`)) // a violation: ok is required
	}))
	t.Cleanup(up.Close)
	obs, err := contract.NewObserver(contract.Config{BaseURL: up.URL, Spec: sp})
	if err != nil {
		t.Fatal(err)
	}
	var log lockedBuffer
	p, err := proxy.New(proxy.Config{Upstream: up.URL, Observer: obs, Logger: slog.New(slog.NewTextHandler(&log, nil))}, mock.Config{Spec: sp})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	for _, tc := range []struct{ name, path, secret, shown string }{
		{"by name", "/reset-password/reset-secret-0123", "reset-secret-0123", "/reset-password/[redacted]"},
		{"by schema", "/codes/code-secret-4567", "code-secret-4567", "/codes/[redacted]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if r := do(t, "GET", srv.URL+tc.path, nil, ""); r.status != 200 {
				t.Fatalf("%d %s", r.status, r.body)
			}
			mu.Lock()
			forwarded := got[tc.path]
			mu.Unlock()
			if !forwarded {
				t.Errorf("the upstream did not get %s as sent", tc.path)
			}
			if l := log.String(); strings.Contains(l, tc.secret) || !strings.Contains(l, "path="+tc.shown) {
				t.Errorf("the log shows the secret, or not path=%s:\n%s", tc.shown, l)
			}
			var shown strings.Builder
			for _, e := range journal(t, p) {
				shown.WriteString(e.Path + "\n")
			}
			if strings.Contains(shown.String(), tc.secret) || !strings.Contains(shown.String(), tc.shown) {
				t.Errorf("journal paths:\n%s", shown.String())
			}
			b, _ := json.Marshal(p.Violations())
			if strings.Contains(string(b), tc.secret) || !strings.Contains(string(b), tc.shown) {
				t.Errorf("violations: %s", b)
			}
		})
	}
}
