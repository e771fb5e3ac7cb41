package mock

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gorilla/mux"

	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/spec"
)

// valueKind is how a raw string is coerced before schema checks, as pydantic
// coerces strings in lax mode.
type valueKind uint8

const (
	kindString valueKind = iota
	kindInteger
	kindNumber
	kindBoolean
)

// input is one request value an operation declares, compiled once from the
// contract: where it comes from, how FastAPI treats its absence, how its
// string is coerced and which schema constrains it.
type input struct {
	in         string // path, query, header, cookie, body
	name       string
	loc        []any
	required   bool
	kind       valueKind
	schema     *openapi3.Schema // constraints of the non-null alternative
	hasDefault bool
}

// arg is an input's value after validation.
type arg struct {
	set bool // false: absent and optional (the default applies)
	str string
	num fastapi.LaxInt // for integers
}

// inputs is everything one operation validates, in FastAPI's order: path,
// query, header and cookie parameters, then form fields in declaration order.
type inputs struct {
	list     []input
	form     bool // the body is a form (urlencoded or multipart)
	hasQuery bool
}

var inOrder = map[string]int{"path": 0, "query": 1, "header": 2, "cookie": 3}

// compileInputs reads an operation's parameters and form body from the
// contract. An operation whose body the mock cannot parse as FastAPI would is
// refused here, at start-up, not at the first request.
func compileInputs(sp *spec.Spec, op *openapi3.Operation, pathItem *openapi3.PathItem) (inputs, error) {
	var ins inputs
	params := slices.Clone(pathItem.Parameters)
	for _, p := range op.Parameters {
		params = slices.DeleteFunc(params, func(q *openapi3.ParameterRef) bool {
			return q.Value.In == p.Value.In && q.Value.Name == p.Value.Name
		})
		params = append(params, p)
	}
	slices.SortStableFunc(params, func(a, b *openapi3.ParameterRef) int {
		return inOrder[a.Value.In] - inOrder[b.Value.In]
	})
	for _, ref := range params {
		p := ref.Value
		if p.Schema == nil || p.Schema.Value == nil {
			return ins, fmt.Errorf("parameter %q in %s: no schema", p.Name, p.In)
		}
		in, err := compileValue(sp, p.In, p.Name, p.Required, p.Schema.Value)
		if err != nil {
			return ins, fmt.Errorf("parameter %q in %s: %w", p.Name, p.In, err)
		}
		ins.hasQuery = ins.hasQuery || p.In == "query"
		ins.list = append(ins.list, in)
	}
	if op.RequestBody == nil || op.RequestBody.Value == nil {
		return ins, nil
	}
	body := op.RequestBody.Value
	var media *openapi3.MediaType
	for _, ct := range []string{"application/x-www-form-urlencoded", "multipart/form-data"} {
		if media = body.Content.Get(ct); media != nil {
			break
		}
	}
	if media == nil || media.Schema == nil || media.Schema.Value == nil {
		return ins, fmt.Errorf("request body: only form bodies (application/x-www-form-urlencoded, multipart/form-data) are implemented")
	}
	ins.form = true
	schema := media.Schema.Value
	for _, name := range sp.PropertyOrder(media.Schema) {
		field := schema.Properties[name]
		in, err := compileValue(sp, "body", name, slices.Contains(schema.Required, name), field.Value)
		if err != nil {
			return ins, fmt.Errorf("form field %q: %w", name, err)
		}
		ins.list = append(ins.list, in)
	}
	return ins, nil
}

func compileValue(sp *spec.Spec, in, name string, required bool, s *openapi3.Schema) (input, error) {
	v := input{in: in, name: name, loc: []any{in, name}, required: required, hasDefault: s.Default != nil}
	// FastAPI writes Optional[X] as anyOf: [X, {type: null}]; a raw string
	// is never null, so X alone constrains it.
	value := s
	if spec.Nullable(s) {
		for _, alt := range s.AnyOf {
			if alt.Value != nil && !alt.Value.Type.Is("null") {
				value = alt.Value
				break
			}
		}
	}
	types := slices.DeleteFunc(slices.Clone(value.Type.Slice()), func(t string) bool { return t == "null" })
	switch {
	case len(types) == 0 || slices.Equal(types, []string{"string"}):
		v.kind = kindString
	case slices.Equal(types, []string{"integer"}):
		v.kind = kindInteger
	case slices.Equal(types, []string{"number"}):
		v.kind = kindNumber
	case slices.Equal(types, []string{"boolean"}):
		v.kind = kindBoolean
	default:
		return v, fmt.Errorf("type %v: only scalar parameters are implemented", types)
	}
	if value.Format != "" {
		// pydantic does not check a str field's format (password is only a
		// hint to documentation), so neither does the mock.
		clone := *value
		clone.Format = ""
		value = &clone
	}
	v.schema = value
	return v, nil
}

