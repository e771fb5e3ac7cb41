package contract

import (
	"fmt"
	"math"
	"net/url"

	"github.com/moviemock/moviemock/internal/model"
)

// listCount is the count member of a list's page ({"articles": […],
// "articlesCount": 3}, {"items": […], "total": 3}): the one integer member
// beside the records that tells how many match. ok is false when the
// answer has none, or several, or when it may count the page (size: the
// page size asked for, 0 none).
func listCount(o *model.Operation, v any, size int) (n int, ok bool) {
	if o.Shape != model.PageShape {
		return 0, false
	}
	m, _ := v.(map[string]any)
	found := 0
	for k, x := range m {
		f, isNum := x.(float64)
		if !isNum || f != math.Trunc(f) || !model.CountMember(k) {
			continue
		}
		n, found = int(f), found+1
	}
	if found != 1 {
		return 0, false
	}
	if items := itemsIn(o, v); n == len(items) && size > 0 && len(items) >= size {
		// A full page counting its own items, or all of them: which is
		// not known, and only the second moves with a write.
		return 0, false
	}
	return n, true
}

// countBefore reads the first page of c's list, as the search after a
// create reads it, and keeps its count: the create must move it.
func (s *seqRun) countBefore(c *model.Collection) {
	list := s.list(c)
	if list == nil {
		return
	}
	delete(s.counts, list)
	if scope, narrowed := s.recordScope(list, nil, nil); len(scope) > 0 || narrowed != "" {
		return
	}
	q := url.Values{}
	size, _ := pageQuery(list, 0, q)
	res, v := s.step(list, fmt.Sprintf("%s: the count before a create", opName(list)), ExpectSuccess, call{query: q})
	if n, ok := listCount(list, v, size); ok && res.Response.Status == list.Status {
		s.counts[list] = n
	}
}

// countMoved judges the count a list's first page gave after a write
// against the one before it: a create adds one, a delete takes one. A
// count that did not move is a failure; one that moved by another amount
// (another client writing) is a note.
func (s *seqRun) countMoved(res *Result, list *model.Operation, before, after int, created bool, check string) {
	want, what := before+1, "create"
	if !created {
		want, what = before-1, "delete"
	}
	switch after {
	case want:
		s.verdict(res, check, nil)
	case before:
		s.verdict(res, check, fail(fmt.Sprintf("the list's count %d after the %s (%d before)", want, what, before), "%d", after))
	default:
		s.note("%s: the list's count went from %d to %d over one %s: another client may be writing; not judged", opName(list), before, after, what)
	}
}

// actions does each action on the record that names its effect in the
// record (POST /articles/{slug}/favorite: favorited, favoritesCount; see
// model.Operation.VerbFields), then its undo (the DELETE on the same
// path): the flag is true after the action and false after the undo, in
// the action's answer and in the read after; the count moves by one and
// back. The record must start with the flag false; when it does not, or
// names no such flag, it is a note.
func (s *seqRun) actions(c *model.Collection, id string, cur map[string]any) {
	if !s.enabled[checkStatefulUpdate] {
		return
	}
	for _, o := range s.m.Operations {
		if o.Coll != c || o.Kind != model.Action || o.Method != "POST" || o.IDParam == "" {
			continue
		}
		flag, count := o.VerbFields()
		if flag == nil {
			continue
		}
		if o.Op != nil && o.Op.RequestBody != nil {
			s.note("%s takes a body: its effect on %s is not judged", opName(o), flag.Name)
			continue
		}
		was, ok := cur[flag.Name].(bool)
		if !ok || was {
			s.note("%s: the record just created has %s %s, not false: the action's effect is not judged", opName(o), flag.Name, quoteAny(cur[flag.Name]))
			continue
		}
		n0, hasCount := -1.0, false
		if count != nil {
			n0, hasCount = cur[count.Name].(float64)
		}
		var undo *model.Operation
		for _, u := range s.m.Operations {
			if u.Kind == model.Action && u.Method == "DELETE" && u.Path == o.Path {
				undo = u
			}
		}
		key := pathKey(cur, o.IDParam, id)
		s.effect(c, o, key, flag, count, true, n0, hasCount)
		if undo != nil {
			s.effect(c, undo, key, flag, count, false, n0, hasCount)
		}
	}
}

