package main

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/openapiprofile"
	"github.com/moviemock/moviemock/internal/problems"
)

// explain writes why the operation name ("METHOD /path" or an
// operationId) is answered as it is: by which convention and collection,
// or from its example and why; in which media types; what it validates;
// and what of it is not enforced as declared.
func explain(w io.Writer, cmd string, m *model.Model, name string) error {
	var o *model.Operation
	for _, op := range m.Operations {
		if model.Named(name, op.ID, op.Method, op.Path) {
			o = op
			break
		}
	}
	if o == nil {
		return usagef("%s: --explain %q: no such operation (give its operationId or \"METHOD /path\")", cmd, name)
	}
	var b strings.Builder
	line := func(label, format string, args ...any) {
		fmt.Fprintf(&b, "  %-11s %s\n", label, fmt.Sprintf(format, args...))
	}
	title := o.String()
	if o.ID != "" {
		title += " (operationId " + o.ID + ")"
	}
	fmt.Fprintf(&b, "%s\n", title)
	line("framework", "%s (%s)", m.Framework, m.FrameworkWhy)
	switch {
	case o.InputsErr != nil:
		line("answered", "from its example: its inputs cannot be validated as declared (%v)", o.InputsErr)
	case o.Kind == model.Example:
		line("answered", "from its example or its schema: %s", o.Why)
	default:
		what := "by convention: " + o.Kind.String()
		if o.Coll != nil {
			what += " " + o.Coll.Name + " (collection " + o.Coll.File + ")"
		}
		if o.IDParam != "" {
			what += ", the record named by path parameter " + o.IDParam
		}
		if o.ParentParam != "" {
			what += ", under path parameter " + o.ParentParam
		}
		if o.Link != nil {
			what += fmt.Sprintf(", each record shown with %s: the URL of its GET %s", o.Link.Member, o.Link.Path)
		}
		line("answered", "%s", what)
	}
	success := strconv.Itoa(o.Status)
	if o.Media != "" {
		success += " " + o.Media
	}
	line("success", "%s", success)
	if resp := o.Op.Responses.Value(o.StatusKey); resp != nil && resp.Value != nil && len(resp.Value.Content) > 1 {
		var media []string
		for mt := range resp.Value.Content {
			media = append(media, mt)
		}
		sort.Strings(media)
		line("", "declared in %s", strings.Join(media, ", "))
	}
	var ins []string
	for _, in := range o.Inputs.List {
		s := in.In + " " + in.Name
		if in.Required {
			s += " (required)"
		}
		ins = append(ins, s)
	}
	switch {
	case o.Inputs.JSON != nil:
		ins = append(ins, "a JSON body")
	case o.Inputs.Raw != nil:
		ins = append(ins, "a "+o.Inputs.Raw.MediaType+" body, accepted as sent")
	}
	if len(ins) == 0 {
		ins = append(ins, "none")
	}
	line("inputs", "%s", strings.Join(ins, "; "))
	if m.Framework != framework.FastAPI {
		// The plain-OpenAPI profile holds a request to every scheme
		// the operation declares, alternatives and all.
		if sec := openapiprofile.CompileSecurity(m.Spec.Doc, o.Op); sec != nil {
			line("security", "%s", securityWords(sec))
		}
	} else if o.Secured || o.Basic {
		line("security", "%s", securityWord(o))
	}
	if len(o.Degraded) == 0 {
		line("degraded", "none")
	} else {
		line("degraded", "%s:", problems.Plural(len(o.Degraded), "construct not enforced as declared", "constructs not enforced as declared"))
		for _, d := range o.Degraded {
			line("", "%s", d)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func securityWord(o *model.Operation) string {
	if o.Basic {
		return "HTTP basic: a 401 unless the request carries credentials"
	}
	return "a bearer token: a 401 without one"
}

// securityWords says what credentials open an operation under the
// plain-OpenAPI profile: its alternatives, each all of its schemes.
func securityWords(sec *openapiprofile.Security) string {
	var alts []string
	for _, alt := range sec.Alternatives {
		words := make([]string, 0, len(alt))
		for _, sc := range alt {
			words = append(words, schemeWords(sc))
		}
		if len(words) > 0 {
			alts = append(alts, strings.Join(words, " and "))
		}
	}
	switch {
	case len(alts) == 0 && sec.Optional:
		return "none required"
	case sec.Optional:
		return "optional: " + strings.Join(alts, "; or ")
	case len(alts) == 1:
		return alts[0] + ": a 401 without"
	}
	return "any of " + strings.Join(alts, "; or ") + ": a 401 without"
}

func schemeWords(sc openapiprofile.Scheme) string {
	switch {
	case sc.Type == "apiKey":
		return fmt.Sprintf("an API key in the %s %s (%s)", sc.In, sc.Param, sc.Name)
	case sc.Type == "http" && sc.HTTP == "basic":
		return "HTTP basic credentials (" + sc.Name + ")"
	case sc.Type == "http" && sc.HTTP == "bearer", sc.Type == "oauth2", sc.Type == "openIdConnect":
		return "a bearer token (" + sc.Name + ")"
	}
	return sc.Type + " " + sc.HTTP + " (" + sc.Name + ")"
}
