package main

import (
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/moviemock/moviemock/internal/reference"
)

// asCommand, set to 1 in its environment, makes this package's test binary
// run as moviemock itself (TestMain), so that a shell script a test runs can
// call moviemock without a build.
const asCommand = "RUN_AS_MOVIEMOCK_COMMAND"

// commandDir is a directory to put first on a script's PATH: moviemock in it
// is this test binary, run as the command.
func commandDir(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(self, filepath.Join(dir, "moviemock")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// workflow is what TestRecipe reads of a GitHub Actions workflow.
type workflow struct {
	On   any               `yaml:"on"`
	Env  map[string]string `yaml:"env"`
	Jobs map[string]struct {
		Steps []workflowStep `yaml:"steps"`
	} `yaml:"jobs"`
}

type workflowStep struct {
	Name string            `yaml:"name"`
	Uses string            `yaml:"uses"`
	If   string            `yaml:"if"`
	Run  string            `yaml:"run"`
	Env  map[string]string `yaml:"env"`
	With map[string]string `yaml:"with"`
}

// recipe reads the GitHub Actions job of docs/contract-changes.md: the
// YAML block of its section "In a backend pull request".
func recipe(t *testing.T) (workflow, []workflowStep) {
	t.Helper()
	page, err := os.ReadFile("../../docs/contract-changes.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(page), "\n## In a backend pull request")
	if !ok {
		t.Fatal("docs/contract-changes.md has no section \"In a backend pull request\"")
	}
	_, block, ok := strings.Cut(section, "```yaml\n")
	block, _, closed := strings.Cut(block, "```")
	if !ok || !closed {
		t.Fatal("docs/contract-changes.md: the section \"In a backend pull request\" has no ```yaml block")
	}
	var wf workflow
	if err := yaml.Unmarshal([]byte(block), &wf); err != nil {
		t.Fatalf("the recipe's workflow is not YAML: %v", err)
	}
	if len(wf.Jobs) != 1 {
		t.Fatalf("the recipe has %d jobs, want one", len(wf.Jobs))
	}
	for _, job := range wf.Jobs {
		return wf, job.Steps
	}
	panic("unreachable")
}

// step is the recipe's step whose name starts with name.
func step(t *testing.T, steps []workflowStep, name string) workflowStep {
	t.Helper()
	for _, s := range steps {
		if strings.HasPrefix(s.Name, name) {
			return s
		}
	}
	t.Fatalf("the recipe has no step %q", name)
	return workflowStep{}
}

// TestRecipe runs the GitHub Actions job of docs/contract-changes.md on a
// backend pull request it makes: a git repository whose main branch holds
// the movies reference backend, and a head commit of the pull request that
// removes a field from its Movie model (the change movie_poster_removed of
// testdata/changes). The job's own run: lines are run with bash, as GitHub
// runs them, with moviemock on the PATH; the frontend's recording is the
// page of testdata/traffic, its fixtures the movies contract's. The
// documents step needs python with the FastAPI stack (without it the test
// takes the committed documents, or fails under MOVIEMOCK_REQUIRE_REFERENCE).
func TestRecipe(t *testing.T) {
	wf, steps := recipe(t)
	if on, ok := wf.On.(string); !ok || on != "pull_request" {
		t.Errorf("the recipe runs on %v, want pull_request", wf.On)
	}
	var upload workflowStep
	for _, s := range steps {
		if strings.HasPrefix(s.Uses, "actions/upload-artifact@") {
			upload = s
		}
	}
	if upload.If != "always()" || !strings.Contains(upload.With["path"], "diff.html") || !strings.Contains(upload.With["path"], "replay.html") {
		t.Errorf("the recipe's upload step %+v: want if: always() and both reports", upload)
	}
	documents := step(t, steps, "The base and head documents")
	diff := step(t, steps, "Which changes")
	replay := step(t, steps, "Replay")
	if replay.If != "always()" {
		t.Errorf("the replay step runs if %q, want always(): it must run when the diff step failed", replay.If)
	}
	if !strings.Contains(replay.Run, "--recorded-spec base.json") {
		t.Errorf("the replay step does not name the contract the recording was made against (--recorded-spec base.json): the values it allows would be changes:\n%s", replay.Run)
	}

	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	origin, pr, runnerTemp := filepath.Join(tmp, "backend.git"), filepath.Join(tmp, "pr"), filepath.Join(tmp, "runner")
	env := append(os.Environ(),
		"PATH="+commandDir(t)+string(os.PathListSeparator)+os.Getenv("PATH"),
		asCommand+"=1",
		"APP=movies:app",
		"TRAFFIC="+filepath.Join(root, "testdata/traffic/movies-page.har"),
		"FIXTURES="+filepath.Join(root, "testdata/contracts/movies/fixtures"),
		"GITHUB_BASE_REF=main",
		"RUNNER_TEMP="+runnerTemp,
		"MOCK_USERNAME=alice", "MOCK_PASSWORD=wonderland",
	)
	if err := os.MkdirAll(runnerTemp, 0o755); err != nil {
		t.Fatal(err)
	}
	oldDoc := filepath.Join(root, "testdata/contracts/movies/openapi.json")
	newDoc := filepath.Join(root, "testdata/changes/movies/movie_poster_removed.json")

	// The pull request: main holds the backend, head removes the field.
	if _, ok := reference.Available(); ok || os.Getenv(reference.EnvRequire) == "1" {
		if err := os.Mkdir(origin, 0o755); err != nil {
			t.Fatal(err)
		}
		python, pyEnv := reference.Project(t, reference.AppMovies, origin)
		for _, kv := range pyEnv {
			if strings.HasPrefix(kv, "PYTHON") || strings.HasPrefix(kv, "MOVIEMOCK_REFERENCE_") {
				env = append(env, kv)
			}
		}
		env = append(env, "PATH="+pythonDir(t, python)+string(os.PathListSeparator)+commandDir(t)+string(os.PathListSeparator)+os.Getenv("PATH"))
		git(t, origin, env, "init", "-q", "-b", "main")
		git(t, origin, env, "add", ".")
		git(t, origin, env, "commit", "-q", "-m", "the movies backend")
		git(t, tmp, env, "clone", "-q", origin, pr)
		git(t, pr, env, "checkout", "-q", "-b", "remove-poster")
		app := filepath.Join(pr, "movies.py")
		code, err := os.ReadFile(app)
		if err != nil {
			t.Fatal(err)
		}
		// The head commit switches the change on in the code itself.
		code = append([]byte("import os\nos.environ.setdefault(\"MOVIEMOCK_REFERENCE_CHANGE\", \"movie_poster_removed\")\n"), code...)
		if err := os.WriteFile(app, code, 0o644); err != nil {
			t.Fatal(err)
		}
		git(t, pr, env, "commit", "-q", "-am", "Movie: no poster")

		runStep(t, documents, pr, env, 0)
		sameJSON(t, filepath.Join(pr, "base.json"), oldDoc)
		sameJSON(t, filepath.Join(pr, "head.json"), newDoc)
	} else {
		t.Log("the documents step not run (no python with the FastAPI stack): the committed documents stand in for what it writes")
		if err := os.Mkdir(pr, 0o755); err != nil {
			t.Fatal(err)
		}
		copyFile(t, oldDoc, filepath.Join(pr, "base.json"))
		copyFile(t, newDoc, filepath.Join(pr, "head.json"))
	}

	for _, tc := range []struct {
		head                 string // the NEW document; "" the one the documents step wrote
		diffCode, replayCode int
		diffHas, replayHas   string
	}{
		// The page reads poster: the job fails, both reports show it.
		{"", 1, 1, "2 breaking used", "removed: poster"},
		// A breaking change no call of the page makes: the diff step passes (breaking-used).
		{"movie_delete_removed", 0, 0, "0 breaking used", "unchanged"},
		// A new optional field: nothing breaks; replay tells it as info.
		{"movie_tagline_added", 0, 0, "tagline", "added: tagline"},
	} {
		name := tc.head
		if name == "" {
			name = "movie_poster_removed"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			copyFile(t, filepath.Join(pr, "base.json"), filepath.Join(dir, "base.json"))
			head := filepath.Join(pr, "head.json")
			if tc.head != "" {
				head = filepath.Join(root, "testdata/changes/movies", tc.head+".json")
			}
			copyFile(t, head, filepath.Join(dir, "head.json"))

			runStep(t, diff, dir, env, tc.diffCode)
			mustContain(t, filepath.Join(dir, "diff.html"), tc.diffHas)

			// Each run serves the mock on a port of its own.
			addr := freeAddr(t)
			replayStep := replay
			replayStep.Run = strings.ReplaceAll(replay.Run, "127.0.0.1:8000", addr)
			// The step's secrets are the job's environment's values of the same name.
			replayEnv := env
			for k, v := range replay.Env {
				secret := strings.NewReplacer("${{ secrets.", "", " }}", "").Replace(v)
				replayEnv = append(replayEnv, k+"="+lookup(env, secret))
			}
			runStep(t, replayStep, dir, replayEnv, tc.replayCode)
			mustContain(t, filepath.Join(dir, "replay.html"), tc.replayHas)
		})
	}
}

// runStep runs a step's run: lines with bash as GitHub Actions does (-e,
// pipefail), in dir, and checks its exit code; a process the step left in
// the background (the mock) is stopped with it.
func runStep(t *testing.T, s workflowStep, dir string, env []string, want int) {
	t.Helper()
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", s.Run)
	cmd.Dir, cmd.Env = dir, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// A file, not a pipe: the mock left in the background holds the step's
	// output open after the step ends.
	out, err := os.CreateTemp(t.TempDir(), "step")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(2 * time.Minute):
		err = errTimeout
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("step %q: %v\n%s", s.Name, err, output(out))
	}
	if code != want {
		t.Fatalf("step %q exited %d, want %d\n%s", s.Name, code, want, output(out))
	}
}

// output is what a step wrote.
func output(f *os.File) string {
	data, _ := os.ReadFile(f.Name())
	return string(data)
}

// lookup is the value of name in env, the last one set.
func lookup(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if val, ok := strings.CutPrefix(kv, name+"="); ok {
			v = val
		}
	}
	return v
}

var errTimeout = &os.PathError{Op: "run", Path: "step", Err: os.ErrDeadlineExceeded}

func git(t *testing.T, dir string, env []string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=dev", "-c", "user.email=dev@example.com"}, args...)...)
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// pythonDir is a directory holding python, the interpreter the reference
// apps run on, as setup-python puts python on a runner's PATH.
func pythonDir(t *testing.T, python string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Symlink(python, filepath.Join(dir, "python")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func sameJSON(t *testing.T, got, want string) {
	t.Helper()
	var g, w any
	for path, v := range map[string]*any{got: &g, want: &w} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s is not the document %s", got, want)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustContain(t *testing.T, path, want string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), want) {
		t.Errorf("%s does not say %q", filepath.Base(path), want)
	}
}

// freeAddr is a loopback address nothing listens at, just now.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return "127.0.0.1:" + strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}
