package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"
)

// usageError is a bad command line: exit code 2 and a one-line message.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// moviemock's exit codes.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// exitCodes say what each exit code means, for docs/reference.md; exitCode
// decides them.
var exitCodes = []struct {
	code  int
	means string
}{
	{exitOK, "success: the command did what it was asked (contract: every check passed)"},
	{exitFailure, "a failure found: contract: a check failed; proxy --fail-on-violation: a check failed, or no exchange reached the upstream; diff: a change at or above --fail-on; replay: a call's answer changed at or above --fail-on"},
	{exitUsage, "a usage or start-up error: an unknown flag, an unusable value or environment variable, an unreadable contract or fixture, an address in use, a target nothing answers at"},
}

// exitCode reports err on stderr and maps it to the process exit code: 0
// success, 1 a failure found (contract checks), 2 a usage or start-up error.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var fail *failureError
	if errors.As(err, &fail) {
		return exitFailure
	}
	fmt.Fprintln(stderr, "moviemock:", err)
	return exitUsage
}

// failureError means the command ran and found failures (exit code 1).
type failureError struct{ msg string }

func (e *failureError) Error() string { return e.msg }

const mainUsage = `moviemock — mock server, contract-test runner and validating proxy for any OpenAPI document

Usage:
  moviemock serve [flags]              run the mock (default 127.0.0.1:8000)
  moviemock proxy --upstream URL       check a real backend's traffic, mock what it lacks
  moviemock fixtures generate [flags]  write a generated fixture directory
  moviemock fixtures check DIR         validate a fixture directory
  moviemock scenarios list|check DIR   list the scenarios, validate scenario files
  moviemock contract --base-url URL    check a live server against the contract
  moviemock diff OLD NEW               what changed between two contracts, and what breaks
  moviemock replay SRC --base-url URL  send recorded calls again, report what changed in the answers
  moviemock version                    print the version

Run 'moviemock COMMAND --help' or 'moviemock help COMMAND' for a command's flags.
`

// A command is one of moviemock's commands, or a subcommand of fixtures or
// scenarios. The dispatcher, the usage texts, the tests and the generated
// reference (docs/reference.md) all read this one table.
type command struct {
	name string
	// usage is what --help prints before the flags.
	usage func() string
	// flags builds the command's flag set as run parses it, without
	// running anything; nil for a group of subcommands.
	flags func() *flag.FlagSet
	// env: every flag can also be set by its environment variable
	// (envVar), as the command reads them with envDefaults.
	env bool
	// subs are a group's subcommands (fixtures, scenarios); run is nil.
	subs []command
	run  func(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error
}

// commands are moviemock's commands. fixtures and scenarios have
// subcommands of their own (fixturesCommands, scenariosCommands).
var commands = []command{
	{name: "serve", usage: text(serveUsage), env: true, run: runServe, flags: func() *flag.FlagSet {
		fs, _ := serveFlags("serve", nil)
		return fs
	}},
	{name: "proxy", usage: proxyHelp, env: true, run: runProxy, flags: func() *flag.FlagSet {
		fs, _ := serveFlags("proxy", &proxyFlags{})
		return fs
	}},
	{name: "fixtures", usage: text(fixturesUsage), subs: fixturesCommands},
	{name: "scenarios", usage: text(scenariosUsage), subs: scenariosCommands},
	{name: "contract", usage: contractHelp, run: runContract, flags: flagsOf(contractFlags)},
	{name: "diff", usage: diffHelp, run: runDiff, flags: flagsOf(diffFlags)},
	{name: "replay", usage: text(replayUsage), run: runReplay, flags: flagsOf(replayFlags)},
	{name: "version", usage: text(versionUsage), run: runVersion, flags: versionFlags},
}

// text is a usage func for a fixed usage text.
func text(s string) func() string { return func() string { return s } }

// flagsOf is a command's flags func for a function that also returns
// where the flags' values go.
func flagsOf[T any](f func() (*flag.FlagSet, T)) func() *flag.FlagSet {
	return func() *flag.FlagSet {
		fs, _ := f()
		return fs
	}
}

// runGroup runs the subcommand of group (fixtures, scenarios) args name.
func runGroup(ctx context.Context, group command, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	names := make([]string, len(group.subs))
	for i, sc := range group.subs {
		names[i] = sc.name
	}
	if len(args) == 0 {
		fmt.Fprint(stderr, group.usage())
		return usagef("%s: name a subcommand: %s", group.name, strings.Join(names, " or "))
	}
	switch args[0] {
	case "-h", "--help", "help":
		fmt.Fprint(stdout, group.usage())
		return nil
	}
	for _, sc := range group.subs {
		if sc.name == args[0] {
			return sc.run(ctx, args[1:], getenv, stdout, stderr)
		}
	}
	fmt.Fprint(stderr, group.usage())
	return usagef("%s: unknown subcommand %q (it has %s)", group.name, args[0], strings.Join(names, ", "))
}

// run is the whole program: main only wires the process to it.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, mainUsage)
		return usagef("no command given")
	}
	switch args[0] {
	case "--version":
		args = append([]string{"version"}, args[1:]...)
	case "help", "-h", "--help":
		if len(args) > 1 && args[0] == "help" {
			// help COMMAND [SUBCOMMAND] is COMMAND [SUBCOMMAND] --help.
			return run(ctx, append(args[1:], "--help"), getenv, stdout, stderr)
		}
		fmt.Fprint(stdout, mainUsage)
		return nil
	}
	for _, c := range commands {
		if c.name != args[0] {
			continue
		}
		if c.subs != nil {
			return runGroup(ctx, c, args[1:], getenv, stdout, stderr)
		}
		return c.run(ctx, args[1:], getenv, stdout, stderr)
	}
	fmt.Fprint(stderr, mainUsage)
	return usagef("unknown command %q", args[0])
}

