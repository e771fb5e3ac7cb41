// Package traffic reads the calls a frontend really made, as a browser or
// moviemock recorded them: a HAR 1.2 file (Chromium's "Save all as HAR",
// Playwright's recordHar) or a saved journal (the JSON of GET
// /__mock/journal of moviemock serve or proxy), and matches them to the
// operations of a compiled contract. moviemock diff --traffic marks the
// changes those calls hit; moviemock replay sends them again.
//
// A recording is outside input: a file of any size, any shape, written by
// anyone. Load reads it within Limits and says what it refused by the
// file, the entry and the field ("app.har: entry 12: request.url: …");
// what is not an API call (a CORS preflight, a page, a script, an image,
// the mock's own control API and docs) is Skipped with the reason, not an
// error. It does not send, compare or judge anything.
package traffic

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/moviemock/moviemock/internal/jsonscan"
)

// Call is one recorded request and the answer it got.
type Call struct {
	Index        int    // 1-based position of its entry in the source
	Method, Path string // Path decoded, as the server routes it
	// Origin is the server the call went to, scheme://host[:port] (a
	// HAR's); "" when the source does not say (a journal: all to one).
	Origin       string
	Query        string // raw, without '?'
	Header       http.Header
	Body         []byte // nil: none sent, or not kept (see Notes)
	BodyType     string // the request's Content-Type
	Status       int    // the recorded answer's status
	ResponseType string // the answer's Content-Type
	Response     []byte // the answer's body, when ResponseKept
	// ResponseKept says Response is the recorded answer's body (possibly
	// empty); false when the source does not hold it (a journal without
	// answers, a HAR saved without content) or it was over the limit.
	ResponseKept bool
	// Notes say what of the call the source did not keep, or Load left
	// out: "request body not kept: not JSON", "response body of 3 MiB
	// over the 1 MiB limit".
	Notes []string
}

// String is the call as method and path, with its query.
func (c *Call) String() string {
	if c.Query != "" {
		return c.Method + " " + c.Path + "?" + c.Query
	}
	return c.Method + " " + c.Path
}

// Skip is an entry of the source that is not taken as a call, and why.
type Skip struct {
	Index  int    // 1-based position of the entry in the source
	Method string // "" when the entry does not say
	URL    string // the path (journal) or URL (HAR), cut to 200 bytes
	Reason string
	origin string // the server, for a call to another than the API's
}

// Source is what a recording holds: its calls in order, and the entries
// not taken.
type Source struct {
	Kind    string // "har" or "journal"
	Name    string // the file, as given
	Creator string // HAR: log.creator name and version ("WebInspector 537.36")
	Calls   []Call
	Skipped []Skip
}

// Limits bound what Load reads from a recording.
type Limits struct {
	MaxBytes int64 // the file
	MaxCalls int   // the calls taken (entries skipped are bounded by MaxBytes)
	MaxBody  int   // one request or response body, decoded; a larger one is left out, noted
}

// DefaultLimits are the limits of moviemock diff and replay: room for a
// long session of a single-page app with its pages, scripts and images.
var DefaultLimits = Limits{MaxBytes: 256 << 20, MaxCalls: 100_000, MaxBody: 4 << 20}

// maxHeaders bounds the headers of one request or response; maxName the
// length of one entry's method.
const (
	maxHeaders = 512
	maxMethod  = 64
)

// LoadFile reads the recording at path.
func LoadFile(path string, lim Limits) (*Source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read traffic: %w", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && lim.MaxBytes > 0 && st.Size() > lim.MaxBytes {
		return nil, fmt.Errorf("%s: %d bytes, over the limit of %d", path, st.Size(), lim.MaxBytes)
	}
	return Load(f, path, lim)
}

