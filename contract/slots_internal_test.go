package contract

import (
	"slices"
	"testing"
)

// The ids found for a path's last parameter are that parameter's: a
// header or query parameter of the same operation (Harbor's boolean
// X-Is-Resource-Name beside {webhook_policy_id}) is never given them,
// which it would refuse where a 404 is owed.
func TestIDsStayInTheirPathParameter(t *testing.T) {
	t.Parallel()
	o := &operation{path: "/projects/{project}/policies/{policy_id}"}
	b := &builder{cfg: &Config{}, slots: map[string][]string{}, ids: map[string][]string{}, records: map[string]bool{}}
	b.learn(o, "policy_id", "2", "3")
	if got := b.idsOf(o, "policy_id"); !slices.Equal(got, []string{"2", "3"}) {
		t.Errorf("policy_id: %v, want the ids learned", got)
	}
	for _, name := range []string{"X-Is-Resource-Name", "page"} {
		if got := b.idsOf(o, name); len(got) > 0 {
			t.Errorf("%s, not a path parameter, was given %v: the ids of the path's last parameter", name, got)
		}
	}
}
