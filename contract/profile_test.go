package contract

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
)

// profileTodoDoc is a todo API no FastAPI wrote: its own Error schema for
// its declared 400, a 404 without content, a bearer-or-basic operation,
// an API-key one, an operation that declares no status for invalid
// input, an action that declares only its refusals (springdoc's, where
// the handler's 200 went unsaid), and a read that declares only a default
// error.
const profileTodoDoc = `{"openapi":"3.0.3","info":{"title":"todo","version":"1"},"paths":{
"/todos":{"post":{"operationId":"createTodo","requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Todo"}}}},
 "responses":{"201":{"description":"created","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Todo"}}}},
  "400":{"description":"bad","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Error"}}}}}}},
"/todos/{id}":{"get":{"operationId":"getTodo","parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],
 "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Todo"}}}},"404":{"description":"none"}}}},
"/ranged":{"get":{"operationId":"ranged","parameters":[{"name":"q","in":"query","required":true,"schema":{"type":"integer"}}],
 "responses":{"200":{"description":"ok"},"4XX":{"description":"bad","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Error"}}}}}}},
"/secure":{"get":{"operationId":"secure","security":[{"basic":[]},{"bearer":[]}],"responses":{"200":{"description":"ok"},"400":{"description":"bad"}}}},
"/keyed":{"get":{"operationId":"keyed","security":[{"key":[]}],"responses":{"200":{"description":"ok"}}}},
"/todos/{id}/done":{"post":{"operationId":"markDone","parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],
 "responses":{"400":{"description":"bad"},"404":{"description":"none"}}}},
"/todos/{id}/note":{"get":{"operationId":"getNote","parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],
 "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Todo"}}}},"default":{"description":"error","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Error"}}}}}}}
},"components":{"schemas":{
 "Todo":{"type":"object","required":["title"],"properties":{"id":{"type":"integer"},"title":{"type":"string"}}},
 "Error":{"type":"object","required":["code","message"],"properties":{"code":{"type":"integer"},"message":{"type":"string"}}}},
 "securitySchemes":{"basic":{"type":"http","scheme":"basic"},"bearer":{"type":"http","scheme":"bearer"},"key":{"type":"apiKey","in":"header","name":"X-Key"}}}}`

// profileFastAPIDoc is the same create as FastAPI writes it.
const profileFastAPIDoc = `{"openapi":"3.1.0","info":{"title":"todo","version":"1"},"paths":{
"/todos":{"post":{"operationId":"createTodo","requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Todo"}}}},
 "responses":{"201":{"description":"Successful Response","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Todo"}}}},
  "422":{"description":"Validation Error","content":{"application/json":{"schema":{"$ref":"#/components/schemas/HTTPValidationError"}}}}}}}
},"components":{"schemas":{
 "Todo":{"type":"object","required":["title"],"properties":{"title":{"type":"string"}}},
 "HTTPValidationError":{"type":"object","properties":{"detail":{"type":"array","items":{"$ref":"#/components/schemas/ValidationError"}}}},
 "ValidationError":{"type":"object","required":["loc","msg","type"],"properties":{"loc":{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"integer"}]}},"msg":{"type":"string"},"type":{"type":"string"}}}}}}`

const problemBody = `{"type":"about:blank","title":"Bad Request","status":400,"detail":"title is required"}`

