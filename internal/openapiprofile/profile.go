// Package openapiprofile is the plain-OpenAPI framework profile: how a mock
// answers a request it refuses when the document is not FastAPI's. It has
// no habits of its own beyond the document's word: a refusal takes the
// status and the body shape the operation declares for it, filled with real
// messages, and RFC 9457 problem details where the document declares
// nothing.
//
// It does not validate (the input checks produce the problems it words)
// nor route; the mock asks it what to write.
package openapiprofile

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/fake"
	"github.com/moviemock/moviemock/internal/spec"
)

// ProblemMedia is RFC 9457's media type, answered where the document
// declares no shape for a refusal.
const ProblemMedia = "application/problem+json"

// AddedStatuses are the statuses a mock under this profile answers
// although an operation may not declare them: bad input (400, or the
// declared 422), missing credentials, an unknown id or path, a wrong
// method, a conflict, a body too large or of another media type, and an
// answer no value fits. A runner judging such a target allows them as
// FastAPI's profile allows fastapi.FrameworkStatuses.
var AddedStatuses = []int{400, 401, 404, 405, 409, 413, 415, 422, 500}

// Profile answers one contract's refusals.
type Profile struct {
	sp   *spec.Spec
	gen  *fake.Generator
	seed uint64
	// common is, per status, the error response the document declares
	// most often (for answers of no operation: an unknown path, a wrong
	// method); under 0, the most common of any 4XX or default.
	common map[int]*openapi3.Response
	costs  sync.Map // *openapi3.Schema → checkCost
	// rendered keeps refusals already rendered (renderKey → rendered):
	// a refusal depends on nothing but its operation, status and
	// problems, and the same ones come again and again (an unknown path,
	// a missing credential). At most maxRendered are kept.
	rendered  sync.Map
	nRendered atomic.Int64
}

// maxRendered bounds how many refusals Render keeps, and maxRenderedKey
// the length of the problems' words one is kept for: problems that
// quote what a request sent differ from request to request.
const (
	maxRendered    = 4096
	maxRenderedKey = 512
)

type renderKey struct {
	op       *openapi3.Operation
	status   int
	problems string
}

type rendered struct {
	media string
	body  []byte
}

// New reads sp's error responses; gen renders the values the messages do
// not fill, seeded with seed.
func New(sp *spec.Spec, gen *fake.Generator, seed uint64) *Profile {
	p := &Profile{sp: sp, gen: gen, seed: seed, common: map[int]*openapi3.Response{}}
	counts := map[int]map[*openapi3.Response]int{}
	first := map[*openapi3.Response]int{}
	n := 0
	count := func(status int, r *openapi3.Response) {
		if counts[status] == nil {
			counts[status] = map[*openapi3.Response]int{}
		}
		counts[status][r]++
		if _, ok := first[r]; !ok {
			first[r] = n
			n++
		}
	}
	for _, path := range sp.Paths() {
		item := sp.Doc.Paths.Value(path)
		if item == nil {
			continue
		}
		for _, method := range methods {
			op := item.GetOperation(method)
			if op == nil || op.Responses == nil {
				continue
			}
			for code, ref := range op.Responses.Map() {
				if ref == nil || ref.Value == nil || jsonMedia(ref.Value) == "" {
					continue
				}
				status, err := strconv.Atoi(code)
				switch {
				case err == nil && status >= 400:
					count(status, ref.Value)
					count(0, ref.Value)
				case code == "default" || code == "4XX" || code == "5XX":
					count(0, ref.Value)
				}
			}
		}
	}
	for status, byResp := range counts {
		var best *openapi3.Response
		for r, c := range byResp {
			if best == nil || c > byResp[best] || c == byResp[best] && first[r] < first[best] {
				best = r
			}
		}
		p.common[status] = best
	}
	return p
}

// Doc is the document the profile answers for.
func (p *Profile) Doc() *openapi3.T { return p.sp.Doc }

var methods = []string{"GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"}

// BadInputStatus is the status op refuses invalid input with: 400 where it
// declares it, else 422 where it declares that, else 400 (under a 4XX
// range or default response, or none).
func BadInputStatus(op *openapi3.Operation) int {
	if op != nil && op.Responses != nil && op.Responses.Value("400") == nil && op.Responses.Value("422") != nil {
		return http.StatusUnprocessableEntity
	}
	return http.StatusBadRequest
}

// Response is the response op declares for status: the status itself,
// else its range (4XX), else default; nil when none.
func Response(op *openapi3.Operation, status int) *openapi3.Response {
	if op == nil || op.Responses == nil {
		return nil
	}
	for _, code := range []string{strconv.Itoa(status), strconv.Itoa(status/100) + "XX", "default"} {
		if ref := op.Responses.Value(code); ref != nil && ref.Value != nil {
			return ref.Value
		}
	}
	return nil
}

