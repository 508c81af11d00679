package engine

import (
	"bytes"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
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

// What all Encodeds keep stays within keptBudget: past it Store keeps nothing, and
// what the garbage collector frees makes room again.
func TestEncodedKeepsWithinBudget(t *testing.T) {
	was := keptBudget.Load()
	t.Cleanup(func() { keptBudget.Store(was) })
	item := []byte(`{"pk":{"S":"` + strings.Repeat("x", 280) + `"}}`) // 4+296 bytes kept
	keptBudget.Store(keptBytes.Load() + 3*(4+int64(len(item))) + 10)
	held := make([]Encoded, 4)
	for i := range 3 {
		if held[i].Store(item); held[i].Load() == nil {
			t.Fatalf("item %d not kept within the budget", i)
		}
	}
	if held[3].Store(item); held[3].Load() != nil {
		t.Fatal("an item past the budget was kept")
	}
	held = nil
	var again Encoded
	for deadline := time.Now().Add(10 * time.Second); again.Load() == nil; {
		if time.Now().After(deadline) {
			t.Fatalf("no room after the kept items were collected (%d bytes counted)", keptBytes.Load())
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
		again.Store(item)
	}
}
