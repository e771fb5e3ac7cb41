package contract_test

import (
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// A server that serves a secured operation without a valid token fails
// auth_required; one that forgets WWW-Authenticate too.
func TestSecuredWithoutToken(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		edit func(*http.Request, *int, http.Header, []byte) []byte
	}{
		{"accepted", func(_ *http.Request, status *int, h http.Header, b []byte) []byte {
			if *status == http.StatusUnauthorized {
				*status = http.StatusOK
				return []byte(`{"id":1,"username":"alice","avatar":null,"role":"user"}`)
			}
			return b
		}},
		{"no Bearer challenge", func(_ *http.Request, _ *int, h http.Header, b []byte) []byte {
			if h.Get("WWW-Authenticate") != "" {
				h.Set("WWW-Authenticate", "Basic")
			}
			return b
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sp, h := grownMock(t, "movies")
			broken := rewrite(pathIs(`/users/me`), tc.edit)(h)
			report := run(t, broken, contract.Config{Spec: sp, Username: "alice", Password: "wonderland"})
			found := false
			for _, f := range failed(report) {
				if strings.HasPrefix(f, "auth_required: readCurrentUser") {
					found = true
				}
			}
			if !found {
				t.Errorf("auth_required did not fail:\n%s", strings.Join(failed(report), "\n"))
			}
		})
	}
}

// Secured operations get the token from the contract's tokenUrl and every
// one is tried without it.
func TestAuthFromDocument(t *testing.T) {
	t.Parallel()
	sp, h := grownMock(t, "movies")
	report := run(t, h, contract.Config{Spec: sp, Username: "alice", Password: "wonderland"})
	unauth := map[string]int{}
	for _, res := range report.Results {
		if res.Case.Kind == contract.Unauthenticated {
			unauth[res.Case.Operation]++
		}
	}
	for _, op := range []string{"readCurrentUser", "createMovie", "updateMovie", "deleteMovie", "createReview", "replaceReview", "updateReview", "deleteReview", "createReaction"} {
		if unauth[op] < 3 {
			t.Errorf("%s: %d unauthenticated cases", op, unauth[op])
		}
	}
	for _, op := range []string{"getMovie", "listMovies", "login", "registerUser"} {
		if unauth[op] != 0 {
			t.Errorf("%s is public but has %d unauthenticated cases", op, unauth[op])
		}
	}
}

// A backend that validates a body before it authenticates (a 422 for a
// body the model refuses, sent without a token) breaks FastAPI's order:
// auth_required fails on that case.
func TestValidationBeforeAuth(t *testing.T) {
	t.Parallel()
	sp, h := grownMock(t, "movies")
	validatesFirst := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == "POST" && r.URL.Path == "/movies" && r.Header.Get("Authorization") == "" {
				body, _ := io.ReadAll(r.Body)
				if string(body) == "{}" {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusUnprocessableEntity)
					io.WriteString(w, `{"detail":[{"type":"missing","loc":["body","title"],"msg":"Field required","input":{}}]}`)
					return
				}
				r.Body = io.NopCloser(strings.NewReader(string(body)))
			}
			next.ServeHTTP(w, r)
		})
	}
	report := run(t, validatesFirst(h), contract.Config{Spec: sp, Username: "alice", Password: "wonderland", Examples: 1})
	var caught []string
	for _, f := range failed(report) {
		if strings.HasPrefix(f, "auth_required: createMovie") {
			caught = append(caught, f)
		}
	}
	if len(caught) != 1 || !strings.Contains(caught[0], "a body the model refuses") {
		t.Errorf("auth_required failures on createMovie: %q\nall failures:\n%s", caught, strings.Join(failed(report), "\n"))
	}
}

// schemesMock is the mock of testdata/schemes_openapi.yaml, a document no
// FastAPI wrote whose operations take an API key, a pair of them, a
// bearer token or basic credentials, and a login of its own.
func schemesMock(t *testing.T) (*spec.Spec, http.Handler) {
	t.Helper()
	data, err := os.ReadFile("testdata/schemes_openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(data, "schemes_openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: sp, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return sp, srv
}

// failedOn is failed's lines of the cases of operation op.
func failedOn(r *contract.Report, op string) []string {
	var out []string
	for _, f := range failed(r) {
		if _, rest, _ := strings.Cut(f, ": "); strings.HasPrefix(rest, op+" ") {
			out = append(out, f)
		}
	}
	return out
}

// The alternatives of a security requirement list are OR: a request
// without a bearer token but with basic credentials satisfies an
// operation that takes either, and a server lets it in. Such a request
// is not sent as unauthenticated; a request without any credentials, or
// with one key of a pair, still is.
func TestUnauthenticatedCasesSatisfyNoAlternative(t *testing.T) {
	t.Parallel()
	sp, h := schemesMock(t)
	report := run(t, h, contract.Config{Spec: sp, Header: http.Header{"X-Key-1": {"k1"}}})
	if f := failedOn(report, "listCats"); len(f) > 0 {
		t.Errorf("%d failures on the mock:\n%s", len(f), strings.Join(f, "\n"))
	}
	var sent []string
	for _, res := range report.Results {
		c := res.Case
		if c.Kind != contract.Unauthenticated || c.Operation != "listCats" {
			continue
		}
		sent = append(sent, c.Name)
		if strings.HasPrefix(c.Request.Header.Get("Authorization"), "Basic ") {
			t.Errorf("%q sends basic credentials, which listCats takes", c.Name)
		}
	}
	if !slices.Contains(sent, "no Authorization header") {
		t.Errorf("listCats's unauthenticated cases %q, want one without credentials", sent)
	}
}

// A step of a sequence is not sent to an operation the run holds no
// credentials for (an API key it was not given): it would meet the 401
// the unauthenticated cases test already, not the create it stands for.
func TestSequenceSkipsStepsWithoutCredentials(t *testing.T) {
	t.Parallel()
	sp, h := schemesMock(t)
	report := run(t, h, contract.Config{Spec: sp})
	if f := failedOn(report, "createCat"); len(f) > 0 {
		t.Errorf("%d failures on the mock:\n%s", len(f), strings.Join(f, "\n"))
	}
	for _, res := range report.Results {
		if c := res.Case; c.Kind == contract.Sequence && c.Operation == "createCat" && res.Response.Skipped == "" {
			t.Errorf("%q was sent without the key: %d", c.Name, res.Response.Status)
		}
	}
}

// A login of a document no FastAPI wrote gets no positive case from
// credentials the runner makes up: no account has them, and the target
// is right to refuse them. Given an account, the login is sent it.
func TestLoginWithoutAccountHasNoPositiveCase(t *testing.T) {
	t.Parallel()
	sp, h := schemesMock(t)
	report := run(t, h, contract.Config{Spec: sp})
	if f := failedOn(report, "login"); len(f) > 0 {
		t.Errorf("%d failures on the mock:\n%s", len(f), strings.Join(f, "\n"))
	}
	for _, res := range report.Results {
		if c := res.Case; c.Operation == "login" && c.Expect == contract.ExpectSuccess {
			t.Errorf("login case %q expects success", c.Name)
		}
	}
	if !slices.ContainsFunc(report.Notes, func(n string) bool { return strings.HasPrefix(n, "login: no positive case: a login needs an account") }) {
		t.Errorf("no note says why login has no positive case: %q", report.Notes)
	}
}
