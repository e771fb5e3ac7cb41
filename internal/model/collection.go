package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/spec"
)

// Collection is a schema the contract serves records of: one it returns by
// id or in a list, returns from any operation, or embeds in another
// collection's records. Its records have an id.
type Collection struct {
	Index    int    // position in Model.Collections
	Name     string // the component schema: "Review"
	Title    string // the schema's title ("Review"): its 404 says "Review not found"
	File     string // the fixture file, without ending: "reviews"
	Singular string // "review": scenarios write review/ID
	Ref      *openapi3.SchemaRef
	Schema   *openapi3.Schema
	Fields   []*Field // in the schema's property order
	ID       *Field
	IDKind   IDKind
	// Record is the schema a fixture record is checked against: the
	// collection's, with embedded relations optional (the loader joins them)
	// and, for the login collection, a password.
	Record *openapi3.Schema
	// Secret is "password" for the login collection: a member every record
	// has, that is checked but never served.
	Secret string
	// UserKey is, for the login collection, the field the login form's
	// username names an account by: username, or email for accounts that
	// register and log in with their email. Nil for other collections.
	UserKey *Field
	// Keys are the fields beside the id that a path parameter addresses
	// the records by (GET /api/test/byName/{name}, GET /posts/{slug}):
	// each names one record, so no two records hold the same value.
	Keys    []*Field
	Checker *spec.Checker // the loader's fast path; nil when the schema is beyond it
	// Sparse: a record leaves out an optional field it has no value for,
	// and never holds null where the field's schema refuses it (a
	// document not FastAPI's, answered as it declares). FastAPI's records
	// hold every field: pydantic dumps a missing value as None.
	Sparse bool

	// ViewOf is, for a collection keyed like the login collection and
	// never created on its own (a Profile, by username), the
	// login collection: its record for a key is the account's, seen
	// through this schema. Nil for others.
	ViewOf *Collection
	// ScopedBy is the collection whose records this one's are made under
	// where they do not name it (a Comment under its Article: see
	// Operation.Scoped); nil for others.
	ScopedBy *Collection
	// Flags are the boolean fields an action sets and clears per user
	// (favorited, by POST and DELETE /articles/{slug}/favorite): each
	// account sees its own, the count beside it counts them all.
	// FlagEmbeds are the fields embedding a record of a collection with
	// Flags (Article.author, a Profile, following), whose flags are the
	// reader's too. Nil in FastAPI documents.
	Flags, FlagEmbeds []*Field
	// ViewOnly are the members the collection's views declare and its
	// schema does not (see viewsOf: PetCreate's owner beside PetRead), in
	// the order the views are found, one per name and view: a record
	// keeps what a write sends for them beside its fields. Required when
	// any view requires the member. Nil for a collection without views.
	ViewOnly []ViewMember

	byName map[string]*Field
}

// IDKind is how a collection's ids are written and made.
type IDKind uint8

// The kinds of id.
const (
	IntID  IDKind = iota + 1 // integers; a create takes the next one
	StrID                    // strings; a create makes a UUID
	UUIDID                   // strings in format uuid
)

// Field is one property of a collection's schema.
type Field struct {
	Index    int
	Name     string
	Ref      *openapi3.SchemaRef
	Schema   *openapi3.Schema // the non-null alternative of a nullable field
	Type     string           // that alternative's type: string, integer, number, boolean, array, object or ""
	Format   string           // its format: date-time values are stored in pydantic's UTC form
	Required bool
	Nullable bool
	// Default is the value a record that leaves the field out is served
	// with: the schema's default, else (FastAPI's records, not Sparse)
	// null for a nullable field; nil when a record must give it, or under
	// Sparse may leave it out.
	Default []byte

	// Embed is the collection whose record this field embeds, joined by the
	// sibling field Join (author beside author_id).
	Embed *Collection
	Join  *Field
	// Refers is the collection an X_id field names records of (movie_id →
	// Movie), or the login collection for an owner field; nil when none.
	Refers *Collection
	// Owner marks author_id, user_id and owner_id: a create fills it from
	// the bearer token's user when the body does not.
	Owner bool
	// Stamp is "created" or "updated" for a field that says when its
	// record was created or last changed (created_at, createdAt,
	// updatedAt, modified…: stampOf): the store sets them.
	Stamp string
}

// Field returns the field called name, or nil.
func (c *Collection) Field(name string) *Field { return c.byName[name] }

// ownKey reports whether name is the field the records are keyed by.
func (c *Collection) ownKey(name string) bool { return c.ID != nil && c.ID.Name == name }

