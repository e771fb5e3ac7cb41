package fastapi

import (
	"bytes"
	"errors"
	"maps"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseURLEncoded(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body string
		want       Form
	}{
		{"simple", "username=alice&password=x", Form{"username": "alice", "password": "x"}},
		{"last value wins", "a=1&a=2", Form{"a": "2"}},
		{"plus and escapes", "q=a+b%20c%2B", Form{"q": "a b c+"}},
		{"percent-escaped UTF-8", "n=Bj%C3%B6rk", Form{"n": "Björk"}},
		{"raw UTF-8 bytes are latin-1", "n=Bj\xc3\xb6rk", Form{"n": "BjÃ¶rk"}},
		{"invalid escape kept", "n=100%&m=%zz", Form{"n": "100%", "m": "%zz"}},
		{"bad UTF-8 escape replaced", "n=%ff%41", Form{"n": "\ufffdA"}},
		{"truncated sequence is one replacement", "n=%e2%82", Form{"n": "\ufffd"}},
		{"no equals sign", "flag&x=1", Form{"flag": "", "x": "1"}},
		{"semicolon when no ampersand follows", "a=1;b=2", Form{"a": "1", "b": "2"}},
		{"semicolon stays inside when an ampersand follows", "a=1;b=2&c=3", Form{"a": "1;b=2", "c": "3"}},
		{"empty fields skipped", "&&a=1&&", Form{"a": "1"}},
		{"empty", "", Form{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := ParseURLEncoded([]byte(tc.body)); !maps.Equal(got, tc.want) {
				t.Errorf("ParseURLEncoded(%q) = %q, want %q", tc.body, got, tc.want)
			}
		})
	}
}

func request(contentType string, body []byte) *http.Request {
	r := httptest.NewRequest("POST", "/auth/login", bytes.NewReader(body))
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	return r
}

func TestParseFormContentTypes(t *testing.T) {
	t.Parallel()
	var mp bytes.Buffer
	w := multipart.NewWriter(&mp)
	w.WriteField("username", "alice")
	w.WriteField("username", "bob")
	w.Close()

	for _, tc := range []struct {
		name, ct, body string
		want           Form
		status         int
	}{
		{"urlencoded", "application/x-www-form-urlencoded", "a=1", Form{"a": "1"}, 0},
		{"urlencoded, odd case and charset", "Application/X-WWW-Form-Urlencoded; charset=utf-8", "a=1", Form{"a": "1"}, 0},
		{"JSON is an empty form", "application/json", `{"a":1}`, Form{}, 0},
		{"no content type is an empty form", "", "a=1", Form{}, 0},
		{"multipart, last value wins", w.FormDataContentType(), mp.String(), Form{"username": "bob"}, 0},
		{"multipart without boundary", "multipart/form-data", "x", nil, 400},
		{"multipart garbage", "multipart/form-data; boundary=zz", "--zz\r\nno headers end", nil, 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseForm(request(tc.ct, []byte(tc.body)), 1<<20)
			if tc.status != 0 {
				var fe *FormError
				if !errors.As(err, &fe) || fe.Status != tc.status {
					t.Fatalf("err = %v, want a FormError with status %d", err, tc.status)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(got, tc.want) {
				t.Errorf("form = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParseFormMissingBoundaryDetail(t *testing.T) {
	t.Parallel()
	_, err := ParseForm(request("multipart/form-data", nil), 1<<20)
	var fe *FormError
	if !errors.As(err, &fe) || fe.Detail != "Missing boundary in multipart." {
		t.Fatalf("err = %v", err)
	}
}

func TestParseFormLimit(t *testing.T) {
	t.Parallel()
	body := "a=" + strings.Repeat("x", 100)
	if _, err := ParseForm(request("application/x-www-form-urlencoded", []byte(body)), 50); !errors.Is(err, ErrBodyTooLarge) {
		t.Fatalf("err = %v, want ErrBodyTooLarge", err)
	}
	if _, err := ParseForm(request("application/x-www-form-urlencoded", []byte(body)), int64(len(body))); err != nil {
		t.Fatalf("a body exactly at the limit: %v", err)
	}
}

func FuzzParseURLEncoded(f *testing.F) {
	for _, s := range []string{"username=alice&password=x", "a=1;b=2", "%e2%82", "n=Bj\xc3\xb6rk", "&&=&="} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		form := ParseURLEncoded(body)
		for k, v := range form {
			// Whatever comes in, names and values are valid UTF-8, as
			// Python strings always are.
			if !utf8.ValidString(k) || !utf8.ValidString(v) {
				t.Fatalf("invalid UTF-8 out of %q: %q=%q", body, k, v)
			}
		}
	})
}

// BenchmarkParseURLEncodedManyFields is the worst case for a parser that
// searches the rest of the body for '&' at every field.
func BenchmarkParseURLEncodedManyFields(b *testing.B) {
	body := []byte(strings.Repeat("a=1;", 1<<18))
	for b.Loop() {
		ParseURLEncoded(body)
	}
}
