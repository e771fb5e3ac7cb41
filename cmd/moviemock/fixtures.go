package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
)

// loadModel loads and compiles the contract --spec names: the embedded
// openapi.yaml when source is empty. What the loader ignored in the
// document is told on stderr.
func loadModel(ctx context.Context, cmd, source string, maxBytes int64, stderr io.Writer, opts ...model.Option) (*model.Model, error) {
	if source == "" && len(opts) == 0 {
		return model.Embedded()
	}
	var sp *spec.Spec
	var err error
	if source == "" {
		sp, err = spec.Embedded()
	} else {
		sp, err = loadSpec(ctx, cmd, source, specTimeout, maxBytes, stderr)
	}
	if err != nil {
		return nil, err
	}
	m, err := model.Compile(sp, opts...)
	if err != nil {
		return nil, usagef("%s: --spec %s: %v", cmd, source, err)
	}
	return m, nil
}

// generateOpts are the flags that shape generated data, shared by serve
// --generate and fixtures generate.
type generateOpts struct {
	enabled bool
	seed    uint64
	records int
	// recordsSet says --records was given (or its environment variable):
	// it then sizes every collection --count does not name, the first
	// contract's too.
	recordsSet bool
	counts     countFlag
}

var generateFlagNames = []string{"seed", "records", "count", "persons", "users", "reviews", "movies"}

// defaultCounts are the sizes of the first contract's collections when
// generated, unless --count or --records says otherwise.
var defaultCounts = map[string]int{"persons": defaultPersons, "users": defaultUsers, "reviews": defaultReviews}

func generateFlags(fs *flag.FlagSet, enable string) *generateOpts {
	g := &generateOpts{counts: countFlag{}}
	if enable != "" {
		fs.BoolVar(&g.enabled, "generate", false, enable+"")
	} else {
		g.enabled = true
	}
	fs.Uint64Var(&g.seed, "seed", defaultSeed, "generator `seed` (not 0); the same seed gives the same data")
	fs.IntVar(&g.records, "records", defaultRecords, fmt.Sprintf("how many records to generate for each collection --count does not name; without it, the embedded contract's persons, reviews and users get %d, %d and %d", defaultPersons, defaultReviews, defaultUsers))
	fs.Var(g.counts, "count", "`collection=N` records to generate for one collection, e.g. reviews=100000 (repeatable, comma-separated)")
	for _, name := range []string{"persons", "users", "reviews", "movies"} {
		fs.Func(name, "shorthand for --count "+name+"=`N`", func(v string) error {
			return g.counts.Set(name + "=" + v)
		})
	}
	return g
}

// countFlag is --count: collection=N pairs.
type countFlag map[string]int

