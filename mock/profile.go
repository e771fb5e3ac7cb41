package mock

import (
	"mime"
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/openapiprofile"
)

// refuse answers a refusal as the plain-OpenAPI profile words it: status,
// in the shape o's operation declares for it (o nil: a request of no
// operation), and reports whether it did. Under FastAPI's profile it
// writes nothing: the caller writes FastAPI's answer.
func (s *Server) refuse(w http.ResponseWriter, o *operation, status int, problems ...openapiprofile.Problem) bool {
	if s.oa == nil {
		return false
	}
	var op *openapi3.Operation
	if o != nil {
		op = o.m.Op
	}
	s.oa.Write(w, op, status, problems)
	return true
}

// refuseInput answers invalid input as the plain-OpenAPI profile does: the
// status o declares for it, the items in neutral words. False under
// FastAPI's profile, which answers its 422.
func (s *Server) refuseInput(w http.ResponseWriter, o *operation, items []fastapi.ErrorItem) bool {
	if s.oa == nil {
		return false
	}
	s.oa.Write(w, o.m.Op, openapiprofile.BadInputStatus(o.m.Op), openapiprofile.Problems(items))
	return true
}

// problem is a refusal of the whole request, in words.
func problem(detail string) openapiprofile.Problem { return openapiprofile.Problem{Detail: detail} }

// conflictStatus is the status of a write refused for a taken unique
// value under the plain-OpenAPI profile: 409 where o declares it, else
// the status it declares for bad input.
func (s *Server) conflictStatus(o *operation) int {
	if o.m.Op.Responses != nil && o.m.Op.Responses.Value("409") != nil {
		return http.StatusConflict
	}
	return openapiprofile.BadInputStatus(o.m.Op)
}

// unsupportedMedia answers 415 under the plain-OpenAPI profile when o
// takes a JSON body and r sends a body of another declared Content-Type,
// and reports whether it did. FastAPI reads such a body as bytes and
// refuses it with its 422 instead.
func (s *Server) unsupportedMedia(w http.ResponseWriter, o *operation, r *http.Request) bool {
	if s.oa == nil || o.inputs.JSON == nil || r.ContentLength == 0 {
		return false
	}
	ct := r.Header.Get("Content-Type")
	if ct == "" || fastapi.IsJSONContentType(ct) {
		return false
	}
	if rb := o.m.Op.RequestBody; rb != nil && rb.Value != nil {
		if mt, _, err := mime.ParseMediaType(ct); err == nil && rb.Value.Content.Get(mt) != nil {
			// Declared beside JSON (petstore's XML and form): accepted
			// as sent (see fastapi.JSONBody.Others).
			return false
		}
	}
	w.Header().Set("Accept", "application/json")
	return s.refuse(w, o, http.StatusUnsupportedMediaType, openapiprofile.Problem{In: "body", Detail: "media type " + ct + " is not supported: send application/json"})
}
