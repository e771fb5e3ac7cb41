package compare

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/oasdiff/checker/localizations"

	"github.com/moviemock/moviemock/internal/spec"
)

// A finding's arguments are oasdiff's, in the order of its message
// template ("the %s request parameter %s became required"). oasdiff
// v1.35.0 gives no structured location (a change's source is a line and
// column, none when the document was handed over already parsed, as here),
// so the role of each argument is read from the English template around
// it: the word before or after a placeholder says what it is.
type role uint8

const (
	roleNone role = iota
	roleStatus
	roleParamIn
	roleParamName
	roleProperty
	roleMedia
)

var placeholder = regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z%]`)

// templateRoles is the role of each argument of oasdiff's check id, from
// its English message; nil when oasdiff has no message for it.
var templateRoles = func() func(id string) []role {
	var mu sync.Mutex
	cache := map[string][]role{}
	loc := localizations.New(localizations.LangDefault, localizations.LangDefault)
	return func(id string) []role {
		mu.Lock()
		defer mu.Unlock()
		if r, ok := cache[id]; ok {
			return r
		}
		key := "messages." + id
		tmpl := loc.Get(key)
		var roles []role
		if tmpl != key {
			roles = rolesOf(id, tmpl)
		}
		cache[id] = roles
		return roles
	}
}()

// rolesOf reads the role of each placeholder of tmpl, the message of
// oasdiff's check id.
func rolesOf(id, tmpl string) []role {
	locs := placeholder.FindAllStringIndex(tmpl, -1)
	var roles []role
	prevEnd := 0
	for i, loc := range locs {
		if tmpl[loc[0]:loc[1]] == "%%" {
			prevEnd = loc[1]
			continue
		}
		before := strings.ToLower(strings.TrimSpace(tmpl[prevEnd:loc[0]]))
		nextStart := len(tmpl)
		if i+1 < len(locs) {
			nextStart = locs[i+1][0]
		}
		after := strings.ToLower(strings.TrimSpace(tmpl[loc[1]:nextStart]))
		prevEnd = loc[1]
		r := roleNone
		param := strings.Contains(id, "parameter")
		switch {
		case strings.HasSuffix(before, "status") || strings.HasPrefix(after, "status") || strings.HasSuffix(before, "of response"):
			r = roleStatus
		case strings.HasSuffix(before, "media type"):
			r = roleMedia
		case param && strings.HasPrefix(after, "request parameter"):
			r = roleParamIn
		case param && strings.HasSuffix(before, "request parameter"):
			r = roleParamName
		case !param && !slices.Contains(roles, roleProperty) && (strings.HasSuffix(before, "property") || strings.HasPrefix(after, "request property") ||
			strings.HasPrefix(after, "response's property") || strings.HasPrefix(after, "response property") ||
			strings.HasPrefix(after, "property")):
			r = roleProperty
		}
		roles = append(roles, r)
	}
	return roles
}

// side is which body a finding concerns, from its id.
func sideOf(id string) string {
	switch {
	case strings.HasPrefix(id, "response-"):
		return "response"
	case strings.Contains(id, "request-"):
		return "request"
	}
	return ""
}

// argString is an argument as text: oasdiff passes lengths as runes and
// bounds as floats.
func argString(a any) string {
	switch v := a.(type) {
	case string:
		return v
	case fmt.Stringer:
		return v.String()
	}
	return fmt.Sprint(a)
}

// located fills a finding's place from its arguments: the parameter, the
// status, the media type, the property path.
func (f *finding) locate() {
	roles := templateRoles(f.engineID)
	f.side = sideOf(f.engineID)
	for i, a := range f.args {
		if i >= len(roles) {
			break
		}
		s := argString(a)
		switch roles[i] {
		case roleStatus:
			f.status = s
		case roleMedia:
			f.media = s
		case roleParamIn:
			f.paramIn = s
		case roleParamName:
			f.paramName = s
		case roleProperty:
			if f.side != "" {
				f.prop, f.hasProp = strings.TrimSuffix(s, "/"), true
			}
		}
	}
	if !f.hasProp && (strings.HasPrefix(f.engineID, "response-body-") || strings.HasPrefix(f.engineID, "request-body-")) {
		f.hasProp = true // the body itself
	}
}

// where is the finding's place as a reader names it: "query parameter
// limit", "request body: priority", "response 200 body: items[].title".
func (f *finding) where(old, new *spec.Spec) string {
	switch {
	case f.paramName != "":
		in := f.paramIn
		if in == "" {
			in = "request"
		}
		return in + " parameter " + f.paramName
	case f.hasProp:
		body := f.bodyName()
		if f.prop == "" {
			return body
		}
		return body + ": " + f.fieldName(old, new)
	case strings.Contains(f.engineID, "security"):
		return "security"
	case f.status != "":
		return "response " + f.status
	}
	return ""
}

// bodyName is "request body" or "response STATUS body".
func (f *finding) bodyName() string {
	if f.side == "response" {
		if f.status != "" {
			return "response " + f.status + " body"
		}
		return "response body"
	}
	return "request body"
}

// fieldName is the finding's property path written as a client reads it:
// oasdiff's "items/tags/items" is "[].tags[]" on an array of objects.
func (f *finding) fieldName(old, new *spec.Spec) string {
	docs := []*spec.Spec{old, new}
	if strings.Contains(f.engineID, "added") {
		docs = []*spec.Spec{new, old} // it is there only in NEW, if at all
	}
	for _, s := range docs {
		if _, name, ok := f.schemaAt(s, f.prop); ok {
			return name
		}
	}
	var parts []string
	for _, seg := range splitPath(f.prop) {
		if !alternative.MatchString(seg) {
			parts = append(parts, seg)
		}
	}
	// oasdiff names some fields by their own name only (a default changed
	// in "color", where the field is items[].color): the one field of
	// that name in the body, if only one.
	if len(parts) == 1 {
		for _, s := range docs {
			if name, ok := findField(f.bodySchema(s), parts[0]); ok {
				return name
			}
		}
	}
	return strings.Join(parts, ".")
}

// maxFieldSearch bounds findField's walk: the schemas it visits.
const maxFieldSearch = 10_000

// findField is the path, as fieldName writes it, of the one property
// named name in the schema under ref; false when there is none or more
// than one.
func findField(ref *openapi3.SchemaRef, name string) (string, bool) {
	type node struct {
		ref  *openapi3.SchemaRef
		path string
	}
	seen := map[*openapi3.Schema]bool{}
	queue := []node{{ref, ""}}
	found := ""
	n := 0
	for len(queue) > 0 && n < maxFieldSearch {
		cur := queue[0]
		queue = queue[1:]
		if cur.ref == nil || cur.ref.Value == nil || seen[cur.ref.Value] {
			continue
		}
		seen[cur.ref.Value] = true
		n++
		v := cur.ref.Value
		for _, k := range slices.Sorted(maps.Keys(v.Properties)) {
			p := k
			if cur.path != "" {
				p = cur.path + "." + k
			}
			if k == name {
				if found != "" && found != p {
					return "", false
				}
				found = p
			}
			queue = append(queue, node{v.Properties[k], p})
		}
		if v.Items != nil {
			queue = append(queue, node{v.Items, cur.path + "[]"})
		}
		for _, alts := range []openapi3.SchemaRefs{v.AnyOf, v.OneOf, v.AllOf} {
			for _, a := range alts {
				queue = append(queue, node{a, cur.path})
			}
		}
	}
	return found, found != ""
}

// schemaAt is the schema of the finding's body in s at the oasdiff
// property path prop ("" the body itself), and its name as fieldName
// writes it. Each place is resolved once per comparison (f.places): a
// path is its parent's place and one step more, so the findings of a
// chain of models, each a level deeper, cost what their paths do, not
// their depth times over.
func (f *finding) schemaAt(s *spec.Spec, prop string) (*openapi3.SchemaRef, string, bool) {
	body := f.bodySchema(s)
	if body == nil {
		return nil, "", false
	}
	if f.places == nil {
		f.places = places{}
	}
	at := f.places.at(body, prop)
	return at.ref, at.name, at.ok
}

// places are the schemas at the property paths of the bodies of one
// comparison, as they are resolved.
type places map[placeKey]placeAt

type placeKey struct {
	body *openapi3.SchemaRef
	prop string
}

type placeAt struct {
	ref   *openapi3.SchemaRef
	name  string
	depth int // steps from the body
	ok    bool
}

// maxPlaceDepth bounds the steps of a property path resolved to a schema:
// deeper, the place is not known, and the rules that read its schema
// (made-nullable, type-replaced) leave oasdiff's finding as it is.
const maxPlaceDepth = 256

// at is the schema below body at prop.
func (ps places) at(body *openapi3.SchemaRef, prop string) placeAt {
	key := placeKey{body, prop}
	if at, ok := ps[key]; ok {
		return at
	}
	var at placeAt
	if parent, seg, ok := lastStep(prop); !ok {
		at = placeAt{ref: body, ok: true}
	} else if up := ps.at(body, parent); up.ok && up.depth < maxPlaceDepth {
		at = step(up, seg)
	}
	ps[key] = at
	return at
}

// step is the place one oasdiff path segment below up.
func step(up placeAt, seg string) placeAt {
	ref := up.ref
	if m := alternative.FindStringSubmatch(seg); m != nil {
		// oasdiff's step into one alternative of a composition: the
		// field's name does not change.
		alt := pickAlternative(ref, m[1], m[2])
		if alt == nil {
			alt = pickAlternative(core(ref), m[1], m[2])
		}
		if alt == nil {
			return placeAt{}
		}
		return placeAt{ref: alt, name: up.name, depth: up.depth + 1, ok: true}
	}
	next, isItems := descend(ref, seg)
	if next == nil {
		return placeAt{}
	}
	name := up.name
	switch {
	case isItems:
		name += "[]"
	case name == "":
		name = seg
	default:
		name += "." + seg
	}
	return placeAt{ref: next, name: name, depth: up.depth + 1, ok: true}
}

// lastStep splits oasdiff's property path before its last segment, as
// splitPath reads its segments; ok false when it has none.
func lastStep(prop string) (parent, seg string, ok bool) {
	last, lastEnd := -1, -1
	depth := 0
	start := 0
	for i := 0; i <= len(prop); i++ {
		switch {
		case i == len(prop) || prop[i] == '/' && depth == 0:
			if i > start {
				last, lastEnd = start, i
			}
			start = i + 1
		case prop[i] == '[':
			depth++
		case prop[i] == ']' && depth > 0:
			depth--
		}
	}
	if last < 0 {
		return "", "", false
	}
	return strings.TrimRight(prop[:last], "/"), prop[last:lastEnd], true
}

// alternative is oasdiff's path segment for one alternative of a
// composition: "anyOf[subschema #1: Image]", "oneOf[#/components/schemas/Cat]".
var alternative = regexp.MustCompile(`^(anyOf|oneOf|allOf)\[(.*)\]$`)

var subschemaIndex = regexp.MustCompile(`^subschema #(\d+)`)

