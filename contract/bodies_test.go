package contract_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// grownMock serves one of the grown contracts (movies, tasks) with its
// fixtures, as `moviemock serve --spec … --fixtures …` does.
func grownMock(t testing.TB, name string) (*spec.Spec, http.Handler) {
	t.Helper()
	h, sp := contractMock(t, name, nil)
	return sp, h
}

// The runner drives JSON bodies, auth and ids of any contract: against the
// mock of the grown contracts, every operation has a positive case and no
// check fails.
func TestGrownContractsPass(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"movies", "tasks"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sp, h := grownMock(t, name)
			report := run(t, h, contract.Config{Spec: sp, Username: "alice", Password: "wonderland", Examples: 20})
			if f := failed(report); len(f) > 0 {
				t.Errorf("%d failures on a correct server:\n%s", len(f), strings.Join(f, "\n"))
			}
			for _, n := range report.Notes {
				if strings.Contains(n, "no positive case") || strings.Contains(n, "not tested") {
					t.Errorf("note: %s", n)
				}
			}
			kinds := map[contract.Kind]int{}
			bodies := 0
			for _, res := range report.Results {
				kinds[res.Case.Kind]++
				if res.Case.Kind == contract.Negative && strings.HasPrefix(res.Case.Name, "body: ") {
					bodies++
				}
			}
			if bodies < 20 {
				t.Errorf("only %d negative body cases", bodies)
			}
			if name == "movies" && kinds[contract.Unauthenticated] == 0 {
				t.Errorf("no unauthenticated case: %v", kinds)
			}
			// Coverage: one entry per operation of the contract, each
			// with the cases and the sequence steps that drove it, and
			// every write's 422 seen.
			if n := len(sp.Doc.Paths.Map()); len(report.Coverage) < n {
				t.Errorf("coverage of %d operations for %d paths", len(report.Coverage), n)
			}
			seen := map[string]bool{}
			for _, c := range report.Coverage {
				if key := c.Method + " " + c.Path; seen[key] {
					t.Errorf("coverage lists %s twice", key)
				} else {
					seen[key] = true
				}
				if c.Kinds[contract.Sequence] > 0 && c.Kinds[contract.Positive]+c.Kinds[contract.Negative] == 0 {
					t.Errorf("coverage of %s counts only sequence steps: %v", c.Operation, c.Kinds)
				}
				if c.Method == "POST" && slices.Contains(c.Declared, "422") && !slices.Contains(c.Seen, "422") {
					t.Errorf("coverage of %s: 422 never seen (%v), though its negative cases ran: %v", c.Operation, c.Seen, c.Kinds)
				}
			}
		})
	}
}

// A server that accepts an invalid body fails negative_data_rejection.
func TestInvalidBodyAccepted(t *testing.T) {
	t.Parallel()
	sp, h := grownMock(t, "tasks")
	broken := rewrite(func(r *http.Request) bool { return r.Method == "POST" && r.URL.Path == "/projects" },
		func(_ *http.Request, status *int, h http.Header, b []byte) []byte {
			if *status == http.StatusUnprocessableEntity {
				*status = http.StatusOK
				h.Set("Content-Type", "application/json")
				return []byte(`{"detail":"fine"}`)
			}
			return b
		})(h)
	report := run(t, broken, contract.Config{Spec: sp})
	found := false
	for _, f := range failed(report) {
		if strings.HasPrefix(f, "negative_data_rejection: ") && strings.Contains(f, `"body: `) {
			found = true
		}
	}
	if !found {
		t.Errorf("no negative body case failed:\n%s", strings.Join(failed(report), "\n"))
	}
}

// Records requests, and the ids of the records each POST created.
type recorder struct {
	mu      sync.Mutex
	next    http.Handler
	unsafe  []string // "METHOD /path"
	created map[string]bool
}

