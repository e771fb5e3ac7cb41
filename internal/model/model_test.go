package model

import (
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
)

func TestEmbeddedContract(t *testing.T) {
	sp, err := spec.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	m, err := Compile(sp)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range m.Collections {
		t.Logf("collection %s file %s id %v login=%v", c.Name, c.File, c.IDKind, c == m.Login)
		for _, f := range c.Fields {
			t.Logf("  %s type=%s fmt=%s req=%v null=%v def=%s embed=%v refers=%v", f.Name, f.Type, f.Format, f.Required, f.Nullable, f.Default, f.Embed, f.Refers)
		}
	}
	for _, o := range m.Operations {
		t.Logf("%s %s %v coll=%v status=%d why=%s", o.Method, o.Path, o.Kind, o.Coll, o.Status, o.Why)
	}
}
