package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/reference"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// changedContracts lists every changed document of testdata/changes/<c>
// (expected.json aside) with the fixtures its unchanged contract was
// written with.
func changedContracts(t *testing.T) []struct{ contract, change, doc, old string } {
	t.Helper()
	var out []struct{ contract, change, doc, old string }
	for _, c := range reference.ChangeApps() {
		files, err := reference.ChangeFiles(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			out = append(out, struct{ contract, change, doc, old string }{c, f.Change, f.Path,
				filepath.Join(repoRoot, "testdata/contracts", c, "fixtures")})
		}
	}
	if len(out) < 30 {
		t.Fatalf("found %d changed contracts in testdata/changes: the glob is wrong", len(out))
	}
	return out
}

// With --adapt-fixtures, the mock of every changed contract serves the
// fixtures written for the unchanged one, and the contract runner finds
// nothing wrong with it.
func TestAdaptFixturesServesEveryChange(t *testing.T) {
	t.Parallel()
	for _, tc := range reference.Sample(changedContracts(t), 4) {
		t.Run(tc.contract+"/"+tc.change, func(t *testing.T) {
			t.Parallel()
			base, _ := serve(t, noEnv, "--quiet", "--adapt-fixtures", "--spec", tc.doc, "--fixtures", tc.old)
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), []string{"contract", "--base-url", base, "--spec", tc.doc, "--seed", "1", "--format", "text", "--max-response-time", slowOK}, noEnv, &stdout, &stderr)
			if err != nil {
				t.Errorf("contract against the mock with adapted fixtures: %v\n%s%s", err, lastLines(stdout.String(), 30), stderr.String())
			}
		})
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// Where the reference app's fixtures were migrated by hand
// (testdata/changes/<c>/fixtures/<change>), the adapted records have the
// same shape: the same records, fields and types of values.
func TestAdaptFixturesMatchHandMigrated(t *testing.T) {
	t.Parallel()
	n := 0
	for _, tc := range changedContracts(t) {
		hand := filepath.Join(repoRoot, "testdata/changes", tc.contract, "fixtures", tc.change)
		if _, err := os.Stat(hand); err != nil {
			continue
		}
		n++
		t.Run(tc.contract+"/"+tc.change, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(tc.doc)
			if err != nil {
				t.Fatal(err)
			}
			sp, err := spec.Load(data, tc.doc)
			if err != nil {
				t.Fatal(err)
			}
			m, err := model.Compile(sp)
			if err != nil {
				t.Fatal(err)
			}
			want, err := fixtures.LoadDir(hand, m)
			if err != nil {
				t.Fatalf("the hand-migrated fixtures: %v", err)
			}
			got, err := fixtures.LoadDirWith(tc.old, m, fixtures.LoadOptions{Adapt: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Adapted) == 0 {
				t.Errorf("nothing adapted, yet the fixtures were migrated by hand")
			}
			for _, c := range m.Collections {
				g, w := shapes(t, got, c), shapes(t, want, c)
				if strings.Join(g, "\n") != strings.Join(w, "\n") {
					t.Errorf("%s: adapted records have the shapes\n  %s\nthe hand-migrated ones\n  %s", c.File, strings.Join(g, "\n  "), strings.Join(w, "\n  "))
				}
			}
		})
	}
	if n == 0 {
		t.Fatal("no hand-migrated fixtures found")
	}
}

// shapes lists each record of c as its id and its fields' JSON types, in
// id order.
func shapes(t *testing.T, d *fixtures.Dataset, c *model.Collection) []string {
	t.Helper()
	var out []string
	for _, r := range d.Table(c).Recs {
		dec := json.NewDecoder(bytes.NewReader(r.JSON))
		dec.UseNumber()
		var obj map[string]any
		if err := dec.Decode(&obj); err != nil && err != io.EOF {
			t.Fatal(err)
		}
		var fields []string
		for name, v := range obj {
			fields = append(fields, name+":"+jsonType(v))
		}
		sort.Strings(fields)
		out = append(out, r.Key(c)+" "+strings.Join(fields, ","))
	}
	sort.Strings(out)
	return out
}

