package contract_test

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/mock"
)

// A list's records are each read by the id it lists, wherever the read
// of one is: under a trailing slash as Django writes both
// (/things/ and /things/{id}/), and for a list in an envelope
// ({count, results}) that the model pairs with the read of the same
// collection.
func TestListedItemsAreRead(t *testing.T) {
	t.Parallel()
	const things = `"components":{"schemas":{"Thing":{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"}},"required":["id","name"]}}}}`
	for _, tc := range []struct{ name, list, item, schema string }{
		{"a trailing slash", "/things/", "/things/{id}/", `{"type":"array","items":{"$ref":"#/components/schemas/Thing"}}`},
		{"an envelope", "/things", "/things/{id}", `{"type":"object","properties":{"count":{"type":"integer"},"results":{"type":"array","items":{"$ref":"#/components/schemas/Thing"}}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc := fmt.Sprintf(`{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{
%q:{"get":{"operationId":"things_list","responses":{"200":{"description":"ok","content":{"application/json":{"schema":%s}}}}}},
%q:{"get":{"operationId":"things_read","parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Thing"}}}},"404":{"description":"missing"}}}}},`, tc.list, tc.schema, tc.item) + things
			sp, m, _ := mockOf(t, []byte(doc), "things.json")
			d, err := fixtures.Generate(m, fixtures.GenerateOptions{Seed: 1, Default: 3})
			if err != nil {
				t.Fatal(err)
			}
			srv, err := mock.New(mock.Config{Spec: sp, Model: m, Data: d})
			if err != nil {
				t.Fatal(err)
			}
			ts := httptest.NewServer(srv)
			t.Cleanup(ts.Close)
			report := runAccount(t, contract.Config{Spec: sp, Model: m, BaseURL: ts.URL, MaxResponseTime: time.Minute})
			if f := failed(report); len(f) > 0 {
				t.Errorf("failures on the mock of the document:\n%s", strings.Join(f, "\n"))
			}
			listed := 0
			for _, res := range report.Results {
				if res.Case.Operation == "things_read" && strings.HasSuffix(res.Case.Name, "(listed by things_list)") {
					listed++
				}
			}
			if listed != 3 {
				t.Errorf("%d listed things read, want 3: %v", listed, report.Notes)
			}
		})
	}
}
