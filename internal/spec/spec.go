// Package spec loads an OpenAPI document (the embedded openapi.yaml, a file,
// or a server's own /openapi.json) with kin-openapi and answers what the rest
// of moviemock asks of it: the document as JSON and YAML, its schemas, the
// order their properties were written in, and fast validation of values
// against them.
//
// It does not know the Movie and Review Service: nothing here names an
// endpoint or a field.
package spec

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"

	"github.com/moviemock/moviemock"
)

// Spec is a loaded and validated OpenAPI document. It is immutable and safe
// for concurrent use.
type Spec struct {
	Doc *openapi3.T

	source string
	json   func() []byte
	yaml   func() []byte
	root   func() *yaml.Node // the document as written, for key order

	warnings []string
	// merged are the component schemas written as allOf that mergeAllOf
	// made one object, each with its properties' order.
	merged map[*openapi3.Schema][]string

	modes     sync.Map // *openapi3.Schema -> validationMode
	usesMu    sync.Mutex
	uses      map[*openapi3.Schema]bool // uses2020's verdicts
	usesLooks int                       // the schemas uses2020 looked at (its tests read it)

	// members indexes the keys of the large mappings of the document as
	// written (*yaml.Node -> map[string]*yaml.Node), built when first
	// read: a document of thousands of paths is looked up once per
	// operation, which a scan of its paths made quadratic.
	members sync.Map
	places  placeIndex
}

// bigMapping is how many keys a mapping holds before Member indexes it.
const bigMapping = 32

// placeIndex is where each operation and request body of the document
// stands, built on first use.
type placeIndex struct {
	once   sync.Once
	ops    map[*openapi3.Operation]Place
	bodies map[*openapi3.RequestBody]Place
}

// Place is where an operation stands in the document: its path template
// and its method, upper case.
type Place struct{ Path, Method string }

// The embedded document's examples are not validated at start-up, where
// it would be a third of the load: TestEmbeddedContractIsValid checks them.
var embedded = sync.OnceValues(func() (*Spec, error) {
	return load(moviemock.OpenAPIYAML, "openapi.yaml", from{}, openapi3.DisableExamplesValidation(), openapi3.DisableSchemaDefaultsValidation())
})

// Embedded is the contract compiled into the binary, loaded once.
func Embedded() (*Spec, error) { return embedded() }

// Load parses data (YAML or JSON) as an OpenAPI 3.0 or 3.1 document (a
// Swagger 2.0 one is converted to 3.0), resolves its references and
// validates it. source names the document in errors, which say the line
// of what is wrong.
//
// Examples are not validated: FastAPI serves documents whose examples its
// own schema refuses (openapi_examples that show a rejected or a
// lax-converted body are documented usage), and kin-openapi v0.152.0 would
// refuse the whole document for one. Every reader treats an example as a
// candidate only, judged by FastAPI's rules before it is used as a valid
// value.
//
// Nor are defaults: pydantic does not validate a field's default (unless
// validate_default=True), so FastAPI serves `q: int = Query("abc")` as
// {"type": "integer", "default": "abc"}, and kin-openapi v0.152.0 would
// refuse the whole document for it; checking every default also compiled
// a JSON Schema validator per default, a fifth of loading a large
// document.
func Load(data []byte, source string) (*Spec, error) {
	return LoadLimited(data, source, Limits{})
}

// LoadLimited is Load holding the document to lim: a document past a
// budget is refused with a *LimitError.
func LoadLimited(data []byte, source string, lim Limits) (*Spec, error) {
	return loadLimited(data, source, "", lim)
}

// LoadFile is LoadLimited of a document read from the file path (data):
// its references to other files ("./schemas/pet.yaml#/Pet") are read from
// the file's folder or below, never outside it, each held to the same
// budgets (their bytes counted with the document's toward lim.MaxBytes),
// and the whole is loaded as one document, the objects of the other files
// made components.
func LoadFile(data []byte, path string, lim Limits) (*Spec, error) {
	return loadLimited(data, path, path, lim)
}

func loadLimited(data []byte, source, path string, lim Limits) (*Spec, error) {
	if lim.MaxBytes <= 0 {
		lim.MaxBytes = DefaultMaxBytes
	}
	if int64(len(data)) > lim.MaxBytes {
		return nil, fmt.Errorf("load %s: %w", source, TooLarge(int64(len(data)), lim.MaxBytes))
	}
	return load(data, source, from{path: path, budget: lim.MaxBytes}, openapi3.DisableExamplesValidation(), openapi3.DisableSchemaDefaultsValidation())
}

// from is where a document was read: the file (or "") whose folder its
// references to other files are read from, and the bytes it may weigh
// with them.
type from struct {
	path   string
	budget int64
}

