package fake

import (
	"encoding/base64"
	"github.com/moviemock/moviemock/internal/fastapi"
	"net"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/brianvoe/gofakeit/v7"

	"github.com/moviemock/moviemock/internal/spec"
)

// knownFormats are the string formats values are made for; any other
// format is treated as none (kin-openapi v0.152.0 checks none it does not
// know).
var knownFormats = map[string]bool{
	"date": true, "date-time": true, "time": true, "duration": true,
	"uuid": true, "email": true, "idn-email": true,
	"uri": true, "url": true, "iri": true, "uri-reference": true, "iri-reference": true,
	"hostname": true, "idn-hostname": true, "ipv4": true, "ipv6": true,
	"password": true, "binary": true, "byte": true,
	"base64": true, // contentEncoding: base64 (not a format of its own)
}

// The generator reads no clock: dates come from fixed ranges.
func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

var (
	defaultSpan = span{from: day(2020, 1, 1), to: day(2025, 12, 31)}
	birthSpan   = span{from: day(1900, 1, 1), to: day(2006, 12, 31)}
	deathSpan   = span{from: day(1950, 1, 1), to: day(2025, 12, 31)}
	releaseSpan = span{from: day(1950, 1, 1), to: day(2025, 12, 31)}
	futureSpan  = span{from: day(2026, 1, 1), to: day(2027, 12, 31)}
)

var (
	emailRE = regexp.MustCompile(`^[^@]+@[^@<>",\s]+$`) // kin-openapi's FormatOfStringForEmail
	byteRE  = regexp.MustCompile(`(^$|^[a-zA-Z0-9+/\-_]*=*$)`)
	uuidRE  = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
)

// str makes a string for p: from the name's hint, else the format, else
// the pattern, else a word or two; then fitted to the length limits and
// checked, with fallbacks that end in a value that is valid whenever one is
// reachable.
func (st *state) str(p *strPlan) string {
	s, prose := st.primary(p)
	if prose {
		s = st.fit(s, p.minLen, p.maxLen)
	}
	if p.accepts(s) {
		return s
	}
	for _, ex := range p.examples {
		if p.accepts(ex) {
			return ex
		}
	}
	if len(p.res) > 0 {
		// The name's value in the pattern's alphabet: "Gainsboro_patrol"
		// for ^[a-z0-9_]{3,20}$; or its other form: "fr" for ^[a-z]{2}$.
		for _, sep := range []string{"_", "-", ""} {
			if v := slugWith(s, sep); p.accepts(v) {
				return v
			}
		}
		if p.hint != nil && p.hint.alt != nil {
			for try := 0; try < 3; try++ {
				if v := p.hint.alt(st); p.accepts(v) {
					return v
				}
			}
		}
		for try := 0; try < retries; try++ {
			v := st.f.Regex(p.regex)
			if p.accepts(v) {
				return v
			}
			if p.maxLen >= 0 && utf8.RuneCountInString(v) > p.maxLen {
				if v = cutRunes(v, p.maxLen); p.accepts(v) {
					return v
				}
			}
		}
		for _, want := range []int{p.minLen, p.minLen, 0} {
			v, ok := st.fitMatch(p.regex, want)
			if !ok {
				continue
			}
			if p.accepts(v) {
				return v
			}
			// An unanchored pattern matches inside a longer string.
			if short := p.minLen - utf8.RuneCountInString(v); short > 0 {
				room := -1
				if p.maxLen >= 0 {
					room = p.maxLen - utf8.RuneCountInString(v) - 1
				}
				pad := st.fit("", short-1, room)
				if w := pad + " " + v; !strings.HasPrefix(p.regex, "^") && p.accepts(w) {
					return w
				}
				if w := v + " " + pad; !strings.HasSuffix(p.regex, "$") && p.accepts(w) {
					return w
				}
			}
		}
		return s
	}
	if p.format != "" && p.hint != nil {
		// The name's value did not fit (too long for maxLength?): the
		// format's own.
		q := *p
		q.hint = nil
		if v, _ := st.primary(&q); p.accepts(v) {
			return v
		}
	}
	if p.format == "" {
		return st.fit(s, p.minLen, p.maxLen)
	}
	for try := 0; try < retries; try++ {
		if v, _ := st.primary(p); p.accepts(v) {
			return v
		}
	}
	if v := st.sized(p); p.accepts(v) {
		return v
	}
	return s
}

