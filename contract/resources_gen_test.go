package contract_test

import (
	"encoding/json"
	"strings"
)

// This file turns fuzz input bytes into an OpenAPI document of resources
// shaped as frameworks other than FastAPI write them, none with FastAPI's
// marks: 1 to 3 collections keyed by an integer id, a UUID or a slug the
// server makes; each with a list (a bare array, or an envelope {items,
// total}, {data, count} or {results, count, next, previous}, paged by
// limit and offset or not), a create taking JSON, JSON wrapped in one
// member ({"article": {…}}, answered wrapped too) or a form, a read, a
// replace (PUT), a partial update (PATCH) or both, a delete answering 204,
// the record or a message; records nested under the first collection
// (/articles/{key}/comments); errors declared in one of the shapes real
// documents use (400 and 404 with an Error model, a RealWorld 422 of
// {errors: {body: […]}}, a default response, or no content), and
// OpenAPI 3.0 or 3.1 (nullable written as each writes it). The same bytes
// always give the same document.

var resourceNames = []string{"articles", "widgets", "notes", "projects"}

// resourceField is a member a resource's records may have.
type resourceField struct {
	name   string
	schema func(v31 bool) obj
	form   bool // sendable as one form field
}

var resourceFields = []resourceField{
	{"title", func(bool) obj { return obj{{"type", "string"}, {"minLength", 1}, {"maxLength", 80}} }, true},
	{"count", func(bool) obj { return obj{{"type", "integer"}, {"minimum", 0}, {"maximum", 1000}} }, true},
	{"price", func(bool) obj { return obj{{"type", "number"}, {"minimum", 0}} }, true},
	{"done", func(bool) obj { return obj{{"type", "boolean"}} }, true},
	{"status", func(bool) obj { return obj{{"type", "string"}, {"enum", []string{"open", "closed", "archived"}}} }, true},
	{"tags", func(bool) obj { return obj{{"type", "array"}, {"items", obj{{"type", "string"}, {"maxLength", 20}}}} }, false},
	{"note", func(v31 bool) obj {
		if v31 {
			return obj{{"type", []string{"string", "null"}}, {"maxLength", 200}}
		}
		return obj{{"type", "string"}, {"nullable", true}, {"maxLength", 200}}
	}, true},
	{"due", func(bool) obj { return obj{{"type", "string"}, {"format", "date-time"}} }, true},
}

type resourceDef struct {
	plural, single, schema string // articles, article, Article
	key                    int    // 0 integer id, 1 uuid id, 2 slug
	fields                 []resourceField
	required               []string
	wrap                   bool // bodies and single answers wrapped in {"article": …}
	form                   bool // the create (and changes) take a form
	list                   int  // 0 array, 1 {items,total}, 2 {data,count}, 3 {results,count,next,previous}
	paged                  bool
	update                 int // 0 PUT, 1 PATCH, 2 both
	del                    int // 0 204, 1 the record, 2 a message
}

func (r *resourceDef) keyParam() string {
	if r.key == 2 {
		return "slug"
	}
	return r.single + "Id"
}

// pathParam is the path parameter naming one of r's records.
func (r *resourceDef) pathParam() obj {
	p := obj{{"name", r.keyParam()}, {"in", "path"}, {"required", true}}
	switch r.key {
	case 0:
		p.add("schema", obj{{"type", "integer"}, {"format", "int64"}})
	case 1:
		p.add("schema", obj{{"type", "string"}, {"format", "uuid"}})
	case 2:
		p.add("schema", obj{{"type", "string"}})
	}
	return p
}

