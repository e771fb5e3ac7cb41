package scenarios

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/openapiprofile"
)

// preference is a parsed Prefer header, as Prism reads it:
// "code=404", "example=sparse", "dynamic=true", comma-separated.
type preference struct {
	code    int
	example string
	dynamic bool
}

func parsePrefer(v string) (preference, error) {
	var p preference
	for _, part := range strings.Split(v, ",") {
		k, val, _ := strings.Cut(strings.TrimSpace(part), "=")
		val = strings.Trim(strings.TrimSpace(val), `"`)
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "code":
			n, err := strconv.Atoi(val)
			if err != nil || n < 100 || n > 599 {
				return p, fmt.Errorf("Prefer: code=%q is not an HTTP status", val)
			}
			if n < 200 {
				// A 1xx is interim: net/http would send it and then a 200
				// on the same connection, which is no answer of its own.
				return p, fmt.Errorf("Prefer: code=%d is an interim (1xx) status, not an answer; choose a final status, 200 to 599", n)
			}
			p.code = n
		case "example":
			p.example = val
		case "dynamic":
			p.dynamic = val == "true"
		}
		// Other preferences (RFC 7240: return=minimal, …) are not ours.
	}
	return p, nil
}

// prefer answers a request whose Prefer header chooses the answer: a
// status (code), one of the contract's named examples (example), or freshly
// generated data (dynamic). It reports false when the request is left to
// the normal answer. A chosen answer skips validation and scenarios, as in
// Prism.
func (e *Engine) prefer(w http.ResponseWriter, f *facts, header string, tr *trace) bool {
	pref, err := parsePrefer(header)
	if err != nil {
		writeMockError(w, http.StatusBadRequest, err.Error())
		return true
	}
	if pref.code == 0 && pref.example == "" && !pref.dynamic {
		return false
	}
	p, vars := f.route()
	if p == nil {
		return false
	}
	op := p.op(f.r.Method)
	if op == nil {
		return false
	}
	tr.prefer = header
	if !e.authorized(w, f) {
		return true // the 401 comes first, as in FastAPI
	}
	applied := make([]string, 0, 3)
	if pref.example != "" || pref.code != 0 && pref.code != http.StatusOK {
		code, body, ok, err := exampleAnswer(f.set, op, pref)
		if err != nil {
			writeMockError(w, http.StatusBadRequest, err.Error())
			return true
		}
		if ok {
			body = f.set.withPathID(op, vars, code, body)
			if pref.code != 0 {
				applied = append(applied, "code="+strconv.Itoa(code))
			}
			if pref.example != "" {
				applied = append(applied, "example="+pref.example)
			}
			w.Header().Set("Preference-Applied", strings.Join(applied, ", "))
			fastapi.WriteJSON(w, code, body)
			return true
		}
		if pref.code != http.StatusOK {
			w.Header().Set("Preference-Applied", "code="+strconv.Itoa(pref.code))
			e.frameworkAnswer(w, op, pref.code)
			return true
		}
	}
	if pref.dynamic {
		if body, ok := e.generated(op, vars); ok {
			w.Header().Set("Preference-Applied", "dynamic=true")
			fastapi.WriteJSON(w, http.StatusOK, body)
			return true
		}
	}
	if pref.code == http.StatusOK {
		w.Header().Set("Preference-Applied", "code=200")
	}
	return false
}

// exampleAnswer finds the contract's example for pref: the named one (of
// the preferred status, if any), or the first one of the preferred status.
// ok is false when the status declares none.
func exampleAnswer(set *Set, op *opInfo, pref preference) (int, []byte, bool, error) {
	var known []string
	codes := declared(op)
	for _, c := range codes {
		code, _ := strconv.Atoi(c)
		if pref.code != 0 && code != pref.code {
			continue
		}
		at := []string{"paths", op.template, strings.ToLower(op.method), "responses", c, "content", "application/json", "examples"}
		for _, name := range set.index.sp.KeyOrder(at...) {
			known = append(known, name)
			if pref.example != "" && name != pref.example {
				continue
			}
			raw, ok := set.index.sp.RawJSON(append(at, name, "value")...)
			if !ok {
				continue
			}
			// Written as the backend writes JSON, members in the
			// order the contract gives them.
			body, err := fastapi.AppendCompact(nil, raw)
			if err != nil {
				return 0, nil, false, fmt.Errorf("example %q of %s: %v", name, op, err)
			}
			return code, body, true, nil
		}
	}
	if pref.example != "" {
		return 0, nil, false, fmt.Errorf("%s has no example %q (it has: %s)", op, pref.example, orNone(known))
	}
	return 0, nil, false, nil
}

