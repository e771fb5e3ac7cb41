package model

import (
	"os"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
)

// compileDoc compiles a document given inline.
func compileDoc(t *testing.T, doc string) *Model {
	t.Helper()
	sp, err := spec.Load([]byte(doc), "doc.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Compile(sp)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// linkDoc is a list of ThingSummary items beside the record path of a
// Thing; summary is ThingSummary's properties.
func linkDoc(summary string) string {
	return `{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{
"/things/":{"get":{"parameters":[{"name":"limit","in":"query","schema":{"type":"integer"}},{"name":"offset","in":"query","schema":{"type":"integer"}}],
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"object","required":["count","results"],"properties":{
    "count":{"type":"integer"},"next":{"type":"string","nullable":true},"previous":{"type":"string","nullable":true},
    "results":{"type":"array","items":{"$ref":"#/components/schemas/ThingSummary"}}}}}}}}}},
"/things/{id}/":{"get":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Thing"}}}}}}}},
"components":{"schemas":{
  "Thing":{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"},"size":{"type":"integer"}},"required":["id","name"]},
  "ThingSummary":{"type":"object","properties":{` + summary + `}}}}}`
}

// A list whose items show no id but one link-like member the record
// does not hold, beside a record path reading a collection whose fields
// are the items' other members, is that collection's list, each item
// linking to the record path's read; items with a member the record
// lacks that is no link, or two links, or a member of another type than
// the record's, are not.
func TestLinkViews(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, summary string
		member        string // "": the list is no list of Things
		relative      bool
	}{
		{"url of format uri", `"name":{"type":"string"},"url":{"type":"string","format":"uri"}`, "url", false},
		{"the link alone", `"url":{"type":"string","format":"uri"}`, "url", false},
		{"href by its name", `"name":{"type":"string"},"href":{"type":"string"}`, "href", false},
		{"self_link as a path", `"self_link":{"type":"string","format":"uri-reference"}`, "self_link", true},
		{"an example that is a path", `"name":{"type":"string"},"url":{"type":"string","example":"/things/1/"}`, "url", true},
		{"a uri of another name", `"name":{"type":"string"},"detail":{"type":"string","format":"uri"}`, "detail", false},
		{"a member no link", `"name":{"type":"string"},"colour":{"type":"string"}`, "", false},
		{"two links", `"url":{"type":"string","format":"uri"},"href":{"type":"string"}`, "", false},
		{"a member of another type", `"name":{"type":"integer"},"url":{"type":"string","format":"uri"}`, "", false},
		{"a link that is no string", `"name":{"type":"string"},"url":{"type":"object"}`, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := compileDoc(t, linkDoc(tc.summary))
			o := m.Operations[0]
			if tc.member == "" {
				if o.Kind != Example || o.Link != nil {
					t.Fatalf("GET /things/ is %s of %v (link %+v), want no convention", o.Kind, o.Coll, o.Link)
				}
				return
			}
			if o.Kind != List || o.Coll == nil || o.Coll.Name != "Thing" || o.Link == nil {
				t.Fatalf("GET /things/ is %s of %v (link %+v), want the list of Things with links", o.Kind, o.Coll, o.Link)
			}
			want := Link{Member: tc.member, Path: "/things/{id}/", Param: "id", Field: o.Coll.ID, Relative: tc.relative}
			if *o.Link != want {
				t.Errorf("link %+v, want %+v", *o.Link, want)
			}
			if o.Paging.Skip != "offset" || o.Paging.Limit != "limit" {
				t.Errorf("paging %+v, want offset and limit", o.Paging)
			}
			links := 0
			for _, vm := range o.View {
				if vm.Link {
					links++
					if vm.Name != tc.member {
						t.Errorf("view member %s is the link, want %s", vm.Name, tc.member)
					}
				}
			}
			if links != 1 {
				t.Errorf("view %+v: %d links, want 1", o.View, links)
			}
			if len(o.Coll.ViewOnly) != 0 {
				t.Errorf("the link is kept as a member of the records: %+v", o.Coll.ViewOnly)
			}
		})
	}
}

