package spec

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"
)

// version reads which specification the document at top says it follows:
// the value of "openapi" (3.x), or of "swagger" (2.0). A document saying
// neither, or a version this loader does not read, is refused with what it
// says.
func version(top *yaml.Node) (swagger2 bool, err error) {
	openapi, swagger := lookup(top, "openapi"), lookup(top, "swagger")
	switch {
	case openapi != nil:
		if openapi.Kind != yaml.ScalarNode || !strings.HasPrefix(openapi.Value, "3.") {
			return false, fmt.Errorf("line %d: openapi version %s is not 3.x (an OpenAPI 3.0, 3.1 or Swagger 2.0 document is read)", openapi.Line, scalarText(openapi))
		}
		return false, nil
	case swagger != nil:
		if swagger.Kind != yaml.ScalarNode || swagger.Value != "2.0" {
			return false, fmt.Errorf("line %d: swagger version %s is not 2.0 (an OpenAPI 3.0, 3.1 or Swagger 2.0 document is read)", swagger.Line, scalarText(swagger))
		}
		return true, nil
	}
	return false, fmt.Errorf("not an OpenAPI document: it has no \"openapi\" field (nor \"swagger\": \"2.0\")")
}

func scalarText(n *yaml.Node) string {
	if n.Kind != yaml.ScalarNode {
		return "(not a string)"
	}
	return fmt.Sprintf("%q", n.Value)
}

// maxConvertedGrowth bounds how much larger than the Swagger 2.0 document
// its OpenAPI 3 conversion may be: kin-openapi v0.152.0's openapi2conv
// writes an operation's body schema once per media type it consumes, and
// each response's once per media type it produces, so a small document
// listing many media types could convert into a huge one.
const maxConvertedGrowth = 16

// convertSwagger2 converts the Swagger 2.0 document at top (already held
// to the budgets) into an OpenAPI 3.0 one with kin-openapi's openapi2conv,
// and returns the converted document's top mapping, its keys in the
// order the 2.0 document wrote their counterparts (paths, definitions,
// properties, parameters), since kin-openapi keeps them in Go maps; back
// gets the 2.0 node of each converted node that has one, for errors that
// say the line.
func convertSwagger2(top *yaml.Node, back map[*yaml.Node]*yaml.Node) (conv *yaml.Node, err error) {
	written := countNodes(top)
	if est := convertedEstimate(top); est > max(written*maxConvertedGrowth, minAliasBudget) {
		return nil, &LimitError{Limit: "conversion limit", Detail: fmt.Sprintf(
			"converted to OpenAPI 3, this Swagger 2.0 document of %d nodes would have about %d (its schemas written once per media type it consumes or produces)",
			written, est)}
	}
	raw, err := NodeJSON(top)
	if err != nil {
		return nil, err
	}
	var doc2 openapi2.T
	if err := json.Unmarshal(raw, &doc2); err != nil {
		return nil, fmt.Errorf("read Swagger 2.0: %w", err)
	}
	operationProduces(&doc2)
	doc3, err := toV3(&doc2)
	if err != nil {
		return nil, fmt.Errorf("convert Swagger 2.0 to OpenAPI 3.0: %w", err)
	}
	collectionFormats(&doc2, doc3)
	// openapi2conv always sets components.schemas; an empty one is noise.
	if doc3.Components != nil && len(doc3.Components.Schemas) == 0 {
		doc3.Components.Schemas = nil
	}
	out, err := json.Marshal(doc3)
	if err != nil {
		return nil, fmt.Errorf("convert Swagger 2.0 to OpenAPI 3.0: %w", err)
	}
	root, err := parseJSONNode(out)
	if err != nil || len(root.Content) != 1 {
		return nil, fmt.Errorf("convert Swagger 2.0 to OpenAPI 3.0: %v", err)
	}
	conv = root.Content[0]
	orderLike(conv, top, true, back)
	blockStyle(conv)
	plainStyle(conv)
	return conv, nil
}

// plainStyle lets yaml.v3 quote the converted document's strings only
// where YAML needs it, as a document written in YAML would be: parsed from
// JSON, every string is double-quoted.
func plainStyle(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode {
		n.Style &^= yaml.DoubleQuotedStyle
	}
	for _, c := range n.Content {
		plainStyle(c)
	}
}

