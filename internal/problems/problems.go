// Package problems collects what is wrong with files a user wrote (fixture
// records, scenario files), so that one load reports every problem rather
// than the first: the first Max in detail, the rest counted.
package problems

import (
	"fmt"
	"strings"
)

// Max bounds how many problems one load keeps in detail.
const Max = 50

// List is every problem one load found.
type List[T error] struct {
	Items   []T
	Omitted int // further problems not kept
}

// Add records p.
func (l *List[T]) Add(p T) {
	if len(l.Items) < Max {
		l.Items = append(l.Items, p)
		return
	}
	l.Omitted++
}

// Count is how many problems were found, kept or not.
func (l *List[T]) Count() int { return len(l.Items) + l.Omitted }

// Message is summary followed by the problems, one a line.
func (l *List[T]) Message(summary string) string {
	var b strings.Builder
	b.WriteString(summary)
	for _, p := range l.Items {
		b.WriteString("\n  ")
		b.WriteString(p.Error())
	}
	if l.Omitted > 0 {
		fmt.Fprintf(&b, "\n  … and %d more", l.Omitted)
	}
	return b.String()
}

// Unwrap lets errors.As find each problem.
func (l *List[T]) Unwrap() []error {
	out := make([]error, len(l.Items))
	for i, p := range l.Items {
		out[i] = p
	}
	return out
}

// Plural is "1 thing" or "n things".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
