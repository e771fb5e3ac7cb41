package spec

import (
	"testing"

	"gopkg.in/yaml.v3"
)

// NodeJSONExact keeps a YAML number written as JSON writes it as written: a recording
// in YAML holds what the JSON answer held. Other YAML numbers are
// converted.
func TestNodeJSONNumbers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ yaml, want string }{
		{"[123456789012345678901234567890]", "[123456789012345678901234567890]"},
		{"[-0]", "[-0]"},
		{"[-0.0]", "[-0.0]"},
		{"[0.1000000000000000000001]", "[0.1000000000000000000001]"},
		{"[1.5e3, 42]", "[1.5e3,42]"},
		{"[0x1F, 1_000, +1, .5]", "[31,1000,1,0.5]"},
		{`["123", '-0']`, `["123","-0"]`},
	} {
		var root yaml.Node
		if err := yaml.Unmarshal([]byte(tc.yaml), &root); err != nil {
			t.Fatal(err)
		}
		got, err := NodeJSONExact(&root)
		if err != nil || string(got) != tc.want {
			t.Errorf("NodeJSON(%s) = %s, %v; want %s", tc.yaml, got, err, tc.want)
		}
	}
}
