package contract_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/moviemock/moviemock/contract"
)

// observeNow is the clock of every observer test: exchanges happen at it.
var observeNow = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

const observeSecret = "observer-test-secret"

// signed is a bearer token signed with secret, expiring at exp.
func signed(t testing.TB, secret string, exp time.Time) string {
	t.Helper()
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"sub": "alice", "exp": exp.Unix()}).SignedString([]byte(secret))
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// review is a movies-contract Review; edit changes it before it is encoded.
func review(id, movie string, edit func(map[string]any)) map[string]any {
	r := map[string]any{
		"id": id, "movie_id": movie, "author_id": 1, "content": "Loved it",
		"author":     map[string]any{"id": 1, "username": "alice", "avatar": nil, "role": "user"},
		"created_at": "2025-01-01T00:00:00Z", "updated_at": "2025-01-01T00:00:00Z", "reactions": map[string]any{},
	}
	if edit != nil {
		edit(r)
	}
	return r
}

func movie(id string, year int) map[string]any {
	return map[string]any{"id": id, "title": "Film " + id, "year": year, "genres": []any{}, "original_language": "en",
		"created_at": "2025-01-01T00:00:00Z", "updated_at": "2025-01-01T00:00:00Z"}
}

func jsonBody(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// exchange builds an exchange: a request to the upstream and its answer.
type exchange struct {
	method, template, url string
	reqHeader             http.Header
	reqBody               string
	checked               bool
	rejection             *contract.Rejection
	status                int
	header                http.Header
	body                  []byte
	duration              time.Duration
}

func (e exchange) build() *contract.Exchange {
	h := e.header
	if h == nil && len(e.body) > 0 {
		h = http.Header{"Content-Type": {"application/json"}}
	}
	return &contract.Exchange{
		Method: e.method, Template: e.template,
		Request:        contract.Request{Method: e.method, URL: "http://upstream.test" + e.url, Header: e.reqHeader, Body: e.reqBody},
		RequestChecked: e.checked, Rejection: e.rejection,
		Response: contract.Response{Status: e.status, Header: h, Body: e.body, Duration: e.duration},
		Time:     observeNow,
	}
}

func bearer(token string) http.Header {
	return http.Header{"Authorization": {"Bearer " + token}, "Content-Type": {"application/json"}}
}

// observeCase is one exchange and the checks that must fail on it.
type observeCase struct {
	name     string
	app      string // "" the embedded contract, else testdata/contracts/<app>
	secret   bool   // the observer verifies tokens with observeSecret
	maxTime  time.Duration
	ex       exchange
	fails    []string // exactly these checks fail
	applies  []string // these checks apply (pass or fail) besides
	gotHas   string   // a failure's Got contains this
	noChecks []string // these checks do not apply
}

func observeCases(t testing.TB) []observeCase {
	good := signed(t, observeSecret, observeNow.Add(time.Hour))
	noExp, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"sub": "alice"}).SignedString([]byte(observeSecret))
	created := jsonBody(t, review("r9", "m1", nil))
	reviewJSON := func(edit func(map[string]any)) []byte { return jsonBody(t, review("r1", "m1", edit)) }
	embeddedReview := jsonBody(t, map[string]any{"id": "r1", "movie_id": "m1", "author_id": 1, "content": "Good",
		"author": map[string]any{"id": 1, "username": "alice"}, "created_at": "2025-01-01T00:00:00Z", "updated_at": "2025-01-01T00:00:00Z", "reactions": map[string]any{}})
	token := func(tok, typ string) []byte {
		return jsonBody(t, map[string]any{"access_token": tok, "token_type": typ})
	}
	loginForm := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}
	missingContent := &contract.Rejection{Status: 422, Items: []contract.RejectionItem{{Loc: []any{"body", "content"}, Msg: "Field required", Type: "missing"}}}
	validation := func(loc ...any) []byte {
		return jsonBody(t, map[string]any{"detail": []any{map[string]any{"loc": loc, "msg": "Field required", "type": "missing"}}})
	}
	postReview := func(h http.Header, checked bool, rej *contract.Rejection, status int, header http.Header, body []byte) exchange {
		return exchange{method: "POST", template: "/reviews", url: "/reviews", reqHeader: h, reqBody: `{"movie_id":"m1","content":"Good"}`,
			checked: checked, rejection: rej, status: status, header: header, body: body}
	}
	getList := func(url string, items ...any) exchange {
		return exchange{method: "GET", template: "/reviews", url: url, checked: true, status: 200, body: jsonBody(t, items)}
	}
	wwwAuth := http.Header{"Content-Type": {"application/json"}, "Www-Authenticate": {"Bearer"}}
	return []observeCase{
		{name: "a correct review read passes", ex: exchange{method: "GET", template: "/reviews/{review_id}", url: "/reviews/r1", status: 200, body: embeddedReview},
			applies:  []string{"not_a_server_error", "status_code_conformance", "content_type_conformance", "response_schema_conformance", "author_consistency"},
			noChecks: []string{"max_response_time", "request_conformance", "positive_data_acceptance"}},
		{name: "a 500 is a server error", ex: exchange{method: "GET", template: "/reviews/{review_id}", url: "/reviews/r1", status: 500,
			header: http.Header{"Content-Type": {"text/plain"}}, body: []byte("Internal Server Error")},
			fails: []string{"not_a_server_error", "status_code_conformance"}},
		{name: "an undeclared status", ex: exchange{method: "GET", template: "/reviews/{review_id}", url: "/reviews/r1", status: 418, body: []byte(`{"detail":"teapot"}`)},
			fails: []string{"status_code_conformance"}, gotHas: "418"},
		{name: "a wrong content type", ex: exchange{method: "GET", template: "/reviews/{review_id}", url: "/reviews/r1", status: 200,
			header: http.Header{"Content-Type": {"text/html"}}, body: embeddedReview},
			fails: []string{"content_type_conformance", "response_schema_conformance"}, gotHas: "text/html"},
		{name: "a review without its content breaks the schema", app: "movies",
			ex:    exchange{method: "GET", template: "/reviews/{review_id}", url: "/reviews/r1", checked: true, status: 200, body: reviewJSON(func(r map[string]any) { delete(r, "content") })},
			fails: []string{"response_schema_conformance"}, gotHas: "content"},
		{name: "a login answered with a JWT without exp", app: "movies",
			ex:    exchange{method: "POST", template: "/auth/login", url: "/auth/login", reqHeader: loginForm, reqBody: "username=alice&password=wonderland", checked: true, status: 200, body: token(noExp, "bearer")},
			fails: []string{"jwt_wellformed"}, gotHas: "exp"},
		{name: `token_type "Bearer" passes`, app: "movies",
			ex:      exchange{method: "POST", template: "/auth/login", url: "/auth/login", reqHeader: loginForm, reqBody: "username=alice&password=wonderland", checked: true, status: 200, body: token(good, "Bearer")},
			applies: []string{"jwt_wellformed", "token_type_bearer", "positive_data_acceptance", "request_conformance"}},
		{name: `token_type "mac" fails`, app: "movies",
			ex:    exchange{method: "POST", template: "/auth/login", url: "/auth/login", reqHeader: loginForm, reqBody: "username=alice&password=wonderland", checked: true, status: 200, body: token(good, "mac")},
			fails: []string{"token_type_bearer"}, gotHas: "mac"},
		{name: "author_id differs from author.id", app: "movies",
			ex:    exchange{method: "GET", template: "/reviews/{review_id}", url: "/reviews/r1", checked: true, status: 200, body: reviewJSON(func(r map[string]any) { r["author_id"] = 2 })},
			fails: []string{"author_consistency"}, gotHas: "author_id"},
		{name: "an invalid request answered 201", app: "movies", ex: postReview(bearer(good), true, missingContent, 201, nil, created),
			fails: []string{"negative_data_rejection", "validation_error_shape", "request_conformance"}, gotHas: "422: body.content: Field required"},
		{name: "an invalid request answered 422 naming another loc", app: "movies", ex: postReview(bearer(good), true, missingContent, 422, nil, validation("content")),
			fails: []string{"validation_error_shape", "request_conformance"}, gotHas: `["content"]`},
		{name: "an invalid request answered 422 naming its loc", app: "movies", ex: postReview(bearer(good), true, missingContent, 422, nil, validation("body", "content")),
			fails: []string{"request_conformance"}, applies: []string{"negative_data_rejection", "validation_error_shape"}},
		{name: "an invalid request answered 400 with a string detail", app: "movies", ex: postReview(bearer(good), true, missingContent, 400, nil, []byte(`{"detail":"bad"}`)),
			fails: []string{"validation_error_shape", "request_conformance"}},
		{name: "an invalid request without a token answered 401 first", app: "movies", ex: postReview(nil, true, missingContent, 401, wwwAuth, []byte(`{"detail":"Not authenticated"}`)),
			fails: []string{"request_conformance"}, applies: []string{"negative_data_rejection", "auth_required"}, noChecks: []string{"validation_error_shape"}},
		{name: "an unparsable body answered 400", app: "movies",
			ex:    postReview(bearer(good), true, &contract.Rejection{Status: 400, Detail: "There was an error parsing the body"}, 400, nil, []byte(`{"detail":"There was an error parsing the body"}`)),
			fails: []string{"request_conformance"}, gotHas: "400: There was an error parsing the body", noChecks: []string{"validation_error_shape"}},
		{name: "a valid request answered 422", app: "movies", ex: postReview(bearer(good), true, nil, 422, nil, validation("body", "content")),
			fails: []string{"positive_data_acceptance"}},
		{name: "a valid request answered the application's 400", app: "movies",
			ex: exchange{method: "POST", template: "/users", url: "/users", reqHeader: http.Header{"Content-Type": {"application/json"}}, reqBody: `{"username":"alice","password":"pw"}`,
				checked: true, status: 400, body: []byte(`{"detail":"Username already registered"}`)},
			applies: []string{"positive_data_acceptance", "request_conformance"}},
		{name: "a secured create without a token answered 201", app: "movies", ex: postReview(http.Header{"Content-Type": {"application/json"}}, true, nil, 201, nil, created),
			fails: []string{"auth_required"}, gotHas: "a 201 to a request without an Authorization header"},
		{name: "a secured create with a garbage token answered 201", app: "movies", ex: postReview(bearer("garbage"), true, nil, 201, nil, created),
			fails: []string{"auth_required"}, gotHas: "a 201 to a bearer token that is not a JWT"},
		{name: "a secured create with another secret's JWT answered 201", app: "movies", secret: true,
			ex:    postReview(bearer(signed(t, "another-secret", observeNow.Add(time.Hour))), true, nil, 201, nil, created),
			fails: []string{"auth_required"}, gotHas: "signature does not verify with --jwt-secret"},
		{name: "a secured create with an expired JWT answered 201", app: "movies", secret: true,
			ex:    postReview(bearer(signed(t, observeSecret, observeNow.Add(-time.Hour))), true, nil, 201, nil, created),
			fails: []string{"auth_required"}, gotHas: "expired"},
		{name: "a secured create with a good JWT answered 201 passes", app: "movies", secret: true, ex: postReview(bearer(good), true, nil, 201, nil, created),
			applies: []string{"positive_data_acceptance", "request_conformance", "author_consistency"}, noChecks: []string{"auth_required"}},
		{name: "a secured create without a token answered 401 with WWW-Authenticate passes", app: "movies",
			ex: postReview(nil, true, nil, 401, wwwAuth, []byte(`{"detail":"Not authenticated"}`)), applies: []string{"auth_required", "response_headers_conformance"}},
		{name: "a 401 without WWW-Authenticate", app: "movies", ex: postReview(nil, true, nil, 401, nil, []byte(`{"detail":"Not authenticated"}`)),
			fails: []string{"response_headers_conformance", "auth_required"}},
		{name: "a movie_id filter returning another movie's review", app: "movies",
			ex:    getList("/reviews?movie_id=m1", review("r1", "m1", nil), review("r2", "m2", nil)),
			fails: []string{"paging_and_filters"}, gotHas: `item 1 has movie_id "m2"`},
		{name: "an author_id filter compares numbers by value", app: "movies",
			ex: getList("/reviews?author_id=1", review("r1", "m1", nil), review("r2", "m2", nil)), applies: []string{"paging_and_filters", "unique_ids"}},
		{name: "limit=2 answered with 3 items", app: "movies",
			ex:    getList("/reviews?limit=2", review("r1", "m1", nil), review("r2", "m1", nil), review("r3", "m1", nil)),
			fails: []string{"paging_and_filters"}, gotHas: "3 items"},
		{name: "a nested list leaking another parent's review", app: "movies",
			ex: exchange{method: "GET", template: "/movies/{movie_id}/reviews", url: "/movies/m1/reviews", checked: true, status: 200,
				body: jsonBody(t, []any{review("r1", "m1", nil), review("r2", "m2", nil)})},
			fails: []string{"paging_and_filters"}, gotHas: "movie_id"},
		{name: "a year filter honoured", app: "movies",
			ex:      exchange{method: "GET", template: "/movies", url: "/movies?year=1999&limit=5", checked: true, status: 200, body: jsonBody(t, []any{movie("m1", 1999), movie("m2", 1999)})},
			applies: []string{"paging_and_filters"}},
		{name: "a list with a repeated id", app: "movies",
			ex: getList("/reviews", review("r1", "m1", nil), review("r1", "m1", nil)), fails: []string{"unique_ids"}, noChecks: []string{"paging_and_filters"}},
		{name: "a slow answer with max_response_time set", app: "movies", maxTime: time.Second,
			ex:    exchange{method: "GET", template: "/reviews/{review_id}", url: "/reviews/r1", checked: true, status: 200, body: reviewJSON(nil), duration: 2 * time.Second},
			fails: []string{"max_response_time"}},
	}
}

