package contract

import (
	"encoding/json"
	"fmt"
	"maps"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/openapiprofile"
)

// The runner judges a target by the same framework profile the mock
// answers by (model.Model.Framework): FastAPI's byte-level rules for a
// FastAPI document, only the document's own words for any other. This
// file holds the plain-OpenAPI judgements; the FastAPI ones are the
// checks as they always were.

// setFramework records the profile the contract is judged by: the model's,
// else (no model) the one the document shows.
func (r *runner) setFramework() {
	if r.model != nil {
		r.framework = r.model.Framework
		return
	}
	r.framework, _ = framework.Detect(r.sp.Doc)
}

// openAPI reports whether the target is judged by the plain-OpenAPI
// profile. A runner whose profile was never set judges as FastAPI's, as
// the runner always did.
func (r *runner) openAPI() bool { return r.framework == framework.OpenAPI }

// declaresBadInput reports whether op declares a status for invalid input:
// 400, 422, a 4XX range or a default response.
func declaresBadInput(op *openapi3.Operation) bool {
	if op == nil || op.Responses == nil {
		return false
	}
	for _, code := range []string{"400", "422", "4XX", "default"} {
		if op.Responses.Value(code) != nil {
			return true
		}
	}
	return false
}

// declares4xx reports whether op declares status, itself or under its
// range (4XX) or default.
func declares4xx(op *openapi3.Operation, status int) bool {
	return status/100 == 4 && openapiprofile.Response(op, status) != nil
}

// declaresSuccess reports whether op declares how it answers a request it
// accepts: a 2xx or 3xx status, their ranges, or a default response.
func declaresSuccess(op *openapi3.Operation) bool {
	if op == nil || op.Responses == nil {
		return false
	}
	for code := range op.Responses.Map() {
		if code == "default" || code[0] == '2' || code[0] == '3' {
			return true
		}
	}
	return false
}

// declaresNotFound reports whether op says an id no record has is
// refused: it declares 404 itself, or the 4XX range that holds it. A
// default response says only what an error looks like, whichever it is,
// not that a lookup of an unknown id is one: petstore-expanded's "default:
// unexpected error" beside its 200 asks nothing of an unknown id.
func declaresNotFound(op *openapi3.Operation) bool {
	return op != nil && op.Responses != nil && (op.Responses.Value("404") != nil || op.Responses.Value("4XX") != nil)
}

// wrongMedia reports whether c sent its body in a media type the
// operation does not declare for its request body: the runner's deliberate
// Content-Type text/plain. A 415 is its right answer, declared or not.
func wrongMedia(c *Case) bool {
	if c.op == nil || c.op.op.RequestBody == nil || c.op.op.RequestBody.Value == nil {
		return false
	}
	ct := c.Request.Header.Get("Content-Type")
	if ct == "" {
		return false
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return true
	}
	for declared := range c.op.op.RequestBody.Value.Content {
		if fastapi.MediaMatches(declared, mt) {
			return false
		}
	}
	return true
}

// securityFirst reports whether r is a refusal of credentials (401, or
// 403) to a request of an operation that declares security: a server
// checks who asks before what is asked, so an invalid request without
// valid credentials is refused for them first.
func (x *checkInput) securityFirst() bool {
	s := x.resp().Status
	if s != http.StatusUnauthorized && s != http.StatusForbidden {
		return false
	}
	op := x.c().op
	return op != nil && openapiprofile.CompileSecurity(x.r.sp.Doc, op.op) != nil
}

