package spec

import (
	"bytes"
	"os"
	"os/exec"
	"slices"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/golden"
	"github.com/moviemock/moviemock/internal/reference"
)

func notLogin(op *openapi3.Operation) bool { return op.OperationID != "login" }

// The contract with every operation but login behind OAuth2PasswordBearer
// has the scheme and the per-operation security exactly where FastAPI
// 0.141.1 writes them. testdata/fastapi_require_auth.golden is what a FastAPI
// app with those dependencies serves at /openapi.json (see
// TestFastAPIRequireAuthGolden); its operations have the contract's fields,
// so whole key orders compare.
func TestWithSecurityMatchesFastAPI(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/fastapi_require_auth.golden")
	if err != nil {
		t.Fatal(err)
	}
	fastapi, err := Load(data, "fastapi_require_auth.golden")
	if err != nil {
		t.Fatal(err)
	}
	got, err := mustEmbedded(t).WithSecurity(OAuth2PasswordBearer("auth/login"), notLogin)
	if err != nil {
		t.Fatal(err)
	}
	// keys: the key order must match; value: the JSON too (the app's
	// schemas and responses are not the contract's, so not everywhere).
	type check struct {
		name        string
		path        []string
		keys, value bool
	}
	checks := []check{
		{"top-level keys", nil, true, false},
		{"components keys", []string{"components"}, true, false},
		{"security schemes", []string{"components", "securitySchemes"}, true, true},
	}
	for _, tmpl := range fastapi.KeyOrder("paths") {
		for _, method := range fastapi.KeyOrder("paths", tmpl) {
			checks = append(checks,
				check{method + " " + tmpl + " keys", []string{"paths", tmpl, method}, true, false},
				check{method + " " + tmpl + " security", []string{"paths", tmpl, method, "security"}, false, true})
		}
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			if g, w := got.KeyOrder(c.path...), fastapi.KeyOrder(c.path...); c.keys && !slices.Equal(g, w) {
				t.Errorf("keys %q, FastAPI has %q", g, w)
			}
			g, gok := got.RawJSON(c.path...)
			w, wok := fastapi.RawJSON(c.path...)
			if c.value && (gok != wok || !bytes.Equal(g, w)) {
				t.Errorf("got %s, FastAPI has %s", g, w)
			}
		})
	}
}

// The document without auth declares no security, and WithSecurity leaves
// it unchanged.
func TestDefaultDocumentHasNoSecurity(t *testing.T) {
	t.Parallel()
	sp := mustEmbedded(t)
	before := slices.Clone(sp.JSON())
	if _, err := sp.WithSecurity(OAuth2PasswordBearer("auth/login"), notLogin); err != nil {
		t.Fatal(err)
	}
	for _, doc := range [][]byte{sp.JSON(), sp.YAML()} {
		if bytes.Contains(doc, []byte("security")) || bytes.Contains(doc, []byte("OAuth2PasswordBearer")) {
			t.Errorf("the default document declares security: %.80s", doc)
		}
	}
	if !bytes.Equal(sp.JSON(), before) {
		t.Error("WithSecurity changed the document it was called on")
	}
}

