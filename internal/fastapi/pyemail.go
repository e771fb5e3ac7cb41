package fastapi

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// This file is pydantic's EmailStr (format email): pydantic's
// validate_email (a length limit, "Name <address>" unwrapped, white space
// stripped) around email-validator 2.x's syntax check without
// deliverability, as pydantic calls it. The error is a value_error whose
// ctx.reason is email-validator's message; an accepted address is written
// back normalised (the domain lower-cased, common mailbox names too).
// email-validator's rules for quoted local parts, domain literals and
// international domains (UTS #46, IDNA) are followed only as far as
// refusing the first two as pydantic configures it and lower-casing the
// third.

const maxEmailLength = 2048 // pydantic's MAX_EMAIL_LENGTH

// prettyEmailRE is pydantic's pretty_email_regex: an optional display
// name, then the address in angle brackets.
var prettyEmailRE = regexp.MustCompile(`^\s*(?:((?:[\w!#$%&'*+\-/=?^_` + "`" + `{|}~]+\s+)*[\w!#$%&'*+\-/=?^_` + "`" + `{|}~]+)|"((?:[^"]|\")+)")?\s*<(.+)>\s*$`)

var specialUseDomains = []string{"arpa", "invalid", "local", "localhost", "onion", "test"}

var caseInsensitiveMailboxes = []string{"info", "marketing", "sales", "support", "abuse", "noc", "security",
	"postmaster", "hostmaster", "usenet", "news", "webmaster", "www", "uucp", "ftp"}

// validateEmail is EmailStr, held to the minLength and maxLength of
// Field(min_length=…, max_length=…) as pydantic 2.13 holds it: after
// validation, on the address kept, worded as a sized value's too_short or
// too_long (field_type "Value"), not a str's.
func (n *vnode) validateEmail(st *vstate, v *pyValue, out []byte) ([]byte, bool) {
	if v.kind != pyStr {
		st.add("string_type", msgStrType, v, nil)
		return out, false
	}
	if st.surrogateCrash(v) {
		return out, false
	}
	email, reason := normaliseEmail(v.s)
	if reason != "" {
		st.add("value_error", "value is not a valid email address: "+reason, v, []KV{{"reason", reason}})
		return out, false
	}
	length := pyLen(email)
	switch {
	case n.minLen > 0 && length < n.minLen:
		st.add("too_short", "Value should have at least "+plural(n.minLen, "item")+" after validation, not "+strconv.Itoa(length), v,
			[]KV{{"field_type", "Value"}, {"min_length", n.minLen}, {"actual_length", length}})
		return out, false
	case n.maxLen >= 0 && length > n.maxLen:
		st.add("too_long", "Value should have at most "+plural(n.maxLen, "item")+" after validation, not "+strconv.Itoa(length), v,
			[]KV{{"field_type", "Value"}, {"max_length", n.maxLen}, {"actual_length", length}})
		return out, false
	}
	return AppendString(out, email), true
}

