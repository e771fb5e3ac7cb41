package compare

import (
	"fmt"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/oasdiff/checker"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/openapiprofile"
	"github.com/moviemock/moviemock/internal/spec"
)

// finding is one of oasdiff's changes while it is read.
type finding struct {
	Change
	engineID string
	args     []any
	comment  string

	side             string // "request", "response" or ""
	status, media    string
	paramIn          string
	paramName        string
	prop             string // oasdiff's property path, "" the body itself
	hasProp          bool   // the finding is about a body or a field in it
	dropped, claimed bool
	places           places // shared by the findings of one comparison
}

// The ids this package gives to oasdiff's findings it reads again.
const (
	IDResponsePropertyNullable    = "response-property-became-nullable"
	IDResponsePropertyNotNullable = "response-property-became-not-nullable"
	IDResponseBodyNullable        = "response-body-became-nullable"
	IDResponseBodyNotNullable     = "response-body-became-not-nullable"
	IDRequestPropertyNullable     = "request-property-became-nullable"
	IDRequestPropertyNotNullable  = "request-property-became-not-nullable"
	IDRequestBodyNullable         = "request-body-became-nullable"
	IDRequestBodyNotNullable      = "request-body-became-not-nullable"
)

// Rule is one way diff reads oasdiff's findings again. Profile says for
// which documents: FastAPI's habits (framework.FastAPI) hold only where
// the document is FastAPI's, the document's own words (framework.OpenAPI)
// everywhere else, and "" for both.
type Rule struct {
	Name    string
	Profile framework.Name
	About   string
}

// Rules describe how oasdiff's findings are read, as diff --help and
// docs/contract-changes.md list them.
var Rules = []Rule{
	{"no-version-policy", "", "oasdiff's versioning-policy findings (api-version-not-bumped and the like) judge the document's info.version, which no client sees: left out"},
	{"optional-read-through", "", "an Optional of an inline schema (anyOf [T, {type: null}], FastAPI's `X | None`) is compared as T made nullable, so the constraints inside it (maxLength, pattern, minimum/maximum, enum, format, type) count as T's own: a parameter `q: str | None` that gains max_length=50 is breaking; an Optional of a model ($ref) is compared through its component"},
	{"made-nullable", "", "null (anyOf [T, {type: null}], or nullable: true) added to or taken from a field or a body is one change, \"became nullable\", not oasdiff's type change, anyOf added and fields below removed: breaking in a response, info in a request (and the reverse)"},
	{"sent-although-optional", framework.FastAPI, "FastAPI serializes every field of a response model, a field with a default too (it is only left out of `required`): removing such a field is breaking, and a field that only leaves `required` is still sent (info)"},
	{"optional-may-be-absent", framework.OpenAPI, "a response field out of `required` may be left out, as the document says: removing it is a warning (a careful client handles its absence, but what it showed is gone), and a field that leaves `required` is breaking (a client may now miss it)"},
	{"operation-gone", "", "an operation removed is breaking whatever its deprecation: a client that still calls it fails (FastAPI answers 404, or 405 when the path remains for other methods)"},
	{"operation-id", "", "an operationId changed renames the function of a client generated from the document: a warning"},
	{"enum-widened-in-response", "", "a new enum value in a response: a warning, for clients that handle only the values they knew"},
	{"null-in-parameters", "", "null added to or taken from a parameter's schema (FastAPI's `q: str | None = None`) is info: a parameter is text on the wire, never JSON null"},
	{"security-is-all-required", framework.FastAPI, "FastAPI runs every security dependency of a route, so an operation's security schemes are all required, not the alternatives OpenAPI reads: a scheme added is breaking, one removed is info"},
	{"security-alternatives", framework.OpenAPI, "an operation's security requirements are alternatives, as OpenAPI reads them (oasdiff's levels): one added is info, one removed is breaking for the clients that used it"},
	{"type-replaced", "", "an object field (or body) that became another type, or another type that became an object (a list wrapped in a page), is one change: the fields below it, which oasdiff reports removed or added one by one, go with it"},
	{"lax-widening", framework.FastAPI, "a request type or format pydantic fills from every value of the old one (integer to number, date to date-time) accepts every request it did: info"},
	{"types-listed", "", "a type generalized inside an Optional (anyOf [T, null]), which oasdiff also reports as the list of types widened or narrowed, is one change"},
	{"parameter-ignored", framework.FastAPI, "a query, header or cookie parameter removed is breaking whatever its deprecation: FastAPI ignores a parameter it does not declare, so a call that still sends it gets a wrong answer without an error"},
	{"default-changed", "", "a request parameter's or field's default changed is a warning: a call that leaves it out gets another answer, silently"},
	{"parameter-removed", framework.OpenAPI, "a query, header or cookie parameter removed is a warning (oasdiff's level): the document no longer says what the server does with it, so a call that still sends it may get an answer as if it had not"},
	{"renamed-parameter", "", "a parameter removed and another added in the same place of one operation are told as a possible rename"},
}

