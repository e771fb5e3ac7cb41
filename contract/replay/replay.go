package replay

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/problems"
	"github.com/moviemock/moviemock/internal/spec"
	"github.com/moviemock/moviemock/internal/traffic"
)

// Defaults of Config.
const (
	DefaultTimeout = contract.DefaultTimeout
	// TargetStrikes: after this many calls in a row without a complete
	// answer the target is unresponsive and the rest are not sent.
	TargetStrikes = 5
	// MaxChanges bounds the changes kept per call; the rest are counted.
	MaxChanges = 50
	// MaxIDs bounds the ids remembered from the answers to writes.
	MaxIDs = 1000
)

// Config is a replay.
type Config struct {
	BaseURL string
	Source  *traffic.Source
	// Spec is the target's contract: where its login is (an OAuth2
	// password flow's tokenUrl, an operation taking the password form)
	// and which fields are secret. Nil: none; a login is then known by
	// its form (username and password).
	Spec *spec.Spec
	// Recorded is the contract the recording was made against: a value
	// null or of another kind where its response schema (for the recorded
	// status) allows one is a value, not a change. Nil: none known.
	Recorded *spec.Spec
	// Username and Password redo the recorded logins.
	Username, Password string
	// AllowWrites sends POST, PUT, PATCH and DELETE calls other than
	// logins; without it they are listed as skipped.
	AllowWrites bool
	Timeout     time.Duration // per request; 0: DefaultTimeout
	// MaxBodyBytes is the most of an answer read; 0: contract.MaxBodyBytes.
	MaxBodyBytes int64
	// MaxCheckValues is the most JSON values a body may hold to have its
	// shape compared; 0: contract.DefaultMaxCheckValues.
	MaxCheckValues int
	// FailOn is the least level that fails the replay (Report.Failed).
	FailOn Level
	Client *http.Client // nil: contract.NewClient
	Now    func() time.Time
}

// Answer is the status and media type of an answer.
type Answer struct {
	Status      int    `json:"status,omitempty"`
	ContentType string `json:"content_type,omitempty"`
}

// Result is one recorded call, replayed or not.
type Result struct {
	Index  int    `json:"index"` // the call's number in the source
	Method string `json:"method"`
	Path   string `json:"path"` // path and query as recorded, secrets redacted
	// Sent is the path and query sent, when it differs (an id the target
	// gave a record created earlier in the replay).
	Sent      string `json:"sent,omitempty"`
	Operation string `json:"operation,omitempty"` // the target contract's "METHOD /template"
	Login     bool   `json:"login,omitempty"`
	// Skipped says why the call was not sent.
	Skipped  string `json:"skipped,omitempty"`
	Recorded Answer `json:"recorded"`
	Got      Answer `json:"got"`
	// Compared says what was compared: "shape", or the status and content
	// type only and why.
	Compared string   `json:"compared,omitempty"`
	Changes  []Change `json:"changes"`
	// More counts the changes left out past the per-call budget.
	More     int           `json:"more_changes,omitempty"`
	Notes    []string      `json:"notes,omitempty"`
	Duration time.Duration `json:"-"`
}

// Worst is the highest level of the call's changes; -1 when none.
func (r *Result) Worst() Level {
	worst := Level(-1)
	for _, c := range r.Changes {
		worst = max(worst, c.Level)
	}
	return worst
}

// Report is a replay's outcome.
type Report struct {
	Source  string `json:"source"`
	Kind    string `json:"kind"` // har or journal
	BaseURL string `json:"base_url"`
	Spec    string `json:"spec,omitempty"`
	// RecordedSpec is the contract the recording was made against.
	RecordedSpec string        `json:"recorded_spec,omitempty"`
	FailOn       string        `json:"fail_on"`
	Results      []*Result     `json:"calls"`
	Notes        []string      `json:"notes,omitempty"`
	Started      time.Time     `json:"started"`
	Duration     time.Duration `json:"-"`
	failOn       Level
	redact       *contract.Redactor
}

