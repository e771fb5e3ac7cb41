package fastapi

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// pyRegex is a str field's pattern as pydantic-core 2.46 matches it: with
// Rust's regex crate, searching (not anchored), Unicode-aware. Go's regexp
// is the same RE2 family but its \d, \w, \s and \b are ASCII-only, so the
// pattern is rewritten with the Unicode classes Rust uses (\d: Nd; \s:
// White_Space; \w: Alphabetic, M, Nd, Pc, Join_Control), and a pattern with
// \b or \B runs on a small NFA whose word boundaries use the same \w.
type pyRegex struct {
	re   *regexp.Regexp
	prog *syntax.Prog // set when the pattern has word boundaries
}

func (r *pyRegex) MatchString(s string) bool {
	if r.prog == nil {
		return r.re.MatchString(s)
	}
	return progSearch(r.prog, s)
}

// compilePattern translates a pydantic pattern; what Go cannot express as
// Rust means it is an error here, at compile time.
func compilePattern(pattern string) (*pyRegex, error) {
	translated, err := translatePattern(pattern)
	if err != nil {
		return nil, err
	}
	re, err := regexp.Compile(translated)
	if err != nil {
		return nil, fmt.Errorf("pattern %q: %w", pattern, err)
	}
	r := &pyRegex{re: re}
	parsed, err := syntax.Parse(translated, syntax.Perl)
	if err != nil {
		return nil, fmt.Errorf("pattern %q: %w", pattern, err)
	}
	if hasWordBoundary(parsed) {
		prog, err := syntax.Compile(parsed.Simplify())
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %w", pattern, err)
		}
		r.prog = prog
	}
	return r, nil
}

func hasWordBoundary(re *syntax.Regexp) bool {
	if re.Op == syntax.OpWordBoundary || re.Op == syntax.OpNoWordBoundary {
		return true
	}
	for _, sub := range re.Sub {
		if hasWordBoundary(sub) {
			return true
		}
	}
	return false
}

// translatePattern rewrites Rust's Unicode Perl classes and \u escapes in
// Go syntax, and refuses Rust syntax Go would read differently (nested
// classes and class set operations).
func translatePattern(p string) (string, error) {
	var b strings.Builder
	inClass := false
	classStart := 0
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			e := p[i+1]
			i++
			switch e {
			case 'd':
				b.WriteString(`\p{Nd}`)
			case 'D':
				b.WriteString(`\P{Nd}`)
			case 'w', 's':
				set := wordRanges()
				if e == 's' {
					set = spaceRanges()
				}
				if inClass {
					b.WriteString(set.class)
				} else {
					b.WriteString("[" + set.class + "]")
				}
			case 'W', 'S':
				set := wordRanges()
				if e == 'S' {
					set = spaceRanges()
				}
				if inClass {
					b.WriteString(set.complement)
				} else {
					b.WriteString("[^" + set.class + "]")
				}
			case 'u', 'U':
				// Rust: \u007F, \u{7F}, \U0000007F, \U{7F}.
				n := 4
				if e == 'U' {
					n = 8
				}
				var hex string
				if i+1 < len(p) && p[i+1] == '{' {
					end := strings.IndexByte(p[i+1:], '}')
					if end < 0 {
						return "", fmt.Errorf("pattern %q: unterminated \\%c{", p, e)
					}
					hex, i = p[i+2:i+1+end], i+1+end
				} else {
					if i+n >= len(p) {
						return "", fmt.Errorf("pattern %q: short \\%c escape", p, e)
					}
					hex, i = p[i+1:i+1+n], i+n
				}
				b.WriteString(`\x{` + hex + `}`)
			default:
				b.WriteByte('\\')
				b.WriteByte(e)
			}
			continue
		case c == '[' && !inClass:
			inClass, classStart = true, i
			b.WriteByte(c)
			// A ']' right after '[' or '[^' is a literal.
			if i+1 < len(p) && p[i+1] == '^' {
				b.WriteByte('^')
				i++
			}
			if i+1 < len(p) && p[i+1] == ']' {
				b.WriteByte(']')
				i++
			}
			continue
		case c == '[' && inClass:
			if strings.HasPrefix(p[i:], "[:") {
				end := strings.Index(p[i:], ":]")
				if end < 0 {
					return "", fmt.Errorf("pattern %q: unterminated [: class", p)
				}
				b.WriteString(p[i : i+end+2])
				i += end + 1
				continue
			}
			return "", fmt.Errorf("pattern %q: nested character classes (Rust regex syntax) are not implemented", p)
		case inClass && (strings.HasPrefix(p[i:], "&&") || strings.HasPrefix(p[i:], "~~") || (strings.HasPrefix(p[i:], "--") && i > classStart+1)):
			return "", fmt.Errorf("pattern %q: character class set operations (Rust regex syntax) are not implemented", p)
		case c == ']' && inClass:
			inClass = false
		}
		b.WriteByte(c)
	}
	return b.String(), nil
}

// charSet is a set of code points written as the inside of a Go character
// class, and its complement.
type charSet struct {
	class, complement string
	table             *unicode.RangeTable
}

var (
	wordRanges = sync.OnceValue(func() charSet {
		// Rust regex's \w (UTS #18 Annex C): Alphabetic, Mark,
		// Decimal_Number, Connector_Punctuation, Join_Control.
		// Alphabetic is L, Nl and Other_Alphabetic.
		return newCharSet(unicode.L, unicode.Nl, unicode.Other_Alphabetic, unicode.M, unicode.Nd, unicode.Pc, unicode.Join_Control)
	})
	spaceRanges = sync.OnceValue(func() charSet {
		return newCharSet(unicode.White_Space)
	})
)

