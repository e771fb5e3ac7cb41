// Package proxy puts moviemock between a client and a real backend: every
// request is forwarded to the upstream and its answer relayed as it comes,
// each exchange is checked against the contract with the contract runner's
// checks, what the upstream lacks is answered by the mock, and the records
// seen can be recorded into a fixture folder. The scenarios apply in front
// of the upstream as they do in front of the mock.
package proxy

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/fastapi"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/internal/regularfile"
	"github.com/moviemock/moviemock/mock"
	"github.com/moviemock/moviemock/scenarios"
)

// Defaults of Config.
const (
	DefaultTimeout        = 30 * time.Second
	DefaultConnectTimeout = 5 * time.Second
	// DefaultMaxCheckBytes is the most of an answer's body kept for the
	// checks and the recording; a longer body is relayed whole, unchecked.
	DefaultMaxCheckBytes = 16 << 20
	// DefaultMaxHeaderBytes bounds the upstream's status line and headers
	// together: past it the client gets a 502 saying so. Reverse proxies
	// in front of a backend refuse far less (nginx past 4–8 KiB, Envoy
	// past 60 KiB), and every concurrent answer would hold them.
	DefaultMaxHeaderBytes = 64 << 10
	// DefaultMaxCheckMemory bounds the bytes every exchange in flight
	// keeps for the checks together (the copies of the bodies and their
	// decoded forms): without it, 20 answers of 15 MiB at once would hold
	// gigabytes. An exchange that cannot have its bytes is relayed as it
	// comes, at once, and reported as not checked.
	DefaultMaxCheckMemory = 64 << 20
	// HeaderError marks an answer moviemock made because the upstream
	// failed (502, 504), with the reason.
	HeaderError = "X-Mock-Error"
)

// Config configures a Proxy.
type Config struct {
	// Upstream is the backend's base URL (http or https); a path in it
	// prefixes every forwarded path.
	Upstream string
	// CAFile is a PEM file of certificates to trust for an https
	// upstream beside the system's; Insecure trusts any certificate.
	CAFile   string
	Insecure bool
	// Timeout bounds the wait for the upstream's status line and
	// headers (0: DefaultTimeout): beyond it the client gets a 504. A
	// body may stream for as long as it takes.
	Timeout time.Duration
	// ConnectTimeout bounds a connection to the upstream (0:
	// DefaultConnectTimeout); an upstream that cannot be connected to is
	// answered by the mock.
	ConnectTimeout time.Duration
	// Mock lists operations answered by the mock, never forwarded: by
	// operationId or as "METHOD /path/template".
	Mock []string
	// Observer checks every exchange with the upstream; nil: none are.
	Observer *contract.Observer
	// Recorder keeps the records of the upstream's answers; nil: none.
	Recorder *fixtures.Recorder
	// MaxCheckBytes: see DefaultMaxCheckBytes (0: that).
	MaxCheckBytes int64
	// MaxCheckMemory: see DefaultMaxCheckMemory (0: that).
	MaxCheckMemory int64
	// MaxHeaderBytes: see DefaultMaxHeaderBytes (0: that). It applies to
	// the transport New builds, not to Transport.
	MaxHeaderBytes int64
	Logger         *slog.Logger // nil: no log
	// Transport, when set, replaces the one built from the fields above
	// (tests).
	Transport http.RoundTripper
}

// Proxy is the proxy: an http.Handler. Build it with New.
type Proxy struct {
	cfg       Config
	upstream  *url.URL
	transport http.RoundTripper
	mock      *mock.Server
	handler   http.Handler
	forced    map[*model.Operation]bool
	cors      bool // moviemock answers CORS: the upstream's CORS headers are dropped
	maxBody   int64
	down      atomic.Bool // the upstream was unreachable at the last try
	seen      sync.Map    // reasons already logged for a fallback, by operation
	// recordStopped: the log said the recording stopped (Recorder.Stopped).
	recordStopped atomic.Bool
	checkMem      *checkMemory // the bytes kept for the checks by the exchanges in flight
}