// ErrUnreachable means nothing answers at the base URL.
var ErrUnreachable = contract.ErrUnreachable

// Run replays cfg.Source to cfg.BaseURL. It fails only when it cannot
// run: a bad configuration, or a target nothing listens at (wrapping
// ErrUnreachable); whatever the target answers is in the report.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("replay: base URL %q is not an http(s) URL with a host", cfg.BaseURL)
	}
	if cfg.Source == nil {
		return nil, errors.New("replay: no recorded calls")
	}
	if (cfg.Username == "") != (cfg.Password == "") {
		return nil, errors.New("replay: give the username and the password together")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = contract.MaxBodyBytes
	}
	if cfg.MaxCheckValues <= 0 {
		cfg.MaxCheckValues = contract.DefaultMaxCheckValues
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Client == nil {
		cfg.Client = contract.NewClient(cfg.Timeout, 1)
	}
	if err := contract.Probe(ctx, cfg.BaseURL, cfg.Timeout); err != nil {
		return nil, fmt.Errorf("replay: %w", errors.Unwrap(err))
	}
	p := newPlayer(&cfg)
	start := cfg.Now()
	p.report.Started = start
	for i := range cfg.Source.Calls {
		p.play(ctx, i, &cfg.Source.Calls[i])
	}
	p.finish()
	p.report.Duration = cfg.Now().Sub(start)
	return p.report, nil
}

// player is one replay's state.
type player struct {
	cfg    *Config
	report *Report
	redact *contract.Redactor
	// logins are the paths of the target's logins (POST).
	logins map[string]bool
	ops    []*model.Operation // per call, in order: the operation it matches, by the contract
	dicts  map[*model.Operation]map[string]bool
	// recOps are per call the operation it matches in the recorded
	// contract; allowed what a response schema allows, by schema.
	recOps  []*model.Operation
	allowed map[*openapi3.SchemaRef]*Allowed
	// token is the Authorization value the fresh login earned; loginFailed
	// why the login gave none.
	token, loginFailed string
	jar                http.CookieJar
	ids                map[string]string // id in the recording → id the target gave
	unmade             map[string]int    // id a write not replayed created → that call's index
	mapped             int               // calls sent with an id of ids
	streak             int               // calls in a row without a complete answer
	dead               string            // why the rest are not sent
	cut                int               // calls whose shape was not compared: a budget
}

func newPlayer(cfg *Config) *player {
	src := cfg.Source
	p := &player{cfg: cfg, logins: map[string]bool{}, ids: map[string]string{}, unmade: map[string]int{}, dicts: map[*model.Operation]map[string]bool{}, allowed: map[*openapi3.SchemaRef]*Allowed{}}
	p.report = &Report{Source: src.Name, Kind: src.Kind, BaseURL: cfg.BaseURL, failOn: cfg.FailOn, FailOn: cfg.FailOn.String()}
	p.jar, _ = cookiejar.New(nil)
	p.redact = contract.NewRedactorFor(contract.Credentials{Password: cfg.Password}, cfg.Spec)
	p.report.redact = p.redact
	filtered := false
	if cfg.Spec != nil {
		p.report.Spec = cfg.Spec.Source()
		for _, u := range contract.TokenURLs(cfg.Spec) {
			if pu, err := url.Parse(u); err == nil && pu.Path != "" {
				p.logins["/"+strings.TrimPrefix(pu.Path, "/")] = true
			}
		}
		if m, err := model.Compile(cfg.Spec); err == nil {
			for _, o := range m.Operations {
				if o.Kind == model.Login {
					p.logins[o.Path] = true
				}
			}
			for _, mt := range traffic.KeepAPIServers(src, traffic.Match(src, m)) {
				p.ops = append(p.ops, mt.Op)
			}
			filtered = true
		}
	}
	if cfg.Recorded != nil {
		p.report.RecordedSpec = cfg.Recorded.Source()
		m, err := model.Compile(cfg.Recorded)
		if err != nil {
			p.report.Notes = append(p.report.Notes, "the recorded contract cannot be read as operations ("+err.Error()+"): what it allows is not used")
		} else {
			matched := traffic.Match(src, m)
			if !filtered {
				matched = traffic.KeepAPIServers(src, matched)
			}
			for _, mt := range matched {
				p.recOps = append(p.recOps, mt.Op)
			}
		}
	}
	// The recording's own secrets (its tokens, cookies, passwords) are
	// hidden wherever they would show.
	for _, c := range src.Calls {
		p.redact.Learn(contract.Request{Method: c.Method, URL: c.Path, Header: c.Header, Body: string(c.Body)}, nil, c.Response)
	}
	// The entries that are no API calls (pages, scripts, preflights), by
	// reason: a browser's recording holds many.
	var reasons []string
	count := map[string]int{}
	for _, s := range src.Skipped {
		if count[s.Reason]++; count[s.Reason] == 1 {
			reasons = append(reasons, s.Reason)
		}
	}
	for _, why := range reasons {
		p.report.Notes = append(p.report.Notes, fmt.Sprintf("%s of the recording not replayed: %s", problems.Plural(count[why], "entry", "entries"), why))
	}
	return p
}

