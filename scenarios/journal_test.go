package scenarios

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/internal/model"
)

func TestRedactJSON(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"username":"a","password":"p"}`, `{"username":"a","password":"[redacted]"}`},
		{`{"user":{"new_password":{"x":1},"name":"b"},"list":[{"client_secret":"s"},1,"two",null]}`,
			`{"user":{"new_password":"[redacted]","name":"b"},"list":[{"client_secret":"[redacted]"},1,"two",null]}`},
		{`{"pass\u0077ord":"p","refresh_token":"t","token":"u","tokens":3}`, `{"pass\u0077ord":"[redacted]","refresh_token":"[redacted]","token":"[redacted]","tokens":"[redacted]"}`},
		{`{"detail":[{"type":"string_too_short","loc":["body","password"],"msg":"short","input":"SECRETX"},{"loc":["body","title"],"input":"kept"}]}`,
			`{"detail":[{"type":"string_too_short","loc":["body","password"],"msg":"short","input":"[redacted]"},{"loc":["body","title"],"input":"kept"}]}`},
		// What the request sent in secret fields: blanked where echoed,
		// inside a longer string only from minEcho bytes.
		{`{"echo":"hunt3r","note":"hunt3r was sent","msg":"longer-secret-1 is weak","other":"hunt"}`,
			`{"echo":"[redacted]","note":"hunt3r was sent","msg":"[redacted]","other":"hunt"}`},
		{`[]`, `[]`},
		{`{}`, `{}`},
		{`"password"`, `"password"`},
		{`12.5e3`, `12.5e3`},
	} {
		if got := string(redactJSON([]byte(c.in), model.SecretName, []string{"hunt3r", "longer-secret-1"}, nil)); got != c.want {
			t.Errorf("redactJSON(%s)\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}

// The journal keeps the answer's content type and, for a JSON body of at
// most 16 KiB, the body compacted with its secrets blanked: what replay
// compares a new answer's shape with. A larger body is named in Truncated
// and counted in the journal's bytes only as its note.
func TestJournalKeepsTheAnswer(t *testing.T) {
	big := `[` + strings.Repeat(`"aaaaaaaaaa",`, 2000) + `"a"]`
	for _, tc := range []struct {
		name, ct, encoding, body string
		want                     Answer
		truncated                []string
	}{
		{"json", "application/json", "", "{ \"id\": 1,\n \"access_token\": \"abc\" }",
			Answer{Type: "application/json", Body: json.RawMessage(`{"id":1,"access_token":"[redacted]"}`), Bytes: 35}, nil},
		{"empty", "", "", "", Answer{}, nil},
		{"text", "text/plain; charset=utf-8", "", "hello", Answer{Type: "text/plain; charset=utf-8", Bytes: 5, Note: "not JSON"}, nil},
		{"encoded", "application/json", "gzip", "\x1f\x8b", Answer{Type: "application/json", Bytes: 2, Note: "encoded: gzip"}, nil},
		{"large", "application/json", "", big, Answer{Type: "application/json", Bytes: int64(len(big)), Note: "larger than 16384 bytes, not kept"}, []string{"response"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := testEngine(t, Options{})
			h := e.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tc.ct != "" {
					w.Header().Set("Content-Type", tc.ct)
				}
				if tc.encoding != "" {
					w.Header().Set("Content-Encoding", tc.encoding)
				}
				w.WriteHeader(http.StatusOK)
				// In pieces, as a handler may write it.
				for b := []byte(tc.body); len(b) > 0; b = b[min(len(b), 1000):] {
					w.Write(b[:min(len(b), 1000)])
				}
			}))
			h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/person/1", nil))
			// The body is kept as sent and redacted when first read: by
			// the stream (after) as by the journal's list.
			if got, _ := e.journal.after(0, Filter{}, e.template); len(got) != 1 || got[0].Response == nil ||
				string(got[0].Response.Body) != string(tc.want.Body) || got[0].Response.raw != nil {
				t.Fatalf("the stream reads %+v", got)
			}
			got := e.Journal(Filter{})
			if len(got) != 1 || got[0].Response == nil {
				t.Fatalf("entries %+v", got)
			}
			if r := *got[0].Response; r.Type != tc.want.Type || string(r.Body) != string(tc.want.Body) || r.Bytes != tc.want.Bytes || r.Note != tc.want.Note {
				t.Errorf("response %+v body %s, want %+v body %s", r, r.Body, tc.want, tc.want.Body)
			}
			if !slices.Equal(got[0].Truncated, tc.truncated) {
				t.Errorf("truncated %q, want %q", got[0].Truncated, tc.truncated)
			}
			// The entry's own 512, its headers, and what it keeps of the answer.
			r := got[0].Response
			kept := int64(64 + len(r.Type) + len(r.Body) + len(r.Note))
			if held := e.journal.held(); held < 512+kept || held > 512+kept+256 {
				t.Errorf("the journal holds %d bytes for an entry keeping %d of its answer", held, kept)
			}
		})
	}
}
