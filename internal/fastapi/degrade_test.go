package fastapi

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/moviemock/moviemock/internal/spec"
)

// laxBody compiles the one POST /x operation of a document whose request
// body schema is schema (JSON), with components schemas comps, strictly
// and laxly.
func laxBody(t *testing.T, schema, comps string, extraContent string) (strictErr error, ins Inputs, notes Degradations) {
	t.Helper()
	if comps == "" {
		comps = "{}"
	}
	doc := `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/x":{"post":{` +
		`"requestBody":{"required":true,"content":{"application/json":{"schema":` + schema + `}` + extraContent + `}},` +
		`"responses":{"200":{"description":"ok"},"422":{"description":"bad"}}}}},"components":{"schemas":` + comps + `}}`
	sp, err := spec.Load([]byte(doc), "lax.json")
	if err != nil {
		t.Fatal(err)
	}
	item := sp.Doc.Paths.Value("/x")
	_, strictErr = CompileInputs(sp, item.Post, item)
	ins, notes, err = CompileInputsLax(sp, item.Post, item)
	if err != nil {
		t.Fatalf("lax compile: %v", err)
	}
	return strictErr, ins, notes
}

// validateBody runs body (JSON sent as contentType) through ins's JSON
// body: the error items' types, none when accepted.
func validateBody(t *testing.T, ins Inputs, contentType, body string) []string {
	t.Helper()
	if ins.JSON == nil {
		t.Fatal("no JSON body compiled")
	}
	p, items, err := ins.JSON.Read(contentType, true, []byte(body))
	if err != nil {
		t.Fatalf("read %s: %v", body, err)
	}
	if len(items) == 0 {
		_, items = ins.JSON.Validate(p)
	}
	var types []string
	for _, it := range items {
		types = append(types, it.Type+"@"+strings.Trim(strings.ReplaceAll(string(mustJSON(t, it.Loc)), `"`, ""), "[]"))
	}
	return types
}

func mustJSON(t *testing.T, v []any) []byte {
	t.Helper()
	var b []byte
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		switch x := x.(type) {
		case string:
			b = append(b, x...)
		case int:
			b = append(b, byte('0'+x%10))
		}
	}
	return b
}

