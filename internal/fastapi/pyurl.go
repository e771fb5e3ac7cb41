package fastapi

import (
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file is pydantic-core's URL validation (AnyUrl, HttpUrl: format
// uri), which parses with the url crate (2.5), the WHATWG URL Standard:
// the URL it accepts is written back as the crate serialises it
// ("http://example.com" becomes "http://example.com/"), and a URL it
// refuses is a url_parsing error whose ctx.error is the crate's
// ParseError text. The parts that pydantic's users meet are followed
// closely (special schemes, hosts, IPv4 and IPv6 addresses, ports,
// percent-encoding, dot segments); international domain names are
// lower-cased and Punycode-encoded without the full UTS #46 mapping.

// urlSchemes is what pydantic accepts for a URL type.
type urlRule struct {
	schemes []string // nil: any (AnyUrl)
	maxLen  int      // -1: none
}

// MaxURLLength is HttpUrl's max_length, which its JSON schema shows as
// maxLength: 2083: the mark of an HttpUrl (http or https only) rather
// than an AnyUrl.
const MaxURLLength = 2083

var urlSpecialPorts = map[string]string{"http": "80", "https": "443", "ws": "80", "wss": "443", "ftp": "21", "file": ""}

// validateURL is pydantic-core's url validator for what json.loads gave.
func (r *urlRule) validate(st *vstate, v *pyValue, out []byte) ([]byte, bool) {
	if v.kind != pyStr {
		st.add("url_type", "URL input should be a string or URL", v, nil)
		return out, false
	}
	if st.surrogateCrash(v) {
		return out, false
	}
	u, item := r.check(v.s)
	if item != nil {
		st.add(item.Type, item.Msg, v, item.Ctx)
		return out, false
	}
	return AppendString(out, u), true
}

// check validates s, returning the URL as pydantic writes it, or the
// error item (without loc and input).
func (r *urlRule) check(s string) (string, *ErrorItem) {
	if r.maxLen >= 0 && len(s) > r.maxLen { // bytes of UTF-8, as Rust's str::len
		return "", &ErrorItem{Type: "url_too_long", Msg: "URL should have at most " + strconv.Itoa(r.maxLen) + " characters", Ctx: []KV{{"max_length", r.maxLen}}}
	}
	u, why := parseURL(s)
	if why != "" {
		return "", &ErrorItem{Type: "url_parsing", Msg: "Input should be a valid URL, " + why, Ctx: []KV{{"error", why}}}
	}
	if r.schemes != nil {
		scheme := u[:strings.IndexByte(u, ':')]
		ok := false
		for _, sc := range r.schemes {
			ok = ok || sc == scheme
		}
		if !ok {
			quoted := make([]string, len(r.schemes))
			for i, sc := range r.schemes {
				quoted[i] = "'" + sc + "'"
			}
			expected := joinExpected(quoted)
			return "", &ErrorItem{Type: "url_scheme", Msg: "URL scheme should be " + expected, Ctx: []KV{{"expected_schemes", expected}}}
		}
	}
	return u, nil
}

// CheckURL validates a raw parameter value as an HttpUrl (http bool) or
// AnyUrl: the URL pydantic holds, or the error item without loc and input.
func CheckURL(s string, http bool) (string, *ErrorItem) {
	r := urlRule{maxLen: -1}
	if http {
		r = urlRule{schemes: []string{"http", "https"}, maxLen: MaxURLLength}
	}
	return r.check(s)
}

// parseURL parses s as the url crate does, returning its serialisation or
// why it is refused (ParseError's Display).
func parseURL(s string) (string, string) {
	if s == "" {
		return "", "input is empty" // pydantic-core's own check
	}
	s = strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	if strings.ContainsAny(s, "\t\n\r") {
		s = strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, s)
	}
	colon := -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ':' && i > 0 {
			colon = i
			break
		}
		if !(isASCIIAlpha(c) || i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			break
		}
	}
	if colon < 0 {
		return "", "relative URL without a base"
	}
	scheme := asciiLower(s[:colon])
	rest := s[colon+1:]
	defPort, special := urlSpecialPorts[scheme]
	var b strings.Builder
	b.WriteString(scheme)
	b.WriteByte(':')
	if !special {
		return parseNonSpecial(&b, rest)
	}
	if scheme == "file" {
		return parseFile(&b, rest)
	}
	rest = strings.TrimLeft(rest, `/\`)
	end := strings.IndexAny(rest, `/\?#`)
	if end < 0 {
		end = len(rest)
	}
	auth, rest := rest[:end], rest[end:]
	b.WriteString("//")
	if why := writeAuthority(&b, auth, defPort, true); why != "" {
		return "", why
	}
	writePathQueryFragment(&b, rest, true)
	return b.String(), ""
}

