package fastapi

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/moviemock/moviemock/internal/spec"
)

// jsonCase is one exchange recorded from the real FastAPI 0.141.1 by
// testdata/jsonbody_cases.py.
type jsonCase struct {
	Name        string  `json:"name"`
	Path        string  `json:"path"`
	ContentType *string `json:"content_type"` // each character one byte (latin-1)
	Body        *string `json:"body"`
	BodyB64     string  `json:"body_b64"`
	Status      int     `json:"status"`
	Response    string  `json:"response"`
}

func (c *jsonCase) request(t *testing.T) (string, bool, []byte) {
	t.Helper()
	body := []byte(nil)
	if c.Body != nil {
		body = []byte(*c.Body)
	} else {
		var err error
		if body, err = base64.StdEncoding.DecodeString(c.BodyB64); err != nil {
			t.Fatal(err)
		}
	}
	if c.ContentType == nil {
		return "", false, body
	}
	ct := make([]byte, 0, len(*c.ContentType))
	for _, r := range *c.ContentType {
		ct = append(ct, byte(r))
	}
	return string(ct), true, body
}

// loadJSONBodies compiles the JSON body of every POST operation of the
// document the test app served.
func loadJSONBodies(t testing.TB) map[string]*JSONBody {
	t.Helper()
	raw, err := os.ReadFile("testdata/jsonbody_openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(raw, "jsonbody_openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	bodies := map[string]*JSONBody{}
	for tmpl, item := range sp.Doc.Paths.Map() {
		if item.Post == nil {
			continue
		}
		ins, err := CompileInputs(sp, item.Post, item)
		if err != nil {
			t.Fatalf("POST %s: %v", tmpl, err)
		}
		if ins.JSON == nil {
			t.Fatalf("POST %s: no JSON body compiled", tmpl)
		}
		bodies[tmpl] = ins.JSON
	}
	return bodies
}

// answer is what a FastAPI endpoint that echoes its body (as the test app
// does) answers, built from Read and Validate.
func answer(jb *JSONBody, contentType string, hasContentType bool, body []byte) (int, string) {
	parsed, items, err := jb.Read(contentType, hasContentType, body)
	if err != nil {
		var fe *FormError
		if !errors.As(err, &fe) {
			return 0, "unexpected error " + err.Error()
		}
		return fe.Status, string(AppendDetail(nil, fe.Detail))
	}
	if len(items) == 0 {
		var m Model
		if m, items = jb.Validate(parsed); len(items) == 0 {
			if jb.model == nil {
				return echoAny(m)
			}
			return echo(m)
		}
	}
	if Unanswerable(items) {
		return 500, "Internal Server Error"
	}
	return 422, string(AppendValidationBody(nil, items))
}

// echo is the test app's answer to a valid body: the fields set and
// model_dump(mode="json"), written by Starlette (which refuses NaN and
// lone surrogates: 500).
func echo(m Model) (int, string) {
	if m.Absent {
		return 200, "null"
	}
	if m.Unencodable {
		return 500, "Internal Server Error"
	}
	var set []string
	dump := []byte{'{'}
	for i, f := range m.Fields {
		if f.Set {
			set = append(set, f.Name)
		}
		if i > 0 {
			dump = append(dump, ',')
		}
		dump = AppendString(dump, f.Name)
		dump = append(dump, ':')
		if f.JSON == nil {
			return 0, "field " + f.Name + " has no known value"
		}
		dump = append(dump, f.JSON...)
	}
	dump = append(dump, '}')
	out := []byte(`{"set":`)
	if set == nil {
		set = []string{}
	}
	out = AppendValue(out, set)
	out = append(out, `,"dump":`...)
	out = append(out, dump...)
	return 200, string(append(out, '}'))
}

// echoAny is the test app's answer to a valid body that is not a model:
// {"dump": the value}, null when absent.
func echoAny(m Model) (int, string) {
	switch {
	case m.Absent:
		return 200, `{"dump":null}`
	case m.Unencodable:
		return 500, "Internal Server Error"
	case m.JSON == nil:
		return 0, "no value for a body that is not a model"
	}
	return 200, `{"dump":` + string(m.JSON) + `}`
}

// TestJSONBodyMatchesFastAPI replays every exchange recorded from the real
// FastAPI and requires the same status and the same body bytes.
func TestJSONBodyMatchesFastAPI(t *testing.T) {
	t.Parallel()
	bodies := loadJSONBodies(t)
	raw, err := os.ReadFile("testdata/jsonbody_cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []jsonCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 150 {
		t.Fatalf("only %d cases recorded", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			jb := bodies[c.Path]
			if jb == nil {
				t.Fatalf("no body compiled for %s", c.Path)
			}
			ct, hasCT, body := c.request(t)
			status, got := answer(jb, ct, hasCT, body)
			if status != c.Status || got != c.Response {
				t.Errorf("body %s\n got %d %s\nwant %d %s", clip(string(body)), status, clip(got), c.Status, clip(c.Response))
			}
		})
	}
}

func clip(s string) string {
	if len(s) > 600 {
		return s[:600] + "…"
	}
	return s
}

