package mock_test

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/moviemock/moviemock"
	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/golden"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// now is the fixed clock of every test server.
var now = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func newServer(t testing.TB, cfg mock.Config) *mock.Server {
	t.Helper()
	if cfg.Now == nil {
		cfg.Now = func() time.Time { return now }
	}
	s, err := mock.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// contractRouter finds the contract's operation for a request, to validate
// responses against it.
func contractRouter(t testing.TB) (*spec.Spec, routers.Router) {
	t.Helper()
	sp, err := spec.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	doc := *sp.Doc
	doc.Servers = nil // match any host
	router, err := gorillamux.NewRouter(&doc)
	if err != nil {
		t.Fatal(err)
	}
	return sp, router
}

// assertConforms checks a response against openapi.yaml with the contract
// runner's own check: a status the operation declares must match its
// schema; any other status must be one FastAPI itself produces, with
// FastAPI's body for it.
func assertConforms(t *testing.T, req *http.Request, rec *httptest.ResponseRecorder) {
	t.Helper()
	sp, router := contractRouter(t)
	body := rec.Body.Bytes()
	route, _, err := router.FindRoute(req)
	if err == nil {
		declared, err := contract.BodyConforms(sp, route.Operation, rec.Code, rec.Header().Get("Content-Type"), body)
		if declared {
			if err != nil {
				t.Errorf("response violates the contract: %v", err)
			}
			return
		}
	}
	switch {
	case rec.Code == 422:
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			t.Fatalf("422 body is not JSON: %s", body)
		}
		if err := sp.Validate(sp.Schema("HTTPValidationError"), v, true); err != nil {
			t.Errorf("422 body is not an HTTPValidationError: %v", err)
		}
	case rec.Code == 307 || (rec.Code == 200 && rec.Header().Get("Content-Type") == "text/plain; charset=utf-8"):
	case rec.Code >= 400 && rec.Code < 500:
		var v struct {
			Detail *string `json:"detail"`
		}
		if err := json.Unmarshal(body, &v); err != nil || v.Detail == nil {
			t.Errorf("%d body is not FastAPI's {\"detail\": …}: %s", rec.Code, body)
		}
	default:
		if err != nil {
			t.Errorf("%d for a request outside the contract: %v", rec.Code, err)
		}
	}
}

type request struct {
	method, target string
	header         http.Header
	body           string
}

func (r request) build() *http.Request {
	method := r.method
	if method == "" {
		method = "GET"
	}
	req := httptest.NewRequest(method, r.target, strings.NewReader(r.body))
	for k, vs := range r.header {
		req.Header[k] = vs
	}
	if host := r.header.Get("Host"); host != "" {
		req.Host = host // net/http reads Host from the request line, not the map
	}
	return req
}

func form(fields string) request {
	return request{method: "POST", target: "/auth/login", body: fields,
		header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}}
}

func multipartLogin(fields map[string]string) request {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for k, v := range fields {
		w.WriteField(k, v)
	}
	w.Close()
	return request{method: "POST", target: "/auth/login", body: b.String(), header: http.Header{"Content-Type": {w.FormDataContentType()}}}
}

