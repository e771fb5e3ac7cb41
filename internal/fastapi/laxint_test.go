package fastapi

import (
	"encoding/json"
	"os"
	"testing"
)

// testdata/laxint_pydantic.json was produced by pydantic 2.13.4:
// TypeAdapter(int).validate_python(s) for each input, recording whether it
// was accepted and the value. ParseLaxInt must agree on every row.
func TestParseLaxIntMatchesPydantic(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("testdata/laxint_pydantic.json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		Input string `json:"input"`
		Valid bool   `json:"valid"`
		Value string `json:"value"`
	}
	if err := json.Unmarshal(raw, &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) < 70 {
		t.Fatalf("oracle table has %d rows, want the full table", len(rows))
	}
	for _, row := range rows {
		got, ok := ParseLaxInt(row.Input)
		if ok != row.Valid {
			t.Errorf("ParseLaxInt(%q) ok = %v, pydantic says %v", row.Input, ok, row.Valid)
			continue
		}
		if ok && got.Text != row.Value {
			t.Errorf("ParseLaxInt(%q) = %s, pydantic says %s", row.Input, got.Text, row.Value)
		}
	}
}

func TestParseLaxIntRange(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		fits bool
		v    int64
	}{
		{"9223372036854775807", true, 9223372036854775807},
		{"-9223372036854775808", true, -9223372036854775808},
		{"9223372036854775808", false, 0},
		{"1_000.00", true, 1000},
	} {
		got, ok := ParseLaxInt(tc.in)
		if !ok || got.Fits != tc.fits || (tc.fits && got.Int64 != tc.v) {
			t.Errorf("ParseLaxInt(%q) = %+v, %v; want fits=%v value=%d", tc.in, got, ok, tc.fits, tc.v)
		}
	}
}

func FuzzParseLaxInt(f *testing.F) {
	for _, s := range []string{"12", " +1_000.00 ", "1e3", "١٢", "-0", "99999999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := ParseLaxInt(s)
		if !ok {
			return
		}
		// Whatever is accepted has a canonical form that parses to itself.
		again, ok2 := ParseLaxInt(got.Text)
		if !ok2 || again.Text != got.Text || again.Fits != got.Fits || again.Int64 != got.Int64 {
			t.Fatalf("%q -> %+v, but its text re-parses to %+v %v", s, got, again, ok2)
		}
	})
}
