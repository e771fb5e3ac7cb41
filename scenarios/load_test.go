package scenarios_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/scenarios"
)

func load(t testing.TB, files map[string]string) (*scenarios.Set, error) {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, text := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(text)}
	}
	return scenarios.Load(embedded(t), defaultData(t), scenarios.Source{FS: fsys, Name: "dir"})
}

const head = "name: s\ndescription: d\nrules:\n"

// Every bad scenario file is refused with where (file:line), which rule and
// field, and why.
func TestLoadRefusesBadFiles(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string // each must appear in one problem's message
	}{
		{"not YAML", "name: [unclosed\n", []string{"dir/f.yaml:1: not valid YAML"}},
		{"empty", "", []string{"dir/f.yaml: the file is empty"}},
		{"unknown top key", "name: s\ndescriptoin: d\nrules: []\n", []string{`dir/f.yaml:2: scenario "s": descriptoin: unknown key "descriptoin" (known here: name, description, initial, rules)`}},
		{"no description, no rules", "name: s\n", []string{"description: missing", "rules: want a non-empty list of rules"}},
		{"bad name", "name: 'a b'\ndescription: d\nrules: [{passthrough: true}]\n", []string{`f.yaml:1: scenario "a b": name: "a b": use letters`}},
		{"no answer", head + "  - match: {path: /reviews}\n", []string{"f.yaml:4: scenario \"s\": rule 1: a rule needs respond, passthrough or fault"}},
		{"unknown rule key", head + "  - respnd: {status: 200}\n", []string{`f.yaml:4: scenario "s": rule 1: respnd: unknown key`}},
		{"path not in the contract", head + "  - match: {path: /movies}\n    passthrough: true\n", []string{`f.yaml:4: scenario "s": rule 1: match.path: no path of the contract matches "/movies" (it has /person/{person_id}, /auth/login, /reviews/{review_id}, /reviews)`}},
		{"unknown template", head + "  - match: {path: \"/person/{id}\"}\n    passthrough: true\n", []string{`match.path: "/person/{id}" is not a path of the contract`}},
		{"method the path lacks", head + "  - match: {method: DELETE, path: /reviews}\n    passthrough: true\n", []string{"match.method: DELETE is not an operation of /reviews (it has GET)"}},
		{"not a method", head + "  - match: {method: FETCH}\n    passthrough: true\n", []string{`match.method: "FETCH" is not an HTTP method`}},
		{"unknown path parameter", head + "  - match: {path: \"/person/{person_id}\", params: {id: 1}}\n    passthrough: true\n", []string{"match.params.id: not a path parameter of GET /person/{person_id} (declared: person_id)"}},
		{"parameter FastAPI refuses", head + "  - match: {path: \"/person/{person_id}\", params: {person_id: abc}}\n    passthrough: true\n", []string{`match.params.person_id: "abc" would be refused with 422 (Input should be a valid integer, unable to parse string as an integer)`}},
		{"params without a template", head + "  - match: {path: /person/1, params: {person_id: 1}}\n    passthrough: true\n", []string{"match.params: path parameters need match.path to be a template"}},
		{"unknown form field", head + "  - match: {path: /auth/login, form: {usrname: alice}}\n    passthrough: true\n", []string{"match.form.usrname: not a form field of POST /auth/login (declared: grant_type, username, password, scope, client_id, client_secret)"}},
		{"form on a read", head + "  - match: {path: /reviews, form: {a: b}}\n    passthrough: true\n", []string{"match.form: none of the operations this rule matches (GET /reviews) takes a form"}},
		{"bad regexp", head + "  - match: {headers: {X-A: {matches: \"(\"}}}\n    passthrough: true\n", []string{"match.headers.X-A.matches: bad regular expression"}},
		{"two conditions", head + "  - match: {headers: {X-A: {matches: a, present: true}}}\n    passthrough: true\n", []string{"match.headers.X-A: give exactly one of equals, matches, present"}},
		{"body breaks the schema", head + "  - match: {path: \"/person/{person_id}\"}\n    respond:\n      status: 200\n      body: {id: one, name: X}\n",
			[]string{`f.yaml:7: scenario "s": rule 1: respond: breaks the contract of GET /person/{person_id}: body.id: `, "set off_spec: true if the rule means to"}},
		{"missing required field", head + "  - match: {path: \"/person/{person_id}\"}\n    respond: {status: 200, body: {id: 1}}\n", []string{`breaks the contract of GET /person/{person_id}: body.name: property "name" is missing`}},
		{"undeclared status", head + "  - match: {path: /reviews}\n    respond: {status: 429, body: {detail: slow down}}\n", []string{"status 429 is not declared (declared: 200) nor one FastAPI answers by itself (400, 401, 404, 405, 413, 422)"}},
		{"framework status, wrong shape", head + "  - respond: {status: 404, body: {error: gone}}\n", []string{`FastAPI answers 404 with an HTTPException body, {"detail": …} in JSON`}},
		{"raw body on a JSON status", head + "  - match: {path: /reviews}\n    respond: {status: 200, raw: hello}\n", []string{`content type "text/plain" is not declared for 200 (declared: application/json)`}},
		{"two bodies", head + "  - respond: {status: 200, body: [], raw: x}\n", []string{"respond: give one body: body, raw are exclusive"}},
		{"unknown fixture", head + "  - match: {path: \"/person/{person_id}\"}\n    respond: {status: 200, fixture: person/999}\n", []string{`f.yaml:5: scenario "s": rule 1: respond.fixture: fixture "person/999": the data has no person 999`}},
		{"set without fixture", head + "  - respond: {status: 200, set: {a: 1}}\n", []string{"respond.set: set changes a fixture: give fixture too"}},
		{"set of an unknown field", head + "  - match: {path: \"/person/{person_id}\"}\n    passthrough: {set: {nmae: X}}\n", []string{`passthrough.set.nmae: the answer of GET /person/{person_id} has no field "nmae" (it has id, name, biography`}},
		{"set of a wrong type", head + "  - match: {path: \"/person/{person_id}\"}\n    passthrough: {set: {known_for: nobody}}\n", []string{"passthrough.set.known_for: "}},
		{"limit on an object", head + "  - match: {path: \"/person/{person_id}\"}\n    passthrough: {limit: 1}\n", []string{"passthrough.limit: GET /person/{person_id} does not answer with a list"}},
		{"status override", head + "  - passthrough: {status: 500}\n", []string{"passthrough.status: the normal answer under another status breaks the contract"}},
		{"refusal moved to a status FastAPI does not answer", head + "  - match: {path: /auth/login}\n    passthrough: {if_status: 401, status: 418}\n", []string{"passthrough.status: the normal answer under another status breaks the contract"}},
		{"refusal worded beyond detail", head + "  - match: {path: /auth/login}\n    passthrough: {if_status: 401, set: {error: no}}\n", []string{"passthrough.set: FastAPI's HTTPException body has one field, detail"}},
		{"refusal with a list change", head + "  - match: {path: /reviews}\n    passthrough: {if_status: 404, limit: 1}\n", []string{"passthrough.limit: changes a list; with if_status the rule rewords an answer of status 404"}},
		{"declared status worded against its schema", head + "  - match: {path: \"/person/{person_id}\"}\n    passthrough: {if_status: 422, set: {detail: no}}\n", []string{"passthrough.set.detail: "}},
		{"generate without one operation", head + "  - respond: {status: 200, generate: {count: 3}}\n", []string{"respond.generate: needs a rule for one operation"}},
		{"bad duration", head + "  - delay: soon\n    passthrough: true\n", []string{`delay: want a duration such as 250ms or 2s, got "soon"`}},
		{"range upside down", head + "  - delay: {min: 2s, max: 1s}\n    passthrough: true\n", []string{"delay.max: 1s is less than min 2s"}},
		{"delay too long", head + "  - delay: 1h\n    passthrough: true\n", []string{"delay: 1h0m0s is longer than the limit of 10m0s"}},
		{"unknown fault", head + "  - fault: explode\n", []string{`fault: unknown fault "explode" (one of reset, empty, malformed, truncate, trickle, hang, crash)`}},
		{"fault option of another kind", head + "  - fault: {kind: reset, chunk: 3}\n", []string{"fault.chunk: does not apply to fault reset"}},
		{"reset with a response", head + "  - fault: reset\n    respond: {status: 404, body: {detail: x}}\n", []string{"fault: fault reset sends no answer: drop respond/passthrough"}},
		{"times 0", head + "  - times: 0\n    passthrough: true\n", []string{"times: 0 is out of range 1–1073741824"}},
		{"times not a number", head + "  - times: many\n    passthrough: true\n", []string{`times: want a whole number, got "many"`}},
		{"state never entered", head + "  - match: {state: done}\n    passthrough: true\n", []string{`f.yaml:4: scenario "s": rule 1: match.state: state "done" is never entered`}},
		{"header moviemock sets", head + "  - respond: {status: 404, headers: {Content-Length: 3}, body: {detail: x}}\n", []string{"respond.headers.Content-Length: moviemock sets Content-Length itself"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := load(t, map[string]string{"f.yaml": tc.text})
			var errs *scenarios.Errors
			if !errors.As(err, &errs) {
				t.Fatalf("want *scenarios.Errors, got %v", err)
			}
			msg := err.Error()
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message lacks %q:\n%s", w, msg)
				}
			}
		})
	}
}