// Placement rules, on small documents: after the metadata in a path item
// with parameters (kept as FastAPI's dict), in the pydantic model's field
// order otherwise; components and securitySchemes created where the models
// put them; what the document already has is kept.
func TestWithSecurityPlacement(t *testing.T) {
	t.Parallel()
	const head = `{"openapi":"3.1.0","info":{"title":"t","version":"1"},`
	const scheme = `{"OAuth2PasswordBearer":{"type":"oauth2","flows":{"password":{"scopes":{},"tokenUrl":"token"}}}}`
	const ok = `"responses":{"200":{"description":"OK"}}`
	const param = `"parameters":[{"name":"q","in":"query","schema":{"type":"integer"}}]`
	for _, tc := range []struct {
		name, doc, want string
	}{
		{
			name: "no parameters: model order, security last",
			doc:  head + `"paths":{"/a":{"get":{"summary":"A","operationId":"a",` + ok + `}}}}`,
			want: head + `"paths":{"/a":{"get":{"summary":"A","operationId":"a",` + ok + `,"security":[{"OAuth2PasswordBearer":[]}]}}},"components":{"securitySchemes":` + scheme + `}}`,
		},
		{
			name: "deprecated comes before security in the model",
			doc:  head + `"paths":{"/a":{"get":{"operationId":"a",` + ok + `,"deprecated":true}}}}`,
			want: head + `"paths":{"/a":{"get":{"operationId":"a",` + ok + `,"deprecated":true,"security":[{"OAuth2PasswordBearer":[]}]}}},"components":{"securitySchemes":` + scheme + `}}`,
		},
		{
			name: "parameters: dict order, security after the metadata",
			doc:  head + `"paths":{"/a/q":{"get":{"tags":["A"],"summary":"A","description":"d","operationId":"a","deprecated":true,` + param + `,` + ok + `}}}}`,
			want: head + `"paths":{"/a/q":{"get":{"tags":["A"],"summary":"A","description":"d","operationId":"a","deprecated":true,"security":[{"OAuth2PasswordBearer":[]}],` + param + `,` + ok + `}}},"components":{"securitySchemes":` + scheme + `}}`,
		},
		{
			name: "a sibling operation with parameters keeps the whole path item a dict",
			doc:  head + `"paths":{"/a/q":{"get":{"operationId":"a",` + param + `,` + ok + `},"put":{"operationId":"b",` + ok + `}}}}`,
			want: head + `"paths":{"/a/q":{"get":{"operationId":"a","security":[{"OAuth2PasswordBearer":[]}],` + param + `,` + ok + `},"put":{"operationId":"b","security":[{"OAuth2PasswordBearer":[]}],` + ok + `}}},"components":{"securitySchemes":` + scheme + `}}`,
		},
		{
			name: "unprotected operations and existing security are left alone",
			doc:  head + `"paths":{"/login":{"post":{"operationId":"login",` + ok + `}},"/b":{"get":{"operationId":"b",` + ok + `,"security":[]}}}}`,
			want: head + `"paths":{"/login":{"post":{"operationId":"login",` + ok + `}},"/b":{"get":{"operationId":"b",` + ok + `,"security":[]}}},"components":{"securitySchemes":` + scheme + `}}`,
		},
		{
			name: "securitySchemes after schemas, a scheme appended to those there",
			doc:  head + `"paths":{},"components":{"schemas":{"X":{"type":"string"}},"securitySchemes":{"K":{"type":"apiKey","name":"k","in":"header"}}}}`,
			want: head + `"paths":{},"components":{"schemas":{"X":{"type":"string"}},"securitySchemes":{"K":{"type":"apiKey","name":"k","in":"header"},"OAuth2PasswordBearer":{"type":"oauth2","flows":{"password":{"scopes":{},"tokenUrl":"token"}}}}}}`,
		},
		{
			name: "components created before a document's tags",
			doc:  head + `"paths":{},"tags":[{"name":"A"}]}`,
			want: head + `"paths":{},"components":{"securitySchemes":` + scheme + `},"tags":[{"name":"A"}]}`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sp, err := Load([]byte(tc.doc), "test.json")
			if err != nil {
				t.Fatal(err)
			}
			got, err := sp.WithSecurity(OAuth2PasswordBearer("token"), notLogin)
			if err != nil {
				t.Fatal(err)
			}
			if string(got.JSON()) != tc.want {
				t.Errorf("JSON\n got %s\nwant %s", got.JSON(), tc.want)
			}
			// The YAML is the same document, in block style although the
			// source was JSON.
			if bytes.HasPrefix(got.YAML(), []byte("{")) {
				t.Errorf("YAML in flow style:\n%s", got.YAML())
			}
			back, err := Load(got.YAML(), "served.yaml")
			if err != nil {
				t.Fatal(err)
			}
			if string(back.JSON()) != tc.want {
				t.Errorf("YAML is another document:\n%s", got.YAML())
			}
		})
	}
}

// testdata/fastapi_require_auth.golden is what the FastAPI app in
// testdata/fastapi_require_auth.py serves. This runs it on the vendored
// FastAPI stack (reference.Stack) and compares; -update rewrites the golden
// file.
func TestFastAPIRequireAuthGolden(t *testing.T) {
	python, stack := reference.Stack(t)
	cmd := exec.Command(python, "testdata/fastapi_require_auth.py")
	cmd.Env = append(os.Environ(), "PYTHONPATH="+stack, "PYTHONDONTWRITEBYTECODE=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("testdata/fastapi_require_auth.py: %v\n%s", err, stderr.Bytes())
	}
	golden.Check(t, "fastapi_require_auth", out)
}
