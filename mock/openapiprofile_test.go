package mock_test

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// openapiServer serves testdata/openapi/name, a hand-written document the
// plain-OpenAPI profile answers.
func openapiServer(t *testing.T, name string, cfg mock.Config) (*mock.Server, *spec.Spec) {
	t.Helper()
	sp := openapiDoc(t, name)
	cfg.Spec = sp
	srv := newServer(t, cfg)
	if got := srv.Model().Framework; got != framework.OpenAPI {
		t.Fatalf("%s is answered as %s", name, got)
	}
	return srv, sp
}

// openapiDoc loads testdata/openapi/name.
func openapiDoc(t *testing.T, name string) *spec.Spec {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "openapi", name))
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(raw, name)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// bearer is a token the mock issued for its default account.
func bearer(t *testing.T) http.Header {
	return http.Header{"Authorization": {"Bearer " + signed(t, "HS256", mock.DefaultJWTSecret,
		map[string]any{"sub": mock.DefaultAccount.Username, "exp": now.Unix() + 600})}}
}

type refusal struct {
	name   string
	req    request
	status int
	media  string
	want   map[string]any // the body's members compared
}

func checkRefusals(t *testing.T, srv http.Handler, sp *spec.Spec, cases []refusal) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := serve(srv, tc.req)
			if rec.Code != tc.status || rec.Header().Get("Content-Type") != tc.media {
				t.Fatalf("%d %s %s, want %d %s", rec.Code, rec.Header().Get("Content-Type"), rec.Body, tc.status, tc.media)
			}
			var got map[string]any
			if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
				t.Fatalf("%s: %v", rec.Body, err)
			}
			for k, v := range tc.want {
				if !reflect.DeepEqual(got[k], v) {
					t.Errorf("%s: %s = %#v, want %#v", rec.Body, k, got[k], v)
				}
			}
			req := tc.req.build()
			if route := sp.Doc.Paths.Find(req.URL.Path); route != nil && route.GetOperation(req.Method) != nil {
				if declared, err := contract.BodyConforms(sp, route.GetOperation(req.Method), rec.Code, rec.Header().Get("Content-Type"), rec.Body.Bytes()); declared && err != nil {
					t.Errorf("the runner refuses the answer: %v", err)
				}
			}
		})
	}
}

// A Spotify-like document declares {"error": {"status", "message"}} for
// its refusals: the mock's refusals take that shape and say why, also
// those of a status an operation does not declare (its 400 for a bad
// query parameter, a 415, an unknown path).
func TestOpenAPIRefusalsSpotifyShape(t *testing.T) {
	t.Parallel()
	srv, sp := openapiServer(t, "spotify.yaml", mock.Config{Seed: 1})
	jsonCT := http.Header{"Content-Type": {"application/json"}}
	withToken := func(h http.Header) http.Header {
		out := bearer(t)
		for k, v := range h {
			out[k] = v
		}
		return out
	}
	errorOf := func(status float64, message string) map[string]any {
		return map[string]any{"error": map[string]any{"status": status, "message": message}}
	}
	checkRefusals(t, srv, sp, []refusal{
		{"body member missing", request{method: "POST", target: "/playlists/p1/tracks", header: withToken(jsonCT), body: `{}`},
			400, "application/json", errorOf(400, "uris is required")},
		{"body member of the wrong type", request{method: "POST", target: "/playlists/p1/tracks", header: withToken(jsonCT), body: `{"uris":"x","position":"first"}`},
			400, "application/json", errorOf(400, "uris: expected array; position: expected integer")},
		{"body not JSON", request{method: "POST", target: "/playlists/p1/tracks", header: withToken(jsonCT), body: `{"uris":`},
			400, "application/json", errorOf(400, "request body is not valid JSON")},
		{"body of another media type", request{method: "POST", target: "/playlists/p1/tracks", header: withToken(http.Header{"Content-Type": {"text/plain"}}), body: `uris`},
			415, "application/json", errorOf(415, "request body: media type text/plain is not supported: send application/json")},
		{"query parameter", request{method: "GET", target: "/albums/a1?market=usa", header: bearer(t)},
			400, "application/json", errorOf(400, "query parameter market: must match pattern ^[A-Z]{2}$")},
		{"no credentials", request{method: "GET", target: "/albums/a1"},
			401, "application/json", errorOf(401, "authentication required")},
		{"unknown album", request{method: "GET", target: "/albums/nope", header: bearer(t)},
			404, "application/json", errorOf(404, "Album not found")},
		{"unknown path", request{method: "GET", target: "/nothing/here"},
			404, "application/json", errorOf(404, "no operation answers GET /nothing/here")},
		// Starlette's redirect of a trailing slash is FastAPI's habit;
		// other routers answer the path without it: the album's own 404.
		{"trailing slash", request{method: "GET", target: "/albums/nope/", header: bearer(t)},
			404, "application/json", errorOf(404, "Album not found")},
		{"trailing slash, no path", request{method: "GET", target: "/nothing/here/"},
			404, "application/json", errorOf(404, "no operation answers GET /nothing/here/")},
		{"wrong method", request{method: "DELETE", target: "/albums/a1"},
			405, "application/json", errorOf(405, "method DELETE is not allowed on this path")},
		{"a status asked for (Prefer)", request{method: "GET", target: "/albums/a1", header: withToken(http.Header{"Prefer": {"code=404"}})},
			404, "application/json", errorOf(404, "not found")},
		{"a 401 asked for (Prefer)", request{method: "GET", target: "/albums/a1", header: withToken(http.Header{"Prefer": {"code=401"}})},
			401, "application/json", errorOf(401, "unauthorized")},
	})
}

