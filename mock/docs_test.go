package mock_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/internal/golden"
	"github.com/moviemock/moviemock/internal/reference"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// FastAPI's pages, byte for byte as FastAPI 0.141.1 serves them for an app
// with the contract's title: testdata/<golden>.golden, recorded from FastAPI
// itself by TestFastAPIDocsGolden.
var fastapiPages = []struct{ path, golden string }{
	{"/docs", "fastapi_docs"},
	{"/redoc", "fastapi_redoc"},
	{"/docs/oauth2-redirect", "fastapi_oauth2_redirect"},
}

// localAssets is the one deliberate difference between FastAPI's pages and
// the mock's: the files FastAPI loads from CDNs come from the mock, and
// ReDoc's page has no Google Fonts stylesheet (nothing leaves the machine).
var localAssets = strings.NewReplacer(
	`    <link href="https://fonts.googleapis.com/css?family=Montserrat:300,400,700|Roboto:300,400,700" rel="stylesheet">`+"\n", "",
	"https://cdn.jsdelivr.net/npm/swagger-ui-dist@5/swagger-ui-bundle.js", "/docs/assets/swagger-ui-bundle.js",
	"https://cdn.jsdelivr.net/npm/swagger-ui-dist@5/swagger-ui.css", "/docs/assets/swagger-ui.css",
	"https://cdn.jsdelivr.net/npm/redoc@2/bundles/redoc.standalone.js", "/docs/assets/redoc.standalone.js",
	"https://fastapi.tiangolo.com/img/favicon.png", "/docs/assets/favicon.png",
)

// fastapiAnswer is one response in testdata/fastapi_routes.golden.
type fastapiAnswer struct {
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers,omitempty"` // names in lower case, as ASGI has them
	Body    string            `json:"body"`
}

func (a fastapiAnswer) header(name string) string { return a.Headers[strings.ToLower(name)] }

// fastapiRoutes reads testdata/fastapi_routes.golden: path → method →
// FastAPI's answer (bodies of the GET pages left out: they are in their own
// golden files).
func fastapiRoutes(t *testing.T) map[string]map[string]fastapiAnswer {
	t.Helper()
	data, err := os.ReadFile("testdata/fastapi_routes.golden")
	if err != nil {
		t.Fatal(err)
	}
	var routes map[string]map[string]fastapiAnswer
	if err := json.Unmarshal(data, &routes); err != nil {
		t.Fatal(err)
	}
	return routes
}

func serve(srv http.Handler, req request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req.build())
	return rec
}

// /docs, /redoc and /docs/oauth2-redirect are FastAPI's pages but for the
// asset URLs.
func TestDocsPages(t *testing.T) {
	t.Parallel()
	srv := newServer(t, mock.Config{})
	routes := fastapiRoutes(t)
	for _, p := range fastapiPages {
		t.Run(p.path, func(t *testing.T) {
			t.Parallel()
			fastapiPage, err := os.ReadFile(filepath.Join("testdata", p.golden+".golden"))
			if err != nil {
				t.Fatal(err)
			}
			want := localAssets.Replace(string(fastapiPage))
			rec := serve(srv, request{target: p.path})
			fa := routes[p.path]["GET"]
			if rec.Code != fa.Status || rec.Header().Get("Content-Type") != fa.header("Content-Type") {
				t.Errorf("%d %q, FastAPI answers %d %q", rec.Code, rec.Header().Get("Content-Type"), fa.Status, fa.header("Content-Type"))
			}
			if got := rec.Body.String(); got != want {
				t.Errorf("page differs from FastAPI's with local assets\n got: %q\nwant: %q", got, want)
			}
			if cl := rec.Header().Get("Content-Length"); cl != strconv.Itoa(len(want)) {
				t.Errorf("Content-Length %s, body %d bytes", cl, len(want))
			}
		})
	}
}

