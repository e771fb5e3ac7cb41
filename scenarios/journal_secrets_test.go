package scenarios_test

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// The journal and its stream keep no credential a request carried: not
// under a header, query or matrix name the rule knows, not in a value
// shaped like one, and not where the answer echoes it (a 422's "input"
// for a password too short).
func TestJournalKeepsNoSecret(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../testdata/contracts/movies/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(raw, "movies/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	ts, _ := newServer(t, mock.Config{Spec: sp})
	const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLXNlY3JldA"
	secrets := []string{"SECRETX", jwt, "FIRSTWORD", "rest-of-auth", "kfirst", "apikey-rest", "x-access-secret", "pwd-secret",
		"passwd-secret", "tokens-secret", "array-token-secret", "key-param-secret", "JSESSION-SECRET", "session-id-secret"}
	send := func(method, path, contentType, body string, h http.Header) int {
		t.Helper()
		req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		for k, vs := range h {
			req.Header[k] = vs
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := send("POST", "/users", "application/json", `{"username":"bobby","password":"SECRETX"}`, nil); code != 422 {
		t.Fatalf("registration with a short password: %d, want 422", code)
	}
	send("GET", "/movies?access_token[]=array-token-secret&key=key-param-secret&limit=1", "", "", http.Header{
		"Authorization":   {"FIRSTWORD rest-of-auth"},
		"X-Api-Key":       {"kfirst apikey-rest"},
		"X-Authorization": {"Bearer " + jwt},
		"X-Access-Key":    {"x-access-secret"},
		"X-Session-Id":    {"session-id-secret"},
	})
	send("POST", "/movies", "application/json", `{"title":"T","year":2000,"pwd":"pwd-secret","passwd":"passwd-secret","tokens":["tokens-secret"]}`, nil)
	send("GET", "/movies;jsessionid=JSESSION-SECRET", "", "", nil)

	_, body := adminCall(t, ts, "GET", "/__mock/journal", "")
	for _, s := range secrets {
		if strings.Contains(body, s) {
			t.Errorf("the journal keeps %q:\n%s", s, body)
		}
	}
	for _, want := range []string{`"input":"[redacted]"`, `"Authorization":["[redacted]"]`, `"X-Api-Key":["[redacted]"]`, `access_token[]=[redacted]`, `;jsessionid=[redacted]`} {
		if !strings.Contains(body, want) {
			t.Errorf("the journal shows no %s:\n%s", want, body)
		}
	}

	// The stream, from its first entry.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/__mock/journal/stream", nil)
	req.Header.Set("Last-Event-ID", "0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var streamed strings.Builder
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for events := 0; events < 4 && sc.Scan(); {
		if strings.HasPrefix(sc.Text(), "id: ") {
			events++
		}
		streamed.WriteString(sc.Text() + "\n")
	}
	if !sc.Scan() { // the fourth entry's data line
		t.Fatalf("the stream ended: %v", sc.Err())
	}
	streamed.WriteString(sc.Text())
	for _, s := range secrets {
		if strings.Contains(streamed.String(), s) {
			t.Errorf("the stream sends %q:\n%s", s, streamed.String())
		}
	}
}