func parseFile(b *strings.Builder, rest string) (string, string) {
	b.WriteString("//")
	if strings.HasPrefix(rest, "//") || strings.HasPrefix(rest, `\\`) {
		rest = rest[2:]
		end := strings.IndexAny(rest, `/\?#`)
		if end < 0 {
			end = len(rest)
		}
		host := rest[:end]
		if host != "" {
			h, why := parseHost(host, true)
			if why != "" {
				return "", why
			}
			if h != "localhost" {
				b.WriteString(h)
			}
		}
		rest = rest[end:]
	}
	writePathQueryFragment(b, rest, true)
	return b.String(), ""
}

func parseNonSpecial(b *strings.Builder, rest string) (string, string) {
	if strings.HasPrefix(rest, "//") {
		rest = rest[2:]
		end := strings.IndexAny(rest, "/?#")
		if end < 0 {
			end = len(rest)
		}
		b.WriteString("//")
		if why := writeAuthority(b, rest[:end], "", false); why != "" {
			return "", why
		}
		writePathQueryFragment(b, rest[end:], false)
		return b.String(), ""
	}
	if strings.HasPrefix(rest, "/") {
		writePathQueryFragment(b, rest, false)
		return b.String(), ""
	}
	// An opaque path (mailto:a@b.c, urn:isbn:1): kept as written but for
	// control and non-ASCII characters.
	end := strings.IndexAny(rest, "?#")
	if end < 0 {
		end = len(rest)
	}
	percentEncode(b, rest[:end], func(c byte) bool { return c < ' ' || c >= 0x7f })
	writeQueryFragment(b, rest[end:], false)
	return b.String(), ""
}

// writeAuthority writes [user[:password]@]host[:port].
func writeAuthority(b *strings.Builder, auth, defPort string, special bool) string {
	hostport := auth
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		user, pass, hasPass := strings.Cut(auth[:at], ":")
		hostport = auth[at+1:]
		if user != "" || pass != "" {
			percentEncode(b, user, isUserinfoEncoded)
			if hasPass && pass != "" {
				b.WriteByte(':')
				percentEncode(b, pass, isUserinfoEncoded)
			}
			b.WriteByte('@')
		}
	}
	host, port := hostport, ""
	hasPort := false
	if i := strings.LastIndexByte(hostport, ':'); i >= 0 && !strings.Contains(hostport[i:], "]") {
		host, port, hasPort = hostport[:i], hostport[i+1:], true
	}
	if host == "" {
		if special {
			return "empty host"
		}
		if hasPort || b.Len() > 0 && strings.HasSuffix(b.String(), "@") {
			return "empty host"
		}
	}
	h, why := parseHost(host, special)
	if why != "" {
		return why
	}
	b.WriteString(h)
	if hasPort && port != "" {
		for i := 0; i < len(port); i++ {
			if port[i] < '0' || port[i] > '9' {
				return "invalid port number"
			}
		}
		n, err := strconv.ParseUint(port, 10, 64)
		if err != nil || n > 65535 {
			return "invalid port number"
		}
		if p := strconv.FormatUint(n, 10); p != defPort {
			b.WriteByte(':')
			b.WriteString(p)
		}
	}
	return ""
}

func isUserinfoEncoded(c byte) bool {
	return c <= ' ' || c >= 0x7f || strings.IndexByte("\"#<>?`{}/:;=@[\\]^|", c) >= 0
}

