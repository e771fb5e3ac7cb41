package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/model"
)

// lockedBuffer collects serve's log while it runs.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// eventually polls fn until it holds, or fails after a few seconds.
func eventually(t *testing.T, what string, fn func() bool) {
	t.Helper()
	// Generous: it costs nothing when fn comes true, and a loaded machine
	// (CI, -race) may take seconds to get there.
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if fn() {
			return
		}
	}
	t.Fatalf("%s: never happened", what)
}

func getWith(t *testing.T, u, scenario string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", u, nil)
	req.Header.Set("X-Mock-Scenario", scenario)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// goneScenario is a scenario file, "gone", answering every person with a
// 404 whose detail is detail.
func goneScenario(detail string) string {
	return "name: gone\ndescription: d\nrules:\n  - match: {path: \"/person/{person_id}\"}\n    respond: {status: 404, body: {detail: " + detail + "}}\n"
}

// Edits of scenario and fixture files are served without a restart; a
// broken edit is logged with file:line and the previous files keep serving.
func TestServeReloadsEditedFiles(t *testing.T) {
	dir := t.TempDir()
	scDir, fxDir := filepath.Join(dir, "scenarios"), filepath.Join(dir, "fixtures")
	os.Mkdir(scDir, 0o755)
	m, err := model.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	d, err := fixtures.Generate(m, fixtures.GenerateOptions{Seed: 2, Counts: map[string]int{"persons": 3, "users": 1, "reviews": 2}})
	if err != nil {
		t.Fatal(err)
	}
	if err := fixtures.WriteDir(d, fxDir); err != nil {
		t.Fatal(err)
	}
	write := func(path, text string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	scenarioFile := filepath.Join(scDir, "teapot.yaml")
	scenario := goneScenario
	write(scenarioFile, scenario("first"))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var log lockedBuffer
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--scenarios", scDir, "--fixtures", fxDir, "--watch-interval", "20ms", "--quiet"}, noEnv, pw, &log)
		pw.Close()
	}()
	line := make([]byte, 256)
	n, _ := pr.Read(line)
	go io.Copy(io.Discard, pr)
	base := "http://" + strings.TrimSuffix(strings.Fields(strings.SplitN(string(line[:n]), "http://", 2)[1])[0], ")")

	if code, body := getWith(t, base+"/person/1", "gone"); code != 404 || body != `{"detail":"first"}` {
		t.Fatalf("before the edit: %d %s", code, body)
	}
	write(scenarioFile, scenario("second and longer"))
	defer func() {
		if t.Failed() {
			t.Log(log.String())
		}
	}()
	eventually(t, "scenario edit served", func() bool {
		_, body := getWith(t, base+"/person/1", "gone")
		return body == `{"detail":"second and longer"}`
	})
	write(scenarioFile, scenario("third")+"  - respond: {status: 418}\n")
	eventually(t, "broken edit logged", func() bool { return strings.Contains(log.String(), "teapot.yaml:6") })
	if _, body := getWith(t, base+"/person/1", "gone"); body != `{"detail":"second and longer"}` {
		t.Errorf("after a broken edit: %s", body)
	}
	// Fixtures: rename person 1.
	personsFile := filepath.Join(fxDir, "persons.json")
	text, _ := os.ReadFile(personsFile)
	persons := d.Model.Collection("Person")
	name := d.Table(persons).Recs[0].Str(persons.Field("name"))
	write(personsFile, strings.Replace(string(text), name, "Edited Name", 1))
	eventually(t, "fixture edit served", func() bool {
		_, body := getWith(t, base+"/person/1", "none")
		return strings.Contains(body, `"name":"Edited Name"`)
	})
	write(personsFile, "[{\"id\": \"x\"}]")
	eventually(t, "broken fixtures logged", func() bool { return strings.Contains(log.String(), "persons.json:1") })
	if _, body := getWith(t, base+"/person/1", "none"); !strings.Contains(body, `"name":"Edited Name"`) {
		t.Errorf("after broken fixtures: %s", body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestScenariosCommand(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "ok.yaml"), []byte("name: mine\ndescription: Mine.\nrules: [{passthrough: true}]\n"), 0o644)
	var out bytes.Buffer
	if err := run(context.Background(), []string{"scenarios", "check", dir}, noEnv, &out, io.Discard); err != nil || !strings.Contains(out.String(), "1 scenario: valid") {
		t.Errorf("check: %v %s", err, out.String())
	}
	out.Reset()
	if err := run(context.Background(), []string{"scenarios", "list", dir}, noEnv, &out, io.Discard); err != nil || !strings.Contains(out.String(), "mine ") || !strings.Contains(out.String(), "token-expires") {
		t.Errorf("list: %v %s", err, out.String())
	}
	os.WriteFile(filepath.Join(dir, "bad.yaml"), []byte("name: bad\ndescription: d\nrules: [{fault: boom}]\n"), 0o644)
	err := run(context.Background(), []string{"scenarios", "check", dir}, noEnv, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "bad.yaml:3") || exitCode(err, io.Discard) != 2 {
		t.Errorf("bad file: %v", err)
	}
	err = run(context.Background(), []string{"serve", "--scenario", "nope"}, noEnv, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), `--scenario "nope": no such scenario`) {
		t.Errorf("serve --scenario nope: %v", err)
	}
}
