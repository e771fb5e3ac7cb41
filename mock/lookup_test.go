package mock_test

import (
	"net/http"
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// A path parameter that names a field of the record other than its id (a
// slug, a username) finds the record by that field, for reads, changes and
// deletes alike; the id in its place names no record.
func TestPathParameterNamingAFieldFindsByIt(t *testing.T) {
	t.Parallel()
	const v422 = `"422":{"description":"v","content":{"application/json":{"schema":{"$ref":"#/components/schemas/HTTPValidationError"}}}}`
	slug := `"parameters":[{"name":"slug","in":"path","required":true,"schema":{"type":"string"}}]`
	one := `"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Post"}}}`
	body := `"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/PostCreate"}}}}`
	doc := `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{
"/posts":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/Post"}}}}}}},
  "post":{` + body + `,"responses":{"201":{"description":"ok",` + one + `},` + v422 + `}}},
"/posts/{slug}":{"get":{` + slug + `,"responses":{"200":{"description":"ok",` + one + `},` + v422 + `}},
  "put":{` + slug + `,` + body + `,"responses":{"200":{"description":"ok",` + one + `},` + v422 + `}},
  "delete":{` + slug + `,"responses":{"200":{"description":"ok",` + one + `},` + v422 + `}}}},
"components":{"schemas":{
 "PostCreate":{"type":"object","properties":{"title":{"type":"string"},"slug":{"type":"string"}},"required":["title","slug"]},
 "Post":{"type":"object","properties":{"id":{"type":"integer"},"title":{"type":"string"},"slug":{"anyOf":[{"type":"string"},{"type":"null"}]}},"required":["id","title"]},
 "HTTPValidationError":{"type":"object","properties":{"detail":{"type":"array","items":{"type":"object"}}}}}}}`
	sp, err := spec.Load([]byte(doc), "slug.json")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: sp})
	if err != nil {
		t.Fatal(err)
	}
	json := http.Header{"Content-Type": {"application/json"}}
	if rec := serve(srv, request{method: "POST", target: "/posts", body: `{"title":"a","slug":"hello-world"}`, header: json}); rec.Code != 201 {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	for _, tc := range []struct {
		req    request
		status int
		body   string
	}{
		{request{target: "/posts/hello-world"}, 200, `{"id":1,"title":"a","slug":"hello-world"}`},
		{request{target: "/posts/1"}, 404, `{"detail":"Post not found"}`},
		{request{method: "PUT", target: "/posts/hello-world", body: `{"title":"b","slug":"hello-world"}`, header: json}, 200, `{"id":1,"title":"b","slug":"hello-world"}`},
		{request{method: "DELETE", target: "/posts/hello-world"}, 200, `{"id":1,"title":"b","slug":"hello-world"}`},
		{request{target: "/posts/hello-world"}, 404, `{"detail":"Post not found"}`},
	} {
		rec := serve(srv, tc.req)
		if rec.Code != tc.status || rec.Body.String() != tc.body {
			t.Errorf("%s %s: %d %s, want %d %s", tc.req.method, tc.req.target, rec.Code, rec.Body, tc.status, tc.body)
		}
	}
}
