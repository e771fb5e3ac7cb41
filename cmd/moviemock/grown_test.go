package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/moviemock/moviemock/internal/reference"
)

// The stateful differential test of the two grown contracts
// (testdata/contracts/movies and tasks): the real FastAPI backend of each
// (internal/reference/app/movies.py, tasks.py) and `moviemock serve --spec
// <contract>/openapi.json --fixtures <contract>/fixtures` run the same
// script of requests, writes included, and must answer alike: status, the
// compared headers and the body bytes, after three normalisations that take
// out what must differ between two servers:
//
//   - ids created during the run: each side's create answers are captured
//     and substituted, per side, into later requests ({{name}} in a script
//     step); each side's created string ids (uuid4) are replaced in its
//     answers by <name>. Integer ids (users, reactions) are counters and
//     must agree, so they are not replaced.
//   - timestamps made now: a pydantic date-time string dated today (UTC),
//     "YYYY-MM-DDTHH:MM:SS[.ffffff]Z", becomes "<now>". Any other spelling
//     of a timestamp is left as it is, so a mock that writes them otherwise
//     than pydantic still differs.
//   - tokens: each side logs in and later requests use that side's own
//     token; login answers are compared by the token's claims
//     (sameTokenAnswer, as in TestDifferentialAgainstFastAPI).
//
// A difference fails the test unless grownKnownDifferences lists it (none
// does); a listed one that no longer differs fails too.

// grownKnownDifferences are the differences on the grown contracts that the
// mock has on purpose, by step name, with the reason. None so far.
var grownKnownDifferences = map[string]string{}

// gstep is one request of a script, sent to both sides.
type gstep struct {
	name   string
	method string
	target string   // request target as sent, with {{var}} or {{var:spelling}} placeholders
	header []string // name, value pairs; values may hold placeholders
	body   *string  // nil: no body; may hold placeholders
	// keep remembers the "id" of a 2xx answer under this name; token the
	// "access_token" of one.
	keep, token string
	// compare: "" everything; "status" status and Content-Type only.
	compare string
}

func (st *gstep) as(user string) *gstep {
	st.header = append(st.header, "Authorization", "Bearer {{"+user+"}}")
	return st
}

func (st *gstep) keepID(name string) *gstep    { st.keep = name; return st }
func (st *gstep) keepToken(name string) *gstep { st.token = name; return st }
func (st *gstep) only(compare string) *gstep   { st.compare = compare; return st }

type gscript struct{ steps []*gstep }

func (s *gscript) add(name, method, target string, body *string, header ...string) *gstep {
	st := &gstep{name: name, method: method, target: target, body: body, header: header}
	s.steps = append(s.steps, st)
	return st
}

func (s *gscript) get(name, target string, header ...string) *gstep {
	return s.add(name, "GET", target, nil, header...)
}

// json sends body as application/json.
func (s *gscript) json(name, method, target, body string, header ...string) *gstep {
	return s.add(name, method, target, &body, append([]string{"Content-Type", "application/json"}, header...)...)
}

// typed sends body with the given Content-Type ("" for none).
func (s *gscript) typed(name, method, target, contentType, body string, header ...string) *gstep {
	if contentType != "" {
		header = append([]string{"Content-Type", contentType}, header...)
	}
	return s.add(name, method, target, &body, header...)
}

func (s *gscript) form(name, body string) *gstep {
	return s.typed(name, "POST", "/auth/login", "application/x-www-form-urlencoded", body)
}

// methods405 adds, for each path, every method it does not declare (a 405
// with Allow), and every declared one with a trailing slash (a 307 to the
// path without it).
func (s *gscript) methods405(paths []routeMethods) {
	for _, p := range paths {
		for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"} {
			if !slices.Contains(p.methods, m) {
				s.add(m+" "+p.path+" (405)", m, p.path, nil)
			}
		}
		for _, m := range p.methods {
			s.add(m+" "+p.path+"/ (307)", m, p.path+"/", nil)
		}
		s.add("HEAD "+p.path+"/ (307)", "HEAD", p.path+"/", nil)
	}
}

type routeMethods struct {
	path    string
	methods []string
}

// gside is one server and what the script learnt from its answers.
type gside struct {
	addr  string
	vars  map[string]string
	names [][2]string // created string ids and their placeholder names
}

var placeholderRe = regexp.MustCompile(`\{\{(\w+)(?::(\w+))?\}\}`)

func (s *gside) expand(text string) string {
	return placeholderRe.ReplaceAllStringFunc(text, func(m string) string {
		sub := placeholderRe.FindStringSubmatch(m)
		v, ok := s.vars[sub[1]]
		if !ok {
			v = "missing-" + sub[1]
		}
		return spell(v, sub[2])
	})
}

// spell writes a UUID in one of the spellings Python's uuid.UUID (and
// pydantic) accept besides the canonical one.
func spell(id, spelling string) string {
	switch spelling {
	case "":
		return id
	case "upper":
		return strings.ToUpper(id)
	case "nohyphen":
		return strings.ReplaceAll(id, "-", "")
	case "uppernohyphen":
		return strings.ToUpper(strings.ReplaceAll(id, "-", ""))
	case "braces":
		return "{" + id + "}"
	case "pbraces":
		return "%7B" + id + "%7D"
	case "urn":
		return "urn:uuid:" + id
	}
	panic("unknown spelling " + spelling)
}

func (s *gside) request(st *gstep) []byte {
	var body io.Reader
	if st.body != nil {
		body = strings.NewReader(s.expand(*st.body))
	}
	header := make([]string, len(st.header))
	for i, v := range st.header {
		header[i] = s.expand(v)
	}
	return rawRequest(newReq(st.method, "/", body, header...), s.expand(st.target), s.addr)
}

func (s *gside) capture(st *gstep, a wireAnswer) {
	// A create that fails on this side leaves the name unset, so that the
	// steps using it name no record rather than an earlier one.
	if st.keep != "" {
		delete(s.vars, st.keep)
	}
	if a.err != nil || a.status/100 != 2 || st.keep == "" && st.token == "" {
		return
	}
	dec := json.NewDecoder(bytes.NewReader(a.body))
	dec.UseNumber()
	var obj map[string]any
	if dec.Decode(&obj) != nil {
		return
	}
	if st.keep != "" {
		switch id := obj["id"].(type) {
		case string:
			s.vars[st.keep] = id
			s.names = append(s.names, [2]string{id, st.keep})
		case json.Number:
			s.vars[st.keep] = id.String()
		}
	}
	if st.token != "" {
		if tok, ok := obj["access_token"].(string); ok {
			s.vars[st.token] = tok
		}
	}
}

// normalise takes this side's own address, created ids and today's
// timestamps out of an answer.
func (s *gside) normalise(a wireAnswer, now *regexp.Regexp) wireAnswer {
	if a.err != nil {
		return a
	}
	a = a.withoutHost(s.addr)
	fix := func(b []byte) []byte {
		for _, n := range s.names {
			for _, sp := range []string{"", "upper", "nohyphen", "uppernohyphen"} {
				b = bytes.ReplaceAll(b, []byte(spell(n[0], sp)), []byte("<"+n[1]+">"))
			}
		}
		return now.ReplaceAll(b, []byte(`"<now>"`))
	}
	a.body = fix(a.body)
	for _, vs := range a.header {
		for i, v := range vs {
			vs[i] = string(fix([]byte(v)))
		}
	}
	return a
}

// nowPattern matches a JSON string holding a date-time as pydantic writes
// a UTC one, dated one of days.
func nowPattern(days ...time.Time) *regexp.Regexp {
	var alts []string
	for _, d := range days {
		alts = append(alts, regexp.QuoteMeta(d.UTC().Format("2006-01-02")))
	}
	return regexp.MustCompile(`"(?:` + strings.Join(alts, "|") + `)T\d{2}:\d{2}:\d{2}(?:\.\d{6})?Z"`)
}