// isLogin reports whether c is a login: a POST to a login of the
// contract, or of the OAuth2 password form (username and password).
func (p *player) isLogin(c *traffic.Call) bool {
	if c.Method != http.MethodPost {
		return false
	}
	if p.logins[c.Path] {
		return true
	}
	f := loginFields(c)
	return f != nil && f.Has("username") && f.Has("password")
}

// loginFields are the fields of a form body; nil when c's body is none.
func loginFields(c *traffic.Call) url.Values {
	mt, _, _ := mime.ParseMediaType(c.BodyType)
	if mt == "" {
		mt, _, _ = mime.ParseMediaType(c.Header.Get("Content-Type"))
	}
	if mt != "application/x-www-form-urlencoded" {
		return nil
	}
	v, err := url.ParseQuery(string(c.Body))
	if err != nil {
		return nil
	}
	return v
}

// unsafe methods are writes, replayed only with AllowWrites.
func write(method string) bool {
	switch strings.ToUpper(method) {
	case "GET", "HEAD", "OPTIONS", "TRACE":
		return false
	}
	return true
}

// play replays one call.
func (p *player) play(ctx context.Context, i int, c *traffic.Call) {
	var op, recOp *model.Operation
	if i < len(p.recOps) {
		recOp = p.recOps[i]
	}
	if i < len(p.ops) {
		op = p.ops[i]
	}
	// shown is a path as the report shows it: a secret path parameter's
	// value (/reset-password/{token}) redacted by its place in the
	// operation's template (the target's, else the recorded contract's).
	// What is sent is the path itself.
	shown := func(path string) string {
		switch {
		case op != nil:
			return op.RedactPath(path)
		case recOp != nil:
			return recOp.RedactPath(path)
		}
		return path
	}
	res := &Result{Index: c.Index, Method: c.Method, Path: p.redact.URL(withQuery(shown(c.Path), c.Query)),
		Recorded: Answer{Status: c.Status, ContentType: mediaType(c.ResponseType)}, Changes: []Change{}}
	// hide takes the paths out of a text that may quote the URL sent (a
	// transport error's "Get \"http://…\"").
	hide := func(text, path string) string {
		if sp := shown(path); sp != path {
			text = strings.ReplaceAll(text, path, sp)
		}
		return p.redact.Text(text)
	}
	switch {
	case op != nil:
		res.Operation = op.Method + " " + op.Path
	case i < len(p.ops):
		// A removed operation, or a path the target does not serve
		// (calls to other servers were taken out: KeepAPIServers).
		res.Notes = append(res.Notes, "it matches no operation of the target's contract")
	}
	res.Notes = append(res.Notes, c.Notes...)
	p.report.Results = append(p.report.Results, res)
	res.Login = p.isLogin(c)
	why := p.skip(c, res.Login)
	if why == "" {
		named := op
		if named == nil {
			named = recOp
		}
		why = redactedPath(c.Path, named)
	}
	if why != "" {
		res.Skipped = why
		if write(c.Method) && !res.Login {
			p.notMade(c)
		}
		return
	}
	req, sent, err := p.request(ctx, c, res.Login)
	if err != nil {
		res.Skipped = "cannot build the request: " + hide(err.Error(), c.Path)
		return
	}
	if sent != c.Path {
		res.Sent = p.redact.URL(withQuery(shown(sent), c.Query))
		p.mapped++
	}
	start := time.Now()
	status, header, body, why := p.send(req)
	res.Duration = time.Since(start)
	if status == 0 {
		why = hide(why, sent)
		res.Changes = append(res.Changes, Change{Level: Breaking, Kind: ChangeNoAnswer, Now: why})
		res.Compared = "nothing: no complete answer"
		if ctx.Err() == nil {
			if p.streak++; p.streak >= TargetStrikes {
				p.dead = fmt.Sprintf("not sent: the target is unresponsive: %d calls in a row got no complete answer (last: %s)", p.streak, why)
			}
		}
		return
	}
	p.streak = 0
	res.Got = Answer{Status: status, ContentType: mediaType(header.Get("Content-Type"))}
	p.redact.Learn(contract.Request{}, header, body)
	if res.Login {
		p.loggedIn(status, body)
	}
	p.compare(res, c, why, body, op, recOp)
	if write(c.Method) && !res.Login {
		p.learnIDs(c, body)
	}
	if len(res.Changes) > MaxChanges {
		res.More = len(res.Changes) - MaxChanges
		res.Changes = res.Changes[:MaxChanges]
	}
}

