package main

import (
	"bytes"
	"cmp"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/browser"
	"github.com/moviemock/moviemock/internal/golden"
	"github.com/moviemock/moviemock/internal/reference"
	"github.com/moviemock/moviemock/mock"
	"github.com/moviemock/moviemock/scenarios"
)

// referencePath is the reference page, written from moviemock's own tables
// by this file: the command table (commands, with each command's flag set
// and whether its flags read the environment), the control API's OpenAPI
// document, the mock's pages, the contract runner's checks and the exit
// codes.
const referencePath = "../../docs/reference.md"

// regenerate is what a failure tells to run.
const regenerate = "go test ./cmd/moviemock -run TestReference -update"

// docs/reference.md is what referencePage writes: a flag, a variable, a route or
// a check added without regenerating it fails here. -update rewrites it.
func TestReference(t *testing.T) {
	t.Parallel()
	got, err := referencePage()
	if err != nil {
		t.Fatal(err)
	}
	if golden.Updating() {
		if err := os.WriteFile(referencePath, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(referencePath)
	if err != nil {
		t.Fatalf("%v: write it with\n\t%s", err, regenerate)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("docs/reference.md is out of date: the code's tables changed. Rewrite it with\n\t%s\nand commit it. First difference:\n%s", regenerate, firstDifference(string(want), string(got)))
	}
}

// Every flag of every command is in the reference page, in its command's
// section: said on its own, so that a new flag's author reads at once what
// is missing and how to fix it.
func TestReferenceListsEveryFlag(t *testing.T) {
	t.Parallel()
	page, err := os.ReadFile(referencePath)
	if golden.Updating() { // TestReference is rewriting it
		page, err = referencePage()
	}
	if err != nil {
		t.Fatalf("%v: write it with\n\t%s", err, regenerate)
	}
	for _, c := range referenceCommands() {
		section, ok := referenceSection(string(page), c.heading())
		if !ok {
			t.Errorf("docs/reference.md has no section %q for moviemock %s: rewrite it with\n\t%s", c.heading(), c.path, regenerate)
			continue
		}
		if c.flags == nil { // a group: its subcommands have the flags
			continue
		}
		c.flags().VisitAll(func(f *flag.Flag) {
			if !strings.Contains(section, "| `--"+f.Name+"` |") {
				t.Errorf("docs/reference.md does not list --%s of moviemock %s: rewrite it with\n\t%s", f.Name, c.path, regenerate)
			}
			if c.env && !strings.Contains(string(page), "`"+envVar(f.Name)+"`") {
				t.Errorf("docs/reference.md does not list %s (--%s of moviemock %s): rewrite it with\n\t%s", envVar(f.Name), f.Name, c.path, regenerate)
			}
		})
	}
}

// The variables the source reads beside the flags' are found by scanning
// it for MOVIEMOCK_ constants: these at least.
func TestReferenceFindsSourceVariables(t *testing.T) {
	t.Parallel()
	found, err := sourceVariables("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{browser.EnvPath, browser.EnvRequire, reference.EnvStack, reference.EnvRequire, contract.PasswordVar, contract.TokenVar} {
		if !slices.ContainsFunc(found, func(v sourceVariable) bool { return v.name == want && v.doc != "" }) {
			t.Errorf("%s not found, or without its doc comment, in %+v", want, found)
		}
	}
}

// The exit codes the reference lists are exitCode's.
func TestExitCodesTable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		err  error
		want int
	}{{nil, exitOK}, {&failureError{"1 check failed"}, exitFailure}, {usagef("bad"), exitUsage}, {errors.New("start-up"), exitUsage}} {
		if got := exitCode(tc.err, io.Discard); got != tc.want {
			t.Errorf("exitCode(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
	if len(exitCodes) != 3 {
		t.Errorf("exitCodes lists %d codes, exitCode has 3", len(exitCodes))
	}
}

// refCommand is a command or subcommand as the reference shows it.
type refCommand struct {
	command
	path  string // "serve", "fixtures generate"
	group *command
}

// heading is the command's heading: its anchor is the path with - for
// spaces (reference.md#serve, reference.md#fixtures-generate).
func (c refCommand) heading() string {
	if c.group != nil {
		return "#### " + c.path
	}
	return "### " + c.path
}

// referenceCommands lists every command and subcommand, from the table.
func referenceCommands() []refCommand {
	var out []refCommand
	for i := range commands {
		c := &commands[i]
		out = append(out, refCommand{command: *c, path: c.name})
		for _, s := range c.subs {
			out = append(out, refCommand{command: s, path: c.name + " " + s.name, group: c})
		}
	}
	return out
}

// referenceSection is the text under heading, up to the next heading of
// the same or a higher level.
func referenceSection(page, heading string) (string, bool) {
	i := strings.Index(page, "\n"+heading+"\n")
	if i < 0 {
		return "", false
	}
	rest := page[i+len(heading)+2:]
	level := strings.Index(heading, " ")
	for j := 0; j < len(rest); {
		k := strings.Index(rest[j:], "\n#")
		if k < 0 {
			break
		}
		line := rest[j+k+1:]
		if n := len(line) - len(strings.TrimLeft(line, "#")); n <= level && strings.HasPrefix(line[n:], " ") {
			return rest[:j+k+1], true
		}
		j += k + 1
	}
	return rest, true
}

// referencePage writes docs/reference.md.
func referencePage() ([]byte, error) {
	var b strings.Builder
	b.WriteString(`# Reference

<!-- Generated by ` + "`" + regenerate + "`" + ` from moviemock's own tables: do not edit by hand. -->

Every command and flag, every environment variable, the control API's routes, the mock's own
pages, the contract runner's checks and the exit codes, written from the tables the code runs
on, so that this page cannot go stale: a test fails when it differs from what the code says.
The [README](../README.md) and the task pages explain how to use them: [the mock](mock.md), [scenarios and the control API](scenarios.md),
[contract testing](contract-testing.md), [the proxy](proxy.md), [limits](limits.md).

`)
	cmds := referenceCommands()
	var toc []string
	for _, c := range cmds {
		if c.group == nil {
			toc = append(toc, fmt.Sprintf("[%s](#%s)", c.path, anchor(c.path)))
		}
	}
	fmt.Fprintf(&b, "- [Commands](#commands): %s\n", strings.Join(toc, ", "))
	b.WriteString("- [Environment variables](#environment-variables)\n")
	b.WriteString("- [Control API](#control-api)\n")
	b.WriteString("- [The mock's own pages](#the-mocks-own-pages)\n")
	b.WriteString("- [Contract checks](#contract-checks)\n")
	b.WriteString("- [Exit codes](#exit-codes)\n\n")

	b.WriteString("## Commands\n\n```\n")
	synopsis, _ := usageParts(mainUsage)
	b.WriteString(synopsis)
	b.WriteString("```\n")
	for _, c := range cmds {
		writeCommand(&b, c)
	}

	if err := writeEnvironment(&b, cmds); err != nil {
		return nil, err
	}
	if err := writeControlAPI(&b); err != nil {
		return nil, err
	}

	b.WriteString("\n## The mock's own pages\n\n")
	b.WriteString("Served by `serve` and `proxy` beside the contract's operations, whatever the contract, on GET and HEAD.\n\n")
	b.WriteString("| Path | What |\n|---|---|\n")
	for _, p := range mock.Pages() {
		fmt.Fprintf(&b, "| `%s` | %s |\n", p.Path, cell(p.About))
	}

	b.WriteString("\n## Contract checks\n\n")
	b.WriteString("What `moviemock contract` checks (choose with `--checks`, `--exclude-checks`); the proxy applies those marked to every exchange it relays.\n\n")
	b.WriteString("| Check | Requires | Proxy |\n|---|---|---|\n")
	observed := map[string]bool{}
	for _, c := range contract.ObservedChecks {
		observed[c.Name()] = true
	}
	for _, c := range contract.Checks {
		proxy := ""
		if observed[c.Name()] {
			proxy = "yes"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", c.Name(), cell(c.About()), proxy)
	}

	b.WriteString("\n## Exit codes\n\n| Code | Means |\n|---|---|\n")
	for _, e := range exitCodes {
		fmt.Fprintf(&b, "| %d | %s |\n", e.code, cell(e.means))
	}
	return []byte(b.String()), nil
}

// writeCommand writes a command's section: its synopsis, what it does, and
// a table of its flags.
func writeCommand(b *strings.Builder, c refCommand) {
	fmt.Fprintf(b, "\n%s\n\n", c.heading())
	if c.group != nil {
		// The group's usage has every subcommand's synopsis: this one's,
		// with the lines that continue it.
		synopsis, _ := usageParts(c.group.usage())
		var lines []string
		for _, line := range strings.SplitAfter(synopsis, "\n") {
			switch {
			case strings.HasPrefix(line, "moviemock "+c.path+" ") || strings.TrimSpace(line) == "moviemock "+c.path:
				lines = append(lines, line)
			case strings.HasPrefix(line, "moviemock "):
				if len(lines) > 0 {
					lines = append(lines, "\x00") // the end of this one's
				}
			case len(lines) > 0 && !slices.Contains(lines, "\x00"):
				lines = append(lines, line)
			}
		}
		lines = slices.DeleteFunc(lines, func(s string) bool { return s == "\x00" })
		fmt.Fprintf(b, "```\n%s```\n", strings.Join(lines, ""))
	} else {
		synopsis, about := usageParts(c.usage())
		fmt.Fprintf(b, "```\n%s```\n\n%s\n", synopsis, about)
		if c.subs != nil {
			names := make([]string, len(c.subs))
			for i, s := range c.subs {
				names[i] = fmt.Sprintf("[%s](#%s)", s.name, anchor(c.path+" "+s.name))
			}
			fmt.Fprintf(b, "\nSubcommands: %s.\n", strings.Join(names, ", "))
			return
		}
	}
	fs := c.flags()
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n == 0 {
		fmt.Fprintf(b, "\nNo flags. `moviemock %s --help` prints this.\n", c.path)
		return
	}
	if c.env {
		fmt.Fprintf(b, "\nEvery flag can also be set by its environment variable; a flag given on the command line wins. `moviemock %s --help` prints these.\n\n", c.path)
		b.WriteString("| Flag | Value | Default | Environment | Description |\n|---|---|---|---|---|\n")
	} else {
		fmt.Fprintf(b, "\n`moviemock %s --help` prints these.\n\n", c.path)
		b.WriteString("| Flag | Value | Default | Description |\n|---|---|---|---|\n")
	}
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		usage, def := defaultNote(usage)
		if def == "" {
			def = f.DefValue
		}
		if name == "value" { // a flag.Func's: say what its default is
			name = valueKind(def)
		}
		row := []string{"`--" + f.Name + "`", code(name), code(def)}
		if c.env {
			row = append(row, "`"+envVar(f.Name)+"`")
		}
		row = append(row, cell(usage))
		fmt.Fprintf(b, "| %s |\n", strings.Join(row, " | "))
	})
}

// usageParts splits a usage text into its synopsis (the lines of the
// paragraph that begins "Usage:", that taken off and unindented) and what
// the paragraph after it says, on one line.
func usageParts(usage string) (synopsis, about string) {
	paras := strings.Split(strings.TrimSpace(usage), "\n\n")
	for len(paras) > 1 && !strings.HasPrefix(paras[0], "Usage:") {
		paras = paras[1:]
	}
	first := strings.TrimPrefix(paras[0], "Usage:")
	lines := strings.Split(strings.Trim(first, "\n"), "\n")
	indent := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if n := len(l) - len(strings.TrimLeft(l, " ")); indent < 0 || n < indent {
			indent = n
		}
	}
	var sb strings.Builder
	for _, l := range lines {
		sb.WriteString(strings.TrimRight(l[min(indent, len(l)-len(strings.TrimLeft(l, " "))):], " "))
		sb.WriteString("\n")
	}
	if len(paras) > 1 {
		about = strings.Join(strings.Fields(paras[1]), " ")
	}
	return sb.String(), about
}

// valueKind names the kind of value def is: what the flag package calls
// any flag.Func's value ("value") says nothing.
func valueKind(def string) string {
	if _, err := time.ParseDuration(def); err == nil {
		return "duration"
	}
	if _, err := strconv.Atoi(def); err == nil {
		return "int"
	}
	if _, err := parseSize(def); err == nil {
		return "size"
	}
	return "value"
}

// writeEnvironment writes the variables: those that set flags, then those
// the rest of moviemock reads, found in its source.
func writeEnvironment(b *strings.Builder, cmds []refCommand) error {
	b.WriteString("\n## Environment variables\n\n")
	b.WriteString("Each flag of a command that reads the environment can be set by `MOVIEMOCK_` and its name in capitals, `-` as `_` (`--jwt-secret`: `MOVIEMOCK_JWT_SECRET`). A flag given on the command line wins; an unusable value is a usage error naming the variable.\n\n")
	b.WriteString("| Variable | Sets | Commands |\n|---|---|---|\n")
	type setting struct {
		flag string
		cmds []string
	}
	vars := map[string]*setting{}
	for _, c := range cmds {
		if !c.env || c.flags == nil {
			continue
		}
		c.flags().VisitAll(func(f *flag.Flag) {
			v := envVar(f.Name)
			if vars[v] == nil {
				vars[v] = &setting{flag: f.Name}
			}
			vars[v].cmds = append(vars[v].cmds, fmt.Sprintf("[%s](#%s)", c.path, anchor(c.path)))
		})
	}
	names := make([]string, 0, len(vars))
	for v := range vars {
		names = append(names, v)
	}
	slices.Sort(names)
	for _, v := range names {
		fmt.Fprintf(b, "| `%s` | `--%s` | %s |\n", v, vars[v].flag, strings.Join(vars[v].cmds, ", "))
	}

	others, err := sourceVariables("../..")
	if err != nil {
		return err
	}
	for _, part := range []struct {
		title, about string
		test         bool
	}{
		{"For the test suite", "Read by the helpers of moviemock's own tests (`go test`), not by the moviemock binary.", true},
		{"Read by what moviemock writes", "Not read by moviemock: by what it writes for you to run, such as a report's curl reproductions.", false},
	} {
		var rows []sourceVariable
		for _, v := range others {
			if v.test == part.test {
				rows = append(rows, v)
			}
		}
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(b, "\n### %s\n\n%s\n\n| Variable | Package | What |\n|---|---|---|\n", part.title, part.about)
		for _, v := range rows {
			fmt.Fprintf(b, "| `%s` | `%s` | %s |\n", v.name, v.pkg, cell(v.doc))
		}
	}
	return nil
}

// A sourceVariable is an environment variable named by a constant in
// moviemock's source (beyond the flags' variables).
type sourceVariable struct {
	name, pkg, doc string
	test           bool // its package is a test helper (imports testing)
}

// sourceVariables finds the constants of the module under root whose value
// is a MOVIEMOCK_ name, with their doc comments: every variable a package
// reads by name.
func sourceVariables(root string) ([]sourceVariable, error) {
	var out []sourceVariable
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (name == "testdata" || strings.HasPrefix(name, ".") || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		test := slices.ContainsFunc(f.Imports, func(s *ast.ImportSpec) bool { return s.Path.Value == `"testing"` })
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, v := range vs.Values {
					lit, ok := v.(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					value, err := strconv.Unquote(lit.Value)
					if err != nil || !strings.HasPrefix(value, "MOVIEMOCK_") || strings.ContainsAny(value, " =") {
						continue
					}
					doc := cmp.Or(vs.Doc, vs.Comment, gd.Doc)
					text := ""
					if doc != nil {
						text = strings.Join(strings.Fields(doc.Text()), " ")
					}
					// "EnvPath names a browser…": the Go name says nothing here.
					if rest, ok := strings.CutPrefix(text, vs.Names[i].Name); ok && rest != "" {
						rest = strings.TrimLeft(rest, ", ")
						text = strings.ToUpper(rest[:1]) + rest[1:]
					}
					out = append(out, sourceVariable{name: value, pkg: filepath.ToSlash(rel), doc: text, test: test})
				}
			}
		}
		return nil
	})
	slices.SortFunc(out, func(a, b sourceVariable) int { return cmp.Compare(a.name, b.name) })
	return out, err
}

