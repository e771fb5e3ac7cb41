package fastapi

import (
	"testing"

	"github.com/moviemock/moviemock/internal/spec"
)

// dateParams is GET /d of `def d(when: date, at: datetime | None = None)`
// as FastAPI 0.141.1 writes it.
const dateParams = `{"openapi":"3.1.0","info":{"title":"FastAPI","version":"0.1.0"},"paths":{"/d":{"get":{"operationId":"d_d_get",
"parameters":[{"name":"when","in":"query","required":true,"schema":{"type":"string","format":"date","title":"When"}},
{"name":"at","in":"query","required":false,"schema":{"anyOf":[{"type":"string","format":"date-time"},{"type":"null"}],"title":"At"}}],
"responses":{"200":{"description":"Successful Response","content":{"application/json":{"schema":{}}}}}}}}}`

// Date and datetime parameters are parsed as pydantic parses them; the
// expected bodies are the real FastAPI 0.141.1's answers to GET /d?NAME=RAW.
func TestDateParameters(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(dateParams), "dates.json")
	if err != nil {
		t.Fatal(err)
	}
	item := sp.Doc.Paths.Find("/d")
	ins, err := CompileInputs(sp, item.Get, item)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, raw, want string // want: the 422 body, "" accepted
	}{
		{"when", "2024-01-02", ""},
		{"when", "moviemock", `{"detail":[{"type":"date_from_datetime_parsing","loc":["query","when"],"msg":"Input should be a valid date or datetime, input is too short","input":"moviemock","ctx":{"error":"input is too short"}}]}`},
		{"when", "2024-13-01", `{"detail":[{"type":"date_from_datetime_parsing","loc":["query","when"],"msg":"Input should be a valid date or datetime, month value is outside expected range of 1-12","input":"2024-13-01","ctx":{"error":"month value is outside expected range of 1-12"}}]}`},
		{"when", "2024-01-02T03:04:05Z", `{"detail":[{"type":"date_from_datetime_inexact","loc":["query","when"],"msg":"Datetimes provided to dates should have zero time - e.g. be exact dates","input":"2024-01-02T03:04:05Z"}]}`},
		{"when", "1700000000", `{"detail":[{"type":"date_from_datetime_inexact","loc":["query","when"],"msg":"Datetimes provided to dates should have zero time - e.g. be exact dates","input":"1700000000"}]}`},
		{"at", "2024-01-02", ""},
		{"at", "2024-01-02T03:04:05Z", ""},
		{"at", "moviemock", `{"detail":[{"type":"datetime_from_date_parsing","loc":["query","at"],"msg":"Input should be a valid datetime or date, input is too short","input":"moviemock","ctx":{"error":"input is too short"}}]}`},
		{"at", "2024-01-02T25:00:00", `{"detail":[{"type":"datetime_from_date_parsing","loc":["query","at"],"msg":"Input should be a valid datetime or date, unexpected extra characters at the end of the input","input":"2024-01-02T25:00:00","ctx":{"error":"unexpected extra characters at the end of the input"}}]}`},
	} {
		t.Run(tc.name+"="+tc.raw, func(t *testing.T) {
			t.Parallel()
			for i := range ins.List {
				in := &ins.List[i]
				if in.Name != tc.name {
					continue
				}
				_, item := in.Check(sp, tc.raw, true)
				got := ""
				if item != nil {
					got = string(AppendValidationBody(nil, []ErrorItem{*item}))
				}
				if got != tc.want {
					t.Errorf("got  %s\nwant %s", got, tc.want)
				}
			}
		})
	}
}
