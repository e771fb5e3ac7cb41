package fastapi

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// CORS is the configuration of Starlette's CORSMiddleware, with the same
// meaning as its arguments (Starlette 1.3.1). The zero value is nothing
// allowed; DefaultCORS is what FastAPI backends are usually given.
type CORS struct {
	AllowOrigins        []string // "*" allows any
	AllowOriginRegex    string   // matched against the whole origin
	AllowMethods        []string // "*" means Starlette's ALL_METHODS
	AllowHeaders        []string // "*" mirrors whatever a preflight asks for
	AllowCredentials    bool
	AllowPrivateNetwork bool
	ExposeHeaders       []string
	MaxAge              int
}

// DefaultCORS is allow_origins=["*"], allow_credentials=True,
// allow_methods=["*"], allow_headers=["*"], max_age=600: the configuration
// of FastAPI's CORS tutorial, and what a development backend usually has.
func DefaultCORS() CORS {
	return CORS{
		AllowOrigins:     []string{"*"},
		AllowMethods:     []string{"*"},
		AllowHeaders:     []string{"*"},
		AllowCredentials: true,
		MaxAge:           600,
	}
}

// corsAllMethods is Starlette's ALL_METHODS, what allow_methods=["*"] means.
var corsAllMethods = []string{"DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"}

// corsSafelisted is Starlette's SAFELISTED_HEADERS.
var corsSafelisted = []string{"Accept", "Accept-Language", "Content-Language", "Content-Type"}

// CheckOrigin reports why an allowed origin as configured can never equal
// the Origin header a browser sends ("" when it can): Starlette compares
// the strings exactly, and a browser sends scheme://host[:port], lower
// case, with no path, no trailing slash and no wildcard.
func CheckOrigin(origin string) string {
	if origin == "*" {
		return ""
	}
	if strings.Contains(origin, "*") {
		return "Starlette does not expand wildcards in allowed origins; use an origin regex (e.g. https://.*\\.example\\.org) instead"
	}
	u, err := url.Parse(origin)
	if err != nil || u.Scheme == "" || u.Host == "" || u.Opaque != "" {
		return "an origin is scheme://host[:port], e.g. http://localhost:5173"
	}
	if u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil || strings.HasSuffix(origin, "?") || strings.HasSuffix(origin, "#") {
		if u.Path == "/" && u.RawQuery == "" && u.Fragment == "" && u.User == nil {
			return "a browser's Origin has no trailing slash: " + strings.TrimSuffix(origin, "/")
		}
		return "a browser's Origin has no path, query or user: " + u.Scheme + "://" + u.Host
	}
	if lower := strings.ToLower(origin); lower != origin {
		return "a browser sends the origin in lower case: " + lower
	}
	if port := u.Port(); port != "" {
		if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
			return "a browser leaves the default port out: " + u.Scheme + "://" + u.Hostname()
		}
		if _, err := strconv.Atoi(port); err != nil {
			return "the port is not a number"
		}
	}
	return ""
}

