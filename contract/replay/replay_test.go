package replay_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract/replay"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/internal/traffic"
)

const (
	recordedToken = "recorded-token-0123456789abcdef"
	freshToken    = "fresh-token-9876543210fedcba"
	password      = "wonderland"
)

// recording is a frontend's session: it logs in, lists movies, reads the
// current user with its token and cookie, writes a review and reads it.
func recording() *traffic.Source {
	auth := http.Header{"Authorization": {"Bearer " + recordedToken}, "Cookie": {"session=recorded-cookie-value"}, "Accept": {"application/json"}}
	return &traffic.Source{Kind: "har", Name: "page.har", Calls: []traffic.Call{
		{Index: 1, Method: "POST", Path: "/auth/login", Header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}},
			Body: []byte("grant_type=password&username=alice&password=recorded-password"), BodyType: "application/x-www-form-urlencoded",
			Status: 200, ResponseType: "application/json", Response: []byte(`{"access_token":"` + recordedToken + `","token_type":"bearer"}`), ResponseKept: true},
		{Index: 2, Method: "GET", Path: "/movies", Query: "limit=2", Header: http.Header{"Accept-Encoding": {"br"}, "If-None-Match": {`"x"`}},
			Status: 200, ResponseType: "application/json", Response: []byte(`[{"id":"tt1","title":"A","rating":8.1},{"id":"tt2","title":"B","rating":null}]`), ResponseKept: true},
		{Index: 3, Method: "GET", Path: "/users/me", Header: auth,
			Status: 200, ResponseType: "application/json", Response: []byte(`{"username":"alice","email":"a@example.com"}`), ResponseKept: true},
		{Index: 4, Method: "POST", Path: "/reviews", Header: auth, Body: []byte(`{"movie_id":"tt1","text":"good"}`), BodyType: "application/json",
			Status: 201, ResponseType: "application/json", Response: []byte(`{"id":37,"movie_id":"tt1","text":"good"}`), ResponseKept: true},
		{Index: 5, Method: "GET", Path: "/reviews/37", Status: 200, ResponseType: "application/json", ResponseKept: false},
	}}
}

