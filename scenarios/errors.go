package scenarios

import (
	"fmt"
	"strings"
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

// maxReported bounds how many problems one load keeps in detail.
const maxReported = 50

// Errors is every problem one load found, one a line.
type Errors struct {
	List    []*Problem
	Omitted int
}

func (e *Errors) add(p *Problem) {
	if len(e.List) < maxReported {
		e.List = append(e.List, p)
		return
	}
	e.Omitted++
}

func (e *Errors) err() error {
	if len(e.List) == 0 {
		return nil
	}
	return e
}

func (e *Errors) Error() string {
	var b strings.Builder
	n := len(e.List) + e.Omitted
	fmt.Fprintf(&b, "%d problem", n)
	if n != 1 {
		b.WriteString("s")
	}
	b.WriteString(" in scenario files")
	for _, p := range e.List {
		b.WriteString("\n  ")
		b.WriteString(p.Error())
	}
	if e.Omitted > 0 {
		fmt.Fprintf(&b, "\n  … and %d more", e.Omitted)
	}
	return b.String()
}

// Unwrap lets errors.As find each Problem.
func (e *Errors) Unwrap() []error {
	out := make([]error, len(e.List))
	for i, p := range e.List {
		out[i] = p
	}
	return out
}