const versionUsage = `Usage: moviemock version

Prints the version moviemock was built as: the one a release build stamps
(.ci/release, from git describe), else the module version and the VCS
revision Go recorded in the binary, with "modified" when the work tree had
uncommitted changes.
`

func versionFlags() *flag.FlagSet { return flag.NewFlagSet("version", flag.ContinueOnError) }

func runVersion(_ context.Context, args []string, _ func(string) string, stdout, _ io.Writer) error {
	fs := versionFlags()
	help, err := parseFlags(fs, args)
	if help {
		printUsage(fs, false, stdout, versionUsage)
		return nil
	}
	if err != nil {
		return err
	}
	info, _ := debug.ReadBuildInfo()
	fmt.Fprintln(stdout, "moviemock", versionString(stampedVersion, info))
	return nil
}

// stampedVersion is set by a release build:
// go build -ldflags "-X main.stampedVersion=$(git describe --always --dirty)".
var stampedVersion string

// versionString says which moviemock this is: the stamped version when a
// release build set one, else what the build info holds: the module
// version ("devel" for a build from a checkout that Go could not version),
// the VCS revision and time, and whether the tree was modified.
func versionString(stamped string, info *debug.BuildInfo) string {
	if stamped != "" {
		return stamped
	}
	if info == nil {
		return "devel (no build information)"
	}
	v := info.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	var rev, when string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	var extra []string
	if rev != "" {
		extra = append(extra, "revision "+rev)
	}
	if when != "" {
		extra = append(extra, when)
	}
	if modified {
		extra = append(extra, "modified")
	}
	if info.GoVersion != "" {
		extra = append(extra, info.GoVersion)
	}
	if len(extra) == 0 {
		return v
	}
	return v + " (" + strings.Join(extra, ", ") + ")"
}

// parseFlags parses args with fs, turning flag's own errors into usage
// errors. --help prints the usage and is not an error.
func parseFlags(fs *flag.FlagSet, args []string) (help bool, err error) {
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return true, nil
		}
		return false, usagef("%s: %v (see 'moviemock %s --help')", fs.Name(), err, fs.Name())
	}
	if fs.NArg() > 0 {
		return false, usagef("%s: unexpected argument %q (see 'moviemock %s --help')", fs.Name(), fs.Arg(0), fs.Name())
	}
	return false, nil
}