// A document not FastAPI's is never refused for a construct the
// compilers do not implement: the node is compiled without it (or as the
// closest validator), the degradation is listed once, and what can be
// enforced still is. Strictly, the same document is refused as before.
func TestLaxCompileDegradesPerKeyword(t *testing.T) {
	t.Parallel()
	type send struct {
		body string
		want []string // error types@loc; none: accepted
	}
	for _, tc := range []struct {
		name, schema, comps, extra string
		strictErr                  string // a fragment of the strict refusal
		notes                      []string
		sends                      []send
		fields                     []string // the body model's fields, when it is one
	}{
		{
			name:      "int64 is an integer within its range",
			schema:    `{"$ref":"#/components/schemas/Pet"}`,
			comps:     `{"Pet":{"type":"object","required":["name"],"properties":{"id":{"type":"integer","format":"int64"},"name":{"type":"string"}}}}`,
			strictErr: `Pet.id: schema keyword "format" is not implemented`,
			sends: []send{
				{`{"id":9223372036854775807,"name":"a"}`, nil},
				{`{"id":9223372036854775808,"name":"a"}`, []string{"less_than_equal@body,id"}},
				{`{"id":1}`, []string{"missing@body,name"}},
				{`{"id":"x","name":"a"}`, []string{"int_parsing@body,id"}},
			},
		},
		{
			name:      "an unknown keyword is not enforced, the rest is",
			schema:    `{"type":"object","required":["a"],"properties":{"a":{"type":"string","maxLength":3,"not":{"enum":["no"]}}}}`,
			strictErr: `is not implemented`,
			notes:     []string{`request body of POST /x.a: keyword "not" is not enforced (not implemented)`},
			sends: []send{
				{`{"a":"no"}`, nil},
				{`{"a":"long"}`, []string{"string_too_long@body,a"}},
				{`{}`, []string{"missing@body,a"}},
			},
		},
		{
			name:      "oneOf takes a value any alternative takes",
			schema:    `{"type":"object","required":["v"],"properties":{"v":{"oneOf":[{"type":"integer"},{"type":"boolean"}]}}}`,
			strictErr: `"oneOf" is not implemented`,
			notes:     []string{`request body of POST /x.v: oneOf's "exactly one" is not enforced (a value any alternative accepts is taken)`},
			sends: []send{
				{`{"v":3}`, nil},
				{`{"v":true}`, nil},
				{`{"v":[1]}`, []string{"int_type@body,v", "bool_type@body,v"}},
			},
		},
		{
			name:      "allOf of models is one model",
			schema:    `{"allOf":[{"$ref":"#/components/schemas/A"},{"type":"object","required":["b"],"properties":{"b":{"type":"integer"}}}]}`,
			comps:     `{"A":{"type":"object","required":["a"],"properties":{"a":{"type":"string"}}}}`,
			strictErr: `"allOf" is not implemented`,
			fields:    []string{"a", "b"},
			sends: []send{
				{`{"a":"x","b":1}`, nil},
				{`{"a":"x"}`, []string{"missing@body,b"}},
				{`{"b":1}`, []string{"missing@body,a"}},
			},
		},
		{
			name:      "anyOf beyond Optional",
			schema:    `{"anyOf":[{"type":"string","maxLength":2},{"type":"integer","minimum":10}]}`,
			strictErr: `anyOf other than`,
			sends: []send{
				{`"ab"`, nil},
				{`11`, nil},
				{`5`, []string{"string_type@body", "greater_than_equal@body"}},
			},
		},
		{
			name:      "an email with a pattern is an email matching it",
			schema:    `{"type":"object","properties":{"e":{"type":"string","format":"email","pattern":"^a"}}}`,
			strictErr: `length or pattern on a email string`,
			sends: []send{
				{`{"e":"a@example.com"}`, nil},
				{`{"e":"b@example.com"}`, []string{"string_pattern_mismatch@body,e"}},
				{`{"e":"nope"}`, []string{"value_error@body,e"}},
			},
		},
		{
			name:   "an email with a length is an email of that length, strictly too",
			schema: `{"type":"object","properties":{"e":{"type":"string","format":"email","maxLength":13}}}`,
			sends: []send{
				{`{"e":"a@example.com"}`, nil},
				{`{"e":"abcdef@example.com"}`, []string{"too_long@body,e"}},
				{`{"e":"nope"}`, []string{"value_error@body,e"}},
			},
		},
		{
			name:      "an unknown format is a string, its length kept",
			schema:    `{"type":"object","properties":{"h":{"type":"string","format":"hostname","minLength":2},"p":{"type":"string","format":"password"}}}`,
			strictErr: `string format "hostname" is not implemented`,
			notes:     []string{`request body of POST /x.h: format "hostname" is not enforced (not implemented; read as a string)`},
			sends: []send{
				{`{"h":"ab","p":"x"}`, nil},
				{`{"h":"a"}`, []string{"string_too_short@body,h"}},
			},
		},
		{
			// ECMA-262, JSON Schema's dialect, reads [[a-z]] as a class
			// of "[" and a-z, then "]": the lax compile enforces that.
			name:      "a pattern Rust's regex reads otherwise is enforced as ECMA-262 reads it",
			schema:    `{"type":"object","properties":{"e":{"type":"string","maxLength":5,"pattern":"^[[a-z]]+$"}}}`,
			strictErr: `nested character classes`,
			sends: []send{
				{`{"e":"a]"}`, nil},
				{`{"e":"9"}`, []string{"string_pattern_mismatch@body,e"}},
				{`{"e":"abcdef"}`, []string{"string_too_long@body,e"}},
			},
		},
		{
			name:      "OpenAPI 3.0 boolean exclusiveMinimum",
			schema:    `{"type":"object","properties":{"n":{"type":"number","minimum":0,"exclusiveMinimum":true},"i":{"type":"integer","minimum":1.5}}}`,
			strictErr: `boolean exclusiveMinimum`,
			sends: []send{
				{`{"n":0.1,"i":2}`, nil},
				{`{"n":0}`, []string{"greater_than@body,n"}},
				{`{"i":1}`, []string{"greater_than_equal@body,i"}},
			},
		},
		{
			name:      "OpenAPI 3.0 nullable beside $ref and allOf",
			schema:    `{"type":"object","required":["a","b"],"properties":{"a":{"$ref":"#/components/schemas/N","nullable":true},"b":{"allOf":[{"$ref":"#/components/schemas/N"}],"nullable":true}}}`,
			comps:     `{"N":{"type":"object","required":["n"],"properties":{"n":{"type":"integer"}}}}`,
			strictErr: `is not implemented`,
			sends: []send{
				{`{"a":null,"b":null}`, nil},
				{`{"a":{"n":1},"b":{"n":2}}`, nil},
				{`{"a":{},"b":{"n":2}}`, []string{"missing@body,a,n"}},
				{`{"a":null,"b":{}}`, []string{"missing@body,b,n"}},
			},
		},
		{
			name:      "additionalProperties with a schema beside properties",
			schema:    `{"type":"object","required":["a"],"properties":{"a":{"type":"integer"}},"additionalProperties":{"type":"string"}}`,
			strictErr: `additionalProperties with a schema on a model`,
			sends: []send{
				{`{"a":1,"x":2}`, nil},
				{`{"a":"z"}`, []string{"int_parsing@body,a"}},
			},
		},
		{
			name:      "required but not among the properties",
			schema:    `{"type":"object","required":["a","b"],"properties":{"a":{"type":"integer"}}}`,
			strictErr: `required property "b" is not among the properties`,
			sends: []send{
				{`{"a":1,"b":null}`, nil},
				{`{"a":1}`, []string{"missing@body,b"}},
			},
		},
		{
			name:      "media types beside JSON are accepted as sent",
			schema:    `{"type":"object","required":["a"],"properties":{"a":{"type":"integer"}}}`,
			extra:     `,"application/xml":{"schema":{"type":"object"}},"application/x-www-form-urlencoded":{"schema":{"type":"object"}}`,
			strictErr: "", // strictly, the form is read
			notes:     []string{`request body of POST /x: a body in application/xml, application/x-www-form-urlencoded is not enforced (only application/json is validated; the others are accepted as sent)`},
			sends: []send{
				{`{"a":1}`, nil},
				{`{}`, []string{"missing@body,a"}},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			strictErr, ins, notes := laxBody(t, tc.schema, tc.comps, tc.extra)
			if tc.strictErr != "" && (strictErr == nil || !strings.Contains(strictErr.Error(), tc.strictErr)) {
				t.Errorf("strict compile: %v, want an error with %q", strictErr, tc.strictErr)
			}
			for _, n := range tc.notes {
				if !slices.Contains(notes, n) {
					t.Errorf("degradations %q lack %q", notes, n)
				}
			}
			for i, n := range notes {
				if slices.Contains(notes[i+1:], n) {
					t.Errorf("degradation %q listed twice", n)
				}
			}
			if tc.fields != nil && !slices.Equal(ins.JSON.Fields, tc.fields) {
				t.Errorf("fields %q, want %q", ins.JSON.Fields, tc.fields)
			}
			for _, s := range tc.sends {
				if got := validateBody(t, ins, "application/json", s.body); !slices.Equal(got, s.want) {
					t.Errorf("%s: errors %q, want %q", s.body, got, s.want)
				}
			}
		})
	}
}

