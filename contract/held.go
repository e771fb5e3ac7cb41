package contract

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"

	"github.com/moviemock/moviemock/internal/model"
)

// heldValues are the string values the records of each collection were
// seen to hold in the target's successful answers (its lists, its creates
// and reads), so that a refusal of a write repeating one can be read as a
// value that must be unique taken, not as valid input refused: the
// document cannot say which values are unique (gotify's sortKey, a user's
// name).
type heldValues struct {
	mu     sync.Mutex
	values map[string]bool // collection, field and value, joined by NUL
	// taken notes, per operation and field, the first refusal excused.
	taken map[string]string
}

// maxHeldValues bounds the values a run holds: past it, a refusal of a
// value seen later is judged as any other.
const maxHeldValues = 1 << 16

// hold records the values of the records v, a successful answer of o,
// holds.
func (h *heldValues) hold(o *model.Operation, status int, v any) {
	if o == nil || o.Coll == nil || status/100 != 2 || v == nil {
		return
	}
	var recs []any
	switch o.Kind {
	case model.List, model.NestedList:
		recs = itemsIn(o, v)
	default:
		recs = []any{unwrap(o, v)}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.values == nil {
		h.values = map[string]bool{}
	}
	for _, rec := range recs {
		m, _ := rec.(map[string]any)
		for k, x := range m {
			if len(h.values) >= maxHeldValues {
				return
			}
			if s, ok := x.(string); ok && s != "" {
				h.values[o.Coll.Name+"\x00"+k+"\x00"+s] = true
			}
		}
	}
}

// takenValue says which members of the JSON body of res, a write of a
// collection's record refused with a 400 or 409 the operation declares,
// repeat the string value a record of that collection holds already: the
// refusal may be the state's (the value must be unique), not the
// contract's. "" when none does, or the document is FastAPI's, whose
// refusals explainedRefusal reads.
func (r *runner) takenValue(res *Result) string {
	c := res.Case
	if !r.openAPI() || c == nil || c.op == nil || c.op.model == nil || c.op.model.Coll == nil {
		return ""
	}
	s := res.Response.Status
	if s != http.StatusBadRequest && s != http.StatusConflict || c.op.op.Responses.Value(fmt.Sprint(s)) == nil {
		return ""
	}
	switch c.Method {
	case http.MethodPost, http.MethodPut, http.MethodPatch:
	default:
		return ""
	}
	var body map[string]any
	if json.Unmarshal([]byte(c.Request.Body), &body) != nil {
		return ""
	}
	if c.op.model.BodyWrap != "" {
		if inner, ok := body[c.op.model.BodyWrap].(map[string]any); ok {
			body = inner
		}
	}
	keys := make([]string, 0, len(body))
	for k := range body {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := &r.held
	h.mu.Lock()
	defer h.mu.Unlock()
	var repeated []string
	for _, k := range keys {
		if !uniqueLike(c.op.model.Coll.Field(k)) {
			continue
		}
		if v, ok := body[k].(string); ok && v != "" && h.values[c.op.model.Coll.Name+"\x00"+k+"\x00"+v] {
			repeated = append(repeated, k)
		}
	}
	if len(repeated) == 0 {
		return ""
	}
	why := strings.Join(repeated, ", ")
	if h.taken == nil {
		h.taken = map[string]string{}
	}
	if key := c.op.id + "\x00" + why; h.taken[key] == "" {
		h.taken[key] = fmt.Sprintf("%s: answered %d to a body repeating the %s of a record of %s the target holds: a value that must be unique may be taken (the contract cannot say which), not counted as valid input refused", c.op.id, s, why, c.op.model.Coll.Name)
	}
	return why
}

// uniqueLike reports whether f may hold values that must be unique: free
// text (a name, a key, an e-mail), not one of an enum's few values nor a
// date or time, which many records share by design.
func uniqueLike(f *model.Field) bool {
	if f == nil || f.Ref == nil || f.Ref.Value == nil {
		return true
	}
	s := f.Ref.Value
	switch s.Format {
	case "date", "date-time", "time", "duration":
		return false
	}
	return len(s.Enum) == 0
}

// takenNotes are the notes on the refusals takenValue excused, one per
// operation and members repeated.
func (r *runner) takenNotes() []string {
	h := &r.held
	h.mu.Lock()
	defer h.mu.Unlock()
	notes := make([]string, 0, len(h.taken))
	for _, n := range h.taken {
		notes = append(notes, n)
	}
	sort.Strings(notes)
	return notes
}