func (rc *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := httptest.NewRecorder()
	rc.next.ServeHTTP(rec, r)
	rc.mu.Lock()
	switch r.Method {
	case "PUT", "PATCH", "DELETE":
		rc.unsafe = append(rc.unsafe, r.Method+" "+r.URL.Path)
	case "POST":
		var body struct {
			ID any `json:"id"`
		}
		if rec.Code/100 == 2 && json.Unmarshal(rec.Body.Bytes(), &body) == nil && body.ID != nil {
			rc.created[strings.Trim(string(mustJSON(body.ID)), `"`)] = true
		}
	}
	rc.mu.Unlock()
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	w.Write(rec.Body.Bytes())
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// No PUT, PATCH or DELETE targets a record the runner did not create, and
// every record it created and could delete is gone at the end.
func TestWritesOnlyOwnRecords(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"movies", "tasks"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sp, h := grownMock(t, name)
			rc := &recorder{next: h, created: map[string]bool{}}
			ts := httptest.NewServer(rc)
			defer ts.Close()
			lists := []string{"/movies?limit=100", "/reviews?limit=100"}
			if name == "tasks" {
				lists = []string{"/projects?size=100", "/tasks?limit=100"}
			}
			snapshot := func() string {
				var sb strings.Builder
				for _, l := range lists {
					resp, err := http.Get(ts.URL + l)
					if err != nil {
						t.Fatal(err)
					}
					var v any
					json.NewDecoder(resp.Body).Decode(&v)
					resp.Body.Close()
					sb.Write(mustJSON(v))
				}
				return sb.String()
			}
			before := snapshot()
			report := run(t, rc, contract.Config{Spec: sp, Username: "alice", Password: "wonderland", Examples: 30, Seed: 3})
			if f := failed(report); len(f) > 0 {
				t.Errorf("%d failures:\n%s", len(f), strings.Join(f, "\n"))
			}
			idSeg := regexp.MustCompile(`^/(movies|reviews|projects|tasks)/([^/]+)$`)
			writes := 0
			for _, u := range rc.unsafe {
				m := idSeg.FindStringSubmatch(strings.SplitN(u, " ", 2)[1])
				if m == nil {
					t.Errorf("%s: not a record path", u)
					continue
				}
				writes++
				if !rc.created[m[2]] && strings.Contains(before, `"id":`+string(mustJSON(m[2]))) {
					t.Errorf("%s targets a record the runner did not create", u)
				}
			}
			if writes == 0 {
				t.Error("no PUT, PATCH or DELETE sent")
			}
			if after := snapshot(); after != before {
				t.Errorf("the run left the data changed:\nbefore %.300s\nafter  %.300s", before, after)
			}
		})
	}
}

// NoWrites sends no POST, PUT, PATCH or DELETE but the login.
func TestNoWrites(t *testing.T) {
	t.Parallel()
	sp, h := grownMock(t, "movies")
	var mu sync.Mutex
	var writes []string
	spy := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != "GET" && r.URL.Path != "/auth/login" {
			mu.Lock()
			writes = append(writes, r.Method+" "+r.URL.Path)
			mu.Unlock()
		}
		h.ServeHTTP(w, r)
	})
	report := run(t, spy, contract.Config{Spec: sp, Username: "alice", Password: "wonderland", NoWrites: true})
	if len(writes) > 0 {
		t.Errorf("NoWrites sent %d writes: %v", len(writes), writes[:min(5, len(writes))])
	}
	if f := failed(report); len(f) > 0 {
		t.Errorf("%d failures:\n%s", len(f), strings.Join(f, "\n"))
	}
}

// An unknown id satisfies its parameter's schema (here a pattern and a
// uuid), so a correct server answers it with 404, not 422.
func TestUnknownIDsMatchTheSchema(t *testing.T) {
	t.Parallel()
	doc := `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{
	"/things/{thing_id}":{"get":{"operationId":"getThing","parameters":[{"name":"thing_id","in":"path","required":true,"schema":{"type":"string","pattern":"^tt[0-9]{7}$"}}],
		"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"object"}}}},"404":{"description":"nf"}}}},
	"/uuids/{uuid_id}":{"get":{"operationId":"getUUID","parameters":[{"name":"uuid_id","in":"path","required":true,"schema":{"type":"string","format":"uuid"}}],
		"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"object"}}}},"404":{"description":"nf"}}}}}}`
	sp, err := spec.Load([]byte(doc), "things.json")
	if err != nil {
		t.Fatal(err)
	}
	thing := regexp.MustCompile(`^/things/tt[0-9]{7}$`)
	uuid := regexp.MustCompile(`^/uuids/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if !thing.MatchString(r.URL.Path) && !uuid.MatchString(r.URL.Path) {
			w.WriteHeader(http.StatusUnprocessableEntity)
			w.Write([]byte(`{"detail":[{"type":"string_pattern_mismatch","loc":["path","x"],"msg":"no","input":"x"}]}`))
			return
		}
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"detail":"Not Found"}`))
	})
	report := run(t, h, contract.Config{Spec: sp})
	n := 0
	for _, res := range report.Results {
		if res.Case.Kind == contract.UnknownID {
			n++
			if res.Response.Status != http.StatusNotFound {
				t.Errorf("%s %s: %d", res.Case.Request.Method, res.Case.Request.URL, res.Response.Status)
			}
		}
	}
	if n != 2 {
		t.Errorf("%d unknown-id cases, want 2", n)
	}
}

