package contract_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
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