// parentField is the field of c holding the key of its parent p by name
// (a Webhook's project_id or projectId under a Project; of a namespaced
// schema's name, models.Project, the part after the dot), of the type of
// p's key; nil when c has none.
func (c *Collection) parentField(p *Collection) *Field {
	base := p.Singular
	if i := strings.LastIndexByte(base, '.'); i >= 0 {
		base = base[i+1:]
	}
	camel := []byte(base)
	for i := 0; i < len(camel); i++ {
		if camel[i] == '_' && i+1 < len(camel) {
			camel = append(camel[:i], camel[i+1:]...)
			camel[i] = byte(unicode.ToUpper(rune(camel[i])))
		}
	}
	for _, name := range []string{base + "_id", string(camel) + "Id"} {
		if f := c.Field(name); f != nil && f != c.ID && p.ID != nil && f.Type == p.ID.Type {
			return f
		}
	}
	return nil
}

// keyedBy reports whether a path parameter of that name, in the place of
// a read's key, names a record by its key: it has the key's name, or
// names none of the records' fields (/projects/{project} for /projects/{id}).
func (c *Collection) keyedBy(name string) bool { return c.ownKey(name) || c.Field(name) == nil }

// String is the collection's schema name.
func (c *Collection) String() string { return c.Name }

// findCollections gathers every schema with an id that an operation
// returns (itself or as list items) or that another such schema embeds,
// then compiles them.
func (m *Model) findCollections() error {
	doc := m.Spec.Doc
	if doc.Components == nil {
		return nil
	}
	found := map[string]bool{}
	if m.Framework != framework.FastAPI {
		m.keys = m.naturalKeys()
	}
	var add func(name string)
	add = func(name string) {
		ref := doc.Components.Schemas[name]
		if found[name] || ref == nil || ref.Value == nil || (ref.Value.Properties["id"] == nil && m.keys[name] == "") {
			return
		}
		found[name] = true
		for _, p := range ref.Value.Properties {
			if inner := componentRef(nonNull(p)); inner != "" {
				add(inner)
			}
		}
	}
	paths := map[string][]string{} // schema -> the paths answering it
	for _, path := range m.Spec.Paths() {
		item := doc.Paths.Value(path)
		for _, method := range methods {
			op := item.GetOperation(method)
			if op == nil {
				continue
			}
			_, schema := successResponse(op)
			if name, _, _ := recordsOf(schema, m.projectionOf); name != "" {
				add(name)
				paths[name] = append(paths[name], path)
			}
		}
	}
	order := m.Spec.KeyOrder("components", "schemas")
	if len(order) != len(doc.Components.Schemas) {
		order = order[:0]
		for name := range doc.Components.Schemas {
			order = append(order, name)
		}
		slices.Sort(order)
	}
	views := m.viewsOf(found, paths)
	var later []string // the views, placed once the collections they show are
	for _, name := range order {
		if !found[name] {
			continue
		}
		if views[name] != "" {
			later = append(later, name)
			continue
		}
		if err := m.addCollection(name, paths); err != nil {
			return err
		}
	}
	for _, name := range later {
		if base := m.byName[views[name]]; base != nil {
			m.byName[name] = base
			v := &openapi3.SchemaRef{Ref: "#/components/schemas/" + name, Value: doc.Components.Schemas[name].Value}
			m.views[name] = v
			base.addViewOnly(viewMembers(m.Spec, v, base))
			continue
		}
		if err := m.addCollection(name, paths); err != nil {
			return err
		}
	}
	m.findLinkViews()
	if c := m.registered(); c != nil && m.Framework != framework.FastAPI {
		m.Login = c
	}
	if m.Login == nil {
		m.Login = m.emailAccounts()
	}
	for _, c := range m.Collections {
		m.relate(c)
	}
	if m.Login != nil {
		m.Login.Secret = "password"
		m.Login.UserKey = m.Login.Field("username")
		if m.Login.UserKey == nil {
			m.Login.UserKey = m.Login.Field("email")
		}
	}
	for _, c := range m.Collections {
		c.Record = recordSchema(c)
		c.Checker = m.Spec.Checker(c.Record)
	}
	return nil
}

// addViewOnly adds the members of a view of c that c's schema does not
// declare to c.ViewOnly, each required when any view requires it.
func (c *Collection) addViewOnly(members []ViewMember) {
	for _, vm := range members {
		if vm.Field != nil {
			continue
		}
		for i := range c.ViewOnly {
			if c.ViewOnly[i].Name == vm.Name {
				vm.Required = vm.Required || c.ViewOnly[i].Required
				c.ViewOnly[i].Required = vm.Required
			}
		}
		c.ViewOnly = append(c.ViewOnly, vm)
	}
}

