package scenarios

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/problems"
	"github.com/moviemock/moviemock/internal/regularfile"
	"github.com/moviemock/moviemock/internal/spec"
)

//go:embed *.yaml
var shipped embed.FS

// Source is a folder of scenario files: every .yaml or .yml file at its top
// holds one scenario.
type Source struct {
	FS   fs.FS
	Name string // how messages call it
	// Optional sources give scenarios that may not fit the contract: one
	// that does not is left out (Set.Skipped says why), not an error.
	Optional bool
	shipped  bool // the scenarios built into moviemock
}

// Shipped is the scenarios built into moviemock.
func Shipped() Source { return Source{FS: shipped, Name: "scenarios", shipped: true} }

// ShippedFor is the shipped scenarios as a source for the contract sp. They
// are written for the embedded contract, where each must load; on another,
// those that fit it (its paths, fields and data) are kept and the rest are
// left out, listed by Set.Skipped.
func ShippedFor(sp *spec.Spec) Source {
	src := Shipped()
	if embedded, _ := spec.Embedded(); sp != embedded {
		src.Optional = true
	}
	return src
}

// Dir is the scenario folder dir on disk.
func Dir(dir string) (Source, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return Source{}, fmt.Errorf("load scenarios: %w", err)
	}
	if !info.IsDir() {
		return Source{}, fmt.Errorf("load scenarios: %s is not a directory", dir)
	}
	return Source{FS: os.DirFS(dir), Name: dir}, nil
}

// Limits of what a scenario may ask for.
const (
	maxDelay = 10 * time.Minute
	// maxGenerate bounds a generated list, which is rendered at load.
	maxGenerate = 1_000_000
)

var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// Load reads every scenario of sources and checks it against the contract
// sp and the data set data (which fixture references render from). A
// scenario of a later source replaces one of the same name from an earlier
// source, so a folder can override a shipped scenario; two files of one
// source may not share a name. Every problem of every file is reported,
// each with file:line.
func Load(sp *spec.Spec, data *fixtures.Dataset, sources ...Source) (*Set, error) {
	var m *model.Model
	if data != nil && data.Model != nil && data.Model.Spec == sp {
		m = data.Model
	} else if em, _ := model.Embedded(); em != nil && em.Spec == sp {
		m = em
	} else {
		m, _ = model.Compile(sp) // nil: each operation's inputs compiled here
	}
	x, err := newIndex(sp, m)
	if err != nil {
		// The contract is at fault, not a scenario: say so.
		return nil, fmt.Errorf("contract %s: %w", sp.Source(), err)
	}
	set := &Set{byName: map[string]*Scenario{}, index: x, data: data}
	var errs Errors
	for _, src := range sources {
		entries, err := fs.ReadDir(src.FS, ".")
		if err != nil {
			return nil, fmt.Errorf("load scenarios %s: %w", src.Name, err)
		}
		fromHere := map[string]string{}
		for _, e := range entries {
			ext := path.Ext(e.Name())
			if e.IsDir() || ext != ".yaml" && ext != ".yml" {
				continue
			}
			// A FIFO would be waited on for ever, a device read without end.
			if err := regularfile.CheckFS(src.FS, e.Name(), path.Join(src.Name, e.Name())); err != nil {
				return nil, fmt.Errorf("load scenarios %s: %w", src.Name, err)
			}
			text, err := fs.ReadFile(src.FS, e.Name())
			if err != nil {
				return nil, fmt.Errorf("load scenarios %s: %w", src.Name, err)
			}
			file := path.Join(src.Name, e.Name())
			into := &errs
			if src.Optional {
				into = &Errors{}
			}
			sc, ok := parse(text, file, sp, data, x, into)
			if src.Optional && !ok {
				skip := Skipped{File: file, Reason: "it does not fit the contract"}
				if sc != nil {
					skip.Name = sc.Name
				}
				if len(into.Items) > 0 {
					skip.Reason = into.Items[0].Error()
				}
				set.skipped = append(set.skipped, skip)
				continue
			}
			if sc == nil || sc.Name == "" {
				continue
			}
			if other, dup := fromHere[sc.Name]; dup {
				errs.Add(&Problem{File: file, Line: sc.Line, Scenario: sc.Name, Field: "name",
					Reason: "another scenario has this name: " + other})
				continue
			}
			fromHere[sc.Name] = file
			if ok {
				sc.Shipped = src.shipped
				set.byName[sc.Name] = sc
			}
		}
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	for _, sc := range set.byName {
		set.list = append(set.list, sc)
	}
	sort.Slice(set.list, func(i, j int) bool { return set.list[i].Name < set.list[j].Name })
	return set, nil
}

// parse reads one scenario file. Problems go to errs, and ok is false when
// there were any (sc then has what could be read, its name at least).
func parse(text []byte, file string, sp *spec.Spec, data *fixtures.Dataset, x *contractIndex, errs *Errors) (sc *Scenario, ok bool) {
	p := &parser{file: file, errs: errs, sp: sp, data: data, x: x}
	before := errs.Count()
	var root yaml.Node
	if err := yaml.Unmarshal(text, &root); err != nil {
		line, reason := problems.YAMLSyntax(err, text)
		p.failLine(line, "", "not valid YAML: %s", reason)
		return nil, false
	}
	if line, err := spec.CheckYAML(&root); err != nil {
		p.failLine(line, "", "%v", err)
		return nil, false
	}
	if len(root.Content) == 0 {
		p.failLine(0, "", "the file is empty: a scenario needs name, description and rules")
		return nil, false
	}
	sc = p.parseScenario(root.Content[0])
	if sc == nil || errs.Count() > before {
		return sc, false
	}
	sc.source = text
	return sc, true
}

// parser turns one file's YAML nodes into a Scenario, reporting problems
// with the line of the node at fault.
type parser struct {
	file           string
	errs           *Errors
	sp             *spec.Spec
	data           *fixtures.Dataset
	x              *contractIndex
	scenario, rule string
}

func (p *parser) fail(n *yaml.Node, field, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	p.failLine(line, field, format, args...)
}

func (p *parser) failLine(line int, field, format string, args ...any) {
	p.errs.Add(&Problem{File: p.file, Line: line, Scenario: p.scenario, Rule: p.rule, Field: field, Reason: fmt.Sprintf(format, args...)})
}

// answerKeys are the keys of each way a rule answers, which a rule's own
// level does not take: a hint names where one given there belongs.
var answerKeys = map[string][]string{
	"passthrough": {"if_status", "status", "headers", "set", "where", "order", "offset", "limit"},
	"respond":     {"status", "headers", "body", "raw", "content_type", "fixture", "generate", "set"},
	"fault":       {"bytes", "chunk", "interval", "for"},
}

// nests is a hint for an unknown key that belongs one level down, under
// an allowed key that takes it ("" when none does).
func nests(key string, allowed []string) string {
	var under []string
	for _, a := range []string{"passthrough", "respond", "fault"} {
		if slices.Contains(allowed, a) && slices.Contains(answerKeys[a], key) {
			under = append(under, a+":")
		}
	}
	if len(under) == 0 {
		return ""
	}
	return fmt.Sprintf("; %s nests under %s, e.g. %s {%s: …}", key, strings.Join(under, " or "), under[0], key)
}

// fields checks that n is a mapping of allowed keys, each once, and returns
// the values by key.
func (p *parser) fields(n *yaml.Node, field string, allowed ...string) (map[string]*yaml.Node, bool) {
	if n.Kind != yaml.MappingNode {
		p.fail(n, field, "want a mapping with keys %s, got %s", strings.Join(allowed, ", "), describe(n))
		return nil, false
	}
	out := map[string]*yaml.Node{}
	ok := true
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch {
		case !slices.Contains(allowed, k.Value):
			p.fail(k, join(field, k.Value), "unknown key %q (known here: %s)%s", k.Value, strings.Join(allowed, ", "), nests(k.Value, allowed))
			ok = false
		case out[k.Value] != nil:
			p.fail(k, join(field, k.Value), "given twice")
			ok = false
		default:
			out[k.Value] = v
		}
	}
	return out, ok
}

