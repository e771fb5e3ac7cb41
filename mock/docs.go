package mock

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gorilla/mux"

	"github.com/moviemock/moviemock/internal/docassets"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
)

// FastAPI's own routes (FastAPI 0.141.1, applications.py setup()): the
// OpenAPI document, Swagger UI, its OAuth2 redirect page and ReDoc, at their
// default URLs. /openapi.yaml is the mock's addition.
const (
	openapiURL        = "/openapi.json"
	openapiYAMLURL    = "/openapi.yaml"
	docsURL           = "/docs"
	oauth2RedirectURL = "/docs/oauth2-redirect"
	redocURL          = "/redoc"
)

// assetsURL is where the mock serves the files FastAPI's pages load from
// CDNs (package docassets): the one deliberate difference from FastAPI's
// pages, so they work offline. No FastAPI route is under it.
const assetsURL = "/docs/assets/"

// A Page is one of the mock's own pages, served beside the contract's
// operations (GET and HEAD) whatever the contract.
type Page struct {
	Path  string
	About string // what it is, in a few words
}

// Pages lists the mock's own pages: FastAPI's documentation routes and the
// files their pages load, in the order they are routed. The mock serves
// exactly these, and docs/reference.md lists them.
func Pages() []Page {
	pages := []Page{
		{openapiURL, "the contract as JSON, as FastAPI serves it (with --require-auth, declaring the OAuth2 password flow)"},
		{openapiYAMLURL, "the contract as YAML (moviemock's addition)"},
		{docsURL, "Swagger UI, FastAPI's page byte for byte but for where its files come from"},
		{oauth2RedirectURL, "Swagger UI's OAuth2 redirect page"},
		{redocURL, "ReDoc, FastAPI's page byte for byte but for where its files come from (a contract other than the embedded one in ReDoc's untrusted-spec mode)"},
	}
	for _, a := range docassets.All() {
		pages = append(pages, Page{assetsURL + a.Name, "a file /docs or /redoc loads (" + a.ContentType + "), built in so the pages work offline"})
	}
	return pages
}

// docMethods are the methods of FastAPI's own routes: Starlette's Route
// with no methods given is GET, and HEAD with every GET. Starlette keeps
// them in a set, so the order of its Allow header ("GET, HEAD" or "HEAD,
// GET") changes with Python's string hash seed from one process to the
// next; this is the order with PYTHONHASHSEED=0.
var docMethods = []string{"GET", "HEAD"}

// addDocRoutes registers FastAPI's own routes and the assets their pages
// load. With RequireAuth the document declares the OAuth2PasswordBearer
// scheme and each protected operation's security, as the backend's does;
// it is rendered here, once.
func (s *Server) addDocRoutes(router, paths *mux.Router) error {
	served := s.spec
	if s.cfg.RequireAuth {
		tokenURL, err := s.tokenURL()
		if err != nil {
			return err
		}
		protected := func(op *openapi3.Operation) bool {
			for _, mo := range s.model.Operations {
				if mo.Op == op {
					return mo.Kind != model.Login
				}
			}
			return true
		}
		if served, err = s.spec.WithSecurity(spec.OAuth2PasswordBearer(tokenURL), protected); err != nil {
			return err
		}
	}
	// Any contract but the embedded one may be hostile (proxy --spec takes
	// it from the network): its text must not become markup of the mock's
	// own origin, where a script could drive the control API.
	em, _ := spec.Embedded()
	untrusted := s.spec != em
	title := pageTitle(s.spec.Doc.Info.Title)
	handlers := map[string]http.Handler{
		openapiURL: lazyPage("application/json", served.JSON),
		// The YAML of a JSON document is rendered when first asked for:
		// a third of starting on a large document, which few clients read.
		openapiYAMLURL:    lazyPage("application/yaml", served.YAML),
		docsURL:           newPage(htmlType, swaggerUIHTML(title+" - Swagger UI", assetsURL)),
		oauth2RedirectURL: newPage(htmlType, []byte(swaggerUIOAuth2RedirectHTML)),
		redocURL:          newPage(htmlType, redocHTML(title+" - ReDoc", assetsURL, untrusted)),
	}
	for _, a := range docassets.All() {
		handlers[assetsURL+a.Name] = a
	}
	for _, p := range Pages() {
		h := handlers[p.Path]
		if h == nil { // a page listed without a handler: a broken build
			return fmt.Errorf("mock: page %s has no handler", p.Path)
		}
		// A copy: gorilla/mux v1.8.1's Methods upper-cases the slice it is
		// given in place, a data race on a shared one.
		router.Path(p.Path).Methods(slices.Clone(docMethods)...).Handler(h)
		s.paths = append(s.paths, pathRoute{route: paths.Path(p.Path), methods: docMethods})
	}
	return nil
}

