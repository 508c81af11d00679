package throttle

import "time"

// bucket is a token bucket of capacity units: it fills at rate units a second up
// to max, and a request is let through while it holds any units at all, its units
// then taken even into debt. DynamoDB charges a read by what it read, known only
// once it has read; a request is therefore let through on a bucket not yet empty
// and pays after, and the debt is what later requests wait out. So an item larger
// than a second's units is still served, at its rate (a 40 KB write at 10 WCU a
// second passes once every four seconds), as DynamoDB serves it.
type bucket struct {
	tokens, rate, max float64
	at                time.Time
}

// newBucket is a bucket filling at rate, holding at most burst seconds of it, and
// starting with one second's units.
func newBucket(rate, burst float64, now time.Time) *bucket {
	return &bucket{tokens: rate, rate: rate, max: rate * burst, at: now}
}

// refill adds the units of the time passed since the last refill.
func (b *bucket) refill(now time.Time) {
	if dt := now.Sub(b.at).Seconds(); dt > 0 {
		b.tokens = min(b.max, b.tokens+dt*b.rate)
		b.at = now
	}
}

// empty reports whether the bucket holds no unit (refill first).
func (b *bucket) empty() bool { return b.tokens <= 0 }

// full reports whether the bucket is back at its most (refill first): a full key
// bucket holds nothing a fresh one would not, so it can be forgotten.
func (b *bucket) full() bool { return b.tokens >= b.max }

func (b *bucket) take(units float64) { b.tokens -= units }
