package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"path"
	"strings"
)

const scenariosUsage = `Usage:
  moviemock scenarios list [--spec FILE|URL] [DIR]    the shipped scenarios (and DIR's), one a line
  moviemock scenarios check [--spec FILE|URL] [--fixtures DIR] DIR
                                                     validate a folder of scenario files

check holds every scenario of DIR to the contract (openapi.yaml unless --spec
names another) and its data, as serve --scenarios DIR would, and reports
every problem with file:line. The shipped scenarios are written for the
embedded contract and are left out with --spec.

Examples:
  moviemock scenarios list
  moviemock scenarios check ./scenarios
`

func runScenarios(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, scenariosUsage)
		return usagef("scenarios: name a subcommand: list or check")
	}
	switch args[0] {
	case "list", "check":
		fs := flag.NewFlagSet("scenarios "+args[0], flag.ContinueOnError)
		specFlag := fs.String("spec", "", "the contract: an OpenAPI `file or URL` (default: the embedded openapi.yaml)")
		fixtureDir := fs.String("fixtures", "", "check fixture references against this fixture `directory` (default: the embedded data)")
		rest, help, err := parseFlagsArgs(fs, args[1:])
		if help {
			printUsage(fs, stdout, scenariosUsage+"\nFlags:\n")
			return nil
		}
		if err != nil {
			return err
		}
		if len(rest) > 1 || args[0] == "check" && len(rest) != 1 {
			return usagef("scenarios %s: give %s", args[0], map[string]string{"list": "at most one directory", "check": "exactly one directory"}[args[0]])
		}
		m, err := loadModel(ctx, "scenarios "+args[0], *specFlag)
		if err != nil {
			return err
		}
		files := &sources{model: m, fixtures: *fixtureDir, gen: &generateOpts{}}
		if len(rest) == 1 {
			files.scenarios = rest[0]
		}
		args = append(args[:1], rest...)
		_, _, set, err := files.load()
		if err != nil {
			return err
		}
		if args[0] == "check" {
			n := 0
			for _, sc := range set.Scenarios() {
				if strings.HasPrefix(sc.File, path.Clean(args[1])+"/") {
					n++
				}
			}
			fmt.Fprintf(stdout, "%s: %d scenarios: valid\n", args[1], n)
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
	case "-h", "--help", "help":
		fmt.Fprint(stdout, scenariosUsage)
		return nil
	}
	fmt.Fprint(stderr, scenariosUsage)
	return usagef("scenarios: unknown subcommand %q", args[0])
}

func firstSentence(s string) string {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '.' && (s[i+1] == ' ' || s[i+1] == '\n') {
			return s[:i+1]
		}
	}
	return s
}
