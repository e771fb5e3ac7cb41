package scenarios

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gorilla/mux"

	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
)

// contractIndex is what scenarios need of openapi.yaml: its paths in
// matching order, their operations and each operation's inputs.
type contractIndex struct {
	sp    *spec.Spec
	paths []*pathInfo
	// secretPaths: some path has a secret path parameter, so the journal
	// finds a request's template as it records it, to redact its value.
	secretPaths bool
}

type pathInfo struct {
	template string
	route    *mux.Route // matches the path only
	ops      []*opInfo
	// secretParams are the path parameters whose value is a credential
	// (model.SecretPathParams) in any of its operations.
	secretParams []string
}

// redact is path, which p's template matched, its secret path
// parameters' values redacted (model.RedactPath).
func (p *pathInfo) redact(path string) string {
	if len(p.secretParams) == 0 {
		return path
	}
	return model.RedactPath(p.template, path, func(name string) bool { return slices.Contains(p.secretParams, name) })
}

type opInfo struct {
	method, template string
	op               *openapi3.Operation
	inputs           fastapi.Inputs
	secrets          []string // form fields the contract marks format: password
	// envelope is the member of op's answer that holds its records
	// (model.Operation.Envelope): a passthrough changes them.
	envelope string
	paging   model.Paging // the list's paging parameters, when it has them
}

func (o *opInfo) String() string { return o.method + " " + o.template }

var methodOrder = []string{"GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"}

// newIndex indexes m's contract, sp. Each operation's inputs are the ones
// the model compiled; an operation whose inputs could not be compiled
// takes none (the mock answers it from its example), unless the model is
// strict, which refuses the contract as scenarios always did.
func newIndex(sp *spec.Spec, m *model.Model) (*contractIndex, error) {
	x := &contractIndex{sp: sp}
	compiled := map[*openapi3.Operation]*model.Operation{}
	if m != nil {
		for _, o := range m.Operations {
			compiled[o.Op] = o
		}
	}
	router := mux.NewRouter().SkipClean(true)
	fw, _ := framework.Detect(sp.Doc)
	if m != nil {
		fw = m.Framework
	}
	for _, tmpl := range framework.RouteOrder(sp.Paths(), fw) {
		item := sp.Doc.Paths.Value(tmpl)
		p := &pathInfo{template: tmpl, route: router.Path(tmpl)}
		for _, method := range methodOrder {
			op := item.GetOperation(method)
			if op == nil {
				continue
			}
			var ins fastapi.Inputs
			envelope, paging := "", model.Paging{}
			if o := compiled[op]; o != nil {
				envelope, paging = o.Envelope, o.Paging
				if o.InputsErr != nil && m.Strict {
					return nil, fmt.Errorf("%s %s: %w", method, tmpl, o.InputsErr)
				}
				ins = o.Inputs
			} else {
				var err error
				if ins, err = fastapi.CompileInputs(sp, op, item); err != nil {
					return nil, fmt.Errorf("%s %s: %w", method, tmpl, err)
				}
			}
			p.ops = append(p.ops, &opInfo{method: method, template: tmpl, op: op, inputs: ins, secrets: secretFields(op), envelope: envelope, paging: paging})
			for _, name := range model.SecretPathParams(item, op) {
				if !slices.Contains(p.secretParams, name) {
					p.secretParams = append(p.secretParams, name)
				}
			}
		}
		x.secretPaths = x.secretPaths || len(p.secretParams) > 0
		x.paths = append(x.paths, p)
	}
	return x, nil
}

// match finds the contract path r's path falls under, with its parameters
// decoded; nil when none does.
func (x *contractIndex) match(r *http.Request) (*pathInfo, map[string]string) {
	var m mux.RouteMatch
	for _, p := range x.paths {
		if p.route.Match(r, &m) {
			return p, m.Vars
		}
	}
	return nil, nil
}

func (x *contractIndex) path(template string) *pathInfo {
	for _, p := range x.paths {
		if p.template == template {
			return p
		}
	}
	return nil
}

// matchPath finds the contract path an exact path falls under.
func (x *contractIndex) matchPath(path string) *pathInfo {
	r, err := http.NewRequest("GET", "http://localhost", nil)
	if err != nil {
		return nil
	}
	r.URL.Path = path
	p, _ := x.match(r)
	return p
}

