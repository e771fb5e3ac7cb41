package mock_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// A path parameter that names a field of the record other than its id (a
// slug, a username) finds the record by that field, for reads, changes and
// deletes alike; the id in its place names no record.
func TestPathParameterNamingAFieldFindsByIt(t *testing.T) {
	t.Parallel()
	checkSlugLookups(t, slugServer(t, `"required":["title","slug"]`))
}

// A create that does not set the field records are addressed by gets a
// value no other record has, as the backend computes one (a slug from the
// title): the record can be read by it.
func TestCreateFillsTheFieldRecordsAreAddressedBy(t *testing.T) {
	t.Parallel()
	srv := slugServer(t, `"required":["title"]`)
	hdr := http.Header{"Content-Type": {"application/json"}}
	seen := map[string]bool{}
	for range 3 {
		rec := serve(srv, request{method: "POST", target: "/posts", body: `{"title":"a"}`, header: hdr})
		var post struct {
			Slug *string `json:"slug"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &post); rec.Code != 201 || err != nil || post.Slug == nil || *post.Slug == "" {
			t.Fatalf("create: %d %s, want a slug", rec.Code, rec.Body)
		}
		if seen[*post.Slug] {
			t.Errorf("slug %q given twice", *post.Slug)
		}
		seen[*post.Slug] = true
		if got := serve(srv, request{target: "/posts/" + *post.Slug}); got.Code != 200 || got.Body.String() != rec.Body.String() {
			t.Errorf("GET /posts/%s: %d %s, want %s", *post.Slug, got.Code, got.Body, rec.Body)
		}
	}
}

func slugServer(t *testing.T, createRequired string) http.Handler {
	t.Helper()
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
 "PostCreate":{"type":"object","properties":{"title":{"type":"string"},"slug":{"type":"string"}},` + createRequired + `},
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
	return srv
}

func checkSlugLookups(t *testing.T, srv http.Handler) {
	t.Helper()
	hdr := http.Header{"Content-Type": {"application/json"}}
	if rec := serve(srv, request{method: "POST", target: "/posts", body: `{"title":"a","slug":"hello-world"}`, header: hdr}); rec.Code != 201 {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	for _, tc := range []struct {
		req    request
		status int
		body   string
	}{
		{request{target: "/posts/hello-world"}, 200, `{"id":1,"title":"a","slug":"hello-world"}`},
		{request{target: "/posts/1"}, 404, `{"detail":"Post not found"}`},
		{request{method: "PUT", target: "/posts/hello-world", body: `{"title":"b","slug":"hello-world"}`, header: hdr}, 200, `{"id":1,"title":"b","slug":"hello-world"}`},
		{request{method: "DELETE", target: "/posts/hello-world"}, 200, `{"id":1,"title":"b","slug":"hello-world"}`},
		{request{target: "/posts/hello-world"}, 404, `{"detail":"Post not found"}`},
	} {
		rec := serve(srv, tc.req)
		if rec.Code != tc.status || rec.Body.String() != tc.body {
			t.Errorf("%s %s: %d %s, want %d %s", tc.req.method, tc.req.target, rec.Code, rec.Body, tc.status, tc.body)
		}
	}
}

// A path parameter declared a string that addresses records keyed by an
// integer id (springdoc's DELETE /store/order/{orderId} beside its GET's
// int64) names the record its digits spell, as the backend parses it.
func TestStringParameterNamesAnIntegerID(t *testing.T) {
	t.Parallel()
	param := func(typ string) string {
		return `"parameters":[{"name":"orderId","in":"path","required":true,"schema":{"type":"` + typ + `"}}]`
	}
	one := `"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Order"}}}`
	doc := `{"openapi":"3.0.1","info":{"title":"x","version":"1"},"paths":{
"/orders":{"post":{"requestBody":{"required":true,` + one + `},"responses":{"200":{"description":"ok",` + one + `}}}},
"/orders/{orderId}":{"get":{` + param("integer") + `,"responses":{"200":{"description":"ok",` + one + `},"404":{"description":"none"}}},
  "delete":{` + param("string") + `,"responses":{"200":{"description":"ok"},"404":{"description":"none"}}}}},
"components":{"schemas":{"Order":{"type":"object","properties":{"id":{"type":"integer","format":"int64"},"quantity":{"type":"integer"}}}}}}`
	sp, err := spec.Load([]byte(doc), "orders.json")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, mock.Config{Spec: sp})
	rec := serve(srv, request{method: "POST", target: "/orders", body: `{"quantity":2}`, header: http.Header{"Content-Type": {"application/json"}}})
	var order struct{ ID int64 }
	if err := json.Unmarshal(rec.Body.Bytes(), &order); rec.Code != 200 || err != nil || order.ID == 0 {
		t.Fatalf("create: %d %s, want an order with its id", rec.Code, rec.Body)
	}
	id := strconv.FormatInt(order.ID, 10)
	for _, tc := range []struct {
		req    request
		status int
	}{
		{request{method: "DELETE", target: "/orders/x" + id}, 404},
		{request{method: "DELETE", target: "/orders/" + id}, 200},
		{request{target: "/orders/" + id}, 404},
		{request{method: "DELETE", target: "/orders/" + id}, 404},
	} {
		if rec := serve(srv, tc.req); rec.Code != tc.status {
			t.Errorf("%s %s: %d %s, want %d", tc.req.method, tc.req.target, rec.Code, rec.Body, tc.status)
		}
	}
}

// An operation answered from its example under a path that names a record
// (GET /pets/{id}/owner under GET /pets/{id}) answers for the records the
// mock holds, one just created among them, and 404s the ids none has, as
// the backend's lookup of the pet does.
func TestExampleUnderARecordAnswersForItsRecords(t *testing.T) {
	t.Parallel()
	id := `"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}]`
	pet := `"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Pet"}}}`
	none := `"404":{"description":"none","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Error"}}}}`
	doc := `{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{
"/pets":{"post":{"requestBody":{"required":true,` + pet + `},"responses":{"200":{"description":"ok",` + pet + `}}}},
"/pets/{id}":{"get":{` + id + `,"responses":{"200":{"description":"ok",` + pet + `},` + none + `}}},
"/pets/{id}/owner":{"get":{` + id + `,"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Owner"}}}},` + none + `}}}},
"components":{"schemas":{
 "Pet":{"type":"object","required":["id","name"],"properties":{"id":{"type":"integer"},"name":{"type":"string"}}},
 "Owner":{"type":"object","required":["name","age"],"properties":{"name":{"type":"string"},"age":{"type":"integer"}}},
 "Error":{"type":"object","required":["code"],"properties":{"code":{"type":"integer"}}}}}}`
	sp, err := spec.Load([]byte(doc), "pets.json")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, mock.Config{Spec: sp})
	rec := serve(srv, request{method: "POST", target: "/pets", body: `{"id":424242,"name":"Rex"}`, header: http.Header{"Content-Type": {"application/json"}}})
	if rec.Code != 200 {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	for _, tc := range []struct {
		target string
		status int
	}{
		{"/pets/424242/owner", 200},
		{"/pets/987654321/owner", 404},
	} {
		if rec := serve(srv, request{target: tc.target}); rec.Code != tc.status {
			t.Errorf("GET %s: %d %s, want %d", tc.target, rec.Code, rec.Body, tc.status)
		}
	}
}