// splitPath splits oasdiff's property path at its slashes, but not those
// inside an alternative's brackets ("anyOf[#/components/schemas/Cat]").
func splitPath(prop string) []string {
	var segs []string
	depth := 0
	start := 0
	for i := 0; i <= len(prop); i++ {
		switch {
		case i == len(prop) || prop[i] == '/' && depth == 0:
			if i > start {
				segs = append(segs, prop[start:i])
			}
			start = i + 1
		case prop[i] == '[':
			depth++
		case prop[i] == ']' && depth > 0:
			depth--
		}
	}
	return segs
}

// pickAlternative is the alternative of ref's anyOf, oneOf or allOf that
// oasdiff names by its 1-based index or its component.
func pickAlternative(ref *openapi3.SchemaRef, kind, name string) *openapi3.SchemaRef {
	if ref == nil || ref.Value == nil {
		return nil
	}
	alts := map[string]openapi3.SchemaRefs{"anyOf": ref.Value.AnyOf, "oneOf": ref.Value.OneOf, "allOf": ref.Value.AllOf}[kind]
	if m := subschemaIndex.FindStringSubmatch(name); m != nil {
		if i, err := strconv.Atoi(m[1]); err == nil && i >= 1 && i <= len(alts) {
			return alts[i-1]
		}
		return nil
	}
	for _, a := range alts {
		if a.Ref != "" && a.Ref == name {
			return a
		}
	}
	return nil
}

