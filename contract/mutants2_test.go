package contract_test

import (
	"testing"

	"github.com/moviemock/moviemock/internal/reference"
)

// The bugs of app/movies2.py, the service grown another way (client-chosen
// ids, reaction counters, undeclared 409s), by what they break.
var mutants2 = []mutant{
	{bug: "delete_noop", checks: []string{"stateful_delete"}},
	{bug: "list_keeps_deleted", checks: []string{"stateful_delete"}},
	{bug: "put_ignores_body", checks: []string{"stateful_update"}},
	{bug: "put_freezes_updated_at", checks: []string{"stateful_update"}},
	{bug: "reaction_resets_counts", todo: "the sequences send no action (POST /reviews/{id}/reactions) to a record of their own and compare its counters before and after"},
	{bug: "register_duplicate", checks: []string{"registration_login"}},
	{bug: "token_signature_unchecked", checks: []string{"auth_required"}},
	{bug: "password_hash_leak", checks: []string{"response_schema_conformance"}},
}

// TestGrown2Mutants: the correct movies2 backend passes, each broken one
// fails the check its bug breaks.
func TestGrown2Mutants(t *testing.T) {
	t.Parallel()
	reference.Require(t)
	runMutants(t, reference.AppMovies2, mutants2)
}

func TestGrown2MutantsTable(t *testing.T) {
	t.Parallel()
	checkMutantsTable(t, "movies2.py", mutants2, 8)
}
