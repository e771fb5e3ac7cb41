package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
)

// usageError is a bad command line: exit code 2 and a one-line message.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// exitCode reports err on stderr and maps it to the process exit code: 0
// success, 1 a failure found (contract checks), 2 a usage or start-up error.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	var fail *failureError
	if errors.As(err, &fail) {
		return 1
	}
	fmt.Fprintln(stderr, "moviemock:", err)
	return 2
}

// failureError means the command ran and found failures (exit code 1).
type failureError struct{ msg string }

func (e *failureError) Error() string { return e.msg }

const mainUsage = `moviemock — mock server and contract-test runner for the Movie and Review Service

Usage:
  moviemock serve [flags]              run the mock (default 127.0.0.1:8000)
  moviemock fixtures generate [flags]  write a generated fixture directory
  moviemock fixtures check DIR         validate a fixture directory
  moviemock scenarios list|check DIR   list the scenarios, validate scenario files
  moviemock contract --base-url URL    check a live server against the contract
  moviemock version                    print the version

Run 'moviemock COMMAND --help' for a command's flags.
`

// run is the whole program: main only wires the process to it.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, mainUsage)
		return usagef("no command given")
	}
	switch args[0] {
	case "serve":
		return runServe(ctx, args[1:], getenv, stdout, stderr)
	case "fixtures":
		return runFixtures(ctx, args[1:], stdout, stderr)
	case "scenarios":
		return runScenarios(ctx, args[1:], stdout, stderr)
	case "contract":
		return runContract(ctx, args[1:], stdout, stderr)
	case "version", "--version":
		fmt.Fprintln(stdout, "moviemock", version())
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(stdout, mainUsage)
		return nil
	}
	fmt.Fprint(stderr, mainUsage)
	return usagef("unknown command %q", args[0])
}

// version is the module version the binary was built from, or "devel".
func version() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "devel"
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

// printUsage writes a command's usage text and flags.
func printUsage(fs *flag.FlagSet, w io.Writer, text string) {
	fmt.Fprint(w, text)
	fs.SetOutput(w)
	fs.PrintDefaults()
}

// envDefaults sets flags that were not given on the command line from their
// environment variables. An unusable value is a usage error naming it.
func envDefaults(fs *flag.FlagSet, getenv func(string) string, env map[string]string) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	for name, variable := range env {
		v := getenv(variable)
		if v == "" || given[name] {
			continue
		}
		if err := fs.Set(name, v); err != nil {
			return usagef("environment variable %s=%q: %v", variable, v, err)
		}
	}
	return nil
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
