package mock_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// petTags makes tags under a pet, as ent's entoas writes its edges:
// POST and GET /pets/{id}/tags, where {id} is the pet's and a Tag has an
// id of its own and names no pet.
const petTags = "../testdata/contracts/pet-tags/openapi.json"

// A path parameter before a literal segment that is the records' own id
// names their parent: records made under it get ids of their own (two
// made under one pet are two), and the parent's list holds what was made
// under it and nothing made under another.
func TestRecordsMadeUnderAParentKeepTheirOwnID(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(petTags)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(doc, petTags)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(newServer(t, mock.Config{Spec: sp, Seed: 1}))
	t.Cleanup(ts.Close)
	call := caller(t, ts.URL)
	pet := call("POST", "/pets", `{"name":"one"}`, 200).(map[string]any)["id"]
	other := call("POST", "/pets", `{"name":"other"}`, 200).(map[string]any)["id"]
	under := fmt.Sprintf("/pets/%v/tags", pet)
	a := call("POST", under, `{"name":"a"}`, 200).(map[string]any)
	b := call("POST", under, `{"name":"b"}`, 200).(map[string]any)
	if a["id"] == b["id"] {
		t.Fatalf("two tags made under pet %v answered ids %v and %v: each wants its own", pet, a["id"], b["id"])
	}
	names := func(path string) map[string]bool {
		got := map[string]bool{}
		for _, it := range call("GET", path, "", 200).([]any) {
			got[fmt.Sprint(it.(map[string]any)["name"])] = true
		}
		return got
	}
	if got := names(under); !got["a"] || !got["b"] {
		t.Errorf("GET %s holds %v, want both tags made under it", under, got)
	}
	if got := names(fmt.Sprintf("/pets/%v/tags", other)); got["a"] || got["b"] {
		t.Errorf("another pet's tags hold %v, made under pet %v", got, pet)
	}
	call("GET", "/pets/999999/tags", "", 404)
}

// A document creating with PUT and changing with POST (Vikunja's): the
// PUT's record is kept and read back, the POST changes it, a path naming
// a record on the way to the one asked for (a bucket's project) is
// refused 404 when no such record is held, and a POST answering no body
// creates a record of its path's list.
func TestMethodsUsedTheOtherWayRound(t *testing.T) {
	t.Parallel()
	const doc = "../testdata/contracts/put-creates/openapi.json"
	raw, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(raw, doc)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(newServer(t, mock.Config{Spec: sp, Seed: 1}))
	t.Cleanup(ts.Close)
	do := caller(t, ts.URL)
	call := func(method, path, body string, want int) map[string]any {
		t.Helper()
		v, _ := do(method, path, body, want).(map[string]any)
		return v
	}
	made := call("PUT", "/projects", `{"title":"garden"}`, 201)
	at := fmt.Sprintf("/projects/%v", made["id"])
	if got := call("GET", at, "", 200); got["title"] != "garden" {
		t.Errorf("GET %s: %v, want the project PUT made", at, got)
	}
	call("POST", at, fmt.Sprintf(`{"id":%v,"title":"orchard"}`, made["id"]), 200)
	if got := call("GET", at, "", 200); got["title"] != "orchard" {
		t.Errorf("GET %s after the POST: %v, want its title changed", at, got)
	}
	view := call("PUT", at+"/views", `{"title":"board","projectId":987654}`, 201)
	if view["projectId"] != made["id"] {
		t.Errorf("a view made under project %v holds projectId %v", made["id"], view["projectId"])
	}
	call("GET", fmt.Sprintf("%s/views/%v/buckets", at, view["id"]), "", 200)
	call("GET", fmt.Sprintf("/projects/987654321/views/%v/buckets", view["id"]), "", 404)
	// a create answering no body keeps the record its path lists
	do("POST", "/labels", `{"title":"urgent"}`, 201)
	found := false
	for _, l := range do("GET", "/labels", "", 200).([]any) {
		found = found || l.(map[string]any)["title"] == "urgent"
	}
	if !found {
		t.Error("the label POST /labels made, answering no body, is not listed")
	}
}

// caller sends requests to the server at base, each with a JSON body
// where one is given, and decodes the answer after checking its status.
func caller(t *testing.T, base string) func(method, path, body string, want int) any {
	return func(method, path, body string, want int) any {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != want {
			t.Fatalf("%s %s: %d %s, want %d", method, path, resp.StatusCode, b, want)
		}
		var v any
		json.Unmarshal(b, &v)
		return v
	}
}

// orgPoliciesDoc lists a policy's runs under an organisation no
// collection holds (the document names one, acme, in its example), and
// declares the 404 of that list.
const orgPoliciesDoc = `{"openapi":"3.0.3","info":{"title":"orgs","version":"1"},"paths":{
"/policies":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/Policy"}}}}}}},
  "post":{"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Policy"}}}},
  "responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Policy"}}}}}}},
"/runs":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/Run"}}}}}}}},
"/orgs/{org}/policies/{policy_id}":{"parameters":[{"name":"org","in":"path","required":true,"example":"acme","schema":{"type":"string"}},{"name":"policy_id","in":"path","required":true,"schema":{"type":"integer"}}],
  "get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Policy"}}}},"404":{"description":"missing"}}}},
"/orgs/{org}/policies/{policy_id}/runs":{"parameters":[{"name":"org","in":"path","required":true,"example":"acme","schema":{"type":"string"}},{"name":"policy_id","in":"path","required":true,"schema":{"type":"integer"}}],
  "get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/Run"}}}}},"404":{"description":"missing"}}}}},
"components":{"schemas":{
  "Policy":{"type":"object","properties":{"id":{"type":"integer","readOnly":true},"name":{"type":"string"}}},
  "Run":{"type":"object","properties":{"id":{"type":"integer"},"status":{"type":"string"}}}}}}`

// An operation by convention whose path names a record on the way to its
// own answers 404 for one neither the state holds nor the mock's answers
// named, as an operation answered from its example does: no runs are
// listed under an organisation the document never named.
func TestConventionOperationLooksUpItsPath(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(orgPoliciesDoc), "orgs.json")
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(newServer(t, mock.Config{Spec: sp, Seed: 1}))
	t.Cleanup(ts.Close)
	call := caller(t, ts.URL)
	policy := call("POST", "/policies", `{"name":"nightly"}`, 200).(map[string]any)
	call("GET", fmt.Sprintf("/orgs/acme/policies/%v/runs", policy["id"]), "", 200)
	call("GET", fmt.Sprintf("/orgs/moviemock-unknown-org/policies/%v/runs", policy["id"]), "", 404)
}