// normaliseEmail returns the address pydantic keeps, or why it refuses s.
func normaliseEmail(s string) (string, string) {
	if pyLen(s) > maxEmailLength {
		return "", fmt.Sprintf("Length must not exceed %d characters", maxEmailLength)
	}
	if m := prettyEmailRE.FindStringSubmatch(s); m != nil {
		s = m[3]
	}
	s = strings.TrimFunc(s, unicode.IsSpace)
	displayName := false
	if lt := strings.IndexAny(s, "@<"); lt >= 0 && s[lt] == '<' {
		// email-validator's split_email: a display name before "<".
		name := strings.TrimRight(s[:lt], " \t\n\r\f\v")
		if !strings.HasPrefix(name, `"`) {
			if bad := badChars(name, func(r rune) bool { return r == ' ' || r >= 0x80 || isAtext(r) }); bad != "" {
				return "", "The display name contains invalid characters when not quoted: " + bad + "."
			}
		}
		rest := s[lt:]
		if !strings.Contains(rest, ">") {
			return "", "An open angle bracket at the start of the email address has to be followed by a close angle bracket at the end."
		}
		rest = strings.TrimRight(rest, " ")
		if !strings.HasSuffix(rest, ">") {
			return "", "There can't be anything after the email address."
		}
		s = strings.TrimRight(rest[1:], ">")
		displayName = true
	}
	at := strings.IndexByte(s, '@')
	if at < 0 {
		if strings.ContainsRune(s, '＠') {
			return "", `The email address has the "full-width" at-sign (@) character instead of a regular at-sign.`
		}
		if strings.ContainsRune(s, '﹫') {
			return "", `The email address has the "small commercial at" character instead of a regular at-sign.`
		}
		return "", "An email address must have an @-sign."
	}
	local, domain := s[:at], s[at+1:]
	if strings.HasPrefix(local, `"`) {
		return "", "Quoting the part before the @-sign is not allowed here."
	}
	if local == "" {
		return "", "There must be something before the @-sign."
	}
	if bad := badChars(local, func(r rune) bool { return r >= 0x80 || r == '.' || isAtext(r) }); bad != "" {
		return "", "The email address contains invalid characters before the @-sign: " + bad + "."
	}
	if why := unsafeChars(local); why != "" {
		return "", why
	}
	if why := checkDotAtom(local, "An email address cannot start with a {}.", "An email address cannot have a {} immediately before the @-sign.", false); why != "" {
		return "", why
	}
	if lower := strings.ToLower(local); slices.Contains(caseInsensitiveMailboxes, lower) {
		local = lower
	}
	if domain == "" {
		return "", "There must be something after the @-sign."
	}
	if strings.HasPrefix(domain, "[") && strings.HasSuffix(domain, "]") {
		return "", "A bracketed IP address after the @-sign is not allowed here."
	}
	if bad := badChars(domain, func(r rune) bool {
		return r >= 0x80 || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.'
	}); bad != "" {
		return "", "The part after the @-sign contains invalid characters: " + bad + "."
	}
	if why := unsafeChars(domain); why != "" {
		return "", why
	}
	// UTS #46 in brief: full-width forms and the other full stops mapped,
	// then case folded.
	domain = strings.Map(func(r rune) rune {
		switch {
		case r >= 0xFF01 && r <= 0xFF5E:
			return r - 0xFF01 + '!'
		case r == '\u3002' || r == '\uff61':
			return '.'
		}
		return r
	}, domain)
	domain = strings.ToLower(domain)
	if why := checkDotAtom(domain, "An email address cannot have a {} immediately after the @-sign.", "An email address cannot end with a {}.", true); why != "" {
		return "", why
	}
	for _, label := range strings.Split(domain, ".") {
		if len(label) >= 4 && label[2:4] == "--" && label[:2] != "xn" {
			return "", "An email address cannot have two letters followed by two dashes immediately after the @-sign or after a period, except Punycode."
		}
	}
	ascii, _ := domainToASCII(domain)
	if ascii == "" {
		ascii = domain
	}
	if len(ascii) > 253 {
		return "", "The email address is too long after the @-sign " + tooMany(len(ascii)-253) + "."
	}
	for _, label := range strings.Split(ascii, ".") {
		if len(label) > 63 {
			return "", "After the @-sign, periods cannot be separated by so many characters " + tooMany(len(label)-63) + "."
		}
	}
	if !strings.Contains(ascii, ".") {
		return "", "The part after the @-sign is not valid. It should have a period."
	}
	if last := ascii[len(ascii)-1]; !(last >= 'a' && last <= 'z' || last >= 'A' && last <= 'Z') {
		return "", "The part after the @-sign is not valid. It is not within a valid top-level domain."
	}
	for _, d := range specialUseDomains {
		if ascii == d || strings.HasSuffix(ascii, "."+d) {
			return "", "The part after the @-sign is a special-use or reserved name that cannot be used with email."
		}
	}
	email := local + "@" + domain
	if n := len(local) + 1 + len(ascii); isASCII(local) && n > 254 {
		return "", "The email address is too long " + tooMany(n-254) + "."
	}
	if displayName {
		return "", "A display name and angle brackets around the email address are not permitted here."
	}
	return email, ""
}