// A body sent in one of the other declared media types is accepted
// unread; one sent in a media type not declared is read as FastAPI reads
// it (bytes, refused by the model).
func TestLaxBodyOtherMedia(t *testing.T) {
	t.Parallel()
	_, ins, _ := laxBody(t, `{"type":"object","required":["a"],"properties":{"a":{"type":"integer"}}}`, "",
		`,"application/xml":{"schema":{"type":"object"}},"text/*":{"schema":{"type":"string"}}`)
	for _, tc := range []struct {
		ct   string
		want int
	}{{"application/xml", 0}, {"application/xml; charset=utf-8", 0}, {"text/plain", 0}, {"image/png", 1}} {
		p, items, err := ins.JSON.Read(tc.ct, true, []byte("<a>1</a>"))
		if err != nil {
			t.Fatal(err)
		}
		if len(items) == 0 {
			_, items = ins.JSON.Validate(p)
		}
		if len(items) != tc.want {
			t.Errorf("%s: %d error items %v, want %d", tc.ct, len(items), items, tc.want)
		}
	}
}

// A request body declared under a media range (*/*, application/*) is
// not a form, though content.Get matches the form types to it: it is
// read as sent.
func TestRangeBodyIsNotAForm(t *testing.T) {
	t.Parallel()
	for _, mt := range []string{"*/*", "application/*"} {
		doc := `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/x":{"post":{` +
			`"requestBody":{"content":{"` + mt + `":{"schema":{"type":"object","required":["a"],"properties":{"a":{"type":"string"}}}}}},` +
			`"responses":{"200":{"description":"ok"}}}}}}`
		sp, err := spec.Load([]byte(doc), "range.json")
		if err != nil {
			t.Fatal(err)
		}
		item := sp.Doc.Paths.Value("/x")
		ins, err := CompileInputs(sp, item.Post, item)
		if err != nil {
			t.Fatal(err)
		}
		if ins.Form || len(ins.List) != 0 || ins.Raw == nil || ins.Raw.MediaType != mt {
			t.Errorf("%s: form %v, inputs %v, raw %+v; want a raw %s body", mt, ins.Form, ins.List, ins.Raw, mt)
		}
	}
}

