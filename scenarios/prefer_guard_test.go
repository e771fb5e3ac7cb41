package scenarios_test

import (
	"strings"
	"testing"

	"github.com/moviemock/moviemock/mock"
	"github.com/moviemock/moviemock/scenarios"
)

// Prefer: code=1xx would have net/http send an interim status and then a
// 200 on the same connection; it is refused as other bad preferences are.
func TestPreferInterimCode(t *testing.T) {
	t.Parallel()
	ts, _ := newServer(t, mock.Config{})
	c := newClient(t, ts, "", "")
	for _, code := range []string{"100", "103", "199", "101, example=sparse"} {
		c.header.Set("Prefer", "code="+code)
		a := c.get("/person/1")
		n, _, _ := strings.Cut(code, ",")
		c.want("code="+code, a, 400, `{"detail":"moviemock: Prefer: code=`+n+` is an interim (1xx) status, not an answer; choose a final status, 200 to 599"}`)
		if a.header.Get(scenarios.HeaderError) != "true" {
			t.Errorf("code=%s: no %s: %v", code, scenarios.HeaderError, a.header)
		}
	}
	c.header.Set("Prefer", "code=200")
	c.want("code=200", c.get("/person/1"), 200, "")
}

// A named example of an operation that reads one record by id is that
// record: the example with the path's id.
func TestPreferExampleKeepsPathID(t *testing.T) {
	t.Parallel()
	ts, _ := newServer(t, mock.Config{})
	c := newClient(t, ts, "", "")
	const sparse = `,"name":"Unknown Extra","biography":null,"poster":null,"birthday":null,"deathday":null,"place_of_birth":null,"known_for_department":null,"known_for":[]}`
	for _, tc := range []struct {
		prefer, path string
		status       int
		body         string
	}{
		{"example=sparse", "/person/7", 200, `{"id":7` + sparse},
		{"code=200, example=sparse", "/person/1234", 200, `{"id":1234` + sparse},
		{"example=sparse", "/person/007", 200, `{"id":7` + sparse},
		// Not an id FastAPI takes: the example as the contract gives it.
		{"example=sparse", "/person/abc", 200, `{"id":25` + sparse},
		{"code=200, example=empty", "/reviews", 200, "[]"},
	} {
		c.header.Set("Prefer", tc.prefer)
		c.want(tc.prefer+" "+tc.path, c.get(tc.path), tc.status, tc.body)
	}
	c.header.Set("Prefer", "example=full")
	a := c.get("/person/7")
	c.want("example=full /person/7", a, 200, "")
	conforms(t, "getPerson", a.body)
	if !strings.HasPrefix(a.body, `{"id":7,"name":"Brad Pitt"`) || a.header.Get("Preference-Applied") != "example=full" {
		t.Errorf("example=full /person/7: %s %v", a.body, a.header)
	}
}