// overBudget is why an answer that could not have its bytes from the
// memory for the checks was not checked.
func (p *Proxy) overBudget() string {
	return fmt.Sprintf("the answers in flight already hold the %d bytes the proxy keeps for the checks together (--max-check-memory)", p.cfg.MaxCheckMemory)
}

// New builds the proxy and the mock behind it from mc (whose Dispatch,
// Annotate and AdminRoutes it sets).
func New(cfg Config, mc mock.Config) (*Proxy, error) {
	u, err := url.Parse(cfg.Upstream)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("upstream %q is not an http:// or https:// URL with a host", cfg.Upstream)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("upstream %q: give a base URL without a query or fragment", cfg.Upstream)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = DefaultConnectTimeout
	}
	if cfg.MaxCheckBytes <= 0 {
		cfg.MaxCheckBytes = DefaultMaxCheckBytes
	}
	if cfg.MaxCheckMemory <= 0 {
		cfg.MaxCheckMemory = DefaultMaxCheckMemory
	}
	if cfg.MaxHeaderBytes <= 0 {
		cfg.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	p := &Proxy{cfg: cfg, upstream: u, transport: cfg.Transport, cors: !mc.DisableCORS, checkMem: &checkMemory{max: cfg.MaxCheckMemory}}
	if p.transport == nil {
		if p.transport, err = newTransport(cfg); err != nil {
			return nil, err
		}
	}
	p.maxBody = mc.MaxBodyBytes
	if p.maxBody <= 0 {
		p.maxBody = mock.DefaultMaxBodyBytes
	}
	mc.Dispatch = p.dispatch
	mc.Annotate = true
	mc.AdminRoutes = append(mc.AdminRoutes,
		scenarios.Route{Method: http.MethodGet, Path: "/__mock/violations", Handler: http.HandlerFunc(p.violations)},
		scenarios.Route{Method: http.MethodDelete, Path: "/__mock/violations", Handler: http.HandlerFunc(p.clearViolations)})
	if p.mock, err = mock.New(mc); err != nil {
		return nil, err
	}
	if p.forced, err = forcedOps(p.mock.Model(), cfg.Mock); err != nil {
		return nil, err
	}
	p.handler = p.mock
	return p, nil
}

// forcedOps finds the operations --mock names.
func forcedOps(m *model.Model, names []string) (map[*model.Operation]bool, error) {
	out := map[*model.Operation]bool{}
	var unknown []string
	for _, name := range names {
		name = strings.TrimSpace(name)
		found := false
		for _, o := range m.Operations {
			if model.Named(name, o.ID, o.Method, o.Path) {
				out[o], found = true, true
			}
		}
		if !found {
			unknown = append(unknown, fmt.Sprintf("%q", name))
		}
	}
	if len(unknown) > 0 {
		known := make([]string, 0, len(m.Operations))
		for _, o := range m.Operations {
			if o.ID != "" {
				known = append(known, o.ID)
			} else {
				known = append(known, o.String())
			}
		}
		return nil, fmt.Errorf("--mock %s: no such operation in the contract (give an operationId or \"METHOD /path\"; known: %s)", strings.Join(unknown, ", "), strings.Join(known, ", "))
	}
	return out, nil
}

// newTransport is the upstream's transport: its own connection pool, the
// connect timeout, the response header timeout, and the TLS trust asked
// for. It sends no proxy of its own (the environment's HTTP_PROXY is not
// for the upstream a developer names).
func newTransport(cfg Config) (*http.Transport, error) {
	tlsConf := &tls.Config{MinVersion: tls.VersionTLS12}
	if cfg.CAFile != "" {
		pem, err := readCA(cfg.CAFile)
		if err != nil {
			return nil, fmt.Errorf("--upstream-ca: %w", err)
		}
		pool, err := x509.SystemCertPool()
		if err != nil || pool == nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--upstream-ca %s: no PEM certificate in it", cfg.CAFile)
		}
		tlsConf.RootCAs = pool
	}
	if cfg.Insecure {
		tlsConf.InsecureSkipVerify = true
	}
	dialer := &net.Dialer{Timeout: cfg.ConnectTimeout, KeepAlive: 30 * time.Second}
	return &http.Transport{
		DialContext:            dialer.DialContext,
		TLSClientConfig:        tlsConf,
		TLSHandshakeTimeout:    cfg.ConnectTimeout,
		ResponseHeaderTimeout:  cfg.Timeout,
		MaxIdleConnsPerHost:    64,
		IdleConnTimeout:        90 * time.Second,
		ForceAttemptHTTP2:      true,
		MaxResponseHeaderBytes: cfg.MaxHeaderBytes,
		// The client's Accept-Encoding goes upstream as it was; the body
		// comes back as the upstream encoded it, relayed unchanged.
		DisableCompression: true,
	}, nil
}

