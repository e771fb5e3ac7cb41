package contract_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
)

// checkSkipped: a skipped case was not sent, had no check, and says why.
func checkSkipped(t *testing.T, report *contract.Report) (skipped int) {
	t.Helper()
	for _, res := range report.Results {
		if res.Response.Skipped == "" {
			continue
		}
		skipped++
		if len(res.Checks) > 0 || res.Response.Status != 0 || !strings.HasPrefix(res.Response.Skipped, "not sent: ") {
			t.Errorf("skipped case %s %q: checks %v, response %+v", res.Case.Operation, res.Case.Name, res.Checks, res.Response)
		}
	}
	return skipped
}

// A target that answers too slowly, or not at all, is given up on after a
// few requests: the run ends quickly, fails, and says why.
func TestUnresponsiveTargetsEndTheRun(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		serve func(net.Conn)
	}{
		{"slow", func(c net.Conn) {
			readRequest(c)
			time.Sleep(3 * time.Second)
			c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}"))
		}},
		{"silent", func(c net.Conn) { time.Sleep(5 * time.Second) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// Every request that timed out had its connection closed: each
			// connection is a request sent.
			var sent atomic.Int64
			base := hostile(t, func(c net.Conn) { sent.Add(1); tc.serve(c) })
			const timeout = 200 * time.Millisecond
			start := time.Now()
			report, err := contract.Run(context.Background(), contract.Config{MaxResponseTime: slowOK, BaseURL: base, Timeout: timeout, Examples: 50})
			if err != nil {
				t.Fatal(err)
			}
			took := time.Since(start)
			// The probe, 3 discovery requests, then 5 cases: 9 timeouts;
			// without giving up, hundreds.
			if n := sent.Load(); n > 20 {
				t.Errorf("%d requests sent to an unresponsive target", n)
			}
			skipped := checkSkipped(t, report)
			if report.Failures() == 0 || skipped == 0 || skipped+report.FailedCases() != len(report.Results) {
				t.Errorf("%d cases: %d failed, %d skipped", len(report.Results), report.FailedCases(), skipped)
			}
			if !strings.Contains(report.Stopped, "unresponsive") {
				t.Errorf("Stopped = %q", report.Stopped)
			}
			var text bytes.Buffer
			report.WriteText(&text)
			for _, want := range []string{"Skipped: ", "Stopped early: the target is unresponsive", "no complete response within the 200ms timeout",
				"moviemock contract: FAILED ", "0/4 operations tested", "cases skipped · stopped early\n"} {
				if !strings.Contains(text.String(), want) {
					t.Errorf("text report lacks %q:\n%s", want, text.String())
				}
			}
			t.Logf("%d cases in %v: %s", len(report.Results), took.Round(time.Millisecond), report.SummaryLine())
		})
	}
}

// One operation that hangs is skipped after two timeouts; the others run.
// The timeout is the default one: the other operations' answers must come
// within it, on a loaded machine too. The person's id is given, so that
// discovery does not wait on the hanging operation: only its cases do.
func TestUnresponsiveOperationIsSkipped(t *testing.T) {
	t.Parallel()
	mock := newMock(t)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/person/") {
			<-r.Context().Done() // until the client gives up
			return
		}
		mock.ServeHTTP(w, r)
	})
	report := run(t, h, contract.Config{Timeout: contract.DefaultTimeout, Examples: 30, IDs: map[string][]string{"person_id": {"1"}}})
	if report.Stopped != "" {
		t.Errorf("stopped: %s", report.Stopped)
	}
	checkSkipped(t, report)
	timeouts := 0
	for _, res := range report.Results {
		switch {
		case res.Case.Operation == "getPerson" && res.Response.Skipped == "":
			timeouts++
		case res.Case.Operation == "getPerson":
			if !strings.Contains(res.Response.Skipped, "GET /person/{person_id} is unresponsive") {
				t.Errorf("skip reason %q", res.Response.Skipped)
			}
		case res.Response.Skipped != "":
			t.Errorf("%s case skipped: %s", res.Case.Operation, res.Response.Skipped)
		case res.Failed():
			t.Errorf("%s case %q failed: %v", res.Case.Operation, res.Case.Name, res.Checks)
		}
	}
	if timeouts != 2 {
		t.Errorf("%d getPerson cases sent, want 2", timeouts)
	}
	var js bytes.Buffer
	report.WriteJSON(&js)
	var parsed struct {
		Summary struct {
			SkippedCases     int    `json:"skipped_cases"`
			OperationsTested int    `json:"operations_tested"`
			Operations       int    `json:"operations"`
			Line             string `json:"line"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(js.Bytes(), &parsed); err != nil {
		t.Fatal(err)
	}
	if parsed.Summary.SkippedCases == 0 || parsed.Summary.OperationsTested != 3 || parsed.Summary.Operations != 4 || !strings.Contains(parsed.Summary.Line, "3/4 operations tested") {
		t.Errorf("JSON summary %+v", parsed.Summary)
	}
}

// MaxFailures stops the run: no more failed cases than asked (and the
// workers' cases in flight), the rest reported as not run.
func TestMaxFailuresStopsTheRun(t *testing.T) {
	t.Parallel()
	broken := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":"not an integer"}`))
	})
	for _, workers := range []int{1, 4} {
		report := run(t, broken, contract.Config{MaxFailures: 3, Workers: workers, Examples: 20})
		skipped := checkSkipped(t, report)
		if failed := report.FailedCases(); failed < 3 || failed > 3+workers-1 {
			t.Errorf("workers %d: %d failed cases, want 3 (+ up to %d in flight)", workers, failed, workers-1)
		}
		if skipped < 50 || !strings.Contains(report.Stopped, "stopped after 3 failed cases (--max-failures 3)") {
			t.Errorf("workers %d: %d skipped, stopped %q", workers, skipped, report.Stopped)
		}
		var text bytes.Buffer
		report.WriteText(&text)
		if want := fmt.Sprintf("Stopped early: the run stopped after 3 failed cases (--max-failures 3); %d cases not run", skipped); !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q", want)
		}
	}
}