// TooLarge is the error for a document of size bytes when max are
// allowed; size -1 when it is only known to be larger.
func TooLarge(size, max int64) *LimitError {
	detail := fmt.Sprintf("the document is %d bytes, more than %d", size, max)
	if size < 0 {
		detail = fmt.Sprintf("the document is more than %d bytes", max)
	}
	return &LimitError{Limit: "size limit", Flag: "--max-spec-bytes", Detail: detail}
}

func load(data []byte, source string, src from, opts ...openapi3.ValidationOption) (*Spec, error) {
	if isJSON(data) {
		if compact, ok := scanJSON(data); ok {
			if s, err := loadScanned(data, compact, source, src.path != "", opts...); err == nil {
				return s, nil
			}
			// Refused: the tree's route says why, in the words it
			// always used (kin-openapi's own name lines of the text it
			// was given).
		}
	}
	return loadTree(data, source, src, opts...)
}

// loadTree loads data through its node tree: parsed (as YAML, or as JSON
// by parseJSONNode), held to the budgets by checkTree, rendered as JSON for
// kin-openapi.
func loadTree(data []byte, source string, src from, opts ...openapi3.ValidationOption) (*Spec, error) {
	root := &yaml.Node{}
	var err error
	if isJSON(data) {
		root, err = parseJSONNode(data)
	} else {
		err = yaml.Unmarshal(data, root)
	}
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", source, err)
	}
	if err := checkTree(root); err != nil {
		return nil, fmt.Errorf("parse %s: %w", source, err)
	}
	if root.Kind != yaml.DocumentNode || len(root.Content) != 1 || root.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("parse %s: not an OpenAPI document (expected a mapping at the top)", source)
	}
	top := root.Content[0]
	swagger2, err := version(top)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", source, err)
	}
	var back map[*yaml.Node]*yaml.Node // converted node → the 2.0 document's
	if swagger2 {
		back = map[*yaml.Node]*yaml.Node{}
		if top, err = convertSwagger2(top, back); err != nil {
			return nil, fmt.Errorf("load %s: %w", source, err)
		}
	}
	var origin map[*yaml.Node]string
	if !swagger2 && src.path != "" {
		if origin, err = bundle(top, src.path, int64(len(data)), src.budget); err != nil {
			return nil, fmt.Errorf("load %s: %w", source, err)
		}
		if err := checkTree(root); err != nil {
			return nil, fmt.Errorf("load %s: %w", source, err)
		}
	} else if ref := externalRef(top, kTop, false, map[*yaml.Node]bool{}); ref != nil && !swagger2 {
		return nil, fmt.Errorf("load %s: line %d: $ref %q names another file, read only beside a document loaded from a file", source, ref.Line, ref.Value)
	}
	if chain, line := refCycle(top); chain != nil {
		return nil, fmt.Errorf("load %s: line %d: a cycle of references that stands for nothing: %s", source, line, strings.Join(chain, " → "))
	}
	jsonDoc, err := NodeJSON(top)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", source, err)
	}
	kinDoc := jsonDoc
	v := lookup(top, "openapi")
	tuples, tupleWarnings := tupleItems(top, v != nil && !strings.HasPrefix(v.Value, "3.0"))
	if tuples != nil {
		if kinDoc, err = NodeJSON(tuples); err != nil {
			return nil, fmt.Errorf("parse %s: %w", source, err)
		}
	}
	doc, warnings, err := loadDoc(kinDoc, source, false, opts...)
	if err != nil {
		return nil, locateError(err, top, origin, back)
	}
	warnings = append(tupleWarnings, warnings...)
	if swagger2 {
		warnings = append([]string{"a Swagger 2.0 document, converted to OpenAPI " + doc.OpenAPI}, warnings...)
	}

	s := &Spec{Doc: doc, source: source, json: func() []byte { return jsonDoc }, yaml: func() []byte { return data },
		root: func() *yaml.Node { return top }, warnings: warnings}
	s.mergeAllOf()
	if isJSON(data) || swagger2 {
		// A JSON (or converted) document: served as YAML in block style, rendered when
		// first asked for: a reader that never serves it (diff, the
		// runner) does not pay for it, a third of loading a large one.
		// Marshal only reads the nodes, so Root's readers may run beside it.
		blockStyle(top)
		s.yaml = sync.OnceValue(func() []byte {
			out, err := yaml.Marshal(top)
			if err != nil {
				return jsonDoc // JSON is YAML too
			}
			return out
		})
	}
	return s, nil
}