// reading is how one comparison reads the findings: by FastAPI's habits
// where the documents are FastAPI's, else by their own words; new is the
// NEW document, whose operations say how they refuse a request.
type reading struct {
	fastapi bool
	new     *spec.Spec
}

// refused is how a request of f's operation that the change makes invalid
// is refused: FastAPI's 422, else the status the NEW operation declares for
// invalid input (400 or 422), else a 4xx.
func (rd reading) refused(f *finding) string {
	if rd.fastapi {
		return "refused with 422"
	}
	var op *openapi3.Operation
	if rd.new != nil && rd.new.Doc.Paths != nil {
		if item := rd.new.Doc.Paths.Value(f.Path); item != nil {
			op = item.GetOperation(f.Method)
		}
	}
	if op != nil && op.Responses != nil && (op.Responses.Value("400") != nil || op.Responses.Value("422") != nil) {
		return fmt.Sprintf("refused with %d", openapiprofile.BadInputStatus(op))
	}
	return "refused (a 4xx)"
}

// optional names anyOf [T, null] for a change's text: FastAPI's Optional
// in its documents, the schema's own words in others.
func (rd reading) optional(tn string) string {
	if rd.fastapi {
		return fmt.Sprintf("FastAPI's Optional: anyOf [%s, null]", tn)
	}
	return fmt.Sprintf("anyOf [%s, null]", tn)
}

// versionPolicy are oasdiff's findings about info.version, which no client
// sees.
var versionPolicy = []string{"api-version-not-bumped", "api-version-decreased", "api-major-version-not-bumped"}

func levelOf(l checker.Level) Level {
	switch {
	case l >= checker.ERR:
		return Breaking
	case l == checker.WARN:
		return Warning
	}
	return Info
}

// read turns oasdiff's findings into changes, read by the profile fw:
// FastAPI's habits, or the documents' own words. It returns how many
// findings were dropped as invisible to clients.
func read(found checker.Changes, old, new *spec.Spec, fw framework.Name) ([]Change, int) {
	rd := reading{fastapi: fw == framework.FastAPI, new: new}
	loc := checker.NewDefaultLocalizer()
	fs := make([]*finding, 0, len(found))
	ps := places{}
	for _, c := range found {
		f := &finding{engineID: c.GetId(), args: c.GetArgs(), comment: c.GetComment(loc), places: ps}
		f.ID = c.GetId()
		f.Level = levelOf(c.GetLevel())
		f.Method, f.Path = c.GetOperation(), c.GetPath()
		f.Text = c.GetUncolorizedText(loc)
		f.locate()
		fs = append(fs, f)
	}
	dropped := 0
	for _, f := range fs {
		if slices.Contains(versionPolicy, f.ID) {
			f.dropped = true
			dropped++
		}
	}
	fs = append(fs, madeNullable(fs, old, new, rd)...)
	typeReplaced(fs, old, new)
	typesListed(fs, new)
	for _, f := range fs {
		if f.dropped || f.claimed {
			continue
		}
		if f.Where == "" {
			f.Where = f.where(old, new)
		}
		rd.reread(f)
	}
	rd.renamedParameters(fs)
	statusReplaced(fs)
	var out []Change
	for _, f := range fs {
		if f.dropped || f.claimed {
			continue
		}
		if f.Why == "" {
			f.Why = rd.why(f)
		}
		c := f.Change
		c.at = place{side: f.side, status: f.status, paramIn: f.paramIn, param: f.paramName, prop: f.prop, hasProp: f.hasProp}
		if _, field, ok := strings.Cut(c.Where, ": "); ok {
			c.at.field = contract.Safe(field)
		}
		c.at.hitRule(c.ID)
		// What a document says reaches a terminal and a page: no control
		// character drives either.
		for _, s := range []*string{&c.ID, &c.Method, &c.Path, &c.Where, &c.Why, &c.Text} {
			*s = contract.Safe(*s)
		}
		// A place deep in a chain of schemas is told in a bounded length:
		// its repeated names counted (c.at keeps it whole, for the calls).
		c.Where, c.Text = squeeze(c.Where), squeeze(c.Text)
		out = append(out, c)
	}
	return out, dropped
}

