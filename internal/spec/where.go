package spec

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// kin-openapi v0.152.0's errors say what is wrong with a document but not
// where: a decoding error names a Go struct and field ("cannot unmarshal
// object into field Tag.description of type string", and only in its
// text: it is formatted with %v), a validation error the path down to
// an object ("invalid paths: invalid path /a: invalid operation GET: …").
// locate maps such an error back onto the node tree the loader read, so
// that the refusal says the line (and, for a document of several files,
// the file).

// located is the error err of a document, at a line of a file ("" for
// the document itself).
type located struct {
	file string
	line int
	err  error
}

func (e *located) Error() string {
	if e.file != "" {
		return e.file + " line " + strconv.Itoa(e.line) + ": " + e.err.Error()
	}
	return "line " + strconv.Itoa(e.line) + ": " + e.err.Error()
}

func (e *located) Unwrap() error { return e.err }

var (
	// decodeError is the message of encoding/json (as kin-openapi
	// quotes it) for a value of the wrong type.
	decodeError = regexp.MustCompile(`json: cannot unmarshal (\w+)( [^ ]+)? into (?:Go struct )?field (\w+)\.([\w$-]+) of type ([^\s,]+)`)
	// quotedKeyValue is a key and a value a validation error quotes:
	// "parameter can't have 'in' value \"nowhere\"".
	quotedKeyValue = regexp.MustCompile(`'([\w$-]+)'[^"']*"([^"]*)"`)
	quotedKey      = regexp.MustCompile(`'([\w$-]+)'`)
	typeIs         = regexp.MustCompile(`schema type is '(\w+)'`)
	quotedRef      = regexp.MustCompile(`(?:ref|URI): "([^"]*#[^"]*)"`)
	componentStep  = regexp.MustCompile(`^(schema|parameter|request body|response|header|security scheme|example|link|callback) "([^"]*)": `)
	operationStep  = regexp.MustCompile(`^operation ([A-Z]+) (\S+) `)
)

var componentSections = map[string]string{
	"schema": "schemas", "parameter": "parameters", "request body": "requestBodies", "response": "responses",
	"header": "headers", "security scheme": "securitySchemes", "example": "examples", "link": "links", "callback": "callbacks",
}

// locateError is err (a kin-openapi error loading or validating the
// document at top) with the line of the node it is about, or err as it
// is when none is found. origin names the file of nodes bundled from
// other files; back maps the nodes of a converted Swagger 2.0 document to
// the 2.0 document's.
func locateError(err error, top *yaml.Node, origin map[*yaml.Node]string, back map[*yaml.Node]*yaml.Node) error {
	inner := errors.Unwrap(err)
	if inner == nil {
		return err
	}
	msg := inner.Error()
	var n *yaml.Node
	var cleaned error = inner
	if m := decodeError.FindStringSubmatch(msg); m != nil {
		n = findDecoded(top, m[1], strings.TrimSpace(m[2]), m[3], m[4])
		cleaned = errors.New(m[0][len("json: "):])
	} else {
		n = findValidated(top, msg)
	}
	if back != nil {
		// A converted Swagger 2.0 document: its lines are the 2.0
		// document's, where the node has a counterpart there.
		n = back[n]
	}
	if n == nil {
		return err
	}
	prefix, _ := strings.CutSuffix(err.Error(), msg)
	return &prefixed{prefix: prefix, err: &located{file: origin[n], line: n.Line, err: cleaned}}
}

// prefixed is err after what was being done ("validate openapi.yaml: ").
type prefixed struct {
	prefix string
	err    error
}

func (e *prefixed) Error() string { return e.prefix + e.err.Error() }
func (e *prefixed) Unwrap() error { return e.err }

// structKinds are the kinds of object each kin-openapi struct decodes.
var structKinds = map[string][]kind{
	"Schema": {kSchema}, "Parameter": {kParameter}, "Response": {kResponse}, "RequestBody": {kRequestBody},
	"Header": {kHeader}, "MediaType": {kMediaType}, "Operation": {kOperation}, "PathItem": {kPathItem},
	"Example": {kExample}, "Link": {kLink}, "SecurityScheme": {kSecurityScheme}, "Encoding": {kEncoding},
	"Components": {kComponents}, "T": {kTop},
}

// findDecoded finds the key field (of a Go struct typ) whose value is of
// the JSON type jsonType (and, if given, the literal value).
func findDecoded(top *yaml.Node, jsonType, value, typ, field string) *yaml.Node {
	kinds := structKinds[typ]
	var found *yaml.Node
	seen := map[*yaml.Node]bool{}
	var walk func(n *yaml.Node, k kind)
	walk = func(n *yaml.Node, k kind) {
		n = deref(n)
		if n == nil || found != nil || seen[n] {
			return
		}
		seen[n] = true
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content) && found == nil; i += 2 {
				key, v := n.Content[i], deref(n.Content[i+1])
				fits := len(kinds) == 0 && k != kSchemaMap || len(kinds) > 0 && kindIn(k, kinds)
				if fits && key.Value == field && jsonTypeOf(v) == jsonType && (value == "" || v.Value == value) {
					found = key
					return
				}
				walk(n.Content[i+1], child(k, key.Value))
			}
		case yaml.SequenceNode:
			for _, c := range n.Content {
				walk(c, element(k))
			}
		}
	}
	walk(top, kTop)
	return found
}

