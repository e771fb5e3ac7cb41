package contract

import (
	"encoding/json"
	"fmt"
	"mime"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/internal/spec"
)

// BodyConforms validates a response body against the schema op declares for
// its status (or "default") and media type. declared is false when op
// declares no body for that status, so there is nothing to validate.
//
// It validates with spec.Validate rather than openapi3filter.ValidateResponse:
// for a 3.1 document kin-openapi v0.152.0 recompiles the schema on every
// response, and its fallback validator refuses null where the schema sets no
// type (ValidationError.input), which a correct FastAPI server sends.
func BodyConforms(sp *spec.Spec, op *openapi3.Operation, status int, contentType string, body []byte) (declared bool, err error) {
	resp := op.Responses.Value(strconv.Itoa(status))
	if resp == nil {
		resp = op.Responses.Default()
	}
	if resp == nil || resp.Value == nil || len(resp.Value.Content) == 0 {
		return false, nil
	}
	mt, _, _ := mime.ParseMediaType(contentType)
	media := resp.Value.Content.Get(mt)
	if media == nil {
		return true, fmt.Errorf("media type %q is not declared for %d", contentType, status)
	}
	if media.Schema == nil || media.Schema.Value == nil {
		return true, nil
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return true, fmt.Errorf("body is not JSON: %v", err)
	}
	return true, sp.Validate(media.Schema.Value, v, true)
}
