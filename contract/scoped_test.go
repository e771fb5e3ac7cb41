package contract_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
)

// Records made under a parent they do not name, where the path parameter
// has the name of their own id (POST /pets/{id}/tags answering a Tag with
// an id of its own): the runner expects the new record's own id, not the
// path's, and finds it in the parent's list, which is not filtered by
// that name.
func TestRecordsMadeUnderAParentOnTheMock(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../testdata/contracts/pet-tags/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	sp, m, srv := mockOf(t, doc, "openapi.json")
	report := run(t, srv, contract.Config{Spec: sp, Model: m, MaxResponseTime: time.Minute})
	if f := failed(report); len(f) > 0 {
		t.Errorf("failures on the mock of the document:\n%s", strings.Join(f, "\n"))
	}
	if n := tallies(report)["stateful_create_read"][0]; n < 3 {
		t.Errorf("stateful_create_read passed %d times: the tag's create, read back in its pet's list, never ran: %v", n, report.Notes)
	}
}
