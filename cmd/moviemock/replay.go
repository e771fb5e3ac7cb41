package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/contract/replay"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/internal/traffic"
)

const replayUsage = `Usage: moviemock replay SRC --base-url URL [flags]

Sends the calls a frontend was recorded making — SRC is a HAR file
(Chromium's "Save all as HAR", Playwright's recordHar) or a saved journal
(GET /__mock/journal of serve or proxy) — again, in their order, to the
target at --base-url (typically moviemock serve --spec of a changed
contract, or the new backend), and reports per call what changed in the
SHAPE of the answer: the status, the content type, and the JSON fields
removed, made null, of another type (breaking), no longer in every item of
a list (warning) or added (info). Values are expected to differ and are
never compared; a list's items are compared by the union of their shapes,
and so are the values of a dict the target's contract declares (an object
of no properties, dict[str, X]): its keys are values too.

--recorded-spec names the contract the recording was made against (the
base document). A value null where it allows null (Optional[str]), or of a
kind it allows there (int | str, Any, a float written 8), is a value of
other data, not a change: the report notes it and does not count it.
Without it a made-null or type change the target's contract allows says
that it may be a value. Removed, added and missing fields, the status and
the content type are reported alike with it or without.

Logins (a POST to the contract's OAuth2 tokenUrl or password-form
operation; with no contract, a username and password form to a login's
path) are redone with --username and --password and nothing else
recorded; recorded tokens, cookies and other credentials are never sent:
a call that carried a token carries the fresh login's instead, or is
skipped. Writes (POST, PUT, PATCH, DELETE) are sent
only with --allow-writes, and the ids the target gives the records they
create replace the recorded ones in later paths. A call whose recording
kept no answer body (a journal keeps JSON bodies up to 16 KiB) is compared
on status and content type only; a HAR's calls to another server than the
API's are not sent.
The report ends with one line a CI log can grep: "moviemock replay: PASSED
…" or "moviemock replay: FAILED …".

Exit code: 0 no change at or above --fail-on, 1 one found, 2 bad usage, an
unreadable recording or a target nothing answers at.

Examples:
  moviemock replay page.har --base-url http://127.0.0.1:8000 --username alice --password wonderland
  moviemock replay journal.json --base-url http://127.0.0.1:8001 --recorded-spec base.json
  moviemock replay journal.json --base-url https://staging.example.com --format junit --output replay.xml
  moviemock replay page.har --base-url http://127.0.0.1:8000 --allow-writes --format html --output replay.html

Flags:
`

// replayOptions are where replay's flags put their values.
type replayOptions struct {
	baseURL, specFlag, recordedSpec, username, password, format, output, failOn *string
	allowWrites                                                                 *bool
	maxCheckValues                                                              *int
	timeout                                                                     time.Duration
	maxSpecBytes                                                                *int64
}

// replayFlags defines replay's flags.
func replayFlags() (*flag.FlagSet, *replayOptions) {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	o := &replayOptions{}
	o.baseURL = fs.String("base-url", "", "the target to replay to, e.g. http://127.0.0.1:8000 (required)")
	o.specFlag = fs.String("spec", "", "the target's contract `file or URL`, where its login is and which fields are secret (default: BASE/openapi.json when the target serves it, else none)")
	o.recordedSpec = fs.String("recorded-spec", "", "the contract `file or URL` the recording was made against (the base document): a value null or of a kind it allows at that place is a value, not a change")
	o.maxSpecBytes = maxSpecBytesFlag(fs)
	fs.Lookup("max-spec-bytes").Usage = "largest contract --spec or --recorded-spec may name, file or URL, e.g. 64MiB; a larger one is refused (default 16MiB)"
	o.username = fs.String("username", "", "log in again as this user where the recording logged in")
	o.password = fs.String("password", "", "password for --username")
	o.allowWrites = fs.Bool("allow-writes", false, "also send the recorded POST, PUT, PATCH and DELETE calls (logins are always sent)")
	o.failOn = fs.String("fail-on", "breaking", "exit 1 on a change of this `level` or above: breaking, warning or never")
	o.timeout = contract.DefaultTimeout
	fs.Func("timeout", "time limit of one request (default 5s)", func(v string) (err error) { o.timeout, err = parseDuration(v); return err })
	o.maxCheckValues = fs.Int("max-check-values", contract.DefaultMaxCheckValues, "the most JSON `values` (items, fields) a body may hold to have its shape compared; a larger one is compared on status and content type only, and the report says so")
	o.format = fs.String("format", "text", "report `format`: text, json, junit or html (one self-contained page)")
	o.output = fs.String("output", "", "write the report to this `file` instead of standard output (a regular file; -: standard output)")
	return fs, o
}