// sized makes an email, URL or host name of the length p asks for, from a
// word cut or repeated to fit.
func (st *state) sized(p *strPlan) string {
	var prefix, suffix string
	switch p.format {
	case "email", "idn-email":
		suffix = "@example.com"
		if p.maxLen >= 0 && p.maxLen < 16 {
			suffix = "@ex.io"
		}
	case "uri", "url", "iri", "uri-reference", "iri-reference":
		prefix, suffix = "https://", ".io"
	case "hostname", "idn-hostname":
		suffix = ".io"
	default:
		return ""
	}
	fixed := utf8.RuneCountInString(prefix + suffix)
	min, max := p.minLen-fixed, p.maxLen-fixed
	if p.maxLen < 0 {
		max = -1
	}
	word := lowerWord(st.f)
	if n := utf8.RuneCountInString(word); n < min {
		var b strings.Builder
		b.WriteString(word)
		for n < min {
			w := lowerWord(st.f)
			b.WriteString(w)
			n += utf8.RuneCountInString(w)
		}
		word = b.String()
	}
	if max >= 1 && utf8.RuneCountInString(word) > max {
		word = cutRunes(word, max)
	}
	return prefix + word + suffix
}

// primary is the first candidate for p, and whether it is prose (which may
// be cut or padded to a length).
func (st *state) primary(p *strPlan) (string, bool) {
	if h := p.hint; h != nil {
		if h.str != nil {
			return h.str(st), h.text
		}
		if h.span != nil {
			return st.date(p), false
		}
	}
	switch p.format {
	case "":
	case "date", "date-time", "time":
		return st.date(p), false
	case "duration":
		return "PT" + strconv.Itoa(st.f.IntRange(1, 3)) + "H" + strconv.Itoa(st.f.IntRange(0, 59)) + "M", false
	case "uuid":
		return st.f.UUID(), false
	case "email", "idn-email":
		return st.f.Email(), false
	case "uri", "url", "iri", "uri-reference", "iri-reference":
		return st.f.URL(), false
	case "hostname", "idn-hostname":
		return st.f.DomainName(), false
	case "ipv4":
		return st.f.IPv4Address(), false
	case "ipv6":
		return st.f.IPv6Address(), false
	case "password":
		return st.f.Password(true, true, true, false, false, 12), false
	case "binary":
		return st.f.Sentence(), true
	case "base64":
		return base64.StdEncoding.EncodeToString([]byte(st.shortString())), false
	case "byte":
		b := make([]byte, st.f.IntRange(6, 24))
		for i := range b {
			b[i] = byte(st.f.IntN(256))
		}
		return base64.StdEncoding.EncodeToString(b), false
	}
	if len(p.res) > 0 {
		return st.f.Regex(p.regex), false
	}
	return st.shortString(), true
}

// shortString is an unconstrained string: a word or two.
func (st *state) shortString() string {
	if st.chance(50) {
		return lowerWord(st.f)
	}
	return strings.ToLower(st.f.AdjectiveDescriptive()) + " " + lowerWord(st.f)
}

func lowerWord(f *gofakeit.Faker) string { return strings.ToLower(f.NounCommon()) }

