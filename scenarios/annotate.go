package scenarios

import (
	"cmp"
	"context"
	"net/http"
	"sync"
	"time"
)

// Annotations: what the handler behind the engine tells the journal about
// a request it answers (with Options.Annotate), which the engine cannot
// see for itself: who answered (moviemock proxy's upstream, or the mock in
// its place) and which contract checks the exchange failed.

// note is one request's annotations, which its journal entry takes when
// it is recorded, and which amend the entry after that. The handler's
// goroutine sets who answers before the answer begins; AddViolations may
// come from any goroutine, before or after.
type note struct {
	j          *journal
	mu         sync.Mutex
	by         string   // as SetAnsweredBy said
	violations []string // added before the entry was
	seq        int64    // the entry's once recorded; 0 before
}

type noteKey struct{}

// noteOf is r's note, nil when r has none.
func noteOf(r *http.Request) *note {
	n, _ := r.Context().Value(noteKey{}).(*note)
	return n
}

// annotated is r carrying a new note for the journal j, and the note.
func annotated(r *http.Request, j *journal) (*http.Request, *note) {
	n := &note{j: j}
	return r.WithContext(context.WithValue(r.Context(), noteKey{}, n)), n
}

// SetAnsweredBy says who answers r: call it before the answer begins.
// Its journal entry shows it as answered_by: "upstream", or "mock: " and
// why, under moviemock proxy. It overrides the engine's own "scenario"
// for a rule that passes the request on (a passthrough, or a fault
// delivering the normal answer badly): the handler then made the answer.
// A call after the answer began amends the entry as AddViolations does.
//
// It does nothing to a request without a note: one that no Engine with
// Options.Annotate passed on.
func SetAnsweredBy(r *http.Request, by string) {
	n := noteOf(r)
	if n == nil {
		return
	}
	by = cutCopy(by, maxJournalValue)
	n.mu.Lock()
	defer n.mu.Unlock()
	n.by = by
	if n.seq != 0 {
		n.j.amend(n.seq, func(e *Entry) { e.AnsweredBy = by })
	}
}

// AddViolations adds to r's journal entry, also after the answer began or
// ended: the entry is amended in place while the journal still holds it
// (find it by its Seq; an entry dropped meanwhile is simply not amended).
// Safe from any goroutine. Each violation is one line, such as
// "response_schema_conformance: expected … got …".
//
// GET /__mock/journal shows the amended entry; a journal stream that sent
// the entry already sends it again as an "amended" event.
//
// It does nothing to a request without a note: one that no Engine with
// Options.Annotate passed on.
func AddViolations(r *http.Request, violations ...string) {
	n := noteOf(r)
	if n == nil || len(violations) == 0 || n.j.size == 0 {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.seq == 0 {
		// Not recorded yet: the entry is born with them.
		n.violations = append(n.violations, violations...)
		return
	}
	n.j.amend(n.seq, func(e *Entry) { addViolations(e, violations) })
}

// addEntry records the request of jw as its answer begins, with what its
// note says.
func (e *Engine) addEntry(r *http.Request, jw *journaled, n *note, start time.Time) {
	en := e.entry(r, jw.Writer, &jw.tr, start)
	if n == nil {
		jw.seq = e.journal.add(en)
		return
	}
	// Under the note's lock: an AddViolations meanwhile either comes
	// before, and the entry is born with it, or after, and finds the Seq.
	n.mu.Lock()
	defer n.mu.Unlock()
	en.AnsweredBy = cmp.Or(n.by, jw.tr.answeredBy)
	addViolations(&en, n.violations)
	n.violations = nil
	n.seq = e.journal.add(en)
	jw.seq = n.seq
}
