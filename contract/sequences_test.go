package contract_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/reference"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// sequenceChecks are the checks stateful sequences give verdicts for.
var sequenceChecks = []string{"stateful_create_read", "stateful_update", "stateful_delete", "registration_login", "paging_and_filters"}

// contractSpec loads testdata/contracts/<app>/openapi.json.
func contractSpec(t testing.TB, app string) (*spec.Spec, string) {
	t.Helper()
	dir := filepath.Join("..", "testdata", "contracts", app)
	data, err := os.ReadFile(filepath.Join(dir, "openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(data, filepath.Join(dir, "openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	return sp, dir
}

// contractMock is a fresh mock of testdata/contracts/<app> with its
// fixtures; now, when set, is its clock.
func contractMock(t testing.TB, app string, now func() time.Time) (http.Handler, *spec.Spec) {
	t.Helper()
	sp, dir := contractSpec(t, app)
	m, err := model.Compile(sp)
	if err != nil {
		t.Fatal(err)
	}
	d, err := fixtures.LoadDir(filepath.Join(dir, "fixtures"), m)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mock.New(mock.Config{Spec: sp, Model: m, Data: d, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	return srv, sp
}

func credentials(app string) (string, string) {
	if app == reference.AppMovies || app == reference.AppMovies2 {
		return "alice", "wonderland"
	}
	return "", ""
}

// runSequences runs only the sequence checks against baseURL.
func runSequences(t testing.TB, baseURL string, sp *spec.Spec, app string, noWrites bool) *contract.Report {
	t.Helper()
	user, pass := credentials(app)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	report, err := contract.Run(ctx, contract.Config{MaxResponseTime: slowOK,
		BaseURL: baseURL, Spec: sp, Username: user, Password: pass,
		Checks: sequenceChecks, Examples: 1, NoWrites: noWrites,
	})
	if err != nil {
		t.Fatal(err)
	}
	return report
}

func applied(r *contract.Report) map[string]int {
	out := map[string]int{}
	for _, t := range r.ByCheck() {
		out[t.Name] = t.Passed + t.Failed
	}
	return out
}

// wantApplied: the sequence checks the contract has operations for.
func wantApplied(app string) []string {
	if app == reference.AppMovies || app == reference.AppMovies2 {
		return sequenceChecks
	}
	return slices.DeleteFunc(slices.Clone(sequenceChecks), func(s string) bool { return s == "registration_login" })
}

func assertClean(t *testing.T, app string, report *contract.Report) {
	t.Helper()
	if f := failed(report); len(f) > 0 {
		t.Errorf("%d failures on a correct target:\n%s", len(f), strings.Join(f, "\n"))
	}
	got := applied(report)
	for _, name := range wantApplied(app) {
		if got[name] == 0 {
			t.Errorf("check %s never applied: %v", name, got)
		}
	}
	steps := 0
	for _, res := range report.Results {
		if res.Case.Kind == contract.Sequence {
			steps++
		}
	}
	if steps < 20 {
		t.Errorf("only %d sequence steps", steps)
	}
}

// Correct targets, the mock and the reference FastAPI backends, pass every
// sequence, twice in a row (a second run finds its own leftovers gone and
// registers a fresh account).
func TestSequencesPassOnCorrectTargets(t *testing.T) {
	t.Parallel()
	for _, app := range reference.ContractApps() {
		t.Run("mock/"+app, func(t *testing.T) {
			t.Parallel()
			h, sp := contractMock(t, app, nil)
			ts := httptest.NewServer(h)
			defer ts.Close()
			for range 2 {
				assertClean(t, app, runSequences(t, ts.URL, sp, app, false))
			}
		})
		t.Run("reference/"+app, func(t *testing.T) {
			t.Parallel()
			b := reference.Start(t, reference.Options{App: app})
			sp, _ := contractSpec(t, app)
			for range 2 {
				assertClean(t, app, runSequences(t, b.URL, sp, app, false))
			}
		})
	}
}

// With NoWrites, only reads (and logins) are sent; paging and filters are
// still checked.
func TestSequencesNoWrites(t *testing.T) {
	t.Parallel()
	for _, app := range reference.ContractApps() {
		h, sp := contractMock(t, app, nil)
		ts := httptest.NewServer(h)
		defer ts.Close()
		report := runSequences(t, ts.URL, sp, app, true)
		for _, res := range report.Results {
			if res.Case.Kind == contract.Sequence && res.Case.Method != "GET" && !strings.Contains(res.Case.Path, "login") {
				t.Errorf("%s: a write with NoWrites: %s %s", app, res.Case.Method, res.Case.Request.URL)
			}
		}
		if f := failed(report); len(f) > 0 {
			t.Errorf("%s: failures: %v", app, f)
		}
		if applied(report)["paging_and_filters"] == 0 {
			t.Errorf("%s: paging_and_filters never applied", app)
		}
	}
}

// Every record the sequences create is deleted by the end of the run.
func TestSequencesCleanUp(t *testing.T) {
	t.Parallel()
	h, sp := contractMock(t, reference.AppTasks, nil)
	ts := httptest.NewServer(h)
	defer ts.Close()
	report := runSequences(t, ts.URL, sp, reference.AppTasks, false)
	var created []string
	uuid := regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	for _, res := range report.Results {
		// Writes name the records created: the one changed or deleted, the
		// parent a task is created under.
		if res.Case.Kind == contract.Sequence && res.Case.Method != "GET" {
			path := strings.SplitN(strings.TrimPrefix(res.Case.Request.URL, ts.URL), "?", 2)[0]
			for _, id := range uuid.FindAllString(path, -1) {
				if !slices.Contains(created, id) {
					created = append(created, id)
				}
			}
		}
	}
	if len(created) < 3 { // a project, a task, the project it is under
		t.Fatalf("only %d records created: %v", len(created), created)
	}
	var lists []string
	for _, path := range []string{"/projects?size=100", "/tasks?limit=100"} {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		lists = append(lists, string(body))
	}
	for _, id := range created {
		if strings.Contains(strings.Join(lists, ""), id) {
			t.Errorf("record %s the sequences created is still listed", id)
		}
	}
}

// brokenMock wraps the mock so that requests match selects are answered
// by serve (which may call the mock itself).
func brokenMock(next http.Handler, method, pathRe string, serve func(w http.ResponseWriter, r *http.Request, next http.Handler)) http.Handler {
	rx := regexp.MustCompile("^" + pathRe + "$")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == method && rx.MatchString(r.URL.Path) {
			serve(w, r, next)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// answer relays a recorded answer with a changed status.
func answer(w http.ResponseWriter, rec *httptest.ResponseRecorder, status int) {
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(status)
	w.Write(rec.Body.Bytes())
}

// withBody sends r on with another JSON body.
func withBody(r *http.Request, edit func(map[string]any)) *http.Request {
	data, _ := io.ReadAll(r.Body)
	var body map[string]any
	if json.Unmarshal(data, &body) != nil || body == nil {
		r.Body = io.NopCloser(bytes.NewReader(data))
		return r
	}
	edit(body)
	data, _ = json.Marshal(body)
	r2 := r.Clone(r.Context())
	r2.Body = io.NopCloser(bytes.NewReader(data))
	r2.ContentLength = int64(len(data))
	r2.Header.Set("Content-Length", strconv.Itoa(len(data)))
	return r2
}

// Each broken target breaks one stateful behaviour; the check named for
// it must fail, on a step of the operation that broke.
func TestSequencesCatchBrokenTargets(t *testing.T) {
	t.Parallel()
	// A clock that writes fractions of a second: the runner does not wait
	// for a coarse clock to tick.
	frozen := time.Date(2025, 6, 1, 12, 0, 0, 123456000, time.UTC)
	for _, tc := range []struct {
		name, app, check, operation string
		now                         func() time.Time
		wrap                        func(http.Handler) http.Handler
	}{
		{"delete answers 204 but keeps the record", reference.AppMovies, "stateful_delete", "getMovie", nil,
			func(h http.Handler) http.Handler {
				return brokenMock(h, "DELETE", `/movies/[^/]+`, func(w http.ResponseWriter, r *http.Request, _ http.Handler) {
					w.WriteHeader(http.StatusNoContent)
				})
			}},
		{"a PATCH nulls the fields not sent", reference.AppMovies, "stateful_update", "updateMovie", nil,
			func(h http.Handler) http.Handler {
				return brokenMock(h, "PATCH", `/movies/[^/]+`, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
					next.ServeHTTP(w, withBody(r, func(b map[string]any) {
						for _, k := range []string{"original_title", "overview", "runtime", "poster"} {
							if _, sent := b[k]; !sent {
								b[k] = nil
							}
						}
					}))
				})
			}},
		{"a create answers 200 instead of 201", reference.AppMovies, "stateful_create_read", "createMovie", nil,
			func(h http.Handler) http.Handler {
				return brokenMock(h, "POST", `/movies`, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
					rec := httptest.NewRecorder()
					next.ServeHTTP(rec, r)
					status := rec.Code
					if status == http.StatusCreated {
						status = http.StatusOK
					}
					answer(w, rec, status)
				})
			}},
		{"a list ignores limit", reference.AppMovies, "paging_and_filters", "listMovies", nil,
			func(h http.Handler) http.Handler {
				return brokenMock(h, "GET", `/movies`, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
					r2 := r.Clone(r.Context())
					q := r2.URL.Query()
					q.Del("limit")
					q.Del("skip")
					r2.URL.RawQuery = q.Encode()
					next.ServeHTTP(w, r2)
				})
			}},
		{"a filter is ignored", reference.AppTasks, "paging_and_filters", "list_tasks_tasks_get", nil,
			func(h http.Handler) http.Handler {
				return brokenMock(h, "GET", `/tasks`, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
					r2 := r.Clone(r.Context())
					q := r2.URL.Query()
					q.Del("priority")
					r2.URL.RawQuery = q.Encode()
					next.ServeHTTP(w, r2)
				})
			}},
		{"updated_at does not move", reference.AppTasks, "stateful_update", "update_project_projects__project_id__patch",
			func() time.Time { return frozen }, nil},
		{"the registered account cannot log in", reference.AppMovies, "registration_login", "login", nil,
			func(h http.Handler) http.Handler {
				return brokenMock(h, "POST", `/users`, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
					// Answers as if registered, but stores a different password.
					next.ServeHTTP(w, withBody(r, func(b map[string]any) { b["password"] = "not-what-was-sent" }))
				})
			}},
		{"a deleted record stays listed", reference.AppTasks, "stateful_delete", "list_tasks_tasks_get", nil,
			func(h http.Handler) http.Handler {
				var mu sync.Mutex
				var kept []json.RawMessage
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					switch {
					case r.Method == "DELETE" && strings.HasPrefix(r.URL.Path, "/tasks/"):
						read := httptest.NewRecorder()
						get := r.Clone(r.Context())
						get.Method, get.Body, get.ContentLength = "GET", http.NoBody, 0
						h.ServeHTTP(read, get)
						if read.Code == http.StatusOK {
							mu.Lock()
							kept = append(kept, read.Body.Bytes())
							mu.Unlock()
						}
					case r.Method == "GET" && r.URL.Path == "/tasks":
						rec := httptest.NewRecorder()
						h.ServeHTTP(rec, r)
						var items []json.RawMessage
						if json.Unmarshal(rec.Body.Bytes(), &items) == nil {
							mu.Lock()
							items = append(items, kept...)
							mu.Unlock()
							body, _ := json.Marshal(items)
							rec.Body = bytes.NewBuffer(body)
							rec.Header().Set("Content-Length", strconv.Itoa(len(body)))
						}
						answer(w, rec, rec.Code)
						return
					}
					h.ServeHTTP(w, r)
				})
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, sp := contractMock(t, tc.app, tc.now)
			if tc.wrap != nil {
				h = tc.wrap(h)
			}
			ts := httptest.NewServer(h)
			defer ts.Close()
			report := runSequences(t, ts.URL, sp, tc.app, false)
			var hits []string
			for _, res := range report.Results {
				for _, c := range res.Checks {
					if !c.Passed && c.Check == tc.check && res.Case.Operation == tc.operation {
						hits = append(hits, res.Case.Name+": "+c.Got)
					}
				}
			}
			if len(hits) == 0 {
				t.Errorf("no %s failure on %s; failures: %v", tc.check, tc.operation, failed(report))
			} else {
				t.Logf("caught: %s", hits[0])
			}
		})
	}
}