// pairs returns a mapping's keys and values in order.
func (p *parser) pairs(n *yaml.Node, field string) ([][2]*yaml.Node, bool) {
	if n.Kind != yaml.MappingNode {
		p.fail(n, field, "want a mapping, got %s", describe(n))
		return nil, false
	}
	var out [][2]*yaml.Node
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if seen[k.Value] {
			p.fail(k, join(field, k.Value), "given twice")
			return nil, false
		}
		seen[k.Value] = true
		out = append(out, [2]*yaml.Node{k, n.Content[i+1]})
	}
	return out, true
}

func (p *parser) str(n *yaml.Node, field string) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.fail(n, field, "want a text, got %s", describe(n))
		return "", false
	}
	return n.Value, true
}

// strs reads one text or a list of them.
func (p *parser) strs(n *yaml.Node, field string) ([]string, bool) {
	if n.Kind == yaml.SequenceNode {
		out := make([]string, 0, len(n.Content))
		for _, c := range n.Content {
			s, ok := p.str(c, field)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		if len(out) == 0 {
			p.fail(n, field, "an empty list matches nothing")
			return nil, false
		}
		return out, true
	}
	s, ok := p.str(n, field)
	return []string{s}, ok
}

func (p *parser) integer(n *yaml.Node, field string, lo, hi int) (int, bool) {
	var v int
	if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || n.Decode(&v) != nil {
		p.fail(n, field, "want a whole number, got %s", describe(n))
		return 0, false
	}
	if v < lo || v > hi {
		p.fail(n, field, "%d is out of range %d–%d", v, lo, hi)
		return 0, false
	}
	return v, true
}

func (p *parser) boolean(n *yaml.Node, field string) (bool, bool) {
	var v bool
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" || n.Decode(&v) != nil {
		p.fail(n, field, "want true or false, got %s", describe(n))
		return false, false
	}
	return v, true
}

func (p *parser) duration(n *yaml.Node, field string) (time.Duration, bool) {
	s, ok := p.str(n, field)
	if !ok {
		return 0, false
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		p.fail(n, field, "want a duration such as 250ms or 2s, got %q", s)
		return 0, false
	}
	if d > maxDelay {
		p.fail(n, field, "%v is longer than the limit of %v", d, maxDelay)
		return 0, false
	}
	return d, true
}

// maxWindow bounds a rule's window.
const maxWindow = 24 * time.Hour

func (p *parser) window(n *yaml.Node) time.Duration {
	s, ok := p.str(n, "window")
	if !ok {
		return 0
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 || d > maxWindow {
		p.fail(n, "window", "want a duration above 0 and at most %v, such as 30s or 1m, got %q", maxWindow, s)
		return 0
	}
	return d
}

// describe names a node's kind for messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	switch n.Tag {
	case "!!null":
		return "null"
	case "!!str":
		return strconv.Quote(n.Value)
	}
	return n.Value
}