// ServeHTTP answers one request.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) { p.handler.ServeHTTP(w, r) }

// Mock is the mock behind the proxy (to reload its data).
func (p *Proxy) Mock() *mock.Server { return p.mock }

// dispatch is what the scenarios pass requests on to: the upstream, or the
// mock for what the upstream lacks.
func (p *Proxy) dispatch(mockHandler http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if why := climbs(r.URL, p.upstream.EscapedPath()); why != "" {
			p.refuse(w, r, http.StatusBadRequest, why)
			return
		}
		op, vars := p.mock.Match(r)
		if op != nil && p.forced[op] {
			p.answerFromMock(w, r, mockHandler, op, nil, "--mock "+opName(op))
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, p.maxBody+1))
		if err != nil {
			return // the client went away mid-body: nobody to answer
		}
		if int64(len(body)) > p.maxBody {
			p.fail(w, r, op, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body is larger than %d bytes (--max-body-size)", p.maxBody))
			return
		}
		x := &exchange{p: p, r: r, op: op, vars: vars, body: body, start: time.Now()}
		resp, err := p.forward(r, body)
		if err != nil {
			p.upstreamFailed(w, r, mockHandler, x, err)
			return
		}
		p.down.Store(false)
		if resp.StatusCode < 200 {
			// net/http's transport hands on a 101 (a final answer to it),
			// and relayed it would switch the client's connection to a
			// protocol it never asked for: the proxy forwards no Upgrade.
			resp.Body.Close()
			p.fail(w, r, op, http.StatusBadGateway, fmt.Sprintf("the upstream %s answered %d %s, though the proxy forwards no protocol upgrade (Upgrade is a hop-by-hop header it drops)", p.upstream, resp.StatusCode, http.StatusText(resp.StatusCode)))
			return
		}
		if op != nil {
			if why := lacks(resp); why != "" {
				resp.Body.Close()
				p.answerFromMock(w, r, mockHandler, op, body, why)
				return
			}
		}
		x.relay(w, resp)
	})
}

func opName(op *model.Operation) string {
	if op.ID != "" {
		return op.ID
	}
	return op.String()
}

// hopHeaders are a connection's own, never forwarded (RFC 9110 7.6.1), with
// moviemock's own request headers.
var hopHeaders = []string{"Connection", "Keep-Alive", "Proxy-Connection", "Proxy-Authenticate", "Proxy-Authorization",
	"Te", "Trailer", "Transfer-Encoding", "Upgrade"}

var mockHeaders = []string{scenarios.HeaderScenario, scenarios.HeaderSession, "X-Mock-Admin-Token"}

// mockPrefix starts the names of moviemock's own headers.
const mockPrefix = "X-Mock-"

// target is where r goes upstream: its path, dot segments resolved (see
// climbs), under the upstream's, and its query.
func (p *Proxy) target(r *http.Request) *url.URL {
	u := *p.upstream
	raw := removeDots(r.URL.EscapedPath())
	u.Path = p.upstream.Path + r.URL.Path
	if path, err := url.PathUnescape(raw); err == nil {
		u.Path = p.upstream.Path + path
	}
	u.RawPath = p.upstream.EscapedPath() + raw
	u.RawQuery = r.URL.RawQuery
	return &u
}

