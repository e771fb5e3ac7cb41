package spec

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

const limitsHead = "openapi: 3.1.0\ninfo: {title: t, version: \"1\"}\npaths: {}\n"

// laughs is a "billion laughs" document: levels of nine aliases of the
// level below, 9^levels nodes once expanded.
func laughs(levels int) string {
	var b strings.Builder
	b.WriteString(limitsHead + "x-a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "x-a%d: &a%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 9), ", "))
	}
	return b.String()
}

func nested(depth int) string {
	return limitsHead + "x-deep: " + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "\n"
}

func enumOf(n int, json bool) string {
	vals := make([]string, n)
	for i := range vals {
		vals[i] = fmt.Sprintf(`"v%d"`, i)
	}
	doc := `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{},` +
		`"components":{"schemas":{"Kind":{"type":"string","enum":[` + strings.Join(vals, ",") + `]}}}}`
	if !json {
		doc = " " + strings.Replace(doc, "{", "{ ", 1) // flow YAML, not read as JSON
		doc = "%YAML 1.1\n---\n" + doc
	}
	return doc
}

// A document is held to its budgets before anything walks it: an alias
// inside the node it names, aliases that expand past what the document
// weighs, nesting past MaxDepth, an enum past MaxEnumValues, a document
// past its size are refused, each saying which limit (and the flag that
// raises it, when one does); just under each budget loads.
func TestLoadLimits(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, doc string
		lim       Limits
		want      string // "" loads
		limit     string // the LimitError's Limit, when one
	}{
		{"alias inside itself", limitsHead + "x-self: &s {child: *s}\n", Limits{}, "alias *s is inside the node it refers to", ""},
		{"alias inside itself, deeper", limitsHead + "x-self: &s {a: [{b: *s}]}\n", Limits{}, "alias *s is inside the node it refers to", ""},
		{"aliases within budget", laughs(4), Limits{}, "", ""},
		{"billion laughs", laughs(6), Limits{}, "aliases expand to more than 100000 nodes", "alias expansion limit"},
		{"billion laughs, full size", laughs(9), Limits{}, "aliases expand to more than", "alias expansion limit"},
		{"nesting at the limit", nested(MaxDepth - 1), Limits{}, "", ""},
		{"nesting past the limit", nested(MaxDepth + 1), Limits{}, "nested more than 512 levels deep", "depth limit"},
		{"nesting past the limit through aliases", limitsHead + "x-a: &a " + strings.Repeat("[", 400) + strings.Repeat("]", 400) + "\nx-b: " + strings.Repeat("[", 200) + "*a" + strings.Repeat("]", 200) + "\n", Limits{}, "nested more than 512 levels deep", "depth limit"},
		{"JSON nesting past the limit", `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{},"x":` + strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1) + "}", Limits{}, "nested more than 512 levels deep", "depth limit"},
		{"enum at the limit", enumOf(MaxEnumValues, true), Limits{}, "", ""},
		{"enum past the limit", enumOf(MaxEnumValues+1, true), Limits{}, "an enum of 100001 values, more than 100000", "enum size limit"},
		{"YAML enum past the limit", enumOf(MaxEnumValues+1, false), Limits{}, "an enum of 100001 values", "enum size limit"},
		{"over the size limit", limitsHead, Limits{MaxBytes: 10}, "56 bytes, more than 10: over the size limit (raise it with --max-spec-bytes)", "size limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := LoadLimited([]byte(tc.doc), "doc", tc.lim)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want == "":
				return
			case err == nil:
				t.Fatalf("loaded, want %q", tc.want)
			case !strings.Contains(err.Error(), tc.want):
				t.Fatalf("error %q, want %q in it", err, tc.want)
			}
			var le *LimitError
			if tc.limit != "" && (!errors.As(err, &le) || le.Limit != tc.limit) {
				t.Errorf("error %v is not the %s", err, tc.limit)
			}
		})
	}
}

// Start-up with a large enum costs in proportion to it: BenchmarkLoadEnum
// at 10k and 50k values should differ about fivefold (an enum of 50,000
// values took 65 s to start when each was compared with all the others).
func BenchmarkLoadEnum(b *testing.B) {
	for _, n := range []int{10_000, 50_000} {
		doc := []byte(enumOf(n, true))
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Load(doc, "doc"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// fuzzMaxBytes bounds the documents FuzzLoad feeds, and fuzzMaxAlloc what
// loading one may allocate: the loader must refuse a document before it
// blows up, whatever its aliases, nesting or enums say.
const (
	fuzzMaxBytes = 64 << 10
	fuzzMaxAlloc = 512 << 20
)

// FuzzLoad feeds arbitrary YAML and JSON documents to the loader --spec
// uses: it must answer (load or refuse) without a panic, a hang or
// allocating more than fuzzMaxAlloc, and a refusal for a budget is a
// LimitError naming it.
func FuzzLoad(f *testing.F) {
	for _, s := range []string{
		limitsHead,
		limitsHead + "x-self: &s {child: *s}\n",
		limitsHead + "x-a: &a [1, 2]\nx-b: [*a, *a, {c: *a}]\n",
		laughs(3),
		nested(20),
		enumOf(3, true),
		enumOf(3, false),
		`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/x/{id}":{"get":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/X"}}}}}}}},"components":{"schemas":{"X":{"type":"object","properties":{"x":{"$ref":"#/components/schemas/X"},"s":{"type":"string","maxLength":1e18}},"required":["s"]}}}}`,
		"swagger: '2.0'\ninfo: {title: t, version: '1'}\nconsumes: [application/json, text/plain]\nparameters:\n  L: {name: l, in: query, type: integer}\npaths:\n  /p/{id}:\n    parameters: [{name: id, in: path, required: true, type: string}]\n    post:\n      parameters: [{$ref: '#/parameters/L'}, {name: b, in: body, schema: {$ref: '#/definitions/D'}}]\n      responses: {'200': {description: d, schema: {type: array, items: {$ref: '#/definitions/D'}}}}\n  /f:\n    post:\n      consumes: [multipart/form-data]\n      parameters: [{name: f, in: formData, type: file}]\n      responses: {default: {description: d}}\ndefinitions:\n  D: {type: object, properties: {a: {type: string, pattern: '^(?!x)'}}}\nsecurityDefinitions:\n  o: {type: oauth2, flow: implicit, authorizationUrl: 'https://a', scopes: {r: read}}\n",
		"openapi: 3.1.0\ninfo: {title: '', version: '1'}\npaths:\n  /a/{p}:\n    get:\n      security: [{k: []}]\n      parameters: [{name: q, in: query}, {name: q, in: query}]\n      responses: {'200': {description: d, content: {application/json: {schema: {type: array, items: [{type: string, pattern: '(a)\\1'}]}}}}}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > fuzzMaxBytes {
			return
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := LoadLimited(data, "fuzz", Limits{MaxBytes: fuzzMaxBytes})
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; n > fuzzMaxAlloc {
			t.Fatalf("loading %d bytes allocated %d MiB (err %v)", len(data), n>>20, err)
		}
		var le *LimitError
		if errors.As(err, &le) && (le.Limit == "" || le.Detail == "") {
			t.Fatalf("a LimitError naming nothing: %#v", le)
		}
	})
}
