package docassets

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// The bundles are the major versions FastAPI 0.141.1's pages ask for
// (swagger-ui-dist@5, redoc@2), and ReDoc's is the one generate.go fetched.
func TestBundles(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		asset   *Asset
		version *regexp.Regexp
	}{
		{SwaggerUIJS, regexp.MustCompile(`PACKAGE_VERSION:"5\.\d+\.\d+"`)},
		{RedocJS, regexp.MustCompile(`"` + regexp.QuoteMeta(RedocVersion) + `"`)},
		{SwaggerUICSS, regexp.MustCompile(`\.swagger-ui`)},
		{Favicon, regexp.MustCompile(`(?s)^.PNG\r\n`)}, // \x89, invalid UTF-8, matches "."
	} {
		t.Run(tc.asset.Name, func(t *testing.T) {
			t.Parallel()
			body, err := tc.asset.Content()
			if err != nil {
				t.Fatal(err)
			}
			if !tc.version.Match(body) {
				t.Errorf("%s (%d bytes) has no %s", tc.asset.Name, len(body), tc.version)
			}
		})
	}
	if !strings.HasPrefix(RedocVersion, "2.") {
		t.Errorf("ReDoc %s: FastAPI's page loads redoc@2", RedocVersion)
	}
	zr, err := gzip.NewReader(bytes.NewReader(redocGz))
	if err != nil {
		t.Fatal(err)
	}
	stored, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(stored); hex.EncodeToString(sum[:]) != redocSHA256 {
		t.Error("redoc.standalone.js.gz is not what generate.go wrote: run go generate ./internal/docassets/")
	}
	if !bytes.Contains(stored, []byte(redocLogo)) {
		t.Errorf("the bundle no longer loads %s: drop offlineRedoc", redocLogo)
	}
}

// ReDoc as served loads nothing from the internet: its footer's logo is
// written into the bundle, in both the plain and the gzipped answer.
func TestRedocServedOffline(t *testing.T) {
	t.Parallel()
	for _, enc := range []string{"", "gzip"} {
		r := httptest.NewRequest("GET", "/"+RedocJS.Name, nil)
		r.Header.Set("Accept-Encoding", enc)
		w := httptest.NewRecorder()
		RedocJS.ServeHTTP(w, r)
		body := w.Body.Bytes()
		if enc == "gzip" {
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatalf("gzip answer: %v", err)
			}
			if body, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		}
		if bytes.Contains(body, []byte("cdn.redoc.ly")) || !bytes.Contains(body, []byte("data:image/svg+xml,")) {
			t.Errorf("Accept-Encoding %q: the served bundle still loads its logo from the internet", enc)
		}
	}
}

func TestAcceptsGzip(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		header []string
		want   bool
	}{
		{nil, false},
		{[]string{""}, false},
		{[]string{"gzip"}, true},
		{[]string{"gzip, deflate, br, zstd"}, true},
		{[]string{"br", "GZIP;q=0.5"}, true},
		{[]string{"x-gzip"}, true},
		{[]string{"identity"}, false},
		{[]string{"*"}, true},
		{[]string{"gzip;q=0"}, false},
		{[]string{"gzip; q=0.000"}, false},
		{[]string{"*, gzip;q=0"}, false},
		{[]string{"*;q=0"}, false},
		{[]string{"deflate, *;q=0.1"}, true},
		{[]string{"gzip;q=bogus"}, true},
		{[]string{"gzipped"}, false},
	} {
		if got := AcceptsGzip(tc.header); got != tc.want {
			t.Errorf("AcceptsGzip(%q) = %v, want %v", tc.header, got, tc.want)
		}
	}
}

// Accept-Encoding is outside input: any value is answered without panic,
// and naming gzip first with no parameters always admits it.
func FuzzAcceptsGzip(f *testing.F) {
	for _, s := range []string{"gzip", "gzip;q=0, *", "br;q=1.0, gzip;q=0.8, *;q=0.1", ";;,,=q", "*;q=1e400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, header string) {
		AcceptsGzip([]string{header})
		if !strings.Contains(header, ";") && !AcceptsGzip([]string{"gzip, " + header}) {
			t.Errorf("gzip, %q refuses gzip", header)
		}
	})
}