func newCharSet(tables ...*unicode.RangeTable) charSet {
	var ranges [][2]rune
	for _, t := range tables {
		for _, r := range t.R16 {
			for lo := rune(r.Lo); lo <= rune(r.Hi); lo += rune(r.Stride) {
				if r.Stride == 1 {
					ranges = append(ranges, [2]rune{lo, rune(r.Hi)})
					break
				}
				ranges = append(ranges, [2]rune{lo, lo})
			}
		}
		for _, r := range t.R32 {
			for lo := rune(r.Lo); lo <= rune(r.Hi); lo += rune(r.Stride) {
				if r.Stride == 1 {
					ranges = append(ranges, [2]rune{lo, rune(r.Hi)})
					break
				}
				ranges = append(ranges, [2]rune{lo, lo})
			}
		}
	}
	sort.Slice(ranges, func(i, j int) bool { return ranges[i][0] < ranges[j][0] })
	var merged [][2]rune
	for _, r := range ranges {
		if n := len(merged); n > 0 && r[0] <= merged[n-1][1]+1 {
			if r[1] > merged[n-1][1] {
				merged[n-1][1] = r[1]
			}
			continue
		}
		merged = append(merged, r)
	}
	var comp [][2]rune
	next := rune(0)
	for _, r := range merged {
		if r[0] > next {
			comp = append(comp, [2]rune{next, r[0] - 1})
		}
		next = r[1] + 1
	}
	if next <= unicode.MaxRune {
		comp = append(comp, [2]rune{next, unicode.MaxRune})
	}
	table := &unicode.RangeTable{}
	for _, r := range merged {
		table.R32 = append(table.R32, unicode.Range32{Lo: uint32(r[0]), Hi: uint32(r[1]), Stride: 1})
	}
	return charSet{class: classText(merged), complement: classText(comp), table: table}
}

func classText(ranges [][2]rune) string {
	var b strings.Builder
	for _, r := range ranges {
		b.WriteString(`\x{` + strconv.FormatInt(int64(r[0]), 16) + `}`)
		if r[1] != r[0] {
			b.WriteString(`-\x{` + strconv.FormatInt(int64(r[1]), 16) + `}`)
		}
	}
	return b.String()
}

func isWordRune(r rune) bool {
	return r >= 0 && unicode.Is(wordRanges().table, r)
}

// progSearch runs prog over s as an unanchored search (a Pike VM), with
// Unicode word boundaries.
func progSearch(prog *syntax.Prog, s string) bool {
	n := len(prog.Inst)
	cur, next := make([]uint32, 0, n), make([]uint32, 0, n)
	onCur, onNext := make([]bool, n), make([]bool, n)
	decode := func(pos int) (rune, int) {
		if pos < len(s) {
			return utf8.DecodeRuneInString(s[pos:])
		}
		return -1, 0
	}
	pos := 0
	r, w := decode(0)
	flag := emptyContext(-1, r)
	for {
		if addThread(prog, &cur, onCur, uint32(prog.Start), flag) {
			return true
		}
		if pos >= len(s) {
			return false
		}
		nextPos := pos + w
		nr, nw := decode(nextPos)
		nflag := emptyContext(r, nr)
		for _, pc := range cur {
			inst := &prog.Inst[pc]
			if instMatches(inst, r) && addThread(prog, &next, onNext, inst.Out, nflag) {
				return true
			}
		}
		cur, next = next, cur[:0]
		onCur, onNext = onNext, onCur
		clear(onNext)
		pos, r, w, flag = nextPos, nr, nw, nflag
	}
}

// emptyContext is syntax.EmptyOpContext with Rust's Unicode word
// boundaries instead of ASCII ones.
func emptyContext(r1, r2 rune) syntax.EmptyOp {
	flag := syntax.EmptyOpContext(r1, r2) &^ (syntax.EmptyWordBoundary | syntax.EmptyNoWordBoundary)
	if isWordRune(r1) != isWordRune(r2) {
		return flag | syntax.EmptyWordBoundary
	}
	return flag | syntax.EmptyNoWordBoundary
}

// addThread adds pc and what it leads to without consuming input; true
// when that reaches a match.
func addThread(prog *syntax.Prog, list *[]uint32, on []bool, pc uint32, flag syntax.EmptyOp) bool {
	if on[pc] {
		return false
	}
	on[pc] = true
	inst := &prog.Inst[pc]
	switch inst.Op {
	case syntax.InstMatch:
		return true
	case syntax.InstFail:
		return false
	case syntax.InstAlt, syntax.InstAltMatch:
		return addThread(prog, list, on, inst.Out, flag) || addThread(prog, list, on, inst.Arg, flag)
	case syntax.InstNop, syntax.InstCapture:
		return addThread(prog, list, on, inst.Out, flag)
	case syntax.InstEmptyWidth:
		if syntax.EmptyOp(inst.Arg)&^flag != 0 {
			return false
		}
		return addThread(prog, list, on, inst.Out, flag)
	}
	*list = append(*list, pc)
	return false
}

func instMatches(inst *syntax.Inst, r rune) bool {
	switch inst.Op {
	case syntax.InstRune1:
		return r == inst.Rune[0]
	case syntax.InstRuneAny:
		return true
	case syntax.InstRuneAnyNotNL:
		return r != '\n'
	}
	return inst.MatchRune(r)
}
