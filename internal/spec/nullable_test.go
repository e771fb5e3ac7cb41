package spec

import (
	"testing"
)

// Nullable reads every way a document says a value may be null: 3.0's
// nullable, a type list, and an alternative of null in anyOf (FastAPI)
// or oneOf (drf-spectacular's oneOf [$ref, {type: null}], whose required
// members a record must then write as null, not leave out).
func TestNullable(t *testing.T) {
	t.Parallel()
	doc := `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{},"components":{"schemas":{
 "S":{"type":"object","properties":{"name":{"type":"string"}}},
 "nullable":{"type":"string","nullable":true},
 "typeList":{"type":["string","null"]},
 "anyOf":{"anyOf":[{"$ref":"#/components/schemas/S"},{"type":"null"}]},
 "oneOf":{"oneOf":[{"$ref":"#/components/schemas/S"},{"type":"null"}]},
 "plain":{"type":"string"},
 "oneOfNoNull":{"oneOf":[{"type":"string"},{"type":"integer"}]}}}}`
	sp, err := Load([]byte(doc), "nullable.json")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"nullable": true, "typeList": true, "anyOf": true, "oneOf": true, "plain": false, "oneOfNoNull": false} {
		if got := Nullable(sp.Doc.Components.Schemas[name].Value); got != want {
			t.Errorf("%s: Nullable %v, want %v", name, got, want)
		}
	}
}