// One run reports every problem of every file, and two scenarios may not
// share a name.
func TestLoadReportsEveryProblem(t *testing.T) {
	_, err := load(t, map[string]string{
		"a.yaml": head + "  - fault: nope\n  - times: -1\n    passthrough: true\n",
		"b.yaml": head + "  - passthrough: true\n",
		"c.yaml": "name: other\ndescription: d\nrules: [{delay: x, passthrough: true}]\n",
	})
	var errs *scenarios.Errors
	if !errors.As(err, &errs) {
		t.Fatal(err)
	}
	var got []string
	for _, p := range errs.Items {
		got = append(got, p.File+":"+p.Field)
	}
	want := "dir/a.yaml:fault dir/a.yaml:times dir/b.yaml:name dir/c.yaml:delay"
	if strings.Join(got, " ") != want {
		t.Errorf("problems %v, want %s\n%v", got, want, err)
	}
}

// The problems of a file are listed in line order, whichever check found
// them first, and a key given at a rule's level that belongs under its
// answer says where it nests.
func TestLoadListsProblemsInLineOrder(t *testing.T) {
	_, err := load(t, map[string]string{
		"a.yaml": head + "  - match: {method: GET, path: /nowhere}\n    passthrough: true\n    set: {name: x}\n  - match: {method: BREW, path: /reviews}\n    respond: {status: 99}\n",
	})
	var errs *scenarios.Errors
	if !errors.As(err, &errs) {
		t.Fatal(err)
	}
	msg := err.Error()
	var lines []int
	for _, p := range errs.Items {
		lines = append(lines, p.Line)
	}
	if !slices.IsSorted(lines) || len(lines) < 3 {
		t.Errorf("lines %v, want three or more in order:\n%s", lines, msg)
	}
	if !strings.Contains(msg, "set nests under passthrough:") {
		t.Errorf("no hint that set nests under passthrough:\n%s", msg)
	}
}

