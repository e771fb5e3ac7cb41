package scenarios_test

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/mock"
)

const (
	knownReview       = "b42bfd96-9925-4da9-8c96-eed6b998b81f"
	personNotFound    = `{"detail":"Person not found"}`
	reviewNotFound    = `{"detail":"Review not found"}`
	wrongLogin        = `{"detail":"Incorrect username or password"}`
	badCredentials    = `{"detail":"Could not validate credentials"}`
	internalError     = "Internal Server Error"
	serviceUnavailabe = "Service Unavailable"
)

// shippedTests proves each shipped scenario over real HTTP. Each runs in a
// session of its own on one shared server, so they also show that
// sessions do not share state.
var shippedTests = map[string]func(t *testing.T, c *client){
	"empty-catalog": func(t *testing.T, c *client) {
		c.want("list", c.get("/reviews"), 200, "[]")
		c.want("a review the data has", c.get("/reviews/"+knownReview), 404, reviewNotFound)
		c.want("people are untouched", c.get("/person/1"), 200, "")
	},
	"login-fails-then-succeeds": func(t *testing.T, c *client) {
		for i := range 3 {
			a := c.login("alice", "wonderland")
			c.want("refused login", a, 401, wrongLogin)
			if got := a.header.Get("WWW-Authenticate"); got != "Bearer" {
				t.Errorf("refusal %d: WWW-Authenticate %q", i+1, got)
			}
		}
		a := c.login("alice", "wonderland")
		c.want("fourth login", a, 200, "")
		if !strings.HasPrefix(a.body, `{"access_token":"ey`) {
			t.Errorf("fourth login: %s", a.body)
		}
		c.want("wrong password after", c.login("alice", "nope"), 401, wrongLogin)
	},
	"rate-limited": func(t *testing.T, c *client) {
		for i := range 5 {
			c.want("within the limit", c.get("/person/1"), 200, "")
			_ = i
		}
		a := c.get("/reviews")
		c.want("over the limit", a, 429, "")
		if a.header.Get("Retry-After") != "30" || !strings.Contains(a.body, "Rate limit exceeded") {
			t.Errorf("429: Retry-After %q, body %s", a.header.Get("Retry-After"), a.body)
		}
		c.want("still limited", c.login("alice", "wonderland"), 429, "")
	},
	"intermittent-errors": func(t *testing.T, c *client) {
		want := []int{200, 200, 503, 200, 200, 503, 500, 200, 503, 200}
		for i, status := range want {
			a := c.get("/person/1")
			c.want("request "+string(rune('1'+i)), a, status, "")
			switch status {
			case 503:
				if a.header.Get("Retry-After") != "1" || a.body != serviceUnavailabe {
					t.Errorf("503: Retry-After %q, body %q", a.header.Get("Retry-After"), a.body)
				}
			case 500:
				if a.body != internalError || !strings.HasPrefix(a.header.Get("Content-Type"), "text/plain") {
					t.Errorf("500: %q %q", a.header.Get("Content-Type"), a.body)
				}
			}
		}
	},
	"slow-network": func(t *testing.T, c *client) {
		start := time.Now()
		c.want("a person, slowly", c.get("/person/1"), 200, "")
		if d := time.Since(start); d < 300*time.Millisecond {
			t.Errorf("answered after %v, before the 300 ms minimum delay", d)
		}
		// The list trickles in: 512 bytes each 50 ms after the delay.
		normal := newClient(t, c.srv, "", "").get("/reviews")
		start = time.Now()
		a := c.get("/reviews")
		c.want("the list, trickled", a, 200, normal.body)
		chunks := (len(a.body) + 511) / 512
		if d, least := time.Since(start), 300*time.Millisecond+time.Duration(chunks-1)*50*time.Millisecond; d < least {
			t.Errorf("%d chunks arrived in %v, faster than %v", chunks, d, least)
		}
	},
	"flaky-connection": func(t *testing.T, c *client) {
		for i := range 6 {
			a := c.get("/person/1")
			if (i+1)%3 != 0 {
				c.want("a request between resets", a, 200, "")
				continue
			}
			if !errors.Is(a.err, syscall.ECONNRESET) {
				t.Errorf("request %d: want a connection reset, got %d %v", i+1, a.status, a.err)
			}
		}
	},
	"person-not-found": func(t *testing.T, c *client) {
		c.want("person 1", c.get("/person/1"), 404, personNotFound)
		c.want("person 007", c.get("/person/007"), 404, personNotFound)
		c.want("an invalid id still gets FastAPI's 422", c.get("/person/abc"), 422, "")
		c.want("reviews are untouched", c.get("/reviews/"+knownReview), 200, "")
	},
	"sparse-person": func(t *testing.T, c *client) {
		a := c.get("/person/1")
		c.want("person 1", a, 200, `{"id":1,"name":"Brad Pitt","biography":null,"poster":null,"birthday":null,"deathday":null,"place_of_birth":null,"known_for_department":null,"known_for":[]}`)
		conforms(t, "getPerson", a.body)
	},
	"unicode-content": func(t *testing.T, c *client) {
		a := c.get("/person/2")
		c.want("person 2", a, 200, "")
		conforms(t, "getPerson", a.body)
		var p struct {
			ID              int
			Name, Biography string
		}
		json.Unmarshal([]byte(a.body), &p)
		if p.ID != 2 || !strings.Contains(p.Name, "山田太郎") || !strings.Contains(p.Biography, "👩🏽‍🎤") || strings.Contains(a.body, `\u`) {
			t.Errorf("person: %s", a.body)
		}
		a = c.get("/reviews")
		conforms(t, "listReviews", a.body)
		var list []struct{ Content string }
		json.Unmarshal([]byte(a.body), &list)
		if len(list) != 60 {
			t.Fatalf("list of %d", len(list))
		}
		for _, r := range list {
			if !strings.Contains(r.Content, "𝔘𝔫𝔦𝔠𝔬𝔡𝔢") {
				t.Fatalf("content %q", r.Content)
			}
		}
		a = c.get("/reviews/" + knownReview)
		conforms(t, "getReview", a.body)
		if !strings.Contains(a.body, "\u202Eright-to-left override\u202C") {
			t.Errorf("review: %s", a.body)
		}
	},
	"huge-review-list": func(t *testing.T, c *client) {
		a := c.get("/reviews")
		c.want("the list", a, 200, "")
		var list []struct{ ID string }
		if err := json.Unmarshal([]byte(a.body), &list); err != nil || len(list) != 20000 {
			t.Fatalf("%d reviews, %v", len(list), err)
		}
		seen := map[string]bool{}
		for _, r := range list {
			if seen[r.ID] {
				t.Fatalf("duplicate id %s", r.ID)
			}
			seen[r.ID] = true
		}
		if len(a.body) < 4<<20 {
			t.Errorf("only %d bytes", len(a.body))
		}
		conforms(t, "listReviews", a.body)
	},
	"malformed-responses": func(t *testing.T, c *client) {
		normal := newClient(t, c.srv, "", "").get("/person/1").body
		// 1: half the body, then the connection closes.
		if a := c.get("/person/1"); !errors.Is(a.err, io.ErrUnexpectedEOF) || a.body != normal[:len(normal)/2] {
			t.Errorf("truncated: %v, %d of %d bytes", a.err, len(a.body), len(normal))
		}
		// 2: a proxy's HTML page, with status 200.
		a := c.get("/person/1")
		c.want("proxy page", a, 200, "<html><body><h1>502 Bad Gateway</h1></body></html>")
		if !strings.HasPrefix(a.header.Get("Content-Type"), "text/html") {
			t.Errorf("proxy page: %s", a.header.Get("Content-Type"))
		}
		// 3: JSON one byte short, with a Content-Length to match.
		a = c.get("/person/1")
		c.want("malformed", a, 200, normal[:len(normal)-1])
		if json.Valid([]byte(a.body)) {
			t.Error("malformed body is valid JSON")
		}
	},
	"server-hangs": func(t *testing.T, c *client) {
		c.http.Timeout = 300 * time.Millisecond
		start := time.Now()
		a := c.get("/person/1")
		var ne net.Error
		if !errors.As(a.err, &ne) || !ne.Timeout() {
			t.Fatalf("want a client timeout, got %d %v", a.status, a.err)
		}
		if d := time.Since(start); d < 300*time.Millisecond {
			t.Errorf("gave up after %v", d)
		}
		// A login is answered, if late on a loaded machine; only a hang
		// takes a minute.
		c.http.Timeout = time.Minute
		c.want("login still works", c.login("bob", "builder"), 200, "")
	},
	"token-expires": nil, // needs --require-auth: TestTokenExpires
}

