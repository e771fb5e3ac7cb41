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
	report := cleanOnItsMock(t, "../testdata/contracts/pet-tags/openapi.json")
	if n := tallies(report)["stateful_create_read"][0]; n < 3 {
		t.Errorf("stateful_create_read passed %d times: the tag's create, read back in its pet's list, never ran: %v", n, report.Notes)
	}
}

// A document creating with PUT and changing with POST (Vikunja's) is run
// through its sequences on the mock: creates read back, changes show with
// the record's id in the body kept as the path's, and a step whose path
// names a parameter nothing the sequence made fills (a bucket's project,
// named {id} where the view's create names it {project}) is skipped and
// said so, never sent with the template in its path.
func TestSequencesOfMethodsUsedTheOtherWayRound(t *testing.T) {
	t.Parallel()
	report := cleanOnItsMock(t, "../testdata/contracts/put-creates/openapi.json")
	for _, check := range []string{"stateful_create_read", "stateful_update"} {
		if n := tallies(report)[check][0]; n < 2 {
			t.Errorf("%s passed %d times: %v", check, n, report.Notes)
		}
	}
	skipped := false
	for _, res := range report.Results {
		if res.Response.Skipped == "" && (strings.Contains(res.Case.Request.URL, "{") || strings.Contains(res.Case.Request.URL, "%7B")) {
			t.Errorf("%s sent %s", res.Case.Name, res.Case.Request.URL)
		}
		skipped = skipped || strings.Contains(res.Response.Skipped, "path parameter id names nothing the sequence made")
	}
	if !skipped {
		t.Error("no step of createBucket was skipped for its project's {id}")
	}
}

// cleanOnItsMock runs the runner against the mock of the document at
// path, failing the test on any failed check, and gives its report.
func cleanOnItsMock(t *testing.T, path string) *contract.Report {
	t.Helper()
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sp, m, srv := mockOf(t, doc, "openapi.json")
	report := run(t, srv, contract.Config{Spec: sp, Model: m, MaxResponseTime: time.Minute})
	if f := failed(report); len(f) > 0 {
		t.Errorf("failures on the mock of the document:\n%s", strings.Join(f, "\n"))
	}
	return report
}
