package model

import (
	"net/url"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// SecretName reports whether a field's name says it holds a credential,
// whatever its schema says (FastAPI's plain str password of a registration
// body has no format): it holds "password" or "secret", or is or ends with
// "token" (token, access_token, refreshToken; not token_type), or is an
// API key (api_key, apiKey, x-api-key). The journal
// blanks such fields, the contract reports redact them, and a recording
// never writes them: one rule, so that what one hides the others do not
// show.
func SecretName(name string) bool {
	n := strings.ToLower(name)
	key := keySeparators.Replace(n)
	return strings.Contains(n, "password") || strings.Contains(n, "secret") || strings.HasSuffix(n, "token") || strings.HasSuffix(key, "apikey")
}

// keySeparators are taken out of a name before it is compared with
// "apikey". Built once: a Replacer builds its tables on first use, which
// cost more than the rest of SecretName when made on every call.
var keySeparators = strings.NewReplacer("_", "", "-", "")

// Redacted is what a secret's value is shown as.
const Redacted = "[redacted]"

// RedactQuery is the raw query string q with the value of every parameter
// whose name secret reports (SecretName, or what a contract marks)
// replaced by Redacted, the rest kept byte for byte: a ?token= or an
// ?api_key= in a journal entry or a report's URL shows no credential.
func RedactQuery(q string, secret func(string) bool) string {
	if q == "" {
		return q
	}
	var b strings.Builder
	for i, p := range strings.Split(q, "&") {
		if i > 0 {
			b.WriteByte('&')
		}
		name, _, hasValue := strings.Cut(p, "=")
		if hasValue && secret(queryName(name)) {
			b.WriteString(name)
			b.WriteString("=" + Redacted)
			continue
		}
		b.WriteString(p)
	}
	return b.String()
}

// queryName is a query parameter's name as sent, decoded where it can be.
func queryName(s string) string {
	if n, err := url.QueryUnescape(s); err == nil {
		return n
	}
	return s
}

// SecretParam reports whether a parameter's value is a credential: its
// name says so (SecretName), or its schema marks it as the contract marks
// a secret field, format: password or writeOnly (pydantic's SecretStr),
// also as a member of an anyOf or oneOf (an optional SecretStr).
func SecretParam(p *openapi3.Parameter) bool {
	if p == nil {
		return false
	}
	if SecretName(p.Name) {
		return true
	}
	if p.Schema == nil || p.Schema.Value == nil {
		return false
	}
	s := p.Schema.Value
	if secretSchema(s) {
		return true
	}
	for _, list := range []openapi3.SchemaRefs{s.AnyOf, s.OneOf, s.AllOf} {
		for _, e := range list {
			if e != nil && e.Value != nil && secretSchema(e.Value) {
				return true
			}
		}
	}
	return false
}

func secretSchema(s *openapi3.Schema) bool { return s.Format == "password" || s.WriteOnly }

// SecretPathParams are the names of the path parameters of an operation
// (its path item's and its own) whose value is a credential (SecretParam):
// GET /reset-password/{token}, /api-keys/{api_key}. Nil when none.
func SecretPathParams(item *openapi3.PathItem, op *openapi3.Operation) []string {
	var out []string
	for _, list := range []openapi3.Parameters{itemParams(item), opParams(op)} {
		for _, p := range list {
			if p != nil && p.Value != nil && p.Value.In == "path" && SecretParam(p.Value) && !slices.Contains(out, p.Value.Name) {
				out = append(out, p.Value.Name)
			}
		}
	}
	return out
}

func itemParams(item *openapi3.PathItem) openapi3.Parameters {
	if item == nil {
		return nil
	}
	return item.Parameters
}

func opParams(op *openapi3.Operation) openapi3.Parameters {
	if op == nil {
		return nil
	}
	return op.Parameters
}

// TemplateParams are the names of the parameters a path template holds,
// in order.
func TemplateParams(template string) []string {
	var out []string
	for _, seg := range strings.Split(template, "/") {
		out = append(out, segmentParams(seg)...)
	}
	return out
}

// segmentParams are the names of the parameters of one template segment:
// {token}, or the several of {name}.{ext}.
func segmentParams(seg string) []string {
	var out []string
	for {
		open := strings.IndexByte(seg, '{')
		if open < 0 {
			return out
		}
		end := strings.IndexByte(seg[open:], '}')
		if end < 0 {
			return out
		}
		name, _, _ := strings.Cut(seg[open+1:open+end], ":") // Starlette's {path:path}
		out = append(out, name)
		seg = seg[open+end+1:]
	}
}

// RedactPath is path, a request's path that template matched, with the
// value of every parameter of template that secret reports replaced by
// Redacted, the rest kept byte for byte: /reset-password/{token} shows
// /reset-password/[redacted]. The value is found by its place in the
// template, never by searching for it: a token "users" leaves /users
// alone. path may start with segments the template does not name (a
// server's base path, /api/v1), found by the template's fixed segments
// at the end; where a parameter may span several segments (Starlette's
// {file_path:path}) every segment it could cover is redacted. A path
// with no secret parameter comes back as it is.
func RedactPath(template, path string, secret func(string) bool) string {
	if !strings.Contains(template, "{") || secret == nil {
		return path
	}
	tsegs := strings.Split(template, "/")
	var hits []int // the template segments holding a secret parameter
	for i, seg := range tsegs {
		for _, name := range segmentParams(seg) {
			if secret(name) {
				hits = append(hits, i)
				break
			}
		}
	}
	if len(hits) == 0 {
		return path
	}
	psegs := strings.Split(path, "/")
	d := len(psegs) - len(tsegs)
	if d < 0 {
		// Fewer segments than the template has: not a path it matched.
		// Whatever could be a secret's goes.
		for j := min(hits[0], len(psegs)-1); j >= 0 && j < len(psegs); j++ {
			if j > 0 || psegs[j] != "" {
				psegs[j] = Redacted
			}
		}
		return strings.Join(psegs, "/")
	}
	// k leading segments are a prefix the template does not name, and d-k
	// more are taken by a parameter spanning segments: the largest k at
	// which every fixed segment of the template is in its place.
	k := d
	for ; k > 0; k-- {
		if fixedFit(tsegs, psegs, k, d) {
			break
		}
	}
	for _, i := range hits {
		if k == d {
			psegs[i+k] = redactSegment(tsegs[i], psegs[i+k], secret)
			continue
		}
		for j := i + k; j <= i+d; j++ {
			psegs[j] = Redacted
		}
	}
	return strings.Join(psegs, "/")
}

// fixedFit reports whether every fixed segment i of the template (one
// with no parameter) is path segment i+k, or i+d past a parameter that
// spans segments.
func fixedFit(tsegs, psegs []string, k, d int) bool {
	for i, seg := range tsegs {
		if strings.Contains(seg, "{") || i == 0 { // the "" before the first /: a prefix's
			continue
		}
		if psegs[i+k] != seg && psegs[i+d] != seg {
			return false
		}
	}
	return true
}

// redactSegment is a path segment with the value of the template
// segment's secret parameter redacted: the whole segment for {token},
// the fixed text around it kept for {token}.json; the whole segment when
// it holds several parameters or does not fit.
func redactSegment(tseg, pseg string, secret func(string) bool) string {
	names := segmentParams(tseg)
	open, end := strings.IndexByte(tseg, '{'), strings.LastIndexByte(tseg, '}')
	if len(names) != 1 || open < 0 || end < open {
		return Redacted
	}
	pre, suf := tseg[:open], tseg[end+1:]
	if len(pseg) < len(pre)+len(suf) || !strings.HasPrefix(pseg, pre) || !strings.HasSuffix(pseg, suf) {
		return Redacted
	}
	return pre + Redacted + suf
}