// target is the new backend: rating is gone from the movies, and it
// refuses what a replay must never send.
func target(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	bad := func(r *http.Request) string {
		switch {
		case strings.Contains(r.Header.Get("Cookie"), "recorded"):
			return "a recorded cookie"
		case strings.Contains(r.Header.Get("Authorization"), recordedToken):
			return "a recorded token"
		case r.Header.Get("Accept-Encoding") != "" || r.Header.Get("If-None-Match") != "":
			return "a client's header"
		}
		return ""
	}
	mux.HandleFunc("POST /auth/login", func(w http.ResponseWriter, r *http.Request) {
		if r.FormValue("username") != "alice" || r.FormValue("password") != password {
			w.WriteHeader(401)
			return
		}
		http.SetCookie(w, &http.Cookie{Name: "session", Value: "fresh-cookie-value", Path: "/"})
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"access_token":%q,"token_type":"bearer"}`, freshToken)
	})
	mux.HandleFunc("GET /movies", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `[{"id":"tt3","title":"C"}]`)
	})
	mux.HandleFunc("GET /users/me", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+freshToken || !strings.Contains(r.Header.Get("Cookie"), "fresh-cookie-value") {
			w.WriteHeader(401)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"username":"alice","email":null}`)
	})
	mux.HandleFunc("POST /reviews", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(201)
		fmt.Fprint(w, `{"id":99,"movie_id":"tt1","text":"good"}`)
	})
	mux.HandleFunc("GET /reviews/{id}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":%s}`, r.PathValue("id"))
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if why := bad(r); why != "" {
			http.Error(w, why, 418)
			return
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestReplay(t *testing.T) {
	t.Parallel()
	srv := target(t)
	tests := []struct {
		name        string
		cfg         replay.Config
		want        []string // per call: its outcome and changes
		wantFailed  int
		wantNotSeen []string // in no report format
	}{
		{
			name: "reads only, logged in again",
			cfg:  replay.Config{Username: "alice", Password: password},
			want: []string{
				"#1 unchanged",
				"#2 changed: removed: [].rating (was number|null)",
				"#3 changed: made null: email (was string, now null)",
				"#4 skipped: a write (POST): replayed only with --allow-writes",
				"#5 skipped: it reads the record call #4 created, which was not replayed",
			},
			wantFailed: 2,
		},
		{
			name: "writes, the created record's id used after",
			cfg:  replay.Config{Username: "alice", Password: password, AllowWrites: true},
			want: []string{
				"#1 unchanged",
				"#2 changed: removed: [].rating (was number|null)",
				"#3 changed: made null: email (was string, now null)",
				"#4 unchanged",
				"#5 unchanged (sent as /reviews/99)",
			},
			wantFailed: 2,
		},
		{
			name: "no credentials: the login and the calls with a token are not sent",
			cfg:  replay.Config{AllowWrites: true, FailOn: replay.Warning},
			want: []string{
				"#1 skipped: a login: give --username and --password to log in again (recorded credentials are never sent)",
				"#2 changed: removed: [].rating (was number|null)",
				"#3 skipped: it carried a token and no login was redone (give --username and --password, and record the login): recorded tokens are never sent",
				"#4 skipped: it carried a token and no login was redone (give --username and --password, and record the login): recorded tokens are never sent",
				"#5 skipped: it reads the record call #4 created, which was not replayed",
			},
			wantFailed: 1,
		},
		{
			name: "wrong password: the login's status changed, the token's calls are not sent",
			cfg:  replay.Config{Username: "alice", Password: "not-the-password"},
			want: []string{
				"#1 changed: status: was 200, now 401; content type: was application/json, now none",
				"#2 changed: removed: [].rating (was number|null)",
				"#3 skipped: it carried a token, and the login gave none (it answered 401): recorded tokens are never sent",
				"#4 skipped: a write (POST): replayed only with --allow-writes",
				"#5 skipped: it reads the record call #4 created, which was not replayed",
			},
			wantFailed:  2,
			wantNotSeen: []string{"not-the-password"},
		},
		{
			name: "--fail-on never",
			cfg:  replay.Config{Username: "alice", Password: password, FailOn: replay.Breaking + 1},
			want: []string{
				"#1 unchanged",
				"#2 changed: removed: [].rating (was number|null)",
				"#3 changed: made null: email (was string, now null)",
				"#4 skipped: a write (POST): replayed only with --allow-writes",
				"#5 skipped: it reads the record call #4 created, which was not replayed",
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := tc.cfg
			cfg.BaseURL, cfg.Source = srv.URL, recording()
			report, err := replay.Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, res := range report.Results {
				line := fmt.Sprintf("#%d ", res.Index)
				switch {
				case res.Skipped != "":
					line += "skipped: " + res.Skipped
				case len(res.Changes) == 0:
					line += "unchanged"
					if res.Sent != "" {
						line += " (sent as " + res.Sent + ")"
					}
				default:
					var cs []string
					for _, c := range res.Changes {
						cs = append(cs, c.String())
					}
					line += "changed: " + strings.Join(cs, "; ")
				}
				got = append(got, line)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("calls:\n got %q\nwant %q", got, tc.want)
			}
			if n := report.Failed(); n != tc.wantFailed {
				t.Errorf("Failed() = %d, want %d", n, tc.wantFailed)
			}
			secrets := append([]string{recordedToken, freshToken, "recorded-password", "recorded-cookie-value", "fresh-cookie-value", password}, tc.wantNotSeen...)
			for _, format := range []string{"text", "json", "junit", "html"} {
				var b bytes.Buffer
				if err := write(report, format, &b); err != nil {
					t.Fatal(err)
				}
				for _, s := range secrets {
					if strings.Contains(b.String(), s) {
						t.Errorf("%s report shows the secret %q:\n%s", format, s, b.String())
					}
				}
				switch format {
				case "json":
					if !json.Valid(b.Bytes()) {
						t.Errorf("json report is not JSON:\n%s", b.String())
					}
				case "junit":
					var suites struct {
						Tests int `xml:"tests,attr"`
					}
					if err := xml.Unmarshal(b.Bytes(), &suites); err != nil || suites.Tests != len(report.Results) {
						t.Errorf("junit report: %v, %d tests for %d calls", err, suites.Tests, len(report.Results))
					}
				case "html":
					// Self-contained: nothing fetched, nothing run.
					for _, bad := range []string{"<script", "src=", "href=", "url("} {
						if strings.Contains(b.String(), bad) {
							t.Errorf("html report has %q", bad)
						}
					}
				case "text":
					if last := strings.TrimSpace(b.String()[strings.LastIndex(strings.TrimSpace(b.String()), "\n")+1:]); !strings.HasPrefix(last, "moviemock replay: PASSED") && !strings.HasPrefix(last, "moviemock replay: FAILED") {
						t.Errorf("text report ends with %q, not the summary line", last)
					}
				}
			}
		})
	}
}

func write(r *replay.Report, format string, b *bytes.Buffer) error {
	switch format {
	case "json":
		return r.WriteJSON(b)
	case "junit":
		return r.WriteJUnit(b)
	case "html":
		return r.WriteHTML(b)
	}
	return r.WriteText(b)
}

func TestReplayUnreachable(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL
	srv.Close()
	_, err := replay.Run(context.Background(), replay.Config{BaseURL: base, Source: recording()})
	if !errors.Is(err, replay.ErrUnreachable) {
		t.Fatalf("err %v, want ErrUnreachable", err)
	}
}

// The keys of a dict the target's contract declares (Review.reactions,
// dict[str, int]) are values: other keys are no change.
func TestReplayDicts(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../testdata/contracts/movies/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(data, "movies/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	review := func(reactions string) string {
		return `[{"id":"r1","movie_id":"tt1","author_id":1,"content":"x","author":{"id":1,"username":"alice"},"created_at":"t","updated_at":"t","reactions":` + reactions + `}]`
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, review(`{"wow":2}`))
	}))
	t.Cleanup(srv.Close)
	src := &traffic.Source{Kind: "har", Name: "page.har", Calls: []traffic.Call{{Index: 1, Method: "GET", Path: "/movies/tt1/reviews",
		Status: 200, ResponseType: "application/json", Response: []byte(review(`{"like":4,"love":1}`)), ResponseKept: true}}}
	tests := []struct {
		name string
		spec *spec.Spec
		want []string
	}{
		{"by the contract", sp, nil},
		{"without a contract", nil, []string{"removed: [].reactions.like (was integer)", "removed: [].reactions.love (was integer)", "added: [].reactions.wow (integer)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			report, err := replay.Run(context.Background(), replay.Config{BaseURL: srv.URL, Source: src, Spec: tc.spec})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range report.Results[0].Changes {
				got = append(got, c.String())
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("changes %q, want %q", got, tc.want)
			}
		})
	}
}

// A target that hangs, redirects, sends too much or no JSON is reported
// call by call, within the budgets; what a recording must never send again
// is not sent, nor shown.
func TestReplayHostileTarget(t *testing.T) {
	t.Parallel()
	hang := make(chan struct{})
	t.Cleanup(func() { close(hang) })
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/hang":
			select {
			case <-hang:
			case <-r.Context().Done():
			}
		case "/redirect":
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
		case "/huge":
			fmt.Fprintf(w, `[%s1]`, strings.Repeat("1,", 4096))
		case "/many":
			fmt.Fprintf(w, `[%s1]`, strings.Repeat("1,", 100))
		case "/broken":
			fmt.Fprint(w, `[{"a":`)
		default:
			fmt.Fprint(w, `[]`)
		}
	}))
	t.Cleanup(srv.Close)
	get := func(i int, path, query string) traffic.Call {
		return traffic.Call{Index: i, Method: "GET", Path: path, Query: query, Header: http.Header{}, Status: 200, ResponseType: "application/json", Response: []byte(`[1]`), ResponseKept: true}
	}
	tests := []struct {
		name  string
		calls []traffic.Call
		want  []string
		// timeout is the client's: short for the target that hangs,
		// generous for those that answer.
		timeout time.Duration
	}{
		{"a redirect is an answer", []traffic.Call{get(1, "/redirect", "")}, []string{"#1 status: was 200, now 302"}, 0},
		{"a body past the body budget", []traffic.Call{get(1, "/huge", "")}, []string{"#1 unchanged: status and content type only: the answer is larger than 1024 bytes: its shape is not compared"}, 0},
		{"a body past the values budget", []traffic.Call{get(1, "/many", "")}, []string{"#1 unchanged: status and content type only: the answer: the body holds more than 50 JSON values (--max-check-values): over budget"}, 0},
		{"a body that is no JSON", []traffic.Call{get(1, "/broken", "")}, []string{"#1 type changed: (body) (was array, now not JSON)"}, 0},
		{"a credential in the query", []traffic.Call{get(1, "/list", "api_key=query-secret-0123456789")}, []string{"#1 skipped: it carried the credential query parameter api_key, which a replay never sends"}, 0},
		{"a token in a body", []traffic.Call{{Index: 1, Method: "POST", Path: "/auth/refresh", Header: http.Header{}, BodyType: "application/json",
			Body: []byte(`{"refresh_token":"body-secret-0123456789"}`), Status: 200}}, []string{"#1 skipped: it carried a token in its body (refresh_token), which a replay never sends"}, 0},
		{"a credential header", []traffic.Call{{Index: 1, Method: "GET", Path: "/list", Header: http.Header{"X-Api-Key": {"header-secret-0123456789"}}, Status: 200}},
			[]string{"#1 skipped: it carried the credential header X-Api-Key, which a replay never sends"}, 0},
		{"an unresponsive target", []traffic.Call{get(1, "/hang", ""), get(2, "/hang", ""), get(3, "/hang", ""), get(4, "/hang", ""), get(5, "/hang", ""), get(6, "/list", "")}, []string{
			"#1 no complete answer", "#2 no complete answer", "#3 no complete answer", "#4 no complete answer", "#5 no complete answer",
			"#6 skipped: not sent: the target is unresponsive: 5 calls in a row got no complete answer",
		}, 200 * time.Millisecond},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			report, err := replay.Run(context.Background(), replay.Config{BaseURL: srv.URL, AllowWrites: true,
				Source: &traffic.Source{Kind: "har", Name: "hostile.har", Calls: tc.calls}, Timeout: cmp.Or(tc.timeout, 30*time.Second), MaxBodyBytes: 1024, MaxCheckValues: 50})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, res := range report.Results {
				line := fmt.Sprintf("#%d ", res.Index)
				switch {
				case res.Skipped != "":
					line += "skipped: " + res.Skipped
					if i := strings.Index(line, " (last: "); i > 0 {
						line = line[:i]
					}
				case len(res.Changes) == 0:
					line += "unchanged: " + res.Compared
				default:
					var cs []string
					for _, c := range res.Changes {
						s := c.String()
						if c.Kind == replay.ChangeNoAnswer {
							s = "no complete answer"
						}
						cs = append(cs, s)
					}
					line += strings.Join(cs, "; ")
				}
				got = append(got, line)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("calls:\n got %q\nwant %q", got, tc.want)
			}
			for _, format := range []string{"text", "json", "junit", "html"} {
				var b bytes.Buffer
				if err := write(report, format, &b); err != nil {
					t.Fatal(err)
				}
				for _, s := range []string{"query-secret-0123456789", "body-secret-0123456789", "header-secret-0123456789"} {
					if strings.Contains(b.String(), s) {
						t.Errorf("%s report shows the secret %q", format, s)
					}
				}
			}
		})
	}
}

// A call the target's contract has no operation for says so: a removed
// operation, or a call to another server.
func TestReplayUnmatched(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../testdata/contracts/movies/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(data, "movies/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(srv.Close)
	src := &traffic.Source{Kind: "har", Name: "page.har", Calls: []traffic.Call{
		{Index: 1, Method: "GET", Path: "/collect", Status: 204, ResponseKept: true, Response: []byte{}},
		{Index: 2, Method: "GET", Path: "/movies/tt1", Status: 404, ResponseType: "text/plain", ResponseKept: true, Response: []byte("404 page not found\n")},
	}}
	report, err := replay.Run(context.Background(), replay.Config{BaseURL: srv.URL, Source: src, Spec: sp})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct{ op, note string }{{"", "it matches no operation of the target's contract"}, {"GET /movies/{movie_id}", ""}} {
		res := report.Results[i]
		if res.Operation != want.op || (want.note != "") != slices.Contains(res.Notes, want.note) {
			t.Errorf("call #%d: operation %q, notes %q; want %q, %q", res.Index, res.Operation, res.Notes, want.op, want.note)
		}
	}
}

// A page's calls to another server than the API's (an analytics service)
// are not sent to the target: the report says why.
func TestReplayOtherServers(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../testdata/contracts/movies/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(data, "movies/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var sent []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sent = append(sent, r.Method+" "+r.URL.Path)
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	api, telemetry := "http://127.0.0.1:8000", "https://telemetry.example"
	src := &traffic.Source{Kind: "har", Name: "page.har", Calls: []traffic.Call{
		{Index: 1, Method: "POST", Path: "/collect", Origin: telemetry, Status: 204, ResponseKept: true, Response: []byte{}},
		{Index: 2, Method: "GET", Path: "/movies/tt1", Origin: api, Status: 404, ResponseType: "text/plain", ResponseKept: true, Response: []byte("404 page not found\n")},
		{Index: 3, Method: "GET", Path: "/collect", Origin: telemetry, Status: 204, ResponseKept: true, Response: []byte{}},
	}}
	report, err := replay.Run(context.Background(), replay.Config{BaseURL: srv.URL, Source: src, Spec: sp})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(sent) != "[GET /movies/tt1]" {
		t.Errorf("sent %v, want only the API's call", sent)
	}
	if len(report.Results) != 1 || report.Failed() != 0 {
		t.Errorf("%d results, %d failed: want the API's one call, unchanged", len(report.Results), report.Failed())
	}
	if !slices.ContainsFunc(report.Notes, func(n string) bool {
		return strings.Contains(n, "2 entries of the recording not replayed: another server than the API's (https://telemetry.example)")
	}) {
		t.Errorf("notes %q: want the calls to the other server counted", report.Notes)
	}
}

// A target that answers JSON nested deep is read in time and memory with
// its size: 20,000 deep is compared down to the depth budget, the call's
// note naming the budget and where it cut; a million deep, over the values
// budget, on status and content type only. Read with a path per level, the
// first took 400 MB, the second ran out of memory.
func TestReplayDeepAnswer(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		deep, _ := strconv.Atoi(r.URL.Query().Get("n"))
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"items":`+strings.Repeat("[", deep)+strings.Repeat("]", deep)+`}`)
	}))
	t.Cleanup(srv.Close)
	call := func(i int, n string) traffic.Call {
		return traffic.Call{Index: i, Method: "GET", Path: "/deep", Query: "n=" + n, Header: http.Header{},
			Status: 200, ResponseType: "application/json", Response: []byte(`{"items":[[1]]}`), ResponseKept: true}
	}
	src := &traffic.Source{Kind: "har", Name: "deep.har", Calls: []traffic.Call{call(1, "20000"), call(2, "1000000")}}
	report, err := replay.Run(context.Background(), replay.Config{BaseURL: srv.URL, Source: src})
	if err != nil {
		t.Fatal(err)
	}
	res := report.Results[0]
	want := "parts nested deeper than 32 levels (a fixed budget of the shape compared) were not compared: the first, in the answer, below items" + strings.Repeat("[]", 31)
	if res.Compared != "shape" || !slices.Contains(res.Notes, want) {
		t.Errorf("compared %q, notes %q; want the shape compared and %q", res.Compared, res.Notes, want)
	}
	var got []string
	for _, c := range res.Changes {
		got = append(got, c.String())
	}
	if want := []string{"type changed: items[][] (was integer, now array)"}; !slices.Equal(got, want) {
		t.Errorf("changes %q, want %q", got, want)
	}
	if res := report.Results[1]; !strings.Contains(res.Compared, "more than 100000 JSON values (--max-check-values)") {
		t.Errorf("a million deep: compared %q", res.Compared)
	}
}