// wrapArtifact reports whether oasdiff's id, found at the place where a
// schema gained or lost FastAPI's nullable wrapper, is only that wrapper
// seen as a change of type, of anyOf, or of nullability.
func wrapArtifact(id string) bool {
	for _, part := range []string{"list-of-types", "type-changed", "type-generalized", "type-specialized", "any-of", "one-of", "nullable"} {
		if strings.Contains(id, part) {
			return true
		}
	}
	return false
}

// fieldArtifact reports whether oasdiff's id, found below a schema that
// gained or lost the nullable wrapper, is the wrapper seen as the fields
// of the schema removed or added.
func fieldArtifact(id string) bool {
	return strings.HasSuffix(id, "property-removed") || strings.HasSuffix(id, "property-added")
}

// madeNullable is the made-nullable rule: where a field or a body gained
// or lost nullability and is otherwise the same type, one change says so,
// and oasdiff's findings that only saw the wrapper are claimed by it.
func madeNullable(fs []*finding, old, new *spec.Spec, rd reading) []*finding {
	type place struct{ method, path, side, status, media, prop string }
	seen := map[place]bool{}
	var out []*finding
	for _, f := range fs {
		if f.dropped || !f.hasProp || f.side == "" {
			continue
		}
		p := place{f.Method, f.Path, f.side, f.status, f.media, f.prop}
		if seen[p] {
			continue
		}
		seen[p] = true
		o, oname, ok1 := f.schemaAt(old, f.prop)
		n, _, ok2 := f.schemaAt(new, f.prop)
		if !ok1 || !ok2 || nullable(o) == nullable(n) || !sameCore(o, n) {
			continue
		}
		made := nullable(n)
		var claimed []*finding
		for _, g := range fs {
			if g.dropped || g.claimed || !g.hasProp || g.Method != f.Method || g.Path != f.Path || g.side != f.side || g.status != f.status {
				continue
			}
			switch {
			case g.prop == f.prop && (wrapArtifact(g.ID) || made && g.side == "response" && g.ID == "response-property-became-optional"):
			case isUnder(g.prop, f.prop) && fieldArtifact(g.ID):
				// Only a field the wrapped schema still has (or had).
				if _, _, ok := g.schemaAt(old, g.prop); !ok {
					continue
				}
				if _, _, ok := g.schemaAt(new, g.prop); !ok {
					continue
				}
			default:
				continue
			}
			claimed = append(claimed, g)
		}
		if len(claimed) == 0 {
			continue
		}
		c := &finding{side: f.side, status: f.status, media: f.media, prop: f.prop, hasProp: true, places: f.places}
		c.Method, c.Path = f.Method, f.Path
		c.Where = f.where(old, new)
		for _, g := range claimed {
			g.claimed = true
			c.Engine = appendNew(c.Engine, g.ID)
		}
		what := "the " + f.bodyName()
		if f.prop != "" {
			what = "the " + f.side + " field " + oname
		}
		tn := typeName(core(o))
		body := f.prop == ""
		switch {
		case f.side == "response" && made:
			c.ID, c.Level = pick(body, IDResponseBodyNullable, IDResponsePropertyNullable), Breaking
			c.Text = fmt.Sprintf("%s became nullable (%s)", what, rd.optional(tn))
			c.Why = fmt.Sprintf("it may now be null: a client that expects %s there, without a null check, fails on it", tn)
		case f.side == "response":
			c.ID, c.Level = pick(body, IDResponseBodyNotNullable, IDResponsePropertyNotNullable), Info
			c.Text = fmt.Sprintf("%s is no longer nullable (was anyOf [%s, null])", what, tn)
			c.Why = "it is never null now: a client's null check is only unused"
		case made:
			c.ID, c.Level = pick(body, IDRequestBodyNullable, IDRequestPropertyNullable), Info
			c.Text = fmt.Sprintf("%s became nullable (%s)", what, rd.optional(tn))
			c.Why = "it now also accepts null: every request valid before still is"
		default:
			c.ID, c.Level = pick(body, IDRequestBodyNotNullable, IDRequestPropertyNotNullable), Breaking
			c.Text = fmt.Sprintf("%s is no longer nullable (was anyOf [%s, null])", what, tn)
			c.Why = "a request that sends null for it, valid before, is now " + rd.refused(f)
		}
		if f.status != "" && f.side == "response" && !body {
			c.Text += " for the status " + f.status
		}
		out = append(out, c)
	}
	return out
}

