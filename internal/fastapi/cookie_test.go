package fastapi

import (
	"maps"
	"net/http"
	"testing"
)

// Expected maps are Starlette 1.3.1's cookie_parser on the same headers.
func TestCookies(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		headers []string
		want    map[string]string
	}{
		{"two", []string{"a=1; b=2"}, map[string]string{"a": "1", "b": "2"}},
		{"escaped quote", []string{`a="x\"y"`}, map[string]string{"a": `x"y`}},
		{"octal", []string{`a="\101\7"`}, map[string]string{"a": "A7"}},
		{"octal out of range", []string{`a="\4012"`}, map[string]string{"a": "4012"}},
		{"quote and non-ASCII net/http drops", []string{"s=\"\xd9\xa1'"}, map[string]string{"s": "\"\xd9\xa1'"}},
		{"no equals sign: empty name", []string{" =v; w"}, map[string]string{"": "w"}},
		{"later wins", []string{"a=1;a=2"}, map[string]string{"a": "2"}},
		{"headers in order", []string{"a=1", "a=3; b=4"}, map[string]string{"a": "3", "b": "4"}},
		{"quoted spaces kept", []string{`a=" q "`}, map[string]string{"a": " q "}},
		{"latin-1 white space stripped", []string{"a=\x85x\xa0"}, map[string]string{"a": "x"}},
		{"escaped newline kept", []string{"a=\"\\\n\""}, map[string]string{"a": "\\\n"}},
		{"lone quote", []string{`a="\`}, map[string]string{"a": `"\`}},
		{"empty value", []string{"a=; ;"}, map[string]string{"a": ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := http.Header{"Cookie": tc.headers}
			if got := Cookies(h); !maps.Equal(got, tc.want) {
				t.Errorf("Cookies(%q) = %q, want %q", tc.headers, got, tc.want)
			}
		})
	}
}