// date writes a date in p's span in p's format: pydantic's UTC form for a
// date-time (microseconds only when there are some; one value in five has
// them, as a database's now() would), YYYY-MM-DD for a date. A death comes
// at least 18 years after the birth written before it, an update at or
// after the creation.
func (st *state) date(p *strPlan) string {
	format := p.format
	if format == "" {
		format = "date-time"
		if p.date {
			format = "date"
		}
	}
	from, to := p.span.from, p.span.to
	if p.span.rel == relDeath && !st.born.IsZero() {
		from = st.born.AddDate(18, 0, 0)
		if !from.Before(to) {
			to = from.AddDate(1, 0, 0)
		}
	}
	t := st.f.DateRange(from, to).Truncate(time.Second)
	if format == "date-time" && st.chance(20) {
		t = t.Add(time.Duration(st.f.IntRange(1, 999999)) * time.Microsecond)
	}
	switch p.span.rel {
	case relBirth:
		st.born = t
	case relCreated:
		st.created = t
	case relUpdated:
		if !st.created.IsZero() {
			t = st.created // as written: most records were never edited
			if st.chance(40) {
				t = t.Add(time.Duration(st.f.IntRange(1, 90*24*3600)) * time.Second)
			}
		}
	}
	switch format {
	case "date":
		return t.Format(time.DateOnly)
	case "time":
		return st.g.timeOf(t)
	}
	return st.g.dateTime(t)
}

// accepts reports whether s is valid for p (its enum aside).
func (p *strPlan) accepts(s string) bool {
	if n := utf8.RuneCountInString(s); n < p.minLen || p.maxLen >= 0 && n > p.maxLen {
		return false
	}
	for _, re := range p.res {
		if !re.MatchString(s) {
			return false
		}
	}
	for _, m := range p.ecma {
		if !m.MatchString(s) {
			return false
		}
	}
	switch p.format {
	case "date":
		_, err := time.Parse(time.DateOnly, s)
		return err == nil
	case "date-time":
		_, err := spec.ParseDateTime(s)
		return err == nil
	case "byte":
		return byteRE.MatchString(s)
	case "base64":
		_, err := base64.StdEncoding.DecodeString(s)
		return err == nil
	case "email", "idn-email":
		// What pydantic's EmailStr accepts, which is stricter than the
		// format (a special-use domain, a dot before the @).
		_, why := fastapi.CheckEmail(s)
		return emailRE.MatchString(s) && why == ""
	case "uuid":
		return uuidRE.MatchString(s)
	case "ipv4":
		ip := net.ParseIP(s)
		return ip != nil && ip.To4() != nil
	case "ipv6":
		return net.ParseIP(s) != nil && strings.Contains(s, ":")
	}
	return true
}

// fit cuts prose to at most max runes (at a word boundary when it can) and
// pads it to at least min with more words, counting runes as pydantic does.
func (st *state) fit(s string, min, max int) string {
	if max >= 0 && utf8.RuneCountInString(s) > max {
		s = cutWords(s, min, max)
	}
	// Grown a word or a sentence at a time, its length counted as it
	// grows: linear in min, not min² (recounting a 400,000-character
	// string at every word took 15 s).
	if n := utf8.RuneCountInString(s); n < min {
		var b strings.Builder
		b.WriteString(s)
		for n < min {
			var add string
			switch cur := b.String(); {
			case cur == "":
				add = st.f.Word()
			case min-n > 40 && strings.ContainsAny(cur[len(cur)-1:], ".!?"):
				add = " " + st.f.Sentence()
			default:
				add = " " + lowerWord(st.f)
			}
			b.WriteString(add)
			n += utf8.RuneCountInString(add)
		}
		s = b.String()
	}
	if max >= 0 && utf8.RuneCountInString(s) > max {
		s = cutWords(s, min, max)
	}
	return s
}

// cutWords shortens s to at most max runes: after the last full sentence
// that keeps at least half of it, else at the last space, else exactly at
// max; never below min.
func cutWords(s string, min, max int) string {
	cut := cutRunes(s, max)
	if len(cut) < len(s) {
		for i := len(cut) - 1; i > 0; i-- {
			if c := cut[i]; (c == '.' || c == '!' || c == '?') && (i+1 == len(cut) || cut[i+1] == ' ' || s[i+1] == ' ') {
				if w := cut[:i+1]; utf8.RuneCountInString(w) >= min && utf8.RuneCountInString(w) >= max/2 {
					return w
				}
				break
			}
		}
		if s[len(cut)] != ' ' {
			if i := strings.LastIndexByte(cut, ' '); i > 0 {
				if w := strings.TrimRight(cut[:i], " ,;:-"); utf8.RuneCountInString(w) >= min && w != "" {
					return w
				}
			}
		}
	}
	if w := strings.TrimRight(cut, " ,;:-"); utf8.RuneCountInString(w) >= min && w != "" {
		return w
	}
	return cut
}