func TestIsJSONContentType(t *testing.T) {
	t.Parallel()
	for ct, want := range map[string]bool{
		"application/json":                true,
		"application/json; charset=utf-8": true,
		"APPLICATION/JSON":                true,
		"application/ld+json":             true,
		"application/+json":               true,
		" application/json\xa0":           true,
		"application/json;":               true,
		"":                                false,
		"text/json":                       false,
		"application/jsonx":               false,
		"application/json/x":              false,
		"application/ json":               false,
		"application":                     false,
		"*/*":                             false,
		"application/json, text/plain":    false,
	} {
		if got := IsJSONContentType(ct); got != want {
			t.Errorf("IsJSONContentType(%q) = %v, want %v", ct, got, want)
		}
	}
}

// The contract compiles only what is implemented; the rest is refused when
// it is loaded, saying where and why.
func TestCompileJSONBodyRefusesWhatItCannotDo(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, schema, want string }{
		{"union", `{"anyOf":[{"type":"integer"},{"type":"string"}]}`, "anyOf other than"},
		{"ipv4", `{"type":"string","format":"ipv4"}`, `string format "ipv4"`},
		{"extra allow", `{"type":"object","properties":{"a":{"type":"integer"}},"additionalProperties":true}`, `extra="allow"`},
		{"tuple", `{"type":"array","prefixItems":[{"type":"integer"}]}`, `"prefixItems"`},
		{"array contains", `{"type":"array","items":{"type":"integer"},"contains":{"type":"integer"}}`, `"contains"`},
		{"discriminated", `{"oneOf":[{"type":"integer"}]}`, `"oneOf"`},
		{"fractional int bound", `{"type":"integer","minimum":1.5}`, "minimum 1.5"},
		{"class intersection", `{"type":"string","pattern":"[a-z&&[^aeiou]]"}`, "character class set operations"},
		{"nested class", `{"type":"string","pattern":"[[a-z]]"}`, "nested character classes"},
		{"unknown keyword", `{"type":"string","contentSchema":{"type":"integer"}}`, `"contentSchema"`},
		{"base32 bytes", `{"type":"string","contentEncoding":"base32"}`, `contentEncoding "base32"`},
		{"constrained url", `{"type":"string","format":"uri","pattern":"^https"}`, `uri string`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc := `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/x":{"post":{"operationId":"x",
				"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/M"}}}},
				"responses":{"200":{"description":"ok"},"422":{"description":"invalid"}}}}},
				"components":{"schemas":{"M":{"type":"object","properties":{"f":` + tc.schema + `}}}}}`
			sp, err := spec.Load([]byte(doc), "t.json")
			if err != nil {
				t.Fatal(err)
			}
			item := sp.Doc.Paths.Value("/x")
			_, err = CompileInputs(sp, item.Post, item)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "M.f") {
				t.Fatalf("err = %v, want one naming M.f and %q", err, tc.want)
			}
		})
	}
}

