//go:build unix

package designfile

import (
	"runtime"
	"syscall"
	"testing"
	"time"
)

// TestParse100kBudget measures one load of a 100,000-item design (about 25 MB): the
// time is logged for the README (wall time on a shared machine is no pass/fail
// figure; BenchmarkParse100k is the one to quote), the memory is held to the issue's
// 500 MB process budget, of which loading may take at most 350 MB.
func TestParse100kBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("large load")
	}
	data := genDesign(100000)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu0 := cpuTime()
	start := time.Now()
	d, err := Parse("bench.yaml", data)
	took := time.Since(start)
	cpu := cpuTime() - cpu0
	if err != nil {
		t.Fatal(err)
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(d)
	t.Logf("%d bytes, %d items: %v wall, %v CPU (all threads), heap in use after load %d MB, total allocated %d MB",
		len(data), len(d.Items), took, cpu, (after.HeapInuse)>>20, (after.TotalAlloc-before.TotalAlloc)>>20)
	if inUse := after.HeapInuse >> 20; inUse > 350 {
		t.Errorf("the loaded design holds %d MB of heap; the budget is 350 MB", inUse)
	}
}

// cpuTime is the CPU time the process has used, user and system, over all threads:
// on a shared machine it says more than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
