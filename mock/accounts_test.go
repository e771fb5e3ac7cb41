package mock_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// accountsContract is a FastAPI OAuth2 app whose users live in its code
// (FastAPI's security tutorials' fake_users_db): a login form, a secured
// read, and no schema with a username. token is the login's 200 schema,
// refusals its declared error statuses besides 422.
func accountsContract(token, refusals, users string) string {
	if token == "" {
		token = `{"type":"object","properties":{"access_token":{"type":"string"},"token_type":{"type":"string"}},"required":["access_token","token_type"]}`
	}
	if users == "" {
		users = `"Item":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`
	}
	return `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{
"/token":{"post":{"requestBody":{"required":true,"content":{"application/x-www-form-urlencoded":{"schema":{"$ref":"#/components/schemas/Body_login"}}}},
 "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Token"}}}}` + refusals + `,
  "422":{"description":"v","content":{"application/json":{"schema":{"$ref":"#/components/schemas/HTTPValidationError"}}}}}}},
"/users/me":{"get":{"security":[{"OAuth2PasswordBearer":[]}],"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{}}}}}}}},
"components":{"schemas":{
 "Body_login":{"type":"object","properties":{"username":{"type":"string"},"password":{"type":"string","format":"password"}},"required":["username","password"]},
 "Token":` + token + `,` + users + `,
 "HTTPValidationError":{"type":"object","properties":{"detail":{"type":"array","items":{"$ref":"#/components/schemas/ValidationError"}}}},
 "ValidationError":{"type":"object","properties":{"loc":{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"integer"}]}},"msg":{"type":"string"},"type":{"type":"string"}},"required":["loc","msg","type"]}},
"securitySchemes":{"OAuth2PasswordBearer":{"type":"oauth2","flows":{"password":{"scopes":{},"tokenUrl":"token"}}}}}}`
}

func accountsServer(t *testing.T, doc string, accounts []mock.Account) http.Handler {
	t.Helper()
	sp, err := spec.Load([]byte(doc), "accounts.json")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: sp, Accounts: accounts})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

func loginForm(user, pass string) request {
	return request{method: "POST", target: "/token", body: "username=" + user + "&password=" + pass,
		header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}}
}

// A login on a contract that does not hold its accounts checks the mock's
// accounts (the demo johndoe:secret unless others are configured): the
// right credentials get a signed JWT the secured operations accept, wrong
// ones the refusal FastAPI's OAuth2 tutorials write, a 401 with
// WWW-Authenticate: Bearer, or the 400 without it where the operation
// declares a 400 and no 401.
func TestLoginWithoutUserCollection(t *testing.T) {
	t.Parallel()
	alice := []mock.Account{{Username: "alice", Password: "wonder:land"}}
	for _, tc := range []struct {
		name        string
		refusals    string
		accounts    []mock.Account
		user, pass  string
		status      int
		wwwAuth     string
		wantSubject string
	}{
		{"demo account", "", nil, "johndoe", "secret", 200, "", "johndoe"},
		{"demo account, wrong password", "", nil, "johndoe", "nope", 401, "Bearer", ""},
		{"unknown user", "", nil, "nobody", "secret", 401, "Bearer", ""},
		{"configured account", "", alice, "alice", "wonder:land", 200, "", "alice"},
		{"configured account replaces the demo one", "", alice, "johndoe", "secret", 401, "Bearer", ""},
		{"declared 400, no 401", `,"400":{"description":"bad"}`, nil, "johndoe", "nope", 400, "", ""},
		{"declared 400 and 401", `,"400":{"description":"bad"},"401":{"description":"no"}`, nil, "johndoe", "nope", 401, "Bearer", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := accountsServer(t, accountsContract("", tc.refusals, ""), tc.accounts)
			rec := serve(srv, loginForm(tc.user, tc.pass))
			if rec.Code != tc.status || rec.Header().Get("WWW-Authenticate") != tc.wwwAuth {
				t.Fatalf("login: %d WWW-Authenticate %q %s, want %d %q", rec.Code, rec.Header().Get("WWW-Authenticate"), rec.Body, tc.status, tc.wwwAuth)
			}
			if tc.status != 200 {
				if got := rec.Body.String(); got != `{"detail":"Incorrect username or password"}` {
					t.Errorf("body = %s", got)
				}
				return
			}
			var tok struct{ AccessToken, TokenType string }
			if err := json.Unmarshal(rec.Body.Bytes(), &struct {
				AccessToken *string `json:"access_token"`
				TokenType   *string `json:"token_type"`
			}{&tok.AccessToken, &tok.TokenType}); err != nil || tok.TokenType != "bearer" {
				t.Fatalf("login answer %s", rec.Body)
			}
			if sub := parseToken(t, tok.AccessToken, mock.DefaultJWTSecret)["sub"]; sub != tc.wantSubject {
				t.Errorf("sub = %v, want %s", sub, tc.wantSubject)
			}
			me := serve(srv, request{target: "/users/me", header: http.Header{"Authorization": {"Bearer " + tok.AccessToken}}})
			if me.Code != 200 {
				t.Errorf("GET /users/me with the token: %d %s", me.Code, me.Body)
			}
		})
	}
}

