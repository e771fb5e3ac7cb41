package spec

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/moviemock/moviemock/internal/regularfile"
)

// maxFiles bounds the files one document may reference.
const maxFiles = 1000

// A document loaded from a file may reference others beside it
// ("./schemas/pet.yaml#/Pet", "common.yaml"). The bundler reads them, each
// held to the budgets the document is (its bytes counted with the
// document's toward Limits.MaxBytes), and makes one document with internal
// references only, on the node tree: key order and lines are kept. A
// schema, a response, a parameter (any object components may hold)
// referenced in another file becomes a component, named for the pointer's
// last step (or the file), and every reference to it points there; a path
// item, or an object of no component kind, is copied in its place. Only
// files in the document's folder (or below) are read: a URL, an absolute
// path, a path out of the folder (by ".." or by a symbolic link) is
// refused, naming the reference and the file it is in.
type bundler struct {
	dir      string // the document's folder, symbolic links resolved
	mainPath string // the document's file, symbolic links resolved
	budget   int64  // bytes the files may weigh together
	used     int64

	files   map[string]*yaml.Node // file → its top node
	targets map[target]string     // an object of another file → its internal reference
	names   map[string]map[string]bool
	hoisted []hoist
	open    map[target]bool // objects being copied in place: a cycle if met again
	visited map[*yaml.Node]bool
	// origin names the file each node copied from another file came from,
	// for errors that say where.
	origin map[*yaml.Node]string
	copied int64 // nodes copied in place, to a budget
	nodes  int64 // nodes the files have as written
}

type target struct{ file, pointer string }

type hoist struct {
	section, name string
	node          *yaml.Node
}

// kind is what an object is, by where it is in the document.
type kind uint8

const (
	kOther kind = iota
	kTop
	kPaths
	kPathItem
	kOperation
	kParameterList
	kParameter
	kRequestBody
	kResponses
	kResponse
	kMediaTypes
	kMediaType
	kHeaders
	kHeader
	kSchema
	kSchemaMap
	kSchemaList
	kComponents
	kExamples
	kExample
	kLinks
	kLink
	kCallbacks
	kCallback
	kSecuritySchemes
	kSecurityScheme
	kEncodings
	kEncoding
	kParameters    // components.parameters
	kRequestBodies // components.requestBodies
)

// sections are the components sections each kind is kept in.
var sections = map[kind]string{
	kSchema: "schemas", kResponse: "responses", kParameter: "parameters", kExample: "examples",
	kRequestBody: "requestBodies", kHeader: "headers", kSecurityScheme: "securitySchemes",
	kLink: "links", kCallback: "callbacks",
}

// mapOf is the kind of each member of a mapping of that kind.
var mapOf = map[kind]kind{
	kPaths: kPathItem, kResponses: kResponse, kMediaTypes: kMediaType, kHeaders: kHeader,
	kSchemaMap: kSchema, kExamples: kExample, kLinks: kLink, kCallbacks: kCallback,
	kCallback: kPathItem, kSecuritySchemes: kSecurityScheme, kEncodings: kEncoding,
	kParameters: kParameter, kRequestBodies: kRequestBody,
}

var opMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace", "query"}

// child is the kind of the value under key in a mapping of kind k.
func child(k kind, key string) kind {
	if m, ok := mapOf[k]; ok {
		return m
	}
	switch k {
	case kTop:
		switch key {
		case "paths", "webhooks":
			return kPaths
		case "components":
			return kComponents
		}
	case kComponents:
		switch key {
		case "schemas":
			return kSchemaMap
		case "responses":
			return kResponses
		case "parameters":
			return kParameters
		case "examples":
			return kExamples
		case "requestBodies":
			return kRequestBodies
		case "headers":
			return kHeaders
		case "securitySchemes":
			return kSecuritySchemes
		case "links":
			return kLinks
		case "callbacks":
			return kCallbacks
		case "pathItems":
			return kPaths
		}
	case kPathItem:
		if key == "parameters" {
			return kParameterList
		}
		if slices.Contains(opMethods, key) {
			return kOperation
		}
	case kOperation:
		switch key {
		case "parameters":
			return kParameterList
		case "requestBody":
			return kRequestBody
		case "responses":
			return kResponses
		case "callbacks":
			return kCallbacks
		}
	case kParameter, kHeader:
		switch key {
		case "schema":
			return kSchema
		case "content":
			return kMediaTypes
		case "examples":
			return kExamples
		}
	case kRequestBody:
		if key == "content" {
			return kMediaTypes
		}
	case kResponse:
		switch key {
		case "headers":
			return kHeaders
		case "content":
			return kMediaTypes
		case "links":
			return kLinks
		}
	case kMediaType:
		switch key {
		case "schema", "itemSchema":
			return kSchema
		case "examples":
			return kExamples
		case "encoding":
			return kEncodings
		}
	case kEncoding:
		if key == "headers" {
			return kHeaders
		}
	case kSchema:
		switch key {
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
			return kSchemaMap
		case "items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
			"unevaluatedItems", "unevaluatedProperties", "contentSchema", "additionalItems":
			return kSchema
		case "allOf", "anyOf", "oneOf", "prefixItems":
			return kSchemaList
		}
	}
	return kOther
}