// resourcesFromBytes builds a document of resources from data.
func resourcesFromBytes(data []byte) []byte {
	s := &src{b: data}
	v31 := s.one(2)
	errStyle := s.n(4)
	schemas := obj{}
	paths := obj{}
	var res []*resourceDef
	used := map[string]bool{}
	for range 1 + s.n(3) {
		name := pick(s, resourceNames)
		if used[name] {
			continue
		}
		used[name] = true
		r := &resourceDef{plural: name, single: strings.TrimSuffix(name, "s")}
		r.schema = strings.ToUpper(r.single[:1]) + r.single[1:]
		r.key = s.n(3)
		taken := map[string]bool{}
		for range 1 + s.n(4) {
			f := pick(s, resourceFields)
			if taken[f.name] {
				continue
			}
			taken[f.name] = true
			r.fields = append(r.fields, f)
			if s.one(2) && f.name != "note" {
				r.required = append(r.required, f.name)
			}
		}
		r.wrap = s.one(3)
		r.form = !r.wrap && s.one(3)
		r.list, r.paged = s.n(4), s.one(2)
		r.update, r.del = s.n(3), s.n(3)
		res = append(res, r)
	}
	for i, r := range res {
		addResource(s, r, v31, errStyle, &schemas, &paths)
		if i == 0 && s.one(2) {
			addNested(r, errStyle, &schemas, &paths)
		}
	}
	addErrors(errStyle, &schemas)
	// drawn last: an input saved before security was drawn reads as it
	// did (exhausted input is zeros: none)
	security := s.n(3) // 0 none, 1 an API key in X-API-Key, 2 a bearer token: on the writes
	version := "3.0.3"
	if v31 {
		version = "3.1.0"
	}
	components := obj{{"schemas", schemas}}
	switch security {
	case 1:
		components.add("securitySchemes", obj{{"ApiKey", obj{{"type", "apiKey"}, {"in", "header"}, {"name", "X-API-Key"}}}})
	case 2:
		components.add("securitySchemes", obj{{"Bearer", obj{{"type", "http"}, {"scheme", "bearer"}, {"bearerFormat", "JWT"}}}})
	}
	if security > 0 {
		secureWrites(paths, security, errStyle)
	}
	doc := obj{{"openapi", version}, {"info", obj{{"title", "Resources"}, {"version", "1.0.0"}}}, {"paths", paths},
		{"components", components}}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic(err)
	}
	return out
}

func ref(name string) obj { return obj{{"$ref", "#/components/schemas/" + name}} }

func jsonContent(schema obj) obj {
	return obj{{"application/json", obj{{"schema", schema}}}}
}

// wrapped is schema in one member, when w.
func wrapped(w bool, member string, schema obj) obj {
	if !w {
		return schema
	}
	return obj{{"type", "object"}, {"required", []string{member}}, {"properties", obj{{member, schema}}}}
}

