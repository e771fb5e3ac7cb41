package contract_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/spec"
)

// TestProbedIDsNoteNamesEachOnce: the ids the runner tries for a path
// parameter no list names (person_id: the contract's examples, then 1 to
// 5) are tried and listed once each, though an example is one of 1 to 5.
func TestProbedIDsNoteNamesEachOnce(t *testing.T) {
	t.Parallel()
	report := run(t, newMock(t), contract.Config{})
	list := regexp.MustCompile(`found by trying \[([^\]]*)\]`)
	seen := false
	for _, n := range report.Notes {
		m := list.FindStringSubmatch(n)
		if m == nil {
			continue
		}
		seen = true
		ids := strings.Fields(m[1])
		for i, id := range ids {
			for _, other := range ids[:i] {
				if id == other {
					t.Errorf("note names %s twice: %s", id, n)
				}
			}
		}
	}
	if !seen {
		t.Fatalf("no note of probed ids: %q", report.Notes)
	}
}

// Ids belong to a resource, not to a parameter's name: the ids GET
// /products lists are read at /products/{id}, those GET /stores lists at
// /stores/{id}, and a store no list names is found by probing its own
// path. A correct backend whose stores and products have different ids
// gets no 404 to a positive case.
func TestIDsOfOneResourceAreNotAnothers(t *testing.T) {
	t.Parallel()
	id := `"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}]`
	list := func(schema string) string {
		return `"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/` + schema + `"}}}}}}`
	}
	one := func(schema string) string {
		return `"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/` + schema + `"}}}},"404":{"description":"none"}}`
	}
	doc := `{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{
"/products":{"get":{` + list("Product") + `}},
"/products/{id}":{"get":{` + id + `,` + one("Product") + `}},
"/stores":{"get":{` + list("Store") + `}},
"/stores/{id}":{"get":{` + id + `,` + one("Store") + `}},
"/carts/{id}":{"get":{` + id + `,` + one("Cart") + `}}},
"components":{"schemas":{
 "Product":{"type":"object","required":["id","name"],"properties":{"id":{"type":"integer"},"name":{"type":"string"}}},
 "Store":{"type":"object","required":["id","location"],"properties":{"id":{"type":"integer"},"location":{"type":"string"}}},
 "Cart":{"type":"object","required":["id","total"],"properties":{"id":{"type":"integer"},"total":{"type":"integer"}}}}}}`
	sp, err := spec.Load([]byte(doc), "shop.json")
	if err != nil {
		t.Fatal(err)
	}
	products, stores, carts := []int{1, 2, 3}, []int{11, 12}, []int{4}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
		ids := map[string][]int{"products": products, "stores": stores, "carts": carts}[parts[0]]
		field := map[string]string{"products": `"name":"n"`, "stores": `"location":"l"`, "carts": `"total":1`}[parts[0]]
		if len(parts) == 1 {
			var items []string
			for _, n := range ids {
				items = append(items, fmt.Sprintf(`{"id":%d,%s}`, n, field))
			}
			io.WriteString(w, "["+strings.Join(items, ",")+"]")
			return
		}
		n, err := strconv.Atoi(parts[1])
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{}`)
			return
		}
		if !slices.Contains(ids, n) {
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{}`)
			return
		}
		fmt.Fprintf(w, `{"id":%d,%s}`, n, field)
	})
	report := run(t, h, contract.Config{Spec: sp, Checks: []string{"positive_data_acceptance", "unknown_id_not_found"}})
	if f := failed(report); len(f) > 0 {
		t.Errorf("%d failures on a correct target:\n%s", len(f), strings.Join(f, "\n"))
	}
	read := map[string]bool{}
	for _, res := range report.Results {
		if u, err := url.Parse(res.Case.Request.URL); err == nil && res.Case.Kind == contract.Positive && res.Response.Status == http.StatusOK {
			read[u.Path] = true
		}
	}
	for _, want := range []string{"/products/1", "/stores/11", "/carts/4"} {
		if !read[want] {
			t.Errorf("no positive case read %s: %v", want, read)
		}
	}
}

// A query parameter named as a path parameter (Swashbuckle's PUT
// /stores/{id}?id=) carries the path's value: a generated case sends one
// value for both and is judged by that value, never by one drawn for the
// query alone and overwritten, nor with its path left unfilled.
func TestGeneratedQueryNamedAsThePath(t *testing.T) {
	t.Parallel()
	doc := `{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{
"/stores/{id}":{"put":{"parameters":[{"name":"id","in":"query","schema":{"type":"integer"}},{"name":"id","in":"path","required":true,"schema":{"type":"integer"}},{"name":"location","in":"query","schema":{"type":"string"}}],
 "responses":{"200":{"description":"ok"}}}}}}`
	sp, err := spec.Load([]byte(doc), "stores.json")
	if err != nil {
		t.Fatal(err)
	}
	integer := func(s string) bool { _, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); return err == nil }
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if !integer(strings.TrimPrefix(r.URL.Path, "/stores/")) || (q.Has("id") && !integer(q.Get("id"))) {
			w.WriteHeader(http.StatusBadRequest)
		}
	})
	report := run(t, h, contract.Config{Spec: sp, Examples: 60, Checks: []string{"negative_data_rejection", "positive_data_acceptance", "validation_error_shape"}})
	if f := failed(report); len(f) > 0 {
		t.Errorf("%d failures on a correct target:\n%s", len(f), strings.Join(f, "\n"))
	}
	for _, res := range report.Results {
		if res.Case.Kind == contract.Generated && strings.Contains(res.Case.Request.URL, "{id}") {
			t.Errorf("%s: the path's id left unfilled: %s", res.Case.Name, res.Case.Request.URL)
		}
	}
}
