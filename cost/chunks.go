package cost

import (
	"runtime"
	"sync"
)

// chunkedFrom is how many items make a pass worth splitting across goroutines: a
// million sample items are read in a third of a second on one core
// (BenchmarkCompute1M), a few thousand in well under the cost of starting one.
const chunkedFrom = 1 << 14

// chunkCount is how many chunks inChunks splits n items into.
func chunkCount(n int) int {
	if n < chunkedFrom {
		return 1
	}
	return min(runtime.GOMAXPROCS(0), 8)
}

// inChunks calls work(c, lo, hi) for chunk c of chunkCount(n), the items [lo, hi),
// contiguous and in order, together 0 to n-1: one goroutine a chunk, when there is
// more than one. Each call must write only what its own items own.
func inChunks(n int, work func(c, lo, hi int)) {
	chunks := chunkCount(n)
	if chunks == 1 {
		work(0, 0, n)
		return
	}
	var wg sync.WaitGroup
	for c := range chunks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(c, c*n/chunks, (c+1)*n/chunks)
		}()
	}
	wg.Wait()
}
