package traffic

import (
	"io"
	"runtime"
	"sync"

	"stwb/serve"
)

// A recording is replayed in three stages, so that the cores share what the order
// of the requests does not bind: one goroutine reads the lines (serve.EachRecord)
// into batches; workers prepare each batch's requests (decoded for the server,
// shaped: prepare); the analyzer answers them on its server one at a time, in the
// recorded order (each request sees what the ones before it wrote), and adds up
// what they consumed (answer). The batches in flight are bounded (replayBatches),
// so memory follows a few batches, not the recording.

const (
	// batchRecords and batchBytes end a batch: enough requests that handing a batch
	// on costs little beside preparing it, few enough to keep the workers busy.
	batchRecords = 64
	batchBytes   = 64 << 10
	// replayBatches is how many batches of batchBytes may be read and not yet
	// answered; a batch of longer requests counts as several.
	replayBatches = 16
)

// batch is a run of recorded requests and the bytes they lend: each request's
// body and the body asking for its capacity, one after the other in buf.
type batch struct {
	recs  []prepared
	ends  []int // where each request's bytes end in buf
	buf   []byte
	slots int           // of replayBatches, taken until it is answered
	ready chan struct{} // closed once every request is prepared
}

// newBatch is a batch from the free ones (answered, handed back), or a new one.
func newBatch(free chan *batch) *batch {
	select {
	case b := <-free:
		return b
	default:
		return &batch{recs: make([]prepared, 0, batchRecords), ends: make([]int, 0, 2*batchRecords),
			buf: make([]byte, 0, 2*batchBytes+4<<10), ready: make(chan struct{})}
	}
}

// reuse empties an answered batch and hands it back to the free ones, unless a
// long request grew it past the usual size.
func (b *batch) reuse(free chan *batch) {
	if cap(b.buf) > 4*batchBytes {
		return
	}
	clear(b.recs) // what they point to may go
	b.recs, b.ends, b.buf, b.ready = b.recs[:0], b.ends[:0], b.buf[:0], make(chan struct{})
	select {
	case free <- b:
	default:
	}
}

func (b *batch) add(rec serve.Record) {
	b.buf = append(b.buf, rec.Request...)
	b.ends = append(b.ends, len(b.buf))
	b.buf = appendReplayed(b.buf, rec.Op, rec.Request)
	b.ends = append(b.ends, len(b.buf))
	rec.Request = nil // lent by EachRecord: prepare points it into buf
	b.recs = append(b.recs, prepared{rec: rec})
}

// prepare decodes and shapes every request of the batch.
func (a *Analyzer) prepareBatch(b *batch, shapes *shapeMemo) {
	start := 0
	for i := range b.recs {
		body, capacityBody := b.buf[start:b.ends[2*i]], b.buf[b.ends[2*i]:b.ends[2*i+1]]
		start = b.ends[2*i+1]
		rec := b.recs[i].rec
		rec.Request = body
		b.recs[i] = a.prepare(rec, shapes, capacityBody)
	}
	close(b.ready)
}

// replay reads the recording from r and answers every request in it, in order.
func (a *Analyzer) replay(r io.Reader) error {
	workers := max(1, runtime.GOMAXPROCS(0))
	work := make(chan *batch, replayBatches)
	inOrder := make(chan *batch, replayBatches)
	slots := make(chan struct{}, replayBatches)
	free := make(chan *batch, replayBatches)
	var readErr error
	go func() {
		defer close(work)
		defer close(inOrder)
		b := newBatch(free)
		send := func() {
			b.slots = min(replayBatches, max(1, len(b.buf)/batchBytes))
			for range b.slots {
				slots <- struct{}{}
			}
			work <- b
			inOrder <- b
			b = newBatch(free)
		}
		readErr = serve.EachRecord(r, func(rec serve.Record) error {
			b.add(rec)
			if len(b.recs) == batchRecords || len(b.buf) >= batchBytes {
				send()
			}
			return nil
		})
		if readErr == nil && len(b.recs) > 0 {
			send()
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			shapes := newShapeMemo(a.d)
			for b := range work {
				a.prepareBatch(b, shapes)
			}
		}()
	}
	for b := range inOrder {
		<-b.ready
		for _, p := range b.recs {
			a.answer(p)
		}
		for range b.slots {
			<-slots
		}
		b.reuse(free)
	}
	wg.Wait()
	return readErr
}
