package mock

import (
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/status"
)

// logRequests writes one line per request: method, path, status, the fault
// of a scenario that broke the answer on purpose, bytes, duration. It never
// logs headers, query strings or bodies, so no password or token reaches
// the log; the path is shown (nil: as it is), a secret path parameter's
// value redacted.
func logRequests(log *slog.Logger, shown func(string) string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := status.Wrap(w)
		next.ServeHTTP(sw, r)
		attrs := []slog.Attr{
			slog.String("method", r.Method),
			slog.String("path", showPath(shown, r.URL.Path)),
			slog.Int("status", sw.Status()),
		}
		if sw.Fault != "" {
			// A scenario's fault: a reset or a hang sent no status at all
			// (0), a truncated answer was written on the bare connection,
			// past sw. Without the fault they read as an empty 200.
			attrs[2] = slog.Int("status", sw.Code)
			attrs = append(attrs, slog.String("fault", sw.Fault))
		}
		log.LogAttrs(r.Context(), slog.LevelInfo, "request", append(attrs,
			slog.Int64("bytes", sw.Bytes),
			slog.Duration("duration", time.Since(start)))...)
	})
}

// recoverPanics turns a panic into Starlette's ServerErrorMiddleware answer:
// 500, text/plain, "Internal Server Error" (when nothing was sent yet), with
// none of the headers set on the way in: no CORS headers, as in FastAPI.
func recoverPanics(log *slog.Logger, shown func(string) string, next http.Handler) http.Handler {
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
				log.Error("panic serving request", "method", r.Method, "path", showPath(shown, r.URL.Path), "panic", fmt.Sprint(v))
			}
			if sw.Code == 0 {
				fastapi.ClearForCrash(sw.Header())
				fastapi.WriteServerError(sw)
			}
		}()
		next.ServeHTTP(sw, r)
	})
}

// showPath is path as shown (nil: as it is).
func showPath(shown func(string) string, path string) string {
	if shown == nil {
		return path
	}
	return shown(path)
}