// effect sends one action (on: the action, else its undo) and checks its
// answer and the read after show it.
func (s *seqRun) effect(c *model.Collection, o *model.Operation, key string, flag, count *model.Field, on bool, n0 float64, hasCount bool) {
	n := n0
	if on {
		n++
	}
	what := fmt.Sprintf("%s %v", flag.Name, on)
	if hasCount {
		what += fmt.Sprintf(", %s %v", count.Name, n)
	}
	judge := func(res *Result, v any, status int, of string) {
		bad := expectStatus(res, status, of)
		rec, _ := v.(map[string]any)
		if bad == nil && rec == nil {
			return // no record in the answer: the read after judges
		}
		if _, named := rec[flag.Name]; bad == nil && !named {
			s.note("%s: the answer names no %s: not judged", res.Case.Name, flag.Name)
			return
		}
		if bad == nil {
			if got, _ := rec[flag.Name].(bool); got != on {
				bad = fail(fmt.Sprintf("%s %v", flag.Name, on), "%s", quoteAny(rec[flag.Name]))
			}
		}
		if bad == nil && hasCount {
			switch got, _ := rec[count.Name].(float64); {
			case got == n:
			case got == n0 && on, got == n0+1 && !on:
				bad = fail(fmt.Sprintf("%s %v (one more than before the action: %v)", count.Name, n, n0), "%s", quoteAny(rec[count.Name]))
			default:
				s.note("%s: %s went to %s, %v expected: others may be acting on it; not judged", opName(o), count.Name, quoteAny(rec[count.Name]), n)
			}
		}
		s.verdict(res, checkStatefulUpdate, bad)
	}
	res, v := s.step(o, fmt.Sprintf("%s: the action shows in its answer (%s)", opName(o), what), ExpectSuccess, call{path: map[string]string{o.IDParam: key}})
	if o.Shape != model.OneShape {
		v = nil
	}
	judge(res, v, o.Status, "the declared status of "+opName(o))
	if res.Response.Status/100 != 2 {
		return
	}
	if read := s.find(c, model.ReadOne); read != nil {
		res, v := s.step(read, fmt.Sprintf("%s → %s: the read shows the action (%s)", opName(o), opName(read), what), ExpectSuccess, call{path: map[string]string{read.IDParam: key}})
		judge(res, v, read.Status, "the record acted on")
	}
}

// falsyUpdate sends a partial update (PATCH) of one field whose value is
// not falsy with the falsy value of its type (false, 0), where the
// body's schema takes it: the change must be stored (an update that skips
// falsy values, `if body.done:`, keeps the old one) and the other fields
// kept. A boolean already false is made true first. It stops at the first
// such update sent.
func (s *seqRun) falsyUpdate(c *model.Collection, o *model.Operation, id string, cur map[string]any) (map[string]any, bool) {
	jb, _ := s.bodyOf(o)
	if jb == nil {
		return nil, false
	}
	for _, name := range jb.Fields {
		f := c.Field(name)
		if f == nil || f.Refers != nil || f.Owner || f.Stamp != "" || name == "id" || (c.ID != nil && name == c.ID.Name) {
			continue
		}
		var zero any
		switch f.Type {
		case "boolean":
			zero = false
		case "integer", "number":
			zero = 0.0
		default:
			continue
		}
		sent := len(s.results)
		if cur[name] == false {
			// A boolean false already (the other update's doing): made
			// true first, so that false has something to change.
			s.force = map[string]any{name: true}
			next, ok := s.modify(c, o, id, cur, []string{name})
			s.force = nil
			if !ok {
				if len(s.results) > sent {
					return nil, false
				}
				continue
			}
			cur = next
		}
		if cur[name] == nil || jsonEqual(cur[name], zero) {
			continue
		}
		s.force = map[string]any{name: zero}
		next, ok := s.modify(c, o, id, cur, []string{name})
		s.force = nil
		if ok || len(s.results) > sent {
			return next, ok
		}
	}
	return nil, false
}