func addResource(s *src, r *resourceDef, v31 bool, errStyle int, schemas, paths *obj) {
	props := obj{}
	required := []string{}
	switch r.key {
	case 0:
		props.add("id", obj{{"type", "integer"}, {"format", "int64"}})
		required = append(required, "id")
	case 1:
		props.add("id", obj{{"type", "string"}, {"format", "uuid"}})
		required = append(required, "id")
	case 2:
		props.add("id", obj{{"type", "integer"}})
		props.add("slug", obj{{"type", "string"}})
		required = append(required, "id", "slug")
	}
	newProps := obj{}
	patchProps := obj{}
	for _, f := range r.fields {
		if r.form && !f.form {
			continue
		}
		props.add(f.name, f.schema(v31))
		newProps.add(f.name, f.schema(v31))
		patchProps.add(f.name, f.schema(v31))
	}
	var newRequired []string
	for _, n := range r.required {
		if r.form && n == "tags" {
			continue
		}
		required = append(required, n)
		newRequired = append(newRequired, n)
	}
	schemas.add(r.schema, obj{{"type", "object"}, {"required", required}, {"properties", props}})
	newSchema := obj{{"type", "object"}, {"properties", newProps}}
	if len(newRequired) > 0 {
		newSchema = append(obj{{"type", "object"}, {"required", newRequired}}, kv{"properties", newProps})
	}
	schemas.add("New"+r.schema, newSchema)
	schemas.add("Patch"+r.schema, obj{{"type", "object"}, {"properties", patchProps}})

	body := func(schema string) obj {
		if r.form {
			return obj{{"required", true}, {"content", obj{{"application/x-www-form-urlencoded", obj{{"schema", ref(schema)}}}}}}
		}
		return obj{{"required", true}, {"content", jsonContent(wrapped(r.wrap, r.single, ref(schema)))}}
	}
	one := jsonContent(wrapped(r.wrap, r.single, ref(r.schema)))
	bad := badInput(errStyle)
	notFound := notFoundResponse(errStyle)

	var listSchema obj
	items := obj{{"type", "array"}, {"items", ref(r.schema)}}
	switch r.list {
	case 0:
		listSchema = items
	case 1:
		listSchema = obj{{"type", "object"}, {"required", []string{"items", "total"}}, {"properties", obj{{"items", items}, {"total", obj{{"type", "integer"}}}}}}
	case 2:
		listSchema = obj{{"type", "object"}, {"required", []string{"data", "count"}}, {"properties", obj{{"data", items}, {"count", obj{{"type", "integer"}}}}}}
	case 3:
		link := obj{{"type", "string"}, {"format", "uri"}, {"nullable", true}}
		if v31 {
			link = obj{{"type", []string{"string", "null"}}, {"format", "uri"}}
		}
		listSchema = obj{{"type", "object"}, {"required", []string{"count", "results"}}, {"properties", obj{
			{"count", obj{{"type", "integer"}}}, {"next", link}, {"previous", link}, {"results", items}}}}
	}
	list := obj{{"operationId", "list" + r.schema + "s"}, {"responses", obj{{"200", obj{{"description", "The list."}, {"content", jsonContent(listSchema)}}}}}}
	if r.paged {
		list = append(obj{{"operationId", "list" + r.schema + "s"}}, kv{"parameters", []any{
			obj{{"name", "limit"}, {"in", "query"}, {"schema", obj{{"type", "integer"}, {"minimum", 1}, {"maximum", 100}, {"default", 20}}}},
			obj{{"name", "offset"}, {"in", "query"}, {"schema", obj{{"type", "integer"}, {"minimum", 0}, {"default", 0}}}},
		}}, kv{"responses", list[1].v})
	}
	createStatus := "201"
	if s.one(3) {
		createStatus = "200"
	}
	createResponses := obj{{createStatus, obj{{"description", "Created."}, {"content", one}}}}
	createResponses = append(createResponses, bad...)
	create := obj{{"operationId", "create" + r.schema}, {"requestBody", body("New" + r.schema)}, {"responses", createResponses}}
	paths.add("/"+r.plural, obj{{"get", list}, {"post", create}})

	keyParam := r.pathParam()
	item := obj{{"parameters", []any{keyParam}}}
	readResponses := append(obj{{"200", obj{{"description", "The record."}, {"content", one}}}}, notFound...)
	if errStyle == 3 && s.one(2) {
		readResponses = append(readResponses, badInput(errStyle)...)
	}
	item.add("get", obj{{"operationId", "get" + r.schema}, {"responses", readResponses}})
	changeResponses := append(append(obj{{"200", obj{{"description", "Changed."}, {"content", one}}}}, bad...), notFound...)
	if r.update == 0 || r.update == 2 {
		item.add("put", obj{{"operationId", "replace" + r.schema}, {"requestBody", body("New" + r.schema)}, {"responses", changeResponses}})
	}
	if r.update == 1 || r.update == 2 {
		item.add("patch", obj{{"operationId", "update" + r.schema}, {"requestBody", body("Patch" + r.schema)}, {"responses", changeResponses}})
	}
	var deleted obj
	switch r.del {
	case 0:
		deleted = obj{{"204", obj{{"description", "Deleted."}}}}
	case 1:
		deleted = obj{{"200", obj{{"description", "Deleted."}, {"content", one}}}}
	case 2:
		deleted = obj{{"200", obj{{"description", "Deleted."}, {"content", jsonContent(ref("Message"))}}}}
		if !hasKey(*schemas, "Message") {
			schemas.add("Message", obj{{"type", "object"}, {"required", []string{"message"}}, {"properties", obj{{"message", obj{{"type", "string"}}}}}})
		}
	}
	if errStyle == 3 && s.one(2) {
		deleted = append(deleted, badInput(errStyle)...)
	}
	item.add("delete", obj{{"operationId", "delete" + r.schema}, {"responses", append(deleted, notFound...)}})
	paths.add("/"+r.plural+"/{"+r.keyParam()+"}", item)
}