// ViewRequired reports whether a view of c requires the member name that
// c's schema does not declare (c.ViewOnly): every record has a value for
// it, which each view declaring it shows.
func (c *Collection) ViewRequired(name string) bool {
	return slices.ContainsFunc(c.ViewOnly, func(vm ViewMember) bool { return vm.Name == name && vm.Required })
}

// addCollection compiles the schema called name into a collection, or
// makes name another name of the collection it is the same as (sameAs).
func (m *Model) addCollection(name string, paths map[string][]string) error {
	if same := m.sameAs(name, paths); same != nil {
		m.byName[name] = same
		return nil
	}
	c, err := m.compileCollection(name)
	var odd *oddID
	if errors.As(err, &odd) && !m.Strict {
		// Not a collection the mock can key (an id that is an
		// object, an array): its operations are answered from their
		// schemas and examples.
		m.degraded = append(m.degraded, fmt.Sprintf("schema %s: not served as a collection (%s)", name, odd.why))
		return nil
	}
	if err != nil {
		return err
	}
	c.Index = len(m.Collections)
	m.Collections = append(m.Collections, c)
	m.byName[name] = c
	if other := m.byFile[c.File]; other != nil {
		return fmt.Errorf("schemas %s and %s would share the fixture file %s", other.Name, name, c.File)
	}
	m.byFile[c.File] = c
	if m.Login == nil && c.Field("username") != nil {
		m.Login = c
	}
	return nil
}

// registered is the collection of accounts a registration creates: the
// one with a username that a POST taking a password answers with a record
// of (POST /register {username, email, password} answering a User), one
// open to anyone first (an administrator's POST /admin/users declares security).
// Nil when no operation does. Where other collections have a username too
// (a project's members), the accounts are the ones a user can sign up as.
func (m *Model) registered() *Collection {
	var secured *Collection
	for _, path := range m.Spec.Paths() {
		op := m.Spec.Doc.Paths.Value(path).Post
		if op == nil || loginPath(path) {
			continue
		}
		if !takesPassword(op) {
			continue
		}
		_, resp := successResponse(op)
		name, shape := itemsOf(resp)
		if c := m.byName[name]; c != nil && shape == OneShape && c.Field("username") != nil {
			if !declaresSecurity(m.Spec.Doc, op) {
				return c
			}
			if secured == nil {
				secured = c
			}
		}
	}
	return secured
}

// emailAccounts is the login collection of a contract whose accounts are
// named by their email: with an OAuth2 password form (username and
// password) and no collection with a username, the collection with an
// email field that a POST creates from a JSON body taking an email and a
// password. The form's username is then the account's email. Nil when
// there is none.
func (m *Model) emailAccounts() *Collection {
	login := false
	var found *Collection
	for _, path := range m.Spec.Paths() {
		op := m.Spec.Doc.Paths.Value(path).Post
		if op == nil {
			continue
		}
		form := bodySchema(op, "application/x-www-form-urlencoded")
		if form == nil {
			form = bodySchema(op, "multipart/form-data")
		}
		if form != nil && form.Value != nil && form.Value.Properties["username"] != nil && form.Value.Properties["password"] != nil {
			login = true
			continue
		}
		body := bodySchema(op, "application/json")
		if body == nil || body.Value == nil || body.Value.Properties["email"] == nil || body.Value.Properties["password"] == nil {
			continue
		}
		_, resp := successResponse(op)
		name, shape := itemsOf(resp)
		if c := m.byName[name]; c != nil && shape == OneShape && c.Field("email") != nil && found == nil {
			found = c
		}
	}
	if !login {
		return nil
	}
	return found
}

// itemsOf is the collection schema a response schema returns: a $ref to a
// schema (single), an array of them, or a page object whose items are.
func itemsOf(ref *openapi3.SchemaRef) (name string, shape Shape) {
	name, shape, _ = recordsOf(ref, nil)
	return name, shape
}

