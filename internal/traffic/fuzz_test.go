package traffic_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/internal/traffic"
)

// FuzzLoad feeds Load anything: it refuses with an error naming the input,
// or gives calls within the limits; never a panic or a hang, and every
// call matches to an operation or says why not.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(harSample))
	f.Add([]byte(journalSample))
	f.Add([]byte(`{"log":{"entries":[{"request":{"method":"POST","url":"http://h/a?b=1","headers":[{"name":"Content-Type","value":"multipart/form-data"}],"postData":{"mimeType":"multipart/form-data","params":[{"name":"f","fileName":"a.txt","value":"x"}]}},"response":{"status":200,"content":{"text":"e30=","encoding":"base64"}}}]}}`))
	f.Add([]byte(`[{"method":"POST","path":"/x","headers":{"Content-Type":["multipart/form-data; boundary=b"]},"form":{"a":"b"},"status":201}]`))
	if b, err := os.ReadFile("../../testdata/traffic/movies-page.har"); err == nil {
		f.Add(b)
	}
	m := movies(f)
	lim := traffic.Limits{MaxBytes: 1 << 20, MaxCalls: 50, MaxBody: 1 << 10}
	f.Fuzz(func(t *testing.T, data []byte) {
		src, err := traffic.Load(bytes.NewReader(data), "fuzz.har", lim)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.har: ") {
				t.Fatalf("error names no file: %v", err)
			}
			return
		}
		if len(src.Calls) > lim.MaxCalls {
			t.Fatalf("%d calls, over %d", len(src.Calls), lim.MaxCalls)
		}
		for _, c := range src.Calls {
			if len(c.Body) > lim.MaxBody || len(c.Response) > lim.MaxBody {
				t.Fatalf("call %d: body %d, response %d bytes, over %d", c.Index, len(c.Body), len(c.Response), lim.MaxBody)
			}
			if c.Status <= 0 || c.Index <= 0 || !strings.HasPrefix(c.Path, "/") {
				t.Fatalf("call %+v", c)
			}
		}
		for _, mt := range traffic.Match(src, m) {
			if (mt.Op == nil) == (mt.Why == "") {
				t.Fatalf("match %v: op %v why %q", mt.Call, mt.Op, mt.Why)
			}
		}
	})
}
