package contract_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
)

func TestNormalizeMessage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{`expected no 5xx, got 500 Internal Server Error with body {"error":"boom at /person/17"}`, `expected no 5xx, got 500 Internal Server Error with body …`},
		{`expected a 4xx rejection (FastAPI: 422), got 200 OK`, `expected a 4xx rejection (FastAPI: 422), got 200 OK`},
		{`expected a JWT, got 2 dot-separated parts in "abc.def"`, `expected a JWT, got N dot-separated parts in "…"`},
		{`expected unique ids, got id "x\"y" at positions 3 and 12`, `expected unique ids, got id "…" at positions N and N`},
		{`got exp 1764115200.5 is not in the future (now 2026-11-26T00:00:00Z)`, `got exp N is not in the future (now N-N-NTN:N:NZ)`},
		{`got item 3f2a9c1e-0b4d-4e5f-8a6b-7c8d9e0f1a2b differs, sha256 9f86d081884c7d65…`, `got item <uuid> differs, sha256 <hex>…`},
		{`got alg 'none' accepted`, `got alg '…' accepted`},
		{`expected a JWT: three base64url parts, got 2 parts`, `expected a JWT: three base64url parts, got N parts`},
		{`expected only items with movie_id=tt0137523, got item "r1" has movie_id "tt0068646"`, `expected only items with movie_id=…, got item "…" has movie_id "…"`},
		{`expected only items with movie_id=3f2a9c1e-0b4d-4e5f-8a6b-7c8d9e0f1a2b, got item "r1" has movie_id "tt0068646"`, `expected only items with movie_id=…, got item "…" has movie_id "…"`},
		{`expected a declared status (200, 422), got 404 Not Found`, `expected a declared status (200, 422), got 404 Not Found`},
	} {
		if got := contract.NormalizeMessage(tc.in); got != tc.want {
			t.Errorf("NormalizeMessage(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// TestDistinctFailures runs against a server whose every answer is a 500
// echoing the request: each check that fails on an operation fails for one
// cause, with a message that differs per case only by the body. Every
// report format lists exactly those causes with their counts.
func TestDistinctFailures(t *testing.T) {
	t.Parallel()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprintf(w, `{"error":%q}`, "boom at "+r.URL.String())
	})
	report := run(t, h, contract.Config{Spec: fastapiDoc(t), Examples: 3,
		IDs: map[string][]string{"person_id": {"1"}, "review_id": {"r1"}}})

	// The causes, worked out apart: one per failing check and operation.
	type cause struct{ check, op string }
	want := map[cause]int{}
	messages := map[cause]map[string]bool{}
	failed := 0
	for _, res := range report.Results {
		for _, c := range res.Checks {
			if !c.Passed {
				k := cause{c.Check, res.Case.Operation}
				want[k]++
				if messages[k] == nil {
					messages[k] = map[string]bool{}
				}
				messages[k][c.Got] = true
				failed++
			}
		}
	}
	varied := false
	for k := range want {
		if len(messages[k]) > 1 {
			varied = true
		}
	}
	if len(want) < 5 || !varied {
		t.Fatalf("the server should fail several checks with messages varying per case: %v", want)
	}

	distinct := report.Distinct()
	got := map[cause]int{}
	for _, d := range distinct {
		got[cause{d.Check, d.Operation}] += d.Count
		if d.Smallest == nil || !strings.HasSuffix(d.Message, "with body …") {
			t.Errorf("%s %s: message %q, smallest %v", d.Check, d.Operation, d.Message, d.Smallest)
		}
	}
	if len(distinct) != len(want) || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("distinct %v (%d), want %v (%d)", got, len(distinct), want, len(want))
	}
	for _, d := range distinct {
		size := len(d.Smallest.Case.Request.URL) + len(d.Smallest.Case.Request.Body)
		for _, res := range report.Results {
			for _, c := range res.Checks {
				if !c.Passed && c.Check == d.Check && res.Case.Operation == d.Operation {
					if n := len(res.Case.Request.URL) + len(res.Case.Request.Body); n < size {
						t.Errorf("%s %s: smallest case is %d long, %q is %d", d.Check, d.Operation, size, res.Case.Name, n)
					}
				}
			}
		}
	}
	if line := report.SummaryLine(); !strings.Contains(line, fmt.Sprintf(" failing, %d distinct)", len(want))) {
		t.Errorf("summary line %q does not say %d distinct", line, len(want))
	}

	t.Run("text", func(t *testing.T) {
		var out bytes.Buffer
		if err := report.WriteText(&out); err != nil {
			t.Fatal(err)
		}
		text := out.String()
		if !strings.Contains(text, fmt.Sprintf("Distinct failures: %d causes of %d failed checks", len(want), failed)) {
			t.Error("no distinct failures heading")
		}
		for _, d := range distinct {
			head := fmt.Sprintf(") %s — %s %s %s — %d failure", d.Check, d.Operation, d.Method, d.Path, d.Count)
			if strings.Count(text, head) != 1 {
				t.Errorf("%q is not listed once", head)
			}
		}
		if strings.Contains(text, "\nFailures:\n") || !strings.Contains(text, fmt.Sprintf("%d failed checks in all; rerun with --verbose", failed)) {
			t.Error("without Verbose, the text report should only say how many failures there are in all")
		}
		fails := 0
		for line := range strings.Lines(text) {
			if strings.HasPrefix(line, "  FAIL ") {
				fails++
			}
		}
		checks := map[string]bool{}
		for k := range want {
			checks[k.check] = true
		}
		if fails != len(checks) {
			t.Errorf("%d \"  FAIL \" lines, want one per failing check (%d)", fails, len(checks))
		}

		verbose := *report
		verbose.Verbose = true
		out.Reset()
		if err := verbose.WriteText(&out); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "\nFailures:\n") || !strings.Contains(out.String(), fmt.Sprintf("\n%d) ", failed)) {
			t.Error("with Verbose, the text report should list every failed check")
		}
	})

	t.Run("json", func(t *testing.T) {
		var out bytes.Buffer
		if err := report.WriteJSON(&out); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Summary struct {
				DistinctFailures int `json:"distinct_failures"`
			}
			Distinct []struct {
				Check, Operation string
				Count            int
				Smallest         struct {
					Curl   string
					Result int
				}
			}
			Results []json.RawMessage
		}
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		got := map[cause]int{}
		for _, d := range doc.Distinct {
			got[cause{d.Check, d.Operation}] += d.Count
			if !strings.HasPrefix(d.Smallest.Curl, "curl ") || d.Smallest.Result < 0 || d.Smallest.Result >= len(doc.Results) {
				t.Errorf("%s %s: smallest %+v", d.Check, d.Operation, d.Smallest)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) || doc.Summary.DistinctFailures != len(want) || len(doc.Results) != len(report.Results) {
			t.Errorf("distinct %v (summary %d), results %d; want %v, %d results", got, doc.Summary.DistinctFailures, len(doc.Results), want, len(report.Results))
		}
	})

	t.Run("junit", func(t *testing.T) {
		var out bytes.Buffer
		if err := report.WriteJUnit(&out); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Failures int `xml:"failures,attr"`
			Suites   []struct {
				Cases []struct {
					Classname string `xml:"classname,attr"`
					Failure   *struct {
						Message string `xml:"message,attr"`
						Type    string `xml:"type,attr"`
						Text    string `xml:",chardata"`
					} `xml:"failure"`
				} `xml:"testcase"`
			} `xml:"testsuite"`
		}
		if err := xml.Unmarshal(out.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		got := map[cause]int{}
		n := 0
		for _, s := range doc.Suites {
			for _, c := range s.Cases {
				if c.Failure == nil {
					continue
				}
				n++
				var count int
				if _, err := fmt.Sscanf(c.Failure.Message, "%d failure", &count); err != nil {
					t.Errorf("message %q does not start with the count", c.Failure.Message)
				}
				op := strings.TrimSuffix(c.Classname, "."+c.Failure.Type)
				got[cause{c.Failure.Type, op}] += count
				if !strings.Contains(c.Failure.Text, "reproduce: curl ") {
					t.Errorf("%s: no reproduction", c.Classname)
				}
			}
		}
		if n != len(want) || doc.Failures != len(want) || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%d failed testcases (failures=%d): %v; want %v", n, doc.Failures, got, want)
		}
	})

	t.Run("html", func(t *testing.T) {
		page := writeHTML(t, report)
		root := parseHTML(t, page)
		got := map[cause]int{}
		articles := root.all(byClass("article", "distinct"))
		for _, a := range articles {
			var count int
			fmt.Sscan(a.attr["data-count"], &count)
			got[cause{a.attr["data-check"], a.attr["data-operation"]}] += count
		}
		if len(articles) != len(want) || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("distinct articles %v, want %v", got, want)
		}
		details := root.all(func(e *element) bool { return e.name == "details" })
		if len(details) != 1 || len(details[0].all(byClass("article", "failure"))) != failed {
			t.Errorf("every failure should be folded in one <details>")
		}
	})
}