// HEAD on FastAPI's own routes is GET without the body; other methods are
// 405 with the methods in Allow, as FastAPI answers them.
func TestDocsRoutesMethods(t *testing.T) {
	t.Parallel()
	srv := newServer(t, mock.Config{})
	routes := fastapiRoutes(t)
	// /openapi.yaml is the mock's own, with the same methods.
	routes["/openapi.yaml"] = routes["/openapi.json"]
	for path, answers := range routes {
		get := serve(srv, request{target: path})
		if get.Code != 200 {
			t.Fatalf("GET %s: %d", path, get.Code)
		}
		for _, method := range []string{"HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"} {
			t.Run(method+" "+path, func(t *testing.T) {
				t.Parallel()
				fa, ok := answers[method]
				if !ok {
					fa = answers["POST"] // FastAPI's 405 is the same for every other method
				}
				rec := serve(srv, request{method: method, target: path})
				if rec.Code != fa.Status || rec.Header().Get("Allow") != fa.header("Allow") {
					t.Errorf("%d Allow %q, FastAPI answers %d Allow %q", rec.Code, rec.Header().Get("Allow"), fa.Status, fa.header("Allow"))
				}
				if method == "HEAD" {
					if rec.Body.Len() != 0 || rec.Header().Get("Content-Length") != strconv.Itoa(get.Body.Len()) ||
						rec.Header().Get("Content-Type") != get.Header().Get("Content-Type") {
						t.Errorf("HEAD: %d bytes, Content-Length %s, Content-Type %q; GET sends %d bytes of %q",
							rec.Body.Len(), rec.Header().Get("Content-Length"), rec.Header().Get("Content-Type"), get.Body.Len(), get.Header().Get("Content-Type"))
					}
					return
				}
				if rec.Body.String() != fa.Body || rec.Header().Get("Content-Type") != fa.header("Content-Type") {
					t.Errorf("%q %s, FastAPI answers %q %s", rec.Header().Get("Content-Type"), rec.Body, fa.header("Content-Type"), fa.Body)
				}
			})
		}
	}
}

// Every file the pages load is served by the mock, with its type, so the
// pages work offline: they link nothing outside the mock.
func TestDocsAssets(t *testing.T) {
	t.Parallel()
	srv := newServer(t, mock.Config{})
	outside := map[string]bool{}
	wantType := map[string]struct {
		contentType string
		minSize     int
	}{
		".js":  {"text/javascript; charset=utf-8", 500 << 10},
		".css": {"text/css; charset=utf-8", 50 << 10},
		".png": {"image/png", 100},
	}
	link := regexp.MustCompile(`(?:src|href)="([^"]*)"`)
	seen := map[string]bool{}
	for _, page := range []string{"/docs", "/redoc"} {
		for _, m := range link.FindAllStringSubmatch(serve(srv, request{target: page}).Body.String(), -1) {
			u := m[1]
			if outside[u] || seen[u] {
				continue
			}
			seen[u] = true
			t.Run(u, func(t *testing.T) {
				t.Parallel()
				if !strings.HasPrefix(u, "/docs/assets/") {
					t.Fatalf("%s links %s, not served by the mock", page, u)
				}
				want := wantType[filepath.Ext(u)]
				rec := serve(srv, request{target: u})
				plain := rec.Body.Bytes()
				if rec.Code != 200 || rec.Header().Get("Content-Type") != want.contentType || len(plain) < want.minSize ||
					rec.Header().Get("Content-Length") != strconv.Itoa(len(plain)) || rec.Header().Get("Content-Encoding") != "" {
					t.Fatalf("%d %q %d bytes (Content-Length %s, Content-Encoding %q), want 200 %q of at least %d",
						rec.Code, rec.Header().Get("Content-Type"), len(plain), rec.Header().Get("Content-Length"),
						rec.Header().Get("Content-Encoding"), want.contentType, want.minSize)
				}
				etag := rec.Header().Get("ETag")
				if etag == "" || rec.Header().Get("Cache-Control") != "no-cache" {
					t.Errorf("ETag %q, Cache-Control %q: browsers cannot revalidate", etag, rec.Header().Get("Cache-Control"))
				}
				if rec := serve(srv, request{target: u, header: http.Header{"If-None-Match": {etag}}}); rec.Code != 304 || rec.Body.Len() != 0 {
					t.Errorf("If-None-Match: %d with %d bytes, want 304", rec.Code, rec.Body.Len())
				}
				if rec := serve(srv, request{method: "HEAD", target: u}); rec.Code != 200 || rec.Body.Len() != 0 ||
					rec.Header().Get("Content-Length") != strconv.Itoa(len(plain)) {
					t.Errorf("HEAD: %d, %d bytes, Content-Length %s", rec.Code, rec.Body.Len(), rec.Header().Get("Content-Length"))
				}
				if want.contentType == "image/png" {
					return // stored as is
				}
				gz := serve(srv, request{target: u, header: http.Header{"Accept-Encoding": {"gzip, deflate, br"}}})
				if gz.Header().Get("Content-Encoding") != "gzip" || !strings.Contains(gz.Header().Get("Vary"), "Accept-Encoding") ||
					gz.Header().Get("ETag") == etag || gz.Header().Get("Content-Length") != strconv.Itoa(gz.Body.Len()) {
					t.Fatalf("Accept-Encoding gzip: Content-Encoding %q, Vary %q, ETag %q (plain %q), Content-Length %s of %d bytes",
						gz.Header().Get("Content-Encoding"), gz.Header().Get("Vary"), gz.Header().Get("ETag"), etag,
						gz.Header().Get("Content-Length"), gz.Body.Len())
				}
				zr, err := gzip.NewReader(gz.Body)
				if err != nil {
					t.Fatal(err)
				}
				if unzipped, err := io.ReadAll(zr); err != nil || !bytes.Equal(unzipped, plain) {
					t.Errorf("gzipped asset is not the plain one (%v)", err)
				}
			})
		}
	}
	if len(seen) != 4 {
		t.Errorf("the pages load %d local files, want 4 (Swagger UI's bundle and CSS, ReDoc's bundle, the favicon)", len(seen))
	}
}

