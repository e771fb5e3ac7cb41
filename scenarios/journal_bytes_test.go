package scenarios

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/internal/status"
)

// testEngine is an engine over the shipped scenarios.
func testEngine(t testing.TB, opts Options) *Engine {
	t.Helper()
	sp, err := spec.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	d, err := fixtures.Default()
	if err != nil {
		t.Fatal(err)
	}
	set, err := Load(sp, d, Shipped())
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(set, opts)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

var answerOK = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("{}")) })

// A thousand logins with megabyte forms: the journal keeps a few KiB of
// each, and never more than its bound in all. (The forms are put in the
// trace as the engine parsed them: parsing a thousand megabytes takes
// seconds. TestJournalEntrySaysWhatWasCut sends one through.)
func TestJournalBoundedInBytes(t *testing.T) {
	big := strings.Repeat("a", 1<<20)
	for _, tc := range []struct {
		name     string
		maxBytes int64
		logins   int
		wantAll  bool // every entry kept
	}{
		{"default bound", 0, 1000, true},
		{"256 KiB bound", 256 << 10, 1000, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := testEngine(t, Options{JournalBytes: tc.maxBytes})
			for range tc.logins {
				r := httptest.NewRequest("POST", "/auth/login", nil)
				r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				tr := trace{form: map[string]string{"username": strings.Clone(big), "password": redacted}}
				e.journal.add(e.entry(r, &status.Writer{Code: http.StatusOK}, &tr, time.Time{}))
			}
			held, bound := e.journal.held(), e.opts.JournalBytes
			if held > bound {
				t.Errorf("the journal holds %d bytes, over its bound of %d", held, bound)
			}
			got := e.Journal(Filter{})
			if n := len(got); held > int64(n)*(maxJournalValue+2048) {
				t.Errorf("the journal holds %d bytes for %d entries: an entry keeps too much", held, n)
			}
			if n := len(got); tc.wantAll && n != tc.logins || !tc.wantAll && (n == 0 || n >= tc.logins) {
				t.Errorf("%d entries kept of %d", n, tc.logins)
			}
			if last := got[len(got)-1]; last.Seq != int64(tc.logins) || !slices.Equal(last.Truncated, []string{"form.username"}) {
				t.Errorf("the newest entry kept is %d, truncated %q; want %d, [form.username]", last.Seq, last.Truncated, tc.logins)
			}
			var sum int64
			for i := range got {
				sum += int64(got[i].size)
			}
			if sum != held {
				t.Errorf("held says %d bytes, the entries count %d", held, sum)
			}
			t.Logf("%d entries, %d bytes held (bound %d)", len(got), held, bound)
		})
	}
}

// An entry says what it keeps only in part, and keeps a copy of the part,
// not the whole value it was cut from.
func TestJournalEntrySaysWhatWasCut(t *testing.T) {
	e := testEngine(t, Options{})
	h := e.Handler(answerOK)
	big := strings.Repeat("é", 5000) // 10,000 bytes, cut between characters
	send := func(method, target, ct, body string, header http.Header) (*http.Request, Entry) {
		t.Helper()
		r := httptest.NewRequest(method, target, strings.NewReader(body))
		for k, vs := range header {
			r.Header[k] = vs
		}
		if ct != "" {
			r.Header.Set("Content-Type", ct)
		}
		h.ServeHTTP(httptest.NewRecorder(), r)
		got := e.Journal(Filter{Limit: 1})
		if len(got) != 1 {
			t.Fatalf("%d entries", len(got))
		}
		return r, got[0]
	}

	r, en := send("GET", "/person/1?q="+url.QueryEscape(big), "", "", http.Header{"X-Big": {big}, "X-Small": {"s"}})
	if want := []string{"headers.X-Big", "query"}; !slices.Equal(en.Truncated, want) {
		t.Errorf("truncated %q, want %q", en.Truncated, want)
	}
	if len(en.Query) > maxJournalValue || !strings.HasPrefix(r.URL.RawQuery, en.Query) {
		t.Errorf("query kept: %d bytes, not its start", len(en.Query))
	}
	if unsafe.StringData(en.Query) == unsafe.StringData(r.URL.RawQuery) {
		t.Error("the query kept is a slice of the one sent: the journal keeps all of it")
	}
	if v := en.Headers["X-Big"][0]; len(v) > maxJournalValue || !strings.HasPrefix(big, v) || !strings.HasSuffix(v, "é") {
		t.Errorf("X-Big kept: %d bytes, not its start cut between characters", len(v))
	}
	if en.Headers["X-Small"][0] != "s" {
		t.Errorf("X-Small: %q", en.Headers["X-Small"])
	}

	many := http.Header{}
	for i := range 100 {
		many.Set(fmt.Sprintf("X-H%03d", i), strings.Repeat("h", 1000))
	}
	_, en = send("GET", "/person/1", "", "", many)
	if !slices.Contains(en.Truncated, "headers") {
		t.Errorf("100 KB of headers: truncated %q, want %q among them", en.Truncated, "headers")
	}
	if size := en.bytes(); size > maxJournalHeaders+100*64+1024 {
		t.Errorf("100 KB of headers: the entry holds %d bytes", size)
	}

	_, en = send("POST", "/auth/login", "application/x-www-form-urlencoded",
		url.Values{"username": {big}, "password": {big}}.Encode(), nil)
	if want := []string{"form.username"}; !slices.Equal(en.Truncated, want) {
		t.Errorf("form: truncated %q, want %q", en.Truncated, want)
	}
	if en.Form["password"] != redacted || len(en.Form["username"]) > maxJournalValue {
		t.Errorf("form kept: password %.20q, username of %d bytes", en.Form["password"], len(en.Form["username"]))
	}

	_, en = send("POST", "/auth/register", "application/json", `{"username":"`+big+big+`"}`, nil)
	if want := []string{"body"}; !slices.Equal(en.Truncated, want) || en.Body != nil || en.BodyNote == "" {
		t.Errorf("20 KB JSON body: truncated %q, body %d bytes, note %q", en.Truncated, len(en.Body), en.BodyNote)
	}

	_, en = send("GET", "/person/1", "", "", http.Header{"User-Agent": {"go"}})
	if en.Truncated != nil {
		t.Errorf("a small request: truncated %q", en.Truncated)
	}
}

