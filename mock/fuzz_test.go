package mock_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/mock"
)

// FuzzRequest sends arbitrary paths, methods, content types and bodies
// through the whole handler. Whatever comes in, the mock answers without a
// 5xx, with a JSON body FastAPI could have sent, and a 422 only in
// HTTPValidationError form.
func FuzzRequest(f *testing.F) {
	for _, seed := range []struct{ method, path, ct, body string }{
		{"GET", "/person/1", "", ""},
		{"GET", "/person/%20+1_0.00", "", ""},
		{"GET", "/person/١٢", "", ""},
		{"GET", "/reviews/b42bfd96-9925-4da9-8c96-eed6b998b81f", "", ""},
		{"GET", "/reviews/", "", ""},
		{"POST", "/auth/login", "application/x-www-form-urlencoded", "grant_type=password&username=alice&password=wonderland"},
		{"POST", "/auth/login", "application/x-www-form-urlencoded", "grant_type=x%0A;username=&password"},
		{"POST", "/auth/login", "multipart/form-data; boundary=b", "--b\r\nContent-Disposition: form-data; name=\"username\"\r\n\r\nalice\r\n--b--\r\n"},
		{"POST", "/auth/login", "application/json", `{"username":"alice"}`},
		{"PATCH", "/person/1", "", ""},
	} {
		f.Add(seed.method, seed.path, seed.ct, seed.body)
	}
	srv, err := mock.New(mock.Config{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, method, path, contentType, body string) {
		req, err := http.NewRequest(method, "http://127.0.0.1:8000/", strings.NewReader(body))
		if err != nil || !strings.HasPrefix(path, "/") {
			return // not a request net/http would hand to a handler
		}
		req.URL.Path = path
		req.RequestURI = path
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s %q: %d %s", method, path, rec.Code, rec.Body)
		}
		if ct := rec.Header().Get("Content-Type"); ct == "application/json" {
			var v any
			if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
				t.Fatalf("%s %q: invalid JSON %q", method, path, rec.Body)
			}
			if rec.Code == 422 {
				assertConforms(t, req, rec)
			}
		}
	})
}
