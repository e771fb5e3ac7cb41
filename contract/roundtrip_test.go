package contract_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/spec"
)

// todoBackend is a small todo list API (testdata/todo_openapi.json: the
// todo part of a FastAPI app) with one way of going wrong, or none.
type todoBackend struct {
	todoFaults
	mu    sync.Mutex
	next  int
	items map[int]map[string]any
}

// todoFaults are the ways a todoBackend can go wrong.
type todoFaults struct {
	// putIgnoresBody: PUT answers the stored item, unchanged.
	putIgnoresBody bool
	// patchResetsUnset: PATCH without is_done sets it back to false.
	patchResetsUnset bool
	// noID: a create answers the item without its id.
	noID bool
	// longMsg500: a create or change with a msg longer than 40 characters
	// is a 500 (a storage limit the document does not state).
	longMsg500 bool
	// closeAfterDelete: the connection is closed after a DELETE's 204,
	// without Connection: close, once the next request has come.
	closeAfterDelete bool
}

func (b *todoBackend) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	defer b.mu.Unlock()
	answer := func(status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(v)
	}
	invalid := func() {
		answer(http.StatusUnprocessableEntity, map[string]any{"detail": []any{map[string]any{"type": "value_error", "loc": []any{"body"}, "msg": "invalid", "input": nil}}})
	}
	var body map[string]any
	readBody := func() bool {
		if json.NewDecoder(r.Body).Decode(&body) != nil || body == nil {
			invalid()
			return false
		}
		if m, ok := body["msg"]; ok {
			s, ok := m.(string)
			if !ok || len([]rune(s)) < 3 || len([]rune(s)) > 100 {
				invalid()
				return false
			}
			if b.longMsg500 && len([]rune(s)) > 40 {
				http.Error(w, "Internal Server Error", http.StatusInternalServerError)
				return false
			}
		}
		if d, ok := body["is_done"]; ok {
			if _, ok := d.(bool); !ok && !(d == nil && r.Method == http.MethodPatch) {
				invalid()
				return false
			}
		}
		return true
	}
	path := strings.TrimPrefix(r.URL.Path, "/item")
	if path == "" {
		switch r.Method {
		case http.MethodGet:
			list := []any{}
			for _, id := range slices.Sorted(func(yield func(int) bool) {
				for id := range b.items {
					if !yield(id) {
						return
					}
				}
			}) {
				list = append(list, b.items[id])
			}
			answer(http.StatusOK, list)
		case http.MethodPost:
			if !readBody() {
				return
			}
			if _, ok := body["msg"]; !ok {
				invalid()
				return
			}
			b.next++
			it := map[string]any{"id": b.next, "msg": body["msg"], "is_done": false}
			if d, ok := body["is_done"].(bool); ok {
				it["is_done"] = d
			}
			b.items[b.next] = it
			if b.noID {
				answer(http.StatusCreated, map[string]any{"msg": it["msg"], "is_done": it["is_done"]})
				return
			}
			answer(http.StatusCreated, it)
		default:
			w.Header().Set("Allow", "GET, POST")
			answer(http.StatusMethodNotAllowed, map[string]any{"detail": "Method Not Allowed"})
		}
		return
	}
	id, err := strconv.Atoi(strings.TrimPrefix(path, "/"))
	if err != nil {
		invalid()
		return
	}
	it, ok := b.items[id]
	if !ok && r.Method != http.MethodDelete {
		answer(http.StatusNotFound, map[string]any{"detail": "Not Found"})
		return
	}
	switch r.Method {
	case http.MethodGet:
		answer(http.StatusOK, it)
	case http.MethodPut:
		if !readBody() {
			return
		}
		if _, ok := body["msg"]; !ok {
			invalid()
			return
		}
		if !b.putIgnoresBody {
			it["msg"], it["is_done"] = body["msg"], false
			if d, ok := body["is_done"].(bool); ok {
				it["is_done"] = d
			}
		}
		answer(http.StatusOK, it)
	case http.MethodPatch:
		if !readBody() {
			return
		}
		for k, v := range body {
			if (k == "msg" || k == "is_done") && v != nil {
				it[k] = v
			}
		}
		if _, sent := body["is_done"]; !sent && b.patchResetsUnset {
			it["is_done"] = false
		}
		answer(http.StatusOK, it)
	case http.MethodDelete:
		if !ok {
			answer(http.StatusNotFound, map[string]any{"detail": "Not Found"})
			return
		}
		delete(b.items, id)
		if !b.closeAfterDelete {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		buf.WriteString("HTTP/1.1 204 No Content\r\n\r\n")
		buf.Flush()
		// Close once the client sent its next request on this connection:
		// it then meets the close, every time.
		conn.SetReadDeadline(time.Now().Add(2 * time.Second))
		buf.ReadByte()
		conn.Close()
	default:
		answer(http.StatusMethodNotAllowed, map[string]any{"detail": "Method Not Allowed"})
	}
}