// A record the target creates with a key its read's path parameter
// refuses (springdoc's petstore: an order id of 4324 where GET
// /store/order/{orderId} takes 1 to 5) cannot be read by it: the 400 the
// document asks for says nothing of the record, so the read-back is not
// sent, and nothing fails on a correct backend.
func TestSequencesSkipAKeyTheReadRefuses(t *testing.T) {
	t.Parallel()
	param := func(extra string) string {
		return `"parameters":[{"name":"orderId","in":"path","required":true,"schema":{"type":"integer"` + extra + `}}]`
	}
	one := `"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Order"}}}`
	doc := `{"openapi":"3.0.1","info":{"title":"x","version":"1"},"paths":{
"/orders":{"post":{"requestBody":{"required":true,` + one + `},"responses":{"200":{"description":"ok",` + one + `},"400":{"description":"bad"}}}},
"/orders/{orderId}":{"get":{` + param(`,"minimum":1,"maximum":5`) + `,"responses":{"200":{"description":"ok",` + one + `},"400":{"description":"bad"},"404":{"description":"none"}}},
  "delete":{` + param("") + `,"responses":{"200":{"description":"ok"},"400":{"description":"bad"},"404":{"description":"none"}}}}},
"components":{"schemas":{"Order":{"type":"object","properties":{"id":{"type":"integer","format":"int64"},"quantity":{"type":"integer"}}}}}}`
	sp, err := spec.Load([]byte(doc), "orders.json")
	if err != nil {
		t.Fatal(err)
	}
	// The backend: every order it creates is 4324; its read refuses an id
	// beyond 5 as the document says, before looking anything up.
	var mu sync.Mutex
	orders := map[string]bool{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		id := strings.TrimPrefix(r.URL.Path, "/orders/")
		n, err := strconv.Atoi(id)
		switch {
		case r.Method == "POST" && r.URL.Path == "/orders":
			var o struct{ Quantity int }
			json.NewDecoder(r.Body).Decode(&o)
			orders["4324"] = true
			fmt.Fprintf(w, `{"id":4324,"quantity":%d}`, o.Quantity)
		case r.URL.Path == "/orders" || err != nil || (r.Method == "GET" && (n < 1 || n > 5)):
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{}`)
		case !orders[id]:
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{}`)
		case r.Method == "DELETE":
			delete(orders, id)
		default:
			io.WriteString(w, `{"id":`+id+`}`)
		}
	}))
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	report, err := contract.Run(ctx, contract.Config{MaxResponseTime: slowOK, BaseURL: ts.URL, Spec: sp,
		Checks: []string{"stateful_create_read", "stateful_delete", "positive_data_acceptance", "unknown_id_not_found"}})
	if err != nil {
		t.Fatal(err)
	}
	if f := failed(report); len(f) > 0 {
		t.Errorf("%d failures on a correct target:\n%s", len(f), strings.Join(f, "\n"))
	}
	skipped := 0
	for _, res := range report.Results {
		if res.Case.Kind == contract.Sequence && strings.Contains(res.Response.Skipped, `orderId "4324"`) {
			skipped++
		}
	}
	if skipped == 0 {
		t.Error("no read of order 4324 said why it was not sent")
	}
}
