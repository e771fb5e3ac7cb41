package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/internal/model"
)

// The URL printed at start-up is one a user can open: a wildcard address is
// reached on loopback, a host name is printed as given.
func TestServeURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		addr   string
		actual string
		want   string
	}{
		{"127.0.0.1:0", "127.0.0.1:41000", "http://127.0.0.1:41000"},
		{"0.0.0.0:8000", "[::]:8000", "http://127.0.0.1:8000 (listening on all interfaces)"},
		{":8000", "[::]:8000", "http://127.0.0.1:8000 (listening on all interfaces)"},
		{"[::]:8000", "[::]:8000", "http://127.0.0.1:8000 (listening on all interfaces)"},
		{"localhost:8000", "127.0.0.1:8000", "http://localhost:8000"},
		{"[::1]:0", "[::1]:41000", "http://[::1]:41000"},
		{"192.168.1.20:8000", "192.168.1.20:8000", "http://192.168.1.20:8000"},
	} {
		t.Run(tc.addr, func(t *testing.T) {
			actual, err := net.ResolveTCPAddr("tcp", tc.actual)
			if err != nil {
				t.Fatal(err)
			}
			if got := serveURL(tc.addr, actual); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// The start-up line names the address to open and the scenario --scenario
// made active.
func TestServeStartLine(t *testing.T) {
	line := startLine(t, "--addr", "0.0.0.0:0", "--scenario", "slow-network")
	for _, want := range []string{"on http://127.0.0.1:", "(listening on all interfaces)", `scenario "slow-network" active for every request`} {
		if !strings.Contains(line, want) {
			t.Errorf("start-up line %q lacks %q", line, want)
		}
	}
	if line := startLine(t, "--addr", "127.0.0.1:0"); strings.Contains(line, "scenario") || strings.Contains(line, "all interfaces") {
		t.Errorf("start-up line %q", line)
	}
}

// The start-up lines say where the pages are, and what data a contract of
// its own gets when the embedded data fits none of its collections.
func TestServeStartLinesSayWhatAndWhere(t *testing.T) {
	lines := startLines(t, 20, "--addr", "0.0.0.0:0", "--spec", "../../testdata/corpus/services/openapi/hex_todo.json")
	for _, re := range []string{
		`^moviemock serving no records \(the embedded default data fits none of this contract's collections; --generate makes some\) on http://127\.0\.0\.1:\d+`,
		`\n  docs        (http://127\.0\.0\.1:\d+)/docs \(Swagger UI\), http://127\.0\.0\.1:\d+/redoc \(ReDoc\)\n  panel       http://127\.0\.0\.1:\d+/__mock/ \(control panel`,
	} {
		if !regexp.MustCompile(re).MatchString(lines) {
			t.Errorf("start-up lines do not match %s:\n%s", re, lines)
		}
	}
	// A contract of no collection: no "embedded default data", no empty list.
	lines = startLines(t, 20, "--addr", "127.0.0.1:0", "--spec", "../../testdata/corpus/fastapi-docs/openapi/first_steps.tutorial001_py310.json")
	for _, want := range []string{
		"moviemock serving no records (this contract has no collections: its operations are answered from their schemas and examples) on http://127.0.0.1:",
		"\n  data        no records (this contract has no collections: its operations are answered from their schemas and examples)\n",
		"\n  operations  none by convention (no collection, login or user operation)\n",
	} {
		if !strings.Contains(lines, want) {
			t.Errorf("start-up lines lack %q:\n%s", want, lines)
		}
	}
	if lines := startLines(t, 20, "--addr", "127.0.0.1:0", "--no-admin"); !strings.Contains(lines, "serving the embedded default data on") || strings.Contains(lines, "__mock") || !strings.Contains(lines, "  panel       off (--no-admin)") {
		t.Errorf("start-up lines:\n%s", lines)
	}
}

// The banner says, one labelled line each, what is served: the contract
// (title, version, from where), the data, the operations, the scenarios
// (shipped, and those of --scenarios DIR by name), and where: the API, its
// docs and the control panel.
func TestServeBanner(t *testing.T) {
	dir := t.TempDir()
	text, err := os.ReadFile("../../scenarios/slow-network.yaml")
	if err != nil {
		t.Fatal(err)
	}
	mine := regexp.MustCompile(`(?m)^name: .*$`).ReplaceAll(text, []byte("name: my-slow-network"))
	if err := os.WriteFile(filepath.Join(dir, "mine.yaml"), mine, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		args  []string
		wants []string // regexps, in order
	}{
		{"embedded", []string{"--scenarios", dir}, []string{
			`^moviemock serving the embedded default data on (http://127\.0\.0\.1:\d+)\n`,
			`\n  contract    "Movie and Review Service" \S+, from the embedded openapi\.yaml\n`,
			`\n  data        the embedded default data: 3 collections: \d+ persons, \d+ reviews, \d+ users\n`,
			`\n  operations  4 by convention: GET /person/\{person_id\}: read Person; `,
			`\n  scenarios   \d+ shipped, 1 from ` + regexp.QuoteMeta(dir) + `: my-slow-network\n`,
			`\n  API         http://127\.0\.0\.1:\d+/\n`,
			`\n  docs        http://127\.0\.0\.1:\d+/docs \(Swagger UI\), http://127\.0\.0\.1:\d+/redoc \(ReDoc\)\n`,
			`\n  panel       http://127\.0\.0\.1:\d+/__mock/ \(control panel`,
		}},
		{"a contract file, generated data", []string{"--spec", "../../testdata/corpus/services/openapi/hex_todo.json", "--generate", "--seed", "3"}, []string{
			`\n  contract    "Todolist" 0\.0\.1, from \.\./\.\./testdata/corpus/services/openapi/hex_todo\.json\n`,
			`\n  data        generated data \(seed 3\)[^\n]*: 2 collections: \d+ todo_items, \d+ user_registries\n`,
			`\n  scenarios   \d+ shipped\n              \d+ shipped scenarios do not fit`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := startLines(t, 30, append([]string{"--addr", "127.0.0.1:0"}, tc.args...)...)
			for _, re := range tc.wants {
				if !regexp.MustCompile(re).MatchString(lines) {
					t.Errorf("the banner does not match %s:\n%s", re, lines)
				}
			}
		})
	}
}

// proxy prints the same block under its own first line.
func TestProxyBanner(t *testing.T) {
	upstream, _ := serve(t, noEnv, "--quiet")
	p := startProxy(t, upstream)
	for _, re := range []string{
		`^moviemock proxying ` + regexp.QuoteMeta(upstream) + ` on http://127\.0\.0\.1:\d+\n`,
		`\n  the mock answers what the upstream lacks, from the embedded default data\n`,
		`\n  contract    "Movie and Review Service" \S+, from the embedded openapi\.yaml\n`,
		`\n  scenarios   \d+ shipped\n`,
		`\n  API         http://127\.0\.0\.1:\d+/\n`,
		`\n  panel       http://127\.0\.0\.1:\d+/__mock/ \(control panel`,
	} {
		if !regexp.MustCompile(re).MatchString(p.startup) {
			t.Errorf("the proxy's banner does not match %s:\n%s", re, p.startup)
		}
	}
}

// startLine starts serve with args and returns the first line it prints.
func startLine(t *testing.T, args ...string) string {
	return startLines(t, 1, args...)
}

// startLines starts serve with args and returns the first n lines it
// prints, or its start-up lines up to the one of its pages.
func startLines(t *testing.T, n int, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := run(ctx, append([]string{"serve", "--quiet"}, args...), noEnv, pw, io.Discard)
		pw.CloseWithError(io.EOF)
		done <- err
	}()
	r := bufio.NewReader(pr)
	var lines strings.Builder
	line, err := r.ReadString('\n')
	// The line of pages comes last: serve prints nothing more until a
	// request comes.
	for lines.WriteString(line); err == nil && strings.Count(lines.String(), "\n") < n && !strings.HasPrefix(line, "  panel "); lines.WriteString(line) {
		line, _ = r.ReadString('\n')
		if line == "" {
			break
		}
	}
	go io.Copy(io.Discard, pr)
	cancel()
	if rerr := <-done; err != nil {
		t.Fatalf("serve did not start: %v (%v)", err, rerr)
	}
	return lines.String()
}

// A document of many operations gets a screenful: past bannerListed, the
// operations are grouped by what answers them, each group naming its first
// few and counting the rest.
func TestBannerGroupsManyOperations(t *testing.T) {
	var ops []*model.Operation
	for i := range 30 {
		why := "a DELETE not ending in an id parameter"
		if i%3 == 0 {
			why = "answers no record or list of a collection by a convention"
		}
		ops = append(ops, &model.Operation{Method: "GET", Path: fmt.Sprintf("/things/%d", i), Why: why})
	}
	var b strings.Builder
	line := func(label, format string, args ...any) {
		fmt.Fprintf(&b, "%s|%s\n", label, fmt.Sprintf(format, args...))
	}
	groupedLines(line, ops, func(o *model.Operation) string { return o.Why })
	want := "|  10 answers no record or list of a collection by a convention: GET /things/0, GET /things/3, GET /things/6, GET /things/9 and 6 more\n" +
		"|  20 a DELETE not ending in an id parameter: GET /things/1, GET /things/2, GET /things/4, GET /things/5 and 16 more\n"
	if b.String() != want {
		t.Errorf("grouped lines:\n%s\nwant:\n%s", b.String(), want)
	}
}

// A document of another framework whose collections the embedded data
// fits none of starts with generated records, as a frontend pointed at it
// expects some to list and read; a FastAPI document keeps starting empty.
func TestServeGeneratesForAnotherFramework(t *testing.T) {
	t.Parallel()
	lines := startLines(t, 20, "--addr", "127.0.0.1:0", "--spec", "../../testdata/corpus/documents/swagger-petstore-3/openapi.yaml")
	if !strings.Contains(lines, "serving generated data (seed 1;") || !strings.Contains(lines, "20 pets") {
		t.Errorf("petstore's start-up lines:\n%s\nwant generated data, 20 pets", lines)
	}
	lines = startLines(t, 20, "--addr", "127.0.0.1:0", "--spec", "../../testdata/corpus/services/openapi/hex_todo.json")
	if strings.Contains(lines, "generated data") {
		t.Errorf("a FastAPI document's start-up lines:\n%s\nwant no generated data", lines)
	}
}
