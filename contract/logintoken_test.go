package contract_test

import (
	"encoding/json"
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
			backend := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				switch r.URL.Path {
				case "/api/token/":
					if r.FormValue("username") != "u" || r.FormValue("password") != "p" {
						w.Header().Set("WWW-Authenticate", "Bearer")
						w.WriteHeader(http.StatusUnauthorized)
						return
					}
					_, _ = w.Write([]byte(answer))
				case "/me":
					if r.Header.Get("Authorization") != "Bearer "+access {
						w.Header().Set("WWW-Authenticate", "Bearer")
						w.WriteHeader(http.StatusUnauthorized)
						return
					}
					_, _ = w.Write([]byte(`{"name":"u"}`))
				default:
					http.NotFound(w, r)
				}
			})
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
// username, email and password, answering simplejwt's {refresh, access})
// is logged in with JSON, the account named by its username; the access
// token goes where the scheme says.
func TestLoginJSONBesideForm(t *testing.T) {
	t.Parallel()
	const access = "the-access-token"
	const doc = `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{
"/auth/login/":{"post":{"operationId":"login","requestBody":{"required":true,"content":{
  "application/json":{"schema":{"$ref":"#/components/schemas/Login"}},
  "application/x-www-form-urlencoded":{"schema":{"$ref":"#/components/schemas/Login"}}}},
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"object","required":["access","refresh"],
    "properties":{"access":{"type":"string"},"refresh":{"type":"string"}}}}}},"401":{"description":"no"}}}},
"/me":{"get":{"operationId":"me","security":[{"key":[]}],"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{
  "type":"object","required":["name"],"properties":{"name":{"type":"string"}}}}}},"401":{"description":"no"}}}}},
"components":{"schemas":{"Login":{"type":"object","required":["password"],"properties":{
  "username":{"type":"string"},"email":{"type":"string","format":"email"},"password":{"type":"string"}}}},
 "securitySchemes":{"key":{"type":"apiKey","in":"header","name":"X-Token"}}}}`
	sp, err := spec.Load([]byte(doc), "openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	backend := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/auth/login/":
			var body struct{ Username, Password string }
			if json.NewDecoder(r.Body).Decode(&body) != nil || body.Username != "u" || body.Password != "p" {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			_, _ = w.Write([]byte(`{"access":"` + access + `","refresh":"the-refresh-token"}`))
		case "/me":
			if r.Header.Get("X-Token") != access {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			_, _ = w.Write([]byte(`{"name":"u"}`))
		default:
			http.NotFound(w, r)
		}
	})
	report := run(t, backend, contract.Config{Spec: sp, Username: "u", Password: "p"})
	if line := report.SummaryLine(); !strings.Contains(line, "PASSED") || !strings.Contains(line, "2/2 operations tested") {
		t.Errorf("summary %q, want PASSED and 2/2 operations tested; notes %q", line, report.Notes)
	}
}

// An operation opened by the login's token alone (a session cookie) or
// by HTTP basic credentials is tested with the token, and refused
// without it: its cases without credentials carry neither.
func TestTokenBesideBasic(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{
"/auth/login/":{"post":{"operationId":"login","requestBody":{"required":true,"content":{
  "application/json":{"schema":{"$ref":"#/components/schemas/Login"}},
  "application/x-www-form-urlencoded":{"schema":{"$ref":"#/components/schemas/Login"}}}},
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"object","required":["key"],"properties":{"key":{"type":"string"}}}}}},"401":{"description":"no"}}}},
"/me":{"get":{"operationId":"me","security":[{"session":[]},{"basic":[]}],"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{
  "type":"object","required":["name"],"properties":{"name":{"type":"string"}}}}}},"401":{"description":"no"}}}}},
"components":{"schemas":{"Login":{"type":"object","required":["password"],"properties":{
  "username":{"type":"string"},"email":{"type":"string","format":"email"},"password":{"type":"string"}}}},
 "securitySchemes":{"session":{"type":"apiKey","in":"cookie","name":"sessionid"},"basic":{"type":"http","scheme":"basic"}}}}`
	sp, err := spec.Load([]byte(doc), "openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	backend := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/auth/login/":
			var body struct{ Username, Password string }
			if json.NewDecoder(r.Body).Decode(&body) != nil || body.Username != "u" || body.Password != "p" {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			_, _ = w.Write([]byte(`{"key":"s3ss10n"}`))
		case "/me":
			u, p, basic := r.BasicAuth()
			if c, err := r.Cookie("sessionid"); (err != nil || c.Value != "s3ss10n") && !(basic && u == "u" && p == "p") {
				w.Header().Set("WWW-Authenticate", "Basic")
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			_, _ = w.Write([]byte(`{"name":"u"}`))
		default:
			http.NotFound(w, r)
		}
	})
	report := run(t, backend, contract.Config{Spec: sp, Username: "u", Password: "p"})
	if line := report.SummaryLine(); !strings.Contains(line, "PASSED") || !strings.Contains(line, "2/2 operations tested") {
		t.Errorf("summary %q, want PASSED and 2/2 operations tested; failures %q", line, failed(report))
	}
}
