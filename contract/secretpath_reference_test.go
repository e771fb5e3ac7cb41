package contract_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/reference"
	"github.com/moviemock/moviemock/internal/spec"
)

// Against a FastAPI app whose path parameters hold credentials
// (testdata/secretpathapp: /reset-password/{token} by name, /codes/{code}
// a SecretStr), the runner sends real values, and no report shows one:
// every request to those operations reads [redacted] in its path.
func TestSecretPathParametersOnFastAPI(t *testing.T) {
	t.Parallel()
	b := reference.StartApp(t, reference.App{Dir: "testdata/secretpathapp", Module: "secretpathapp"})
	get := func(path string) []byte {
		t.Helper()
		resp, err := http.Get(b.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return body
	}
	sp, err := spec.Load(get("/openapi.json"), "openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	report, err := contract.Run(ctx, contract.Config{MaxResponseTime: slowOK, BaseURL: b.URL, Spec: sp})
	if err != nil {
		t.Fatal(err)
	}
	if f := failed(report); len(f) > 0 {
		t.Errorf("%d failures on a correct FastAPI app:\n%s", len(f), strings.Join(f, "\n"))
	}
	var seen []string
	if err := json.Unmarshal(get("/__seen"), &seen); err != nil {
		t.Fatal(err)
	}
	if len(seen) == 0 {
		t.Fatal("the app got no credential: nothing was sent to the operations")
	}
	var text, js bytes.Buffer
	if err := report.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	for _, v := range seen {
		if v == "[redacted]" {
			t.Errorf("the runner sent [redacted]: redaction changed what is sent")
		}
		if len(v) >= 3 && (strings.Contains(text.String(), "/"+v) || strings.Contains(js.String(), "/"+v)) {
			t.Errorf("a report shows the credential %q sent in a path", v)
		}
	}
	var out struct {
		Results []struct {
			Case struct {
				Path    string `json:"path"`
				Request struct {
					URL string `json:"url"`
				} `json:"request"`
			} `json:"case"`
		} `json:"results"`
	}
	if err := json.Unmarshal(js.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	shown := 0
	for _, r := range out.Results {
		if strings.Contains(r.Case.Path, "{") {
			if !strings.Contains(r.Case.Request.URL, "/[redacted]") {
				t.Errorf("%s: request %s", r.Case.Path, r.Case.Request.URL)
			}
			shown++
		}
	}
	if shown == 0 {
		t.Errorf("no case of a path with a parameter in the JSON report:\n%s", js.String())
	}
}