// climbs says why a request path would leave the upstream's path ("": it
// stays under it): a ".." segment above its root, in the path as sent
// ("%2e%2e" and ".%2E" are dot segments too, RFC 3986 2.3) or once
// decoded ("..%2f..%2fadmin" is "../../admin" to a backend that decodes
// before it routes). Under --upstream http://host/api/v1, /../../admin
// would otherwise reach http://host/admin through any server that
// resolves dot segments.
func climbs(u *url.URL, under string) string {
	for _, p := range []struct {
		path    string
		escaped bool
	}{{u.EscapedPath(), true}, {u.Path, false}} {
		depth := 0
		for i, seg := range strings.Split(p.path, "/") {
			if !p.escaped && seg != "." && seg != ".." {
				seg = "x" // "%2e" decoded from "%252e" is no dot segment
			}
			switch dotSegment(seg) {
			case 2:
				if depth--; depth < 0 {
					return fmt.Sprintf("the path %q climbs out of the upstream's %q with \"..\" segments: the proxy forwards only paths under it", u.EscapedPath(), under+"/")
				}
			case 0:
				if i > 0 {
					depth++
				}
			}
		}
	}
	return ""
}

// dotSegment is 1 for a path segment "." and 2 for "..", either maybe
// percent-encoded; else 0.
func dotSegment(s string) int {
	switch strings.ToLower(s) {
	case ".", "%2e":
		return 1
	case "..", ".%2e", "%2e.", "%2e%2e":
		return 2
	}
	return 0
}

// removeDots resolves the dot segments of an escaped path that does not
// climb (RFC 3986 5.2.4): /person/./1 and /reviews/../person/1 are
// /person/1.
func removeDots(p string) string {
	segs := strings.Split(p, "/")
	out := make([]string, 0, len(segs))
	dots := false
	for i, s := range segs {
		last := i == len(segs)-1
		switch dotSegment(s) {
		case 1:
			dots = true
			if last {
				out = append(out, "")
			}
		case 2:
			dots = true
			if len(out) > 1 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, s)
		}
	}
	if !dots {
		return p
	}
	if len(out) < 2 {
		return "/"
	}
	return strings.Join(out, "/")
}

// forward sends r, with body, to the upstream.
func (p *Proxy) forward(r *http.Request, body []byte) (*http.Response, error) {
	out, err := http.NewRequestWithContext(r.Context(), r.Method, p.target(r).String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	if len(body) == 0 && r.ContentLength <= 0 {
		out.Body, out.ContentLength = http.NoBody, 0
	}
	out.Header = r.Header.Clone()
	removeHop(out.Header)
	for _, h := range mockHeaders {
		out.Header.Del(h)
	}
	if _, ok := out.Header["User-Agent"]; !ok {
		out.Header["User-Agent"] = nil // not Go's default: the client sent none
	}
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		if prior := out.Header.Values("X-Forwarded-For"); len(prior) > 0 {
			host = strings.Join(prior, ", ") + ", " + host
		}
		out.Header.Set("X-Forwarded-For", host)
	}
	out.Header.Set("X-Forwarded-Host", r.Host)
	proto := "http"
	if r.TLS != nil {
		proto = "https"
	}
	out.Header.Set("X-Forwarded-Proto", proto)
	return p.transport.RoundTrip(out)
}

// removeHop deletes the hop-by-hop headers of h, and those its Connection
// header names.
func removeHop(h http.Header) {
	for _, v := range h.Values("Connection") {
		for _, name := range strings.Split(v, ",") {
			if name = strings.TrimSpace(name); name != "" {
				h.Del(name)
			}
		}
	}
	for _, name := range hopHeaders {
		h.Del(name)
	}
}