// TestEndpoints is the table of what the backend answers, row by row. Every
// body goes to a golden file under testdata/ (go test -update rewrites
// them), and every response is checked against openapi.yaml.
func TestEndpoints(t *testing.T) {
	t.Parallel()
	srv := newServer(t, mock.Config{})
	for _, tc := range []struct {
		name    string
		req     request
		status  int
		headers map[string]string // "" means: must be absent
		golden  string            // body compared with testdata/<golden>.golden
		body    string            // or the exact body
	}{
		// GET /person/{person_id}
		{name: "person full", req: request{target: "/person/1"}, status: 200, golden: "person_1",
			headers: map[string]string{"Content-Type": "application/json"}},
		{name: "person sparse has nulls and []", req: request{target: "/person/27"}, status: 200, golden: "person_27_sparse"},
		{name: "person non-ASCII raw", req: request{target: "/person/25"}, status: 200, golden: "person_25_unicode"},
		{name: "person id with spaces", req: request{target: "/person/%2025%20"}, status: 200, golden: "person_25_unicode"},
		{name: "person id with plus", req: request{target: "/person/+25"}, status: 200, golden: "person_25_unicode"},
		{name: "person id with leading zeros", req: request{target: "/person/0025"}, status: 200, golden: "person_25_unicode"},
		{name: "person id with underscore", req: request{target: "/person/2_5"}, status: 200, golden: "person_25_unicode"},
		{name: "person id with zero fraction", req: request{target: "/person/25.000"}, status: 200, golden: "person_25_unicode"},
		{name: "person id tab and newline", req: request{target: "/person/%0925%0A"}, status: 200, golden: "person_25_unicode"},
		{name: "person unknown id", req: request{target: "/person/999"}, status: 404, golden: "person_not_found"},
		{name: "person negative id", req: request{target: "/person/-1"}, status: 404, golden: "person_not_found"},
		{name: "person huge id", req: request{target: "/person/99999999999999999999999"}, status: 404, golden: "person_not_found"},
		{name: "person id not a number", req: request{target: "/person/abc"}, status: 422, golden: "person_int_parsing_abc"},
		{name: "person id fraction", req: request{target: "/person/1.5"}, status: 422, golden: "person_int_parsing_1.5"},
		{name: "person id exponent", req: request{target: "/person/1e3"}, status: 422, golden: "person_int_parsing_1e3"},
		{name: "person id hex", req: request{target: "/person/0x10"}, status: 422, golden: "person_int_parsing_0x10"},
		{name: "person id blank", req: request{target: "/person/%20"}, status: 422, golden: "person_int_parsing_blank"},
		{name: "person id arabic digits", req: request{target: "/person/%D9%A1%D9%A2"}, status: 422, golden: "person_int_parsing_arabic"},
		{name: "person id with quote", req: request{target: `/person/1%22x`}, status: 422, golden: "person_int_parsing_quote"},

		// POST /auth/login
		{name: "login no body", req: request{method: "POST", target: "/auth/login"}, status: 422, golden: "login_missing_both"},
		{name: "login JSON body is an empty form", req: request{method: "POST", target: "/auth/login", body: `{"username":"alice","password":"wonderland"}`,
			header: http.Header{"Content-Type": {"application/json"}}}, status: 422, golden: "login_missing_both"},
		{name: "login empty username is missing", req: form("username=&password=x"), status: 422, golden: "login_missing_username"},
		{name: "login bad grant_type first", req: form("grant_type=foo"), status: 422, golden: "login_grant_type_and_missing"},
		{name: "login grant_type case", req: form("grant_type=Password&username=alice&password=wonderland"), status: 422, golden: "login_grant_type_Password"},
		{name: "login grant_type trailing newline", req: form("grant_type=password%0A&username=alice&password=wonderland"), status: 422, golden: "login_grant_type_newline"},
		{name: "login wrong password", req: form("username=alice&password=nope"), status: 401, golden: "login_wrong",
			headers: map[string]string{"WWW-Authenticate": "Bearer"}},
		{name: "login unknown user", req: form("username=mallory&password=wonderland"), status: 401, golden: "login_wrong"},
		{name: "login multipart without boundary", req: request{method: "POST", target: "/auth/login", body: "x",
			header: http.Header{"Content-Type": {"multipart/form-data"}}}, status: 400, golden: "login_missing_boundary"},
		{name: "login broken multipart", req: request{method: "POST", target: "/auth/login", body: "--b\r\nbroken",
			header: http.Header{"Content-Type": {"multipart/form-data; boundary=b"}}}, status: 400, golden: "login_parse_error"},
		{name: "login too large", req: form("username=alice&password=" + strings.Repeat("x", mock.DefaultMaxBodyBytes)), status: 413, golden: "login_too_large"},

		// GET /reviews/{review_id}, GET /reviews
		{name: "review", req: request{target: "/reviews/b42bfd96-9925-4da9-8c96-eed6b998b81f"}, status: 200, golden: "review_first"},
		{name: "review unknown", req: request{target: "/reviews/nope"}, status: 404, golden: "review_not_found"},
		{name: "reviews list", req: request{target: "/reviews"}, status: 200, golden: "reviews_list",
			headers: map[string]string{"Content-Type": "application/json"}},
		{name: "reviews list ignores unknown query", req: request{target: "/reviews?limit=abc"}, status: 200, golden: "reviews_list"},

		// What the framework answers.
		{name: "unknown path", req: request{target: "/movies"}, status: 404, golden: "not_found"},
		{name: "person without id", req: request{target: "/person/"}, status: 404, golden: "not_found"},
		{name: "encoded slash splits the path", req: request{target: "/person/1%2F2"}, status: 404, golden: "not_found"},
		{name: "wrong method", req: request{method: "POST", target: "/reviews"}, status: 405, golden: "method_not_allowed",
			headers: map[string]string{"Allow": "GET"}},
		{name: "GET on login", req: request{target: "/auth/login"}, status: 405, golden: "method_not_allowed",
			headers: map[string]string{"Allow": "POST"}},
		{name: "DELETE on a person", req: request{method: "DELETE", target: "/person/1"}, status: 405, headers: map[string]string{"Allow": "GET"}, golden: "method_not_allowed"},
		{name: "OPTIONS without CORS preflight", req: request{method: "OPTIONS", target: "/reviews"}, status: 405, golden: "method_not_allowed"},
		{name: "trailing slash redirects", req: request{target: "/reviews/"}, status: 307, body: "",
			headers: map[string]string{"Location": "http://example.com/reviews", "Content-Type": ""}},
		{name: "trailing slash keeps query and host", req: request{target: "/person/5/?x=1&y=%20", header: http.Header{"Host": {"127.0.0.1:8000"}}}, status: 307,
			headers: map[string]string{"Location": "http://127.0.0.1:8000/person/5?x=1&y=%20"}},
		{name: "trailing slashes all removed", req: request{target: "/reviews///"}, status: 307, headers: map[string]string{"Location": "http://example.com/reviews"}},
		{name: "trailing slash whatever the method", req: request{method: "POST", target: "/reviews/"}, status: 307, headers: map[string]string{"Location": "http://example.com/reviews"}},
		{name: "trailing slash re-quotes the path", req: request{target: "/reviews/a%20b/"}, status: 307, headers: map[string]string{"Location": "http://example.com/reviews/a%20b"}},
		{name: "HEAD is not GET", req: request{method: "HEAD", target: "/person/1"}, status: 405, headers: map[string]string{"Allow": "GET"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			req := tc.req.build()
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, req)
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d; body %s", rec.Code, tc.status, rec.Body)
			}
			for k, want := range tc.headers {
				if got := rec.Header().Get(k); got != want {
					t.Errorf("header %s = %q, want %q", k, got, want)
				}
			}
			switch {
			case tc.golden != "":
				golden.Check(t, tc.golden, rec.Body.Bytes())
			case tc.req.method != "HEAD":
				if got := rec.Body.String(); got != tc.body {
					t.Errorf("body %q, want %q", got, tc.body)
				}
			}
			if cl := rec.Header().Get("Content-Length"); cl != "" && cl != strconv.Itoa(rec.Body.Len()) && tc.req.method != "HEAD" {
				t.Errorf("Content-Length %s for a %d-byte body", cl, rec.Body.Len())
			}
			assertConforms(t, req, rec)
		})
	}
}

