package mock

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/model"
)

// mediaAlt is an Example operation's answer in one of the media types
// its success response declares.
type mediaAlt struct {
	declared string // the media type as declared (a range, say)
	media    string // the Content-Type written; "" for application/json
	body     []byte
	stream   bool
	// gen, when set, makes body on first use (see lazyAlternatives).
	gen func() []byte
}

// bytes is the alternative's body.
func (a *mediaAlt) bytes() []byte {
	if a.gen != nil {
		return a.gen()
	}
	return a.body
}

// mediaAlternatives is, for a document that is not FastAPI's, an Example
// operation's answer in each media type its success response declares,
// the one it answers by default (model.Operation.Media) first; nil for a
// FastAPI document, whose answers stay as FastAPI writes them.
//
//   - a JSON type: the declared example, else a generated value;
//   - a range (*/*, application/*): JSON when the schema is JSON-like
//     (an object, an array, a number, a boolean), else text;
//   - XML (application/xml, text/xml, +xml): the declared example, else a
//     generated value written as XML (see renderXML);
//   - anything else: as mediaAnswer answers it (text, a small file).
func (s *Server) mediaAlternatives(mo *model.Operation, newFaker func() *gofakeit.Faker) []mediaAlt {
	if s.model == nil || s.model.Framework == framework.FastAPI || mo.Media == "" || mo.Op.Responses == nil {
		return nil
	}
	resp := mo.Op.Responses.Value(mo.StatusKey)
	if resp == nil || resp.Value == nil {
		return nil
	}
	content := resp.Value.Content
	order := s.spec.KeyOrder("paths", mo.Path, strings.ToLower(mo.Method), "responses", mo.StatusKey, "content")
	for mt := range content {
		if !slices.Contains(order, mt) {
			order = append(order, mt)
		}
	}
	if i := slices.Index(order, mo.Media); i > 0 {
		order = append([]string{mo.Media}, slices.Delete(order, i, i+1)...)
	}
	if alts, ok := s.lazyAlternatives(mo, content, order, newFaker); ok {
		return alts
	}
	f := newFaker()
	var alts []mediaAlt
	for _, mt := range order {
		entry := content[mt]
		if entry == nil {
			continue
		}
		alts = append(alts, s.answerIn(mo, mt, entry, f))
	}
	return alts
}

// lazyAlternatives is mediaAlternatives when every alternative is JSON
// (the common case): the declared examples are read now, and the values
// generated for the others are made when the operation is first
// answered, by one faker in the order answerIn would have made them, so
// they are the same bytes. Their plans are compiled now, in that order,
// so the generator's notes (GenerationNotes) are what they were. false
// when an alternative is not JSON: mediaAlternatives makes them all now.
func (s *Server) lazyAlternatives(mo *model.Operation, content openapi3.Content, order []string, newFaker func() *gofakeit.Faker) ([]mediaAlt, bool) {
	for _, mt := range order {
		if entry := content[mt]; entry != nil && !jsonAlternative(mt, entry) {
			return nil, false
		}
	}
	var alts []mediaAlt
	var pending []int // the alternatives generated, in order
	for _, mt := range order {
		entry := content[mt]
		if entry == nil {
			continue
		}
		a := mediaAlt{declared: mt}
		base := mediaBase(mt)
		a.body = model.DeclaredExample(s.spec, mo, mt, entry.Schema)
		if a.body == nil && entry.Schema != nil {
			s.fake.Finite(entry.Schema) // its plan, as Append would compile it
			pending = append(pending, len(alts))
		}
		if base != "application/json" && !isRange(base) {
			a.media = mt
		}
		alts = append(alts, a)
	}
	if len(pending) == 0 {
		return alts, true
	}
	schemas := make([]*openapi3.SchemaRef, len(pending))
	for k, i := range pending {
		schemas[k] = content[alts[i].declared].Schema
	}
	bodies := sync.OnceValue(func() [][]byte {
		f := newFaker()
		out := make([][]byte, len(schemas))
		for k, schema := range schemas {
			out[k] = s.fake.Append(nil, f, "", schema)
		}
		return out
	})
	for k, i := range pending {
		alts[i].gen = func() []byte { return bodies()[k] }
	}
	return alts, true
}

// jsonAlternative reports whether answerIn answers the media type mt as
// JSON: a JSON type, or a range whose schema is JSON-like.
func jsonAlternative(mt string, entry *openapi3.MediaType) bool {
	base := mediaBase(mt)
	return fastapi.IsJSONMedia(base) || isRange(base) && jsonLike(entry.Schema)
}

// mediaBase is a media type without its parameters, lower case.
func mediaBase(mt string) string {
	return strings.ToLower(strings.TrimSpace(strings.Split(mt, ";")[0]))
}

