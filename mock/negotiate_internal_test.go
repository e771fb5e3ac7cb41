package mock

import "testing"

func TestAcceptQ(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		accept, declared string
		want             float64
	}{
		{"application/json", "application/json", 1},
		{"application/json", "application/xml", 0},
		{"application/*;q=0.4", "application/xml", 0.4},
		{"application/*;q=0.4, application/xml;q=0.2", "application/xml", 0.2}, // the most specific wins
		{"*/*;q=0.3", "image/png", 0.3},
		{"text/html", "*/*", 1},
		{"text/html;q=0", "text/html", 0},
		{"nonsense", "text/html", 0},
		{"TEXT/Plain; Q=0.7", "text/plain; charset=utf-8", 0.7},
	} {
		if got := acceptQ(tc.accept, tc.declared); got != tc.want {
			t.Errorf("acceptQ(%q, %q) = %v, want %v", tc.accept, tc.declared, got, tc.want)
		}
	}
}

func TestXMLName(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"pet": "pet", "1st": "_1st", "a b": "a_b", "": "item", "-x": "_-x", "ok.name-2": "ok.name-2"} {
		if got := xmlName(in); got != want {
			t.Errorf("xmlName(%q) = %q, want %q", in, got, want)
		}
	}
}
