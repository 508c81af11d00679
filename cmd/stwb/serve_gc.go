package main

import (
	"context"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// stwb serve's garbage collection policy. A server answering an application's
// tests holds the design's items (live, and marked on every collection) and makes
// a few KB of garbage per request. Go's default (GOGC=100) collects whenever the
// heap has grown by as much as is live: with 10,000 items live (13 MB) that is a
// collection every ~3,000 requests, each marking every item, and it was a tenth
// of serve's CPU per request (BenchmarkServerCPU, issue 24). So serve lets the heap
// grow by serveHeapHeadroom past what is live before collecting, or by Go's 100%
// when that is more: a small design costs up to 64 MB more memory than Go's
// default would hold, a design of 64 MB or more exactly Go's default. GOGC, when
// set, is the user's choice and is left alone; GOMEMLIMIT still applies.

// serveHeapHeadroom is the growth past the live heap serve allows before collecting.
const serveHeapHeadroom = 64 << 20

// maxServeGCPercent bounds the percent gcPercentFor gives: Go's smallest heap goal
// is 4 MB scaled by the percent, and 1600 keeps it at 64 MB, within the headroom.
const maxServeGCPercent = 1600

// gcPercentFor is the GC percent that lets a heap of live bytes grow by
// serveHeapHeadroom before the next collection: 100 (Go's default) or more, at
// most maxServeGCPercent.
func gcPercentFor(live uint64) int {
	if live == 0 {
		return maxServeGCPercent
	}
	return int(min(max(serveHeapHeadroom*100/live, 100), maxServeGCPercent))
}

// liveHeap is the heap the last collection found live (runtime/metrics); 0 before
// the first collection.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// keepHeapHeadroom sets the GC percent from the live heap now and every interval
// (the live heap changes as the application writes) until ctx ends; the returned
// stop waits for that and puts back the percent it found. With GOGC set it does
// nothing.
func keepHeapHeadroom(ctx context.Context, every time.Duration) (stop func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	set := func() int { return debug.SetGCPercent(gcPercentFor(liveHeap())) }
	was := set()
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				set()
			}
		}
	}()
	return func() {
		cancel()
		<-done
		debug.SetGCPercent(was)
	}
}
