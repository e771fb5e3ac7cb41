package replay_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/moviemock/moviemock/contract/replay"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/internal/traffic"
)

// received is a target that keeps every request it gets, as it got it.
type received struct {
	mu   sync.Mutex
	reqs []string // method, URI, headers and body of each
}

func (rc *received) server(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var b strings.Builder
		b.WriteString(r.Method + " " + r.RequestURI + "\n")
		_ = r.Header.Write(&b)
		b.WriteString("\r\n")
		b.Write(body)
		rc.mu.Lock()
		rc.reqs = append(rc.reqs, b.String())
		rc.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/auth/login" {
			_, _ = io.WriteString(w, `{"access_token":"fresh-0123456789abcdef","token_type":"bearer"}`)
			return
		}
		_, _ = io.WriteString(w, `[1]`)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func (rc *received) all() string {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return strings.Join(rc.reqs, "\n----\n")
}

func moviesSpec(t *testing.T) *spec.Spec {
	t.Helper()
	data, err := os.ReadFile("../../testdata/contracts/movies/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(data, "movies/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

func form(i int, path, body string) traffic.Call {
	return traffic.Call{Index: i, Method: "POST", Path: path, Header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}},
		Body: []byte(body), BodyType: "application/x-www-form-urlencoded", Status: 200}
}

// A recorded form of a username and a password to a path that is no
// login is a write: without --allow-writes it is not sent, with or
// without a contract, and the user's own password goes nowhere but the
// contract's login. The login itself carries only the user's own
// credentials and the fields its schema declares that are no credential.
func TestReplayLoginOnlyWhereTheContractSays(t *testing.T) {
	t.Parallel()
	const realPass, userPass = "REALPASS-recorded", "users-own-pass-0123"
	deleteAll := form(1, "/admin/delete-everything", "confirm=yes&password="+realPass+"&username=realuser")
	login := form(2, "/auth/login", "grant_type=password&username=realuser&password="+realPass+"&scope=read&client_secret=recorded-client-secret&confirm=yes")
	notLoginPath := form(3, "/admin/session-reset", "username=realuser&password="+realPass)
	tests := []struct {
		name     string
		spec     *spec.Spec
		calls    []traffic.Call
		wantSent []string // the bodies the target got
		skipped  []string
	}{
		{"with the contract: only its tokenUrl is a login", moviesSpec(t), []traffic.Call{deleteAll, login},
			[]string{"grant_type=password&password=" + userPass + "&scope=read&username=alice"},
			[]string{"#1 a write (POST): replayed only with --allow-writes"}},
		{"no contract: a login path's form is a login, sent with the user's own only", nil, []traffic.Call{deleteAll, login, notLoginPath},
			[]string{"grant_type=password&password=" + userPass + "&username=alice"},
			[]string{"#1 a write (POST): replayed only with --allow-writes", "#3 a write (POST): replayed only with --allow-writes"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var rc received
			srv := rc.server(t)
			report, err := replay.Run(context.Background(), replay.Config{BaseURL: srv.URL, Spec: tc.spec, Username: "alice", Password: userPass,
				Source: &traffic.Source{Kind: "har", Name: "attack.har", Calls: tc.calls}})
			if err != nil {
				t.Fatal(err)
			}
			var skipped []string
			for _, res := range report.Results {
				if res.Skipped != "" {
					skipped = append(skipped, fmt.Sprintf("#%d %s", res.Index, res.Skipped))
				}
			}
			if !slices.Equal(skipped, tc.skipped) {
				t.Errorf("skipped %q, want %q", skipped, tc.skipped)
			}
			got := rc.all()
			for _, s := range []string{realPass, "realuser", "delete-everything", "session-reset", "confirm", "recorded-client-secret"} {
				if strings.Contains(got, s) {
					t.Errorf("the target got %q:\n%s", s, got)
				}
			}
			var bodies []string
			for _, r := range strings.Split(got, "\n----\n") {
				if _, body, ok := strings.Cut(r, "\r\n\r\n"); ok && body != "" {
					bodies = append(bodies, body)
				}
			}
			if !slices.Equal(bodies, tc.wantSent) {
				t.Errorf("bodies sent %q, want %q", bodies, tc.wantSent)
			}
		})
	}
}

