// Package reference runs real FastAPI backends, the oracles of moviemock's
// fidelity tests: what they answer is what the mock must answer. Each is a
// FastAPI application written as a FastAPI developer would write it
// (pydantic models, HTTPException, OAuth2PasswordRequestForm, an HS256 JWT,
// CORSMiddleware), served by uvicorn from the vendored FastAPI stack:
//
//   - app/main.py (Options.App "") for the embedded contract openapi.yaml;
//   - app/movies.py ("movies") and app/tasks.py ("tasks") for the contracts
//     under testdata/contracts, whose openapi.json is exactly the document
//     the app serves (TestContractDocuments; refresh with -update). They
//     hold their records in memory and keep to the conventions the
//     contract-driven mock derives operations by; POST /__reference/reset
//     (Backend.Reset) restores the loaded records. Options.Change makes
//     them serve the next version of their contract instead, one change
//     or several (the CHANGES table of each app): the NEW sides of the
//     contract pairs under testdata/changes (TestChangedDocuments;
//     refresh with -update).
//
// app/harness.py holds what the apps share around themselves (fixture
// files, CORS and test routes from the environment), app/jwt_hs256.py the
// part of PyJWT they use.
//
// It is test-support code, for tests only. The FastAPI stack is vendored
// (StackDir, testdata/fastapi-stack, or $MOVIEMOCK_FASTAPI_STACK); python3
// needs pydantic 2, PyYAML and click beside it (PipInstall). A machine
// without them skips those tests, saying what is missing; with
// MOVIEMOCK_REQUIRE_REFERENCE=1, as in CI, they fail instead.
package reference