// A login whose declared answer has more than the token (an expiry) answers
// every declared member, the token among them.
func TestLoginAnswersTheDeclaredTokenSchema(t *testing.T) {
	t.Parallel()
	token := `{"type":"object","properties":{"access_token":{"type":"string"},"expire":{"type":"integer"},"token_type":{"type":"string","enum":["bearer"],"default":"bearer"}},"required":["access_token","expire"]}`
	doc := accountsContract(token, "", "")
	srv := accountsServer(t, doc, nil)
	rec := serve(srv, loginForm("johndoe", "secret"))
	if rec.Code != 200 {
		t.Fatalf("login: %d %s", rec.Code, rec.Body)
	}
	body := rec.Body.String()
	if !strings.HasPrefix(body, `{"access_token":"ey`) || !strings.Contains(body, `"expire":`) || !strings.HasSuffix(body, `,"token_type":"bearer"}`) {
		t.Errorf("login answer %s, want access_token, expire, token_type in the document's order", body)
	}
	sp, _ := spec.Load([]byte(doc), "accounts.json")
	var v any
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	if err := sp.Validate(sp.Schema("Token"), v, true); err != nil {
		t.Errorf("login answer %s does not fit the Token schema: %v", body, err)
	}
}

// On a contract with users, a configured account logs in beside the data's
// users and is a user of the collection: the current user answers it.
func TestAccountUnderLoginCollection(t *testing.T) {
	t.Parallel()
	users := `"User":{"type":"object","properties":{"id":{"type":"integer"},"username":{"type":"string"},"email":{"type":"string"}},"required":["id","username","email"]}`
	doc := strings.Replace(accountsContract("", "", users), `"/users/me":{"get":{"security":[{"OAuth2PasswordBearer":[]}],"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{}}}}}}}`,
		`"/users/me":{"get":{"security":[{"OAuth2PasswordBearer":[]}],"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/User"}}}}}}}`, 1)
	srv := accountsServer(t, doc, []mock.Account{{Username: "leodoe", Password: "leodoepass"}})
	if rec := serve(srv, loginForm("johndoe", "secret")); rec.Code != 401 {
		t.Errorf("the demo account on a contract with users: %d, want 401", rec.Code)
	}
	rec := serve(srv, loginForm("leodoe", "leodoepass"))
	if rec.Code != 200 {
		t.Fatalf("login: %d %s", rec.Code, rec.Body)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	json.Unmarshal(rec.Body.Bytes(), &tok)
	me := serve(srv, request{target: "/users/me", header: http.Header{"Authorization": {"Bearer " + tok.AccessToken}}})
	var user struct {
		ID       int    `json:"id"`
		Username string `json:"username"`
		Email    string `json:"email"`
	}
	if err := json.Unmarshal(me.Body.Bytes(), &user); me.Code != 200 || err != nil || user.Username != "leodoe" || user.ID == 0 || user.Email == "" {
		t.Errorf("GET /users/me: %d %s, want leodoe's record", me.Code, me.Body)
	}
}

// A create fills its owner field with the token's user's id as the field
// holds it: an integer id in a string field is its decimal text.
func TestOwnerFieldTakesTheUserIDInItsType(t *testing.T) {
	t.Parallel()
	users := `"User":{"type":"object","properties":{"id":{"type":"integer"},"username":{"type":"string"}},"required":["id","username"]},
 "PostCreate":{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]},
 "Post":{"type":"object","properties":{"id":{"type":"integer"},"title":{"type":"string"},"author_id":{"anyOf":[{"type":"string"},{"type":"null"}]}},"required":["id","title"]}`
	doc := strings.Replace(accountsContract("", "", users), `"/users/me":{"get":{"security":[{"OAuth2PasswordBearer":[]}],"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{}}}}}}}`,
		`"/users/me":{"get":{"security":[{"OAuth2PasswordBearer":[]}],"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/User"}}}}}}},
"/posts":{"post":{"security":[{"OAuth2PasswordBearer":[]}],"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/PostCreate"}}}},
 "responses":{"201":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Post"}}}},
  "422":{"description":"v","content":{"application/json":{"schema":{"$ref":"#/components/schemas/HTTPValidationError"}}}}}}}`, 1)
	srv := accountsServer(t, doc, []mock.Account{{Username: "leodoe", Password: "leodoepass"}})
	rec := serve(srv, loginForm("leodoe", "leodoepass"))
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &tok); err != nil || rec.Code != 200 {
		t.Fatalf("login: %d %s", rec.Code, rec.Body)
	}
	created := serve(srv, request{method: "POST", target: "/posts", body: `{"title":"hello"}`,
		header: http.Header{"Authorization": {"Bearer " + tok.AccessToken}, "Content-Type": {"application/json"}}})
	if created.Code != 201 || created.Body.String() != `{"id":1,"title":"hello","author_id":"1"}` {
		t.Errorf("POST /posts: %d %s, want the account's id 1 as author_id \"1\"", created.Code, created.Body)
	}
}
