package contract

import (
	"net/http"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/internal/model"
)

func TestRedactor(t *testing.T) {
	const token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJib2IifQ.c2lnbmF0dXJl"
	x := NewRedactor(Credentials{Password: "S3cr3t pass!", JWTSecret: "jwt-signing-key", Token: "Bearer " + token})
	for _, tc := range []struct {
		name        string
		req         Request
		curl, shown []string // in the reproduction, in the redacted request
		never       []string
	}{
		{"a form login", Request{Method: "POST", URL: "http://h/token", Header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}},
			Body: "username=bob&password=S3cr3t+pass%21&client_secret=abcdefgh"},
			[]string{`--data-raw 'username=bob&client_secret=%5Bredacted%5D' --data-urlencode "password=$MOVIEMOCK_PASSWORD"`},
			[]string{"password=%5Bredacted%5D"}, []string{"S3cr3t", "abcdefgh"}},
		{"a JSON body", Request{Method: "POST", URL: "http://h/users", Header: http.Header{"Content-Type": {"application/json"}},
			Body: `{"username":"bob","password":"S3cr3t pass!"}`},
			[]string{`--data-raw '{"username":"bob","password":"'"$MOVIEMOCK_PASSWORD"'"}'`},
			[]string{`"password":"[redacted]"`}, []string{"S3cr3t"}},
		{"a bearer token", Request{Method: "GET", URL: "http://h/users/me", Header: http.Header{"Authorization": {"Bearer " + token}}},
			[]string{`-H 'Authorization: Bearer '"$MOVIEMOCK_TOKEN"`}, []string{"Bearer eyJhbGci…"}, []string{token}},
		{"a cookie and a known secret in the query", Request{Method: "GET", URL: "http://h/k?q=jwt-signing-key\x01", Header: http.Header{"Cookie": {"session=abc123xyz; theme=dark"}}},
			[]string{`-H 'Cookie: '"$MOVIEMOCK_COOKIE"`, `$'http://h/k?q=[redacted]\x01'`}, []string{"session=[redacted]"}, []string{"abc123xyz", "jwt-signing-key"}},
		{"secret-named query parameters and headers, values unknown", Request{Method: "GET", URL: "http://h/feed?page=2&api_key=k9Q2z&access%5Ftoken=t0k3nv4lue&access_token[]=arr4y&key=k3y&sig=s1g#top", Header: http.Header{"X-Api-Key": {"hk-77a"}, "Accept": {"application/json"}}},
			[]string{"page=2&api_key=[redacted]&access%5Ftoken=[redacted]&access_token[]=[redacted]&key=[redacted]&sig=[redacted]#top", `-H 'X-Api-Key: '"$MOVIEMOCK_X_API_KEY"`, "Accept: application/json"},
			[]string{"api_key=[redacted]"}, []string{"k9Q2z", "t0k3nv4lue", "hk-77a", "arr4y", "k3y", "s1g"}},
		{"credentials under other names and schemes", Request{Method: "GET", URL: "http://h/cart;jsessionid=JS3SSION/items", Header: http.Header{
			"Authorization": {"SECRET rest-of-it"}, "X-Authorization": {"Bearer " + token + "x"}, "X-Trace": {"eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.c2ln"}}},
			[]string{`-H 'Authorization: '"$MOVIEMOCK_AUTHORIZATION"`, `-H 'X-Authorization: '"$MOVIEMOCK_X_AUTHORIZATION"`, `-H 'X-Trace: '"$MOVIEMOCK_X_TRACE"`, "/cart;jsessionid=[redacted]/items"},
			[]string{"Authorization[redacted]"}, []string{"SECRET", "rest-of-it", "JS3SSION", "eyJzdWIiOiJ4In0"}},
		{"basic", Request{Method: "GET", URL: "http://h/me", Header: http.Header{"Authorization": {"Basic YWxpY2U6d29uZGVy"}}},
			[]string{`-H 'Authorization: Basic '"$MOVIEMOCK_AUTHORIZATION_BASIC"`}, []string{"Basic [redacted]"}, []string{"YWxpY2U6d29uZGVy"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			curl := x.Curl(tc.req)
			shown := x.Request(tc.req)
			all := curl + "\n" + shown.URL + "\n" + shown.Body + "\n" + strings.Join(shown.Header.Values("Authorization"), "") + strings.Join(shown.Header.Values("Cookie"), "")
			for _, name := range []string{"X-Authorization", "X-Trace"} {
				all += name + strings.Join(shown.Header.Values(name), "")
			}
			for _, want := range tc.curl {
				if !strings.Contains(curl, want) {
					t.Errorf("the reproduction lacks %s:\n%s", want, curl)
				}
			}
			for _, want := range tc.shown {
				if !strings.Contains(all, want) {
					t.Errorf("the request shown lacks %s:\n%s", want, all)
				}
			}
			for _, s := range tc.never {
				if strings.Contains(all, s) {
					t.Errorf("%q shown:\n%s", s, all)
				}
			}
		})
	}
	if note := x.Note(); !strings.Contains(note, "export MOVIEMOCK_PASSWORD (the --password), MOVIEMOCK_TOKEN") ||
		!strings.Contains(note, "MOVIEMOCK_X_API_KEY (the X-Api-Key header's value)") || !strings.Contains(note, "MOVIEMOCK_AUTHORIZATION_BASIC (the credentials of the Authorization header, after Basic)") {
		t.Errorf("the note names not every variable the reproductions read: %s", note)
	}
	if got := x.Text("the secret is jwt-signing-key, the token " + token); strings.Contains(got, "jwt-signing-key") || strings.Contains(got, token) {
		t.Errorf("Text: %s", got)
	}
}