// answerIn is mo's answer in the declared media type mt.
func (s *Server) answerIn(mo *model.Operation, mt string, entry *openapi3.MediaType, f *gofakeit.Faker) mediaAlt {
	a := mediaAlt{declared: mt}
	base := mediaBase(mt)
	switch {
	case jsonAlternative(mt, entry):
		a.body = model.DeclaredExample(s.spec, mo, mt, entry.Schema)
		if a.body == nil && entry.Schema != nil {
			a.body = s.fake.Append(nil, f, "", entry.Schema)
		}
		if base != "application/json" && !isRange(base) {
			a.media = mt
		}
	case isXML(base):
		a.body = model.DeclaredExample(s.spec, mo, mt, entry.Schema)
		if a.body == nil && entry.Schema != nil && entry.Schema.Value != nil && !entry.Schema.Value.Type.Is("string") {
			a.body = renderXML(s.spec, entry.Schema, s.fake.Append(nil, f, "", entry.Schema))
		}
		if a.body == nil {
			a.body, _ = fastapi.SampleBody(base, s.text(f, entry.Schema))
		}
		a.media = fastapi.ResponseContentType(base)
	case base == "*/*":
		a.body, a.media = []byte(s.text(f, entry.Schema)), "text/plain; charset=utf-8"
		if ex := model.DeclaredExample(s.spec, mo, mt, entry.Schema); ex != nil {
			a.body = ex
		}
	default:
		clone := *mo
		clone.Media, clone.MediaSchema, clone.Items = mt, entry.Schema, entry.ItemSchema
		clone.Example = model.DeclaredExample(s.spec, mo, mt, entry.Schema)
		a.body, a.media, a.stream = s.mediaAnswer(&clone, f)
	}
	return a
}

// isRange reports whether a media type is a range: */*, application/*.
func isRange(mt string) bool { return strings.HasSuffix(mt, "/*") }

// isXML reports whether a media type is XML (an SVG image aside).
func isXML(mt string) bool {
	return mt == "application/xml" || mt == "text/xml" || strings.HasSuffix(mt, "+xml") && mt != "image/svg+xml"
}

// jsonLike reports whether a schema describes a value written as JSON
// rather than as text: anything but a string.
func jsonLike(ref *openapi3.SchemaRef) bool {
	if ref == nil || ref.Value == nil {
		return false
	}
	v := ref.Value
	if v.Type != nil && len(v.Type.Slice()) > 0 {
		return !v.Type.Is("string")
	}
	return len(v.Properties) > 0 || v.Items != nil || len(v.AllOf)+len(v.OneOf)+len(v.AnyOf) > 0
}

// pickMedia is the alternative an Accept header asks for: the declared
// media type of the highest quality the header accepts, in declared order
// among equals; the first (the default) when the header accepts none or
// is absent.
func pickMedia(alts []mediaAlt, accept string) *mediaAlt {
	best, bestQ := 0, -1.0
	if strings.TrimSpace(accept) == "" {
		return &alts[0]
	}
	for i := range alts {
		if q := acceptQ(accept, alts[i].declared); q > bestQ {
			best, bestQ = i, q
		}
	}
	if bestQ <= 0 {
		return &alts[0]
	}
	return &alts[best]
}

// acceptQ is the quality an Accept header gives a declared media type
// (itself perhaps a range): that of the most specific range matching it;
// 0 when none does. The header is read in its first 64 entries.
func acceptQ(accept, declared string) float64 {
	d := strings.ToLower(strings.TrimSpace(strings.Split(declared, ";")[0]))
	dMain, dSub, _ := strings.Cut(d, "/")
	q, spec := 0.0, -1
	for i, part := range strings.Split(accept, ",") {
		if i == 64 {
			break
		}
		fields := strings.Split(part, ";")
		r := strings.ToLower(strings.TrimSpace(fields[0]))
		rMain, rSub, ok := strings.Cut(r, "/")
		if !ok {
			continue
		}
		score := -1
		switch {
		case rMain == dMain && rSub == dSub:
			score = 2
		case rMain == dMain && rSub == "*", dMain == rMain && dSub == "*":
			score = 1
		case rMain == "*" && rSub == "*", dMain == "*":
			score = 0
		}
		if score < 0 || score < spec {
			continue
		}
		rq := 1.0
		for _, p := range fields[1:] {
			if k, v, ok := strings.Cut(strings.TrimSpace(p), "="); ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && f >= 0 && f <= 1 {
					rq = f
				}
			}
		}
		if score > spec || rq > q {
			q, spec = rq, score
		}
	}
	return q
}
