package fastapi

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"mime"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Responses that are not a JSON model: the media types a FastAPI
// operation declares for them (response_class=HTMLResponse,
// PlainTextResponse, EventSourceResponse, a generator streaming JSON
// Lines, responses={200: {"content": {"image/png": {}}}}), the
// Content-Type Starlette writes for each, and the wire format of the two
// streams FastAPI frames itself.

// ResponseContentType is the Content-Type header Starlette writes for a
// response of media type mt: a text/ type without a charset gets
// "; charset=utf-8" (Response.init_headers, Starlette 1.3.1), any other
// is written as given: "text/html; charset=utf-8", "image/png",
// "application/jsonl".
func ResponseContentType(mt string) string {
	if strings.HasPrefix(mt, "text/") && !strings.Contains(strings.ToLower(mt), "charset=") {
		return mt + "; charset=utf-8"
	}
	return mt
}

// IsJSONMedia reports whether the media type mt (no parameters) is JSON:
// application/json or a +json type. JSON Lines (application/jsonl) is
// not: it is a stream of JSON values, see StreamOf.
func IsJSONMedia(mt string) bool {
	mt = strings.ToLower(mt)
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// Stream is how a streamed response carries its items.
type Stream uint8

// The streams FastAPI frames itself; each item fits the media type's
// itemSchema.
const (
	NotStream  Stream = iota
	EventItems        // text/event-stream: Server-Sent Events, an item per event
	LineItems         // application/jsonl, application/x-ndjson: a JSON value per line
)

// StreamOf is the stream the media type mt (no parameters) names.
func StreamOf(mt string) Stream {
	switch strings.ToLower(mt) {
	case "text/event-stream":
		return EventItems
	case "application/jsonl", "application/x-ndjson", "application/x-jsonlines", "application/ndjson":
		return LineItems
	}
	return NotStream
}

// MediaMatches reports whether the media type got (no parameters) falls
// under the declared media type or range want ("image/*", "*/*"), case
// insensitively. The parameters want declares are not compared: a
// declared `application/vnd.api+json; ext="…"` (JSON:API's extensions)
// is the type application/vnd.api+json.
func MediaMatches(want, got string) bool {
	want, _, _ = strings.Cut(want, ";")
	want, got = strings.ToLower(strings.TrimSpace(want)), strings.ToLower(got)
	if want == got || want == "*/*" {
		return got != ""
	}
	if typ, ok := strings.CutSuffix(want, "/*"); ok {
		return strings.HasPrefix(got, typ+"/")
	}
	return false
}

// Event is one Server-Sent Event as FastAPI writes it (fastapi.sse's
// format_sse_event, FastAPI 0.141): its lines in the order comment,
// event, data, id, retry. Data is written only when HasData.
type Event struct {
	Comment, Event string
	Data           string
	HasData        bool
	ID             string
	HasID          bool
	Retry          int64
	HasRetry       bool
}

// AppendEvent writes ev in the event stream format, ending in the blank
// line that dispatches it. A multi-line value gets a line per line.
func AppendEvent(dst []byte, ev Event) []byte {
	field := func(dst []byte, name, value string) []byte {
		for _, line := range sseLines(value) {
			dst = append(dst, name...)
			dst = append(dst, ": "...)
			dst = append(dst, line...)
			dst = append(dst, '\n')
		}
		return dst
	}
	if ev.Comment != "" {
		dst = field(dst, "", ev.Comment)
	}
	if ev.Event != "" {
		dst = field(dst, "event", ev.Event)
	}
	if ev.HasData {
		dst = field(dst, "data", ev.Data)
	}
	if ev.HasID {
		dst = field(dst, "id", ev.ID)
	}
	if ev.HasRetry {
		dst = append(dst, "retry: "...)
		dst = strconv.AppendInt(dst, ev.Retry, 10)
		dst = append(dst, '\n')
	}
	return append(dst, '\n')
}

func sseLines(s string) []string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	return strings.Split(s, "\n")
}

// ErrTooManyItems is returned when a stream holds more items than the
// caller's budget.
var ErrTooManyItems = errors.New("too many items")

// ParseEvents reads an event stream (the WHATWG rules for parsing one) into
// the items OpenAPI 3.2 maps events to: an object with the string fields
// data (the data lines joined by "\n"), event and id, and the integer
// retry, each present when the event had it. Comments and blocks without
// a data line (FastAPI's ": ping" keep-alive) dispatch no event and give
// no item. A last block without its blank line is cut off and ignored.
// At most max items are read.
func ParseEvents(body []byte, max int) ([]map[string]any, error) {
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
	var items []map[string]any
	cur := map[string]any{}
	var data []string
	hasData := false
	for len(body) > 0 {
		i := bytes.IndexAny(body, "\r\n")
		if i < 0 {
			break // an unterminated last line: the stream was cut
		}
		line := string(body[:i])
		if body[i] == '\r' && i+1 < len(body) && body[i+1] == '\n' {
			i++
		}
		body = body[i+1:]
		if line == "" {
			if hasData {
				cur["data"] = strings.Join(data, "\n")
				if len(items) == max {
					return items, ErrTooManyItems
				}
				items = append(items, cur)
			}
			cur, data, hasData = map[string]any{}, nil, false
			continue
		}
		if line[0] == ':' {
			continue
		}
		name, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch name {
		case "data":
			data, hasData = append(data, value), true
		case "event":
			cur["event"] = value
		case "id":
			if !strings.ContainsRune(value, 0) {
				cur["id"] = value
			}
		case "retry":
			if n, err := strconv.ParseInt(value, 10, 64); err == nil && n >= 0 && strings.Trim(value, "0123456789") == "" {
				cur["retry"] = n
			}
		}
	}
	return items, nil
}