// A RealWorld-like document declares {"errors": {"body": [...]}} for its
// 422: one message per problem. Its 401 is declared without content:
// RFC 9457 problem details.
func TestOpenAPIRefusalsRealWorldShape(t *testing.T) {
	t.Parallel()
	srv, sp := openapiServer(t, "realworld.yaml", mock.Config{Seed: 1})
	h := http.Header{"Content-Type": {"application/json"}, "Authorization": {"Token abc"}}
	checkRefusals(t, srv, sp, []refusal{
		{"members missing", request{method: "POST", target: "/articles", header: h, body: `{"article":{"title":"t"}}`},
			422, "application/json", map[string]any{"errors": map[string]any{"body": []any{"article.description is required", "article.body is required"}}}},
		{"no credentials", request{method: "POST", target: "/articles", header: http.Header{"Content-Type": {"application/json"}}, body: `{}`},
			401, "application/problem+json", map[string]any{"type": "about:blank", "title": "Unauthorized", "status": 401.0, "detail": "authentication required"}},
		// Credentials come before the body is read, whatever it holds.
		{"no credentials, a body that is not JSON", request{method: "POST", target: "/articles", header: http.Header{"Content-Type": {"application/json"}}, body: `{"article":`},
			401, "application/problem+json", map[string]any{"status": 401.0, "detail": "authentication required"}},
	})
}

// Under the plain-OpenAPI profile every JSON body is validated, also on
// an operation declaring no 4xx: FastAPI would leave such a body to its
// endpoint.
func TestOpenAPIValidatesEveryJSONBody(t *testing.T) {
	t.Parallel()
	srv, sp := openapiServer(t, "json-body-no-422.yaml", mock.Config{Seed: 1})
	h := http.Header{"Content-Type": {"application/json"}}
	checkRefusals(t, srv, sp, []refusal{
		{"empty object", request{method: "DELETE", target: "/things/a/remove", header: h, body: `{}`},
			400, "application/problem+json", map[string]any{"status": 400.0, "detail": "tracks is required",
				"errors": []any{map[string]any{"pointer": "#/tracks", "detail": "tracks is required"}}}},
		{"wrong type", request{method: "POST", target: "/things/a/add", header: h, body: `{"tracks":5}`},
			400, "application/problem+json", map[string]any{"status": 400.0, "detail": "tracks: expected array"}},
	})
	for _, target := range []string{"/things/a/remove", "/things/a/add"} {
		method := map[string]string{"/things/a/remove": "DELETE", "/things/a/add": "POST"}[target]
		if rec := serve(srv, request{method: method, target: target, header: h, body: `{"tracks":["t1"]}`}); rec.Code/100 != 2 {
			t.Errorf("%s %s with a valid body: %d %s", method, target, rec.Code, rec.Body)
		}
	}
}