// parseFlagsArgs is parseFlags for a command that also takes positional
// arguments, which may come before, between or after its flags.
func parseFlagsArgs(fs *flag.FlagSet, args []string) (positional []string, help bool, err error) {
	fs.SetOutput(io.Discard)
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, true, nil
			}
			return nil, false, usagef("%s: %v (see 'moviemock %s --help')", fs.Name(), err, fs.Name())
		}
		if fs.NArg() == 0 {
			return positional, false, nil
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// printUsage writes a command's usage text and flags, each spelt --flag
// as the README and the examples spell it (the flag package takes both),
// and, when env, each with the environment variable that sets it.
func printUsage(fs *flag.FlagSet, env bool, w io.Writer, text string) {
	fmt.Fprint(w, text)
	if env {
		fs.VisitAll(func(f *flag.Flag) { f.Usage = withEnv(f.Usage, envVar(f.Name)) })
	}
	var b strings.Builder
	fs.SetOutput(&b)
	fs.PrintDefaults()
	fs.SetOutput(w)
	fmt.Fprint(w, flagLine.ReplaceAllString(b.String(), "  --$1"))
}

// flagLine is the start of a flag's line in flag.PrintDefaults' output.
var flagLine = regexp.MustCompile(`(?m)^  -([A-Za-z0-9])`)

// envVar is the environment variable that sets the flag name of a command
// that reads them (serve, proxy): MOVIEMOCK_ and the name in capitals,
// - as _ (--jwt-secret: MOVIEMOCK_JWT_SECRET).
func envVar(name string) string {
	return "MOVIEMOCK_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// withEnv adds "($VARIABLE)" to a flag's usage, before the "(default …)"
// a flag.Func's usage ends with.
func withEnv(usage, variable string) string {
	note := " ($" + variable + ")"
	if rest, def := defaultNote(usage); def != "" {
		return rest + note + " (default " + def + ")"
	}
	return usage + note
}

// defaultNote splits the "(default …)" off the end of a flag.Func's usage,
// which has no DefValue of its own to print: what the usage says without
// it, and the default.
func defaultNote(usage string) (rest, def string) {
	i := strings.LastIndex(usage, " (default ")
	if i < 0 || !strings.HasSuffix(usage, ")") {
		return usage, ""
	}
	return usage[:i], usage[i+len(" (default ") : len(usage)-1]
}

// envDefaults sets flags that were not given on the command line from their
// environment variables (envVar). It returns the flags it set, by name,
// each with its variable and value (MOVIEMOCK_SEED="7"). Every unusable
// value is a usage error naming the variable, its value and what it must
// be.
func envDefaults(fs *flag.FlagSet, getenv func(string) string) (map[string]string, error) {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	fromEnv := map[string]string{}
	var bad []string
	fs.VisitAll(func(f *flag.Flag) { // in name order
		name, variable := f.Name, envVar(f.Name)
		v := getenv(variable)
		if v == "" || given[name] {
			return
		}
		if err := fs.Set(name, v); err != nil {
			bad = append(bad, fmt.Sprintf("%s=%q: %s (it sets --%s)", variable, v, expected(f, err), name))
			return
		}
		fromEnv[name] = fmt.Sprintf("%s=%q", variable, v)
	})
	switch len(bad) {
	case 0:
		return fromEnv, nil
	case 1:
		return nil, usagef("%s: environment variable %s", fs.Name(), bad[0])
	}
	return nil, usagef("%s: %d environment variables are unusable:\n  %s", fs.Name(), len(bad), strings.Join(bad, "\n  "))
}

// expected says what a flag's value must be, in place of the flag
// package's bare "parse error" and "value out of range" for its own value
// types; a flag.Func's error already says it.
func expected(f *flag.Flag, err error) string {
	if f == nil {
		return err.Error()
	}
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		return "not true or false (1, t, true, TRUE, 0, f, false, FALSE)"
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return err.Error()
	}
	switch g.Get().(type) {
	case int, int64:
		return "not a whole number"
	case uint, uint64:
		return "not a whole number ≥ 0"
	case float64:
		return "not a number"
	case time.Duration:
		return "not a duration such as 30s or 5m"
	}
	return err.Error()
}

// blameEnv adds to a usage error that names a flag set from the
// environment (fromEnv, as envDefaults returned it) which variable set it:
// the user never typed that flag.
func blameEnv(err error, fromEnv map[string]string) error {
	var ue *usageError
	if !errors.As(err, &ue) {
		return err
	}
	var notes []string
	for _, name := range slices.Sorted(maps.Keys(fromEnv)) {
		if mentionsFlag(ue.msg, name) {
			notes = append(notes, fmt.Sprintf("--%s was set by the environment variable %s", name, fromEnv[name]))
		}
	}
	if len(notes) == 0 {
		return err
	}
	return &usageError{ue.msg + " (" + strings.Join(notes, "; ") + ")"}
}

// mentionsFlag reports whether msg names --name as a whole flag (not
// --name-more).
func mentionsFlag(msg, name string) bool {
	flag := "--" + name
	for i := 0; ; {
		j := strings.Index(msg[i:], flag)
		if j < 0 {
			return false
		}
		end := i + j + len(flag)
		if end == len(msg) || !(msg[end] == '-' || msg[end] >= 'a' && msg[end] <= 'z') {
			return true
		}
		i = end
	}
}

// listFlag is a flag that may be repeated and takes comma-separated values.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	for _, part := range strings.Split(v, ",") {
		if part = strings.TrimSpace(part); part != "" {
			*l = append(*l, part)
		}
	}
	return nil
}

