package contract_test

import (
	"os"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
)

// A list answered from the document's own example, which repeats one
// item (Goa's), in a smaller view than the read of one item: the runner
// holds neither the repeated ids nor what the view leaves out against
// the mock of the document.
func TestListOfTheExampleInASmallerView(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../mock/testdata/goa-tiny-list.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sp, m, srv := mockOf(t, doc, "goa-tiny-list.yaml")
	report := run(t, srv, contract.Config{Spec: sp, Model: m})
	if f := failed(report); len(f) > 0 {
		t.Errorf("failures on the mock of the document:\n%s", strings.Join(f, "\n"))
	}
	if tallies(report)["list_item_consistency"][0] == 0 {
		t.Errorf("list_item_consistency never passed: %q", report.Notes)
	}
}
