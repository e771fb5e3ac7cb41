package contract_test

import (
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
)

// Creates and updates taking only a form (urlencoded, or multipart only)
// are sent the record's fields as that form, and verified through the
// reads: the create reads back with what it sent, the update changes what
// it sent. A backend whose form create drops a field is caught.
func TestFormBodiedWritesVerified(t *testing.T) {
	t.Parallel()
	const path = "../testdata/contracts/form-writes/openapi.yaml"
	report := cleanOnItsMock(t, path)
	for _, check := range []string{"stateful_create_read", "stateful_update", "stateful_delete"} {
		if n := tallies(report)[check][0]; n == 0 {
			t.Errorf("%s never passed: %v", check, report.Notes)
		}
	}
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sp, m, srv := mockOf(t, doc, "openapi.yaml")
	dropsName := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "POST" && r.URL.Path == "/widgets" && r.Header.Get("Content-Type") == "application/x-www-form-urlencoded" {
			raw, _ := io.ReadAll(r.Body)
			form, _ := url.ParseQuery(string(raw))
			if form.Has("name") {
				form.Set("name", "Nameless")
			}
			body := form.Encode()
			r.Body, r.ContentLength = io.NopCloser(strings.NewReader(body)), int64(len(body))
		}
		srv.ServeHTTP(w, r)
	})
	bad := run(t, dropsName, contract.Config{Spec: sp, Model: m, MaxResponseTime: time.Minute})
	if n := tallies(bad)["stateful_create_read"][1]; n == 0 {
		t.Errorf("a form create that stores another name than the one sent is not caught: %v", failed(bad))
	}
}
