package mock_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

const linksDoc = "../testdata/contracts/links/openapi.json"

// linkCaller sends requests to srv as http://example.com and decodes the
// JSON answers, failing on another status than want.
func linkCaller(t *testing.T, srv http.Handler) func(method, target, body string, want int) map[string]any {
	return func(method, target, body string, want int) map[string]any {
		t.Helper()
		target = strings.TrimPrefix(target, "http://example.com")
		r := httptest.NewRequest(method, target, strings.NewReader(body))
		if body != "" {
			r.Header.Set("Content-Type", "application/json")
		}
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		if w.Code != want {
			t.Fatalf("%s %s: status %d, want %d: %s", method, target, w.Code, want, w.Body)
		}
		var v map[string]any
		if w.Body.Len() > 0 {
			if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
				t.Fatalf("%s %s: %v: %s", method, target, err, w.Body)
			}
		}
		return v
	}
}

// A list whose items show no id but a link to each record (a summary
// {title, url} beside the record path's whole Book) is the list of the
// records held: its count is how many there are, limit and offset page
// through them, next and previous link the pages, and each item's url is
// its record's read, which answers that record; a create answering a
// summary links to the record it made, which the list then holds, and a
// delete takes it out.
func TestListOfLinksToRecords(t *testing.T) {
	t.Parallel()
	srv := contractServer(t, linksDoc, func(m *model.Model) *fixtures.Dataset {
		d, err := fixtures.Generate(m, fixtures.GenerateOptions{Seed: 3, Default: 7})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}, nil)
	call := linkCaller(t, srv)

	first := call("GET", "/books/?limit=3", "", 200)
	if first["count"] != 7.0 || first["previous"] != nil || first["next"] != "http://example.com/books/?limit=3&offset=3" {
		t.Fatalf("first page %v: want count 7, no previous, next at offset 3", first)
	}
	var links []string
	page, pages := first, 1
	for {
		for _, it := range page["results"].([]any) {
			item := it.(map[string]any)
			link, _ := item["url"].(string)
			if !strings.HasPrefix(link, "http://example.com/books/") {
				t.Fatalf("item %v: want its url under http://example.com/books/", item)
			}
			rec := call("GET", link, "", 200)
			if rec["title"] != item["title"] || link != fmt.Sprintf("http://example.com/books/%v/", rec["id"]) {
				t.Errorf("item %v links to %v: want the record of its title, named by its id", item, rec)
			}
			links = append(links, link)
		}
		next, _ := page["next"].(string)
		if next == "" {
			break
		}
		page, pages = call("GET", next, "", 200), pages+1
		if page["previous"] == nil {
			t.Errorf("page %d %v has no previous", pages, page)
		}
	}
	if len(links) != 7 || pages != 3 {
		t.Fatalf("paging by next read %d items in %d pages, want 7 in 3", len(links), pages)
	}

	made := call("POST", "/books/", `{"title":"Dune","pages":412}`, 201)
	link, _ := made["url"].(string)
	if made["title"] != "Dune" || made["id"] != nil || !strings.HasPrefix(link, "http://example.com/books/") {
		t.Fatalf("the create answered %v: want the summary of the book made, with its link", made)
	}
	if rec := call("GET", link, "", 200); rec["title"] != "Dune" || rec["pages"] != 412.0 {
		t.Fatalf("the new book's link reads %v", rec)
	}
	all := call("GET", "/books/?offset=5", "", 200)
	if all["count"] != 8.0 || len(all["results"].([]any)) != 3 || all["results"].([]any)[2].(map[string]any)["url"] != link {
		t.Fatalf("after the create, offset 5 answered %v: want count 8 and the new book last", all)
	}
	call("DELETE", link, "", 204)
	call("GET", link, "", 404)
	if after := call("GET", "/books/?limit=1", "", 200); after["count"] != 7.0 {
		t.Fatalf("after the delete the list answered %v: want count 7", after)
	}

	// Asked under the servers' base path, the links keep it.
	under := call("GET", "/v1/books/?limit=1&offset=1", "", 200)
	item := under["results"].([]any)[0].(map[string]any)
	if u, _ := item["url"].(string); !strings.HasPrefix(u, "http://example.com/v1/books/") || under["next"] != "http://example.com/v1/books/?limit=1&offset=2" {
		t.Fatalf("under /v1: %v, want links under http://example.com/v1/books/", under)
	}
	call("GET", item["url"].(string), "", 200)
}

// A link member written as a path (format uri-reference, or an example
// that is one) links by the path alone; a 3.1 document's optional next
// that nullable cannot make nullable (no keyword of 3.1) is left out of
// the last page rather than written null.
func TestRelativeLinksAndAbsentNext(t *testing.T) {
	t.Parallel()
	doc := `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{
"/things/":{"get":{"parameters":[{"name":"limit","in":"query","schema":{"type":"integer"}},{"name":"offset","in":"query","schema":{"type":"integer"}}],
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"object","required":["count","results"],"properties":{
    "count":{"type":"integer"},"next":{"type":"string","nullable":true,"format":"uri"},"previous":{"type":"string","nullable":true,"format":"uri"},
    "results":{"type":"array","items":{"$ref":"#/components/schemas/ThingSummary"}}}}}}}}}},
"/things/{id}/":{"get":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Thing"}}}},"404":{"description":"missing"}}}}},
"components":{"schemas":{
  "Thing":{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"}},"required":["id","name"]},
  "ThingSummary":{"type":"object","properties":{"name":{"type":"string"},"href":{"type":"string","format":"uri-reference"}},"required":["name","href"]}}}}`
	sp, err := spec.Load([]byte(doc), "things.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Compile(sp)
	if err != nil {
		t.Fatal(err)
	}
	d, err := fixtures.Generate(m, fixtures.GenerateOptions{Seed: 1, Default: 3})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: sp, Model: m, Data: d})
	if err != nil {
		t.Fatal(err)
	}
	converse(t, srv, "", []step{
		{"GET", "/things/?limit=2", "", 200, map[string]string{"count": "3", "results.0.href": `"/things/1/"`, "results.1.href": `"/things/2/"`,
			"next": `"http://example.com/things/?limit=2&offset=2"`, "previous": "<absent>"}, ""},
		{"GET", "/things/?limit=2&offset=2", "", 200, map[string]string{"count": "3", "results.#": "1", "results.0.href": `"/things/3/"`,
			"next": "<absent>", "previous": `"http://example.com/things/?limit=2&offset=0"`}, ""},
		{"GET", "/things/3/", "", 200, map[string]string{"id": "3"}, ""},
	})
}
