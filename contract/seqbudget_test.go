package contract_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/reference"
	"github.com/moviemock/moviemock/internal/spec"
)

// largeLists wraps a correct target so that every list it answers holds
// pad more JSON values (zeros) in front of its items: a list too large for
// the checks to decode. What the lists hold is otherwise the target's.
func largeLists(t testing.TB, h http.Handler, sp *spec.Spec, pad int) http.Handler {
	t.Helper()
	m, err := model.Compile(sp)
	if err != nil {
		t.Fatal(err)
	}
	var lists []*regexp.Regexp
	for _, o := range m.Operations {
		if o.Method == "GET" && (o.Kind == model.List || o.Kind == model.NestedList) {
			lists = append(lists, regexp.MustCompile("^"+regexp.MustCompile(`\\\{[^}]*\\\}`).ReplaceAllString(regexp.QuoteMeta(o.Path), "[^/]+")+"$"))
		}
	}
	zeros := []byte(strings.Repeat("0,", pad))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		listed := false
		for _, re := range lists {
			listed = listed || (r.Method == "GET" && re.MatchString(r.URL.Path))
		}
		if i := bytes.IndexByte(body, '['); listed && rec.Code == http.StatusOK && i >= 0 {
			grown := append(append(append([]byte{}, body[:i+1]...), zeros...), body[i+1:]...)
			if bytes.HasPrefix(body[i+1:], []byte("]")) {
				grown = append(append(append([]byte{}, body[:i+1]...), zeros[:len(zeros)-1]...), body[i+1:]...)
			}
			body = grown
		}
		for k, vs := range rec.Header() {
			w.Header()[k] = vs
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.Code)
		w.Write(body)
	})
}

// A correct target whose lists hold more JSON values than the checks read
// (--max-check-values) raises no false alarm: the sequences that need a
// list say in a note that they were not judged, and why, and the run
// completes.
func TestSequencesListTooLarge(t *testing.T) {
	t.Parallel()
	const limit = 2000
	for _, app := range reference.ContractApps() {
		t.Run(app, func(t *testing.T) {
			t.Parallel()
			h, sp := contractMock(t, app, nil)
			ts := httptest.NewServer(largeLists(t, h, sp, 2*limit))
			defer ts.Close()
			user, pass := credentials(app)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			report, err := contract.Run(ctx, contract.Config{MaxResponseTime: slowOK,
				BaseURL: ts.URL, Spec: sp, Username: user, Password: pass, Examples: 1, MaxCheckValues: limit,
			})
			if err != nil {
				t.Fatal(err)
			}
			if f := failed(report); len(f) > 0 {
				t.Errorf("%d failures on a correct target with large lists:\n%s", len(f), strings.Join(f, "\n"))
			}
			notes := strings.Join(report.Notes, "\n")
			if !strings.Contains(notes, "stateful sequences: ") || !strings.Contains(notes, "JSON values (--max-check-values): the sequences that read its answer were not judged") {
				t.Errorf("no note says which sequences were not judged and why:\n%s", notes)
			}
		})
	}
}

// The memory a run takes against a target answering a large list: the
// sequences do not decode it (decoded, a JSON value costs 40 to 140
// bytes). The test logs the bytes allocated; it bounds them loosely, far
// below what decoding the list in every sequence would take.
func TestSequencesLargeListMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a 4 MiB list many times")
	}
	h, sp := contractMock(t, "tasks", nil)
	const pad = 2 << 20 // 2M values, 4 MiB
	ts := httptest.NewServer(largeLists(t, h, sp, pad))
	defer ts.Close()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	report, err := contract.Run(context.Background(), contract.Config{MaxResponseTime: slowOK, BaseURL: ts.URL, Spec: sp, Examples: 1, Checks: sequenceChecks})
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d results; %d MB allocated (server side included)", len(report.Results), alloc>>20)
	if f := failed(report); len(f) > 0 {
		t.Errorf("%d failures on a correct target with a large list:\n%s", len(f), strings.Join(f, "\n"))
	}
}