// writeCounter is a ResponseWriter that keeps nothing: it counts the
// writes and remembers the largest.
type writeCounter struct {
	header         http.Header
	code           int
	writes         int
	total, largest int
	body           strings.Builder // up to keep bytes
	keep           int
}

func (w *writeCounter) Header() http.Header  { return w.header }
func (w *writeCounter) WriteHeader(code int) { w.code = code }
func (w *writeCounter) Write(b []byte) (int, error) {
	w.writes++
	w.total += len(b)
	w.largest = max(w.largest, len(b))
	if w.body.Len() < w.keep {
		w.body.Write(b)
	}
	return len(b), nil
}

// GET /__mock/journal writes the journal as it goes, an entry at a time,
// never the whole answer at once; and it is the JSON Journal lists.
func TestJournalAnswerStreamed(t *testing.T) {
	e := testEngine(t, Options{JournalSize: 3000})
	h := e.Handler(answerOK)
	for i := range 3000 {
		r := httptest.NewRequest("GET", fmt.Sprintf("/person/%d", i%7), nil)
		r.Header.Set("X-Padding", strings.Repeat("p", 1000))
		r.Header.Set(HeaderSession, fmt.Sprint("s", i%3))
		h.ServeHTTP(httptest.NewRecorder(), r)
	}
	admin := e.Admin("")
	get := func(target string, keep int) *writeCounter {
		t.Helper()
		r := httptest.NewRequest("GET", target, nil)
		r.RemoteAddr, r.Host = "127.0.0.1:40000", "127.0.0.1:8000"
		w := &writeCounter{header: http.Header{}, keep: keep}
		admin.ServeHTTP(w, r)
		if w.code != http.StatusOK {
			t.Fatalf("GET %s: %d", target, w.code)
		}
		return w
	}

	w := get("/__mock/journal", 0)
	if w.total < 3<<20 || w.largest > 16<<10 || w.writes < 3000 {
		t.Errorf("a %d-byte answer in %d writes, the largest %d bytes: not written as it goes", w.total, w.writes, w.largest)
	}
	t.Logf("a %d-byte answer in %d writes, the largest %d bytes", w.total, w.writes, w.largest)

	for _, tc := range []struct {
		target string
		f      Filter
	}{
		{"/__mock/journal?limit=5&session=s1", Filter{Limit: 5, Session: "s1"}},
		{"/__mock/journal?path=/person/{person_id}&limit=2999", Filter{Path: "/person/{person_id}", Limit: 2999}},
		{"/__mock/journal?path=/person/3", Filter{Path: "/person/3"}},
		{"/__mock/journal?method=POST", Filter{Method: "POST"}},
	} {
		w := get(tc.target, 1<<30)
		var got []Entry
		if err := json.Unmarshal([]byte(w.body.String()), &got); err != nil {
			t.Fatalf("%s: %v in %.200s", tc.target, err, w.body.String())
		}
		want := e.Journal(tc.f)
		if len(got) != len(want) || len(want) > 0 && (got[0].Seq != want[0].Seq || got[len(got)-1].Seq != want[len(want)-1].Seq) {
			t.Errorf("%s: %d entries, Journal lists %d", tc.target, len(got), len(want))
		}
		if tc.f.Limit > 0 && len(want) != tc.f.Limit {
			t.Errorf("%s: %d entries, want %d", tc.target, len(want), tc.f.Limit)
		}
		if len(want) > 0 && want[len(want)-1].Seq != 2999 && tc.f.Session == "s1" {
			t.Errorf("%s: the last is %d, want 2999", tc.target, want[len(want)-1].Seq)
		}
	}
	if w := get("/__mock/journal?method=POST", 1<<30); w.body.String() != "[]" {
		t.Errorf("no entries: %q", w.body.String())
	}
}
