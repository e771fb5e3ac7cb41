package contract

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// A secret path parameter's value (a reset token, an API key) is shown
// redacted wherever a report shows the request: the request line of the
// text, the JSON's URL, the curl reproduction, JUnit and HTML. It is
// found by its place in the case's template: by name, by what the
// contract marks (format: password), under the server's base path.
func TestReportRedactsSecretPathParameters(t *testing.T) {
	marked := &operation{item: &openapi3.PathItem{}, op: &openapi3.Operation{Parameters: openapi3.Parameters{
		{Value: &openapi3.Parameter{Name: "code", In: "path", Schema: openapi3.NewSchemaRef("", &openapi3.Schema{Format: "password", WriteOnly: true})}},
	}}}
	for _, tc := range []struct {
		name     string
		template string
		op       *operation
		url      string
		secret   string
		shown    string
	}{
		{"by name", "/reset-password/{token}", nil, "http://h/reset-password/Zr7Kq2MvX9?lang=en", "Zr7Kq2MvX9", "http://h/reset-password/[redacted]?lang=en"},
		{"by the contract's schema", "/codes/{code}", marked, "http://h/codes/hunter22x", "hunter22x", "http://h/codes/[redacted]"},
		{"under a base path, an id kept", "/users/{user_id}/api-keys/{api_key}", nil, "http://h/api/v1/users/7/api-keys/k9Q2zk9Q2z", "k9Q2zk9Q2z", "http://h/api/v1/users/7/api-keys/[redacted]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &Case{Index: 1, Method: "GET", Path: tc.template, Name: "a case", op: tc.op,
				Request: Request{Method: "GET", URL: tc.url, Header: http.Header{}}}
			r := &Report{BaseURL: "http://h", Results: []*Result{{Case: c, Response: Response{Status: 500},
				Checks: []CheckResult{{Check: "status", Expected: "2xx", Got: "500"}}}}}
			writers := map[string]func(*bytes.Buffer) error{
				"text":  func(b *bytes.Buffer) error { return r.WriteText(b) },
				"json":  func(b *bytes.Buffer) error { return r.WriteJSON(b) },
				"junit": func(b *bytes.Buffer) error { return r.WriteJUnit(b) },
				"html":  func(b *bytes.Buffer) error { return r.WriteHTML(b) },
			}
			for name, write := range writers {
				var b bytes.Buffer
				if err := write(&b); err != nil {
					t.Fatal(err)
				}
				if strings.Contains(b.String(), tc.secret) || !strings.Contains(b.String(), "[redacted]") {
					t.Errorf("%s report shows %q, or no [redacted]:\n%s", name, tc.secret, b.String())
				}
			}
			var b bytes.Buffer
			r.WriteText(&b)
			if !strings.Contains(b.String(), "curl") || !strings.Contains(b.String(), "'"+tc.shown+"'") {
				t.Errorf("the text report's reproduction does not send %s:\n%s", tc.shown, b.String())
			}
			if c.Request.URL != tc.url {
				t.Errorf("the case's request became %s: only what is shown is redacted", c.Request.URL)
			}
		})
	}
}
