// Package chunks splits a pass over many independent items into contiguous
// chunks, one goroutine a core: the engine's bulk load, the design file's reading
// and writing of its items and cost's passes over them all split the same way, so
// that the rule (how many chunks, where each begins) is written once.
package chunks

import (
	"runtime"
	"sync"
)

// most is the most chunks a pass is split into: past a few cores the passes are
// bound by memory, and each chunk has its own state (parsers, maps) to pay for.
const most = 8

// Most is how many chunks a pass that is split at all is split into on this
// machine: one a core, at most 8. Callers size per-chunk state with it.
func Most() int { return max(1, min(runtime.GOMAXPROCS(0), most)) }

// Count is how many chunks a pass over n items is split into: one below from
// items (a goroutine costs more than a few thousand small steps save), else Most,
// and never more than n.
func Count(n, from int) int {
	if n < from {
		return 1
	}
	return max(1, min(Most(), n))
}

// Bounds is chunk c of chunks over n items: [lo, hi), contiguous and in order,
// together 0 to n-1.
func Bounds(c, chunks, n int) (lo, hi int) { return c * n / chunks, (c + 1) * n / chunks }

// Run calls work(c, lo, hi) for every chunk c of Count(n, from), with its Bounds:
// on the caller's goroutine when there is one chunk, else one goroutine a chunk,
// and waits for them. Each call must write only what its own items own.
func Run(n, from int, work func(c, lo, hi int)) {
	chunks := Count(n, from)
	if chunks == 1 {
		work(0, 0, n)
		return
	}
	var wg sync.WaitGroup
	for c := range chunks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lo, hi := Bounds(c, chunks, n)
			work(c, lo, hi)
		}()
	}
	wg.Wait()
}
