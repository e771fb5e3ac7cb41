package jsonscan_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/moviemock/moviemock/internal/jsonscan"
)

// whole reports whether data is one JSON value, white space around it.
func whole(data []byte) (jsonscan.Kind, bool) {
	i := jsonscan.Space(data, 0)
	end, k := jsonscan.Value(data, i)
	return k, k != jsonscan.Invalid && jsonscan.Space(data, end) == len(data)
}

func TestValue(t *testing.T) {
	for _, tc := range []struct {
		in   string
		kind jsonscan.Kind
	}{
		{`null`, jsonscan.Null}, {` true `, jsonscan.Bool}, {`false`, jsonscan.Bool},
		{`0`, jsonscan.Number}, {`-0.5e+10`, jsonscan.Number}, {`12E3`, jsonscan.Number},
		{`"a\"\\\/\b\f\n\r\t\u00e9"`, jsonscan.String}, {`"Amélie ✓"`, jsonscan.String},
		{`[]`, jsonscan.Array}, {`[1, [2, {"a": []}] ]`, jsonscan.Array},
		{`{}`, jsonscan.Object}, {`{"a":1,"b":{"c":[null]}}`, jsonscan.Object},
		{`01`, 0}, {`-`, 0}, {`1.`, 0}, {`.5`, 0}, {`1e`, 0}, {`+1`, 0}, {`NaN`, 0},
		{`"a`, 0}, {`"\x"`, 0}, {`"\u12"`, 0}, {"\"\t\"", 0}, {"\"\xff\"", 0},
		{`[1,]`, 0}, {`[1 2]`, 0}, {`{"a"}`, 0}, {`{"a":1,}`, 0}, {`{a:1}`, 0}, {`{"a":1`, 0},
		{`1e400`, 0}, {`-1E+309`, 0}, {`1e-400`, jsonscan.Number}, {`tru`, 0}, {`nul`, 0}, {``, 0}, {`1 2`, 0}, {`[}`, 0}, {`{]`, 0},
	} {
		k, ok := whole([]byte(tc.in))
		if tc.kind == jsonscan.Invalid && ok || tc.kind != jsonscan.Invalid && (!ok || k != tc.kind) {
			t.Errorf("%q: kind %d, whole %v; want kind %d", tc.in, k, ok, tc.kind)
		}
	}
	deep := strings.Repeat("[", jsonscan.MaxDepth+1) + strings.Repeat("]", jsonscan.MaxDepth+1)
	if _, ok := whole([]byte(deep)); ok {
		t.Error("nesting beyond MaxDepth accepted")
	}
}

func TestMembersAndStr(t *testing.T) {
	data := []byte(` {"id" : 7, "n\u0061me":"Br\"ad", "x": [1, {}]} `)
	var got []string
	end := jsonscan.Members(data, 1, func(name []byte, escaped bool, v int) int {
		n, ok := jsonscan.Str(name, escaped)
		end := jsonscan.End(data, v)
		if !ok || end < 0 {
			return -1
		}
		got = append(got, n+"="+string(data[v:end]))
		return end
	})
	if end != len(data)-1 || strings.Join(got, " ") != `id=7 name="Br\"ad" x=[1, {}]` {
		t.Errorf("end %d, members %q", end, got)
	}
	if jsonscan.Compact([]byte(`{"a": 1}`)) || !jsonscan.Compact([]byte(`{"a b":[1,"c d"]}`)) {
		t.Error("Compact")
	}
}

// FuzzValue holds the scanner to encoding/json: what it accepts is valid
// JSON that reads back unchanged (strings as Str gives them, compact as
// Compact says), and valid JSON in valid UTF-8 is accepted.
func FuzzValue(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5e-3,"x\u00e9"],"b":null}`, `[true,false,{}]`, `"\ud83d\ude00"`, `-0`, `{"a" :1 }`, "\"\xc3\"", `[[[]]]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		k, ok := whole(data)
		var v any
		valid := json.Unmarshal(data, &v) == nil // valid, and decodable
		if ok && !valid {
			t.Fatalf("%q accepted, but it is not JSON", data)
		}
		if !ok && valid && utf8.Valid(data) {
			t.Fatalf("%q refused (kind %d), but it is JSON", data, k)
		}
		if !ok {
			return
		}
		trimmed := bytes.TrimSpace(data)
		var compact bytes.Buffer
		json.Compact(&compact, trimmed)
		if jsonscan.Compact(trimmed) != bytes.Equal(compact.Bytes(), trimmed) {
			t.Fatalf("%q: Compact says %v", trimmed, jsonscan.Compact(trimmed))
		}
		if k == jsonscan.String {
			var want string
			json.Unmarshal(trimmed, &want)
			got, sok := jsonscan.Str(trimmed, bytes.IndexByte(trimmed, '\\') >= 0)
			if !sok || got != want {
				t.Fatalf("Str(%q) = %q, encoding/json %q", trimmed, got, want)
			}
		}
	})
}

func TestSkip(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{`{"a":[1,{"b":"]}"}]} ,`, 20}, {`[1,2]`, 5}, {`12,`, 2}, {`"x\"y",`, 6}, {`true]`, 4},
		{`{"a":[1`, jsonscan.Short}, {`{"a":"b`, jsonscan.Short}, {`{"a":"\`, jsonscan.Short},
		{`{"a":"\u00`, jsonscan.Short}, {"{\"a\":\"\xc3", jsonscan.Short}, {`12`, jsonscan.Short},
		{"{\"a\":\"\x01\"}", jsonscan.Broken}, {`{"a":"\q"}`, jsonscan.Broken}, {"{\"a\":\"\xff\"}", jsonscan.Broken},
		{`{"a":"\u00g0"}`, jsonscan.Broken},
	} {
		if got := jsonscan.Skip([]byte(tc.in), 0); got != tc.want {
			t.Errorf("Skip(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}