// lacks says why the upstream's answer means it lacks the operation ("":
// it does not): Starlette's 404 for a path no route has, a 405 for a method
// its route does not take, or a 501. The body of a 404 is read to tell its
// "Not Found" from the backend's own 404s ("Review not found"); what was
// read is put back.
func lacks(resp *http.Response) string {
	switch resp.StatusCode {
	case http.StatusMethodNotAllowed:
		return "the upstream answered 405 Method Not Allowed: it has the path without this method"
	case http.StatusNotImplemented:
		return "the upstream answered 501 Not Implemented"
	case http.StatusNotFound:
		const notFound = `{"detail":"Not Found"}`
		head := make([]byte, len(notFound)+1)
		n, err := io.ReadFull(resp.Body, head)
		head = head[:n]
		if n == len(notFound) && string(head) == notFound && (err == io.ErrUnexpectedEOF || err == io.EOF) {
			return "the upstream answered 404 Not Found: it has no such route"
		}
		resp.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
	}
	return ""
}

// answerFromMock lets the mock answer r, for op (nil: none of the
// contract's), its body already read given again, saying why in the
// journal and, once per operation and reason, in the log.
func (p *Proxy) answerFromMock(w http.ResponseWriter, r *http.Request, mockHandler http.Handler, op *model.Operation, body []byte, why string) {
	scenarios.SetAnsweredBy(r, "mock: "+why)
	if obs := p.cfg.Observer; obs != nil {
		template := ""
		if op != nil {
			template = op.Path
		}
		obs.NotReached(r.Method, template, true)
	}
	if body != nil {
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
	}
	if log := p.cfg.Logger; log != nil {
		key := why
		if op != nil {
			key = opName(op) + "\x00" + why
		}
		if _, dup := p.seen.LoadOrStore(key, true); !dup {
			name := r.Method + " " + r.URL.Path
			if op != nil {
				name = op.String()
			}
			log.Info("answered by the mock", "operation", name, "why", why)
		}
	}
	mockHandler.ServeHTTP(w, r)
}

// upstreamFailed answers a request the upstream gave no answer to: the
// mock answers when nothing could be connected to, a 504 when the upstream
// took too long, a 502 otherwise.
func (p *Proxy) upstreamFailed(w http.ResponseWriter, r *http.Request, mockHandler http.Handler, x *exchange, err error) {
	if r.Context().Err() != nil {
		return // the client gave up: nobody to answer
	}
	var dnsErr *net.DNSError
	var opErr *net.OpError
	switch {
	case errors.As(err, &opErr) && opErr.Op == "dial", errors.As(err, &dnsErr):
		if !p.down.Swap(true) && p.cfg.Logger != nil {
			p.cfg.Logger.Warn("the upstream is unreachable: the mock answers until it is back", "upstream", p.upstream.String(), "error", unwrapURL(err).Error())
		}
		p.answerFromMock(w, r, mockHandler, x.op, x.body, "the upstream is unreachable ("+unwrapURL(err).Error()+")")
	case headersTooLarge(err):
		p.fail(w, r, x.op, http.StatusBadGateway, fmt.Sprintf("the upstream %s answered with headers larger than %d bytes, more than the proxy passes on (--upstream-max-header-bytes); nginx refuses past 4-8 KiB, Envoy past 60 KiB", p.upstream, p.cfg.MaxHeaderBytes))
	case isTimeout(err):
		p.fail(w, r, x.op, http.StatusGatewayTimeout, fmt.Sprintf("the upstream %s did not answer within %v (--upstream-timeout)", p.upstream, p.cfg.Timeout))
	default:
		p.fail(w, r, x.op, http.StatusBadGateway, "the upstream "+p.upstream.String()+" gave no answer: "+describe(err))
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout() || errors.Is(err, context.DeadlineExceeded)
}

// headersTooLarge reports whether err is the transport refusing an answer
// past MaxResponseHeaderBytes. net/http (Go 1.26) has no error value for
// it: HTTP/1 says "server response headers exceeded", HTTP/2 "header list
// larger than".
func headersTooLarge(err error) bool {
	s := unwrapURL(err).Error()
	return strings.Contains(s, "response headers exceeded") || strings.Contains(s, "header list larger than")
}

// describe says in plain words what went wrong with the upstream.
func describe(err error) string {
	var unknownAuthority x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	var recordHeader tls.RecordHeaderError
	switch {
	case errors.As(err, &unknownAuthority):
		return "its TLS certificate is signed by an authority this machine does not trust; give its CA with --upstream-ca FILE (or --upstream-insecure)"
	case errors.As(err, &hostname):
		return "its TLS certificate is not for this host name (" + hostname.Error() + "); --upstream-insecure skips the check"
	case errors.As(err, &invalid):
		return "its TLS certificate is not valid (" + invalid.Error() + "); --upstream-insecure skips the check"
	case errors.As(err, &recordHeader):
		return "it does not speak TLS: is the upstream http:// rather than https://?"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "it closed the connection before answering"
	}
	return unwrapURL(err).Error()
}

func unwrapURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// refuse answers a request the proxy does not forward with a FastAPI-style
// {"detail": why}, marked X-Mock-Error.
func (p *Proxy) refuse(w http.ResponseWriter, r *http.Request, code int, why string) {
	scenarios.SetAnsweredBy(r, "moviemock: "+why)
	w.Header().Set(HeaderError, headerSafe(why))
	fastapi.WriteDetail(w, code, why)
}

// shownPath is path, a request's path op matched, as the log shows it:
// a secret path parameter's value redacted (model.RedactPath); as it is
// when op is nil (no operation of the contract).
func shownPath(op *model.Operation, path string) string {
	if op == nil {
		return path
	}
	return op.RedactPath(path)
}

// fail answers with a FastAPI-style {"detail": why}, marked X-Mock-Error;
// op is the operation r matched (nil: none), for the log.
func (p *Proxy) fail(w http.ResponseWriter, r *http.Request, op *model.Operation, code int, why string) {
	scenarios.SetAnsweredBy(r, "moviemock: "+why)
	if obs := p.cfg.Observer; obs != nil {
		obs.NotReached(r.Method, "", false)
	}
	if p.cfg.Logger != nil {
		p.cfg.Logger.Warn("upstream failure", "method", r.Method, "path", shownPath(op, r.URL.Path), "status", code, "why", why)
	}
	w.Header().Set(HeaderError, headerSafe(why))
	fastapi.WriteDetail(w, code, why)
}

// headerSafe is s with what a header value cannot hold replaced.
func headerSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f || r > 0x7e {
			return '?'
		}
		return r
	}, s)
}

