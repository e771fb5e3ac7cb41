package browser

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"mime"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// HAR records what the pages of a tab ask of the network, from the
// DevTools protocol's Network events, and writes it as HAR 1.2 shaped as
// Chromium DevTools' "Save all as HAR" (with sensitive data) shapes it:
// log.creator WebInspector, one page, entries in the order they were sent
// with _initiator, _priority, _resourceType, the request's and answer's
// headers, bodies (Network.getResponseBody; base64 when binary) and
// DevTools' timings. It is how the project's test data of a frontend's
// calls is made (testdata/traffic), not a general HAR exporter: no cookies
// list, no WebSockets, no service workers.
type HAR struct {
	ctx    context.Context
	mu     sync.Mutex
	reqs   map[network.RequestID]*harReq
	order  []*harReq
	bodies sync.WaitGroup
	page   harPage
}

type harReq struct {
	sent      *network.EventRequestWillBeSent
	extraReq  network.Headers
	resp      *network.Response
	respAt    float64 // when the answer's headers came (monotonic seconds)
	extraResp *network.EventResponseReceivedExtraInfo
	endAt     float64
	encoded   float64
	failed    string
	postData  []byte
	body      []byte
	base64    bool
	redirect  string
	typ       network.ResourceType
}

type harPage struct {
	url                 string
	wall, start         float64
	contentLoad, onLoad float64
}

// RecordHAR starts recording the tab of ctx (from New). Call it before
// the page is opened.
func RecordHAR(ctx context.Context) (*HAR, error) {
	h := &HAR{ctx: ctx, reqs: map[network.RequestID]*harReq{}}
	err := chromedp.Listen(ctx, h.event)
	if err != nil {
		return nil, err
	}
	if _, err := chromedp.Call(ctx, page.Enable, page.EnableParams{}); err != nil {
		return nil, fmt.Errorf("page events: %w", err)
	}
	return h, nil
}

// event runs in the tab's message loop: it notes and returns, and fetches
// bodies from goroutines of their own.
func (h *HAR) event(ev any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		if old := h.reqs[e.RequestID]; old != nil && e.RedirectResponse != nil {
			// The same id goes on with the redirect's target: what came
			// before is an entry of its own, its answer the redirect.
			old.resp, old.respAt, old.endAt, old.redirect = e.RedirectResponse, e.Timestamp.Float64(), e.Timestamp.Float64(), e.Request.URL
			old.body, old.base64 = []byte{}, false
		}
		r := &harReq{sent: e, typ: e.Type}
		if e.Type == network.ResourceTypeDocument && h.page.url == "" {
			h.page = harPage{url: e.Request.URL, wall: e.WallTime.Float64(), start: e.Timestamp.Float64()}
		}
		for _, p := range e.Request.PostDataEntries {
			r.postData = append(r.postData, p.Bytes...)
		}
		h.reqs[e.RequestID] = r
		h.order = append(h.order, r)
		if e.Request.HasPostData && len(e.Request.PostDataEntries) == 0 {
			h.fetch(func(ctx context.Context) {
				res, err := chromedp.Call(ctx, network.GetRequestPostData, network.GetRequestPostDataParams{RequestID: e.RequestID})
				h.mu.Lock()
				defer h.mu.Unlock()
				if err == nil {
					r.postData = res.PostData
				}
			})
		}
	case *network.EventRequestWillBeSentExtraInfo:
		if r := h.reqs[e.RequestID]; r != nil {
			r.extraReq = e.Headers
		}
	case *network.EventResponseReceived:
		if r := h.reqs[e.RequestID]; r != nil {
			r.resp, r.respAt, r.typ = e.Response, e.Timestamp.Float64(), e.Type
		}
	case *network.EventResponseReceivedExtraInfo:
		if r := h.reqs[e.RequestID]; r != nil {
			r.extraResp = e
		}
	case *network.EventLoadingFinished:
		r := h.reqs[e.RequestID]
		if r == nil {
			return
		}
		r.endAt, r.encoded = e.Timestamp.Float64(), e.EncodedDataLength
		if r.typ == network.ResourceTypePreflight {
			return // DevTools keeps no body of a preflight
		}
		id := e.RequestID
		h.fetch(func(ctx context.Context) {
			res, err := chromedp.Call(ctx, network.GetResponseBody, network.GetResponseBodyParams{RequestID: id})
			h.mu.Lock()
			defer h.mu.Unlock()
			if err != nil {
				// No body to give (a 204, a redirect, one evicted):
				// DevTools then saves the content without text too.
				return
			}
			r.body, r.base64 = res.Body, res.Base64encoded
			if r.body == nil {
				r.body = []byte{}
			}
		})
	case *network.EventLoadingFailed:
		if r := h.reqs[e.RequestID]; r != nil {
			r.endAt, r.failed = e.Timestamp.Float64(), e.ErrorText
		}
	case *page.EventDomContentEventFired:
		if h.page.contentLoad == 0 {
			h.page.contentLoad = e.Timestamp.Float64()
		}
	case *page.EventLoadEventFired:
		if h.page.onLoad == 0 {
			h.page.onLoad = e.Timestamp.Float64()
		}
	}
}