// skip says why c is not sent; "" when it is.
func (p *player) skip(c *traffic.Call, login bool) string {
	switch {
	case p.dead != "":
		return p.dead
	case login && p.cfg.Username == "":
		return "a login: give --username and --password to log in again (recorded credentials are never sent)"
	case login:
		return ""
	case write(c.Method) && !p.cfg.AllowWrites:
		return "a write (" + strings.ToUpper(c.Method) + "): replayed only with --allow-writes"
	}
	for _, s := range strings.Split(c.Path, "/") {
		if raw, err := url.PathUnescape(s); err == nil && p.unmade[raw] != 0 {
			return fmt.Sprintf("it reads the record call #%d created, which was not replayed", p.unmade[raw])
		}
	}
	if c.Header.Get("Authorization") != "" && p.token == "" {
		if p.loginFailed != "" {
			return "it carried a token, and the login gave none (" + p.loginFailed + "): recorded tokens are never sent"
		}
		return "it carried a token and no login was redone (give --username and --password, and record the login): recorded tokens are never sent"
	}
	for name := range c.Header {
		if !strings.EqualFold(name, "Authorization") && !strings.EqualFold(name, "Cookie") && model.SecretName(name) {
			return "it carried the credential header " + name + ", which a replay never sends"
		}
	}
	if k := bodyToken(c); k != "" {
		return "it carried a token in its body (" + p.redact.Text(k) + "), which a replay never sends"
	}
	if q, err := url.ParseQuery(c.Query); err == nil {
		for name := range q {
			if model.SecretName(name) {
				return "it carried the credential query parameter " + p.redact.Text(name) + ", which a replay never sends"
			}
		}
	}
	return ""
}

// redactedPath says why c is not sent when a segment of its recorded
// path is model.Redacted: a journal keeps a secret path parameter's value
// (/reset-password/{token}) redacted, and sending
// /reset-password/[redacted] would test nothing. "" when none is. The
// parameter is named when c matched an operation.
func redactedPath(path string, op *model.Operation) string {
	psegs := strings.Split(path, "/")
	for j, s := range psegs {
		if raw, err := url.PathUnescape(s); err != nil || raw != model.Redacted {
			continue
		}
		name := "a segment"
		if op != nil {
			// The template's segments are the path's last ones (a base
			// path may come before).
			tsegs := strings.Split(op.Path, "/")
			if k := j - (len(psegs) - len(tsegs)); k >= 0 && k < len(tsegs) && strings.HasPrefix(tsegs[k], "{") {
				name = tsegs[k]
			}
		}
		return "the recorded path's " + name + " was redacted (a journal never keeps a credential): not replayed"
	}
	return ""
}