func TestLoginIssuesRealJWT(t *testing.T) {
	t.Parallel()
	srv := newServer(t, mock.Config{JWTSecret: []byte("s3cret"), TokenLifetime: 10 * time.Minute})
	for _, req := range []request{
		form("username=alice&password=wonderland"),
		form("grant_type=password&username=alice&password=wonderland&scope=a+b&client_id=x&client_secret=y&unknown=z"),
		form("grant_type=&username=alice&password=wonderland"),  // empty optional field: its default
		form("username=bob&username=alice&password=wonderland"), // last value wins
		multipartLogin(map[string]string{"username": "alice", "password": "wonderland"}),
		form("username=zo%C3%AB&password=p%C3%A4ssw%C3%B6rd"), // non-ASCII credentials
	} {
		r := req.build()
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, r)
		if rec.Code != 200 {
			t.Fatalf("%s: status %d %s", req.body, rec.Code, rec.Body)
		}
		assertConforms(t, r, rec)
		var tok struct {
			AccessToken string `json:"access_token"`
			TokenType   string `json:"token_type"`
		}
		json.Unmarshal(rec.Body.Bytes(), &tok)
		if tok.TokenType != "bearer" {
			t.Errorf("token_type %q", tok.TokenType)
		}
		claims := parseToken(t, tok.AccessToken, "s3cret")
		if claims["iat"] != float64(now.Unix()) || claims["exp"] != float64(now.Add(10*time.Minute).Unix()) {
			t.Errorf("claims %v: want iat now and exp 10 minutes later", claims)
		}
		if sub := claims["sub"]; sub != "alice" && sub != "zoë" {
			t.Errorf("sub %v", sub)
		}
	}
}

