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
// TestDocuments proves moviemock on public OpenAPI documents of every kind
// of generator, not FastAPI's only: testdata/corpus/documents/<name>/
// holds each as published, with its SOURCE.md (repository, commit, path,
// generator, licence) and its licence. The harness reads each document on
// its own, sharing no code with the mock (schemas checked by
// santhosh-tekuri/jsonschema), and for each: `moviemock serve --spec`
// starts; every operation sent a valid request built from the document
// answers a declared status, in a declared media type, with a body its
// schema accepts; a wrong-typed parameter or a body without a required
// field gets a declared 4xx in its declared schema; and `moviemock
// contract` against the mock finds nothing (logged in with the account
// serve was started with where the document has a login, given a token
// with --token where a secured document has none). testdata/corpus/documents/
// known.json lists what fails today, per document, check and operation,
// with why; the test fails on anything else, and on a listed failure that
// no longer happens (-update rewrites it). TestDocumentRequests holds the
// harness itself to the documents: every request it builds is valid by
// their schemas.
//
// The package has no code of its own: only tests.
package corpus
