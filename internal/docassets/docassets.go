// Package docassets embeds the browser files FastAPI's documentation pages
// load from CDNs — Swagger UI's bundle, stylesheet and favicon for /docs,
// ReDoc's standalone bundle for /redoc — and serves them, so a mock's
// documentation works with no internet.
//
// Swagger UI comes from the Go module github.com/swaggest/swgui (its v5
// assets: swagger-ui-dist 5.x, the major version FastAPI's page asks for,
// stored gzipped). No maintained Go module embeds ReDoc, so its bundle is
// fetched from the npm package redoc (2.x, the major version FastAPI asks
// for) by generate.go, checked against a pinned integrity, and committed.
//
// It does not render the pages: package mock does, byte for byte as
// FastAPI does.
package docassets

//go:generate go run generate.go -version 2.5.4 -integrity sha512-M6jWhG1qoBnH6TFmzJnstyCZ87HmOY/UzDm78mHiYihEdlV/YcS9ogOo1NlElnJMeLsyxHFe2yFc4sNjHTrABQ==

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	swaggerui "github.com/swaggest/swgui/v5/static"
)

//go:embed redoc.standalone.js.gz
var redocGz []byte

// Asset is one embedded file, served with its type, an ETag (answering
// If-None-Match with 304), and gzip-compressed to clients that accept it.
type Asset struct {
	Name        string // file name, as the pages' URLs end
	ContentType string

	load func() ([]byte, bool, error) // the stored bytes; true: gzipped
	// patch, when set, changes the content once loaded (it is then
	// compressed anew for clients that accept gzip).
	patch func([]byte) []byte
	once  sync.Once
	body  []byte // as sent without Content-Encoding
	gz    []byte // nil: not stored compressed
	etag  string
	err   error
}

// The assets FastAPI's pages load.
var (
	SwaggerUIJS  = &Asset{Name: "swagger-ui-bundle.js", ContentType: "text/javascript; charset=utf-8", load: swaggerFile("swagger-ui-bundle.js.gz")}
	SwaggerUICSS = &Asset{Name: "swagger-ui.css", ContentType: "text/css; charset=utf-8", load: swaggerFile("swagger-ui.css.gz")}
	Favicon      = &Asset{Name: "favicon.png", ContentType: "image/png", load: swaggerFile("favicon-32x32.png")}
	RedocJS      = &Asset{Name: "redoc.standalone.js", ContentType: "text/javascript; charset=utf-8", load: func() ([]byte, bool, error) { return redocGz, true, nil }, patch: offlineRedoc}
)

// redocLogo is the one file ReDoc's bundle loads from the internet, always:
// the logo of its "API docs by Redocly" footer, which no option turns off.
const redocLogo = "https://cdn.redoc.ly/redoc/logo-mini.svg"

// offlineRedoc points the footer's logo at an empty image written in the
// bundle itself, so /redoc makes no request beyond the mock.
func offlineRedoc(js []byte) []byte {
	return bytes.ReplaceAll(js, []byte(redocLogo), []byte(`data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E`))
}

// All lists every asset.
func All() []*Asset { return []*Asset{SwaggerUIJS, SwaggerUICSS, Favicon, RedocJS} }

func swaggerFile(name string) func() ([]byte, bool, error) {
	return func() ([]byte, bool, error) {
		b, err := fs.ReadFile(swaggerui.FS, name)
		return b, strings.HasSuffix(name, ".gz"), err
	}
}

// Content is the file as served without Content-Encoding. It is loaded
// (and decompressed) on first use.
func (a *Asset) Content() ([]byte, error) {
	a.once.Do(a.init)
	return a.body, a.err
}

func (a *Asset) init() {
	stored, gzipped, err := a.load()
	if err != nil {
		a.err = fmt.Errorf("load %s: %w", a.Name, err)
		return
	}
	a.body = stored
	if gzipped {
		a.gz = stored
		zr, err := gzip.NewReader(bytes.NewReader(stored))
		if err == nil {
			a.body, err = io.ReadAll(zr)
		}
		if err != nil {
			a.err = fmt.Errorf("decompress %s: %w", a.Name, err)
			return
		}
	}
	if a.patch != nil {
		a.body = a.patch(a.body)
		if a.gz != nil {
			var buf bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
			zw.Write(a.body)
			zw.Close()
			a.gz = buf.Bytes()
		}
	}
	sum := sha256.Sum256(a.body)
	a.etag = `"` + hex.EncodeToString(sum[:12]) + `"`
}

// ServeHTTP answers GET and HEAD (no body) for the asset. The content never
// changes while the process runs, but may with the next build at the same
// URL: clients cache it and revalidate with the ETag.
func (a *Asset) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := a.Content()
	if err != nil {
		panic(err) // embedded files that do not load: a broken build
	}
	h := w.Header()
	h.Set("Content-Type", a.ContentType)
	h.Set("Cache-Control", "no-cache")
	etag := a.etag
	if a.gz != nil {
		h.Add("Vary", "Accept-Encoding")
		if AcceptsGzip(r.Header.Values("Accept-Encoding")) {
			body = a.gz
			etag = strings.TrimSuffix(etag, `"`) + `-gzip"` // another representation, another strong ETag
			h.Set("Content-Encoding", "gzip")
			// net/http (Go 1.26) ServeContent sets no Content-Length once
			// Content-Encoding is set, in case a wrapper compresses what
			// it writes; this body is already compressed, so it is set
			// here, and the whole body is sent (no ranges of the gzip
			// stream).
			h.Set("Content-Length", strconv.Itoa(len(body)))
			r = r.Clone(r.Context())
			r.Header.Del("Range")
		}
	}
	h.Set("ETag", etag)
	// ServeContent answers If-None-Match, Range and HEAD, and sets
	// Content-Length.
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

// AcceptsGzip reports whether Accept-Encoding header values admit gzip:
// gzip (or x-gzip) with a q-value above zero, or, when gzip is not named,
// "*" with one (RFC 9110, section 12.5.3).
func AcceptsGzip(values []string) bool {
	gzipQ, anyQ := -1.0, -1.0
	for _, v := range values {
		for item := range strings.SplitSeq(v, ",") {
			coding, params, _ := strings.Cut(item, ";")
			switch strings.ToLower(strings.TrimSpace(coding)) {
			case "gzip", "x-gzip":
				gzipQ = max(gzipQ, qValue(params))
			case "*":
				anyQ = max(anyQ, qValue(params))
			}
		}
	}
	if gzipQ >= 0 {
		return gzipQ > 0
	}
	return anyQ > 0
}

// qValue is the q parameter among params such as " q=0.5" (1 when absent
// or unreadable).
func qValue(params string) float64 {
	for p := range strings.SplitSeq(params, ";") {
		name, value, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(name), "q") {
			continue
		}
		if q, err := strconv.ParseFloat(strings.TrimSpace(value), 64); err == nil && q >= 0 && q <= 1 {
			return q
		}
	}
	return 1
}
