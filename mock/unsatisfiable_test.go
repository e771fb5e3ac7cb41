package mock_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// selfRequired is FastAPI's document of a model that requires itself
// (class Node(BaseModel): name: str; child: Node), answered by one
// operation and listed by another.
const selfRequired = `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{
"/nodes/{node_id}":{"get":{"operationId":"get_node","parameters":[{"name":"node_id","in":"path","required":true,"schema":{"type":"integer","title":"Node Id"}}],
"responses":{"200":{"description":"d","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Node"}}}},
"422":{"description":"v","content":{"application/json":{"schema":{"$ref":"#/components/schemas/HTTPValidationError"}}}}}}},
"/nodes":{"get":{"operationId":"list_nodes","responses":{"200":{"description":"d","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/Node"}}}}}}}}},
"components":{"schemas":{
"Node":{"type":"object","properties":{"name":{"type":"string","title":"Name"},"child":{"$ref":"#/components/schemas/Node"}},"required":["name","child"],"title":"Node"},
"HTTPValidationError":{"properties":{"detail":{"items":{"$ref":"#/components/schemas/ValidationError"},"type":"array","title":"Detail"}},"type":"object","title":"HTTPValidationError"},
"ValidationError":{"properties":{"loc":{"items":{"anyOf":[{"type":"string"},{"type":"integer"}]},"type":"array","title":"Location"},"msg":{"type":"string","title":"Message"},"type":{"type":"string","title":"Error Type"}},"type":"object","required":["loc","msg","type"],"title":"ValidationError"}}}}`

// No value of a model that requires itself exists, so FastAPI's response
// validation fails whatever its endpoint returns: the mock answers FastAPI's
// 500 after validating the request, never a value cut short with null. A
// list of such models may be empty, and is served.
func TestUnsatisfiableAnswerIsFastAPIs500(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(selfRequired), "self")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, mock.Config{Spec: sp, Seed: 1})
	if notes := strings.Join(srv.GenerationNotes(), "\n"); !strings.Contains(notes, "schema Node: no finite value") {
		t.Errorf("no start-up note names Node: %q", notes)
	}
	for _, tc := range []struct {
		path   string
		status int
		body   string
		marked bool
	}{
		{"/nodes/1", http.StatusInternalServerError, "Internal Server Error", true},
		{"/nodes/x", http.StatusUnprocessableEntity, `"int_parsing"`, false},
		{"/nodes", http.StatusOK, "[", false},
	} {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("GET", tc.path, nil))
		body := rec.Body.String()
		if rec.Code != tc.status || !strings.Contains(body, tc.body) || strings.Contains(body, "null") {
			t.Errorf("GET %s: %d %s; want %d with %s", tc.path, rec.Code, body, tc.status, tc.body)
		}
		if marked := rec.Header().Get("X-Mock-Error") != ""; marked != tc.marked {
			t.Errorf("GET %s: X-Mock-Error %q", tc.path, rec.Header().Get("X-Mock-Error"))
		}
	}
}
