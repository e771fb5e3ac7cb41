package mock

import (
	"net/http"
	"net/url"

	"github.com/gorilla/mux"

	"github.com/moviemock/moviemock/internal/fastapi"
)

// validate reads every input of the request and checks it as FastAPI does:
// all errors are collected, in order, and vals is filled position by
// position. A non-nil error is a body that could not be parsed at all
// (400/413).
func (s *Server) validate(r *http.Request, ins *fastapi.Inputs, vals []fastapi.Value) ([]fastapi.ErrorItem, error) {
	var items []fastapi.ErrorItem
	var query url.Values
	if ins.HasQuery {
		query = r.URL.Query()
	}
	var form fastapi.Form
	if ins.Form {
		var err error
		if form, err = fastapi.ParseForm(r, s.cfg.MaxBodyBytes); err != nil {
			return nil, err
		}
	}
	var vars, cookies map[string]string
	for i := range ins.List {
		in := &ins.List[i]
		raw, present := "", false
		switch in.In {
		case "path":
			if vars == nil {
				vars = mux.Vars(r)
			}
			raw, present = vars[in.Name]
		case "query":
			// FastAPI reads the last value of a repeated query parameter.
			if vs := query[in.Name]; len(vs) > 0 {
				raw, present = vs[len(vs)-1], true
			}
		case "header":
			if vs := r.Header.Values(in.Name); len(vs) > 0 {
				raw, present = vs[0], true
			}
		case "cookie":
			if cookies == nil {
				cookies = fastapi.Cookies(r.Header)
			}
			raw, present = cookies[in.Name]
		case "body":
			if f, ok := form.Files[in.Name]; ok {
				items = append(items, *in.CheckFile(f))
				continue
			}
			raw, present = form.Fields[in.Name]
		}
		v, item := in.Check(s.spec, raw, present)
		if item != nil {
			items = append(items, *item)
		}
		vals[i] = v
	}
	return items, nil
}