// loadScanned loads a JSON document scanJSON took, compact its compact
// text: kin-openapi reads the text, and the node tree (Root), the JSON
// rendered from it and the YAML are made when first asked for, as
// loadTree would have made them. early: a document loaded from a file,
// which the mock, the runner and the proxy read as written: its tree is
// made while kin-openapi reads the text, on another core, rather than
// after (a fifth of starting on a large document); diff, which never
// reads it, loads without a file.
func loadScanned(data, compact []byte, source string, early bool, opts ...openapi3.ValidationOption) (*Spec, error) {
	root := sync.OnceValue(func() *yaml.Node {
		root, err := parseJSONNode(data)
		if err != nil || len(root.Content) != 1 {
			// Not met: scanJSON takes only what parseJSONNode takes.
			return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		}
		top := root.Content[0]
		blockStyle(top)
		return top
	})
	if early {
		go root()
	}
	doc, warnings, err := loadDoc(compact, source, true, opts...)
	if err != nil {
		return nil, err
	}
	jsonDoc := sync.OnceValue(func() []byte {
		out, err := NodeJSON(root())
		if err != nil {
			return data // not met either: the numbers scanJSON takes are JSON's
		}
		return out
	})
	yamlDoc := sync.OnceValue(func() []byte {
		out, err := yaml.Marshal(root())
		if err != nil {
			return jsonDoc()
		}
		return out
	})
	s := &Spec{Doc: doc, source: source, json: jsonDoc, yaml: yamlDoc, root: root, warnings: warnings}
	s.mergeAllOf()
	return s, nil
}

// loadDoc reads a document's JSON with kin-openapi and validates it;
// scanned: JSON scanJSON took, which decodeScanned reads.
func loadDoc(jsonDoc []byte, source string, scanned bool, opts ...openapi3.ValidationOption) (*openapi3.T, []string, error) {
	var doc *openapi3.T
	if scanned {
		var ok bool
		if doc, ok = decodeScanned(jsonDoc); !ok {
			return nil, nil, errors.New("not decoded")
		}
	} else {
		var err error
		if doc, err = openapi3.NewLoader().LoadFromData(jsonDoc); err != nil {
			return nil, nil, fmt.Errorf("load %s: %w", source, err)
		}
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.") {
		return nil, nil, fmt.Errorf("load %s: openapi version %q is not 3.x", source, doc.OpenAPI)
	}
	restore, fixes := setAsideLenient(doc)
	warnings, err := validateLenient(doc, opts...)
	restore()
	warnings = append(fixes, warnings...)
	if err != nil {
		return nil, nil, fmt.Errorf("validate %s: %w", source, err)
	}
	if doc.IsOpenAPI31OrLater() {
		permitNullWhereUntyped(doc)
	}
	implicitMappings(doc)
	return doc, warnings, nil
}

// implicitMappings writes out the mapping a discriminator without one
// implies (OpenAPI 3.0 §4.7.25.2: the value is the name of the component
// schema): kin-openapi v0.152.0 reads only an explicit mapping and, without
// one, tries every alternative, so two alternatives of the same shape
// (Car, Motorcycle) both match and oneOf fails. Only a discriminator whose
// alternatives are all component schemas, and that maps nothing yet, is
// given one: FastAPI's (pydantic's) always map.
func implicitMappings(doc *openapi3.T) {
	if doc.Components == nil {
		return
	}
	const prefix = "#/components/schemas/"
	for _, ref := range doc.Components.Schemas {
		v := ref.Value
		if v == nil || v.Discriminator == nil || len(v.Discriminator.Mapping) > 0 {
			continue
		}
		alts := v.OneOf
		if len(alts) == 0 {
			alts = v.AnyOf
		}
		mapping := map[string]openapi3.MappingRef{}
		for _, alt := range alts {
			name, ok := strings.CutPrefix(alt.Ref, prefix)
			if !ok || name == "" || strings.Contains(name, "/") {
				mapping = nil
				break
			}
			mapping[name] = openapi3.MappingRef{Ref: alt.Ref}
		}
		if len(mapping) > 0 {
			v.Discriminator.Mapping = mapping
		}
	}
}

// maxIgnoredFields bounds how many distinct unknown field names a document
// may carry: each one costs a validation pass.
const maxIgnoredFields = 32

// validateLenient is validate, ignoring the fields the OpenAPI
// specification does not define (not "x-" extensions) in any object, with a
// warning saying where each was first met. FastAPI serves whatever a route's
// openapi_extra says, unknown keys included (a key "Description" beside
// "description"), and every client reads such a document by ignoring them;
// kin-openapi v0.152.0 refuses it ("extra sibling fields"). Its
// AllowExtraSiblingFields option only takes names known in advance, so the
// document is validated again with each newly met name allowed, up to
// maxIgnoredFields names.
func validateLenient(doc *openapi3.T, opts ...openapi3.ValidationOption) ([]string, error) {
	var allowed, warnings []string
	for {
		err := validate(doc, append(opts, openapi3.AllowExtraSiblingFields(allowed...))...)
		var extra *openapi3.ExtraSiblingFieldsError
		if err == nil || !errors.As(err, &extra) {
			return warnings, err
		}
		var fresh []string
		for _, f := range extra.Fields {
			if !slices.Contains(allowed, f) && !slices.Contains(fresh, f) {
				fresh = append(fresh, f)
			}
		}
		if len(fresh) == 0 || len(allowed)+len(fresh) > maxIgnoredFields {
			return warnings, err
		}
		allowed = append(allowed, fresh...)
		// kin-openapi's message is the path down to the object, each step
		// saying "invalid …": keep the path.
		where, _ := strings.CutSuffix(err.Error(), ": "+extra.Error())
		where = strings.ReplaceAll(where, "invalid ", "")
		warnings = append(warnings, fmt.Sprintf("%s: ignoring %s, not an OpenAPI field (nor an x- extension)", where, strings.Join(fresh, ", ")))
	}
}

