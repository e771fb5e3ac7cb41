package contract

import (
	"encoding/json"
	"net/url"
	"os"
	"reflect"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/spec"
)

// Each OpenAPI 3 style writes an array and an object as the
// specification's Style Values table says, with its delimiters left as
// they are and its items escaped.
func TestStyleParamWritesEveryStyle(t *testing.T) {
	t.Parallel()
	items := []string{"3", "4 5"}
	obj := map[string]any{"R": json.Number("100"), "G": "a b"}
	object := openapi3.NewSchemaRef("", openapi3.NewObjectSchema())
	tests := []struct {
		name    string
		in      fastapi.Input
		v       any
		wantQ   string // the query it adds, encoded
		wantTxt string // or the text it is
	}{
		{"form exploded array", fastapi.Input{In: "query", Name: "ids", List: true, Style: "form", Explode: true}, items, "ids=3&ids=4+5", ""},
		{"form array", fastapi.Input{In: "query", Name: "ids", List: true, Style: "form"}, items, "ids=3%2C4+5", ""},
		{"spaceDelimited array", fastapi.Input{In: "query", Name: "ids", List: true, Style: "spaceDelimited"}, items, "ids=3+4+5", ""},
		{"pipeDelimited array", fastapi.Input{In: "query", Name: "ids", List: true, Style: "pipeDelimited"}, items, "ids=3%7C4+5", ""},
		{"form exploded object", fastapi.Input{In: "query", Name: "color", Object: object, Style: "form", Explode: true}, obj, "G=a+b&R=100", ""},
		{"form object", fastapi.Input{In: "query", Name: "color", Object: object, Style: "form"}, obj, "color=G%2Ca+b%2CR%2C100", ""},
		{"pipeDelimited object", fastapi.Input{In: "query", Name: "color", Object: object, Style: "pipeDelimited"}, obj, "color=G%7Ca+b%7CR%7C100", ""},
		{"deepObject", fastapi.Input{In: "query", Name: "color", Object: object, Style: "deepObject", Explode: true}, obj, "color%5BG%5D=a+b&color%5BR%5D=100", ""},
		{"deepObject nested", fastapi.Input{In: "query", Name: "f", Object: object, Style: "deepObject", Explode: true},
			map[string]any{"a": map[string]any{"b": "c"}, "t": []any{"x", "y"}}, "f%5Ba%5D%5Bb%5D=c&f%5Bt%5D=x&f%5Bt%5D=y", ""},
		{"content", fastapi.Input{In: "query", Name: "where", Object: object, Content: true}, `{"lat":1}`, "where=%7B%22lat%22%3A1%7D", ""},
		{"simple array", fastapi.Input{In: "path", Name: "ids", List: true, Style: "simple"}, items, "", "3,4%205"},
		{"simple object", fastapi.Input{In: "path", Name: "c", Object: object, Style: "simple"}, obj, "", "G,a%20b,R,100"},
		{"simple exploded object", fastapi.Input{In: "path", Name: "c", Object: object, Style: "simple", Explode: true}, obj, "", "G=a%20b,R=100"},
		{"label scalar", fastapi.Input{In: "path", Name: "id", Style: "label"}, "5", "", ".5"},
		{"label array", fastapi.Input{In: "path", Name: "ids", List: true, Style: "label"}, items, "", ".3,4%205"},
		{"label exploded array", fastapi.Input{In: "path", Name: "ids", List: true, Style: "label", Explode: true}, items, "", ".3.4%205"},
		{"label object", fastapi.Input{In: "path", Name: "c", Object: object, Style: "label"}, obj, "", ".G,a%20b,R,100"},
		{"label exploded object", fastapi.Input{In: "path", Name: "c", Object: object, Style: "label", Explode: true}, obj, "", ".G=a%20b.R=100"},
		{"matrix scalar", fastapi.Input{In: "path", Name: "id", Style: "matrix"}, "5", "", ";id=5"},
		{"matrix array", fastapi.Input{In: "path", Name: "ids", List: true, Style: "matrix"}, items, "", ";ids=3,4%205"},
		{"matrix exploded array", fastapi.Input{In: "path", Name: "ids", List: true, Style: "matrix", Explode: true}, items, "", ";ids=3;ids=4%205"},
		{"matrix object", fastapi.Input{In: "path", Name: "c", Object: object, Style: "matrix"}, obj, "", ";c=G,a%20b,R,100"},
		{"matrix exploded object", fastapi.Input{In: "path", Name: "c", Object: object, Style: "matrix", Explode: true}, obj, "", ";G=a%20b;R=100"},
		{"header array", fastapi.Input{In: "header", Name: "X-Ids", List: true, Style: "simple"}, items, "", "3,4 5"},
		{"header exploded object", fastapi.Input{In: "header", Name: "X-Point", Object: object, Style: "simple", Explode: true}, obj, "", "G=a b,R=100"},
		{"cookie object", fastapi.Input{In: "cookie", Name: "c", Object: object, Style: "form"}, obj, "", "G,a b,R,100"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			esc := noEscape
			if tc.in.In == "path" {
				esc = url.PathEscape
			}
			got := styleParam(tc.in, tc.v, esc)
			q := url.Values{}
			for _, p := range got.pairs {
				q.Add(p[0], p[1])
			}
			if enc := q.Encode(); enc != tc.wantQ || got.text != tc.wantTxt {
				t.Errorf("got query %q, text %q; want %q, %q", enc, got.text, tc.wantQ, tc.wantTxt)
			}
		})
	}
}

