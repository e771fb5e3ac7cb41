package contract

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/golang-jwt/jwt/v5"

	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/spec"
)

// CheckResult is one check applied to one case.
type CheckResult struct {
	Check    string `json:"check"`
	Passed   bool   `json:"passed"`
	Expected string `json:"expected,omitempty"`
	Got      string `json:"got,omitempty"`
}

// Result is a case, its response and the checks that applied.
type Result struct {
	Case     *Case         `json:"case"`
	Response Response      `json:"response"`
	Checks   []CheckResult `json:"checks"`
	curl     string        // the reproduction a redacted copy shows
}

// Failed reports whether any check failed.
func (r *Result) Failed() bool {
	return slices.ContainsFunc(r.Checks, func(c CheckResult) bool { return !c.Passed })
}

// check is one named check. apply returns nil when it does not apply to the
// case, else the failure ("" expected and got mean it passed).
type check struct {
	name, about string
	apply       func(x *checkInput) *verdict
}

type verdict struct{ expected, got string }

var pass = &verdict{}

func fail(expected, got string, args ...any) *verdict {
	return &verdict{expected: expected, got: fmt.Sprintf(got, args...)}
}

// checkInput is everything a check may look at. The checks that read the
// body run as the response arrives (observe), with the whole body decoded
// once; list_item_consistency runs after every case (finish) on what
// observe kept, with the body gone but for its excerpt.
type checkInput struct {
	r    *runner
	res  *Result
	json any // the body, decoded, when it is JSON
	// value and decodeErr are the body decoded as JSON whatever its
	// Content-Type, when decoded (a complete, non-empty body).
	value     any
	decodeErr error
	decoded   bool
	// consistency: for a list response, its items with ids read singly,
	// and those single reads by id.
	listed    []listedItem
	itemReads map[string]*itemRead
	now       time.Time
}

func (x *checkInput) resp() *Response { return &x.res.Response }
func (x *checkInput) c() *Case        { return x.res.Case }

// Checks lists every check, in the order reports show them.
var Checks = []check{
	{"not_a_server_error", "the server answers, and never with a 5xx", checkNotServerError},
	{"status_code_conformance", "the status is declared for the operation, or one the framework profile adds (FastAPI's: --framework-statuses)", checkStatus},
	{"content_type_conformance", "the Content-Type is the declared media type (FastAPI's own answers: application/json; other refusals: problem details)", checkContentType},
	{"response_schema_conformance", "the body matches the declared schema for its status", checkSchema},
	{"response_headers_conformance", "declared headers are present and valid; 401 has WWW-Authenticate, 405 has Allow", checkHeaders},
	{"negative_data_rejection", "input the contract rejects is answered with a 4xx", checkNegative},
	{"positive_data_acceptance", "valid input is accepted (2xx), generated valid input never answered as invalid", checkPositive},
	{"validation_error_shape", "FastAPI: a 422 is an HTTPValidationError whose loc names the offending input; else invalid input gets a declared 4xx in its declared schema", checkValidationShape},
	{"jwt_wellformed", "access_token is a JWT with a known alg, exp in the future, signature verified with --jwt-secret", checkJWT},
	{"token_type_bearer", "token_type is \"bearer\", in any case (RFC 6749 §5.1: Bearer, bearer)", checkTokenType},
	{"list_item_consistency", "every listed item equals its single read", checkListConsistency},
	{"unique_ids", "the ids in a list are unique", checkUniqueIDs},
	{"author_consistency", "wherever x_id and x are given, x_id equals x.id (author_id == author.id)", checkIDConsistency},
	{"unknown_id_not_found", "an id no record has is a 404", checkUnknownID},
	{"wrong_credentials_rejected", "a login with wrong credentials is a 401 or 400", checkWrongCredentials},
	{"max_response_time", "every response arrives within --max-response-time", checkResponseTime},
	{"auth_required", "a secured operation without valid credentials is a 401 whose WWW-Authenticate names its scheme (FastAPI: Bearer)", checkAuth},
	{"stateful_create_read", "a created record is answered with the declared status, reads back equal to the create answer, and is in its list, its filtered lists and its parent's list; the list's count moves by one", sequenceCheck},
	{"stateful_update", "a replace (PUT) or update (PATCH of one field) shows on read, keeps the fields not sent, stores a falsy value, and moves updated_at forward; an action (POST /{id}/verb) and its undo (DELETE) show in the record's flag and count", sequenceCheck},
	{"stateful_delete", "a delete answers its declared status (204, no body), then the record reads as 404, is gone from its lists, and the list's count moves back by one", sequenceCheck},
	{"registration_login", "a newly registered account logs in through the login form and is the current user with its token", sequenceCheck},
	{"paging_and_filters", "limit is honoured, skip/offset and page/size pages join up, page objects count right, a filter filters", checkPaging},
}

// Name is the check's name, as --checks takes it.
func (c check) Name() string { return c.name }

// About says what the check requires.
func (c check) About() string { return c.about }

func checkByName(name string) *check {
	for i := range Checks {
		if Checks[i].name == name {
			return &Checks[i]
		}
	}
	if name == requestConformance.name {
		return &requestConformance
	}
	return nil
}

