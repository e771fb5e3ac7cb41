package contract

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// docs/limits.md gives the runner's bound on single reads of listed items.
func TestDocsItemReads(t *testing.T) {
	t.Parallel()
	page, err := os.ReadFile(filepath.Join("..", "docs", "limits.md"))
	if err != nil {
		t.Fatal(err)
	}
	re := "`list_item_consistency` reads at most (\\d+) listed items"
	m := regexp.MustCompile(re).FindStringSubmatch(strings.Join(strings.Fields(string(page)), " "))
	if m == nil {
		t.Fatalf("docs/limits.md no longer says /%s/", re)
	}
	if n, _ := strconv.Atoi(m[1]); n != maxItemReads {
		t.Errorf("docs/limits.md says list_item_consistency reads at most %s items; the runner reads %d", m[1], maxItemReads)
	}
}
