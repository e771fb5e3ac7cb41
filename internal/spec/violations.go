package spec

import (
	"errors"
	"fmt"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// Violation is one way a value broke a schema, in words a person can act on.
type Violation struct {
	Path   []string // JSON pointer tokens from the validated value to the faulty one
	Field  string   // Path joined with "." ("author.id"); "" for the value itself
	Reason string
}

func (v Violation) String() string {
	if v.Field == "" {
		return v.Reason
	}
	return v.Field + ": " + v.Reason
}

// Violations flattens what Validate returned into one Violation per failing
// value, in the order kin-openapi found them. An error that is not a schema
// error becomes a single Violation with its text.
func Violations(err error) []Violation {
	if err == nil {
		return nil
	}
	var out []Violation
	var walk func(error)
	walk = func(err error) {
		var me openapi3.MultiError
		if errors.As(err, &me) {
			for _, e := range me {
				walk(e)
			}
			return
		}
		var se *openapi3.SchemaError
		if errors.As(err, &se) {
			path := se.JSONPointer()
			out = append(out, Violation{Path: path, Field: strings.Join(path, "."), Reason: reason(se)})
			return
		}
		out = append(out, Violation{Reason: err.Error()})
	}
	walk(err)
	return out
}

// reason rewrites kin-openapi's messages where they hide the cause: a value
// that fails a FastAPI-style nullable (anyOf: [X, {type: null}]) is reported
// as "doesn't match any schema from anyOf".
func reason(se *openapi3.SchemaError) string {
	if se.SchemaField == "anyOf" && se.Schema != nil {
		var want []string
		for _, alt := range se.Schema.AnyOf {
			if alt.Value == nil {
				continue
			}
			t := strings.Join(alt.Value.Type.Slice(), " or ")
			if f := alt.Value.Format; f != "" {
				t += " (" + f + ")"
			}
			if p := alt.Value.Pattern; p != "" {
				t += " matching " + p
			}
			want = append(want, t)
		}
		if len(want) > 0 {
			return fmt.Sprintf("must be %s, got %s", strings.Join(want, " or "), describe(se.Value))
		}
	}
	return se.Reason
}

func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		if len(x) > 40 {
			x = x[:40] + "…"
		}
		return fmt.Sprintf("string %q", x)
	case float64:
		return fmt.Sprintf("number %v", x)
	case bool:
		return fmt.Sprintf("boolean %v", x)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}
