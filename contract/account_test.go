package contract_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/mock"
)

// A throwaway account: where the document registers accounts, the
// sequences register one and send it what must never reach the run's own
// account: its update, its password change, its deletion; an action on a
// user (follow) acts on it from the run's own account. The full-stack
// FastAPI template's mock, with its superuser fixture
// (docs/examples/fastapi-full-stack-template), and the RealWorld mock are
// the backends, each behind a middleware that breaks one thing.

const fsAdmin, fsPassword = "admin@example.com", "changethis"

// fullStack is the template's mock holding its superuser, behind wrap
// (nil: none).
func fullStack(t *testing.T, wrap func(http.Handler) http.Handler) (*httptest.Server, contract.Config) {
	t.Helper()
	sp := docAt(t, "documents", "fastapi-full-stack-template", "openapi.json")
	m, err := model.Compile(sp)
	if err != nil {
		t.Fatal(err)
	}
	d, err := fixtures.LoadDir(filepath.Join("..", "docs", "examples", "fastapi-full-stack-template", "fixtures"), m)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: sp, Model: m, Data: d})
	if err != nil {
		t.Fatal(err)
	}
	var h http.Handler = srv
	if wrap != nil {
		h = wrap(srv)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts, contract.Config{Spec: sp, Model: m, BaseURL: ts.URL, Username: fsAdmin, Password: fsPassword, MaxResponseTime: time.Minute}
}

func runAccount(t *testing.T, cfg contract.Config) *contract.Report {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	report, err := contract.Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return report
}

// fsMe is the superuser as GET /users/me answers it after a login with
// its password, and the number of users and items the mock holds.
func fsMe(t *testing.T, base string) (email string, users, items int) {
	t.Helper()
	resp, err := http.PostForm(base+"/api/v1/login/access-token", url.Values{"username": {fsAdmin}, "password": {fsPassword}})
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	if tok.AccessToken == "" {
		t.Fatalf("the superuser no longer logs in with its password (%d)", resp.StatusCode)
	}
	get := func(path string, v any) {
		req, _ := http.NewRequest("GET", base+path, nil)
		req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
	}
	var me struct {
		Email string `json:"email"`
	}
	var page struct {
		Count int `json:"count"`
	}
	get("/api/v1/users/me", &me)
	get("/api/v1/users/?limit=1", &page)
	users = page.Count
	get("/api/v1/items/?limit=1", &page)
	return me.Email, users, page.Count
}

// positiveRan reports whether a valid request of the operation (a
// positive case, a sequence step owed a success) was answered 2xx.
func positiveRan(report *contract.Report, method, path string) bool {
	for _, r := range report.Results {
		if r.Case.Method == method && r.Case.Path == path && (r.Case.Kind == contract.Positive || r.Case.Kind == contract.Sequence) && r.Case.Expect == contract.ExpectSuccess && r.Response.Status/100 == 2 {
			return true
		}
	}
	return false
}

// On the template's mock, the update of the current user, its password
// change and its deletion are run on a throwaway account registered with
// POST /users/signup: each verified, none failing. The superuser keeps its
// e-mail and password, and the mock holds as many users and items after
// the run as before.
func TestThrowawayAccount(t *testing.T) {
	t.Parallel()
	ts, cfg := fullStack(t, nil)
	email, users, items := fsMe(t, ts.URL)
	report := runAccount(t, cfg)
	for _, part := range []string{"users-update_user_me", "users-update_password_me", "users-delete_user_me", "the new password", "the old password", "the deleted account"} {
		if p, f, names := writeChecks(report, part); p == 0 || f > 0 {
			t.Errorf("%s: %d verdicts passed, %d failed %q (notes %q)", part, p, f, names, report.Notes)
		}
	}
	for _, op := range []string{"PATCH /api/v1/users/me", "PATCH /api/v1/users/me/password", "DELETE /api/v1/users/me"} {
		method, path, _ := strings.Cut(op, " ")
		if !positiveRan(report, method, path) {
			t.Errorf("%s: no valid request answered 2xx", op)
		}
	}
	if e, u, i := fsMe(t, ts.URL); e != email || u != users || i != items {
		t.Errorf("after the run: superuser %q, %d users, %d items; before: %q, %d, %d", e, u, i, email, users, items)
	}
	if strings.Contains(strings.Join(report.Notes, "\n"), "stays") {
		t.Errorf("a record left behind: %q", report.Notes)
	}
}

