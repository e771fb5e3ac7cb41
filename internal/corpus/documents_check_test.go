package corpus

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkDoc is a small document of the constructs checkAnswer judges by.
const checkDoc = `{
  "openapi": "3.0.3",
  "info": {"title": "t", "version": "1"},
  "paths": {
    "/items/{id}": {
      "get": {
        "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer", "minimum": 3}}],
        "responses": {
          "200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}},
          "400": {"description": "bad", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
          "404": {"description": "none"}
        }
      }
    },
    "/free": {
      "post": {
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}},
        "responses": {
          "201": {"description": "made", "content": {"text/*": {}}},
          "default": {"description": "error", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}
        }
      }
    },
    "/bare": {
      "delete": {"responses": {"204": {"description": "gone"}}}
    },
    "/things/{id}": {
      "put": {
        "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}},
        "responses": {"200": {"description": "ok"}}
      }
    },
    "/refusals": {
      "post": {
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}},
        "responses": {"400": {"description": "bad"}, "405": {"description": "no"}}
      }
    },
    "/guarded": {
      "get": {
        "parameters": [{"name": "limit", "in": "query", "schema": {"type": "integer"}}],
        "responses": {"200": {"description": "ok"}, "401": {"description": "no token"}, "429": {"description": "slow down"}}
      }
    }
  },
  "components": {
    "schemas": {
      "Item": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}, "note": {"type": "string", "nullable": true}}},
      "Problem": {"type": "object", "required": ["title"], "properties": {"title": {"type": "string"}}}
    }
  }
}`

