package contract_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/spec"
)

// A login's answer names its token as its framework does (simplejwt's
// {refresh, access}, dj-rest-auth's {key}, {"data": {"accessToken"}}):
// the run logs in, finds the access token by its name, and sends it
// where the scheme says to the secured operation, which the backend
// here answers only with that token.
func TestLoginTokenMembers(t *testing.T) {
	t.Parallel()
	const access = "the-access-token"
	const doc = `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{
"/api/token/":{"post":{"operationId":"login","requestBody":{"required":true,"content":{"application/x-www-form-urlencoded":{"schema":{
  "type":"object","required":["username","password"],"properties":{"username":{"type":"string"},"password":{"type":"string"}}}}}},
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"object"}}}},"401":{"description":"no"}}}},
"/me":{"get":{"operationId":"me","security":[{"oauth":[]}],"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{
  "type":"object","required":["name"],"properties":{"name":{"type":"string"}}}}}},"401":{"description":"no"}}}}},
"components":{"securitySchemes":{"oauth":{"type":"oauth2","flows":{"password":{"tokenUrl":"/api/token/","scopes":{}}}}}}}`
	sp, err := spec.Load([]byte(doc), "openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, answer := range []string{
		`{"refresh":"the-refresh-token","access":"` + access + `"}`,
		`{"key":"` + access + `"}`,
		`{"refresh_token":"the-refresh-token","data":{"accessToken":"` + access + `"}}`,
	} {
		t.Run(answer, func(t *testing.T) {
			t.Parallel()
			backend := tokenBackend("/api/token/", func(r *http.Request) bool { return r.FormValue("username") == "u" && r.FormValue("password") == "p" },
				answer, func(r *http.Request) bool { return r.Header.Get("Authorization") == "Bearer "+access }, "Bearer")
			report := run(t, backend, contract.Config{Spec: sp, Username: "u", Password: "p"})
			if line := report.SummaryLine(); !strings.Contains(line, "2/2 operations tested") {
				t.Errorf("summary %q, want 2/2 operations tested; notes %q", line, report.Notes)
			}
			for _, res := range report.Results {
				if res.Case.Path == "/me" && res.Case.Kind == contract.Positive && res.Response.Status != http.StatusOK {
					t.Errorf("GET /me %q: %d, want 200 with the access token", res.Case.Name, res.Response.Status)
				}
			}
		})
	}
}

// A login taking JSON beside its form (Django REST framework's Login of
// username, email and password) is logged in with JSON, the account
// named by its username; the token its answer names (simplejwt's access,
// dj-rest-auth's key) goes where the scheme says. An operation that key
// opens alone beside HTTP basic is tested with the key and refused
// without it: its cases without credentials carry neither.
func TestLoginJSONBesideForm(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{
"/auth/login/":{"post":{"operationId":"login","requestBody":{"required":true,"content":{
  "application/json":{"schema":{"$ref":"#/components/schemas/Login"}},
  "application/x-www-form-urlencoded":{"schema":{"$ref":"#/components/schemas/Login"}}}},
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":%s}}},"401":{"description":"no"}}}},
"/me":{"get":{"operationId":"me","security":%s,"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{
  "type":"object","required":["name"],"properties":{"name":{"type":"string"}}}}}},"401":{"description":"no"}}}}},
"components":{"schemas":{"Login":{"type":"object","required":["password"],"properties":{
  "username":{"type":"string"},"email":{"type":"string","format":"email"},"password":{"type":"string"}}}},
 "securitySchemes":{"key":{"type":"apiKey","in":"header","name":"X-Token"},
  "session":{"type":"apiKey","in":"cookie","name":"sessionid"},"basic":{"type":"http","scheme":"basic"}}}}`
	const token = "the-access-token"
	for _, tc := range []struct {
		name, schema, security, answer, challenge string
		opens                                     func(r *http.Request) bool
	}{
		{"simplejwt's pair, an API key header", `{"type":"object","required":["access","refresh"],"properties":{"access":{"type":"string"},"refresh":{"type":"string"}}}`,
			`[{"key":[]}]`, `{"access":"` + token + `","refresh":"the-refresh-token"}`, "",
			func(r *http.Request) bool { return r.Header.Get("X-Token") == token }},
		{"dj-rest-auth's key, a session cookie beside basic", `{"type":"object","required":["key"],"properties":{"key":{"type":"string"}}}`,
			`[{"session":[]},{"basic":[]}]`, `{"key":"` + token + `"}`, "Basic",
			func(r *http.Request) bool {
				u, p, basic := r.BasicAuth()
				c, err := r.Cookie("sessionid")
				return err == nil && c.Value == token || basic && u == "u" && p == "p"
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sp, err := spec.Load([]byte(fmt.Sprintf(doc, tc.schema, tc.security)), "openapi.json")
			if err != nil {
				t.Fatal(err)
			}
			backend := tokenBackend("/auth/login/", func(r *http.Request) bool {
				var body struct{ Username, Password string }
				return json.NewDecoder(r.Body).Decode(&body) == nil && body.Username == "u" && body.Password == "p"
			}, tc.answer, tc.opens, tc.challenge)
			report := run(t, backend, contract.Config{Spec: sp, Username: "u", Password: "p"})
			if line := report.SummaryLine(); !strings.Contains(line, "PASSED") || !strings.Contains(line, "2/2 operations tested") {
				t.Errorf("summary %q, want PASSED and 2/2 operations tested; failures %q, notes %q", line, failed(report), report.Notes)
			}
		})
	}
}

// tokenBackend answers a login at path login with answer when ok accepts
// its credentials, and GET /me {"name":"u"} when opens accepts the
// request's; each refusal is a 401, challenging with challenge ("": no
// WWW-Authenticate).
func tokenBackend(login string, ok func(*http.Request) bool, answer string, opens func(*http.Request) bool, challenge string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		var body string
		switch {
		case r.URL.Path == login && ok(r):
			body = answer
		case r.URL.Path == "/me" && opens(r):
			body = `{"name":"u"}`
		case r.URL.Path == login || r.URL.Path == "/me":
			if challenge != "" {
				w.Header().Set("WWW-Authenticate", challenge)
			}
			w.WriteHeader(http.StatusUnauthorized)
			return
		default:
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte(body))
	})
}