// element is the kind of each element of a sequence of kind k.
func element(k kind) kind {
	switch k {
	case kParameterList:
		return kParameter
	case kSchemaList, kSchema: // items: [..] (older drafts)
		return kSchema
	}
	return kOther
}

// bundle makes the document at top (read from the file path, size
// bytes) one with internal references only, the files it references
// weighing at most budget bytes with it; origin names the file of every
// node copied from another.
func bundle(top *yaml.Node, path string, size, budget int64) (origin map[*yaml.Node]string, err error) {
	if externalRef(top, kTop, true, map[*yaml.Node]bool{}) == nil {
		return nil, nil
	}
	realPath, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, err
	}
	realPath, err = filepath.Abs(realPath)
	if err != nil {
		return nil, err
	}
	b := &bundler{
		dir: filepath.Dir(realPath), mainPath: realPath, budget: budget, used: size,
		files: map[string]*yaml.Node{realPath: top}, targets: map[target]string{},
		names: map[string]map[string]bool{}, open: map[target]bool{},
		visited: map[*yaml.Node]bool{}, origin: map[*yaml.Node]string{}, nodes: countNodes(top),
	}
	comps := deref(lookup(top, "components"))
	if comps != nil && comps.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(comps.Content); i += 2 {
			names := map[string]bool{}
			if sec := deref(comps.Content[i+1]); sec.Kind == yaml.MappingNode {
				for j := 0; j < len(sec.Content); j += 2 {
					names[sec.Content[j].Value] = true
				}
			}
			b.names[comps.Content[i].Value] = names
		}
		// A component that is only a reference to another file is that
		// file's object, under the component's name.
		var inPlace []func() error
		for i := 0; i+1 < len(comps.Content); i += 2 {
			secName, sec := comps.Content[i].Value, deref(comps.Content[i+1])
			k := mapOf[child(kComponents, secName)]
			if sec.Kind != yaml.MappingNode || sections[k] != secName {
				continue
			}
			for j := 0; j+1 < len(sec.Content); j += 2 {
				n := sec.Content[j+1]
				ref, ok := onlyRef(n)
				if !ok || sameDocument(ref) {
					continue
				}
				t, err := b.resolve(ref, realPath, n.Line)
				if err != nil {
					return nil, err
				}
				if _, taken := b.targets[t]; taken || t.file == realPath {
					continue
				}
				b.targets[t] = "#/components/" + secName + "/" + escapePointer(sec.Content[j].Value)
				inPlace = append(inPlace, func() error {
					obj, err := b.object(t, ref, realPath, n.Line)
					if err != nil {
						return err
					}
					cp := b.copyNode(obj, t.file)
					*n = *cp
					b.origin[n] = b.origin[cp]
					return b.walk(n, k, t.file)
				})
			}
		}
		for _, f := range inPlace {
			if err := f(); err != nil {
				return nil, err
			}
		}
	}
	if err := b.walk(top, kTop, realPath); err != nil {
		return nil, err
	}
	if len(b.hoisted) > 0 {
		if comps == nil || comps.Kind != yaml.MappingNode {
			comps = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			top.Content = append(top.Content, scalar("components"), comps)
		}
		for _, h := range b.hoisted {
			sec := deref(lookup(comps, h.section))
			if sec == nil || sec.Kind != yaml.MappingNode {
				sec = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
				comps.Content = append(comps.Content, scalar(h.section), sec)
			}
			key := scalar(h.name)
			key.Line, b.origin[key] = h.node.Line, b.origin[h.node]
			sec.Content = append(sec.Content, key, h.node)
		}
	}
	return b.origin, nil
}

