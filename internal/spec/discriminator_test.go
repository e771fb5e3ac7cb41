package spec

import (
	"encoding/json"
	"strings"
	"testing"
)

// A discriminator without a mapping maps its component schemas' names
// (OpenAPI 3.0): a Motorcycle is a Motorcycle although a Car has its
// shape; a value naming no alternative fails; an explicit mapping is kept
// as written.
func TestImplicitDiscriminatorMapping(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{},"components":{"schemas":{
"Vehicle":{"oneOf":[{"$ref":"#/components/schemas/Car"},{"$ref":"#/components/schemas/Motorcycle"}],"discriminator":{"propertyName":"vehicleType"}},
"Mapped":{"oneOf":[{"$ref":"#/components/schemas/Car"},{"$ref":"#/components/schemas/Motorcycle"}],"discriminator":{"propertyName":"vehicleType","mapping":{"car":"#/components/schemas/Car"}}},
"Car":{"type":"object","required":["vehicleType","make"],"properties":{"vehicleType":{"type":"string"},"make":{"type":"string"},"doors":{"type":"integer"}}},
"Motorcycle":{"type":"object","required":["vehicleType","make"],"properties":{"vehicleType":{"type":"string"},"make":{"type":"string"},"engineSize":{"type":"number"}}}}}}`
	sp, err := Load([]byte(doc), "vehicles")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		schema, value string
		wantErr       string // "" passes
	}{
		{"Vehicle", `{"vehicleType":"Motorcycle","make":"m","engineSize":1.5}`, ""},
		{"Vehicle", `{"vehicleType":"Car","make":"m","doors":4}`, ""},
		{"Vehicle", `{"vehicleType":"Boat","make":"m"}`, "discriminator"},
		{"Mapped", `{"vehicleType":"car","make":"m"}`, ""},
		{"Mapped", `{"vehicleType":"Motorcycle","make":"m"}`, "discriminator"},
	} {
		t.Run(tc.schema+" "+tc.value, func(t *testing.T) {
			t.Parallel()
			var v any
			if err := json.Unmarshal([]byte(tc.value), &v); err != nil {
				t.Fatal(err)
			}
			err := sp.Validate(sp.Doc.Components.Schemas[tc.schema].Value, v, true)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("err = %v, want none", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("err = %v, want one mentioning %q", err, tc.wantErr)
			}
		})
	}
}