func TestCheckAnswer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "openapi.json")
	if err := os.WriteFile(path, []byte(checkDoc), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := loadDocument("check", path)
	if err != nil {
		t.Fatal(err)
	}
	ops := map[string]*docOperation{}
	for _, op := range d.ops {
		ops[op.String()] = op
	}
	tests := []struct {
		name    string
		op      string
		invalid bool
		status  int
		ctype   string
		body    string
		want    string // a part of the verdict; "" for none
	}{
		{"declared status, schema kept", "GET /items/{id}", false, 200, "application/json", `{"name":"a"}`, ""},
		{"nullable written as null", "GET /items/{id}", false, 200, "application/json", `{"name":"a","note":null}`, ""},
		{"body the schema refuses", "GET /items/{id}", false, 200, "application/json", `{"note":"x"}`, "schema refuses"},
		{"body not JSON", "GET /items/{id}", false, 200, "application/json", `{`, "not JSON"},
		{"undeclared media type", "GET /items/{id}", false, 200, "text/plain", `a`, `in "text/plain"`},
		{"undeclared status", "GET /items/{id}", false, 500, "application/json", `{}`, "declares 200, 400, 404"},
		{"valid request refused though declared", "GET /items/{id}", false, 400, "application/problem+json", `{"title":"x"}`, "to a valid request"},
		{"valid request refused for its credentials", "GET /items/{id}", false, 401, "application/json", `{}`, "credentials"},
		{"no record: a declared 404 without content", "GET /items/{id}", false, 404, "application/json", `{"detail":"x"}`, ""},
		{"invalid refused with the declared 4xx", "GET /items/{id}", true, 400, "application/problem+json", `{"title":"x"}`, ""},
		{"invalid refused in another schema", "GET /items/{id}", true, 400, "application/problem+json", `{"detail":"x"}`, "schema refuses"},
		{"invalid refused in another media type", "GET /items/{id}", true, 400, "application/json", `{"title":"x"}`, `in "application/json"`},
		{"invalid refused with an undeclared 4xx", "GET /items/{id}", true, 422, "application/json", `{}`, "declares 200, 400, 404"},
		{"invalid accepted", "GET /items/{id}", true, 200, "application/json", `{"name":"a"}`, "not a 4xx"},
		{"media range matches", "POST /free", false, 201, "text/plain", `made`, ""},
		{"default holds the error", "POST /free", false, 500, "application/json", `{"title":"x"}`, ""},
		{"default's schema refuses", "POST /free", false, 500, "application/json", `{"detail":"x"}`, "DEFAULT schema refuses"},
		{"invalid, no 4xx declared: default's schema", "POST /free", true, 422, "application/json", `{"detail":[]}`, "DEFAULT schema refuses"},
		{"invalid, no 4xx declared: any 4xx in default's shape", "POST /free", true, 422, "application/json", `{"title":"x"}`, ""},
		{"no content declared: any body", "DELETE /bare", false, 204, "", ``, ""},
		{"nothing declared for an invalid one: any 4xx", "DELETE /bare", true, 404, "application/json", `{}`, ""},
		{"no bad-input status declared: an undeclared 400 will do", "GET /guarded", true, 400, "application/json", `{}`, ""},
		{"no bad-input status declared: still a 4xx", "GET /guarded", true, 500, "application/json", `{}`, "not a 4xx"},
		{"a made-up key's record not there: its undeclared 404", "PUT /things/{id}", false, 404, "application/json", `{"detail":"Thing not found"}`, ""},
		{"a value some record holds: an undeclared 409", "PUT /things/{id}", false, 409, "application/json", `{"detail":"taken"}`, ""},
		{"the application's own 400 to a write", "PUT /things/{id}", false, 400, "application/json", `{"detail":"Username already registered"}`, ""},
		{"a validation 400 to a valid write", "PUT /things/{id}", false, 400, "application/json", `{"detail":[{"loc":["body","name"]}]}`, "to a valid request"},
		{"no key in the path: an undeclared 404", "DELETE /bare", false, 404, "application/json", `{}`, "declares 204"},
		{"no key in the path: an undeclared 409", "DELETE /bare", false, 409, "application/json", `{}`, "declares 204"},
		{"only refusals declared: any 2xx succeeds", "POST /refusals", false, 200, "", ``, ""},
		{"only refusals declared: no 3xx", "POST /refusals", false, 302, "", ``, "declares 400, 405"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			op := ops[tc.op]
			if op == nil {
				t.Fatalf("no operation %s in %v", tc.op, ops)
			}
			h := http.Header{}
			if tc.ctype != "" {
				h.Set("Content-Type", tc.ctype)
			}
			got := d.checkAnswer(op, tc.status, h, []byte(tc.body), tc.invalid)
			switch {
			case tc.want == "" && got != "":
				t.Errorf("checkAnswer = %q, want no fault", got)
			case tc.want != "" && !strings.Contains(got, tc.want):
				t.Errorf("checkAnswer = %q, want one saying %q", got, tc.want)
			}
		})
	}
}

