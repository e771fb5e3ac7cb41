package mock_test

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// paramsCase is one exchange recorded from the real FastAPI 0.141.1 by
// testdata/params_cases.py: list parameters, file fields, form models.
type paramsCase struct {
	Name     string      `json:"name"`
	Method   string      `json:"method"`
	Path     string      `json:"path"`
	Headers  [][2]string `json:"headers"`
	Body     *string     `json:"body"`
	Status   int         `json:"status"`
	Response string      `json:"response"`
}

// The mock of the recorded app's document answers every recorded request
// with FastAPI's status, and with its bytes when FastAPI refused it (a
// 2xx body is the application's own, which the document does not show).
func TestParamsMatchFastAPI(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("testdata/params_openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(doc, "params_openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, mock.Config{Spec: sp})
	raw, err := os.ReadFile("testdata/params_cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []paramsCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 40 {
		t.Fatalf("only %d cases recorded", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			body := ""
			if c.Body != nil {
				body = *c.Body
			}
			req := httptest.NewRequest(c.Method, c.Path, strings.NewReader(body))
			for _, h := range c.Headers {
				req.Header.Add(h[0], h[1])
			}
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, req)
			got := rec.Body.String()
			if rec.Code != c.Status || (c.Status >= 400 && got != c.Response) {
				t.Errorf("%s %s\n got %d %s\nwant %d %s", c.Method, c.Path, rec.Code, got, c.Status, c.Response)
			}
		})
	}
}
