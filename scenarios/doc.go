// Package scenarios makes the mock misbehave on purpose, reproducibly: the
// scenario file format (YAML, one scenario a file) and its loader, which
// holds every scripted answer to the contract; the engine, which picks a
// scenario per request (X-Mock-Scenario), per session (X-Mock-Session, a
// state machine of the client's own) or globally, answers by the first
// matching rule (a response, the normal answer changed, a delay, a broken
// connection) and keeps a journal of requests, which the handler behind
// may annotate (SetAnsweredBy, AddViolations: moviemock proxy's upstream
// and contract checks); Prism's Prefer header; and the control API under
// /__mock/. The scenarios shipped with moviemock are
// the *.yaml files beside this code.
//
// It knows the contract only through the compiled model and the data only
// through package fixtures. It does not answer the contract's operations
// itself: the
// normal answer comes from the handler the engine wraps (package mock).
package scenarios
