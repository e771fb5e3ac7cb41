package corpus

// The documents corpus reads each document on its own, sharing no code
// with the mock: its operations, parameters, bodies and answers from the
// JSON tree, its schemas compiled by santhosh-tekuri/jsonschema/v6 (an
// OpenAPI 3.0 or Swagger 2.0 schema as draft 4 with nullable written out, a
// 3.1 schema as draft 2020-12).

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
)

// docURL is where a document's tree is known to the schema compiler.
const docURL = "mem:///document.json"

// document is one corpus document, read.
type document struct {
	name, path string
	root       map[string]any // the document as JSON values (numbers json.Number)
	swagger2   bool           // Swagger 2.0, else OpenAPI 3.x
	v31        bool           // OpenAPI 3.1
	ops        []*docOperation
	compiler   *jsonschema.Compiler
	schemas    map[string]*jsonschema.Schema // compiled, by location
	synth      map[string]map[string]any     // the schemas the harness made, by location
	notes      []string                      // what the harness itself could not read
	// bearer is the token the served document's own password login issued
	// the harness's account ("": none; a made-up token is sent instead).
	bearer string
}

// docOperation is one operation of a document.
type docOperation struct {
	method, path string
	params       []*docParam
	body         *docBody // nil: no request body
	responses    map[string]*docResponse
	security     []map[string][]string // the requirements in force; nil: none
}

func (op *docOperation) String() string { return op.method + " " + op.path }

type docParam struct {
	name, in string
	required bool
	schema   string // the location of its schema
	example  any    // the parameter's own example, nil for none
	style    string // form, simple, label, matrix, spaceDelimited, pipeDelimited, deepObject; json: content
	explode  bool
	// also are the other declarations of the same parameter in the same
	// list, after this one.
	also []*docParam
	// delim joins the items of an array that is not exploded: "," but
	// for spaceDelimited, pipeDelimited and Swagger 2.0's ssv, tsv and
	// pipes.
	delim string
}

type docBody struct {
	required bool
	media    []docMedia
}

type docMedia struct {
	name   string // the media type, as declared
	schema string // the location of its schema; "" for none
	// fields are, for a Swagger 2.0 form, the parameters that make it.
	files map[string]bool // form fields that are files
	// joined are, for a Swagger 2.0 form, the array fields whose
	// collectionFormat joins their items into one value, with the
	// delimiter.
	joined map[string]string
}

type docResponse struct {
	media []docMedia
}

// loadDocument reads and prepares one document.
func loadDocument(name, path string) (*document, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	tree, err := decodeTree(data, filepath.Ext(path))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	root, ok := tree.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: not an object", path)
	}
	d := &document{name: name, path: path, root: root, schemas: map[string]*jsonschema.Schema{}, synth: map[string]map[string]any{}}
	if v, _ := root["swagger"].(string); strings.HasPrefix(v, "2") {
		d.swagger2 = true
	} else if v, _ := root["openapi"].(string); strings.HasPrefix(v, "3.1") {
		d.v31 = true
	}
	if !d.v31 {
		draft4Schemas(root, d.swagger2)
	}
	walkMaps(root, d.discriminatedOneOf)
	d.compiler = jsonschema.NewCompiler()
	if d.v31 {
		d.compiler.DefaultDraft(jsonschema.Draft2020)
	} else {
		d.compiler.DefaultDraft(jsonschema.Draft4)
	}
	d.compiler.UseRegexpEngine(lenientRegexp)
	if err := d.compiler.AddResource(docURL, root); err != nil {
		return nil, err
	}
	d.readOperations()
	return d, nil
}

// decodeTree decodes JSON or YAML into JSON values: string keys, numbers
// as json.Number, as jsonschema wants them.
func decodeTree(data []byte, ext string) (any, error) {
	if ext != ".json" {
		var v any
		if err := yaml.Unmarshal(data, &v); err != nil {
			return nil, err
		}
		var err error
		if data, err = json.Marshal(jsonKeys(v)); err != nil {
			return nil, err
		}
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(data))
}