// dropped are the recorded request headers never sent again: the
// credentials, what the connection or the client's cache decide, and
// HTTP/2's pseudo-headers.
var dropped = map[string]bool{
	"Authorization": true, "Cookie": true, "Proxy-Authorization": true,
	"Host": true, "Content-Length": true, "Connection": true, "Keep-Alive": true, "Transfer-Encoding": true,
	"Te": true, "Trailer": true, "Upgrade": true, "Proxy-Connection": true, "Accept-Encoding": true,
	"If-None-Match": true, "If-Modified-Since": true, "If-Match": true, "If-Unmodified-Since": true, "If-Range": true,
}

// request builds the request replaying c; sent is the path it goes to.
func (p *player) request(ctx context.Context, c *traffic.Call, login bool) (*http.Request, string, error) {
	path := p.mapIDs(c.Path)
	target := strings.TrimSuffix(p.cfg.BaseURL, "/") + withQuery(path, c.Query)
	body, bodyType := c.Body, c.BodyType
	if login {
		body, bodyType = p.loginBody(c)
	}
	req, err := http.NewRequestWithContext(ctx, c.Method, target, bytes.NewReader(body))
	if err != nil {
		return nil, "", err
	}
	req.Header = http.Header{}
	for name, vs := range c.Header {
		k := http.CanonicalHeaderKey(name)
		if dropped[k] || strings.HasPrefix(name, ":") {
			continue
		}
		req.Header[k] = append([]string(nil), vs...)
	}
	if bodyType != "" && len(body) > 0 && (login || req.Header.Get("Content-Type") == "") {
		req.Header.Set("Content-Type", bodyType)
	}
	if _, set := req.Header["User-Agent"]; !set {
		req.Header["User-Agent"] = []string{""} // none but the recording's
	}
	if c.Header.Get("Authorization") != "" && p.token != "" && !login {
		req.Header.Set("Authorization", p.token)
	}
	for _, ck := range p.jar.Cookies(req.URL) {
		req.AddCookie(ck)
	}
	return req, path, nil
}

// loginBody is the recorded login's body with the credentials given in
// place of the recorded ones, and its content type: a JSON object keeps
// its other fields (its user named by username, else email), any other
// body becomes the OAuth2 password form, the recorded form's other fields
// kept. Other secrets (a client_secret, a token) are left out.
func (p *player) loginBody(c *traffic.Call) ([]byte, string) {
	var obj map[string]any
	if mt := mediaType(c.BodyType); (mt == "application/json" || strings.HasSuffix(mt, "+json")) && json.Unmarshal(c.Body, &obj) == nil && obj != nil {
		user := "username"
		if _, ok := obj["username"]; !ok {
			if _, ok := obj["email"]; ok {
				user = "email"
			}
		}
		for k := range obj {
			if model.SecretName(k) {
				delete(obj, k)
			}
		}
		obj[user], obj["password"] = p.cfg.Username, p.cfg.Password
		if b, err := json.Marshal(obj); err == nil {
			return b, c.BodyType
		}
	}
	f := loginFields(c)
	if f == nil {
		f = url.Values{"grant_type": {"password"}}
	}
	for k := range f {
		if model.SecretName(k) {
			f.Del(k)
		}
	}
	f.Set("username", p.cfg.Username)
	f.Set("password", p.cfg.Password)
	return []byte(f.Encode()), "application/x-www-form-urlencoded"
}

// bodyToken names a field of c's body (JSON or a form) that holds a
// token (refresh_token, id_token): a recorded token, never sent again.
func bodyToken(c *traffic.Call) string {
	isToken := func(k string) bool { return model.SecretName(k) && strings.HasSuffix(strings.ToLower(k), "token") }
	if f := loginFields(c); f != nil {
		for k := range f {
			if isToken(k) {
				return k
			}
		}
		return ""
	}
	var obj map[string]any
	if json.Unmarshal(c.Body, &obj) == nil {
		for k := range obj {
			if isToken(k) {
				return k
			}
		}
	}
	return ""
}