// login is a helper returning a token from srv.
func login(t *testing.T, srv http.Handler, user, password string) string {
	t.Helper()
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, form("username="+url.QueryEscape(user)+"&password="+url.QueryEscape(password)).build())
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &tok); err != nil || tok.AccessToken == "" {
		t.Fatalf("login failed: %d %s", rec.Code, rec.Body)
	}
	return tok.AccessToken
}

func TestRequireAuth(t *testing.T) {
	t.Parallel()
	clock := now
	srv := newServer(t, mock.Config{RequireAuth: true, Now: func() time.Time { return clock }})
	token := login(t, srv, "alice", "wonderland")
	other := newServer(t, mock.Config{JWTSecret: []byte("another secret")})
	foreign := login(t, other, "alice", "wonderland")

	for _, tc := range []struct {
		name, target, authorization string
		status                      int
		golden                      string
	}{
		{"no header", "/person/1", "", 401, "auth_not_authenticated"},
		{"other scheme", "/person/1", "Basic YWxpY2U6d29uZGVybGFuZA==", 401, "auth_not_authenticated"},
		{"bearer without token", "/reviews", "Bearer", 401, "auth_bad_credentials"}, // FastAPI: scheme ok, empty token fails decoding
		{"valid token", "/person/1", "Bearer " + token, 200, "person_1"},
		{"scheme is case-insensitive", "/reviews/nope", "bEaReR " + token, 404, "review_not_found"},
		{"401 comes before 422", "/person/abc", "", 401, "auth_not_authenticated"},
		{"valid token then 422", "/person/abc", "Bearer " + token, 422, "person_int_parsing_abc"},
		{"garbage token", "/reviews", "Bearer not.a.jwt", 401, "auth_bad_credentials"},
		{"token of another secret", "/reviews", "Bearer " + foreign, 401, "auth_bad_credentials"},
		{"alg none", "/reviews", "Bearer " + unsignedToken("alice"), 401, "auth_bad_credentials"},
		{"HS512 with the right secret", "/reviews", "Bearer " + signed(t, "HS512", mock.DefaultJWTSecret, map[string]any{"sub": "alice", "exp": now.Add(time.Hour).Unix()}), 401, "auth_bad_credentials"},
		// PyJWT checks exp only when the token has one.
		{"no exp", "/person/1", "Bearer " + signed(t, "HS256", mock.DefaultJWTSecret, map[string]any{"sub": "alice"}), 200, "person_1"},
		{"spaces around the token (FastAPI 0.128.1)", "/person/1", "Bearer   " + token + " \t", 200, "person_1"},
		{"iat in the future", "/reviews", "Bearer " + signed(t, "HS256", mock.DefaultJWTSecret, map[string]any{"sub": "alice", "iat": now.Add(time.Hour).Unix()}), 401, "auth_bad_credentials"},
		{"nbf in the future", "/reviews", "Bearer " + signed(t, "HS256", mock.DefaultJWTSecret, map[string]any{"sub": "alice", "nbf": now.Add(time.Hour).Unix()}), 401, "auth_bad_credentials"},
		{"an audience nobody expects", "/reviews", "Bearer " + signed(t, "HS256", mock.DefaultJWTSecret, map[string]any{"sub": "alice", "aud": "api"}), 401, "auth_bad_credentials"},
		{"no sub", "/reviews", "Bearer " + signed(t, "HS256", mock.DefaultJWTSecret, map[string]any{"exp": now.Add(time.Hour).Unix()}), 401, "auth_bad_credentials"},
		{"user who does not exist", "/reviews", "Bearer " + signed(t, "HS256", mock.DefaultJWTSecret, map[string]any{"sub": "ghost", "exp": now.Add(time.Hour).Unix()}), 401, "auth_bad_credentials"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			req := request{target: tc.target}
			if tc.authorization != "" {
				req.header = http.Header{"Authorization": {tc.authorization}}
			}
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, req.build())
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tc.status, rec.Body)
			}
			if tc.status == 401 && rec.Header().Get("WWW-Authenticate") != "Bearer" {
				t.Errorf("WWW-Authenticate = %q", rec.Header().Get("WWW-Authenticate"))
			}
			golden.Check(t, tc.golden, rec.Body.Bytes())
		})
	}

	// The token expires after the lifetime.
	t.Run("expired", func(t *testing.T) {
		expired := newServer(t, mock.Config{RequireAuth: true, Now: func() time.Time { return now.Add(mock.DefaultTokenLifetime + time.Second) }})
		rec := httptest.NewRecorder()
		expired.ServeHTTP(rec, request{target: "/reviews", header: http.Header{"Authorization": {"Bearer " + token}}}.build())
		if rec.Code != 401 {
			t.Fatalf("expired token: status %d", rec.Code)
		}
		golden.Check(t, "auth_bad_credentials", rec.Body.Bytes())
	})
}