func kindIn(k kind, kinds []kind) bool {
	for _, x := range kinds {
		if x == k {
			return true
		}
	}
	return false
}

// jsonTypeOf names n's type as encoding/json's errors do.
func jsonTypeOf(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "object"
	case yaml.SequenceNode:
		return "array"
	}
	switch n.ShortTag() {
	case "!!int", "!!float":
		return "number"
	case "!!bool":
		return "bool"
	case "!!null":
		return "null"
	}
	return "string"
}

// findValidated follows a validation error's path down the document,
// then looks under the object reached for the key (and value) the error
// quotes.
func findValidated(top *yaml.Node, msg string) *yaml.Node {
	n := top
	rest := msg
	step := func(keys ...string) bool {
		next := deref(lookup(n, keys...))
		if next == nil {
			return false
		}
		n = next
		return true
	}
	// The key (not the value) names an object's line.
	keyLine := top
	down := func(parent *yaml.Node, key string) {
		parent = deref(parent)
		if parent == nil || parent.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(parent.Content); i += 2 {
			if parent.Content[i].Value == key {
				keyLine = parent.Content[i]
			}
		}
	}
	for {
		switch {
		case strings.HasPrefix(rest, "invalid paths: "):
			rest = strings.TrimPrefix(rest, "invalid paths: ")
			if m := operationStep.FindStringSubmatch(rest); m != nil {
				method := strings.ToLower(m[1])
				down(lookup(n, "paths"), m[2])
				if step("paths", m[2]) {
					down(n, method)
					step(method)
				}
				return keyLine
			}
			step("paths")
		case strings.HasPrefix(rest, "invalid path "):
			path, after, ok := strings.Cut(strings.TrimPrefix(rest, "invalid path "), ": ")
			if !ok {
				return keyLine
			}
			down(n, path)
			step(path)
			rest = after
		case strings.HasPrefix(rest, "invalid operation "):
			method, after, ok := strings.Cut(strings.TrimPrefix(rest, "invalid operation "), ": ")
			if !ok {
				return keyLine
			}
			method = strings.ToLower(method)
			down(n, method)
			step(method)
			rest = after
		case strings.HasPrefix(rest, "invalid components: "):
			rest = strings.TrimPrefix(rest, "invalid components: ")
			down(n, "components")
			step("components")
			if m := componentStep.FindStringSubmatch(rest); m != nil {
				sec := componentSections[m[1]]
				down(lookup(n, sec), m[2])
				step(sec, m[2])
				rest = rest[len(m[0]):]
			}
		case strings.HasPrefix(rest, "invalid info: "):
			rest = strings.TrimPrefix(rest, "invalid info: ")
			down(n, "info")
			step("info")
		default:
			if k := quotedUnder(n, rest); k != nil {
				return k
			}
			if keyLine == top {
				return nil // nowhere in particular
			}
			return keyLine
		}
	}
}

// quotedUnder finds under n the key the message quotes ('type'), with
// the value it quotes ("strin") if it quotes one; or, for a pattern that
// does not compile, the pattern.
func quotedUnder(n *yaml.Node, msg string) *yaml.Node {
	var key, value string
	switch m := quotedKeyValue.FindStringSubmatch(msg); {
	case quotedRef.MatchString(msg):
		key, value = "$ref", quotedRef.FindStringSubmatch(msg)[1]
	case typeIs.MatchString(msg):
		key, value = "type", typeIs.FindStringSubmatch(msg)[1]
	case m != nil:
		key, value = m[1], m[2]
	case strings.Contains(msg, "not an ECMA-262 regular expression"):
		key = "pattern"
	default:
		if m := quotedKey.FindStringSubmatch(msg); m != nil {
			key = m[1]
		}
	}
	if key == "" {
		return nil
	}
	var found *yaml.Node
	seen := map[*yaml.Node]bool{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		n = deref(n)
		if n == nil || found != nil || seen[n] {
			return
		}
		seen[n] = true
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content) && found == nil; i += 2 {
				k, v := n.Content[i], deref(n.Content[i+1])
				if k.Value == key && matches(key, v, value) {
					found = k
					return
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	return found
}

// matches reports whether v is the value an error quotes: the one named,
// or (for a pattern, when none is) one that does not compile; a type
// list holding the value counts.
func matches(key string, v *yaml.Node, value string) bool {
	switch {
	case value != "" && v.Kind == yaml.ScalarNode:
		return v.Value == value
	case value != "" && v.Kind == yaml.SequenceNode:
		for _, c := range v.Content {
			if deref(c).Value == value {
				return true
			}
		}
		return false
	case key == "pattern" && v.Kind == yaml.ScalarNode:
		_, err := CompilePattern(v.Value)
		return err != nil
	}
	return value == ""
}
