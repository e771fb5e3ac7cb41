package spec

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// chain is a document of n component schemas M0 … M(n-1), each holding the
// next in its property "next", answered by GET /m.
type chain struct {
	n       int
	version string         // "3.0.3" unless given
	name    map[int]string // model i's property "name", {type: string} unless given
	extra   map[int]string // more keywords of model i, one line
	more    string         // more component schemas, each line indented by four
	cycle   bool           // the last model holds M0
}

func (c chain) yaml() []byte {
	version := c.version
	if version == "" {
		version = "3.0.3"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "openapi: %s\ninfo: {title: chain, version: '1'}\npaths:\n  /m:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: '#/components/schemas/M0'}\ncomponents:\n  schemas:\n", version)
	for i := range c.n {
		name := c.name[i]
		if name == "" {
			name = "{type: string}"
		}
		fmt.Fprintf(&b, "    M%d:\n      type: object\n", i)
		if x := c.extra[i]; x != "" {
			fmt.Fprintf(&b, "      %s\n", x)
		}
		fmt.Fprintf(&b, "      properties:\n        name: %s\n", name)
		if i+1 < c.n || c.cycle {
			fmt.Fprintf(&b, "        next: {$ref: '#/components/schemas/M%d'}\n", (i+1)%c.n)
		}
	}
	b.WriteString(c.more)
	return []byte(b.String())
}

// A chain of models each holding the next has each model checked by
// kin-openapi a fixed number of times, not once for each model above it:
// every model's name has a pattern, and kin-openapi compiles a pattern
// each time it checks the schema that has it (with a compiler of its own,
// it caches none).
func TestValidateChainLinear(t *testing.T) {
	const n = 2000
	doc := chain{n: n, name: map[int]string{}}
	for i := range n {
		doc.name[i] = "{type: string, pattern: '^[a-z]+$'}"
	}
	compiled := 0
	count := openapi3.SetRegexCompiler(func(expr string) (openapi3.RegexMatcher, error) {
		compiled++
		return CompilePattern(expr)
	})
	if _, err := load(doc.yaml(), "doc", from{}, append(loadOpts, count)...); err != nil {
		t.Fatal(err)
	}
	// Each model alone, then as a component, and M0 once more for GET /m:
	// walking each model's chain afresh was n(n+1)/2 + n, 2,003,000.
	if compiled > 2*n+1 {
		t.Errorf("%d patterns compiled for a chain of %d models, want at most %d", compiled, n, 2*n+1)
	}
}

// A document refused for a schema deep in a chain is refused with the
// words kin-openapi's own validation gives, naming the same component
// (the first, by name, that reaches the fault) and the same fault; one
// that passes kin-openapi passes.
func TestValidateChainSameVerdict(t *testing.T) {
	t.Parallel()
	const n = 300
	bad := "    Zbad:\n      type: string\n      pattern: '('\n"
	checked := []openapi3.ValidationOption{}
	for _, tc := range []struct {
		name string
		doc  chain
		opts []openapi3.ValidationOption // loadOpts unless given
	}{
		{"valid", chain{n: n}, nil},
		{"valid, a cycle", chain{n: n, cycle: true}, nil},
		{"a wrong type", chain{n: n, name: map[int]string{200: "{type: strin}"}}, nil},
		{"a wrong type, in a cycle", chain{n: n, cycle: true, name: map[int]string{150: "{type: strin}"}}, nil},
		{"a wrong type, 3.1", chain{n: n, version: "3.1.0", name: map[int]string{200: "{type: [string, strin]}"}}, nil},
		{"a 3.1 keyword in 3.0", chain{n: n, name: map[int]string{200: "{const: x}"}}, nil},
		{"a wrong pattern", chain{n: n, name: map[int]string{200: "{type: string, pattern: '('}"}}, nil},
		{"a wrong pattern inline, in allOf", chain{n: n, name: map[int]string{200: "{allOf: [{type: string, pattern: '('}]}"}}, nil},
		{"a component reached only through the chain", chain{n: n, name: map[int]string{200: "{$ref: '#/components/schemas/Zbad'}"}, more: bad}, nil},
		{"the same, through oneOf", chain{n: n, name: map[int]string{200: "{oneOf: [{$ref: '#/components/schemas/Zbad'}]}"}, more: bad}, nil},
		{"the same, through items", chain{n: n, name: map[int]string{200: "{type: array, items: {$ref: '#/components/schemas/Zbad'}}"}, more: bad}, nil},
		{"a component named before the chain", chain{n: n, name: map[int]string{200: "{$ref: '#/components/schemas/A'}"}, more: strings.ReplaceAll(bad, "Zbad", "A")}, nil},
		{"two faults", chain{n: n, name: map[int]string{100: "{type: strin}", 250: "{type: string, pattern: '('}"}}, nil},
		{"a property's reference to a piece of another model", chain{n: n, name: map[int]string{10: "{$ref: '#/components/schemas/M250/properties/name'}", 250: "{type: strin}"}}, nil},
		{"an example wrong below, examples checked", chain{n: n, extra: map[int]string{0: "example: {name: a, next: {name: 5}}"}}, checked},
		{"a default wrong below, defaults checked", chain{n: n, extra: map[int]string{0: "default: {name: a, next: {name: 5}}"}}, checked},
		{"the same, unchecked", chain{n: n, extra: map[int]string{0: "default: {name: a, next: {name: 5}}"}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			opts := tc.opts
			if opts == nil {
				opts = loadOpts
			}
			data := tc.doc.yaml()
			read := func() *openapi3.T {
				doc, err := openapi3.NewLoader().LoadFromData(data)
				if err != nil {
					t.Fatal(err)
				}
				return doc
			}
			want := read().Validate(context.Background(), append([]openapi3.ValidationOption{openapi3.SetRegexCompiler(kinPattern)}, opts...)...)
			doc := read()
			got := validate(doc, opts...)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("validate: %v\nkin-openapi: %v", got, want)
			}
			// Every reference is put back.
			if next := doc.Components.Schemas["M0"].Value.Properties["next"]; next.Value != doc.Components.Schemas["M1"].Value {
				t.Error("M0's next no longer holds M1")
			}
		})
	}
}