// copyHeaders copies the upstream's answer headers to dst: not its
// hop-by-hop ones, not those named X-Mock-* (moviemock's own: an upstream's
// X-Mock-Error would pass for moviemock's marker) and, when moviemock
// answers CORS itself, not its Access-Control ones (a browser refuses an
// answer naming two origins). Vary keeps both sides' names.
func (p *Proxy) copyHeaders(dst, src http.Header) {
	src = src.Clone()
	removeHop(src)
	for k, vs := range src {
		switch {
		case len(k) >= len(mockPrefix) && strings.EqualFold(k[:len(mockPrefix)], mockPrefix):
			continue
		case p.cors && strings.HasPrefix(k, "Access-Control-"):
			continue
		case k == "Vary" && len(dst.Values("Vary")) > 0:
			var names []string
			for _, v := range append(dst.Values("Vary"), vs...) {
				for _, n := range strings.Split(v, ",") {
					if n = strings.TrimSpace(n); n != "" && !slices.ContainsFunc(names, func(m string) bool { return strings.EqualFold(m, n) }) {
						names = append(names, n)
					}
				}
			}
			dst.Set("Vary", strings.Join(names, ", "))
			continue
		}
		dst[k] = vs
	}
}

// maxCAFile bounds the --upstream-ca file: a bundle of every public root
// is about 200 KiB.
const maxCAFile = 16 << 20

// readCA reads the --upstream-ca file, a regular file of at most
// maxCAFile bytes: a FIFO or a device is refused, not waited on.
func readCA(path string) ([]byte, error) {
	f, err := regularfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	pem, err := io.ReadAll(io.LimitReader(f, maxCAFile+1))
	if err != nil {
		return nil, err
	}
	if len(pem) > maxCAFile {
		return nil, fmt.Errorf("%s: more than %d bytes, more than any bundle of certificates", path, maxCAFile)
	}
	return pem, nil
}
