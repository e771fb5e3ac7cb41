package fastapi

import (
	"maps"
	"testing"
)

// parseOptionsHeader is python-multipart 0.0.32's parse_options_header;
// each want is what it returns for the value (run for real), a ';' inside
// quotes not separating, an unbalanced quote taking the rest of the value.
func TestParseOptionsHeader(t *testing.T) {
	for _, tc := range []struct {
		in     string
		ctype  string
		params map[string]string
	}{
		{`";`, `";`, map[string]string{}},
		{`a; b="x;y"; c=1`, "a", map[string]string{"b": "x;y", "c": "1"}},
		{`text/plain; a="1;2;3"; b="q\";r"; c=d`, "text/plain", map[string]string{"a": "1;2;3", "b": `q";r`, "c": "d"}},
		{`x; "; y=1`, "x", map[string]string{`"; y`: "1"}},
		{`multipart/form-data; boundary="a;b"`, "multipart/form-data", map[string]string{"boundary": "a;b"}},
		{`"";";"`, `""`, map[string]string{`";"`: ""}},
	} {
		ctype, params := parseOptionsHeader(tc.in)
		if params == nil {
			params = map[string]string{}
		}
		if ctype != tc.ctype || !maps.Equal(params, tc.params) {
			t.Errorf("parseOptionsHeader(%q) = %q %v; want %q %v", tc.in, ctype, params, tc.ctype, tc.params)
		}
	}
}