// tokenURL is the tokenUrl the backend gives OAuth2PasswordBearer: the
// login operation's path, relative as in FastAPI's tutorial
// (tokenUrl="auth/login"), which Swagger UI resolves against the
// document's URL.
func (s *Server) tokenURL() (string, error) {
	for _, tmpl := range s.spec.Paths() {
		for _, op := range s.spec.Doc.Paths.Value(tmpl).Operations() {
			if op.OperationID == "login" {
				return strings.TrimPrefix(tmpl, "/"), nil
			}
		}
	}
	return "", fmt.Errorf("the contract has no login operation to name as the OAuth2 tokenUrl")
}

const htmlType = "text/html; charset=utf-8" // Starlette's HTMLResponse

// page is a fixed answer: GET sends it, HEAD its headers alone (what
// Starlette does for HEAD: the GET response without its body).
type page struct {
	contentType []string
	content     func() ([]string, []byte) // Content-Length and body
}

func newPage(contentType string, body []byte) *page {
	length := []string{strconv.Itoa(len(body))}
	return &page{contentType: []string{contentType}, content: func() ([]string, []byte) { return length, body }}
}

// lazyPage is a page whose body is made by body when first served.
func lazyPage(contentType string, body func() []byte) *page {
	return &page{contentType: []string{contentType}, content: sync.OnceValues(func() ([]string, []byte) {
		b := body()
		return []string{strconv.Itoa(len(b))}, b
	})}
}

func (p *page) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	length, body := p.content()
	h := w.Header()
	h["Content-Type"] = p.contentType
	h["Content-Length"] = length
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// The pages below are fastapi/openapi/docs.py's (FastAPI 0.141.1) byte for
// byte, as FastAPI's setup() calls them: openapi_url "/openapi.json",
// oauth2_redirect_url "/docs/oauth2-redirect", no init_oauth, the default
// swagger_ui_parameters. Only the asset URLs differ (FastAPI's are on CDNs),
// and ReDoc's page has no Google Fonts stylesheet. Like FastAPI, the title
// goes in unescaped.

// pageTitle is the contract's title as the pages' <title> holds it. FastAPI
// puts it in unescaped, so a title holding "</title><script>" runs a
// script in the page; a "<" is escaped here (the text is the same; the
// bytes differ from FastAPI's only for such a title). The other
// characters are harmless inside <title>, whose text ends only at
// "</title".
func pageTitle(title string) string {
	return strings.ReplaceAll(title, "<", "&lt;")
}

// swaggerUIHTML is get_swagger_ui_html.
func swaggerUIHTML(title, assets string) []byte {
	return []byte(`
    <!DOCTYPE html>
    <html>
    <head>
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    <link type="text/css" rel="stylesheet" href="` + assets + docassets.SwaggerUICSS.Name + `">
    <link rel="shortcut icon" href="` + assets + docassets.Favicon.Name + `">
    <title>` + title + `</title>
    </head>
    <body>
    <div id="swagger-ui">
    </div>
    <script src="` + assets + docassets.SwaggerUIJS.Name + `"></script>
    <!-- ` + "`SwaggerUIBundle`" + ` is now available on the page -->
    <script>
    const ui = SwaggerUIBundle({
        url: '` + openapiURL + `',
    "dom_id": "#swagger-ui",
"layout": "BaseLayout",
"deepLinking": true,
"showExtensions": true,
"showCommonExtensions": true,
oauth2RedirectUrl: window.location.origin + '` + oauth2RedirectURL + `',
    presets: [
        SwaggerUIBundle.presets.apis,
        SwaggerUIBundle.SwaggerUIStandalonePreset
        ],
    })
    </script>
    </body>
    </html>
    `)
}