// bigList is a JSON list of about size bytes, of objects with an id.
func bigList(size int) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	pad := strings.Repeat("x", 1000)
	for i := 1; b.Len() < size; i++ {
		if i > 1 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"pad":%q}`, i, pad)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// Memory does not grow with the bodies: each result keeps an excerpt, the
// size and a digest, and the heap a finished report holds grows by a small
// constant per case, not by the body size.
func TestRetainedMemoryIsBounded(t *testing.T) {
	// Not parallel: it measures the heap.
	body := bigList(512 << 10)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	})
	ts := httptest.NewServer(h)
	defer ts.Close()
	measure := func(examples int) (perCase uint64, report *contract.Report) {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		report, err := contract.Run(context.Background(), contract.Config{MaxResponseTime: slowOK, BaseURL: ts.URL, Examples: examples, Workers: 4})
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(report)
		grew := uint64(0)
		if after.HeapInuse > before.HeapInuse {
			grew = after.HeapInuse - before.HeapInuse
		}
		t.Logf("--examples %d: %d cases, %d MiB of bodies read, heap in use grew by %d KiB (%d B per case)",
			examples, len(report.Results), int64(len(report.Results))*int64(len(body))>>20, grew>>10, grew/uint64(len(report.Results)))
		return grew / uint64(len(report.Results)), report
	}
	measure(2) // warm up: the contract, the client, the checks' compiled schemas
	perCase, report := measure(60)
	for _, res := range report.Results {
		r := res.Response
		if r.Body != nil || len(r.Excerpt) > contract.ExcerptBytes || r.Size != int64(len(body)) || len(r.SHA256) != 64 {
			t.Fatalf("%s %q keeps body %d bytes, excerpt %d, size %d, sha256 %q", res.Case.Operation, res.Case.Name, len(r.Body), len(r.Excerpt), r.Size, r.SHA256)
		}
	}
	// Keeping the bodies would be 512 KiB a case.
	if perCase > 24<<10 {
		t.Errorf("the report keeps %d bytes per case", perCase)
	}
	var js bytes.Buffer
	if err := report.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if js.Len() > len(report.Results)*16<<10 {
		t.Errorf("JSON report of %d bytes for %d cases", js.Len(), len(report.Results))
	}
}

// A body past MaxBodyBytes is cut there, reported, and kept as an excerpt.
func TestHugeBodyIsCut(t *testing.T) {
	t.Parallel()
	base := hostile(t, func(c net.Conn) {
		readRequest(c)
		c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n["))
		chunk := bytes.Repeat([]byte(`{"id":1},`), 1000)
		c.SetWriteDeadline(time.Now().Add(3 * time.Second))
		for {
			if _, err := c.Write(chunk); err != nil {
				return
			}
		}
	})
	report, err := contract.Run(context.Background(), contract.Config{MaxResponseTime: slowOK, BaseURL: base, Examples: 3, MaxBodyBytes: 1 << 20, Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range report.Results {
		r := res.Response
		if r.Skipped != "" {
			continue
		}
		if !r.Truncated || r.Size != 1<<20 || len(r.Excerpt) != contract.ExcerptBytes || r.Body != nil || !strings.Contains(r.Error, "larger than 1048576 bytes") {
			t.Fatalf("%+v", r)
		}
	}
}

// A hostile target's bytes cannot drive the terminal through the text
// report, nor break the JSON or JUnit reports.
func TestHostileBytesAreEscaped(t *testing.T) {
	t.Parallel()
	evil := "\x1b[2J\x1b[H\rPASSED: 42 cases, every check passed\n\u202egnp.exe\u0085\x9b31m\x7f"
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("X-Evil", "\u202eowned\u0085")
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte(evil))
	})
	report := run(t, h, contract.Config{Examples: 2, IDs: map[string][]string{"person_id": {"1"}}})
	if report.Failures() == 0 {
		t.Fatal("no failure")
	}
	var text bytes.Buffer
	if err := report.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	if i := strings.IndexFunc(out, func(r rune) bool {
		return (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u202e' || r == '\ufffd'
	}); i >= 0 {
		t.Errorf("the text report holds %q: %q", out[i:i+4], out[max(0, i-80):min(len(out), i+80)])
	}
	if regexp.MustCompile(`(?m)^PASSED`).MatchString(out) {
		t.Error("a line of the report starts with PASSED")
	}
	if !strings.Contains(out, `\x1b[2J\x1b[H\rPASSED: 42 cases`) || !strings.Contains(out, `\u202egnp.exe\u0085\x9b31m\x7f`) {
		t.Errorf("the target's bytes are not shown escaped:\n%s", out)
	}
	if !strings.Contains(out, "\nmoviemock contract: FAILED ") {
		t.Error("no summary line")
	}

	var js bytes.Buffer
	if err := report.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var parsed struct {
		Results []struct {
			Response struct {
				Body    string              `json:"body"`
				Headers map[string][]string `json:"headers"`
			} `json:"response"`
		} `json:"results"`
	}
	if err := json.Unmarshal(js.Bytes(), &parsed); err != nil {
		t.Fatalf("JSON report: %v", err)
	}
	if parsed.Results[0].Response.Body != strings.ToValidUTF8(evil, "\ufffd") {
		t.Errorf("JSON body %q", parsed.Results[0].Response.Body)
	}

	var x bytes.Buffer
	if err := report.WriteJUnit(&x); err != nil {
		t.Fatal(err)
	}
	var suites struct {
		Failures int `xml:"failures,attr"`
	}
	if err := xml.Unmarshal(x.Bytes(), &suites); err != nil || suites.Failures != len(report.Distinct()) {
		t.Errorf("JUnit report: %v, %d failures", err, suites.Failures)
	}
	if bytes.ContainsAny(x.Bytes(), "\x1b\r\x7f\u202e") {
		t.Error("the JUnit report holds raw control characters")
	}
}

func TestSafe(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"plain text, ünïcode ✓":  "plain text, ünïcode ✓",
		"\x1b[2J\r\n\t":          `\x1b[2J\r\n\t`,
		"a\x00b\x7fc":            `a\x00b\x7fc`,
		"\u0085\u009b":           `\u0085\u009b`,
		"\u202eabc\u2066\u200f":  `\u202eabc\u2066\u200f`,
		"bad \xff\xfe utf8":      `bad \xff\xfe utf8`,
		"line\u2028sep\u2029par": `line\u2028sep\u2029par`,
	} {
		if got := contract.Safe(in); got != want {
			t.Errorf("Safe(%q) = %s, want %s", in, got, want)
		}
	}
	// Curl reproduces the bytes, and shows none raw.
	got := contract.Curl(contract.Request{Method: "GET", URL: "http://h/\u202e\xff"})
	if got != `curl -i $'http://h/\xe2\x80\xae\xff'` {
		t.Errorf("Curl = %s", got)
	}
}

// The report says per operation which declared statuses were seen and
// which kinds of case ran, and ends with a line CI can grep.
func TestCoverage(t *testing.T) {
	t.Parallel()
	report := run(t, newMock(t), contract.Config{})
	if len(report.Coverage) != 4 {
		t.Fatalf("coverage of %d operations", len(report.Coverage))
	}
	for _, c := range report.Coverage {
		if c.Answered == 0 || len(c.Seen) == 0 || len(c.Seen)+len(c.Unseen) != len(c.Declared) || c.Kinds[contract.Positive] == 0 {
			t.Errorf("%+v", c)
		}
		if c.Operation == "getPerson" && (!contains(c.Seen, "200") || !contains(c.Seen, "422") || c.Kinds[contract.Negative] == 0 || c.Kinds[contract.UnknownID] == 0) {
			t.Errorf("%+v", c)
		}
	}
	line := report.SummaryLine()
	if !regexp.MustCompile(`^moviemock contract: PASSED \d+ cases · 4/4 operations tested · \d+/\d+ declared statuses seen$`).MatchString(line) {
		t.Errorf("summary line %q", line)
	}
	var text, js bytes.Buffer
	report.WriteText(&text)
	report.WriteJSON(&js)
	if !strings.HasSuffix(text.String(), "\n"+line+"\n") || !strings.Contains(text.String(), "statuses seen 200, 422") || !strings.Contains(text.String(), "kinds run: positive ") {
		t.Errorf("text report:\n%s", text.String())
	}
	var parsed struct {
		Coverage []struct {
			Operation string         `json:"operation"`
			Seen      []string       `json:"declared_statuses_seen"`
			Unseen    []string       `json:"declared_statuses_unseen"`
			Kinds     map[string]int `json:"kinds"`
		} `json:"coverage"`
	}
	if err := json.Unmarshal(js.Bytes(), &parsed); err != nil || len(parsed.Coverage) != 4 || parsed.Coverage[0].Kinds["positive"] == 0 || parsed.Coverage[0].Unseen == nil {
		t.Errorf("JSON coverage: %v %+v", err, parsed.Coverage)
	}
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
