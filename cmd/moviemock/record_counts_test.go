package main

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/moviemock/moviemock/mock"
)

// The line on exit gives the records the last write wrote and those it
// left out, as the write's own line did, not the records kept; a recording
// that reached its budget says so.
func TestProxyRecordCounts(t *testing.T) {
	t.Parallel()
	m, err := mock.New(mock.Config{DisableAdmin: true})
	if err != nil {
		t.Fatal(err)
	}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/person/2" {
			// A person whose name is a number: left out of the recording.
			rec := httptest.NewRecorder()
			m.ServeHTTP(rec, r)
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(strings.Replace(rec.Body.String(), `"name":"`, `"name":5,"x":"`, 1)))
			return
		}
		m.ServeHTTP(w, r)
	}))
	t.Cleanup(up.Close)
	for _, tc := range []struct {
		name  string
		args  []string
		reads []string
		want  []string
	}{
		{"one left out", nil, []string{"/person/1", "/person/2"},
			[]string{"moviemock: proxy: 1 record recorded into", "; 1 record left out:", "moviemock proxy: 1 record recorded into", ", 1 left out (see above)"}},
		{"budget", []string{"--record-max-records", "1"}, []string{"/person/1", "/person/3", "/person/4"},
			[]string{"moviemock proxy: 1 record recorded into", "the recording stopped at an answer of GET /person/{person_id}", "--record-max-records"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "recorded")
			p := startProxy(t, up.URL, append([]string{"--record", dir, "--record-interval", "0"}, tc.args...)...)
			for _, path := range tc.reads {
				expectCall(t, p.base, "GET", path, "", 200, "")
			}
			if err := p.stop(t); err != nil {
				t.Fatalf("proxy: %v", err)
			}
			log := p.stderr.String()
			for _, want := range tc.want {
				if !strings.Contains(log, want) {
					t.Errorf("the log lacks %q:\n%s", want, log)
				}
			}
		})
	}
}