// addNested adds comments made and listed under a record of r.
func addNested(r *resourceDef, errStyle int, schemas, paths *obj) {
	schemas.add("Comment", obj{{"type", "object"}, {"required", []string{"id", "body"}}, {"properties", obj{
		{"id", obj{{"type", "integer"}}}, {"body", obj{{"type", "string"}, {"minLength", 1}, {"maxLength", 500}}}}}})
	schemas.add("NewComment", obj{{"type", "object"}, {"required", []string{"body"}}, {"properties", obj{
		{"body", obj{{"type", "string"}, {"minLength", 1}, {"maxLength", 500}}}}}})
	keyParam := r.pathParam()
	list := obj{{"200", obj{{"description", "Its comments."}, {"content", jsonContent(obj{{"type", "array"}, {"items", ref("Comment")}})}}}}
	created := obj{{"201", obj{{"description", "Created."}, {"content", jsonContent(ref("Comment"))}}}}
	paths.add("/"+r.plural+"/{"+r.keyParam()+"}/comments", obj{
		{"parameters", []any{keyParam}},
		{"get", obj{{"operationId", "list" + r.schema + "Comments"}, {"responses", append(list, notFoundResponse(errStyle)...)}}},
		{"post", obj{{"operationId", "create" + r.schema + "Comment"},
			{"requestBody", obj{{"required", true}, {"content", jsonContent(ref("NewComment"))}}},
			{"responses", append(append(created, badInput(errStyle)...), notFoundResponse(errStyle)...)}}},
	})
}

// badInput is the responses an operation declares for a request it
// refuses, in errStyle.
func badInput(errStyle int) obj {
	switch errStyle {
	case 1:
		return obj{{"400", obj{{"description", "Refused."}, {"content", jsonContent(ref("Error"))}}}}
	case 2:
		return obj{{"422", obj{{"description", "Unprocessable."}, {"content", jsonContent(ref("GenericErrorModel"))}}}}
	case 3:
		return obj{{"default", obj{{"description", "An error."}, {"content", jsonContent(ref("Error"))}}}}
	}
	return nil
}

func notFoundResponse(errStyle int) obj {
	switch errStyle {
	case 1:
		return obj{{"404", obj{{"description", "Not found."}, {"content", jsonContent(ref("Error"))}}}}
	case 3:
		return nil // a default response, where one is declared, answers it
	}
	return obj{{"404", obj{{"description", "Not found."}}}}
}

func addErrors(errStyle int, schemas *obj) {
	switch errStyle {
	case 1, 3:
		schemas.add("Error", obj{{"type", "object"}, {"required", []string{"code", "message"}}, {"properties", obj{
			{"code", obj{{"type", "integer"}}}, {"message", obj{{"type", "string"}}}}}})
	case 2:
		schemas.add("GenericErrorModel", obj{{"type", "object"}, {"required", []string{"errors"}}, {"properties", obj{
			{"errors", obj{{"type", "object"}, {"required", []string{"body"}}, {"properties", obj{
				{"body", obj{{"type", "array"}, {"items", obj{{"type", "string"}}}}}}}}}}}})
	}
}

func hasKey(o obj, k string) bool {
	for _, e := range o {
		if e.k == k {
			return true
		}
	}
	return false
}

// secureWrites requires the document's one scheme of every POST, PUT,
// PATCH and DELETE, each declaring its 401.
func secureWrites(paths obj, security, errStyle int) {
	name := "ApiKey"
	if security == 2 {
		name = "Bearer"
	}
	for _, p := range paths {
		item := p.v.(obj)
		for i, m := range item {
			if m.k == "get" || m.k == "parameters" {
				continue
			}
			op := m.v.(obj)
			for j, e := range op {
				if e.k != "responses" {
					continue
				}
				unauthorized := obj{{"description", "No valid credential."}}
				if errStyle == 1 || errStyle == 3 {
					unauthorized.add("content", jsonContent(ref("Error")))
				}
				op[j].v = append(e.v.(obj), kv{"401", unauthorized})
			}
			op.add("security", []any{obj{{name, []any{}}}})
			item[i].v = op
		}
	}
}