func join(field, key string) string {
	if field == "" {
		return key
	}
	return field + "." + key
}

func (p *parser) parseScenario(n *yaml.Node) *Scenario {
	if n.Kind == yaml.MappingNode {
		// Name the scenario in every message, those about other keys too.
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k, v := n.Content[i], n.Content[i+1]; k.Value == "name" && v.Kind == yaml.ScalarNode {
				p.scenario = v.Value
			}
		}
	}
	f, _ := p.fields(n, "", "name", "description", "initial", "rules")
	if f == nil {
		return nil
	}
	sc := &Scenario{File: p.file, Line: n.Line, Initial: "start"}
	if v := f["name"]; v == nil {
		p.fail(n, "name", "missing")
	} else if s, ok := p.str(v, "name"); ok {
		if !namePattern.MatchString(s) {
			p.fail(v, "name", "%q: use letters, digits, '.', '_' and '-' (it goes into the X-Mock-Scenario header)", s)
		}
		sc.Name = s
		p.scenario = s
	}
	if v := f["description"]; v == nil {
		p.fail(n, "description", "missing: say what problem the scenario reproduces")
	} else if s, ok := p.str(v, "description"); ok {
		sc.Description = strings.TrimSpace(s)
	}
	if v := f["initial"]; v != nil {
		if s, ok := p.str(v, "initial"); ok {
			sc.Initial = s
		}
	}
	v := f["rules"]
	if v == nil || v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		at := n
		if v != nil {
			at = v
		}
		p.fail(at, "rules", "want a non-empty list of rules")
		return sc
	}
	for i, rn := range v.Content {
		if r := p.parseRule(rn, i); r != nil {
			sc.Rules = append(sc.Rules, r)
			sc.matchesForm = sc.matchesForm || len(r.Form) > 0
		}
	}
	p.rule = ""
	p.checkStates(sc)
	sc.closes = sc.closesConnections()
	return sc
}

// checkStates refuses a rule that waits for a state nothing enters, and
// lists the states.
func (p *parser) checkStates(sc *Scenario) {
	entered := map[string]bool{sc.Initial: true}
	sc.States = []string{sc.Initial}
	for _, r := range sc.Rules {
		if r.Then != "" {
			entered[r.Then] = true
			if !slices.Contains(sc.States, r.Then) {
				sc.States = append(sc.States, r.Then)
			}
		}
	}
	for _, r := range sc.Rules {
		for _, s := range r.InStates {
			if !entered[s] {
				p.rule = r.Label
				p.failLine(r.Line, "match.state", "state %q is never entered: it is not the initial state (%q) and no rule moves to it with then", s, sc.Initial)
			}
		}
	}
	p.rule = ""
}

func (p *parser) parseRule(n *yaml.Node, i int) *Rule {
	r := &Rule{Label: fmt.Sprintf("rule %d", i+1), Line: n.Line}
	p.rule = r.Label
	f, ok := p.fields(n, "", "name", "match", "times", "every", "delay", "respond", "passthrough", "fault", "then", "off_spec", "window", "before_auth")
	if f == nil {
		return nil
	}
	if v := f["name"]; v != nil {
		if s, ok := p.str(v, "name"); ok {
			r.Label += " (" + s + ")"
			p.rule = r.Label
		}
	}
	if v := f["off_spec"]; v != nil {
		r.OffSpec, _ = p.boolean(v, "off_spec")
	}
	ops := p.x.allOps()
	if v := f["match"]; v != nil {
		ops = p.match(r, v)
	}
	if v := f["times"]; v != nil {
		r.Times, _ = p.integer(v, "times", 1, 1<<30)
	}
	if v := f["every"]; v != nil {
		r.Every, _ = p.integer(v, "every", 1, 1<<30)
	}
	if v := f["window"]; v != nil {
		r.Window = p.window(v)
		if r.Window > 0 && r.Times == 0 && r.Every == 0 {
			p.fail(v, "window", "counts matches for times or every: give one of them")
		}
	}
	if v := f["before_auth"]; v != nil {
		r.BeforeAuth, _ = p.boolean(v, "before_auth")
	}
	if v := f["delay"]; v != nil {
		r.Delay = p.delay(v)
	}
	if v := f["then"]; v != nil {
		r.Then, _ = p.str(v, "then")
	}
	if v := f["respond"]; v != nil {
		r.Respond = p.respond(v, ops, r.OffSpec)
	}
	if v := f["passthrough"]; v != nil {
		r.Passthrough = p.passthrough(v, ops, r.OffSpec)
	}
	if v := f["fault"]; v != nil {
		r.Fault = p.fault(v)
	}
	switch {
	case f["respond"] == nil && f["passthrough"] == nil && f["fault"] == nil:
		p.fail(n, "", "a rule needs respond, passthrough or fault: what should it answer?")
	case f["respond"] != nil && f["passthrough"] != nil:
		p.fail(f["passthrough"], "passthrough", "give respond or passthrough, not both")
	case r.Fault != nil && (r.Fault.Kind == FaultReset || r.Fault.Kind == FaultEmpty || r.Fault.Kind == FaultHang || r.Fault.Kind == FaultCrash) &&
		(f["respond"] != nil || f["passthrough"] != nil):
		p.fail(f["fault"], "fault", "fault %s sends no answer: drop respond/passthrough", r.Fault.Kind)
	case r.BeforeAuth && f["respond"] == nil && (r.Fault == nil || r.Fault.Kind != FaultCrash):
		p.fail(f["before_auth"], "before_auth", "only a respond or a crash stands for the backend's own answer, which its auth comes before; this rule's answer is the mock's or the network's")
	}
	if !ok {
		return nil
	}
	return r
}

