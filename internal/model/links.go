package model

import (
	"net/url"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/framework"
)

// Link is, for an operation answering a collection's records in a schema
// that shows no id but a link to each record (Django REST framework's
// HyperlinkedModelSerializer; a summary {name, url} listed where the
// record path reads the whole record), where each record's link points:
// the URL of its read.
type Link struct {
	// Member is the view's member holding the link (url, href, self).
	Member string
	// Path is the path template of the record's read (/things/{id}/),
	// Param its path parameter naming the record, Field the collection's
	// field that parameter takes (its id, or a key such as a slug).
	Path, Param string
	Field       *Field
	// Relative: the link is written as the path alone (/things/1/), as the
	// member's example or format (uri-reference) says; else it is the
	// absolute URL the request reached the server by.
	Relative bool
}

// linkView is a schema showing a collection's records by a link (see
// findLinkViews).
type linkView struct {
	coll   *Collection
	ref    *openapi3.SchemaRef
	member string
	// path and param are the record path the view was found beside.
	path, param string
}

// findLinkViews finds, outside FastAPI documents, the schemas that are a
// list's view of a collection's records without their id but with a link
// to each: the items of a list at a path (GET /things/) beside whose
// record path (GET /things/{id}/) a collection is read, the items'
// schema a plain object of no id and no key whose members are that
// collection's fields (each of one type) but for one, a link (linkLike)
// the collection does not hold. Such a list is the collection's list;
// each item is served from a record, its link the URL of the record's
// read. A schema found beside the record paths of two collections is
// none's.
func (m *Model) findLinkViews() {
	if m.Framework == framework.FastAPI || m.Spec.Doc.Components == nil {
		return
	}
	found := map[string]*linkView{}
	refused := map[string]bool{}
	for _, path := range m.Spec.Paths() {
		item := m.Spec.Doc.Paths.Value(path)
		if item.Get == nil {
			continue
		}
		_, s := successResponse(item.Get)
		name, shape, _ := recordsOf(s, nil)
		if name == "" || shape == OneShape || m.byName[name] != nil || refused[name] {
			continue
		}
		rpath, param, coll := m.recordPath(path)
		if coll == nil {
			continue
		}
		member := m.linkMember(name, coll)
		switch prev := found[name]; {
		case member == "":
		case prev != nil && prev.coll != coll:
			refused[name] = true
			delete(found, name)
		case prev == nil:
			ref := &openapi3.SchemaRef{Ref: "#/components/schemas/" + name, Value: m.Spec.Doc.Components.Schemas[name].Value}
			found[name] = &linkView{coll: coll, ref: ref, member: member, path: rpath, param: param}
		}
	}
	if len(found) > 0 {
		m.links = found
	}
}

// recordPath is the path reading one record of the list at path (path
// and one path parameter more, a trailing slash or not), its parameter
// and the collection it reads; "" and nil when none, or when two such
// paths read two collections.
func (m *Model) recordPath(list string) (path, param string, coll *Collection) {
	if m.itemPaths == nil {
		// each list path → the record paths under it, found once: a
		// document of many lists costs its paths, not their square
		m.itemPaths = map[string][]string{}
		for _, p := range m.Spec.Paths() {
			trimmed := strings.TrimSuffix(p, "/")
			if r := resourcePath(trimmed); r != trimmed {
				m.itemPaths[r] = append(m.itemPaths[r], p)
			}
		}
	}
	for _, p := range m.itemPaths[strings.TrimSuffix(list, "/")] {
		c := m.readAt(p)
		switch {
		case c == nil:
		case coll == nil:
			_, param = segments(p)
			path, coll = p, c
		case c != coll:
			return "", "", nil
		}
	}
	return path, param, coll
}

// linkMember is the member of the schema name that links to a record of
// coll: the one link-like member (linkLike) coll has no field of, every
// other member being a field of coll of its type (typeFits). "" when the
// schema is no such view.
func (m *Model) linkMember(name string, coll *Collection) string {
	v := m.Spec.Doc.Components.Schemas[name].Value
	if v == nil || len(v.AllOf)+len(v.AnyOf)+len(v.OneOf) > 0 || (v.Type != nil && !v.Type.Is("object")) || len(v.Properties) == 0 {
		return ""
	}
	link := ""
	for prop, p := range v.Properties {
		if f := coll.Field(prop); f != nil {
			if !typeFits(p, f.Ref) {
				return ""
			}
			continue
		}
		if link != "" || !linkLike(prop, p) {
			return ""
		}
		link = prop
	}
	return link
}

