package mock

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/moviemock/moviemock/internal/fastapi"
)

// validate reads every input of the request and checks it as FastAPI does:
// all errors are collected, in order, and vals is filled position by
// position. A non-nil error is a body that could not be parsed at all
// (400/413).
// validate checks r's parameters against ins, vars being its path
// parameters, filling vals.
func (s *Server) validate(r *http.Request, vars map[string]string, ins *fastapi.Inputs, vals []fastapi.Value) ([]fastapi.ErrorItem, error) {
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
	var cookies map[string]string
	if ins.HasCookie {
		cookies = fastapi.Cookies(r.Header)
	}
	var modelInput fastapi.RawJSON
	var src *fastapi.Source
	styled := func() fastapi.Source {
		if src == nil {
			src = &fastapi.Source{Query: query, Header: r.Header, Path: vars, Cookies: cookies, Form: form.Fields}
		}
		return *src
	}
	for i := range ins.List {
		in := &ins.List[i]
		if in.Object != nil && !in.List {
			v, objItems := in.CheckObject(s.spec, styled())
			items = append(items, objItems...)
			vals[i] = v
			continue
		}
		if in.List && in.Style != "" && in.In != "body" {
			raws, _ := in.StyledList(styled())
			v, listItems := in.CheckList(s.spec, raws)
			items = append(items, listItems...)
			vals[i] = v
			continue
		}
		if in.List && in.In != "path" {
			var v fastapi.Value
			var listItems []fastapi.ErrorItem
			if in.In == "body" {
				v, listItems = in.CheckFormList(s.spec, in.FormList(form.Values(in.Name)))
			} else {
				v, listItems = in.CheckList(s.spec, listValues(r, query, cookies, in))
			}
			items = append(items, listItems...)
			vals[i] = v
			continue
		}
		raw, present := "", false
		switch in.In {
		case "path":
			raw, present = vars[in.Name]
		case "query":
			// FastAPI reads the last value of a repeated query parameter.
			if vs := query[in.Name]; len(vs) > 0 {
				raw, present = vs[len(vs)-1], true
			}
		case "header":
			if vs := r.Header.Values(in.Name); len(vs) > 0 {
				raw, present = fastapi.Latin1(vs[0]), true
			} else if strings.EqualFold(in.Name, "host") && r.Host != "" {
				// net/http moves the Host header out of r.Header.
				raw, present = r.Host, true
			}
		case "cookie":
			raw, present = cookies[in.Name]
			raw = fastapi.Latin1(raw)
		case "body":
			if f, ok := form.Files[in.Name]; ok {
				if item := in.CheckFile(f, in.Loc); item != nil {
					items = append(items, *item)
				} else {
					vals[i] = fastapi.Value{Set: true, Str: f.Filename}
				}
				continue
			}
			raw, present = form.Fields[in.Name]
		}
		if in.Style != "" {
			raw, present = in.StyledScalar(raw, present)
		}
		v, item := in.Check(s.spec, raw, present)
		if item != nil {
			if ins.FormModel && in.In == "body" && item.Type == "missing" {
				if modelInput == nil {
					modelInput = ins.FormModelInput(form)
				}
				item.Input = modelInput
			}
			items = append(items, *item)
		}
		vals[i] = v
	}
	if ins.Form {
		items = append(items, ins.ExtraForbidden(form)...)
	}
	return items, nil
}

// listValues is every value the request carries for a List parameter:
// each repeated query key, each line of a repeated header (a comma inside
// a line does not split it), the cookie's value.
func listValues(r *http.Request, query url.Values, cookies map[string]string, in *fastapi.Input) []string {
	switch in.In {
	case "query":
		return query[in.Name]
	case "header":
		vs := r.Header.Values(in.Name)
		out := make([]string, len(vs))
		for i, v := range vs {
			out[i] = fastapi.Latin1(v)
		}
		return out
	case "cookie":
		if v, ok := cookies[in.Name]; ok {
			return []string{fastapi.Latin1(v)}
		}
	}
	return nil
}