// An operation below a record's path (DELETE /apps/{id}/messages) answers
// for every record of the collection that path names, found by whichever
// operation works on one record there (a PUT or a DELETE, where no GET
// reads one), and 404 for an id that names none.
func TestBelowARecordWithoutItsRead(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{
"/apps":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/App"}}}}}}},
  "post":{"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/App"}}}},
    "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/App"}}}}}}},
"/apps/{id}":{"put":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],
    "requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/App"}}}},
    "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/App"}}}},"404":{"description":"no such app"}}},
  "delete":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],
    "responses":{"200":{"description":"ok"},"404":{"description":"no such app"}}}},
"/apps/{id}/messages":{"delete":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],
    "responses":{"200":{"description":"ok"},"404":{"description":"no such app"}}}}},
"components":{"schemas":{
"App":{"type":"object","required":["name"],"properties":{"id":{"type":"integer","readOnly":true},"name":{"type":"string"}}}}}}`
	sp, err := spec.Load([]byte(doc), "apps.json")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: sp, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	rec := serve(srv, request{method: "POST", target: "/apps", body: `{"name":"backup"}`, header: http.Header{"Content-Type": {"application/json"}}})
	var app struct{ ID int }
	if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &app) != nil || app.ID == 0 {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	for _, tc := range []struct {
		target string
		want   int
	}{
		{"/apps/" + strconv.Itoa(app.ID) + "/messages", 200},
		{"/apps/987654/messages", 404},
	} {
		if got := serve(srv, request{method: "DELETE", target: tc.target}); got.Code != tc.want {
			t.Errorf("DELETE %s: %d %s, want %d", tc.target, got.Code, got.Body, tc.want)
		}
	}
}

// An operation on one record of a collection nothing else reads one of
// (DELETE /messages/{id}, the list paged in an envelope) answers for the
// records a create at the path before it made, and 404 for an id that
// names none.
func TestOneRecordOfWhatACreateMade(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{
"/messages":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Paged"}}}}}},
  "post":{"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Message"}}}},
    "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Message"}}}}}}},
"/messages/{id}":{"delete":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],
    "responses":{"200":{"description":"ok"},"404":{"description":"no such message"}}}}},
"components":{"schemas":{
"Paged":{"type":"object","required":["paging","messages"],"properties":{"paging":{"type":"object","properties":{"next":{"type":"string"}}},"messages":{"type":"array","items":{"$ref":"#/components/schemas/Message"}}}},
"Message":{"type":"object","required":["message"],"properties":{"id":{"type":"integer","readOnly":true},"message":{"type":"string"}}}}}}`
	sp, err := spec.Load([]byte(doc), "messages.json")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: sp, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	rec := serve(srv, request{method: "POST", target: "/messages", body: `{"message":"backup done"}`, header: http.Header{"Content-Type": {"application/json"}}})
	var msg struct{ ID int }
	if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &msg) != nil || msg.ID == 0 {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	for _, tc := range []struct {
		target string
		want   int
	}{
		{"/messages/" + strconv.Itoa(msg.ID), 200},
		{"/messages/987654", 404},
	} {
		if got := serve(srv, request{method: "DELETE", target: tc.target}); got.Code != tc.want {
			t.Errorf("DELETE %s: %d %s, want %d", tc.target, got.Code, got.Body, tc.want)
		}
	}
}
