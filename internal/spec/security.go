package spec

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"
)

// SecurityScheme is a security scheme as a FastAPI security dependency
// declares it: its name under components.securitySchemes (FastAPI's
// scheme_name, the dependency's class name) and its definition.
type SecurityScheme struct {
	Name string
	def  *yaml.Node
}

// OAuth2PasswordBearer is the scheme fastapi.security.OAuth2PasswordBearer
// (tokenUrl=tokenURL) declares, keys in FastAPI 0.141.1's order:
//
//	"OAuth2PasswordBearer":{"type":"oauth2","flows":{"password":{"scopes":{},"tokenUrl":"…"}}}
func OAuth2PasswordBearer(tokenURL string) SecurityScheme {
	return SecurityScheme{Name: "OAuth2PasswordBearer", def: mapping(
		str("type"), str("oauth2"),
		str("flows"), mapping(
			str("password"), mapping(
				str("scopes"), flow(yaml.MappingNode),
				str("tokenUrl"), str(tokenURL),
			),
		),
	)}
}

// WithSecurity returns the document as FastAPI 0.141.1 generates it when
// every operation protect accepts depends on scheme: the scheme under
// components.securitySchemes, and "security": [{name: []}] in each of those
// operations, placed where FastAPI places them. Everything else stays as
// written. An operation that already lists security keeps its own.
//
// Where "security" goes follows from how FastAPI builds an operation: as a
// dict with tags, summary, description, operationId and deprecated, then
// security, then parameters, requestBody and responses. It then validates the
// whole document with its pydantic OpenAPI model, whose paths are
// dict[str, PathItem | Any]. In pydantic 2's smart union a path item that
// validates strictly as a PathItem becomes one, and is written in the
// model's field order (security after responses and deprecated); a
// Parameter's "in" is an enum, which a plain string never is in strict
// mode, so a path item with parameters stays the dict, in the order built.
func (s *Spec) WithSecurity(scheme SecurityScheme, protect func(op *openapi3.Operation) bool) (*Spec, error) {
	root := clone(s.root())
	requirement := seq(mapping(str(scheme.Name), flow(yaml.SequenceNode)))
	if paths := lookup(root, "paths"); paths != nil && paths.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(paths.Content); i += 2 {
			tmpl, item := paths.Content[i].Value, paths.Content[i+1]
			kinItem := s.Doc.Paths.Value(tmpl)
			if kinItem == nil || item.Kind != yaml.MappingNode {
				continue
			}
			before := modelOrderBeforeSecurity
			if hasParameters(item) {
				before = dictOrderBeforeSecurity
			}
			for j := 0; j+1 < len(item.Content); j += 2 {
				method, op := strings.ToUpper(item.Content[j].Value), item.Content[j+1]
				kinOp := kinItem.GetOperation(method)
				if kinOp == nil || op.Kind != yaml.MappingNode || lookup(op, "security") != nil || !protect(kinOp) {
					continue
				}
				insertAfter(op, before, str("security"), clone(requirement))
			}
		}
	}

	components := lookup(root, "components")
	if components == nil {
		components = mapping()
		insertAfter(root, []string{"openapi", "info", "jsonSchemaDialect", "servers", "paths", "webhooks"}, str("components"), components)
	}
	schemes := lookup(components, "securitySchemes")
	if schemes == nil {
		schemes = mapping()
		insertAfter(components, []string{"schemas", "responses", "parameters", "examples", "requestBodies", "headers"}, str("securitySchemes"), schemes)
	}
	if lookup(schemes, scheme.Name) == nil {
		schemes.Content = append(schemes.Content, str(scheme.Name), clone(scheme.def))
	}

	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, fmt.Errorf("render %s with security: %w", s.source, err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("render %s with security: %w", s.source, err)
	}
	return Load(buf.Bytes(), s.source)
}

// The fields of FastAPI's Operation that come before security: in the
// dict FastAPI builds, and in its pydantic model.
var (
	dictOrderBeforeSecurity  = []string{"tags", "summary", "description", "operationId", "deprecated"}
	modelOrderBeforeSecurity = []string{"tags", "summary", "description", "externalDocs", "operationId",
		"parameters", "requestBody", "responses", "callbacks", "deprecated"}
)

// hasParameters reports whether a path item, or one of its operations,
// has a Parameter object (not a $ref).
func hasParameters(item *yaml.Node) bool {
	lists := []*yaml.Node{lookup(item, "parameters")}
	for i := 0; i+1 < len(item.Content); i += 2 {
		if item.Content[i+1].Kind == yaml.MappingNode {
			lists = append(lists, lookup(item.Content[i+1], "parameters"))
		}
	}
	for _, list := range lists {
		if list == nil || list.Kind != yaml.SequenceNode {
			continue
		}
		for _, p := range list.Content {
			if lookup(p, "in") != nil {
				return true
			}
		}
	}
	return false
}

// insertAfter inserts key: value into mapping m right after the last of
// the keys in before that m has, or first when it has none.
func insertAfter(m *yaml.Node, before []string, key, value *yaml.Node) {
	at := 0
	for i := 0; i+1 < len(m.Content); i += 2 {
		if slices.Contains(before, m.Content[i].Value) {
			at = i + 2
		}
	}
	m.Content = slices.Insert(m.Content, at, key, value)
}

// clone copies a node tree, so the document as loaded stays unchanged.
func clone(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, child := range n.Content {
		c.Content[i] = clone(child)
	}
	return &c
}

func str(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v} }

func mapping(kv ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: kv}
}

func seq(items ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: items}
}

// flow is an empty mapping or sequence, written {} or [].
func flow(kind yaml.Kind) *yaml.Node {
	tag := "!!map"
	if kind == yaml.SequenceNode {
		tag = "!!seq"
	}
	return &yaml.Node{Kind: kind, Tag: tag, Style: yaml.FlowStyle}
}
