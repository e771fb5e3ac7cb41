package openapiprofile

import (
	"encoding/base64"
	"net/http"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// Scheme is one declared security scheme, as a request satisfies it.
type Scheme struct {
	Name string
	// Type is the scheme's type: apiKey, http, oauth2, openIdConnect,
	// mutualTLS.
	Type string
	// In and Param are where an apiKey is carried (header, query,
	// cookie) and under which name.
	In, Param string
	// HTTP is an http scheme's auth scheme, lower-cased: basic, bearer,
	// digest, …
	HTTP string
}

// Security is an operation's security requirements: any one alternative
// satisfied lets the request in, each alternative needing all its schemes.
type Security struct {
	Alternatives [][]Scheme
	// Optional: the requirements include an empty one ({}), so a request
	// without credentials is let in.
	Optional bool
}

// CompileSecurity reads op's requirements (the document's when op states
// none); nil when there are none to enforce. A requirement naming a
// scheme the document does not define is one no request can be held to:
// it is left out.
func CompileSecurity(doc *openapi3.T, op *openapi3.Operation) *Security {
	reqs := doc.Security
	if op.Security != nil {
		reqs = *op.Security
	}
	if len(reqs) == 0 {
		return nil
	}
	sec := &Security{}
	for _, req := range reqs {
		if len(req) == 0 {
			sec.Optional = true
			continue
		}
		names := make([]string, 0, len(req))
		for name := range req {
			names = append(names, name)
		}
		slices.Sort(names)
		var alt []Scheme
		for _, name := range names {
			if doc.Components == nil || doc.Components.SecuritySchemes[name] == nil || doc.Components.SecuritySchemes[name].Value == nil {
				continue
			}
			v := doc.Components.SecuritySchemes[name].Value
			alt = append(alt, Scheme{Name: name, Type: v.Type, In: strings.ToLower(v.In), Param: v.Name, HTTP: strings.ToLower(v.Scheme)})
		}
		if len(alt) == 0 {
			sec.Optional = true // nothing it names can be checked
			continue
		}
		sec.Alternatives = append(sec.Alternatives, alt)
	}
	if len(sec.Alternatives) == 0 {
		return nil
	}
	return sec
}

// Outcome is what Check found.
type Outcome struct {
	OK bool
	// Tokens are the tokens of the satisfied alternative that judge
	// accepted (bearer tokens, apiKey values without a leading word).
	Tokens []string
	// Refused: a credential was there but judge refused it (an expired
	// token); else none was there.
	Refused bool
	// Challenge is the WWW-Authenticate of a refusal: one challenge per
	// scheme of the requirements.
	Challenge string
}

// Check holds r to s. A credential the mock cannot verify is accepted when
// present (any apiKey value, any bearer token, any well-formed basic
// credentials); judge is asked about each token found, with the scheme it
// was found for, and refuses those it can tell are bad (the mock's own
// tokens, expired or tampered).
func (s *Security) Check(r *http.Request, judge func(sc Scheme, token string) bool) Outcome {
	var out Outcome
	for _, alt := range s.Alternatives {
		var tokens []string
		ok := true
		for _, sc := range alt {
			tok, found := sc.credential(r)
			if !found {
				ok = false
				break
			}
			if tok != "" && judge != nil && !judge(sc, tok) {
				out.Refused, ok = true, false
				break
			}
			if tok != "" {
				tokens = append(tokens, tok)
			}
		}
		if ok {
			return Outcome{OK: true, Tokens: tokens}
		}
	}
	if s.Optional && !out.Refused {
		return Outcome{OK: true}
	}
	out.Challenge = s.Challenge()
	return out
}

// Bearer reports whether sc takes a bearer token in the Authorization
// header: an http bearer scheme, OAuth2 or OpenID Connect.
func (sc Scheme) Bearer() bool {
	switch sc.Type {
	case "oauth2", "openIdConnect":
		return true
	case "http":
		return sc.HTTP == "bearer"
	}
	return false
}

// credential is what r carries for sc: the token to judge ("" for basic
// credentials and schemes with nothing to judge), and whether it carries
// any.
func (sc Scheme) credential(r *http.Request) (string, bool) {
	switch sc.Type {
	case "apiKey":
		var v string
		switch sc.In {
		case "header":
			v = r.Header.Get(sc.Param)
		case "query":
			v = r.URL.Query().Get(sc.Param)
		case "cookie":
			if c, err := r.Cookie(sc.Param); err == nil {
				v = c.Value
			}
		}
		v = strings.TrimSpace(v)
		if v == "" {
			return "", false
		}
		// "Token <jwt>", "Bearer <jwt>": the value with a leading word is
		// accepted as it is, its last word judged.
		if _, last, ok := strings.Cut(v, " "); ok && strings.TrimSpace(last) != "" {
			v = strings.TrimSpace(last)
		}
		return v, true
	case "http":
		scheme, param, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		param = strings.TrimSpace(param)
		if !strings.EqualFold(scheme, sc.HTTP) || param == "" {
			return "", false
		}
		switch sc.HTTP {
		case "basic":
			return "", basicWellFormed(param)
		case "bearer":
			return param, true
		}
		return "", true
	case "oauth2", "openIdConnect":
		scheme, param, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		param = strings.TrimSpace(param)
		if !strings.EqualFold(scheme, "bearer") || param == "" {
			return "", false
		}
		return param, true
	}
	// mutualTLS and types of later versions: nothing the mock can check.
	return "", true
}

// basicWellFormed reports whether param is base64 of user:password.
func basicWellFormed(param string) bool {
	data, err := base64.StdEncoding.DecodeString(param)
	if err != nil {
		data, err = base64.RawStdEncoding.DecodeString(param)
	}
	return err == nil && strings.Contains(string(data), ":")
}

// Challenge is the WWW-Authenticate of a refusal: a challenge for each
// scheme the requirements name, once each, in their order.
func (s *Security) Challenge() string {
	var out []string
	add := func(c string) {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	for _, alt := range s.Alternatives {
		for _, sc := range alt {
			switch sc.Type {
			case "http":
				if sc.HTTP != "" {
					add(strings.ToUpper(sc.HTTP[:1]) + sc.HTTP[1:])
				}
			case "oauth2", "openIdConnect":
				add("Bearer")
			case "apiKey":
				add(`ApiKey in="` + sc.In + `", name="` + strings.ReplaceAll(sc.Param, `"`, `'`) + `"`)
			}
		}
	}
	return strings.Join(out, ", ")
}
