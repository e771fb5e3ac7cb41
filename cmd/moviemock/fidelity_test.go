package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/textproto"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/reference"
)

// The differential test: the real FastAPI backend (internal/reference,
// FastAPI 0.141.1 on uvicorn) and `moviemock serve` get the same raw
// requests, and their answers must agree in status, the headers a client
// reads and the body bytes. Tokens are compared by their claims. Every
// difference fails the test unless it is in knownDifferences, which the
// fidelity section of docs/fidelity.md repeats; a known difference that no longer
// differs fails too, so the list stays true.

// comparedHeaders are the answer headers a client or browser acts on.
// Date, Server and the framing headers (Content-Length, Transfer-Encoding)
// are left out: the body is compared byte for byte instead.
var comparedHeaders = []string{
	"Content-Type", "Location", "Allow", "Www-Authenticate", "Connection",
	"Access-Control-Allow-Origin", "Access-Control-Allow-Credentials", "Access-Control-Allow-Methods",
	"Access-Control-Allow-Headers", "Access-Control-Max-Age", "Access-Control-Expose-Headers",
	"Access-Control-Allow-Private-Network", "Vary",
}

// knownDifferences are the cases where the mock answers otherwise on
// purpose or cannot do better, each with the reason (docs/fidelity.md lists them).
var knownDifferences = map[string]string{
	"docs page":             "/docs loads Swagger UI from the mock itself, so it works offline; FastAPI's page loads it from a CDN",
	"redoc page":            "/redoc loads ReDoc from the mock itself, so it works offline; FastAPI's page loads it from a CDN",
	"bad escape %zz":        "Go's HTTP server refuses a broken percent-escape in the request line (400) before any handler; uvicorn passes the raw text on (a 422 for an integer id)",
	"bad escape %":          "as %zz",
	"bad escape %2":         "as %zz",
	"review bad escape":     "as %zz (uvicorn: 404 Review not found)",
	"HTTP/1.1 without Host": "Go's HTTP server answers 400 \"missing required Host header\" itself; h11 answers 400 \"Invalid HTTP request received.\"",
}

// exchange is one request sent to both servers.
type exchange struct {
	name string
	// raw builds the request bytes for a server at host (host:port); most
	// cases use req instead.
	raw func(host string) []byte
	req *http.Request
	// mockPath replaces the path on the mock's side only (where the two
	// servers model the same thing under different paths).
	mockPath string
	// compare picks what must agree: "" everything, "status" status and
	// content type only (the served documents, generated differently).
	compare string
}

// answer is one server's answer, as read off the wire.
type wireAnswer struct {
	status int
	header http.Header
	body   []byte
	err    error
}

// withoutHost replaces the server's own address, which a redirect's
// Location repeats from the Host header, with "HOST".
func (a wireAnswer) withoutHost(addr string) wireAnswer {
	for _, vs := range a.header {
		for i, v := range vs {
			vs[i] = strings.ReplaceAll(v, addr, "HOST")
		}
	}
	a.body = bytes.ReplaceAll(a.body, []byte(addr), []byte("HOST"))
	return a
}

func sendRaw(addr string, raw []byte) wireAnswer {
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return wireAnswer{err: err}
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(20 * time.Second))
	if _, err := conn.Write(raw); err != nil {
		return wireAnswer{err: err}
	}
	method := string(raw[:bytes.IndexByte(raw, ' ')])
	resp, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: method})
	if err != nil {
		return wireAnswer{err: err}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return wireAnswer{status: resp.StatusCode, header: resp.Header, body: body, err: err}
}

// rawRequest writes req for host as a client would, with Connection: close.
func rawRequest(req *http.Request, path, host string) []byte {
	var b bytes.Buffer
	target := req.URL.RequestURI()
	if path != "" {
		target = path
	}
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n", req.Method, target, host)
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	keys := make([]string, 0, len(req.Header))
	for k := range req.Header {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		for _, v := range req.Header[k] {
			fmt.Fprintf(&b, "%s: %s\r\n", k, v)
		}
	}
	if body != nil || req.Method == "POST" {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", len(body))
	}
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes()
}

