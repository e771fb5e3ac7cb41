// Package reference runs the real FastAPI backend for moviemock's contract:
// app/main.py, a FastAPI application written as a FastAPI developer would
// write it (pydantic models, OAuth2PasswordRequestForm, an HS256 JWT,
// CORSMiddleware), served by uvicorn from the vendored FastAPI stack. It is
// the oracle of the fidelity tests: what it answers is what the mock must
// answer.
//
// It is test-support code, for tests only. A machine without the stack
// (python3 with pydantic 2 and PyYAML, and ../shared/fastapi-stack or
// $MOVIEMOCK_FASTAPI_STACK) skips those tests, saying what is missing;
// with MOVIEMOCK_REQUIRE_REFERENCE=1, as in CI, they fail instead.
package reference
