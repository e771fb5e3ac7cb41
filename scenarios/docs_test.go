package scenarios

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// docs/limits.md's table of what a journal entry keeps gives these bounds.
func TestDocsJournalEntryBounds(t *testing.T) {
	t.Parallel()
	page, err := os.ReadFile(filepath.Join("..", "docs", "limits.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{
		"one value (the path, the query, one header or form field)": maxJournalValue,
		"the headers, names and values":                             maxJournalHeaders,
		"the form, names and values":                                maxJournalForm,
		"a write's JSON body":                                       maxJournalBody,
		"the contract violations (under `moviemock proxy`)":         maxJournalViolations,
	}
	for _, m := range regexp.MustCompile(`(?m)^\| (.+?) \| (\d+) KiB \|$`).FindAllStringSubmatch(string(page), -1) {
		bound, ok := want[m[1]]
		if !ok {
			continue
		}
		delete(want, m[1])
		if n, _ := strconv.Atoi(m[2]); n<<10 != bound {
			t.Errorf("docs/limits.md: a journal entry keeps at most %s KiB of %s; the journal keeps %d bytes", m[2], m[1], bound)
		}
	}
	for what := range want {
		t.Errorf("docs/limits.md no longer says how much of %s a journal entry keeps", what)
	}
}

// docs/limits.md gives the bounds of what a scenario may ask for.
func TestDocsScenarioBounds(t *testing.T) {
	t.Parallel()
	page, err := os.ReadFile(filepath.Join("..", "docs", "limits.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(page)), " ")
	for _, c := range []struct {
		re   string
		want int
	}{
		{"`delay` is at most (\\d+) minutes", int(maxDelay / time.Minute)},
		{"`generate:` list at most ([\\d,]+) items", maxGenerate},
	} {
		m := regexp.MustCompile(c.re).FindStringSubmatch(text)
		if m == nil {
			t.Errorf("docs/limits.md no longer says /%s/", c.re)
			continue
		}
		if n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", "")); n != c.want {
			t.Errorf("docs/limits.md says %s where /%s/ is; the loader's bound is %d", m[1], c.re, c.want)
		}
	}
}
