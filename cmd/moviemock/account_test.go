package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/mock"
)

// --account reads name:password and then the fields of its user record:
// the password runs to the first ":NAME=", a value to the next ",NAME=".
func TestParseAccount(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want mock.Account
		err  string
	}{
		{"alice:wonderland", mock.Account{Username: "alice", Password: "wonderland"}, ""},
		{"alice:won:der:land", mock.Account{Username: "alice", Password: "won:der:land"}, ""},
		{"admin@example.com:changethis:is_superuser=true", mock.Account{Username: "admin@example.com", Password: "changethis",
			Fields: []mock.AccountField{{Name: "is_superuser", Value: "true"}}}, ""},
		{"a:p:full_name=Doe, Jane,image=https://x.example/a.png,n=", mock.Account{Username: "a", Password: "p",
			Fields: []mock.AccountField{{Name: "full_name", Value: "Doe, Jane"}, {Name: "image", Value: "https://x.example/a.png"}, {Name: "n", Value: ""}}}, ""},
		{"alice", mock.Account{}, "is not name:password"},
		{":secret", mock.Account{}, "is not name:password"},
		{"alice::is_superuser=true", mock.Account{}, "the password is empty"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			got, err := parseAccount(tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("%+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

// On the full-stack FastAPI template's document, with no fixture file,
// --account sets the superuser's fields: /users/me says is_superuser and
// the name given. A field the schema lacks, or a value its type refuses,
// stops serve with an error naming the account, the field and the
// schema's fields.
func TestAccountFieldsOnTemplate(t *testing.T) {
	t.Parallel()
	const doc = "../../testdata/corpus/documents/fastapi-full-stack-template/openapi.json"
	base, _ := serve(t, noEnv, "--quiet", "--spec", doc, "--account", "admin@example.com:changethis:is_superuser=true,full_name=Ada Admin")
	resp, err := http.PostForm(base+"/api/v1/login/access-token", url.Values{"username": {"admin@example.com"}, "password": {"changethis"}})
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	err = json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	if err != nil || tok.AccessToken == "" {
		t.Fatalf("login: %d %v", resp.StatusCode, err)
	}
	req, _ := http.NewRequest("GET", base+"/api/v1/users/me", nil)
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var me map[string]any
	err = json.NewDecoder(resp.Body).Decode(&me)
	resp.Body.Close()
	if err != nil || me["is_superuser"] != true || me["full_name"] != "Ada Admin" || me["email"] != "admin@example.com" {
		t.Fatalf("/users/me: %d %v %v", resp.StatusCode, me, err)
	}
	for _, tc := range []struct{ account, want string }{
		{"admin@example.com:changethis:is_admin=true", `account admin@example.com: is_admin is no field of UserPublic an account can set (its fields: is_active, is_superuser, full_name, id, created_at)`},
		{"admin@example.com:changethis:is_superuser=yes", `account admin@example.com: field is_superuser: "yes" is not a boolean (true or false)`},
		{"admin@example.com:changethis:full_name=" + strings.Repeat("x", 256), `account admin@example.com: field full_name: the value does not fit its schema`},
	} {
		// cancelled: a run that wrongly starts stops at once
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--spec", doc, "--account", tc.account}, noEnv, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("--account %s: %v, want an error saying %s", tc.account, err, tc.want)
		}
	}
}
