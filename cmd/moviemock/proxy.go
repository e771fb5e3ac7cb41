package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/atomicfile"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/problems"
	"github.com/moviemock/moviemock/internal/regularfile"
	"github.com/moviemock/moviemock/mock"
	"github.com/moviemock/moviemock/proxy"
)

const defaultRecordInterval = 10 * time.Second

const proxyUsage = `Usage: moviemock proxy --upstream URL [flags]

Stands between a client (a frontend, its end-to-end suite) and a real
backend: every request is forwarded to the upstream and its answer relayed
unchanged as it arrives, and every exchange is checked against the contract
with the contract runner's checks (status, Content-Type, body schema,
headers, JWT shape, x_id == x.id, list filters and limits). Requests are
checked too: a client sending what FastAPI rejects learns it here.

Violations are logged as they happen, written into the journal entry of the
exchange, listed at GET /__mock/violations, and written on exit with
--report FILE; with --fail-on-violation the exit code is 1 when there was
one, so an end-to-end suite run through the proxy checks the backend too.
A violation is one failed check; an exchange fails with one or more. The
summary says how many exchanges reached the upstream: with
--fail-on-violation, a session none of whose exchanges reached it (a wrong
--upstream, a backend that was down, everything mocked) fails as well, for
it checked nothing.

What the upstream lacks is answered by the mock, with serve's data,
scenarios and state: an operation the upstream answers with FastAPI's own
404 "Not Found" (no such route), 405 or 501, or every operation while the
upstream cannot be connected to. --mock OPERATION always answers one from
the mock. Scenarios, Prefer and the control API work as with serve, in
front of the upstream. The journal's answered_by says who answered.

--record DIR writes the records seen in the upstream's answers into fixture
files (one per collection, the latest answer of a record winning; no
password or token ever), every --record-interval and on exit, so that
'moviemock serve --fixtures DIR' replays them offline.

An upstream that takes longer than --upstream-timeout to answer gets a 504,
one that fails otherwise a 502; both carry X-Mock-Error saying why.

Exit code: 0, or 1 with --fail-on-violation when a check failed or no
exchange reached the upstream; 2 bad usage.

Examples:
  moviemock proxy --upstream http://127.0.0.1:8001
  moviemock proxy --upstream http://127.0.0.1:8001 --spec http://127.0.0.1:8001/openapi.json \
      --report contract-report.xml --format junit --fail-on-violation
  moviemock proxy --upstream https://staging.example.com --upstream-ca ./staging-ca.pem \
      --record ./recorded --mock create_movie_movies_post

Every flag can also be set by the environment variable named after it.

Checks applied to each exchange (--checks, --exclude-checks):
%s
Flags:
`

// proxyFlags are the proxy's flags beside serve's.
type proxyFlags struct {
	upstream, ca                string
	insecure, failOnViolation   bool
	timeout, connect            time.Duration
	mock, checks, exclude       listFlag
	report, format, recordDir   string
	recordInterval, maxResponse time.Duration
	maxHeaderBytes              int64
	maxCheckMemory              int64
	maxCheckValues              int
	recordMaxRecords            int
	recordMaxBytes              int64
	// written and leftOut are the last --record write's counts, for the
	// line on exit.
	written, leftOut int

	p        *proxy.Proxy
	recorder *fixtures.Recorder
}

func runProxy(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	return serveCommand(ctx, "proxy", args, getenv, stdout, stderr, &proxyFlags{})
}

// proxyHelp is the proxy's usage text, with its checks.
func proxyHelp() string {
	var list strings.Builder
	for _, c := range contract.ObservedChecks {
		fmt.Fprintf(&list, "  %-29s %s\n", c.Name(), c.About())
	}
	return fmt.Sprintf(proxyUsage, list.String())
}