// Bodies that are not models (list[int], dict[int, float], list[Item], an
// int) and bodies FastAPI does not read (openapi_extra: application/x-yaml,
// and application/json on an operation without 422), in the document the
// FastAPI app testdata/bodies_app.py serves: every operation is tested, a
// correct server (the mock) fails no check, bodies that are not models get
// negative cases naming the item or value, a dict's keys are ones any key
// type accepts, and a body FastAPI does not read is sent in its media type
// and never expected to be refused.
func TestBodiesThatAreNotModels(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/bodies_openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(data, "bodies_openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: sp})
	if err != nil {
		t.Fatal(err)
	}
	report := run(t, srv, contract.Config{Spec: sp, Examples: 20})
	if f := failed(report); len(f) > 0 {
		t.Errorf("%d failures on a correct server:\n%s", len(f), strings.Join(f, "\n"))
	}
	for _, n := range report.Notes {
		t.Errorf("note: %s", n)
	}
	positive, fields := map[string]int{}, map[string][]string{}
	digits := regexp.MustCompile(`^[0-9]+$`)
	for _, res := range report.Results {
		c := res.Case
		if c.Kind == contract.Positive {
			positive[c.Path]++
		}
		if c.Kind == contract.Negative && c.Field != nil {
			fields[c.Path] = append(fields[c.Path], string(mustJSON(c.Field)))
		}
		ct := c.Request.Header.Get("Content-Type")
		switch c.Path {
		case "/yaml", "/raw":
			want := map[string]string{"/yaml": "application/x-yaml", "/raw": "application/json"}[c.Path]
			if ct != want || c.Request.Body == "" || c.Expect == contract.ExpectRejection {
				t.Errorf("%s %q: Content-Type %q, body %q, expect %s: want a body sent as %s, never expected refused", c.Path, c.Name, ct, c.Request.Body, c.Expect, want)
			}
		case "/weights":
			var m map[string]any
			if c.Kind != contract.Negative && json.Unmarshal([]byte(c.Request.Body), &m) == nil {
				for k := range m {
					if !digits.MatchString(k) {
						t.Errorf("/weights %q sends key %q, which dict[int, float] refuses", c.Name, k)
					}
				}
			}
		}
	}
	for _, path := range []string{"/sum", "/weights", "/items", "/count", "/yaml", "/raw"} {
		if positive[path] == 0 {
			t.Errorf("%s: no positive case", path)
		}
	}
	for path, want := range map[string]string{"/sum": `["body",0]`, "/weights": `["body","1"]`, "/items": `["body",0,"name"]`, "/count": `["body"]`} {
		if !slices.Contains(fields[path], want) {
			t.Errorf("%s: no negative case naming %s (%v)", path, want, fields[path])
		}
	}
}

// A field written as type: object beside an allOf of a model (how
// @nestjs/swagger writes a nullable reference) is that model, not a dict
// whose keys are free: the runner keeps the model's keys, so a body, or
// a form, with the field required is one it can build.
func TestObjectBesideAllOfKeepsItsKeys(t *testing.T) {
	t.Parallel()
	const doc = `openapi: 3.0.3
info: {title: cats, version: "1"}
components:
  schemas:
    Tag:
      type: object
      required: [name]
      properties:
        name: {type: string}
    NewCat:
      type: object
      required: [name, tag]
      properties:
        name: {type: string}
        tag: {nullable: true, type: object, allOf: [{$ref: "#/components/schemas/Tag"}]}
paths:
  /cats:
    post:
      operationId: createCat
      requestBody: {required: true, content: {application/json: {schema: {$ref: "#/components/schemas/NewCat"}}}}
      responses:
        "201": {description: created}
  /cats/form:
    post:
      operationId: createCatAsForm
      requestBody: {required: true, content: {application/x-www-form-urlencoded: {schema: {$ref: "#/components/schemas/NewCat"}}}}
      responses:
        "201": {description: created}
`
	report := runOnMock(t, doc, "cats.yaml", contract.Config{})
	testsEveryOperation(t, report)
	for _, res := range report.Results {
		if res.Case.Kind == contract.Positive && strings.Contains(res.Case.Request.Body, `"1"`) {
			t.Errorf("%s %q sends a made-up key for the tag's: %s", res.Case.Path, res.Case.Name, res.Case.Request.Body)
		}
	}
}
