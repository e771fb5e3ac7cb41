package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/problems"
	"github.com/moviemock/moviemock/internal/spec"
)

const contractUsage = `Usage: moviemock contract --base-url URL [flags]

Checks a live server against the contract (openapi.yaml, or --spec): valid
inputs are accepted, inputs FastAPI rejects get a 422 naming the field,
unknown ids are 404s, wrong credentials are refused, every response matches
its schema, and more (see the checks below). Every failure comes with a curl
command that reproduces it. Failures are grouped by cause (the check, the
operation, and the message with the values that vary per case taken out):
each distinct failure is listed once with its count and its smallest failing
case; --verbose lists every failed check after them.

An operation that gives no complete answer (a timeout, a broken connection)
twice in a row is unresponsive: its other cases are skipped, and the run ends
when the whole target stops answering. The report ends with one line a CI
log can grep: "moviemock contract: PASSED …" or "moviemock contract: FAILED …".

Exit code: 0 every check passed, 1 a check failed, 2 bad usage, an unreadable
contract, or a target nothing answers at.

Examples:
  moviemock contract --base-url http://127.0.0.1:8000
  moviemock contract --base-url http://localhost:8000 --spec http://localhost:8000/openapi.json \
      --username alice --password wonderland --id movie_id=tt0137523 --format junit --output report.xml
  moviemock contract --base-url http://127.0.0.1:8000 --format html --output contract-report.html
  moviemock contract --base-url http://localhost:8000 --checks not_a_server_error,response_schema_conformance
  moviemock contract --base-url https://staging.example.com --no-writes --max-failures 10 --timeout 2s

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
	format := fs.String("format", "text", "report `format`: text, json, junit or html (one self-contained page)")
	output := fs.String("output", "", "write the report to this `file` instead of standard output")
	verbose := fs.Bool("verbose", false, "text report: list every failed check, not only the distinct failures")
	var headers, statuses listFlag
	ids := map[string][]string{}
	fs.Func("id", "a record known to exist, as `NAME=ID` for the path parameter NAME (repeatable): movie_id=tt0137523", func(v string) error {
		name, id, ok := strings.Cut(v, "=")
		if name, id = strings.TrimSpace(name), strings.TrimSpace(id); !ok || name == "" || id == "" {
			return fmt.Errorf("%q is not NAME=ID", v)
		}
		ids[name] = append(ids[name], id)
		return nil
	})
	fs.Func("person-id", "short for --id person_id=`ID`", func(v string) error { ids["person_id"] = append(ids["person_id"], v); return nil })
	fs.Func("review-id", "short for --id review_id=`ID`", func(v string) error { ids["review_id"] = append(ids["review_id"], v); return nil })
	fs.Func("header", "send this `'Name: value'` header with every request (repeatable)", func(v string) error {
		name, value, ok := strings.Cut(v, ":")
		if !ok || strings.TrimSpace(name) == "" {
			return fmt.Errorf("%q is not 'Name: value'", v)
		}
		headers = append(headers, strings.TrimSpace(name)+":"+strings.TrimSpace(value))
		return nil
	})
	query, cookies := url.Values{}, url.Values{}
	for _, f := range []struct {
		name, what string
		into       url.Values
	}{{"query", "query parameter", query}, {"cookie", "cookie", cookies}} {
		fs.Func(f.name, fmt.Sprintf("send this %s, as `NAME=VALUE`, with every request (repeatable): the value an application's own check wants", f.what), func(v string) error {
			name, value, ok := strings.Cut(v, "=")
			if name = strings.TrimSpace(name); !ok || name == "" {
				return fmt.Errorf("%q is not NAME=VALUE", v)
			}
			f.into.Add(name, value)
			return nil
		})
	}
	var excludeOps listFlag
	fs.Var(&excludeOps, "exclude-operation", "leave this `operation` out of the run: an operationId or \"METHOD /path\" (repeatable, comma-separated); an operation the runner cannot test fails the run unless left out")
	jwtSecret := fs.String("jwt-secret", "", "verify access tokens' HS256/384/512 signatures with this secret")
	fs.Var(&statuses, "framework-statuses", "undeclared statuses FastAPI itself answers with (default 400,401,404,405,413,422)")
	maxFailures := fs.Int("max-failures", 0, "stop after this many failed cases and report the rest as not run (0: never stop)")
	noWrites := fs.Bool("no-writes", false, "send no POST, PUT, PATCH or DELETE (logins excepted): safe against a shared server")
	allowDestructive := fs.Bool("allow-destructive", false, "let cases change or delete records the runner did not create itself")

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
	if !reportFormat(*format) {
		return usagef("contract: --format %q: use text, json, junit or html", *format)
	}
	if (*username == "") != (*password == "") {
		return usagef("contract: give --username and --password together")
	}
	switch {
	case *examples < 0:
		return usagef("contract: --examples %d: give 0 or more", *examples)
	case *workers < 1:
		return usagef("contract: --workers %d: give 1 or more", *workers)
	case *maxFailures < 0:
		return usagef("contract: --max-failures %d: give 0 (never stop) or more", *maxFailures)
	}
	if u, err := url.Parse(*baseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usagef("contract: --base-url %q: give an http(s) URL with a host, e.g. http://127.0.0.1:8000", *baseURL)
	}
	cfg := contract.Config{
		BaseURL: *baseURL, Username: *username, Password: *password, Seed: *seed,
		Checks: checks, ExcludeChecks: exclude, Examples: *examples, Workers: *workers,
		Timeout: timeout, MaxResponseTime: maxTime,
		MaxFailures: *maxFailures, NoWrites: *noWrites, AllowDestructive: *allowDestructive,
		IDs:    ids,
		Header: http.Header{}, Query: query, Cookie: cookies,
		ExcludeOperations: excludeOps,
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
		if cfg.Spec, err = loadSpec(ctx, "contract", *specFlag, timeout, stderr); err != nil {
			return err
		}
	}
	if err := knownPathParameters(cfg.Spec, ids); err != nil {
		return err
	}
	if *format == "text" && *output == "" {
		cfg.Progress = stderr
	}

	report, err := contract.Run(ctx, cfg)
	if err != nil {
		return usagef("%v", strings.TrimPrefix(err.Error(), "contract: ")) // exit 2
	}
	report.Verbose = *verbose
	out := stdout
	if *output != "" {
		f, err := os.Create(*output)
		if err != nil {
			return fmt.Errorf("contract: %w", err)
		}
		defer f.Close()
		out = f
	}
	if err := writeReport(report, *format, out); err != nil {
		return fmt.Errorf("contract: write report: %w", err)
	}
	if *output != "" {
		fmt.Fprintf(stderr, "moviemock contract: report written to %s\n", *output)
	}
	if n := report.Failures(); n > 0 {
		return &failureError{problems.Plural(n, "check", "checks") + " failed"}
	}
	return nil
}

// knownPathParameters refuses an --id for a path parameter the contract
// (nil: the embedded one) does not have.
func knownPathParameters(sp *spec.Spec, ids map[string][]string) error {
	if len(ids) == 0 {
		return nil
	}
	if sp == nil {
		var err error
		if sp, err = spec.Embedded(); err != nil {
			return err
		}
	}
	known := map[string]bool{}
	for _, path := range sp.Paths() {
		for _, part := range strings.Split(path, "/") {
			if strings.HasPrefix(part, "{") && strings.HasSuffix(part, "}") {
				known[part[1:len(part)-1]] = true
			}
		}
	}
	for name := range ids {
		if !known[name] {
			names := slices.Sorted(maps.Keys(known))
			return usagef("contract: --id %s=…: the contract has no path parameter %s (it has %s)", name, name, strings.Join(names, ", "))
		}
	}
	return nil
}

// loadSpec reads a contract from a file or an http(s) URL, telling on
// stderr what the loader ignored in it.
func loadSpec(ctx context.Context, cmd, source string, timeout time.Duration, stderr io.Writer) (*spec.Spec, error) {
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
	for _, w := range sp.Warnings() {
		fmt.Fprintf(stderr, "moviemock: %s: warning: --spec %s: %s\n", cmd, source, w)
	}
	return sp, nil
}
