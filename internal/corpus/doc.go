// Package corpus holds the tests that prove moviemock on FastAPI
// applications nobody on this project wrote: the apps of
// testdata/corpus/<name>/ (FastAPI's own documentation sources, real
// open-source services), each run for real on the FastAPI stack beside the
// module, next to `moviemock serve` of the document it serves.
//
// For every app it checks three invariants with the built moviemock binary:
// the mock of the app's document passes `moviemock contract` (mock and
// runner agree); the real app passes `moviemock contract` (no false alarm);
// and every answer FastAPI itself produced during that run (a 422, a
// routing 404 or 405, a body parse error, a missing credential) is
// answered byte for byte alike by the mock (the mock answers as the app).
// Where an app fails one, testdata/corpus/<name>/known.json says so with the
// reason; a listed failure that no longer happens fails the test too, so
// the list stays true.
//
// The package has no code of its own: only tests.
package corpus
