package main

import (
	"fmt"
	"io"
	"path"
	"strings"
)

const scenariosUsage = `Usage:
  moviemock scenarios list [DIR]    the shipped scenarios (and DIR's), one a line
  moviemock scenarios check DIR     validate a folder of scenario files

check holds every scenario of DIR to openapi.yaml and the embedded data, as
serve --scenarios DIR would, and reports every problem with file:line.

Examples:
  moviemock scenarios list
  moviemock scenarios check ./scenarios
`

func runScenarios(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, scenariosUsage)
		return usagef("scenarios: name a subcommand: list or check")
	}
	switch args[0] {
	case "list", "check":
		if len(args) > 2 || args[0] == "check" && len(args) != 2 {
			return usagef("scenarios %s: give %s", args[0], map[string]string{"list": "at most one directory", "check": "exactly one directory"}[args[0]])
		}
		files := &sources{gen: &generateOpts{}}
		if len(args) == 2 {
			files.scenarios = args[1]
		}
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
