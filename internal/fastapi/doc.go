// Package fastapi reproduces, byte for byte, what a FastAPI (Starlette,
// pydantic v2) application puts on the wire: its JSON encoding, its
// validation error items and their messages, pydantic's lax integer parsing,
// Starlette's form parsing, JSON request bodies read and validated as
// FastAPI 0.141 and pydantic 2.13 do, and the framework's own error bodies.
//
// The JSON body support (JSONBody) is a port, not an approximation: Python
// 3.11's json.loads (pyjson.go), pydantic-core's lax validators and their
// messages (pyvalidate.go, pyliteral.go), speedate's date and time parsers
// (pytime.go), the uuid crate's parser (pyuuid.go), the Rust regex
// semantics of patterns (pyregex.go), and model_dump(mode="json")
// (pyrender.go). testdata/jsonbody_cases.py records the real FastAPI's
// answers; the tests replay them.
//
// The same inputs, compiled for a document that is not FastAPI's, read
// parameters and forms as OpenAPI serializes them (style.go) instead of
// by FastAPI's habits.
//
// It knows nothing of any particular API; callers bring the schema.
package fastapi
