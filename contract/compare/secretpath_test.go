package compare_test

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/contract/compare"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/internal/traffic"
)

// A recorded call's secret path parameter (by name, or by the schema
// of the operation it matched: format password) is shown redacted among
// a change's hits; other path parameters as recorded.
func TestTrafficHitsRedactSecretPathParameters(t *testing.T) {
	t.Parallel()
	const ops = `"/reset-password/{token}":{"get":{"parameters":[{"name":"token","in":"path","required":true,"schema":{"type":"string"}}],"responses":{"200":{"description":"OK"}}}},
 "/codes/{code}":{"get":{"parameters":[{"name":"code","in":"path","required":true,"schema":{"type":"string","format":"password","writeOnly":true}}],"responses":{"200":{"description":"OK"}}}},
 "/users/{user_id}":{"get":{"parameters":[{"name":"user_id","in":"path","required":true,"schema":{"type":"string"}}],"responses":{"200":{"description":"OK"}}}}`
	old, err := spec.Load([]byte(`{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{`+ops+`}}`), "old.json")
	if err != nil {
		t.Fatal(err)
	}
	// Every operation secured: a document-wide change every call hits.
	secured, err := spec.Load([]byte(`{"openapi":"3.1.0","info":{"title":"t","version":"1"},"security":[{"b":[]}],"components":{"securitySchemes":{"b":{"type":"http","scheme":"bearer"}}},"paths":{`+ops+`}}`), "new.json")
	if err != nil {
		t.Fatal(err)
	}
	src, err := traffic.Load(strings.NewReader(`[
{"seq":1,"method":"GET","path":"/reset-password/reset-secret-0123","headers":{},"status":200,"duration_ms":1},
{"seq":2,"method":"GET","path":"/codes/code-secret-4567","headers":{},"status":200,"duration_ms":1},
{"seq":3,"method":"GET","path":"/users/alice","headers":{},"status":200,"duration_ms":1}]`), "journal.json", traffic.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	r, err := compare.CompareSpecs(old, secured)
	if err != nil {
		t.Fatal(err)
	}
	r.MarkTraffic(src, old)
	var text, js bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"GET /reset-password/[redacted] (#1)", "GET /codes/[redacted] (#2)", "GET /users/alice (#3)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text report lacks %q:\n%s", want, text.String())
		}
	}
	for name, out := range map[string]string{"text": text.String(), "json": js.String()} {
		if strings.Contains(out, "reset-secret-0123") || strings.Contains(out, "code-secret-4567") {
			t.Errorf("the %s report shows a secret path parameter:\n%s", name, out)
		}
	}
}

// A recorded call's credentials in the query (access_token[], key, sig)
// and in a matrix parameter are blanked among a change's hits in every
// format of the report.
func TestTrafficHitsRedactCredentialParameters(t *testing.T) {
	t.Parallel()
	const ops = `"/users/{user_id}":{"get":{"parameters":[{"name":"user_id","in":"path","required":true,"schema":{"type":"string"}}],"responses":{"200":{"description":"OK"}}}}`
	old, err := spec.Load([]byte(`{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{`+ops+`}}`), "old.json")
	if err != nil {
		t.Fatal(err)
	}
	secured, err := spec.Load([]byte(`{"openapi":"3.1.0","info":{"title":"t","version":"1"},"security":[{"b":[]}],"components":{"securitySchemes":{"b":{"type":"http","scheme":"bearer"}}},"paths":{`+ops+`}}`), "new.json")
	if err != nil {
		t.Fatal(err)
	}
	src, err := traffic.Load(strings.NewReader(`[
{"seq":1,"method":"GET","path":"/users/alice","query":"access_token[]=array-secret-0123&page=1","headers":{},"status":200,"duration_ms":1},
{"seq":2,"method":"GET","path":"/users/bob","query":"key=key-secret-4567&sig=sig-secret-8901","headers":{},"status":200,"duration_ms":1},
{"seq":3,"method":"GET","path":"/users/carol;jsessionid=JSESSION-SECRET-2345","headers":{},"status":200,"duration_ms":1}]`), "journal.json", traffic.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	r, err := compare.CompareSpecs(old, secured)
	if err != nil {
		t.Fatal(err)
	}
	r.MarkTraffic(src, old)
	out := map[string]*bytes.Buffer{"text": {}, "json": {}, "junit": {}, "html": {}}
	for name, write := range map[string]func(io.Writer) error{"text": r.WriteText, "json": r.WriteJSON, "junit": r.WriteJUnit, "html": r.WriteHTML} {
		if err := write(out[name]); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{"GET /users/alice?access_token[]=[redacted]&page=1 (#1)", "GET /users/bob?key=[redacted]&sig=[redacted] (#2)"} {
		if !strings.Contains(out["text"].String(), want) {
			t.Errorf("the text report lacks %q:\n%s", want, out["text"])
		}
	}
	for name, b := range out {
		if !strings.Contains(b.String(), "/users/alice") {
			t.Errorf("the %s report names no hit:\n%s", name, b)
		}
		for _, s := range []string{"array-secret-0123", "key-secret-4567", "sig-secret-8901", "JSESSION-SECRET-2345"} {
			if strings.Contains(b.String(), s) {
				t.Errorf("the %s report shows %q:\n%s", name, s, b)
			}
		}
	}
}
