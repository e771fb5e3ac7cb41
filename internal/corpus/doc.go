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
// A fourth, changes, proves `moviemock diff` on changes nobody on this
// project made: an app whose name has a topic (the name up to
// ".tutorial") follows the app before it in name order within its topic
// (FastAPI's documentation grows an example tutorial by tutorial), unless
// their documents are the same bytes. While the successor runs for its own
// invariants, the predecessor's `moviemock contract` (with its own flags)
// runs against it, and `moviemock diff` compares the two documents. When
// diff finds no breaking change (it exits 0 with --fail-on breaking), the
// predecessor's checks must fail against the successor no more than
// against the predecessor itself (its own app invariant): else diff missed
// a breaking change, or the successor only accepts what its predecessor
// refused (kind "successor accepts what its predecessor refused"). The
// other way is not held: a breaking change the runner's requests do not
// meet fails none of its checks; the test's log counts both ways.
//
// Where an app fails one, testdata/corpus/<name>/known.json says so with the
// reason; a listed failure that no longer happens fails the test too, so
// the list stays true.
//
// The package has no code of its own: only tests.
package corpus