// A concrete path is answered by its own operation before a templated
// one that also matches it, under the plain-OpenAPI profile; under
// FastAPI's, the first declared route wins, as Starlette's.
func TestConcretePathBeforeTemplated(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("testdata", "openapi", "literal-vs-template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(raw, "literal-vs-template.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sid := "/numbers/PN0123456789abcdef0123456789abcdef.json"
	for _, tc := range []struct {
		profile framework.Name
		target  string
		status  int
		body    string
	}{
		{framework.OpenAPI, "/numbers/Local.json", 200, `{"local":true}`},
		{framework.OpenAPI, sid, 200, `{"sid":`},
		{framework.FastAPI, "/numbers/Local.json", 422, `{"detail":[{"type":"string_too_short"`},
		{framework.FastAPI, sid, 200, `{"sid":`},
	} {
		srv := newServer(t, mock.Config{Spec: sp, Model: compiled(t, sp, tc.profile), Seed: 1})
		rec := serve(srv, request{target: tc.target})
		if rec.Code != tc.status || !strings.HasPrefix(rec.Body.String(), tc.body) {
			t.Errorf("%s: GET %s: %d %s, want %d %s…", tc.profile, tc.target, rec.Code, rec.Body, tc.status, tc.body)
		}
	}
}

// Under the plain-OpenAPI profile every declared security scheme is
// enforced: a request without the credentials a requirement names is
// answered 401 with its challenge; credentials the mock cannot verify are
// accepted when present, a token the mock itself issued is verified.
func TestOpenAPIEnforcesEverySecurityScheme(t *testing.T) {
	t.Parallel()
	srv, _ := openapiServer(t, "security.yaml", mock.Config{Seed: 1})
	mine := signed(t, "HS256", mock.DefaultJWTSecret, map[string]any{"sub": mock.DefaultAccount.Username, "exp": now.Unix() + 600})
	expired := signed(t, "HS256", mock.DefaultJWTSecret, map[string]any{"sub": mock.DefaultAccount.Username, "exp": now.Unix() - 600})
	tampered := signed(t, "HS256", "another secret", map[string]any{"sub": mock.DefaultAccount.Username, "exp": now.Unix() + 600})
	foreign := signed(t, "HS256", "the issuer's secret", map[string]any{"sub": "u1", "iss": "https://auth.example.com", "exp": now.Unix() + 600})
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("ada:pw"))
	h := func(kv ...string) http.Header {
		out := http.Header{}
		for i := 0; i+1 < len(kv); i += 2 {
			out.Set(kv[i], kv[i+1])
		}
		return out
	}
	for _, tc := range []struct {
		name      string
		target    string
		header    http.Header
		status    int
		challenge string
	}{
		{"apiKey header", "/key-header", h("X-API-Key", "k1"), 200, ""},
		{"apiKey header missing", "/key-header", nil, 401, `ApiKey in="header", name="X-API-Key"`},
		{"apiKey header empty", "/key-header", h("X-API-Key", " "), 401, `ApiKey in="header", name="X-API-Key"`},
		{"apiKey query", "/key-query?api_key=k1", nil, 200, ""},
		{"apiKey query missing", "/key-query?other=k1", nil, 401, `ApiKey in="query", name="api_key"`},
		{"apiKey cookie", "/key-cookie", h("Cookie", "session=s1"), 200, ""},
		{"apiKey cookie missing", "/key-cookie", h("Cookie", "other=s1"), 401, `ApiKey in="cookie", name="session"`},
		{"basic", "/basic", h("Authorization", basic), 200, ""},
		{"basic malformed", "/basic", h("Authorization", "Basic !!!"), 401, "Basic"},
		{"basic missing", "/basic", nil, 401, "Basic"},
		{"bearer foreign opaque", "/bearer", h("Authorization", "Bearer opaque-token"), 200, ""},
		{"bearer foreign JWT", "/bearer", h("Authorization", "Bearer "+foreign), 200, ""},
		{"bearer the mock's", "/bearer", h("Authorization", "Bearer "+mine), 200, ""},
		{"bearer the mock's expired", "/bearer", h("Authorization", "Bearer "+expired), 401, "Bearer"},
		{"bearer the mock's tampered", "/bearer", h("Authorization", "Bearer "+tampered), 401, "Bearer"},
		{"bearer missing", "/bearer", nil, 401, "Bearer"},
		{"bearer of another scheme", "/bearer", h("Authorization", basic), 401, "Bearer"},
		{"oauth2 client credentials", "/oauth", h("Authorization", "Bearer t1"), 200, ""},
		{"oauth2 missing", "/oauth", nil, 401, "Bearer"},
		{"oauth2 of another scheme", "/oauth", h("Authorization", basic), 401, "Bearer"},
		{"openIdConnect", "/oidc", h("Authorization", "bearer t1"), 200, ""},
		{"openIdConnect missing", "/oidc", nil, 401, "Bearer"},
		{"either: the key", "/either", h("X-API-Key", "k1"), 200, ""},
		{"either: basic", "/either", h("Authorization", basic), 200, ""},
		{"either: neither", "/either", nil, 401, `ApiKey in="header", name="X-API-Key", Basic`},
		{"both", "/both?api_key=k2", h("X-API-Key", "k1"), 200, ""},
		{"both: one only", "/both", h("X-API-Key", "k1"), 401, `ApiKey in="header", name="X-API-Key", ApiKey in="query", name="api_key"`},
		{"optional: none", "/optional", nil, 200, ""},
		{"optional: a token", "/optional", h("Authorization", "Bearer t1"), 200, ""},
		{"optional: the mock's expired", "/optional", h("Authorization", "Bearer "+expired), 401, "Bearer"},
		{"no requirement", "/open", nil, 200, ""},
		// A scripted answer stands for the endpoint's: the schemes are
		// enforced before it.
		{"scripted: without credentials", "/key-header", h("Prefer", "code=404"), 401, `ApiKey in="header", name="X-API-Key"`},
		{"scripted: with them", "/key-header", h("Prefer", "code=404", "X-API-Key", "k1"), 404, ""},
		{"apiKey in Authorization: Token <jwt>", "/authz-key", h("Authorization", "Token "+mine), 200, ""},
		{"apiKey in Authorization: the jwt alone", "/authz-key", h("Authorization", mine), 200, ""},
		{"apiKey in Authorization: any value", "/authz-key", h("Authorization", "abc"), 200, ""},
		{"apiKey in Authorization: expired", "/authz-key", h("Authorization", "Token "+expired), 401, `ApiKey in="header", name="Authorization"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := serve(srv, request{target: tc.target, header: tc.header})
			if rec.Code != tc.status || rec.Header().Get("WWW-Authenticate") != tc.challenge {
				t.Fatalf("%d WWW-Authenticate %q %s, want %d %q", rec.Code, rec.Header().Get("WWW-Authenticate"), rec.Body, tc.status, tc.challenge)
			}
			if tc.status != 200 && rec.Header().Get("Content-Type") != "application/problem+json" {
				t.Errorf("Content-Type %q", rec.Header().Get("Content-Type"))
			}
		})
	}
}

// CheckRequest, the proxy's prediction of the backend's refusal, gives
// the status the operation declares for bad input under the
// plain-OpenAPI profile, FastAPI's 422 (where FastAPI validates the body)
// under FastAPI's.
func TestCheckRequestStatusByProfile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		doc, target string
		profile     framework.Name
		status      int
	}{
		{"spotify.yaml", "/playlists/p1/tracks", framework.OpenAPI, 400},
		// FastAPI leaves a JSON body of an operation declaring no 422 to
		// its endpoint.
		{"spotify.yaml", "/playlists/p1/tracks", framework.FastAPI, 0},
		{"realworld.yaml", "/articles", framework.OpenAPI, 422},
		{"realworld.yaml", "/articles", framework.FastAPI, 422},
		{"json-body-no-422.yaml", "/things/a/add", framework.OpenAPI, 400},
	} {
		raw, err := os.ReadFile(filepath.Join("testdata", "openapi", tc.doc))
		if err != nil {
			t.Fatal(err)
		}
		sp, err := spec.Load(raw, tc.doc)
		if err != nil {
			t.Fatal(err)
		}
		srv := newServer(t, mock.Config{Spec: sp, Model: compiled(t, sp, tc.profile), Seed: 1})
		req := request{method: "POST", target: tc.target, header: http.Header{"Content-Type": {"application/json"}}, body: `{"uris":5,"tracks":5,"article":5}`}.build()
		op, v := srv.CheckRequest(req)
		if op == nil || v.Status != tc.status || (len(v.Items) == 0) != (tc.status == 0) {
			t.Errorf("%s %s: %v %+v, want %d with items", tc.doc, tc.profile, op, v, tc.status)
		}
	}
}

// Hostile requests to documents the plain-OpenAPI profile answers get an
// answer of the mock's own accord: never a 5xx, always JSON.
func TestOpenAPIHostileRequests(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat(`{"uris":`, 5000) + `1` + strings.Repeat(`}`, 5000)
	many := `{"uris":[` + strings.Repeat(`1,`, 20000) + `1]}`
	for _, doc := range []string{"spotify.yaml", "realworld.yaml", "security.yaml", "json-body-no-422.yaml"} {
		srv, _ := openapiServer(t, doc, mock.Config{Seed: 1})
		for _, req := range []request{
			{method: "POST", target: "/playlists/p1/tracks", header: http.Header{"Content-Type": {"application/json"}, "Authorization": {"Bearer x"}}, body: deep},
			{method: "POST", target: "/playlists/p1/tracks", header: http.Header{"Content-Type": {"application/json"}, "Authorization": {"Bearer x"}}, body: many},
			{method: "POST", target: "/playlists/p1/tracks", header: http.Header{"Content-Type": {"application/json; charset=latin-1"}, "Authorization": {"Bearer \xff\xfe"}}, body: "{\"uris\":[\"\xff\"]}"},
			{method: "POST", target: "/articles", header: http.Header{"Content-Type": {"application/json"}, "Authorization": {"Token a.b.c"}}, body: `{"article":{"title":null,"description":[],"body":{}}}`},
			{method: "GET", target: "/albums/%00%ff?market=%zz", header: http.Header{"Authorization": {"Bearer eyJhbGciOiJIUzI1NiJ9.e30."}}},
			{method: "GET", target: "/basic", header: http.Header{"Authorization": {"Basic " + strings.Repeat("=", 100)}}},
			{method: "GET", target: "/key-cookie", header: http.Header{"Cookie": {"session=; session=\x00"}}},
			{method: "DELETE", target: "/things/%2F/remove", header: http.Header{"Content-Type": {"application/json"}}, body: `{"tracks":[1,{"a":[]}]}`},
			{method: "PATCH", target: "/things/a/add", header: http.Header{"Content-Type": {"text/plain"}}, body: "x"},
		} {
			rec := serve(srv, req)
			ct := rec.Header().Get("Content-Type")
			if rec.Code >= 500 || !strings.Contains(ct, "json") || !json.Valid(rec.Body.Bytes()) {
				t.Errorf("%s: %s %s: %d %s %.200s", doc, req.method, req.target, rec.Code, ct, rec.Body)
			}
		}
	}
}

// A bearer token the mock did not issue is accepted; the current user it
// stands for is the first there is. The mock's own token names its user.
func TestOpenAPICurrentUserOfAForeignToken(t *testing.T) {
	t.Parallel()
	srv, _ := openapiServer(t, "me.yaml", mock.Config{Seed: 1, Accounts: []mock.Account{{Username: "ada", Password: "pw"}}})
	for _, op := range srv.Model().Operations {
		if op.Path == "/users/me" && op.Kind.String() != "current user" {
			t.Fatalf("GET /users/me is answered as %s", op.Kind)
		}
	}
	mine := signed(t, "HS256", mock.DefaultJWTSecret, map[string]any{"sub": "ada", "exp": now.Unix() + 600})
	for _, tc := range []struct {
		token string
		user  string // "": any user
	}{
		{"opaque", ""},
		{mine, "ada"},
	} {
		rec := serve(srv, request{target: "/users/me", header: http.Header{"Authorization": {"Bearer " + tc.token}}})
		var u struct {
			ID       *int   `json:"id"`
			Username string `json:"username"`
		}
		if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &u) != nil || u.ID == nil || u.Username == "" || tc.user != "" && u.Username != tc.user {
			t.Errorf("token %.10s: %d %s, want 200 with user %q", tc.token, rec.Code, rec.Body, tc.user)
		}
	}
}

// A JSON Schema pattern is ECMA-262: a lookahead RE2 cannot run still
// holds a body to it (testdata/openapi/ecma-pattern.yaml), rather than
// refusing the document or leaving the pattern unenforced.
func TestOpenAPIEnforcesECMAPattern(t *testing.T) {
	t.Parallel()
	srv, sp := openapiServer(t, "ecma-pattern.yaml", mock.Config{Seed: 1})
	h := http.Header{"Content-Type": {"application/json"}}
	checkRefusals(t, srv, sp, []refusal{
		{"leading dot", request{method: "POST", target: "/things", header: h, body: `{"email":".ab@example.com"}`},
			400, "application/problem+json", map[string]any{"status": 400.0}},
		{"other domain", request{method: "POST", target: "/things", header: h, body: `{"email":"ab@example.org"}`},
			400, "application/problem+json", map[string]any{"status": 400.0}},
	})
	if rec := serve(srv, request{method: "POST", target: "/things", header: h, body: `{"email":"a.b@example.com"}`}); rec.Code != 200 {
		t.Errorf("a matching email: %d %s", rec.Code, rec.Body)
	}
}

// The current user's own operations (read, replace, update) accept a
// credential the mock cannot verify (testdata/openapi/accounts.yaml: a
// session cookie, basic credentials) as they accept it for a read: each
// acts on the user it stands for, the first there is.
func TestOpenAPICurrentUserOperationsOfAForeignCredential(t *testing.T) {
	t.Parallel()
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("ada:pw"))
	for _, tc := range []struct {
		name   string
		header http.Header
	}{
		{"session cookie", http.Header{"Cookie": {"sessionid=s1"}}},
		{"basic credentials", http.Header{"Authorization": {basic}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, _ := openapiServer(t, "accounts.yaml", mock.Config{Seed: 1, Accounts: []mock.Account{{Username: "ada", Password: "pw"}}})
			for _, req := range []request{
				{target: "/auth/user/"},
				{method: "PUT", target: "/auth/user/", body: `{"pk":1,"username":"ada","first_name":"Ada"}`},
				{method: "PATCH", target: "/auth/user/", body: `{"first_name":"Augusta"}`},
			} {
				req.header = tc.header.Clone()
				if req.body != "" {
					req.header.Set("Content-Type", "application/json")
				}
				rec := serve(srv, req)
				var u struct{ Username string }
				if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &u) != nil || u.Username != "ada" {
					t.Errorf("%s %s: %d %s, want 200 with ada", cmp.Or(req.method, "GET"), req.target, rec.Code, rec.Body)
				}
			}
		})
	}
}

// A refusal of the current user's operation, when no user can stand for
// the credential sent, challenges the schemes the operation declares, not
// a bearer token it does not take.
func TestOpenAPIUnauthorizedChallengesDeclaredSchemes(t *testing.T) {
	t.Parallel()
	srv, _ := openapiServer(t, "accounts.yaml", mock.Config{Seed: 1})
	const challenge = `ApiKey in="cookie", name="sessionid", Basic`
	for _, header := range []http.Header{
		nil,
		{"Cookie": {"sessionid=s1"}},
	} {
		rec := serve(srv, request{target: "/auth/user/", header: header})
		if rec.Code != 401 || rec.Header().Get("WWW-Authenticate") != challenge || rec.Header().Get("Content-Type") != "application/problem+json" {
			t.Errorf("%v: %d WWW-Authenticate %q %s, want 401 %q in problem details", header, rec.Code, rec.Header().Get("WWW-Authenticate"), rec.Body, challenge)
		}
	}
}

// A security requirement naming only a scheme the document does not
// define holds a request to nothing: the operation answers without
// credentials, as if it declared none.
func TestOpenAPIUndefinedSchemeHoldsNoOne(t *testing.T) {
	t.Parallel()
	srv, _ := openapiServer(t, "accounts.yaml", mock.Config{Seed: 1})
	for _, target := range []string{"/pets/1/", "/pets/123456789/"} {
		if rec := serve(srv, request{target: target}); rec.Code != 200 && rec.Code != 404 {
			t.Errorf("GET %s: %d %s, want 200 or 404", target, rec.Code, rec.Body)
		}
	}
	if rec := serve(srv, request{target: "/pets/x/"}); rec.Code != 400 {
		t.Errorf("GET /pets/x/: %d %s, want 400", rec.Code, rec.Body)
	}
}

// A login taking JSON beside its form (dj-rest-auth's {username, email,
// password}) reads the credentials from the JSON body, the account named
// by its username or else its email, and answers its declared schema with
// the token in the member named for it (JWT's access), the mock's own
// token for the account.
func TestLoginReadsJSONBesideItsForm(t *testing.T) {
	t.Parallel()
	srv, sp := openapiServer(t, "accounts.yaml", mock.Config{Seed: 1, Accounts: []mock.Account{{Username: "ada", Password: "pw"}}})
	h := http.Header{"Content-Type": {"application/json"}}
	for _, tc := range []struct {
		body   string
		status int
	}{
		{`{"username":"ada","password":"pw"}`, 200},
		{`{"email":"ada","password":"pw"}`, 200},
		{`{"username":"ada","password":"nope"}`, 401},
		{`{"password":"pw"}`, 401},
	} {
		rec := serve(srv, request{method: "POST", target: "/auth/login/", header: h, body: tc.body})
		if rec.Code != tc.status {
			t.Errorf("%s: %d %s, want %d", tc.body, rec.Code, rec.Body, tc.status)
			continue
		}
		if tc.status != 200 {
			continue
		}
		var v map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		if err := sp.Validate(sp.Schema("JWT"), v, true); err != nil {
			t.Errorf("%s: the answer %s does not fit JWT: %v", tc.body, rec.Body, err)
		}
		access, _ := v["access"].(string)
		if sub := parseToken(t, access, mock.DefaultJWTSecret)["sub"]; sub != "ada" {
			t.Errorf("%s: access names %v, want ada", tc.body, sub)
		}
	}
}

// Where the document's own login hands out the mock's JWTs for a bearer
// scheme, a bearer token that is no JWT at all is refused, as the backend
// issuing JWTs refuses one it cannot decode; a JWT of another issuer is
// still accepted, as is the mock's own.
func TestOpenAPIRefusesANonJWTWhereItsLoginIssuesJWTs(t *testing.T) {
	t.Parallel()
	srv, _ := openapiServer(t, "jwt-login.yaml", mock.Config{Seed: 1, Accounts: []mock.Account{{Username: "ada", Password: "pw"}}})
	login := serve(srv, request{method: "POST", target: "/access/login",
		header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}, body: "username=ada&password=pw"})
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if login.Code/100 != 2 || json.Unmarshal(login.Body.Bytes(), &tok) != nil || tok.AccessToken == "" {
		t.Fatalf("login: %d %s", login.Code, login.Body)
	}
	foreign := signed(t, "HS256", "the issuer's secret", map[string]any{"sub": "u1", "iss": "https://auth.example.com", "exp": now.Unix() + 600})
	for _, tc := range []struct {
		name, token string
		status      int
	}{
		{"the mock's", tok.AccessToken, 200},
		{"another issuer's JWT", foreign, 200},
		{"not a JWT", "moviemock-not-a-token", 401},
		{"three parts, not a JWT", "a.b.c", 401},
	} {
		rec := serve(srv, request{target: "/teams", header: http.Header{"Authorization": {"Bearer " + tc.token}}})
		if rec.Code != tc.status {
			t.Errorf("%s: %d %s, want %d", tc.name, rec.Code, rec.Body, tc.status)
		}
	}
}