// define adds the proxy's flags to fs.
func (px *proxyFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&px.upstream, "upstream", "", "the backend's base `URL`, http:// or https:// (required)")
	fs.StringVar(&px.ca, "upstream-ca", "", "trust the CA certificates of this PEM `file` for an https upstream")
	fs.BoolVar(&px.insecure, "upstream-insecure", false, "trust any TLS certificate of the upstream")
	px.timeout = proxy.DefaultTimeout
	fs.Func("upstream-timeout", "how long the upstream may take to begin its answer; then 504 (default 30s)", func(v string) (err error) {
		px.timeout, err = parseDuration(v)
		return err
	})
	px.maxHeaderBytes = proxy.DefaultMaxHeaderBytes
	fs.Func("upstream-max-header-bytes", "the most of the upstream's status line and headers passed on; past it the client gets a 502 (default 64KiB)", func(v string) (err error) {
		px.maxHeaderBytes, err = parseSize(v)
		return err
	})
	px.connect = proxy.DefaultConnectTimeout
	fs.Func("connect-timeout", "how long a connection to the upstream may take; then the mock answers (default 5s)", func(v string) (err error) {
		px.connect, err = parseDuration(v)
		return err
	})
	fs.Var(&px.mock, "mock", "answer this `operation` from the mock, never the upstream: an operationId or \"METHOD /path\" (repeatable, comma-separated)")
	fs.Var(&px.checks, "checks", "apply only these `checks` (comma-separated; see moviemock contract --help)")
	fs.Var(&px.exclude, "exclude-checks", "skip these `checks`, e.g. request_conformance for a suite that sends bad input on purpose")
	fs.Func("max-response-time", "also check that the upstream answers within this `duration` (default: not checked)", func(v string) (err error) {
		px.maxResponse, err = parseDuration(v)
		return err
	})
	fs.IntVar(&px.maxCheckValues, "max-check-values", contract.DefaultMaxCheckValues, "the most JSON `values` (items, fields) an answer may hold for the checks that read bodies; a larger one is not judged by them, and the log and report say so")
	px.maxCheckMemory = proxy.DefaultMaxCheckMemory
	fs.Func("max-check-memory", "the most bytes the answers in flight keep together for the checks and the recording; an answer past it is relayed unchecked, and the log and report say so (default 64MiB)", func(v string) (err error) {
		px.maxCheckMemory, err = parseSize(v)
		return err
	})
	fs.StringVar(&px.report, "report", "", "write the violations report to this `file` on exit (-: standard output)")
	fs.StringVar(&px.format, "format", "", "report `format`: text, json, junit or html (default: from the --report file's ending, else text)")
	fs.BoolVar(&px.failOnViolation, "fail-on-violation", false, "exit 1 when a check failed or no exchange reached the upstream")
	fs.StringVar(&px.recordDir, "record", "", "write the records of the upstream's answers into this fixture `directory`")
	px.recordInterval = defaultRecordInterval
	fs.Func("record-interval", "how often --record writes what is new; 0: on exit only (default 10s)", func(v string) (err error) {
		px.recordInterval, err = parseDurationOrZero(v)
		return err
	})
	fs.IntVar(&px.recordMaxRecords, "record-max-records", fixtures.DefaultRecordMaxRecords, "the most distinct records --record keeps; past it the recording stops, and the log and report say so")
	px.recordMaxBytes = fixtures.DefaultRecordMaxBytes
	fs.Func("record-max-bytes", "the most bytes of records --record keeps; past it the recording stops, and the log and report say so (default 64MiB)", func(v string) (err error) {
		px.recordMaxBytes, err = parseSize(v)
		return err
	})
}

// check refuses contradictory or missing proxy flags.
func (px *proxyFlags) check() error {
	if px.upstream == "" {
		return usagef("proxy: --upstream URL is required, e.g. --upstream http://127.0.0.1:8001")
	}
	if px.format == "" {
		switch strings.ToLower(filepath.Ext(px.report)) {
		case ".json":
			px.format = "json"
		case ".xml":
			px.format = "junit"
		case ".html", ".htm":
			px.format = "html"
		default:
			px.format = "text"
		}
	}
	if !reportFormat(px.format) {
		return usagef("proxy: --format %q: use text, json, junit or html", px.format)
	}
	if px.report == "" && px.format != "text" {
		return usagef("proxy: --format %s needs --report FILE", px.format)
	}
	if err := checkOutput("proxy", "--report", px.report); err != nil {
		return err
	}
	if px.ca != "" && px.insecure {
		return usagef("proxy: --upstream-ca and --upstream-insecure contradict each other: give one")
	}
	return nil
}