// writeControlAPI writes the control API's routes, from its OpenAPI
// document, and the panel's files.
func writeControlAPI(b *strings.Builder) error {
	sp, err := scenarios.AdminSpec()
	if err != nil {
		return err
	}
	b.WriteString("\n## Control API\n\n")
	fmt.Fprintf(b, "Under `%s` on `serve` and `proxy` (off with `--no-admin`). Without `--admin-token` it answers loopback callers only; with one, every caller must send it (`Authorization: Bearer TOKEN` or `X-Mock-Admin-Token`). Its OpenAPI document is served at `%sopenapi.json`; these are its operations.\n\n", scenarios.AdminPrefix, scenarios.AdminPrefix)
	b.WriteString("| Method | Path | What |\n|---|---|---|\n")
	for _, e := range scenarios.Endpoints(sp) {
		fmt.Fprintf(b, "| %s | `%s` | %s |\n", e.Method, e.Path, cell(e.Summary))
	}
	b.WriteString("\nThe control panel's files, served to everyone (they hold no data): ")
	paths := scenarios.PanelPaths()
	for i, p := range paths {
		paths[i] = "`" + p + "`"
	}
	b.WriteString(strings.Join(paths, ", ") + ".\n")
	return nil
}

// anchor is the anchor GitHub gives a heading of text.
func anchor(text string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}

// cell makes text fit a table cell.
func cell(text string) string {
	return strings.ReplaceAll(strings.Join(strings.Fields(text), " "), "|", `\|`)
}

// code is text as code in a cell, or nothing.
func code(text string) string {
	if text == "" {
		return ""
	}
	return "`" + strings.ReplaceAll(text, "|", `\|`) + "`"
}

// firstDifference shows where got first differs from want, a line each.
func firstDifference(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(wl), len(gl)) {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d\n  docs/reference.md: %q\n  the code says:     %q", i+1, w, g)
		}
	}
	return "(none)"
}

// No flag's usage names an environment variable itself: --help adds each
// flag's own (envVar) for the commands that read them, and a command that
// reads none must not promise one.
func TestFlagUsageNamesNoVariable(t *testing.T) {
	t.Parallel()
	for _, c := range referenceCommands() {
		if c.flags == nil {
			continue
		}
		c.flags().VisitAll(func(f *flag.Flag) {
			if strings.Contains(f.Usage, "$MOVIEMOCK_") {
				t.Errorf("moviemock %s --%s: its usage names a variable: take \"($MOVIEMOCK_…)\" out, --help adds %s from the command table", c.path, f.Name, envVar(f.Name))
			}
		})
	}
}