// collectionFormats gives each query and form array of doc3 the style
// and explode of its Swagger 2.0 collectionFormat. kin-openapi v0.152.0's
// openapi2conv leaves a query parameter without one at OpenAPI 3's
// default (form, exploded: a=1&a=2), while Swagger 2.0's default is csv
// (a=1,2), and drops a formData parameter's altogether; a form field's
// becomes its media types' encoding. tsv has no OpenAPI 3 counterpart
// and stays exploded.
func collectionFormats(doc2 *openapi2.T, doc3 *openapi3.T) {
	fix := func(p2 *openapi2.Parameter, ref *openapi3.ParameterRef) {
		if p2 == nil || ref == nil || ref.Ref != "" || ref.Value == nil {
			return
		}
		p3 := ref.Value
		if p2.In != "query" || p3.In != "query" || p3.Name != p2.Name || p2.Type == nil || !p2.Type.Is("array") {
			return
		}
		switch p2.CollectionFormat {
		case "", "csv":
			p3.Style, p3.Explode = openapi3.SerializationForm, openapi3.Ptr(false)
		}
	}
	if doc3.Components != nil {
		for name, p2 := range doc2.Parameters {
			fix(p2, doc3.Components.Parameters[name])
		}
	}
	if doc3.Paths == nil {
		return
	}
	for path, item2 := range doc2.Paths {
		item3 := doc3.Paths.Value(path)
		if item2 == nil || item3 == nil {
			continue
		}
		fixAll := func(list2 openapi2.Parameters, list3 openapi3.Parameters) {
			for _, p2 := range list2 {
				for _, ref := range list3 {
					fix(p2, ref)
				}
			}
		}
		fixAll(item2.Parameters, item3.Parameters)
		for method, op2 := range item2.Operations() {
			op3 := item3.GetOperation(method)
			if op2 == nil || op3 == nil {
				continue
			}
			fixAll(op2.Parameters, op3.Parameters)
			formEncodings(doc2, append(slices.Clone(item2.Parameters), op2.Parameters...), op3)
		}
	}
}

// formStyles are the encodings of Swagger 2.0's collectionFormats that
// join a form array's items into one field.
var formStyles = map[string]string{"": openapi3.SerializationForm, "csv": openapi3.SerializationForm,
	"ssv": openapi3.SerializationSpaceDelimited, "pipes": openapi3.SerializationPipeDelimited}

// formEncodings writes the collectionFormat of each formData array of
// params as the encoding of op3's form media types.
func formEncodings(doc2 *openapi2.T, params openapi2.Parameters, op3 *openapi3.Operation) {
	if op3.RequestBody == nil || op3.RequestBody.Value == nil {
		return
	}
	for _, p := range params {
		if p != nil && p.Ref != "" {
			p = doc2.Parameters[p.Ref[strings.LastIndexByte(p.Ref, '/')+1:]]
		}
		if p == nil || p.In != "formData" || p.Type == nil || !p.Type.Is("array") {
			continue
		}
		style, ok := formStyles[p.CollectionFormat]
		if !ok {
			continue
		}
		for name, mt := range op3.RequestBody.Value.Content {
			if mt == nil || !strings.HasPrefix(name, "application/x-www-form-urlencoded") && !strings.HasPrefix(name, "multipart/form-data") {
				continue
			}
			if mt.Encoding == nil {
				mt.Encoding = map[string]*openapi3.Encoding{}
			}
			mt.Encoding[p.Name] = &openapi3.Encoding{Style: style, Explode: openapi3.Ptr(false)}
		}
	}
}

// operationProduces writes into each operation of doc2 the media types
// Swagger 2.0 says its responses are in, which kin-openapi v0.152.0's
// openapi2conv does not read all of: an operation without `produces`
// produces the document's (the converter writes application/json), and
// a response it refers to (#/responses/NotFound) is in the operation's
// media types, not the document's (the converter keeps the reference, whose
// component is converted with the document's). Such a response is written
// in place, for the operation's media types: Harbor's log download answers
// its 404 in text/plain, gotify's plugin configuration in YAML.
func operationProduces(doc2 *openapi2.T) {
	for _, item := range doc2.Paths {
		if item == nil {
			continue
		}
		for _, op := range item.Operations() {
			if op == nil {
				continue
			}
			if len(op.Produces) == 0 {
				op.Produces = doc2.Produces
			}
			if op.Responses == nil || slices.Equal(mediaOrJSON(op.Produces), mediaOrJSON(doc2.Produces)) {
				continue
			}
			for code, r := range op.Responses.Map() {
				if shared := sharedResponse(doc2, r); shared != nil {
					inline := *shared
					inline.Ref = ""
					op.Responses.Set(code, &inline)
				}
			}
		}
	}
}

