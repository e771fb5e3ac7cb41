package scenarios

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/gorilla/mux"
)

// Every route of the control API is an operation of its document, and every
// operation of the document a route: the document is what GET /__mock/, the
// panel and docs/reference.md list. The operations moviemock proxy adds
// (extra routes) say "(moviemock proxy only)" in their summary.
func TestRoutesDocumented(t *testing.T) {
	t.Parallel()
	sp, err := AdminSpec()
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]string{} // "GET /__mock/" → summary
	for _, e := range Endpoints(sp) {
		documented[e.Method+" "+e.Path] = e.Summary
	}
	routed := map[string]bool{}
	r := (&admin{}).router(nil)
	err = r.Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		path, err := route.GetPathTemplate()
		if err != nil {
			return err
		}
		methods, err := route.GetMethods()
		if err != nil {
			return err
		}
		for _, m := range methods {
			routed[m+" "+path] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for op := range routed {
		if _, ok := documented[op]; !ok && op != "GET /__mock/openapi.yaml" { // documented with openapi.json
			t.Errorf("%s is routed but not in control/openapi.yaml", op)
		}
	}
	var proxyOnly []string
	for op, summary := range documented {
		switch {
		case strings.Contains(summary, "(moviemock proxy only)"):
			proxyOnly = append(proxyOnly, op)
		case !routed[op]:
			t.Errorf("%s is in control/openapi.yaml but not routed", op)
		}
	}
	// The proxy's own routes (proxy.New passes them) complete the document.
	slices.Sort(proxyOnly)
	if want := []string{http.MethodDelete + " /__mock/violations", http.MethodGet + " /__mock/violations"}; !slices.Equal(proxyOnly, want) {
		t.Errorf("operations of moviemock proxy only: %v, want %v", proxyOnly, want)
	}
}
