package chunks

import (
	"runtime"
	"sync"
	"testing"
)

// Every item is in exactly one chunk, chunks are contiguous and numbered in item
// order, one chunk below from, never more chunks than items or than Most.
func TestRunCoversEachItemOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, c := range []struct{ n, from, chunks int }{
		{0, 10, 1}, {9, 10, 1}, {10, 10, 4}, {3, 0, 3}, {1000, 10, 4}, {1001, 1, 4},
	} {
		if got := Count(c.n, c.from); got != c.chunks {
			t.Errorf("Count(%d, %d) = %d, want %d", c.n, c.from, got, c.chunks)
		}
		seen := make([]int, c.n)
		var mu sync.Mutex
		starts := map[int]int{}
		Run(c.n, c.from, func(ch, lo, hi int) {
			mu.Lock()
			defer mu.Unlock()
			starts[ch] = lo
			for i := lo; i < hi; i++ {
				seen[i]++
			}
		})
		for i, k := range seen {
			if k != 1 {
				t.Errorf("n %d: item %d in %d chunks", c.n, i, k)
			}
		}
		for ch := 1; ch < len(starts); ch++ {
			if starts[ch] < starts[ch-1] {
				t.Errorf("n %d: chunk %d starts at %d, before chunk %d at %d", c.n, ch, starts[ch], ch-1, starts[ch-1])
			}
		}
		if len(starts) != c.chunks {
			t.Errorf("n %d from %d: %d chunks run, want %d", c.n, c.from, len(starts), c.chunks)
		}
	}
	runtime.GOMAXPROCS(16)
	if Most() != most {
		t.Errorf("Most() on 16 cores = %d, want %d", Most(), most)
	}
}