// FuzzJSONBody: reading and validating any body never panics, and
// Python's JSON (as Read ports it) agrees with encoding/json on what is
// valid JSON, except where Python is known to differ: NaN and Infinity,
// UTF-16/UTF-32 and BOMs, integers beyond 4,300 digits, nesting deeper
// than MaxJSONDepth.
func FuzzJSONBody(f *testing.F) {
	for _, s := range []string{
		`{"movie_id":"tt42","rating":5,"content":"Great"}`, `{"a":[1,2.5e3,-0,null,true,{"b":"\u00e9\ud83c\udfac"}]}`,
		`[1,]`, `{"a" 1}`, `"\ud800"`, `NaN`, `[-Infinity]`, "\xef\xbb\xbf{}", "{\x00}\x00", `1e400`, `01`, `"\u12"`,
		`{"rating":"12","score":"inf","tags":["a",1],"counts":{"x":"2"},"labels":[{"label":"a","x":1}]}`,
		"[[[[[[[[[[]]]]]]]]]]", `{"a":"b\`, "\"\x01\"", `{"k":1,"k":2}`,
	} {
		f.Add([]byte(s))
	}
	bodies := loadJSONBodies(f)
	paths := make([]string, 0, len(bodies))
	for p := range bodies {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	f.Fuzz(func(t *testing.T, body []byte) {
		jb := bodies[paths[len(body)%len(paths)]]
		parsed, items, err := jb.Read("application/json", true, body)
		goValid := json.Valid(body) && utf8.Valid(body)
		switch {
		case err != nil:
			var fe *FormError
			if !errors.As(err, &fe) || fe.Status != 400 {
				t.Fatalf("Read(%q): unexpected error %v", body, err)
			}
			if goValid && !hugeOrDeep(body) {
				t.Fatalf("Read(%q): 400 for JSON encoding/json accepts", body)
			}
			return
		case len(items) > 0:
			if len(items) != 1 || items[0].Type != "json_invalid" {
				t.Fatalf("Read(%q): items %+v", body, items)
			}
			if goValid {
				t.Fatalf("Read(%q): json_invalid %v for JSON encoding/json accepts", body, items[0].Ctx)
			}
			return
		}
		if len(body) > 0 && !goValid && utf8.Valid(body) && !bytes.HasPrefix(body, []byte("\xef\xbb\xbf")) && bytes.IndexByte(body, 0) < 0 && !hasNonFinite(&parsed.v) {
			t.Fatalf("Read(%q): accepted JSON encoding/json refuses", body)
		}
		m, items := jb.Validate(parsed)
		if len(items) == 0 && !m.Absent {
			for _, f := range m.Fields {
				if !m.Unencodable && !json.Valid(f.JSON) {
					t.Fatalf("Validate(%q): field %s dumped as %q", body, f.Name, f.JSON)
				}
			}
		}
		if len(items) > 0 && !Unanswerable(items) && !json.Valid(AppendValidationBody(nil, items)) {
			t.Fatalf("Validate(%q): 422 body is not JSON", body)
		}
	})
}

// hugeOrDeep reports whether valid JSON has what Python refuses with a
// 400: an integer of more than 4,300 digits, or deep nesting.
func hugeOrDeep(body []byte) bool {
	depth, maxDepth, run := 0, 0, 0
	inString, escaped := false, false
	for _, c := range body {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
			maxDepth = max(maxDepth, depth)
		case c == ']' || c == '}':
			depth--
		}
		if c >= '0' && c <= '9' {
			if run++; run > MaxIntDigits {
				return true
			}
		} else {
			run = 0
		}
	}
	return maxDepth > MaxJSONDepth
}

func hasNonFinite(v *pyValue) bool {
	switch v.kind {
	case pyFloat:
		return math.IsNaN(v.f) || math.IsInf(v.f, 0)
	case pyList, pyDict:
		for i := range v.items {
			if hasNonFinite(&v.items[i]) {
				return true
			}
		}
	}
	return false
}

// A body FastAPI does not read (declared with openapi_extra: a media type
// it parses neither as JSON nor as a form, or JSON on an operation with no
// 422) compiles as a raw body, validated by nothing; one it reads compiles
// as JSON.
func TestCompileInputsRawBodies(t *testing.T) {
	t.Parallel()
	const item = `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`
	for _, tc := range []struct {
		name, content, responses string
		raw                      string // the raw body's media type; "" a JSON body
	}{
		{"yaml", `"application/x-yaml":{"schema":` + item + `}`, `"200":{"description":"ok"}`, "application/x-yaml"},
		{"two media types, written order", `"text/plain":{"schema":{"type":"string"}},"application/octet-stream":{}`, `"200":{"description":"ok"}`, "text/plain"},
		{"JSON without 422", `"application/json":{"schema":` + item + `}`, `"200":{"description":"ok"}`, "application/json"},
		{"JSON with 422", `"application/json":{"schema":` + item + `}`, `"200":{"description":"ok"},"422":{"description":"invalid"}`, ""},
		{"JSON with 4XX", `"application/json":{"schema":` + item + `}`, `"200":{"description":"ok"},"4XX":{"description":"invalid"}`, ""},
		{"JSON with default", `"application/json":{"schema":` + item + `}`, `"default":{"description":"any"}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc := `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/x":{"post":{"operationId":"x",
				"requestBody":{"required":true,"content":{` + tc.content + `}},"responses":{` + tc.responses + `}}}}}`
			sp, err := spec.Load([]byte(doc), "t.json")
			if err != nil {
				t.Fatal(err)
			}
			item := sp.Doc.Paths.Value("/x")
			ins, err := CompileInputs(sp, item.Post, item)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.raw == "" && (ins.JSON == nil || ins.Raw != nil):
				t.Errorf("JSON %v, raw %+v: want a JSON body", ins.JSON, ins.Raw)
			case tc.raw != "" && (ins.Raw == nil || ins.JSON != nil):
				t.Errorf("JSON %v, raw %+v: want a raw body", ins.JSON, ins.Raw)
			case tc.raw != "" && (ins.Raw.MediaType != tc.raw || !ins.Raw.Required):
				t.Errorf("raw body %s (required %v), want %s, required", ins.Raw.MediaType, ins.Raw.Required, tc.raw)
			}
		})
	}
}

// A schema that contains itself other than through a model's field (a
// recursive type alias, Tree = list["Tree"]) is refused when compiled:
// it was compiled over and over until the stack gave out.
func TestCompileJSONBodyRefusesRecursiveAlias(t *testing.T) {
	t.Parallel()
	doc := `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/x":{"post":{"operationId":"x",
		"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/M"}}}},
		"responses":{"200":{"description":"ok"},"422":{"description":"invalid"}}}}},
		"components":{"schemas":{"M":{"type":"object","properties":{"t":{"$ref":"#/components/schemas/Tree"}}},
		"Tree":{"type":"array","items":{"$ref":"#/components/schemas/Tree"}}}}}`
	sp, err := spec.Load([]byte(doc), "t.json")
	if err != nil {
		t.Fatal(err)
	}
	item := sp.Doc.Paths.Value("/x")
	if _, err = CompileInputs(sp, item.Post, item); err == nil || !strings.Contains(err.Error(), "#/components/schemas/Tree contains itself") {
		t.Fatalf("err = %v, want a refusal of the recursive Tree", err)
	}
}
