package contract_test

import (
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// An operation whose success schema no finite value satisfies (a model
// that requires itself) cannot be answered as the contract says by any
// server: the runner says so and does not test it, rather than fail the
// server on the 500 FastAPI answers or on a value cut short. A list of
// such models may be empty and is tested as usual.
func TestUnsatisfiableOperationNotTested(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{
"/nodes/{node_id}":{"get":{"operationId":"get_node","parameters":[{"name":"node_id","in":"path","required":true,"schema":{"type":"integer","title":"Node Id"}}],
"responses":{"200":{"description":"d","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Node"}}}}}}},
"/nodes":{"get":{"operationId":"list_nodes","responses":{"200":{"description":"d","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/Node"}}}}}}}}},
"components":{"schemas":{
"Node":{"type":"object","properties":{"name":{"type":"string","title":"Name"},"child":{"$ref":"#/components/schemas/Node"}},"required":["name","child"],"title":"Node"}}}}`
	sp, err := spec.Load([]byte(doc), "self")
	if err != nil {
		t.Fatal(err)
	}
	m, err := mock.New(mock.Config{Spec: sp, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	report := run(t, m, contract.Config{Spec: sp, Examples: 3})
	if len(report.Untested) != 1 || report.Untested[0].Operation != "get_node" ||
		!strings.Contains(report.Untested[0].Why, "the 200 answer's schema Node has no finite value") {
		t.Fatalf("untested: %+v", report.Untested)
	}
	if f := failed(report); len(f) > 0 {
		t.Errorf("the mock fails:\n%s", strings.Join(f, "\n"))
	}
	tested := false
	for _, res := range report.Results {
		tested = tested || res.Case.Operation == "list_nodes"
	}
	if !tested {
		t.Error("the list of nodes was not tested")
	}
}
