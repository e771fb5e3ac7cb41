package spec

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"
)

// setAsideLenient sets aside, while kin-openapi v0.152.0 validates doc,
// what it refuses in documents real generators serve and every client
// reads, and returns what puts it back, with a warning for each:
//   - an empty info.title or info.version (Django REST framework writes
//     title: ”): the specification asks for a string, and "" is one;
//     kin-openapi asks for a non-empty one;
//   - a security requirement naming a scheme components.securitySchemes
//     does not define (springdoc and swag write them for a scheme
//     declared elsewhere): it is kept in the document, and a reader
//     finds no scheme for it;
//   - a parameter listed twice (same name, same place) in one operation:
//     the first is kept, the others are left out of doc for good, as a
//     server's framework reads the first;
//   - a path template's parameter no operation declares (NestJS writes
//     /wildcard/{path} so): declared in doc for good, a required string;
//   - a security scheme's field that belongs to another type of scheme
//     (Litestar writes in: header and name: Authorization, and a
//     bearerFormat, in its oauth2 password scheme): the specification
//     says which type each applies to, and a reader of the type ignores
//     the others; kin-openapi refuses them. Every reader of a scheme
//     here goes by its type first;
//   - an OAuth flow without scopes (Litestar's again): read as one with
//     none, as the specification allows ("MAY be empty");
//   - a component named with characters OpenAPI 3 does not allow in the
//     name (a-z, A-Z, 0-9, ".", "_", "-"): Swagger 2.0 allows any
//     definition name, and tsoa writes GenericModelTestModel[]; every
//     reference to it is resolved by then, and the name is read as
//     written. Not a security scheme, which requirements name.
func setAsideLenient(doc *openapi3.T) (restore func(), warnings []string) {
	var undo []func()
	if info := doc.Info; info != nil {
		for _, f := range []struct {
			name string
			v    *string
		}{{"title", &info.Title}, {"version", &info.Version}} {
			if *f.v == "" {
				v := f.v
				*v = "-"
				undo = append(undo, func() { *v = "" })
				warnings = append(warnings, fmt.Sprintf("info.%s is empty", f.name))
			}
		}
	}
	// A server the mock never calls: one kin-openapi refuses (a variable
	// its URL does not use, NestJS's e2e document) is set aside while the
	// document is validated, with a warning.
	servers := func(list *openapi3.Servers, where string) {
		if list == nil || len(*list) == 0 {
			return
		}
		var kept openapi3.Servers
		for i, srv := range *list {
			if srv == nil {
				continue
			}
			if err := srv.Validate(context.Background()); err != nil {
				warnings = append(warnings, fmt.Sprintf("%sservers[%d]: %v: left unvalidated (the mock calls no server)", where, i, err))
				continue
			}
			kept = append(kept, srv)
		}
		if len(kept) != len(*list) {
			was := *list
			*list = kept
			undo = append(undo, func() { *list = was })
		}
	}
	servers(&doc.Servers, "")
	if c := doc.Components; c != nil {
		anyName(c.Schemas, "schemas", &undo, &warnings)
		anyName(c.Parameters, "parameters", &undo, &warnings)
		anyName(c.Headers, "headers", &undo, &warnings)
		anyName(c.RequestBodies, "requestBodies", &undo, &warnings)
		anyName(c.Responses, "responses", &undo, &warnings)
		anyName(c.Examples, "examples", &undo, &warnings)
		anyName(c.Links, "links", &undo, &warnings)
		anyName(c.Callbacks, "callbacks", &undo, &warnings)
	}
	if doc.Components != nil {
		for _, name := range slices.Sorted(maps.Keys(doc.Components.SecuritySchemes)) {
			if ref := doc.Components.SecuritySchemes[name]; ref != nil && ref.Value != nil {
				if put, fields := setAsideForeign(ref.Value); put != nil {
					undo = append(undo, put)
					warnings = append(warnings, fmt.Sprintf("components.securitySchemes.%s: ignoring %s, which a scheme of type %s has not", name, strings.Join(fields, ", "), ref.Value.Type))
				}
				if ref.Value.Type == "oauth2" {
					for _, f := range noScopes(ref.Value.Flows) {
						f.flow.Scopes = map[string]string{}
						undo = append(undo, func() { f.flow.Scopes = nil })
						warnings = append(warnings, fmt.Sprintf("components.securitySchemes.%s.flows.%s: scopes is missing: read as none", name, f.name))
					}
				}
			}
		}
	}
	// (where ends in a dot below: "paths./x.get.servers[0]")
	var schemes openapi3.SecuritySchemes
	if doc.Components != nil {
		schemes = doc.Components.SecuritySchemes
	}
	known := func(reqs openapi3.SecurityRequirements) (openapi3.SecurityRequirements, []string) {
		var unknown []string
		for _, req := range reqs {
			for name := range req {
				if _, ok := schemes[name]; !ok && !slices.Contains(unknown, name) {
					unknown = append(unknown, name)
				}
			}
		}
		if unknown == nil {
			return reqs, nil
		}
		kept := make(openapi3.SecurityRequirements, len(reqs))
		for i, req := range reqs {
			kept[i] = openapi3.SecurityRequirement{}
			for name, scopes := range req {
				if !slices.Contains(unknown, name) {
					kept[i][name] = scopes
				}
			}
		}
		slices.Sort(unknown)
		return kept, unknown
	}
	undefined := func(where string, unknown []string) {
		warnings = append(warnings, fmt.Sprintf("%s: security requirement names %s, which components.securitySchemes does not define", where, strings.Join(unknown, ", ")))
	}
	if kept, unknown := known(doc.Security); unknown != nil {
		was := doc.Security
		doc.Security = kept
		undo = append(undo, func() { doc.Security = was })
		undefined("security", unknown)
	}
	if doc.Paths != nil {
		for _, path := range doc.Paths.InMatchingOrder() {
			item := doc.Paths.Value(path)
			item.Parameters = dropDuplicates(item.Parameters, "paths."+path, &warnings)
			servers(&item.Servers, "paths."+path+".")
			for _, method := range sortedMethods(item) {
				op := item.GetOperation(method)
				where := "paths." + path + "." + strings.ToLower(method)
				op.Parameters = dropDuplicates(op.Parameters, where, &warnings)
				if op.Servers != nil {
					servers(op.Servers, where+".")
				}
				op.Parameters = declareTemplated(path, item.Parameters, op.Parameters, where, &warnings)
				if op.Security == nil {
					continue
				}
				if kept, unknown := known(*op.Security); unknown != nil {
					was := op.Security
					op.Security = &kept
					undo = append(undo, func() { op.Security = was })
					undefined(where, unknown)
				}
			}
		}
	}
	return func() {
		for _, u := range undo {
			u()
		}
	}, warnings
}