func TestShippedScenarios(t *testing.T) {
	ts, srv := newServer(t, mock.Config{})
	for _, sc := range srv.Engine().Set().Scenarios() {
		test, ok := shippedTests[sc.Name]
		if !ok {
			t.Errorf("scenario %s ships without a test", sc.Name)
			continue
		}
		if test == nil {
			continue
		}
		t.Run(sc.Name, func(t *testing.T) {
			t.Parallel()
			c := newClient(t, ts, sc.Name, "test-"+sc.Name)
			test(t, c)
		})
	}
}

func TestTokenExpires(t *testing.T) {
	ts, _ := newServer(t, mock.Config{RequireAuth: true, Scenario: "token-expires"})
	c := newClient(t, ts, "", "")
	c.want("without a token", c.get("/person/1"), 401, `{"detail":"Not authenticated"}`)
	for round := range 2 {
		a := c.login("carol", "singalong")
		c.want("login", a, 200, "")
		var tok struct {
			AccessToken string `json:"access_token"`
		}
		json.Unmarshal([]byte(a.body), &tok)
		c.header.Set("Authorization", "Bearer "+tok.AccessToken)
		for i := range 3 {
			c.want("read with a fresh token", c.get("/reviews/"+knownReview), 200, "")
			_ = i
		}
		for range 2 {
			a := c.get("/person/1")
			c.want("read once the token expired", a, 401, badCredentials)
			if a.header.Get("WWW-Authenticate") != "Bearer" {
				t.Errorf("round %d: no WWW-Authenticate", round)
			}
		}
	}
}

// conforms fails t unless body is what the contract lets operation answer
// with 200.
func conforms(t *testing.T, operation, body string) {
	t.Helper()
	sp := embedded(t)
	for _, item := range sp.Doc.Paths.Map() {
		for _, op := range item.Operations() {
			if op.OperationID != operation {
				continue
			}
			if _, err := contract.BodyConforms(sp, op, http.StatusOK, "application/json", []byte(body)); err != nil {
				t.Errorf("%s: %v", operation, err)
			}
			return
		}
	}
	t.Fatalf("no operation %s", operation)
}
