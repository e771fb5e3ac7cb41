package mock_test

import (
	"net/http"
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// page/size paging counts pages from the first the page parameter allows:
// 0 where its minimum (or, with none, its default) is 0, as
// fastapi-pagination's zero-based Params do, else 1.
func TestPagesCountFromTheFirstThePageParameterAllows(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, page string
		first      string
	}{
		{"zero-based", `{"type":"integer","minimum":0,"default":0}`, "0"},
		{"zero default, no minimum", `{"type":"integer","default":0}`, "0"},
		{"one-based", `{"type":"integer","minimum":1,"default":1}`, "1"},
		{"no bounds", `{"type":"integer"}`, "1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			const v422 = `"422":{"description":"v","content":{"application/json":{"schema":{"$ref":"#/components/schemas/HTTPValidationError"}}}}`
			doc := `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{
"/notes":{"get":{"parameters":[{"name":"page","in":"query","required":false,"schema":` + tc.page + `},{"name":"size","in":"query","required":false,"schema":{"type":"integer","default":50}}],
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/Note"}}}}},` + v422 + `}},
  "post":{"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/NoteCreate"}}}},
  "responses":{"201":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Note"}}}},` + v422 + `}}}},
"components":{"schemas":{
 "NoteCreate":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]},
 "Note":{"type":"object","properties":{"id":{"type":"integer"},"text":{"type":"string"}},"required":["id","text"]},
 "HTTPValidationError":{"type":"object","properties":{"detail":{"type":"array","items":{"type":"object"}}}}}}}`
			sp, err := spec.Load([]byte(doc), "pages.json")
			if err != nil {
				t.Fatal(err)
			}
			srv, err := mock.New(mock.Config{Spec: sp})
			if err != nil {
				t.Fatal(err)
			}
			for _, text := range []string{"a", "b", "c"} {
				if rec := serve(srv, request{method: "POST", target: "/notes", body: `{"text":"` + text + `"}`, header: http.Header{"Content-Type": {"application/json"}}}); rec.Code != 201 {
					t.Fatalf("create: %d %s", rec.Code, rec.Body)
				}
			}
			first := serve(srv, request{target: "/notes?size=2&page=" + tc.first}).Body.String()
			if first != `[{"id":1,"text":"a"},{"id":2,"text":"b"}]` {
				t.Errorf("page %s = %s, want the first two notes", tc.first, first)
			}
			if got := serve(srv, request{target: "/notes?size=2"}).Body.String(); got != first {
				t.Errorf("no page = %s, want the first page %s", got, first)
			}
		})
	}
}
