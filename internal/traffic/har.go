package traffic

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"

	"github.com/moviemock/moviemock/internal/jsonscan"
)

// harEntry is what Load reads of a HAR 1.2 entry (Chromium's and
// Playwright's, with Chromium's _resourceType).
type harEntry struct {
	ResourceType string `json:"_resourceType"`
	Request      struct {
		Method   string      `json:"method"`
		URL      string      `json:"url"`
		Headers  []harHeader `json:"headers"`
		PostData *struct {
			MimeType string  `json:"mimeType"`
			Text     *string `json:"text"`
			Params   []struct {
				Name        string `json:"name"`
				Value       string `json:"value"`
				FileName    string `json:"fileName"`
				ContentType string `json:"contentType"`
			} `json:"params"`
		} `json:"postData"`
	} `json:"request"`
	Response struct {
		Status  int         `json:"status"`
		Headers []harHeader `json:"headers"`
		Content struct {
			Size     int64   `json:"size"`
			MimeType string  `json:"mimeType"`
			Text     *string `json:"text"`
			Encoding string  `json:"encoding"`
		} `json:"content"`
		Error *string `json:"_error"` // Chromium: net::ERR_FAILED and the like
	} `json:"response"`
}

type harHeader struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// notCalls name Chromium's _resourceType values that are no API call:
// what a page loads to show itself, and what the browser sends on its
// own. Of the rest, fetch, xhr and eventsource are calls; any other
// ("other": a favicon, a beacon) is not.
var notCalls = map[string]string{
	"document": "a page", "stylesheet": "a stylesheet", "image": "an image", "media": "media",
	"font": "a font", "script": "a script", "texttrack": "a text track", "manifest": "a manifest",
	"websocket": "a WebSocket", "signedexchange": "a signed exchange", "ping": "a ping",
	"cspviolationreport": "a CSP report", "preflight": "CORS preflight", "prefetch": "a prefetch",
}

// har reads the HAR object at i.
func (l *loader) har(i int) error {
	log := l.member(i, "log")
	if log < 0 || l.data[log] != '{' {
		return errors.New(`no "log" object: not a HAR`)
	}
	if v := l.member(log, "creator"); v >= 0 {
		var c struct{ Name, Version string }
		if decode(l.data[v:jsonscan.End(l.data, v)], &c) == nil {
			l.src.Creator = strings.TrimSpace(clipString(c.Name+" "+c.Version, 200))
		}
	}
	entries := l.member(log, "entries")
	if entries < 0 || l.data[entries] != '[' {
		return errors.New(`log: no "entries" array: not a HAR`)
	}
	return l.each(entries, func(n, start, end int) error {
		var e harEntry
		if err := decode(l.data[start:end], &e); err != nil {
			return fmt.Errorf("entry %d: %w", n, err)
		}
		return l.harEntry(n, &e)
	})
}

