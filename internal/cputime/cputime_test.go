package cputime

import (
	"runtime"
	"testing"
	"time"
)

// Process counts CPU the process burns, and no more than its threads could have
// burnt in the wall time that passed (getrusage(2); Linux counts in ticks of at
// most 4 ms, hence the slack).
func TestProcessCountsWork(t *testing.T) {
	for _, tc := range []struct {
		name string
		busy time.Duration // wall time to keep one core busy
	}{
		{"30 ms", 30 * time.Millisecond},
		{"100 ms", 100 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := Process()
			if start == 0 {
				t.Skip("CPU time is not measured on this platform")
			}
			wall := time.Now()
			x := 0
			for time.Since(wall) < tc.busy {
				for i := range 10000 {
					x += i
				}
			}
			elapsed := time.Since(wall)
			got := Process() - start
			if got <= 0 {
				t.Errorf("no CPU time counted for %v of busy work", tc.busy)
			}
			if most := int64(elapsed)*int64(runtime.NumCPU()) + int64(10*time.Millisecond); got > most {
				t.Errorf("counted %v of CPU in %v of wall time on %d cores", time.Duration(got), elapsed, runtime.NumCPU())
			}
			_ = x
		})
	}
}
