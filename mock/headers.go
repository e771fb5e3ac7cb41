package mock

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/brianvoe/gofakeit/v7"

	"github.com/moviemock/moviemock/internal/model"
)

// requiredHeader is a response header an operation declares required,
// with the value the mock sends in it.
type requiredHeader struct{ name, value string }

// requiredHeaders are, per status, the headers mo's responses declare
// required (JSON:API's ETag of a read, the Location of a create), each
// with its example, else a value generated for its schema: the plain
// OpenAPI profile answers what the document promises a client will find.
// Content-Type and Content-Length are the answer's own. nil when none.
func (s *Server) requiredHeaders(mo *model.Operation, f *gofakeit.Faker) map[int][]requiredHeader {
	if mo.Op.Responses == nil {
		return nil
	}
	var out map[int][]requiredHeader
	for code, ref := range mo.Op.Responses.Map() {
		status, err := strconv.Atoi(code)
		if err != nil || ref == nil || ref.Value == nil {
			continue
		}
		for _, name := range sortedHeaderNames(ref.Value.Headers) {
			h := ref.Value.Headers[name]
			if h == nil || h.Value == nil || !h.Value.Required ||
				strings.EqualFold(name, "Content-Type") || strings.EqualFold(name, "Content-Length") {
				continue
			}
			value, ok := headerText(h.Value.Example)
			if !ok && h.Value.Schema != nil && h.Value.Schema.Value != nil {
				if value, ok = headerText(h.Value.Schema.Value.Example); !ok && s.fake.Finite(h.Value.Schema) {
					var v any
					if json.Unmarshal(s.fake.Append(nil, f, "", h.Value.Schema), &v) == nil {
						value, ok = headerText(v)
					}
				}
			}
			if !ok || value == "" {
				value = "moviemock"
			}
			if out == nil {
				out = map[int][]requiredHeader{}
			}
			out[status] = append(out[status], requiredHeader{http.CanonicalHeaderKey(name), oneLine(value)})
		}
	}
	return out
}

func sortedHeaderNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// headerText is a declared or generated value as a header carries it.
func headerText(v any) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "", false
	case string:
		return x, true
	case map[string]any, []any:
		b, err := json.Marshal(x)
		return string(b), err == nil
	}
	return scalarText(v)
}

// headerWriter adds an operation's required headers (requiredHeaders) to
// the answer it writes, for the status it writes, where the answer has
// not set them itself.
type headerWriter struct {
	http.ResponseWriter
	headers map[int][]requiredHeader
	done    bool
}

func (w *headerWriter) add(status int) {
	if w.done {
		return
	}
	w.done = true
	h := w.ResponseWriter.Header()
	for _, rh := range w.headers[status] {
		if len(h[rh.name]) == 0 {
			h[rh.name] = []string{rh.value}
		}
	}
}

func (w *headerWriter) WriteHeader(status int) {
	w.add(status)
	w.ResponseWriter.WriteHeader(status)
}

func (w *headerWriter) Write(b []byte) (int, error) {
	w.add(http.StatusOK)
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection (a stream's
// Flush).
func (w *headerWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