func (x *contractIndex) templates() string {
	out := make([]string, len(x.paths))
	for i, p := range x.paths {
		out[i] = p.template
	}
	return strings.Join(out, ", ")
}

func (p *pathInfo) op(method string) *opInfo {
	for _, o := range p.ops {
		if o.method == method {
			return o
		}
	}
	return nil
}

func (p *pathInfo) methods() string {
	out := make([]string, len(p.ops))
	for i, o := range p.ops {
		out[i] = o.method
	}
	return strings.Join(out, ", ")
}

// input finds the input called name in one of ops, from where (path,
// query, body); nil when none declares it.
func input(ops []*opInfo, where, name string) *fastapi.Input {
	for _, o := range ops {
		for i := range o.inputs.List {
			in := &o.inputs.List[i]
			if in.In == where && in.Name == name {
				return in
			}
		}
	}
	return nil
}

// inputNames lists the names of ops' inputs from where.
func inputNames(ops []*opInfo, where string) []string {
	var out []string
	for _, o := range ops {
		for _, in := range o.inputs.List {
			if in.In == where && !slices.Contains(out, in.Name) {
				out = append(out, in.Name)
			}
		}
	}
	return out
}

// jsonSchema is the schema of op's answer with status in JSON, nil when
// the contract gives none.
func jsonSchema(op *opInfo, status int) *openapi3.SchemaRef {
	resp := op.op.Responses.Status(status)
	if resp == nil || resp.Value == nil {
		return nil
	}
	media := resp.Value.Content.Get("application/json")
	if media == nil {
		return nil
	}
	return media.Schema
}

// changedSchema is the schema of what a passthrough changes in op's
// answer with status: the records its envelope holds in a 200, else the
// answer. envelope is that member, "" when the answer itself is changed.
func changedSchema(op *opInfo, status int) (ref *openapi3.SchemaRef, envelope string) {
	ref = jsonSchema(op, status)
	if op.envelope == "" || status != http.StatusOK || ref == nil || ref.Value == nil {
		return ref, ""
	}
	if inner := ref.Value.Properties[op.envelope]; inner != nil && inner.Value != nil {
		return inner, op.envelope
	}
	return ref, ""
}

// listPagingOf is the paging ops share, with the most records one request
// may ask for (the document's maximum of the limit or size, at most
// maxFiltered) and the default; nil when they have none, or not the same.
func listPagingOf(ops []*opInfo) *listPaging {
	if len(ops) == 0 {
		return nil
	}
	pg := ops[0].paging
	for _, o := range ops[1:] {
		if o.paging != pg {
			return nil
		}
	}
	name := pg.Limit
	if name == "" {
		name = pg.Size
	}
	if name == "" {
		return nil
	}
	out := &listPaging{Paging: pg, max: maxFiltered, defLimit: -1}
	param := ops[0].op.Parameters.GetByInAndName("query", name)
	if param == nil || param.Schema == nil || param.Schema.Value == nil {
		return out
	}
	sch := param.Schema.Value
	if sch.Max != nil && *sch.Max >= 1 && *sch.Max < maxFiltered {
		out.max = int64(*sch.Max)
	}
	switch d := sch.Default.(type) {
	case float64:
		out.defLimit = int64(d)
	case int:
		out.defLimit = int64(d)
	case int64:
		out.defLimit = d
	}
	return out
}

// declared lists the statuses op declares.
func declared(op *opInfo) []string {
	var out []string
	for code := range op.op.Responses.Map() {
		out = append(out, code)
	}
	slices.Sort(out)
	return out
}

// secretFields lists the body fields of op whose schema has format
// password or is writeOnly: the journal never shows their values.
func secretFields(op *openapi3.Operation) []string {
	if op.RequestBody == nil || op.RequestBody.Value == nil {
		return nil
	}
	var out []string
	for _, media := range op.RequestBody.Value.Content {
		if media.Schema == nil || media.Schema.Value == nil {
			continue
		}
		for name, prop := range media.Schema.Value.Properties {
			if prop.Value != nil && (prop.Value.Format == "password" || prop.Value.WriteOnly) && !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}

func (p *pathInfo) secret(method, field string) bool {
	o := p.op(method)
	return o != nil && slices.Contains(o.secrets, field)
}
