package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/scenarios"
)

// commandPaths lists every command and subcommand, read from the dispatch
// tables: a command added later is tested without touching this test.
func commandPaths() [][]string {
	var out [][]string
	for _, c := range commands {
		out = append(out, []string{c.name})
		for _, s := range c.subs {
			out = append(out, []string{c.name, s.name})
		}
	}
	return out
}

// Every command and subcommand answers -h and --help (and help COMMAND)
// with its usage on stdout and exit code 0, before looking at anything
// else: no "stat --help".
func TestEveryCommandAnswersHelp(t *testing.T) {
	t.Parallel()
	paths := commandPaths()
	if len(paths) < 8 {
		t.Fatalf("only %d commands found: %v", len(paths), paths)
	}
	for _, path := range paths {
		for _, args := range [][]string{
			append(path[:len(path):len(path)], "-h"),
			append(path[:len(path):len(path)], "--help"),
			append([]string{"help"}, path...),
			append(path[:len(path):len(path)], "--help", "some-dir"),
		} {
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				t.Parallel()
				var stdout, stderr strings.Builder
				err := run(context.Background(), args, noEnv, &stdout, &stderr)
				if code := exitCode(err, &stderr); code != 0 {
					t.Fatalf("exit code %d: %v\nstderr: %s", code, err, stderr.String())
				}
				if !strings.Contains(stdout.String(), "Usage") {
					t.Errorf("no usage on stdout: %q", stdout.String())
				}
				if stderr.Len() > 0 {
					t.Errorf("stderr: %q", stderr.String())
				}
			})
		}
	}
}