// An operation answering a link view that fits no convention (a GET of
// one summary under a path of its own) is answered from its example or
// its schema: it links nothing.
func TestLinkViewOfNoConvention(t *testing.T) {
	t.Parallel()
	doc := strings.Replace(linkDoc(`"name":{"type":"string"},"url":{"type":"string","format":"uri"}`), `"/things/{id}/":`,
		`"/things/{id}/summary/":{"get":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/ThingSummary"}}}}}}},
"/things/{id}/":`, 1)
	m := compileDoc(t, doc)
	for _, o := range m.Operations {
		if o.Path != "/things/{id}/summary/" {
			continue
		}
		if o.Kind != Example || o.Coll != nil || o.Link != nil || o.View != nil {
			t.Errorf("%s: %s of %v, link %+v, view %+v: want no convention and no link", o, o.Kind, o.Coll, o.Link, o.View)
		}
		return
	}
	t.Fatal("no GET /things/{id}/summary/")
}

// The list, the create answering a summary and the read of
// testdata/contracts/links: one collection, the list's and the create's
// links to the read.
func TestLinkViewsOfTheLinksContract(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../testdata/contracts/links/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	m := compileDoc(t, string(b))
	for _, tc := range []struct {
		method, path string
		kind         Kind
		link         bool
	}{
		{"GET", "/books/", List, true},
		{"POST", "/books/", Create, true},
		{"GET", "/books/{id}/", ReadOne, false},
		{"DELETE", "/books/{id}/", Delete, false},
	} {
		var o *Operation
		for _, op := range m.Operations {
			if op.Method == tc.method && op.Path == tc.path {
				o = op
			}
		}
		if o == nil || o.Kind != tc.kind || o.Coll == nil || o.Coll.Name != "Book" || (o.Link != nil) != tc.link {
			t.Errorf("%s %s: %+v, want %s of Book, a link %v", tc.method, tc.path, o, tc.kind, tc.link)
			continue
		}
		if tc.link && (o.Link.Path != "/books/{id}/" || o.Link.Member != "url") {
			t.Errorf("%s %s: link %+v, want url to /books/{id}/", tc.method, tc.path, o.Link)
		}
	}
	if len(m.Collections) != 1 {
		t.Errorf("collections %v, want Book alone", m.Files())
	}
}

// A link's path parameters are read from its path's last segments,
// whatever comes before them (a scheme, a host, a server's base path).
func TestLinkParams(t *testing.T) {
	t.Parallel()
	l := &Link{Path: "/shelves/{shelf}/books/{id}/", Param: "id"}
	for _, tc := range []struct {
		link string
		want string // "shelf id"; "" when the link is no URL of the path
	}{
		{"https://api.example.org/shelves/2/books/7/", "2 7"},
		{"https://api.example.org/v1/shelves/2/books/7", "2 7"},
		{"/shelves/a%20b/books/x%2Fy/", "a b x/y"},
		{"shelves/2/books/7/", "2 7"},
		{"https://api.example.org/shelves/2/records/7/", ""},
		{"https://api.example.org/books/7/", ""},
		{"https://api.example.org/shelves//books/7/", ""},
		{"", ""},
		{"%zz", ""},
	} {
		params, ok := l.Params(tc.link)
		got := ""
		if ok {
			got = params["shelf"] + " " + params["id"]
		}
		if got != tc.want {
			t.Errorf("Params(%q) = %q (%v), want %q", tc.link, got, ok, tc.want)
		}
	}
	if got := l.Expand(map[string]string{"shelf": "a b", "id": "x/y"}); got != "/shelves/a%20b/books/x%2Fy/" {
		t.Errorf("Expand = %q", got)
	}
}

// FuzzLinkParams: any link, as a server answers it, is read or refused
// without a panic; a link read back gives parameters that, written into
// the path again and read, are the same.
func FuzzLinkParams(f *testing.F) {
	for _, s := range []string{
		"https://api.example.org/shelves/2/books/7/", "/shelves/a%20b/books/x%2Fy/", "shelves/2/books/7", "",
		"%zz", "http://[::1]:80/shelves/%/books/1/", "//shelves/1/books/2", "https://h/" + strings.Repeat("a/", 200),
	} {
		f.Add(s)
	}
	l := &Link{Path: "/shelves/{shelf}/books/{id}/", Param: "id"}
	f.Fuzz(func(t *testing.T, link string) {
		params, ok := l.Params(link)
		if !ok {
			return
		}
		if params["shelf"] == "" || params["id"] == "" {
			t.Fatalf("Params(%q) = %v: an empty parameter", link, params)
		}
		again, ok := l.Params(l.Expand(params))
		if !ok || again["shelf"] != params["shelf"] || again["id"] != params["id"] {
			t.Fatalf("Params(%q) = %v, read back from %q as %v", link, params, l.Expand(params), again)
		}
	})
}