// withPathID gives an example of an operation that answers the one record
// its path names (GET, PUT or PATCH /person/{person_id}) that record's id:
// the example's record with its id member replaced by the path's, so
// example=sparse on /person/7 is person 7. Other answers, and ids the
// collection's id kind does not take (FastAPI would answer 422), are left
// as the contract gives them.
func (s *Set) withPathID(op *opInfo, vars map[string]string, code int, body []byte) []byte {
	if code < 200 || code > 299 || s.data == nil || s.data.Model == nil {
		return body
	}
	var mo *model.Operation
	for _, o := range s.data.Model.Operations {
		if o.Method == op.method && o.Path == op.template {
			mo = o
			break
		}
	}
	if mo == nil || mo.IDParam == "" || mo.Shape != model.OneShape || mo.Coll == nil || mo.Coll.ID == nil {
		return body
	}
	switch mo.Kind {
	case model.ReadOne, model.Replace, model.Update:
	default:
		return body
	}
	raw, ok := vars[mo.IDParam]
	if !ok {
		return body
	}
	var id []byte
	if mo.Coll.IDKind == model.IntID {
		n, ok := fastapi.ParseLaxInt(raw)
		if !ok {
			return body
		}
		id = []byte(n.Text)
	} else {
		id = fastapi.AppendString(nil, raw)
	}
	return replaceMember(body, mo.Coll.ID.Name, id)
}

// replaceMember returns the JSON object obj with its top-level member name
// set to the JSON value v, members kept in order; obj itself when it is
// not an object or has no such member.
func replaceMember(obj []byte, name string, v []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return obj
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return obj
		}
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return obj
		}
		if key, _ := t.(string); key == name {
			end := int(dec.InputOffset())
			start := end - len(val)
			out := make([]byte, 0, len(obj)-len(val)+len(v))
			out = append(out, obj[:start]...)
			out = append(out, v...)
			return append(out, obj[end:]...)
		}
	}
	return obj
}

// frameworkAnswer is what FastAPI sends for a status the endpoint raises
// without a body of its own: HTTPException(status) with the operation's
// own 404 detail, or the status phrase, and a 500 as Starlette sends it.
func (e *Engine) frameworkAnswer(w http.ResponseWriter, op *opInfo, code int) {
	if e.opts.Refusals != nil {
		if code == http.StatusUnauthorized {
			if sec := openapiprofile.CompileSecurity(e.opts.Refusals.Doc(), op.op); sec != nil {
				w.Header().Set("WWW-Authenticate", sec.Challenge())
			}
		}
		e.opts.Refusals.Write(w, op.op, code, nil)
		return
	}
	switch code {
	case http.StatusInternalServerError:
		fastapi.WriteServerError(w)
		return
	case http.StatusUnauthorized:
		w.Header().Set("WWW-Authenticate", "Bearer")
		fastapi.WriteDetail(w, code, fastapi.DetailNotAuthenticated)
		return
	case http.StatusUnprocessableEntity:
		var items []fastapi.ErrorItem
		if len(op.inputs.List) > 0 {
			items = append(items, fastapi.Missing(op.inputs.List[0].Loc...))
		}
		fastapi.WriteValidation(w, items)
		return
	case http.StatusNotFound:
		if d := e.opts.NotFound[op.op.OperationID]; d != "" {
			fastapi.WriteDetail(w, code, d)
			return
		}
	}
	detail := http.StatusText(code)
	if detail == "" {
		detail = strconv.Itoa(code)
	}
	fastapi.WriteDetail(w, code, detail)
}

// generated renders fresh data for op's 200 answer when the generator
// makes its kind: one record, its id the request's path parameter, or a
// list.
func (e *Engine) generated(op *opInfo, vars map[string]string) ([]byte, bool) {
	ref := jsonSchema(op, http.StatusOK)
	if ref == nil || ref.Value == nil {
		return nil, false
	}
	e.mu.Lock()
	e.dynamic++
	seed := e.opts.Seed + e.dynamic
	e.mu.Unlock()
	if isList(ref) {
		if ref.Value.Items == nil || ref.Value.Items.Ref == "" {
			return nil, false
		}
		n := 5 + int(seed%16)
		body, err := fixtures.GenerateJSON(e.Set().data.Model, path.Base(ref.Value.Items.Ref), n, seed)
		return body, err == nil
	}
	if ref.Ref == "" {
		return nil, false
	}
	params := inputNames([]*opInfo{op}, "path")
	id := ""
	if len(params) == 1 {
		id = vars[params[0]]
	}
	if id == "" {
		return nil, false
	}
	body, err := fixtures.GenerateOne(e.Set().data.Model, path.Base(ref.Ref), id, seed)
	return body, err == nil
}