// version prints the stamped version of a release build, else what Go
// recorded: the module version, the VCS revision and whether the tree was
// modified.
func TestVersionString(t *testing.T) {
	t.Parallel()
	vcs := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "601a9f3c0ffee"}, {Key: "vcs.time", Value: "2026-11-23T13:10:00Z"}}
	for _, tc := range []struct {
		name    string
		stamped string
		info    *debug.BuildInfo
		want    string
	}{
		{"stamped wins", "v1.2.0-3-g601a9f3-dirty", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}, "v1.2.0-3-g601a9f3-dirty"},
		{"tagged module", "", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.0"}, Settings: vcs},
			"v1.2.0 (revision 601a9f3c0ffee, 2026-11-23T13:10:00Z, go1.26.8)"},
		{"modified checkout", "", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: append(vcs, debug.BuildSetting{Key: "vcs.modified", Value: "true"})},
			"devel (revision 601a9f3c0ffee, 2026-11-23T13:10:00Z, modified, go1.26.8)"},
		{"no VCS", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel"},
		{"no build info", "", nil, "devel (no build information)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := versionString(tc.stamped, tc.info); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	var out strings.Builder
	if err := run(context.Background(), []string{"version"}, noEnv, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	info, _ := debug.ReadBuildInfo()
	if want := "moviemock " + versionString("", info) + "\n"; out.String() != want {
		t.Errorf("version printed %q, want %q", out.String(), want)
	}
}

// A release build (.ci/release's flags) stamps the version that version
// prints.
func TestReleaseBuildStampsVersion(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH to build a release binary with:", err)
	}
	if testing.Short() {
		t.Skip("builds a binary; skipped with -short")
	}
	release, err := os.ReadFile("../../.ci/release")
	if err != nil {
		t.Fatal(err)
	}
	const flag = "-X main.stampedVersion="
	if !strings.Contains(string(release), flag) {
		t.Fatalf(".ci/release no longer stamps with %s", flag)
	}
	bin := filepath.Join(t.TempDir(), "moviemock")
	const stamp = "v9.8.7-6-gabcdef0-dirty"
	build := exec.Command(goTool, "build", "-trimpath", "-ldflags", "-s -w "+flag+stamp, "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").CombinedOutput()
	if err != nil {
		t.Fatalf("moviemock version: %v\n%s", err, out)
	}
	if got, want := string(out), "moviemock "+stamp+"\n"; got != want {
		t.Errorf("version printed %q, want %q", got, want)
	}
}

// An environment variable's bad value is named with its variable, the
// value and what it must be; a generator setting from the environment
// without --generate is blamed on the variable, not on a flag never typed.
func TestEnvironmentErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"not a number", map[string]string{"MOVIEMOCK_MAX_SESSIONS": "abc"}, []string{`MOVIEMOCK_MAX_SESSIONS="abc": not a whole number (it sets --max-sessions)`}},
		{"not a boolean", map[string]string{"MOVIEMOCK_QUIET": "yes"}, []string{`MOVIEMOCK_QUIET="yes": not true or false`}},
		{"negative seed", map[string]string{"MOVIEMOCK_GENERATE": "1", "MOVIEMOCK_SEED": "-1"}, []string{`MOVIEMOCK_SEED="-1": not a whole number ≥ 0`}},
		{"duration without unit", map[string]string{"MOVIEMOCK_TOKEN_LIFETIME": "30"}, []string{`MOVIEMOCK_TOKEN_LIFETIME="30": "30" has no unit`}},
		{"bad count", map[string]string{"MOVIEMOCK_GENERATE": "true", "MOVIEMOCK_REVIEWS": "many"}, []string{`MOVIEMOCK_REVIEWS="many": "reviews=many": "many" is not a whole number`}},
		{"two at once", map[string]string{"MOVIEMOCK_JOURNAL_SIZE": "x", "MOVIEMOCK_NO_CORS": "maybe"}, []string{
			"2 environment variables are unusable", `MOVIEMOCK_JOURNAL_SIZE="x": not a whole number`, `MOVIEMOCK_NO_CORS="maybe": not true or false`}},
		{"journal bytes", map[string]string{"MOVIEMOCK_JOURNAL_BYTES": "lots"}, []string{`MOVIEMOCK_JOURNAL_BYTES="lots"`, "is not a size such as 64MiB"}},
		{"generator setting alone", map[string]string{"MOVIEMOCK_REVIEWS": "5"}, []string{`serve: the environment variable MOVIEMOCK_REVIEWS="5" only applies with --generate (or MOVIEMOCK_GENERATE=true)`}},
		{"flag named by a later check", map[string]string{"MOVIEMOCK_MAX_SESSIONS": "0"}, []string{`--max-sessions must be at least 1 (--max-sessions was set by the environment variable MOVIEMOCK_MAX_SESSIONS="0")`}},
		{"two data sources", map[string]string{"MOVIEMOCK_GENERATE": "1", "MOVIEMOCK_FIXTURES": "./data"}, []string{
			`give one (--fixtures was set by the environment variable MOVIEMOCK_FIXTURES="./data"; --generate was set by the environment variable MOVIEMOCK_GENERATE="1")`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var stderr strings.Builder
			err := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0"}, func(k string) string { return tc.env[k] }, io.Discard, &stderr)
			if code := exitCode(err, &stderr); code != 2 {
				t.Fatalf("exit code %d, want 2 (err %v)", code, err)
			}
			for _, want := range tc.want {
				if !strings.Contains(stderr.String(), want) {
					t.Errorf("stderr %q lacks %q", stderr.String(), want)
				}
			}
			if strings.Contains(stderr.String(), "parse error") {
				t.Errorf("stderr says only parse error: %q", stderr.String())
			}
		})
	}
}