// recordsOf is itemsOf that also reads envelopes: an object whose one
// member holds the record ({"article": {…}}, {"data": {…}}) or the
// records of a list beside count-like members ({"data": […], "count": n},
// {"articles": […], "articlesCount": n}, {"results": […], "next": …}).
// member is the envelope's member holding them ("" when none; "items" for
// a page object). inline, when set, names the component schema an array's
// inline item schema is a projection of (see projectionOf).
func recordsOf(ref *openapi3.SchemaRef, inline func(*openapi3.Schema) string) (name string, shape Shape, member string) {
	if ref == nil || ref.Value == nil {
		return "", 0, ""
	}
	if n := componentRef(ref); n != "" {
		if v := ref.Value; v.Properties["id"] == nil && v.Properties["items"] != nil {
			if inner, _ := itemsOf(v.Properties["items"]); inner != "" {
				return inner, PageShape, "items"
			}
		}
		if v := ref.Value; v.Properties["id"] == nil {
			if inner, s, mem := envelopeOf(v, inline); inner != "" {
				return inner, s, mem
			}
		}
		return n, OneShape, ""
	}
	name, shape = itemsOfInline(ref)
	if name != "" {
		if shape == PageShape {
			member = "items"
		}
		return name, shape, member
	}
	if v := ref.Value; inline != nil && v.Type.Is("array") && v.Items != nil && v.Items.Value != nil && componentRef(v.Items) == "" {
		if n := inline(v.Items.Value); n != "" {
			return n, ArrayShape, ""
		}
	}
	return envelopeOf(ref.Value, inline)
}

// envelopeOf reads an object schema as an envelope (see recordsOf).
func envelopeOf(v *openapi3.Schema, inline func(*openapi3.Schema) string) (name string, shape Shape, member string) {
	if v == nil || len(v.Properties) == 0 || (v.Type != nil && !v.Type.Is("object")) {
		return "", 0, ""
	}
	if len(v.Properties) == 1 {
		for prop, p := range v.Properties {
			if n := componentRef(nonNull(p)); n != "" && p.Value != nil && p.Value.Properties["items"] == nil {
				return n, OneShape, prop
			}
		}
	}
	for prop, p := range v.Properties {
		pv := p.Value
		if pv == nil || !pv.Type.Is("array") || pv.Items == nil || pv.Items.Value == nil {
			continue
		}
		n := componentRef(pv.Items)
		if n == "" && inline != nil {
			n = inline(pv.Items.Value)
		}
		if n == "" || name != "" {
			return "", 0, "" // no collection's items, or two arrays: not one list
		}
		name, member = n, prop
	}
	if name == "" {
		return "", 0, ""
	}
	for prop, p := range v.Properties {
		if prop != member && !countLike(p) {
			return "", 0, ""
		}
	}
	return name, PageShape, member
}

// countLike reports whether an envelope's member is a list's fact rather
// than data: a number (count, total, articlesCount), a boolean (has_more)
// or a string or null (next, previous, a cursor).
func countLike(p *openapi3.SchemaRef) bool {
	v := nonNull(p).Value
	if v == nil {
		return false
	}
	if v.Type == nil || len(v.Properties) > 0 || v.Items != nil {
		return false
	}
	for _, t := range v.Type.Slice() {
		if t != "integer" && t != "number" && t != "boolean" && t != "string" && t != "null" {
			return false
		}
	}
	return true
}

// itemsOfInline is the earlier reading of a schema that is not a
// component reference: an array of references, or a page object.
func itemsOfInline(ref *openapi3.SchemaRef) (name string, shape Shape) {
	v := ref.Value
	if v.Type.Is("array") && v.Items != nil {
		if n := componentRef(v.Items); n != "" {
			return n, ArrayShape
		}
	}
	if v.Properties["items"] != nil {
		if inner, s := itemsOf(v.Properties["items"]); inner != "" && s == ArrayShape {
			return inner, PageShape
		}
	}
	return "", 0
}

// Shape is how a response carries records.
type Shape uint8

// The shapes.
const (
	OneShape   Shape = iota + 1 // one record
	ArrayShape                  // a JSON array of records
	PageShape                   // an object with items and paging facts
)