// off_spec lets a rule break the contract on purpose; the same rule without
// it is refused (above).
func TestOffSpecAllowsBreakingTheContract(t *testing.T) {
	set, err := load(t, map[string]string{"f.yaml": head + "  - match: {path: /movies}\n    off_spec: true\n    respond: {status: 429, raw: slow down}\n"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := set.Get("s"); !ok {
		t.Fatal("not loaded")
	}
}

// A folder's scenario replaces a shipped one of the same name.
func TestLaterSourceOverrides(t *testing.T) {
	set := withFiles(t, map[string]string{"mine.yaml": "name: empty-catalog\ndescription: mine\nrules: [{passthrough: true}]\n"})
	sc, _ := set.Get("empty-catalog")
	if sc.Description != "mine" || sc.File != "test/mine.yaml" {
		t.Errorf("got %s from %s", sc.Description, sc.File)
	}
}

func FuzzLoadScenario(f *testing.F) {
	for _, seed := range []string{
		head + "  - match: {method: GET, path: \"/person/{person_id}\", params: {person_id: 3}}\n    passthrough: {set: {name: X}}\n",
		head + "  - every: 3\n    fault: {kind: trickle, chunk: 4, interval: 1ms}\n",
		head + "  - match: {path: /auth/login, form: {username: {matches: ^a}}, state: [start]}\n    times: 2\n    respond: {status: 401, headers: {WWW-Authenticate: Bearer}, body: {detail: x}}\n    then: two\n",
		head + "  - match: {path: /reviews}\n    respond: {status: 200, generate: {count: 2, seed: 3}}\n",
		head + "  - delay: {min: 1ms, max: 2ms}\n    respond: {status: 200, fixture: reviews, set: {content: x}}\n",
		"name: &a x\ndescription: *a\nrules: [*a]\n",
		"- [\n",
	} {
		f.Add(seed)
	}
	sp, data := embedded(f), defaultData(f)
	f.Fuzz(func(t *testing.T, text string) {
		fsys := fstest.MapFS{"f.yaml": &fstest.MapFile{Data: []byte(text)}}
		set, err := scenarios.Load(sp, data, scenarios.Source{FS: fsys, Name: "fuzz"})
		if err == nil {
			if len(set.Scenarios()) != 1 {
				t.Fatalf("loaded %d scenarios from one file", len(set.Scenarios()))
			}
			return
		}
		var errs *scenarios.Errors
		if !errors.As(err, &errs) {
			t.Fatalf("not a list of problems: %v", err)
		}
		for _, p := range errs.Items {
			if p.File != "fuzz/f.yaml" || p.Reason == "" {
				t.Fatalf("problem without place or reason: %#v", p)
			}
		}
	})
}

// A contract the mock cannot serve as FastAPI would is refused, under a
// strict model (--strict), naming the contract, not the scenarios, which
// are not at fault. Otherwise the construct is degraded: the scenarios
// load, and the model lists what is not enforced.
func TestLoadBlamesTheContract(t *testing.T) {
	t.Parallel()
	doc := `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/x":{"post":{"operationId":"x",
		"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/M"}}}},
		"responses":{"200":{"description":"ok"},"422":{"description":"invalid"}}}}},
		"components":{"schemas":{"M":{"type":"object","properties":{"f":{"not":{"type":"string"}}}}}}}`
	for _, strict := range []bool{true, false} {
		t.Run(fmt.Sprintf("strict=%v", strict), func(t *testing.T) {
			t.Parallel()
			sp, err := spec.Load([]byte(doc), "unsupported.json")
			if err != nil {
				t.Fatal(err)
			}
			m, err := model.Compile(sp, model.WithStrict(strict))
			if err != nil {
				t.Fatal(err)
			}
			data, err := fixtures.LoadDefault(m)
			if err != nil {
				t.Fatal(err)
			}
			_, err = scenarios.Load(sp, data, scenarios.ShippedFor(sp))
			if !strict {
				want := `POST /x: M.f: keyword "not" is not enforced (not implemented)` // model.Degraded
				if err != nil || !slices.Contains(m.Degraded(), want) {
					t.Fatalf("err = %v, degraded = %q; want no error and %q", err, m.Degraded(), want)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), "contract unsupported.json: POST /x: ") || strings.Contains(err.Error(), "scenario") {
				t.Fatalf("err = %v, want one blaming the contract unsupported.json and its operation POST /x", err)
			}
		})
	}
}
