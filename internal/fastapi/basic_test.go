package fastapi

import "testing"

// What FastAPI 0.141's HTTPBasic takes, as the real app answered.
func TestBasicCredentials(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		header string
		ok     bool
	}{
		{"", false},
		{"Bearer x", false},
		{"Basic !!!", false},
		{"Basic YWJj", false},     // "abc": no colon
		{"Basic YWJ", false},      // bad padding
		{"Basic YTpi", true},      // "a:b"
		{"bAsIc YTpi", true},      // the scheme in any case
		{"Basic YT pi", true},     // bytes outside the alphabet dropped
		{"Basic w6k6Yg==", false}, // "é:b" is not ASCII
		{"Basic Og==", true},      // ":" alone
	} {
		if got := BasicCredentials(tc.header); got != tc.ok {
			t.Errorf("BasicCredentials(%q) = %v, want %v", tc.header, got, tc.ok)
		}
	}
}
