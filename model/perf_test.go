package model

import (
	"runtime"
	"testing"
	"time"
)

// TestParse100kBudget measures one load of a 100,000-item design (about 25 MB) for the
// README's performance section. It fails only far beyond the target, since the
// machine is shared; the benchmark is the figure to quote.
func TestParse100kBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("large load")
	}
	data := genDesign(100000)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	d, err := Parse("bench.yaml", data)
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(d)
	t.Logf("%d bytes, %d items: %v, heap in use after load %d MB, total allocated %d MB",
		len(data), len(d.Items), took, (after.HeapInuse)>>20, (after.TotalAlloc-before.TotalAlloc)>>20)
	if took > 5*time.Second {
		t.Errorf("loading took %v; the whole-process target is 0.7 s", took)
	}
}
