package fastapi

import (
	"strings"
	"testing"
)

// Python's limits, measured on uvicorn 0.51 (h11) and Python 3.11.7: 959
// nested containers parse, 960 are a RecursionError (400); an error input
// nested 954 deep is written, 955 is a RecursionError while writing (500).
func TestJSONDepthLimits(t *testing.T) {
	t.Parallel()
	bodies := loadJSONBodies(t)
	reviews := bodies["/reviews"]
	nested := func(n int) []byte { return []byte(strings.Repeat("[", n) + strings.Repeat("]", n)) }
	for _, tc := range []struct {
		depth  int
		status int
	}{{MaxInputDepth, 422}, {MaxInputDepth + 1, 500}, {MaxJSONDepth, 500}, {MaxJSONDepth + 1, 400}} {
		status, _ := answer(reviews, "application/json", true, nested(tc.depth))
		if status != tc.status {
			t.Errorf("a body %d arrays deep: %d, want %d", tc.depth, status, tc.status)
		}
	}
}

func TestPyLoadsPositionsAreCharacters(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text, msg string
		pos       int
	}{
		{`{"é": x}`, "Expecting value", 6},
		{`["🎬" 1]`, "Expecting ',' delimiter", 5},
		{"\"\U0001F3AC\x01\"", "Invalid control character at", 2},
		{`"\ud800\udc0"`, "Invalid \\uXXXX escape", 8},
	} {
		_, jerr, err := pyLoads(tc.text)
		if err != nil || jerr == nil || jerr.msg != tc.msg || jerr.pos != tc.pos {
			t.Errorf("pyLoads(%q) = %+v, %v; want %q at %d", tc.text, jerr, err, tc.msg, tc.pos)
		}
	}
}

func TestPyLoadsDictKeepsFirstPlaceLastValue(t *testing.T) {
	t.Parallel()
	v, jerr, err := pyLoads(`{"a":1,"b":2,"a":3}`)
	if err != nil || jerr != nil {
		t.Fatal(err, jerr)
	}
	if got, _ := appendInput(nil, &v); string(got) != `{"a":3,"b":2}` {
		t.Errorf("got %s", got)
	}
}

// Rust's regex is Unicode-aware where Go's is not; the translation keeps
// Rust's meaning.
func TestPatternsMatchAsRust(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		pattern, s string
		want       bool
	}{
		{`^\d+$`, "١٢٣", true},
		{`^\w+$`, "Björk_1", true},
		{`^\w$`, "\u200d", true},  // Join_Control
		{`^\w$`, "\u24b6", true},  // Ⓐ: So, but Other_Alphabetic
		{`^\s$`, "\u0085", true},  // NEL is White_Space
		{`^\s$`, "\u200b", false}, // zero width space is not
		{`^[^\s]+$`, "a\u00a0", false},
		{`^[\S]+$`, "ab", true},
		{`^[\W]$`, "é", false},
		{`^[\W]$`, "-", true},
		{`\bcat\b`, "écat", false},
		{`\bcat\b`, "(cat)", true},
		{`\Bat`, "cat", true},
		{`(?i)\bCAT\b`, "a cat!", true},
		{`^\u00e9$`, "é", true},
		{`^\x{1F3AC}$`, "🎬", true},
		{`^a$`, "a\n", false},
	} {
		re, err := compilePattern(tc.pattern)
		if err != nil {
			t.Errorf("%s: %v", tc.pattern, err)
			continue
		}
		if got := re.MatchString(tc.s); got != tc.want {
			t.Errorf("%s on %q = %v, want %v", tc.pattern, tc.s, got, tc.want)
		}
	}
}

// A field whose schema shows no default is taken as None, and says so.
func TestDefaultGuessed(t *testing.T) {
	t.Parallel()
	bodies := loadJSONBodies(t)
	p, _, err := bodies["/scalars"].Read("application/json", true, []byte(`{"req":null}`))
	if err != nil {
		t.Fatal(err)
	}
	m, items := bodies["/scalars"].Validate(p)
	if len(items) > 0 {
		t.Fatal(items)
	}
	for _, f := range m.Fields {
		want := f.Name == "nodef" // str = None: not nullable, no default shown
		if f.DefaultGuessed != want {
			t.Errorf("%s: DefaultGuessed = %v, want %v", f.Name, f.DefaultGuessed, want)
		}
	}
}

func BenchmarkJSONBody(b *testing.B) {
	bodies := loadJSONBodies(b)
	jb := bodies["/reviews"]
	body := []byte(`{"movie_id":"tt0111161","rating":10,"content":"Hope is a good thing, maybe the best of things.",` +
		`"score":4.5,"spoiler":true,"mood":"happy","genre":"drama","tags":["prison","hope"],"counts":{"likes":3},` +
		`"author":{"name":"Ann","age":30},"labels":[{"label":"classic","weight":2}]}`)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		p, _, err := jb.Read("application/json", true, body)
		if err != nil {
			b.Fatal(err)
		}
		if _, items := jb.Validate(p); len(items) > 0 {
			b.Fatal(items)
		}
	}
}
