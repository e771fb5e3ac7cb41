package fastapi

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// CORS configurations other than the default, as Starlette 1.3.1's
// CORSMiddleware answers them (read from starlette/middleware/cors.py and
// checked against it).
func TestCORSConfigurations(t *testing.T) {
	t.Parallel()
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("app")) })
	mustMiddleware := func(c CORS) http.Handler {
		h, err := c.Middleware(ok)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	regex := mustMiddleware(CORS{AllowOriginRegex: `https://.*\.example\.org`, AllowMethods: []string{"GET"}, AllowHeaders: []string{"X-Token"}, MaxAge: 60})
	noCredentials := mustMiddleware(CORS{AllowOrigins: []string{"*"}, AllowMethods: []string{"*"}, ExposeHeaders: []string{"Retry-After"}, MaxAge: 600})
	private := mustMiddleware(CORS{AllowOrigins: []string{"http://a.test"}, AllowMethods: []string{"GET"}, AllowPrivateNetwork: true, AllowCredentials: true})
	for _, tc := range []struct {
		name    string
		h       http.Handler
		method  string
		header  http.Header
		status  int
		body    string
		headers map[string]string
	}{
		{"regex: a matching origin is named", regex, "GET", http.Header{"Origin": {"https://app.example.org"}}, 200, "app",
			map[string]string{"Access-Control-Allow-Origin": "https://app.example.org", "Vary": "Origin", "Access-Control-Allow-Credentials": ""}},
		{"regex: matched whole, not searched", regex, "GET", http.Header{"Origin": {"https://app.example.org.evil.test"}}, 200, "app",
			map[string]string{"Access-Control-Allow-Origin": ""}},
		{"listed headers: safelisted ones are always allowed", regex, "OPTIONS", http.Header{"Origin": {"https://a.example.org"}, "Access-Control-Request-Method": {"GET"}, "Access-Control-Request-Headers": {"content-type, X-TOKEN"}}, 200, "OK",
			map[string]string{"Access-Control-Allow-Headers": "Accept, Accept-Language, Content-Language, Content-Type, X-Token", "Access-Control-Allow-Methods": "GET", "Access-Control-Max-Age": "60", "Vary": "Origin"}},
		{"listed headers: another is refused", regex, "OPTIONS", http.Header{"Origin": {"https://a.example.org"}, "Access-Control-Request-Method": {"POST"}, "Access-Control-Request-Headers": {"authorization"}}, 400, "Disallowed CORS method, headers", nil},
		{"no credentials: a star, no Vary", noCredentials, "GET", http.Header{"Origin": {"http://b.test"}}, 200, "app",
			map[string]string{"Access-Control-Allow-Origin": "*", "Vary": "", "Access-Control-Expose-Headers": "Retry-After", "Access-Control-Allow-Credentials": ""}},
		{"no credentials: a star on preflight too", noCredentials, "OPTIONS", http.Header{"Origin": {"http://b.test"}, "Access-Control-Request-Method": {"PUT"}}, 200, "OK",
			map[string]string{"Access-Control-Allow-Origin": "*", "Vary": ""}},
		{"private network allowed", private, "OPTIONS", http.Header{"Origin": {"http://a.test"}, "Access-Control-Request-Method": {"GET"}, "Access-Control-Request-Private-Network": {"true"}}, 200, "OK",
			map[string]string{"Access-Control-Allow-Private-Network": "true", "Access-Control-Allow-Origin": "http://a.test"}},
		{"another origin gets the credentials header but no origin", private, "GET", http.Header{"Origin": {"http://z.test"}}, 200, "app",
			map[string]string{"Access-Control-Allow-Origin": "", "Access-Control-Allow-Credentials": "true", "Vary": ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := httptest.NewRequest(tc.method, "/x", nil)
			r.Header = tc.header
			rec := httptest.NewRecorder()
			tc.h.ServeHTTP(rec, r)
			if rec.Code != tc.status || rec.Body.String() != tc.body {
				t.Fatalf("%d %q, want %d %q", rec.Code, rec.Body, tc.status, tc.body)
			}
			for k, want := range tc.headers {
				if got := rec.Header().Get(k); got != want {
					t.Errorf("%s = %q, want %q", k, got, want)
				}
			}
		})
	}
}

func TestCheckOrigin(t *testing.T) {
	t.Parallel()
	for origin, bad := range map[string]bool{
		"*": false, "http://localhost:5173": false, "https://app.example.org": false, "http://[::1]:3000": false,
		"http://localhost:5173/": true, "localhost:5173": true, "https://*.example.org": true, "http://Example.org": true,
		"http://a.test:80": true, "http://a.test/app": true, "http://a.test?x": true, "": true,
	} {
		if why := CheckOrigin(origin); (why != "") != bad {
			t.Errorf("CheckOrigin(%q) = %q, want refused: %v", origin, why, bad)
		}
	}
}
