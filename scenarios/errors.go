package scenarios

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/moviemock/moviemock/internal/problems"
)

// Problem is one thing wrong with a scenario file: where, which scenario and
// rule, which field, and why.
type Problem struct {
	File     string // "scenarios/login.yaml"
	Line     int    // 1-based; 0 when the file as a whole is at fault
	Scenario string // its name, once known
	Rule     string // "rule 2" or "rule 2 (refuse)"
	Field    string // "respond.body.id"
	Reason   string
}

func (p *Problem) Error() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
	}
	b.WriteString(": ")
	if p.Scenario != "" {
		fmt.Fprintf(&b, "scenario %q: ", p.Scenario)
	}
	if p.Rule != "" {
		b.WriteString(p.Rule)
		b.WriteString(": ")
	}
	if p.Field != "" {
		b.WriteString(p.Field)
		b.WriteString(": ")
	}
	b.WriteString(p.Reason)
	return b.String()
}

// Errors is every problem one load found, one a line.
type Errors struct {
	problems.List[*Problem]
}

func (e *Errors) err() error {
	if e.Count() == 0 {
		return nil
	}
	return e
}

// Error lists the problems file by file, in line order.
func (e *Errors) Error() string {
	slices.SortStableFunc(e.Items, func(a, b *Problem) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	return e.Message(problems.Plural(e.Count(), "problem", "problems") + " in scenario files")
}
