package main

import (
	"context"
	"runtime/debug"
	"testing"
	"time"
)

// TestGCPercentFor: the heap may grow by 64 MB past what is live, or by Go's
// default 100% when that is more, and Go's smallest goal (4 MB times the percent)
// stays within the 64 MB.
func TestGCPercentFor(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, 1600},
		{1 * mb, 1600},
		{4 * mb, 1600},
		{8 * mb, 800},
		{16 * mb, 400},
		{13 * mb, 492},
		{64 * mb, 100},
		{65 * mb, 100},
		{4096 * mb, 100},
	} {
		got := gcPercentFor(c.live)
		if got != c.want {
			t.Errorf("gcPercentFor(%d MB) = %d, want %d", c.live/mb, got, c.want)
		}
		goal := c.live + c.live*uint64(got)/100
		if limit := c.live + max(64*mb, c.live); goal > limit {
			t.Errorf("live %d MB: goal %d MB, past %d MB", c.live/mb, goal/mb, limit/mb)
		}
	}
}

// gcPercent is the GC percent in force, read by setting it back.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestKeepHeapHeadroom: serve sets the percent for the live heap while it runs and
// puts back what it found; GOGC, when set, is left alone.
func TestKeepHeapHeadroom(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "")
	stop := keepHeapHeadroom(context.Background(), time.Hour)
	if got, want := gcPercent(), gcPercentFor(liveHeap()); got != want || got == 100 && liveHeap() < 64<<20 {
		t.Errorf("while serving: GC percent %d, want %d (live heap %d bytes)", got, want, liveHeap())
	}
	stop()
	if got := gcPercent(); got != 100 {
		t.Errorf("after serving: GC percent %d, want 100 back", got)
	}

	t.Setenv("GOGC", "50")
	debug.SetGCPercent(50)
	stop = keepHeapHeadroom(context.Background(), time.Hour)
	if got := gcPercent(); got != 50 {
		t.Errorf("GOGC=50: GC percent %d while serving, want the user's 50", got)
	}
	stop()
}
