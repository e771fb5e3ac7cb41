package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/spec"
)

const contractUsage = `Usage: moviemock contract --base-url URL [flags]

Checks a live server against the contract (openapi.yaml, or --spec): valid
inputs are accepted, inputs FastAPI rejects get a 422 naming the field,
unknown ids are 404s, wrong credentials are refused, every response matches
its schema, and more (see the checks below). Every failure comes with a curl
command that reproduces it.

Exit code: 0 every check passed, 1 a check failed, 2 bad usage, an unreadable
contract, or a target nothing answers at.

Examples:
  moviemock contract --base-url http://127.0.0.1:8000
  moviemock contract --base-url http://localhost:8000 --spec http://localhost:8000/openapi.json \
      --username alice --password wonderland --person-id 1 --format junit --output report.xml
  moviemock contract --base-url http://localhost:8000 --checks not_a_server_error,response_schema_conformance

Checks:
%s
Flags:
`

func runContract(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("contract", flag.ContinueOnError)
	baseURL := fs.String("base-url", "", "the server to check, e.g. http://127.0.0.1:8000 (required)")
	specFlag := fs.String("spec", "", "contract `file or URL` (default: the embedded openapi.yaml); a FastAPI /openapi.json works as it is")
	username := fs.String("username", "", "log in as this user (positive login, wrong-credentials cases, a bearer token for the rest)")
	password := fs.String("password", "", "password for --username")
	seed := fs.Uint64("seed", 1, "seed of generated inputs; the same seed sends the same requests")
	var checks, exclude listFlag
	fs.Var(&checks, "checks", "run only these `checks` (comma-separated or repeated)")
	fs.Var(&exclude, "exclude-checks", "skip these `checks`")
	examples := fs.Int("examples", contract.DefaultExamples, "seeded random cases per operation")
	workers := fs.Int("workers", contract.DefaultWorkers, "requests in flight at once (1 keeps the sending order fixed)")
	timeout := contract.DefaultTimeout
	fs.Func("timeout", "time limit of one request (default 5s)", func(v string) (err error) { timeout, err = parseDuration(v); return err })
	maxTime := contract.DefaultMaxResponseTime
	fs.Func("max-response-time", "slowest acceptable response, for max_response_time (default 2s)", func(v string) (err error) { maxTime, err = parseDuration(v); return err })
	format := fs.String("format", "text", "report `format`: text, json or junit")
	output := fs.String("output", "", "write the report to this `file` instead of standard output")
	var personIDs, reviewIDs, headers, statuses listFlag
	fs.Var(&personIDs, "person-id", "a person `id` known to exist (repeatable)")
	fs.Var(&reviewIDs, "review-id", "a review `id` known to exist (repeatable)")
	fs.Func("header", "send this `'Name: value'` header with every request (repeatable)", func(v string) error {
		name, value, ok := strings.Cut(v, ":")
		if !ok || strings.TrimSpace(name) == "" {
			return fmt.Errorf("%q is not 'Name: value'", v)
		}
		headers = append(headers, strings.TrimSpace(name)+":"+strings.TrimSpace(value))
		return nil
	})
	jwtSecret := fs.String("jwt-secret", "", "verify access tokens' HS256/384/512 signatures with this secret")
	fs.Var(&statuses, "framework-statuses", "undeclared statuses FastAPI itself answers with (default 400,401,404,405,413,422)")

	help, err := parseFlags(fs, args)
	if help {
		var list strings.Builder
		for _, c := range contract.Checks {
			fmt.Fprintf(&list, "  %-29s %s\n", c.Name(), c.About())
		}
		printUsage(fs, stdout, fmt.Sprintf(contractUsage, list.String()))
		return nil
	}
	if err != nil {
		return err
	}
	if *baseURL == "" {
		return usagef("contract: --base-url URL is required")
	}
	if *format != "text" && *format != "json" && *format != "junit" {
		return usagef("contract: --format %q: use text, json or junit", *format)
	}
	if (*username == "") != (*password == "") {
		return usagef("contract: give --username and --password together")
	}
	cfg := contract.Config{
		BaseURL: *baseURL, Username: *username, Password: *password, Seed: *seed,
		Checks: checks, ExcludeChecks: exclude, Examples: *examples, Workers: *workers,
		Timeout: timeout, MaxResponseTime: maxTime,
		IDs:    map[string][]string{"person_id": personIDs, "review_id": reviewIDs},
		Header: http.Header{},
	}
	for _, h := range headers {
		name, value, _ := strings.Cut(h, ":")
		cfg.Header.Add(name, value)
	}
	if *jwtSecret != "" {
		cfg.JWTSecret = []byte(*jwtSecret)
	}
	for _, s := range statuses {
		n, err := strconv.Atoi(s)
		if err != nil || n < 100 || n > 599 {
			return usagef("contract: --framework-statuses: %q is not an HTTP status", s)
		}
		cfg.FrameworkStatuses = append(cfg.FrameworkStatuses, n)
	}
	if *specFlag != "" {
		if cfg.Spec, err = loadSpec(ctx, "contract", *specFlag, timeout); err != nil {
			return err
		}
	}
	if *format == "text" && *output == "" {
		cfg.Progress = stderr
	}

	report, err := contract.Run(ctx, cfg)
	if err != nil {
		return usagef("%v", strings.TrimPrefix(err.Error(), "contract: ")) // exit 2
	}
	out := stdout
	if *output != "" {
		f, err := os.Create(*output)
		if err != nil {
			return fmt.Errorf("contract: %w", err)
		}
		defer f.Close()
		out = f
	}
	switch *format {
	case "json":
		err = report.WriteJSON(out)
	case "junit":
		err = report.WriteJUnit(out)
	default:
		err = report.WriteText(out)
	}
	if err != nil {
		return fmt.Errorf("contract: write report: %w", err)
	}
	if *output != "" {
		fmt.Fprintf(stderr, "moviemock contract: report written to %s\n", *output)
	}
	if n := report.Failures(); n > 0 {
		return &failureError{fmt.Sprintf("%d checks failed", n)}
	}
	return nil
}

// loadSpec reads a contract from a file or an http(s) URL.
func loadSpec(ctx context.Context, cmd, source string, timeout time.Duration) (*spec.Spec, error) {
	var data []byte
	if strings.HasPrefix(source, "http://") || strings.HasPrefix(source, "https://") {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, "GET", source, nil)
		if err != nil {
			return nil, usagef("%s: --spec %s: %v", cmd, source, err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, usagef("%s: --spec: cannot fetch %s: %v", cmd, source, err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, usagef("%s: --spec: %s answered %s", cmd, source, resp.Status)
		}
		if data, err = io.ReadAll(io.LimitReader(resp.Body, contract.MaxBodyBytes)); err != nil {
			return nil, usagef("%s: --spec: reading %s: %v", cmd, source, err)
		}
	} else {
		var err error
		if data, err = os.ReadFile(source); err != nil {
			return nil, usagef("%s: --spec %s: %v", cmd, source, errors.Unwrap(err))
		}
	}
	sp, err := spec.Load(data, source)
	if err != nil {
		return nil, usagef("%s: --spec: %v", cmd, err)
	}
	return sp, nil
}
