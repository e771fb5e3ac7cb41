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
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/problems"
	"github.com/moviemock/moviemock/internal/regularfile"
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

Without --username and --password, the runner logs in through an OAuth2
password form with the username and password of the form's example in the
contract (alice and wonderland on the embedded contract; generated ones where
it has none), and goes on without a token when the target refuses them (a
note says so). Give the credentials of an account of the target to test its
logins and secured operations as that user. A contract with no login is
tested with the credential you give: --token (where its security scheme
wants it), or --username and --password as HTTP basic credentials; the
runner never makes one up, and says which operations it could not test.

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

// contractOptions are where contract's flags put their values.
type contractOptions struct {
	baseURL, specFlag, username, password, format, output, jwtSecret *string
	authFormat, token                                                *string
	seed                                                             *uint64
	examples, workers, maxFailures, maxCheckValues                   *int
	verbose, noWrites, allowDestructive                              *bool
	timeout, maxTime                                                 time.Duration
	maxSpecBytes                                                     *int64
	framework                                                        *frameworkOpts
	checks, exclude, headers, statuses, excludeOps                   listFlag
	ids                                                              map[string][]string
	query, cookies                                                   url.Values
}

// contractFlags defines contract's flags.
func contractFlags() (*flag.FlagSet, *contractOptions) {
	fs := flag.NewFlagSet("contract", flag.ContinueOnError)
	o := &contractOptions{ids: map[string][]string{}, query: url.Values{}, cookies: url.Values{}}
	o.baseURL = fs.String("base-url", "", "the server to check, e.g. http://127.0.0.1:8000 (required)")
	o.specFlag = fs.String("spec", "", "contract `file or URL` (default: the embedded openapi.yaml); a FastAPI /openapi.json works as it is")
	o.maxSpecBytes = maxSpecBytesFlag(fs)
	o.framework = frameworkFlags(fs)
	o.username = fs.String("username", "", "log in as this user, through the contract's OAuth2 form or JSON login (positive login, wrong-credentials cases, its token for the rest); a contract with no login takes it and --password as HTTP basic credentials where it declares basic; without it, an OAuth2 form login is tried with the form's example credentials from the contract (alice on the embedded contract), and a JSON login gets no positive case")
	o.password = fs.String("password", "", "password for --username")
	o.authFormat = fs.String("auth-format", "", "how the login's token (or --token) is written where the security scheme wants it, {token} standing for it, e.g. 'Token {token}' (default: 'Bearer {token}' for a bearer scheme, for an API key in Authorization the word its description writes before the token (Bearer, Token), else the token alone)")
	o.token = fs.String("token", "", "a credential the target issued (a bearer token, an API key), sent where the contract's security scheme wants it, as --auth-format writes it: for a contract without a login, or instead of one")
	o.seed = fs.Uint64("seed", 1, "seed of generated inputs; the same seed sends the same requests")
	fs.Var(&o.checks, "checks", "run only these `checks` (comma-separated or repeated)")
	fs.Var(&o.exclude, "exclude-checks", "skip these `checks`")
	o.examples = fs.Int("examples", contract.DefaultExamples, "seeded random cases per operation")
	o.workers = fs.Int("workers", contract.DefaultWorkers, "requests in flight at once (1 keeps the sending order fixed)")
	o.timeout = contract.DefaultTimeout
	fs.Func("timeout", "time limit of one request (default 5s)", func(v string) (err error) { o.timeout, err = parseDuration(v); return err })
	o.maxTime = contract.DefaultMaxResponseTime
	fs.Func("max-response-time", "slowest acceptable response, for max_response_time (default 2s)", func(v string) (err error) { o.maxTime, err = parseDuration(v); return err })
	o.maxCheckValues = fs.Int("max-check-values", contract.DefaultMaxCheckValues, "the most JSON `values` (items, fields) a body may hold for the checks that read bodies; a larger one is not judged by them, and the report says so")
	o.format = fs.String("format", "text", "report `format`: text, json, junit or html (one self-contained page)")
	o.output = fs.String("output", "", "write the report to this `file` instead of standard output (a regular file; -: standard output)")
	o.verbose = fs.Bool("verbose", false, "text report: list every failed check, not only the distinct failures")
	fs.Func("id", "a record known to exist, as `NAME=ID` for the path parameter NAME (repeatable): movie_id=tt0137523", func(v string) error {
		name, id, ok := strings.Cut(v, "=")
		if name, id = strings.TrimSpace(name), strings.TrimSpace(id); !ok || name == "" || id == "" {
			return fmt.Errorf("%q is not NAME=ID", v)
		}
		o.ids[name] = append(o.ids[name], id)
		return nil
	})
	fs.Func("person-id", "short for --id person_id=`ID`", func(v string) error { o.ids["person_id"] = append(o.ids["person_id"], v); return nil })
	fs.Func("review-id", "short for --id review_id=`ID`", func(v string) error { o.ids["review_id"] = append(o.ids["review_id"], v); return nil })
	fs.Func("header", "send this `'Name: value'` header with every request (repeatable)", func(v string) error {
		name, value, ok := strings.Cut(v, ":")
		if !ok || strings.TrimSpace(name) == "" {
			return fmt.Errorf("%q is not 'Name: value'", v)
		}
		o.headers = append(o.headers, strings.TrimSpace(name)+":"+strings.TrimSpace(value))
		return nil
	})
	for _, f := range []struct {
		name, what string
		into       url.Values
	}{{"query", "query parameter", o.query}, {"cookie", "cookie", o.cookies}} {
		fs.Func(f.name, fmt.Sprintf("send this %s, as `NAME=VALUE`, with every request (repeatable): the value an application's own check wants", f.what), func(v string) error {
			name, value, ok := strings.Cut(v, "=")
			if name = strings.TrimSpace(name); !ok || name == "" {
				return fmt.Errorf("%q is not NAME=VALUE", v)
			}
			f.into.Add(name, value)
			return nil
		})
	}
	fs.Var(&o.excludeOps, "exclude-operation", "leave this `operation` out of the run: an operationId or \"METHOD /path\" (repeatable, comma-separated); an operation the runner cannot test fails the run unless left out")
	o.jwtSecret = fs.String("jwt-secret", "", "verify access tokens' HS256/384/512 signatures with this secret")
	fs.Var(&o.statuses, "framework-statuses", "undeclared statuses FastAPI itself answers with (default 400,401,404,405,413,422)")
	o.maxFailures = fs.Int("max-failures", 0, "stop after this many failed cases and report the rest as not run (0: never stop)")
	o.noWrites = fs.Bool("no-writes", false, "send no POST, PUT, PATCH or DELETE (logins excepted): safe against a shared server")
	o.allowDestructive = fs.Bool("allow-destructive", false, "let cases change or delete records the runner did not create itself")
	return fs, o
}

