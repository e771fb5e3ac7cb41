// Package contract checks a live server against its contract (any OpenAPI
// document; the embedded openapi.yaml by default): it derives
// cases from the contract (valid inputs, inputs FastAPI rejects, unknown
// ids, wrong credentials, seeded random inputs), sends them, applies named
// checks to every response, and reports each failure with a curl command
// that reproduces it, as text, JSON or JUnit XML.
//
// What FastAPI accepts is decided by internal/fastapi, the code the mock
// answers with, so a correct FastAPI server gets no false alarms. It does
// not serve anything; package mock does.
package contract