func (c countFlag) String() string {
	var parts []string
	for k, v := range c {
		parts = append(parts, fmt.Sprintf("%s=%d", k, v))
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

func (c countFlag) Set(v string) error {
	for _, part := range strings.Split(v, ",") {
		name, n, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || name == "" {
			return fmt.Errorf("%q: want collection=N, e.g. reviews=1000", part)
		}
		count, err := strconv.Atoi(n)
		if err != nil || count < 0 {
			return fmt.Errorf("%q: %q is not a whole number ≥ 0", part, n)
		}
		c[name] = count
	}
	return nil
}

// check refuses generator flags without --generate, and bad counts. env
// holds the flags set from the environment (as envDefaults returns them),
// so that a stray one is blamed on its variable, not on a flag never typed.
func (g *generateOpts) check(fs *flag.FlagSet, env map[string]string) error {
	fs.Visit(func(f *flag.Flag) { g.recordsSet = g.recordsSet || f.Name == "records" })
	if !g.enabled {
		var stray string
		fs.Visit(func(f *flag.Flag) {
			if stray == "" && slices.Contains(generateFlagNames, f.Name) {
				stray = f.Name
			}
		})
		if setting := env[stray]; setting != "" {
			return usagef("%s: the environment variable %s only applies with --generate (or %s=true): unset it, or generate", fs.Name(), setting, envVar("generate"))
		}
		if stray != "" {
			return usagef("%s: --%s only applies with --generate", fs.Name(), stray)
		}
		return nil
	}
	switch {
	case g.seed == 0:
		return usagef("%s: --seed 0 is not allowed (it would mean a random seed); pick any other number", fs.Name())
	case g.records < 0:
		return usagef("%s: --records must not be negative", fs.Name())
	}
	return nil
}

// options are the generator options for the contract m: --count names,
// then --records when given, else the first contract's usual sizes and
// defaultRecords for the rest.
func (g *generateOpts) options(m *model.Model) (fixtures.GenerateOptions, error) {
	counts := map[string]int{}
	for name, n := range defaultCounts {
		if m.ByFile(name) != nil && !g.recordsSet {
			counts[name] = n
		}
	}
	for name, n := range g.counts {
		c := m.Lookup(name)
		if c == nil {
			return fixtures.GenerateOptions{}, usagef("--count %s: the contract has no collection %q (it has %s)", name, name, strings.Join(m.Files(), ", "))
		}
		counts[c.File] = n
	}
	return fixtures.GenerateOptions{Seed: g.seed, Counts: counts, Default: g.records}, nil
}

const fixturesUsage = `Usage:
  moviemock fixtures generate --out DIR [--spec FILE|URL] [--seed N] [--records N] [--count COLLECTION=N]…
  moviemock fixtures check [--spec FILE|URL] [--adapt-fixtures] DIR

generate writes one file per collection of the contract (persons.json,
users.json, reviews.json for the embedded one) to DIR, replacing those
there: JSON, or YAML when DIR's fixture files are YAML. serve --fixtures DIR
loads them back unchanged. check validates a fixture directory against the
contract (openapi.yaml unless --spec names another) and reports every bad
record with file, line, record and field; with --adapt-fixtures it lists
instead what serve --adapt-fixtures would change in records written for
another version of the contract.

Examples:
  moviemock fixtures generate --seed 7 --count reviews=100000 --out ./big
  moviemock fixtures generate --spec ./openapi.json --records 50 --out ./data
  moviemock fixtures check ./my-fixtures
`

// The usage texts of fixtures generate and fixtures check.
const (
	generateHelp = fixturesUsage + "\nFlags of generate:\n"
	checkHelp    = fixturesUsage + "\nFlags of check:\n"
)

// fixturesCommands are fixtures' subcommands.
var fixturesCommands = []command{
	{name: "generate", usage: text(generateHelp), run: runFixturesGenerate, flags: flagsOf(fixturesGenerateFlags)},
	{name: "check", usage: text(checkHelp), run: runFixturesCheck, flags: flagsOf(fixturesCheckFlags)},
}

// generateOptions are where fixtures generate's flags put their values.
type generateOptions struct {
	out, specFlag *string
	gen           *generateOpts
}

func fixturesGenerateFlags() (*flag.FlagSet, generateOptions) {
	fs := flag.NewFlagSet("fixtures generate", flag.ContinueOnError)
	out := fs.String("out", "", "`directory` to write (created if missing)")
	specFlag := fs.String("spec", "", "the contract: an OpenAPI `file or URL` (default: the embedded openapi.yaml)")
	return fs, generateOptions{out, specFlag, generateFlags(fs, "")}
}

func runFixturesGenerate(ctx context.Context, args []string, _ func(string) string, stdout, stderr io.Writer) error {
	fs, o := fixturesGenerateFlags()
	out, specFlag, gen := o.out, o.specFlag, o.gen
	help, err := parseFlags(fs, args)
	if help {
		printUsage(fs, false, stdout, generateHelp)
		return nil
	}
	if err != nil {
		return err
	}
	if *out == "" {
		return usagef("fixtures generate: --out DIR is required")
	}
	if err := gen.check(fs, nil); err != nil {
		return err
	}
	m, err := loadModel(ctx, "fixtures generate", *specFlag, 0, stderr)
	if err != nil {
		return err
	}
	opts, err := gen.options(m)
	if err != nil {
		return err
	}
	d, err := fixtures.Generate(m, opts)
	if err != nil {
		return err
	}
	if err := fixtures.WriteDir(d, *out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s to %s\n", d.Counts(), *out)
	return nil
}

// loadFixtures loads the fixture folder dir for the contract m, as
// fixtures.LoadDirWith does, and says what to do when dir does not exist,
// and when its records were written for another version of the contract:
// after the problems, one line names --adapt-fixtures when adapting the
// records fixes some of them.
func loadFixtures(dir string, m *model.Model, adapt bool) (*fixtures.Dataset, error) {
	d, err := fixtures.LoadDirWith(dir, m, fixtures.LoadOptions{Adapt: adapt})
	if errors.Is(err, fs.ErrNotExist) {
		if _, statErr := os.Stat(dir); errors.Is(statErr, fs.ErrNotExist) {
			return nil, usagef("load fixtures: the folder %s does not exist: write one first with 'moviemock fixtures generate --out %s' (and the same --spec), then edit its files", dir, dir)
		}
	}
	var errs *fixtures.Errors
	if err == nil || adapt || !errors.As(err, &errs) {
		return d, err
	}
	_, after := fixtures.LoadDirWith(dir, m, fixtures.LoadOptions{Adapt: true})
	how := "serve --adapt-fixtures serves them adapted, fixtures check --adapt-fixtures " + dir + " lists each change"
	var left *fixtures.Errors
	switch {
	case after == nil:
		return nil, &hintError{err, "hint: these records fit this contract once adapted (written for another version of it?): " + how}
	case errors.As(after, &left) && left.Count() < errs.Count():
		return nil, &hintError{err, "hint: some of these problems go once the records are adapted to this contract: " + how + ", and what is left"}
	}
	return d, err
}

// hintError is err with a line of advice after its message.
type hintError struct {
	err  error
	hint string
}

func (e *hintError) Error() string { return e.err.Error() + "\n" + e.hint }
func (e *hintError) Unwrap() error { return e.err }

// checkOpts are fixtures check's flags.
type checkOpts struct {
	spec  *string
	adapt *bool
}

func fixturesCheckFlags() (*flag.FlagSet, checkOpts) {
	fs := flag.NewFlagSet("fixtures check", flag.ContinueOnError)
	return fs, checkOpts{
		spec:  fs.String("spec", "", "the contract: an OpenAPI `file or URL` (default: the embedded openapi.yaml)"),
		adapt: fs.Bool("adapt-fixtures", false, "check records written for another version of the contract as serve --adapt-fixtures would adapt them, and list the changes"),
	}
}

func runFixturesCheck(ctx context.Context, args []string, _ func(string) string, stdout, stderr io.Writer) error {
	fs, opts := fixturesCheckFlags()
	dirs, help, err := parseFlagsArgs(fs, args)
	if help {
		printUsage(fs, false, stdout, checkHelp)
		return nil
	}
	if err != nil {
		return err
	}
	if len(dirs) != 1 {
		return usagef("fixtures check: give exactly one directory")
	}
	m, err := loadModel(ctx, "fixtures check", *opts.spec, 0, stderr)
	if err != nil {
		return err
	}
	d, err := loadFixtures(dirs[0], m, *opts.adapt)
	if err != nil {
		return err
	}
	if len(d.Adapted) > 0 {
		fmt.Fprintf(stdout, "%s: %s: valid once adapted:\n", dirs[0], d.Counts())
		for _, a := range d.Adapted {
			fmt.Fprintf(stdout, "  %s\n", a)
		}
		return nil
	}
	fmt.Fprintf(stdout, "%s: %s: valid\n", dirs[0], d.Counts())
	return nil
}
