package model

import (
	"fmt"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/spec"
)

func TestEmbeddedContract(t *testing.T) {
	sp, err := spec.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	m, err := Compile(sp)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range m.Collections {
		t.Logf("collection %s file %s id %v login=%v", c.Name, c.File, c.IDKind, c == m.Login)
		for _, f := range c.Fields {
			t.Logf("  %s type=%s fmt=%s req=%v null=%v def=%s embed=%v refers=%v", f.Name, f.Type, f.Format, f.Required, f.Nullable, f.Default, f.Embed, f.Refers)
		}
	}
	for _, o := range m.Operations {
		t.Logf("%s %s %v coll=%v status=%d why=%s", o.Method, o.Path, o.Kind, o.Coll, o.Status, o.Why)
	}
}

// An operation answered from its example is answered with the first
// declared example its response schema allows: the document loads with its
// examples unvalidated, and one that contradicts the schema is no answer.
func TestDeclaredExampleMustFitTheSchema(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, content, want string }{
		{"valid example", `"example":{"n":1}`, `{"n":1}`},
		{"invalid named example, valid next one", `"examples":{"bad":{"value":{"n":true}},"good":{"value":{"n":2}}}`, `{"n":2}`},
		{"invalid schema examples, valid second", `"schema":{"$ref":"#/components/schemas/S","examples":[{"n":"x"},{"n":3}]}`, `{"n":3}`},
		{"none valid", `"example":{"n":"x"}`, ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			content := tc.content
			if !strings.Contains(content, `"schema"`) {
				content = `"schema":{"$ref":"#/components/schemas/S"},` + content
			}
			doc := `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{"/stats":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{` +
				content + `}}}}}}},"components":{"schemas":{"S":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}}}}`
			sp, err := spec.Load([]byte(doc), "test.json")
			if err != nil {
				t.Fatal(err)
			}
			m, err := Compile(sp)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(m.Operations[0].Example); got != tc.want {
				t.Errorf("example = %s, want %s", got, tc.want)
			}
		})
	}
}

// An OAuth2 password form is a login whether or not the contract has a
// schema with a username to log in against: without one, Coll is nil and
// the accounts are the mock's to configure.
func TestLoginFormWithoutLoginCollection(t *testing.T) {
	t.Parallel()
	m := compileFile(t, "../../testdata/corpus/fastapi-docs/openapi/security.tutorial003_py310.json")
	if m.Login != nil {
		t.Fatalf("Login = %s, want none", m.Login.Name)
	}
	var login *Operation
	for _, o := range m.Operations {
		if o.Path == "/token" && o.Method == "POST" {
			login = o
		}
	}
	if login == nil || login.Kind != Login || login.Coll != nil {
		t.Fatalf("POST /token = %+v, want a login with no collection", login)
	}
}

// Two schemas of the same fields, one answered as a list's items and the
// other as a record under the list's path (ent's PetList at /pets, PetRead
// at /pets/{id}), are one collection: the list and the read of a record
// agree.
func TestSameSchemaUnderListAndItemIsOneCollection(t *testing.T) {
	t.Parallel()
	const pet = `{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"},"birthday":{"type":"string","format":"date-time"}},"required":["id","name"]}`
	one := func(name string) string {
		return `{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/` + name + `"}}}}}`
	}
	param := `"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}]`
	doc := `{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{
"/pets":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/PetList"}}}}}}}},
"/pets/{id}":{"get":{` + param + `,"responses":` + one("PetRead") + `}},
"/things/{id}":{"get":{` + param + `,"responses":` + one("Thing") + `}}},
"components":{"schemas":{"PetList":` + pet + `,"PetRead":` + pet + `,"Thing":` + pet + `}}}`
	sp, err := spec.Load([]byte(doc), "ent.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Compile(sp)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Collections) != 2 || m.Collection("PetList") != m.Collection("PetRead") || m.Collection("Thing") == m.Collection("PetList") {
		t.Fatalf("collections %d: PetList %p, PetRead %p, Thing %p; want PetList and PetRead one, Thing its own", len(m.Collections), m.Collection("PetList"), m.Collection("PetRead"), m.Collection("Thing"))
	}
	var list, read *Operation
	for _, o := range m.Operations {
		switch o.String() {
		case "GET /pets":
			list = o
		case "GET /pets/{id}":
			read = o
		}
	}
	if list == nil || read == nil || list.Kind != List || read.Kind != ReadOne || list.Coll != read.Coll {
		t.Errorf("list %+v and read %+v, want both on one collection", list, read)
	}
}