// setAsideForeign blanks the fields of ss that apply to another type of
// security scheme than its own (OpenAPI 3.0 §4.7.27.1: in and name apply
// to apiKey, bearerFormat to http bearer, flows to oauth2), and returns
// what puts them back and their names; nil when it has none. A type the
// loader does not know keeps every field: kin-openapi refuses the type.
func setAsideForeign(ss *openapi3.SecurityScheme) (restore func(), fields []string) {
	switch ss.Type {
	case "apiKey", "http", "oauth2", "openIdConnect", "mutualTLS":
	default:
		return nil, nil
	}
	was := *ss
	if ss.Type != "apiKey" {
		if ss.In != "" {
			ss.In, fields = "", append(fields, "in")
		}
		if ss.Name != "" {
			ss.Name, fields = "", append(fields, "name")
		}
	}
	if ss.BearerFormat != "" && !(ss.Type == "http" && strings.EqualFold(ss.Scheme, "bearer")) {
		ss.BearerFormat, fields = "", append(fields, "bearerFormat")
	}
	if ss.Flows != nil && ss.Type != "oauth2" {
		ss.Flows, fields = nil, append(fields, "flows")
	}
	if fields == nil {
		return nil, nil
	}
	return func() { ss.In, ss.Name, ss.BearerFormat, ss.Flows = was.In, was.Name, was.BearerFormat, was.Flows }, fields
}

