package mock_test

import (
	"bytes"
	"image"
	_ "image/png"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// Operations whose success response is not a JSON model, declared as
// FastAPI 0.141 declares them, answered in the declared media type with
// the Content-Type Starlette writes (checked against the real apps of
// FastAPI's docs: custom_response, additional_responses,
// server_sent_events, stream_json_lines, stream_data).
const mediaContract = `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{
"/html":{"get":{"responses":{"200":{"description":"d","content":{"text/html":{"schema":{"type":"string"}}}}}}},
"/plain":{"get":{"responses":{"200":{"description":"d","content":{"text/plain":{"schema":{"type":"string"},"example":"Hello World"}}}}}},
"/png":{"get":{"responses":{"200":{"description":"d","content":{"image/png":{}}}}}},
"/stream":{"get":{"responses":{"200":{"description":"d"}}}},
"/sse":{"get":{"responses":{"200":{"description":"d","content":{"text/event-stream":{"itemSchema":{"type":"object","properties":{"data":{"type":"string","contentMediaType":"application/json","contentSchema":{"$ref":"#/components/schemas/Item"}},"event":{"type":"string"},"id":{"type":"string"},"retry":{"type":"integer","minimum":0}},"required":["data","id"]}}}}}}},
"/jsonl":{"get":{"responses":{"200":{"description":"d","content":{"application/jsonl":{"itemSchema":{"$ref":"#/components/schemas/Item"}}}}}}}
},"components":{"schemas":{"Item":{"type":"object","properties":{"name":{"type":"string"},"price":{"type":"number"}},"required":["name","price"]}}}}`

func TestAnswersInTheDeclaredMediaType(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(mediaContract), "media")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, mock.Config{Spec: sp, Seed: 1})
	for _, tc := range []struct {
		path, contentType string
		body              func([]byte) bool
	}{
		{"/html", "text/html; charset=utf-8", func(b []byte) bool { return bytes.HasPrefix(b, []byte("<html>")) }},
		{"/plain", "text/plain; charset=utf-8", func(b []byte) bool { return string(b) == "Hello World" }},
		{"/png", "image/png", func(b []byte) bool { _, _, err := image.Decode(bytes.NewReader(b)); return err == nil }},
		{"/stream", "", func(b []byte) bool { return len(b) == 0 }},
		{"/sse", "text/event-stream; charset=utf-8", func(b []byte) bool {
			return strings.HasPrefix(string(b), `data: {"name":`) && strings.Count(string(b), "\nid: ") == 3 && strings.HasSuffix(string(b), "\n\n")
		}},
		{"/jsonl", "application/jsonl", func(b []byte) bool {
			return bytes.Count(b, []byte("\n")) == 3 && bytes.HasPrefix(b, []byte(`{"name":`))
		}},
	} {
		t.Run(tc.path, func(t *testing.T) {
			t.Parallel()
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tc.path, nil))
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d, body %s", rec.Code, rec.Body)
			}
			if got := rec.Header().Get("Content-Type"); got != tc.contentType {
				t.Errorf("Content-Type %q, want %q", got, tc.contentType)
			}
			if !tc.body(rec.Body.Bytes()) {
				t.Errorf("body %q", rec.Body)
			}
			op := sp.Doc.Paths.Value(tc.path).Get
			if _, err := contract.BodyConforms(sp, op, rec.Code, rec.Header().Get("Content-Type"), rec.Body.Bytes()); err != nil {
				t.Errorf("the runner refuses the answer: %v", err)
			}
		})
	}
}

