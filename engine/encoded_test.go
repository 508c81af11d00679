package engine

import (
	"bytes"
	"strings"
	"sync"
	"testing"
)

// Encoded keeps a copy of what it is given, of any length an item's JSON has, and
// readers at once see either nothing or the whole of it.
func TestEncodedKeepsACopy(t *testing.T) {
	var c Encoded
	if c.Load() != nil {
		t.Fatal("a new Encoded holds something")
	}
	c.Store(nil)
	if c.Load() != nil {
		t.Fatal("an empty Store was kept")
	}
	for _, n := range []int{1, 3, 4, 5, 255, 256, 65536, 400 << 10} {
		want := strings.Repeat("x", n-1) + "}"
		b := []byte(want)
		c.Store(b)
		b[0] = 'y' // the caller's buffer, reused
		if got := c.Load(); string(got) != want {
			t.Fatalf("%d bytes: kept %d bytes starting %q", n, len(got), got[:min(len(got), 8)])
		}
	}
	var wg sync.WaitGroup
	want := []byte(`{"pk":{"S":"a"}}`)
	var e Encoded
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				if got := e.Load(); got != nil && !bytes.Equal(got, want) {
					t.Errorf("read %q", got)
					return
				}
				e.Store(want)
			}
		}()
	}
	wg.Wait()
}