func newObserver(t testing.TB, app string, secret bool, maxTime time.Duration) *contract.Observer {
	t.Helper()
	cfg := contract.Config{Now: func() time.Time { return observeNow }, MaxResponseTime: maxTime, BaseURL: "http://upstream.test"}
	if app != "" {
		cfg.Spec, _ = contractSpec(t, app)
	}
	if secret {
		cfg.JWTSecret = []byte(observeSecret)
	}
	o, err := contract.NewObserver(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func observedFailures(res *contract.Result) []string {
	var out []string
	for _, c := range res.Checks {
		if !c.Passed {
			out = append(out, c.Check)
		}
	}
	return out
}

func TestObserverChecks(t *testing.T) {
	t.Parallel()
	for _, tc := range observeCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := newObserver(t, tc.app, tc.secret, tc.maxTime)
			res := o.Check(tc.ex.build())
			if res == nil {
				t.Fatal("no result: the exchange matched no operation")
			}
			if res.Case.Kind != contract.Observed {
				t.Errorf("kind %q", res.Case.Kind)
			}
			got := observedFailures(res)
			want := slices.Clone(tc.fails)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("failed checks %v, want %v; results: %+v", got, want, res.Checks)
			}
			applied := map[string]bool{}
			var gots []string
			for _, c := range res.Checks {
				applied[c.Check] = true
				if !c.Passed {
					gots = append(gots, c.Got)
				}
			}
			for _, name := range tc.applies {
				if !applied[name] {
					t.Errorf("%s did not apply; results: %+v", name, res.Checks)
				}
			}
			for _, name := range tc.noChecks {
				if applied[name] {
					t.Errorf("%s applied; results: %+v", name, res.Checks)
				}
			}
			if tc.gotHas != "" && !strings.Contains(strings.Join(gots, "\n"), tc.gotHas) {
				t.Errorf("no failure says %q: %q", tc.gotHas, gots)
			}
			checked, failed := o.Counts()
			if checked != 1 || failed != min(1, len(tc.fails)) {
				t.Errorf("Counts() = %d, %d", checked, failed)
			}
		})
	}
}

