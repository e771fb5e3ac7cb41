package compare

import (
	"fmt"
	"maps"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"
)

// nullMediaType is where doc holds a media type written as null
// (`content: {text/plain: null}`), which kin-openapi v0.152.0 loads as a
// nil *MediaType and oasdiff v1.35.0 then fails on ("media type is nil")
// or passes over, depending on the side: "" when it holds none. Both
// sides are held to it alike, before they are compared.
func nullMediaType(doc *openapi3.T) string {
	if doc == nil {
		return ""
	}
	if doc.Paths != nil {
		for _, path := range slices.Sorted(maps.Keys(doc.Paths.Map())) {
			item := doc.Paths.Value(path)
			if item == nil {
				continue
			}
			if w := inParameters(item.Parameters); w != "" {
				return path + ": " + w
			}
			ops := item.Operations()
			for _, method := range slices.Sorted(maps.Keys(ops)) {
				if w := inOperation(ops[method]); w != "" {
					return method + " " + path + ": " + w
				}
			}
		}
	}
	if c := doc.Components; c != nil {
		for _, name := range slices.Sorted(maps.Keys(c.RequestBodies)) {
			if rb := c.RequestBodies[name]; rb != nil && rb.Value != nil {
				if w := inContent(rb.Value.Content); w != "" {
					return "components.requestBodies." + name + ": " + w
				}
			}
		}
		for _, name := range slices.Sorted(maps.Keys(c.Responses)) {
			if w := inResponse(c.Responses[name]); w != "" {
				return "components.responses." + name + ": " + w
			}
		}
		for _, name := range slices.Sorted(maps.Keys(c.Parameters)) {
			if w := inParameters(openapi3.Parameters{c.Parameters[name]}); w != "" {
				return "components.parameters." + name + ": " + w
			}
		}
		for _, name := range slices.Sorted(maps.Keys(c.Headers)) {
			if h := c.Headers[name]; h != nil && h.Value != nil {
				if w := inContent(h.Value.Content); w != "" {
					return "components.headers." + name + ": " + w
				}
			}
		}
	}
	return ""
}

func inOperation(op *openapi3.Operation) string {
	if op == nil {
		return ""
	}
	if w := inParameters(op.Parameters); w != "" {
		return w
	}
	if rb := op.RequestBody; rb != nil && rb.Value != nil {
		if w := inContent(rb.Value.Content); w != "" {
			return "request body: " + w
		}
	}
	if op.Responses != nil {
		for _, status := range slices.Sorted(maps.Keys(op.Responses.Map())) {
			if w := inResponse(op.Responses.Value(status)); w != "" {
				return "response " + status + ": " + w
			}
		}
	}
	return ""
}

func inResponse(r *openapi3.ResponseRef) string {
	if r == nil || r.Value == nil {
		return ""
	}
	if w := inContent(r.Value.Content); w != "" {
		return w
	}
	for _, name := range slices.Sorted(maps.Keys(r.Value.Headers)) {
		if h := r.Value.Headers[name]; h != nil && h.Value != nil {
			if w := inContent(h.Value.Content); w != "" {
				return "header " + name + ": " + w
			}
		}
	}
	return ""
}

func inParameters(ps openapi3.Parameters) string {
	for _, p := range ps {
		if p == nil || p.Value == nil {
			continue
		}
		if w := inContent(p.Value.Content); w != "" {
			return fmt.Sprintf("%s parameter %s: %s", p.Value.In, p.Value.Name, w)
		}
	}
	return ""
}

func inContent(c openapi3.Content) string {
	for _, mt := range slices.Sorted(maps.Keys(c)) {
		if c[mt] == nil {
			return fmt.Sprintf("content %q is null, not a Media Type Object (write {} for a media type that says nothing more)", mt)
		}
	}
	return ""
}
