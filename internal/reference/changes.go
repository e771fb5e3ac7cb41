package reference

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ChangeApps are the apps that can make changes to their contract
// (Options.Change): the next versions of it, whose documents are under
// testdata/changes/<app>.
func ChangeApps() []string { return []string{AppMovies, AppTasks} }

// ChangesDir is the absolute path of testdata/changes/<app>: the document
// the app serves under each of its changes, and what a client suffers from
// each (testdata/changes/README.md).
func ChangesDir(app string) (string, error) {
	if !slices.Contains(ChangeApps(), app) {
		return "", fmt.Errorf("reference app %q makes no changes to its contract (want one of %q)", app, ChangeApps())
	}
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "testdata", "changes", app), nil
}

// ChangeFile is one NEW document of testdata/changes/<app>: the change's
// name and the document's absolute path.
type ChangeFile struct{ Change, Path string }

// ChangeFiles lists the NEW documents of testdata/changes/<app>
// (expected.json, the classification, aside), sorted by change; an error
// when there is none.
func ChangeFiles(app string) ([]ChangeFile, error) {
	dir, err := ChangesDir(app)
	if err != nil {
		return nil, err
	}
	docs, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	var out []ChangeFile
	for _, path := range docs {
		if change := strings.TrimSuffix(filepath.Base(path), ".json"); change != "expected" {
			out = append(out, ChangeFile{Change: change, Path: path})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no NEW documents in %s", dir)
	}
	return out, nil
}

// Changed is what an app says of the changes it can make to its contract.
type Changed struct {
	// Changes names each change (the CHANGES table of the app) and says
	// what the backend team did.
	Changes map[string]string
	// Documents holds the document the app serves under each change, by
	// name, byte for byte as GET /openapi.json answers it; "" holds the
	// document it serves unchanged.
	Documents map[string][]byte
}

// changedScript imports the app once unchanged and once under each change
// it knows, and prints the CHANGES table and each document as FastAPI's
// GET /openapi.json writes it (a JSONResponse of app.openapi()).
const changedScript = `
import importlib, json, os, sys
from fastapi.responses import JSONResponse
name = sys.argv[1]
def load(change):
    os.environ["MOVIEMOCK_REFERENCE_CHANGE"] = change
    sys.modules.pop(name, None)
    return importlib.import_module(name)
app = load("")
out = {"changes": app.CHANGES, "documents": {"": JSONResponse(app.app.openapi()).body.decode()}}
for change in app.CHANGES:
    out["documents"][change] = JSONResponse(load(change).app.openapi()).body.decode()
print(json.dumps(out))
`

// ChangedDocuments runs app (one of ChangeApps) under each change it knows,
// in one Python process without serving it, and returns the changes and
// their documents. It skips or fails the test as Require does.
func ChangedDocuments(t testing.TB, app string) *Changed {
	t.Helper()
	if !slices.Contains(ChangeApps(), app) {
		t.Fatalf("reference app %q makes no changes to its contract (want one of %q)", app, ChangeApps())
	}
	Require(t)
	p := probeResult
	dir := t.TempDir()
	if err := writeApps(dir); err != nil {
		t.Fatal(err)
	}
	fixtures, err := defaultFixtures(app)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(p.python, "-c", changedScript, app)
	cmd.Dir = dir
	cmd.Env = backendEnv(p.stack, dir, fixtures, Options{App: app})
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s.py under its changes: %v\n%s", app, err, strings.TrimSpace(stderr.String()))
	}
	var got struct {
		Changes   map[string]string `json:"changes"`
		Documents map[string]string `json:"documents"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%s.py under its changes printed %.200q: %v", app, out, err)
	}
	c := &Changed{Changes: got.Changes, Documents: map[string][]byte{}}
	for name, doc := range got.Documents {
		c.Documents[name] = []byte(doc)
	}
	return c
}

// exportScript prints the records app loads under a change, as fixture
// files hold them (the app's export()), one JSON file's text a collection.
const exportScript = `
import importlib, json, os, sys
os.environ["MOVIEMOCK_REFERENCE_CHANGE"] = sys.argv[2]
app = importlib.import_module(sys.argv[1])
print(json.dumps({name: json.dumps(records, ensure_ascii=False, indent=2) + "\n" for name, records in app.export().items()}))
`

// ChangedFixtures returns the records app (one of ChangeApps) loads under
// change, by collection, each as the text of a JSON fixture file: the
// fixtures of the NEW contract when the change migrates the records (a
// field dropped, an enum value gone, dates become date-times). It skips or
// fails the test as Require does.
func ChangedFixtures(t testing.TB, app, change string) map[string][]byte {
	t.Helper()
	if !slices.Contains(ChangeApps(), app) {
		t.Fatalf("reference app %q makes no changes to its contract (want one of %q)", app, ChangeApps())
	}
	Require(t)
	p := probeResult
	dir := t.TempDir()
	if err := writeApps(dir); err != nil {
		t.Fatal(err)
	}
	fixtures, err := defaultFixtures(app)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(p.python, "-c", exportScript, app, change)
	cmd.Dir = dir
	cmd.Env = backendEnv(p.stack, dir, fixtures, Options{App: app})
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s.py under %s: export: %v\n%s", app, change, err, strings.TrimSpace(stderr.String()))
	}
	var files map[string]string
	if err := json.Unmarshal(out, &files); err != nil {
		t.Fatalf("%s.py under %s printed %.200q: %v", app, change, out, err)
	}
	got := map[string][]byte{}
	for name, text := range files {
		got[name] = []byte(text)
	}
	return got
}

// Project writes app (one of ChangeApps) into dir as the backend project a
// team keeps in its repository (the app's files, nothing else), and returns
// the interpreter and the environment its code runs with as that team's CI
// would run it: the FastAPI stack installed (on PYTHONPATH, the project
// itself imported from the working directory) and the app's own fixtures.
// It skips or fails the test as Require does.
func Project(t testing.TB, app, dir string) (python string, env []string) {
	t.Helper()
	if !slices.Contains(ChangeApps(), app) {
		t.Fatalf("reference app %q makes no changes to its contract (want one of %q)", app, ChangeApps())
	}
	Require(t)
	if err := writeApps(dir); err != nil {
		t.Fatal(err)
	}
	fixtures, err := defaultFixtures(app)
	if err != nil {
		t.Fatal(err)
	}
	env = backendEnv(probeResult.stack, "", fixtures, Options{App: app})
	for i, kv := range env {
		if strings.HasPrefix(kv, "PYTHONPATH=") {
			env[i] = "PYTHONPATH=" + probeResult.stack
		}
	}
	return probeResult.python, env
}