// validate reads and checks every input of the request, as FastAPI does:
// all errors are collected, in order. args is filled position by position.
// A non-nil error is a body that could not be parsed at all (400/413).
func (s *Server) validate(r *http.Request, ins *inputs, args []arg) ([]fastapi.ErrorItem, error) {
	var items []fastapi.ErrorItem
	var query url.Values
	if ins.hasQuery {
		query = r.URL.Query()
	}
	var form fastapi.Form
	if ins.form {
		var err error
		if form, err = fastapi.ParseForm(r, s.cfg.MaxBodyBytes); err != nil {
			return nil, err
		}
	}
	var vars map[string]string
	for i := range ins.list {
		in := &ins.list[i]
		raw, present := "", false
		switch in.in {
		case "path":
			if vars == nil {
				vars = mux.Vars(r)
			}
			raw, present = vars[in.name]
		case "query":
			if vs := query[in.name]; len(vs) > 0 {
				raw, present = vs[len(vs)-1], true
			}
		case "header":
			if vs := r.Header.Values(in.name); len(vs) > 0 {
				raw, present = vs[0], true
			}
		case "cookie":
			if c, err := r.Cookie(in.name); err == nil {
				raw, present = c.Value, true
			}
		case "body":
			raw, present = form[in.name]
			// FastAPI reads an empty form value as absent.
			present = present && raw != ""
		}
		if !present {
			if in.required {
				items = append(items, fastapi.Missing(in.loc...))
			}
			args[i] = arg{}
			continue
		}
		a := arg{set: true, str: raw}
		var value any = raw
		switch in.kind {
		case kindInteger:
			n, ok := fastapi.ParseLaxInt(raw)
			if !ok {
				items = append(items, fastapi.IntParsing(raw, in.loc...))
				continue
			}
			a.num, value = n, n.Float
		case kindNumber:
			f, ok := fastapi.ParseLaxFloat(raw)
			if !ok {
				items = append(items, fastapi.FloatParsing(raw, in.loc...))
				continue
			}
			value = f
		case kindBoolean:
			b, ok := fastapi.ParseLaxBool(raw)
			if !ok {
				items = append(items, fastapi.BoolParsing(raw, in.loc...))
				continue
			}
			value = b
		}
		if hasConstraints(in.schema) {
			if err := s.spec.Validate(in.schema, value, false); err != nil {
				items = append(items, constraintItem(err, in, raw))
				continue
			}
		}
		args[i] = a
	}
	return items, nil
}

// hasConstraints skips the schema validator for a bare typed value, the
// common case (an integer id, a free string): coercion already checked it.
func hasConstraints(s *openapi3.Schema) bool {
	return s.Pattern != "" || s.MinLength != 0 || s.MaxLength != nil || s.Min != nil || s.Max != nil ||
		s.MultipleOf != nil || len(s.Enum) > 0 || s.Const != nil ||
		s.ExclusiveMin.IsSet() || s.ExclusiveMax.IsSet()
}

// constraintItem turns the schema validator's complaint about one value into
// pydantic's error item for the same constraint.
func constraintItem(err error, in *input, raw string) fastapi.ErrorItem {
	var se *openapi3.SchemaError
	if errors.As(err, &se) {
		s := in.schema
		var limit any
		switch se.SchemaField {
		case "pattern":
			limit = s.Pattern
		case "minLength":
			limit = s.MinLength
		case "maxLength":
			if s.MaxLength != nil {
				limit = *s.MaxLength
			}
		case "minimum":
			limit = deref(s.Min)
		case "maximum":
			limit = deref(s.Max)
		case "exclusiveMinimum":
			limit = deref(s.ExclusiveMin.Value)
		case "exclusiveMaximum":
			limit = deref(s.ExclusiveMax.Value)
		case "multipleOf":
			limit = deref(s.MultipleOf)
		case "enum":
			limit = s.Enum
		}
		if item, ok := fastapi.Constraint(se.SchemaField, limit, raw, in.loc...); ok {
			return item
		}
		return fastapi.ErrorItem{Type: "value_error", Loc: in.loc, Msg: "Value error, " + strings.TrimSpace(se.Reason), Input: raw}
	}
	return fastapi.ErrorItem{Type: "value_error", Loc: in.loc, Msg: "Value error, " + err.Error(), Input: raw}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}