// What styleParam writes, the mock's reader reads back as the value it
// was written from: the runner checks a value as it sends it.
func TestStyleParamReadsBack(t *testing.T) {
	t.Parallel()
	schema := &openapi3.Schema{Type: &openapi3.Types{"object"}, Properties: openapi3.Schemas{
		"R": openapi3.NewSchemaRef("", openapi3.NewIntegerSchema()),
		"G": openapi3.NewSchemaRef("", openapi3.NewStringSchema()),
	}}
	object := openapi3.NewSchemaRef("", schema)
	obj := map[string]any{"R": json.Number("100"), "G": "ab"}
	b := &builder{sp: loadStylesSpec(t)}
	for _, in := range []fastapi.Input{
		{In: "query", Name: "c", Object: object, Style: "form", Explode: true},
		{In: "query", Name: "c", Object: object, Style: "form"},
		{In: "query", Name: "c", Object: object, Style: "spaceDelimited"},
		{In: "query", Name: "c", Object: object, Style: "deepObject", Explode: true},
		{In: "path", Name: "c", Object: object, Style: "simple"},
		{In: "path", Name: "c", Object: object, Style: "label", Explode: true},
		{In: "path", Name: "c", Object: object, Style: "matrix"},
		{In: "path", Name: "c", Object: object, Style: "matrix", Explode: true},
		{In: "header", Name: "X-C", Object: object, Style: "simple", Explode: true},
		{In: "cookie", Name: "c", Object: object, Style: "form"},
	} {
		in.Loc = []any{in.In, in.Name}
		t.Run(in.In+" "+in.Style, func(t *testing.T) {
			raw, _ := json.Marshal(obj)
			if item := b.check(in, string(raw), true); item != nil {
				t.Errorf("explode %v: refused: %+v", in.Explode, item)
			}
			bad := `{"R":"x","G":"ab"}`
			if item := b.check(in, bad, true); item == nil || !reflect.DeepEqual(item.Loc, []any{in.In, in.Name, "R"}) {
				t.Errorf("explode %v: %s: got %+v, want a refusal at R", in.Explode, bad, item)
			}
		})
	}
}

// loadStylesSpec is the mock's document of parameter styles.
func loadStylesSpec(t *testing.T) *spec.Spec {
	t.Helper()
	data, err := os.ReadFile("../mock/testdata/openapi/styles.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(data, "styles.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// A form list of several items is a field (or part) per item, or, where
// its encoding's style is not exploded, one field joined by the style's
// delimiter; a file list is always a part per file; one item is sent as
// it is.
func TestFormItemsFollowTheEncoding(t *testing.T) {
	t.Parallel()
	two := "1" + listSep + "2"
	tests := []struct {
		name string
		in   fastapi.Input
		v    string
		want []string
	}{
		{"no encoding", fastapi.Input{In: "body", Name: "ids", List: true}, two, []string{"1", "2"}},
		{"form exploded", fastapi.Input{In: "body", Name: "ids", List: true, Style: "form", Explode: true}, two, []string{"1", "2"}},
		{"form", fastapi.Input{In: "body", Name: "ids", List: true, Style: "form"}, two, []string{"1,2"}},
		{"spaceDelimited", fastapi.Input{In: "body", Name: "ids", List: true, Style: "spaceDelimited"}, two, []string{"1 2"}},
		{"pipeDelimited", fastapi.Input{In: "body", Name: "ids", List: true, Style: "pipeDelimited"}, two, []string{"1|2"}},
		{"files", fastapi.Input{In: "body", Name: "f", List: true, Binary: true, Style: "form"}, two, []string{"1", "2"}},
		{"one item", fastapi.Input{In: "body", Name: "ids", List: true, Style: "form"}, "1", []string{"1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := formItems(tc.in, tc.v); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