// pick is yes when cond holds, else no.
func pick(cond bool, yes, no string) string {
	if cond {
		return yes
	}
	return no
}

// isUnder reports whether the oasdiff property path p is below q ("" the
// body itself).
func isUnder(p, q string) bool {
	if q == "" {
		return p != ""
	}
	return strings.HasPrefix(p, q+"/")
}

// typeReplaced is the type-replaced rule: where an object field (or body)
// became another type, oasdiff also reports each field below it removed,
// and where another type became an object (a list wrapped in a page
// object), each field below it added; they are told once, with the type
// change.
func typeReplaced(fs []*finding, old, new *spec.Spec) {
	for _, f := range fs {
		if f.dropped || f.claimed || !f.hasProp || !strings.HasSuffix(f.ID, "type-changed") {
			continue
		}
		o, _, ok1 := f.schemaAt(old, f.prop)
		n, _, ok2 := f.schemaAt(new, f.prop)
		if !ok1 || !ok2 || isObject(core(o)) == isObject(core(n)) {
			continue
		}
		suffix, gone := "property-added", "now in it"
		if isObject(core(o)) {
			suffix, gone = "property-removed", "gone with it"
		}
		n2 := 0
		for _, g := range fs {
			if g.dropped || g.claimed || g == f || !g.hasProp || g.Method != f.Method || g.Path != f.Path || g.side != f.side || g.status != f.status ||
				!isUnder(g.prop, f.prop) || !strings.HasSuffix(g.ID, suffix) {
				continue
			}
			g.claimed = true
			n2++
			f.Engine = appendNew(f.Engine, g.ID)
		}
		if n2 > 0 {
			f.Engine = appendNew(f.Engine, f.ID)
			f.Text += fmt.Sprintf(" (and the %d %s below it, %s)", n2, plural(n2, "field", "fields"), gone)
		}
	}
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// isObject reports whether ref is an object with properties.
func isObject(ref *openapi3.SchemaRef) bool {
	return ref != nil && ref.Value != nil && (ref.Value.Type.Is("object") || len(ref.Value.Properties) > 0)
}

// typesListed is the types-listed rule: oasdiff reports a type changed
// inside FastAPI's Optional both as the type generalized and as the list
// of types changed ("narrowed by removing integer" where integer became
// number); the list's finding is the generalization seen again, and is
// told by it.
func typesListed(fs []*finding, new *spec.Spec) {
	for _, f := range fs {
		if f.dropped || f.claimed || !f.hasProp || !strings.Contains(f.ID, "list-of-types") {
			continue
		}
		types := listedTypes(f)
		if types != "integer" && types != "number" {
			continue
		}
		for _, g := range fs {
			if g != f && !g.dropped && !g.claimed && strings.Contains(g.ID, "type-generalized") && g.Method == f.Method && g.Path == f.Path &&
				g.side == f.side && g.status == f.status && withoutAlternatives(g.prop) == withoutAlternatives(f.prop) {
				f.claimed = true
				g.Engine = appendNew(appendNew(g.Engine, g.ID), f.ID)
				break
			}
		}
	}
}

// listedTypes is the types a list-of-types finding added or removed, as
// oasdiff lists them ("integer", "integer, string").
func listedTypes(f *finding) string {
	roles := templateRoles(f.engineID)
	for i, a := range f.args {
		if i < len(roles) && roles[i] == roleNone {
			return argString(a)
		}
	}
	return ""
}

// withoutAlternatives is an oasdiff property path without its steps into
// an alternative ("runtime/anyOf[subschema #1]" is "runtime").
func withoutAlternatives(prop string) string {
	var keep []string
	for _, seg := range splitPath(prop) {
		if !alternative.MatchString(seg) {
			keep = append(keep, seg)
		}
	}
	return strings.Join(keep, "/")
}

// laxWidening reports whether a request finding changes a type or format
// to one that accepts every value of the old one: an integer is a number
// in JSON Schema, and in FastAPI's documents pydantic's lax mode also
// fills a datetime from a date (run for real: pydantic 2.13.4 takes
// "2024-01-02" for a datetime as midnight), which JSON Schema's date-time
// refuses.
func (rd reading) laxWidening(f *finding) bool {
	if f.side != "request" || !strings.Contains(f.ID, "type-changed") {
		return false
	}
	what, from, to, ok := changedFromTo(f)
	return ok && (what == "type" && from == "integer" && to == "number" || rd.fastapi && what == "format" && from == "date" && to == "date-time")
}

// changedFromTo is a type-changed finding's change: "type" or "format",
// from what, to what.
func changedFromTo(f *finding) (what, from, to string, ok bool) {
	for i := 0; i+2 < len(f.args); i++ {
		if w := argString(f.args[i]); w == "type" || w == "format" {
			return w, argString(f.args[i+1]), argString(f.args[i+2]), true
		}
	}
	return "", "", "", false
}

// nullInParameter reports whether a finding is about null in a parameter's
// schema: FastAPI writes `q: str | None = None` as anyOf [string, null],
// but a parameter is text on the wire and never JSON null.
func nullInParameter(f *finding) bool {
	if f.paramName == "" {
		return false
	}
	if strings.Contains(f.ID, "nullable") {
		return true
	}
	return strings.Contains(f.ID, "list-of-types") && slices.ContainsFunc(f.args, func(a any) bool { return argString(a) == "null" })
}

// reread applies the rules that judge a single finding again. Where a
// FastAPI backend does more than its document says, the FastAPI reading
// tells what it does; any other document is read by its own words.
func (rd reading) reread(f *finding) {
	fa := rd.fastapi
	switch id := f.ID; {
	case nullInParameter(f):
		f.Level = Info
		f.Why = "a parameter is text on the wire, never JSON null: " + pick(fa, "FastAPI's `X | None` on a parameter", "null in its schema") + " only says it may be left out, which its `required` tells"
	case rd.laxWidening(f):
		f.Level = Info
		f.Why = pick(fa, "pydantic fills the new type from every value of the old one (an integer is a float, a date a datetime at midnight)", "every integer is a number") + ": every request valid before still is"
	case parameterRemoved(id) && f.paramIn != "path":
		f.Level = Warning
		if fa {
			f.Level = Breaking
		}
		f.Why = rd.unsentParameter(f)
	case id == "request-parameter-default-value-changed" || id == "request-property-default-value-changed":
		f.Level = Warning
		f.Why = "a call that leaves it out now gets what the new default does (a shorter page, another order), silently"
	case id == "api-security-added" && fa:
		f.Level = Breaking
		f.Why = "FastAPI runs every security dependency of a route, so the document's list of schemes is all required, not alternatives: a call without this one's credentials is refused (401 or 403), unless its dependency is optional (auto_error=False), which the document does not tell"
	case id == "api-security-added":
		f.Why = "the operation's security requirements are alternatives: this one is another way in, and a client that sends the credentials it did still passes"
	case id == "api-security-removed" && fa:
		f.Level = Info
		f.Why = "FastAPI no longer asks for this scheme's credentials on the route (the others it runs are unchanged): a client that sends them is unaffected"
	case id == "api-security-removed":
		f.Why = "the operation's security requirements are alternatives: a client that authenticated this way is refused now (401 or 403)"
	case id == "response-optional-property-removed" && fa:
		f.Level = Breaking
		f.Why = "FastAPI sends every field of a response model, one with a default too (it is only left out of `required`): a client that reads it now finds nothing"
	case id == "response-optional-property-removed":
		f.Level = Warning
		f.Why = "the document never promised it (it is not in `required`), so a careful client handles its absence, but what it showed from it is gone"
	case id == "response-property-became-optional" && fa:
		f.Level = Info
		f.Why = "FastAPI still sends the field in every answer (its default when unset): it left `required` only because it now has a default"
	case id == "response-property-became-optional":
		f.Level = Breaking
		f.Why = "the document no longer promises it: a client that reads it without checking that it is there may find nothing"
	case strings.HasPrefix(id, "api-removed-") || strings.HasPrefix(id, "api-path-removed-"):
		f.Level = Breaking
		if rd.new.Doc.Paths != nil && rd.new.Doc.Paths.Value(f.Path) != nil {
			f.Why = "the operation is gone while its path remains: " + pick(fa, "FastAPI answers its calls 405 Method Not Allowed", "a client that still calls it is refused (commonly 405 Method Not Allowed)")
		} else {
			f.Why = "the operation is gone: " + pick(fa, "FastAPI answers its calls 404 Not Found", "a client that still calls it is refused (commonly 404 Not Found)")
		}
	case id == "api-operation-id-removed" || id == "api-operation-id-updated":
		f.Level = Warning
		f.Why = "a client generated from the document (openapi-generator, orval, openapi-ts) names this function after the operationId" + pick(fa, ", which FastAPI derives from the route's function", "") + ": code calling the old name breaks when the client is regenerated"
	case strings.HasSuffix(id, "enum-value-added") && f.side == "response":
		f.Level = Warning
		f.Why = "a client that handles only the values listed before meets one it does not know"
	}
}

// unsentParameter is why a query, header or cookie parameter removed hurts
// a call that still sends it.
func (rd reading) unsentParameter(f *finding) string {
	if rd.fastapi {
		return fmt.Sprintf("FastAPI ignores a %s parameter it does not declare: a call that still sends %s gets an answer as if it had not, a wrong answer without an error", f.paramIn, f.paramName)
	}
	return fmt.Sprintf("the document no longer says what the server does with a %s parameter %s: a call that still sends it may get an answer as if it had not, silently", f.paramIn, f.paramName)
}

// parameterRemoved reports whether id is oasdiff's finding of a request
// parameter removed. Its deprecation (-with-deprecation, info for oasdiff)
// told clients to stop sending it, not that FastAPI refuses it: a call
// that still does gets an answer as if it had not, as for any other.
func parameterRemoved(id string) bool {
	return id == "request-parameter-removed" || id == "request-parameter-removed-with-deprecation"
}

// renamedParameters tells a parameter removed and another added in the
// same place of one operation as a possible rename, on both findings.
func (rd reading) renamedParameters(fs []*finding) {
	for _, rm := range fs {
		if rm.dropped || rm.claimed || !parameterRemoved(rm.ID) {
			continue
		}
		for _, add := range fs {
			if add.dropped || add.claimed || add.Method != rm.Method || add.Path != rm.Path || add.paramIn != rm.paramIn ||
				!strings.HasPrefix(add.ID, "new-") || !strings.HasSuffix(add.ID, "request-parameter") {
				continue
			}
			rm.Why = fmt.Sprintf("renamed to %s? %s", add.paramName, rd.unsentParameter(rm))
			if add.Why == "" && add.Level < Breaking {
				add.Why = fmt.Sprintf("renamed from %s? A client must send the new name to keep what %s did", rm.paramName, rm.paramName)
			}
			break
		}
	}
}

// statusReplaced tells a success status removed and another added in one
// operation (FastAPI's status_code=201 where it was 200) as the answer's
// new status.
func statusReplaced(fs []*finding) {
	for _, rm := range fs {
		if rm.dropped || rm.claimed || rm.ID != "response-success-status-removed" {
			continue
		}
		var added []string
		for _, add := range fs {
			if !add.dropped && !add.claimed && add.ID == "response-success-status-added" && add.Method == rm.Method && add.Path == rm.Path {
				added = append(added, add.status)
			}
		}
		if len(added) > 0 {
			rm.Why = fmt.Sprintf("the answer is now %s: a client that checks for the status %s treats every answer as a failure", strings.Join(added, " or "), rm.status)
		}
	}
}

// why is the default reason of a finding no rule judged: by its id, else
// its family and level.
func (rd reading) why(f *finding) string {
	switch id := f.ID; {
	case id == "response-success-status-removed":
		return fmt.Sprintf("a client that checks for the status %s treats every answer as a failure", f.status)
	case id == "response-required-property-removed":
		return "a client that reads the field now finds nothing"
	case strings.Contains(id, "security") && f.Level == Breaking:
		return "calls without the credentials now required are refused (401 or 403)" + pick(rd.fastapi, " by FastAPI's security dependency", "")
	case id == "new-required-request-property":
		return "a request body without it, valid before, is now " + rd.refused(f) + " naming the missing field"
	case id == "new-required-request-parameter" || id == "request-parameter-became-required":
		return "a call without it, valid before, is now " + rd.refused(f) + " naming the missing parameter"
	case parameterRemoved(id) && rd.fastapi:
		return fmt.Sprintf("FastAPI ignores a %s parameter it does not declare: a call that still sends it gets the default behaviour, silently", f.paramIn)
	case parameterRemoved(id):
		return rd.unsentParameter(f)
	case id == "request-property-removed" && rd.fastapi:
		return "FastAPI ignores a body field the model does not declare (unless it forbids extra fields): a client that still sends it has it dropped, silently"
	case id == "request-property-removed":
		return "the document no longer declares it: a client that still sends it has it dropped silently, or its request refused where the body allows no other fields"
	case strings.HasSuffix(id, "enum-value-removed") && f.side == "request":
		return "a request with the removed value, valid before, is now " + rd.refused(f)
	case strings.Contains(id, "type-changed") && f.side == "response":
		if what, from, to, ok := changedFromTo(f); ok {
			if what == "format" {
				return fmt.Sprintf("a client that expects the format %s there gets %s", from, to)
			}
			return fmt.Sprintf("a client that expects %s there gets %s", from, to)
		}
		return "a client that parses it as its old type fails on the new one"
	case strings.Contains(id, "type-generalized") && f.side == "response":
		return "a client that parses it as its old, narrower type may fail on a value of the wider one"
	}
	switch f.Level {
	case Breaking:
		switch {
		case f.paramName != "":
			return "a call valid before may now be " + rd.refused(f)
		case f.side == "request":
			return "a request body valid before may now be " + rd.refused(f)
		case f.side == "response":
			return "a client that reads the answer as the OLD document describes it may fail on what it gets now"
		}
		if f.comment != "" {
			return f.comment
		}
		return "a client that followed the OLD document may fail"
	case Warning:
		if f.comment != "" {
			return f.comment
		}
		return "some clients may be affected"
	}
	return "a client that followed the OLD document is not affected"
}
