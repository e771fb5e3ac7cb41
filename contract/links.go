package contract

import (
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"

	"github.com/moviemock/moviemock/internal/model"
)

// followLinks follows the OpenAPI links the contract declares on a create's
// answer: each names an operation (operationId) and where its parameters
// come from, as runtime expressions into the answer
// ("$response.body#/id") or constants. Each linked request must be
// answered 2xx; a read of the created record's collection must answer the
// record as created. Where links are declared they are the contract's own
// word on how ids flow; the sequences follow conventions otherwise.
func (s *seqRun) followLinks(create *model.Operation, c *model.Collection, rec map[string]any) {
	resp := create.Op.Responses.Status(create.Status)
	if resp == nil || resp.Value == nil {
		return
	}
	for _, name := range sortedKeys(resp.Value.Links) {
		l := resp.Value.Links[name]
		if l == nil || l.Value == nil {
			continue
		}
		target := s.m.Operation(l.Value.OperationID)
		if target == nil {
			s.note("%s: link %s: the contract has no operation %q (operationRef links are not followed)", opName(create), name, l.Value.OperationID)
			continue
		}
		if target.Method != http.MethodGet && !s.r.cfg.AllowDestructive {
			continue // only reads: a linked write could touch what others own
		}
		path, query := map[string]string{}, url.Values{}
		resolved := true
		for _, p := range sortedKeys(l.Value.Parameters) {
			v, ok := linkValue(l.Value.Parameters[p], rec)
			if !ok {
				s.note("%s: link %s: cannot work out %s from %v", opName(create), name, p, l.Value.Parameters[p])
				resolved = false
				break
			}
			where, param, found := strings.Cut(p, ".")
			if !found {
				where, param = "", p
			}
			if where == "path" || where == "" && strings.Contains(target.Path, "{"+param+"}") {
				path[param] = v
			} else {
				query.Set(param, v)
			}
		}
		if !resolved {
			continue
		}
		res, got := s.step(target, fmt.Sprintf("%s → %s: the contract's link %s", opName(create), opName(target), name), ExpectSuccess, call{path: path, query: query})
		var bad *verdict
		switch {
		case res.Response.Status/100 != 2:
			bad = fail("2xx for the link "+name+" from the record just created", "%s", statusText(&res.Response))
		case target.Kind == model.ReadOne && target.Coll == c && !reflect.DeepEqual(got, any(rec)):
			bad = fail("the create answer", "%s", firstDifference(got, any(rec), ""))
		}
		s.verdict(res, checkStatefulCreateRead, bad)
	}
}

// linkValue works out a link parameter from the create answer: a
// "$response.body#/json/pointer" expression, or a constant.
func linkValue(expr any, rec map[string]any) (string, bool) {
	text, ok := expr.(string)
	if !ok || !strings.HasPrefix(text, "$") {
		if scalar, ok := scalarQuery(expr); ok {
			return scalar, true
		}
		return "", false
	}
	ptr, ok := strings.CutPrefix(text, "$response.body#")
	if !ok {
		return "", false // $request.…, $response.header.…: not kept by the sequences
	}
	var v any = rec
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		if ptr == "" || ptr == "/" {
			break
		}
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch node := v.(type) {
		case map[string]any:
			if v, ok = node[tok]; !ok {
				return "", false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(node) {
				return "", false
			}
			v = node[i]
		default:
			return "", false
		}
	}
	return scalarQuery(v)
}