// Load reads a recording from r, name naming it in errors. It tells a HAR
// (an object with "log") from a journal (an array) by its content.
func Load(r io.Reader, name string, lim Limits) (*Source, error) {
	lim = lim.orDefault()
	data, err := io.ReadAll(io.LimitReader(r, lim.MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(data)) > lim.MaxBytes {
		return nil, fmt.Errorf("%s: over the limit of %d bytes", name, lim.MaxBytes)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a BOM, as some tools save
	start := jsonscan.Space(data, 0)
	end, kind := jsonscan.Value(data, start)
	if kind == jsonscan.Invalid || jsonscan.Space(data, end) != len(data) {
		return nil, fmt.Errorf("%s: %s", name, whyNotJSON(data))
	}
	l := &loader{src: &Source{Name: name}, lim: lim, data: data}
	switch kind {
	case jsonscan.Array:
		l.src.Kind = "journal"
		err = l.journal(start)
	case jsonscan.Object:
		l.src.Kind = "har"
		err = l.har(start)
	default:
		err = errors.New("neither a HAR (an object with \"log\") nor a journal (an array of entries)")
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return l.src, nil
}

func (lim Limits) orDefault() Limits {
	if lim.MaxBytes <= 0 {
		lim.MaxBytes = DefaultLimits.MaxBytes
	}
	if lim.MaxCalls <= 0 {
		lim.MaxCalls = DefaultLimits.MaxCalls
	}
	if lim.MaxBody <= 0 {
		lim.MaxBody = DefaultLimits.MaxBody
	}
	return lim
}

// whyNotJSON says where data stops being JSON, as encoding/json sees it;
// data nests too deep when encoding/json accepts it.
func whyNotJSON(data []byte) string {
	var raw json.RawMessage
	err := json.Unmarshal(data, &raw)
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("not JSON: %v (at byte %d)", se, se.Offset)
	case err != nil:
		return "not JSON: " + err.Error()
	}
	return fmt.Sprintf("not JSON we read: nested deeper than %d, or a number out of range, or a string not UTF-8", jsonscan.MaxDepth)
}

// loader reads one recording.
type loader struct {
	src  *Source
	lim  Limits
	data []byte
}

// each calls fn with the start and end of each element of the array at
// i, which jsonscan.Value accepted, and its 1-based index.
func (l *loader) each(i int, fn func(n, start, end int) error) error {
	n := 0
	var err error
	jsonscan.Elements(l.data, i, func(v int) int {
		end := jsonscan.End(l.data, v)
		if err == nil {
			n++
			err = fn(n, v, end)
		}
		return end
	})
	return err
}

// member finds the value of the member called name in the object at i,
// -1 when there is none.
func (l *loader) member(i int, name string) int {
	found := -1
	jsonscan.Members(l.data, i, func(raw []byte, escaped bool, v int) int {
		if found < 0 {
			if s, ok := jsonscan.Str(raw, escaped); ok && s == name {
				found = v
			}
		}
		return jsonscan.End(l.data, v)
	})
	return found
}

// decode reads the entry numbered n into v, saying which field is wrong.
func decode(raw []byte, v any) error {
	err := json.Unmarshal(raw, v)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field != "" {
			return fmt.Errorf("%s: want %s, got a JSON %s", te.Field, te.Type, te.Value)
		}
		return fmt.Errorf("want %s, got a JSON %s", te.Type, te.Value)
	}
	return err
}

// add takes c as a call, within MaxCalls.
func (l *loader) add(c Call) error {
	if len(l.src.Calls) >= l.lim.MaxCalls {
		return fmt.Errorf("entry %d: more than %d calls", c.Index, l.lim.MaxCalls)
	}
	l.src.Calls = append(l.src.Calls, c)
	return nil
}

func (l *loader) skip(n int, method, where, reason string) {
	if len(where) > 200 {
		where = where[:200]
	}
	l.src.Skipped = append(l.src.Skipped, Skip{Index: n, Method: method, URL: where, Reason: reason})
}

// checkMethod refuses what is not an HTTP method token.
func checkMethod(m string) error {
	if m == "" {
		return errors.New("empty")
	}
	if len(m) > maxMethod {
		return fmt.Errorf("%d bytes, over %d", len(m), maxMethod)
	}
	for i := 0; i < len(m); i++ {
		c := m[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("()<>@,;:\\\"/[]?={}", c) >= 0 {
			return fmt.Errorf("%q is not a method", m)
		}
	}
	return nil
}

// notAPI says why a request for path is not an API call of the backend:
// the mock's own control API and documentation pages. "" when it may be
// one.
func notAPI(method, path string, h http.Header) string {
	switch {
	case method == http.MethodOptions && h.Get("Access-Control-Request-Method") != "":
		return "CORS preflight"
	case path == "/__mock" || strings.HasPrefix(path, "/__mock/"):
		return "the mock's control API"
	case path == "/docs" || path == "/redoc" || path == "/docs/oauth2-redirect" || path == "/openapi.json":
		return "the documentation pages"
	}
	return ""
}

// bodyNote is the note for a body of n bytes over the limit.
func (l *loader) over(what string, n int) string {
	return fmt.Sprintf("%s of %d bytes over the limit of %d, left out", what, n, l.lim.MaxBody)
}
