package contract_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/spec"
)

// credentialsDoc is a document without a login whose one operation,
// GET /thing, requires the scheme given (its JSON).
func credentialsDoc(t *testing.T, scheme string) *spec.Spec {
	t.Helper()
	doc := `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{
"/thing":{"get":{"operationId":"thing","security":[{"s":[]}],"responses":{
  "200":{"description":"ok","content":{"application/json":{"schema":{"type":"object","required":["ok"],"properties":{"ok":{"type":"boolean"}}}}}},
  "401":{"description":"no"}}}}},
"components":{"securitySchemes":{"s":` + scheme + `}}}`
	sp, err := spec.Load([]byte(doc), "openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// credentialHandler answers GET /thing 200 to a request that ok
// accepts, else 401 challenging with challenge.
func credentialHandler(challenge string, ok func(r *http.Request) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/thing" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if !ok(r) {
			if challenge != "" {
				w.Header().Set("WWW-Authenticate", challenge)
			}
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		fmt.Fprint(w, `{"ok":true}`)
	})
}

// A contract without a login is tested with the credentials the user
// gives: a token (--token) where its scheme wants it, written as
// --auth-format says, or --username and --password as HTTP basic
// credentials. The secured operation's valid requests run with them.
func TestGivenCredentials(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, scheme, challenge string
		cfg                     contract.Config
		ok                      func(r *http.Request) bool
	}{
		{"a bearer token", `{"type":"http","scheme":"bearer"}`, "Bearer", contract.Config{Token: "t0k"},
			func(r *http.Request) bool { return r.Header.Get("Authorization") == "Bearer t0k" }},
		{"a token in an API key header, as --auth-format writes it", `{"type":"apiKey","in":"header","name":"Authorization"}`, "", contract.Config{Token: "t0k", AuthFormat: "Token {token}"},
			func(r *http.Request) bool { return r.Header.Get("Authorization") == "Token t0k" }},
		{"an API key in the query", `{"type":"apiKey","in":"query","name":"api_key"}`, "", contract.Config{Token: "k3y"},
			func(r *http.Request) bool { return r.URL.Query().Get("api_key") == "k3y" }},
		// The runner did not see the key issued: a server taking any key
		// present (as the mock does a key it did not issue) is not sent
		// one "no server issued".
		{"an API key the server does not verify", `{"type":"apiKey","in":"header","name":"X-Key"}`, "", contract.Config{Token: "k3y"},
			func(r *http.Request) bool { return r.Header.Get("X-Key") != "" }},
		{"HTTP basic", `{"type":"http","scheme":"basic"}`, "Basic", contract.Config{Username: "u", Password: "p"},
			func(r *http.Request) bool { u, p, ok := r.BasicAuth(); return ok && u == "u" && p == "p" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := tc.cfg
			cfg.Spec = credentialsDoc(t, tc.scheme)
			report := run(t, credentialHandler(tc.challenge, tc.ok), cfg)
			if line := report.SummaryLine(); !strings.Contains(line, "PASSED") || !strings.Contains(line, "1/1 operations tested") {
				t.Errorf("summary %q, want PASSED and 1/1 operations tested; notes %q", line, report.Notes)
			}
			if casesOf(report, contract.Unauthenticated) == 0 {
				t.Error("no case without valid credentials was sent")
			}
		})
	}
}

// Without credentials for a contract that has no login, the secured
// operation is not counted as tested, and a note says which flags would
// test it; the runner invents none.
func TestNoCredentialsSaysWhich(t *testing.T) {
	t.Parallel()
	report := run(t, credentialHandler("Bearer", func(r *http.Request) bool { return r.Header.Get("Authorization") != "" }),
		contract.Config{Spec: credentialsDoc(t, `{"type":"http","scheme":"bearer"}`)})
	if line := report.SummaryLine(); !strings.Contains(line, "0/1 operations tested") {
		t.Errorf("summary %q, want 0/1 operations tested", line)
	}
	if n := casesOf(report, contract.Positive); n > 0 {
		t.Errorf("%d positive cases sent: the runner has no credential of its own", n)
	}
	want := "thing: secured, and the runner has no token: only its 401s are tested (the contract has no login: give a token the target issued with --token"
	if !strings.Contains(strings.Join(report.Notes, "\n"), want) {
		t.Errorf("notes %q, want one saying %q", report.Notes, want)
	}
}

// A token the target refuses in every secured case stops the run with
// ErrLogin saying why, as a login's token does.
func TestGivenTokenRefusedEverywhere(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(credentialHandler("Bearer", func(r *http.Request) bool { return r.Header.Get("Authorization") == "Token t0k" }))
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := contract.Run(ctx, contract.Config{Spec: credentialsDoc(t, `{"type":"http","scheme":"bearer"}`), BaseURL: ts.URL, Token: "t0k", MaxResponseTime: time.Minute})
	if !errors.Is(err, contract.ErrLogin) || !strings.Contains(err.Error(), "--auth-format") {
		t.Fatalf("err %v, want ErrLogin naming --auth-format", err)
	}
}

// The sequences send the basic credentials given to the operations they
// open, as the cases do: a record is created, read back and listed.
func TestBasicCredentialsInSequences(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"security":[{"basic":[]}],"paths":{
"/things":{"get":{"operationId":"list","responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/Thing"}}}}},"401":{"description":"no"}}},
  "post":{"operationId":"create","requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/ThingIn"}}}},
  "responses":{"201":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Thing"}}}},"400":{"description":"bad"},"401":{"description":"no"}}}},
"/things/{id}":{"get":{"operationId":"read","parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Thing"}}}},"401":{"description":"no"},"404":{"description":"none"}}}}},
"components":{"securitySchemes":{"basic":{"type":"http","scheme":"basic"}},"schemas":{
 "ThingIn":{"type":"object","required":["name"],"properties":{"name":{"type":"string","maxLength":20}}},
 "Thing":{"type":"object","required":["id","name"],"properties":{"id":{"type":"integer"},"name":{"type":"string","maxLength":20}}}}}}`
	report := runOnMock(t, doc, "openapi.json", contract.Config{Username: "u", Password: "p"})
	if f := failed(report); len(f) > 0 {
		t.Errorf("failures on the mock:\n%s", strings.Join(f, "\n"))
	}
	steps := 0
	for _, res := range report.Results {
		if res.Case.Kind != contract.Sequence {
			continue
		}
		if res.Response.Skipped != "" {
			t.Errorf("step %q not sent: %s", res.Case.Name, res.Response.Skipped)
			continue
		}
		steps++
	}
	if steps == 0 {
		t.Error("no sequence step was sent")
	}
}
