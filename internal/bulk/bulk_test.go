package bulk_test

import (
	"bytes"
	"sync"
	"testing"

	"github.com/moviemock/moviemock/internal/bulk"
)

// Pieces handed out concurrently never overlap, whatever their sizes, and
// keep what was written to them.
func TestArenaPiecesAreDisjoint(t *testing.T) {
	var a bulk.Arena
	var wg sync.WaitGroup
	pieces := make([][]byte, 2000)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(pieces); i += 4 {
				n := 1 + i%700
				if i%500 == 0 {
					n = 5 << 20 // bigger than a block
				}
				p := a.Alloc(n)
				if len(p) != n || cap(p) != n {
					t.Errorf("Alloc(%d): len %d cap %d", n, len(p), cap(p))
				}
				for j := range p {
					p[j] = byte(i)
				}
				pieces[i] = p
			}
		}()
	}
	wg.Wait()
	for i, p := range pieces {
		if !bytes.Equal(p, bytes.Repeat([]byte{byte(i)}, len(p))) {
			t.Fatalf("piece %d was overwritten", i)
		}
	}
	if s := bulk.String(pieces[3]); len(s) != len(pieces[3]) || s[0] != 3 {
		t.Errorf("String: %q", s[:1])
	}
	if a.Alloc(0) != nil || bulk.String(nil) != "" {
		t.Error("empty pieces")
	}
}
