package scenarios

import (
	"embed"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/moviemock/moviemock/internal/spec"
)

// The control panel: a page for a browser at /__mock/, made of the files
// under panel/ (plain HTML, CSS and JavaScript: no build step, nothing
// fetched from elsewhere, so it works offline), and what it reads beyond
// the rest of the control API: the overview, the data, the journal's
// stream.

//go:embed panel
var panelFiles embed.FS

// The panel's files, by the path they are served at. The page at
// /__mock/ itself is served only to a client that prefers HTML (see
// prefersHTML); everyone else gets the JSON index.
var panelPaths = map[string]string{
	"/__mock/index.html":      "panel/index.html",
	"/__mock/panel/panel.js":  "panel/panel.js",
	"/__mock/panel/panel.css": "panel/panel.css",
}

// panelFile is the embedded file a GET or HEAD of r asks for, or "".
func panelFile(r *http.Request) string {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return ""
	}
	if r.URL.Path == AdminPrefix {
		if prefersHTML(r.Header.Values("Accept")) {
			return "panel/index.html"
		}
		return ""
	}
	return panelPaths[r.URL.Path]
}

// servePanel serves one of the panel's files. They hold no data (the page
// fetches everything through guard), so they are served to whoever asks:
// with --admin-token a browser, which cannot send the token with a page
// load, gets the page and the page asks for the token.
func servePanel(w http.ResponseWriter, r *http.Request, name string) {
	body, err := panelFiles.ReadFile(name)
	if err != nil { // embedded and tested: a broken build
		writeJSON(w, http.StatusInternalServerError, apiError{err.Error()})
		return
	}
	ct := "application/octet-stream"
	switch path.Ext(name) { // not mime.TypeByExtension: the system's table varies
	case ".html":
		ct = "text/html; charset=utf-8"
	case ".js":
		ct = "text/javascript; charset=utf-8"
	case ".css":
		ct = "text/css; charset=utf-8"
	}
	h := w.Header()
	h.Set("Cache-Control", "no-cache")
	h.Set("Vary", "Accept")
	h.Set("X-Content-Type-Options", "nosniff")
	// The page's buttons change what the mock answers: no page of another
	// site may frame it and have them clicked (clickjacking), and the page
	// runs and fetches nothing but its own.
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	h.Set("Referrer-Policy", "no-referrer")
	if r.Method == http.MethodHead {
		h.Set("Content-Type", ct)
		h.Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(http.StatusOK)
		return
	}
	writeRaw(w, ct, body)
}

// prefersHTML reports whether an Accept header ranks text/html above
// JSON: a browser's page load does ("text/html,…,*/*;q=0.8"), curl's
// "*/*" and a fetch's "application/json" do not. Only a media range that
// names HTML (text/html or text/*) counts for it; a tie goes to JSON.
func prefersHTML(accept []string) bool {
	html, htmlNamed, jsonQ := 0.0, false, 0.0
	htmlSpec, jsonSpec := -1, -1 // how specific the range that set each q is
	for _, header := range accept {
		for _, part := range strings.Split(header, ",") {
			fields := strings.Split(part, ";")
			typ := strings.ToLower(strings.TrimSpace(fields[0]))
			q := 1.0
			for _, p := range fields[1:] {
				k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
				if strings.EqualFold(strings.TrimSpace(k), "q") {
					f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
					if err != nil || f < 0 || f > 1 {
						f = 0
					}
					q = f
				}
			}
			match := func(want string) int { // specificity of typ for want, -1: none
				switch {
				case typ == want:
					return 2
				case typ == want[:strings.IndexByte(want, '/')]+"/*":
					return 1
				case typ == "*/*":
					return 0
				}
				return -1
			}
			if s := match("text/html"); s > htmlSpec {
				html, htmlSpec, htmlNamed = q, s, s > 0
			}
			if s := match("application/json"); s > jsonSpec {
				jsonQ, jsonSpec = q, s
			}
		}
	}
	return htmlNamed && html > 0 && html > jsonQ
}

