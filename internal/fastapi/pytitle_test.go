package fastapi

import "testing"

// pydantic's default titles, read from FastAPI 0.141.1's documents: a
// header model's field save_data is "Save Data", a plain header parameter
// save_data (alias save-data) is "Save-Data".
func TestPyTitle(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, want string }{
		{"save_data", "Save Data"},
		{"save-data", "Save-Data"},
		{"if_modified_since", "If Modified Since"},
		{"x_tag", "X Tag"},
		{"host", "Host"},
		{"userID", "Userid"},
		{"a1b", "A1B"},
		{"_private_", "Private"},
	} {
		if got := pyTitle(tc.name); got != tc.want {
			t.Errorf("pyTitle(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}
