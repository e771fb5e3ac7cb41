package traffic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// journalEntry is what Load reads of an entry of GET /__mock/journal
// (scenarios.Entry): the request as the journal keeps it, secrets blanked,
// and, from journals that keep it, a bounded part of the answer.
type journalEntry struct {
	Method    string              `json:"method"`
	Path      string              `json:"path"`
	Query     string              `json:"query"`
	Headers   map[string][]string `json:"headers"`
	Form      map[string]string   `json:"form"`
	Body      json.RawMessage     `json:"body"`
	BodyBytes int                 `json:"body_bytes"`
	BodyNote  string              `json:"body_note"`
	Truncated []string            `json:"truncated"`
	Fault     string              `json:"fault"`
	Status    int                 `json:"status"`
	Response  *struct {
		Type  string          `json:"type"`
		Body  json.RawMessage `json:"body"`
		Bytes int64           `json:"bytes"`
		Note  string          `json:"note"`
	} `json:"response"`
}

// journal reads the journal array at i.
func (l *loader) journal(i int) error {
	return l.each(i, func(n, start, end int) error {
		if l.data[start] != '{' {
			return fmt.Errorf("entry %d: not an object: not a journal entry", n)
		}
		var e journalEntry
		if err := decode(l.data[start:end], &e); err != nil {
			return fmt.Errorf("entry %d: %w", n, err)
		}
		return l.journalEntry(n, &e)
	})
}

func (l *loader) journalEntry(n int, e *journalEntry) error {
	if err := checkMethod(e.Method); err != nil {
		return fmt.Errorf("entry %d: method: %w", n, err)
	}
	if !strings.HasPrefix(e.Path, "/") {
		return fmt.Errorf("entry %d: path: %q does not start with /", n, clipString(e.Path, 100))
	}
	if len(e.Headers) > maxHeaders {
		return fmt.Errorf("entry %d: headers: %d, over %d", n, len(e.Headers), maxHeaders)
	}
	h := make(http.Header, len(e.Headers))
	for k, vs := range e.Headers {
		if len(vs) > maxHeaders {
			return fmt.Errorf("entry %d: headers.%s: %d values, over %d", n, clipString(k, 100), len(vs), maxHeaders)
		}
		ck := http.CanonicalHeaderKey(k)
		h[ck] = append(h[ck], vs...)
	}
	if why := notAPI(e.Method, e.Path, h); why != "" {
		l.skip(n, e.Method, e.Path, why)
		return nil
	}
	if e.Status <= 0 {
		why := "no answer"
		if e.Fault != "" {
			why += " (fault " + clipString(e.Fault, 100) + ")"
		}
		l.skip(n, e.Method, e.Path, why)
		return nil
	}
	if e.Status > 999 {
		return fmt.Errorf("entry %d: status: %d is no HTTP status", n, e.Status)
	}
	c := Call{Index: n, Method: e.Method, Path: e.Path, Query: e.Query, Header: h, Status: e.Status, BodyType: h.Get("Content-Type")}
	for _, t := range e.Truncated {
		c.Notes = append(c.Notes, "cut in the journal: "+clipString(t, 100))
	}
	switch {
	case len(e.Body) > 0 && len(e.Body) > l.lim.MaxBody:
		c.Notes = append(c.Notes, l.over("request body", len(e.Body)))
	case len(e.Body) > 0:
		c.Body = slices.Clone(e.Body)
		if c.BodyType == "" {
			c.BodyType = "application/json"
		}
	case len(e.Form) > 0:
		body, typ, err := formBody(c.BodyType, e.Form)
		if err != nil {
			return fmt.Errorf("entry %d: form: %w", n, err)
		}
		if len(body) > l.lim.MaxBody {
			c.Notes = append(c.Notes, l.over("request body", len(body)))
		} else {
			c.Body, c.BodyType = body, typ
		}
	case e.BodyBytes > 0:
		note := "request body of " + fmt.Sprint(e.BodyBytes) + " bytes not kept in the journal"
		if e.BodyNote != "" {
			note += ": " + clipString(e.BodyNote, 100)
		}
		c.Notes = append(c.Notes, note)
	}
	if r := e.Response; r != nil {
		c.ResponseType = r.Type
		switch {
		case len(r.Body) > l.lim.MaxBody:
			c.Notes = append(c.Notes, l.over("response body", len(r.Body)))
		case len(r.Body) > 0:
			c.Response, c.ResponseKept = slices.Clone([]byte(r.Body)), true
		case r.Bytes == 0 && r.Note == "":
			c.Response, c.ResponseKept = []byte{}, true
		default:
			note := "response body of " + fmt.Sprint(r.Bytes) + " bytes not kept in the journal"
			if r.Note != "" {
				note += ": " + clipString(r.Note, 100)
			}
			c.Notes = append(c.Notes, note)
		}
	} else {
		c.Notes = append(c.Notes, "response body not kept in the journal")
	}
	return l.add(c)
}

// formBody is the body of a form the journal keeps as fields: URL-encoded,
// or multipart when the request said so (with a boundary of its own). The
// fields come in name order: the journal keeps no other.
func formBody(contentType string, form map[string]string) ([]byte, string, error) {
	names := make([]string, 0, len(form))
	for k := range form {
		names = append(names, k)
	}
	slices.Sort(names)
	if mt, _, _ := mime.ParseMediaType(contentType); mt == "multipart/form-data" {
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		for _, k := range names {
			if err := w.WriteField(k, form[k]); err != nil {
				return nil, "", err
			}
		}
		if err := w.Close(); err != nil {
			return nil, "", err
		}
		return buf.Bytes(), w.FormDataContentType(), nil
	}
	v := url.Values{}
	for _, k := range names {
		v.Set(k, form[k])
	}
	if contentType == "" {
		contentType = "application/x-www-form-urlencoded"
	}
	return []byte(v.Encode()), contentType, nil
}
