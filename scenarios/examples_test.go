package scenarios_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
	"github.com/moviemock/moviemock/scenarios"
)

// The example of docs/examples/fastapi-full-stack-template loads against
// the template's own document (the corpus's copy) with its fixture file,
// and answers as the template's backend does: the first superuser logs in
// and is one; a wrong login, an e-mail signed up twice, a reset token the
// mock never sent get the app's 400s and words; what the document decides
// (a new user, a login with the right password) is the mock's own answer.
func TestFullStackTemplateExample(t *testing.T) {
	const (
		doc     = "../testdata/corpus/documents/fastapi-full-stack-template/openapi.json"
		example = "../docs/examples/fastapi-full-stack-template"
	)
	b, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(b, doc)
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Compile(sp)
	if err != nil {
		t.Fatal(err)
	}
	data, err := fixtures.LoadDir(example+"/fixtures", m)
	if err != nil {
		t.Fatal(err)
	}
	src, err := scenarios.Dir(example + "/scenarios")
	if err != nil {
		t.Fatal(err)
	}
	set, err := scenarios.Load(sp, data, src)
	if err != nil {
		t.Fatal(err)
	}
	ts, _ := newServer(t, mock.Config{Spec: sp, Model: m, Data: data, Scenarios: set, Scenario: "full-stack-app-rules"})
	c := newClient(t, ts, "", "")
	const api = "/api/v1"
	login := func(user, pass string) answer {
		t.Helper()
		return c.send("POST", api+"/login/access-token", url.Values{"username": {user}, "password": {pass}})
	}
	sendJSON := func(method, path, body string) answer {
		t.Helper()
		c.header.Set("Content-Type", "application/json")
		defer c.header.Del("Content-Type")
		r, err := http.NewRequest(method, c.base+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		r.Header = c.header.Clone()
		resp, err := c.http.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		got, err := io.ReadAll(resp.Body)
		return answer{status: resp.StatusCode, header: resp.Header, body: string(got), err: err}
	}

	c.want("wrong password", login("admin@example.com", "wrongpassword"), 400, `{"detail":"Incorrect email or password"}`)
	c.want("unknown user", login("nobody@example.com", "changethis"), 400, `{"detail":"Incorrect email or password"}`)
	a := login("admin@example.com", "changethis")
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.Unmarshal([]byte(a.body), &tok); a.status != 200 || err != nil || tok.AccessToken == "" {
		t.Fatalf("the first superuser's login: %d %s", a.status, a.body)
	}
	c.header.Set("Authorization", "Bearer "+tok.AccessToken)
	if a := c.get(api + "/users/me"); a.status != 200 || !strings.Contains(a.body, `"email":"admin@example.com","is_active":true,"is_superuser":true`) {
		t.Errorf("/users/me of the first superuser: %d %s", a.status, a.body)
	}
	if a := sendJSON("POST", api+"/users/", `{"email":"admin@example.com","password":"password123"}`); a.status != 400 || a.body != `{"detail":"The user with this email already exists in the system."}` {
		t.Errorf("an admin creating a user of a taken e-mail: %d %s", a.status, a.body)
	}
	c.header.Del("Authorization")

	if a := sendJSON("POST", api+"/users/signup", `{"email":"new@example.com","password":"password123","full_name":"New"}`); a.status != 200 || !strings.Contains(a.body, `"email":"new@example.com"`) {
		t.Errorf("sign-up: %d %s", a.status, a.body)
	}
	if a := sendJSON("POST", api+"/users/signup", `{"email":"new@example.com","password":"password123"}`); a.status != 400 || a.body != `{"detail":"The user with this email already exists in the system"}` {
		t.Errorf("sign-up of a taken e-mail: %d %s", a.status, a.body)
	}
	if a := sendJSON("POST", api+"/users/signup", `{"email":"other@example.com","password":"short"}`); a.status != 422 || !strings.Contains(a.body, `"string_too_short"`) {
		t.Errorf("sign-up with a short password: %d %s, want the document's 422", a.status, a.body)
	}
	if a := login("new@example.com", "password123"); a.status != 200 {
		t.Errorf("the new user's login: %d %s", a.status, a.body)
	}
	if a := sendJSON("POST", api+"/reset-password/", `{"token":"invalidtoken","new_password":"password123"}`); a.status != 400 || a.body != `{"detail":"Invalid token"}` {
		t.Errorf("a reset token the mock never sent: %d %s", a.status, a.body)
	}
}
