package mock

import (
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/status"
)

// logRequests writes one line per request: method, path, status, bytes,
// duration. It never logs headers, query strings or bodies, so no password
// or token reaches the log.
func logRequests(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := status.Wrap(w)
		next.ServeHTTP(sw, r)
		log.LogAttrs(r.Context(), slog.LevelInfo, "request",
			slog.String("method", r.Method),
			slog.String("path", r.URL.Path),
			slog.Int("status", sw.Status()),
			slog.Int64("bytes", sw.Bytes),
			slog.Duration("duration", time.Since(start)),
		)
	})
}

// recoverPanics turns a panic into Starlette's ServerErrorMiddleware answer:
// 500, text/plain, "Internal Server Error" (when nothing was sent yet).
func recoverPanics(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := status.Wrap(w) // logRequests' writer, when logging is on
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			if log != nil {
				log.Error("panic serving request", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(v))
			}
			if sw.Code == 0 {
				fastapi.WriteServerError(sw)
			}
		}()
		next.ServeHTTP(sw, r)
	})
}

// corsMethods is Starlette's ALL_METHODS, what allow_methods=["*"] means.
var corsMethods = []string{"DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"}

// cors is Starlette's CORSMiddleware configured as FastAPI backends usually
// are: allow_origins=origins (["*"] when empty), allow_credentials=True,
// allow_methods=["*"], allow_headers=["*"], max_age=600.
func cors(origins []string, next http.Handler) http.Handler {
	allowAll := len(origins) == 0 || slices.Contains(origins, "*")
	allowed := func(origin string) bool { return allowAll || slices.Contains(origins, origin) }
	allowMethods := strings.Join(corsMethods, ", ")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin == "" {
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			// Preflight. With credentials allowed, Starlette always names the
			// origin rather than "*".
			h.Set("Vary", "Origin")
			h.Set("Access-Control-Allow-Methods", allowMethods)
			h.Set("Access-Control-Max-Age", "600")
			h.Set("Access-Control-Allow-Credentials", "true")
			var failures []string
			if allowed(origin) {
				h.Set("Access-Control-Allow-Origin", origin)
			} else {
				failures = append(failures, "origin")
			}
			if !slices.Contains(corsMethods, r.Header.Get("Access-Control-Request-Method")) {
				failures = append(failures, "method")
			}
			if reqHeaders := r.Header.Get("Access-Control-Request-Headers"); reqHeaders != "" {
				h.Set("Access-Control-Allow-Headers", reqHeaders)
			}
			if len(failures) > 0 {
				fastapi.WritePlain(w, http.StatusBadRequest, "Disallowed CORS "+strings.Join(failures, ", "))
				return
			}
			fastapi.WritePlain(w, http.StatusOK, "OK")
			return
		}
		// Simple request.
		if allowAll {
			h.Set("Access-Control-Allow-Origin", "*")
		}
		h.Set("Access-Control-Allow-Credentials", "true")
		if allowAll && r.Header.Get("Cookie") != "" || !allowAll && allowed(origin) {
			h.Set("Access-Control-Allow-Origin", origin)
			h.Add("Vary", "Origin")
		}
		next.ServeHTTP(w, r)
	})
}
