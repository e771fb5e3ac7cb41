package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/spec"
)

// generateOpts are the flags that shape generated data, shared by serve
// --generate and fixtures generate.
type generateOpts struct {
	enabled                         bool
	seed                            uint64
	persons, users, reviews, movies int
}

var generateFlagNames = []string{"seed", "persons", "users", "reviews", "movies"}

func generateFlags(fs *flag.FlagSet, enable string) *generateOpts {
	g := &generateOpts{}
	if enable != "" {
		fs.BoolVar(&g.enabled, "generate", false, enable+" ($MOVIEMOCK_GENERATE)")
	} else {
		g.enabled = true
	}
	fs.Uint64Var(&g.seed, "seed", defaultSeed, "generator `seed` (not 0); the same seed gives the same data ($MOVIEMOCK_SEED)")
	fs.IntVar(&g.persons, "persons", defaultPersons, "how many persons to generate ($MOVIEMOCK_PERSONS)")
	fs.IntVar(&g.users, "users", defaultUsers, "how many users to generate; each logs in with password "+fixtures.GeneratedPassword+" ($MOVIEMOCK_USERS)")
	fs.IntVar(&g.reviews, "reviews", defaultReviews, "how many reviews to generate ($MOVIEMOCK_REVIEWS)")
	fs.IntVar(&g.movies, "movies", 0, "how many movies the reviews cover (default reviews/20) ($MOVIEMOCK_MOVIES)")
	return g
}

// check refuses generator flags without --generate, and bad counts.
func (g *generateOpts) check(fs *flag.FlagSet) error {
	if !g.enabled {
		var stray string
		fs.Visit(func(f *flag.Flag) {
			for _, n := range generateFlagNames {
				if f.Name == n && stray == "" {
					stray = n
				}
			}
		})
		if stray != "" {
			return usagef("%s: --%s only applies with --generate", fs.Name(), stray)
		}
		return nil
	}
	switch {
	case g.seed == 0:
		return usagef("%s: --seed 0 is not allowed (it would mean a random seed); pick any other number", fs.Name())
	case g.persons < 0 || g.users < 0 || g.reviews < 0 || g.movies < 0:
		return usagef("%s: counts must not be negative", fs.Name())
	case g.reviews > 0 && g.users == 0:
		return usagef("%s: --reviews needs at least one user (--users)", fs.Name())
	}
	return nil
}

func (g *generateOpts) options() fixtures.GenerateOptions {
	return fixtures.GenerateOptions{Seed: g.seed, Persons: g.persons, Users: g.users, Reviews: g.reviews, Movies: g.movies}
}

const fixturesUsage = `Usage:
  moviemock fixtures generate --out DIR [--seed N] [--persons P] [--users U] [--reviews R] [--movies M]
  moviemock fixtures check DIR

generate writes persons.json, users.json and reviews.json to DIR; serve
--fixtures DIR loads them back unchanged. check validates a fixture
directory against openapi.yaml and reports every bad record.

Examples:
  moviemock fixtures generate --seed 7 --reviews 100000 --out ./big
  moviemock fixtures check ./my-fixtures
`

func runFixtures(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, fixturesUsage)
		return usagef("fixtures: name a subcommand: generate or check")
	}
	switch args[0] {
	case "generate":
		fs := flag.NewFlagSet("fixtures generate", flag.ContinueOnError)
		out := fs.String("out", "", "`directory` to write (created if missing)")
		gen := generateFlags(fs, "")
		help, err := parseFlags(fs, args[1:])
		if help {
			printUsage(fs, stdout, fixturesUsage+"\nFlags of generate:\n")
			return nil
		}
		if err != nil {
			return err
		}
		if *out == "" {
			return usagef("fixtures generate: --out DIR is required")
		}
		if err := gen.check(fs); err != nil {
			return err
		}
		d, err := fixtures.Generate(gen.options())
		if err != nil {
			return err
		}
		if err := fixtures.WriteDir(d, *out); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %d persons, %d users, %d reviews to %s\n", len(d.Persons()), len(d.Users()), len(d.Reviews()), *out)
		return nil
	case "check":
		if len(args) != 2 {
			return usagef("fixtures check: give exactly one directory")
		}
		sp, err := spec.Embedded()
		if err != nil {
			return err
		}
		d, err := fixtures.LoadDir(args[1], sp)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: %d persons, %d users, %d reviews: valid\n", args[1], len(d.Persons()), len(d.Users()), len(d.Reviews()))
		return nil
	case "-h", "--help", "help":
		fmt.Fprint(stdout, fixturesUsage)
		return nil
	}
	fmt.Fprint(stderr, fixturesUsage)
	return usagef("fixtures: unknown subcommand %q", args[0])
}