// checkRefusalShape is validation_error_shape under the plain-OpenAPI
// profile: an invalid request gets a 4xx the operation declares (any 4xx
// when it declares no status for bad input), whose body fits the schema
// the document declares for that status; problem details (RFC 9457) are
// fine where it declares none. A 415 to a body sent in a media type the
// operation does not take, and a refusal of missing credentials, are
// right too.
func checkRefusalShape(x *checkInput) *verdict {
	r := x.resp()
	c := x.c()
	if !x.answered() || c.Expect != ExpectRejection || r.Status >= 500 || c.op == nil {
		return nil
	}
	op := c.op.op
	want := "any 4xx (the operation declares no status for invalid input)"
	if declaresBadInput(op) {
		want = "a declared 4xx (" + strings.Join(declared4xx(op), ", ") + ")"
	}
	switch {
	case r.Status/100 != 4:
		return fail(want, "%s", statusText(r))
	case x.securityFirst(), r.Status == http.StatusUnsupportedMediaType && wrongMedia(c):
	case declaresBadInput(op) && !declares4xx(op, r.Status):
		return fail(want, "%s", statusText(r))
	}
	if r.Unchecked != "" || r.Truncated || r.Error != "" {
		return nil // the report's notes say why
	}
	if openapiprofile.Response(op, r.Status) == nil {
		return pass // nothing declared for it: any body, problem details included
	}
	declared, err := x.refusalConforms()
	if declared && err != nil {
		return fail(want+" whose body fits its declared schema", "%s", describeSchemaError(err))
	}
	return pass
}

// declared4xx lists op's 4xx statuses, ranges and default, sorted.
func declared4xx(op *openapi3.Operation) []string {
	var out []string
	for code := range op.Responses.Map() {
		if code == "default" || strings.HasPrefix(code, "4") {
			out = append(out, code)
		}
	}
	slices.Sort(out)
	return out
}

// refusalConforms validates a refusal's body against the response op
// declares for its status (or its range, or default): a JSON schema where
// the answer is in a JSON media type it declares. A problem+json answer to
// a response declaring no JSON media type is what the profile answers
// there, and is not judged.
func (x *checkInput) refusalConforms() (bool, error) {
	r := x.resp()
	op := x.c().op.op
	resp := openapiprofile.Response(op, r.Status)
	if resp == nil || len(resp.Content) == 0 {
		return false, nil
	}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt == openapiprofile.ProblemMedia && declaredMedia(resp, mt) == nil && !hasJSONMedia(resp) {
		return false, nil
	}
	if fastapi.IsJSONMedia(mt) && declaredMedia(resp, mt) == nil && !hasJSONMedia(resp) {
		// A refusal in JSON where its status declares no JSON media type
		// (gotify's 400 of an operation producing YAML) is the profile's
		// own answer: judged by the schema its status declares for YAML,
		// whose values are JSON's, and not judged beside any other type.
		s := yamlSchema(resp)
		if s == nil {
			return false, nil
		}
		v, err := x.decode()
		if err != nil {
			return true, fmt.Errorf("body is not JSON: %v", err)
		}
		return true, validateBody(x.r.sp, s, v, r.Body)
	}
	code := strconv.Itoa(r.Status)
	if op.Responses.Value(code) == nil {
		// conforms reads the status itself or default: hand it the
		// range's response under the status.
		resps := openapi3.NewResponses()
		resps.Set(code, &openapi3.ResponseRef{Value: resp})
		op = &openapi3.Operation{Responses: resps}
	}
	return conforms(x.r.sp, op, r.Status, r.Header.Get("Content-Type"), r.Body, x.decode)
}

// decode is the answer's body decoded as JSON, once.
func (x *checkInput) decode() (any, error) {
	if x.decoded {
		return x.value, x.decodeErr
	}
	var v any
	err := json.Unmarshal(x.resp().Body, &v)
	return v, err
}

// yamlSchema is the schema resp declares for a YAML media type
// (application/yaml, application/x-yaml, text/yaml, +yaml); nil when it
// declares none.
func yamlSchema(resp *openapi3.Response) *openapi3.Schema {
	for _, name := range slices.Sorted(maps.Keys(resp.Content)) {
		base, _, _ := strings.Cut(name, ";")
		base = strings.ToLower(strings.TrimSpace(base))
		if base != "application/yaml" && base != "application/x-yaml" && base != "text/yaml" && base != "text/x-yaml" && !strings.HasSuffix(base, "+yaml") {
			continue
		}
		if m := resp.Content[name]; m != nil && m.Schema != nil && m.Schema.Value != nil {
			return m.Schema.Value
		}
	}
	return nil
}