// todoSpec is testdata/todo_openapi.json; with an optional id when noID.
func todoSpec(t *testing.T, noID bool) *spec.Spec {
	t.Helper()
	data, err := os.ReadFile("testdata/todo_openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	if noID {
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		// id: Optional[int] = None, as a model shared by the create's
		// answer and the reads declares it.
		item := doc["components"].(map[string]any)["schemas"].(map[string]any)["TodoItem"].(map[string]any)
		item["required"] = []any{"msg", "is_done"}
		data, _ = json.Marshal(doc)
	}
	sp, err := spec.Load(data, "todo_openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// tallies is each check's passed and failed counts.
func tallies(r *contract.Report) map[string][2]int {
	out := map[string][2]int{}
	for _, tl := range r.ByCheck() {
		out[tl.Name] = [2]int{tl.Passed, tl.Failed}
	}
	return out
}

// TestUpdateRoundTrips: the stateful sequences read back what a replace
// wrote (every field) and what an update did not send (kept), find a
// record whose create answers no id in the lists, get past a create or
// change the server fails with another body, and a server that closes a
// kept-alive connection after an answer costs the next request nothing.
func TestUpdateRoundTrips(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		backend todoFaults
		noID    bool
		// failing are the checks that must fail (and only those, among
		// the sequence checks); stateful_update must have passed steps
		// when it is not among them.
		failing []string
		// got is a part of a failure's "got" that must show.
		got string
	}{
		{name: "correct"},
		{name: "put ignores its body", backend: todoFaults{putIgnoresBody: true}, failing: []string{"stateful_update"}, got: "false"},
		{name: "patch resets what it was not sent", backend: todoFaults{patchResetsUnset: true}, failing: []string{"stateful_update"}, got: "false"},
		{name: "create answers no id", backend: todoFaults{noID: true}, noID: true},
		{name: "connection closed after a delete", backend: todoFaults{closeAfterDelete: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := &todoBackend{todoFaults: tc.backend, items: map[int]map[string]any{}}
			srv := httptest.NewServer(b)
			defer srv.Close()
			report := runTodo(t, srv.URL, todoSpec(t, tc.noID), 1)
			got := tallies(report)
			for _, name := range []string{"stateful_create_read", "stateful_update", "stateful_delete"} {
				want := slices.Contains(tc.failing, name)
				if (got[name][1] > 0) != want {
					t.Errorf("%s: %d passed, %d failed; want failures: %v\n%s", name, got[name][0], got[name][1], want, strings.Join(failed(report), "\n"))
				}
			}
			if !slices.Contains(tc.failing, "stateful_update") && got["stateful_update"][0] == 0 {
				t.Errorf("stateful_update never passed: the round trips did not run\n%v", report.Notes)
			}
			if tc.got != "" && !strings.Contains(strings.Join(failed(report), "\n"), "got "+tc.got) {
				t.Errorf("no failure got %q:\n%s", tc.got, strings.Join(failed(report), "\n"))
			}
			for _, res := range report.Results {
				if res.Response.Error != "" && res.Response.Skipped == "" {
					t.Errorf("%s %s: no answer: %s", res.Case.Method, res.Case.Request.URL, res.Response.Error)
				}
			}
		})
	}
}

// TestUpdateRoundTripsPastServerErrors: a create and an update the server
// fails (500) are reported, and the sequence goes on with another body: the
// replace and the update are still read back.
func TestUpdateRoundTripsPastServerErrors(t *testing.T) {
	t.Parallel()
	for seed := uint64(1); seed <= 30; seed++ {
		b := &todoBackend{todoFaults: todoFaults{longMsg500: true, patchResetsUnset: true}, items: map[int]map[string]any{}}
		srv := httptest.NewServer(b)
		report := runTodo(t, srv.URL, todoSpec(t, false), seed)
		srv.Close()
		first := map[string]*contract.Result{}
		for _, res := range report.Results {
			if res.Case.Kind == contract.Sequence && first[res.Case.Method] == nil {
				first[res.Case.Method] = res
			}
		}
		if first["POST"] == nil || first["POST"].Response.Status != http.StatusInternalServerError {
			continue
		}
		got := tallies(report)
		if got["stateful_create_read"][1] == 0 {
			t.Errorf("seed %d: the create's 500 is not reported", seed)
		}
		if got["stateful_create_read"][0] == 0 {
			t.Errorf("seed %d: no create passed after the 500:\n%s", seed, strings.Join(failed(report), "\n"))
		}
		if !strings.Contains(strings.Join(failed(report), "\n"), "is_done kept (true, not sent)") {
			t.Errorf("seed %d: the update that resets is_done is not caught:\n%s", seed, strings.Join(failed(report), "\n"))
		}
		return
	}
	t.Fatal("no seed in 1..30 made the sequences' first create a 500: the test tests nothing")
}

// runTodo runs the cases and the sequences against a todo backend.
func runTodo(t *testing.T, base string, sp *spec.Spec, seed uint64) *contract.Report {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	report, err := contract.Run(ctx, contract.Config{MaxResponseTime: slowOK, BaseURL: base, Spec: sp, Seed: seed, Examples: 2, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(fmt.Errorf("run against %s: %w", base, err))
	}
	return report
}