// fetch runs fn in a goroutine of its own; JSON waits for it. The caller
// holds h.mu.
func (h *HAR) fetch(fn func(ctx context.Context)) {
	h.bodies.Add(1)
	go func() {
		defer h.bodies.Done()
		ctx, cancel := context.WithTimeout(h.ctx, 10*time.Second)
		defer cancel()
		fn(ctx)
	}()
}

// Settle waits until every request recorded has ended (answered or
// failed) and none began for quiet, or ctx ends.
func (h *HAR) Settle(ctx context.Context, quiet time.Duration) error {
	seen, since := -1, time.Now()
	for {
		h.mu.Lock()
		n, ended := len(h.order), 0
		for _, r := range h.order {
			if r.endAt != 0 {
				ended++
			}
		}
		h.mu.Unlock()
		if n != seen {
			seen, since = n, time.Now()
		}
		if ended == n && time.Since(since) >= quiet {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%d requests of %d ended: %w", ended, n, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// JSON is the HAR of what was recorded until now, indented as DevTools
// saves it. It waits for the bodies asked for.
func (h *HAR) JSON() ([]byte, error) {
	h.bodies.Wait()
	h.mu.Lock()
	defer h.mu.Unlock()
	log := harLog{Version: "1.2", Creator: harCreator{Name: "WebInspector", Version: "537.36"}, Entries: []harEntry{}}
	log.Pages = []harPageOut{{
		StartedDateTime: isoTime(h.page.wall),
		ID:              "page_1",
		Title:           h.page.url,
		PageTimings:     harPageTimings{OnContentLoad: sinceMs(h.page.start, h.page.contentLoad), OnLoad: sinceMs(h.page.start, h.page.onLoad)},
	}}
	for _, r := range h.entries() {
		if r.endAt == 0 && r.failed == "" {
			continue // still under way: DevTools would show it pending
		}
		log.Entries = append(log.Entries, r.entry())
	}
	return json.MarshalIndent(harFile{Log: log}, "", "  ")
}

// entries are the requests in the order they were sent, but for each
// preflight, which goes just before the request it was for (its
// initiator's requestId): the browser reports the two in either order.
func (h *HAR) entries() []*harReq {
	before := map[network.RequestID][]*harReq{}
	for _, r := range h.order {
		if in := r.sent.Initiator; r.typ == network.ResourceTypePreflight && in != nil && in.RequestID != "" && h.reqs[in.RequestID] != nil {
			before[in.RequestID] = append(before[in.RequestID], r)
		}
	}
	out := make([]*harReq, 0, len(h.order))
	for _, r := range h.order {
		if in := r.sent.Initiator; r.typ == network.ResourceTypePreflight && in != nil && in.RequestID != "" && h.reqs[in.RequestID] != nil {
			continue
		}
		if r.typ != network.ResourceTypePreflight && h.reqs[r.sent.RequestID] == r {
			out = append(out, before[r.sent.RequestID]...)
		}
		out = append(out, r)
	}
	return out
}

type harFile struct {
	Log harLog `json:"log"`
}

type harLog struct {
	Version string       `json:"version"`
	Creator harCreator   `json:"creator"`
	Pages   []harPageOut `json:"pages"`
	Entries []harEntry   `json:"entries"`
}

type harCreator struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type harPageOut struct {
	StartedDateTime string         `json:"startedDateTime"`
	ID              string         `json:"id"`
	Title           string         `json:"title"`
	PageTimings     harPageTimings `json:"pageTimings"`
}

type harPageTimings struct {
	OnContentLoad float64 `json:"onContentLoad"`
	OnLoad        float64 `json:"onLoad"`
}

// harEntry's members are in the order DevTools writes them: its own
// (underscored) first, then the rest alphabetically.
type harEntry struct {
	Initiator       map[string]any `json:"_initiator"`
	Priority        string         `json:"_priority"`
	ResourceType    string         `json:"_resourceType"`
	Cache           struct{}       `json:"cache"`
	Connection      string         `json:"connection,omitempty"`
	Pageref         string         `json:"pageref"`
	Request         harRequest     `json:"request"`
	Response        harResponse    `json:"response"`
	ServerIPAddress string         `json:"serverIPAddress"`
	StartedDateTime string         `json:"startedDateTime"`
	Time            float64        `json:"time"`
	Timings         harTimings     `json:"timings"`
}

type harNV struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type harRequest struct {
	Method      string       `json:"method"`
	URL         string       `json:"url"`
	HTTPVersion string       `json:"httpVersion"`
	Headers     []harNV      `json:"headers"`
	QueryString []harNV      `json:"queryString"`
	Cookies     []harNV      `json:"cookies"`
	HeadersSize int          `json:"headersSize"`
	BodySize    int          `json:"bodySize"`
	PostData    *harPostData `json:"postData,omitempty"`
}

type harPostData struct {
	MimeType string  `json:"mimeType"`
	Text     string  `json:"text"`
	Params   []harNV `json:"params,omitempty"`
}

type harResponse struct {
	Status       int64      `json:"status"`
	StatusText   string     `json:"statusText"`
	HTTPVersion  string     `json:"httpVersion"`
	Headers      []harNV    `json:"headers"`
	Cookies      []harNV    `json:"cookies"`
	Content      harContent `json:"content"`
	RedirectURL  string     `json:"redirectURL"`
	HeadersSize  int        `json:"headersSize"`
	BodySize     int        `json:"bodySize"`
	TransferSize int        `json:"_transferSize"`
	Error        *string    `json:"_error"`
}

type harContent struct {
	Size        int     `json:"size"`
	MimeType    string  `json:"mimeType"`
	Compression *int    `json:"compression,omitempty"`
	Text        *string `json:"text,omitempty"`
	Encoding    string  `json:"encoding,omitempty"`
}

type harTimings struct {
	Blocked         float64 `json:"blocked"`
	DNS             float64 `json:"dns"`
	SSL             float64 `json:"ssl"`
	Connect         float64 `json:"connect"`
	Send            float64 `json:"send"`
	Wait            float64 `json:"wait"`
	Receive         float64 `json:"receive"`
	BlockedQueueing float64 `json:"_blocked_queueing"`
}

func (r *harReq) entry() harEntry {
	e, req := r.sent, r.sent.Request
	out := harEntry{
		Initiator:       initiator(e.Initiator),
		Priority:        string(req.InitialPriority),
		ResourceType:    strings.ToLower(string(r.typ)),
		Pageref:         "page_1",
		StartedDateTime: isoTime(e.WallTime.Float64()),
	}
	headers := req.Headers
	if r.extraReq != nil {
		headers = r.extraReq
	}
	out.Request = harRequest{
		Method: req.Method, URL: req.URL + req.URLFragment, HTTPVersion: "HTTP/1.1",
		Headers: nvs(headers), QueryString: query(req.URL), Cookies: []harNV{},
		HeadersSize: -1, BodySize: len(r.postData),
	}
	if req.HasPostData || len(r.postData) > 0 {
		pd := &harPostData{MimeType: headerValue(headers, "Content-Type"), Text: string(r.postData)}
		if mt, _, _ := mime.ParseMediaType(pd.MimeType); mt == "application/x-www-form-urlencoded" {
			if v, err := url.ParseQuery(pd.Text); err == nil {
				pd.Params = []harNV{}
				for _, kv := range strings.Split(pd.Text, "&") {
					k, _, _ := strings.Cut(kv, "=")
					if k, err := url.QueryUnescape(k); err == nil && len(v[k]) > 0 {
						pd.Params = append(pd.Params, harNV{k, v[k][0]})
						v[k] = v[k][1:]
					}
				}
			}
		}
		out.Request.PostData = pd
	}
	out.Response = harResponse{Headers: []harNV{}, Cookies: []harNV{}, HeadersSize: -1, RedirectURL: r.redirect}
	if r.failed != "" {
		out.Response.Error = &r.failed
	}
	var timing *network.ResourceTiming
	if resp := r.resp; resp != nil {
		timing = resp.Timing
		rh := resp.Headers
		if r.extraResp != nil {
			rh = r.extraResp.Headers
			if r.extraResp.HeadersText != "" {
				out.Response.HeadersSize = len(r.extraResp.HeadersText)
			}
		}
		out.Response.Status, out.Response.StatusText = resp.Status, resp.StatusText
		out.Response.HTTPVersion = httpVersion(resp.Protocol)
		out.Request.HTTPVersion = out.Response.HTTPVersion
		out.Response.Headers = nvs(rh)
		out.Response.Content.MimeType = resp.MimeType
		if resp.ConnectionID != 0 {
			out.Connection = fmt.Sprint(int64(resp.ConnectionID))
		}
		out.ServerIPAddress = strings.Trim(resp.RemoteIPAddress, "[]")
	}
	if r.body != nil {
		out.Response.Content.Size = len(r.body)
		text := string(r.body)
		if r.base64 {
			text = base64.StdEncoding.EncodeToString(r.body)
			out.Response.Content.Encoding = "base64"
		}
		out.Response.Content.Text = &text
	}
	out.Response.TransferSize = int(r.encoded)
	if hs := out.Response.HeadersSize; hs >= 0 && int(r.encoded) >= hs {
		out.Response.BodySize = int(r.encoded) - hs
		if c := out.Response.Content.Size - out.Response.BodySize; r.body != nil {
			out.Response.Content.Compression = &c
		}
	} else {
		out.Response.BodySize = -1
	}
	out.Timings = timings(e.Timestamp.Float64(), timing, r.respAt, r.endAt)
	for _, t := range []float64{out.Timings.Blocked, out.Timings.DNS, out.Timings.Connect, out.Timings.Send, out.Timings.Wait, out.Timings.Receive} {
		out.Time += max(t, 0)
	}
	out.Time = round3(out.Time)
	return out
}

// timings are DevTools' HAR timings (front_end/models/har/Log.ts,
// buildTimings): issued at issue, the network's timing relative to its
// requestTime, the answer's headers at respAt and its end at endAt, in
// milliseconds, -1 for a phase that did not happen.
func timings(issue float64, t *network.ResourceTiming, respAt, endAt float64) harTimings {
	out := harTimings{Blocked: -1, DNS: -1, SSL: -1, Connect: -1}
	if t == nil {
		out.Blocked = round3(math.Max(endAt-issue, 0) * 1000)
		return out
	}
	queued := -1.0
	if t.RequestTime > issue {
		queued = (t.RequestTime - issue) * 1000
	}
	out.Blocked, out.BlockedQueueing = queued, queued
	blockedStart := leastNonNegative(t.DNSStart, t.ConnectStart, t.SendStart)
	if blockedStart != math.Inf(1) {
		out.Blocked += blockedStart
	}
	dnsStart, dnsEnd := 0.0, -1.0
	if t.DNSEnd >= 0 {
		dnsStart, dnsEnd = blockedStart, t.DNSEnd
	}
	out.DNS = dnsEnd - dnsStart
	sslStart, sslEnd := 0.0, -1.0
	if t.SslEnd > 0 {
		sslStart, sslEnd = t.SslStart, t.SslEnd
	}
	out.SSL = sslEnd - sslStart
	connectStart, connectEnd := 0.0, -1.0
	if t.ConnectEnd >= 0 {
		connectStart, connectEnd = leastNonNegative(dnsEnd, blockedStart), t.ConnectEnd
	}
	out.Connect = connectEnd - connectStart
	sendStart, sendEnd := 0.0, 0.0
	if t.SendEnd >= 0 {
		sendStart, sendEnd = max(connectEnd, dnsEnd, blockedStart), t.SendEnd
	}
	out.Send = max(sendEnd-sendStart, 0)
	highest := max(sendEnd, connectEnd, sslEnd, dnsEnd, blockedStart, 0)
	if respAt == 0 {
		respAt = endAt
	}
	waitEnd := (respAt - t.RequestTime) * 1000
	out.Wait = waitEnd - highest
	out.Receive = max((endAt-t.RequestTime)*1000-waitEnd, 0)
	for _, p := range []*float64{&out.Blocked, &out.DNS, &out.SSL, &out.Connect, &out.Send, &out.Wait, &out.Receive, &out.BlockedQueueing} {
		*p = round3(*p)
	}
	return out
}

func leastNonNegative(vs ...float64) float64 {
	least := math.Inf(1)
	for _, v := range vs {
		if v >= 0 && v < least {
			least = v
		}
	}
	return least
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

func sinceMs(start, at float64) float64 {
	if at == 0 || start == 0 {
		return -1
	}
	return round3((at - start) * 1000)
}

// isoTime is a wall time in seconds as JavaScript's Date.toJSON writes it.
func isoTime(wall float64) string {
	sec, frac := math.Modf(wall)
	return time.Unix(int64(sec), int64(frac*1e9)).UTC().Format("2006-01-02T15:04:05.000Z")
}

func httpVersion(protocol string) string {
	switch protocol {
	case "", "http/1.1":
		return "HTTP/1.1"
	case "http/1.0":
		return "HTTP/1.0"
	}
	return protocol
}

// initiator is what DevTools keeps of a request's initiator.
func initiator(in *network.Initiator) map[string]any {
	if in == nil {
		return map[string]any{"type": "other"}
	}
	out := map[string]any{"type": string(in.Type)}
	if in.URL != "" {
		out["url"] = in.URL
		out["lineNumber"] = in.LineNumber
	}
	if in.RequestID != "" {
		out["requestId"] = string(in.RequestID)
	}
	if in.Stack != nil {
		out["stack"] = in.Stack
	}
	return out
}

// nvs are CDP's headers as HAR's list, by name: CDP hands them over as a
// map, and folds repeated ones into one value with newlines.
func nvs(h network.Headers) []harNV {
	out := []harNV{}
	for _, k := range slices.Sorted(maps.Keys(h)) {
		for _, v := range strings.Split(fmt.Sprint(h[k]), "\n") {
			out = append(out, harNV{k, v})
		}
	}
	return out
}

func headerValue(h network.Headers, name string) string {
	for k, v := range h {
		if strings.EqualFold(k, name) {
			return fmt.Sprint(v)
		}
	}
	return ""
}

func query(raw string) []harNV {
	out := []harNV{}
	u, err := url.Parse(raw)
	if err != nil || u.RawQuery == "" {
		return out
	}
	for _, kv := range strings.Split(u.RawQuery, "&") {
		k, v, _ := strings.Cut(kv, "=")
		if dk, err := url.QueryUnescape(k); err == nil {
			k = dk
		}
		if dv, err := url.QueryUnescape(v); err == nil {
			v = dv
		}
		out = append(out, harNV{k, v})
	}
	return out
}
