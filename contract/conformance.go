package contract

import (
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"strconv"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/spec"
)

// maxStreamItems bounds how many items of a streamed body (events, JSON
// lines) are checked one by one.
const maxStreamItems = 1000

// DefaultMaxCheckValues is how many JSON values (each item, field and
// container counts one) a body may hold for the checks to read it. Decoded,
// a value costs 40 to 140 bytes: 100,000 of them hold 4 to 15 MB per
// exchange checked at once, where a 15 MiB list of zeros (7.9 million)
// would hold over 100 MB. A larger body is not read by the checks on
// bodies, and the report says so (Response.Unchecked).
const DefaultMaxCheckValues = 100_000

// maxListedValues bounds the body whose schema violations are all
// collected, to list the first few and count the rest: kin-openapi
// v0.152.0 (MultiErrors) keeps an error with its value and schema for
// each, millions for a long list of wrong items. A larger body is checked
// up to its first violation.
const maxListedValues = 5_000

// countValues counts the JSON values of body (its containers, and their
// elements and members), up to limit+1: only commas and opening brackets
// outside strings are counted, nothing is decoded.
func countValues(body []byte, limit int) int {
	n, inString, escaped := 0, false, false
	for _, c := range body {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		case c == '"':
			inString = true
			continue
		case c == ',' || c == '[' || c == '{':
			n++
			if n > limit {
				return n
			}
		}
	}
	return n + 1
}

// validateBody checks v, decoded from body, against schema: every violation collected when body
// is small (maxListedValues), else up to the first, which the error then
// says.
func validateBody(sp *spec.Spec, schema *openapi3.Schema, v any, body []byte) error {
	if countValues(body, maxListedValues) <= maxListedValues {
		return sp.Validate(schema, v, true)
	}
	if err := sp.Validate(schema, v, false); err != nil {
		return &firstOnly{err}
	}
	return nil
}

// firstOnly is the first violation of a body too large to collect them
// all (maxListedValues).
type firstOnly struct{ err error }

func (e *firstOnly) Error() string { return e.err.Error() }
func (e *firstOnly) Unwrap() error { return e.err }

// BodyConforms validates a response body against what op declares for its
// status (or "default") and the media type it came as. declared is false
// when there is nothing to validate: op declares no body for that status,
// or only FastAPI's untyped one (see untypedJSON).
//
// A body is checked by its media type only: a JSON one (application/json,
// +json) against the schema; a stream (text/event-stream, JSON Lines) item
// by item against the itemSchema; any other (text/html, image/png) by what
// its type says of its bytes (fastapi.BodyFits), never as JSON.
//
// It validates with spec.Validate rather than openapi3filter.ValidateResponse:
// for a 3.1 document kin-openapi v0.152.0 recompiles the schema on every
// response, and its fallback validator refuses null where the schema sets no
// type (ValidationError.input), which a correct FastAPI server sends.
func BodyConforms(sp *spec.Spec, op *openapi3.Operation, status int, contentType string, body []byte) (declared bool, err error) {
	return conforms(sp, op, status, contentType, body, func() (any, error) {
		var v any
		err := json.Unmarshal(body, &v)
		return v, err
	})
}

// conforms is BodyConforms with the body's JSON decoding supplied, so a
// caller that already decoded it does not decode it again.
func conforms(sp *spec.Spec, op *openapi3.Operation, status int, contentType string, body []byte, decode func() (any, error)) (bool, error) {
	resp := declaredResponse(op, status)
	if resp == nil || len(resp.Content) == 0 {
		return false, nil
	}
	mt, _, _ := mime.ParseMediaType(contentType)
	media := declaredMedia(resp, mt)
	if media == nil {
		if untypedJSON(resp) {
			return false, nil
		}
		return true, fmt.Errorf("media type %q is not declared for %d", contentType, status)
	}
	switch stream := fastapi.StreamOf(mt); {
	case stream != fastapi.NotStream && (media.ItemSchema != nil || stream == fastapi.LineItems):
		return true, streamConforms(sp, stream, media.ItemSchema, body)
	case !fastapi.IsJSONMedia(mt):
		return true, fastapi.BodyFits(contentType, body)
	case media.Schema == nil || media.Schema.Value == nil || rawBodyPlaceholder(media.Schema.Value):
		return true, nil
	}
	v, err := decode()
	if err != nil {
		return true, fmt.Errorf("body is not JSON: %v", err)
	}
	return true, validateBody(sp, media.Schema.Value, v, body)
}

// declaredResponse is the response op declares for status, else its
// default, else nil.
func declaredResponse(op *openapi3.Operation, status int) *openapi3.Response {
	if op.Responses == nil {
		return nil
	}
	ref := op.Responses.Value(strconv.Itoa(status))
	if ref == nil {
		ref = op.Responses.Default()
	}
	if ref == nil {
		return nil
	}
	return ref.Value
}

// declaredMedia is the media type of resp that mt (no parameters) falls
// under: the same type, else a range (image/*, */*) that covers it.
func declaredMedia(resp *openapi3.Response, mt string) *openapi3.MediaType {
	if media := resp.Content.Get(mt); media != nil {
		return media
	}
	for want, media := range resp.Content {
		if fastapi.MediaMatches(want, mt) {
			return media
		}
	}
	return nil
}

