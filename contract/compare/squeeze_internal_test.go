package compare

import (
	"strings"
	"testing"
)

func TestSqueeze(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"response 200 body: next.next.next.x", "response 200 body: next×3.x"},
		{"response 200 body: next.next.x", "response 200 body: next.next.x"},
		{"added the optional property `next/next/next/next/x` to the response", "added the optional property `next×4/x` to the response"},
		{"query parameter limit", "query parameter limit"},
		{"response 200 body: a.b.a.b.c", "response 200 body: a.b.a.b.c"},
		{"response 200 body: items[].items[].items[].id", "response 200 body: items[]×3.id"},
		{"v1.2.3", "v1.2.3"},
	} {
		if got := squeeze(c.in); got != c.want {
			t.Errorf("squeeze(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	deep := "response 200 body: " + strings.Repeat("next.", 599) + "x"
	if got := squeeze(deep); got != "response 200 body: next×599.x" {
		t.Errorf("the deepest place of a chain of 600 reads %q", got)
	}
	// Names that do not repeat are cut, not told whole.
	var b strings.Builder
	for i := range 300 {
		b.WriteString("f")
		b.WriteString(strings.Repeat("o", i%7))
		b.WriteString(".")
	}
	if got := squeeze(b.String()); len(got) > maxPlaceBytes+len("…") || !strings.HasSuffix(got, "…") {
		t.Errorf("a long place without a run is %d bytes: %q", len(got), got)
	}
}