// mediaOrJSON is a produces list as the converter reads it: application/json
// when empty.
func mediaOrJSON(list []string) []string {
	if len(list) == 0 {
		return []string{"application/json"}
	}
	return list
}

// sharedResponse is the response of doc2's responses that r refers to,
// following references between them (a few: they may loop); nil when r
// refers to none.
func sharedResponse(doc2 *openapi2.T, r *openapi2.Response) *openapi2.Response {
	const maxHops = 8
	var shared *openapi2.Response
	for hops := 0; r != nil && r.Ref != "" && hops < maxHops; hops++ {
		name, ok := strings.CutPrefix(r.Ref, "#/responses/")
		if !ok {
			return nil
		}
		r = doc2.Responses[name]
		shared = r
	}
	if shared == nil || shared.Ref != "" {
		return nil
	}
	return shared
}

// toV3 is openapi2conv.ToV3, which in kin-openapi v0.152.0 panics on
// some documents it could refuse (a path item that is null).
func toV3(doc2 *openapi2.T) (doc3 *openapi3.T, err error) {
	defer func() {
		if r := recover(); r != nil {
			doc3, err = nil, fmt.Errorf("kin-openapi's converter failed on it (%v): is it a valid Swagger 2.0 document?", r)
		}
	}()
	return openapi2conv.ToV3(doc2)
}

// countNodes counts the nodes under n, aliases expanded (checkTree has
// bounded them).
func countNodes(n *yaml.Node) int64 {
	if n == nil {
		return 0
	}
	n = deref(n)
	total := int64(1)
	for _, c := range n.Content {
		total = capped(total + countNodes(c))
	}
	return total
}

// convertedEstimate is about how many nodes the conversion of the 2.0
// document at top has: every operation counted once per media type it
// consumes and produces.
func convertedEstimate(top *yaml.Node) int64 {
	global := func(key string) int {
		if n := deref(lookup(top, key)); n != nil && n.Kind == yaml.SequenceNode {
			return len(n.Content)
		}
		return 0
	}
	consumes, produces := global("consumes"), global("produces")
	est := countNodes(top)
	paths := deref(lookup(top, "paths"))
	if paths == nil || paths.Kind != yaml.MappingNode {
		return est
	}
	for i := 1; i < len(paths.Content); i += 2 {
		item := deref(paths.Content[i])
		if item.Kind != yaml.MappingNode {
			continue
		}
		for j := 1; j < len(item.Content); j += 2 {
			op := deref(item.Content[j])
			if op.Kind != yaml.MappingNode {
				continue
			}
			c, p := consumes, produces
			if n := deref(lookup(op, "consumes")); n != nil && n.Kind == yaml.SequenceNode {
				c = len(n.Content)
			}
			if n := deref(lookup(op, "produces")); n != nil && n.Kind == yaml.SequenceNode {
				p = len(n.Content)
			}
			est = capped(est + countNodes(op)*int64(c+p))
		}
	}
	return est
}

// renamed are keys of an OpenAPI 3 document and the Swagger 2.0 keys they
// were converted from, the first one written giving its place: the top
// mapping's, and an operation's request body (its body parameter).
var renamed = map[string][]string{
	"openapi":     {"swagger"},
	"servers":     {"host", "basePath", "schemes"},
	"components":  {"definitions", "parameters", "responses", "securityDefinitions"},
	"requestBody": {"parameters"},
}

// orderLike sorts the keys of every mapping under n3 (the converted
// document) in the order the 2.0 document n2 wrote their counterparts;
// keys without one keep their place after those that have one. The two
// trees are walked side by side: components.schemas is definitions, a
// request body is the body (or the formData) parameters, a media type's
// schema is the response's or the parameter's.
func orderLike(n3, n2 *yaml.Node, top bool, back map[*yaml.Node]*yaml.Node) {
	n2 = deref(n2)
	if n2 != nil && n2.Line > 0 {
		back[n3] = n2
	}
	switch n3.Kind {
	case yaml.MappingNode:
		if n2 != nil && n2.Kind == yaml.MappingNode {
			sortKeys(n3, n2, top)
		}
		for i := 0; i+1 < len(n3.Content); i += 2 {
			key := n3.Content[i].Value
			var c *yaml.Node
			if top && key == "components" {
				c = componentsOf(n2)
			} else {
				c = counterpart(n2, key, n3.Content[i+1])
			}
			if k2 := keyNode(n2, key); k2 != nil {
				back[n3.Content[i]] = k2
			}
			orderLike(n3.Content[i+1], c, false, back)
		}
	case yaml.SequenceNode:
		if n2 == nil || n2.Kind != yaml.SequenceNode {
			return
		}
		for i, e := range n3.Content {
			if c := sameParameter(n2, e); c != nil {
				orderLike(e, c, false, back)
			} else if len(n3.Content) == len(n2.Content) {
				orderLike(e, n2.Content[i], false, back)
			}
		}
	}
}