// differences lists how the mock's answer differs from the reference's.
func differences(ref, got wireAnswer, compare string) []string {
	if ref.err != nil || got.err != nil {
		if ref.err != nil && got.err != nil {
			return nil
		}
		return []string{fmt.Sprintf("transport: reference %v, mock %v", ref.err, got.err)}
	}
	var diffs []string
	if ref.status != got.status {
		diffs = append(diffs, fmt.Sprintf("status: reference %d, mock %d", ref.status, got.status))
	}
	headers := comparedHeaders
	if compare == "status" {
		headers = []string{"Content-Type"}
	}
	for _, h := range headers {
		r, g := strings.Join(ref.header.Values(h), " | "), strings.Join(got.header.Values(h), " | ")
		if h == "Allow" {
			// Starlette joins a Python set of methods: for FastAPI's own
			// routes ({"GET", "HEAD"}) the order changes from one process
			// to the next with Python's hash randomization.
			r, g = sortedList(r), sortedList(g)
		}
		if r != g {
			diffs = append(diffs, fmt.Sprintf("header %s: reference %q, mock %q", h, r, g))
		}
	}
	if compare == "" && !bytes.Equal(ref.body, got.body) && !sameTokenAnswer(ref.body, got.body) {
		diffs = append(diffs, fmt.Sprintf("body:\n  reference %s\n  mock      %s", clip(ref.body), clip(got.body)))
	}
	return diffs
}

func sortedList(s string) string {
	parts := strings.Split(s, ", ")
	slices.Sort(parts)
	return strings.Join(parts, ", ")
}

func clip(b []byte) string {
	if len(b) > 600 {
		return fmt.Sprintf("%q… (%d bytes)", b[:600], len(b))
	}
	return fmt.Sprintf("%q", b)
}

// sameTokenAnswer compares two login answers by the token's header and
// claims: the same user, algorithm and lifetime, issued at about the same
// time (the servers sign at different instants).
func sameTokenAnswer(a, b []byte) bool {
	type answer struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
	}
	var x, y answer
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil || x.AccessToken == "" || x.TokenType != y.TokenType {
		return false
	}
	// The bodies must be the same but for the token.
	if !bytes.Equal(bytes.Replace(a, []byte(x.AccessToken), nil, 1), bytes.Replace(b, []byte(y.AccessToken), nil, 1)) {
		return false
	}
	cx, hx, okx := tokenParts(x.AccessToken)
	cy, hy, oky := tokenParts(y.AccessToken)
	if !okx || !oky || hx != hy || cx["sub"] != cy["sub"] {
		return false
	}
	if len(cx) != len(cy) {
		return false
	}
	life := func(c map[string]any) float64 { e, _ := c["exp"].(float64); i, _ := c["iat"].(float64); return e - i }
	iat := func(c map[string]any) float64 { i, _ := c["iat"].(float64); return i }
	return life(cx) == life(cy) && iat(cx)-iat(cy) < 30 && iat(cy)-iat(cx) < 30
}

func tokenParts(token string) (map[string]any, string, bool) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, "", false
	}
	head, err1 := base64.RawURLEncoding.DecodeString(parts[0])
	payload, err2 := base64.RawURLEncoding.DecodeString(parts[1])
	var claims map[string]any
	if err1 != nil || err2 != nil || json.Unmarshal(payload, &claims) != nil {
		return nil, "", false
	}
	return claims, string(head), true
}

// pair is the reference backend and the mock, configured alike.
type pair struct {
	ref, mock string // host:port
}

func startPair(t *testing.T, opts reference.Options, args ...string) pair {
	t.Helper()
	ref := reference.Start(t, opts)
	base, _ := serve(t, noEnv, append([]string{"--quiet"}, args...)...)
	return pair{ref: ref.Addr, mock: strings.TrimPrefix(base, "http://")}
}

// check sends every exchange to both servers and reports each difference
// that is not a known one.
func (p pair) check(t *testing.T, cases []exchange) (same int) {
	t.Helper()
	for _, c := range cases {
		build := func(host, path string) []byte {
			if c.raw != nil {
				return c.raw(host)
			}
			return rawRequest(c.req, path, host)
		}
		ref := sendRaw(p.ref, build(p.ref, "")).withoutHost(p.ref)
		got := sendRaw(p.mock, build(p.mock, c.mockPath)).withoutHost(p.mock)
		diffs := differences(ref, got, c.compare)
		reason, known := knownDifferences[c.name]
		switch {
		case len(diffs) > 0 && !known:
			t.Errorf("%s: the mock differs from FastAPI:\n  %s", c.name, strings.Join(diffs, "\n  "))
		case len(diffs) == 0 && known:
			t.Errorf("%s: listed as a known difference (%s) but the answers agree: take it off the list and docs/fidelity.md", c.name, reason)
		case len(diffs) == 0:
			same++
		}
	}
	return same
}