func TestBreakingRequests(t *testing.T) {
	path := filepath.Join(t.TempDir(), "openapi.json")
	if err := os.WriteFile(path, []byte(checkDoc), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := loadDocument("check", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range d.ops {
		switch op.String() {
		case "GET /items/{id}":
			valid, err := d.request(op, breaking{})
			if err != nil || len(valid.invalidValues) > 0 {
				t.Fatalf("valid request: %v %v", err, valid.invalidValues)
			}
			if valid.path != "/items/3" {
				t.Errorf("valid path = %q, want /items/3 (the minimum)", valid.path)
			}
			p := d.wrongTypeParam(op)
			if p == nil || p.name != "id" {
				t.Fatalf("wrongTypeParam = %v, want id", p)
			}
			bad, err := d.request(op, breaking{param: p})
			if err != nil || bad.path != "/items/not-a-number" {
				t.Errorf("broken request path = %q (%v), want /items/not-a-number", bad.path, err)
			}
		case "POST /free":
			if f := d.requiredBodyField(op); f != "name" {
				t.Fatalf("requiredBodyField = %q, want name", f)
			}
			valid, err := d.request(op, breaking{})
			if err != nil || string(valid.body) != `{"name":"a"}` {
				t.Errorf("valid body = %s (%v), want {\"name\":\"a\"}", valid.body, err)
			}
			bad, err := d.request(op, breaking{dropReq: "name"})
			if err != nil || string(bad.body) != `{}` {
				t.Errorf("broken body = %s (%v), want {}", bad.body, err)
			}
		}
	}
}

// loginDoc has two logins of its own, one taking its members at the top
// of the body (dj-rest-auth's), one wrapping them (RealWorld's), and a
// POST with a password that is no login.
const loginDoc = `{
  "openapi": "3.0.3",
  "info": {"title": "t", "version": "1"},
  "paths": {
    "/rest-auth/login/": {"post": {
      "requestBody": {"content": {"application/json": {"schema": {"type": "object", "required": ["password"],
        "properties": {"username": {"type": "string"}, "email": {"type": "string"}, "password": {"type": "string"}}}}}},
      "responses": {"200": {"description": "ok"}}}},
    "/users/login": {"post": {
      "requestBody": {"content": {"application/json": {"schema": {"type": "object", "required": ["user"], "properties": {"user": {"$ref": "#/components/schemas/Login"}}}}}},
      "responses": {"200": {"description": "ok"}}}},
    "/users": {"post": {
      "requestBody": {"content": {"application/json": {"schema": {"type": "object", "required": ["user"], "properties": {"user": {"$ref": "#/components/schemas/Login"}}}}}},
      "responses": {"201": {"description": "made"}}}}
  },
  "components": {"schemas": {"Login": {"type": "object", "required": ["email", "password"],
    "properties": {"email": {"type": "string"}, "password": {"type": "string"}}}}}
}`

// The valid request of a login of the document's own carries the account
// the mock is started with (--account), where the body names accounts and
// in the envelope it wraps them in; no other request does.
func TestLoginCarriesTheAccount(t *testing.T) {
	path := filepath.Join(t.TempDir(), "openapi.json")
	if err := os.WriteFile(path, []byte(loginDoc), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := loadDocument("login", path)
	if err != nil {
		t.Fatal(err)
	}
	if !d.hasLogin() {
		t.Fatal("hasLogin = false")
	}
	want := map[string]string{
		"POST /rest-auth/login/": `{"email":"corpus@example.com","password":"corpus-password","username":"corpus@example.com"}`,
		"POST /users/login":      `{"user":{"email":"corpus@example.com","password":"corpus-password"}}`,
		"POST /users":            `{"user":{"email":"a","password":"a"}}`,
	}
	for _, op := range d.ops {
		r, err := d.request(op, breaking{})
		if err != nil || len(r.invalidValues) > 0 {
			t.Fatalf("%s: %v %v", op, err, r.invalidValues)
		}
		if got := string(r.body); got != want[op.String()] {
			t.Errorf("%s: body %s, want %s", op, got, want[op.String()])
		}
	}
}

// The valid requests go in the document's order, every DELETE last, a
// path's before the path it extends.
func TestSendOrderDeletesLast(t *testing.T) {
	var ops []*docOperation
	for _, s := range []string{"GET /a/{id}", "PUT /a/{id}", "DELETE /a/{id}", "DELETE /a/{id}/c", "PATCH /a/{id}", "DELETE /b", "POST /b/{id}/like"} {
		method, path, _ := strings.Cut(s, " ")
		ops = append(ops, &docOperation{method: method, path: path})
	}
	var got []string
	for _, op := range sendOrder(ops) {
		got = append(got, op.String())
	}
	want := "GET /a/{id}, PUT /a/{id}, PATCH /a/{id}, POST /b/{id}/like, DELETE /b, DELETE /a/{id}/c, DELETE /a/{id}"
	if strings.Join(got, ", ") != want {
		t.Errorf("sendOrder = %s, want %s", strings.Join(got, ", "), want)
	}
}
