package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/moviemock/moviemock/contract/compare"
	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/problems"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/internal/traffic"
)

const diffUsage = `Usage: moviemock diff OLD NEW [flags]

Compares two versions of a contract (files or http(s) URLs, YAML or JSON,
FastAPI's /openapi.json as it is) and says what each change does to a
client: breaking (a client that followed OLD fails: its request is refused,
or it cannot read the answer), warning (some clients may be affected), or
info. Each change comes with the operation it is in (as OLD names it), where
in it (a parameter, a body field, the security) and why a client suffers.

oasdiff finds the changes; moviemock reads them by the framework profile
NEW shows, as serve and contract choose it (--framework to choose): a
FastAPI document the way a FastAPI backend means it (a response field with
a default is sent in every answer, so removing it is breaking; every
security scheme of a route is required), any other by its own words (the
security requirements are alternatives, an optional field may be left
out, an invalid request is refused with the status the operation
declares). For both, an Optional (anyOf [T, null]) is one change, "became
nullable", and findings no client sees (info.version not bumped) are left
out. See docs/contract-changes.md.

With --traffic SRC (a HAR saved by Chromium's DevTools or Playwright's
recordHar, or a journal saved from GET /__mock/journal of serve or proxy),
each change is marked with the recorded calls it hits, the calls matched
to operations by OLD; calls that match none are listed. A call hits a
change of its operation when the change concerns the whole operation
(removed, security, a new required parameter or field), a parameter or
body field the call sent (a default changed: one it did not send), or the
response its recorded status is. --fail-on breaking-used then fails only
on the breaking changes a recorded call hits.

The report ends with one line a CI log can grep: "moviemock diff: PASSED …"
or "moviemock diff: FAILED …".

A comparison collects at most --max-changes of oasdiff's findings (a
schema changed below many operations is a finding in each): past it, the
report says it is partial and its verdict is of the changes seen.
A document whose schemas nest more than --max-depth deep (256) is
refused: oasdiff's cost grows with the cube of the depth.

Exit code: 0 no change at or above --fail-on, 1 such a change, 2 bad usage
or a document that cannot be read (the message says whether OLD or NEW).

How the changes are read (fastapi: only for a FastAPI document; openapi:
only for any other):
%s
Examples:
  moviemock diff main/openapi.json openapi.json
  moviemock diff https://api.example.com/openapi.json http://127.0.0.1:8000/openapi.json --fail-on warning
  moviemock diff old.yaml new.yaml --format html --output contract-changes.html
  moviemock diff base.json head.json --traffic frontend.har --fail-on breaking-used

Flags:
`

// diffHelp is diff's usage text, with the rules of its FastAPI-aware
// reading.
func diffHelp() string {
	var list strings.Builder
	for _, r := range compare.Rules {
		about := r.About
		if r.Profile != "" {
			about = fmt.Sprintf("(%s) %s", r.Profile, about)
		}
		fmt.Fprintf(&list, "  %-24s %s\n", r.Name, about)
	}
	return fmt.Sprintf(diffUsage, list.String())
}

// defaultDiffTimeout is how long diff waits for a document named by URL.
const defaultDiffTimeout = 30 * time.Second

// diffOptions are where diff's flags put their values.
type diffOptions struct {
	format, output, failOn *string
	traffic, trafficPrefix *string
	maxSpecBytes           int64
	maxChanges             *int
	maxDepth               *int
	timeout                time.Duration
	framework              *string
}

// diffFlags defines diff's flags.
func diffFlags() (*flag.FlagSet, *diffOptions) {
	fs := flag.NewFlagSet("diff", flag.ContinueOnError)
	o := &diffOptions{maxSpecBytes: spec.DefaultMaxBytes, timeout: defaultDiffTimeout}
	o.format = fs.String("format", "text", "report `format`: text, json, junit or html (one self-contained page)")
	o.output = fs.String("output", "", "write the report to this `file` instead of standard output (a regular file; -: standard output)")
	failOns := make([]string, len(compare.FailOns))
	for i, f := range compare.FailOns {
		failOns[i] = string(f)
	}
	o.failOn = fs.String("fail-on", string(compare.FailOnBreaking), "exit 1 when a change at this `level` or above is found: "+strings.Join(failOns, ", "))
	o.traffic = fs.String("traffic", "", "mark each change with the recorded calls it hits: a HAR `file` (Chromium's \"Save all as HAR\", Playwright's recordHar) or a saved journal (GET /__mock/journal)")
	o.trafficPrefix = fs.String("traffic-prefix", "", "a `path` the recorded calls have before the contract's paths (a dev server's proxy: /api), taken off to match them")
	fs.Func("max-spec-bytes", "largest document OLD or NEW may be, file or URL, e.g. 64MiB; a larger one is refused (default 16MiB)", func(v string) (err error) {
		o.maxSpecBytes, err = parseSize(v)
		return err
	})
	o.maxDepth = fs.Int("max-depth", compare.DefaultMaxDepth, "refuse a document whose schemas nest deeper than this `number` (0: no limit): comparing them costs the cube of the depth")
	o.maxChanges = fs.Int("max-changes", compare.DefaultMaxChanges, "stop collecting changes past this `number` (0: no limit); the report then says it is partial, its verdict of the changes seen")
	o.framework = fs.String("framework", "auto", "the framework `profile` the changes are read by: auto (what NEW shows), fastapi or openapi")
	fs.Func("timeout", "time limit of fetching a document named by URL (default 30s)", func(v string) (err error) {
		o.timeout, err = parseDuration(v)
		return err
	})
	return fs, o
}

