package mock

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/model"
)

// streamItems is how many items a streamed answer the contract gives no
// example for carries.
const streamItems = 3

// mediaAnswer is the answer of an operation whose success response is not
// JSON (model.Operation.Media): its body, the Content-Type Starlette writes
// for it, and whether FastAPI streams it. The body is the declared
// example, else one made for the media type: items fitting the itemSchema
// for an event stream or JSON Lines, a small valid file for an image or a
// PDF, a generated text fitting the schema for a text type.
func (s *Server) mediaAnswer(mo *model.Operation, f *gofakeit.Faker) (body []byte, contentType string, stream bool) {
	switch fastapi.StreamOf(mo.Media) {
	case fastapi.EventItems:
		if mo.Example != nil {
			return mo.Example, fastapi.ResponseContentType(mo.Media), true
		}
		return s.eventStream(f, mo.Items), fastapi.ResponseContentType(mo.Media), true
	case fastapi.LineItems:
		if mo.Example != nil {
			return mo.Example, fastapi.ResponseContentType(mo.Media), true
		}
		for range streamItems {
			body = s.fake.Append(body, f, "", mo.Items)
			body = append(body, '\n')
		}
		return body, fastapi.ResponseContentType(mo.Media), true
	}
	concrete := mo.Media
	if mo.Example != nil {
		body = mo.Example
	} else {
		body, concrete = fastapi.SampleBody(mo.Media, s.text(f, mo.MediaSchema))
	}
	if strings.Contains(concrete, "*") {
		concrete = "application/octet-stream"
	}
	return body, fastapi.ResponseContentType(concrete), false
}

var stringSchema = openapi3.NewSchemaRef("", openapi3.NewStringSchema())

// text is a string fitting schema (nil: any string).
func (s *Server) text(f *gofakeit.Faker, schema *openapi3.SchemaRef) string {
	if schema == nil || schema.Value == nil || !schema.Value.Type.Is("string") {
		schema = stringSchema
	}
	var text string
	if json.Unmarshal(s.fake.Append(nil, f, "", schema), &text) != nil || text == "" {
		return "moviemock"
	}
	return text
}

// eventStream is streamItems Server-Sent Events as FastAPI frames them,
// each fitting the itemSchema as OpenAPI 3.2 maps an event to an object:
// data (JSON fitting its contentSchema when it declares
// contentMediaType application/json, as FastAPI writes for a typed
// stream), and event, id and retry when the schema requires them.
func (s *Server) eventStream(f *gofakeit.Faker, items *openapi3.SchemaRef) []byte {
	var props openapi3.Schemas
	var required []string
	if items != nil && items.Value != nil {
		props, required = items.Value.Properties, items.Value.Required
	}
	var body []byte
	for range streamItems {
		ev := fastapi.Event{HasData: true}
		data := props["data"]
		if data != nil && data.Value != nil && data.Value.ContentSchema != nil && fastapi.IsJSONMedia(data.Value.ContentMediaType) {
			ev.Data = string(s.fake.Append(nil, f, "", data.Value.ContentSchema))
		} else {
			ev.Data = strings.ReplaceAll(s.text(f, data), "\r", "")
		}
		if slices.Contains(required, "event") {
			ev.Event = oneLine(s.text(f, props["event"]))
		}
		if slices.Contains(required, "id") {
			ev.ID, ev.HasID = strings.ReplaceAll(oneLine(s.text(f, props["id"])), "\x00", ""), true
		}
		if slices.Contains(required, "retry") {
			ev.HasRetry = true
			if p := props["retry"]; p != nil {
				n, err := strconv.ParseInt(string(s.fake.Append(nil, f, "", p)), 10, 64)
				if err == nil && n >= 0 {
					ev.Retry = n
				}
			}
		}
		body = fastapi.AppendEvent(body, ev)
	}
	return body
}

func oneLine(s string) string {
	return strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
}

// writeMedia sends an answer that is not JSON. A stream goes out as
// FastAPI's StreamingResponse does: chunked, without a Content-Length, an
// event stream with Cache-Control: no-cache and X-Accel-Buffering: no.
func writeMedia(w http.ResponseWriter, status int, contentType string, stream bool, body []byte) {
	h := w.Header()
	h["Content-Type"] = []string{contentType}
	if !stream {
		h["Content-Length"] = fastapi.ContentLength(len(body))
		w.WriteHeader(status)
		w.Write(body)
		return
	}
	if strings.HasPrefix(contentType, "text/event-stream") {
		h["Cache-Control"] = []string{"no-cache"}
		h["X-Accel-Buffering"] = []string{"no"}
	}
	w.WriteHeader(status)
	http.NewResponseController(w).Flush()
	w.Write(body)
}

// declaredNotFound is the body of mo's 404 when it declares a JSON schema
// that FastAPI's HTTPException detail does not fit: the declared example,
// else one generated for the schema. nil: the detail fits, or no 404 is
// declared.
func (s *Server) declaredNotFound(mo *model.Operation) []byte {
	resp := mo.Op.Responses.Value(strconv.Itoa(http.StatusNotFound))
	if resp == nil || resp.Value == nil {
		return nil
	}
	media := resp.Value.Content.Get("application/json")
	if media == nil || media.Schema == nil || media.Schema.Value == nil {
		return nil
	}
	if s.spec.Validate(media.Schema.Value, map[string]any{"detail": "Item not found"}, false) == nil {
		return nil
	}
	if raw, ok := s.spec.RawJSON("paths", mo.Path, strings.ToLower(mo.Method), "responses", "404", "content", "application/json", "example"); ok {
		return raw // members as written
	}
	f := gofakeit.NewFaker(rand.NewPCG(s.cfg.Seed, 404), false)
	return s.fake.Append(nil, f, "", media.Schema)
}

// redirectLocation is where an operation declared as a redirect sends the
// client: its Location header's example, else the site's root, since the
// contract does not say (FastAPI documents a RedirectResponse without its
// target).
func redirectLocation(mo *model.Operation) string {
	if resp := mo.Op.Responses.Value(mo.StatusKey); resp != nil && resp.Value != nil {
		for name, h := range resp.Value.Headers {
			if !strings.EqualFold(name, "Location") || h.Value == nil {
				continue
			}
			if ex, ok := h.Value.Example.(string); ok && ex != "" {
				return ex
			}
			if h.Value.Schema != nil && h.Value.Schema.Value != nil {
				if ex, ok := h.Value.Schema.Value.Example.(string); ok && ex != "" {
					return ex
				}
			}
		}
	}
	return "/"
}