// Every recorded credential is kept from the target, under whatever
// name: a call carrying one by a header's or a query parameter's name is
// not sent; a cookie, a matrix parameter, a value shaped like a token
// under an ordinary name are dropped from what is sent and named in the
// call's notes. No report format shows their values.
func TestReplayDropsRecordedCredentials(t *testing.T) {
	t.Parallel()
	const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJyZWFsdXNlciJ9.c2lnbmF0dXJlLXNlY3JldA"
	get := func(i int, path, query string, h http.Header) traffic.Call {
		return traffic.Call{Index: i, Method: "GET", Path: path, Query: query, Header: h, Status: 200, ResponseType: "application/json", Response: []byte(`[1]`), ResponseKept: true}
	}
	calls := []traffic.Call{
		get(1, "/a", "", http.Header{"X-Authorization": {"Bearer " + jwt}}),
		get(2, "/a", "", http.Header{"Authentication": {"Bearer authentication-secret-1"}}),
		get(3, "/a", "", http.Header{"X-Auth": {"x-auth-secret-123456"}}),
		get(4, "/a", "", http.Header{"X-Session-Id": {"session-secret-123456"}}),
		get(5, "/a", "", http.Header{"X-Access-Key": {"access-key-secret-1234"}}),
		get(6, "/a", "access_token[]=array-token-secret-1&page=1", http.Header{}),
		get(7, "/a", "key=key-secret-123456", http.Header{}),
		get(8, "/a", "sig=sig-secret-1234567", http.Header{}),
		get(9, "/cart;jsessionid=JSESSION-SECRET-1234/items", "page=2", http.Header{"Cookie2": {"c2=cookie2-secret-123456"}, "X-Trace": {jwt}, "Accept": {"application/json"}}),
	}
	secrets := []string{jwt, "authentication-secret-1", "x-auth-secret-123456", "session-secret-123456", "access-key-secret-1234",
		"array-token-secret-1", "key-secret-123456", "sig-secret-1234567", "JSESSION-SECRET-1234", "cookie2-secret-123456"}
	var rc received
	srv := rc.server(t)
	report, err := replay.Run(context.Background(), replay.Config{BaseURL: srv.URL, Source: &traffic.Source{Kind: "har", Name: "creds.har", Calls: calls}})
	if err != nil {
		t.Fatal(err)
	}
	got := rc.all()
	for _, s := range secrets {
		if strings.Contains(got, s) {
			t.Errorf("the target got the recorded credential %q:\n%s", s, got)
		}
	}
	if !strings.HasPrefix(got, "GET /cart/items?page=2\n") || strings.Count(got, "GET ") != 1 {
		t.Errorf("the target got %q, want only GET /cart/items?page=2", got)
	}
	for _, res := range report.Results[:8] {
		if res.Skipped == "" {
			t.Errorf("#%d was sent; want it skipped for its credential", res.Index)
		}
	}
	last := report.Results[8]
	if want := "dropped the recorded credential path parameter ;jsessionid, header Cookie2, header X-Trace: a replay never sends one"; !slices.Contains(last.Notes, want) {
		t.Errorf("#9 notes %q, want %q", last.Notes, want)
	}
	for _, format := range []string{"text", "json", "junit", "html"} {
		var b bytes.Buffer
		if err := write(report, format, &b); err != nil {
			t.Fatal(err)
		}
		for _, s := range secrets {
			if strings.Contains(b.String(), s) {
				t.Errorf("the %s report shows %q", format, s)
			}
		}
	}
}