// redocHTML is get_redoc_html without its Google Fonts stylesheet, so that
// the page asks nothing of the internet: ReDoc then uses the fonts it falls
// back to offline. With untrusted, ReDoc renders the document in its
// untrusted-spec mode (ReDoc 2: every HTML and Markdown text of the
// document through DOMPurify): otherwise an info.description with <img
// onerror=…> runs a script in the mock's origin, which may call the
// control API. Swagger UI sanitises descriptions itself.
func redocHTML(title, assets string, untrusted bool) []byte {
	mode := ""
	if untrusted {
		mode = " untrusted-spec"
	}
	const blank = "    \n" // lines of the template's indentation alone
	return []byte(`
    <!DOCTYPE html>
    <html>
    <head>
    <title>` + title + `</title>
    <!-- needed for adaptive design -->
    <meta charset="utf-8"/>
    <meta name="viewport" content="width=device-width, initial-scale=1">
` + blank + blank + `    <link rel="shortcut icon" href="` + assets + docassets.Favicon.Name + `">
    <!--
    ReDoc doesn't change outer page styles
    -->
    <style>
      body {
        margin: 0;
        padding: 0;
      }
    </style>
    </head>
    <body>
    <noscript>
        ReDoc requires Javascript to function. Please enable it to browse the documentation.
    </noscript>
    <redoc spec-url="` + openapiURL + `"` + mode + `></redoc>
    <script src="` + assets + docassets.RedocJS.Name + `"> </script>
    </body>
    </html>
    `)
}

// swaggerUIOAuth2RedirectHTML is get_swagger_ui_oauth2_redirect_html (FastAPI's
// copy of Swagger UI 4.14.0's oauth2-redirect.html).
const swaggerUIOAuth2RedirectHTML = `
    <!doctype html>
    <html lang="en-US">
    <head>
        <title>Swagger UI: OAuth2 Redirect</title>
    </head>
    <body>
    <script>
        'use strict';
        function run () {
            var oauth2 = window.opener.swaggerUIRedirectOauth2;
            var sentState = oauth2.state;
            var redirectUrl = oauth2.redirectUrl;
            var isValid, qp, arr;

            if (/code|token|error/.test(window.location.hash)) {
                qp = window.location.hash.substring(1).replace('?', '&');
            } else {
                qp = location.search.substring(1);
            }

            arr = qp.split("&");
            arr.forEach(function (v,i,_arr) { _arr[i] = '"' + v.replace('=', '":"') + '"';});
            qp = qp ? JSON.parse('{' + arr.join() + '}',
                    function (key, value) {
                        return key === "" ? value : decodeURIComponent(value);
                    }
            ) : {};

            isValid = qp.state === sentState;

            if ((
              oauth2.auth.schema.get("flow") === "accessCode" ||
              oauth2.auth.schema.get("flow") === "authorizationCode" ||
              oauth2.auth.schema.get("flow") === "authorization_code"
            ) && !oauth2.auth.code) {
                if (!isValid) {
                    oauth2.errCb({
                        authId: oauth2.auth.name,
                        source: "auth",
                        level: "warning",
                        message: "Authorization may be unsafe, passed state was changed in server. The passed state wasn't returned from auth server."
                    });
                }

                if (qp.code) {
                    delete oauth2.state;
                    oauth2.auth.code = qp.code;
                    oauth2.callback({auth: oauth2.auth, redirectUrl: redirectUrl});
                } else {
                    let oauthErrorMsg;
                    if (qp.error) {
                        oauthErrorMsg = "["+qp.error+"]: " +
                            (qp.error_description ? qp.error_description+ ". " : "no accessCode received from the server. ") +
                            (qp.error_uri ? "More info: "+qp.error_uri : "");
                    }

                    oauth2.errCb({
                        authId: oauth2.auth.name,
                        source: "auth",
                        level: "error",
                        message: oauthErrorMsg || "[Authorization failed]: no accessCode received from the server."
                    });
                }
            } else {
                oauth2.callback({auth: oauth2.auth, token: qp, isValid: isValid, redirectUrl: redirectUrl});
            }
            window.close();
        }

        if (document.readyState !== 'loading') {
            run();
        } else {
            document.addEventListener('DOMContentLoaded', function () {
                run();
            });
        }
    </script>
    </body>
    </html>
        `