// parseHost is the URL Standard's host parser.
func parseHost(host string, special bool) (string, string) {
	if strings.HasPrefix(host, "[") {
		if !strings.HasSuffix(host, "]") {
			return "", "invalid IPv6 address"
		}
		a, err := netip.ParseAddr(host[1 : len(host)-1])
		if err != nil || !a.Is6() || a.Zone() != "" {
			return "", "invalid IPv6 address"
		}
		return "[" + ipv6String(a.As16()) + "]", ""
	}
	if !special {
		for i := 0; i < len(host); i++ {
			if c := host[i]; c < ' ' || c == ' ' || strings.IndexByte("#/:<>?@[\\]^|", c) >= 0 {
				return "", "invalid domain character"
			}
		}
		var b strings.Builder
		percentEncode(&b, host, func(c byte) bool { return c < ' ' || c >= 0x7f })
		return b.String(), ""
	}
	domain := percentDecode(host)
	ascii, ok := domainToASCII(domain)
	if !ok {
		return "", "invalid international domain name"
	}
	if ascii == "" {
		return "", "empty host"
	}
	if endsInNumber(ascii) {
		ip, ok := parseIPv4(ascii)
		if !ok {
			return "", "invalid IPv4 address"
		}
		return ip, ""
	}
	return ascii, ""
}

// domainToASCII lower-cases a domain and Punycode-encodes its non-ASCII
// labels; false for a code point a host cannot hold.
func domainToASCII(d string) (string, bool) {
	if !utf8.ValidString(d) {
		return "", false
	}
	for _, r := range d {
		if r <= ' ' || r == 0x7f || strings.ContainsRune("#%/:<>?@[\\]^|", r) {
			return "", false
		}
	}
	d = strings.ToLower(d)
	// The full stops IDNA maps to "." (ideographic, fullwidth, halfwidth).
	d = strings.NewReplacer("\u3002", ".", "\uff0e", ".", "\uff61", ".").Replace(d)
	labels := strings.Split(d, ".")
	for i, l := range labels {
		if !isASCII(l) {
			p, ok := punycode(l)
			if !ok {
				return "", false
			}
			labels[i] = "xn--" + p
		}
	}
	return strings.Join(labels, "."), true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// punycode is RFC 3492's encoding of one label.
func punycode(label string) (string, bool) {
	const base, tmin, tmax, skew, damp = 36, 1, 26, 38, 700
	runes := []rune(label)
	var out []byte
	for _, r := range runes {
		if r < 0x80 {
			out = append(out, byte(r))
		}
	}
	basic := len(out)
	h := basic
	if basic > 0 {
		out = append(out, '-')
	}
	digit := func(d int) byte {
		if d < 26 {
			return byte('a' + d)
		}
		return byte('0' + d - 26)
	}
	adapt := func(delta, points int, first bool) int {
		if first {
			delta /= damp
		} else {
			delta /= 2
		}
		delta += delta / points
		k := 0
		for delta > ((base-tmin)*tmax)/2 {
			delta /= base - tmin
			k += base
		}
		return k + (base-tmin+1)*delta/(delta+skew)
	}
	n, delta, bias := 128, 0, 72
	for h < len(runes) {
		m := int(^uint(0) >> 1)
		for _, r := range runes {
			if int(r) >= n && int(r) < m {
				m = int(r)
			}
		}
		if (m-n)*(h+1) < 0 || delta+(m-n)*(h+1) > 1<<30 {
			return "", false
		}
		delta += (m - n) * (h + 1)
		n = m
		for _, r := range runes {
			if int(r) < n {
				delta++
			}
			if int(r) == n {
				q := delta
				for k := base; ; k += base {
					t := k - bias
					switch {
					case t < tmin:
						t = tmin
					case t > tmax:
						t = tmax
					}
					if q < t {
						break
					}
					out = append(out, digit(t+(q-t)%(base-t)))
					q = (q - t) / (base - t)
				}
				out = append(out, digit(q))
				bias = adapt(delta, h+1, h == basic)
				delta = 0
				h++
			}
		}
		delta++
		n++
	}
	return string(out), true
}

// endsInNumber is the URL Standard's "ends in a number" checker.
func endsInNumber(host string) bool {
	parts := strings.Split(host, ".")
	if parts[len(parts)-1] == "" {
		if len(parts) == 1 {
			return false
		}
		parts = parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	if last != "" && strings.Trim(last, "0123456789") == "" {
		return true
	}
	_, ok := ipv4Number(last)
	return ok
}

func ipv4Number(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	radix := 10
	switch {
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		s, radix = s[2:], 16
	case len(s) >= 2 && s[0] == '0':
		s, radix = s[1:], 8
	}
	if s == "" {
		return 0, true
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		d := 99
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case c >= 'a' && c <= 'f':
			d = int(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = int(c-'A') + 10
		}
		if d >= radix {
			return 0, false
		}
		if n > 1<<40 {
			continue // already too large for any part; keep checking digits
		}
		n = n*uint64(radix) + uint64(d)
	}
	return n, true
}

func parseIPv4(host string) (string, bool) {
	parts := strings.Split(host, ".")
	if parts[len(parts)-1] == "" && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 4 {
		return "", false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := ipv4Number(p)
		if !ok {
			return "", false
		}
		nums[i] = n
	}
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return "", false
		}
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return "", false
	}
	ip := last
	for i, n := range nums[:len(nums)-1] {
		ip += n << (8 * (3 - i))
	}
	return strconv.FormatUint(ip>>24, 10) + "." + strconv.FormatUint(ip>>16&255, 10) + "." +
		strconv.FormatUint(ip>>8&255, 10) + "." + strconv.FormatUint(ip&255, 10), true
}