// An Endpoint is one operation of the control API, as the JSON index at
// /__mock/ and docs/reference.md list it.
type Endpoint struct {
	Method  string `json:"method"`
	Path    string `json:"path"`
	Summary string `json:"summary"`
}

// Endpoints lists the control API's operations, in its document's order.
func Endpoints(sp *spec.Spec) []Endpoint {
	out := []Endpoint{}
	for _, p := range sp.Paths() {
		item := sp.Doc.Paths.Value(p)
		for _, m := range []string{"GET", "PUT", "POST", "DELETE"} {
			if op := item.GetOperation(m); op != nil {
				out = append(out, Endpoint{m, p, op.Summary})
			}
		}
	}
	return out
}

// PanelPaths are the control panel's files, served to everyone: the page
// itself is also GET /__mock/ for a browser.
func PanelPaths() []string { return slices.Sorted(maps.Keys(panelPaths)) }

// index answers GET /__mock/ for a client that is not a browser: where
// the page is, and the control API's operations, from its document.
func (a *admin) index(w http.ResponseWriter, r *http.Request) {
	sp := a.spec(w)
	if sp == nil {
		return
	}
	out := Endpoints(sp)
	writeJSON(w, http.StatusOK, struct {
		Panel     string     `json:"panel"`
		Document  string     `json:"document"`
		Endpoints []Endpoint `json:"endpoints"`
	}{"open " + AdminPrefix + " in a browser (Accept: text/html)", AdminPrefix + "openapi.json", out})
}

// Served is what the mock serves, for the control panel's overview: the
// engine knows the scenarios, the mock the contract and the data.
type Served struct {
	Title       string           `json:"title"`
	Version     string           `json:"version"`
	Operations  []OperationInfo  `json:"operations"`
	Collections []CollectionInfo `json:"collections"`
}

// OperationInfo is one operation of the contract and the convention that
// answers it.
type OperationInfo struct {
	Method     string `json:"method"`
	Path       string `json:"path"`
	ID         string `json:"operation_id,omitempty"`
	Convention string `json:"convention"`
	Collection string `json:"collection,omitempty"`
	Status     int    `json:"status"`
	Secured    bool   `json:"secured"`
	Why        string `json:"why,omitempty"` // why an example answers it
}

// CollectionInfo is one collection of the data and how many records the
// global state serves.
type CollectionInfo struct {
	Name    string `json:"name"` // the schema's
	File    string `json:"file"` // the fixture file's, the name /__mock/data/ takes
	ID      string `json:"id"`   // the id field
	Records int    `json:"records"`
}

// Records is one page of a collection's records as they are served.
type Records struct {
	Collection string            `json:"collection"`
	Session    string            `json:"session,omitempty"`
	Total      int               `json:"total"`
	Offset     int               `json:"offset"`
	Limit      int               `json:"limit"`
	Items      []json.RawMessage `json:"items"`
}

// ErrNoCollection is what Options.Records wraps for a collection the data
// lacks.
var ErrNoCollection = errors.New("no such collection")

// Paging of GET /__mock/data/{collection}.
const (
	defaultDataLimit = 50
	maxDataLimit     = 1000
)

func (a *admin) overview(w http.ResponseWriter, r *http.Request) {
	e := a.e
	served := Served{Operations: []OperationInfo{}, Collections: []CollectionInfo{}}
	if e.opts.Served != nil {
		served = e.opts.Served()
	}
	e.mu.Lock()
	e.expire(e.opts.Now())
	n := len(e.sessions)
	e.mu.Unlock()
	writeJSON(w, http.StatusOK, struct {
		Served
		Active    activeView `json:"active"`
		Scenarios int        `json:"scenarios"`
		Sessions  int        `json:"sessions"`
		Journal   int        `json:"journal"`
	}{served, a.activeView(), len(e.Set().list), n, e.journal.len()})
}

