package spec

import (
	"fmt"
	"regexp"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dlclark/regexp2/v2"
	"github.com/getkin/kin-openapi/openapi3"
)

// Matcher reports whether a string matches a compiled pattern. It is
// kin-openapi's openapi3.RegexMatcher, which *regexp.Regexp implements.
type Matcher = openapi3.RegexMatcher

// PatternMatchTimeout is the budget of one match of a pattern Go's RE2
// cannot run (a lookaround, a backreference): such a pattern backtracks,
// and a document may carry one that backtracks for ever on a crafted value
// ("(a+)+$"). A match past the budget does not match.
const PatternMatchTimeout = 100 * time.Millisecond

// maxCachedPatterns bounds the patterns CompilePattern keeps compiled: a
// long-running server reloads documents (serve --watch), each with its
// own patterns.
const maxCachedPatterns = 4096

type compiled struct {
	m   Matcher
	err error
}

var (
	patterns      sync.Map // expr -> compiled
	patternsCount atomic.Int64
)

// CompilePattern compiles a JSON Schema "pattern", an ECMA-262 regular
// expression: with Go's regexp (RE2, linear time) when RE2 takes it, as
// kin-openapi v0.152.0 does ("\uXXXX" rewritten as "\x{XXXX}"), else with
// an ECMAScript engine (dlclark/regexp2, in ECMAScript mode with the "u"
// flag, or without it for Annex B's lenient syntax), each match of it
// bounded by PatternMatchTimeout. Every reader of a document's patterns
// (kin-openapi's validation of the document and of values, generators,
// FastAPI's own rules) compiles them here, so that one pattern means one
// thing throughout. Results are cached.
func CompilePattern(expr string) (Matcher, error) {
	if c, ok := patterns.Load(expr); ok {
		c := c.(compiled)
		return c.m, c.err
	}
	m, err := compilePattern(expr)
	if patternsCount.Load() < maxCachedPatterns {
		if _, loaded := patterns.LoadOrStore(expr, compiled{m, err}); !loaded {
			patternsCount.Add(1)
		}
	}
	return m, err
}

// kinPattern is CompilePattern as kin-openapi's regex hooks take it
// (openapi3.SetRegexCompiler, openapi3.SetSchemaRegexCompiler).
func kinPattern(expr string) (openapi3.RegexMatcher, error) { return CompilePattern(expr) }

// patternCompiler is kinPattern as a schema validation option, made once.
var patternCompiler = openapi3.SetSchemaRegexCompiler(kinPattern)

func compilePattern(expr string) (Matcher, error) {
	re2, err := regexp.Compile(goRegexp(expr))
	if err == nil {
		return re2, nil
	}
	for _, opts := range []regexp2.RegexOptions{regexp2.ECMAScript | regexp2.Unicode, regexp2.ECMAScript} {
		re, e := regexp2.Compile(expr, opts)
		if e == nil {
			re.MatchTimeout = PatternMatchTimeout
			return ecmaMatcher{re}, nil
		}
	}
	return nil, fmt.Errorf("not an ECMA-262 regular expression: %w", err)
}

// codepoint is kin-openapi v0.152.0's rewrite of a pattern for RE2.
var codepoint = regexp.MustCompile(`(?P<replaced_with_slash_x>\\u)(?P<code>[0-9A-F]{4})`)

func goRegexp(expr string) string {
	return codepoint.ReplaceAllString(expr, `\x{${code}}`)
}

// ecmaMatcher is a backtracking pattern: a match that runs past its
// budget (time, or regexp2's backtracking stack) does not match.
type ecmaMatcher struct{ re *regexp2.Regexp }

func (m ecmaMatcher) MatchString(s string) bool {
	ok, err := m.re.MatchString(s)
	return ok && err == nil
}