// Warnings says what the loader ignored in the document, each with where.
func (s *Spec) Warnings() []string { return slices.Clone(s.warnings) }

// validate is doc.Validate, letting an OpenAPI 3.1 document carry the 3.2
// Media Type field itemSchema. FastAPI (0.135 and later) writes it for a
// streamed response (text/event-stream, application/jsonl) in the 3.1.0
// documents it serves, and kin-openapi v0.152.0 refuses it below 3.2
// ("field itemSchema is for OpenAPI >=3.2"). The item schemas are set
// aside while the document is validated, then validated on their own and
// put back: the loader has already resolved their references, and the mock
// and the runner read them from MediaType.ItemSchema.
//
// Each schema is checked once, not once for every schema that reaches it
// (setAsideSettled). The item schemas are checked before the references it
// set aside are put back: the document passed, so every schema below them
// that a $ref names has been found sound.
func validate(doc *openapi3.T, opts ...openapi3.ValidationOption) error {
	var set []*openapi3.MediaType
	if !doc.IsOpenAPI32OrLater() {
		eachMediaType(doc, func(mt *openapi3.MediaType) {
			if mt.ItemSchema != nil {
				set = append(set, mt)
			}
		})
	}
	items := make([]*openapi3.SchemaRef, len(set))
	for i, mt := range set {
		items[i], mt.ItemSchema = mt.ItemSchema, nil
	}
	// Patterns are ECMA-262: kin-openapi v0.152.0 compiles them with RE2,
	// refusing the whole document for a lookahead or a backreference. (First,
	// so that a test may count the patterns compiled with a compiler of its own.)
	opts = append([]openapi3.ValidationOption{openapi3.SetRegexCompiler(kinPattern)}, opts...)
	var version []openapi3.ValidationOption // what doc.Validate adds for the document's version
	if doc.IsOpenAPI31OrLater() {
		version = append(version, openapi3.IsOpenAPI31OrLater())
	}
	if doc.IsOpenAPI32OrLater() {
		version = append(version, openapi3.IsOpenAPI32OrLater())
	}
	ctx := openapi3.WithValidationOptions(context.Background(), slices.Concat(opts, version)...)
	dups := setAsideDuplicateIDs(doc)
	settled := setAsideSettled(ctx, doc)
	defer settled()
	err := doc.Validate(context.Background(), opts...)
	for i, mt := range set {
		mt.ItemSchema = items[i]
	}
	for op, id := range dups {
		op.OperationID = id
	}
	if err != nil {
		return err
	}
	for _, item := range items {
		if err := item.Validate(ctx); err != nil {
			return fmt.Errorf("itemSchema: %w", err)
		}
	}
	return nil
}

// setAsideDuplicateIDs blanks every operationId an earlier operation of
// the same path already has, and returns them to be put back. FastAPI
// gives every method of one route (api_route(methods=[...])) the same
// operationId and serves the document so; kin-openapi v0.152.0 refuses
// any repeated operationId. One repeated across paths is still refused.
func setAsideDuplicateIDs(doc *openapi3.T) map[*openapi3.Operation]string {
	dups := map[*openapi3.Operation]string{}
	if doc.Paths == nil {
		return dups
	}
	for _, item := range doc.Paths.Map() {
		seen := map[string]bool{}
		for _, op := range item.Operations() {
			switch {
			case op == nil || op.OperationID == "":
			case seen[op.OperationID]:
				dups[op], op.OperationID = op.OperationID, ""
			default:
				seen[op.OperationID] = true
			}
		}
	}
	return dups
}

// eachMediaType calls fn with every media type of every operation's
// request body and responses.
func eachMediaType(doc *openapi3.T, fn func(*openapi3.MediaType)) {
	if doc.Paths == nil {
		return
	}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				for _, mt := range op.RequestBody.Value.Content {
					if mt != nil {
						fn(mt)
					}
				}
			}
			if op.Responses == nil {
				continue
			}
			for _, resp := range op.Responses.Map() {
				if resp.Value != nil {
					for _, mt := range resp.Value.Content {
						if mt != nil {
							fn(mt)
						}
					}
				}
			}
		}
	}
}

