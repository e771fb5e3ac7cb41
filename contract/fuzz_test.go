package contract

import (
	"net/http"
	"testing"
	"time"

	"github.com/moviemock/moviemock/internal/spec"
)

// FuzzChecks applies every check to arbitrary responses of every operation:
// whatever a target sends, the checks report it and never panic.
func FuzzChecks(f *testing.F) {
	f.Add(200, "application/json", []byte(`{"id":1,"name":"A","known_for":null}`))
	f.Add(200, "application/json", []byte(`[{"id":"r","author_id":1,"author":{"id":2}},{"id":"r"}]`))
	f.Add(422, "application/json", []byte(`{"detail":[{"loc":["path",1.5],"msg":"m","type":"t"}]}`))
	f.Add(200, "application/json", []byte(`{"access_token":"a.b.c","token_type":7}`))
	f.Add(200, "application/json", []byte(`{"access_token":"eyJhbGciOiJub25lIn0.eyJleHAiOiJ4In0.","token_type":"bearer"}`))
	f.Add(500, "text/plain", []byte("\xff\xfe"))
	sp, err := spec.Embedded()
	if err != nil {
		f.Fatal(err)
	}
	cfg := Config{BaseURL: "http://127.0.0.1:1", Spec: sp, JWTSecret: []byte("s")}
	if err := cfg.fill(); err != nil {
		f.Fatal(err)
	}
	r := &runner{cfg: &cfg, sp: sp}
	var notes []string
	var ops []*operation
	for _, o := range operations(sp, nil, &notes) {
		if o.untestable == "" {
			ops = append(ops, o)
		}
	}
	f.Fuzz(func(t *testing.T, status int, contentType string, body []byte) {
		report := &Report{}
		for _, o := range ops {
			c := &Case{Operation: o.id, Method: o.method, Path: o.path, Kind: Negative, Expect: ExpectRejection,
				Field: []any{"path", "x"}, Request: Request{Method: o.method, URL: "http://127.0.0.1:1" + o.path}, op: o}
			resp := Response{Status: status, Header: http.Header{"Content-Type": {contentType}}, Body: body, Duration: time.Millisecond}
			report.Results = append(report.Results, &Result{Case: c, Response: resp})
		}
		r.check(report, ops)
		for _, res := range report.Results {
			for _, c := range res.Checks {
				if !c.Passed && (c.Expected == "" || c.Got == "") {
					t.Fatalf("%s failed without saying what it expected or got", c.Check)
				}
			}
		}
	})
}
