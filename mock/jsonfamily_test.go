package mock_test

import (
	"net/http"
	"os"
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// A body a document not FastAPI's declares only in a JSON media type
// other than application/json (JSON:API's, with its parameter) is
// validated as JSON: one without a required member is refused.
func TestBodyInAnotherJSONMediaTypeIsValidated(t *testing.T) {
	t.Parallel()
	const path = "../testdata/contracts/vnd-json/openapi.yaml"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(doc, path)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: sp, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	ct := http.Header{"Content-Type": {`application/vnd.api+json; ext="https://example.org/ext"`}}
	for _, tc := range []struct {
		body string
		want int
	}{
		{`{"data": {"type": "countries"}}`, 201},
		{`{}`, 400},
		{`{"data": {"id": "1"}}`, 400},
	} {
		if rec := serve(srv, request{method: "POST", target: "/countries", body: tc.body, header: ct}); rec.Code != tc.want {
			t.Errorf("%s: %d %s, want %d", tc.body, rec.Code, rec.Body, tc.want)
		}
	}
}
