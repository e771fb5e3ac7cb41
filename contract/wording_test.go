package contract_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
)

// The report words its notes and failures for a reader: the login note
// names the user and the operation by its method and path, and a status
// line is not followed by a text body that repeats its reason phrase as if
// it were part of it.
func TestReportWording(t *testing.T) {
	t.Parallel()
	report := run(t, newMock(t), contract.Config{Username: "alice", Password: "wonderland"})
	if want := `logged in as "alice" (POST /auth/login)`; !strings.Contains(strings.Join(report.Notes, "\n"), want) {
		t.Errorf("notes lack %q:\n%s", want, strings.Join(report.Notes, "\n"))
	}

	down := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "Service Unavailable", http.StatusServiceUnavailable)
	})
	report = run(t, down, contract.Config{Examples: 1})
	var b strings.Builder
	if err := report.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	if strings.Contains(text, "Service Unavailable Service Unavailable") {
		t.Errorf("the reason phrase is said twice:\n%s", firstLineWith(text, "Service Unavailable Service Unavailable"))
	}
	if !strings.Contains(text, "503 Service Unavailable with body Service Unavailable") {
		t.Errorf("no failure shows the status and the body apart:\n%.2000s", text)
	}
}

func firstLineWith(text, s string) string {
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, s) {
			return line
		}
	}
	return ""
}