// Every check an Observer claims to apply fails on some exchange of the
// table: none is listed that could never fail.
func TestObservedChecksCanEachFail(t *testing.T) {
	t.Parallel()
	failing := map[string]bool{}
	for _, tc := range observeCases(t) {
		o := newObserver(t, tc.app, tc.secret, tc.maxTime)
		if res := o.Check(tc.ex.build()); res != nil {
			for _, name := range observedFailures(res) {
				failing[name] = true
			}
		}
	}
	for _, c := range contract.ObservedChecks {
		if !failing[c.Name()] {
			t.Errorf("%s is applied to observed exchanges, but no exchange of the table fails it", c.Name())
		}
	}
	if len(contract.ObservedChecks) != 16 {
		t.Errorf("%d observed checks, want 16", len(contract.ObservedChecks))
	}
}

func TestObserverOutsideTheContract(t *testing.T) {
	t.Parallel()
	o := newObserver(t, "", false, 0)
	for _, ex := range []*contract.Exchange{
		{Method: "GET", Template: "", Request: contract.Request{Method: "GET", URL: "http://upstream.test/health"}, Response: contract.Response{Status: 200}},
		{Method: "DELETE", Template: "/reviews/{review_id}", Request: contract.Request{Method: "DELETE", URL: "http://upstream.test/reviews/1"}, Response: contract.Response{Status: 204}},
		nil,
	} {
		if res := o.Check(ex); res != nil {
			t.Errorf("Check(%+v) = %+v, want nil", ex, res)
		}
	}
	if checked, failed := o.Counts(); checked != 0 || failed != 0 {
		t.Errorf("Counts() = %d, %d", checked, failed)
	}
	var text bytes.Buffer
	if err := o.Report().WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "2 exchanges matched no operation of the contract") {
		t.Errorf("the report does not count the exchanges outside the contract:\n%s", text.String())
	}
}