// enabled lists the checks the configuration selects.
func (cfg *Config) enabled() []*check {
	var out []*check
	for i := range Checks {
		c := &Checks[i]
		if (len(cfg.Checks) == 0 || slices.Contains(cfg.Checks, c.name)) && !slices.Contains(cfg.ExcludeChecks, c.name) {
			out = append(out, c)
		}
	}
	return out
}

// check applies the enabled checks to every result: execute applied those
// that read the body as each response arrived; the rest (results nobody
// observed yet, and the checks comparing cases) are applied here. It also
// records the coverage of the run and why it stopped early, if it did.
func (r *runner) check(report *Report, ops []*operation) {
	r.finish(report.Results)
	r.waiveGates(report, ops)
	report.Notes = append(report.Notes, untrustedHostNote(report.Results)...)
	if why := r.robust.discovery; why != "" {
		report.Notes = append(report.Notes, "discovery (ids, a token) stopped early, the cases were still tried: "+why)
	}
	report.Notes = append(report.Notes, explainedNotes(report.Results)...)
	report.Notes = append(report.Notes, r.takenNotes()...)
	if n, why := uncheckedCount(report.Results); n > 0 {
		report.Notes = append(report.Notes, uncheckedNote(n, why))
	}
	report.Stopped = r.robust.stopReason()
	report.Coverage = coverageOf(ops, report.Results)
}

// uncheckedCount counts the results whose body the checks did not read,
// with the first one's reason.
func uncheckedCount(results []*Result) (n int, why string) {
	for _, res := range results {
		if u := res.Response.Unchecked; u != "" {
			if n == 0 {
				why = res.Case.Name + ": " + u
			}
			n++
		}
	}
	return n, why
}

// uncheckedNote says that n responses were not read by the checks on
// bodies, and why the first was not.
func uncheckedNote(n int, why string) string {
	return fmt.Sprintf("%d responses too large for the checks on bodies (response_schema_conformance, validation_error_shape, unique_ids, author_consistency, jwt_wellformed, paging_and_filters), which did not judge them; first, %s", n, why)
}