func (m *Model) compileCollection(name string) (*Collection, error) {
	ref := m.Spec.Doc.Components.Schemas[name]
	schema := ref.Value
	named := &openapi3.SchemaRef{Ref: "#/components/schemas/" + name, Value: schema}
	c := &Collection{
		Name: name, Title: name, Ref: named, Schema: schema,
		Singular: snake(name), byName: map[string]*Field{},
		Sparse: m.Framework != framework.FastAPI,
	}
	c.File = plural(c.Singular)
	if schema.Title != "" {
		c.Title = schema.Title
	}
	for i, prop := range m.Spec.PropertyOrder(named) {
		pref := schema.Properties[prop]
		f := &Field{Index: i, Name: prop, Ref: pref, Required: slices.Contains(schema.Required, prop), Nullable: spec.Nullable(pref.Value)}
		inner := nonNull(pref)
		f.Schema = inner.Value
		if ts := slices.DeleteFunc(slices.Clone(f.Schema.Type.Slice()), func(t string) bool { return t == "null" }); len(ts) == 1 {
			f.Type = ts[0]
		}
		f.Format = f.Schema.Format
		switch {
		case pref.Value.Default != nil:
			f.Default = DefaultJSON(f.Type, pref.Value.Default)
		case f.Nullable && !c.Sparse:
			f.Default = []byte("null")
		}
		f.Stamp = stampOf(f)
		f.Owner = isOwner(prop)
		c.Fields = append(c.Fields, f)
		c.byName[prop] = f
	}
	c.addUndeclared()
	c.ID = c.byName["id"]
	if c.ID == nil {
		c.ID = c.byName[m.keys[name]]
	}
	switch {
	case c.ID.Type == "integer":
		c.IDKind = IntID
	case c.ID.Type == "string" && c.ID.Format == "uuid":
		c.IDKind = UUIDID
	case c.ID.Type == "string":
		c.IDKind = StrID
	default:
		return nil, &oddID{schema: name, why: "its id is neither an integer nor a string"}
	}
	return c, nil
}

// addUndeclared adds a field for each property c's schema requires but
// does not declare (Swashbuckle's required "Id" beside the declared "id",
// JSON names being case-sensitive): every record holds it, of any value,
// as the schema asks. Not where additionalProperties: false forbids it (no
// record is then valid: records keep the declared properties, as the
// backend writes them), nor where allOf, anyOf or oneOf may declare it.
func (c *Collection) addUndeclared() {
	s := c.Schema
	if has := s.AdditionalProperties.Has; has != nil && !*has || len(s.AllOf)+len(s.AnyOf)+len(s.OneOf) > 0 {
		return
	}
	for _, name := range s.Required {
		if s.Properties[name] != nil || c.byName[name] != nil {
			continue
		}
		anything := &openapi3.SchemaRef{Value: &openapi3.Schema{}}
		f := &Field{Index: len(c.Fields), Name: name, Ref: anything, Schema: anything.Value, Required: true}
		f.Stamp = stampOf(f)
		f.Owner = isOwner(name)
		c.Fields = append(c.Fields, f)
		c.byName[name] = f
	}
}

// oddID is the error of a schema whose id the mock cannot key records by.
type oddID struct{ schema, why string }

func (e *oddID) Error() string { return "schema " + e.schema + ": " + e.why }

// relate finds c's relations: embedded records joined by a sibling X_id,
// X_id fields naming another collection, owner fields.
func (m *Model) relate(c *Collection) {
	for _, f := range c.Fields {
		if name := componentRef(nonNull(f.Ref)); name != "" {
			if other := m.byName[name]; other != nil {
				if join := c.byName[f.Name+"_id"]; join != nil {
					f.Embed, f.Join = other, join
					join.Refers = other
				}
			}
		}
	}
	for _, f := range c.Fields {
		base, ok := strings.CutSuffix(f.Name, "_id")
		if !ok || f.Refers != nil || base == "" {
			continue
		}
		for _, other := range m.Collections {
			if other.Singular == base {
				f.Refers = other
			}
		}
		if f.Refers == nil && f.Owner {
			f.Refers = m.Login
		}
	}
}

// recordSchema is c's schema as a fixture record must meet it: embedded
// relations need not be written (they are joined), and the login
// collection's records carry a password string.
func recordSchema(c *Collection) *openapi3.Schema {
	var optional []string
	for _, f := range c.Fields {
		if f.Embed != nil {
			optional = append(optional, f.Name)
		}
	}
	if len(optional) == 0 && c.Secret == "" {
		return c.Schema
	}
	clone := *c.Schema
	clone.Required = slices.DeleteFunc(slices.Clone(c.Schema.Required), func(s string) bool { return slices.Contains(optional, s) })
	if c.Secret != "" {
		clone.Properties = make(openapi3.Schemas, len(c.Schema.Properties)+1)
		for k, v := range c.Schema.Properties {
			clone.Properties[k] = v
		}
		clone.Properties[c.Secret] = openapi3.NewStringSchema().NewRef()
		clone.Required = append(clone.Required, c.Secret)
	}
	return &clone
}

// DefaultJSON renders a schema default (as kin-openapi decoded it) as
// pydantic serialises the field: a number field's default as a float, whole
// numbers elsewhere as integers.
func DefaultJSON(typ string, v any) []byte {
	if x, ok := v.(float64); ok && typ == "number" {
		return fastapi.AppendValue(nil, x)
	}
	return fastapi.AppendValue(nil, jsonValue(v))
}