func (x *contractIndex) allOps() []*opInfo {
	var out []*opInfo
	for _, p := range x.paths {
		out = append(out, p.ops...)
	}
	return out
}

// match reads a rule's conditions and returns the contract operations the
// rule can answer.
func (p *parser) match(r *Rule, n *yaml.Node) []*opInfo {
	f, _ := p.fields(n, "match", "method", "path", "params", "query", "headers", "form", "state")
	if f == nil {
		return nil
	}
	if v := f["method"]; v != nil {
		ms, _ := p.strs(v, "match.method")
		for _, m := range ms {
			m = strings.ToUpper(m)
			if !slices.Contains(methodOrder, m) {
				p.fail(v, "match.method", "%q is not an HTTP method", m)
				continue
			}
			r.Methods = append(r.Methods, m)
		}
	}
	var paths []*pathInfo
	if v := f["path"]; v != nil {
		s, ok := p.str(v, "match.path")
		switch {
		case !ok:
		case !strings.HasPrefix(s, "/"):
			p.fail(v, "match.path", "%q must start with /", s)
		case p.x.path(s) != nil:
			r.Template = s
			paths = []*pathInfo{p.x.path(s)}
		case strings.Contains(s, "{"):
			p.fail(v, "match.path", "%q is not a path of the contract (it has %s)", s, p.x.templates())
		default:
			r.Exact = s
			if pi := p.x.matchPath(s); pi != nil {
				paths = []*pathInfo{pi}
			} else if !r.OffSpec {
				p.fail(v, "match.path", "no path of the contract matches %q (it has %s); set off_spec: true to script a path the contract lacks", s, p.x.templates())
			}
		}
	} else {
		paths = p.x.paths
	}
	var ops []*opInfo
	for _, pi := range paths {
		for _, o := range pi.ops {
			if len(r.Methods) == 0 || slices.Contains(r.Methods, o.method) {
				ops = append(ops, o)
			}
		}
	}
	if v := f["method"]; v != nil && len(ops) == 0 && len(paths) > 0 && !r.OffSpec {
		where := "any path of the contract"
		if len(paths) == 1 {
			where = paths[0].template + " (it has " + paths[0].methods() + ")"
		}
		p.fail(v, "match.method", "%s is not an operation of %s; set off_spec: true to script it anyway", strings.Join(r.Methods, ", "), where)
	}
	if v := f["params"]; v != nil {
		if r.Template == "" {
			p.fail(v, "match.params", "path parameters need match.path to be a template such as /person/{person_id}")
		} else {
			r.Params = p.values(v, "match.params", ops, "path", true)
		}
	}
	if v := f["query"]; v != nil {
		r.Query = p.values(v, "match.query", ops, "query", false)
	}
	if v := f["headers"]; v != nil {
		r.Headers = p.values(v, "match.headers", ops, "header", false)
	}
	if v := f["form"]; v != nil {
		if len(inputNames(ops, "body")) == 0 {
			p.fail(v, "match.form", "none of the operations this rule matches (%s) takes a form", opNames(ops))
		} else {
			r.Form = p.values(v, "match.form", ops, "body", true)
		}
	}
	if v := f["state"]; v != nil {
		r.InStates, _ = p.strs(v, "match.state")
	}
	return ops
}

func opNames(ops []*opInfo) string {
	if len(ops) == 0 {
		return "none"
	}
	out := make([]string, len(ops))
	for i, o := range ops {
		out[i] = o.String()
	}
	return strings.Join(out, ", ")
}

// values reads conditions on request values: name: value (equal), or
// name: {matches: regexp}, or name: {present: bool}. Values the contract
// declares must be ones FastAPI accepts, and are compared as it reads them
// (person_id 007 equals 7); with declaredOnly, an undeclared name is refused.
func (p *parser) values(n *yaml.Node, field string, ops []*opInfo, where string, declaredOnly bool) []valueMatch {
	kv, ok := p.pairs(n, field)
	if !ok {
		return nil
	}
	var out []valueMatch
	for _, pair := range kv {
		name, v := pair[0].Value, pair[1]
		fld := join(field, name)
		vm := valueMatch{name: name}
		if where == "header" {
			vm.name = http.CanonicalHeaderKey(name)
		}
		vm.input = input(ops, where, name)
		if where == "header" {
			vm.input = nil // headers are matched as sent
		}
		if vm.input == nil && declaredOnly {
			p.fail(pair[0], fld, "not a %s of %s (declared: %s)", whereNoun[where], opNames(ops), orNone(inputNames(ops, where)))
			continue
		}
		if v.Kind == yaml.MappingNode {
			f, _ := p.fields(v, fld, "equals", "matches", "present")
			if len(f) != 1 {
				if f != nil {
					p.fail(v, fld, "give exactly one of equals, matches, present")
				}
				continue
			}
			if m := f["matches"]; m != nil {
				if s, ok := p.str(m, fld+".matches"); ok {
					re, err := regexp.Compile(s)
					if err != nil {
						p.fail(m, fld+".matches", "bad regular expression: %v", err)
						continue
					}
					vm.re = re
				}
			}
			if m := f["present"]; m != nil {
				b, ok := p.boolean(m, fld+".present")
				if !ok {
					continue
				}
				vm.present = &b
			}
			if m := f["equals"]; m != nil {
				v = m
			} else {
				out = append(out, vm)
				continue
			}
		}
		s, ok := p.str(v, fld)
		if !ok {
			continue
		}
		if vm.input != nil {
			val, item := vm.input.Check(p.sp, s, true)
			if item != nil {
				p.fail(v, fld, "%q would be refused with 422 (%s), so the rule could never match", s, item.Msg)
				continue
			}
			s = canonical(vm.input, val)
		}
		vm.equals = &s
		out = append(out, vm)
	}
	return out
}