// With RequireAuth, /openapi.json and /openapi.yaml declare
// OAuth2PasswordBearer and every operation but login requires it, as the
// backend's document does; without, nothing does. Swagger UI's Authorize
// (the password flow) posts to the tokenUrl resolved against the
// document's URL, then sends the token as a bearer.
func TestDocsRequireAuthDocument(t *testing.T) {
	t.Parallel()
	const scheme = `{"OAuth2PasswordBearer":{"type":"oauth2","flows":{"password":{"scopes":{},"tokenUrl":"auth/login"}}}}`
	const requirement = `[{"OAuth2PasswordBearer":[]}]`
	for _, tc := range []struct {
		name        string
		requireAuth bool
	}{
		{"default", false},
		{"require auth", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, mock.Config{RequireAuth: tc.requireAuth})
			served := serve(srv, request{target: "/openapi.json"}).Body.Bytes()
			doc, err := spec.Load(served, "openapi.json")
			if err != nil {
				t.Fatal(err)
			}
			asYAML, err := spec.Load(serve(srv, request{target: "/openapi.yaml"}).Body.Bytes(), "openapi.yaml")
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(asYAML.JSON(), served) {
				t.Error("/openapi.yaml is not the document /openapi.json serves")
			}
			got, ok := doc.RawJSON("components", "securitySchemes")
			if !tc.requireAuth {
				if ok || bytes.Contains(served, []byte(`"security"`)) {
					t.Errorf("the default document declares security: %s", got)
				}
				return
			}
			if string(got) != scheme {
				t.Errorf("securitySchemes %s, want %s", got, scheme)
			}
			for _, tmpl := range doc.Paths() {
				for method, op := range doc.Doc.Paths.Value(tmpl).Operations() {
					got, ok := doc.RawJSON("paths", tmpl, strings.ToLower(method), "security")
					if op.OperationID == "login" {
						if ok {
							t.Errorf("login requires %s", got)
						}
						continue
					}
					if string(got) != requirement {
						t.Errorf("%s %s: security %s, want %s", method, tmpl, got, requirement)
					}
				}
			}
			// Swagger UI's password flow against the declared tokenUrl.
			docURL, _ := url.Parse("http://127.0.0.1:8000/openapi.json")
			tokenURL, _ := url.Parse("auth/login")
			rec := serve(srv, request{method: "POST", target: docURL.ResolveReference(tokenURL).Path,
				body:   "grant_type=password&username=alice&password=wonderland",
				header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}})
			var token struct {
				AccessToken string `json:"access_token"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &token); err != nil || token.AccessToken == "" {
				t.Fatalf("token request: %d %s", rec.Code, rec.Body)
			}
			if rec := serve(srv, request{target: "/reviews", header: http.Header{"Authorization": {"Bearer " + token.AccessToken}}}); rec.Code != 200 {
				t.Errorf("with the token: %d %s", rec.Code, rec.Body)
			}
			// The documentation itself needs no token, as in FastAPI.
			for _, p := range append([]string{"/openapi.json", "/openapi.yaml"}, "/docs", "/redoc", "/docs/oauth2-redirect", "/docs/assets/swagger-ui.css") {
				if rec := serve(srv, request{target: p}); rec.Code != 200 {
					t.Errorf("%s without a token: %d", p, rec.Code)
				}
			}
		})
	}
}

// The golden files hold what FastAPI serves. This runs FastAPI (through
// testdata/fastapi_docs.py, on the vendored stack: reference.Stack) and
// compares; -update rewrites them.
func TestFastAPIDocsGolden(t *testing.T) {
	python, stack := reference.Stack(t)
	sp, err := spec.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, "testdata/fastapi_docs.py", sp.Doc.Info.Title)
	cmd.Env = append(os.Environ(), "PYTHONPATH="+stack, "PYTHONHASHSEED=0", "PYTHONDONTWRITEBYTECODE=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("testdata/fastapi_docs.py: %v\n%s", err, stderr.Bytes())
	}
	var routes map[string]map[string]fastapiAnswer
	if err := json.Unmarshal(out, &routes); err != nil {
		t.Fatal(err)
	}
	for _, p := range fastapiPages {
		get := routes[p.path]["GET"]
		golden.Check(t, p.golden, []byte(get.Body))
		get.Body = ""
		routes[p.path]["GET"] = get
	}
	get := routes["/openapi.json"]["GET"] // an empty app's document: not the mock's
	get.Body = ""
	get.Headers = nil
	routes["/openapi.json"]["GET"] = get
	summary, err := json.MarshalIndent(routes, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "fastapi_routes", append(summary, '\n'))
}

// Starlette's redirect_slashes covers FastAPI's own routes too (FastAPI
// 0.141.1: GET or HEAD /docs/ is a 307 to http://<host>/docs).
func TestDocsTrailingSlash(t *testing.T) {
	t.Parallel()
	srv := newServer(t, mock.Config{})
	for _, tc := range []struct{ method, target, location string }{
		{"GET", "/docs/", "http://example.com/docs"},
		{"HEAD", "/docs/", "http://example.com/docs"},
		{"GET", "/redoc/", "http://example.com/redoc"},
		{"GET", "/openapi.json/", "http://example.com/openapi.json"},
		{"GET", "/docs/oauth2-redirect/", "http://example.com/docs/oauth2-redirect"},
	} {
		rec := serve(srv, request{method: tc.method, target: tc.target})
		if rec.Code != 307 || rec.Header().Get("Location") != tc.location || rec.Header().Get("Content-Length") != "0" {
			t.Errorf("%s %s: %d Location %q Content-Length %q, want 307 to %s",
				tc.method, tc.target, rec.Code, rec.Header().Get("Location"), rec.Header().Get("Content-Length"), tc.location)
		}
	}
}

// The files the documentation pages load stay out of the journal: opening
// /docs must not fill the control panel with /docs/assets/*. The page
// itself and the API are journaled.
func TestDocsAssetsNotJournaled(t *testing.T) {
	t.Parallel()
	srv := newServer(t, mock.Config{AdminToken: "t"})
	for _, target := range []string{"/docs", "/docs/assets/swagger-ui.css", "/docs/assets/swagger-ui-bundle.js", "/person/1"} {
		if rec := serve(srv, request{target: target}); rec.Code != http.StatusOK {
			t.Fatalf("GET %s: %d", target, rec.Code)
		}
	}
	rec := serve(srv, request{target: "/__mock/journal", header: http.Header{"X-Mock-Admin-Token": {"t"}}})
	var entries []struct {
		Path string `json:"path"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &entries); err != nil {
		t.Fatalf("%v: %s", err, rec.Body)
	}
	var paths []string
	for _, e := range entries {
		paths = append(paths, e.Path)
	}
	if got := strings.Join(paths, " "); got != "/docs /person/1" {
		t.Errorf("journal holds %q, want /docs /person/1", got)
	}
}

// Every page Pages lists (what docs/reference.md shows) is served, on GET
// and on HEAD, whatever the contract.
func TestEveryPageServed(t *testing.T) {
	t.Parallel()
	srv := newServer(t, mock.Config{})
	pages := mock.Pages()
	if len(pages) < 5 {
		t.Fatalf("only %d pages: %v", len(pages), pages)
	}
	for _, p := range pages {
		for _, method := range []string{"GET", "HEAD"} {
			if rec := serve(srv, request{method: method, target: p.Path}); rec.Code != http.StatusOK {
				t.Errorf("%s %s: %d %s", method, p.Path, rec.Code, rec.Body)
			}
		}
		if p.About == "" {
			t.Errorf("%s: no About", p.Path)
		}
	}
}
