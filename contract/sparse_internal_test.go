package contract

import (
	"encoding/json"
	"testing"

	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
)

const sparseDoc = `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{
"/things/{id}":{"get":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Thing"}}}}}}}},
"components":{"schemas":{"Thing":{"type":"object","required":["id"],"properties":{
  "id":{"type":"integer"},
  "limits":{"type":"object","properties":{"optional_a":{"type":"integer"},"optional_b":{"type":"integer"},"required":{"type":"integer"}},"required":["required"]},
  "tags":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"note":{"type":"string"}}}}}}}}}`

// A record answered by a backend that leaves out what it has no value for
// keeps what was sent although a nested object lacks the members the
// reading model fills with null; a FastAPI record, which pydantic dumps
// whole, does not; and a member sent with a value must come back either
// way.
func TestSentFieldsKeptSparse(t *testing.T) {
	t.Parallel()
	decode := func(s string) map[string]any {
		t.Helper()
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	sp, err := spec.Load([]byte(sparseDoc), "sparse.json")
	if err != nil {
		t.Fatal(err)
	}
	want := decode(`{"limits":{"optional_a":null,"optional_b":631,"required":236},"tags":[{"name":"a","note":null}]}`)
	for _, tc := range []struct {
		name   string
		sparse bool
		rec    string
		ok     bool
	}{
		{"sparse, nulls left out", true, `{"limits":{"optional_b":631,"required":236},"tags":[{"name":"a"}]}`, true},
		{"sparse, nulls written", true, `{"limits":{"optional_a":null,"optional_b":631,"required":236},"tags":[{"name":"a","note":null}]}`, true},
		{"sparse, a value lost", true, `{"limits":{"required":236},"tags":[{"name":"a"}]}`, false},
		{"sparse, a member added", true, `{"limits":{"optional_b":631,"required":236,"x":1},"tags":[{"name":"a"}]}`, false},
		{"FastAPI, nulls left out", false, `{"limits":{"optional_b":631,"required":236},"tags":[{"name":"a"}]}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			profile := framework.FastAPI
			if tc.sparse {
				profile = framework.OpenAPI
			}
			m, err := model.Compile(sp, model.WithFramework(profile))
			if err != nil {
				t.Fatal(err)
			}
			c := m.Collection("Thing")
			if c == nil || c.Sparse != tc.sparse {
				t.Fatalf("collection %+v, want Thing, sparse %v", c, tc.sparse)
			}
			got := sentFieldsKept(decode(tc.rec), want, nil, c, nil)
			if (got == nil) != tc.ok {
				t.Errorf("sentFieldsKept = %+v, want ok %v", got, tc.ok)
			}
		})
	}
}
