package fastapi

import (
	"strconv"
	"unicode/utf8"
)

// parseUUID is the uuid crate's Uuid::parse_str (1.23), which pydantic-core
// uses for a UUID field given a string: 32 hex digits, the hyphenated form,
// braced or as a URN. The error text is the crate's Display of its Error,
// which pydantic puts in ctx.error. The UUID comes back as Python's str()
// writes it: lower case, hyphenated.
func parseUUID(s string) (string, string) {
	var hex string
	switch {
	case len(s) == 32:
		hex = s
	case len(s) == 36:
		hex = dehyphenate(s)
	case len(s) == 38 && s[0] == '{' && s[37] == '}':
		hex = dehyphenate(s[1:37])
	case len(s) == 45 && s[:9] == "urn:uuid:":
		hex = dehyphenate(s[9:])
	}
	if len(hex) == 32 && isHexString(hex) {
		b := []byte(asciiLower(hex))
		out := make([]byte, 0, 36)
		out = append(out, b[0:8]...)
		out = append(out, '-')
		out = append(out, b[8:12]...)
		out = append(out, '-')
		out = append(out, b[12:16]...)
		out = append(out, '-')
		out = append(out, b[16:20]...)
		out = append(out, '-')
		out = append(out, b[20:32]...)
		return string(out), ""
	}
	return "", uuidError(s)
}

// dehyphenate returns the 32 digits of a hyphenated UUID, or "" when the
// hyphens are not where they belong.
func dehyphenate(s string) string {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return ""
	}
	return s[0:8] + s[9:13] + s[14:18] + s[19:23] + s[24:36]
}

func isHexString(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isHex(s[i]) {
			return false
		}
	}
	return true
}

// uuidError is InvalidUuid::into_err: why s is no UUID. Like the crate,
// it looks at the inner part of a braced or URN form only when the whole
// had the right length for one (parse_str passes that inner slice).
func uuidError(input string) string {
	if (len(input) == 38 && input[0] == '{' && input[37] == '}') || (len(input) == 45 && input[:9] == "urn:uuid:") {
		if len(input) == 38 {
			input = input[1:37]
		} else {
			input = input[9:]
		}
	}
	s, offset, simple := input, 0, true
	switch {
	case len(s) >= 2 && s[0] == '{' && s[len(s)-1] == '}':
		s, offset, simple = s[1:len(s)-1], 1, false
	case len(s) >= 9 && s[:9] == "urn:uuid:":
		s, offset, simple = s[9:], 9, false
	}
	hyphens := 0
	var bounds [4]int
	for i, r := range s {
		switch {
		case r >= utf8.RuneSelf:
			return "invalid character: found `" + string(r) + "` at " + strconv.Itoa(i+offset+1)
		case r == '-':
			if hyphens < 4 {
				bounds[hyphens] = i
			}
			hyphens++
		case !isHex(byte(r)):
			return "invalid character: found `" + string(r) + "` at " + strconv.Itoa(i+offset+1)
		}
	}
	switch {
	case hyphens == 0 && simple:
		return "invalid length: expected length 32 for simple format, found " + strconv.Itoa(len(input))
	case hyphens != 4:
		return "invalid group count: expected 5, found " + strconv.Itoa(hyphens+1)
	}
	starts := [5]int{0, 9, 14, 19, 24}
	expected := [5]int{8, 4, 4, 4, 12}
	for i := 0; i < 4; i++ {
		if bounds[i] != starts[i+1]-1 {
			return "invalid group length in group " + strconv.Itoa(i) + ": expected " + strconv.Itoa(expected[i]) +
				", found " + strconv.Itoa(bounds[i]-starts[i])
		}
	}
	return "invalid group length in group 4: expected 12, found " + strconv.Itoa(len(input)-starts[4])
}

func validateUUID(st *vstate, v *pyValue, out []byte) ([]byte, bool) {
	if v.kind != pyStr {
		st.add("uuid_type", "UUID input should be a string, bytes or UUID object", v, nil)
		return out, false
	}
	if st.surrogateCrash(v) {
		return out, false
	}
	u, err := parseUUID(v.s)
	if err != "" {
		st.add("uuid_parsing", "Input should be a valid UUID, "+err, v, []KV{{"error", err}})
		return out, false
	}
	out = append(out, '"')
	out = append(out, u...)
	return append(out, '"'), true
}
