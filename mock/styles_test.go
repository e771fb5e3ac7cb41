package mock_test

import (
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// A document not FastAPI's has its parameters read as OpenAPI serializes
// them: each style and explode, arrays and objects in every location,
// content parameters as JSON, and integer enums compared by value.
func TestOpenAPIParameterStyles(t *testing.T) {
	t.Parallel()
	srv, _ := openapiServer(t, "styles.yaml", mock.Config{Seed: 1})
	for _, tc := range []struct {
		name   string
		target string
		header http.Header
		status int
		detail string // a part of the refusal's detail
	}{
		{"form exploded", "/arrays?exploded=album&exploded=track", nil, 200, ""},
		{"form exploded refuses an item", "/arrays?exploded=album&exploded=song", nil, 400, "query parameter exploded.1: must be one of"},
		{"form not exploded", "/arrays?exploded=album&csv=album,track", nil, 200, ""},
		{"form not exploded refuses an item", "/arrays?exploded=album&csv=album,song", nil, 400, "query parameter csv.1: must be one of"},
		{"spaceDelimited", "/arrays?exploded=album&spaced=1%202", nil, 200, ""},
		{"pipeDelimited", "/arrays?exploded=album&piped=1|2", nil, 200, ""},
		{"pipeDelimited refuses an item", "/arrays?exploded=album&piped=1|x", nil, 400, "query parameter piped.1: expected integer"},
		{"header split at commas", "/arrays?exploded=album", http.Header{"X-Ids": {"3fa85f64-5717-4562-b3fc-2c963f66afa6, 3fa85f64-5717-4562-b3fc-2c963f66afa7"}}, 200, ""},
		{"header refuses an item", "/arrays?exploded=album", http.Header{"X-Ids": {"3fa85f64-5717-4562-b3fc-2c963f66afa6,x"}}, 400, "header parameter X-Ids.1: expected UUID"},
		{"cookie split at commas", "/arrays?exploded=album", http.Header{"Cookie": {"flavours=a,b"}}, 200, ""},
		{"cookie refuses an item", "/arrays?exploded=album", http.Header{"Cookie": {"flavours=a,c"}}, 400, "cookie parameter flavours.1: must be one of"},
		{"simple path array", "/simple/1,2,3", nil, 200, ""},
		{"simple path array refuses an item", "/simple/1,x", nil, 400, "path parameter ids.1: expected integer"},
		{"label path array", "/label/.1.2", nil, 200, ""},
		{"label path array refuses an item", "/label/.1.x", nil, 400, "path parameter ids.1: expected integer"},
		{"matrix path scalar", "/matrix/;id=5", nil, 200, ""},
		{"matrix path scalar refuses", "/matrix/;id=x", nil, 400, "path parameter id: expected integer"},
		{"integer enum by value", "/enums?category=2", nil, 200, ""},
		{"integer enum refuses", "/enums?category=4", nil, 400, "query parameter category: must be one of 1, 2 or 3"},
		{"form exploded object", "/objects?name=rex&age=3&page=1", nil, 200, ""},
		{"form exploded object refuses a member", "/objects?name=rex&age=-1", nil, 400, "query parameter filter.age: must be at least 0"},
		{"form exploded object missing a member", "/objects?age=1", nil, 400, "query parameter filter.name is required"},
		{"form exploded object absent", "/objects?page=1", nil, 400, "query parameter filter is required"},
		{"deepObject", "/deep?search[city]=abc&search[zip]=123", nil, 200, ""},
		{"deepObject refuses a member", "/deep?search[city]=abcd", nil, 400, "query parameter search.city: must have at most 3 characters"},
		{"deepObject absent", "/deep?city=abc", nil, 400, "query parameter search is required"},
		{"form object not exploded", "/inline?color=R,100,G,200", nil, 200, ""},
		{"form object not exploded refuses", "/inline?color=R,100,G,x", nil, 400, "query parameter color.G: expected integer"},
		{"header object exploded", "/inline?color=R,1", http.Header{"X-Point": {"x=1,y=2"}}, 200, ""},
		{"header object exploded missing a member", "/inline?color=R,1", http.Header{"X-Point": {"x=1"}}, 400, "header parameter X-Point.y is required"},
		{"content JSON", `/content?where={"lat":1.5}&label="north"`, nil, 200, ""},
		{"content bare string", `/content?where={"lat":1.5}&label=north`, nil, 200, ""},
		{"content JSON refuses", `/content?where={"lat":"x"}`, nil, 400, "query parameter where.lat: expected number"},
		{"content JSON malformed", `/content?where={lat`, nil, 400, "query parameter where: expected JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			target := strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(tc.target, `"`, "%22"), "{", "%7B"), "}", "%7D")
			target = strings.ReplaceAll(strings.ReplaceAll(target, "[", "%5B"), "]", "%5D")
			rec := serve(srv, request{target: target, header: tc.header})
			if rec.Code != tc.status || !strings.Contains(rec.Body.String(), tc.detail) {
				t.Errorf("GET %s: %d %s, want %d with %q", tc.target, rec.Code, rec.Body, tc.status, tc.detail)
			}
		})
	}
}

// A form of a document not FastAPI's is read as its encoding says: an
// array repeated or (explode false) split, an object and each object item
// as JSON, a binary field of a urlencoded form as text, files as parts.
func TestOpenAPIFormFields(t *testing.T) {
	t.Parallel()
	srv, _ := openapiServer(t, "styles.yaml", mock.Config{Seed: 1})
	form := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}
	multipartBody := func(parts ...[3]string) (string, http.Header) {
		var b strings.Builder
		w := multipart.NewWriter(&b)
		for _, p := range parts {
			h := textproto.MIMEHeader{}
			if p[2] != "" {
				h.Set("Content-Disposition", `form-data; name="`+p[0]+`"; filename="`+p[2]+`"`)
			} else {
				h.Set("Content-Disposition", `form-data; name="`+p[0]+`"`)
			}
			pw, _ := w.CreatePart(h)
			pw.Write([]byte(p[1]))
		}
		w.Close()
		return b.String(), http.Header{"Content-Type": {w.FormDataContentType()}}
	}
	goodUpload, goodUploadHeader := multipartBody([3]string{"meta", `{"a":1}`, ""}, [3]string{"files", "one", "a.txt"}, [3]string{"files", "two", "b.txt"})
	textUpload, textUploadHeader := multipartBody([3]string{"meta", `{"a":1}`, ""}, [3]string{"files", "one", ""})
	badMeta, badMetaHeader := multipartBody([3]string{"meta", `{}`, ""}, [3]string{"files", "one", "a.txt"})
	for _, tc := range []struct {
		name   string
		target string
		header http.Header
		body   string
		status int
		detail string
	}{
		{"urlencoded", "/forms", form, `ids=1,2&tags=a&tags=b&meta={"a":1}&file=hello&items={"name":"x"}&items={"name":"y"}&category=2`, 200, ""},
		{"array not exploded refuses an item", "/forms", form, `ids=1,x&meta={}`, 400, "ids.1: expected integer"},
		{"object member refused", "/forms", form, `meta={"a":"x"}`, 400, "meta.a: expected integer"},
		{"object not JSON", "/forms", form, `meta=a`, 400, "meta: expected JSON"},
		{"object absent", "/forms", form, `ids=1`, 400, "meta is required"},
		{"object item refused", "/forms", form, `meta={}&items={"nope":1}`, 400, "items.0.name is required"},
		{"integer enum by value", "/forms", form, `meta={}&category=3`, 400, "category: must be one of 1 or 2"},
		{"multipart", "/uploads", goodUploadHeader, goodUpload, 200, ""},
		{"multipart text for a file", "/uploads", textUploadHeader, textUpload, 400, "files.0"},
		{"multipart JSON part refused", "/uploads", badMetaHeader, badMeta, 400, "meta.a is required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := serve(srv, request{method: "POST", target: tc.target, header: tc.header, body: tc.body})
			if rec.Code != tc.status || !strings.Contains(rec.Body.String(), tc.detail) {
				t.Errorf("POST %s %s: %d %s, want %d with %q", tc.target, tc.body, rec.Code, rec.Body, tc.status, tc.detail)
			}
		})
	}
}

// FuzzStyles sends any query, header and body to the operations of a
// document whose parameters and forms take every style: the mock reads
// them without a 5xx.
func FuzzStyles(f *testing.F) {
	for _, seed := range []struct{ method, target, headers, body string }{
		{"GET", "/arrays?exploded=album&csv=album,track&spaced=1%202&piped=1|2", "X-Ids: a, b\nCookie: flavours=a,b", ""},
		{"GET", "/label/.1.2", "", ""},
		{"GET", "/matrix/;id=5", "", ""},
		{"GET", "/simple/1,,2", "", ""},
		{"GET", "/objects?name=rex&age=3&page=1", "", ""},
		{"GET", "/deep?search[city][x]=abc&search[]=1&search[zip=2", "", ""},
		{"GET", "/inline?color=R,100,G", "X-Point: x=1,y,=", ""},
		{"GET", `/content?where={"lat":[1]}&label=`, "", ""},
		{"POST", "/forms", "Content-Type: application/x-www-form-urlencoded", `ids=1,,2&meta={"a":1e999}&items=[]&items=`},
		{"POST", "/uploads", "Content-Type: multipart/form-data; boundary=b", "--b\r\nContent-Disposition: form-data; name=\"meta\"\r\n\r\n{\"a\":1}\r\n--b--\r\n"},
	} {
		f.Add(seed.method, seed.target, seed.headers, seed.body)
	}
	raw, err := os.ReadFile(filepath.Join("testdata", "openapi", "styles.yaml"))
	if err != nil {
		f.Fatal(err)
	}
	sp, err := spec.Load(raw, "styles.yaml")
	if err != nil {
		f.Fatal(err)
	}
	srv := newServer(f, mock.Config{Spec: sp, Seed: 1})
	f.Fuzz(func(t *testing.T, method, target, headers, body string) {
		req, err := http.NewRequest(method, "http://127.0.0.1:8000/", strings.NewReader(body))
		if err != nil || !strings.HasPrefix(target, "/") {
			return // not a request net/http would hand to a handler
		}
		path, query, _ := strings.Cut(target, "?")
		req.URL.Path, req.URL.RawQuery, req.RequestURI = path, query, target
		for _, line := range strings.Split(headers, "\n") {
			if name, value, ok := strings.Cut(line, ":"); ok && validHeader(name, value) {
				req.Header.Add(name, strings.TrimSpace(value))
			}
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s %q %q: %d %s", method, target, body, rec.Code, rec.Body)
		}
	})
}

// A Swagger 2.0 array is read as its collectionFormat says, csv when it
// says none: in the query and in a form.
func TestSwagger2CollectionFormats(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(`swagger: "2.0"
info: {title: collections, version: "1"}
paths:
  /items:
    post:
      consumes: [application/x-www-form-urlencoded]
      parameters:
        - {name: ids, in: query, required: true, type: array, items: {type: integer}}
        - {name: tags, in: query, type: array, items: {type: integer}, collectionFormat: multi}
        - {name: codes, in: formData, required: true, type: array, items: {type: integer}, collectionFormat: pipes}
      responses:
        "200": {description: ok}
`), "collections.yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, mock.Config{Spec: sp, Seed: 1})
	form := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}
	for _, tc := range []struct {
		target, body string
		status       int
		detail       string
	}{
		{"/items?ids=1,2&tags=3&tags=4", "codes=1|2", 200, ""},
		{"/items?ids=1,x", "codes=1", 400, "query parameter ids.1: expected integer"},
		{"/items?ids=1&tags=3,4", "codes=1", 400, "query parameter tags.0: expected integer"},
		{"/items?ids=1", "codes=1|x", 400, "codes.1: expected integer"},
	} {
		rec := serve(srv, request{method: "POST", target: tc.target, header: form, body: tc.body})
		if rec.Code != tc.status || !strings.Contains(rec.Body.String(), tc.detail) {
			t.Errorf("POST %s %s: %d %s, want %d with %q", tc.target, tc.body, rec.Code, rec.Body, tc.status, tc.detail)
		}
	}
}