// A document's composites sharing their parts (each allOf of the one
// below it twice, each anyOf of two alternatives that both fail deep
// down) compile once per schema, and a value is validated within a
// budget: neither takes time exponential in the depth.
func TestLaxCompositesStayBounded(t *testing.T) {
	t.Parallel()
	const depth = 40
	var comps strings.Builder
	comps.WriteString(`{"L0":{"type":"object","required":["x"],"properties":{"x":{"type":"integer"}}}`)
	for i := 1; i <= depth; i++ {
		prev := "#/components/schemas/L" + strconv.Itoa(i-1)
		fmt.Fprintf(&comps, `,"L%d":{"allOf":[{"$ref":"%s"},{"$ref":"%s"}]}`, i, prev, prev)
		fmt.Fprintf(&comps, `,"A%d":{"allOf":[{"$ref":"#/components/schemas/A%d"},{"$ref":"#/components/schemas/A%d"}]}`, i, i-1, i-1)
		fmt.Fprintf(&comps, `,"U%d":{"anyOf":[{"type":"array","items":{"$ref":"#/components/schemas/U%d"}},{"type":"array","items":{"$ref":"#/components/schemas/U%d"}}]}`, i, i-1, i-1)
	}
	comps.WriteString(`,"U0":{"type":"integer"},"A0":{"type":"integer","minimum":0}}`)
	schema := `{"type":"object","properties":{"l":{"$ref":"#/components/schemas/L` + strconv.Itoa(depth) + `"},"u":{"$ref":"#/components/schemas/U` + strconv.Itoa(depth) + `"},"a":{"$ref":"#/components/schemas/A` + strconv.Itoa(depth) + `"}}}`
	start := time.Now()
	_, ins, _ := laxBody(t, schema, comps.String(), "")
	nested := strings.Repeat("[", depth) + `"no"` + strings.Repeat("]", depth)
	for _, body := range []string{`{"l":{"x":1}}`, `{"l":{"x":"a"}}`, `{"u":` + nested + `}`, `{"a":1}`, `{"a":-1}`} {
		if items := validateBody(t, ins, "application/json", body); len(items) > maxUnionItems {
			t.Errorf("%.40s: %d error items", body, len(items))
		}
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %v", d)
	}
}

