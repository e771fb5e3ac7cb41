package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// serve --spec reads a Swagger 2.0 document: converted to OpenAPI 3.0,
// served as one at /openapi.json, and its operations answered in the
// order its definitions write their properties.
func TestServeSwagger2Spec(t *testing.T) {
	t.Parallel()
	base, _ := serve(t, noEnv, "--quiet", "--spec", "../../internal/spec/testdata/swagger2/petstore.yaml")
	if code, body := get(t, base+"/openapi.json"); code != 200 || !strings.HasPrefix(body, `{"openapi":"3.0.3","info":{"version":"1.0.0","title":"Swagger Petstore"`) {
		t.Errorf("GET /openapi.json: %d %.100s", code, body)
	}
	code, body := get(t, base+"/pets")
	var pets []json.RawMessage
	if code != 200 || json.Unmarshal([]byte(body), &pets) != nil || len(pets) == 0 || !strings.HasPrefix(string(pets[0]), `{"name":`) {
		t.Errorf("GET /pets: %d %s", code, body)
	}
	if code, body := get(t, base+"/pets/abc"); code < 400 || code > 499 {
		t.Errorf("GET /pets/abc (not an integer id): %d %s", code, body)
	}
}