// ipv6String is the URL Standard's IPv6 serializer: the first longest
// run of two or more zero pieces compressed, no embedded IPv4.
func ipv6String(a [16]byte) string {
	var pieces [8]uint16
	for i := range pieces {
		pieces[i] = uint16(a[2*i])<<8 | uint16(a[2*i+1])
	}
	start, length := -1, 1
	for i := 0; i < 8; {
		if pieces[i] != 0 {
			i++
			continue
		}
		j := i
		for j < 8 && pieces[j] == 0 {
			j++
		}
		if j-i > length {
			start, length = i, j-i
		}
		i = j
	}
	var b strings.Builder
	for i := 0; i < 8; i++ {
		if i == start {
			if i == 0 {
				b.WriteByte(':')
			}
			b.WriteByte(':')
			i += length - 1
			continue
		}
		b.WriteString(strconv.FormatUint(uint64(pieces[i]), 16))
		if i < 7 {
			b.WriteByte(':')
		}
	}
	return b.String()
}

// writePathQueryFragment writes the path (dot segments resolved,
// percent-encoded), then the query and the fragment.
func writePathQueryFragment(b *strings.Builder, rest string, special bool) {
	end := strings.IndexAny(rest, "?#")
	if end < 0 {
		end = len(rest)
	}
	path := rest[:end]
	if special {
		path = strings.ReplaceAll(path, `\`, "/")
	}
	var segs []string
	if path != "" {
		for _, seg := range strings.Split(strings.TrimPrefix(path, "/"), "/") {
			segs = append(segs, seg)
		}
	} else if special {
		segs = []string{""}
	}
	var out []string
	for i, seg := range segs {
		last := i == len(segs)-1
		switch asciiLower(seg) {
		case "..", ".%2e", "%2e.", "%2e%2e":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		case ".", "%2e":
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, seg)
		}
	}
	for _, seg := range out {
		b.WriteByte('/')
		percentEncode(b, seg, isPathEncoded)
	}
	writeQueryFragment(b, rest[end:], special)
}

func writeQueryFragment(b *strings.Builder, rest string, special bool) {
	if rest == "" {
		return
	}
	frag, hasFrag := "", false
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest, frag, hasFrag = rest[:i], rest[i+1:], true
	}
	if q, ok := strings.CutPrefix(rest, "?"); ok {
		b.WriteByte('?')
		percentEncode(b, q, func(c byte) bool {
			return c <= ' ' || c >= 0x7f || c == '"' || c == '#' || c == '<' || c == '>' || special && c == '\''
		})
	}
	if hasFrag {
		b.WriteByte('#')
		percentEncode(b, frag, func(c byte) bool {
			return c <= ' ' || c >= 0x7f || c == '"' || c == '<' || c == '>' || c == '`'
		})
	}
}

func isPathEncoded(c byte) bool {
	return c <= ' ' || c >= 0x7f || strings.IndexByte("\"#<>?`{}", c) >= 0
}

func percentEncode(b *strings.Builder, s string, enc func(byte) bool) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; enc(c) {
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&15])
		} else {
			b.WriteByte(c)
		}
	}
}

const upperHex = "0123456789ABCDEF"

func percentDecode(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			h, _ := strconv.ParseUint(s[i+1:i+3], 16, 8)
			out = append(out, byte(h))
			i += 2
			continue
		}
		out = append(out, s[i])
	}
	return string(out)
}

func isASCIIAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