// linkNames are the names, lower case without separators, of a member
// holding the URL of the record it is part of.
var linkNames = []string{"url", "uri", "href", "link", "self", "selflink", "permalink", "resourceurl", "resourceuri", "detailurl"}

// linkLike reports whether a member may hold a record's link: a string of
// a URI format (uri, uri-reference, iri, iri-reference) or named as links
// are (url, href, self, link…).
func linkLike(name string, p *openapi3.SchemaRef) bool {
	v := nonNull(p).Value
	if v == nil || !v.Type.Is("string") {
		return false
	}
	switch v.Format {
	case "uri", "uri-reference", "iri", "iri-reference":
		return true
	}
	l := strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(name))
	return slices.Contains(linkNames, l)
}

// placeLinkView makes o, answering the link view called name, an
// operation on its collection: each record shown as the view's members,
// its link (o.Link) to its read beside o's path where one is, else to
// the record path the view was found beside. Nil when name is no link
// view.
func (m *Model) placeLinkView(o *Operation, name string) *Collection {
	lv := m.links[name]
	if lv == nil {
		return nil
	}
	path, param := lv.path, lv.param
	if p, q, c := m.recordPath(o.Path); c == lv.coll {
		path, param = p, q
	}
	o.View = viewMembers(m.Spec, lv.ref, lv.coll)
	for i := range o.View {
		o.View[i].Link = o.View[i].Name == lv.member
	}
	f := lv.coll.Field(param)
	if f == nil {
		f = lv.coll.ID
	}
	o.Link = &Link{Member: lv.member, Path: path, Param: param, Field: f, Relative: relativeLink(lv.ref.Value.Properties[lv.member])}
	return lv.coll
}

// relativeLink reports whether a link member is written as a path rather
// than an absolute URL: its example says so (/things/1/), else, with no
// example, its format is uri-reference or iri-reference.
func relativeLink(p *openapi3.SchemaRef) bool {
	v := nonNull(p).Value
	if ex, ok := v.Example.(string); ok && ex != "" {
		u, err := url.Parse(ex)
		return err == nil && !u.IsAbs()
	}
	return v.Format == "uri-reference" || v.Format == "iri-reference"
}

// Params reads, from a link to a record (an absolute URL or a path), the
// path parameters of its read: the link's path matched, by its last
// segments (a server's base path may come before), against l.Path. ok is
// false when the link is no URL of that path.
func (l *Link) Params(link string) (params map[string]string, ok bool) {
	u, err := url.Parse(link)
	if err != nil || link == "" {
		return nil, false
	}
	tmpl := strings.Split(strings.Trim(l.Path, "/"), "/")
	got := strings.Split(strings.Trim(u.EscapedPath(), "/"), "/")
	if len(got) < len(tmpl) {
		return nil, false
	}
	got = got[len(got)-len(tmpl):]
	params = map[string]string{}
	for i, seg := range tmpl {
		if name, ok := strings.CutPrefix(seg, "{"); ok && strings.HasSuffix(name, "}") && !strings.ContainsAny(name[:len(name)-1], "{}") {
			v, err := url.PathUnescape(got[i])
			if err != nil || v == "" {
				return nil, false
			}
			params[name[:len(name)-1]] = v
			continue
		}
		if seg != got[i] {
			return nil, false
		}
	}
	return params, true
}

// Expand is l.Path with each parameter set to its value in params, each
// escaped as a path segment.
func (l *Link) Expand(params map[string]string) string {
	segs := strings.Split(l.Path, "/")
	for i, seg := range segs {
		if name, ok := strings.CutPrefix(seg, "{"); ok && strings.HasSuffix(name, "}") {
			segs[i] = url.PathEscape(params[name[:len(name)-1]])
		}
	}
	return strings.Join(segs, "/")
}