// jsonValue turns a value kin-openapi decoded from the document into what
// fastapi.AppendValue writes: numbers that are whole as integers.
func jsonValue(v any) any {
	switch x := v.(type) {
	case float64:
		if x == float64(int64(x)) && x < 1<<53 && x > -(1<<53) {
			return int64(x)
		}
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = jsonValue(x[i])
		}
		return out
	case map[string]any:
		b, _ := json.Marshal(x) // a default object: members sorted, as written keys are lost
		return fastapi.RawJSON(b)
	}
	return v
}

// sameAs is the collection whose schema is name's but for its title and
// description, answered on a path of the same resource as one that
// answers name, or nil. Two models of the same fields under one path (a
// Posts read model and a PostInDB that POST /posts answers with), or under
// a list path and the path of its items (ent's PetList at /pets and
// PetRead at /pets/{id}), are one resource to the backend, one table; they
// serialise alike, so a record created or listed as one is read as the
// other. The same fields under other paths (/items, /things) stay apart.
func (m *Model) sameAs(name string, paths map[string][]string) *Collection {
	want := m.sameKey(name)
	if want == "" {
		return nil
	}
	for _, c := range m.Collections {
		if slices.ContainsFunc(paths[c.Name], func(p string) bool {
			return slices.ContainsFunc(paths[name], func(q string) bool { return resourcePath(p) == resourcePath(q) })
		}) && m.sameKey(c.Name) == want {
			return c
		}
	}
	return nil
}

// sameKey is what two schemas the same but for their title and
// description have alike (see sameAs): their JSON without those, and
// their properties' order. "" when name has no such JSON.
func (m *Model) sameKey(name string) string {
	raw, ok := m.Spec.RawJSON("components", "schemas", name)
	if !ok {
		return ""
	}
	var v map[string]any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	delete(v, "title")
	delete(v, "description")
	out, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(out) + "\x00" + strings.Join(m.Spec.KeyOrder("components", "schemas", name, "properties"), ",")
}

// viewsOf finds, outside FastAPI documents, the schemas that show the
// records of another collection rather than being one: a resource's
// create, list items or update answered in a schema of its own beside the
// one its record path reads (ent's PetCreate at /pets beside PetRead at
// /pets/{id}, Swashbuckle's CreatedTodoItemModel of the id alone beside
// TodoItemModel). The backend keeps one table: a record created as the
// one is read, changed and deleted as the other. It maps each such view
// to the schema read at the record path. Decided conservatively: every
// path answering the view is of the resource whose record path (one GET
// under a last path parameter, one schema) reads the base; the view is a
// plain object schema (no allOf, anyOf, oneOf) with the base's id, no
// other schema embeds it, it is not the base's same (sameAs joins those)
// and each property the two share has one type (typeFits). Else the view
// stays a collection of its own, as before.
func (m *Model) viewsOf(found map[string]bool, paths map[string][]string) map[string]string {
	if m.Framework == framework.FastAPI {
		return nil
	}
	doc := m.Spec.Doc
	reads := map[string]string{} // resource path → the schema its record path reads; "" when two do
	for _, path := range m.Spec.Paths() {
		item := doc.Paths.Value(path)
		if _, last := segments(path); last == "" || item.Get == nil {
			continue
		}
		_, s := successResponse(item.Get)
		name, shape, _ := recordsOf(s, m.projectionOf)
		if name == "" || shape != OneShape || !found[name] {
			continue
		}
		r := resourcePath(path)
		if prev, ok := reads[r]; ok && prev != name {
			name = ""
		}
		reads[r] = name
	}
	if len(reads) == 0 {
		return nil
	}
	views := map[string]string{}
	for name, ps := range paths {
		if !found[name] {
			continue
		}
		base := ""
		for _, p := range ps {
			b := reads[resourcePath(p)]
			if b == "" || b == name || (base != "" && b != base) {
				base = ""
				break
			}
			base = b
		}
		if base != "" && m.viewFits(name, base) {
			views[name] = base
		}
	}
	return views
}

// viewFits reports whether the schema view can show the records of the
// schema base (see viewsOf).
func (m *Model) viewFits(view, base string) bool {
	schemas := m.Spec.Doc.Components.Schemas
	v, b := schemas[view].Value, schemas[base].Value
	plain := func(s *openapi3.Schema) bool {
		return len(s.AllOf)+len(s.AnyOf)+len(s.OneOf) == 0 && (s.Type == nil || s.Type.Is("object")) && len(s.Properties) > 0
	}
	if !plain(v) || !plain(b) || m.sameKey(view) == m.sameKey(base) {
		return false
	}
	id := "id"
	if b.Properties[id] == nil {
		id = m.keys[base]
	}
	if id == "" || v.Properties[id] == nil {
		return false
	}
	for prop, vp := range v.Properties {
		if bp := b.Properties[prop]; bp != nil && !typeFits(vp, bp) {
			return false
		}
	}
	for _, ref := range schemas {
		if ref.Value == nil {
			continue
		}
		for _, p := range ref.Value.Properties {
			if p = nonNull(p); componentRef(p) == view || p.Value != nil && p.Value.Items != nil && componentRef(p.Value.Items) == view {
				return false // embedded: its records are another's members
			}
		}
	}
	return true
}