func newReq(method, target string, body io.Reader, header ...string) *http.Request {
	r, err := http.NewRequest(method, "http://placeholder"+target, body)
	if err != nil {
		panic(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Add(header[i], header[i+1])
	}
	return r
}

func getReq(target string, header ...string) *http.Request {
	return newReq("GET", target, nil, header...)
}

func loginForm(body string, header ...string) *http.Request {
	return newReq("POST", "/auth/login", strings.NewReader(body), append([]string{"Content-Type", "application/x-www-form-urlencoded"}, header...)...)
}

func loginWith(contentType, body string) *http.Request {
	h := []string{}
	if contentType != "" {
		h = []string{"Content-Type", contentType}
	}
	return newReq("POST", "/auth/login", strings.NewReader(body), h...)
}

// multipartLogin builds a multipart login; a field named "@name" is sent
// as a file part with that content.
func multipartLogin(fields ...string) *http.Request {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	w.SetBoundary("moviemockboundary")
	for i := 0; i+1 < len(fields); i += 2 {
		name := fields[i]
		if file, ok := strings.CutPrefix(name, "@"); ok {
			h := textproto.MIMEHeader{}
			h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename="upload.txt"`, file))
			h.Set("Content-Type", "text/plain")
			part, _ := w.CreatePart(h)
			part.Write([]byte(fields[i+1]))
			continue
		}
		w.WriteField(name, fields[i+1])
	}
	w.Close()
	return newReq("POST", "/auth/login", &b, "Content-Type", w.FormDataContentType())
}

func rawLine(line string, headers ...string) func(string) []byte {
	return func(host string) []byte {
		var b strings.Builder
		b.WriteString(line + "\r\n")
		hasHost := false
		for _, h := range headers {
			if strings.HasPrefix(strings.ToLower(h), "host:") {
				hasHost = true
			}
		}
		if !hasHost && !strings.HasSuffix(line, "HTTP/1.0") && !slices.Contains(headers, "-host") {
			b.WriteString("Host: " + host + "\r\n")
		}
		for _, h := range headers {
			if h != "-host" {
				b.WriteString(h + "\r\n")
			}
		}
		b.WriteString("Connection: close\r\n\r\n")
		return []byte(b.String())
	}
}

const testOrigin = "http://localhost:5173"

func TestDifferentialAgainstFastAPI(t *testing.T) {
	reference.Require(t)
	data, err := fixtures.Default()
	if err != nil {
		t.Fatal(err)
	}
	t.Parallel()
	total, same := 0, 0
	count := func(p pair, t *testing.T, cases []exchange) {
		total += len(cases)
		same += p.check(t, cases)
	}

	t.Run("default", func(t *testing.T) {
		p := startPair(t, reference.Options{TestRoutes: true}, "--scenarios", crashScenarios(t))
		var cases []exchange
		add := func(name string, req *http.Request) { cases = append(cases, exchange{name: name, req: req}) }
		persons, reviews := data.Model.Collection("Person"), data.Model.Collection("Review")
		for _, person := range data.Table(persons).Recs {
			id := string(person.Value(persons.ID))
			add("person "+id, getReq("/person/"+id))
		}
		for i, review := range data.Table(reviews).Recs {
			add(fmt.Sprintf("review %d", i), getReq("/reviews/"+url.PathEscape(review.Str(reviews.ID))))
		}
		for _, id := range []string{"0", "-1", "99999", "00012", "+12", "%2012%20", "%0912%0A", "1_000", "12.0000", "1.", "1.5", "1.50",
			"1e3", "0x10", "inf", "nan", "12abc", "1%202", "1__0", "_1", "-", "%20", "%D9%A1%D9%A2", "%EF%BC%91%EF%BC%92", "abc",
			"99999999999999999999999", "-99999999999999999999999", "9223372036854775807", "9223372036854775808",
			strings.Repeat("7", 4300), strings.Repeat("7", 4301), "-" + strings.Repeat("7", 4300), strings.Repeat("0", 20) + strings.Repeat("7", 4300),
			strings.Repeat("7", 4301) + "x", "%31", "%41", "%C3%A9", "%E2%82%AC"} {
			add("person id "+clipName(id), getReq("/person/"+id))
		}
		for _, id := range []string{"nope", "%C3%A9t%C3%A9", "a%2Fb", "%20", "x%3Fy", strings.Repeat("r", 5000), "B42BFD96-9925-4DA9-8C96-EED6B998B81F"} {
			add("review id "+clipName(id), getReq("/reviews/"+id))
		}
		for _, target := range []string{"/reviews", "/reviews?limit=1", "/reviews?x=%zz", "/reviews/", "/reviews/?a=1&b=%C3%A9", "/person/5/", "/person/5//",
			"/person/", "/person", "/", "/nope", "/Person/1", "/person/1/extra", "//person/1", "/person//1", "/auth/login/", "/auth/login",
			"/openapi.json/", "/docs/", "/reviews/a/b", "/%2Fperson/1", "/person/1?person_id=2", "/reviews?skip=x"} {
			add("GET "+target, getReq(target))
		}
		for _, m := range []struct{ method, target string }{
			{"POST", "/person/1"}, {"DELETE", "/reviews"}, {"HEAD", "/person/1"}, {"PUT", "/auth/login"}, {"PATCH", "/reviews/x"},
			{"OPTIONS", "/reviews"}, {"TRACE", "/person/1"}, {"POST", "/docs"}, {"DELETE", "/openapi.json"}, {"HEAD", "/reviews/nope"},
			{"HEAD", "/nope"}, {"POST", "/nope"}, {"POST", "/reviews/"}, {"BREW", "/person/1"},
		} {
			add(m.method+" "+m.target, newReq(m.method, m.target, nil))
		}
		// FastAPI's own routes answer HEAD; the documents themselves are
		// generated differently (FastAPI from Python models, the mock from
		// openapi.yaml), so only their status and type are compared here.
		cases = append(cases,
			exchange{name: "openapi document", req: getReq("/openapi.json"), compare: "status"},
			exchange{name: "HEAD openapi document", req: newReq("HEAD", "/openapi.json", nil), compare: "status"},
			exchange{name: "docs page", req: getReq("/docs")},
			exchange{name: "HEAD docs page", req: newReq("HEAD", "/docs", nil), compare: "status"},
			exchange{name: "redoc page", req: getReq("/redoc")},
			exchange{name: "HEAD redoc", req: newReq("HEAD", "/redoc", nil), compare: "status"},
			exchange{name: "oauth2 redirect page", req: getReq("/docs/oauth2-redirect")},
		)

		// Login.
		users := map[string]string{"alice": "wonderland", "bob": "builder", "carol": "singalong", "dave": "davepass",
			"erin": "erin-1234", "frank": "frankly", "zoë": "pässwörd"}
		for user, password := range users {
			add("login "+user, loginForm("username="+url.QueryEscape(user)+"&password="+url.QueryEscape(password)))
			add("login "+user+" wrong password", loginForm("username="+url.QueryEscape(user)+"&password=nope"))
		}
		for _, body := range []string{"", "username=alice", "password=x", "username=&password=x", "username=alice&password=",
			"username=ghost&password=x", "grant_type=password&username=alice&password=wonderland", "grant_type=Password&username=alice&password=wonderland",
			"grant_type=+password&username=alice&password=wonderland", "grant_type=password%0A&username=alice&password=wonderland",
			"grant_type=foo", "grant_type=&username=alice&password=wonderland", "scope=a+b&client_id=c&client_secret=d&username=alice&password=wonderland",
			"username=bob&username=alice&password=wonderland", "username=alice;password=wonderland", "username=alice&password=wonderland;x=1",
			"username=alice&&&password=wonderland&", "username&password=wonderland", "=x&username=alice&password=wonderland",
			"username=al%69ce&password=wonder%6cand", "username=alice&password=wonderland&unknown=1", "username=%zz&password=%",
			"username=zo%C3%AB&password=p%C3%A4ssw%C3%B6rd", "username=zo\xc3\xab&password=p\xc3\xa4ssw\xc3\xb6rd", "username=alice&password=wonder+land",
			"username=" + strings.Repeat("a", 1<<20-9) + "&password=x", "username=" + strings.Repeat("a", 1<<20-8) + "&password=x",
			strings.Repeat("a=1&", 1000) + "username=alice&password=x", strings.Repeat("a=1&", 998) + "username=alice&password=x",
			strings.Repeat("pad="+strings.Repeat("z", 1000)+"&", 900) + "username=alice&password=x",
		} {
			add("login form "+clipName(body), loginForm(body))
		}
		for _, ct := range []struct{ contentType, body string }{
			{"application/json", `{"username":"alice","password":"wonderland"}`},
			{"", "username=alice&password=wonderland"},
			{"text/plain", "username=alice&password=wonderland"},
			{"application/x-www-form-urlencoded; charset=utf-8", "username=alice&password=wonderland"},
			{"Application/X-WWW-Form-Urlencoded", "username=alice&password=wonderland"},
			{"Application/X-WWW-Form-Urlencoded; charset=utf-8", "username=alice&password=wonderland"},
			{"multipart/form-data", "username=alice"},
			{"multipart/form-data; boundary=zz", "--zz\r\nno end of headers"},
			{"multipart/form-data; boundary=zz", "--zz--\r\n"},
			{"multipart/form-data; boundary=zz", "--zz\r\nContent-Disposition: form-data\r\n\r\nx\r\n--zz--\r\n"},
			{"multipart/form-data; boundary=zz", "--zz\r\nContent-Disposition: form-data; name=\"username\"\r\n\r\nalice\r\n--zz\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\n\xff\xfe\r\n--zz--\r\n"},
		} {
			add("login content type "+clipName(ct.contentType+" "+ct.body), loginWith(ct.contentType, ct.body))
		}
		add("multipart login", multipartLogin("username", "alice", "password", "wonderland"))
		add("multipart wrong password", multipartLogin("username", "alice", "password", "x"))
		add("multipart repeated key", multipartLogin("username", "bob", "username", "alice", "password", "wonderland"))
		for _, content := range []string{"alice", "", "ab", "ab\ncd", "abc\nab", "abc\nabc\nxy", "ab\nab\n", "line\n"} {
			add("multipart file part "+clipName(content), multipartLogin("@username", content, "password", "x"))
		}
		add("multipart file then field", multipartLogin("@username", "x", "username", "alice", "password", "wonderland"))
		add("multipart field then file", multipartLogin("username", "alice", "@username", "x", "password", "wonderland"))
		add("multipart big file part", multipartLogin("@password", strings.Repeat("z", 1<<20+10), "username", "alice"))

		// CORS.
		for _, target := range []string{"/person/1", "/person/abc", "/reviews/nope", "/reviews/", "/nope"} {
			add("CORS GET "+target, getReq(target, "Origin", testOrigin))
		}
		add("CORS HEAD", newReq("HEAD", "/person/1", nil, "Origin", testOrigin))
		add("CORS 405", newReq("DELETE", "/person/1", nil, "Origin", testOrigin))
		add("CORS login", loginForm("username=alice&password=wonderland", "Origin", testOrigin))
		add("CORS 401", loginForm("username=alice&password=x", "Origin", testOrigin))
		add("CORS with cookie", getReq("/person/1", "Origin", testOrigin, "Cookie", "a=1"))
		add("CORS empty origin", getReq("/person/1", "Origin", ""))
		add("CORS null origin", getReq("/person/1", "Origin", "null"))
		for _, h := range [][]string{
			{"Access-Control-Request-Method", "POST"},
			{"Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "authorization,content-type,x-mock-session"},
			{"Access-Control-Request-Method", ""},
			{"Access-Control-Request-Method", "PROPFIND"},
			{"Access-Control-Request-Method", "get"},
			{"Access-Control-Request-Method", "GET", "Access-Control-Request-Private-Network", "true"},
			{"Access-Control-Request-Method", "GET", "Access-Control-Request-Headers", ""},
		} {
			add("preflight "+strings.Join(h, " "), newReq("OPTIONS", "/auth/login", nil, append([]string{"Origin", testOrigin}, h...)...))
		}
		add("preflight on an unknown path", newReq("OPTIONS", "/nope", nil, "Origin", testOrigin, "Access-Control-Request-Method", "GET"))
		add("OPTIONS without preflight headers", newReq("OPTIONS", "/person/1", nil, "Origin", testOrigin))

		// Crashes: an unhandled exception has no CORS headers; an
		// HTTPException(500) has them.
		cases = append(cases,
			exchange{name: "crash", req: getReq("/__reference/crash", "Origin", testOrigin, "X-Mock-Scenario", "always-crash"), mockPath: "/person/1"},
			exchange{name: "crash without origin", req: getReq("/__reference/crash", "X-Mock-Scenario", "always-crash"), mockPath: "/person/1"},
			exchange{name: "HTTPException 500", req: getReq("/__reference/http500", "Origin", testOrigin, "X-Mock-Scenario", "always-http500"), mockPath: "/person/1"},
		)

		// The request line, where uvicorn (h11) and Go's server differ.
		cases = append(cases,
			exchange{name: "raw non-ASCII path", raw: rawLine("GET /person/\xc3\xa9 HTTP/1.1")},
			exchange{name: "raw non-ASCII review", raw: rawLine("GET /reviews/caf\xe9 HTTP/1.1")},
			exchange{name: "absolute-form target", raw: func(host string) []byte {
				return rawLine("GET http://" + host + "/person/1 HTTP/1.1")(host)
			}},
			exchange{name: "OPTIONS *", raw: rawLine("OPTIONS * HTTP/1.1")},
			exchange{name: "HTTP/1.0 without Host", raw: rawLine("GET /person/1 HTTP/1.0")},
			exchange{name: "HTTP/1.1 without Host", raw: rawLine("GET /person/1 HTTP/1.1", "-host")},
			exchange{name: "bad escape %zz", raw: rawLine("GET /person/%zz HTTP/1.1")},
			exchange{name: "bad escape %", raw: rawLine("GET /person/% HTTP/1.1")},
			exchange{name: "bad escape %2", raw: rawLine("GET /person/%2 HTTP/1.1")},
			exchange{name: "review bad escape", raw: rawLine("GET /reviews/%zz HTTP/1.1")},
		)
		count(p, t, cases)
	})

	t.Run("require-auth", func(t *testing.T) {
		p := startPair(t, reference.Options{RequireAuth: true}, "--require-auth")
		secret := []byte("moviemock-development-secret-do-not-use-in-production")
		sign := func(alg jwt.SigningMethod, claims jwt.MapClaims, key any) string {
			s, err := jwt.NewWithClaims(alg, claims).SignedString(key)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		now := time.Now()
		valid := sign(jwt.SigningMethodHS256, jwt.MapClaims{"sub": "alice", "exp": now.Add(time.Hour).Unix(), "iat": now.Unix()}, secret)
		bearer := func(name, value string) []exchange {
			var out []exchange
			for _, target := range []string{"/person/1", "/reviews", "/person/abc", "/reviews/nope"} {
				out = append(out, exchange{name: name + " " + target, req: getReq(target, "Authorization", value)})
			}
			return out
		}
		var cases []exchange
		cases = append(cases, exchange{name: "no header /person/1", req: getReq("/person/1")},
			exchange{name: "no header /person/abc", req: getReq("/person/abc")},
			exchange{name: "no header, CORS", req: getReq("/reviews", "Origin", testOrigin)},
			exchange{name: "login stays public", req: loginForm("username=alice&password=wonderland")},
			exchange{name: "openapi document", req: getReq("/openapi.json"), compare: "status"})
		for _, tc := range []struct{ name, value string }{
			{"valid", "Bearer " + valid},
			{"lower-case scheme", "bearer " + valid},
			{"spaces around the token", "Bearer   " + valid + "  "},
			{"tab before the token", "Bearer \t" + valid},
			{"Basic", "Basic YWxpY2U6d29uZGVybGFuZA=="},
			{"Bearer alone", "Bearer"},
			{"Bearer and a space", "Bearer "},
			{"garbage", "Bearer not.a.jwt"},
			{"other secret", "Bearer " + sign(jwt.SigningMethodHS256, jwt.MapClaims{"sub": "alice", "exp": now.Add(time.Hour).Unix()}, []byte("other"))},
			{"alg none", "Bearer " + sign(jwt.SigningMethodNone, jwt.MapClaims{"sub": "alice", "exp": now.Add(time.Hour).Unix()}, jwt.UnsafeAllowNoneSignatureType)},
			{"HS512", "Bearer " + sign(jwt.SigningMethodHS512, jwt.MapClaims{"sub": "alice", "exp": now.Add(time.Hour).Unix()}, secret)},
			{"no exp", "Bearer " + sign(jwt.SigningMethodHS256, jwt.MapClaims{"sub": "alice"}, secret)},
			{"expired", "Bearer " + sign(jwt.SigningMethodHS256, jwt.MapClaims{"sub": "alice", "exp": now.Add(-time.Hour).Unix()}, secret)},
			{"iat in the future", "Bearer " + sign(jwt.SigningMethodHS256, jwt.MapClaims{"sub": "alice", "iat": now.Add(time.Hour).Unix()}, secret)},
			{"nbf in the future", "Bearer " + sign(jwt.SigningMethodHS256, jwt.MapClaims{"sub": "alice", "nbf": now.Add(time.Hour).Unix()}, secret)},
			{"an audience", "Bearer " + sign(jwt.SigningMethodHS256, jwt.MapClaims{"sub": "alice", "aud": "api"}, secret)},
			{"no sub", "Bearer " + sign(jwt.SigningMethodHS256, jwt.MapClaims{"exp": now.Add(time.Hour).Unix()}, secret)},
			{"unknown user", "Bearer " + sign(jwt.SigningMethodHS256, jwt.MapClaims{"sub": "ghost"}, secret)},
		} {
			cases = append(cases, bearer(tc.name, tc.value)...)
		}
		count(p, t, cases)
	})

	t.Run("restricted CORS", func(t *testing.T) {
		expose := []string{"Retry-After", "WWW-Authenticate"}
		p := startPair(t, reference.Options{CORSOrigins: []string{testOrigin}, ExposeHeaders: expose},
			"--cors-origin", testOrigin, "--cors-expose-headers", strings.Join(expose, ","))
		var cases []exchange
		for _, o := range []string{testOrigin, "http://evil.test", "http://localhost:5173/", ""} {
			cases = append(cases,
				exchange{name: "simple from " + o, req: getReq("/person/1", "Origin", o)},
				exchange{name: "401 from " + o, req: loginForm("username=alice&password=x", "Origin", o)},
				exchange{name: "preflight from " + o, req: newReq("OPTIONS", "/auth/login", nil, "Origin", o, "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "content-type")})
		}
		cases = append(cases, exchange{name: "no origin", req: getReq("/person/1")})
		count(p, t, cases)
	})

	t.Cleanup(func() {
		t.Logf("%d exchanges, %d identical, %d known differences", total, same, len(knownDifferences))
		if total < 300 {
			t.Errorf("only %d exchanges: the differential test promises at least 300", total)
		}
	})
}

func clipName(s string) string {
	if len(s) > 40 {
		return fmt.Sprintf("%s…(%d bytes)", s[:40], len(s))
	}
	return s
}

// crashScenarios writes scenarios that answer every request with a crash
// and with an HTTPException(500), the mock's two models of a failing
// backend.
func crashScenarios(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"always-crash.yaml":   "name: always-crash\ndescription: every request crashes\nrules:\n  - fault: crash\n",
		"always-http500.yaml": "name: always-http500\ndescription: every request is an HTTPException(500)\nrules:\n  - off_spec: true\n    respond:\n      status: 500\n      body: {detail: Internal Server Error}\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// The contract runner finds nothing wrong with the real FastAPI backend:
// no false alarm on a correct implementation, with the embedded contract
// and with the backend's own /openapi.json, with and without auth.
func TestContractAgainstFastAPI(t *testing.T) {
	reference.Require(t)
	t.Parallel()
	for _, tc := range []struct {
		name string
		opts reference.Options
		spec bool // --spec the backend's own /openapi.json
	}{
		{"embedded contract", reference.Options{}, false},
		{"the backend's own document", reference.Options{}, true},
		{"require auth", reference.Options{RequireAuth: true}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ref := reference.Start(t, tc.opts)
			args := []string{"contract", "--base-url", ref.URL, "--username", "alice", "--password", "wonderland",
				"--jwt-secret", "moviemock-development-secret-do-not-use-in-production", "--examples", "20", "--max-response-time", slowOK}
			if tc.spec {
				args = append(args, "--spec", ref.URL+"/openapi.json")
			}
			var out, errOut strings.Builder
			err := run(t.Context(), args, noEnv, &out, &errOut)
			if code := exitCode(err, &errOut); code != 0 {
				t.Fatalf("exit %d (%v) against FastAPI:\n%s\n%s", code, err, out.String(), errOut.String())
			}
			report := out.String()
			if !strings.Contains(report, "passed") {
				t.Errorf("report:\n%s", report)
			}
			t.Logf("%s", report[:min(len(report), 300)])
		})
	}
}