// anyName moves each component of m whose name OpenAPI 3 does not allow
// to a name it does, not yet in m, while the document is validated, with
// a warning; undo moves it back.
func anyName[M ~map[string]V, V any](m M, section string, undo *[]func(), warnings *[]string) {
	var bad []string
	for name := range m {
		if openapi3.ValidateIdentifier(name) != nil {
			bad = append(bad, name)
		}
	}
	slices.Sort(bad)
	for _, name := range bad {
		stand := strings.Map(func(r rune) rune {
			if r < 128 && openapi3.IdentifierRegExp.MatchString(string(r)) {
				return r
			}
			return '_'
		}, name)
		for _, taken := m[stand]; taken || stand == ""; _, taken = m[stand] {
			stand += "_"
		}
		v := m[name]
		delete(m, name)
		m[stand] = v
		*undo = append(*undo, func() {
			delete(m, stand)
			m[name] = v
		})
		*warnings = append(*warnings, fmt.Sprintf("components.%s.%s: a name OpenAPI 3 does not allow (it allows a-z, A-Z, 0-9, '.', '_' and '-'): read as written", section, name))
	}
}

type namedFlow struct {
	name string
	flow *openapi3.OAuthFlow
}

// noScopes lists the flows of flows that have no scopes field.
func noScopes(flows *openapi3.OAuthFlows) []namedFlow {
	if flows == nil {
		return nil
	}
	var out []namedFlow
	for _, f := range []namedFlow{{"implicit", flows.Implicit}, {"password", flows.Password}, {"clientCredentials", flows.ClientCredentials}, {"authorizationCode", flows.AuthorizationCode}} {
		if f.flow != nil && f.flow.Scopes == nil {
			out = append(out, f)
		}
	}
	return out
}

func sortedMethods(item *openapi3.PathItem) []string {
	var methods []string
	for m := range item.Operations() {
		methods = append(methods, m)
	}
	slices.Sort(methods)
	return methods
}

// dropDuplicates keeps the first of each parameter (by place and name).
func dropDuplicates(params openapi3.Parameters, where string, warnings *[]string) openapi3.Parameters {
	type key struct{ in, name string }
	seen := map[key]bool{}
	var out openapi3.Parameters
	for _, p := range params {
		if p == nil || p.Value == nil {
			out = append(out, p)
			continue
		}
		k := key{p.Value.In, p.Value.Name}
		if seen[k] {
			*warnings = append(*warnings, fmt.Sprintf("%s: the %s parameter %q is listed twice: the first is read", where, k.in, k.name))
			continue
		}
		seen[k] = true
		out = append(out, p)
	}
	if len(out) == len(params) {
		return params
	}
	return out
}

// tupleItems returns a copy of the document at top in which every
// schema's "items" written as a list (JSON Schema draft 4 to 2019-09's
// tuple, which ogen's documents use) is what JSON Schema 2020-12 (OpenAPI
// 3.1) says for it: prefixItems, and additionalItems become items. An
// OpenAPI 3.0 schema has no tuple: its items become any value. kin-openapi
// v0.152.0 cannot decode the list. The document as written (Root, JSON,
// YAML) keeps the list; nil when it has none.
//
// The copy also reads, with a warning each, the Swagger 2.0 habits a
// generator of OpenAPI 3 documents keeps in its schemas (rswag's test
// app writes all three), which kin-openapi cannot decode or refuses:
// an enum written as a mapping of each value to its description (its
// keys are the values), a required written as a boolean, as a Swagger
// 2.0 parameter's (ignored: a schema's required lists property names),
// and type: file (a string of binary, as the Swagger 2.0 conversion
// reads it).
func tupleItems(top *yaml.Node, v31 bool) (*yaml.Node, []string) {
	if !hasTuple(top, kTop, map[*yaml.Node]bool{}) {
		return nil, nil
	}
	var warnings []string
	var rewrite func(n *yaml.Node, k kind, path string) *yaml.Node
	rewrite = func(n *yaml.Node, k kind, path string) *yaml.Node {
		n = deref(n)
		cp := *n
		cp.Anchor = ""
		if len(n.Content) == 0 {
			return &cp
		}
		cp.Content = make([]*yaml.Node, 0, len(n.Content))
		switch n.Kind {
		case yaml.MappingNode:
			tuple := k == kSchema && deref(lookup(n, "items")) != nil && deref(lookup(n, "items")).Kind == yaml.SequenceNode
			for i := 0; i+1 < len(n.Content); i += 2 {
				key, v := n.Content[i], n.Content[i+1]
				name := key.Value
				if k == kSchema {
					if habit, ok := schemaHabit(name, deref(v)); ok {
						warnings = append(warnings, fmt.Sprintf("line %d: %s%s", key.Line, path, habit.why))
						if habit.value != nil {
							cp.Content = append(cp.Content, key, habit.value)
						}
						if habit.format != "" && lookup(n, "format") == nil {
							cp.Content = append(cp.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "format"},
								&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: habit.format})
						}
						continue
					}
				}
				switch {
				case tuple && name == "items" && v31:
					name = "prefixItems"
				case tuple && name == "items":
					cp.Content = append(cp.Content, key, &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"})
					warnings = append(warnings, fmt.Sprintf("line %d: %sitems is a list (a tuple, which OpenAPI 3.0 has not): any item is accepted", key.Line, path))
					continue
				case tuple && name == "additionalItems":
					if !v31 {
						continue
					}
					name = "items"
				}
				newKey := *key
				newKey.Value = name
				cp.Content = append(cp.Content, &newKey, rewrite(v, child(k, key.Value), path+key.Value+"."))
			}
		case yaml.SequenceNode:
			for _, c := range n.Content {
				cp.Content = append(cp.Content, rewrite(c, element(k), path))
			}
		default:
			cp.Content = append(cp.Content, n.Content...)
		}
		return &cp
	}
	return rewrite(top, kTop, ""), warnings
}