func scalar(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

// externalRef is the first $ref value under n (an object of kind k)
// naming another file, or nil. Where anywhere is false, only the
// references kin-openapi follows count: those where the document holds
// an object that may be one (not in an extension, an example or other
// data, where a "$ref" member is only a value).
func externalRef(n *yaml.Node, k kind, anywhere bool, seen map[*yaml.Node]bool) *yaml.Node {
	n = deref(n)
	if n == nil || seen[n] || !anywhere && k == kOther {
		return nil
	}
	seen[n] = true
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if v := n.Content[i+1]; n.Content[i].Value == "$ref" && v.Kind == yaml.ScalarNode && k != kSchemaMap {
				if !sameDocument(v.Value) {
					return v
				}
				continue
			}
			if r := externalRef(n.Content[i+1], child(k, n.Content[i].Value), anywhere, seen); r != nil {
				return r
			}
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if r := externalRef(c, element(k), anywhere, seen); r != nil {
				return r
			}
		}
	}
	return nil
}

// sameDocument reports whether ref points into the document that makes
// it: a fragment, or nothing at all (which kin-openapi reads as no
// reference).
func sameDocument(ref string) bool { return ref == "" || strings.HasPrefix(ref, "#") }

// onlyRef is the reference n (a mapping) makes, if it has one.
func onlyRef(n *yaml.Node) (string, bool) {
	n = deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return "", false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if v := n.Content[i+1]; n.Content[i].Value == "$ref" && v.Kind == yaml.ScalarNode {
			return v.Value, true
		}
	}
	return "", false
}

// walk rewrites every reference under n, an object of kind k in file,
// into an internal one.
func (b *bundler) walk(n *yaml.Node, k kind, file string) error {
	if n.Kind == yaml.AliasNode {
		n = deref(n)
	}
	if n == nil || b.visited[n] {
		return nil
	}
	b.visited[n] = true
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			// A property may be called "$ref": not a reference.
			if v := n.Content[i+1]; n.Content[i].Value == "$ref" && v.Kind == yaml.ScalarNode && k != kSchemaMap {
				if err := b.reference(n, v, k, file); err != nil {
					return err
				}
				continue
			}
			if err := b.walk(n.Content[i+1], child(k, n.Content[i].Value), file); err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if err := b.walk(c, element(k), file); err != nil {
				return err
			}
		}
	}
	return nil
}

// reference rewrites the reference ref (the value of n's $ref) made in
// file by an object of kind k.
func (b *bundler) reference(n, ref *yaml.Node, k kind, file string) error {
	if ref.Value == "" || file == b.mainPath && strings.HasPrefix(ref.Value, "#") {
		return nil
	}
	t, err := b.resolve(ref.Value, file, ref.Line)
	if err != nil {
		return err
	}
	if t.file == b.mainPath {
		ref.Value = "#" + t.pointer
		return nil
	}
	if internal, ok := b.targets[t]; ok {
		ref.Value = internal
		return nil
	}
	obj, err := b.object(t, ref.Value, file, ref.Line)
	if err != nil {
		return err
	}
	if sec, ok := sections[k]; ok {
		name := b.name(sec, t)
		b.targets[t] = "#/components/" + sec + "/" + escapePointer(name)
		ref.Value = b.targets[t]
		cp := b.copyNode(obj, t.file)
		b.hoisted = append(b.hoisted, hoist{sec, name, cp})
		return b.walk(cp, k, t.file)
	}
	// No component holds it: copied in place.
	if b.open[t] {
		return fmt.Errorf("%s line %d: $ref %q: a cycle of references between files (%s#%s refers back to itself)",
			b.rel(file), ref.Line, ref.Value, b.rel(t.file), t.pointer)
	}
	b.open[t] = true
	defer delete(b.open, t)
	cp := b.copyNode(obj, t.file)
	if b.copied > max(b.nodes, minAliasBudget) {
		return &LimitError{Limit: "reference expansion limit", Detail: fmt.Sprintf(
			"%s line %d: $ref %q: objects copied in place of references to other files add more than %d nodes", b.rel(file), ref.Line, ref.Value, max(b.nodes, minAliasBudget))}
	}
	if err := b.walk(cp, k, t.file); err != nil {
		return err
	}
	*n = *cp
	b.origin[n] = b.origin[cp]
	return nil
}