var whereNoun = map[string]string{"path": "path parameter", "query": "query parameter", "body": "form field"}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// canonical is the form two values FastAPI reads as equal share.
func canonical(in *fastapi.Input, v fastapi.Value) string {
	if in.Kind == fastapi.Integer {
		return v.Int.Text
	}
	return v.Str
}

func (p *parser) delay(n *yaml.Node) *Delay {
	if n.Kind == yaml.ScalarNode {
		d, ok := p.duration(n, "delay")
		if !ok {
			return nil
		}
		return &Delay{Min: d, Max: d}
	}
	f, _ := p.fields(n, "delay", "min", "max")
	if f == nil {
		return nil
	}
	if f["min"] == nil || f["max"] == nil {
		p.fail(n, "delay", "a range needs min and max")
		return nil
	}
	lo, ok1 := p.duration(f["min"], "delay.min")
	hi, ok2 := p.duration(f["max"], "delay.max")
	if !ok1 || !ok2 {
		return nil
	}
	if hi < lo {
		p.fail(f["max"], "delay.max", "%v is less than min %v", hi, lo)
		return nil
	}
	return &Delay{Min: lo, Max: hi}
}

func (p *parser) headers(n *yaml.Node, field string) [][2]string {
	kv, ok := p.pairs(n, field)
	if !ok {
		return nil
	}
	var out [][2]string
	for _, pair := range kv {
		name := http.CanonicalHeaderKey(pair[0].Value)
		fld := join(field, pair[0].Value)
		switch name {
		case "Content-Length", "Transfer-Encoding", "Connection":
			p.fail(pair[0], fld, "moviemock sets %s itself", name)
			continue
		case "Content-Type":
			p.fail(pair[0], fld, "use content_type")
			continue
		}
		if v, ok := p.str(pair[1], fld); ok {
			out = append(out, [2]string{name, v})
		}
	}
	return out
}

// respond reads a scripted answer and holds it to the contract of every
// operation in ops, unless offSpec.
func (p *parser) respond(n *yaml.Node, ops []*opInfo, offSpec bool) *Response {
	f, _ := p.fields(n, "respond", "status", "headers", "body", "raw", "content_type", "fixture", "generate", "set")
	if f == nil {
		return nil
	}
	resp := &Response{ContentType: "application/json"}
	if v := f["status"]; v == nil {
		p.fail(n, "respond.status", "missing")
		return nil
	} else if resp.Status, _ = p.integer(v, "respond.status", 200, 599); resp.Status == 0 {
		return nil
	}
	if v := f["headers"]; v != nil {
		resp.Headers = p.headers(v, "respond.headers")
	}
	var sources []string
	for _, k := range []string{"body", "raw", "fixture", "generate"} {
		if f[k] != nil {
			sources = append(sources, k)
		}
	}
	if len(sources) > 1 {
		p.fail(n, "respond", "give one body: %s are exclusive", strings.Join(sources, ", "))
		return nil
	}
	if f["set"] != nil && f["fixture"] == nil {
		p.fail(f["set"], "respond.set", "set changes a fixture: give fixture too")
		return nil
	}
	bodyAt := n
	switch {
	case f["body"] != nil:
		bodyAt = f["body"]
		raw, err := spec.NodeJSON(bodyAt)
		if err == nil {
			resp.Body, err = fastapi.AppendCompact(nil, raw)
		}
		if err != nil {
			p.fail(bodyAt, "respond.body", "cannot be written as JSON: %v", err)
			return nil
		}
	case f["raw"] != nil:
		bodyAt = f["raw"]
		s, ok := p.str(bodyAt, "respond.raw")
		if !ok {
			return nil
		}
		resp.Body = []byte(s)
		resp.ContentType = "text/plain; charset=utf-8"
	case f["fixture"] != nil:
		bodyAt = f["fixture"]
		ref, ok := p.str(bodyAt, "respond.fixture")
		if !ok {
			return nil
		}
		body, err := p.data.Render(ref)
		if err != nil {
			p.fail(bodyAt, "respond.fixture", "%v", err)
			return nil
		}
		if v := f["set"]; v != nil {
			set := p.setFields(v, "respond.set", ops, resp.Status)
			if set == nil {
				return nil
			}
			if body, err = apply(body, set, nil, 0, 0); err != nil {
				p.fail(v, "respond.set", "%v", err)
				return nil
			}
		}
		resp.Body = body
	case f["generate"] != nil:
		bodyAt = f["generate"]
		sample, full := p.generate(bodyAt, ops, resp.Status)
		if sample == nil {
			return nil
		}
		// The contract is held to a sample of the same generator; the
		// whole list is made on first use.
		resp.Body, resp.generated = sample, full
		defer func() { resp.Body = nil }()
	}
	if v := f["content_type"]; v != nil {
		resp.ContentType, _ = p.str(v, "respond.content_type")
	}
	if offSpec {
		return resp
	}
	for _, o := range ops {
		if reason := conforms(p.sp, o, resp.Status, resp.ContentType, resp.Body); reason != "" {
			p.fail(bodyAt, "respond", "breaks the contract of %s: %s; set off_spec: true if the rule means to", o, reason)
			return nil
		}
	}
	return resp
}