// untypedJSON reports whether resp declares only what FastAPI writes for an
// operation without a response model: application/json with the empty
// schema {}. Such an operation may return any Response itself
// (HTMLResponse, Response(media_type="application/xml"), a
// StreamingResponse), which FastAPI does not document: the declaration
// constrains neither the Content-Type nor the body.
func untypedJSON(resp *openapi3.Response) bool {
	if len(resp.Content) != 1 {
		return false
	}
	media := resp.Content.Get("application/json")
	return media != nil && (media.Schema == nil || emptySchema(media.Schema.Value))
}

// emptySchema reports whether s is {} (the loader may have marked it
// nullable, see spec's permitNullWhereUntyped).
func emptySchema(s *openapi3.Schema) bool { return schemaJSON(s) == "{}" }

// rawBodyPlaceholder reports whether s is exactly {"type": "string"}: what
// FastAPI writes for a response_class that is not a JSONResponse, whatever
// its media type (a custom Response subclass with media_type
// "application/json" included), since such a class renders the body
// itself. A real str response model has a title.
func rawBodyPlaceholder(s *openapi3.Schema) bool { return schemaJSON(s) == `{"type":"string"}` }

func schemaJSON(s *openapi3.Schema) string {
	if s == nil {
		return "{}"
	}
	c := *s
	c.Nullable = false
	b, err := json.Marshal(&c)
	if err != nil {
		return ""
	}
	return string(b)
}

// streamConforms checks each item of a streamed body against the item
// schema (nil: any JSON value, for JSON Lines). An event's fields are
// checked as OpenAPI 3.2 maps them to an object (data, event, id, retry);
// a string field declared with contentMediaType application/json and a
// contentSchema (FastAPI's data of a typed event stream) must hold JSON
// fitting that schema.
func streamConforms(sp *spec.Spec, stream fastapi.Stream, item *openapi3.SchemaRef, body []byte) error {
	var schema *openapi3.Schema
	if item != nil {
		schema = item.Value
	}
	if stream == fastapi.LineItems {
		lines, err := fastapi.ParseLines(body, maxStreamItems)
		if err != nil && !errors.Is(err, fastapi.ErrTooManyItems) {
			return err
		}
		for i, line := range lines {
			var v any
			if err := json.Unmarshal(line, &v); err != nil {
				return fmt.Errorf("line %d is not JSON: %v", i+1, err)
			}
			if schema != nil {
				if err := validateBody(sp, schema, v, line); err != nil {
					return fmt.Errorf("line %d: %s", i+1, describeSchemaError(err))
				}
			}
		}
		return nil
	}
	events, err := fastapi.ParseEvents(body, maxStreamItems)
	if err != nil && !errors.Is(err, fastapi.ErrTooManyItems) {
		return err
	}
	for i, ev := range events {
		if err := eventConforms(sp, schema, ev); err != nil {
			return fmt.Errorf("event %d: %s", i+1, err)
		}
	}
	return nil
}

func eventConforms(sp *spec.Spec, schema *openapi3.Schema, ev map[string]any) error {
	if schema == nil {
		return nil
	}
	item := make(map[string]any, len(ev))
	for k, v := range ev {
		if n, ok := v.(int64); ok {
			item[k] = float64(n) // as encoding/json decodes numbers
			continue
		}
		item[k] = v
	}
	if err := sp.Validate(withoutContentSchemas(schema), item, true); err != nil {
		return errors.New(describeSchemaError(err))
	}
	for name, prop := range schema.Properties {
		p := prop.Value
		s, ok := ev[name].(string)
		if !ok || p == nil || p.ContentSchema == nil || p.ContentSchema.Value == nil || !fastapi.IsJSONMedia(p.ContentMediaType) {
			continue
		}
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			return fmt.Errorf("%s is not JSON: %v", name, err)
		}
		if err := validateBody(sp, p.ContentSchema.Value, v, []byte(s)); err != nil {
			return fmt.Errorf("%s: %s", name, describeSchemaError(err))
		}
	}
	return nil
}

// withoutContentSchemas is schema with its properties' content keywords
// left out: eventConforms checks those itself, since JSON Schema 2020-12
// makes them annotations a validator need not assert.
// The copy is made once per schema: spec.Validate keeps what it learns of
// a schema by its address.
func withoutContentSchemas(schema *openapi3.Schema) *openapi3.Schema {
	if c, ok := stripped.Load(schema); ok {
		return c.(*openapi3.Schema)
	}
	c, _ := stripped.LoadOrStore(schema, stripContentSchemas(schema))
	return c.(*openapi3.Schema)
}

var stripped sync.Map // *openapi3.Schema -> *openapi3.Schema

func stripContentSchemas(schema *openapi3.Schema) *openapi3.Schema {
	strip := false
	for _, prop := range schema.Properties {
		if prop.Value != nil && (prop.Value.ContentSchema != nil || prop.Value.ContentMediaType != "") {
			strip = true
		}
	}
	if !strip {
		return schema
	}
	c := *schema
	c.Properties = make(openapi3.Schemas, len(schema.Properties))
	for name, prop := range schema.Properties {
		if p := prop.Value; p != nil && (p.ContentSchema != nil || p.ContentMediaType != "") {
			pc := *p
			pc.ContentSchema, pc.ContentMediaType, pc.ContentEncoding = nil, "", ""
			prop = &openapi3.SchemaRef{Value: &pc}
		}
		c.Properties[name] = prop
	}
	return &c
}
