package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

const (
	defaultAddr       = "127.0.0.1:8000"
	defaultSeed       = 1
	defaultPersons    = 200
	defaultUsers      = 20
	defaultReviews    = 1000
	shutdownTimeout   = 5 * time.Second
	readHeaderTimeout = 10 * time.Second
	idleTimeout       = 120 * time.Second
	maxHeaderBytes    = 64 << 10
)

const serveUsage = `Usage: moviemock serve [flags]

Serves the Movie and Review Service exactly as its FastAPI backend answers:
GET /person/{person_id}, POST /auth/login, GET /reviews/{review_id},
GET /reviews, plus /openapi.json, /openapi.yaml and /docs.

Examples:
  moviemock serve                                  embedded data on 127.0.0.1:8000
  moviemock serve --addr 127.0.0.1:9000 --quiet
  moviemock serve --fixtures ./my-fixtures         your own data (JSON or YAML)
  moviemock serve --generate --seed 42 --reviews 100000
  moviemock serve --require-auth --token-lifetime 5m
  moviemock serve --cors-origin http://localhost:5173

Every flag can also be set by the environment variable named after it.

Flags:
`

// serveEnv maps serve's flags to their environment variables.
var serveEnv = map[string]string{
	"addr": "MOVIEMOCK_ADDR", "fixtures": "MOVIEMOCK_FIXTURES", "generate": "MOVIEMOCK_GENERATE",
	"seed": "MOVIEMOCK_SEED", "persons": "MOVIEMOCK_PERSONS", "users": "MOVIEMOCK_USERS",
	"reviews": "MOVIEMOCK_REVIEWS", "movies": "MOVIEMOCK_MOVIES", "jwt-secret": "MOVIEMOCK_JWT_SECRET",
	"token-lifetime": "MOVIEMOCK_TOKEN_LIFETIME", "require-auth": "MOVIEMOCK_REQUIRE_AUTH",
	"cors-origin": "MOVIEMOCK_CORS_ORIGIN", "no-cors": "MOVIEMOCK_NO_CORS", "quiet": "MOVIEMOCK_QUIET",
}

func runServe(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", defaultAddr, "`host:port` to listen on ($MOVIEMOCK_ADDR)")
	dir := fs.String("fixtures", "", "serve the fixture `directory` instead of the embedded data ($MOVIEMOCK_FIXTURES)")
	gen := generateFlags(fs, "serve generated data instead of the embedded data")
	secret := fs.String("jwt-secret", "", "HS256 `secret` for tokens (default: the documented development secret) ($MOVIEMOCK_JWT_SECRET)")
	lifetime := mock.DefaultTokenLifetime
	fs.Func("token-lifetime", "how long a token is valid, e.g. 30m ($MOVIEMOCK_TOKEN_LIFETIME) (default 30m0s)", func(v string) (err error) {
		lifetime, err = parseDuration(v)
		return err
	})
	requireAuth := fs.Bool("require-auth", false, "demand a bearer token from login on every read ($MOVIEMOCK_REQUIRE_AUTH)")
	var origins listFlag
	fs.Var(&origins, "cors-origin", "allow only this browser `origin` (repeatable, comma-separated; default any) ($MOVIEMOCK_CORS_ORIGIN)")
	noCORS := fs.Bool("no-cors", false, "answer no CORS headers and no preflights ($MOVIEMOCK_NO_CORS)")
	quiet := fs.Bool("quiet", false, "no request log ($MOVIEMOCK_QUIET)")

	help, err := parseFlags(fs, args)
	if help {
		printUsage(fs, stdout, serveUsage)
		return nil
	}
	if err != nil {
		return err
	}
	if err := envDefaults(fs, getenv, serveEnv); err != nil {
		return err
	}
	if *dir != "" && gen.enabled {
		return usagef("serve: --fixtures and --generate both choose the data: give one")
	}
	if *noCORS && len(origins) > 0 {
		return usagef("serve: --cors-origin and --no-cors contradict each other")
	}
	if err := gen.check(fs); err != nil {
		return err
	}

	data, source, err := loadData(*dir, gen)
	if err != nil {
		return err
	}
	cfg := mock.Config{
		Data:          data,
		TokenLifetime: lifetime,
		RequireAuth:   *requireAuth,
		CORSOrigins:   origins,
		DisableCORS:   *noCORS,
	}
	if *secret != "" {
		cfg.JWTSecret = []byte(*secret)
	}
	if !*quiet {
		cfg.Logger = slog.New(slog.NewTextHandler(stderr, nil))
	}
	handler, err := mock.New(cfg)
	if err != nil {
		return err
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("serve: cannot listen on %s: %w", *addr, unwrapNetErr(err))
	}
	if *secret == "" && !isLoopback(ln.Addr()) {
		fmt.Fprintf(stderr, "moviemock: warning: listening on %s beyond loopback with the public development JWT secret: anyone who can reach it can forge tokens; set --jwt-secret\n", ln.Addr())
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: readHeaderTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(slog.NewTextHandler(stderr, nil), slog.LevelWarn),
	}
	fmt.Fprintf(stdout, "moviemock serving %s on http://%s (%d persons, %d users, %d reviews)\n",
		source, ln.Addr(), len(data.Persons()), len(data.Users()), len(data.Reviews()))

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("serve: shutdown: %w", err)
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// loadData picks the data set: a fixture directory, generated, or embedded.
func loadData(dir string, gen *generateOpts) (*fixtures.Dataset, string, error) {
	switch {
	case dir != "":
		sp, err := spec.Embedded()
		if err != nil {
			return nil, "", err
		}
		d, err := fixtures.LoadDir(dir, sp)
		return d, "fixtures from " + dir, err
	case gen.enabled:
		d, err := fixtures.Generate(gen.options())
		return d, fmt.Sprintf("generated data (seed %d)", gen.seed), err
	}
	d, err := fixtures.Default()
	return d, "the embedded default data", err
}

func isLoopback(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// unwrapNetErr keeps the useful end of a listen error ("address already in
// use") without Go's "listen tcp …:" prefix, which the caller restates.
func unwrapNetErr(err error) error {
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err
	}
	return err
}