// conforms says how an answer breaks op's contract, or "" when it does not.
// A status the operation declares must come with a body its schema accepts;
// one FastAPI answers by itself (404, 401, …) with an HTTPException body,
// {"detail": …}; any other status breaks the contract.
func conforms(sp *spec.Spec, op *opInfo, status int, contentType string, body []byte) string {
	mediaType, _, _ := strings.Cut(contentType, ";")
	mediaType = strings.TrimSpace(mediaType)
	ref := op.op.Responses.Status(status)
	if ref == nil || ref.Value == nil {
		if !slices.Contains(fastapi.FrameworkStatuses, status) {
			return fmt.Sprintf("status %d is not declared (declared: %s) nor one FastAPI answers by itself (%s)",
				status, strings.Join(declared(op), ", "), intList(fastapi.FrameworkStatuses))
		}
		var detail map[string]json.RawMessage
		if mediaType != "application/json" || json.Unmarshal(body, &detail) != nil || len(detail) != 1 || detail["detail"] == nil {
			return fmt.Sprintf(`FastAPI answers %d with an HTTPException body, {"detail": …} in JSON`, status)
		}
		return ""
	}
	if len(ref.Value.Content) == 0 {
		if len(body) > 0 {
			return fmt.Sprintf("status %d is declared without a body", status)
		}
		return ""
	}
	media := ref.Value.Content.Get(mediaType)
	if media == nil {
		var types []string
		for ct := range ref.Value.Content {
			types = append(types, ct)
		}
		slices.Sort(types)
		return fmt.Sprintf("content type %q is not declared for %d (declared: %s)", mediaType, status, strings.Join(types, ", "))
	}
	if media.Schema == nil || media.Schema.Value == nil {
		return ""
	}
	if len(body) == 0 {
		return fmt.Sprintf("no body, but the contract gives %d a %s body", status, mediaType)
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return "the body is not JSON: " + err.Error()
	}
	viols := spec.Violations(sp.Validate(media.Schema.Value, v, true))
	if len(viols) == 0 {
		return ""
	}
	msgs := make([]string, 0, len(viols))
	for _, vi := range viols {
		msgs = append(msgs, "body"+fieldSuffix(vi.Field)+": "+vi.Reason)
	}
	return strings.Join(msgs, "; ")
}

func fieldSuffix(f string) string {
	if f == "" {
		return ""
	}
	return "." + f
}

func intList(ns []int) string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strconv.Itoa(n)
	}
	return strings.Join(out, ", ")
}

// generate reads a generated list for the one operation of ops, whose
// answer must be a list of a kind the generator makes. It returns a sample
// (the first few of the list) and what renders the whole list, once.
func (p *parser) generate(n *yaml.Node, ops []*opInfo, status int) ([]byte, func() []byte) {
	f, _ := p.fields(n, "respond.generate", "count", "seed")
	if f == nil {
		return nil, nil
	}
	if f["count"] == nil {
		p.fail(n, "respond.generate.count", "missing")
		return nil, nil
	}
	count, ok := p.integer(f["count"], "respond.generate.count", 0, maxGenerate)
	if !ok {
		return nil, nil
	}
	seed := 1
	if v := f["seed"]; v != nil {
		if seed, ok = p.integer(v, "respond.generate.seed", 1, 1<<62); !ok {
			return nil, nil
		}
	}
	if len(ops) != 1 {
		p.fail(n, "respond.generate", "needs a rule for one operation (match.method and match.path), not %s", opNames(ops))
		return nil, nil
	}
	ref := jsonSchema(ops[0], status)
	if ref == nil || ref.Value == nil || !ref.Value.Type.Is("array") || ref.Value.Items == nil || ref.Value.Items.Ref == "" {
		p.fail(n, "respond.generate", "%s answers %d with no list of a named schema to generate", ops[0], status)
		return nil, nil
	}
	name := path.Base(ref.Value.Items.Ref)
	sample, err := fixtures.GenerateJSON(p.data.Model, name, min(count, 3), uint64(seed))
	if err != nil {
		p.fail(n, "respond.generate", "%v", err)
		return nil, nil
	}
	return sample, sync.OnceValue(func() []byte {
		body, err := fixtures.GenerateJSON(p.data.Model, name, count, uint64(seed))
		if err != nil {
			panic(err) // the sample of the same generator worked
		}
		return body
	})
}

// setFields reads field: value pairs that replace fields of the answer
// ops give with status (of each element when it is a list), each checked
// against the field's schema.
func (p *parser) setFields(n *yaml.Node, field string, ops []*opInfo, status int) []member {
	return p.fieldValues(n, field, ops, status, false)
}

// whereFields reads a where's field: value pairs, as setFields does; a
// field may be a dotted path into the record (author.following: the
// embedded author's following, as the reader sees it), each name a
// property of the schema the one before it holds. A name the record's
// schema declares whole is that property, dots and all.
func (p *parser) whereFields(n *yaml.Node, field string, ops []*opInfo) []member {
	return p.fieldValues(n, field, ops, http.StatusOK, true)
}