// runGrown sends every step to both sides, in order, and reports each
// difference that is not a known one. It returns how many answers agreed.
func runGrown(t *testing.T, ref, mock string, steps []*gstep) (same int) {
	t.Helper()
	start := time.Now()
	sides := [2]*gside{{addr: ref, vars: map[string]string{}}, {addr: mock, vars: map[string]string{}}}
	for _, st := range steps {
		var answers [2]wireAnswer
		var sent [2][]byte
		for i, s := range sides {
			sent[i] = s.request(st)
			a := sendRaw(s.addr, sent[i])
			s.capture(st, a)
			answers[i] = s.normalise(a, nowPattern(start, time.Now()))
		}
		diffs := differences(answers[0], answers[1], st.compare)
		reason, known := grownKnownDifferences[st.name]
		switch {
		case len(diffs) > 0 && !known:
			t.Errorf("%s: the mock differs from FastAPI:\n  request   %s\n  %s", st.name,
				clip(bytes.ReplaceAll(sent[0], []byte(ref), []byte("HOST"))), strings.Join(diffs, "\n  "))
		case len(diffs) == 0 && known:
			t.Errorf("%s: listed as a known difference (%s) but the answers agree: take it off the list", st.name, reason)
		case len(diffs) == 0:
			same++
		}
	}
	return same
}

// resetMock drops every write the mock keeps, with the control API.
func resetMock(t *testing.T, base string) {
	t.Helper()
	resp, err := http.Post(base+"/__mock/reset", "", nil)
	if err != nil {
		t.Fatalf("POST /__mock/reset: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /__mock/reset: %d %s", resp.StatusCode, body)
	}
}

func TestDifferentialGrownContracts(t *testing.T) {
	reference.Require(t)
	t.Parallel()
	for _, tc := range []struct {
		app    string
		script func() []*gstep
	}{
		{reference.AppMovies, moviesScript},
		{reference.AppTasks, tasksScript},
	} {
		t.Run(tc.app, func(t *testing.T) {
			t.Parallel()
			dir, err := reference.ContractDir(tc.app)
			if err != nil {
				t.Fatal(err)
			}
			ref := reference.Start(t, reference.Options{App: tc.app})
			base, _ := serve(t, noEnv, "--quiet", "--spec", filepath.Join(dir, "openapi.json"), "--fixtures", filepath.Join(dir, "fixtures"))
			ref.Reset(t)
			resetMock(t, base)
			steps := tc.script()
			same := runGrown(t, ref.Addr, strings.TrimPrefix(base, "http://"), steps)
			t.Logf("%s: %d exchanges, %d identical", tc.app, len(steps), same)
			if len(steps) < 150 {
				t.Errorf("only %d exchanges: the grown differential test promises at least 150 per contract", len(steps))
			}
		})
	}
}

// Fixture ids the scripts use.
const (
	fightClub     = "tt0137523"
	fightReview   = "b42bfd96-9925-4da9-8c96-eed6b998b81f"
	websiteProj   = "5759a20a-0bf7-4dd1-8532-3ea0861cb147"
	archivedProj  = "60ca02a6-0782-4a98-8227-fa5e5ba9a057"
	emptyProj     = "e7da4a24-13a1-4d83-b1cf-ef0306162320"
	auditTask     = "bbf408d3-cbff-481c-a95e-91855ae56d3f"
	unknownUUID   = "00000000-0000-4000-8000-000000000000"
	unknownUUID2  = "9f1c8a3e-7b2d-4e5f-8a6b-1c2d3e4f5a6b"
	validMovie    = `{"title":"Grown Test","year":2024}`
	validReview   = `{"movie_id":"{{movie1}}","content":"Seen it twice."}`
	validProject  = `{"name":"Grown project"}`
	validTaskBody = `{"title":"A task"}`
)

func rep(s string, n int) string { return strings.Repeat(s, n) }

// utf16Body is s in UTF-16 little-endian with a byte-order mark, a body
// Python's json.loads reads.
func utf16Body(s string) string {
	var b strings.Builder
	b.WriteString("\xff\xfe")
	for _, u := range utf16.Encode([]rune(s)) {
		b.WriteByte(byte(u))
		b.WriteByte(byte(u >> 8))
	}
	return b.String()
}

