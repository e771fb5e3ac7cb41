package framework

import (
	"slices"
	"strings"
)

// RouteOrder is the order the path templates paths (in the document's
// order) are tried in under profile n, the first match winning. FastAPI's
// Starlette tries routes in declaration order, which the document keeps.
// OpenAPI matches concrete paths before their templated counterparts
// (/numbers/Local.json before /numbers/{Sid}.json): segment by segment, a
// literal one comes before a templated one; paths alike in that keep the
// document's order. Every router built over a contract's paths (the
// mock's, the scenarios', the traffic matcher's) takes this order so that
// they agree on which operation a request is for.
func RouteOrder(paths []string, n Name) []string {
	out := slices.Clone(paths)
	if n == FastAPI {
		return out
	}
	kinds := make(map[string][]bool, len(out))
	for _, p := range out {
		segs := strings.Split(strings.Trim(p, "/"), "/")
		k := make([]bool, len(segs))
		for i, s := range segs {
			k[i] = strings.Contains(s, "{")
		}
		kinds[p] = k
	}
	slices.SortStableFunc(out, func(a, b string) int {
		ka, kb := kinds[a], kinds[b]
		for i := 0; i < len(ka) && i < len(kb); i++ {
			switch {
			case !ka[i] && kb[i]:
				return -1
			case ka[i] && !kb[i]:
				return 1
			}
		}
		return len(ka) - len(kb)
	})
	return out
}