// typeFits reports whether two schemas of one property hold the same
// values as far as a record's storage goes: the same types but null, the
// same format, and for arrays and objects the same component schema.
func typeFits(a, b *openapi3.SchemaRef) bool {
	a, b = nonNull(a), nonNull(b)
	if a.Value == nil || b.Value == nil {
		return a.Value == b.Value
	}
	types := func(s *openapi3.Schema) []string {
		ts := slices.DeleteFunc(slices.Clone(s.Type.Slice()), func(t string) bool { return t == "null" })
		slices.Sort(ts)
		return ts
	}
	av, bv := a.Value, b.Value
	if !slices.Equal(types(av), types(bv)) || av.Format != bv.Format || componentRef(a) != componentRef(b) {
		return false
	}
	if (av.Items == nil) != (bv.Items == nil) {
		return false
	}
	return av.Items == nil || typeFits(av.Items, bv.Items)
}

// resourcePath is the path of the resource path addresses: a record's
// path (/pets/{id}) is its list's (/pets); any other path is its own.
func resourcePath(path string) string {
	i := strings.LastIndexByte(path, '/')
	if i > 0 && strings.HasPrefix(path[i+1:], "{") && strings.HasSuffix(path, "}") {
		return path[:i]
	}
	return path
}

// naturalKeys names, for the schemas with no id that the contract
// addresses by another of their fields, that field: the one a path's last
// parameter names where the path answers the schema (GET /articles/{slug}
// answering an Article by its slug, /profiles/{username}); else, for a
// schema answered where no path names it, its username (the account a
// GET /user answers). Only documents that are not FastAPI's are read so:
// FastAPI's schemas without an id stay out of the collections, as the
// backend's own answers for them are compared byte for byte.
func (m *Model) naturalKeys() map[string]string {
	doc := m.Spec.Doc
	keys := map[string]string{}
	answered := map[string]bool{}
	for _, path := range m.Spec.Paths() {
		item := doc.Paths.Value(path)
		_, last := segments(path)
		for _, method := range methods {
			op := item.GetOperation(method)
			if op == nil {
				continue
			}
			_, schema := successResponse(op)
			name, shape, _ := recordsOf(schema, nil)
			ref := doc.Components.Schemas[name]
			if name == "" || shape != OneShape || ref == nil || ref.Value == nil || ref.Value.Properties["id"] != nil {
				continue
			}
			answered[name] = true
			if last != "" && ref.Value.Properties[last] != nil && keys[name] == "" {
				keys[name] = last
			}
		}
	}
	for name := range answered {
		if keys[name] == "" && doc.Components.Schemas[name].Value.Properties["username"] != nil {
			keys[name] = "username"
		}
	}
	return keys
}

// projectionOf is the component schema an inline list item schema is a
// projection of: the one with the fewest properties among the collections
// (schemas with an id or a natural key) holding every property it
// declares. A list of articles written inline without their body is a
// list of Articles. "" when none, or when two fit alike.
func (m *Model) projectionOf(s *openapi3.Schema) string {
	if s == nil || len(s.Properties) < 2 || m.Spec.Doc.Components == nil {
		return ""
	}
	if name, ok := m.projections[s]; ok {
		return name
	}
	if m.byProp == nil {
		// each property name → the schemas that could be collections
		// holding it, so that a document of many schemas and many
		// inline lists costs the schemas sharing a property, once each
		m.byProp = map[string][]string{}
		for name, ref := range m.Spec.Doc.Components.Schemas {
			if v := ref.Value; v != nil && (v.Properties["id"] != nil || m.keys[name] != "") {
				for prop := range v.Properties {
					m.byProp[prop] = append(m.byProp[prop], name)
				}
			}
		}
		m.projections = map[*openapi3.Schema]string{}
	}
	var candidates []string
	first := true
	for prop := range s.Properties {
		if c := m.byProp[prop]; first || len(c) < len(candidates) {
			candidates, first = c, false
		}
	}
	best, bestN, tie := "", 0, false
	for _, name := range candidates {
		v := m.Spec.Doc.Components.Schemas[name].Value
		if len(v.Properties) < len(s.Properties) {
			continue
		}
		fits := true
		for prop := range s.Properties {
			if v.Properties[prop] == nil {
				fits = false
				break
			}
		}
		switch {
		case !fits:
		case best == "" || len(v.Properties) < bestN:
			best, bestN, tie = name, len(v.Properties), false
		case len(v.Properties) == bestN:
			tie = true
		}
	}
	if tie {
		best = ""
	}
	m.projections[s] = best
	return best
}