// The runner judges a document by the profile it shows: a plain-OpenAPI
// target's refusals in its own declared shapes (or problem details where
// it declares none) pass, and are held to those shapes; a FastAPI
// document still demands FastAPI's 422 naming the input.
func TestProfileJudgements(t *testing.T) {
	t.Parallel()
	todo, err := spec.Load([]byte(profileTodoDoc), "todo")
	if err != nil {
		t.Fatal(err)
	}
	fa, err := spec.Load([]byte(profileFastAPIDoc), "fastapi")
	if err != nil {
		t.Fatal(err)
	}
	if name, _ := framework.Detect(todo.Doc); name != framework.OpenAPI {
		t.Fatalf("the todo document shows %s, want %s", name, framework.OpenAPI)
	}
	if name, _ := framework.Detect(fa.Doc); name != framework.FastAPI {
		t.Fatalf("the FastAPI document shows %s, want %s", name, framework.FastAPI)
	}
	type tc struct {
		name         string
		sp           *spec.Spec
		method, path string
		expect       Expect
		reqCT        string // the case's request Content-Type
		status       int
		ct, body     string
		www          string // WWW-Authenticate
		check        func(*checkInput) *verdict
		want         string // "pass", "" (does not apply), else a text the failure has
	}
	const appJSON, problem = "application/json", "application/problem+json"
	cases := []tc{
		// validation_error_shape
		{"declared 400 in the Error schema", todo, "POST", "/todos", ExpectRejection, appJSON, 400, appJSON, `{"code":400,"message":"title is required"}`, "", checkValidationShape, "pass"},
		{"declared 400 not in its schema", todo, "POST", "/todos", ExpectRejection, appJSON, 400, appJSON, `{"detail":"no"}`, "", checkValidationShape, "whose body fits its declared schema"},
		{"problem details where a JSON schema is declared", todo, "POST", "/todos", ExpectRejection, appJSON, 400, problem, problemBody, "", checkValidationShape, "whose body fits"},
		{"an undeclared 422 where 400 is declared", todo, "POST", "/todos", ExpectRejection, appJSON, 422, appJSON, `{"code":422,"message":"x"}`, "", checkValidationShape, "a declared 4xx (400)"},
		{"a 2xx to an invalid request", todo, "POST", "/todos", ExpectRejection, appJSON, 201, appJSON, `{"title":"x"}`, "", checkValidationShape, "got 201"},
		{"415 to a body in a wrong media type", todo, "POST", "/todos", ExpectRejection, "text/plain", 415, problem, problemBody, "", checkValidationShape, "pass"},
		{"415 to a body in the declared media type", todo, "POST", "/todos", ExpectRejection, appJSON, 415, problem, problemBody, "", checkValidationShape, "a declared 4xx"},
		{"any 4xx where no bad-input status is declared", todo, "GET", "/todos/{id}", ExpectRejection, "", 400, problem, problemBody, "", checkValidationShape, "pass"},
		{"a 4XX range's schema holds", todo, "GET", "/ranged", ExpectRejection, "", 400, appJSON, `{"code":400,"message":"q"}`, "", checkValidationShape, "pass"},
		{"a 4XX range's schema broken", todo, "GET", "/ranged", ExpectRejection, "", 422, appJSON, `{"message":1}`, "", checkValidationShape, "fits its declared schema"},
		{"a valid request is not its business", todo, "POST", "/todos", ExpectSuccess, appJSON, 400, appJSON, `{"code":400,"message":"x"}`, "", checkValidationShape, ""},
		{"401 first on a secured operation", todo, "GET", "/secure", ExpectRejection, "", 401, problem, problemBody, "Basic", checkValidationShape, "pass"},
		{"FastAPI: a 400 is not its 422", fa, "POST", "/todos", ExpectRejection, appJSON, 400, problem, problemBody, "", checkValidationShape, "a 422 HTTPValidationError"},
		{"FastAPI: its 422", fa, "POST", "/todos", ExpectRejection, appJSON, 422, appJSON, `{"detail":[{"loc":["body","title"],"msg":"Field required","type":"missing"}]}`, "", checkValidationShape, "pass"},

		// content_type_conformance
		{"problem details for an undeclared status", todo, "GET", "/todos/{id}", ExpectRejection, "", 400, problem, problemBody, "", checkContentType, "pass"},
		{"problem details for a 404 declared without content", todo, "GET", "/todos/{id}", ExpectNotFound, "", 404, problem, problemBody, "", checkContentType, ""},
		{"a 400 not in its declared JSON", todo, "POST", "/todos", ExpectRejection, appJSON, 400, problem, problemBody, "", checkContentType, "Content-Type application/json"},
		{"a 2xx in an undeclared media type", todo, "POST", "/todos", ExpectSuccess, appJSON, 201, "text/plain", "x", "", checkContentType, "Content-Type application/json"},
		{"FastAPI: its own answers are JSON", fa, "POST", "/todos", ExpectRejection, "text/plain", 415, problem, problemBody, "", checkContentType, "Content-Type application/json"},

		// status_code_conformance
		{"415 to a wrong media type", todo, "POST", "/todos", ExpectRejection, "text/plain", 415, problem, problemBody, "", checkStatus, "pass"},
		{"415 to the declared media type", todo, "POST", "/todos", ExpectRejection, appJSON, 415, problem, problemBody, "", checkStatus, "got 415"},
		{"FastAPI: 415 is not its answer", fa, "POST", "/todos", ExpectRejection, "text/plain", 415, problem, problemBody, "", checkStatus, "got 415"},
		{"any 4xx to an invalid request where none is declared", todo, "GET", "/todos/{id}", ExpectRejection, "", 409, problem, problemBody, "", checkStatus, "pass"},
		{"any 2xx where no success is declared", todo, "POST", "/todos/{id}/done", ExpectSuccess, "", 200, appJSON, `{}`, "", checkStatus, "pass"},
		{"no 3xx where no success is declared", todo, "POST", "/todos/{id}/done", ExpectSuccess, "", 302, appJSON, `{}`, "", checkStatus, "got 302"},
		{"an undeclared 2xx where a success is declared", todo, "POST", "/todos", ExpectSuccess, appJSON, 200, appJSON, `{"title":"x"}`, "", checkStatus, "got 200"},
		{"403 on a secured operation", todo, "GET", "/secure", ExpectSuccess, "", 403, problem, problemBody, "", checkStatus, "pass"},
		{"409 to a write whose key is taken", todo, "POST", "/todos", ExpectSuccess, appJSON, 409, problem, problemBody, "", checkStatus, "pass"},
		{"FastAPI: an undeclared 409", fa, "POST", "/todos", ExpectSuccess, appJSON, 409, problem, problemBody, "", checkStatus, "got 409"},
		{"a valid write refused 409: state, not demanded", todo, "POST", "/todos", ExpectSuccess, appJSON, 409, problem, problemBody, "", checkPositive, ""},
		{"a valid write refused 400", todo, "POST", "/todos", ExpectSuccess, appJSON, 400, appJSON, `{"code":400,"message":"x"}`, "", checkPositive, "expected 2xx"},

		// auth_required
		{"Basic challenged for basic-or-bearer", todo, "GET", "/secure", ExpectAuthRequired, "", 401, problem, problemBody, `Basic realm="x", Bearer`, checkAuthRequired, "pass"},
		{"an API key's own challenge", todo, "GET", "/keyed", ExpectAuthRequired, "", 401, problem, problemBody, `ApiKey in="header", name="X-Key"`, checkAuthRequired, "pass"},
		{"a challenge of no declared scheme", todo, "GET", "/keyed", ExpectAuthRequired, "", 401, problem, problemBody, `Bearer`, checkAuthRequired, "naming apikey"},
		{"no challenge for an API key", todo, "GET", "/keyed", ExpectAuthRequired, "", 401, problem, problemBody, "", checkAuthRequired, "pass"},
		{"no challenge owed by an API key's 401", todo, "GET", "/keyed", ExpectAuthRequired, "", 401, problem, problemBody, "", checkHeaders, "pass"},

		// unknown_id_not_found, where the document says so
		{"an unknown id answered 200 where 404 is declared", todo, "GET", "/todos/{id}", ExpectNotFound, "", 200, appJSON, `{"title":"x"}`, "", checkUnknownID, "expected 404, got 200"},
		{"an unknown id answered 404", todo, "GET", "/todos/{id}", ExpectNotFound, "", 404, problem, problemBody, "", checkUnknownID, "pass"},
		{"no 404 declared: nothing demanded", todo, "GET", "/secure", ExpectNotFound, "", 200, appJSON, `{}`, "", checkUnknownID, ""},
		{"a default error declares no 404: nothing demanded", todo, "GET", "/todos/{id}/note", ExpectNotFound, "", 200, appJSON, `{"title":"x"}`, "", checkUnknownID, ""},
		{"FastAPI: its 404 always", fa, "POST", "/todos", ExpectNotFound, appJSON, 201, appJSON, `{"title":"x"}`, "", checkUnknownID, "expected 404"},

		// negative_data_rejection names no framework
		{"a 2xx to input the document refuses", todo, "POST", "/todos", ExpectRejection, appJSON, 201, appJSON, `{"title":"x"}`, "", checkNegative, "expected a 4xx rejection, got 201"},
		{"FastAPI: its 422 named", fa, "POST", "/todos", ExpectRejection, appJSON, 201, appJSON, `{"title":"x"}`, "", checkNegative, "(FastAPI: 422)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := &runner{sp: tc.sp, cfg: &Config{FrameworkStatuses: DefaultFrameworkStatuses}}
			r.setFramework()
			item := tc.sp.Doc.Paths.Value(tc.path)
			op := &operation{method: tc.method, path: tc.path, op: item.GetOperation(tc.method), item: item}
			op.secured = tc.path == "/secure"
			req := Request{Method: tc.method, URL: "http://127.0.0.1:1" + tc.path, Header: http.Header{}}
			if tc.reqCT != "" {
				req.Header.Set("Content-Type", tc.reqCT)
				req.Body = `{"title":1}`
			}
			c := &Case{Kind: Negative, Expect: tc.expect, Field: []any{"body", "title"}, Request: req, op: op}
			h := http.Header{"Content-Type": {tc.ct}}
			if tc.www != "" {
				h.Set("WWW-Authenticate", tc.www)
			}
			x := &checkInput{r: r, res: &Result{Case: c, Response: Response{Status: tc.status, Header: h, Body: []byte(tc.body)}}}
			var v any
			if err := json.Unmarshal([]byte(tc.body), &v); err == nil {
				x.json, x.value, x.decoded = v, v, true
			}
			got := tc.check(x)
			switch {
			case tc.want == "pass" && got != pass:
				t.Errorf("got %+v, want a pass", got)
			case tc.want == "" && got != nil:
				t.Errorf("got %+v, want the check not to apply", got)
			case tc.want != "pass" && tc.want != "":
				if got == nil || got == pass {
					t.Fatalf("got %+v, want a failure saying %q", got, tc.want)
				}
				if text := "expected " + got.expected + ", got " + got.got; !strings.Contains(text, tc.want) {
					t.Errorf("failure %q, want it to say %q", text, tc.want)
				}
			}
		})
	}
}