func TestObserverRedactsCredentials(t *testing.T) {
	t.Parallel()
	o := newObserver(t, "movies", false, 0)
	h := http.Header{"Authorization": {"Bearer garbage-secret-token"}, "Cookie": {"session=abc123; theme=dark"}, "Content-Type": {"application/x-www-form-urlencoded"}}
	ex := &contract.Exchange{Method: "POST", Template: "/reviews",
		Request:  contract.Request{Method: "POST", URL: "http://upstream.test/reviews", Header: h, Body: "content=x&password=hunter2"},
		Response: contract.Response{Status: 201, Header: http.Header{"Content-Type": {"application/json"}}, Body: jsonBody(t, review("r1", "m1", nil))}}
	res := o.Check(ex)
	if res == nil || !res.Failed() {
		t.Fatalf("want a failing result (auth_required), got %+v", res)
	}
	var out bytes.Buffer
	if err := o.Report().WriteText(&out); err != nil {
		t.Fatal(err)
	}
	if err := o.Report().WriteJSON(&out); err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{"garbage-secret-token", "abc123", "hunter2"} {
		if strings.Contains(out.String(), leak) {
			t.Errorf("the report shows %q", leak)
		}
	}
	if !strings.Contains(out.String(), "Bearer [redacted]") || !strings.Contains(out.String(), "session=[redacted]; theme=[redacted]") {
		t.Errorf("the report does not show the redacted credentials:\n%s", out.String())
	}
	if h.Get("Authorization") != "Bearer garbage-secret-token" || !strings.Contains(ex.Request.Body, "hunter2") {
		t.Error("Check changed the caller's exchange")
	}
}

