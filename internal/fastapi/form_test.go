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
		want       fields
	}{
		{"simple", "username=alice&password=x", fields{"username": "alice", "password": "x"}},
		{"last value wins", "a=1&a=2", fields{"a": "2"}},
		{"plus and escapes", "q=a+b%20c%2B", fields{"q": "a b c+"}},
		{"percent-escaped UTF-8", "n=Bj%C3%B6rk", fields{"n": "Björk"}},
		{"raw UTF-8 bytes are latin-1", "n=Bj\xc3\xb6rk", fields{"n": "BjÃ¶rk"}},
		{"invalid escape kept", "n=100%&m=%zz", fields{"n": "100%", "m": "%zz"}},
		{"bad UTF-8 escape replaced", "n=%ff%41", fields{"n": "\ufffdA"}},
		{"truncated sequence is one replacement", "n=%e2%82", fields{"n": "\ufffd"}},
		{"no equals sign", "flag&x=1", fields{"flag": "", "x": "1"}},
		{"semicolon is no separator (python-multipart 0.0.30)", "a=1;b=2", fields{"a": "1;b=2"}},
		{"semicolon stays inside when an ampersand follows", "a=1;b=2&c=3", fields{"a": "1;b=2", "c": "3"}},
		{"a field of exactly 1 MiB", "n=" + strings.Repeat("x", MaxPartSize-1), fields{"n": strings.Repeat("x", MaxPartSize-1)}},
		{"1000 fields", strings.Repeat("a=1&", MaxFormFields), fields{"a": "1"}},
		{"empty fields skipped", "&&a=1&&", fields{"a": "1"}},
		{"empty", "", fields{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got, err := ParseURLEncoded([]byte(tc.body)); err != nil || !maps.Equal(got.Fields, tc.want) {
				t.Errorf("ParseURLEncoded(%q) = %q, %v, want %q", tc.body, got.Fields, err, tc.want)
			}
		})
	}
}

// fields is a form of text fields only.
type fields = map[string]string

// Starlette's per-field and field-count limits are 400s, the first broken
// in the body winning.
func TestParseURLEncodedLimits(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, body, detail string }{
		{"field over 1 MiB", "n=" + strings.Repeat("x", MaxPartSize-1) + "y", DetailFieldTooLarge},
		{"name without value over 1 MiB", strings.Repeat("x", MaxPartSize+1), DetailFieldTooLarge},
		{"1001 fields", strings.Repeat("a=1&", MaxFormFields+1), DetailTooManyFields},
		{"the big field comes first", "n=" + strings.Repeat("x", MaxPartSize) + strings.Repeat("&a=1", MaxFormFields+1), DetailFieldTooLarge},
		{"the count comes first", strings.Repeat("a=1&", MaxFormFields+1) + "n=" + strings.Repeat("x", MaxPartSize), DetailTooManyFields},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := ParseURLEncoded([]byte(tc.body))
			var fe *FormError
			if !errors.As(err, &fe) || fe.Status != 400 || fe.Detail != tc.detail {
				t.Fatalf("err = %v, want 400 %q", err, tc.detail)
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
		want           fields
		status         int
	}{
		{"urlencoded", "application/x-www-form-urlencoded", "a=1", fields{"a": "1"}, 0},
		{"urlencoded, odd case", "Application/X-WWW-Form-Urlencoded", "a=1", fields{"a": "1"}, 0},
		{"urlencoded, charset", "application/x-www-form-urlencoded; charset=utf-8", "a=1", fields{"a": "1"}, 0},
		// python-multipart lower-cases the media type only when it has no
		// parameters, and Starlette compares it as it is.
		{"urlencoded, odd case and charset is no form", "Application/X-WWW-Form-Urlencoded; charset=utf-8", "a=1", fields{}, 0},
		{"JSON is an empty form", "application/json", `{"a":1}`, fields{}, 0},
		{"no content type is an empty form", "", "a=1", fields{}, 0},
		{"multipart, last value wins", w.FormDataContentType(), mp.String(), fields{"username": "bob"}, 0},
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
			if !maps.Equal(got.Fields, tc.want) {
				t.Errorf("form = %q, want %q", got.Fields, tc.want)
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
		form, _ := ParseURLEncoded(body)
		for k, v := range form.Fields {
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
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		ParseURLEncoded(body)
	}
}