// bodySchema is the schema of the finding's request or response body in s.
func (f *finding) bodySchema(s *spec.Spec) *openapi3.SchemaRef {
	if s == nil || s.Doc.Paths == nil {
		return nil
	}
	item := s.Doc.Paths.Value(f.Path)
	if item == nil {
		return nil
	}
	op := item.GetOperation(f.Method)
	if op == nil {
		return nil
	}
	var content openapi3.Content
	switch f.side {
	case "request":
		if op.RequestBody == nil || op.RequestBody.Value == nil {
			return nil
		}
		content = op.RequestBody.Value.Content
	case "response":
		if op.Responses == nil || f.status == "" {
			return nil
		}
		resp := op.Responses.Value(f.status)
		if resp == nil || resp.Value == nil {
			return nil
		}
		content = resp.Value.Content
	default:
		return nil
	}
	mt := content.Get(f.media)
	if mt == nil {
		mt = content.Get("application/json")
	}
	if mt == nil {
		keys := make([]string, 0, len(content))
		for k := range content {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if mt = content[k]; mt != nil && mt.Schema != nil {
				break
			}
		}
	}
	if mt == nil {
		return nil
	}
	return mt.Schema
}

// descend is the schema one oasdiff path segment below ref: a property,
// or the items of an array ("items"), looking through FastAPI's nullable
// wrapper (anyOf [T, {type: null}]) and into allOf.
func descend(ref *openapi3.SchemaRef, seg string) (next *openapi3.SchemaRef, isItems bool) {
	s := core(ref)
	if s == nil || s.Value == nil {
		return nil, false
	}
	v := s.Value
	if seg == "items" && v.Items != nil && (v.Type.Is("array") || v.Properties["items"] == nil) {
		return v.Items, true
	}
	if p := v.Properties[seg]; p != nil {
		return p, false
	}
	for _, a := range v.AllOf {
		if next, isItems := descend(a, seg); next != nil {
			return next, isItems
		}
	}
	return nil, false
}

