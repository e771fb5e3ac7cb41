package main

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/fixtures"
)

// A reload's problems are logged one a line, not as one line holding them
// all with literal \n between them.
func TestLogProblemsOneALine(t *testing.T) {
	var list fixtures.Errors
	for i := range 11 {
		list.Add(&fixtures.RecordError{Origin: fmt.Sprintf("persons.yaml:%d", i+1), Kind: "person", Index: i, Field: "name", Reason: "missing"})
	}
	for _, tc := range []struct {
		name  string
		err   error
		lines int
	}{
		{"a list of problems, wrapped", fmt.Errorf("load fixtures dir: %w", &list), 12},
		{"a single error", errors.New("open dir: no such file"), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			logProblems(slog.New(slog.NewTextHandler(&out, nil)), "fixtures not reloaded", tc.err)
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			if len(lines) != tc.lines {
				t.Errorf("%d lines, want %d:\n%s", len(lines), tc.lines, out.String())
			}
			for _, l := range lines {
				if strings.Contains(l, `\n`) {
					t.Errorf("a line holds a literal \\n: %s", l)
				}
			}
		})
	}
}