func cutRunes(s string, n int) string {
	i := 0
	for k := range s {
		if i == n {
			return s[:k]
		}
		i++
	}
	return s
}

// slugWith lower-cases s and joins its letters and digits with sep.
func slugWith(s, sep string) string {
	var b strings.Builder
	gap := false
	for _, r := range strings.ToLower(s) {
		if r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			if gap && b.Len() > 0 {
				b.WriteString(sep)
			}
			b.WriteRune(r)
			gap = false
		} else {
			gap = true
		}
	}
	return b.String()
}

func slug(s string) string { return slugWith(s, "-") }

// fitMatch builds a string the pattern matches, of at least want runes
// when the pattern allows: repetitions take their minimum count, plus what
// reaching want needs; characters are drawn from their class (letters and
// digits first). The fallback for when gofakeit's Regex keeps missing the
// length limits: in v7.18.1 its "+" and "*" re-draw their bound on every
// iteration, so long matches are rare.
func (st *state) fitMatch(pattern string, want int) (string, bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", false
	}
	need := want - minMatch(re)
	var b strings.Builder
	ok := true
	var walk func(re *syntax.Regexp)
	walk = func(re *syntax.Regexp) {
		switch re.Op {
		case syntax.OpLiteral:
			for _, r := range re.Rune {
				b.WriteRune(r)
			}
		case syntax.OpCharClass:
			if len(re.Rune) == 0 {
				ok = false
				return
			}
			b.WriteRune(st.classRune(re.Rune))
		case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
			b.WriteByte(byte('a' + st.f.IntN(26)))
		case syntax.OpCapture:
			walk(re.Sub[0])
		case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
			lo, hi := 0, -1
			switch re.Op {
			case syntax.OpPlus:
				lo = 1
			case syntax.OpQuest:
				hi = 1
			case syntax.OpRepeat:
				lo, hi = re.Min, re.Max
			}
			n := lo
			if per := minMatch(re.Sub[0]); need > 0 && per > 0 {
				extra := (need + per - 1) / per
				if hi >= 0 {
					extra = min(extra, hi-lo)
				}
				n += extra
				need -= extra * per
			}
			for i := 0; i < n; i++ {
				walk(re.Sub[0])
			}
		case syntax.OpConcat:
			for _, s := range re.Sub {
				walk(s)
			}
		case syntax.OpAlternate:
			walk(re.Sub[st.f.IntN(len(re.Sub))])
		case syntax.OpNoMatch:
			ok = false
		}
	}
	walk(re)
	return b.String(), ok
}

// minMatch is the length of the shortest string re matches.
func minMatch(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune)
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1
	case syntax.OpCapture, syntax.OpPlus:
		return minMatch(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min * minMatch(re.Sub[0])
	case syntax.OpConcat:
		n := 0
		for _, s := range re.Sub {
			n += minMatch(s)
		}
		return n
	case syntax.OpAlternate:
		n := -1
		for _, s := range re.Sub {
			if m := minMatch(s); n < 0 || m < n {
				n = m
			}
		}
		return max(n, 0)
	}
	return 0
}

// classRune draws a character from a class: a letter or digit when it has
// some (a negated class spans all of Unicode).
func (st *state) classRune(ranges []rune) rune {
	var plain []rune
	for _, want := range [][2]rune{{'a', 'z'}, {'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'-', '-'}} {
		for i := 0; i+1 < len(ranges); i += 2 {
			for r := max(ranges[i], want[0]); r <= min(ranges[i+1], want[1]); r++ {
				plain = append(plain, r)
			}
		}
	}
	if len(plain) > 0 {
		return plain[st.f.IntN(len(plain))]
	}
	lo, hi := ranges[0], min(ranges[1], ranges[0]+25)
	return lo + rune(st.f.IntN(int(hi-lo)+1))
}
