package spec

import (
	"errors"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// The budgets a document is held to before anything walks it: a contract
// is outside input, and what it costs to load must be bounded by what it
// weighs, not by what it says.
const (
	// DefaultMaxBytes is the largest document loaded unless told otherwise
	// (serve, proxy, contract, fixtures and scenarios take
	// --max-spec-bytes). FastAPI documents weigh kilobytes, the largest
	// services' a few megabytes.
	DefaultMaxBytes = 16 << 20
	// MaxDepth bounds the nesting of the document, aliases expanded: a
	// FastAPI document nests about twenty levels (its models are
	// components, reached through $ref), and every reader of the document
	// walks it recursively.
	MaxDepth = 512
	// MaxEnumValues bounds the values of one enum.
	MaxEnumValues = 100_000
	// minAliasBudget and aliasRatio bound what aliases may add to a YAML
	// document: as many nodes as the document has written, or
	// minAliasBudget for a small one. A document whose aliases expand past
	// that (a "billion laughs") is refused before it is expanded.
	minAliasBudget = 100_000
	aliasRatio     = 1
)

// Limits are the budgets a load is held to.
type Limits struct {
	// MaxBytes is the largest document accepted; 0 is DefaultMaxBytes.
	MaxBytes int64
}

// LimitError is a document refused for going past a budget: Limit names
// it, Flag is the command-line flag that raises it ("" when none does).
type LimitError struct {
	Limit  string
	Flag   string
	Detail string
}

func (e *LimitError) Error() string {
	if e.Flag != "" {
		return fmt.Sprintf("%s: over the %s (raise it with %s)", e.Detail, e.Limit, e.Flag)
	}
	return fmt.Sprintf("%s: over the %s", e.Detail, e.Limit)
}

// checkTree holds a parsed document to the budgets before any other
// reader walks it: no alias may contain itself (yaml.v3 v3.0.1 parses
// x: &s {child: *s} into a node tree with a cycle, which every recursive
// reader follows until the stack gives out), aliases may not expand the
// document past its budget, nothing may nest deeper than MaxDepth once
// aliases are expanded, and no enum may have more than MaxEnumValues
// values. Each anchored node is measured once (memoised), so the check
// costs what the document weighs as written.
func checkTree(root *yaml.Node) error {
	_, err := newTreeCheck(root)
	return err
}

func newTreeCheck(root *yaml.Node) (*treeChecker, error) {
	c := &treeChecker{memo: map[*yaml.Node]treeSize{}}
	if _, err := c.walk(root, 0); err != nil {
		return c, err
	}
	budget := max(c.written*aliasRatio, minAliasBudget)
	if c.aliased > budget {
		c.line = 0
		return c, c.tooManyAliases(budget)
	}
	return c, nil
}

// CheckYAML holds any other YAML file moviemock reads (a fixture file, a
// scenario file) to a contract's budgets before it is walked: no alias
// inside the node it names, no "billion laughs", no nesting past
// MaxDepth. It returns the line of the problem (0 when it has none) and
// what it is, without the line.
func CheckYAML(root *yaml.Node) (line int, err error) {
	c, err := newTreeCheck(root)
	if err == nil {
		return 0, nil
	}
	msg := strings.TrimPrefix(err.Error(), fmt.Sprintf("line %d: ", c.line))
	return c.line, errors.New(msg)
}

type treeSize struct {
	nodes  int64 // nodes, aliases expanded
	height int   // levels below the node, aliases expanded
}

type treeChecker struct {
	line    int                     // the line of the problem found
	memo    map[*yaml.Node]treeSize // anchored nodes measured
	open    map[*yaml.Node]bool     // anchored nodes being measured
	aliased int64                   // nodes aliases expand to
	written int64                   // nodes as written, so far
}

func (c *treeChecker) tooManyAliases(budget int64) error {
	return &LimitError{Limit: "alias expansion limit", Detail: fmt.Sprintf(
		"its aliases expand to more than %d nodes (the document itself has %d; aliases may add as many, or %d)",
		budget, c.written, minAliasBudget)}
}

func (c *treeChecker) walk(n *yaml.Node, depth int) (treeSize, error) {
	if depth > MaxDepth {
		c.line = n.Line
		return treeSize{}, &LimitError{Limit: "depth limit", Detail: fmt.Sprintf(
			"line %d: nested more than %d levels deep", n.Line, MaxDepth)}
	}
	if n.Kind == yaml.AliasNode {
		target := n.Alias
		if target == nil {
			c.line = n.Line
			return treeSize{}, fmt.Errorf("line %d: alias *%s to nothing", n.Line, n.Value)
		}
		if c.open[target] {
			c.line = n.Line
			return treeSize{}, fmt.Errorf("line %d: alias *%s is inside the node it refers to (&%s, line %d): the document never ends",
				n.Line, n.Value, target.Anchor, target.Line)
		}
		size, err := c.walk(target, depth)
		if err != nil {
			return treeSize{}, err
		}
		c.aliased = capped(c.aliased + size.nodes)
		return size, nil
	}
	if size, ok := c.memo[n]; ok {
		if depth+size.height > MaxDepth {
			c.line = n.Line
			return treeSize{}, &LimitError{Limit: "depth limit", Detail: fmt.Sprintf(
				"line %d: nested more than %d levels deep", n.Line, MaxDepth)}
		}
		return size, nil
	}
	if n.Anchor != "" {
		if c.open == nil {
			c.open = map[*yaml.Node]bool{}
		}
		c.open[n] = true
		defer delete(c.open, n)
	}
	c.written++
	size := treeSize{nodes: 1}
	for i, child := range n.Content {
		s, err := c.walk(child, depth+1)
		if err != nil {
			return treeSize{}, err
		}
		size.nodes = capped(size.nodes + s.nodes)
		size.height = max(size.height, s.height+1)
		if n.Kind == yaml.MappingNode && i%2 == 1 && n.Content[i-1].Value == "enum" {
			if v := deref(child); v.Kind == yaml.SequenceNode && len(v.Content) > MaxEnumValues {
				c.line = child.Line
				return treeSize{}, &LimitError{Limit: "enum size limit", Detail: fmt.Sprintf(
					"line %d: an enum of %d values, more than %d", child.Line, len(v.Content), MaxEnumValues)}
			}
		}
	}
	if n.Anchor != "" {
		c.memo[n] = size
	}
	return size, nil
}

// capped keeps counts of expanded nodes from overflowing: aliases of
// aliases multiply (nine aliases of nine aliases, twenty levels deep, are
// 9^20 nodes), and anything past the cap is past every budget.
func capped(n int64) int64 { return min(n, 1<<50) }

func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}