// habit is how tupleItems reads a Swagger 2.0 habit of a schema: the
// value to write for the keyword (nil: the keyword is left out), and why.
type habit struct {
	value *yaml.Node
	why   string
	// format is the format the schema gets where it states none.
	format string
}

// schemaHabit reads the schema keyword name of value v, when it is a
// Swagger 2.0 habit kin-openapi cannot take (see tupleItems).
func schemaHabit(name string, v *yaml.Node) (habit, bool) {
	if v == nil {
		return habit{}, false
	}
	switch {
	case name == "enum" && v.Kind == yaml.MappingNode:
		list := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for i := 0; i+1 < len(v.Content); i += 2 {
			list.Content = append(list.Content, v.Content[i])
		}
		return habit{value: list, why: "enum is a mapping of each value to its description: its keys are the values"}, true
	case name == "required" && v.Kind == yaml.ScalarNode && v.Tag == "!!bool":
		return habit{why: "required is " + v.Value + ", not a list of property names: ignored"}, true
	case name == "type" && v.Kind == yaml.ScalarNode && v.Value == "file":
		return habit{value: &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "string"}, why: "type is file (Swagger 2.0's): read as a string of binary", format: "binary"}, true
	}
	return habit{}, false
}

func hasTuple(n *yaml.Node, k kind, seen map[*yaml.Node]bool) bool {
	n = deref(n)
	if n == nil || seen[n] {
		return false
	}
	seen[n] = true
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k == kSchema && n.Content[i].Value == "items" && deref(n.Content[i+1]).Kind == yaml.SequenceNode {
				return true
			}
			if _, ok := schemaHabit(n.Content[i].Value, deref(n.Content[i+1])); ok && k == kSchema {
				return true
			}
			if hasTuple(n.Content[i+1], child(k, n.Content[i].Value), seen) {
				return true
			}
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if hasTuple(c, element(k), seen) {
				return true
			}
		}
	}
	return false
}

var templateParam = regexp.MustCompile(`\{([^{}]+)\}`)

// declareTemplated adds to params a required string path parameter for
// each of path's template parameters neither params nor the path item's
// (shared) declare.
func declareTemplated(path string, shared, params openapi3.Parameters, where string, warnings *[]string) openapi3.Parameters {
	declared := func(name string) bool {
		for _, list := range []openapi3.Parameters{shared, params} {
			for _, p := range list {
				if p != nil && p.Value != nil && p.Value.In == openapi3.ParameterInPath && p.Value.Name == name {
					return true
				}
			}
		}
		return false
	}
	for _, m := range templateParam.FindAllStringSubmatch(path, -1) {
		if name := m[1]; !declared(name) {
			*warnings = append(*warnings, fmt.Sprintf("%s: the path parameter %q is not declared: read as a required string", where, name))
			params = append(slices.Clip(params), &openapi3.ParameterRef{Value: openapi3.NewPathParameter(name).WithSchema(openapi3.NewStringSchema())})
		}
	}
	return params
}
