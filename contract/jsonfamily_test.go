package contract_test

import (
	"os"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
)

// vndJSONDoc's bodies are declared only in JSON:API's media type, with
// its parameter.
const vndJSONDoc = "../testdata/contracts/vnd-json/openapi.yaml"

// The runner sends a body declared only in another JSON media type in
// that type, its valid bodies and its invalid ones, and the mock of the
// document passes.
func TestBodyInAnotherJSONMediaType(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(vndJSONDoc)
	if err != nil {
		t.Fatal(err)
	}
	sp, m, srv := mockOf(t, doc, "vnd.yaml")
	report := run(t, srv, contract.Config{Spec: sp, Model: m})
	if f := failed(report); len(f) > 0 {
		t.Errorf("failures on the mock of the document:\n%s", strings.Join(f, "\n"))
	}
	for _, c := range report.Coverage {
		if c.Positive == 0 || c.Kinds[contract.Negative] == 0 {
			t.Errorf("%s %s: %d positive, %d negative cases; notes %q", c.Method, c.Path, c.Positive, c.Kinds[contract.Negative], report.Notes)
		}
	}
}