func (l *loader) harEntry(n int, e *harEntry) error {
	method := e.Request.Method
	if err := checkMethod(method); err != nil {
		return fmt.Errorf("entry %d: request.method: %w", n, err)
	}
	u, err := url.Parse(e.Request.URL)
	if err != nil {
		return fmt.Errorf("entry %d: request.url: %w", n, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		l.skip(n, method, e.Request.URL, "not an HTTP request ("+clipString(u.Scheme, 40)+":)")
		return nil
	}
	reqH, err := harHeaders(e.Request.Headers)
	if err != nil {
		return fmt.Errorf("entry %d: request.headers: %w", n, err)
	}
	respH, err := harHeaders(e.Response.Headers)
	if err != nil {
		return fmt.Errorf("entry %d: response.headers: %w", n, err)
	}
	path := u.Path
	if path == "" {
		path = "/"
	}
	if why := notAPI(method, path, reqH); why != "" {
		l.skip(n, method, e.Request.URL, why)
		return nil
	}
	switch rt := strings.ToLower(e.ResourceType); rt {
	case "", "fetch", "xhr", "eventsource":
	default:
		what := notCalls[rt]
		if what == "" {
			what = "not fetch or XHR"
		}
		l.skip(n, method, e.Request.URL, what+" (_resourceType "+clipString(e.ResourceType, 40)+")")
		return nil
	}
	if e.ResourceType == "" {
		// Playwright writes no _resourceType: what the browser fetched the
		// request for (Sec-Fetch-Dest), or what came back, tells.
		if dest := reqH.Get("Sec-Fetch-Dest"); dest != "" && dest != "empty" {
			l.skip(n, method, e.Request.URL, "not fetch or XHR (Sec-Fetch-Dest: "+clipString(dest, 40)+")")
			return nil
		}
		if what := assetType(e.Response.Content.MimeType); what != "" && method == http.MethodGet && reqH.Get("Sec-Fetch-Dest") == "" {
			l.skip(n, method, e.Request.URL, what)
			return nil
		}
	}
	if e.Response.Status <= 0 {
		why := "no answer"
		if e.Response.Error != nil && *e.Response.Error != "" {
			why += " (" + clipString(*e.Response.Error, 100) + ")"
		}
		l.skip(n, method, e.Request.URL, why)
		return nil
	}
	if e.Response.Status > 999 {
		return fmt.Errorf("entry %d: response.status: %d is no HTTP status", n, e.Response.Status)
	}
	c := Call{Index: n, Method: method, Path: path, Query: u.RawQuery, Header: reqH, Status: e.Response.Status, Origin: u.Scheme + "://" + u.Host}
	if pd := e.Request.PostData; pd != nil {
		c.BodyType = pd.MimeType
		if t := reqH.Get("Content-Type"); t != "" {
			c.BodyType = t
		}
		switch {
		case pd.Text != nil && len(*pd.Text) > l.lim.MaxBody:
			c.Notes = append(c.Notes, l.over("request body", len(*pd.Text)))
		case pd.Text != nil:
			c.Body = []byte(*pd.Text)
		case len(pd.Params) > 0:
			body, typ, err := paramsBody(c.BodyType, pd.Params)
			if err != nil {
				return fmt.Errorf("entry %d: request.postData.params: %w", n, err)
			}
			if len(body) > l.lim.MaxBody {
				c.Notes = append(c.Notes, l.over("request body", len(body)))
			} else {
				c.Body, c.BodyType = body, typ
			}
		default:
			c.Notes = append(c.Notes, "request body not kept in the HAR")
		}
	}
	ct := e.Response.Content
	c.ResponseType = respH.Get("Content-Type")
	if c.ResponseType == "" {
		c.ResponseType = ct.MimeType
	}
	switch {
	case ct.Text != nil:
		body, err := harText(*ct.Text, ct.Encoding, l.lim.MaxBody)
		switch {
		case errors.Is(err, errOver):
			c.Notes = append(c.Notes, l.over("response body", len(*ct.Text)))
		case err != nil:
			return fmt.Errorf("entry %d: response.content.text: %w", n, err)
		default:
			c.Response, c.ResponseKept = body, true
		}
	case ct.Size == 0 || e.Response.Status == http.StatusNoContent || e.Response.Status == http.StatusNotModified || method == http.MethodHead:
		c.Response, c.ResponseKept = []byte{}, true
	default:
		c.Notes = append(c.Notes, "response body not kept in the HAR")
	}
	return l.add(c)
}

var errOver = errors.New("over the limit")

// harText is a content's text decoded, errOver when over max bytes.
func harText(text, encoding string, max int) ([]byte, error) {
	switch strings.ToLower(encoding) {
	case "":
		if len(text) > max {
			return nil, errOver
		}
		return []byte(text), nil
	case "base64":
		if base64.StdEncoding.DecodedLen(len(text)) > max+3 {
			return nil, errOver
		}
		b, err := base64.StdEncoding.DecodeString(text)
		if err != nil {
			return nil, fmt.Errorf("encoding base64: %w", err)
		}
		if len(b) > max {
			return nil, errOver
		}
		return b, nil
	}
	return nil, fmt.Errorf("encoding %q: neither base64 nor none", clipString(encoding, 40))
}

// harHeaders reads a HAR header list. HTTP/2's pseudo-headers (":path")
// are left out, names canonical (HTTP/2 writes them in lower case).
func harHeaders(hs []harHeader) (http.Header, error) {
	if len(hs) > maxHeaders {
		return nil, fmt.Errorf("%d headers, over %d", len(hs), maxHeaders)
	}
	h := make(http.Header, len(hs))
	for _, x := range hs {
		if x.Name == "" || strings.HasPrefix(x.Name, ":") {
			continue
		}
		k := http.CanonicalHeaderKey(x.Name)
		h[k] = append(h[k], x.Value)
	}
	return h, nil
}

// assetType says what a response of mime type is when a page, not an API,
// loads it; "" when it may be an API's.
func assetType(mimeType string) string {
	t, _, _ := strings.Cut(strings.ToLower(mimeType), ";")
	t = strings.TrimSpace(t)
	switch {
	case t == "text/html":
		return "a page (text/html)"
	case t == "text/css":
		return "a stylesheet (text/css)"
	case strings.Contains(t, "javascript") || t == "text/ecmascript":
		return "a script (" + t + ")"
	case strings.HasPrefix(t, "image/"), strings.HasPrefix(t, "font/"), strings.HasPrefix(t, "audio/"), strings.HasPrefix(t, "video/"):
		return "an asset (" + t + ")"
	}
	return ""
}

// paramsBody builds the body a HAR's postData.params stand for, when it
// keeps no text: a form, URL-encoded or multipart (a new boundary).
func paramsBody(mimeType string, params []struct {
	Name        string `json:"name"`
	Value       string `json:"value"`
	FileName    string `json:"fileName"`
	ContentType string `json:"contentType"`
}) ([]byte, string, error) {
	mt, _, _ := mime.ParseMediaType(mimeType)
	if mt == "multipart/form-data" {
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		for _, p := range params {
			var err error
			if p.FileName != "" {
				var fw interface{ Write([]byte) (int, error) }
				fw, err = w.CreateFormFile(p.Name, p.FileName)
				if err == nil {
					_, err = fw.Write([]byte(p.Value))
				}
			} else {
				err = w.WriteField(p.Name, p.Value)
			}
			if err != nil {
				return nil, "", err
			}
		}
		if err := w.Close(); err != nil {
			return nil, "", err
		}
		return buf.Bytes(), w.FormDataContentType(), nil
	}
	var b strings.Builder
	for i, p := range params {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(p.Name) + "=" + url.QueryEscape(p.Value))
	}
	if mimeType == "" {
		mimeType = "application/x-www-form-urlencoded"
	}
	return []byte(b.String()), mimeType, nil
}

// clipString is s cut to n bytes at most.
func clipString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