func runReplay(ctx context.Context, args []string, _ func(string) string, stdout, stderr io.Writer) error {
	fs, o := replayFlags()
	pos, help, err := parseFlagsArgs(fs, args)
	if help {
		printUsage(fs, false, stdout, replayUsage)
		return nil
	}
	if err != nil {
		return err
	}
	switch {
	case len(pos) != 1:
		return usagef("replay: name one recording, a HAR file or a saved journal (see 'moviemock replay --help')")
	case *o.baseURL == "":
		return usagef("replay: --base-url URL is required")
	case !reportFormat(*o.format):
		return usagef("replay: --format %q: use text, json, junit or html", *o.format)
	case (*o.username == "") != (*o.password == ""):
		return usagef("replay: give --username and --password together")
	case *o.maxCheckValues < 1:
		return usagef("replay: --max-check-values %d: give 1 or more", *o.maxCheckValues)
	}
	if err := checkOutput("replay", "--output", *o.output); err != nil {
		return err
	}
	failOn, err := replay.FailOn(*o.failOn)
	if err != nil {
		return usagef("replay: --fail-on %v", err)
	}
	if u, err := url.Parse(*o.baseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usagef("replay: --base-url %q: give an http(s) URL with a host, e.g. http://127.0.0.1:8000", *o.baseURL)
	}
	report, err := interruptible(ctx, "replay", "no report written", func() (*replay.Report, error) { return replayRun(ctx, o, pos[0], failOn, stderr) })
	if err != nil {
		return err
	}
	if err := emitReportUnlessStopped(ctx, "replay", report, *o.format, *o.output, stdout, stderr); err != nil {
		return err
	}
	if n := report.Failed(); n > 0 {
		return &failureError{fmt.Sprintf("replay: %d calls changed (--fail-on %s)", n, *o.failOn)}
	}
	return nil
}

// replayRun reads the recording at path and replays it: runReplay's work,
// which a signal interrupts.
func replayRun(ctx context.Context, o *replayOptions, path string, failOn replay.Level, stderr io.Writer) (*replay.Report, error) {
	src, err := traffic.LoadFile(path, traffic.DefaultLimits)
	if err != nil {
		return nil, usagef("replay: %v", err)
	}
	// The recorded contract first: a bad one is bad usage, whatever the
	// target.
	var recorded *spec.Spec
	if *o.recordedSpec != "" {
		if recorded, err = loadSpecFlag(ctx, "replay", "--recorded-spec", *o.recordedSpec, o.timeout, *o.maxSpecBytes, stderr); err != nil {
			return nil, err
		}
	}
	if err := contract.Probe(ctx, *o.baseURL, o.timeout); err != nil {
		return nil, usagef("replay: %v", strings.TrimPrefix(err.Error(), "contract: "))
	}
	var sp *spec.Spec
	if *o.specFlag != "" {
		if sp, err = loadSpec(ctx, "replay", *o.specFlag, o.timeout, *o.maxSpecBytes, stderr); err != nil {
			return nil, err
		}
	} else {
		// The target's own document, when it serves one; a recording
		// without a login needs none.
		doc := strings.TrimSuffix(*o.baseURL, "/") + "/openapi.json"
		if sp, err = loadSpec(ctx, "replay", doc, o.timeout, *o.maxSpecBytes, io.Discard); err != nil {
			sp = nil
			fmt.Fprintf(stderr, "moviemock: replay: no contract (%s): a login is known by its form (username and password) at a login's path\n", strings.TrimPrefix(strings.TrimPrefix(err.Error(), "replay: --spec"), ": "))
		}
	}
	report, err := replay.Run(ctx, replay.Config{
		BaseURL: *o.baseURL, Source: src, Spec: sp, Recorded: recorded,
		Username: *o.username, Password: *o.password, AllowWrites: *o.allowWrites,
		Timeout: o.timeout, MaxCheckValues: *o.maxCheckValues, FailOn: failOn,
	})
	if err != nil {
		return nil, usagef("%v", err) // exit 2
	}
	return report, nil
}