func TestCORS(t *testing.T) {
	t.Parallel()
	anyOrigin := newServer(t, mock.Config{})
	restricted := newServer(t, mock.Config{CORSOrigins: []string{"http://localhost:5173"}})
	off := newServer(t, mock.Config{DisableCORS: true})
	preflight := http.Header{"Origin": {"http://localhost:5173"}, "Access-Control-Request-Method": {"POST"}, "Access-Control-Request-Headers": {"authorization,content-type"}}
	for _, tc := range []struct {
		name    string
		srv     http.Handler
		req     request
		status  int
		body    string
		headers map[string]string
	}{
		// Starlette 1.x names the origin whenever credentials are allowed.
		{"simple request, any origin", anyOrigin, request{target: "/person/1", header: http.Header{"Origin": {"http://localhost:5173"}}}, 200, "",
			map[string]string{"Access-Control-Allow-Origin": "http://localhost:5173", "Access-Control-Allow-Credentials": "true", "Vary": "Origin"}},
		{"simple 422, any origin", anyOrigin, request{target: "/person/abc", header: http.Header{"Origin": {"http://a.test"}}}, 422, "",
			map[string]string{"Access-Control-Allow-Origin": "http://a.test", "Vary": "Origin"}},
		{"an empty Origin is still an origin", anyOrigin, request{target: "/person/1", header: http.Header{"Origin": {""}}}, 200, "",
			map[string]string{"Access-Control-Allow-Credentials": "true", "Vary": "Origin"}},
		{"private-network preflight is refused", anyOrigin, request{method: "OPTIONS", target: "/reviews", header: http.Header{"Origin": {"http://a.test"}, "Access-Control-Request-Method": {"GET"}, "Access-Control-Request-Private-Network": {"true"}}}, 400, "Disallowed CORS private-network",
			map[string]string{"Access-Control-Allow-Origin": "http://a.test", "Access-Control-Allow-Private-Network": ""}},
		{"preflight with an empty method", anyOrigin, request{method: "OPTIONS", target: "/reviews", header: http.Header{"Origin": {"http://a.test"}, "Access-Control-Request-Method": {""}}}, 400, "Disallowed CORS method",
			map[string]string{"Access-Control-Allow-Origin": "http://a.test", "Content-Type": "text/plain; charset=utf-8"}},
		{"simple request with a cookie names the origin", anyOrigin, request{target: "/person/1", header: http.Header{"Origin": {"http://a.test"}, "Cookie": {"x=1"}}}, 200, "",
			map[string]string{"Access-Control-Allow-Origin": "http://a.test", "Vary": "Origin"}},
		{"no Origin, no CORS headers", anyOrigin, request{target: "/person/1"}, 200, "",
			map[string]string{"Access-Control-Allow-Origin": ""}},
		{"preflight", anyOrigin, request{method: "OPTIONS", target: "/auth/login", header: preflight}, 200, "OK",
			map[string]string{"Access-Control-Allow-Origin": "http://localhost:5173", "Access-Control-Allow-Methods": "DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT",
				"Access-Control-Allow-Headers": "authorization,content-type", "Access-Control-Max-Age": "600", "Access-Control-Allow-Credentials": "true", "Vary": "Origin"}},
		{"preflight on an unknown path is still answered", anyOrigin, request{method: "OPTIONS", target: "/nope", header: preflight}, 200, "OK", nil},
		{"restricted: allowed origin echoed", restricted, request{target: "/reviews/nope", header: http.Header{"Origin": {"http://localhost:5173"}}}, 404, `{"detail":"Review not found"}`,
			map[string]string{"Access-Control-Allow-Origin": "http://localhost:5173", "Vary": "Origin"}},
		{"restricted: other origin gets no CORS", restricted, request{target: "/reviews/nope", header: http.Header{"Origin": {"http://evil.test"}}}, 404, `{"detail":"Review not found"}`,
			map[string]string{"Access-Control-Allow-Origin": ""}},
		{"restricted: preflight from another origin", restricted, request{method: "OPTIONS", target: "/reviews", header: http.Header{"Origin": {"http://evil.test"}, "Access-Control-Request-Method": {"GET"}}}, 400, "Disallowed CORS origin",
			map[string]string{"Access-Control-Allow-Origin": ""}},
		{"preflight for an unknown method", anyOrigin, request{method: "OPTIONS", target: "/reviews", header: http.Header{"Origin": {"http://a.test"}, "Access-Control-Request-Method": {"PROPFIND"}}}, 400, "Disallowed CORS method", nil},
		{"CORS off: preflight is a 405", off, request{method: "OPTIONS", target: "/reviews", header: preflight}, 405, `{"detail":"Method Not Allowed"}`,
			map[string]string{"Access-Control-Allow-Origin": ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := httptest.NewRecorder()
			tc.srv.ServeHTTP(rec, tc.req.build())
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tc.status, rec.Body)
			}
			if tc.body != "" && rec.Body.String() != tc.body {
				t.Errorf("body %q, want %q", rec.Body, tc.body)
			}
			for k, want := range tc.headers {
				if got := rec.Header().Get(k); got != want {
					t.Errorf("%s = %q, want %q", k, got, want)
				}
			}
		})
	}
}