func runDiff(ctx context.Context, args []string, _ func(string) string, stdout, stderr io.Writer) error {
	fs, o := diffFlags()
	docs, help, err := parseFlagsArgs(fs, args)
	if help {
		printUsage(fs, false, stdout, diffHelp())
		return nil
	}
	if err != nil {
		return err
	}
	if len(docs) != 2 {
		return usagef("diff: give two documents, OLD and NEW (see 'moviemock diff --help')")
	}
	if *o.maxChanges < 0 {
		return usagef("diff: --max-changes %d: give 0 (no limit) or more", *o.maxChanges)
	}
	if *o.maxDepth < 0 {
		return usagef("diff: --max-depth %d: give 0 (no limit) or more", *o.maxDepth)
	}
	if !reportFormat(*o.format) {
		return usagef("diff: --format %q: use text, json, junit or html", *o.format)
	}
	if err := checkOutput("diff", "--output", *o.output); err != nil {
		return err
	}
	failOn, err := compare.ParseFailOn(*o.failOn)
	if err != nil {
		return usagef("diff: --fail-on %v", err)
	}
	if _, _, err := framework.Parse(*o.framework); err != nil {
		return usagef("diff: --framework: %v", err)
	}
	if failOn == compare.FailOnBreakingUsed && *o.traffic == "" {
		return usagef("diff: --fail-on breaking-used needs --traffic: the recorded calls that say which changes are used")
	}
	report, err := interruptible(ctx, "diff", "no report written", func() (*compare.Report, error) { return diff(ctx, o, docs, failOn, stderr) })
	if err != nil {
		return err
	}
	if err := emitReportUnlessStopped(ctx, "diff", report, *o.format, *o.output, stdout, stderr); err != nil {
		return err
	}
	if failing := report.Verdict(failOn); len(failing) > 0 {
		return &failureError{fmt.Sprintf("%s at or above --fail-on %s", problems.Plural(len(failing), "change", "changes"), failOn)}
	}
	return nil
}

// diff reads the documents docs (and the --traffic recording) and compares
// them: runDiff's work, which a signal interrupts.
func diff(ctx context.Context, o *diffOptions, docs []string, failOn compare.FailOn, stderr io.Writer) (*compare.Report, error) {
	var src *traffic.Source
	var err error
	if *o.traffic != "" {
		if src, err = traffic.LoadFile(*o.traffic, traffic.DefaultLimits); err != nil {
			return nil, usagef("diff: --traffic: %v", err)
		}
		traffic.TrimPrefix(src, *o.trafficPrefix)
	}
	var data [2][]byte
	for i, side := range []string{"OLD", "NEW"} {
		if data[i], err = fetchDocument(ctx, "diff", side, docs[i], o.timeout, o.maxSpecBytes); err != nil {
			return nil, err
		}
	}
	opts := compare.Options{Limits: spec.Limits{MaxBytes: o.maxSpecBytes}, MaxDepth: *o.maxDepth}
	// A document read from a file has its references to other files read
	// beside it, as serve and contract read them.
	if !isURL(docs[0]) {
		opts.OldPath = docs[0]
	}
	if !isURL(docs[1]) {
		opts.NewPath = docs[1]
	}
	old, new, err := compare.Load(data[0], data[1], docs[0], docs[1], opts)
	if err != nil {
		return nil, usagef("diff: %v", err)
	}
	for i, sp := range []*spec.Spec{old, new} {
		for _, w := range sp.Warnings() {
			fmt.Fprintf(stderr, "moviemock: diff: warning: %s %s: %s\n", []string{"OLD", "NEW"}[i], docs[i], w)
		}
	}
	fw, _, _ := framework.Parse(*o.framework)
	report, err := compare.CompareSpecsAs(old, new, *o.maxChanges, fw)
	if err != nil {
		return nil, usagef("diff: %v", err)
	}
	report.FailOn = failOn
	if src != nil {
		report.MarkTraffic(src, old)
		// Most calls matching nothing: the recording is of another API,
		// or its paths carry a prefix the contract does not name. Then
		// no change is used, and breaking-used passes for nothing.
		if t := report.Traffic; len(t.Unmatched) > 0 && 2*len(t.Unmatched) >= t.Calls {
			fmt.Fprintf(stderr, "moviemock: diff: warning: %d of %d recorded calls match no operation of OLD (first: %s %s); if the frontend calls the API under a prefix, give it with --traffic-prefix\n",
				len(t.Unmatched), t.Calls, t.Unmatched[0].Method, t.Unmatched[0].Path)
		}
	}
	return report, nil
}
