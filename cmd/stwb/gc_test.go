package main

import (
	"context"
	"runtime/debug"
	"testing"
	"time"
)

// TestGCPercentFor: the heap may grow by the headroom past what is live, or by
// Go's default 100% when that is more, and Go's smallest goal (4 MB times the
// percent) stays within the headroom.
func TestGCPercentFor(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		live, headroom uint64
		want           int
	}{
		{0, serveHeapHeadroom, 1600},
		{1 * mb, serveHeapHeadroom, 1600},
		{4 * mb, serveHeapHeadroom, 1600},
		{8 * mb, serveHeapHeadroom, 800},
		{16 * mb, serveHeapHeadroom, 400},
		{13 * mb, serveHeapHeadroom, 492},
		{64 * mb, serveHeapHeadroom, 100},
		{65 * mb, serveHeapHeadroom, 100},
		{4096 * mb, serveHeapHeadroom, 100},
		{0, replayHeapHeadroom, 6400},
		{4 * mb, replayHeapHeadroom, 6400},
		{8 * mb, replayHeapHeadroom, 3200},
		{100 * mb, replayHeapHeadroom, 256},
		{200 * mb, replayHeapHeadroom, 128},
		{256 * mb, replayHeapHeadroom, 100},
		{1024 * mb, replayHeapHeadroom, 100},
	} {
		got := gcPercentFor(c.live, c.headroom)
		if got != c.want {
			t.Errorf("gcPercentFor(%d MB, %d MB) = %d, want %d", c.live/mb, c.headroom/mb, got, c.want)
		}
		goal := c.live + c.live*uint64(got)/100
		if limit := c.live + max(c.headroom, c.live); goal > limit {
			t.Errorf("live %d MB, headroom %d MB: goal %d MB, past %d MB", c.live/mb, c.headroom/mb, goal/mb, limit/mb)
		}
		if least := goHeapMinimum * uint64(got) / 100; least > max(c.headroom, goHeapMinimum) {
			t.Errorf("live %d MB, headroom %d MB: smallest goal %d MB, past the headroom", c.live/mb, c.headroom/mb, least/mb)
		}
	}
}

// gcPercent is the GC percent in force, read by setting it back.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestKeepHeapHeadroom: the percent is set for the live heap while the command
// runs and what was found is put back; GOGC, when set, is left alone.
func TestKeepHeapHeadroom(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "")
	for _, headroom := range []uint64{serveHeapHeadroom, replayHeapHeadroom} {
		stop := keepHeapHeadroom(context.Background(), headroom, time.Hour)
		if got, want := gcPercent(), gcPercentFor(liveHeap(), headroom); got != want || got == 100 && liveHeap() < headroom {
			t.Errorf("headroom %d MB: GC percent %d while running, want %d (live heap %d bytes)", headroom>>20, got, want, liveHeap())
		}
		stop()
		if got := gcPercent(); got != 100 {
			t.Errorf("headroom %d MB: GC percent %d after, want 100 back", headroom>>20, got)
		}
	}

	t.Setenv("GOGC", "50")
	debug.SetGCPercent(50)
	stop := keepHeapHeadroom(context.Background(), serveHeapHeadroom, time.Hour)
	if got := gcPercent(); got != 50 {
		t.Errorf("GOGC=50: GC percent %d while running, want the user's 50", got)
	}
	stop()
}