// build makes the proxy and the mock behind it.
func (px *proxyFlags) build(mc mock.Config, m *model.Model, secret string, logger *slog.Logger) (*proxy.Proxy, error) {
	ocfg := contract.Config{
		BaseURL: px.upstream, Spec: m.Spec, Model: m, Checks: px.checks, ExcludeChecks: px.exclude,
		MaxResponseTime: px.maxResponse, AdminToken: mc.AdminToken, MaxCheckValues: px.maxCheckValues,
	}
	if secret != "" {
		ocfg.JWTSecret = []byte(secret)
	}
	obs, err := contract.NewObserver(ocfg)
	if err != nil {
		return nil, usagef("proxy: %v", err)
	}
	cfg := proxy.Config{
		Upstream: px.upstream, CAFile: px.ca, Insecure: px.insecure, Timeout: px.timeout,
		ConnectTimeout: px.connect, Mock: px.mock, Observer: obs, Logger: logger, MaxHeaderBytes: px.maxHeaderBytes,
		MaxCheckMemory: px.maxCheckMemory,
	}
	if px.recordDir != "" {
		px.recorder = fixtures.NewRecorder(m)
		px.recorder.SetLimits(px.recordMaxRecords, px.recordMaxBytes)
		cfg.Recorder = px.recorder
	}
	if px.p, err = proxy.New(cfg, mc); err != nil {
		return nil, usagef("proxy: %v", err)
	}
	return px.p, nil
}

// startLine is what the start-up text says beyond serve's.
func (px *proxyFlags) startLine(source string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  the mock answers what the upstream lacks, from %s", source)
	if len(px.mock) > 0 {
		fmt.Fprintf(&b, "; always: %s", strings.Join(px.mock, ", "))
	}
	b.WriteString("\n")
	if px.recordDir != "" {
		interval := "on exit"
		if px.recordInterval > 0 {
			interval = "every " + px.recordInterval.String() + " and on exit"
		}
		fmt.Fprintf(&b, "  recording the upstream's records into %s, %s\n", px.recordDir, interval)
	}
	if px.report != "" {
		fmt.Fprintf(&b, "  violations report (%s) to %s on exit\n", px.format, px.report)
	}
	return b.String()
}

// record writes the recording now and then until ctx ends, and once more.
func (px *proxyFlags) record(ctx context.Context, stderr io.Writer) {
	if px.recorder == nil {
		return
	}
	px.p.Record(ctx, px.recordDir, px.recordInterval, func(written int, left, err error) {
		var errs *fixtures.Errors
		errors.As(left, &errs)
		if err == nil {
			px.written, px.leftOut = written, leftOut(errs)
		}
		switch {
		case err != nil:
			fmt.Fprintf(stderr, "moviemock: proxy: --record %s: %v\n", px.recordDir, err)
		case errs != nil:
			fmt.Fprintf(stderr, "moviemock: proxy: %s\n", errs.Message(fmt.Sprintf("%s recorded into %s; %s left out:",
				problems.Plural(written, "record", "records"), px.recordDir, problems.Plural(px.leftOut, "record", "records"))))
		case left != nil:
			fmt.Fprintf(stderr, "moviemock: proxy: %s recorded into %s; left out:\n%v\n", problems.Plural(written, "record", "records"), px.recordDir, left)
		}
	})
}

// leftOut counts the records errs names (a record may have several
// problems; those past the detail kept count one each), and the
// collections whose records were all refused for a secret count one.
func leftOut(errs *fixtures.Errors) int {
	if errs == nil {
		return 0
	}
	seen := map[[3]string]bool{}
	for _, e := range errs.Items {
		seen[[3]string{e.Kind, strconv.Itoa(e.Index), e.ID}] = true
	}
	return len(seen) + errs.Omitted
}