// An operation declaring its 404 with a model that FastAPI's
// {"detail": …} does not fit (responses={404: {"model": Message}}, the
// app returning JSONResponse(status_code=404, content={"message": …})):
// an unknown id is answered with a body of that model.
func TestNotFoundFitsTheDeclared404(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{
"/items/{item_id}":{"get":{"parameters":[{"name":"item_id","in":"path","required":true,"schema":{"type":"string"}}],"responses":{
"200":{"description":"d","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Item"}}}},
"404":{"description":"d","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Message"}}}}}}},
"/things/{thing_id}":{"get":{"parameters":[{"name":"thing_id","in":"path","required":true,"schema":{"type":"string"}}],"responses":{
"200":{"description":"d","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Thing"}}}},
"404":{"description":"d","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Message"},"example":{"message":"Gone","code":4}}}}}}},
"/others/{other_id}":{"get":{"parameters":[{"name":"other_id","in":"path","required":true,"schema":{"type":"string"}}],"responses":{
"200":{"description":"d","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Other"}}}},
"404":{"description":"d"}}}}
},"components":{"schemas":{
"Item":{"type":"object","properties":{"id":{"type":"string"},"value":{"type":"string"}},"required":["id","value"]},
"Thing":{"type":"object","properties":{"id":{"type":"string"},"value":{"type":"string"}},"required":["id","value"]},
"Other":{"type":"object","properties":{"id":{"type":"string"},"value":{"type":"string"}},"required":["id","value"]},
"Message":{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}}}}`
	sp, err := spec.Load([]byte(doc), "404")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		profile   framework.Name
		path      string
		want, typ string
	}{
		{framework.FastAPI, "/items/nope", `{"message":`, "application/json"},
		{framework.FastAPI, "/things/nope", `{"message":"Gone","code":4}`, "application/json"},
		{framework.FastAPI, "/others/nope", `{"detail":"Other not found"}`, "application/json"},
		// The plain-OpenAPI profile words the declared shape itself; a
		// 404 declared without content is answered with RFC 9457's.
		{framework.OpenAPI, "/items/nope", `{"message":"Item not found"}`, "application/json"},
		{framework.OpenAPI, "/things/nope", `{"message":"Thing not found"}`, "application/json"},
		{framework.OpenAPI, "/others/nope", `{"type":"about:blank","title":"Not Found","status":404,"detail":"Other not found"}`, "application/problem+json"},
	} {
		srv := newServer(t, mock.Config{Spec: sp, Model: compiled(t, sp, tc.profile), Seed: 1})
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tc.path, nil))
		if rec.Code != http.StatusNotFound || !strings.HasPrefix(rec.Body.String(), tc.want) || rec.Header().Get("Content-Type") != tc.typ {
			t.Errorf("%s %s: %d %s %s, want 404 %s %s…", tc.profile, tc.path, rec.Code, rec.Header().Get("Content-Type"), rec.Body, tc.typ, tc.want)
		}
	}
}

// response_class=RedirectResponse, status_code=302: FastAPI declares only
// the 302, without content; the mock answers it as Starlette does.
func TestAnswersADeclaredRedirect(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{
"/pydantic":{"get":{"responses":{"302":{"description":"Successful Response"}}}},
"/docs-site":{"get":{"responses":{"307":{"description":"d","headers":{"Location":{"schema":{"type":"string"},"example":"https://fastapi.tiangolo.com"}}}}}}}}`
	sp, err := spec.Load([]byte(doc), "redirect")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, mock.Config{Spec: sp, Seed: 1})
	for _, tc := range []struct {
		path, location string
		status         int
	}{
		{"/pydantic", "/", 302},
		{"/docs-site", "https://fastapi.tiangolo.com", 307},
	} {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tc.path, nil))
		if rec.Code != tc.status || rec.Header().Get("Location") != tc.location || rec.Body.Len() != 0 || rec.Header().Get("Content-Length") != "0" {
			t.Errorf("%s: %d Location %q body %q, want %d Location %q and no body", tc.path, rec.Code, rec.Header().Get("Location"), rec.Body, tc.status, tc.location)
		}
	}
}

// An operation declaring its answer only as a range (2XX) or as its
// default response is answered 200 in that response's media type, with
// a body of its schema (ogen's GET /error, a default of an Error model).
func TestAnswersTheDefaultResponse(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{
"/error":{"get":{"responses":{"default":{"$ref":"#/components/responses/Error"}}}},
"/count":{"get":{"responses":{"default":{"description":"d","content":{"application/json":{"schema":{"type":"integer","nullable":true}}}}}}},
"/ranged":{"get":{"responses":{"2XX":{"description":"d","content":{"application/json":{"schema":{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}}}},"default":{"description":"d"}}}}
},"components":{"responses":{"Error":{"description":"General Error","content":{"application/json":{"schema":{"type":"object","properties":{"code":{"type":"integer"},"message":{"type":"string"}},"required":["code","message"]}}}}}}}`
	sp, err := spec.Load([]byte(doc), "default")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, mock.Config{Spec: sp, Model: compiled(t, sp, framework.OpenAPI), Seed: 1})
	for _, tc := range []struct{ path, prefix string }{
		{"/error", `{"code":`},
		{"/count", ``},
		{"/ranged", `{"ok":`},
	} {
		t.Run(tc.path, func(t *testing.T) {
			t.Parallel()
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tc.path, nil))
			if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/json" || rec.Body.Len() == 0 || !strings.HasPrefix(rec.Body.String(), tc.prefix) {
				t.Fatalf("%d %q %s, want 200 application/json %s…", rec.Code, rec.Header().Get("Content-Type"), rec.Body, tc.prefix)
			}
			op := sp.Doc.Paths.Value(tc.path).Get
			if _, err := contract.BodyConforms(sp, op, rec.Code, rec.Header().Get("Content-Type"), rec.Body.Bytes()); err != nil {
				t.Errorf("the runner refuses the answer: %v", err)
			}
		})
	}
}