// findViews sets ViewOf: outside FastAPI documents, a collection without
// an id, keyed by the login collection's user key, that no operation
// creates, whose every field but booleans the login collection has.
func (m *Model) findViews() {
	l := m.Login
	if m.Framework == framework.FastAPI || l == nil || l.UserKey == nil {
		return
	}
	created := map[*Collection]bool{}
	for _, o := range m.Operations {
		if o.Kind == Create || o.Kind == NestedCreate {
			created[o.Coll] = true
		}
	}
	for _, c := range m.Collections {
		if c == l || created[c] || c.Field("id") != nil || c.ID.Name != l.UserKey.Name {
			continue
		}
		view := true
		for _, f := range c.Fields {
			if lf := l.Field(f.Name); (lf == nil && f.Type != "boolean") || (lf != nil && lf.Type != f.Type) {
				view = false
			}
		}
		if view {
			c.ViewOf = l
		}
	}
}

// findFlags fills Collection.Flags and FlagEmbeds from the actions, and
// Operation.ByActor of the lists whose query parameter names a flag.
func (m *Model) findFlags() {
	if m.Framework == framework.FastAPI {
		return
	}
	for _, o := range m.Operations {
		if flag, _ := o.VerbFields(); flag != nil && !slices.Contains(o.Coll.Flags, flag) {
			o.Coll.Flags = append(o.Coll.Flags, flag)
		}
	}
	for _, c := range m.Collections {
		for _, f := range c.Fields {
			if e := m.EmbeddedColl(f); e != nil && len(e.Flags) > 0 {
				c.FlagEmbeds = append(c.FlagEmbeds, f)
			}
		}
	}
	for _, o := range m.Operations {
		if (o.Kind != List && o.Kind != NestedList) || o.Coll == nil || len(o.Coll.Flags) == 0 {
			continue
		}
		for _, p := range params(o, "query") {
			if p.Schema == nil || p.Schema.Value == nil || !p.Schema.Value.Type.Is("string") || slices.Contains(o.Filters, p.Name) {
				continue
			}
			for _, f := range o.Coll.Flags {
				if f.Name == p.Name {
					o.ByActor = append(o.ByActor, Loose{Param: p.Name, Field: f})
				}
			}
		}
	}
}

// Timestamp names, as stampOf compares them: lower case, without the
// separators of any naming style (created_at, createdAt, CreatedAt and
// created-at are all createdat).
var (
	createdStamps = []string{"createdat", "createdon", "createddate", "createdtime", "createddatetime",
		"creationdate", "creationtime", "datecreated", "timecreated", "insertedat", "created"}
	updatedStamps = []string{"updatedat", "updatedon", "updateddate", "updatedtime", "updateddatetime",
		"modifiedat", "modifiedon", "modifieddate", "modifiedtime", "lastmodified", "lastmodifiedat",
		"lastmodifieddate", "lastupdated", "lastupdatedat", "dateupdated", "datemodified",
		"timeupdated", "timemodified", "updated", "modified"}
)

// stampOf is "created" or "updated" when f is a timestamp its record's
// store sets: a string of format date-time named for the record's
// creation or last change in any naming style (created_at, createdAt,
// CreatedAt, creationDate, dateModified, lastModified…), or such a name
// ending in "at" with no format (created_at: str); else "". A name alone
// is not enough: an integer created (a Unix time) or a date creationDate
// is left to the generator.
func stampOf(f *Field) string {
	if f.Type != "string" || f.Format != "date-time" && f.Format != "" {
		return ""
	}
	var b strings.Builder
	for _, r := range strings.ToLower(f.Name) {
		if r != '_' && r != '-' && r != ' ' && r != '.' {
			b.WriteRune(r)
		}
	}
	name := b.String()
	if f.Format == "" && !strings.HasSuffix(name, "at") {
		return ""
	}
	switch {
	case slices.Contains(createdStamps, name):
		return "created"
	case slices.Contains(updatedStamps, name):
		return "updated"
	}
	return ""
}
