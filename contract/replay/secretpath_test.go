package replay_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/moviemock/moviemock/contract/replay"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/internal/traffic"
)

// secretPathDoc declares credentials in path parameters: by name, and by
// schema (a SecretStr: format password, writeOnly).
const secretPathDoc = `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{
 "/reset-password/{token}":{"get":{"parameters":[{"name":"token","in":"path","required":true,"schema":{"type":"string"}}],"responses":{"200":{"description":"OK","content":{"application/json":{"schema":{}}}}}}},
 "/codes/{code}":{"get":{"parameters":[{"name":"code","in":"path","required":true,"schema":{"type":"string","format":"password","writeOnly":true}}],"responses":{"200":{"description":"OK","content":{"application/json":{"schema":{}}}}}}}}}`

// A recorded call with a secret path parameter is sent as recorded, and
// reported with the value redacted; one whose recording kept the value
// redacted (a journal) is not sent, and the report says why.
func TestReplaySecretPathParameters(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(secretPathDoc), "openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var sent []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		sent = append(sent, r.URL.EscapedPath())
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{}`))
	}))
	t.Cleanup(srv.Close)
	get := func(i int, path string) traffic.Call {
		return traffic.Call{Index: i, Method: "GET", Path: path, Header: http.Header{}, Status: 200, ResponseType: "application/json", Response: []byte(`{}`), ResponseKept: true}
	}
	const token, code = "reset-secret-0123456789", "code-secret-0123456789"
	src := &traffic.Source{Kind: "journal", Name: "journal.json", Calls: []traffic.Call{
		get(1, "/reset-password/"+token), get(2, "/codes/"+code),
		get(3, "/reset-password/[redacted]"), get(4, "/codes/%5Bredacted%5D"),
	}}
	report, err := replay.Run(context.Background(), replay.Config{BaseURL: srv.URL, Source: src, Spec: sp})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"/reset-password/" + token, "/codes/" + code}; !slices.Equal(sent, want) {
		t.Errorf("sent %q, want %q: the recorded values, the redacted ones not at all", sent, want)
	}
	for i, want := range []struct{ path, skipped string }{
		{"/reset-password/[redacted]", ""},
		{"/codes/[redacted]", ""},
		{"/reset-password/[redacted]", "the recorded path's {token} was redacted (a journal never keeps a credential): not replayed"},
		{"/codes/[redacted]", "the recorded path's {code} was redacted (a journal never keeps a credential): not replayed"},
	} {
		if res := report.Results[i]; res.Path != want.path || res.Skipped != want.skipped {
			t.Errorf("call #%d: path %q, skipped %q; want %q, %q", res.Index, res.Path, res.Skipped, want.path, want.skipped)
		}
	}
	for _, format := range []string{"text", "json", "junit", "html"} {
		var b bytes.Buffer
		if err := write(report, format, &b); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), token) || strings.Contains(b.String(), code) {
			t.Errorf("%s report shows a secret path parameter:\n%s", format, b.String())
		}
	}
}
