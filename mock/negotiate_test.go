package mock_test

import (
	"encoding/json"
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// A document that is not FastAPI's, answering in media types beside JSON.
const anyMediaContract = `openapi: 3.0.3
info: {title: any media, version: "1"}
paths:
  /star-object:
    get:
      responses:
        "200": {description: OK, content: {"*/*": {schema: {type: object, required: [n], properties: {n: {type: integer}}}}}}
  /star-string:
    get:
      responses:
        "200": {description: OK, content: {"*/*": {schema: {type: string}, example: hello}}}
  /pet/{id}/card:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer, format: int64}}]
      responses:
        "200":
          description: OK
          content:
            application/xml: {schema: {$ref: '#/components/schemas/Pet'}}
            application/json: {schema: {$ref: '#/components/schemas/Pet'}}
            text/plain: {schema: {type: string}, example: a pet}
components:
  schemas:
    Pet:
      type: object
      xml: {name: pet}
      required: [name, tags]
      properties:
        code: {type: integer, minimum: 1, xml: {attribute: true}}
        name: {type: string}
        tags:
          type: array
          minItems: 1
          xml: {wrapped: true}
          items: {type: object, xml: {name: tag}, required: [label], properties: {label: {type: string}}}
`

// Any media type declared is answered, with its Content-Type: */* as JSON
// when its schema is JSON-like and as text otherwise, XML written from a
// generated value as the schema's xml object says; the Accept header
// picks among the declared media types, the default (JSON first) when it
// accepts none of them.
func TestAnswersAnyDeclaredMedia(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(anyMediaContract), "any.yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, mock.Config{Spec: sp, Seed: 1})
	isXMLPet := func(t *testing.T, body string) {
		var pet struct {
			XMLName xml.Name `xml:"pet"`
			Code    string   `xml:"code,attr"`
			Name    string   `xml:"name"`
			Tags    []string `xml:"tags>tag>label"`
		}
		if err := xml.Unmarshal([]byte(body), &pet); err != nil || pet.Code == "" || pet.Name == "" || len(pet.Tags) == 0 {
			t.Errorf("not the pet as XML (%v): %+v\n%s", err, pet, body)
		}
	}
	isJSONPet := func(t *testing.T, body string) {
		var pet struct {
			Name *string `json:"name"`
		}
		if err := json.Unmarshal([]byte(body), &pet); err != nil || pet.Name == nil {
			t.Errorf("not the pet as JSON (%v): %s", err, body)
		}
	}
	for _, tc := range []struct {
		path, accept, contentType string
		check                     func(*testing.T, string)
	}{
		{"/star-object", "", "application/json", func(t *testing.T, b string) {
			var v struct{ N *int }
			if json.Unmarshal([]byte(b), &v) != nil || v.N == nil {
				t.Errorf("body %s", b)
			}
		}},
		{"/star-string", "", "text/plain; charset=utf-8", func(t *testing.T, b string) {
			if b != "hello" {
				t.Errorf("body %q", b)
			}
		}},
		{"/pet/1/card", "", "application/json", isJSONPet},
		{"/pet/1/card", "application/xml", "application/xml", isXMLPet},
		{"/pet/1/card", "text/html, application/*;q=0.5, application/json;q=0.1", "application/xml", isXMLPet},
		{"/pet/1/card", "text/*", "text/plain; charset=utf-8", func(t *testing.T, b string) {
			if b != "a pet" {
				t.Errorf("body %q", b)
			}
		}},
		{"/pet/1/card", "image/png", "application/json", isJSONPet},
	} {
		t.Run(tc.path+" "+tc.accept, func(t *testing.T) {
			t.Parallel()
			rec := httptest.NewRecorder()
			req := httptest.NewRequest(http.MethodGet, tc.path, nil)
			if tc.accept != "" {
				req.Header.Set("Accept", tc.accept)
			}
			srv.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d, body %s", rec.Code, rec.Body)
			}
			if got := rec.Header().Get("Content-Type"); got != tc.contentType {
				t.Errorf("Content-Type %q, want %q", got, tc.contentType)
			}
			tc.check(t, rec.Body.String())
		})
	}
}

// A FastAPI document's answer stays FastAPI's: the first media type, the
// Accept header not read.
func TestFastAPIDocumentIgnoresAccept(t *testing.T) {
	t.Parallel()
	doc := strings.Replace(anyMediaContract, "description: OK\n          content:\n            application/xml", "description: Successful Response\n          content:\n            application/xml", 1)
	sp, err := spec.Load([]byte(doc), "fastapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, mock.Config{Spec: sp, Seed: 1})
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/pet/1/card", nil)
	req.Header.Set("Accept", "application/xml")
	srv.ServeHTTP(rec, req)
	if got := rec.Header().Get("Content-Type"); got != "application/json" {
		t.Errorf("Content-Type %q, want application/json", got)
	}
}

// A body declared as JSON, XML and a form (Swagger's petstore) is
// validated when sent as JSON and accepted as sent in the other declared
// media types; a media type not declared is read as FastAPI reads it.
func TestBodyInOtherDeclaredMedia(t *testing.T) {
	t.Parallel()
	const doc = `openapi: 3.0.3
info: {title: petstore, version: "1"}
paths:
  /pet:
    post:
      requestBody:
        required: true
        content:
          application/json: {schema: {$ref: '#/components/schemas/Pet'}}
          application/xml: {schema: {$ref: '#/components/schemas/Pet'}}
          application/x-www-form-urlencoded: {schema: {$ref: '#/components/schemas/Pet'}}
      responses:
        "200": {description: OK, content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}}
        "405": {description: Invalid input}
components:
  schemas:
    Pet:
      type: object
      required: [name]
      properties:
        id: {type: integer, format: int64}
        name: {type: string}
        category: {type: object, properties: {id: {type: integer, format: int64}}}
`
	sp, err := spec.Load([]byte(doc), "petstore.yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, mock.Config{Spec: sp, Seed: 1})
	for _, tc := range []struct {
		contentType, body string
		status            int
	}{
		{"application/json", `{"name":"rex","category":{"id":1}}`, 200},
		// The plain-OpenAPI profile: no 400 or 422 declared, so 400;
		// a media type the body does not declare, 415.
		{"application/json", `{"category":{"id":1}}`, 400},
		{"application/json", `{"name":"rex","id":"x"}`, 400},
		{"application/xml", `<pet><id>x</id></pet>`, 200},
		{"application/x-www-form-urlencoded", `id=1`, 200},
		{"text/plain", `name=rex`, 415},
	} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/pet", strings.NewReader(tc.body))
		req.Header.Set("Content-Type", tc.contentType)
		srv.ServeHTTP(rec, req)
		if rec.Code != tc.status {
			t.Errorf("%s %s: %d %s, want %d", tc.contentType, tc.body, rec.Code, rec.Body, tc.status)
		}
	}
}