// blockStyle turns every non-empty mapping and sequence under n to block
// style. A document parsed from JSON is flow style throughout, which
// yaml.v3 would write back as JSON.
func blockStyle(n *yaml.Node) {
	if (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && len(n.Content) > 0 {
		n.Style &^= yaml.FlowStyle
	}
	for _, c := range n.Content {
		blockStyle(c)
	}
}

// Source is the name the document was loaded under.
func (s *Spec) Source() string { return s.source }

// JSON is the document as compact JSON, keys in the order they were written.
func (s *Spec) JSON() []byte { return s.json() }

// YAML is the document as YAML.
func (s *Spec) YAML() []byte { return s.yaml() }

// Root is the document as written (key order, numbers as written, aliases
// kept), as the loader read it and held to its budgets: no alias contains
// itself, aliases expand within budget, nothing nests past MaxDepth. Every
// reader of the document as written reads this tree, never the bytes
// again. It must not be changed.
func (s *Spec) Root() *yaml.Node { return s.root() }

// Schema returns the component schema called name, or nil.
func (s *Spec) Schema(name string) *openapi3.Schema {
	if s.Doc.Components == nil {
		return nil
	}
	ref := s.Doc.Components.Schemas[name]
	if ref == nil {
		return nil
	}
	return ref.Value
}

// PropertyOrder lists the properties of the schema ref points at, in the
// order the document wrote them. kin-openapi keeps properties in a Go map, so
// the order is read from the document itself; FastAPI writes properties in
// declaration order, which is also the order it validates form fields in and
// serialises response models in. Properties of a schema the document does not
// name (an inline schema) come sorted.
func (s *Spec) PropertyOrder(ref *openapi3.SchemaRef) []string {
	if ref == nil || ref.Value == nil {
		return nil
	}
	if names, ok := s.merged[ref.Value]; ok {
		return names // an allOf written as one object (mergeAllOf)
	}
	if name, ok := strings.CutPrefix(ref.Ref, "#/components/schemas/"); ok {
		if names := s.KeyOrder("components", "schemas", name, "properties"); names != nil {
			return names
		}
	}
	names := make([]string, 0, len(ref.Value.Properties))
	for name := range ref.Value.Properties {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// Paths lists the document's path templates in the order written:
// kin-openapi keeps them in a map, and Starlette tries routes in declaration
// order, the first match winning.
func (s *Spec) Paths() []string {
	if order := s.KeyOrder("paths"); len(order) == s.Doc.Paths.Len() {
		return order
	}
	return s.Doc.Paths.InMatchingOrder()
}

// RawJSON renders the value at path in the document as written (members in
// written order, which kin-openapi's maps lose), or false when there is
// none.
func (s *Spec) RawJSON(path ...string) ([]byte, bool) {
	node := s.lookup(path...)
	if node == nil {
		return nil, false
	}
	b, err := NodeJSON(node)
	return b, err == nil
}

// KeyOrder lists the keys of the mapping at path in the document as written,
// or nil when there is none.
func (s *Spec) KeyOrder(path ...string) []string {
	node := s.lookup(path...)
	if node == nil || node.Kind != yaml.MappingNode {
		return nil
	}
	names := make([]string, 0, len(node.Content)/2)
	for i := 0; i < len(node.Content); i += 2 {
		names = append(names, node.Content[i].Value)
	}
	return names
}

// lookup is lookup from the root of the document as written, its large
// mappings read through their index.
func (s *Spec) lookup(path ...string) *yaml.Node {
	n := s.root()
	for _, key := range path {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		n = s.Member(n, key)
	}
	return n
}

// Member is the value of key in the mapping n of the document as written
// (Root), as written (an alias is not followed), or nil: the first of
// the keys so named, as a scan finds it. A large mapping (the paths of a
// vendor's document) is read through an index made when first asked.
func (s *Spec) Member(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	if len(n.Content) < 2*bigMapping {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				return n.Content[i+1]
			}
		}
		return nil
	}
	idx, ok := s.members.Load(n)
	if !ok {
		m := make(map[string]*yaml.Node, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			if _, seen := m[n.Content[i].Value]; !seen {
				m[n.Content[i].Value] = n.Content[i+1]
			}
		}
		idx, _ = s.members.LoadOrStore(n, m)
	}
	return idx.(map[string]*yaml.Node)[key]
}

// OperationPlace is where op stands in the document, or false when it is
// none of its operations.
func (s *Spec) OperationPlace(op *openapi3.Operation) (Place, bool) {
	s.indexPlaces()
	p, ok := s.places.ops[op]
	return p, ok
}

// RequestBodyPlace is where the first operation whose request body is
// body stands (paths in the order written, then methods sorted), or false when none has it.
func (s *Spec) RequestBodyPlace(body *openapi3.RequestBody) (Place, bool) {
	s.indexPlaces()
	p, ok := s.places.bodies[body]
	return p, ok
}

func (s *Spec) indexPlaces() {
	s.places.once.Do(func() {
		s.places.ops = map[*openapi3.Operation]Place{}
		s.places.bodies = map[*openapi3.RequestBody]Place{}
		if s.Doc.Paths == nil {
			return
		}
		for _, tmpl := range s.Paths() {
			item := s.Doc.Paths.Value(tmpl)
			if item == nil {
				continue
			}
			ops := item.Operations()
			for _, method := range slices.Sorted(maps.Keys(ops)) {
				op := ops[method]
				if op == nil {
					continue
				}
				if _, ok := s.places.ops[op]; !ok {
					s.places.ops[op] = Place{tmpl, method}
				}
				if op.RequestBody == nil || op.RequestBody.Value == nil {
					continue
				}
				if _, ok := s.places.bodies[op.RequestBody.Value]; !ok {
					s.places.bodies[op.RequestBody.Value] = Place{tmpl, method}
				}
			}
		}
	})
}

func lookup(n *yaml.Node, path ...string) *yaml.Node {
	for _, key := range path {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				next = n.Content[i+1]
				break
			}
		}
		n = next
	}
	return n
}

