//go:build unix

package designfile

import (
	"runtime"
	"testing"
	"time"
)

// TestSaveLoaded100kBudget saves the loaded, edited 100,000-item design once and logs
// the wall and CPU time (CPU over all threads says more than wall time on a shared
// machine; neither is a pass/fail figure here, BenchmarkSaveLoaded100k is the one to
// quote). Memory is held to the target: in proportion to the file, at most four
// times its size allocated for one save (the output itself, and the chunks it is
// assembled from).
func TestSaveLoaded100kBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("large design")
	}
	d := loadedEdited100k(t)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu0 := cpuTime()
	start := time.Now()
	out, err := fileOf(d).Marshal()
	took := time.Since(start)
	cpu := cpuTime() - cpu0
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d items, %d bytes written: %v wall, %v CPU (all threads), %d MB allocated, %d allocations",
		len(d.Items), len(out), took, cpu, alloc>>20, after.Mallocs-before.Mallocs)
	if limit := 4 * uint64(len(out)); alloc > limit {
		t.Errorf("saving allocated %d MB for a %d MB file; the budget is %d MB", alloc>>20, len(out)>>20, limit>>20)
	}
}
