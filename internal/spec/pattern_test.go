package spec

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestCompilePattern(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, expr string
		re2        bool // RE2 takes it (the fast engine)
		match, not []string
	}{
		{"plain", `^[a-z]+$`, true, []string{"abc"}, []string{"ab1", ""}},
		{"codepoint escape", `^\u00E9+$`, true, []string{"éé"}, []string{"e"}},
		{"unicode class", `^\p{Lu}`, true, []string{"Élan"}, []string{"élan"}},
		{"negative lookahead", `^(?!\.)[A-Za-z0-9.]+@example\.com$`, false, []string{"a.b@example.com"}, []string{".ab@example.com", "a@example.org"}},
		{"positive lookahead", `^(?=.*\d)(?=.*[a-z]).{8,}$`, false, []string{"abcdefg1"}, []string{"abcdefgh", "12345678", "a1"}},
		{"backreference", `^(['"]).*\1$`, false, []string{`"x"`, `'y'`}, []string{`"x'`}},
		{"lookbehind", `(?<=\$)\d+`, false, []string{"cost $12"}, []string{"cost 12"}},
		{"named group backreference", `^(?<q>a|b)\k<q>$`, false, []string{"aa", "bb"}, []string{"ab"}},
		{"Annex B identity escape", `^(?=x)\-\a$`, false, nil, []string{"x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, err := CompilePattern(tc.expr)
			if err != nil {
				t.Fatal(err)
			}
			if _, re2 := m.(*regexp.Regexp); re2 != tc.re2 {
				t.Errorf("compiled by RE2: %v, want %v", re2, tc.re2)
			}
			for _, s := range tc.match {
				if !m.MatchString(s) {
					t.Errorf("%q does not match", s)
				}
			}
			for _, s := range tc.not {
				if m.MatchString(s) {
					t.Errorf("%q matches", s)
				}
			}
			again, _ := CompilePattern(tc.expr)
			if again != m {
				t.Errorf("compiled twice, not cached")
			}
		})
	}
	for _, expr := range []string{`(`, `[a-`, `a{2,1}(?!x)`, `(?<=a`} {
		if _, err := CompilePattern(expr); err == nil || !strings.Contains(err.Error(), "not an ECMA-262 regular expression") {
			t.Errorf("CompilePattern(%q) = %v, want it refused", expr, err)
		}
	}
}

// A pattern that backtracks for ever on a crafted value gives up within
// its budget, and the value does not match: not a speed test, a hang guard
// (the deadline is a hundred budgets).
func TestCompilePatternBacktrackingBudget(t *testing.T) {
	t.Parallel()
	m, err := CompilePattern(`^(?=a)(a|aa)+(?!b)c$`)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if m.MatchString(strings.Repeat("a", 5000) + "!") {
		t.Error("matched")
	}
	if took := time.Since(start); took > 100*PatternMatchTimeout {
		t.Errorf("took %v", took)
	}
}

// A document whose patterns are ECMA-262 but not RE2 loads, and values are
// checked against them; an invalid pattern is still refused.
func TestLoadAcceptsECMAPatterns(t *testing.T) {
	t.Parallel()
	const doc = `openapi: VERSION
info: {title: ecma pattern, version: "1"}
paths:
  /things:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Thing"}
      responses:
        "200": {description: OK}
components:
  schemas:
    Thing:
      type: object
      properties:
        email: {type: string, pattern: "^(?!\\.)[A-Za-z0-9.]+@example\\.com$"}
        kind: {type: string, pattern: "PATTERN"}
EXTRA`
	const tagged = `    Tagged:
      type: object
      required: [tag]
      properties:
        tag: {type: string, pattern: "^(?!x)"}
        v: {type: integer}
      dependentRequired: {v: [tag]}
`
	for _, version := range []string{"3.0.3", "3.1.0"} {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			extra := ""
			if version == "3.1.0" {
				extra = tagged
			}
			text := strings.NewReplacer("VERSION", version, "PATTERN", `^(['\"]?)[a-z]+\\1$`, "EXTRA", extra).Replace(doc)
			sp, err := Load([]byte(text), "ecma.yaml")
			if err != nil {
				t.Fatal(err)
			}
			thing := sp.Schema("Thing")
			for _, tc := range []struct {
				value map[string]any
				ok    bool
			}{
				{map[string]any{"email": "a.b@example.com", "kind": "'x'"}, true},
				{map[string]any{"email": ".ab@example.com"}, false},
				{map[string]any{"kind": `'x"`}, false},
			} {
				if err := sp.Validate(thing, tc.value, false); (err == nil) != tc.ok {
					t.Errorf("Validate(%v) = %v, want ok %v", tc.value, err, tc.ok)
				}
			}
			if version == "3.1.0" {
				// A 3.1 schema kin-openapi v0.152.0 gives its JSON Schema
				// 2020-12 validator, which compiles patterns with RE2:
				// it falls back to the built-in one, which uses ours.
				tagged := sp.Schema("Tagged")
				if err := sp.Validate(tagged, map[string]any{"tag": "ab"}, false); err != nil {
					t.Errorf("Validate(Tagged, ab) = %v", err)
				}
				if err := sp.Validate(tagged, map[string]any{"tag": "xb"}, false); err == nil {
					t.Errorf("Validate(Tagged, xb) accepted it")
				}
			}
			bad := strings.NewReplacer("VERSION", version, "PATTERN", `^(?<=x`, "EXTRA", "").Replace(doc)
			if _, err := Load([]byte(bad), "bad.yaml"); err == nil || !strings.Contains(err.Error(), "not an ECMA-262 regular expression") {
				t.Errorf("a broken pattern: %v", err)
			}
		})
	}
}