// send sends req: the status (0: no complete answer, why says why), the
// headers and the body read (at most MaxBodyBytes; why says when it was
// longer).
func (p *player) send(req *http.Request) (status int, header http.Header, body []byte, why string) {
	resp, err := p.cfg.Client.Do(req)
	if err != nil {
		return 0, nil, nil, contract.TransportError(err, p.cfg.Timeout)
	}
	defer resp.Body.Close()
	if u := req.URL; u != nil {
		p.jar.SetCookies(u, resp.Cookies())
	}
	limit := p.cfg.MaxBodyBytes
	body, err = io.ReadAll(io.LimitReader(resp.Body, limit+1))
	switch {
	case int64(len(body)) > limit:
		return resp.StatusCode, resp.Header, nil, fmt.Sprintf("the answer is larger than %d bytes: its shape is not compared", limit)
	case err != nil:
		return 0, nil, nil, "the body broke off after " + fmt.Sprint(len(body)) + " bytes: " + contract.TransportError(err, p.cfg.Timeout)
	}
	return resp.StatusCode, resp.Header, body, ""
}

// loggedIn keeps the token a login's answer issued.
func (p *player) loggedIn(status int, body []byte) {
	var tok struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
	}
	if status/100 == 2 && json.Unmarshal(body, &tok) == nil && tok.AccessToken != "" {
		p.token, p.loginFailed = "Bearer "+tok.AccessToken, ""
		p.redact.Learn(contract.Request{Header: http.Header{"Authorization": {p.token}}}, nil, nil)
		return
	}
	if p.token == "" {
		p.loginFailed = fmt.Sprintf("it answered %d", status)
		if status/100 == 2 {
			p.loginFailed = "its answer holds no access_token"
		}
	}
}