// answerInstead answers a matching request with status and body, never
// passing it on: a backend that says it did what it did not.
func answerInstead(method, path string, status int, body string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != method || r.URL.Path != path {
				next.ServeHTTP(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			io.WriteString(w, body)
		})
	}
}

// A password change that answers success and changes nothing: the new
// password does not log in.
func TestPasswordChangeNotStored(t *testing.T) {
	t.Parallel()
	_, cfg := fullStack(t, answerInstead("PATCH", "/api/v1/users/me/password", 200, `{"message":"Password updated successfully"}`))
	report := runAccount(t, cfg)
	if _, f, names := writeChecks(report, "the new password"); f == 0 {
		t.Errorf("a password change that changes nothing: not caught (notes %q)", report.Notes)
	} else {
		t.Logf("caught: %q", names)
	}
}

// A deletion of the current user that answers success and deletes
// nothing: its token still reads the user.
func TestDeleteMeNotDone(t *testing.T) {
	t.Parallel()
	_, cfg := fullStack(t, answerInstead("DELETE", "/api/v1/users/me", 200, `{"message":"User deleted successfully"}`))
	report := runAccount(t, cfg)
	if _, f, _ := writeChecks(report, "the deleted account"); f == 0 {
		t.Errorf("a delete-me that deletes nothing: not caught (notes %q)", report.Notes)
	}
}

// An update of the current user that ignores what it is sent but the
// e-mail: the answer shows the old full name.
func TestUpdateMeIgnoresField(t *testing.T) {
	t.Parallel()
	dropsName := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == "PATCH" && r.URL.Path == "/api/v1/users/me" {
				var m map[string]any
				if json.NewDecoder(r.Body).Decode(&m) == nil {
					delete(m, "full_name")
					raw, _ := json.Marshal(m)
					r.Body = io.NopCloser(bytes.NewReader(raw))
					r.ContentLength = int64(len(raw))
				}
			}
			next.ServeHTTP(w, r)
		})
	}
	_, cfg := fullStack(t, dropsName)
	report := runAccount(t, cfg)
	if _, f, names := writeChecks(report, "users-update_user_me: the throwaway"); f == 0 || !strings.Contains(strings.Join(names, "\n"), "full_name") {
		t.Errorf("an update-me that ignores full_name: not caught (%q, notes %q)", names, report.Notes)
	}
}

// On RealWorld the run's account follows the throwaway account's profile
// and unfollows it: following shows in each answer and the read after.
// A follow the backend answers but never stores is caught.
func TestFollowThrowaway(t *testing.T) {
	t.Parallel()
	report := runWrites(t, nil)
	if p, f, names := writeChecks(report, "(following "); p != 4 || f > 0 {
		t.Errorf("follow and unfollow on the mock: %d passed, %d failed %q (notes %q)", p, f, names, report.Notes)
	}
	if p, f, names := writeChecks(report, "UpdateCurrentUser"); p == 0 || f > 0 {
		t.Errorf("the throwaway's update on the mock: %d passed, %d failed %q", p, f, names)
	}
	if !strings.Contains(strings.Join(report.Notes, "\n"), "the throwaway account \"") {
		t.Errorf("no note names the throwaway account left behind (RealWorld cannot delete an account): %q", report.Notes)
	}
	for _, c := range report.Coverage {
		for _, n := range report.Notes {
			if c.Positive > 0 && strings.HasPrefix(n, c.Operation+": no positive case") {
				t.Errorf("%s ran %d valid requests, but a note says %q", c.Operation, c.Positive, n)
			}
		}
	}
	notStored := changeAnswer(func(r *http.Request) bool {
		return r.Method == "POST" && strings.HasSuffix(r.URL.Path, "/follow")
	}, func(r *http.Request) {
		r.Method = "GET"
		r.URL.Path = strings.TrimSuffix(r.URL.Path, "/follow")
	}, nil)
	if _, f, _ := writeChecks(runWrites(t, notStored), "(following "); f == 0 {
		t.Errorf("a follow not stored: not caught")
	}
}