func isJSON(h http.Header) bool {
	mt, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// answered is true when a status line came back.
func (x *checkInput) answered() bool { return x.resp().Status != 0 }

func statusText(r *Response) string {
	if r.Status == 0 {
		return "no response: " + r.Error
	}
	s := fmt.Sprintf("%d %s", r.Status, http.StatusText(r.Status))
	if body := r.bodyText(); len(body) > 0 {
		// Said apart from the status line: a text body is often the
		// reason phrase again ("503 Service Unavailable").
		s += " with body " + snippet(body)
	}
	return s
}

// snippet is the start of a body, for messages.
func snippet(b []byte) string {
	const max = 200
	if len(b) > max {
		return strconv.Quote(string(b[:max])) + "…"
	}
	return string(b)
}

func checkNotServerError(x *checkInput) *verdict {
	r := x.resp()
	switch {
	case r.Status == 0:
		return fail("a response", "no response: %s", r.Error)
	case r.Error != "":
		return fail("a complete response", "%d, then: %s", r.Status, r.Error)
	case r.Status >= 500:
		return fail("no 5xx", "%s", statusText(r))
	}
	return pass
}

func (x *checkInput) declared() bool {
	op := x.c().op.op
	return op.Responses.Value(strconv.Itoa(x.resp().Status)) != nil || op.Responses.Default() != nil
}

func checkStatus(x *checkInput) *verdict {
	if !x.answered() {
		return nil
	}
	if x.declared() || slices.Contains(x.r.cfg.FrameworkStatuses, x.resp().Status) || untypedRedirect(x.c().op.op, x.resp()) ||
		notAuthenticated403(x.c().op, x.resp()) {
		return pass
	}
	if x.r.openAPI() && x.openAPIStatus() {
		return pass
	}
	if why := explainedRefusal(x.res); why != "" {
		return nil // a note says so (explainedNotes)
	}
	var declared []string
	for code := range x.c().op.op.Responses.Map() {
		declared = append(declared, code)
	}
	slices.Sort(declared)
	return fail(fmt.Sprintf("a declared status (%s) or one of %v", strings.Join(declared, ", "), x.r.cfg.FrameworkStatuses), "%s", statusText(x.resp()))
}

// explainedRefusal says why an application's own refusal of a write (a 4xx
// but 401 and 422, with FastAPI's HTTPException body {"detail": "…"}) is
// one the request itself explains, so that it is no failure even when the
// contract does not declare it: a 409 (or 400) to a body carrying a value
// that must be unique (a client-chosen id, a username, an email) that some
// record may already have, a 404 to a body naming another record (x_id)
// that may not exist. "" when it is not explained.
func explainedRefusal(res *Result) string {
	r := &res.Response
	o := res.Case.op
	if o != nil && r.Status == http.StatusUnprocessableEntity && ownValidator(r) {
		return "a validator of the application's own (pydantic's value_error: an AfterValidator, a field_validator) refused a value the contract allows: a rule the contract cannot state"
	}
	if o != nil && o.method == "GET" && r.Status == http.StatusNotFound && o.op.Responses.Value("404") != nil && noSelector(res) {
		return "the operation declares 404 and its optional query parameters, none of them given, select the record"
	}
	if o == nil || r.Status < 400 || r.Status >= 500 || r.Status == http.StatusUnauthorized || r.Status == http.StatusUnprocessableEntity ||
		(o.method != "POST" && o.method != "PUT" && o.method != "PATCH") {
		return ""
	}
	raw := r.Body
	if len(raw) == 0 {
		raw = r.Excerpt // the checks have read the body already
	}
	var detail map[string]any
	if json.Unmarshal(raw, &detail) != nil || len(detail) != 1 {
		return ""
	}
	if _, ok := detail["detail"].(string); !ok {
		return ""
	}
	body, ok := decodeObject([]byte(res.Case.Request.Body))
	if !ok {
		return ""
	}
	switch r.Status {
	case http.StatusConflict, http.StatusBadRequest:
		for _, k := range []string{clientID(o), "username", "email"} {
			if _, ok := body[k]; ok && k != "" {
				return fmt.Sprintf("a value that must be unique (%s) may be taken", k)
			}
		}
	case http.StatusNotFound:
		for k := range body {
			if strings.HasSuffix(k, "_id") {
				return fmt.Sprintf("the record %s names may not exist", k)
			}
		}
	}
	return ""
}

// noSelector reports whether the case's operation takes only optional
// query parameters (GET /users/user?username=…&user_id=…), at least one,
// and the case gave none of them: a lookup with nothing to look up, which
// an application may answer with the 404 it declares. The answer must be
// an application's {"detail": "…"}.
func noSelector(res *Result) bool {
	o := res.Case.op
	u, err := url.Parse(res.Case.Request.URL)
	if err != nil {
		return false
	}
	optional := 0
	for _, in := range o.inputs.List {
		switch {
		case in.In == "path" || in.Required:
			return false
		case in.In == "query":
			if u.Query().Has(in.Name) {
				return false
			}
			optional++
		}
	}
	if optional == 0 {
		return false
	}
	raw := res.Response.Body
	if len(raw) == 0 {
		raw = res.Response.Excerpt
	}
	var v struct {
		Detail *string `json:"detail"`
	}
	return json.Unmarshal(raw, &v) == nil && v.Detail != nil
}

// ownValidator reports whether every error item of a 422 is pydantic's
// value_error or assertion_error: a ValueError or an assertion of the
// application's own validators, which no JSON Schema can say.
func ownValidator(r *Response) bool {
	raw := r.Body
	if len(raw) == 0 {
		raw = r.Excerpt
	}
	var v struct {
		Detail []struct {
			Type string `json:"type"`
		} `json:"detail"`
	}
	if json.Unmarshal(raw, &v) != nil || len(v.Detail) == 0 {
		return false
	}
	for _, it := range v.Detail {
		if it.Type != "value_error" && it.Type != "assertion_error" {
			return false
		}
	}
	return true
}

// explainedNotes are the notes on the refusals explainedRefusal excused,
// one per operation and status.
func explainedNotes(results []*Result) []string {
	var notes []string
	seen := map[string]bool{}
	for _, res := range results {
		why := explainedRefusal(res)
		if why == "" || res.Case.op == nil {
			continue
		}
		key := fmt.Sprintf("%s %d", res.Case.op.id, res.Response.Status)
		if seen[key] {
			continue
		}
		seen[key] = true
		declared := ""
		if res.Response.Status != http.StatusBadRequest && res.Response.Status != http.StatusNotFound &&
			res.Case.op.op.Responses.Value(strconv.Itoa(res.Response.Status)) == nil {
			declared = " (undeclared: the contract could declare it)"
		}
		notes = append(notes, fmt.Sprintf("%s: answered %s%s: not counted as a failure, %s",
			res.Case.op.id, statusText(&res.Response), declared, why))
	}
	return notes
}

// checkContentType: a declared status answers in one of its declared media
// types; one declared without content, or with FastAPI's untyped
// application/json (untypedJSON), in any. An undeclared status below 500
// is FastAPI's own answer: JSON.
func checkContentType(x *checkInput) *verdict {
	r := x.resp()
	if !x.answered() || (len(r.Body) == 0 && r.Size == 0) || r.Status == http.StatusTemporaryRedirect {
		return nil
	}
	got, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	var want []string
	if resp := declaredResponse(x.c().op.op, r.Status); resp != nil {
		if len(resp.Content) == 0 || untypedJSON(resp) {
			return nil
		}
		for mt := range resp.Content {
			if fastapi.MediaMatches(mt, got) {
				return pass
			}
			want = append(want, mt)
		}
		if x.r.openAPI() && openAPIContentType(resp, r.Status, got) {
			return pass
		}
	} else if x.r.openAPI() && r.Status < 500 {
		return pass // an undeclared status: the target's own answer, in any media type
	} else if r.Status < 500 {
		want = []string{"application/json"} // FastAPI's own answers
		if got == want[0] {
			return pass
		}
	} else {
		return nil // a 5xx is not_a_server_error's business
	}
	slices.Sort(want)
	return fail("Content-Type "+strings.Join(want, " or "), "Content-Type %q", r.Header.Get("Content-Type"))
}

func checkSchema(x *checkInput) *verdict {
	r := x.resp()
	if !x.answered() || r.Truncated || r.Unchecked != "" || r.Error != "" {
		return nil
	}
	declared, err := x.bodyConforms()
	if x.r.openAPI() && r.Status/100 == 4 {
		// A refusal may be the profile's own (problem details, or JSON
		// where its status declares another media type).
		declared, err = x.refusalConforms()
	}
	if !declared {
		return nil
	}
	if err != nil {
		return fail("a body matching the "+strconv.Itoa(r.Status)+" schema", "%s", describeSchemaError(err))
	}
	if field := x.undeclaredSecret(); field != "" {
		return fail("no field holding a credential beyond the "+strconv.Itoa(r.Status)+" schema", "an undeclared field %s", field)
	}
	return pass
}

// undeclaredSecret is the path of a field of the JSON answer that its
// schema does not declare and whose name says it holds a credential
// (model.SecretName: hashed_password, client_secret, refresh_token): a
// stored record served as it is, past its response model. "" when none.
func (x *checkInput) undeclaredSecret() string {
	r := x.resp()
	value := x.value
	if !x.decoded && json.Unmarshal(r.Body, &value) != nil {
		return ""
	}
	if x.decodeErr != nil {
		return ""
	}
	op := x.c().op.op
	resp := op.Responses.Value(strconv.Itoa(r.Status))
	if resp == nil {
		resp = op.Responses.Default()
	}
	if resp == nil || resp.Value == nil {
		return ""
	}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	media := resp.Value.Content.Get(mt)
	if media == nil || media.Schema == nil {
		return ""
	}
	budget := 10000 // values visited: an answer may be large
	return secretIn(media.Schema.Value, value, "", 0, &budget)
}

// secretIn walks v beside its schema s (nil: none declared there), under
// path. The walk keeps the keys and indexes that lead to where it is and
// spells a path out only for the field it reports.
func secretIn(s *openapi3.Schema, v any, path string, depth int, budget *int) string {
	var at []pathStep
	if f := secretWalk(s, v, &at, depth, budget); f != nil {
		return joinPath(path, f)
	}
	return ""
}

// joinPath spells path and then at as secretIn reports a field:
// "items[2].owner.hashed_password".
func joinPath(path string, at []pathStep) string {
	var b strings.Builder
	b.WriteString(path)
	for _, s := range at {
		if !s.isKey {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.key)
	}
	return b.String()
}

// secretWalk is secretIn's walk: the steps to the field found, nil when
// none is.
func secretWalk(s *openapi3.Schema, v any, at *[]pathStep, depth int, budget *int) []pathStep {
	*budget--
	if depth > 32 || *budget < 0 {
		return nil
	}
	alts := schemaAlternatives(s, 0)
	switch v := v.(type) {
	case map[string]any:
		open := true // a schema without properties (a dict, anything) declares no names
		for _, a := range alts {
			if len(a.Properties) > 0 {
				open = false
			}
		}
		for _, k := range sortedKeys(v) {
			var sub *openapi3.Schema
			known := false
			for _, a := range alts {
				if p := a.Properties[k]; p != nil {
					sub, known = p.Value, true
					break
				}
				if ap := a.AdditionalProperties; ap.Schema != nil || (ap.Has != nil && *ap.Has) {
					known = true
					if ap.Schema != nil {
						sub = ap.Schema.Value
					}
				}
			}
			*at = append(*at, pathStep{key: k, isKey: true})
			if !known && !open && model.SecretName(k) {
				return *at
			}
			if f := secretWalk(sub, v[k], at, depth+1, budget); f != nil {
				return f
			}
			*at = (*at)[:len(*at)-1]
		}
	case []any:
		var items *openapi3.Schema
		for _, a := range alts {
			if a.Items != nil {
				items = a.Items.Value
			}
		}
		for i, e := range v {
			*at = append(*at, pathStep{index: i})
			if f := secretWalk(items, e, at, depth+1, budget); f != nil {
				return f
			}
			*at = (*at)[:len(*at)-1]
		}
	}
	return nil
}

// schemaAlternatives are s and the schemas its anyOf, oneOf and allOf
// combine, flattened.
func schemaAlternatives(s *openapi3.Schema, depth int) []*openapi3.Schema {
	if s == nil || depth > 8 {
		return nil
	}
	out := []*openapi3.Schema{s}
	for _, group := range []openapi3.SchemaRefs{s.AnyOf, s.OneOf, s.AllOf} {
		for _, ref := range group {
			if ref != nil && ref.Value != nil {
				out = append(out, schemaAlternatives(ref.Value, depth+1)...)
			}
		}
	}
	return out
}

// describeSchemaError lists what broke the schema, field by field.
func describeSchemaError(err error) string {
	viols := spec.Violations(err)
	var parts []string
	for _, v := range viols {
		if v.Field == "" && strings.Contains(v.Reason, "\n") {
			v.Reason = strings.SplitN(v.Reason, "\n", 2)[0]
		}
		parts = append(parts, v.String())
		if len(parts) == 5 {
			parts = append(parts, fmt.Sprintf("and %d more", len(viols)-5))
			break
		}
	}
	var first *firstOnly
	if errors.As(err, &first) && len(parts) > 0 {
		return strings.Join(parts, "; ") + fmt.Sprintf(" (the first violation: a body of more than %d values is not searched for more)", maxListedValues)
	}
	return strings.Join(parts, "; ")
}

func checkHeaders(x *checkInput) *verdict {
	r := x.resp()
	if !x.answered() {
		return nil
	}
	switch {
	case r.Status == http.StatusUnauthorized && r.Header.Get("WWW-Authenticate") == "" &&
		(!x.r.openAPI() || owesChallenge(x.r.challenges(x.c().op.op))):
		// Under the plain-OpenAPI profile only an HTTP scheme (RFC 7235:
		// Basic, Bearer) owes its challenge: a login refusing a password
		// or an API key refused has none the document states.
		return fail("a WWW-Authenticate header with a 401", "none")
	case r.Status == http.StatusMethodNotAllowed && r.Header.Get("Allow") == "":
		return fail("an Allow header with a 405", "none")
	case r.Status == http.StatusTemporaryRedirect && r.Header.Get("Location") == "":
		return fail("a Location header with a 307", "none")
	}
	if resp := x.c().op.op.Responses.Value(strconv.Itoa(r.Status)); resp != nil && resp.Value != nil {
		for name, h := range resp.Value.Headers {
			if h.Value != nil && h.Value.Required && r.Header.Get(name) == "" {
				return fail("header "+name, "none")
			}
		}
	}
	return pass
}

func checkNegative(x *checkInput) *verdict {
	if x.c().Expect != ExpectRejection || !x.answered() {
		return nil
	}
	if s := x.resp().Status; s >= 400 && s < 500 {
		return pass
	}
	if x.r.openAPI() {
		return fail("a 4xx rejection", "%s", statusText(x.resp()))
	}
	return fail("a 4xx rejection (FastAPI: 422)", "%s", statusText(x.resp()))
}

func checkPositive(x *checkInput) *verdict {
	r := x.resp()
	if !x.answered() {
		return nil
	}
	switch x.c().Expect {
	case ExpectSuccess:
		if r.Status/100 == 2 || redirectOnly(x.c().op.op, r.Status) || untypedRedirect(x.c().op.op, r) {
			return pass
		}
		if absentRecord(x.c(), r) {
			return nil // a note says so (madeUpNotes)
		}
		if len(x.c().madeUp) > 0 && r.Status >= 500 {
			// No success is owed to a key the runner made up; the
			// server error is not_a_server_error's to report.
			return nil
		}
		if why := explainedRefusal(x.res); why != "" {
			return nil // a note says so (explainedNotes)
		}
		if x.r.openAPI() && x.openAPIStatus() && r.Status == http.StatusConflict {
			return nil // a write whose key another case took first: state
		}
		if x.r.takenValue(x.res) != "" {
			return nil // a note says so (takenNotes)
		}
		return fail("2xx", "%s", statusText(r))
	case ExpectNotRejected:
		if x.c().Kind == Observed || x.c().op.tokenEndpoint {
			// A 400 may be the application's own answer ("Username
			// already registered", a login's "Incorrect username or
			// password" to made-up credentials): only FastAPI's 422
			// says invalid.
			if r.Status != http.StatusUnprocessableEntity {
				return pass
			}
			return fail("a valid request not answered as invalid (422)", "%s", statusText(r))
		}
		if r.Status != http.StatusUnprocessableEntity && r.Status != http.StatusBadRequest {
			return pass
		}
		if why := explainedRefusal(x.res); why != "" {
			return nil // a note says so (explainedNotes)
		}
		if x.r.takenValue(x.res) != "" {
			return nil // a note says so (takenNotes)
		}
		return fail("valid input not answered as invalid", "%s", statusText(r))
	}
	return nil
}

// redirectOnly reports whether status is a 3xx that op declares as its
// success, declaring no 2xx: FastAPI's response_class=RedirectResponse
// (307 by default, or the route's status_code=302).
func redirectOnly(op *openapi3.Operation, status int) bool {
	if status/100 != 3 || op.Responses == nil || op.Responses.Value(strconv.Itoa(status)) == nil {
		return false
	}
	for code := range op.Responses.Map() {
		if len(code) == 3 && code[0] == '2' {
			return false
		}
	}
	return true
}

// untypedRedirect reports whether r is a redirect (a 3xx with a Location)
// from an operation whose success response is FastAPI's untyped one
// (untypedJSON): such an operation may return any Response, and returning
// a RedirectResponse is the usual way to redirect; FastAPI cannot
// document it.
func untypedRedirect(op *openapi3.Operation, r *Response) bool {
	if r.Status/100 != 3 || r.Header.Get("Location") == "" || op.Responses == nil {
		return false
	}
	for code, resp := range op.Responses.Map() {
		if len(code) == 3 && code[0] == '2' && resp.Value != nil && untypedJSON(resp.Value) {
			return true
		}
	}
	return false
}

func checkValidationShape(x *checkInput) *verdict {
	if x.r.openAPI() {
		return checkRefusalShape(x)
	}
	r := x.resp()
	c := x.c()
	if !x.answered() || (r.Status != http.StatusUnprocessableEntity && c.Expect != ExpectRejection) {
		return nil
	}
	if r.Status >= 500 {
		return nil // not_a_server_error reports it
	}
	if c.Kind == Observed && r.Status != http.StatusUnprocessableEntity {
		// FastAPI runs the security dependency before validating: a
		// request without a valid token is a 401 (or HTTPBearer's 403)
		// first. A body it cannot parse at all is its 400, not a 422.
		if r.Status == http.StatusUnauthorized || r.Status == http.StatusForbidden {
			return nil
		}
		if c.obs != nil && c.obs.rejection != nil && c.obs.rejection.Status != http.StatusUnprocessableEntity {
			return nil
		}
	}
	want := "a 422 HTTPValidationError"
	if c.Field != nil {
		want += " whose loc is " + locString(c.Field)
	}
	if r.Status != http.StatusUnprocessableEntity {
		return fail(want, "%s", statusText(r))
	}
	if r.Unchecked != "" {
		return nil // the report's notes say why
	}
	if x.json == nil {
		return fail(want, "a body that is not JSON: %s", snippet(r.bodyText()))
	}
	sp := x.r.sp
	if schema := sp.Schema("HTTPValidationError"); schema != nil {
		if err := validateBody(sp, schema, x.json, r.Body); err != nil {
			return fail(want, "%s", describeSchemaError(err))
		}
	}
	detail, ok := detailLocs(x.json)
	if !ok {
		return fail(want, "no detail list: %s", snippet(r.bodyText()))
	}
	if c.Field == nil {
		return pass
	}
	var locs []string
	for _, loc := range detail {
		if sameLoc(loc, c.Field) {
			return pass
		}
		locs = append(locs, locString(loc))
	}
	return fail(want, "loc %s", strings.Join(locs, ", "))
}

// sameLoc reports whether loc names the input want names. A header
// parameter read through a pydantic model is reported under the model's
// field name, which the contract spells as the header (save_data for
// save-data): either spelling names it.
func sameLoc(loc, want []any) bool {
	if locString(loc) == locString(want) {
		return true
	}
	if len(loc) < 2 || len(loc) != len(want) || loc[0] != "header" || want[0] != "header" {
		return false
	}
	a, aok := loc[1].(string)
	b, bok := want[1].(string)
	if !aok || !bok || strings.ReplaceAll(a, "-", "_") != strings.ReplaceAll(b, "-", "_") {
		return false
	}
	return locString(loc[2:]) == locString(want[2:])
}

func locString(loc []any) string {
	b, _ := json.Marshal(loc)
	return string(b)
}

// tokenBody is the body of a 2xx from a token endpoint.
func (x *checkInput) token() (map[string]any, bool) {
	if !x.c().op.tokenEndpoint || x.resp().Status/100 != 2 {
		return nil, false
	}
	m, ok := x.json.(map[string]any)
	return m, ok
}

var knownAlgs = []string{"HS256", "HS384", "HS512", "RS256", "RS384", "RS512", "ES256", "ES384", "ES512", "PS256", "PS384", "PS512", "EdDSA"}

func checkJWT(x *checkInput) *verdict {
	body, ok := x.token()
	if !ok {
		return nil
	}
	token := model.TokenIn(body) // access_token, or the member a document names for it
	const want = "a JWT: three base64url parts, a known alg, exp in the future"
	parts := strings.Split(token, ".")
	if x.r.openAPI() && len(parts) != 3 && x.r.cfg.JWTSecret == nil {
		return nil // RFC 6749 leaves a token opaque: only FastAPI's recipe issues JWTs
	}
	if len(parts) != 3 {
		return fail(want, "%d dot-separated parts in %q", len(parts), short(token))
	}
	var header struct {
		Alg string `json:"alg"`
	}
	var claims map[string]any
	for i, dst := range []any{&header, &claims} {
		raw, err := base64.RawURLEncoding.DecodeString(parts[i])
		if err != nil {
			return fail(want, "part %d is not base64url: %v", i+1, err)
		}
		if err := json.Unmarshal(raw, dst); err != nil {
			return fail(want, "part %d is not a JSON object: %s", i+1, snippet(raw))
		}
	}
	if !slices.Contains(knownAlgs, header.Alg) {
		return fail(want, "alg %q", header.Alg)
	}
	exp, ok := claims["exp"].(float64)
	_, has := claims["exp"]
	switch {
	case !ok && (has || !x.r.openAPI()):
		// RFC 7519 makes exp optional; FastAPI's recipe always sets it.
		return fail(want, "no numeric exp claim")
	case !ok:
	case !time.Unix(int64(exp), 0).After(x.now):
		expAt := time.Unix(int64(exp), 0)
		return fail(want, "exp %s is not in the future (now %s)", expAt.UTC().Format(time.RFC3339), x.now.UTC().Format(time.RFC3339))
	}
	if secret := x.r.cfg.JWTSecret; secret != nil {
		_, err := jwt.Parse(token, func(*jwt.Token) (any, error) { return secret, nil },
			jwt.WithValidMethods([]string{"HS256", "HS384", "HS512"}), jwt.WithTimeFunc(func() time.Time { return x.now }))
		if err != nil {
			return fail("a JWT signed with --jwt-secret", "%v", err)
		}
	}
	return pass
}

func short(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

func checkTokenType(x *checkInput) *verdict {
	body, ok := x.token()
	if !ok {
		return nil
	}
	if t, _ := body["token_type"].(string); strings.EqualFold(t, "bearer") {
		return pass
	}
	return fail(`token_type "bearer"`, "token_type %v", quoteAny(body["token_type"]))
}

func quoteAny(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func checkListConsistency(x *checkInput) *verdict {
	if x.listed == nil || x.itemReads == nil || x.resp().Status != x.c().op.success() {
		return nil
	}
	for _, item := range x.listed {
		read, ok := x.itemReads[item.id]
		if !ok || read.digest == item.digest {
			continue
		}
		want := fmt.Sprintf("item %d (id %q) equal to %s", item.index, item.id, read.url)
		x.r.robust.mu.Lock()
		listed, kept := x.r.robust.values[item.digest]
		x.r.robust.mu.Unlock()
		switch {
		case kept && read.value != nil && reflect.DeepEqual(listed, read.value):
			continue
		case kept && read.value != nil && x.c().op.projects && showsOnly(listed, read.value, 0):
			continue // a projection of the record: what it shows is the read's
		case kept && read.value != nil:
			return fail(want, "%s", firstDifference(listed, read.value, ""))
		}
		return fail(want, "the item differs from the single read (sha256 %x… of the item, %x… of the read; too large to compare field by field)", item.digest[:6], read.digest[:6])
	}
	return pass
}

// showsOnly reports whether the list item a shows nothing the single read b
// does not: each member of an object of a is b's, the same, an object in
// turn within b's; each list as long as b's, item within item.
func showsOnly(a, b any, depth int) bool {
	if depth > 64 {
		return reflect.DeepEqual(a, b)
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !showsOnly(v, w, depth+1) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !showsOnly(x[i], y[i], depth+1) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

// firstDifference names the first field where the list item a and the
// single read b differ.
func firstDifference(a, b any, path string) string {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		for _, k := range sortedKeys(am) {
			if !reflect.DeepEqual(am[k], bm[k]) {
				return firstDifference(am[k], bm[k], strings.TrimPrefix(path+"."+k, "."))
			}
		}
		for _, k := range sortedKeys(bm) {
			if _, ok := am[k]; !ok {
				return fmt.Sprintf("%s is missing from the list item", strings.TrimPrefix(path+"."+k, "."))
			}
		}
	}
	if path == "" {
		path = "the item"
	}
	return fmt.Sprintf("%s is %s in the list but %s in the single read", path, quoteAny(a), quoteAny(b))
}

func checkUniqueIDs(x *checkInput) *verdict {
	items, ok := x.json.([]any)
	if !ok || x.resp().Status/100 != 2 {
		return nil
	}
	if declaredExample(x.c().op.op, x.resp().Status, x.json) {
		// The document's own example (Goa's repeats one item): its ids
		// are the document's word, not the server's doing.
		return nil
	}
	seen := map[string]int{}
	for i, item := range items {
		id, ok := idOf(item)
		if !ok {
			continue
		}
		if j, dup := seen[id]; dup {
			return fail("unique ids", "id %q at positions %d and %d", id, j, i)
		}
		seen[id] = i
	}
	return pass
}

// declaredExample reports whether v is an example op declares for its
// response of status, in any media type.
func declaredExample(op *openapi3.Operation, status int, v any) bool {
	resp := declaredResponse(op, status)
	if resp == nil {
		return false
	}
	for _, mt := range resp.Content {
		if mt == nil {
			continue
		}
		if mt.Example != nil && jsonEqual(mt.Example, v) {
			return true
		}
		for _, ex := range mt.Examples {
			if ex != nil && ex.Value != nil && ex.Value.Value != nil && jsonEqual(ex.Value.Value, v) {
				return true
			}
		}
		if s := mt.Schema; s != nil && s.Value != nil && s.Value.Example != nil && jsonEqual(s.Value.Example, v) {
			return true
		}
	}
	return false
}

// checkIDConsistency walks a JSON body for objects holding both x_id and
// an object x with an id, and requires them equal. The walk keeps the keys
// and indexes that lead to where it is, and spells them out only for the
// problem it reports: an answer nested deep under long keys would
// otherwise cost the square of its size in path strings.
func checkIDConsistency(x *checkInput) *verdict {
	if x.json == nil || x.resp().Status/100 != 2 {
		return nil
	}
	// A pair the request sent unequal (a generated body of a task in a
	// bucket) and the answer keeps as sent is the runner's own values, not
	// the server's doing.
	var sent map[idPair]bool
	if c := x.c(); c != nil && c.Request.Body != "" {
		var v any
		if json.Unmarshal([]byte(c.Request.Body), &v) == nil {
			sent = map[idPair]bool{}
			idMismatches(v, func(p idPair, _, _ any, _ []pathStep) bool {
				sent[p] = true
				return len(sent) < maxSentPairs
			})
		}
	}
	problem := ""
	found := idMismatches(x.json, func(p idPair, ref, id any, at []pathStep) bool {
		if sent[p] {
			return true
		}
		path := dottedPath(at)
		problem = fmt.Sprintf("%s%s_id is %s but %s%s.id is %s", path, p.name, quoteAny(ref), path, p.name, quoteAny(id))
		return false
	})
	if !found {
		return nil
	}
	if problem != "" {
		return fail("x_id equal to x.id", "%s", problem)
	}
	return pass
}

// maxSentPairs bounds the unequal pairs of a request kept to excuse the
// answer's.
const maxSentPairs = 1024

// idPair is an object's x_id and x.id that differ, by x's name and the
// two values as text.
type idPair struct{ name, ref, id string }

// idMismatches walks v for objects holding both x_id and an object x with
// an id, and calls each with the pair and the keys and indexes leading to
// the object when the two differ (ref and id as they are), until each
// returns false. found says such an object was met.
func idMismatches(v any, each func(p idPair, ref, id any, at []pathStep) bool) (found bool) {
	var at []pathStep // the keys and indexes leading to v
	more := true
	var walk func(v any)
	walk = func(v any) {
		switch t := v.(type) {
		case []any:
			for i, e := range t {
				if !more {
					return
				}
				at = append(at, pathStep{index: i})
				walk(e)
				at = at[:len(at)-1]
			}
		case map[string]any:
			keys := sortedKeys(t)
			for _, k := range keys {
				name, ok := strings.CutSuffix(k, "_id")
				if !ok {
					continue
				}
				obj, ok := t[name].(map[string]any)
				if !ok {
					continue
				}
				inner, ok := obj["id"]
				if !ok {
					continue
				}
				found = true
				if more && !reflect.DeepEqual(t[k], inner) {
					more = each(idPair{name, fmt.Sprint(t[k]), fmt.Sprint(inner)}, t[k], inner, at)
				}
			}
			for _, k := range keys {
				if !more {
					return
				}
				at = append(at, pathStep{key: k, isKey: true})
				walk(t[k])
				at = at[:len(at)-1]
			}
		}
	}
	walk(v)
	return found
}

// dottedPath spells keys and indexes as checkIDConsistency reports a
// place: "reviews[2].movie." (a key ends with a dot, an index follows what
// it indexes). Past maxPathBytes it keeps the end, where the problem is,
// after "…": a message is clipped to maxMessageBytes anyway.
func dottedPath(at []pathStep) string {
	const maxPathBytes = 512
	var b strings.Builder
	first, n := len(at), 0
	for ; first > 0 && n < maxPathBytes; first-- {
		n += len(at[first-1].key) + 8
	}
	if first > 0 {
		b.WriteString("…")
	}
	for _, s := range at[first:] {
		if s.isKey {
			b.WriteString(s.key)
			b.WriteByte('.')
			continue
		}
		b.WriteByte('[')
		b.WriteString(strconv.Itoa(s.index))
		b.WriteByte(']')
	}
	return b.String()
}

// pathStep is a key of an object or an index of an array.
type pathStep struct {
	key   string
	index int
	isKey bool
}

func checkUnknownID(x *checkInput) *verdict {
	r := x.resp()
	if !x.answered() {
		return nil
	}
	if e := x.c().Expect; x.r.openAPI() && (e == ExpectNotFound || e == ExpectNotFoundOrEmpty) && x.c().op != nil &&
		!declaresNotFound(x.c().op.op) {
		return nil // the document does not say an unknown id is a 404: nothing is demanded
	}
	switch x.c().Expect {
	case ExpectNotFound:
		if listsUnderParent(x.c().op) {
			// A list filtered by its parent (GET /movies/{movie_id}/reviews)
			// may answer [] for a parent no record has: many FastAPI
			// backends filter without looking the parent up.
			if r.Status == http.StatusNotFound || (r.Status/100 == 2 && emptyList(x.json)) {
				return pass
			}
			return fail("404, or [] (nothing listed under an unknown parent)", "%s", statusText(r))
		}
		// A refusal the operation declares (403: "you may only change
		// your own") may come before the record is looked up.
		if r.Status == http.StatusNotFound || ((r.Status == http.StatusForbidden || r.Status == http.StatusUnauthorized) && x.declared()) {
			return pass
		}
		return fail("404", "%s", statusText(r))
	case ExpectNotFoundOrEmpty:
		if r.Status == http.StatusNotFound || (r.Status/100 == 2 && emptyList(x.json)) {
			return pass
		}
		return fail("404, or an empty list", "%s", statusText(r))
	}
	return nil
}

// emptyList reports whether a decoded body is a list with no items: [],
// or a page whose "items" is [].
func emptyList(v any) bool {
	if m, ok := v.(map[string]any); ok {
		v, ok = m["items"]
		if !ok {
			return false
		}
	}
	items, ok := v.([]any)
	return ok && len(items) == 0
}

// listsUnderParent: o is a GET answering a list of the records under the
// record its path names.
func listsUnderParent(o *operation) bool {
	if o == nil || o.method != "GET" {
		return false
	}
	if o.model != nil && o.model.Kind == model.NestedList {
		return true
	}
	s := successSchema(o.op)
	return s != nil && s.Type.Is("array")
}

func checkWrongCredentials(x *checkInput) *verdict {
	if x.c().Expect != ExpectUnauthorized || !x.answered() {
		return nil
	}
	if s := x.resp().Status; s == http.StatusUnauthorized || s == http.StatusBadRequest {
		return pass
	}
	if s := x.resp().Status; x.r.openAPI() && (s == http.StatusForbidden || declares4xx(x.c().op.op, s)) {
		// The document's own refusals, and the other refusal of
		// credentials (403).
		return pass
	}
	return fail("401 or 400", "%s", statusText(x.resp()))
}

func checkResponseTime(x *checkInput) *verdict {
	r := x.resp()
	if !x.answered() {
		return nil
	}
	if r.Duration <= x.r.cfg.MaxResponseTime {
		return pass
	}
	return fail("a response within "+x.r.cfg.MaxResponseTime.String(), "%v", r.Duration.Round(time.Millisecond))
}