// compare sets res's changes: status, content type, and the body's shape
// where both answers were successes (or had the same status) and the
// recording kept the body.
func (p *player) compare(res *Result, c *traffic.Call, why string, body []byte, op, recOp *model.Operation) {
	if c.Status == http.StatusNotModified {
		// The browser's cache answered the recorded call; the replay
		// sends no conditional header, so a success is the same answer.
		if res.Got.Status/100 != 2 && res.Got.Status != http.StatusNotModified {
			res.Changes = append(res.Changes, Change{Level: Breaking, Kind: ChangeStatus, Was: "304", Now: fmt.Sprint(res.Got.Status)})
		}
		res.Compared = "the status only: the recording holds a 304 Not Modified, answered by the browser's cache"
		return
	}
	if c.Status != 0 && res.Got.Status != c.Status {
		res.Changes = append(res.Changes, Change{Level: Breaking, Kind: ChangeStatus, Was: fmt.Sprint(c.Status), Now: fmt.Sprint(res.Got.Status)})
	}
	if res.Recorded.ContentType != res.Got.ContentType && (c.ResponseKept || res.Recorded.ContentType != "") {
		res.Changes = append(res.Changes, Change{Level: Breaking, Kind: ChangeContentType, Was: orNone(res.Recorded.ContentType), Now: orNone(res.Got.ContentType)})
	}
	only := "status and content type only: "
	switch {
	case why != "":
		res.Compared = only + why
		p.cut++
		return
	case !c.ResponseKept:
		res.Compared = only + "the recording kept no body"
		return
	case !(c.Status == res.Got.Status || c.Status/100 == 2 && res.Got.Status/100 == 2):
		res.Compared = only + "the status changed (the bodies of two different answers are not compared)"
		return
	case len(bytes.TrimSpace(c.Response)) == 0 && len(bytes.TrimSpace(body)) == 0:
		res.Compared = "shape: both answers have no body"
		return
	case !isJSON(res.Recorded.ContentType, c.Response):
		res.Compared = only + "the recorded body is not JSON"
		return
	}
	lim := Limits{MaxValues: p.cfg.MaxCheckValues}
	var dicts map[string]bool
	if dop := cmp.Or(op, recOp); dop != nil && c.Status/100 == 2 && res.Got.Status/100 == 2 {
		// The success answer's dicts, by the target's contract (else the
		// recorded one): their keys are values, expected to differ.
		if dicts = p.dicts[dop]; dicts == nil {
			dicts = Dicts(dop.Response)
			p.dicts[dop] = dicts
		}
	}
	var cs Contracts
	if p.cfg.Recorded != nil {
		cs.Recorded = &Allowed{} // a call of no operation of it: nothing known
		if recOp != nil {
			cs.Recorded = p.allowedBy(recOp, c.Status)
		}
	}
	if op != nil {
		cs.Target = p.allowedBy(op, res.Got.Status)
	}
	was, err := ShapeOf(c.Response, lim, dicts)
	if err != nil {
		res.Compared = only + "the recorded body: " + err.Error()
		if errors.Is(err, ErrBudget) {
			p.cut++
		}
		return
	}
	now, err := ShapeOf(body, lim, dicts)
	switch {
	case errors.Is(err, ErrBudget):
		res.Compared = only + "the answer: " + err.Error()
		p.cut++
		return
	case err != nil:
		res.Compared = "shape"
		res.Changes = append(res.Changes, Change{Level: Breaking, Kind: ChangeType, Was: was.root.kinds.String(), Now: "not JSON"})
		return
	}
	res.Compared = "shape"
	changes, excused := CompareWith(was, now, cs)
	res.Changes = append(res.Changes, changes...)
	if len(excused) > 0 {
		res.Notes = append(res.Notes, excusedNote(excused))
	}
	for _, path := range emptied(was, now) {
		res.Notes = append(res.Notes, "the list at "+Change{Path: path}.Where()+" came back empty: its items were not compared")
	}
	if was.Deep || now.Deep {
		at, which := was.DeepAt, "recorded body"
		if !was.Deep {
			at, which = now.DeepAt, "answer"
		}
		res.Notes = append(res.Notes, fmt.Sprintf("parts nested deeper than %d levels (a fixed budget of the shape compared) were not compared: the first, in the %s, below %s", DefaultMaxDepth, which, Change{Path: at}.Where()))
	}
}

// allowedBy is what op's response schema for status allows: the schema
// declared for status (else its range, 2XX, else default), else for a
// success the success one; nil when op declares no JSON answer for it.
func (p *player) allowedBy(op *model.Operation, status int) *Allowed {
	sch, ok := responseSchema(op, status)
	if !ok {
		return &Allowed{}
	}
	if sch == nil {
		return AllowedBy(nil) // JSON of no schema: anything
	}
	a := p.allowed[sch]
	if a == nil {
		a = AllowedBy(sch)
		p.allowed[sch] = a
	}
	return a
}

// responseSchema is the JSON schema op declares for an answer of status
// (nil: JSON of any shape); ok false when it declares no JSON answer for
// it.
func responseSchema(op *model.Operation, status int) (*openapi3.SchemaRef, bool) {
	if op.Op == nil || op.Op.Responses == nil {
		return nil, false
	}
	for _, code := range []string{strconv.Itoa(status), strconv.Itoa(status/100) + "XX", "default"} {
		r := op.Op.Responses.Value(code)
		if r == nil || r.Value == nil {
			continue
		}
		media := r.Value.Content.Get("application/json")
		for _, mt := range slices.Sorted(maps.Keys(r.Value.Content)) {
			if media == nil && strings.HasSuffix(mediaType(mt), "+json") {
				media = r.Value.Content[mt]
			}
		}
		if media == nil {
			return nil, false
		}
		return media.Schema, true
	}
	if status/100 == 2 && op.Response != nil {
		return op.Response, true
	}
	return nil, false
}