// fieldValues is setFields, and whereFields with dotted.
func (p *parser) fieldValues(n *yaml.Node, field string, ops []*opInfo, status int, dotted bool) []member {
	kv, ok := p.pairs(n, field)
	if !ok {
		return nil
	}
	if len(kv) == 0 {
		p.fail(n, field, "empty: name the fields to change")
		return nil
	}
	out := make([]member, 0, len(kv))
	for _, pair := range kv {
		name, fld := pair[0].Value, join(field, pair[0].Value)
		raw, err := spec.NodeJSON(pair[1])
		if err == nil {
			raw, err = fastapi.AppendCompact(nil, raw)
		}
		if err != nil {
			p.fail(pair[1], fld, "cannot be written as JSON: %v", err)
			return nil
		}
		var v any
		json.Unmarshal(raw, &v)
		var path []string
		for _, o := range ops {
			answer, _ := changedSchema(o, status)
			schema := objectSchema(answer)
			if schema == nil && silentBody(o, status) {
				continue // the document says nothing of this answer's body
			}
			if schema == nil {
				p.fail(pair[0], fld, "%s answers %d with no JSON object to change", o, status)
				return nil
			}
			prop := schema.Properties[name]
			if (prop == nil || prop.Value == nil) && dotted && strings.Contains(name, ".") {
				var why string
				if prop, why = p.fieldPath(objectRef(answer), name); prop == nil {
					p.fail(pair[0], fld, "the answer of %s has no field %q: %s", o, name, why)
					return nil
				}
				path = strings.Split(name, ".")
			}
			if prop == nil || prop.Value == nil {
				p.fail(pair[0], fld, "the answer of %s has no field %q (it has %s)", o, name, strings.Join(p.sp.PropertyOrder(objectRef(answer)), ", "))
				return nil
			}
			if viols := spec.Violations(p.sp.Validate(prop.Value, v, true)); len(viols) > 0 {
				p.fail(pair[1], fld, "%s", viols[0])
				return nil
			}
		}
		out = append(out, member{name: name, value: raw, path: path})
	}
	return out
}

// fieldPath is the schema of the dotted field path (author.following)
// in the records of the schema ref, each name a property of the object
// schema the one before it holds; nil, and why, when one is not.
func (p *parser) fieldPath(ref *openapi3.SchemaRef, path string) (*openapi3.SchemaRef, string) {
	names := strings.Split(path, ".")
	for i, name := range names {
		var props []string
		if ref != nil && ref.Value != nil {
			props = p.sp.PropertyOrder(ref)
		}
		at := "the record"
		if i > 0 {
			at = strings.Join(names[:i], ".")
		}
		if len(props) == 0 {
			return nil, fmt.Sprintf("%s is not an object of declared properties", at)
		}
		next := ref.Value.Properties[name]
		if next == nil || next.Value == nil {
			return nil, fmt.Sprintf("%s has no property %q (it has %s)", at, name, strings.Join(props, ", "))
		}
		ref = next
	}
	return ref, ""
}

// silentBody reports whether op declares its answer of status with no
// content (Unauthorized: {content: {}}): the body the mock writes (its
// refusal) is not the document's, so a rule's if_status with set gives
// that answer's whole body, any fields, as the app words it (RealWorld's
// {"errors": {…}} on a wrong login; Passthrough.Whole).
func silentBody(op *opInfo, status int) bool {
	resp := op.op.Responses.Status(status)
	return status != http.StatusOK && resp != nil && resp.Value != nil && len(resp.Value.Content) == 0
}

// objectRef is ref, or its items when it is a list.
func objectRef(ref *openapi3.SchemaRef) *openapi3.SchemaRef {
	if ref != nil && ref.Value != nil && ref.Value.Type.Is("array") && ref.Value.Items != nil {
		return ref.Value.Items
	}
	return ref
}

func objectSchema(ref *openapi3.SchemaRef) *openapi3.Schema {
	ref = objectRef(ref)
	if ref == nil || ref.Value == nil || len(ref.Value.Properties) == 0 {
		return nil
	}
	return ref.Value
}

func isList(ref *openapi3.SchemaRef) bool {
	return ref != nil && ref.Value != nil && ref.Value.Type.Is("array")
}

