package mock

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/scenarios"
)

// What the control panel shows of the mock (see scenarios.Options.Served
// and Records): the engine knows the scenarios, the mock the contract and
// the data.

// served describes the contract's operations as answered, and the data as
// the global state serves it.
func (s *Server) served() scenarios.Served {
	out := scenarios.Served{Title: s.spec.Doc.Info.Title, Version: s.spec.Doc.Info.Version,
		Operations: make([]scenarios.OperationInfo, 0, len(s.ops)), Collections: []scenarios.CollectionInfo{}}
	for _, o := range s.ops {
		info := scenarios.OperationInfo{Method: o.Method, Path: o.Path, ID: o.ID, Convention: o.Kind.String(),
			Status: o.Status, Secured: o.Secured || s.cfg.RequireAuth && o.Kind != model.Login, Why: o.Why}
		if o.Coll != nil {
			info.Collection = o.Coll.File
		}
		out.Operations = append(out.Operations, info)
	}
	st := s.store.global
	st.mu.RLock()
	v := view{base: st.base, ov: st.ov}
	for _, c := range st.base.Model.Collections {
		info := scenarios.CollectionInfo{Name: c.Name, File: c.File, Records: v.count(c)}
		if c.ID != nil {
			info.ID = c.ID.Name
		}
		out.Collections = append(out.Collections, info)
	}
	st.mu.RUnlock()
	return out
}

// records is a page of the records of collection (its file's name, its
// schema's, or its singular) as session ("": the global state) is served
// them in a list. A session that has made no request yet sees the loaded
// data, as its first request would; looking does not start it.
func (s *Server) records(collection, session string, offset, limit int) (scenarios.Records, error) {
	st := s.store.global
	st.mu.RLock()
	base := st.base
	st.mu.RUnlock()
	c := base.Model.Lookup(collection)
	if c == nil {
		names := make([]string, len(base.Model.Collections))
		for i, c := range base.Model.Collections {
			names[i] = c.File
		}
		return scenarios.Records{}, fmt.Errorf("%w %q (the data has: %s)", scenarios.ErrNoCollection, collection, strings.Join(names, ", "))
	}
	if session != "" {
		if st = s.store.peek(session); st == nil {
			st = &state{base: base}
		}
	}
	out := scenarios.Records{Collection: c.File, Session: session, Offset: offset, Limit: limit, Items: []json.RawMessage{}}
	st.mu.RLock()
	defer st.mu.RUnlock()
	// A record's JSON is never changed once made (writes replace it), so
	// the page may keep it after the lock is let go.
	view{base: st.base, ov: st.ov}.each(c, func(r *fixtures.Record) bool {
		if out.Total >= offset && len(out.Items) < limit {
			out.Items = append(out.Items, r.JSON)
		}
		out.Total++
		return true
	})
	return out, nil
}