// contractHelp is contract's usage text, with its checks.
func contractHelp() string {
	var list strings.Builder
	for _, c := range contract.Checks {
		fmt.Fprintf(&list, "  %-29s %s\n", c.Name(), c.About())
	}
	return fmt.Sprintf(contractUsage, list.String())
}

func runContract(ctx context.Context, args []string, _ func(string) string, stdout, stderr io.Writer) error {
	fs, o := contractFlags()
	help, err := parseFlags(fs, args)
	if help {
		printUsage(fs, false, stdout, contractHelp())
		return nil
	}
	if err != nil {
		return err
	}
	if *o.baseURL == "" {
		return usagef("contract: --base-url URL is required")
	}
	if !reportFormat(*o.format) {
		return usagef("contract: --format %q: use text, json, junit or html", *o.format)
	}
	if (*o.username == "") != (*o.password == "") {
		return usagef("contract: give --username and --password together")
	}
	if err := checkOutput("contract", "--output", *o.output); err != nil {
		return err
	}
	switch {
	case *o.examples < 0:
		return usagef("contract: --examples %d: give 0 or more", *o.examples)
	case *o.maxCheckValues < 1:
		return usagef("contract: --max-check-values %d: give 1 or more", *o.maxCheckValues)
	case *o.workers < 1:
		return usagef("contract: --workers %d: give 1 or more", *o.workers)
	case *o.maxFailures < 0:
		return usagef("contract: --max-failures %d: give 0 (never stop) or more", *o.maxFailures)
	}
	if u, err := url.Parse(*o.baseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usagef("contract: --base-url %q: give an http(s) URL with a host, e.g. http://127.0.0.1:8000", *o.baseURL)
	}
	cfg := contract.Config{
		BaseURL: *o.baseURL, Username: *o.username, Password: *o.password, AuthFormat: *o.authFormat, Token: *o.token, Seed: *o.seed,
		Checks: o.checks, ExcludeChecks: o.exclude, Examples: *o.examples, Workers: *o.workers,
		Timeout: o.timeout, MaxResponseTime: o.maxTime, MaxCheckValues: *o.maxCheckValues,
		MaxFailures: *o.maxFailures, NoWrites: *o.noWrites, AllowDestructive: *o.allowDestructive,
		IDs:    o.ids,
		Header: http.Header{}, Query: o.query, Cookie: o.cookies,
		ExcludeOperations: o.excludeOps,
	}
	for _, h := range o.headers {
		name, value, _ := strings.Cut(h, ":")
		cfg.Header.Add(name, value)
	}
	if *o.jwtSecret != "" {
		cfg.JWTSecret = []byte(*o.jwtSecret)
	}
	for _, s := range o.statuses {
		n, err := strconv.Atoi(s)
		if err != nil || n < 100 || n > 599 {
			return usagef("contract: --framework-statuses: %q is not an HTTP status", s)
		}
		cfg.FrameworkStatuses = append(cfg.FrameworkStatuses, n)
	}
	if *o.specFlag != "" {
		if cfg.Spec, err = loadSpec(ctx, "contract", *o.specFlag, o.timeout, *o.maxSpecBytes, stderr); err != nil {
			return err
		}
	}
	modelOpts, err := o.framework.options("contract")
	if err != nil {
		return err
	}
	if len(modelOpts) > 0 {
		if cfg.Spec == nil {
			if cfg.Spec, err = spec.Embedded(); err != nil {
				return err
			}
		}
		if cfg.Model, err = model.Compile(cfg.Spec, modelOpts...); err != nil {
			return usagef("contract: --spec %s: %v", cfg.Spec.Source(), err)
		}
	}
	if err := knownPathParameters(cfg.Spec, o.ids); err != nil {
		return err
	}
	if *o.format == "text" && (*o.output == "" || *o.output == "-") {
		cfg.Progress = stderr
	}

	report, err := contract.Run(ctx, cfg)
	if err != nil {
		return usagef("%v", strings.TrimPrefix(err.Error(), "contract: ")) // exit 2
	}
	report.Verbose = *o.verbose
	if err := emitReport("contract", report, *o.format, *o.output, stdout, stderr); err != nil {
		return err
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

// maxSpecBytesFlag is --max-spec-bytes, the largest contract --spec may
// name.
func maxSpecBytesFlag(fs *flag.FlagSet) *int64 {
	n := new(int64)
	*n = spec.DefaultMaxBytes
	fs.Func("max-spec-bytes", "largest contract --spec may name, file or URL, e.g. 64MiB; a larger one is refused (default 16MiB)", func(v string) (err error) {
		*n, err = parseSize(v)
		return err
	})
	return n
}

// loadSpec reads a contract from a file or an http(s) URL, telling on
// stderr what the loader ignored in it.
func loadSpec(ctx context.Context, cmd, source string, timeout time.Duration, maxBytes int64, stderr io.Writer) (*spec.Spec, error) {
	return loadSpecFlag(ctx, cmd, "--spec", source, timeout, maxBytes, stderr)
}

// loadSpecFlag is loadSpec of the contract the flag label names
// (--recorded-spec), in its errors and warnings.
func loadSpecFlag(ctx context.Context, cmd, label, source string, timeout time.Duration, maxBytes int64, stderr io.Writer) (*spec.Spec, error) {
	if maxBytes <= 0 {
		maxBytes = spec.DefaultMaxBytes
	}
	data, err := fetchDocument(ctx, cmd, label, source, timeout, maxBytes)
	if err != nil {
		return nil, err
	}
	load := spec.LoadFile // its references to other files are read beside it
	if isURL(source) {
		load = spec.LoadLimited
	}
	sp, err := load(data, source, spec.Limits{MaxBytes: maxBytes})
	if err != nil {
		return nil, usagef("%s: %s: %v", cmd, label, err)
	}
	for _, w := range sp.Warnings() {
		fmt.Fprintf(stderr, "moviemock: %s: warning: %s %s: %s\n", cmd, label, source, w)
	}
	return sp, nil
}

// inputError is why a file given to read cannot be: a FIFO, a device, a
// socket or a directory is not waited on or read, but refused with what it
// is (a pipe's writer may never come, and --timeout bounds only URLs).
func inputError(err error) error {
	var re *regularfile.Error
	if errors.As(err, &re) {
		return fmt.Errorf("%s, not a regular file: save it to a file, or give an http(s) URL", re.Kind)
	}
	if inner := errors.Unwrap(err); inner != nil {
		return inner
	}
	return err
}

func isURL(source string) bool {
	return strings.HasPrefix(source, "http://") || strings.HasPrefix(source, "https://")
}

// fetchDocument reads a document from a file or an http(s) URL (within
// timeout), at most maxBytes of it; label names it in errors (--spec, OLD).
// Every error is a usage error.
func fetchDocument(ctx context.Context, cmd, label, source string, timeout time.Duration, maxBytes int64) ([]byte, error) {
	tooLarge := func() error {
		return usagef("%s: %s %s: %v", cmd, label, source, spec.TooLarge(-1, maxBytes))
	}
	var data []byte
	if isURL(source) {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, "GET", source, nil)
		if err != nil {
			return nil, usagef("%s: %s %s: %v", cmd, label, source, err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, usagef("%s: %s: cannot fetch %s: %v", cmd, label, source, err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, usagef("%s: %s: %s answered %s", cmd, label, source, resp.Status)
		}
		if resp.ContentLength > maxBytes {
			return nil, tooLarge()
		}
		if data, err = io.ReadAll(io.LimitReader(resp.Body, maxBytes+1)); err != nil {
			return nil, usagef("%s: %s: reading %s: %v", cmd, label, source, err)
		}
	} else {
		f, err := regularfile.Open(source)
		if err != nil {
			return nil, usagef("%s: %s %s: %v", cmd, label, source, inputError(err))
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > maxBytes {
			return nil, tooLarge()
		}
		if data, err = io.ReadAll(io.LimitReader(f, maxBytes+1)); err != nil {
			return nil, usagef("%s: %s %s: %v", cmd, label, source, err)
		}
	}
	if int64(len(data)) > maxBytes {
		return nil, tooLarge()
	}
	return data, nil
}