func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		if strings.ContainsAny(string(x), ".eE") {
			return "number"
		}
		return "integer"
	case string:
		return "string"
	case []any:
		return "array"
	}
	return "object"
}

// fixtures check --adapt-fixtures previews the changes serve would make.
func TestFixturesCheckAdapt(t *testing.T) {
	t.Parallel()
	doc := filepath.Join(repoRoot, "testdata/changes/movies/movie_poster_removed.json")
	old := filepath.Join(repoRoot, "testdata/contracts/movies/fixtures")
	tests := []struct {
		name     string
		args     []string
		wantErr  bool
		wantText string
	}{
		{"strict by default", nil, true, "field poster: unknown field"},
		{"adapted", []string{"--adapt-fixtures"}, false, "movies: poster dropped in 22 records (no longer in Movie)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			args := append(append([]string{"fixtures", "check", "--spec", doc}, tc.args...), old)
			err := run(context.Background(), args, noEnv, &stdout, &stderr)
			text := stdout.String() + stderr.String()
			if err != nil {
				text += err.Error()
			}
			if (err != nil) != tc.wantErr || !strings.Contains(text, tc.wantText) {
				t.Errorf("fixtures check %v: error %v, output:\n%s\nwant error %v and %q", tc.args, err, text, tc.wantErr, tc.wantText)
			}
		})
	}
}

// The serve banner lists what --adapt-fixtures changed; without
// --fixtures the flag is refused.
func TestServeAdaptBanner(t *testing.T) {
	t.Parallel()
	doc := filepath.Join(repoRoot, "testdata/changes/tasks/task_due_datetime.json")
	old := filepath.Join(repoRoot, "testdata/contracts/tasks/fixtures")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--quiet", "--adapt-fixtures", "--spec", doc, "--fixtures", old}, noEnv, pw, io.Discard)
		pw.Close()
	}()
	var banner strings.Builder
	buf := make([]byte, 4096)
	for !strings.Contains(banner.String(), "panel") {
		n, err := pr.Read(buf)
		banner.Write(buf[:n])
		if err != nil {
			break
		}
	}
	cancel()
	go io.Copy(io.Discard, pr)
	<-done
	want := "tasks: due_date converted date → date-time at midnight in 31 records (the Task schema now wants a date-time)"
	if !strings.Contains(banner.String(), want) {
		t.Errorf("banner:\n%s\nwant a line %q", banner.String(), want)
	}
	err := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--adapt-fixtures"}, noEnv, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "--adapt-fixtures only applies with --fixtures") {
		t.Errorf("serve --adapt-fixtures without --fixtures: %v", err)
	}
}

// syncBuffer is a bytes.Buffer a logger writes to while a test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// An edited fixture folder reloaded under --adapt-fixtures logs what was
// adapted, as the banner does at start-up.
func TestWatchLogsAdapted(t *testing.T) {
	t.Parallel()
	doc := filepath.Join(repoRoot, "testdata/changes/tasks/task_tags_removed.json")
	m, err := loadModel(context.Background(), "serve", doc, 0, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, name := range []string{"projects.json", "tasks.json"} {
		data, err := os.ReadFile(filepath.Join(repoRoot, "testdata/contracts/tasks/fixtures", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files := &sources{model: m, fixtures: dir, adapt: true, gen: &generateOpts{}}
	loaded := files.stamp()
	data, _, set, err := files.load()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: m.Spec, Model: m, Data: data, Scenarios: set})
	if err != nil {
		t.Fatal(err)
	}
	tasks := filepath.Join(dir, "tasks.json")
	old, _ := os.ReadFile(tasks)
	if err := os.WriteFile(tasks, append(old, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	var log syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go files.watch(ctx, loaded, 5*time.Millisecond, srv, slog.New(slog.NewTextHandler(&log, nil)))
	eventually(t, "the adaptations logged", func() bool {
		return strings.Contains(log.String(), "tasks: tags dropped in 40 records (no longer in Task)")
	})
}