// keyNode is the key node of key in the mapping n, or nil.
func keyNode(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i]
		}
	}
	return nil
}

// sortKeys orders n3's keys by where n2 wrote them (or, at the top, the
// keys they were renamed from).
func sortKeys(n3, n2 *yaml.Node, top bool) {
	index := map[string]int{}
	for i := 0; i+1 < len(n2.Content); i += 2 {
		if _, ok := index[n2.Content[i].Value]; !ok {
			index[n2.Content[i].Value] = i / 2
		}
	}
	rank := func(key string) int {
		if i, ok := index[key]; ok {
			return i
		}
		if top || key == "requestBody" {
			for _, old := range renamed[key] {
				if i, ok := index[old]; ok {
					return i
				}
			}
		}
		return len(index) + 1
	}
	type pair struct{ k, v *yaml.Node }
	pairs := make([]pair, 0, len(n3.Content)/2)
	for i := 0; i+1 < len(n3.Content); i += 2 {
		pairs = append(pairs, pair{n3.Content[i], n3.Content[i+1]})
	}
	slices.SortStableFunc(pairs, func(a, b pair) int { return rank(a.k.Value) - rank(b.k.Value) })
	for i, p := range pairs {
		n3.Content[2*i], n3.Content[2*i+1] = p.k, p.v
	}
}

// componentsOf is a mapping standing for the 2.0 document's counterpart
// of "components".
func componentsOf(top *yaml.Node) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode}
	for _, kv := range [][2]string{
		{"schemas", "definitions"}, {"parameters", "parameters"}, {"requestBodies", "parameters"},
		{"responses", "responses"}, {"securitySchemes", "securityDefinitions"},
	} {
		if v := lookup(top, kv[1]); v != nil {
			m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: kv[0]}, v)
		}
	}
	return m
}

// counterpart is what the 2.0 node n2 says for key of its converted
// counterpart, whose value is v3.
func counterpart(n2 *yaml.Node, key string, v3 *yaml.Node) *yaml.Node {
	if n2 == nil || n2.Kind != yaml.MappingNode {
		return nil
	}
	if c := lookup(n2, key); c != nil {
		return c
	}
	switch key {
	case "content":
		// A media type's schema is the response's (or the body
		// parameter's) own.
		m := &yaml.Node{Kind: yaml.MappingNode}
		for i := 0; i+1 < len(v3.Content); i += 2 {
			m.Content = append(m.Content, v3.Content[i], n2)
		}
		return m
	case "schema":
		// A converted non-body parameter: its schema is the parameter.
		if lookup(n2, "type") != nil {
			return n2
		}
		// A formData body: its properties are the parameters.
		props := &yaml.Node{Kind: yaml.MappingNode}
		for _, p := range listOf(lookup(n2, "parameters")) {
			if in := lookup(deref(p), "in"); in != nil && in.Value == "formData" {
				if name := lookup(deref(p), "name"); name != nil {
					props.Content = append(props.Content, name, p)
				}
			}
		}
		if len(props.Content) == 0 {
			return nil
		}
		return &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "properties"}, props}}
	case "requestBody":
		for _, p := range listOf(lookup(n2, "parameters")) {
			if in := lookup(deref(p), "in"); in != nil && in.Value == "body" {
				return p
			}
		}
		return n2 // formData: "schema" above reads its parameters
	}
	return nil
}

func listOf(n *yaml.Node) []*yaml.Node {
	if n = deref(n); n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	return n.Content
}

// sameParameter finds in the 2.0 list n2 the parameter named and placed
// as the converted one p, or nil.
func sameParameter(n2, p *yaml.Node) *yaml.Node {
	name, in := lookup(p, "name"), lookup(p, "in")
	if name == nil || in == nil {
		return nil
	}
	for _, c := range n2.Content {
		c = deref(c)
		n, i := lookup(c, "name"), lookup(c, "in")
		if n != nil && i != nil && n.Value == name.Value && i.Value == in.Value {
			return c
		}
	}
	return nil
}
