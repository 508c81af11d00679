package main

import (
	"context"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// The garbage collection policy of the commands that hold a table live while they
// make garbage: stwb serve (the design's items, a few KB of garbage per request)
// and check --traffic (the replayed table, built up from the recording's writes,
// about 3 KB of garbage per recorded request). Go's default (GOGC=100) collects
// whenever the heap has grown by as much as is live, and every collection marks
// every item: with a small live heap that is a collection every few thousand
// requests. serve with 10,000 items (13 MB live) spent a tenth of its CPU per
// request on it (BenchmarkServerCPU, issue 24); check --traffic, whose table grows
// from nothing, marked about as many bytes as it allocated (3.1 GB for a 263 MB
// recording; with no collection at all it took about 40% less CPU).
//
// So these commands let the heap grow by a headroom past what is live before
// collecting, or by Go's 100% when that is more: a heap of less than the headroom
// live costs up to the headroom more memory than Go's default would hold, a heap
// of the headroom or more exactly Go's default. GOGC, when set, is the user's
// choice and is left alone; GOMEMLIMIT still applies.
const (
	// serveHeapHeadroom: a server lives long and its design is usually small.
	serveHeapHeadroom = 64 << 20
	// replayHeapHeadroom: a replay runs for a while, and its table grows through
	// the headroom as the recording's writes fill it.
	replayHeapHeadroom = 256 << 20
)

// goHeapMinimum is Go's smallest heap goal at GOGC=100 (runtime's heapMinimum),
// which the runtime scales by the percent.
const goHeapMinimum = 4 << 20

// gcPercentFor is the GC percent that lets a heap of live bytes grow by headroom
// before the next collection: 100 (Go's default) or more, and at most the percent
// that keeps Go's smallest heap goal within the headroom.
func gcPercentFor(live, headroom uint64) int {
	most := headroom * 100 / goHeapMinimum
	if live == 0 {
		return int(most)
	}
	return int(min(max(headroom*100/live, 100), most))
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

// keepHeapHeadroom sets the GC percent for headroom from the live heap now and
// every interval (the live heap changes as the table is written) until ctx ends;
// the returned stop waits for that and puts back the percent it found. With GOGC
// set it does nothing.
func keepHeapHeadroom(ctx context.Context, headroom uint64, every time.Duration) (stop func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	set := func() int { return debug.SetGCPercent(gcPercentFor(liveHeap(), headroom)) }
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
