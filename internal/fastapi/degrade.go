package fastapi

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// This file holds what the compilers do for a document that is not
// FastAPI's when they meet a construct they cannot validate as pydantic
// would: rather than refusing the operation, they compile the node
// without that keyword, or as the closest validator, and note what is not
// enforced. A FastAPI document is compiled strictly (CompileInputs): its
// answers stay byte-exact.

// Degradations collects what a lax compile did not enforce, each once, in
// the order met: "WHERE: WHAT is not enforced (WHY)".
type Degradations []string

func (d *Degradations) add(where, what, why string) {
	n := fmt.Sprintf("%s: %s is not enforced (%s)", where, what, why)
	if !slices.Contains(*d, n) {
		*d = append(*d, n)
	}
}

// unsupported is err when c is strict; otherwise it notes what at where
// as not enforced (why) and is nil: the caller compiles the node without it.
func (c *compiler) unsupported(err error, where, what, why string) error {
	if c.notes == nil {
		return err
	}
	c.notes.add(where, what, why)
	return nil
}

// lax reports whether c degrades rather than refuses.
func (c *compiler) lax() bool { return c.notes != nil }

// without is the mapping n without the keys named: a schema compiled
// again with a keyword it could not enforce left out.
func without(n *yaml.Node, drop ...string) *yaml.Node {
	out := *n
	out.Content = nil
	for i := 0; i+1 < len(n.Content); i += 2 {
		if !slices.Contains(drop, n.Content[i].Value) {
			out.Content = append(out.Content, n.Content[i], n.Content[i+1])
		}
	}
	return &out
}

// validating reports whether the mapping n says anything beside
// annotations and the keys named: a schema with constraints of its own.
func validating(n *yaml.Node, besides ...string) bool {
	for _, k := range keys(n) {
		if !annotations[k] && !strings.HasPrefix(k, "x-") && !slices.Contains(besides, k) {
			return true
		}
	}
	return false
}

// composites are the keywords that combine schemas.
var composites = []string{"allOf", "anyOf", "oneOf", "discriminator"}

// compileComposite compiles, in a lax compile, a schema combining others
// (allOf, anyOf other than Optional[X], oneOf): allOf of models is one
// model of all their fields; any other allOf a value every part accepts;
// anyOf and oneOf a value some alternative accepts (the first that does
// gives the value; that no other one does is not checked for oneOf).
// Keywords beside them (type: object with properties, say) are one more
// part every value must satisfy.
func (c *compiler) compileComposite(n *yaml.Node, where string) (*vnode, error) {
	if nb := get(n, "nullable"); nb != nil && nb.Value == "true" {
		// OpenAPI 3.0's nullable beside allOf [X]: X or null.
		return nullableOf(c.compileComposite(without(n, "nullable"), where))
	}
	var all []*vnode
	if validating(n, composites...) {
		base, err := c.compile(without(n, composites...), where, false)
		if err != nil {
			return nil, err
		}
		all = append(all, base)
	}
	if parts := get(n, "allOf"); parts != nil && parts.Kind == yaml.SequenceNode {
		for i, p := range parts.Content {
			node, err := c.compile(p, fmt.Sprintf("%s(allOf %d)", where, i), false)
			if err != nil {
				return nil, err
			}
			all = append(all, node)
		}
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		alts := get(n, k)
		if alts == nil || alts.Kind != yaml.SequenceNode || len(alts.Content) == 0 {
			continue
		}
		u := &vnode{kind: vUnion}
		for i, a := range alts.Content {
			node, err := c.compile(a, fmt.Sprintf("%s(%s %d)", where, k, i), false)
			if err != nil {
				return nil, err
			}
			u.alts = append(u.alts, node)
		}
		if k == "oneOf" {
			c.notes.add(where, "oneOf's \"exactly one\"", "a value any alternative accepts is taken")
		}
		all = append(all, u)
	}
	switch len(all) {
	case 0:
		return &vnode{kind: vAny}, nil
	case 1:
		return all[0], nil
	}
	if merged := mergeModels(all, where); merged != nil {
		return merged, nil
	}
	return &vnode{kind: vAllOf, alts: all}, nil
}

// nullableOf is node, or null.
func nullableOf(node *vnode, err error) (*vnode, error) {
	if err != nil || node.kind == vAny || node.kind == vNullable {
		return node, err
	}
	return &vnode{kind: vNullable, elem: node}, nil
}

// mergeModels is the one model whose fields are those of every part (a
// field of several parts keeps its first place and schema, and is
// required if any part requires it); nil unless every part is a model
// (or a nullable model).
func mergeModels(parts []*vnode, where string) *vnode {
	m := &vmodel{name: where}
	for _, p := range parts {
		if p.kind == vNullable {
			p = p.elem
		}
		if p.kind != vModel {
			return nil
		}
		m.forbid = m.forbid || p.model.forbid
		for _, f := range p.model.fields {
			if i := slices.IndexFunc(m.fields, func(g vfield) bool { return g.name == f.name }); i >= 0 {
				m.fields[i].required = m.fields[i].required || f.required
				continue
			}
			m.fields = append(m.fields, f)
		}
	}
	if m.forbid {
		// Each part forbids what it does not declare; together they
		// declare more than any one of them.
		m.forbid = false
	}
	return &vnode{kind: vModel, model: m}
}

// validateUnion takes the first alternative that accepts v; when none
// does, every alternative's errors are reported.
func (n *vnode) validateUnion(st *vstate, v *pyValue, out []byte) ([]byte, bool) {
	if st.spend() {
		return anyDump(st, v, out)
	}
	var items []ErrorItem
	for _, alt := range n.alts {
		sub := &vstate{loc: slices.Clone(st.loc), rawKeys: st.rawKeys, work: st.work}
		dump, ok := alt.validate(sub, v, out)
		if ok && len(sub.items) == 0 {
			st.unencodable = st.unencodable || sub.unencodable
			st.guessed = st.guessed || sub.guessed
			st.crash = st.crash || sub.crash
			return dump, true
		}
		st.crash = st.crash || sub.crash
		items = append(items, sub.items[:min(len(sub.items), maxUnionItems-len(items))]...)
	}
	if len(items) == 0 {
		st.add("union", "Input matches none of the alternatives", v, nil)
	}
	st.items = append(st.items, items...)
	return out, false
}

// maxUnionItems bounds the errors a union reports: those of its
// alternatives, in order, up to this many.
const maxUnionItems = 32

// validateAllOf holds v to every part, up to the first that refuses it;
// the value is the first part's.
func (n *vnode) validateAllOf(st *vstate, v *pyValue, out []byte) ([]byte, bool) {
	if st.spend() {
		return anyDump(st, v, out)
	}
	var first []byte
	ok := true
	for i, part := range n.alts {
		dump, good := part.validate(st, v, nil)
		if i == 0 {
			first = dump
		}
		if ok = good; !ok {
			break
		}
	}
	if !ok {
		return out, false
	}
	return append(out, first...), true
}

// anyDump takes v as it is: what a composite whose budget is spent gives.
func anyDump(st *vstate, v *pyValue, out []byte) ([]byte, bool) {
	dump, ok := appendAnyDump(out, v)
	st.unencodable = st.unencodable || !ok
	return dump, true
}