func moviesScript() []*gstep {
	var s gscript

	// Log in: each side keeps its own tokens.
	s.form("login alice", "username=alice&password=wonderland").keepToken("alice")
	s.form("login bob", "username=bob&password=builder").keepToken("bob")
	s.form("login ivan_k (non-ASCII password)", "username=ivan_k&password="+url.QueryEscape("тарковский")).keepToken("ivan")
	s.form("login heidi", "username=heidi&password=alpine-meadow").keepToken("heidi")
	s.form("login wrong password", "username=alice&password=nope")
	s.form("login unknown user", "username=nobody&password=whatever1")
	s.form("login missing password", "username=alice")
	s.get("users/me alice", "/users/me").as("alice")
	s.get("users/me ivan_k", "/users/me").as("ivan")
	s.get("users/me heidi (null avatar)", "/users/me").as("heidi")
	s.get("users/me without token", "/users/me")
	s.get("users/me bad token", "/users/me", "Authorization", "Bearer not.a.token")
	s.get("users/me Basic", "/users/me", "Authorization", "Basic YWxpY2U6d29uZGVybGFuZA==")
	s.get("users/me empty bearer", "/users/me", "Authorization", "Bearer ")
	s.get("users/me lower-case scheme", "/users/me", "Authorization", "bearer {{alice}}")
	s.get("users/me token with a broken signature", "/users/me", "Authorization", "Bearer {{alice}}x")

	// Registration: the ones that succeed first (user ids count on from 11).
	s.json("register newbie", "POST", "/users", `{"username":"newbie_1","password":"longenough"}`).keepID("newbie_id")
	s.form("login newbie", "username=newbie_1&password=longenough").keepToken("newbie")
	s.get("users/me newbie", "/users/me").as("newbie")
	s.json("register with avatar null", "POST", "/users", `{"username":"no_avatar","password":"longenough","avatar":null}`)
	s.json("register with avatar", "POST", "/users", `{"username":"pic_user","password":"longenough","avatar":"https://example.org/a.png"}`)
	s.json("register extra fields ignored", "POST", "/users", `{"username":"extra_guy","password":"longenough","role":"admin","id":99,"is_admin":true}`)
	s.form("login extra_guy", "username=extra_guy&password=longenough").keepToken("extra")
	s.get("users/me extra_guy (role stays user)", "/users/me").as("extra")
	s.json("register shortest", "POST", "/users", `{"username":"abc","password":"12345678"}`)
	s.json("register longest", "POST", "/users", `{"username":"`+rep("z", 32)+`","password":"`+rep("p", 128)+`","avatar":"`+rep("a", 2048)+`"}`)
	s.json("register duplicate", "POST", "/users", `{"username":"newbie_1","password":"otherpassword"}`)
	s.json("register duplicate fixture user", "POST", "/users", `{"username":"alice","password":"wonderland"}`)
	s.json("register duplicate with a short password", "POST", "/users", `{"username":"alice","password":"x"}`)
	s.form("login newbie after duplicate", "username=newbie_1&password=longenough")
	s.form("login duplicate's password", "username=newbie_1&password=otherpassword")
	// Registration errors.
	for _, c := range []struct{ name, body string }{
		{"username too short", `{"username":"ab","password":"longenough"}`},
		{"username too long", `{"username":"` + rep("a", 33) + `","password":"longenough"}`},
		{"username empty", `{"username":"","password":"longenough"}`},
		{"username bad pattern hyphen", `{"username":"bad-name","password":"longenough"}`},
		{"username bad pattern space", `{"username":"with space","password":"longenough"}`},
		{"username bad pattern upper case", `{"username":"UPPER","password":"longenough"}`},
		{"username bad pattern non-ASCII", `{"username":"zoë_2","password":"longenough"}`},
		{"username bad pattern trailing newline", `{"username":"abc\n","password":"longenough"}`},
		{"password too short", `{"username":"shorty","password":"short"}`},
		{"password too long", `{"username":"longpw","password":"` + rep("p", 129) + `"}`},
		{"avatar too long", `{"username":"bigpic","password":"longenough","avatar":"` + rep("a", 2049) + `"}`},
		{"missing password", `{"username":"nopass"}`},
		{"missing username", `{"password":"longenough"}`},
		{"empty object", `{}`},
		{"username a number", `{"username":123,"password":"longenough"}`},
		{"password a number", `{"username":"numpass","password":12345678}`},
		{"avatar a number", `{"username":"numpic","password":"longenough","avatar":5}`},
		{"username null", `{"username":null,"password":"longenough"}`},
		{"username a list", `{"username":["a"],"password":"longenough"}`},
		{"username true", `{"username":true,"password":"longenough"}`},
		{"every field wrong", `{"username":"A","password":1,"avatar":[]}`},
		{"body a list", `[]`},
		{"body null", `null`},
		{"body a string", `"newbie"`},
		{"body a number", `42`},
		{"body {", `{`},
		{"body missing value", `{"username": }`},
		{"body trailing comma", `{"username":"trail","password":"longenough",}`},
		{"body empty", ``},
	} {
		s.json("register: "+c.name, "POST", "/users", c.body)
	}
	s.typed("register: text/plain", "POST", "/users", "text/plain", `{"username":"plain_text","password":"longenough"}`)
	s.typed("register: form body", "POST", "/users", "application/x-www-form-urlencoded", "username=form_user&password=longenough")
	s.typed("register: no Content-Type", "POST", "/users", "", `{"username":"no_ctype","password":"longenough"}`)
	s.form("login no_ctype", "username=no_ctype&password=longenough")

	// POST /movies: auth first.
	s.json("create movie without token", "POST", "/movies", validMovie)
	s.json("create movie, invalid body, without token", "POST", "/movies", `{"title":""}`)
	s.json("create movie with a bad token", "POST", "/movies", validMovie, "Authorization", "Bearer x.y.z")
	s.json("create movie with a bad token and a bad body", "POST", "/movies", `{`, "Authorization", "Bearer x.y.z")
	s.json("create movie minimal", "POST", "/movies", validMovie).as("alice").keepID("movie1")
	s.json("create movie full", "POST", "/movies", `{"title":"Grown Full","original_title":"Grown Voll","year":1888,"genres":["Drama","Sci-Fi"],"original_language":"de","overview":"A test.","runtime":1000,"poster":"https://example.org/p.jpg"}`).as("bob").keepID("movie2")
	s.json("create movie with nulls", "POST", "/movies", `{"title":"Nulls","original_title":null,"year":2100,"overview":null,"runtime":null,"poster":null}`).as("newbie").keepID("movie3")
	s.json("create movie extra fields ignored", "POST", "/movies", `{"title":"Extra","year":2000,"id":"tt9999999","created_at":"2001-01-01T00:00:00Z","rating":5}`).as("alice").keepID("movie4")
	s.get("read movie1", "/movies/{{movie1}}")
	s.get("read movie2", "/movies/{{movie2}}")
	s.get("read movie4", "/movies/{{movie4}}")
	s.get("read tt9999999 (not the created id)", "/movies/tt9999999")
	// 422 for each constraint of MovieCreate.
	for _, c := range []struct{ name, body string }{
		{"title empty", `{"title":"","year":2000}`},
		{"title too long", `{"title":"` + rep("x", 201) + `","year":2000}`},
		{"title too long in characters", `{"title":"` + rep("é", 201) + `","year":2000}`},
		{"title missing", `{"year":2000}`},
		{"title null", `{"title":null,"year":2000}`},
		{"title a number", `{"title":5,"year":2000}`},
		{"title an object", `{"title":{"a":1},"year":2000}`},
		{"original_title too long", `{"title":"x","original_title":"` + rep("y", 201) + `","year":2000}`},
		{"original_title a number", `{"title":"x","original_title":7,"year":2000}`},
		{"year too small", `{"title":"x","year":1887}`},
		{"year too large", `{"title":"x","year":2101}`},
		{"year missing", `{"title":"x"}`},
		{"year a fraction", `{"title":"x","year":1999.5}`},
		{"year not a number", `{"title":"x","year":"abc"}`},
		{"year a fractional string", `{"title":"x","year":"1999.5"}`},
		{"year true", `{"title":"x","year":true}`},
		{"year null", `{"title":"x","year":null}`},
		{"year huge", `{"title":"x","year":1000000000000000000000000000000}`},
		{"year 1e400", `{"title":"x","year":1e400}`},
		{"year NaN", `{"title":"x","year":NaN}`},
		{"year Infinity", `{"title":"x","year":-Infinity}`},
		{"genres a string", `{"title":"x","year":2000,"genres":"Drama"}`},
		{"genres too many", `{"title":"x","year":2000,"genres":["a","b","c","d","e","f","g","h","i","j","k"]}`},
		{"genres item empty", `{"title":"x","year":2000,"genres":["Drama",""]}`},
		{"genres item too long", `{"title":"x","year":2000,"genres":["` + rep("g", 41) + `"]}`},
		{"genres item a number", `{"title":"x","year":2000,"genres":[1]}`},
		{"genres null", `{"title":"x","year":2000,"genres":null}`},
		{"original_language upper case", `{"title":"x","year":2000,"original_language":"EN"}`},
		{"original_language three letters", `{"title":"x","year":2000,"original_language":"eng"}`},
		{"original_language a digit", `{"title":"x","year":2000,"original_language":"e1"}`},
		{"original_language null", `{"title":"x","year":2000,"original_language":null}`},
		{"original_language a number", `{"title":"x","year":2000,"original_language":5}`},
		{"overview too long", `{"title":"x","year":2000,"overview":"` + rep("o", 2001) + `"}`},
		{"runtime zero", `{"title":"x","year":2000,"runtime":0}`},
		{"runtime negative", `{"title":"x","year":2000,"runtime":-5}`},
		{"runtime too large", `{"title":"x","year":2000,"runtime":1001}`},
		{"runtime a fraction", `{"title":"x","year":2000,"runtime":90.5}`},
		{"runtime a list", `{"title":"x","year":2000,"runtime":[90]}`},
		{"poster too long", `{"title":"x","year":2000,"poster":"` + rep("p", 2049) + `"}`},
		{"several errors", `{"title":"","year":1800,"runtime":0,"genres":[""],"original_language":"xx1","overview":5}`},
	} {
		s.json("create movie: "+c.name, "POST", "/movies", c.body).as("alice")
	}
	// Bodies that are not a JSON object.
	for _, c := range []struct{ name, body string }{
		{"{", `{`},
		{"missing value", `{"title": }`},
		{"trailing comma", `{"title":"x","year":2000,}`},
		{"[]", `[]`},
		{"null", `null`},
		{"a string", `"movie"`},
		{"true", `true`},
		{"empty", ``},
		{"whitespace", "  \n "},
		{"single quotes", `{'title':'x','year':2000}`},
		{"extra data", `{"title":"x","year":2000} x`},
		{"two objects", `{"title":"x","year":2000}{}`},
		{"unterminated string", `{"title":"x`},
		{"bad escape", `{"title":"\q","year":2000}`},
		{"control character in a string", "{\"title\":\"a\tb\",\"year\":2000}"},
		{"undecodable bytes", "\xff\xfe\xfd"},
		{"undecodable bytes in a string", "{\"title\":\"\xff\",\"year\":2000}"},
		{"leading undecodable byte", "\xff{}"},
	} {
		s.json("create movie json: "+c.name, "POST", "/movies", c.body).as("alice")
	}
	s.typed("create movie: text/plain", "POST", "/movies", "text/plain", validMovie).as("alice")
	s.typed("create movie: application/jsonx", "POST", "/movies", "application/jsonx", validMovie).as("alice")
	s.typed("create movie: form body", "POST", "/movies", "application/x-www-form-urlencoded", "title=x&year=2000").as("alice")
	s.typed("create movie: no Content-Type, not JSON", "POST", "/movies", "", `{`).as("alice")
	s.add("create movie: no body at all", "POST", "/movies", nil).as("alice")
	// Bodies FastAPI reads although they are unusual: each created movie
	// is deleted at once, so one that only one side accepts does not change
	// the lists that follow.
	for _, c := range []struct{ name, contentType, body string }{
		{"no Content-Type", "", `{"title":"No type","year":2001}`},
		{"charset parameter", "application/json; charset=utf-8", `{"title":"Charset","year":2001}`},
		{"+json subtype", "application/vnd.api+json", `{"title":"Vendor","year":2001}`},
		{"upper-case type", "APPLICATION/JSON", `{"title":"Upper","year":2001}`},
		{"UTF-8 byte-order mark", "application/json", "\xef\xbb\xbf" + `{"title":"BOM","year":2001}`},
		{"UTF-16 body", "application/json", utf16Body(`{"title":"UTF-16","year":2001}`)},
		{"year a string", "application/json", `{"title":"Lax year","year":"1999"}`},
		{"year a whole float", "application/json", `{"title":"Float year","year":1999.0}`},
		{"runtime a string", "application/json", `{"title":"Lax runtime","year":2001,"runtime":"90"}`},
		{"duplicate keys", "application/json", `{"title":"First","title":"Second","year":2001}`},
		{"200 characters of é", "application/json", `{"title":"` + rep("é", 200) + `","year":2001}`},
		{"200 emoji", "application/json", `{"title":"` + rep("🎬", 200) + `","year":2001}`},
		{"escaped characters", "application/json", `{"title":"\u00e9\ud83c\udfac\"\\\/\n","year":2001}`},
		{"whitespace around", "application/json", " \r\n\t{ \"title\" : \"Spaced\" , \"year\" : 2001 }\n"},
	} {
		s.typed("create movie, lenient: "+c.name, "POST", "/movies", c.contentType, c.body).as("alice").keepID("lenient")
		s.add("delete movie, lenient: "+c.name, "DELETE", "/movies/{{lenient}}", nil).as("alice")
	}

	// GET /movies: filters and paging.
	for _, q := range []string{"", "?year=1999", "?year=1988", "?year=2024", "?year=abc", "?year=", "?year=1999&year=2001",
		"?year=1999.0", "?year=%201999", "?year=+1999", "?original_language=ja", "?original_language=de", "?original_language=xx",
		"?original_language=ja&year=2001", "?original_language=", "?skip=5", "?limit=3", "?skip=2&limit=2", "?skip=20&limit=5",
		"?skip=1000", "?skip=-1", "?limit=0", "?limit=1001", "?limit=1000", "?limit=abc", "?skip=1.5", "?skip=", "?skip=0x10",
		"?unknown=1", "?skip=-1&limit=0&year=x"} {
		s.get("list movies"+q, "/movies"+q)
	}
	for _, id := range []string{fightClub, "nope", "TT0137523", "%20", fightClub + "%20", "tt0137523%2F", "{{movie1:upper}}"} {
		s.get("read movie "+id, "/movies/"+id)
	}

	// PATCH /movies/{id}: only the fields sent.
	for _, c := range []struct{ name, body string }{
		{"runtime", `{"runtime":120}`},
		{"nothing", `{}`},
		{"title null", `{"title":null}`},
		{"original_title null", `{"original_title":null}`},
		{"year too small", `{"year":1800}`},
		{"genres", `{"genres":["Noir"]}`},
		{"original_language", `{"original_language":"fr"}`},
		{"original_language null", `{"original_language":null}`},
		{"year null", `{"year":null}`},
		{"genres null", `{"genres":null}`},
		{"runtime null", `{"runtime":null}`},
		{"unknown field", `{"rating":5}`},
		{"id ignored", `{"id":"tt0000001","title":"Renamed"}`},
		{"a list", `[]`},
		{"empty body", ``},
		{"{", `{`},
	} {
		s.json("patch movie1: "+c.name, "PATCH", "/movies/{{movie1}}", c.body).as("alice")
	}
	s.get("read movie1 after patches", "/movies/{{movie1}}")
	s.json("patch fixture movie", "PATCH", "/movies/tt0111161", `{"overview":"Changed."}`).as("bob")
	s.get("read fixture movie after patch", "/movies/tt0111161")
	s.json("patch movie without token", "PATCH", "/movies/{{movie1}}", `{"runtime":1}`)
	s.json("patch unknown movie", "PATCH", "/movies/nope", `{"runtime":1}`).as("alice")
	s.json("patch unknown movie, invalid body", "PATCH", "/movies/nope", `{"runtime":0}`).as("alice")

	// DELETE /movies/{id}.
	s.add("delete movie3 without token", "DELETE", "/movies/{{movie3}}", nil)
	s.add("delete movie3", "DELETE", "/movies/{{movie3}}", nil).as("alice")
	s.get("read deleted movie3", "/movies/{{movie3}}")
	s.add("delete movie3 again", "DELETE", "/movies/{{movie3}}", nil).as("alice")
	s.json("patch deleted movie3", "PATCH", "/movies/{{movie3}}", `{"runtime":1}`).as("alice")
	s.add("delete unknown movie", "DELETE", "/movies/nope", nil).as("alice")

	// Reviews.
	s.json("create review of an unknown movie", "POST", "/reviews", `{"movie_id":"nope","content":"Hm."}`).as("alice")
	s.json("create review of an unknown movie, invalid content", "POST", "/reviews", `{"movie_id":"nope","content":""}`).as("alice")
	s.json("create review of movie1", "POST", "/reviews", validReview).as("alice").keepID("review1")
	s.json("create review of movie1 by newbie", "POST", "/reviews", `{"movie_id":"{{movie1}}","content":"Mine."}`).as("newbie").keepID("review2")
	s.json("create review of a fixture movie", "POST", "/reviews", `{"movie_id":"tt0137523","content":"Дважды."}`).as("ivan").keepID("review3")
	s.json("create review, longest content", "POST", "/reviews", `{"movie_id":"tt0111161","content":"`+rep("c", 2000)+`"}`).as("bob").keepID("review4")
	s.json("create review, author_id ignored", "POST", "/reviews", `{"movie_id":"tt0111161","content":"Who?","author_id":99,"id":"x"}`).as("bob").keepID("review5")
	for _, c := range []struct{ name, body string }{
		{"content empty", `{"movie_id":"tt0111161","content":""}`},
		{"content too long", `{"movie_id":"tt0111161","content":"` + rep("c", 2001) + `"}`},
		{"content missing", `{"movie_id":"tt0111161"}`},
		{"movie_id missing", `{"content":"x"}`},
		{"movie_id a number", `{"movie_id":5,"content":"x"}`},
		{"movie_id null", `{"movie_id":null,"content":"x"}`},
		{"empty object", `{}`},
		{"a list", `[]`},
		{"{", `{`},
	} {
		s.json("create review: "+c.name, "POST", "/reviews", c.body).as("alice")
	}
	s.json("create review without token", "POST", "/reviews", validReview)
	s.get("read review1", "/reviews/{{review1}}")
	s.get("read review5", "/reviews/{{review5}}")
	s.get("read review1 upper case", "/reviews/{{review1:upper}}")
	for _, q := range []string{"", "?movie_id={{movie1}}", "?author_id={{newbie_id}}", "?author_id=abc", "?movie_id=tt0137523&author_id=10",
		"?skip=30&limit=10", "?limit=0", "?skip=-1", "?movie_id=nope", "?author_id=1&limit=2"} {
		s.get("list reviews"+q, "/reviews"+q)
	}
	// PUT and PATCH /reviews/{id}.
	s.json("replace review1", "PUT", "/reviews/{{review1}}", `{"content":"Replaced text."}`).as("alice")
	s.json("replace review1 by someone else", "PUT", "/reviews/{{review1}}", `{"content":"Bob was here."}`).as("bob")
	s.json("replace review1, movie_id ignored", "PUT", "/reviews/{{review1}}", `{"content":"Same movie.","movie_id":"tt0111161"}`).as("alice")
	s.json("replace review1 without content", "PUT", "/reviews/{{review1}}", `{}`).as("alice")
	s.json("replace review1, content empty", "PUT", "/reviews/{{review1}}", `{"content":""}`).as("alice")
	s.json("replace review1, content null", "PUT", "/reviews/{{review1}}", `{"content":null}`).as("alice")
	s.json("replace review1 without token", "PUT", "/reviews/{{review1}}", `{"content":"x"}`)
	s.json("replace unknown review", "PUT", "/reviews/nope", `{"content":"x"}`).as("alice")
	s.json("replace unknown review, invalid body", "PUT", "/reviews/nope", `{}`).as("alice")
	s.json("patch review1, nothing", "PATCH", "/reviews/{{review1}}", `{}`).as("alice")
	s.json("patch review1, content null", "PATCH", "/reviews/{{review1}}", `{"content":null}`).as("alice")
	s.json("patch review1, content empty", "PATCH", "/reviews/{{review1}}", `{"content":""}`).as("alice")
	s.json("patch review1", "PATCH", "/reviews/{{review1}}", `{"content":"Patched."}`).as("alice")
	s.json("patch unknown review", "PATCH", "/reviews/nope", `{"content":"x"}`).as("alice")
	s.json("patch review1 without token", "PATCH", "/reviews/{{review1}}", `{"content":"x"}`)
	s.get("read review1 after changes", "/reviews/{{review1}}")
	s.get("reviews of movie1", "/movies/{{movie1}}/reviews")
	s.get("reviews of a fixture movie", "/movies/tt0137523/reviews")
	s.get("reviews of a movie without reviews", "/movies/tt0042876/reviews")
	s.get("reviews of an unknown movie", "/movies/nope/reviews")
	s.get("reviews of the deleted movie3", "/movies/{{movie3}}/reviews")

	// Reactions.
	s.get("reactions of review1", "/reviews/{{review1}}/reactions")
	s.get("reactions of a fixture review", "/reviews/"+fightReview+"/reactions")
	s.json("react to review1", "POST", "/reviews/{{review1}}/reactions", `{"emoji":"👍"}`).as("alice").keepID("reaction1")
	s.json("react to review1 by bob", "POST", "/reviews/{{review1}}/reactions", `{"emoji":"🔥"}`).as("bob")
	s.json("react to a fixture review", "POST", "/reviews/"+fightReview+"/reactions", `{"emoji":"😂"}`).as("heidi")
	s.json("react with an escaped emoji", "POST", "/reviews/{{review1}}/reactions", `{"emoji":"\ud83d\ude22"}`).as("ivan")
	s.json("react, extra fields ignored", "POST", "/reviews/{{review1}}/reactions", `{"emoji":"😮","user_id":1,"review_id":"x"}`).as("newbie")
	for _, c := range []struct{ name, body string }{
		{"bad emoji", `{"emoji":"x"}`},
		{"emoji by name", `{"emoji":":fire:"}`},
		{"emoji with skin tone", `{"emoji":"👍🏽"}`},
		{"emoji missing", `{}`},
		{"emoji null", `{"emoji":null}`},
		{"emoji a number", `{"emoji":1}`},
		{"a list", `[]`},
	} {
		s.json("react: "+c.name, "POST", "/reviews/{{review1}}/reactions", c.body).as("alice")
	}
	s.json("react to an unknown review", "POST", "/reviews/nope/reactions", `{"emoji":"👍"}`).as("alice")
	s.json("react to an unknown review with a bad emoji", "POST", "/reviews/nope/reactions", `{"emoji":"x"}`).as("alice")
	s.json("react without token", "POST", "/reviews/{{review1}}/reactions", `{"emoji":"👍"}`)
	s.get("reactions of review1 after", "/reviews/{{review1}}/reactions")
	s.get("reactions of a fixture review after", "/reviews/"+fightReview+"/reactions")
	s.get("reactions of an unknown review", "/reviews/nope/reactions")
	s.get("review1 with its reactions", "/reviews/{{review1}}")

	// Delete, and 404 again.
	s.add("delete review1 without token", "DELETE", "/reviews/{{review1}}", nil)
	s.add("delete review1", "DELETE", "/reviews/{{review1}}", nil).as("alice")
	s.get("read deleted review1", "/reviews/{{review1}}")
	s.add("delete review1 again", "DELETE", "/reviews/{{review1}}", nil).as("alice")
	s.json("replace deleted review1", "PUT", "/reviews/{{review1}}", `{"content":"x"}`).as("alice")
	s.json("patch deleted review1", "PATCH", "/reviews/{{review1}}", `{"content":"x"}`).as("alice")
	s.get("reactions of deleted review1", "/reviews/{{review1}}/reactions")
	s.json("react to deleted review1", "POST", "/reviews/{{review1}}/reactions", `{"emoji":"👍"}`).as("alice")
	s.add("delete review4", "DELETE", "/reviews/{{review4}}", nil).as("bob")
	s.add("delete movie1", "DELETE", "/movies/{{movie1}}", nil).as("alice")
	s.get("read deleted movie1", "/movies/{{movie1}}")
	s.get("reviews of deleted movie1", "/movies/{{movie1}}/reviews")
	s.get("reviews naming deleted movie1", "/reviews?movie_id={{movie1}}")
	s.get("review2 of deleted movie1", "/reviews/{{review2}}")
	s.json("review deleted movie1", "POST", "/reviews", validReview).as("alice")
	s.add("delete a fixture movie", "DELETE", "/movies/"+fightClub, nil).as("bob")
	s.get("reviews of the deleted fixture movie", "/movies/"+fightClub+"/reviews")
	s.get("movies at the end", "/movies?skip=15")
	s.get("reviews at the end", "/reviews?skip=30")
	s.get("users/me at the end", "/users/me").as("newbie")

	// Every 405 and 307 on the paths.
	s.methods405([]routeMethods{
		{"/person/1", []string{"GET"}},
		{"/auth/login", []string{"POST"}},
		{"/users", []string{"POST"}},
		{"/users/me", []string{"GET"}},
		{"/movies", []string{"GET", "POST"}},
		{"/movies/tt0111161", []string{"GET", "PATCH", "DELETE"}},
		{"/movies/tt0111161/reviews", []string{"GET"}},
		{"/reviews", []string{"GET", "POST"}},
		{"/reviews/" + fightReview, []string{"GET", "PUT", "PATCH", "DELETE"}},
		{"/reviews/" + fightReview + "/reactions", []string{"GET", "POST"}},
	})
	s.get("GET /movies/?year=1999 (307 keeps the query)", "/movies/?year=1999")
	s.get("GET /movies/{movie2}/ (307)", "/movies/{{movie2}}/")
	return s.steps
}