func (p *parser) passthrough(n *yaml.Node, ops []*opInfo, offSpec bool) *Passthrough {
	pt := &Passthrough{}
	if n.Kind == yaml.ScalarNode {
		if b, ok := p.boolean(n, "passthrough"); ok && !b {
			p.fail(n, "passthrough", "false means nothing: leave passthrough out")
		}
		return pt
	}
	f, _ := p.fields(n, "passthrough", "if_status", "status", "headers", "set", "where", "order", "offset", "limit")
	if f == nil {
		return nil
	}
	changing := http.StatusOK // the status of the answers set changes
	if v := f["if_status"]; v != nil {
		if pt.IfStatus, _ = p.integer(v, "passthrough.if_status", 200, 599); pt.IfStatus == 0 {
			return nil
		}
		changing = pt.IfStatus
		for _, k := range []string{"where", "order", "offset", "limit"} {
			if f[k] != nil {
				p.fail(f[k], "passthrough."+k, "changes a list; with if_status the rule rewords an answer of status %d, so drop %s", pt.IfStatus, k)
				return nil
			}
		}
	}
	if v := f["status"]; v != nil {
		if pt.Status, _ = p.integer(v, "passthrough.status", 200, 599); pt.Status != 0 && !offSpec && !refusalMoved(ops, pt.IfStatus, pt.Status) {
			p.fail(v, "passthrough.status", "the normal answer under another status breaks the contract; set off_spec: true if the rule means to")
		}
	}
	if v := f["headers"]; v != nil {
		pt.Headers = p.headers(v, "passthrough.headers")
	}
	for i, o := range ops {
		_, env := changedSchema(o, changing) // an envelope holds a 200's records only
		if i > 0 && env != pt.Envelope {
			p.fail(n, "passthrough", "%s and %s hold their records in different members (%q, %q): match one method", ops[0], o, pt.Envelope, env)
			return nil
		}
		pt.Envelope = env
	}
	if v := f["set"]; v != nil {
		if pt.IfStatus != 0 && refusalMoved(ops, pt.IfStatus, pt.IfStatus) {
			pt.Set = p.detailFields(v, "passthrough.set")
		} else {
			pt.Set = p.setFields(v, "passthrough.set", ops, changing)
			pt.Whole = pt.IfStatus != 0 && len(ops) > 0
			for _, o := range ops {
				pt.Whole = pt.Whole && silentBody(o, pt.IfStatus)
			}
		}
	}
	if v := f["where"]; v != nil {
		pt.Where = p.whereFields(v, "passthrough.where", ops)
		pt.paging = listPagingOf(ops)
	}
	if v := f["order"]; v != nil {
		pt.Order, _ = p.str(v, "passthrough.order")
		name := strings.TrimPrefix(pt.Order, "-")
		for _, o := range ops {
			answer, _ := changedSchema(o, http.StatusOK)
			if schema := objectSchema(answer); isList(answer) && (schema == nil || schema.Properties[name] == nil) {
				p.fail(v, "passthrough.order", "the elements of %s's answer have no field %q", o, name)
				return nil
			}
		}
		pt.paging = listPagingOf(ops)
	}
	for _, k := range []string{"where", "order", "offset", "limit"} {
		v := f[k]
		if v == nil {
			continue
		}
		for _, o := range ops {
			if answer, _ := changedSchema(o, http.StatusOK); !isList(answer) {
				p.fail(v, "passthrough."+k, "%s does not answer with a list", o)
				return nil
			}
		}
	}
	if v := f["offset"]; v != nil {
		pt.Offset, _ = p.integer(v, "passthrough.offset", 0, 1<<30)
	}
	if v := f["limit"]; v != nil {
		pt.Limit, _ = p.integer(v, "passthrough.limit", 0, 1<<30)
		if pt.Limit == 0 {
			pt.Limit = -1 // an explicit 0: an empty list
		}
	}
	return pt
}

// refusalMoved reports whether an answer of status from, which none of ops
// declares, can be sent as status to: both are statuses FastAPI answers
// by itself with an HTTPException body ({"detail": …}), and to is not
// declared with a body of its own either. An app answering 400 where the
// mock's convention answers 401 stays within the contract.
func refusalMoved(ops []*opInfo, from, to int) bool {
	if from == 0 || !slices.Contains(fastapi.FrameworkStatuses, from) || !slices.Contains(fastapi.FrameworkStatuses, to) {
		return false
	}
	for _, o := range ops {
		if o.op.Responses.Status(from) != nil || o.op.Responses.Status(to) != nil {
			return false
		}
	}
	return true
}

// detailFields reads the fields set in an HTTPException body: its detail
// alone.
func (p *parser) detailFields(n *yaml.Node, field string) []member {
	kv, ok := p.pairs(n, field)
	if !ok {
		return nil
	}
	if len(kv) != 1 || kv[0][0].Value != "detail" {
		p.fail(n, field, `FastAPI's HTTPException body has one field, detail: set {detail: …}`)
		return nil
	}
	raw, err := spec.NodeJSON(kv[0][1])
	if err == nil {
		raw, err = fastapi.AppendCompact(nil, raw)
	}
	if err != nil {
		p.fail(kv[0][1], join(field, "detail"), "cannot be written as JSON: %v", err)
		return nil
	}
	return []member{{name: "detail", value: raw}}
}

func (p *parser) fault(n *yaml.Node) *Fault {
	ft := &Fault{Bytes: -1, Chunk: 16, Interval: 100 * time.Millisecond}
	if n.Kind == yaml.ScalarNode {
		ft.Kind, _ = p.str(n, "fault")
	} else {
		f, _ := p.fields(n, "fault", "kind", "bytes", "chunk", "interval", "for")
		if f == nil {
			return nil
		}
		if f["kind"] == nil {
			p.fail(n, "fault.kind", "missing (one of %s)", strings.Join(faultKinds, ", "))
			return nil
		}
		ft.Kind, _ = p.str(f["kind"], "fault.kind")
		allowed := map[string][]string{FaultTruncate: {"bytes"}, FaultTrickle: {"chunk", "interval"}, FaultHang: {"for"}}[ft.Kind]
		for _, k := range []string{"bytes", "chunk", "interval", "for"} {
			if f[k] != nil && !slices.Contains(allowed, k) {
				p.fail(f[k], "fault."+k, "does not apply to fault %s", ft.Kind)
			}
		}
		if v := f["bytes"]; v != nil {
			ft.Bytes, _ = p.integer(v, "fault.bytes", 0, 1<<30)
		}
		if v := f["chunk"]; v != nil {
			ft.Chunk, _ = p.integer(v, "fault.chunk", 1, 1<<20)
		}
		if v := f["interval"]; v != nil {
			ft.Interval, _ = p.duration(v, "fault.interval")
		}
		if v := f["for"]; v != nil {
			ft.For, _ = p.duration(v, "fault.for")
		}
	}
	if ft.Kind != "" && !slices.Contains(faultKinds, ft.Kind) {
		p.fail(n, "fault", "unknown fault %q (one of %s)", ft.Kind, strings.Join(faultKinds, ", "))
		return nil
	}
	return ft
}