// parseSize reads a byte count: a whole number with an optional unit (B,
// KiB, MiB, GiB, or KB, MB, GB as powers of ten).
func parseSize(v string) (int64, error) {
	units := []struct {
		suffix string
		scale  int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}}
	num, scale := strings.TrimSpace(v), int64(1)
	for _, u := range units {
		if strings.HasSuffix(num, u.suffix) {
			num, scale = strings.TrimSpace(strings.TrimSuffix(num, u.suffix)), u.scale
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/scale {
		return 0, fmt.Errorf("%q is not a size such as 64MiB", v)
	}
	return n * scale, nil
}

// parseDuration reads a positive duration, explaining a missing unit.
func parseDuration(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil {
		if n, nerr := strconv.Atoi(v); nerr == nil {
			return 0, fmt.Errorf("%q has no unit: write %ds or %dm", v, n, n)
		}
		return 0, err
	}
	if d <= 0 {
		return 0, fmt.Errorf("%v is not positive", d)
	}
	return d, nil
}

// interruptible runs work until it returns or ctx ends (SIGTERM, SIGINT),
// whichever comes first. Work that does not watch ctx, a comparison of
// two large documents, a read of a file that never ends, is left to run
// on: the process is about to exit. What is written to a file is not done
// in work, so that no half-written file is left behind.
func interruptible[T any](ctx context.Context, command, left string, work func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := work()
		done <- result{v, err}
	}()
	stopped := func() (T, error) {
		var zero T
		return zero, usagef("%s: stopped before it finished (%v); %s", command, context.Cause(ctx), left)
	}
	select {
	case r := <-done:
		if r.err != nil && ctx.Err() != nil {
			return stopped() // the signal's error, not the request's it cut short
		}
		return r.v, r.err
	case <-ctx.Done():
		return stopped()
	}
}

// emitReportUnlessStopped is emitReport, stopped by ctx while it writes to
// standard output (which a reader may never drain); a file is written to
// the end, so that none is left half-written.
func emitReportUnlessStopped(ctx context.Context, command string, r report, format, output string, stdout, stderr io.Writer) error {
	if output != "" && output != "-" {
		return emitReport(command, r, format, output, stdout, stderr)
	}
	_, err := interruptible(ctx, command, "no report written", func() (struct{}, error) {
		return struct{}{}, emitReport(command, r, format, output, stdout, stderr)
	})
	return err
}
