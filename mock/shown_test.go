package mock_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// A key an answer of the mock showed (a list answered from its example)
// names a record, though the mock keeps none under it: its read answers
// the object shown, filled to its schema, where it would 404 a key
// nothing showed.
func TestShownKeyIsRead(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("testdata/goa-tiny-list.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(doc, "goa-tiny-list.yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: sp, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	rec := serve(srv, request{method: "GET", target: "/bottles/123abc"})
	var b struct {
		ID, Name string
		Winery   struct{ Name, Country string }
	}
	if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &b) != nil || b.ID != "123abc" || b.Name != "Blue's Cuvee" || b.Winery.Name != "Longoria" {
		t.Errorf("GET /bottles/123abc: %d %s, want 200 the bottle the list shows", rec.Code, rec.Body)
	}
	conforms(t, sp, "GET", "/bottles/{id}", rec.Code, rec.Header().Get("Content-Type"), rec.Body.Bytes())
	if rec := serve(srv, request{method: "GET", target: "/bottles/nothing-showed-this"}); rec.Code != 404 {
		t.Errorf("GET /bottles/nothing-showed-this: %d %s, want 404", rec.Code, rec.Body)
	}
}