func TestDocumentsServed(t *testing.T) {
	t.Parallel()
	sp, _ := contractRouter(t)
	srv := newServer(t, mock.Config{})
	for _, tc := range []struct {
		target, contentType string
		want                []byte
	}{
		{"/openapi.json", "application/json", sp.JSON()},
		{"/openapi.yaml", "application/yaml", sp.YAML()},
	} {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, request{target: tc.target}.build())
		if rec.Code != 200 || rec.Header().Get("Content-Type") != tc.contentType || !bytes.Equal(rec.Body.Bytes(), tc.want) {
			t.Errorf("%s: %d %s", tc.target, rec.Code, rec.Header().Get("Content-Type"))
		}
	}
	// What /openapi.json serves loads back as the same contract.
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, request{target: "/openapi.json"}.build())
	if _, err := spec.Load(rec.Body.Bytes(), "served"); err != nil {
		t.Errorf("served /openapi.json does not load: %v", err)
	}
	rec = httptest.NewRecorder()
	srv.ServeHTTP(rec, request{target: "/docs"}.build())
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "SwaggerUIBundle") || !strings.Contains(rec.Body.String(), "url: '/openapi.json'") {
		t.Errorf("/docs: %d %.80s", rec.Code, rec.Body)
	}
}

// The request log has one line per request, and never a password or token.
func TestRequestLog(t *testing.T) {
	t.Parallel()
	var logBuf syncBuffer
	srv := newServer(t, mock.Config{Logger: newLogger(&logBuf), RequireAuth: true})
	token := login(t, srv, "alice", "wonderland")
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, request{target: "/person/2?api_key=topsecret", header: http.Header{"Authorization": {"Bearer " + token}}}.build())
	lines := strings.Split(strings.TrimSpace(logBuf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d log lines, want 2:\n%s", len(lines), logBuf.String())
	}
	for _, want := range []string{"method=POST path=/auth/login status=200", "method=GET path=/person/2 status=200", "duration="} {
		if !strings.Contains(logBuf.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, logBuf.String())
		}
	}
	for _, secret := range []string{"wonderland", token, "topsecret"} {
		if strings.Contains(logBuf.String(), secret) {
			t.Errorf("log contains a secret %q", secret)
		}
	}
}