// Write answers a refusal of op (nil: of no operation, an unknown path)
// with status, in the shape op declares for it, else in the one the
// document declares most often for it, else for any error (not for a 401),
// else RFC 9457 problem details; problems say why (none: the status's
// phrase).
func (p *Profile) Write(w http.ResponseWriter, op *openapi3.Operation, status int, problems []Problem) {
	media, body := p.Render(op, status, problems)
	h := w.Header()
	h.Set("Content-Type", media)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}

// Render is the media type and body of a refusal (see Write). The body
// may be shared with other callers: it must not be changed.
func (p *Profile) Render(op *openapi3.Operation, status int, problems []Problem) (string, []byte) {
	key, ok := renderKeyOf(op, status, problems)
	if !ok {
		return p.render(op, status, problems)
	}
	if r, ok := p.rendered.Load(key); ok {
		return r.(rendered).media, r.(rendered).body
	}
	media, body := p.render(op, status, problems)
	if p.nRendered.Add(1) <= maxRendered {
		p.rendered.Store(key, rendered{media, body})
	}
	return media, body
}

// renderKeyOf is what a refusal is kept under; false when its problems'
// words are too long to keep.
func renderKeyOf(op *openapi3.Operation, status int, problems []Problem) (renderKey, bool) {
	words := 0
	for _, pr := range problems {
		words += len(pr.In) + len(pr.Field) + len(pr.Detail)
	}
	if words > maxRenderedKey || len(problems) > maxRenderedKey {
		return renderKey{}, false
	}
	// Each word after its length: words holding any byte stay apart.
	b := make([]byte, 0, words+3*binary.MaxVarintLen64*len(problems))
	for _, pr := range problems {
		for _, w := range [...]string{pr.In, pr.Field, pr.Detail} {
			b = append(binary.AppendUvarint(b, uint64(len(w))), w...)
		}
	}
	return renderKey{op: op, status: status, problems: string(b)}, true
}

// render is Render, made anew.
func (p *Profile) render(op *openapi3.Operation, status int, problems []Problem) (string, []byte) {
	if len(problems) == 0 {
		problems = []Problem{{Detail: strings.ToLower(http.StatusText(status))}}
	}
	resp := Response(op, status)
	switch {
	case resp != nil:
	case status == http.StatusUnauthorized:
		// A refusal of credentials the operation does not declare: the
		// 401 the document declares elsewhere, else problem details. An
		// error shape of other statuses (a 400's field errors) is no
		// answer to who is asking.
		resp = p.common[status]
	default:
		// A status the operation does not declare (or a request of no
		// operation): the document's usual shape for it, else for any
		// error.
		resp = cmp.Or(p.common[status], p.common[0])
	}
	if resp != nil {
		media, answered := jsonMedia(resp), ""
		if media == "" {
			media, answered = bytesMedia(resp)
		}
		if media == "" {
			media = yamlMedia(resp)
		}
		if media == "" {
			media = vendorMedia(resp)
		}
		if media != "" {
			if mt := resp.Content[media]; mt != nil && mt.Schema != nil && mt.Schema.Value != nil {
				schema := mt.Schema
				b := builder{p: p, status: status, problems: problems, steps: maxSteps,
					f: gofakeit.NewFaker(rand.NewPCG(p.seed, uint64(status)), false)}
				if body, ok := b.value(schema, "", nil, 0); ok {
					return cmp.Or(answered, media), body
				}
			} else if mt != nil && media == jsonMedia(resp) {
				// JSON of any shape (SmallRye writes a 400 as
				// application/json: {}): problem details fit it, in the
				// media type declared.
				return media, problemDetails(status, problems)
			}
		} else if text := textMedia(resp); text != "" {
			return text + "; charset=utf-8", []byte(joined(problems))
		}
	}
	return ProblemMedia, problemDetails(status, problems)
}