// Two schemas of the same fields answered under one path (a read model and
// the model a create answers with) are one collection; the same fields
// under other paths stay apart.
func TestSameSchemaUnderOnePathIsOneCollection(t *testing.T) {
	t.Parallel()
	const post = `{"type":"object","properties":{"id":{"type":"integer"},"title":{"type":"string"}},"required":["id","title"],"title":"%s"}`
	one := func(name string) string {
		return `{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/` + name + `"}}}},"422":{"description":"v"}}`
	}
	body := `"requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Posts"}}}}`
	doc := `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{
"/posts":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/Posts"}}}}}}},
  "post":{` + body + `,"responses":` + one("PostInDB") + `}},
"/posts/{post_id}":{"get":{"parameters":[{"name":"post_id","in":"path","required":true,"schema":{"type":"integer"}}],"responses":` + one("Posts") + `}},
"/things/{thing_id}":{"get":{"parameters":[{"name":"thing_id","in":"path","required":true,"schema":{"type":"integer"}}],"responses":` + one("Thing") + `}}},
"components":{"schemas":{"PostInDB":` + fmt.Sprintf(post, "PostInDB") + `,"Posts":` + fmt.Sprintf(post, "Posts") + `,"Thing":` + fmt.Sprintf(post, "Thing") + `}}}`
	sp, err := spec.Load([]byte(doc), "same.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Compile(sp)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Collections) != 2 || m.Collection("Posts") != m.Collection("PostInDB") || m.Collection("Thing") == m.Collection("Posts") {
		t.Fatalf("collections %d: Posts %p, PostInDB %p, Thing %p; want Posts and PostInDB one, Thing its own", len(m.Collections), m.Collection("Posts"), m.Collection("PostInDB"), m.Collection("Thing"))
	}
	var create, read *Operation
	for _, o := range m.Operations {
		switch o.Kind {
		case Create:
			create = o
		case ReadOne:
			if o.Path == "/posts/{post_id}" {
				read = o
			}
		}
	}
	if create == nil || read == nil || create.Coll != read.Coll {
		t.Errorf("create %+v and read %+v, want both on one collection", create, read)
	}
}

// A response declared only under a media range (*/*, application/*) is
// answered in that range: content.Get matches it for application/json,
// and the model must read the entry it matched, not index the content by
// the name it asked for (which panicked).
func TestSuccessMediaUnderARange(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, content, media, typ string }{
		{"star", `"*/*":{"schema":{"type":"string"}}`, "*/*", "string"},
		{"application range", `"application/*":{"schema":{"type":"integer"}}`, "application/*", "integer"},
		{"json beside star", `"*/*":{"schema":{"type":"string"}},"application/json":{"schema":{"type":"object"}}`, "application/json", "object"},
		{"json with a parameter", `"application/json; charset=utf-8":{"schema":{"type":"array","items":{}}}`, "application/json; charset=utf-8", "array"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc := `{"openapi":"3.0.1","info":{"title":"x","version":"1"},"paths":{"/p":{"get":{"responses":{"200":{"description":"ok","content":{` + tc.content + `}}}}}}}`
			sp, err := spec.Load([]byte(doc), "test.json")
			if err != nil {
				t.Fatal(err)
			}
			m, err := Compile(sp)
			if err != nil {
				t.Fatal(err)
			}
			o := m.Operations[0]
			if o.Media != tc.media {
				t.Errorf("media = %q, want %q", o.Media, tc.media)
			}
			if o.MediaSchema == nil || o.MediaSchema.Value == nil || !o.MediaSchema.Value.Type.Is(tc.typ) {
				t.Errorf("media schema = %v, want type %s", o.MediaSchema, tc.typ)
			}
		})
	}
}

// A property a collection's schema requires without declaring it (a
// required "Id" beside the declared "id": JSON names are case-sensitive)
// is a field of its records, of any value; not where additionalProperties:
// false forbids it.
func TestRequiredUndeclaredIsAField(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		closed bool
	}{{"open", false}, {"closed", true}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			extra := ""
			if tc.closed {
				extra = `,"additionalProperties":false`
			}
			doc := `{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{
"/carts/{id}":{"get":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Cart"}}}}}}}},
"components":{"schemas":{"Cart":{"type":"object","required":["Id","name"],"properties":{"id":{"type":"integer"},"name":{"type":"string"}}` + extra + `}}}}`
			sp, err := spec.Load([]byte(doc), "cart.json")
			if err != nil {
				t.Fatal(err)
			}
			m, err := Compile(sp)
			if err != nil {
				t.Fatal(err)
			}
			c := m.Collection("Cart")
			if c == nil || c.ID == nil || c.ID.Name != "id" {
				t.Fatalf("collection %+v, want Cart keyed by id", c)
			}
			f := c.Field("Id")
			switch {
			case tc.closed && f != nil:
				t.Errorf("field Id %+v, want none: additionalProperties: false forbids it", f)
			case !tc.closed && (f == nil || !f.Required || c.Fields[f.Index] != f):
				t.Errorf("field Id %+v, want a required field of Cart", f)
			}
		})
	}
}