// Middleware returns Starlette's CORSMiddleware around next, answering as
// Starlette 1.3.1 does: a preflight (OPTIONS with an
// Access-Control-Request-Method header, even an empty one) is answered
// here, 200 "OK" or 400 "Disallowed CORS …" in text/plain; any other request
// with an Origin header goes to next, and its answer gets the simple
// headers. A request without Origin passes untouched.
func (c CORS) Middleware(next http.Handler) (http.Handler, error) {
	var re *regexp.Regexp
	if c.AllowOriginRegex != "" {
		// Python's re.fullmatch: the whole origin must match.
		var err error
		if re, err = regexp.Compile(`^(?:` + c.AllowOriginRegex + `)$`); err != nil {
			return nil, fmt.Errorf("CORS origin regex %q: %w", c.AllowOriginRegex, err)
		}
	}
	methods := c.AllowMethods
	if slices.Contains(methods, "*") {
		methods = corsAllMethods
	}
	allowAllOrigins := slices.Contains(c.AllowOrigins, "*")
	allowAllHeaders := slices.Contains(c.AllowHeaders, "*")
	explicitOrigin := !allowAllOrigins || c.AllowCredentials

	var simple [][2]string
	if allowAllOrigins {
		simple = append(simple, [2]string{"Access-Control-Allow-Origin", "*"})
	}
	if c.AllowCredentials {
		simple = append(simple, [2]string{"Access-Control-Allow-Credentials", "true"})
	}
	if len(c.ExposeHeaders) > 0 {
		simple = append(simple, [2]string{"Access-Control-Expose-Headers", strings.Join(c.ExposeHeaders, ", ")})
	}

	var preflight [][2]string
	if explicitOrigin {
		preflight = append(preflight, [2]string{"Vary", "Origin"})
	} else {
		preflight = append(preflight, [2]string{"Access-Control-Allow-Origin", "*"})
	}
	preflight = append(preflight,
		[2]string{"Access-Control-Allow-Methods", strings.Join(methods, ", ")},
		[2]string{"Access-Control-Max-Age", strconv.Itoa(c.MaxAge)})
	headerSet := map[string]bool{}
	for _, h := range append(slices.Clone(corsSafelisted), c.AllowHeaders...) {
		headerSet[h] = true
	}
	allowHeaders := make([]string, 0, len(headerSet))
	for h := range headerSet {
		allowHeaders = append(allowHeaders, h)
	}
	sort.Strings(allowHeaders) // Python's sorted(): by code point, as Go's
	if !allowAllHeaders {
		preflight = append(preflight, [2]string{"Access-Control-Allow-Headers", strings.Join(allowHeaders, ", ")})
	}
	if c.AllowCredentials {
		preflight = append(preflight, [2]string{"Access-Control-Allow-Credentials", "true"})
	}
	lowerHeaders := make([]string, len(allowHeaders))
	for i, h := range allowHeaders {
		lowerHeaders[i] = strings.ToLower(h)
	}

	allowed := func(origin string) bool {
		return allowAllOrigins || re != nil && re.MatchString(origin) || slices.Contains(c.AllowOrigins, origin)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origins, hasOrigin := r.Header["Origin"]
		if !hasOrigin {
			next.ServeHTTP(w, r)
			return
		}
		origin := origins[0]
		h := w.Header()
		if reqMethods, ok := r.Header["Access-Control-Request-Method"]; ok && r.Method == http.MethodOptions {
			for _, kv := range preflight {
				h.Set(kv[0], kv[1])
			}
			var failures []string
			if allowed(origin) {
				if explicitOrigin {
					h.Set("Access-Control-Allow-Origin", origin)
				}
			} else {
				failures = append(failures, "origin")
			}
			if !slices.Contains(methods, reqMethods[0]) {
				failures = append(failures, "method")
			}
			if reqHeaders, ok := r.Header["Access-Control-Request-Headers"]; ok {
				if allowAllHeaders {
					h.Set("Access-Control-Allow-Headers", reqHeaders[0])
				} else {
					for _, name := range strings.Split(strings.ToLower(reqHeaders[0]), ",") {
						if !slices.Contains(lowerHeaders, strings.TrimSpace(name)) {
							failures = append(failures, "headers")
							break
						}
					}
				}
			}
			if _, ok := r.Header["Access-Control-Request-Private-Network"]; ok {
				if c.AllowPrivateNetwork {
					h.Set("Access-Control-Allow-Private-Network", "true")
				} else {
					failures = append(failures, "private-network")
				}
			}
			if len(failures) > 0 {
				WritePlain(w, http.StatusBadRequest, "Disallowed CORS "+strings.Join(failures, ", "))
				return
			}
			WritePlain(w, http.StatusOK, "OK")
			return
		}
		// A simple request: the headers are added as the answer starts, to
		// whatever the application answered (an unhandled crash excepted:
		// see ClearForCrash).
		for _, kv := range simple {
			h.Set(kv[0], kv[1])
		}
		if allowAllOrigins && c.AllowCredentials || !allowAllOrigins && allowed(origin) {
			h.Set("Access-Control-Allow-Origin", origin)
			if v := h.Get("Vary"); v != "" {
				h.Set("Vary", v+", Origin")
			} else {
				h.Set("Vary", "Origin")
			}
		}
		next.ServeHTTP(w, r)
	}), nil
}

// ClearForCrash empties h, as Starlette's ServerErrorMiddleware answers an
// unhandled exception with a fresh response from outside every other
// middleware: FastAPI's crash 500 carries no CORS headers, so a browser
// reports a CORS failure rather than a readable 500.
func ClearForCrash(h http.Header) {
	clear(h)
}
