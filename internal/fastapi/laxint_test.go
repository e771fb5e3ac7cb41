package fastapi

import (
	"encoding/json"
	"os"
	"strings"
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

// Measured on pydantic 2.13.4: which long strings are int_parsing_size,
// which int_parsing, which valid.
func TestIntTooLong(t *testing.T) {
	t.Parallel()
	r := strings.Repeat
	for _, tc := range []struct {
		name, s       string
		tooLong, ints bool // int_parsing_size; else a valid int?
	}{
		{"4300 digits", r("1", 4300), false, true},
		{"4301 digits", r("1", 4301), true, false},
		{"leading zeros do not count", r("0", 10) + r("1", 4300), false, true},
		{"a minus counts", "-" + r("1", 4300), true, false},
		{"a plus does not", "+" + r("1", 4300), false, true},
		{"white space does not", " " + r("1", 4300) + " ", false, true},
		{"a zero fraction does not", r("1", 4300) + ".0", false, true},
		{"4301 digits and a zero fraction", r("1", 4301) + ".0", true, false},
		{"a bad tail after 4301 digits", r("1", 4301) + "x", true, false},
		{"a bad char within the first 4300", r("1", 2000) + "x" + r("1", 2300), false, false},
		{"underscores split the run", "1_" + r("1", 4300), false, false},
		{"underscores between few digits", r("1_", 2200) + "1", false, true},
		{"non-ASCII digits", r("١", 4301), false, false},
	} {
		if got := IntTooLong(tc.s); got != tc.tooLong {
			t.Errorf("%s: IntTooLong = %v, want %v", tc.name, got, tc.tooLong)
		}
		if tc.tooLong {
			continue
		}
		if _, ok := ParseLaxInt(tc.s); ok != tc.ints {
			t.Errorf("%s: ParseLaxInt ok = %v, want %v", tc.name, ok, tc.ints)
		}
	}
}