func tooMany(n int) string {
	if n == 1 {
		return "(1 character too many)"
	}
	return "(" + strconv.Itoa(n) + " characters too many)"
}

func isAtext(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_!#$%&'*+-/=?^`{|}~", r)
}

// badChars lists the characters ok refuses as email-validator does:
// each shown once, sorted, joined by ", ".
func badChars(s string, ok func(rune) bool) string {
	var bad []string
	for _, r := range s {
		if !ok(r) {
			if d := charDisplay(r); !slices.Contains(bad, d) {
				bad = append(bad, d)
			}
		}
	}
	slices.Sort(bad)
	return strings.Join(bad, ", ")
}

// charDisplay is email-validator's safe_character_display: a letter,
// number, punctuation or symbol as Python's repr() writes it, anything
// else by its Unicode name (the few names here) or code point.
func charDisplay(r rune) string {
	switch {
	case r == '\\':
		return `"\"`
	case unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsPunct(r) || unicode.IsSymbol(r):
		return pyRepr(string(r))
	}
	if name, ok := unicodeNames[r]; ok {
		return name
	}
	if r < 0xFFFF {
		return fmt.Sprintf("U+%04X", r)
	}
	return fmt.Sprintf("U+%08X", r)
}

var unicodeNames = map[rune]string{
	' ': "SPACE", '\t': "CHARACTER TABULATION", '\n': "LINE FEED (LF)", '\r': "CARRIAGE RETURN (CR)",
	0xA0: "NO-BREAK SPACE", 0x200B: "ZERO WIDTH SPACE", 0x200C: "ZERO WIDTH NON-JOINER", 0x200D: "ZERO WIDTH JOINER",
	0x2028: "LINE SEPARATOR", 0x2029: "PARAGRAPH SEPARATOR", 0x3000: "IDEOGRAPHIC SPACE", 0xFEFF: "ZERO WIDTH NO-BREAK SPACE",
	0xAD: "SOFT HYPHEN", 0x202E: "RIGHT-TO-LEFT OVERRIDE", 0x2060: "WORD JOINER",
}

// unsafeChars is email-validator's check_unsafe_chars: separators
// (but for a space between words, which the character check refuses
// first) and control, format, private-use and unassigned code points.
func unsafeChars(s string) string {
	var bad []rune
	for _, r := range s {
		if r < 0x80 {
			continue
		}
		if unicode.In(r, unicode.Z, unicode.C) || !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S) {
			if !slices.Contains(bad, r) {
				bad = append(bad, r)
			}
		}
	}
	if len(bad) == 0 {
		return ""
	}
	slices.Sort(bad)
	names := make([]string, len(bad))
	for i, r := range bad {
		names[i] = charDisplay(r)
	}
	return "The email address contains unsafe characters: " + strings.Join(names, ", ") + "."
}

// checkDotAtom is email-validator's check_dot_atom.
func checkDotAtom(label, startDescr, endDescr string, hostname bool) string {
	switch {
	case strings.HasSuffix(label, "."):
		return strings.Replace(endDescr, "{}", "period", 1)
	case strings.HasPrefix(label, "."):
		return strings.Replace(startDescr, "{}", "period", 1)
	case strings.Contains(label, ".."):
		return "An email address cannot have two periods in a row."
	case !hostname:
		return ""
	case strings.HasSuffix(label, "-"):
		return strings.Replace(endDescr, "{}", "hyphen", 1)
	case strings.HasPrefix(label, "-"):
		return strings.Replace(startDescr, "{}", "hyphen", 1)
	case strings.Contains(label, ".-") || strings.Contains(label, "-."):
		return "An email address cannot have a period and a hyphen next to each other."
	}
	return ""
}

// CheckEmail validates s as pydantic's EmailStr: the address pydantic
// keeps, or why it refuses s (the value_error's reason).
func CheckEmail(s string) (string, string) { return normaliseEmail(s) }