func (a *admin) data(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	offset, limit := 0, defaultDataLimit
	for _, p := range []struct {
		name string
		to   *int
		max  int
	}{{"offset", &offset, 1 << 30}, {"limit", &limit, maxDataLimit}} {
		if s := q.Get(p.name); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil || n < 0 || n > p.max {
				writeJSON(w, http.StatusBadRequest, apiError{p.name + " " + strconv.Quote(s) + " is not a whole number from 0 to " + strconv.Itoa(p.max)})
				return
			}
			*p.to = n
		}
	}
	coll := mux.Vars(r)["collection"]
	if a.e.opts.Records == nil {
		writeJSON(w, http.StatusNotFound, apiError{"this mock has no data to browse"})
		return
	}
	recs, err := a.e.opts.Records(coll, q.Get("session"), offset, limit)
	if errors.Is(err, ErrNoCollection) {
		writeJSON(w, http.StatusNotFound, apiError{err.Error()})
		return
	}
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, apiError{err.Error()})
		return
	}
	if recs.Items == nil {
		recs.Items = []json.RawMessage{}
	}
	writeJSON(w, http.StatusOK, recs)
}

// keepAlive is how often an idle journal stream sends a comment: proxies
// and browsers drop a connection silent for long, and a client that went
// away is noticed at the next write.
const keepAlive = 15 * time.Second

// journalStream sends each journal entry added from now on (after
// Last-Event-ID, when a browser reconnects) as a Server-Sent Event, until
// the client goes or the server shuts down (the request's context ends
// with the server's). An entry it sent that is amended later (see
// AddViolations) is sent again, whole, as an "amended" event without an
// id: the id is the Seq to resume after.
func (a *admin) journalStream(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := Filter{Method: q.Get("method"), Path: q.Get("path"), Session: q.Get("session"), Scenario: q.Get("scenario")}
	j := &a.e.journal
	seq, seen := j.marks()
	if id := r.Header.Get("Last-Event-ID"); id != "" {
		if n, err := strconv.ParseInt(id, 10, 64); err == nil && n >= 0 && n < seq {
			seq = n
		}
	}
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // nginx would buffer the stream
	w.WriteHeader(http.StatusOK)
	// The comment makes the answer begin now: a client waits for the
	// headers before it counts itself subscribed.
	if _, err := io.WriteString(w, ": journal stream\n\n"); err != nil || rc.Flush() != nil {
		return
	}
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	// Each event is encoded and written alone: a backlog (Last-Event-ID: 0)
	// to a client that does not read must not sit whole in one buffer
	// until the write deadline gives up on it.
	var buf []byte
	send := func(event string, e *Entry) bool {
		b, err := json.Marshal(e)
		if err != nil {
			return true // an entry encodes: its body is checked JSON
		}
		buf = buf[:0]
		if event != "" {
			buf = append(buf, "event: "...)
			buf = append(buf, event...)
			buf = append(buf, '\n')
		} else {
			buf = append(buf, "id: "...)
			buf = strconv.AppendInt(buf, e.Seq, 10)
			buf = append(buf, '\n')
		}
		buf = append(buf, "data: "...)
		buf = append(buf, b...)
		buf = append(buf, "\n\n"...)
		_, err = w.Write(buf)
		if cap(buf) > 64<<10 {
			buf = nil // one large entry does not keep its room for the rest
		}
		return err == nil
	}
	for {
		// Amended first, up to the entries sent so far: those after are
		// sent next as they are now, amendments included.
		amended, nextSeen := j.amendedSince(seen, seq, f, a.e.template)
		seen = nextSeen
		entries, next := j.after(seq, f, a.e.template)
		seq = next
		if len(entries) > 0 || len(amended) > 0 {
			for i := range amended {
				if !send("amended", &amended[i]) {
					return
				}
			}
			for i := range entries {
				if !send("", &entries[i]) {
					return
				}
			}
			if rc.Flush() != nil {
				return
			}
			continue
		}
		added := j.wait(seq, seen)
		if added == nil {
			continue
		}
		select {
		case <-added:
		case <-tick.C:
			if _, err := io.WriteString(w, ": keep-alive\n\n"); err != nil || rc.Flush() != nil {
				return
			}
		case <-r.Context().Done():
			return
		}
	}
}