func tasksScript() []*gstep {
	var s gscript

	// GET /projects: page/size.
	for _, q := range []string{"", "?page=1", "?page=2&size=5", "?page=3&size=5", "?page=4&size=5", "?page=100", "?page=0", "?page=-1",
		"?page=abc", "?page=", "?size=0", "?size=101", "?size=100", "?size=1", "?size=abc", "?page=1.5", "?page=0&size=101",
		"?archived=true", "?archived=false", "?archived=garbage", "?archived=", "?archived=1", "?archived=0", "?archived=yes",
		"?archived=off", "?archived=TRUE", "?archived=t", "?archived=true&page=2&size=1", "?page=2&size=11", "?unknown=x"} {
		s.get("list projects"+q, "/projects"+q)
	}

	// POST /projects.
	s.json("create project minimal", "POST", "/projects", validProject).keepID("p1")
	s.json("create project full", "POST", "/projects", `{"name":"Full","description":"Everything set.","color":"#abcdef","archived":false}`).keepID("p2")
	s.json("create project archived", "POST", "/projects", `{"name":"Old","archived":true,"description":null}`).keepID("p3")
	s.json("create project, longest name", "POST", "/projects", `{"name":"`+rep("東", 100)+`"}`).keepID("p4")
	for _, c := range []struct{ name, body string }{
		{"name empty", `{"name":""}`},
		{"name too long", `{"name":"` + rep("n", 101) + `"}`},
		{"name too long in characters", `{"name":"` + rep("東", 101) + `"}`},
		{"name missing", `{"description":"x"}`},
		{"name null", `{"name":null}`},
		{"name a number", `{"name":1}`},
		{"description too long", `{"name":"x","description":"` + rep("d", 1001) + `"}`},
		{"color a word", `{"name":"x","color":"red"}`},
		{"color upper case", `{"name":"x","color":"#ABCDEF"}`},
		{"color too short", `{"name":"x","color":"#abcde"}`},
		{"color too long", `{"name":"x","color":"#abcdefa"}`},
		{"color null", `{"name":"x","color":null}`},
		{"archived a word", `{"name":"x","archived":"maybe"}`},
		{"archived 2", `{"name":"x","archived":2}`},
		{"archived null", `{"name":"x","archived":null}`},
		{"several errors", `{"name":"","color":"blue","archived":"x","description":5}`},
		{"empty object", `{}`},
		{"a list", `[]`},
		{"null", `null`},
		{"{", `{`},
		{"trailing comma", `{"name":"x",}`},
		{"empty", ``},
	} {
		s.json("create project: "+c.name, "POST", "/projects", c.body)
	}
	s.typed("create project: text/plain", "POST", "/projects", "text/plain", validProject)
	for _, c := range []struct{ name, contentType, body string }{
		{"archived a string", "application/json", `{"name":"Lax","archived":"true"}`},
		{"archived 1", "application/json", `{"name":"Lax one","archived":1}`},
		{"id ignored", "application/json", `{"name":"With id","id":"` + unknownUUID + `"}`},
		{"no Content-Type", "", `{"name":"No type"}`},
	} {
		s.typed("create project, lenient: "+c.name, "POST", "/projects", c.contentType, c.body).keepID("lenient")
		s.add("delete project, lenient: "+c.name, "DELETE", "/projects/{{lenient}}", nil)
	}
	s.get("read project with the id sent", "/projects/"+unknownUUID)

	// UUID path parameters in every spelling.
	s.get("read p1", "/projects/{{p1}}")
	for _, sp := range []string{"upper", "nohyphen", "uppernohyphen", "pbraces", "braces", "urn"} {
		s.get("read p1 "+sp, "/projects/{{p1:"+sp+"}}")
	}
	for _, id := range []string{websiteProj, strings.ToUpper(websiteProj), "urn:uuid:" + websiteProj, "URN:UUID:" + websiteProj,
		"nope", websiteProj[:35], websiteProj + "0", websiteProj[:35] + "g", strings.Replace(websiteProj, "-", "", 1),
		"5759a20a-0bf7-4dd1-8532-3ea0861cb1-47", "%20" + websiteProj, unknownUUID, "00000000-0000-0000-0000-000000000000",
		"ffffffff-ffff-ffff-ffff-ffffffffffff", "1", "5759a20a_0bf7_4dd1_8532_3ea0861cb147"} {
		s.get("read project "+id, "/projects/"+id)
	}

	// PUT replaces (left-out fields take their defaults), PATCH changes
	// the fields sent.
	s.json("replace p2 with the name only", "PUT", "/projects/{{p2}}", `{"name":"Renamed"}`)
	s.get("read p2 after PUT", "/projects/{{p2}}")
	s.json("replace p2 in full", "PUT", "/projects/{{p2:upper}}", `{"name":"Full again","color":"#000000","archived":true,"description":"x"}`)
	s.json("replace p2 without name", "PUT", "/projects/{{p2}}", `{}`)
	s.json("replace p2, name empty", "PUT", "/projects/{{p2}}", `{"name":""}`)
	s.json("replace p2, empty body", "PUT", "/projects/{{p2}}", ``)
	s.json("replace unknown project", "PUT", "/projects/"+unknownUUID2, `{"name":"x"}`)
	s.json("replace unknown project, invalid body", "PUT", "/projects/"+unknownUUID2, `{"name":""}`)
	s.json("replace malformed project id", "PUT", "/projects/nope", `{"name":"x"}`)
	s.json("replace malformed project id, invalid body", "PUT", "/projects/nope", `{"color":"x"}`)
	s.get("read p2 after replacements", "/projects/{{p2}}")
	for _, c := range []struct{ name, body string }{
		{"archived", `{"archived":true}`},
		{"description null", `{"description":null}`},
		{"color null", `{"color":null}`},
		{"name null", `{"name":null}`},
		{"archived null", `{"archived":null}`},
		{"nothing", `{}`},
		{"name and color", `{"color":"#123456","name":"Patched"}`},
		{"bad color", `{"color":"#12345g"}`},
	} {
		s.json("patch p1: "+c.name, "PATCH", "/projects/{{p1}}", c.body)
	}
	s.json("patch p1 by its unhyphenated id", "PATCH", "/projects/{{p1:nohyphen}}", `{"description":"By another spelling."}`)
	s.json("patch unknown project", "PATCH", "/projects/"+unknownUUID2, `{"name":"x"}`)
	s.json("patch malformed project id", "PATCH", "/projects/xyz", `{"name":"x"}`)
	s.get("read p1 after patches", "/projects/{{p1}}")
	s.get("list archived projects", "/projects?archived=true")
	s.get("list every project", "/projects?page=1&size=100")
	s.get("list the last page", "/projects?page=2&size=10")

	// Nested list and create under /projects/{id}/tasks.
	s.get("tasks of p1", "/projects/{{p1}}/tasks")
	s.get("tasks of a project without tasks", "/projects/"+emptyProj+"/tasks")
	s.get("tasks of a fixture project", "/projects/"+websiteProj+"/tasks")
	s.get("tasks of an unknown project", "/projects/"+unknownUUID2+"/tasks")
	s.get("tasks of a malformed project id", "/projects/nope/tasks")
	s.json("create task in p1", "POST", "/projects/{{p1}}/tasks", `{"title":"First task"}`).keepID("t1")
	s.json("create task in p1, full", "POST", "/projects/{{p1}}/tasks", `{"title":"Second","description":"d","priority":"high","due_date":"2025-12-31","tags":["a","b"]}`).keepID("t2")
	s.json("create task in p1, urgent", "POST", "/projects/{{p1}}/tasks", `{"title":"Third","priority":"urgent","due_date":null,"description":null}`).keepID("t3")
	s.json("create task, done ignored", "POST", "/projects/{{p1}}/tasks", `{"title":"Fourth","done":true,"project_id":"`+websiteProj+`"}`).keepID("t4")
	s.json("create task in p1 by its upper-case id", "POST", "/projects/{{p1:upper}}/tasks", `{"title":"Fifth","tags":[]}`).keepID("t5")
	s.json("create task in an archived project", "POST", "/projects/"+archivedProj+"/tasks", `{"title":"Late"}`).keepID("t6")
	for _, c := range []struct{ name, body string }{
		{"priority unknown", `{"title":"x","priority":"critical"}`},
		{"priority upper case", `{"title":"x","priority":"HIGH"}`},
		{"priority null", `{"title":"x","priority":null}`},
		{"priority a number", `{"title":"x","priority":1}`},
		{"due_date month 13", `{"title":"x","due_date":"2024-13-01"}`},
		{"due_date February 30", `{"title":"x","due_date":"2024-02-30"}`},
		{"due_date a word", `{"title":"x","due_date":"tomorrow"}`},
		{"due_date with a time", `{"title":"x","due_date":"2024-01-01T10:00:00"}`},
		{"due_date an inexact timestamp", `{"title":"x","due_date":1700000001}`},
		{"tags too many", `{"title":"x","tags":["1","2","3","4","5","6","7","8","9","10","11"]}`},
		{"tag empty", `{"title":"x","tags":[""]}`},
		{"tag too long", `{"title":"x","tags":["` + rep("t", 31) + `"]}`},
		{"tags a string", `{"title":"x","tags":"a"}`},
		{"title missing", `{"priority":"low"}`},
		{"title empty", `{"title":""}`},
		{"title too long", `{"title":"` + rep("t", 201) + `"}`},
		{"description too long", `{"title":"x","description":"` + rep("d", 5001) + `"}`},
		{"empty object", `{}`},
		{"{", `{`},
	} {
		s.json("create task: "+c.name, "POST", "/projects/{{p1}}/tasks", c.body)
	}
	for _, c := range []struct{ name, body string }{
		{"due_date a timestamp at midnight", `{"title":"Stamp","due_date":1700006400}`},
		{"due_date a midnight date-time", `{"title":"Midnight","due_date":"2024-01-01T00:00:00"}`},
		{"priority with a tag of 30", `{"title":"Tagged","priority":"low","tags":["` + rep("t", 30) + `"]}`},
	} {
		s.json("create task, lenient: "+c.name, "POST", "/projects/{{p1}}/tasks", c.body).keepID("lenient")
		s.add("delete task, lenient: "+c.name, "DELETE", "/tasks/{{lenient}}", nil)
	}
	s.json("create task under an unknown project", "POST", "/projects/"+unknownUUID2+"/tasks", validTaskBody)
	s.json("create task under an unknown project, invalid body", "POST", "/projects/"+unknownUUID2+"/tasks", `{"title":""}`)
	s.json("create task under a malformed project id", "POST", "/projects/nope/tasks", validTaskBody)
	s.json("create task under a malformed project id, invalid body", "POST", "/projects/nope/tasks", `{}`)
	s.get("tasks of p1 after creates", "/projects/{{p1}}/tasks")
	s.get("tasks of p1 by braces", "/projects/{{p1:pbraces}}/tasks")

	// GET /tasks: offset/limit and filters.
	for _, q := range []string{"", "?offset=40", "?offset=0&limit=5", "?offset=38&limit=5", "?limit=200", "?limit=201", "?limit=0",
		"?offset=-1", "?offset=abc", "?offset=1000", "?done=true", "?done=false", "?done=garbage", "?done=", "?done=1", "?done=off",
		"?done=TRUE", "?priority=high", "?priority=urgent", "?priority=critical", "?priority=HIGH", "?priority=",
		"?project_id={{p1}}", "?project_id={{p1:upper}}", "?project_id={{p1:nohyphen}}", "?project_id=nope", "?project_id=",
		"?project_id=" + websiteProj, "?project_id=" + websiteProj + "&done=true", "?priority=high&done=false&limit=3",
		"?done=maybe&priority=bad&project_id=bad&offset=-1&limit=0", "?project_id=" + unknownUUID2} {
		s.get("list tasks"+q, "/tasks"+q)
	}
	for _, id := range []string{"{{t1}}", "{{t1:upper}}", "{{t1:urn}}", "{{t2:nohyphen}}", auditTask, unknownUUID2, "nope", auditTask + "x"} {
		s.get("read task "+id, "/tasks/"+id)
	}

	// PUT vs PATCH on tasks.
	s.json("replace t2 with the title only", "PUT", "/tasks/{{t2}}", `{"title":"Replaced"}`)
	s.get("read t2 after PUT", "/tasks/{{t2}}")
	s.json("replace t3 in full", "PUT", "/tasks/{{t3}}", `{"title":"T3","priority":"low","done":true,"due_date":"2026-01-01","tags":["x"],"description":"full"}`)
	s.json("replace t3, project_id ignored", "PUT", "/tasks/{{t3}}", `{"title":"T3 again","project_id":"`+websiteProj+`","done":true}`)
	s.json("replace t3 without title", "PUT", "/tasks/{{t3}}", `{}`)
	s.json("replace t3, bad priority", "PUT", "/tasks/{{t3}}", `{"title":"x","priority":"none"}`)
	s.json("replace t3, done a word", "PUT", "/tasks/{{t3}}", `{"title":"x","done":"perhaps"}`)
	s.json("replace unknown task", "PUT", "/tasks/"+unknownUUID2, `{"title":"x"}`)
	s.json("replace a fixture task", "PUT", "/tasks/"+auditTask, `{"title":"Audit, replaced"}`)
	s.get("read t3 after PUTs", "/tasks/{{t3}}")
	for _, c := range []struct{ name, body string }{
		{"done", `{"done":true}`},
		{"priority null", `{"priority":null}`},
		{"due_date null", `{"due_date":null}`},
		{"due_date", `{"due_date":"2030-06-15"}`},
		{"done a word", `{"done":"yes"}`},
		{"done an unknown word", `{"done":"sure"}`},
		{"tags empty", `{"tags":[]}`},
		{"title null", `{"title":null}`},
		{"done null", `{"done":null}`},
		{"project_id ignored", `{"project_id":"` + websiteProj + `"}`},
		{"nothing", `{}`},
	} {
		s.json("patch t1: "+c.name, "PATCH", "/tasks/{{t1}}", c.body)
	}
	s.json("patch unknown task", "PATCH", "/tasks/"+unknownUUID2, `{"done":true}`)
	s.json("patch malformed task id", "PATCH", "/tasks/nope", `{"done":true}`)
	s.get("read t1 after patches", "/tasks/{{t1}}")
	s.get("done tasks of p1", "/tasks?project_id={{p1}}&done=true")

	// DELETE: 204 without a body, then 404.
	s.add("delete t1", "DELETE", "/tasks/{{t1}}", nil)
	s.get("read deleted t1", "/tasks/{{t1}}")
	s.add("delete t1 again", "DELETE", "/tasks/{{t1}}", nil)
	s.json("patch deleted t1", "PATCH", "/tasks/{{t1}}", `{"done":true}`)
	s.add("delete malformed task id", "DELETE", "/tasks/nope", nil)
	s.add("delete unknown task", "DELETE", "/tasks/"+unknownUUID2, nil)
	s.add("delete t5 by its urn", "DELETE", "/tasks/{{t5:urn}}", nil)
	s.add("delete p1", "DELETE", "/projects/{{p1}}", nil)
	s.get("read deleted p1", "/projects/{{p1}}")
	s.get("tasks of deleted p1", "/projects/{{p1}}/tasks")
	s.json("create task under deleted p1", "POST", "/projects/{{p1}}/tasks", validTaskBody)
	s.get("tasks naming deleted p1", "/tasks?project_id={{p1}}")
	s.add("delete p1 again", "DELETE", "/projects/{{p1}}", nil)
	s.json("replace deleted p1", "PUT", "/projects/{{p1}}", validProject)
	s.json("patch deleted p1", "PATCH", "/projects/{{p1}}", `{}`)
	s.add("delete a fixture project", "DELETE", "/projects/"+emptyProj, nil)
	s.add("delete p3 by braces", "DELETE", "/projects/{{p3:pbraces}}", nil)
	s.get("projects at the end", "/projects?page=1&size=100")
	s.get("tasks at the end", "/tasks?offset=35")

	// Outside the conventions: the mock answers /stats with the declared
	// example and /health with a body generated for the schema, so only
	// the status and Content-Type can agree.
	s.get("stats", "/stats").only("status")
	s.get("stats with a query", "/stats?x=1").only("status")
	s.get("health", "/health").only("status")

	// Every 405 and 307 on the paths.
	s.methods405([]routeMethods{
		{"/projects", []string{"GET", "POST"}},
		{"/projects/" + websiteProj, []string{"GET", "PUT", "PATCH", "DELETE"}},
		{"/projects/" + websiteProj + "/tasks", []string{"GET", "POST"}},
		{"/tasks", []string{"GET"}},
		{"/tasks/" + auditTask, []string{"GET", "PUT", "PATCH", "DELETE"}},
		{"/stats", []string{"GET"}},
		{"/health", []string{"GET"}},
	})
	s.add("POST /projects/nope (405 before the id is checked)", "POST", "/projects/nope", nil)
	s.get("GET /projects/?page=2 (307 keeps the query)", "/projects/?page=2&size=5")
	s.get("GET /projects/{p2}/ (307)", "/projects/{{p2}}/")
	return s.steps
}

