package contract_test

import (
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// A document reading its records by a key beside the id (SmallRye's
// Horreum: GET /api/test/byName/{name}), whose key's example the data
// holds already: the runner's create → read by key → delete sequence
// sends a key of its own, not the example, so the read finds the record
// it made, and the mock agrees with the runner.
func TestSequencesSendAFreshKey(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{
"/tests":{"get":{"operationId":"listTests","responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/Test"}}}}}}},
  "post":{"operationId":"addTest","requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Test"}}}},
  "responses":{"201":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Test"}}}}}}},
"/tests/{id}":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],
  "delete":{"operationId":"deleteTest","responses":{"204":{"description":"gone"}}}},
"/tests/byName/{name}":{"get":{"operationId":"getByName","parameters":[{"name":"name","in":"path","required":true,"schema":{"type":"string"}}],
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Test"}}}}}}}},
"components":{"schemas":{"Test":{"type":"object","required":["id","name","access"],"properties":{
  "id":{"type":"integer"},
  "name":{"type":"string","examples":["my-comprehensive-benchmark"],"example":"my-comprehensive-benchmark"},
  "access":{"type":"string","enum":["PUBLIC","PROTECTED","PRIVATE"]}}}}}}`
	sp, err := spec.Load([]byte(doc), "tests.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Compile(sp)
	if err != nil {
		t.Fatal(err)
	}
	data, err := fixtures.Generate(m, fixtures.GenerateOptions{Seed: 1, Default: 20})
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 12; seed++ {
		srv, err := mock.New(mock.Config{Spec: sp, Model: m, Data: data, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		report := run(t, srv, contract.Config{Spec: sp, Seed: seed})
		for _, r := range report.Results {
			if r.Case.Kind == "sequence" && r.Case.Operation == "addTest" && strings.Contains(r.Case.Request.Body, "my-comprehensive-benchmark") {
				t.Errorf("seed %d: the sequence creates %s, the example a record holds", seed, r.Case.Request.Body)
			}
		}
		for _, f := range failed(report) {
			t.Errorf("seed %d: %s", seed, f)
		}
	}
}