// A list too large to keep rendered is streamed, and is the same JSON.
func TestLargeListIsStreamed(t *testing.T) {
	t.Parallel()
	d := generated(t, 12_000)
	reviews := d.Model.Collection("Review")
	recs := d.Table(reviews).Recs
	srv := newServer(t, mock.Config{Data: d})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	resp, err := http.Get(ts.URL + "/reviews")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.ContentLength != -1 || len(resp.TransferEncoding) == 0 {
		t.Errorf("a %d-review list was not streamed (Content-Length %d)", len(recs), resp.ContentLength)
	}
	var list []struct {
		ID string `json:"id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	if len(list) != len(recs) || list[0].ID != recs[0].Str(reviews.ID) || list[len(list)-1].ID != recs[len(list)-1].Str(reviews.ID) {
		t.Fatalf("streamed %d reviews, want %d in data set order", len(list), len(recs))
	}
}

func TestNewRefusesBadConfig(t *testing.T) {
	t.Parallel()
	if _, err := mock.New(mock.Config{TokenLifetime: -time.Second}); err == nil {
		t.Error("accepted a negative token lifetime")
	}
}

// An operation no convention places is answered with its declared
// example, else with a body generated for its schema (as Prism does),
// never refused.
func TestUnplacedOperationsAnswerFromExamples(t *testing.T) {
	t.Parallel()
	other, err := spec.Load([]byte(`{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{
		"/x":{"get":{"operationId":"mystery","responses":{"200":{"description":"ok","content":{"application/json":{"example":{"b":2,"a":"é"}}}}}}},
		"/y":{"get":{"operationId":"generated","responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"object","required":["n"],"properties":{"n":{"type":"integer","minimum":5,"maximum":9}}}}}}}}},
		"/z":{"post":{"operationId":"nothing","responses":{"204":{"description":"gone"}}}}}}`), "other")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: other})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest("GET", "/x", nil))
	if rec.Code != 200 || rec.Body.String() != `{"b":2,"a":"é"}` {
		t.Errorf("declared example: %d %s", rec.Code, rec.Body)
	}
	rec = httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest("GET", "/y", nil))
	var got struct{ N *int }
	if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &got) != nil || got.N == nil || *got.N < 5 || *got.N > 9 {
		t.Errorf("generated body: %d %s", rec.Code, rec.Body)
	}
	rec = httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest("POST", "/z", nil))
	if rec.Code != 204 || rec.Body.Len() != 0 {
		t.Errorf("no body: %d %q", rec.Code, rec.Body)
	}
}

// A crash (an unhandled exception, and the crash fault of scenarios) is
// answered from outside CORS, as Starlette's ServerErrorMiddleware does: no
// CORS headers. A scripted error status is an HTTPException, with them.
func TestCrashHasNoCORSHeaders(t *testing.T) {
	t.Parallel()
	srv := newServer(t, mock.Config{Scenario: "intermittent-errors"})
	origin := http.Header{"Origin": {"http://localhost:5173"}}
	want := []int{200, 200, 503, 200, 200, 503, 500}
	for i, status := range want {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, request{target: "/person/1", header: origin}.build())
		if rec.Code != status {
			t.Fatalf("request %d: status %d, want %d", i+1, rec.Code, status)
		}
		acao := rec.Header().Get("Access-Control-Allow-Origin")
		switch {
		case status == 500 && (acao != "" || rec.Header().Get("Vary") != "" || rec.Body.String() != "Internal Server Error"):
			t.Errorf("crash: CORS %q, Vary %q, body %q", acao, rec.Header().Get("Vary"), rec.Body)
		case status != 500 && acao != "http://localhost:5173":
			t.Errorf("request %d (%d): CORS %q, want the origin", i+1, status, acao)
		}
	}
}

// A field added to a schema in the contract, and to the data, is loaded,
// checked and served with no code change (a required field a record lacks
// is refused: fixtures' TestLoadReportsBadRecords).
func TestAFieldAddedToTheContractIsServed(t *testing.T) {
	t.Parallel()
	grown := strings.Replace(string(moviemock.OpenAPIYAML), "    Person:\n      properties:\n", "    Person:\n      properties:\n        nickname:\n          anyOf:\n            - type: string\n            - type: \"null\"\n          title: Nickname\n", 1)
	if grown == string(moviemock.OpenAPIYAML) {
		t.Fatal("the Person schema was not found in openapi.yaml")
	}
	sp, err := spec.Load([]byte(grown), "grown.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Compile(sp)
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{"persons.yaml": {Data: []byte("- {id: 1, name: Brad Pitt, nickname: Brad}\n- {id: 2, name: Ann}\n")}}
	d, err := fixtures.LoadFS(fsys, "dir", m)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: sp, Model: m, Data: d})
	if err != nil {
		t.Fatal(err)
	}
	for target, want := range map[string]string{
		"/person/1": `{"nickname":"Brad","id":1,"name":"Brad Pitt",`,
		"/person/2": `{"nickname":null,"id":2,"name":"Ann",`,
	} {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
		if rec.Code != 200 || !strings.HasPrefix(rec.Body.String(), want) {
			t.Errorf("%s: %d %s, want it to start %s", target, rec.Code, rec.Body, want)
		}
	}
}