// core is ref without FastAPI's nullable wrapper: the one alternative of
// an anyOf or oneOf that is not {type: null}; else ref.
func core(ref *openapi3.SchemaRef) *openapi3.SchemaRef {
	// A few steps at most: a recursive schema may wrap itself.
	for range 8 {
		next := unwrap(ref)
		if next == ref {
			break
		}
		ref = next
	}
	return ref
}

// unwrap is core's one step.
func unwrap(ref *openapi3.SchemaRef) *openapi3.SchemaRef {
	if ref == nil || ref.Value == nil {
		return ref
	}
	v := ref.Value
	for _, alts := range []openapi3.SchemaRefs{v.AnyOf, v.OneOf} {
		if len(alts) != 2 {
			continue
		}
		for i, a := range alts {
			if a.Value != nil && a.Value.Type.Is("null") {
				return alts[1-i]
			}
		}
	}
	// OpenAPI 3.0's way: nullable: true beside allOf [$ref].
	if len(v.AllOf) == 1 && len(v.Properties) == 0 && len(v.Type.Slice()) == 0 {
		return v.AllOf[0]
	}
	return ref
}

// nullable reports whether ref admits null: spec.Nullable, or a oneOf
// with {type: null}.
func nullable(ref *openapi3.SchemaRef) bool {
	if ref == nil || ref.Value == nil {
		return false
	}
	if spec.Nullable(ref.Value) {
		return true
	}
	for _, a := range ref.Value.OneOf {
		if a.Value != nil && a.Value.Type.Is("null") {
			return true
		}
	}
	return false
}

// typeName names a schema's type for a message: the component it refers
// to, else its types without null.
func typeName(ref *openapi3.SchemaRef) string {
	if ref == nil {
		return "value"
	}
	if ref.Ref != "" {
		return ref.Ref[strings.LastIndex(ref.Ref, "/")+1:]
	}
	if ref.Value == nil {
		return "value"
	}
	var types []string
	for _, t := range ref.Value.Type.Slice() {
		if t != "null" {
			types = append(types, t)
		}
	}
	if len(types) == 0 {
		return "value"
	}
	return strings.Join(types, " or ")
}

// sameCore reports whether two schemas, their nullable wrappers taken
// off, are the same type: one component, or the same types.
func sameCore(a, b *openapi3.SchemaRef) bool {
	a, b = core(a), core(b)
	if a == nil || b == nil || a.Value == nil || b.Value == nil {
		return false
	}
	if a.Ref != "" || b.Ref != "" {
		return a.Ref == b.Ref
	}
	return typeName(a) == typeName(b) && typeName(a) != "value"
}