// A resource's create answering a schema of its own beside the one its
// record path reads (ent's PetCreate beside PetRead) is a view of the
// read's collection when the two fit: one record, each operation showing
// it in its own schema. Schemas that do not fit, are answered elsewhere
// too, or are FastAPI's stay collections of their own.
func TestCreateSchemaIsAViewOfTheRead(t *testing.T) {
	t.Parallel()
	const read = `{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"},"createdAt":{"type":"string","format":"date-time"}},"required":["id","name","createdAt"]}`
	one := func(status, name string) string {
		return `{"` + status + `":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/` + name + `"}}}}}`
	}
	for _, tc := range []struct {
		name, create, elsewhere string
		opts                    []Option
		view                    bool
	}{
		{name: "fits", create: `{"type":"object","additionalProperties":false,"properties":{"id":{"type":"integer"},"name":{"type":"string"},"owner":{"type":"string"}},"required":["id","name","owner"]}`, view: true},
		{name: "the id alone", create: `{"type":"object","properties":{"id":{"type":"integer"}}}`, view: true},
		{name: "no id", create: `{"type":"object","properties":{"name":{"type":"string"},"owner":{"type":"string"}}}`},
		{name: "a shared member of another type", create: `{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"integer"}}}`},
		{name: "an id of another type", create: `{"type":"object","properties":{"id":{"type":"string"},"name":{"type":"string"}}}`},
		{name: "answered under another resource too", create: `{"type":"object","properties":{"id":{"type":"integer"},"owner":{"type":"string"}}}`, elsewhere: "ThingCreate"},
		{name: "FastAPI's", create: `{"type":"object","properties":{"id":{"type":"integer"},"owner":{"type":"string"}}}`, opts: []Option{WithFramework(framework.FastAPI)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			other := ""
			if tc.elsewhere != "" {
				other = `,"/jobs":{"get":{"responses":` + one("200", tc.elsewhere) + `}}`
			}
			doc := `{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{
"/things":{"post":{"requestBody":{"required":true,"content":{"application/json":{"schema":{"type":"object","properties":{"name":{"type":"string"}}}}}},"responses":` + one("201", "ThingCreate") + `}},
"/things/{id}":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],"get":{"responses":` + one("200", "ThingRead") + `},"delete":{"responses":{"204":{"description":"gone"}}}}` + other + `},
"components":{"schemas":{"ThingCreate":` + tc.create + `,"ThingRead":` + read + `}}}`
			sp, err := spec.Load([]byte(doc), "things.json")
			if err != nil {
				t.Fatal(err)
			}
			m, err := Compile(sp, tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			create, got := m.Operations[0], m.Collection("ThingCreate") == m.Collection("ThingRead")
			if got != tc.view || (create.View != nil) != tc.view {
				t.Fatalf("ThingCreate one collection with ThingRead: %v, create's view %v; want %v", got, create.View, tc.view)
			}
			if !tc.view {
				return
			}
			if create.Kind != Create || len(m.Collections) != 1 || m.Collections[0].Name != "ThingRead" || create.Coll != m.Collections[0] {
				t.Errorf("collections %v, create's %v: want ThingRead alone", m.Collections, create.Coll)
			}
			var only []string // the members the read does not declare, which a record keeps as sent
			for _, vm := range create.View {
				if want := m.Collections[0].Field(vm.Name); vm.Field != want {
					t.Errorf("view member %s: field %v, want %v", vm.Name, vm.Field, want)
				}
				if vm.Field == nil {
					only = append(only, vm.Name)
					if !m.Collections[0].ViewRequired(vm.Name) && vm.Required {
						t.Errorf("view member %s: required by the view, not by the collection's ViewOnly", vm.Name)
					}
				}
			}
			var kept []string
			for _, vm := range m.Collections[0].ViewOnly {
				kept = append(kept, vm.Name)
			}
			if strings.Join(kept, ",") != strings.Join(only, ",") {
				t.Errorf("the collection's view-only members %v, want %v", kept, only)
			}
			for _, o := range m.Operations[1:] {
				if o.Coll != create.Coll || o.View != nil {
					t.Errorf("%s: collection %v, view %v; want ThingRead's, none", o, o.Coll, o.View)
				}
			}
		})
	}
}