// jsonKeys turns YAML's non-string keys (a status 200) into strings.
func jsonKeys(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = jsonKeys(x)
		}
		return v
	case map[any]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[fmt.Sprint(k)] = jsonKeys(x)
		}
		return m
	case []any:
		for i, x := range v {
			v[i] = jsonKeys(x)
		}
	}
	return v
}

// draft4Schemas rewrites an OpenAPI 3.0 or Swagger 2.0 document's schemas
// for draft 4: nullable (x-nullable in 2.0) as a null alternative, 2.0's
// type file as any value.
func draft4Schemas(v any, swagger2 bool) {
	switch v := v.(type) {
	case map[string]any:
		for _, x := range v {
			draft4Schemas(x, swagger2)
		}
		// A formData parameter keeps its type file, which says its part
		// is a file (formBody); it is no schema, and paramSchema drops it.
		if _, param := v["in"].(string); !param && v["type"] == "file" {
			delete(v, "type")
		}
		key := "nullable"
		if swagger2 {
			key = "x-nullable"
		}
		if n, ok := v[key].(bool); !ok || !n {
			return
		}
		delete(v, key)
		if enum, ok := v["enum"].([]any); ok {
			v["enum"] = append(enum, nil)
		}
		if t, ok := v["type"].(string); ok {
			v["type"] = []any{t, "null"}
			return
		}
		inner := map[string]any{}
		for k, x := range v {
			inner[k] = x
			delete(v, k)
		}
		v["anyOf"] = []any{map[string]any{"type": "null"}, inner}
	case []any:
		for _, x := range v {
			draft4Schemas(x, swagger2)
		}
	}
}

// discriminatedOneOf makes a oneOf with a discriminator (its own, or its
// branches' base schema's) an anyOf: in OpenAPI the discriminator's value
// picks the one branch, so a body two loose branches both accept (neither
// forbids the other's fields) is still valid, where JSON Schema's oneOf
// refuses it.
func (d *document) discriminatedOneOf(m map[string]any) {
	one, ok := m["oneOf"].([]any)
	if !ok || m["anyOf"] != nil {
		return
	}
	found := m["discriminator"] != nil
	for _, b := range one {
		bm, _ := b.(map[string]any)
		bm = d.resolve(bm)
		if bm == nil {
			continue
		}
		if bm["discriminator"] != nil {
			found = true
		}
		parts, _ := bm["allOf"].([]any)
		for _, p := range parts {
			if pm, _ := p.(map[string]any); d.resolve(pm)["discriminator"] != nil {
				found = true
			}
		}
	}
	if found {
		m["anyOf"] = one
		delete(m, "oneOf")
	}
}

// walkMaps calls f on every object of a JSON tree, inner ones first.
func walkMaps(v any, f func(map[string]any)) {
	switch v := v.(type) {
	case map[string]any:
		for _, x := range v {
			walkMaps(x, f)
		}
		f(v)
	case []any:
		for _, x := range v {
			walkMaps(x, f)
		}
	}
}

// lenientRegexp compiles a pattern with Go's regexp; one Go cannot read
// (an ECMA-262 lookahead) matches everything, so the rest of the schema is
// still checked.
func lenientRegexp(s string) (jsonschema.Regexp, error) {
	re, err := regexp.Compile(s)
	if err != nil {
		return anyText{s}, nil
	}
	return re, nil
}

type anyText struct{ s string }

func (a anyText) MatchString(string) bool { return true }
func (a anyText) String() string          { return a.s }

// pointer escapes a JSON pointer token.
func pointer(tokens ...string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(t))
	}
	return b.String()
}