// ParseLines splits a JSON Lines body into its lines, leaving out empty
// ones; a last line without its newline counts. At most max lines are
// read.
func ParseLines(body []byte, max int) ([][]byte, error) {
	var lines [][]byte
	for len(body) > 0 {
		line := body
		if i := bytes.IndexByte(body, '\n'); i >= 0 {
			line, body = body[:i], body[i+1:]
		} else {
			body = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if len(lines) == max {
			return lines, ErrTooManyItems
		}
		lines = append(lines, line)
	}
	return lines, nil
}

// Small valid files of the binary media types a mock answers with when
// the contract gives no example: each decodes with Go's image packages.
var (
	samplePNG  = mustBase64("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAAC0lEQVR42mNgAAIAAAUAAen63NgAAAAASUVORK5CYII=")
	sampleGIF  = mustBase64("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7")
	sampleJPEG = mustBase64("/9j/2wCEAP////////////////////////////////////////////////////////////////////////////////////8B///////////////////////////////////////////////////////////////////////////////////////AAAsIAAEAAQEBEQD/xADSAAABBQEBAQEBAQAAAAAAAAAAAQIDBAUGBwgJCgsQAAIBAwMCBAMFBQQEAAABfQECAwAEEQUSITFBBhNRYQcicRQygZGhCCNCscEVUtHwJDNicoIJChYXGBkaJSYnKCkqNDU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6g4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2drh4uPk5ebn6Onq8fLz9PX29/j5+v/aAAgBAQAAPwCOv//Z")
	samplePDF  = []byte("%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n")
)

func mustBase64(s string) []byte {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// SampleBody is a small body of media type mt for a response the
// contract gives no example for, and the concrete media type it is
// (a range such as image/* gets one of its types). text is a string
// fitting the declared schema, used where the type is text.
func SampleBody(mt, text string) (body []byte, concrete string) {
	mt = strings.ToLower(mt)
	switch mt {
	case "*/*", "application/octet-stream":
		return []byte(text), "application/octet-stream"
	case "image/*", "image/png":
		return samplePNG, "image/png"
	case "image/gif":
		return sampleGIF, mt
	case "image/jpeg", "image/jpg":
		return sampleJPEG, mt
	case "application/pdf":
		return samplePDF, mt
	case "text/*", "text/plain":
		return []byte(text), "text/plain"
	case "text/html", "application/xhtml+xml":
		return []byte("<html><body><p>" + htmlEscape(text) + "</p></body></html>"), mt
	case "application/xml", "text/xml":
		return []byte(`<?xml version="1.0"?><root>` + htmlEscape(text) + "</root>"), mt
	case "image/svg+xml":
		return []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>`), mt
	case "text/csv":
		return []byte("value\r\n" + strings.ReplaceAll(text, `"`, `""`) + "\r\n"), mt
	}
	if strings.HasSuffix(mt, "/*") {
		return []byte(text), strings.TrimSuffix(mt, "*") + "octet-stream"
	}
	return []byte(text), mt
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// magic numbers of the binary media types BodyFits knows.
var magic = map[string][]string{
	"image/png":       {"\x89PNG\r\n\x1a\n"},
	"image/gif":       {"GIF87a", "GIF89a"},
	"image/jpeg":      {"\xff\xd8\xff"},
	"application/pdf": {"%PDF-"},
	"image/webp":      {"RIFF"},
}

// BodyFits checks a body that is not JSON against its media type: the
// signature of the image and document types it knows, and UTF-8 for a
// text type declared with that charset (Starlette's). contentType is the
// header as sent.
func BodyFits(contentType string, body []byte) error {
	mt, params, _ := mime.ParseMediaType(contentType)
	if sigs, ok := magic[mt]; ok && len(body) > 0 {
		for _, sig := range sigs {
			if bytes.HasPrefix(body, []byte(sig)) {
				return nil
			}
		}
		return fmt.Errorf("body is not %s: it starts with %q", mt, body[:min(len(body), 8)])
	}
	if strings.HasPrefix(mt, "text/") && strings.EqualFold(params["charset"], "utf-8") && !utf8.Valid(body) {
		return fmt.Errorf("body is not valid UTF-8, as its charset says")
	}
	return nil
}
