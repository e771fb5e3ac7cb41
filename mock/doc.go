// Package mock is the mock server: an http.Handler, built by New from a
// contract (any OpenAPI document; the embedded openapi.yaml by default) and a
// data set, that answers the contract's operations as its backend would.
// Where the document is FastAPI's, that is byte for byte as FastAPI does:
// same status codes, same headers that matter, same bodies, 422s included;
// elsewhere the document's own declared statuses and shapes.
//
// Routes and request validation come from the contract; this package adds
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
