// Package replay sends the calls a frontend was recorded making (a HAR
// file, a journal of moviemock serve or proxy: package internal/traffic)
// again, in their order, to any target — typically the mock of a changed
// contract, or the new backend — and reports per call what changed in the
// SHAPE of the answer against the recorded one: the status, the content
// type, and the JSON fields added, removed, made null or of another type.
// Values are expected to differ and are never compared.
//
// Logins are redone with the credentials given, recorded tokens and
// cookies are never sent again, writes are sent only when allowed, and
// every report hides secrets by the contract package's one rule
// (contract.Redactor).
//
// It does not compare two contracts (package contract/compare does) nor
// check answers against a contract (package contract does).
package replay
