package contract

import (
	"context"
	"net/http"
	"time"

	"github.com/moviemock/moviemock/internal/spec"
)

// What the runner shares with moviemock replay (package contract/replay),
// which sends recorded calls again with the same robustness and hides
// secrets by the same rule.

// Probe reports whether anything listens at base: an error wrapping
// ErrUnreachable when nothing does (no such host, connection refused).
func Probe(ctx context.Context, base string, timeout time.Duration) error {
	return probe(ctx, base, timeout)
}

// TransportError says in plain words why no (complete) answer came.
func TransportError(err error, timeout time.Duration) string {
	return describeTransportError(err, timeout)
}

// TokenURLs are the tokenUrl of every OAuth2 password flow sp declares,
// as written (a path relative to the server, or a URL).
func TokenURLs(sp *spec.Spec) []string { return tokenURLs(sp) }

// NewRedactorFor is NewRedactor that also hides the fields sp marks
// writeOnly or format: password (nil: none but model.SecretName's).
func NewRedactorFor(c Credentials, sp *spec.Spec) *Redactor {
	x := NewRedactor(c)
	x.fields = contractSecretFields(sp)
	return x
}

// Learn adds the secrets an exchange the runner did not send carries (a
// recorded call, its answer): its credentials, cookies and secret fields,
// and the tokens and cookies the answer issued.
func (x *Redactor) Learn(req Request, respHeader http.Header, respBody []byte) {
	if req.Header == nil {
		req.Header = http.Header{}
	}
	x.learn(&Result{Case: &Case{Request: req}, Response: Response{Header: respHeader, Body: respBody}})
}

// Secret reports whether a field named name holds a credential: by its
// name (model.SecretName), or by what the contract marks (writeOnly,
// format: password).
func (x *Redactor) Secret(name string) bool { return x.secret(name) }

// URL is u as a report shows it: its secret query parameters redacted
// (model.RedactQuery), every known secret replaced.
func (x *Redactor) URL(u string) string { return x.Text(redactURL(u, x.secret)) }