// Validate checks value (as encoding/json decodes it: map[string]any, []any,
// float64, string, bool, nil) against schema. With all set, every violation
// is reported (an openapi3.MultiError), else only the first.
//
// Formats date and date-time are checked on the calendar, not by kin-openapi's
// default regular expressions, which accept 1999-02-30 (v0.152.0). Patterns
// are ECMA-262, compiled by CompilePattern.
func (s *Spec) Validate(schema *openapi3.Schema, value any, all bool) error {
	opts := make([]openapi3.SchemaValidationOption, 0, 5)
	opts = append(opts, openapi3.EnableFormatValidation(), formatValidators, patternCompiler)
	if all {
		opts = append(opts, openapi3.MultiErrors())
	}
	if s.mode(schema) == mode2020 {
		opts = append(opts, openapi3.EnableJSONSchema2020())
	}
	return schema.VisitJSON(value, opts...)
}

type validationMode uint8

const (
	modeVisitor validationMode = iota + 1 // kin-openapi's built-in (3.0) validator
	mode2020                              // kin-openapi's JSON Schema 2020-12 validator
)

// mode picks the validator for schema. kin-openapi v0.152.0 compiles a new
// JSON Schema 2020-12 validator on every VisitJSON call for a 3.1 document
// (~370 µs and 2,700 allocations for a Review, against 2.3 µs), and for a
// schema that uses no 2020-only keyword it then often falls back to its
// built-in validator anyway. So the 2020 validator is used only for a 3.1
// schema that needs it (the keywords kin-openapi's own fallback guard lists);
// every other schema goes straight to the built-in validator, which handles
// the anyOf-with-null style of FastAPI documents correctly.
func (s *Spec) mode(schema *openapi3.Schema) validationMode {
	if m, ok := s.modes.Load(schema); ok {
		return m.(validationMode)
	}
	m := modeVisitor
	if s.Doc.IsOpenAPI31OrLater() && s.uses2020(schema) {
		m = mode2020
	}
	s.modes.Store(schema, m)
	return m
}

// permitNullWhereUntyped marks every schema that constrains no type (such as
// ValidationError's "input": {"title": "Input"}) as nullable. In JSON Schema
// 2020-12 such a schema accepts null; kin-openapi v0.152.0's built-in
// validator, which it also falls back to for 3.1 schemas with $refs, rejects
// null unless "nullable" is set. The 2020-12 validator ignores "nullable", so
// setting it changes nothing there. The served document is rendered from the
// text as written, so this never reaches a client.
func permitNullWhereUntyped(doc *openapi3.T) {
	seen := map[*openapi3.Schema]bool{}
	var walk func(ref *openapi3.SchemaRef)
	walk = func(ref *openapi3.SchemaRef) {
		if ref == nil || ref.Value == nil || seen[ref.Value] {
			return
		}
		v := ref.Value
		seen[v] = true
		if len(v.Type.Slice()) == 0 && len(v.AnyOf) == 0 && len(v.OneOf) == 0 && len(v.AllOf) == 0 &&
			v.Not == nil && len(v.Enum) == 0 && v.Const == nil {
			v.Nullable = true
		}
		for _, p := range v.Properties {
			walk(p)
		}
		for _, list := range [][]*openapi3.SchemaRef{v.AnyOf, v.OneOf, v.AllOf, v.PrefixItems} {
			for _, s := range list {
				walk(s)
			}
		}
		walk(v.Items)
		walk(v.Not)
		walk(v.ContentSchema)
		walk(v.AdditionalProperties.Schema)
	}
	if doc.Components != nil {
		for _, s := range doc.Components.Schemas {
			walk(s)
		}
	}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			for _, p := range append(slices.Clone(item.Parameters), op.Parameters...) {
				if p.Value != nil {
					walk(p.Value.Schema)
				}
			}
		}
	}
	eachMediaType(doc, func(mt *openapi3.MediaType) {
		walk(mt.Schema)
		walk(mt.ItemSchema)
	})
}