// hasJSONMedia reports whether resp declares a JSON media type.
func hasJSONMedia(resp *openapi3.Response) bool {
	for mt := range resp.Content {
		base, _, _ := strings.Cut(mt, ";")
		if fastapi.IsJSONMedia(strings.TrimSpace(base)) {
			return true
		}
	}
	return false
}

// openAPIContentType is content_type_conformance's judgement of an
// answer whose media type is not one declared for its status, under the
// plain-OpenAPI profile: a refusal (4xx) in problem details, or in JSON,
// where its status declares no JSON media type (or is not declared) is
// the profile's own answer; so is any media type of a status the
// operation does not declare.
func openAPIContentType(resp *openapi3.Response, status int, got string) bool {
	if status/100 != 4 {
		return resp == nil
	}
	if resp != nil && hasJSONMedia(resp) {
		return false
	}
	return got == openapiprofile.ProblemMedia || fastapi.IsJSONMedia(got) || resp == nil
}

// challenges are the auth-schemes (lower-case) a 401 of op may name in
// its WWW-Authenticate under the plain-OpenAPI profile: each declared
// scheme's own (bearer for OAuth2 and OpenID Connect, the http scheme's
// name, apikey for an API key).
func (r *runner) challenges(op *openapi3.Operation) []string {
	sec := openapiprofile.CompileSecurity(r.sp.Doc, op)
	if sec == nil {
		return nil
	}
	var out []string
	for _, alt := range sec.Alternatives {
		for _, sc := range alt {
			var name string
			switch sc.Type {
			case "http":
				name = sc.HTTP
			case "oauth2", "openIdConnect":
				name = "bearer"
			case "apiKey":
				name = "apikey"
			}
			if name != "" && !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}

// owesChallenge reports whether a 401 of an operation with these
// challenges must carry WWW-Authenticate: one of them is an HTTP
// authentication scheme (RFC 7235), not only an API key.
func owesChallenge(schemes []string) bool {
	return slices.ContainsFunc(schemes, func(s string) bool { return s != "apikey" })
}

// namesChallenge reports whether a WWW-Authenticate value names one of
// the auth-schemes: a challenge starts the value or follows a comma.
func namesChallenge(header string, schemes []string) bool {
	for _, part := range strings.Split(strings.ToLower(header), ",") {
		word, _, _ := strings.Cut(strings.TrimSpace(part), " ")
		if slices.Contains(schemes, word) {
			return true
		}
	}
	return false
}

// openAPIStatus reports whether an undeclared status is right under the
// plain-OpenAPI profile: a 415 to a body sent in a media type the
// operation does not take, a refusal of credentials to a secured
// operation, and any 4xx to an invalid request of an operation that
// declares no status for invalid input.
func (x *checkInput) openAPIStatus() bool {
	r, c := x.resp(), x.c()
	switch {
	case r.Status == http.StatusUnsupportedMediaType && wrongMedia(c):
		return true
	case x.securityFirst():
		return true
	case absentRecord(c, r):
		return true
	case c.Expect == ExpectRejection && r.Status/100 == 4 && c.op != nil && !declaresBadInput(c.op.op):
		return true
	case r.Status/100 == 2 && c.op != nil && !declaresSuccess(c.op.op):
		// The document leaves the success unsaid (springdoc writes only
		// the @ApiResponses of a handler that declares its errors): the
		// framework's own 200, or any 2xx, is no breach of it.
		return true
	case r.Status == http.StatusConflict && c.op != nil && c.op.method != "GET" && c.op.method != "DELETE":
		// A write refused because a record with its key is there already
		// (another case of the run made it first, in whatever order the
		// cases ran): state, not the contract, decides it.
		return true
	}
	return false
}

// lacksCredentials reports whether, under the plain-OpenAPI profile, o
// requires credentials of a scheme the runner has none for (an API key,
// basic or bearer beside it): none of its alternatives is satisfied by
// the headers, query parameters and cookies given (--header, --query,
// --cookie). Such an operation answers 401 before anything else, so only
// that is tested. OAuth2, bearer and basic keep the runner's own handling
// (a login, --username) until the run holds a credential: then one that
// opens no alternative (Goa's doubly secured operation, asking an API key
// in the query beside the token) does not open it either.
func (b *builder) lacksCredentials(o *operation) bool {
	if b.model == nil || b.model.Framework != framework.OpenAPI {
		return false
	}
	if (o.secured || o.basic) && b.headers.Get("Authorization") == "" && !o.basicOpens && b.rawToken == "" {
		return false // no credential held: the runner's own handling
	}
	sec := openapiprofile.CompileSecurity(b.sp.Doc, o.op)
	if sec == nil || sec.Optional {
		return false
	}
	req, err := http.NewRequest(o.method, "http://runner.invalid/", nil)
	if err != nil {
		return false
	}
	req.Header = b.headers.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	if o.basicOpens && req.Header.Get("Authorization") == "" {
		req.Header.Set("Authorization", b.basic) // as request sends it
	}
	req.URL.RawQuery = b.cfg.Query.Encode()
	for name, vs := range b.cfg.Cookie {
		for _, v := range vs {
			req.AddCookie(&http.Cookie{Name: name, Value: v})
		}
	}
	return !sec.Check(req, nil).OK
}

// credentialed reports whether req carries what one alternative of op's
// security requirements asks for, as openapiprofile.Security.Check reads
// them (OpenAPI's Security Requirement Object: the alternatives of the
// list are OR, the schemes of one alternative AND): each scheme's
// credential present, and no token of it that judge refuses (judge nil:
// any token). False for an operation without requirements to hold it to.
func credentialed(doc *openapi3.T, op *openapi3.Operation, req Request, judge func(token string) bool) bool {
	sec := openapiprofile.CompileSecurity(doc, op)
	if sec == nil {
		return false
	}
	// Check also lets in a request without credentials when an empty
	// alternative ({}) makes them optional: only the alternatives count.
	sec = &openapiprofile.Security{Alternatives: sec.Alternatives}
	hr, ok := httpRequest(req)
	var byToken func(openapiprofile.Scheme, string) bool
	if judge != nil {
		byToken = func(_ openapiprofile.Scheme, token string) bool { return judge(token) }
	}
	return ok && sec.Check(hr, byToken).OK
}

// uncredentialed reports whether op requires credentials (none of its
// requirements is empty) and req carries what none of its alternatives
// asks for: the target answers it 401 before anything else.
func uncredentialed(doc *openapi3.T, op *openapi3.Operation, req Request) bool {
	sec := openapiprofile.CompileSecurity(doc, op)
	if sec == nil || sec.Optional {
		return false
	}
	hr, ok := httpRequest(req)
	return ok && !sec.Check(hr, nil).OK
}

// httpRequest is req as a server reads its credentials: the method, the
// URL's query and the headers (cookies among them).
func httpRequest(req Request) (*http.Request, bool) {
	hr, err := http.NewRequest(req.Method, req.URL, nil)
	if err != nil {
		return nil, false
	}
	hr.Header = req.Header.Clone()
	if hr.Header == nil {
		hr.Header = http.Header{}
	}
	return hr, true
}

// refuseTokens is the judge of a case's credentials that are made up or
// forged on purpose (a token no server issued, the run's own with a wrong
// signature): no token of it is good.
func refuseTokens(string) bool { return false }

// noCredentialsCase is the one case of an operation the runner holds no
// credentials for: a request without them, answered 401.
func (b *builder) noCredentialsCase(o *operation) {
	*b.notes = append(*b.notes, fmt.Sprintf("%s: secured, and the runner has no credentials for its schemes: only its 401 is tested (give them with --token, --header, --query or --cookie)", o.id))
	v := b.fillAnything(o)
	v[authKey] = ""
	b.add(o, Unauthenticated, ExpectAuthRequired, "no credentials", v, nil)
}
