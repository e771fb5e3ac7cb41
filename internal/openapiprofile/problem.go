package openapiprofile

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/moviemock/moviemock/internal/fastapi"
)

// Problem is one reason a request is refused, in neutral words.
type Problem struct {
	// In is where the value was: "body", "path", "query", "header",
	// "cookie"; "" for a refusal of the whole request (a 401, a 404).
	In string
	// Field is the value's place under In: a body member's path
	// ("author.name", "tracks.0"), a parameter's name; "" for the
	// whole body, or the whole request.
	Field string
	// Detail is what is wrong, alone: "is required", "expected integer".
	Detail string
}

// Message is the problem as a reader sees it: "name is required",
// "query parameter limit: expected integer".
func (p Problem) Message() string {
	where := p.where()
	switch {
	case where == "":
		return p.Detail
	case strings.HasPrefix(p.Detail, "is "):
		return where + " " + p.Detail
	}
	return where + ": " + p.Detail
}

func (p Problem) where() string {
	switch {
	case p.In == "":
		return p.Field
	case p.In == "body" && p.Field == "":
		return "request body"
	case p.In == "body":
		return p.Field
	case p.Field == "":
		return p.In
	}
	return p.In + " parameter " + p.Field
}

// Pointer is where the problem is as RFC 9457 and JSON:API name it: a JSON
// Pointer into the body ("/author/name"), or the parameter's name.
func (p Problem) Pointer() string {
	if p.In != "body" {
		return p.Field
	}
	if p.Field == "" {
		return ""
	}
	return "/" + strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(p.Field, "~", "~0"), "/", "~1"), ".", "/")
}

// Location is the problem's place as one word and a path: "body.name",
// "query.limit".
func (p Problem) Location() string {
	switch {
	case p.In == "":
		return p.Field
	case p.Field == "":
		return p.In
	}
	return p.In + "." + p.Field
}

// Problems are the validation items the mock's input checks produced, in
// neutral words: the same places, none of pydantic's wording.
func Problems(items []fastapi.ErrorItem) []Problem {
	out := make([]Problem, 0, len(items))
	for _, it := range items {
		out = append(out, problemOf(it))
	}
	return out
}

func problemOf(it fastapi.ErrorItem) Problem {
	var p Problem
	var path []string
	for i, l := range it.Loc {
		s := fmt.Sprint(l)
		if i == 0 {
			p.In = s
			continue
		}
		if it.Type == "json_invalid" {
			break // loc holds the position of the error, not a member
		}
		path = append(path, s)
	}
	p.Field = strings.Join(path, ".")
	p.Detail = detail(it)
	return p
}

// kinds are the value kinds pydantic's error types name, as JSON Schema
// names them.
var kinds = map[string]string{
	"int": "integer", "float": "number", "decimal": "number", "bool": "boolean", "string": "string",
	"str": "string", "bytes": "string", "list": "array", "tuple": "array", "set": "array",
	"frozen_set": "array", "dict": "object", "model": "object", "model_attributes": "object",
	"datetime": "date-time", "date": "date", "time": "time", "time_delta": "duration",
	"uuid": "UUID", "url": "URL", "json": "JSON",
}

func detail(it fastapi.ErrorItem) string {
	ctx := func(key string) string {
		for _, kv := range it.Ctx {
			if kv.Key == key {
				if s, ok := kv.Value.(string); ok {
					return s
				}
				return number(kv.Value)
			}
		}
		return ""
	}
	switch it.Type {
	case "missing":
		return "is required"
	case "json_invalid":
		return "is not valid JSON"
	case "extra_forbidden":
		return "is not allowed"
	case "string_pattern_mismatch":
		return "must match pattern " + ctx("pattern")
	case "string_too_short":
		return "must have at least " + ctx("min_length") + " characters"
	case "string_too_long":
		return "must have at most " + ctx("max_length") + " characters"
	case "too_short":
		return "must have at least " + ctx("min_length") + " items"
	case "too_long":
		return "must have at most " + ctx("max_length") + " items"
	case "greater_than_equal":
		return "must be at least " + ctx("ge")
	case "less_than_equal":
		return "must be at most " + ctx("le")
	case "greater_than":
		return "must be greater than " + ctx("gt")
	case "less_than":
		return "must be less than " + ctx("lt")
	case "multiple_of":
		return "must be a multiple of " + ctx("multiple_of")
	case "enum", "literal_error":
		return "must be one of " + ctx("expected")
	case "int_parsing_size":
		return "expected integer: too many digits"
	}
	for _, suffix := range []string{"_parsing", "_type", "_from_date_parsing", "_from_datetime_parsing"} {
		if k, ok := strings.CutSuffix(it.Type, suffix); ok {
			if name, ok := kinds[k]; ok {
				return "expected " + name
			}
		}
	}
	// A message of a rule the list above does not know: pydantic's own,
	// its first letter lowered to read after the field's name.
	if it.Msg == "" {
		return "is invalid"
	}
	return strings.ToLower(it.Msg[:1]) + it.Msg[1:]
}

func number(v any) string {
	switch x := v.(type) {
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}