// fixtures generate --out DIR keeps DIR loadable: it writes the format of
// the fixture files DIR holds (YAML beside YAML), replaces each
// collection's file under its own name, and refuses a folder that mixes
// JSON and YAML.
func TestGenerateIntoFixtureFolder(t *testing.T) {
	t.Parallel()
	m, err := model.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	generate := func(dir string) (string, error) {
		var stdout, stderr strings.Builder
		err := run(context.Background(), []string{"fixtures", "generate", "--seed", "3", "--persons", "4", "--users", "2", "--reviews", "1", "--out", dir}, noEnv, &stdout, &stderr)
		exitCode(err, &stderr)
		return stdout.String() + stderr.String(), err
	}
	names := func(dir string) string {
		entries, _ := os.ReadDir(dir)
		var out []string
		for _, e := range entries {
			out = append(out, e.Name())
		}
		return strings.Join(out, " ")
	}
	t.Run("YAML folder", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "persons.yaml"), []byte("- {id: 1, name: Old}\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "users.yml"), []byte("- {id: 1, username: old, avatar: https://a.test/a.png, role: user, password: x}\n"), 0o644)
		out, err := generate(dir)
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if !strings.Contains(out, "wrote 4 persons, 1 review, 2 users to") {
			t.Errorf("output: %q", out)
		}
		if got, want := names(dir), "persons.yaml reviews.yaml users.yml"; got != want {
			t.Errorf("files %s, want %s", got, want)
		}
		d, err := fixtures.LoadDir(dir, m)
		if err != nil {
			t.Fatalf("the folder no longer loads: %v", err)
		}
		if got := d.Counts(); got != "4 persons, 1 review, 2 users" {
			t.Errorf("loaded %s", got)
		}
	})
	t.Run("empty folder", func(t *testing.T) {
		dir := t.TempDir()
		if out, err := generate(dir); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if got, want := names(dir), "persons.json reviews.json users.json"; got != want {
			t.Errorf("files %s, want %s", got, want)
		}
	})
	t.Run("mixed folder", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "persons.yaml"), []byte("- {id: 1, name: Old}\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "users.json"), []byte("[]\n"), 0o644)
		out, err := generate(dir)
		if err == nil {
			t.Fatal("a folder of JSON and YAML fixtures was written to")
		}
		if want := "mixes JSON (users.json) and YAML (persons.yaml) fixture files"; !strings.Contains(out, want) {
			t.Errorf("output %q lacks %q", out, want)
		}
		if got := names(dir); got != "persons.yaml users.json" {
			t.Errorf("files changed: %s", got)
		}
	})
}