func TestObserverReport(t *testing.T) {
	t.Parallel()
	o := newObserver(t, "movies", false, 0)
	exchanges := []exchange{
		{method: "GET", template: "/reviews/{review_id}", url: "/reviews/r1", checked: true, status: 200, body: jsonBody(t, review("r1", "m1", nil))},
		{method: "GET", template: "/reviews/{review_id}", url: "/reviews/r2", checked: true, status: 500, header: http.Header{"Content-Type": {"text/plain"}}, body: []byte("boom")},
		{method: "GET", template: "/reviews", url: "/reviews?limit=1", checked: true, status: 200, body: jsonBody(t, []any{review("r1", "m1", nil), review("r2", "m1", nil)})},
	}
	for _, e := range exchanges {
		o.Check(e.build())
	}
	if checked, failed := o.Counts(); checked != 3 || failed != 2 {
		t.Fatalf("Counts() = %d, %d; want 3, 2", checked, failed)
	}
	failures := o.Failures()
	if len(failures) != 2 || failures[0].Case.Index != 1 || failures[1].Case.Index != 2 {
		t.Fatalf("Failures() = %d results, want exchanges 1 and 2 in order", len(failures))
	}
	failures[0].Checks = nil // a copy: the observer's stays
	rep := o.Report()

	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"3 of 3 exchanges reached the upstream, 3 checked, 2 failed with 3 violations",
		"getReview GET /reviews/{review_id}", "2 exchanges",
		"not_a_server_error — getReview, exchange 1",
		"paging_and_filters — listReviews, exchange 2",
		"reproduce: curl -i 'http://upstream.test/reviews?limit=1'",
		"statuses seen 200; never seen 422; undeclared 500",
		"createMovie POST /movies", "not seen",
		"FAILED: 3 violations in 2 of 3 exchanges checked",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text report lacks %q:\n%s", want, text.String())
		}
	}

	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var parsed struct {
		Passed  bool `json:"passed"`
		Summary struct {
			Cases        int `json:"cases"`
			FailedCases  int `json:"failed_cases"`
			ChecksFailed int `json:"checks_failed"`
		} `json:"summary"`
		Observed struct {
			Exchanges  int `json:"exchanges"`
			Failed     int `json:"failed"`
			Violations int `json:"violations"`
		} `json:"observed"`
		Results []struct {
			Case struct {
				Kind      string `json:"kind"`
				Operation string `json:"operation"`
			} `json:"case"`
			Checks []contract.CheckResult `json:"checks"`
			Curl   string                 `json:"curl"`
		} `json:"results"`
	}
	if err := json.Unmarshal(js.Bytes(), &parsed); err != nil {
		t.Fatalf("the JSON report is not JSON: %v\n%s", err, js.String())
	}
	if parsed.Passed || parsed.Summary.Cases != 3 || parsed.Summary.FailedCases != 2 || parsed.Summary.ChecksFailed != 3 || parsed.Observed.Exchanges != 3 || parsed.Observed.Failed != 2 || parsed.Observed.Violations != 3 || len(parsed.Results) != 2 {
		t.Errorf("JSON summary %+v, observed %+v, %d results", parsed.Summary, parsed.Observed, len(parsed.Results))
	}
	if len(parsed.Results) == 2 && (parsed.Results[0].Case.Kind != "observed" || parsed.Results[1].Case.Operation != "listReviews" || len(parsed.Results[0].Checks) == 0) {
		t.Errorf("JSON results %+v", parsed.Results)
	}

	var junit bytes.Buffer
	if err := rep.WriteJUnit(&junit); err != nil {
		t.Fatal(err)
	}
	var suites struct {
		Name     string `xml:"name,attr"`
		Failures int    `xml:"failures,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string    `xml:"name,attr"`
				Failure *struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(junit.Bytes(), &suites); err != nil {
		t.Fatalf("the JUnit report is not XML: %v\n%s", err, junit.String())
	}
	if suites.Name != "moviemock proxy" || suites.Failures != 3 || len(suites.Suites) != 2 {
		t.Errorf("JUnit: %q, %d failures, %d suites:\n%s", suites.Name, suites.Failures, len(suites.Suites), junit.String())
	}
	if !strings.Contains(junit.String(), "not_a_server_error: expected no 5xx") || !strings.Contains(junit.String(), "response_headers_conformance: 2 observed exchanges passed") {
		t.Errorf("JUnit lacks the failing check or the passed tally:\n%s", junit.String())
	}

	var page bytes.Buffer
	if err := rep.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"moviemock proxy report", `data-check="paging_and_filters"`, "listReviews", "Exchanges observed", "curl -i"} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("the HTML report lacks %q", want)
		}
	}
	if strings.Contains(page.String(), "Seed") {
		t.Error("the HTML report of a proxy shows a seed")
	}

	o.Reset()
	if checked, failed := o.Counts(); checked != 0 || failed != 0 || len(o.Failures()) != 0 {
		t.Errorf("after Reset: Counts() = %d, %d, %d failures", checked, failed, len(o.Failures()))
	}
	if rep := o.Report(); rep.Failures() != 0 || len(rep.Results) != 0 || len(rep.ByOperation()) != 0 {
		t.Errorf("after Reset the report still has %d failures", rep.Failures())
	}
	if res := o.Check(exchanges[1].build()); res == nil || res.Case.Index != 0 {
		t.Errorf("after Reset the index does not start again: %+v", res)
	}
}

// The report keeps MaxKeptFailures failing exchanges and counts the rest.
func TestObserverBoundsFailures(t *testing.T) {
	t.Parallel()
	o := newObserver(t, "", false, 0)
	ex := exchange{method: "GET", template: "/reviews/{review_id}", url: "/reviews/r1", status: 500, header: http.Header{"Content-Type": {"text/plain"}}, body: []byte("boom")}.build()
	n := contract.MaxKeptFailures + 7
	for i := 0; i < n; i++ {
		o.Check(ex)
	}
	if checked, failed := o.Counts(); checked != n || failed != n {
		t.Errorf("Counts() = %d, %d; want %d, %d", checked, failed, n, n)
	}
	rep := o.Report()
	if len(rep.Results) != contract.MaxKeptFailures || rep.FailedCases() != n || rep.Observed.NotKept != 7 {
		t.Errorf("%d results kept, %d failed, %d not kept", len(rep.Results), rep.FailedCases(), rep.Observed.NotKept)
	}
	if !strings.Contains(rep.SummaryLine(), fmt.Sprintf("%d of %d exchanges reached the upstream, %d checked, %d failed", n, n, n, n)) {
		t.Errorf("summary line %q", rep.SummaryLine())
	}
}

// Check from several goroutines: run with -race.
func TestObserverConcurrent(t *testing.T) {
	t.Parallel()
	o := newObserver(t, "movies", false, 0)
	cases := observeCases(t)
	var wg sync.WaitGroup
	const workers = 4
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, tc := range cases {
				if tc.app != "movies" || tc.secret || tc.maxTime > 0 {
					continue
				}
				o.Check(tc.ex.build())
				_ = o.Failures()
			}
			_ = o.Report().WriteText(io.Discard)
		}()
	}
	wg.Wait()
	want := 0
	for _, tc := range cases {
		if tc.app == "movies" && !tc.secret && tc.maxTime == 0 {
			want++
		}
	}
	checked, _ := o.Counts()
	if checked != workers*want {
		t.Errorf("Counts() checked %d, want %d", checked, workers*want)
	}
	seen := map[int]bool{}
	for _, res := range o.Failures() {
		if seen[res.Case.Index] {
			t.Errorf("index %d given twice", res.Case.Index)
		}
		seen[res.Case.Index] = true
	}
}

func TestNewObserverRefusesUnknownChecks(t *testing.T) {
	t.Parallel()
	if _, err := contract.NewObserver(contract.Config{Checks: []string{"no_such_check"}}); err == nil || !strings.Contains(err.Error(), "no_such_check") {
		t.Errorf("err = %v", err)
	}
	o, err := contract.NewObserver(contract.Config{Checks: []string{"request_conformance"}})
	if err != nil {
		t.Fatal(err)
	}
	res := o.Check(&contract.Exchange{Method: "GET", Template: "/reviews/{review_id}", RequestChecked: true,
		Rejection: &contract.Rejection{Status: 422, Items: []contract.RejectionItem{{Loc: []any{"path", "review_id"}, Msg: "bad"}}},
		Request:   contract.Request{Method: "GET", URL: "http://x/reviews/1"}, Response: contract.Response{Status: 500}})
	if res == nil || len(res.Checks) != 1 || res.Checks[0].Check != "request_conformance" || res.Checks[0].Passed {
		t.Errorf("only request_conformance selected: %+v", res)
	}
}

// TestObserverCountsAgree: the summary line, the verdict, the JSON, text
// and HTML reports count with the same words (a violation is one failed
// check, an exchange fails with one or more), say how many exchanges
// reached the upstream, show an operation the mock answered as such rather
// than "not seen", and explain request_conformance in the HTML's "What it
// requires".
func TestObserverCountsAgree(t *testing.T) {
	tests := []struct {
		name     string
		checked  []exchange
		mocked   [][2]string // method, template
		errors   int
		summary  []string
		verdict  string
		mockedOp string // an operation only the mock answered
	}{
		{
			name:     "nothing reached the upstream",
			mocked:   [][2]string{{"GET", "/reviews/{review_id}"}, {"GET", "/reviews/{review_id}"}, {"POST", "/movies"}, {"GET", "/nowhere"}},
			errors:   1,
			summary:  []string{"NOT CHECKED 0 of 5 exchanges reached the upstream, 0 checked, 0 failed"},
			verdict:  "NOT CHECKED: none of 5 exchanges reached the upstream",
			mockedOp: "POST /movies",
		},
		{
			name: "violations in some exchanges",
			checked: []exchange{
				{method: "GET", template: "/reviews/{review_id}", url: "/reviews/r2", checked: true, status: 500, header: http.Header{"Content-Type": {"text/plain"}}, body: []byte("boom")},
				{method: "GET", template: "/reviews/{review_id}", url: "/reviews/r1", checked: true, status: 200, body: jsonBody(t, review("r1", "m1", nil))},
				{method: "GET", template: "", url: "/elsewhere", status: 200},
			},
			mocked:   [][2]string{{"POST", "/movies"}},
			summary:  []string{"FAILED 3 of 4 exchanges reached the upstream, 2 checked, 1 failed with "},
			verdict:  "FAILED: ",
			mockedOp: "POST /movies",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := newObserver(t, "movies", false, 0)
			for _, e := range tt.checked {
				o.Check(e.build())
			}
			for _, m := range tt.mocked {
				o.NotReached(m[0], m[1], true)
			}
			for range tt.errors {
				o.NotReached("GET", "", false)
			}
			s := o.Summary()
			rep := o.Report()
			if rep.Failures() != s.Violations || rep.FailedCases() != s.Failed {
				t.Errorf("Summary() %+v, report: %d failed checks, %d failed exchanges", s, rep.Failures(), rep.FailedCases())
			}
			if s.Total() != len(tt.checked)+len(tt.mocked)+tt.errors {
				t.Errorf("Total() = %d", s.Total())
			}
			line := rep.SummaryLine()
			for _, want := range tt.summary {
				if !strings.Contains(line, want) {
					t.Errorf("summary line %q lacks %q", line, want)
				}
			}
			if s.Violations > 0 && !strings.Contains(line, fmt.Sprintf("with %d violations", s.Violations)) {
				t.Errorf("summary line %q does not count %d violations", line, s.Violations)
			}
			var text bytes.Buffer
			if err := rep.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(text.String(), tt.verdict) {
				t.Errorf("the text report lacks the verdict %q:\n%s", tt.verdict, text.String())
			}
			var mockedLine string
			for _, l := range strings.Split(text.String(), "\n") {
				if strings.Contains(l, tt.mockedOp) {
					mockedLine = l
				}
			}
			if !strings.Contains(mockedLine, "answered by the mock only") || strings.Contains(mockedLine, "not seen") {
				t.Errorf("the text report's line of %s, answered by the mock: %q", tt.mockedOp, mockedLine)
			}
			var js bytes.Buffer
			if err := rep.WriteJSON(&js); err != nil {
				t.Fatal(err)
			}
			var parsed struct {
				Observed struct {
					Exchanges, Failed, Violations, Mocked, Unanswered int
				}
			}
			if err := json.Unmarshal(js.Bytes(), &parsed); err != nil {
				t.Fatal(err)
			}
			if o := parsed.Observed; o.Exchanges != s.Exchanges || o.Failed != s.Failed || o.Violations != s.Violations || o.Mocked != len(tt.mocked) || o.Unanswered != tt.errors {
				t.Errorf("JSON observed %+v, want %+v", o, s)
			}
			var page bytes.Buffer
			if err := rep.WriteHTML(&page); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(page.String(), "answered by the mock only (") {
				t.Errorf("the HTML report does not say %s was answered by the mock", tt.mockedOp)
			}
		})
	}
}

// TestObservedHTMLExplainsEveryCheck: every check row of a proxy's HTML
// report says what the check requires, request_conformance (a check of
// observed exchanges only) too.
func TestObservedHTMLExplainsEveryCheck(t *testing.T) {
	o := newObserver(t, "movies", false, 0)
	o.Check(exchange{method: "POST", template: "/movies", url: "/movies", checked: true,
		rejection: &contract.Rejection{Status: 422, Items: []contract.RejectionItem{{Loc: []any{"body"}, Msg: "Field required", Type: "missing"}}},
		status:    201, body: []byte(`{}`)}.build())
	var page bytes.Buffer
	if err := o.Report().WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?s)<tr data-check="([a-z_]+)"[^>]*>.*?<td class="about">(.*?)</td>`)
	rows := re.FindAllStringSubmatch(page.String(), -1)
	seen := false
	for _, m := range rows {
		if m[1] == "request_conformance" {
			seen = true
		}
		if strings.TrimSpace(m[2]) == "" {
			t.Errorf("the check %s's \"What it requires\" is empty", m[1])
		}
	}
	if !seen {
		t.Errorf("no request_conformance row among %d check rows", len(rows))
	}
}