// Nullable reports whether schema admits null: nullable: true (3.0), a type
// list with "null", or an alternative of null: FastAPI's anyOf: [X, {type:
// "null"}] (3.1), drf-spectacular's oneOf.
func Nullable(schema *openapi3.Schema) bool {
	if schema == nil {
		return false
	}
	if schema.Nullable || schema.Type.Includes("null") {
		return true
	}
	for _, alts := range [...]openapi3.SchemaRefs{schema.AnyOf, schema.OneOf} {
		for _, alt := range alts {
			if alt.Value != nil && alt.Value.Type.Is("null") {
				return true
			}
		}
	}
	return false
}

// uses2020 reports whether schema, or a schema below it, has a keyword of
// JSON Schema 2020-12 that kin-openapi's built-in validator lacks. Each
// schema is looked at once per document (a chain of n models referring to
// the next costs n, where walking each one's subtree afresh cost n³).
func (s *Spec) uses2020(schema *openapi3.Schema) bool {
	s.usesMu.Lock()
	defer s.usesMu.Unlock()
	if s.uses == nil {
		s.uses = map[*openapi3.Schema]bool{}
	}
	found, _ := uses2020Keywords(schema, s.uses, map[*openapi3.Schema]bool{}, &s.usesLooks)
	return found
}

// uses2020Keywords is uses2020's walk. memo holds what is settled; open
// the schemas on the way down. A schema met again below itself answers
// false for now, and a verdict that rested on such an answer (cut) is not
// kept: reached another way, the schema may still lead to the keyword.
func uses2020Keywords(v *openapi3.Schema, memo, open map[*openapi3.Schema]bool, looks *int) (found, cut bool) {
	if v == nil {
		return false, false
	}
	if f, ok := memo[v]; ok {
		return f, false
	}
	if open[v] {
		return false, true
	}
	*looks++
	if v.Const != nil || len(v.PrefixItems) != 0 || v.Contains != nil ||
		len(v.PatternProperties) != 0 || len(v.DependentSchemas) != 0 || v.PropertyNames != nil ||
		v.UnevaluatedItems.Has != nil || v.UnevaluatedItems.Schema != nil ||
		v.UnevaluatedProperties.Has != nil || v.UnevaluatedProperties.Schema != nil ||
		v.If != nil || v.Then != nil || v.Else != nil ||
		len(v.DependentRequired) != 0 || len(v.Defs) != 0 || v.ContentSchema != nil {
		memo[v] = true
		return true, false
	}
	open[v] = true
	defer delete(open, v)
	below := func(r *openapi3.SchemaRef) bool {
		if r == nil {
			return false
		}
		f, c := uses2020Keywords(r.Value, memo, open, looks)
		cut = cut || c
		return f
	}
	for _, list := range []openapi3.SchemaRefs{v.AllOf, v.AnyOf, v.OneOf} {
		for _, r := range list {
			if below(r) {
				memo[v] = true
				return true, false
			}
		}
	}
	for _, r := range v.Properties {
		if below(r) {
			memo[v] = true
			return true, false
		}
	}
	for _, r := range []*openapi3.SchemaRef{v.Items, v.AdditionalProperties.Schema, v.Not} {
		if below(r) {
			memo[v] = true
			return true, false
		}
	}
	if !cut {
		memo[v] = false
	}
	return false, cut
}

var formatValidators = openapi3.WithStringFormatValidators(map[string]openapi3.StringFormatValidator{
	"date": openapi3.NewCallbackValidator(func(s string) error {
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return fmt.Errorf("not a valid date (YYYY-MM-DD)")
		}
		return nil
	}),
	"date-time": openapi3.NewCallbackValidator(func(s string) error {
		_, _, err := ParseFastAPIDateTime(s)
		return err
	}),
})