// A password that is also a common word is hidden where it stands alone,
// not inside longer names.
func TestRedactorWords(t *testing.T) {
	x := NewRedactor(Credentials{Password: "secret"})
	for in, want := range map[string]string{
		"secret":                              "[redacted]",
		`{"password":"secret"}`:               `{"password":"[redacted]"}`,
		"client_secret=secret&a=secretive":    "client_secret=[redacted]&a=secretive",
		"verified with --jwt-secret; secret.": "verified with --jwt-secret; [redacted].",
	} {
		if got := x.Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

// A secret field's value is hidden whatever it is and wherever the JSON
// is: nested, cut short, pretty-printed, quoted in a check's got; a field
// the contract marks writeOnly or format: password too.
func TestRedactorSecretFields(t *testing.T) {
	x := NewRedactor(Credentials{})
	x.fields = map[string]bool{"pin": true}
	for _, tc := range []struct{ name, in, want string }{
		{"nested", `{"user":{"name":"bob","profile":{"password":"hunter2"}}}`, `{"user":{"name":"bob","profile":{"password":"[redacted]"}}}`},
		{"in a list", `[{"api_key":"k1"},{"refresh_token":"r1"}]`, `[{"api_key":"[redacted]"},{"refresh_token":"[redacted]"}]`},
		{"pretty", "{\n  \"client_secret\" : \"abc\",\n  \"n\": 1\n}", "{\n  \"client_secret\" : \"[redacted]\",\n  \"n\": 1\n}"},
		{"cut short", `{"title":"x","password":"hunt`, `{"title":"x","password":"[redacted]"`},
		{"a number", `{"secret_number": 4711}`, `{"secret_number": "[redacted]"}`},
		{"marked by the contract", `{"pin":"1234","pins":"5"}`, `{"pin":"[redacted]","pins":"5"}`},
		{"a check's got", `got "password": "abc", want no password`, `got "password": "[redacted]", want no password`},
		{"not secret", `{"token_type":"bearer","title":"password"}`, `{"token_type":"bearer","title":"password"}`},
		{"already masked", `{"access_token":"eyJhbGci…"}`, `{"access_token":"eyJhbGci…"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := x.Text(tc.in); got != tc.want {
				t.Errorf("Text(%s) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
	req := Request{Method: "POST", URL: "http://h/users", Header: http.Header{"Content-Type": {"application/json"}},
		Body: `{"name":"bob","settings":{"api_key":"k-123456789"}}`}
	if curl := x.Curl(req); strings.Contains(curl, "k-123456789") {
		t.Errorf("the reproduction shows a nested secret: %s", curl)
	}
	if kept := keptRequest(req, model.SecretName); strings.Contains(kept.Body, "k-123456789") {
		t.Errorf("a proxy keeps a nested secret: %s", kept.Body)
	}
}

// A check's got quotes a body as a Go string, cut short: its secret fields
// are hidden too, up to where the quote ends.
func TestRedactorQuotedBody(t *testing.T) {
	x := NewRedactor(Credentials{})
	for _, tc := range []struct{ in, want string }{
		{`got 418 with body "{\"profile\":{\"api_key\":\"Zq8vX\"},\"id\":1}"`, `got 418 with body "{\"profile\":{\"api_key\":\"[redacted]\"},\"id\":1}"`},
		{`got 418 with body "{\"access_token\":\"eyJhbGciOiJIUzI1NiIsInR5cCI6"…`, `got 418 with body "{\"access_token\":\"eyJhbGci…\""…`},
	} {
		if got := x.Text(tc.in); got != tc.want {
			t.Errorf("Text(%s)\n = %s\nwant %s", tc.in, got, tc.want)
		}
	}
}
