package contract

import (
	"net/http"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
)

// mediaDoc declares, as FastAPI 0.141 writes them, the responses that are
// not a JSON model: response_class=HTMLResponse, a StreamingResponse
// (no content), an operation without a response model returning any
// Response (application/json {}), a custom Response class
// ({"type": "string"}), responses={200: {"content": {"image/png": {}}}},
// EventSourceResponse and JSON Lines with their itemSchema.
const mediaDoc = `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{
"/html":{"get":{"responses":{"200":{"description":"d","content":{"text/html":{"schema":{"type":"string"}}}}}}},
"/stream":{"get":{"responses":{"200":{"description":"d"}}}},
"/untyped":{"get":{"responses":{"200":{"description":"d","content":{"application/json":{"schema":{}}}}}}},
"/custom":{"get":{"responses":{"200":{"description":"d","content":{"application/json":{"schema":{"type":"string"}}}}}}},
"/img":{"get":{"responses":{"200":{"description":"d","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Item"}},"image/png":{}}}}}},
"/any-image":{"get":{"responses":{"200":{"description":"d","content":{"image/*":{}}}}}},
"/sse":{"get":{"responses":{"200":{"description":"d","content":{"text/event-stream":{"itemSchema":{"type":"object","properties":{"data":{"type":"string","contentMediaType":"application/json","contentSchema":{"$ref":"#/components/schemas/Item"}},"event":{"type":"string"},"id":{"type":"string"},"retry":{"type":"integer","minimum":0}},"required":["data"]}}}}}}},
"/jsonl":{"get":{"responses":{"200":{"description":"d","content":{"application/jsonl":{"itemSchema":{"$ref":"#/components/schemas/Item"}}}}}}}
},"components":{"schemas":{"Item":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}}`

var png1x1 = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"

func TestBodyConformsByMediaType(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(mediaDoc), "media")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, ct, body string
		declared             bool
		wantErr              string // "" passes
	}{
		{"html is not parsed as JSON", "/html", "text/html; charset=utf-8", "<html></html>", true, ""},
		{"html in bad UTF-8", "/html", "text/html; charset=utf-8", "\xff", true, "UTF-8"},
		{"no content declared", "/stream", "", "some bytes", false, ""},
		{"untyped JSON answered with XML", "/untyped", "application/xml", "<a/>", false, ""},
		{"untyped JSON answered with JSON", "/untyped", "application/json", `{"a":1}`, true, ""},
		{"custom response class", "/custom", "application/json", `{"message":"hi"}`, true, ""},
		{"png beside JSON", "/img", "image/png", png1x1, true, ""},
		{"not a png", "/img", "image/png", `{"name":"a"}`, true, "not image/png"},
		{"JSON beside png", "/img", "application/json", `{"name":"a"}`, true, ""},
		{"JSON beside png, wrong", "/img", "application/json", `{}`, true, "name"},
		{"undeclared media type", "/img", "text/plain", "x", true, "not declared"},
		{"image range", "/any-image", "image/png", png1x1, true, ""},
		{"events", "/sse", "text/event-stream; charset=utf-8", ": ping\n\nevent: e\ndata: {\"name\":\"a\"}\nid: 1\nretry: 5\n\ndata: {\"name\":\"b\"}\n\n", true, ""},
		{"event data breaks contentSchema", "/sse", "text/event-stream; charset=utf-8", "data: {\"name\":\"a\"}\n\ndata: {\"nom\":1}\n\n", true, "event 2: data: "},
		{"event data not JSON", "/sse", "text/event-stream; charset=utf-8", "data: hello\n\n", true, "data is not JSON"},
		{"JSON lines", "/jsonl", "application/jsonl", "{\"name\":\"a\"}\n{\"name\":\"b\"}\n", true, ""},
		{"JSON line breaks itemSchema", "/jsonl", "application/jsonl", "{\"name\":\"a\"}\n{\"name\":2}\n", true, "line 2: name"},
		{"JSON line not JSON", "/jsonl", "application/jsonl", "{\"name\":\"a\"}\nnope\n", true, "line 2 is not JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			op := sp.Doc.Paths.Value(tc.path).Get
			declared, err := BodyConforms(sp, op, http.StatusOK, tc.ct, []byte(tc.body))
			if declared != tc.declared {
				t.Errorf("declared = %v, want %v", declared, tc.declared)
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("err = %v, want none", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("err = %v, want one mentioning %q", err, tc.wantErr)
			}
		})
	}
}

