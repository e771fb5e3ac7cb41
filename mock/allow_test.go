package mock_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/mock"
)

// Starlette's 405 names the methods of the first route of the path. An
// api_route(methods=[...]) is one route of several methods, which FastAPI
// documents with one operationId ending in list(route.methods)[0], the
// method its Allow starts with (checked on FastAPI 0.141.1 with several
// PYTHONHASHSEEDs). Separate routes each have an id of their own; which was
// declared first the document does not keep, so its first one stands.
func TestMethodNotAllowedNamesTheFirstRoute(t *testing.T) {
	t.Parallel()
	const doc = `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{
"/multi":{
"get":{"operationId":"multi_multi_post","responses":{"200":{"description":"d"}}},
"put":{"operationId":"put_multi_multi_put","responses":{"200":{"description":"d"}}},
"post":{"operationId":"multi_multi_post","responses":{"200":{"description":"d"}}},
"delete":{"operationId":"multi_multi_post","responses":{"200":{"description":"d"}}}},
"/other":{
"get":{"operationId":"other_other_get","responses":{"200":{"description":"d"}}},
"patch":{"operationId":"other_other_get","responses":{"200":{"description":"d"}}}},
"/items/":{
"get":{"operationId":"list_items__get","responses":{"200":{"description":"d"}}},
"post":{"operationId":"create_items__post","responses":{"200":{"description":"d"}}}}}}`
	sp, err := spec.Load([]byte(doc), "allow")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, mock.Config{Spec: sp, Seed: 1})
	for _, tc := range []struct{ method, path, allow string }{
		{http.MethodPatch, "/multi", "POST, GET, DELETE"},
		{http.MethodPut, "/other", "GET, PATCH"},
		{http.MethodPut, "/items/", "GET"},
	} {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.path, nil))
		if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != tc.allow {
			t.Errorf("%s %s: %d, Allow %q; want 405, Allow %q", tc.method, tc.path, rec.Code, rec.Header().Get("Allow"), tc.allow)
		}
	}
}