// jsonMedia is the JSON media type r declares: application/json, else
// the first +json one in name order; "" when none.
func jsonMedia(r *openapi3.Response) string {
	if r.Content["application/json"] != nil {
		return "application/json"
	}
	names := make([]string, 0, len(r.Content))
	for name, mt := range r.Content {
		if mt == nil {
			continue
		}
		base, _, _ := strings.Cut(strings.ToLower(name), ";")
		if strings.HasSuffix(strings.TrimSpace(base), "+json") || strings.TrimSpace(base) == "application/json" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	if len(names) == 0 {
		return ""
	}
	return names[0]
}

// bytesMedia is a media type r declares for any bytes, with a schema: a
// wildcard (*/*, application/*) or application/octet-stream, as a Swagger
// 2.0 document's `produces` gives every response of an operation that
// answers a file. Its schema is answered as JSON, under the wildcard as
// application/json (which it matches), else under the type declared, so
// that the answer is in a media type the document declares. "" when r
// declares none.
func bytesMedia(r *openapi3.Response) (declared, answered string) {
	for _, name := range []string{"application/octet-stream", "*/*", "application/*"} {
		if mt := r.Content[name]; mt != nil && mt.Schema != nil && mt.Schema.Value != nil {
			if name == "application/octet-stream" {
				return name, name
			}
			return name, "application/json"
		}
	}
	return "", ""
}

// yamlMedia is the YAML media type r declares with a schema
// (application/yaml, application/x-yaml, text/yaml, a +yaml suffix), as a
// Swagger 2.0 document's `produces` gives every response of an operation
// that answers YAML (gotify's plugin configuration): its schema is
// answered as JSON, which is YAML too (YAML 1.2 is a superset of JSON),
// under the type declared. "" when r declares none; the first in name
// order when several.
func yamlMedia(r *openapi3.Response) string {
	var names []string
	for name, mt := range r.Content {
		if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
			continue
		}
		base, _, _ := strings.Cut(strings.ToLower(name), ";")
		switch base = strings.TrimSpace(base); {
		case base == "application/yaml", base == "application/x-yaml", base == "text/yaml", base == "text/x-yaml",
			strings.HasSuffix(base, "+yaml"):
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return slices.Min(names)
}

// vendorMedia is a vendor media type r declares with a schema, its
// subtype neither suffixed (+xml, +yaml) nor a known format of other
// bytes: Goa's application/vnd.goa.error, a JSON object its clients
// decode as JSON. Its schema is answered as JSON under the type
// declared. "" when r declares none; the first in name order when
// several.
func vendorMedia(r *openapi3.Response) string {
	var names []string
	for name, mt := range r.Content {
		if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
			continue
		}
		base, _, _ := strings.Cut(strings.ToLower(name), ";")
		base = strings.TrimSpace(base)
		if sub, ok := strings.CutPrefix(base, "application/vnd."); ok && !strings.Contains(sub, "+") {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return slices.Min(names)
}

// textMedia is the text media type r declares, its parameters left out:
// text/plain, else the first text/* in name order (Harbor's CSV export
// declares its 404 in text/csv, as its `produces` says); its refusal is
// the problems' words. "" when r declares none.
func textMedia(r *openapi3.Response) string {
	var names []string
	for name := range r.Content {
		base, _, _ := strings.Cut(strings.ToLower(name), ";")
		base = strings.TrimSpace(base)
		if base == "text/plain" {
			return base
		}
		if strings.HasPrefix(base, "text/") && !strings.Contains(base, "*") && base != "text/event-stream" {
			names = append(names, base)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return slices.Min(names)
}

// problemDetails is RFC 9457's body: type about:blank, the status's title,
// the problems as detail and, one by one, as errors.
func problemDetails(status int, problems []Problem) []byte {
	type item struct {
		Pointer  string `json:"pointer,omitempty"`
		Location string `json:"location,omitempty"`
		Detail   string `json:"detail"`
	}
	body := struct {
		Type   string `json:"type"`
		Title  string `json:"title"`
		Status int    `json:"status"`
		Detail string `json:"detail"`
		Errors []item `json:"errors,omitempty"`
	}{Type: "about:blank", Title: http.StatusText(status), Status: status, Detail: joined(problems)}
	for _, pr := range problems {
		if pr.In == "" {
			continue
		}
		it := item{Detail: pr.Message()}
		if pr.In == "body" {
			it.Pointer = "#" + pr.Pointer()
		} else {
			it.Location = pr.Location()
		}
		body.Errors = append(body.Errors, it)
	}
	return marshal(body)
}

func joined(problems []Problem) string {
	msgs := make([]string, len(problems))
	for i, pr := range problems {
		msgs[i] = pr.Message()
	}
	return strings.Join(msgs, "; ")
}

func marshal(v any) []byte {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return []byte("null")
	}
	return []byte(strings.TrimSuffix(b.String(), "\n"))
}

// Code is a refusal's short code, for string fields named code:
// "bad_request", "not_found".
func Code(status int) string {
	text := http.StatusText(status)
	if text == "" {
		return "error"
	}
	return strings.ReplaceAll(strings.ToLower(strings.ReplaceAll(text, "-", " ")), " ", "_")
}
