package contract

import (
	"encoding/json"
	"testing"
)

// A header parameter read through a pydantic model is reported under the
// model's field name: a 422 naming save_data names the save-data header.
func TestSameLoc(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		loc, want string
		ok        bool
	}{
		{`["body","username"]`, `["body","username"]`, true},
		{`["header","save_data"]`, `["header","save-data"]`, true},
		{`["header","x-tag",0]`, `["header","x_tag",0]`, true},
		{`["query","save_data"]`, `["query","save-data"]`, false},
		{`["header","save_data"]`, `["header","savedata"]`, false},
		{`["header","x-tag",1]`, `["header","x_tag",0]`, false},
		{`["header"]`, `["header","x"]`, false},
	} {
		var loc, want []any
		if err := json.Unmarshal([]byte(tc.loc), &loc); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(tc.want), &want); err != nil {
			t.Fatal(err)
		}
		if got := sameLoc(loc, want); got != tc.ok {
			t.Errorf("sameLoc(%s, %s) = %v, want %v", tc.loc, tc.want, got, tc.ok)
		}
	}
}
