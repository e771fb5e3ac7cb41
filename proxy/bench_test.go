package proxy_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/moviemock/moviemock/contract"
	"github.com/moviemock/moviemock/mock"
	"github.com/moviemock/moviemock/proxy"
)

// BenchmarkProxyOverhead compares a read sent to the upstream directly with
// the same read through the proxy, with and without the contract checks:
// the difference is what the proxy costs a request.
func BenchmarkProxyOverhead(b *testing.B) {
	m, err := mock.New(mock.Config{DisableAdmin: true})
	if err != nil {
		b.Fatal(err)
	}
	up := httptest.NewServer(m)
	defer up.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	get := func(b *testing.B, url string) {
		b.ReportAllocs()
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				resp, err := client.Get(url)
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					b.Fatalf("%s: %d", url, resp.StatusCode)
				}
			}
		})
	}
	for _, path := range []string{"/reviews/b42bfd96-9925-4da9-8c96-eed6b998b81f", "/reviews?limit=100"} {
		b.Run("direct"+path, func(b *testing.B) { get(b, up.URL+path) })
		for _, checked := range []bool{false, true} {
			cfg := proxy.Config{Upstream: up.URL}
			name := "proxy"
			if checked {
				obs, err := contract.NewObserver(contract.Config{BaseURL: up.URL})
				if err != nil {
					b.Fatal(err)
				}
				cfg.Observer, name = obs, "proxy+checks"
			}
			p, err := proxy.New(cfg, mock.Config{JournalSize: -1})
			if err != nil {
				b.Fatal(err)
			}
			srv := httptest.NewServer(p)
			b.Run(name+path, func(b *testing.B) { get(b, srv.URL+path) })
			srv.Close()
		}
	}
}
