package spec

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzParseJSONNode: any input is parsed or refused without a panic; what
// encoding/json takes as an object without repeated keys is parsed, and
// renders back as JSON.
func FuzzParseJSONNode(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"a":[1,2.5,-0,1e400,"\ud83d\ude80",true,null,{"b":{}}]}`, `{"a":1,"a":2}`, `{"a":"\ud800"}`,
		`{"a":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`, `{"a":1} x`, `{"a"`, `[1]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		root, err := parseJSONNode(data)
		var m map[string]any
		if json.Unmarshal(data, &m) != nil || m == nil {
			return
		}
		if err != nil {
			if strings.Contains(err.Error(), "already defined") {
				return
			}
			t.Fatalf("encoding/json takes %q, parseJSONNode refuses it: %v", data, err)
		}
		out, err := NodeJSON(root)
		if err != nil {
			if strings.Contains(err.Error(), "not a JSON number") {
				return // 1e400: YAML's float, as a YAML document would give
			}
			t.Fatalf("NodeJSON of %q: %v", data, err)
		}
		if !json.Valid(out) {
			t.Fatalf("NodeJSON of %q is not JSON: %s", data, out)
		}
	})
}
