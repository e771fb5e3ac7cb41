package mock

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/model"
)

// maxNamed bounds how many values namedValues keeps.
const maxNamed = 100_000

// namedValues is Server.named: for each path parameter the values the
// contract gives it (examples, enum, default), keyed "param\x00value", and
// every string and number the answers of Example operations hold, keyed
// "\x00value". An operation that keeps no records answers for those and
// 404s the rest: a client (the runner among them) only ever learns a
// record's id from the contract or from an answer.
func (s *Server) namedValues() map[string]bool {
	named := map[string]bool{}
	add := func(key string) {
		if len(named) < maxNamed {
			named[key] = true
		}
	}
	for _, mo := range s.model.Operations {
		for _, list := range []openapi3.Parameters{mo.Item.Parameters, mo.Op.Parameters} {
			for _, p := range list {
				if p.Value == nil || p.Value.In != "path" {
					continue
				}
				for _, v := range paramValues(p.Value) {
					if str, ok := scalarText(v); ok {
						add(p.Value.Name + "\x00" + str)
					}
				}
			}
		}
	}
	s.eachExampleAnswer(func(body []byte) {
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		for len(named) < maxNamed {
			tok, err := dec.Token()
			if err != nil {
				break
			}
			switch t := tok.(type) {
			case string:
				add("\x00" + t)
			case json.Number:
				add("\x00" + t.String())
			}
		}
	})
	return named
}

// eachExampleAnswer calls each with every distinct JSON answer of the
// Example operations (one read again adds nothing), generated ones made
// now.
func (s *Server) eachExampleAnswer(each func(body []byte)) {
	seen := map[string]bool{}
	for _, o := range s.byRoute {
		if o.m.Kind != model.Example || o.media != "" {
			continue
		}
		if body := o.answer(); body != nil && !seen[string(body)] {
			seen[string(body)] = true
			each(body)
		}
	}
}

// maxShownBody is the largest answer whose objects shownObjects reads.
const maxShownBody = 1 << 20

// shownObjects is Server.shown: the objects the answers of Example
// operations hold, each under "member\x00value" for each of its scalar
// members (the first object seen for each): a record a list answered from
// its example shows ([{"id": "123abc", "name": …}]), found by the key a
// client read there.
func (s *Server) shownObjects() map[string]map[string]any {
	shown := map[string]map[string]any{}
	s.eachExampleAnswer(func(body []byte) {
		if len(body) > maxShownBody {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil {
			return
		}
		objects(v, 0, func(obj map[string]any) bool {
			for k, e := range obj {
				var text string
				switch y := e.(type) {
				case string:
					text = y
				case json.Number:
					text = y.String()
				default:
					continue
				}
				if _, ok := shown[k+"\x00"+text]; !ok {
					shown[k+"\x00"+text] = obj
				}
			}
			return len(shown) < maxNamed
		})
	})
	return shown
}

// objects calls each with each object under v, until it returns false.
func objects(v any, depth int, each func(map[string]any) bool) bool {
	if depth > 64 {
		return true
	}
	switch x := v.(type) {
	case map[string]any:
		if !each(x) {
			return false
		}
		for _, e := range x {
			if !objects(e, depth+1, each) {
				return false
			}
		}
	case []any:
		for _, e := range x {
			if !objects(e, depth+1, each) {
				return false
			}
		}
	}
	return true
}

// holders are, for each path parameter of mo, the collection whose
// records it names: the collection an operation on one record (its read,
// replace, update or delete) works on at the path up to the parameter
// (GET /pets/{id} for GET /pets/{id}/owner, GET /user/{username} for PUT
// /user/{username}; PUT /application/{id} for DELETE
// /application/{id}/message, where no GET reads one application); else
// the collection a create at the path before the parameter makes records
// of (POST /message for DELETE /message/{id}, where the list of messages
// is paged in an envelope and no operation reads one). nil when none
// does.
func (s *Server) holders(mo *model.Operation) map[string]*model.Collection {
	var out map[string]*model.Collection
	for _, made := range s.model.Operations {
		if made.Kind != model.Create || made.Coll == nil {
			continue
		}
		rest, ok := strings.CutPrefix(mo.Path, strings.TrimSuffix(made.Path, "/")+"/{")
		param, _, closed := strings.Cut(rest, "}")
		if !ok || !closed || param == "" {
			continue
		}
		if out == nil {
			out = map[string]*model.Collection{}
		}
		out[param] = made.Coll
	}
	for _, read := range s.model.Operations {
		switch read.Kind {
		case model.ReadOne, model.Replace, model.Update, model.Delete:
		default:
			continue
		}
		if read.Coll == nil || read.IDParam == "" || !strings.HasSuffix(read.Path, "/{"+read.IDParam+"}") ||
			(mo.Path != read.Path && !strings.HasPrefix(mo.Path, read.Path+"/")) {
			continue
		}
		if out == nil {
			out = map[string]*model.Collection{}
		}
		out[read.IDParam] = read.Coll
	}
	return out
}

// paramValues are the values a parameter's declaration gives it.
func paramValues(p *openapi3.Parameter) []any {
	var out []any
	if p.Example != nil {
		out = append(out, p.Example)
	}
	for _, ex := range p.Examples {
		if ex != nil && ex.Value != nil && ex.Value.Value != nil {
			out = append(out, ex.Value.Value)
		}
	}
	if p.Schema != nil && p.Schema.Value != nil {
		sc := p.Schema.Value
		if sc.Example != nil {
			out = append(out, sc.Example)
		}
		out = append(out, sc.Examples...)
		out = append(out, sc.Enum...)
		if sc.Default != nil {
			out = append(out, sc.Default)
		}
	}
	return out
}

// scalarText is a declared value as a path carries it.
func scalarText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case int:
		return strconv.Itoa(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}
