package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/moviemock/moviemock/internal/problems"
)

const scenariosUsage = `Usage:
  moviemock scenarios list [--spec FILE|URL] [DIR]    the shipped scenarios (and DIR's), one a line
  moviemock scenarios check [--spec FILE|URL] [--fixtures DIR] DIR
                                                     validate a folder of scenario files

check holds every scenario of DIR to the contract (openapi.yaml unless --spec
names another) and its data, as serve --scenarios DIR would, and reports
every problem with file:line. The shipped scenarios are written for the
embedded contract: with --spec, those that fit the contract named (its paths,
fields and data) are kept, and the rest are left out; list names each one
left out and why.

Examples:
  moviemock scenarios list
  moviemock scenarios check ./scenarios
`

// scenariosHelp is the usage text of scenarios list and scenarios check.
const scenariosHelp = scenariosUsage + "\nFlags:\n"

// scenariosCommands are scenarios' subcommands.
var scenariosCommands = []command{scenariosCommand("list"), scenariosCommand("check")}

// scenariosCommand is scenarios list or scenarios check (sub).
func scenariosCommand(sub string) command {
	return command{
		name:  sub,
		usage: text(scenariosHelp),
		flags: func() *flag.FlagSet { fs, _, _ := scenariosFlags(sub); return fs },
		run: func(ctx context.Context, args []string, _ func(string) string, stdout, stderr io.Writer) error {
			return runScenarios(ctx, sub, args, stdout, stderr)
		},
	}
}

func scenariosFlags(sub string) (fs *flag.FlagSet, specFlag, fixtureDir *string) {
	fs = flag.NewFlagSet("scenarios "+sub, flag.ContinueOnError)
	specFlag = fs.String("spec", "", "the contract: an OpenAPI `file or URL` (default: the embedded openapi.yaml)")
	fixtureDir = fs.String("fixtures", "", "check fixture references against this fixture `directory` (default: the embedded data)")
	return fs, specFlag, fixtureDir
}

// runScenarios is scenarios list and scenarios check (sub).
func runScenarios(ctx context.Context, sub string, args []string, stdout, stderr io.Writer) error {
	fs, specFlag, fixtureDir := scenariosFlags(sub)
	rest, help, err := parseFlagsArgs(fs, args)
	if help {
		printUsage(fs, false, stdout, scenariosHelp)
		return nil
	}
	if err != nil {
		return err
	}
	if len(rest) > 1 || sub == "check" && len(rest) != 1 {
		return usagef("scenarios %s: give %s", sub, map[string]string{"list": "at most one directory", "check": "exactly one directory"}[sub])
	}
	m, err := loadModel(ctx, "scenarios "+sub, *specFlag, 0, stderr)
	if err != nil {
		return err
	}
	files := &sources{model: m, fixtures: *fixtureDir, gen: &generateOpts{}}
	if len(rest) == 1 {
		files.scenarios = rest[0]
	}
	_, _, set, err := files.load()
	if err != nil {
		return err
	}
	if sub == "check" {
		n := 0
		for _, sc := range set.Scenarios() {
			if !sc.Shipped {
				n++
			}
		}
		fmt.Fprintf(stdout, "%s: %s: valid\n", rest[0], problems.Plural(n, "scenario", "scenarios"))
		return nil
	}
	for _, sc := range set.Scenarios() {
		fmt.Fprintf(stdout, "%-28s %s\n", sc.Name, firstSentence(sc.Description))
	}
	if skipped := set.Skipped(); len(skipped) > 0 {
		fmt.Fprintf(stdout, "\nLeft out, as they do not fit this contract:\n")
		for _, sk := range skipped {
			fmt.Fprintf(stdout, "%-28s %s\n", cmp.Or(sk.Name, sk.File), sk.Reason)
		}
	}
	return nil
}

func firstSentence(s string) string {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '.' && (s[i+1] == ' ' || s[i+1] == '\n') {
			return s[:i+1]
		}
	}
	return s
}