// An operation under the plain-OpenAPI profile whose schemes the runner
// holds no credentials for gets only its 401 tested; credentials given by
// --header, --query or --cookie let its cases through.
func TestLacksCredentials(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(profileTodoDoc), "todo")
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Compile(sp)
	if err != nil {
		t.Fatal(err)
	}
	forced, err := model.Compile(sp, model.WithFramework(framework.FastAPI))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path string
		m          *model.Model
		header     http.Header
		query      url.Values
		cookie     url.Values
		secured    bool
		want       bool
	}{
		{"an API key, none given", "/keyed", m, nil, nil, nil, false, true},
		{"an API key in --header", "/keyed", m, http.Header{"X-Key": {"k"}}, nil, nil, false, false},
		{"an API key in the wrong place", "/keyed", m, nil, url.Values{"X-Key": {"k"}}, nil, false, true},
		{"no security", "/todos", m, nil, nil, nil, false, false},
		{"bearer or basic: the runner's own handling", "/secure", m, nil, nil, nil, true, false},
		{"the FastAPI profile asked for", "/keyed", forced, nil, nil, nil, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var notes []string
			b := &builder{cfg: &Config{Query: tc.query, Cookie: tc.cookie}, sp: sp, model: tc.m, headers: tc.header, notes: &notes}
			item := sp.Doc.Paths.Value(tc.path)
			method := "GET"
			if item.Get == nil {
				method = "POST"
			}
			o := &operation{method: method, path: tc.path, op: item.GetOperation(method), secured: tc.secured}
			if got := b.lacksCredentials(o); got != tc.want {
				t.Errorf("lacksCredentials = %v, want %v", got, tc.want)
			}
		})
	}
}