// Whatever schema a document gives its body, a lax compile neither
// panics nor refuses it, and validating a value against it ends.
func FuzzLaxCompile(f *testing.F) {
	for _, s := range []string{
		`{"type":"integer","format":"int64"}`,
		`{"oneOf":[{"type":"string","format":"email","maxLength":3},{"type":"array","items":{"not":{}}}]}`,
		`{"allOf":[{"type":"object","properties":{"a":{"type":"integer","minimum":1.5,"exclusiveMinimum":true}}},{"required":["b"]}],"nullable":true}`,
		`{"type":["string","integer","null"],"pattern":"^[[a]]$","enum":[[1]]}`,
		`{"type":"object","additionalProperties":false,"minProperties":1}`,
	} {
		f.Add(s, `{"a":1,"b":"x"}`)
	}
	f.Fuzz(func(t *testing.T, schema, body string) {
		doc := `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/x":{"post":{` +
			`"requestBody":{"content":{"application/json":{"schema":` + schema + `}}},` +
			`"responses":{"200":{"description":"ok"},"422":{"description":"bad"}}}}}}`
		sp, err := spec.Load([]byte(doc), "fuzz.json")
		if err != nil {
			return
		}
		item := sp.Doc.Paths.Value("/x")
		if item == nil || item.Post == nil {
			return
		}
		ins, _, err := CompileInputsLax(sp, item.Post, item)
		if err != nil {
			t.Fatalf("lax compile refused %s: %v", schema, err)
		}
		if ins.JSON != nil {
			if p, items, err := ins.JSON.Read("application/json", true, []byte(body)); err == nil && len(items) == 0 {
				ins.JSON.Validate(p)
			}
		}
	})
}

// A JSON body on an operation declaring no 422 is FastAPI's openapi_extra
// body, read raw; a document not FastAPI's has it validated.
func TestLaxValidatesEveryJSONBody(t *testing.T) {
	t.Parallel()
	doc := `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/x":{"post":{` +
		`"requestBody":{"content":{"application/json":{"schema":{"type":"object","required":["a"],"properties":{"a":{"type":"string"}}}}}},` +
		`"responses":{"200":{"description":"ok"}}}}}}`
	sp, err := spec.Load([]byte(doc), "no422.json")
	if err != nil {
		t.Fatal(err)
	}
	item := sp.Doc.Paths.Value("/x")
	strict, err := CompileInputs(sp, item.Post, item)
	if err != nil || strict.Raw == nil || strict.JSON != nil {
		t.Errorf("strict: raw %v, JSON %v, err %v; want a raw body", strict.Raw, strict.JSON, err)
	}
	lax, _, err := CompileInputsLax(sp, item.Post, item)
	if err != nil || lax.JSON == nil {
		t.Fatalf("lax: JSON %v, err %v; want a validated body", lax.JSON, err)
	}
	if got := validateBody(t, lax, "application/json", `{}`); !slices.Equal(got, []string{"missing@body,a"}) {
		t.Errorf("lax: errors %q, want missing a", got)
	}
}