// excusedNote says which values were not changes, the recorded contract
// allowing them.
func excusedNote(excused []Change) string {
	const most = 3
	var parts []string
	for i, c := range excused {
		if i == most {
			parts = append(parts, fmt.Sprintf("and %d more", len(excused)-most))
			break
		}
		parts = append(parts, c.String())
	}
	return "values the recorded contract allows, not changes: " + strings.Join(parts, "; ")
}

// learnIDs remembers the ids the target gave a record a write created or
// changed, where the recording had others: later calls' paths use them.
func (p *player) learnIDs(c *traffic.Call, body []byte) {
	if !c.ResponseKept {
		return
	}
	var was, now map[string]any
	if json.Unmarshal(c.Response, &was) != nil || json.Unmarshal(body, &now) != nil {
		return
	}
	for k, wv := range was {
		if !idName(k) || len(p.ids) >= MaxIDs {
			continue
		}
		ws, ok1 := scalar(wv)
		ns, ok2 := scalar(now[k])
		if ok1 && ok2 && ws != ns && ws != "" && ns != "" {
			p.ids[ws] = ns
		}
	}
}

// notMade remembers the ids in the recorded answer of a write not
// replayed: the calls that use them would find no such record.
func (p *player) notMade(c *traffic.Call) {
	var was map[string]any
	if !c.ResponseKept || json.Unmarshal(c.Response, &was) != nil {
		return
	}
	for k, v := range was {
		if s, ok := scalar(v); ok && idName(k) && s != "" && len(p.unmade) < MaxIDs {
			if _, have := p.unmade[s]; !have {
				p.unmade[s] = c.Index
			}
		}
	}
}

// mapIDs is path with every segment that is an id remembered by learnIDs
// replaced by the target's.
func (p *player) mapIDs(path string) string {
	if len(p.ids) == 0 {
		return path
	}
	segs := strings.Split(path, "/")
	for i, s := range segs {
		raw, err := url.PathUnescape(s)
		if err != nil {
			continue
		}
		if id, ok := p.ids[raw]; ok {
			segs[i] = url.PathEscape(id)
		}
	}
	return strings.Join(segs, "/")
}

// idName reports whether a field names a record's id: id, movie_id,
// movieId, uuid.
func idName(k string) bool {
	l := strings.ToLower(k)
	return l == "id" || l == "uuid" || strings.HasSuffix(l, "_id") || strings.HasSuffix(k, "Id")
}

func scalar(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case json.Number, float64, bool:
		return fmt.Sprint(v), true
	}
	return "", false
}

// finish adds the report's notes.
func (p *player) finish() {
	r := p.report
	if p.token != "" {
		r.Notes = append(r.Notes, fmt.Sprintf("logged in again as %q; the calls that carried a token carried its token instead", p.cfg.Username))
	}
	if p.mapped > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("%s sent with the id the target gave a record created in the replay, in place of the recorded one", problems.Plural(p.mapped, "call was", "calls were")))
	}
	if p.cut > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("%d answers were not compared in shape: a budget (--max-check-values, --max-body-bytes); see each call", p.cut))
	}
	r.Notes = append(r.Notes, "recorded tokens and cookies are never sent; credentials are redacted in this report")
	for i, n := range r.Notes {
		r.Notes[i] = p.redact.Text(n)
	}
}

func withQuery(path, query string) string {
	if query == "" {
		return path
	}
	return path + "?" + query
}

// mediaType is a Content-Type's media type, lower case, without
// parameters.
func mediaType(ct string) string {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		mt, _, _ = strings.Cut(ct, ";")
	}
	mt = strings.ToLower(strings.TrimSpace(mt))
	if mt == "x-unknown" { // Chromium's HAR for an answer of no type
		return ""
	}
	return mt
}

// isJSON reports whether a body of media type mt is JSON: by its type
// (application/json, application/problem+json), or, when the recording
// says none, by its first byte.
func isJSON(mt string, body []byte) bool {
	if mt == "application/json" || strings.HasSuffix(mt, "+json") {
		return true
	}
	if mt == "" {
		b := bytes.TrimSpace(body)
		return len(b) > 0 && (b[0] == '{' || b[0] == '[')
	}
	return false
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
