// Package mock is the mock server: an http.Handler, built by New from a
// contract and a data set, that answers the Movie and Review Service's
// operations exactly as its FastAPI backend does: same status codes, same
// headers that matter, same bodies byte for byte, 422s included.
//
// Routes and request validation come from openapi.yaml; this package adds
// only what the contract cannot say: the endpoints' own logic (lookups,
// login), and the framework's behaviour around them (404, 405, 307, CORS,
// auth, panics). A document that is not FastAPI's is answered by the
// plain-OpenAPI profile instead (package openapiprofile): refusals in the
// statuses and shapes the document declares, every security scheme it
// declares enforced, concrete paths matched before templated ones.
// Scenarios (package scenarios) wrap the endpoints, and their
// control API is mounted under /__mock/. It does not load files or listen;
// cmd/moviemock does.
//
// In a Go test:
//
//	srv, err := mock.New(mock.Config{})
//	ts := httptest.NewServer(srv)
//	defer ts.Close()
package mock
