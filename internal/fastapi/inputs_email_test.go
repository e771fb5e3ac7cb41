package fastapi

import (
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
)

// emailParams is the full-stack FastAPI template's POST /utils/test-email/
// (`email_to: EmailStr`, a query parameter) as FastAPI 0.141.1 writes it.
const emailParams = `{"openapi":"3.1.0","info":{"title":"FastAPI","version":"0.1.0"},"paths":{"/t":{"post":{"operationId":"t_t_post",
"parameters":[{"name":"email_to","in":"query","required":true,"schema":{"type":"string","format":"email","title":"Email To"}}],
"responses":{"200":{"description":"Successful Response","content":{"application/json":{"schema":{}}}}}}}}}`

// An EmailStr parameter is an address of any length, as pydantic reads
// it; only what email-validator refuses is a 422.
func TestEmailParameter(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(emailParams), "email.json")
	if err != nil {
		t.Fatal(err)
	}
	item := sp.Doc.Paths.Find("/t")
	ins, err := CompileInputs(sp, item.Post, item)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		raw, want string // want: the 422 body, "" accepted
	}{
		{"a@example.com", ""},
		{"a-rather-long-local-part-of-an-address@example.com", ""},
		{"nope", `{"detail":[{"type":"value_error","loc":["query","email_to"],"msg":"value is not a valid email address: An email address must have an @-sign.","input":"nope","ctx":{"reason":"An email address must have an @-sign."}}]}`},
	} {
		_, item := ins.List[0].Check(sp, tc.raw, true)
		got := ""
		if item != nil {
			got = string(AppendValidationBody(nil, []ErrorItem{*item}))
		}
		if got != tc.want {
			t.Errorf("email_to=%s:\n got  %s\nwant %s", tc.raw, got, tc.want)
		}
	}
}