// at is the value at a JSON pointer of the document.
func (d *document) at(ptr string) any {
	var v any = d.root
	if ptr == "" {
		return v
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		switch x := v.(type) {
		case map[string]any:
			v = x[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// deref follows $refs from ptr, at most a few deep, and returns where it
// ended and what is there; "" and nil for a $ref out of the document.
func (d *document) deref(ptr string) (string, map[string]any) {
	for range 16 {
		m, _ := d.at(ptr).(map[string]any)
		if m == nil {
			return ptr, nil
		}
		ref, ok := m["$ref"].(string)
		if !ok {
			return ptr, m
		}
		if !strings.HasPrefix(ref, "#") {
			return "", nil
		}
		ptr = ref[1:]
	}
	return "", nil
}

var methods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// readOperations fills d.ops, in path then method order.
func (d *document) readOperations() {
	paths, _ := d.root["paths"].(map[string]any)
	keys := make([]string, 0, len(paths))
	for p := range paths {
		keys = append(keys, p)
	}
	slices.Sort(keys)
	rootSec, hasRootSec := d.root["security"].([]any)
	for _, p := range keys {
		itemPtr, item := d.deref(pointer("paths", p))
		if item == nil {
			d.notes = append(d.notes, "path "+p+": a $ref out of the document")
			continue
		}
		for _, m := range methods {
			o, ok := item[m].(map[string]any)
			if !ok {
				continue
			}
			opPtr := itemPtr + pointer(m)
			op := &docOperation{method: strings.ToUpper(m), path: p, responses: map[string]*docResponse{}}
			// Parameters: the path item's, replaced by the operation's of the same name and place.
			seen := map[string]int{}
			// A parameter listed twice in one list (an invalid document,
			// NestJS writes some) keeps both declarations: the request
			// must satisfy each, whichever a server reads.
			fromItem := map[string]bool{}
			var form []*docParam
			for _, base := range []string{itemPtr, opPtr} {
				list, _ := d.at(base + "/parameters").([]any)
				for i := range list {
					pp, pm := d.deref(base + "/parameters/" + strconv.Itoa(i))
					if pm == nil {
						continue
					}
					prm := d.param(pp, pm)
					if prm == nil {
						continue
					}
					if prm.in == "body" {
						op.body = &docBody{required: prm.required}
						for _, mt := range d.mediaList(o, "consumes") {
							op.body.media = append(op.body.media, docMedia{name: mt, schema: pp + "/schema"})
						}
						continue
					}
					if prm.in == "formData" {
						form = append(form, prm)
						continue
					}
					key := prm.in + " " + prm.name
					if j, dup := seen[key]; dup {
						if base == opPtr && !fromItem[key] {
							op.params[j].also = append(op.params[j].also, prm)
							continue
						}
						op.params[j] = prm
						fromItem[key] = false
						continue
					}
					seen[key] = len(op.params)
					fromItem[key] = base == itemPtr
					op.params = append(op.params, prm)
				}
			}
			if len(form) > 0 {
				op.body = d.formBody(o, form)
			}
			if rbPtr, rb := d.deref(opPtr + "/requestBody"); rb != nil {
				op.body = &docBody{required: rb["required"] == true}
				op.body.media = d.content(rbPtr, rb)
			}
			resps, _ := o["responses"].(map[string]any)
			for code := range resps {
				rp, rm := d.deref(opPtr + pointer("responses", code))
				if rm == nil {
					continue
				}
				r := &docResponse{}
				if d.swagger2 {
					if _, ok := rm["schema"]; ok {
						for _, mt := range d.mediaList(o, "produces") {
							r.media = append(r.media, docMedia{name: mt, schema: rp + "/schema"})
						}
					}
				} else {
					r.media = d.content(rp, rm)
				}
				op.responses[strings.ToUpper(code)] = r
			}
			if sec, ok := o["security"].([]any); ok {
				op.security = requirements(sec)
			} else if hasRootSec {
				op.security = requirements(rootSec)
			}
			d.ops = append(d.ops, op)
		}
	}
}

// requirements reads a security requirement list.
func requirements(list []any) []map[string][]string {
	out := []map[string][]string{}
	for _, x := range list {
		m, _ := x.(map[string]any)
		req := map[string][]string{}
		for name := range m {
			req[name] = nil
		}
		out = append(out, req)
	}
	return out
}

// mediaList is a Swagger 2.0 operation's consumes or produces, else the
// document's, else JSON.
func (d *document) mediaList(op map[string]any, key string) []string {
	list, ok := op[key].([]any)
	if !ok {
		list, _ = d.root[key].([]any)
	}
	var out []string
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		out = []string{"application/json"}
	}
	return out
}

// content reads a 3.x content map at ptr.
func (d *document) content(ptr string, m map[string]any) []docMedia {
	c, _ := m["content"].(map[string]any)
	names := make([]string, 0, len(c))
	for mt := range c {
		names = append(names, mt)
	}
	slices.Sort(names)
	var out []docMedia
	for _, mt := range names {
		md := docMedia{name: mt}
		if mm, _ := c[mt].(map[string]any); mm != nil && mm["schema"] != nil {
			md.schema = ptr + pointer("content", mt, "schema")
		}
		out = append(out, md)
	}
	return out
}

// param reads a parameter; for Swagger 2.0 one not in the body, its schema
// is made from its own keywords.
func (d *document) param(ptr string, m map[string]any) *docParam {
	name, _ := m["name"].(string)
	in, _ := m["in"].(string)
	if name == "" || in == "" {
		return nil
	}
	p := &docParam{name: name, in: in, required: m["required"] == true, example: m["example"]}
	if p.example == nil {
		if ex, ok := m["examples"].(map[string]any); ok {
			for _, k := range slices.Sorted(maps.Keys(ex)) {
				if em, ok := ex[k].(map[string]any); ok && em["value"] != nil {
					p.example = em["value"]
					break
				}
			}
		}
	}
	p.style, _ = m["style"].(string)
	if p.style == "" {
		p.style = "form"
		if in == "path" || in == "header" {
			p.style = "simple"
		}
	}
	p.explode = p.style == "form"
	if e, ok := m["explode"].(bool); ok {
		p.explode = e
	}
	p.delim = map[string]string{"spaceDelimited": " ", "pipeDelimited": "|"}[p.style]
	switch {
	case in == "body":
		p.schema = ptr + "/schema"
	case d.swagger2:
		p.schema = d.synthesise(paramSchema(m))
		p.style = "form"
		if in == "path" || in == "header" {
			p.style = "simple"
		}
		// Swagger 2.0's collectionFormat: csv (the default) ssv, tsv
		// and pipes join the items; multi repeats the query key.
		cf, _ := m["collectionFormat"].(string)
		p.explode = cf == "multi"
		p.delim = map[string]string{"ssv": " ", "tsv": "\t", "pipes": "|"}[cf]
	case m["schema"] != nil:
		p.schema = ptr + "/schema"
	case m["content"] != nil:
		for _, md := range d.content(ptr, m) {
			p.schema = md.schema
			p.style = "json"
			break
		}
	}
	return p
}

// paramSchema is a Swagger 2.0 parameter's schema keywords.
func paramSchema(m map[string]any) map[string]any {
	s := map[string]any{}
	for _, k := range []string{"type", "format", "items", "enum", "minimum", "maximum", "exclusiveMinimum",
		"exclusiveMaximum", "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "multipleOf", "default"} {
		if v, ok := m[k]; ok {
			s[k] = v
		}
	}
	if s["type"] == "file" {
		delete(s, "type")
	}
	return s
}

// formBody makes a Swagger 2.0 operation's formData parameters one object
// body, of each media type it consumes.
func (d *document) formBody(op map[string]any, form []*docParam) *docBody {
	props, files, joined := map[string]any{}, map[string]bool{}, map[string]string{}
	var required []any
	for _, p := range form {
		props[p.name] = map[string]any{"$ref": d.refTo(p.schema)}
		if p.required {
			required = append(required, p.name)
		}
		m, _ := d.paramObject(op, p.name)
		if m != nil && m["type"] == "file" {
			files[p.name] = true
		}
		if m != nil && m["type"] == "array" && !p.explode {
			joined[p.name] = cmp.Or(p.delim, ",")
		}
	}
	s := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		s["required"] = required
	}
	ptr := d.synthesise(s)
	b := &docBody{required: len(required) > 0}
	consumes := d.mediaList(op, "consumes")
	if len(files) > 0 || !slices.ContainsFunc(consumes, isForm) {
		consumes = []string{"multipart/form-data"}
	}
	for _, mt := range consumes {
		if isForm(mt) {
			b.media = append(b.media, docMedia{name: mt, schema: ptr, files: files, joined: joined})
		}
	}
	return b
}

func isForm(mt string) bool {
	return mediaBase(mt) == "application/x-www-form-urlencoded" || mediaBase(mt) == "multipart/form-data"
}

// paramObject finds an operation's formData parameter by name (resolved).
func (d *document) paramObject(op map[string]any, name string) (map[string]any, bool) {
	list, _ := op["parameters"].([]any)
	for _, x := range list {
		m, _ := x.(map[string]any)
		if ref, ok := m["$ref"].(string); ok && strings.HasPrefix(ref, "#") {
			_, m = d.deref(ref[1:])
		}
		if m != nil && m["name"] == name && m["in"] == "formData" {
			return m, true
		}
	}
	return nil, false
}

// synthesise adds a schema the harness made (2.0 parameters) as a
// resource of its own and returns its location.
func (d *document) synthesise(s map[string]any) string {
	loc := fmt.Sprintf("mem:///synth/%d.json", len(d.synth)+1)
	// A $ref to "#/definitions/..." in it means the document's.
	rewriteRefs(s)
	d.synth[loc] = s
	if err := d.compiler.AddResource(loc, s); err != nil {
		d.notes = append(d.notes, "synthesised schema: "+err.Error())
	}
	return loc
}

func rewriteRefs(v any) {
	switch v := v.(type) {
	case map[string]any:
		if ref, ok := v["$ref"].(string); ok && strings.HasPrefix(ref, "#") {
			v["$ref"] = docURL + ref
		}
		for _, x := range v {
			rewriteRefs(x)
		}
	case []any:
		for _, x := range v {
			rewriteRefs(x)
		}
	}
}

// refTo is a $ref to a schema location.
func (d *document) refTo(loc string) string {
	if strings.HasPrefix(loc, "mem:") {
		return loc
	}
	return docURL + "#" + loc
}

// schema compiles (once) the schema at a location: a pointer into the
// document or a synthesised schema's URL.
func (d *document) schema(loc string) (*jsonschema.Schema, error) {
	if s, ok := d.schemas[loc]; ok {
		return s, nil
	}
	s, err := d.compiler.Compile(d.refTo(loc))
	if err != nil {
		return nil, err
	}
	d.schemas[loc] = s
	return s, nil
}

// schemaAt is the schema object at a location, $refs followed.
func (d *document) schemaAt(loc string) map[string]any {
	if loc == "" {
		return nil
	}
	if strings.HasPrefix(loc, "mem:") {
		return d.resolve(d.synth[loc])
	}
	_, m := d.deref(loc)
	return m
}

// resolve follows a schema's $ref (into the document or a synthesised
// schema), a few deep; nil for one out of reach.
func (d *document) resolve(m map[string]any) map[string]any {
	for range 16 {
		ref, ok := m["$ref"].(string)
		if !ok {
			return m
		}
		ref = strings.TrimPrefix(ref, docURL)
		switch {
		case strings.HasPrefix(ref, "#"):
			_, m = d.deref(ref[1:])
		case strings.HasPrefix(ref, "mem:"):
			m = d.synth[ref]
		default:
			return nil
		}
		if m == nil {
			return nil
		}
	}
	return nil
}