// A token endpoint's access_token is a JWT with an exp under FastAPI's
// profile (its recipe); under the plain-OpenAPI one a token may be opaque
// (RFC 6749) and a JWT need not carry exp (RFC 7519), but one it carries
// must be in the future.
func TestProfileJWT(t *testing.T) {
	t.Parallel()
	todo, err := spec.Load([]byte(profileTodoDoc), "todo")
	if err != nil {
		t.Fatal(err)
	}
	fa, err := spec.Load([]byte(profileFastAPIDoc), "fastapi")
	if err != nil {
		t.Fatal(err)
	}
	const head = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"        // {"alg":"HS256","typ":"JWT"}
	const noExp = head + ".eyJzdWIiOiJhIn0.c2ln"               // {"sub":"a"}
	const pastExp = head + ".eyJzdWIiOiJhIiwiZXhwIjoxMH0.c2ln" // {"sub":"a","exp":10}
	for _, tc := range []struct {
		name, token string
		sp          *spec.Spec
		want        string
	}{
		{"an opaque token", "2YotnFZFEjr1zCsicMWpAA", todo, ""},
		{"a JWT without exp", noExp, todo, "pass"},
		{"a JWT with an exp passed", pastExp, todo, "not in the future"},
		{"FastAPI: an opaque token", "2YotnFZFEjr1zCsicMWpAA", fa, "1 dot-separated parts"},
		{"FastAPI: a JWT without exp", noExp, fa, "no numeric exp claim"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := &runner{sp: tc.sp, cfg: &Config{}}
			r.setFramework()
			c := &Case{Expect: ExpectSuccess, op: &operation{method: "POST", path: "/token", tokenEndpoint: true}}
			body := map[string]any{"access_token": tc.token, "token_type": "bearer"}
			x := &checkInput{r: r, json: body, now: time.Now(),
				res: &Result{Case: c, Response: Response{Status: 200, Header: http.Header{"Content-Type": {"application/json"}}}}}
			got := checkJWT(x)
			switch {
			case tc.want == "" && got != nil:
				t.Errorf("got %+v, want the check not to apply", got)
			case tc.want == "pass" && got != pass:
				t.Errorf("got %+v, want a pass", got)
			case tc.want != "" && tc.want != "pass" && (got == nil || got == pass || !strings.Contains(got.got, tc.want)):
				t.Errorf("got %+v, want a failure saying %q", got, tc.want)
			}
		})
	}
}
