package compare

import (
	"fmt"
	"strings"
)

// bounds end a name in a place or a text.
const bounds = "./ `'\"()"

// maxPlaceBytes bounds a change's place and text in the reports, once
// squeezed: past it they end in "…".
const maxPlaceBytes = 400

// squeeze tells a place that repeats a name in a row once with the count,
// "next×598.x" for "next.next.(598 times).x" (oasdiff's slashes alike:
// "next×598/x"), and cuts what is still longer than maxPlaceBytes. A
// chain of schemas each referring to the next is then as long to tell
// at its bottom as at its top.
func squeeze(s string) string {
	if len(s) <= maxPlaceBytes && strings.Count(s, ".")+strings.Count(s, "/") < 2 {
		return s // no run of three names
	}
	var b strings.Builder
	i := 0
	for i < len(s) {
		if strings.IndexByte(bounds, s[i]) >= 0 {
			b.WriteByte(s[i])
			i++
			continue
		}
		// A name, up to the next bound; a run is of a name and the
		// separator after it ("next." or "next/"), repeated.
		j := i
		for j < len(s) && strings.IndexByte(bounds, s[j]) < 0 {
			j++
		}
		if j == len(s) || (s[j] != '.' && s[j] != '/') {
			b.WriteString(s[i:j])
			i = j
			continue
		}
		unit := s[i : j+1]
		n, k := 1, j+1
		for strings.HasPrefix(s[k:], unit) {
			n++
			k += len(unit)
		}
		if n >= 3 {
			fmt.Fprintf(&b, "%s×%d%c", unit[:len(unit)-1], n, unit[len(unit)-1])
		} else {
			b.WriteString(s[i:k])
		}
		i = k
	}
	out := b.String()
	if len(out) > maxPlaceBytes {
		cut := maxPlaceBytes
		for cut > 0 && (out[cut]&0xC0) == 0x80 {
			cut--
		}
		out = out[:cut] + "…"
	}
	return out
}