// name is a component name for the object t of section sec: the
// pointer's last step, or the file's name, made unique.
func (b *bundler) name(sec string, t target) string {
	base := t.pointer[strings.LastIndex(t.pointer, "/")+1:]
	base = strings.NewReplacer("~1", "/", "~0", "~").Replace(base)
	if base == "" {
		base = strings.TrimSuffix(filepath.Base(t.file), filepath.Ext(t.file))
	}
	base = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, base)
	if b.names[sec] == nil {
		b.names[sec] = map[string]bool{}
	}
	name := base
	for i := 2; b.names[sec][name]; i++ {
		name = base + "_" + strconv.Itoa(i)
	}
	b.names[sec][name] = true
	return name
}

func escapePointer(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// resolve names the file and pointer ref (made in file, at line) points
// at, refusing any file outside the document's folder.
func (b *bundler) resolve(ref, file string, line int) (target, error) {
	refuse := func(why string) error {
		return fmt.Errorf("%s line %d: $ref %q: %s", b.rel(file), line, ref, why)
	}
	loc, pointer, _ := strings.Cut(ref, "#")
	if p, err := url.PathUnescape(pointer); err == nil {
		pointer = p
	}
	if pointer != "" && !strings.HasPrefix(pointer, "/") {
		return target{}, refuse("the part after # is not a JSON pointer")
	}
	if loc == "" {
		return target{file, pointer}, nil
	}
	if u, err := url.Parse(loc); err != nil || u.Scheme != "" || u.Host != "" || strings.HasPrefix(loc, "//") {
		return target{}, refuse("a URL: only files in the document's folder are read")
	}
	loc, err := url.PathUnescape(loc)
	if err != nil {
		return target{}, refuse("not a file path")
	}
	if filepath.IsAbs(loc) || strings.HasPrefix(loc, "/") || strings.HasPrefix(loc, `\`) {
		return target{}, refuse("an absolute path: only files in the document's folder are read")
	}
	joined := filepath.Join(filepath.Dir(file), filepath.FromSlash(loc))
	if rel, err := filepath.Rel(b.dir, joined); err != nil || !filepath.IsLocal(rel) {
		return target{}, refuse("outside the document's folder " + b.dir)
	}
	real, err := filepath.EvalSymlinks(joined)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return target{}, refuse("no such file")
		}
		return target{}, refuse(err.Error())
	}
	if rel, err := filepath.Rel(b.dir, real); err != nil || !filepath.IsLocal(rel) {
		return target{}, refuse("a symbolic link out of the document's folder " + b.dir)
	}
	return target{real, pointer}, nil
}

// object is the node t points at, reading its file if need be.
func (b *bundler) object(t target, ref, from string, line int) (*yaml.Node, error) {
	refuse := func(why string) error {
		return fmt.Errorf("%s line %d: $ref %q: %s", b.rel(from), line, ref, why)
	}
	top, ok := b.files[t.file]
	if !ok {
		var err error
		if top, err = b.read(t.file); err != nil {
			var lim *LimitError
			if errors.As(err, &lim) {
				return nil, fmt.Errorf("%s line %d: $ref %q: %w", b.rel(from), line, ref, err)
			}
			return nil, refuse(err.Error())
		}
	}
	n := top
	if t.pointer != "" {
		for _, step := range strings.Split(t.pointer[1:], "/") {
			step = strings.NewReplacer("~1", "/", "~0", "~").Replace(step)
			n = deref(n)
			var next *yaml.Node
			switch n.Kind {
			case yaml.MappingNode:
				next = lookup(n, step)
			case yaml.SequenceNode:
				if i, err := strconv.Atoi(step); err == nil && i >= 0 && i < len(n.Content) {
					next = n.Content[i]
				}
			}
			if next == nil {
				return nil, refuse(fmt.Sprintf("%s has nothing at %s", b.rel(t.file), t.pointer))
			}
			n = next
		}
	}
	return deref(n), nil
}

// read parses a referenced file, held to the document's budgets.
func (b *bundler) read(path string) (*yaml.Node, error) {
	if len(b.files) >= maxFiles {
		return nil, &LimitError{Limit: "file limit", Detail: fmt.Sprintf("the document references more than %d files", maxFiles)}
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", b.rel(path))
	}
	left := b.budget - b.used
	if fi.Size() > left {
		return nil, b.tooLarge(path)
	}
	f, err := regularfile.Open(path) // a FIFO swapped in since the Stat is refused too
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, left+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > left {
		return nil, b.tooLarge(path)
	}
	b.used += int64(len(data))
	root := &yaml.Node{}
	if isJSON(data) {
		root, err = parseJSONNode(data)
	} else {
		err = yaml.Unmarshal(data, root)
	}
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", b.rel(path), err)
	}
	if err := checkTree(root); err != nil {
		return nil, fmt.Errorf("%s: %w", b.rel(path), err)
	}
	if root.Kind != yaml.DocumentNode || len(root.Content) != 1 {
		return nil, fmt.Errorf("%s is empty", b.rel(path))
	}
	b.nodes += countNodes(root)
	b.files[path] = root.Content[0]
	return root.Content[0], nil
}

func (b *bundler) tooLarge(path string) error {
	return &LimitError{Limit: "size limit", Flag: "--max-spec-bytes", Detail: fmt.Sprintf(
		"%s: the document and the files it references are more than %d bytes", b.rel(path), b.budget)}
}

// rel names path from the document's folder.
func (b *bundler) rel(path string) string {
	if r, err := filepath.Rel(b.dir, path); err == nil && filepath.IsLocal(r) {
		return filepath.ToSlash(r)
	}
	return path
}

// copyNode copies n (aliases expanded), noting where each copied node
// came from.
func (b *bundler) copyNode(n *yaml.Node, file string) *yaml.Node {
	return b.copyTree(n, b.rel(file))
}

func (b *bundler) copyTree(n *yaml.Node, name string) *yaml.Node {
	n = deref(n)
	cp := *n
	cp.Anchor = ""
	b.copied++
	b.origin[&cp] = name
	if len(n.Content) > 0 {
		cp.Content = make([]*yaml.Node, len(n.Content))
		for i, c := range n.Content {
			cp.Content[i] = b.copyTree(c, name)
		}
	}
	return &cp
}

// refCycle finds a component that is only a reference, through others
// that are only references, to itself: it stands for nothing.
func refCycle(top *yaml.Node) (chain []string, line int) {
	comps := deref(lookup(top, "components"))
	if comps == nil || comps.Kind != yaml.MappingNode {
		return nil, 0
	}
	at := func(ref string) *yaml.Node {
		rest, ok := strings.CutPrefix(ref, "#/components/")
		if !ok {
			return nil
		}
		sec, name, ok := strings.Cut(rest, "/")
		if !ok {
			return nil
		}
		return deref(lookup(deref(lookup(comps, sec)), strings.NewReplacer("~1", "/", "~0", "~").Replace(name)))
	}
	done := map[*yaml.Node]bool{}
	for i := 0; i+1 < len(comps.Content); i += 2 {
		sec := deref(comps.Content[i+1])
		if sec.Kind != yaml.MappingNode {
			continue
		}
		for j := 0; j+1 < len(sec.Content); j += 2 {
			n := deref(sec.Content[j+1])
			path := []string{"#/components/" + comps.Content[i].Value + "/" + escapePointer(sec.Content[j].Value)}
			on := map[*yaml.Node]bool{}
			for n != nil && !done[n] {
				if on[n] {
					return path, n.Line
				}
				on[n] = true
				ref, ok := onlyRef(n)
				if !ok || len(n.Content) != 2 {
					break
				}
				path = append(path, ref)
				n = at(ref)
			}
			for m := range on {
				done[m] = true
			}
		}
	}
	return nil, 0
}
