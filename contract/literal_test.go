package contract_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/reference"
	"github.com/moviemock/moviemock/internal/spec"
)

// TestLiteralParametersNoFalseAlarm: FastAPI refuses every value sent as
// text for a Literal of ints or bools (testdata/literalapp: ?n=1 is a 422
// for Literal[1, 2]), so against the real app no case that expects an
// answer sends one, a filter of a list such a parameter is included, and a
// note says why each is left out.
func TestLiteralParametersNoFalseAlarm(t *testing.T) {
	t.Parallel()
	b := reference.StartApp(t, reference.App{Dir: "testdata/literalapp", Module: "literalapp"})
	resp, err := http.Get(b.URL + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Load(doc, "openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	report, err := contract.Run(ctx, contract.Config{MaxResponseTime: slowOK, BaseURL: b.URL, Spec: sp})
	if err != nil {
		t.Fatal(err)
	}
	if f := failed(report); len(f) > 0 {
		t.Errorf("%d failures on a correct FastAPI app:\n%s", len(f), strings.Join(f, "\n"))
	}
	notes := strings.Join(report.Notes, "\n")
	for _, want := range []string{
		`things_things_get: query "level" is a Literal of 1 or 2`,
		`opt_opt_get: query "n" is a Literal of 1 or 2`,
		`opt_opt_get: query "b" is a Literal of True, which pydantic compares with the text sent itself ("true" is not True)`,
		`req_req_get: no positive case: query "n" is a Literal of 1 or 2`,
		`path_path__n__get: no positive case: path "n" is a Literal of 1 or 2`,
		`head_head_get: header "x-n" is a Literal of 1 or 2`,
		`head_head_get: header "x-b" is a Literal of False`,
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("no note %q in:\n%s", want, notes)
		}
	}
	if strings.Contains(notes, `query "s"`) {
		t.Errorf("a Literal of strings is noted as never accepted:\n%s", notes)
	}
}