// mockCall sends one request to the mock and returns the status and body.
func mockCall(t *testing.T, base, method, path, body string, header ...string) (int, []byte) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, base+path, r)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// X-Mock-Session keeps each session's writes apart from the others' and
// from the global ones; the control API resets them; --read-only keeps none.
func TestSessionsKeepWritesApart(t *testing.T) {
	t.Parallel()
	dir, err := reference.ContractDir(reference.AppMovies)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"--quiet", "--spec", filepath.Join(dir, "openapi.json"), "--fixtures", filepath.Join(dir, "fixtures")}
	base, _ := serve(t, noEnv, args...)
	resetMock(t, base)

	auth := login(t, base, "alice", "wonderland")
	in := func(session string) []string {
		h := []string{"Authorization", auth}
		if session != "" {
			h = append(h, "X-Mock-Session", session)
		}
		return h
	}
	where := func(session string) string {
		if session == "" {
			return "globally"
		}
		return "in session " + session
	}
	create := func(session, title string) string {
		t.Helper()
		code, body := mockCall(t, base, "POST", "/movies", `{"title":"`+title+`","year":2020}`, in(session)...)
		var m struct{ ID string }
		if code != 201 || json.Unmarshal(body, &m) != nil || m.ID == "" {
			t.Fatalf("create %s %s: %d %s", title, where(session), code, body)
		}
		return m.ID
	}
	expect := func(session, id string, want int) {
		t.Helper()
		if code, body := mockCall(t, base, "GET", "/movies/"+id, "", in(session)...); code != want {
			t.Errorf("GET /movies/%s %s: %d, want %d (%s)", id, where(session), code, want, clip(body))
		}
	}
	listed := func(session, id string, want bool) {
		t.Helper()
		code, body := mockCall(t, base, "GET", "/movies?limit=1000", "", in(session)...)
		if code != 200 {
			t.Fatalf("GET /movies %s: %d %s", where(session), code, clip(body))
		}
		if got := bytes.Contains(body, []byte(`"id":"`+id+`"`)); got != want {
			t.Errorf("GET /movies %s lists %s: %v, want %v", where(session), id, got, want)
		}
	}
	control := func(path string, want int) {
		t.Helper()
		code, body := mockCall(t, base, "POST", path, "")
		if code != want {
			t.Errorf("POST %s: %d, want %d (%s)", path, code, want, clip(body))
		}
	}

	// A create in session A is visible in A only.
	a := create("A", "Only in A")
	expect("A", a, 200)
	expect("B", a, 404)
	expect("", a, 404)
	listed("A", a, true)
	listed("B", a, false)
	listed("", a, false)

	// A global create is not visible in a session, old or new.
	g := create("", "Global")
	expect("", g, 200)
	expect("A", g, 404)
	expect("C", g, 404)
	listed("", g, true)
	listed("A", g, false)

	// Changes to loaded records stay in their session too.
	if code, body := mockCall(t, base, "PATCH", "/movies/tt0111161", `{"title":"Changed in A"}`, in("A")...); code != 200 {
		t.Errorf("PATCH in A: %d %s", code, clip(body))
	}
	for _, session := range []string{"", "B"} {
		if code, body := mockCall(t, base, "GET", "/movies/tt0111161", "", in(session)...); code != 200 || bytes.Contains(body, []byte("Changed in A")) {
			t.Errorf("GET /movies/tt0111161 %s after a PATCH in A: %d %s", where(session), code, clip(body))
		}
	}
	// The journal shows what each write sent, secrets blanked: a
	// registration's plain-string password is never kept.
	if code, body := mockCall(t, base, "POST", "/users", `{"username":"journal_reader","password":"never-shown-1"}`, "X-Mock-Session", "A"); code != 201 {
		t.Errorf("POST /users in A: %d %s", code, clip(body))
	}
	code, journal := mockCall(t, base, "GET", "/__mock/journal?session=A&method=PATCH", "")
	if code != 200 || !bytes.Contains(journal, []byte(`"body":{"title":"Changed in A"},"body_bytes":24`)) {
		t.Errorf("journal of A's PATCH: %d %s", code, clip(journal))
	}
	if code, body := mockCall(t, base, "PUT", "/reviews/1", "{\"text\":\"\xff\"}", "X-Mock-Session", "A", "Content-Type", "application/json"); code != 400 {
		t.Errorf("PUT /reviews/1 with bytes that are not UTF-8: %d %s", code, clip(body))
	}
	code, journal = mockCall(t, base, "GET", "/__mock/journal?session=A&method=PUT", "")
	if code != 200 || !bytes.Contains(journal, []byte(`"body_bytes":12,"body_note":"not JSON"`)) {
		t.Errorf("journal of a body that is not JSON: %d %s", code, clip(journal))
	}
	code, journal = mockCall(t, base, "GET", "/__mock/journal?session=A&path=/users", "")
	if code != 200 || !bytes.Contains(journal, []byte(`"body":{"username":"journal_reader","password":"[redacted]"}`)) || bytes.Contains(journal, []byte("never-shown")) {
		t.Errorf("journal of A's registration: %d %s", code, clip(journal))
	}
	if code, body := mockCall(t, base, "DELETE", "/movies/tt0068646", "", in("B")...); code != 204 {
		t.Errorf("DELETE in B: %d %s", code, clip(body))
	}
	expect("B", "tt0068646", 404)
	expect("A", "tt0068646", 200)
	expect("", "tt0068646", 200)
	b := create("B", "Only in B")

	// Resetting session A drops A's writes, and only those.
	control("/__mock/sessions/A/reset", 200)
	expect("A", a, 404)
	listed("A", a, false)
	if code, body := mockCall(t, base, "GET", "/movies/tt0111161", "", in("A")...); code != 200 || bytes.Contains(body, []byte("Changed in A")) {
		t.Errorf("GET /movies/tt0111161 in A after its reset: %d %s", code, clip(body))
	}
	expect("B", b, 200)
	expect("B", "tt0068646", 404)
	expect("", g, 200)

	// POST /__mock/reset drops the global writes.
	control("/__mock/reset", 200)
	expect("", g, 404)
	listed("", g, false)
	expect("", "tt0068646", 200)

	// --read-only answers a create as if it kept it, and keeps nothing.
	ro, _ := serve(t, noEnv, append(args, "--read-only")...)
	roAuth := login(t, ro, "alice", "wonderland")
	code, body := mockCall(t, ro, "POST", "/movies", `{"title":"Not kept","year":2020}`, "Authorization", roAuth)
	var m struct {
		ID    string
		Title string
	}
	if code != 201 || json.Unmarshal(body, &m) != nil || m.ID == "" || m.Title != "Not kept" {
		t.Fatalf("--read-only: POST /movies: %d %s", code, clip(body))
	}
	if code, body := mockCall(t, ro, "GET", "/movies/"+m.ID, ""); code != 404 {
		t.Errorf("--read-only: GET /movies/%s after the create: %d, want 404 (%s)", m.ID, code, clip(body))
	}
	if code, body := mockCall(t, ro, "GET", "/movies?limit=1000", ""); code != 200 || bytes.Contains(body, []byte(m.ID)) {
		t.Errorf("--read-only: GET /movies lists the created movie: %d", code)
	}
	if code, body := mockCall(t, ro, "POST", "/users", `{"username":"ro_user","password":"longenough"}`); code != 201 {
		t.Errorf("--read-only: POST /users: %d %s", code, clip(body))
	}
}
