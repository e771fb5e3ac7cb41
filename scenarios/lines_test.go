package scenarios_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/scenarios"
)

// Every kind of scenario error is reported at the line it is on: YAML
// syntax errors of the scanner and of the parser (which yaml.v3 numbers a
// line early), unknown keys, and bad values.
func TestScenarioErrorLines(t *testing.T) {
	t.Parallel()
	const rules = "name: s\ndescription: d\nrules:\n  - match: {path: /reviews}\n"
	for _, tc := range []struct {
		name, text string
		line       int
		reason     string
	}{
		{"unclosed list, parser", "name: s\ndescription: d\nrules:\n  - match: {method: [GET\n    passthrough: true\n", 4, "not valid YAML: did not find expected ',' or ']'"},
		{"unclosed quote, scanner", "name: s\ndescription: \"d\nrules: []\n", 2, "not valid YAML: found unexpected end of stream"},
		{"list item in a mapping, parser", "name: s\ndescription: d\nrules: []\n- passthrough: true\n", 4, "not valid YAML: did not find expected key"},
		{"mapping value in a scalar, scanner", "name: s\ndescription: d\nrules:\n  - passthrough: a: b\n", 4, "not valid YAML: mapping values are not allowed in this context"},
		{"syntax error on line 1", "name: [s\n", 1, "not valid YAML: did not find expected ',' or ']'"},
		{"an alias inside its own node", "name: s\ndescription: d\nrules:\n  - &r {match: {path: /x}, respond: {status: 200, body: *r}}\n", 4, "alias *r is inside the node it refers to"},
		{"unknown field", rules + "    respnd: {status: 200}\n", 5, `unknown key "respnd"`},
		{"unknown nested field", rules + "    respond: {status: 200, bdy: []}\n", 5, `unknown key "bdy"`},
		{"bad value", rules + "    passthrough: true\n    delay: soon\n", 6, `want a duration such as 250ms or 2s, got "soon"`},
		{"bad number", rules + "    respond:\n      status: two hundred\n", 6, "want a whole number"},
		{"bad boolean", rules + "    passthrough: true\n\n    off_spec: perhaps\n", 7, "want true or false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := load(t, map[string]string{"f.yaml": tc.text})
			var errs *scenarios.Errors
			if !errors.As(err, &errs) {
				t.Fatalf("not refused with problems: %v", err)
			}
			var msgs []string
			found := false
			for _, p := range errs.Items {
				msgs = append(msgs, p.Error())
				found = found || p.Line == tc.line && strings.Contains(p.Reason, tc.reason)
			}
			if !found {
				t.Errorf("no problem at line %d saying %q:\n  %s", tc.line, tc.reason, strings.Join(msgs, "\n  "))
			}
		})
	}
}