// finish writes the report and says how the session went: a failure when
// --fail-on-violation and a check failed, or no exchange reached the
// upstream (nothing was checked).
func (px *proxyFlags) finish(stdout, stderr io.Writer) error {
	report := px.p.Report()
	switch px.report {
	case "":
	case "-":
		if err := writeReport(report, px.format, stdout); err != nil {
			return fmt.Errorf("proxy: write report: %w", err)
		}
	default:
		if err := writeReportFile(report, px.format, px.report); err != nil {
			return outputError("proxy", "--report", err)
		}
		fmt.Fprintf(stderr, "moviemock proxy: report written to %s\n", px.report)
	}
	if px.recorder != nil {
		// The last write's counts, as its own line gave them: the records
		// kept include those the write left out.
		line := fmt.Sprintf("moviemock proxy: %s recorded into %s", problems.Plural(px.written, "record", "records"), px.recordDir)
		if px.leftOut > 0 {
			line += fmt.Sprintf(", %d left out (see above)", px.leftOut)
		}
		if why, _ := px.recorder.Stopped(); why != "" {
			line += "; " + why
		}
		fmt.Fprintln(stderr, line)
	}
	fmt.Fprintln(stdout, report.SummaryLine())
	if !px.failOnViolation {
		return nil
	}
	if n := report.Failures(); n > 0 {
		return &failureError{problems.Plural(n, "violation", "violations") + ": " + problems.Plural(n, "check", "checks") + " failed"}
	}
	if o := report.Observed; o != nil && o.Reached() == 0 {
		return &failureError{fmt.Sprintf("none of %s reached the upstream %s: nothing was checked", problems.Plural(o.Total(), "exchange", "exchanges"), px.upstream)}
	}
	return nil
}

func reportFormat(f string) bool { return f == "text" || f == "json" || f == "junit" || f == "html" }

// writeReportFile writes report in format to path, whole or not at all.
func writeReportFile(report *contract.Report, format, path string) error {
	return atomicfile.Write(path, func(w *bufio.Writer) error { return writeReport(report, format, w) })
}

// checkOutput refuses, before any work is done, a report file (flag:
// --output, --report) that is neither "-" (standard output) nor a path a
// regular file may be written at: a symbolic link, a FIFO, a device, a
// socket or a directory, which writing whole (a rename) would replace.
func checkOutput(command, flag, path string) error {
	if path == "" || path == "-" {
		return nil
	}
	if err := regularfile.CheckTarget(path); err != nil {
		return outputError(command, flag, err)
	}
	return nil
}

// outputError is err of writing the report file flag names; a node that
// is not a regular file is bad usage, said with what to give instead.
func outputError(command, flag string, err error) error {
	var re *regularfile.Error
	if errors.As(err, &re) {
		return usagef("%s: %s %s: %s, not a regular file; give a file path or - for standard output", command, flag, re.Path, re.Kind)
	}
	return fmt.Errorf("%s: write report: %w", command, err)
}

// report is what contract, diff and replay write: one report, in the four
// formats --format names, and the line that sums it up.
type report interface {
	SummaryLine() string
	WriteText(io.Writer) error
	WriteJSON(io.Writer) error
	WriteJUnit(io.Writer) error
	WriteHTML(io.Writer) error
}

// emitReport writes report in format to stdout (output "" or "-"), or to
// the file output (whole or not at all) and then its summary line to
// stderr, for the log of the CI job that ran the command.
func emitReport(command string, r report, format, output string, stdout, stderr io.Writer) error {
	if output == "" || output == "-" {
		if err := writeReport(r, format, stdout); err != nil {
			return fmt.Errorf("%s: write report: %w", command, err)
		}
		return nil
	}
	if err := atomicfile.Write(output, func(w *bufio.Writer) error { return writeReport(r, format, w) }); err != nil {
		return outputError(command, "--output", err)
	}
	fmt.Fprintf(stderr, "moviemock %s: report written to %s\n%s\n", command, output, r.SummaryLine())
	return nil
}

// writeReport writes report to w in format: text, json, junit or html.
func writeReport(report report, format string, w io.Writer) error {
	switch format {
	case "json":
		return report.WriteJSON(w)
	case "junit":
		return report.WriteJUnit(w)
	case "html":
		return report.WriteHTML(w)
	}
	return report.WriteText(w)
}