// A fault deep in a long chain is found, and told at the line of the
// component the message names.
func TestLoadChainFaultDeep(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, model, want string
	}{
		{"a wrong type", "{type: strin}", `validate doc: line 14: invalid components: schema "M0": unsupported 'type' value "strin"`},
		{"a wrong pattern", "{type: string, pattern: '(?<'}", "validate doc: line 14: invalid components: schema \"M0\": not an ECMA-262 regular expression: error parsing regexp: invalid or unsupported Perl syntax: `(?<`"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Load(chain{n: 2000, name: map[int]string{1500: tc.model}}.yaml(), "doc")
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("Load: %v\nwant %s", err, tc.want)
			}
		})
	}
}

// eachSubschema names every subschema of openapi3.Schema: a field it
// missed would be one kin-openapi descends into and setAsideSettled does
// not, and a fault below it could be missed.
func TestEachSubschemaCoversSchema(t *testing.T) {
	s := &openapi3.Schema{}
	want := map[*openapi3.SchemaRef]string{}
	fresh := func(field string) *openapi3.SchemaRef {
		r := &openapi3.SchemaRef{Value: &openapi3.Schema{}}
		want[r] = field
		return r
	}
	refType := reflect.TypeFor[*openapi3.SchemaRef]()
	v := reflect.ValueOf(s).Elem()
	var fill func(v reflect.Value, field string)
	fill = func(v reflect.Value, field string) {
		switch {
		case v.Type() == refType:
			v.Set(reflect.ValueOf(fresh(field)))
		case v.Type() == reflect.TypeFor[openapi3.SchemaRefs]():
			v.Set(reflect.ValueOf(openapi3.SchemaRefs{fresh(field)}))
		case v.Type() == reflect.TypeFor[openapi3.Schemas]():
			v.Set(reflect.ValueOf(openapi3.Schemas{"x": fresh(field)}))
		case v.Kind() == reflect.Struct:
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					fill(v.Field(i), field+"."+v.Type().Field(i).Name)
				}
			}
		}
	}
	for i := range v.NumField() {
		fill(v.Field(i), v.Type().Field(i).Name)
	}
	if len(want) < 19 {
		t.Fatalf("found %d subschema fields in openapi3.Schema, want at least 19", len(want))
	}
	eachSubschema(s, func(r *openapi3.SchemaRef) { delete(want, r) })
	for _, field := range want {
		t.Errorf("eachSubschema misses %s", field)
	}
}

// BenchmarkLoadChain loads a chain of models, each holding the next: 400,
// 2,000 and 10,000 should differ about fivefold at each step (2,000 took
// 6 s when kin-openapi walked each model's chain afresh).
func BenchmarkLoadChain(b *testing.B) {
	for _, n := range []int{400, 2000, 10000} {
		doc := chain{n: n}.yaml()
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Load(doc, "doc"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