// CanonicalDateTime reports whether b is a valid date-time written exactly
// as 2006-01-02T15:04:05Z, the form most data comes in: checked without
// parsing or allocating. Such text ParseDateTime accepts, and pydantic
// writes back unchanged.
func CanonicalDateTime[T string | []byte](b T) bool {
	if len(b) != len("2006-01-02T15:04:05Z") || b[4] != '-' || b[7] != '-' || b[10] != 'T' ||
		b[13] != ':' || b[16] != ':' || b[19] != 'Z' {
		return false
	}
	num := func(i, n int) int {
		v := 0
		for _, c := range []byte(b[i : i+n]) {
			if c < '0' || c > '9' {
				return -1
			}
			v = v*10 + int(c-'0')
		}
		return v
	}
	year, month, day := num(0, 4), num(5, 2), num(8, 2)
	hour, minute, second := num(11, 2), num(14, 2), num(17, 2)
	if year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 ||
		minute < 0 || minute > 59 || second < 0 || second > 59 {
		return false
	}
	days := [...]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[month-1]
	if month == 2 && year%4 == 0 && (year%100 != 0 || year%400 == 0) {
		days = 29
	}
	return day <= days
}

// ParseFastAPIDateTime parses a date-time as FastAPI writes one under format
// date-time: RFC 3339 with a time zone (ParseDateTime), or the same without
// one, which is how pydantic writes a naive datetime ("2024-08-13T10:00:00",
// "2024-08-13T10:00:00.400000"). A contract check must accept what pydantic
// itself produces for the type it documented as date-time; naive reports
// which form s has (t is then in UTC, as written).
func ParseFastAPIDateTime(s string) (t time.Time, naive bool, err error) {
	if t, err := ParseDateTime(s); err == nil {
		return t, false, nil
	}
	if strings.ContainsAny(s, "t") {
		s = strings.ToUpper(s)
	}
	t, err = time.Parse("2006-01-02T15:04:05.999999999", s)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("not a valid RFC 3339 date-time (with a time zone, or without one as pydantic writes a naive datetime)")
	}
	return t, true, nil
}

// ParseDateTime parses an RFC 3339 date-time with a time zone, as JSON Schema's
// date-time format requires ("T" and "Z" in either case).
func ParseDateTime(s string) (time.Time, error) {
	if strings.ContainsAny(s, "tz") {
		s = strings.ToUpper(s)
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("not a valid RFC 3339 date-time with a time zone")
	}
	return t, nil
}

// NodeJSON renders a YAML node as compact JSON, keeping mapping keys in the
// order they were written. Scalars keep their YAML types: a plain 12 is a
// number, a quoted "12" a string, null/~ is null.
func NodeJSON(n *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	if err := writeNodeJSON(&buf, n, false); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// NodeJSONExact is NodeJSON keeping each number written as JSON writes
// numbers as it is written: decoded, an integer past 2^63 becomes a float
// (123456789012345678901234567890 → 1.2345678901234568e+29) and -0 becomes
// 0, though JSON keeps both. Fixture files read with it hold what a JSON
// file would.
func NodeJSONExact(n *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	if err := writeNodeJSON(&buf, n, true); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// jsonNumber reports whether n is a plain YAML number written as JSON
// writes numbers (not 0x1F, 1_000, +1 or .5, which YAML reads too).
func jsonNumber(n *yaml.Node) bool {
	if tag := n.ShortTag(); n.Style != 0 || (tag != "!!int" && tag != "!!float") || n.Value == "" {
		return false
	}
	if c := n.Value[0]; c != '-' && (c < '0' || c > '9') {
		return false
	}
	return json.Valid([]byte(n.Value))
}

func writeNodeJSON(buf *bytes.Buffer, n *yaml.Node, exact bool) error {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			buf.WriteString("null")
			return nil
		}
		return writeNodeJSON(buf, n.Content[0], exact)
	case yaml.AliasNode:
		return writeNodeJSON(buf, n.Alias, exact)
	case yaml.MappingNode:
		buf.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode {
				return fmt.Errorf("line %d: mapping key is not a scalar", k.Line)
			}
			if i > 0 {
				buf.WriteByte(',')
			}
			key, _ := json.Marshal(k.Value)
			buf.Write(key)
			buf.WriteByte(':')
			if err := writeNodeJSON(buf, v, exact); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	case yaml.SequenceNode:
		buf.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeNodeJSON(buf, c, exact); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case yaml.ScalarNode:
		var v any
		if err := n.Decode(&v); err != nil {
			return fmt.Errorf("line %d: %w", n.Line, err)
		}
		switch x := v.(type) {
		case time.Time: // an unquoted timestamp: keep the text as written
			v = n.Value
		case float64:
			if x != x || x > 1.7976931348623157e308 || x < -1.7976931348623157e308 {
				return fmt.Errorf("line %d: %s is not a JSON number", n.Line, n.Value)
			}
		}
		if exact && jsonNumber(n) {
			buf.WriteString(n.Value)
			return nil
		}
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("line %d: %w", n.Line, err)
		}
		buf.Write(b)
	default:
		return fmt.Errorf("line %d: unsupported YAML node", n.Line)
	}
	return nil
}