func TestContentTypeByDeclaration(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(mediaDoc), "media")
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{sp: sp, cfg: &Config{}}
	for _, tc := range []struct {
		name, path, ct string
		status         int
		want           string // "pass", "fail" or "" (does not apply)
	}{
		{"declared html", "/html", "text/html; charset=utf-8", 200, "pass"},
		{"html declared, JSON sent", "/html", "application/json", 200, "fail"},
		{"no content declared", "/stream", "", 200, ""},
		{"untyped JSON, html sent", "/untyped", "text/html; charset=utf-8", 200, ""},
		{"image range", "/any-image", "image/gif", 200, "pass"},
		{"event stream", "/sse", "text/event-stream; charset=utf-8", 200, "pass"},
		{"FastAPI's own 404", "/html", "application/json", 404, "pass"},
		{"a text 404", "/html", "text/plain; charset=utf-8", 404, "fail"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := &Case{op: &operation{op: sp.Doc.Paths.Value(tc.path).Get}}
			h := http.Header{}
			if tc.ct != "" {
				h.Set("Content-Type", tc.ct)
			}
			x := &checkInput{r: r, res: &Result{Case: c, Response: Response{Status: tc.status, Header: h, Body: []byte("x")}}}
			v := checkContentType(x)
			got := ""
			switch {
			case v == pass:
				got = "pass"
			case v != nil:
				got = "fail"
			}
			if got != tc.want {
				t.Errorf("checkContentType = %q (%+v), want %q", got, v, tc.want)
			}
		})
	}
}

// A redirect is a success where the contract says so: an operation
// declared with response_class=RedirectResponse (only a 3xx), or one
// returning a RedirectResponse from an untyped operation (FastAPI's
// application/json {}), with its Location.
func TestRedirectsAsSuccess(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{
"/declared":{"get":{"responses":{"302":{"description":"d"}}}},
"/untyped":{"get":{"responses":{"200":{"description":"d","content":{"application/json":{"schema":{}}}}}}},
"/typed":{"get":{"responses":{"200":{"description":"d","content":{"application/json":{"schema":{"type":"object"}}}}}}}}}`
	sp, err := spec.Load([]byte(doc), "redirects")
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{sp: sp, cfg: &Config{FrameworkStatuses: []int{404, 422}}}
	for _, tc := range []struct {
		path     string
		status   int
		location string
		ok       bool
	}{
		{"/declared", 302, "https://docs.pydantic.dev/", true},
		{"/declared", 307, "https://docs.pydantic.dev/", false},
		{"/untyped", 307, "https://typer.tiangolo.com", true},
		{"/untyped", 307, "", false},
		{"/typed", 307, "https://typer.tiangolo.com", false},
	} {
		c := &Case{Expect: ExpectSuccess, op: &operation{op: sp.Doc.Paths.Value(tc.path).Get}}
		h := http.Header{}
		if tc.location != "" {
			h.Set("Location", tc.location)
		}
		x := &checkInput{r: r, res: &Result{Case: c, Response: Response{Status: tc.status, Header: h}}}
		pos, st := checkPositive(x), checkStatus(x)
		if (pos == pass) != tc.ok || (st == pass) != tc.ok {
			t.Errorf("%s %d Location %q: positive %+v, status %+v; want passing %v", tc.path, tc.status, tc.location, pos, st, tc.ok)
		}
	}
}