// A count of one is singular: "1 scenario", "1 user".
func TestSingularCounts(t *testing.T) {
	t.Parallel()
	scDir := t.TempDir()
	os.WriteFile(filepath.Join(scDir, "one.yaml"), []byte("name: one\ndescription: d\nrules: [{passthrough: true}]\n"), 0o644)
	fxDir := t.TempDir()
	os.WriteFile(filepath.Join(fxDir, "users.yaml"), []byte("- {id: 1, username: a, avatar: https://a.test/a.png, role: user, password: x}\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"scenarios", "check", scDir}, scDir + ": 1 scenario: valid\n"},
		{[]string{"fixtures", "check", fxDir}, fxDir + ": 0 persons, 0 reviews, 1 user: valid\n"},
	} {
		var out strings.Builder
		if err := run(context.Background(), tc.args, noEnv, &out, io.Discard); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if out.String() != tc.want {
			t.Errorf("%v printed %q, want %q", tc.args, out.String(), tc.want)
		}
	}
}

// relativeTempDir is a new temporary folder as a path relative to the
// test's working directory, written "./…" as a user types it.
func relativeTempDir(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(wd, t.TempDir())
	if err != nil {
		t.Skip("no relative path to the temporary folder:", err)
	}
	return "./" + filepath.ToSlash(rel)
}

// A scenario folder given as a relative path (./my-scenarios) is counted
// as such: its scenarios are not taken for shipped ones, in serve's banner
// nor in scenarios check, however the path is written.
func TestScenarioFolderCountedWhateverItsPath(t *testing.T) {
	t.Parallel()
	text, err := os.ReadFile("../../scenarios/slow-network.yaml")
	if err != nil {
		t.Fatal(err)
	}
	shipped, _ := fs.Glob(scenarios.Shipped().FS, "*.yaml")
	rel := relativeTempDir(t)
	mine := regexp.MustCompile(`(?m)^name: .*$`).ReplaceAll(text, []byte("name: mine"))
	if err := os.WriteFile(filepath.Join(rel, "mine.yaml"), mine, 0o644); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(rel)
	for _, dir := range []string{rel, rel + "/", abs} {
		lines := startLines(t, 30, "--addr", "127.0.0.1:0", "--scenarios", dir)
		want := fmt.Sprintf("\n  scenarios   %d shipped, 1 from %s: mine\n", len(shipped), dir)
		if !strings.Contains(lines, want) {
			t.Errorf("--scenarios %s: the banner lacks %q:\n%s", dir, want, lines)
		}
		var out strings.Builder
		if err := run(context.Background(), []string{"scenarios", "check", dir}, noEnv, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		if want := dir + ": 1 scenario: valid\n"; out.String() != want {
			t.Errorf("scenarios check %s printed %q, want %q", dir, out.String(), want)
		}
	}
}

// --records sizes every collection --count does not name, the embedded
// contract's persons, reviews and users too; without it they get their
// usual sizes.
func TestRecordsSizesEveryCollection(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--records", "5"}, "wrote 5 persons, 5 reviews, 5 users"},
		{[]string{"--records", "5", "--reviews", "7"}, "wrote 5 persons, 7 reviews, 5 users"},
		{[]string{"--records", "20"}, "wrote 20 persons, 20 reviews, 20 users"},
		{nil, fmt.Sprintf("wrote %d persons, %d reviews, %d users", defaultPersons, defaultReviews, defaultUsers)},
	} {
		var out strings.Builder
		args := append([]string{"fixtures", "generate", "--out", t.TempDir()}, tc.args...)
		if err := run(context.Background(), args, noEnv, &out, io.Discard); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if !strings.HasPrefix(out.String(), tc.want+" to ") {
			t.Errorf("fixtures generate %v printed %q, want %q", tc.args, out.String(), tc.want)
		}
	}
	// serve --generate takes --records (and its variable) the same way.
	env := map[string]string{"MOVIEMOCK_GENERATE": "true", "MOVIEMOCK_RECORDS": "3"}
	lines := startLines(t, 30, "--addr", "127.0.0.1:0", "--records", "3", "--generate")
	if want := "3 collections: 3 persons, 3 reviews, 3 users\n"; !strings.Contains(lines, want) {
		t.Errorf("serve --generate --records 3: the banner lacks %q:\n%s", want, lines)
	}
	base, _ := serve(t, func(k string) string { return env[k] }, "--quiet")
	if _, body := get(t, base+"/reviews"); strings.Count(body, `"movie_id"`) != 3 {
		t.Errorf("MOVIEMOCK_RECORDS=3: GET /reviews answered %s", clip([]byte(body)))
	}
}

// Help says what the runs do: the shipped scenarios that fit another
// contract are kept (scenarios list --spec lists them, and those left out
// with why); contract without --username logs in as the contract's
// example user; moviemock and serve describe any OpenAPI document.
func TestHelpSaysWhatTheRunsDo(t *testing.T) {
	t.Parallel()
	help := func(args ...string) string {
		var out strings.Builder
		if err := run(context.Background(), append(args, "--help"), noEnv, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		return squashSpace(out.String())
	}
	t.Run("scenarios on another contract", func(t *testing.T) {
		if h := help("scenarios", "list"); !strings.Contains(h, "with --spec, those that fit the contract named (its paths, fields and data) are kept, and the rest are left out") {
			t.Errorf("scenarios --help: %s", h)
		}
		var out strings.Builder
		if err := run(context.Background(), []string{"scenarios", "list", "--spec", "../../testdata/contracts/tasks/openapi.json"}, noEnv, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		kept, left, _ := strings.Cut(out.String(), "\nLeft out, as they do not fit this contract:\n")
		if strings.TrimSpace(kept) == "" || !strings.Contains(kept, "flaky-connection") {
			t.Errorf("no shipped scenario kept on the tasks contract:\n%s", out.String())
		}
		if !strings.Contains(left, "person-not-found") {
			t.Errorf("person-not-found is not left out on the tasks contract, or not said:\n%s", out.String())
		}
	})
	t.Run("contract without --username", func(t *testing.T) {
		h := help("contract")
		if !strings.Contains(h, "Without --username and --password, the runner logs in through an OAuth2 password form with the username and password of the form's example in the contract (alice and wonderland on the embedded contract") {
			t.Errorf("contract --help does not say whom it logs in as: %s", h)
		}
		base, _ := serve(t, noEnv, "--quiet")
		var out strings.Builder
		run(context.Background(), []string{"contract", "--base-url", base, "--checks", "not_a_server_error", "--examples", "0", "--max-response-time", slowOK}, noEnv, &out, io.Discard)
		if !strings.Contains(out.String(), `logged in as "alice"`) {
			t.Errorf("the run does not log in as alice:\n%s", out.String())
		}
	})
	t.Run("any document", func(t *testing.T) {
		for _, args := range [][]string{nil, {"serve"}} {
			h := help(args...)
			first, _, _ := strings.Cut(h, "Every operation")
			if !strings.Contains(first, "OpenAPI document") || strings.Contains(first, "Movie and Review Service") || strings.Contains(first, "a FastAPI contract") {
				t.Errorf("moviemock %v --help describes one product: %s", args, first)
			}
		}
	})
}

func squashSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// A --fixtures folder that does not exist says how to make one; records
// written for another version of the contract end with one line naming
// --adapt-fixtures, which fixes them.
func TestFixtureProblemsSayWhatToDo(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "my-data")
	changed := "../../testdata/changes/movies/movie_poster_removed.json"
	old := "../../testdata/contracts/movies/fixtures"
	for _, tc := range []struct {
		name string
		args []string
		want string // the last line
	}{
		{"serve, missing folder", []string{"serve", "--addr", "127.0.0.1:0", "--fixtures", missing},
			"moviemock: load fixtures: the folder " + missing + " does not exist: write one first with 'moviemock fixtures generate --out " + missing + "' (and the same --spec), then edit its files"},
		{"fixtures check, missing folder", []string{"fixtures", "check", missing},
			"moviemock: load fixtures: the folder " + missing + " does not exist: write one first with 'moviemock fixtures generate --out " + missing + "' (and the same --spec), then edit its files"},
		{"serve, records of another version", []string{"serve", "--addr", "127.0.0.1:0", "--spec", changed, "--fixtures", old},
			"hint: these records fit this contract once adapted (written for another version of it?): serve --adapt-fixtures serves them adapted, fixtures check --adapt-fixtures " + old + " lists each change"},
		{"fixtures check, records of another version", []string{"fixtures", "check", "--spec", changed, old},
			"hint: these records fit this contract once adapted (written for another version of it?): serve --adapt-fixtures serves them adapted, fixtures check --adapt-fixtures " + old + " lists each change"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var stderr strings.Builder
			err := run(context.Background(), tc.args, noEnv, io.Discard, &stderr)
			if code := exitCode(err, &stderr); code != 2 {
				t.Fatalf("exit code %d, want 2: %v", code, err)
			}
			lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			if last := lines[len(lines)-1]; last != tc.want {
				t.Errorf("the last line is\n %s\nwant\n %s", last, tc.want)
			}
			if n := strings.Count(stderr.String(), "--adapt-fixtures"); strings.HasPrefix(tc.want, "hint") && n != 2 {
				t.Errorf("--adapt-fixtures named %d times, want once in one hint line:\n%s", n, stderr.String())
			}
		})
	}
	// Adapted, they load.
	var out strings.Builder
	if err := run(context.Background(), []string{"fixtures", "check", "--adapt-fixtures", "--spec", changed, old}, noEnv, &out, io.Discard); err != nil {
		t.Errorf("fixtures check --adapt-fixtures: %v", err)
	}
}