// A pattern with a lookahead (ECMA-262, which neither Python's re under
// pydantic-core nor Go's regexp runs) is enforced by a lax compile as
// JSON Schema reads it, ECMA-262, with the rest of the schema; a strict
// compile refuses it.
func TestLaxLookaheadPattern(t *testing.T) {
	t.Parallel()
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(`{type: object, required: [e], properties: {e: {type: string, maxLength: 5, pattern: "^(?!\\.)[a-z.]+$"}}}`), &root); err != nil {
		t.Fatal(err)
	}
	schema := root.Content[0]
	doc := &yamlDoc{root: schema}
	if _, err := (&compiler{doc: doc}).compile(schema, "Thing", false); err == nil {
		t.Error("strict compile took a lookahead")
	}
	notes := Degradations{}
	node, err := (&compiler{doc: doc, notes: &notes}).compile(schema, "Thing", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 0 {
		t.Errorf("degradations %q, want none: the pattern is enforced", notes)
	}
	for body, ok := range map[string]bool{`{"e":"ab.c"}`: true, `{"e":".ab"}`: false, `{"e":"abcdef"}`: false, `{}`: false} {
		v, jerr, err := pyLoads(body)
		if err != nil || jerr != nil {
			t.Fatal(body, err, jerr)
		}
		st := &vstate{}
		if _, got := node.validate(st, &v, nil); got != ok {
			t.Errorf("%s: accepted %v, want %v (%v)", body, got, ok, st.items)
		}
	}
}

// ASP.NET declares every JSON body three times, in application/json,
// text/json and application/*+json with one schema: a body sent in any of
// them is validated as JSON, and none is a degradation. A JSON media type
// with another schema stays one, accepted unread.
func TestLaxBodyJSONKin(t *testing.T) {
	t.Parallel()
	item := `{"type":"object","required":["a"],"properties":{"a":{"type":"integer"}}}`
	_, ins, notes := laxBody(t, `{"$ref":"#/components/schemas/Item"}`, `{"Item":`+item+`}`,
		`,"text/json":{"schema":{"$ref":"#/components/schemas/Item"}},"application/*+json":{"schema":{"$ref":"#/components/schemas/Item"}}`)
	if len(notes) != 0 {
		t.Errorf("degradations %v, want none", notes)
	}
	for _, ct := range []string{"application/json", "text/json", "text/json; charset=utf-8", "application/vnd.item+json"} {
		if got := validateBody(t, ins, ct, `{"a":"x"}`); len(got) != 1 || got[0] != "int_parsing@body,a" {
			t.Errorf("%s: a wrong-typed field gives %v, want int_parsing", ct, got)
		}
		if got := validateBody(t, ins, ct, `{"a":1}`); len(got) != 0 {
			t.Errorf("%s: a valid body gives %v", ct, got)
		}
	}
	_, ins, notes = laxBody(t, item, "", `,"text/json":{"schema":{"type":"string"}}`)
	if len(notes) != 1 {
		t.Errorf("degradations %v, want the text/json body of another schema", notes)
	}
	if got := validateBody(t, ins, "text/json", `"anything"`); len(got) != 0 {
		t.Errorf("text/json of another schema: %v, want it accepted unread", got)
	}
}

// A format beside an enum (ASP.NET writes its int32 enums so) asks
// nothing the listed values do not: the values are enforced, and the
// format is no degradation.
func TestLaxEnumWithFormat(t *testing.T) {
	t.Parallel()
	_, ins, notes := laxBody(t, `{"type":"object","required":["r"],"properties":{"r":{"type":"integer","format":"int32","enum":[0,1,-1]}}}`, "", "")
	if len(notes) != 0 {
		t.Errorf("degradations %v, want none", notes)
	}
	if got := validateBody(t, ins, "application/json", `{"r":-1}`); len(got) != 0 {
		t.Errorf("a listed value: %v", got)
	}
	if got := validateBody(t, ins, "application/json", `{"r":2}`); len(got) != 1 || !strings.HasPrefix(got[0], "literal_error@body,r") && !strings.HasPrefix(got[0], "enum@body,r") {
		t.Errorf("a value not listed: %v, want it refused", got)
	}
}
