package engine

import "sync/atomic"

// Encoded is the place beside a stored item where a reader may keep one encoded
// form of it: serve keeps the item's DynamoDB JSON there, so that an item read
// again is copied, not encoded again, and found without a lookup (a map of item
// JSON by item was the largest part of serve's own CPU per Query, issue 24).
//
// It lives in the item's table entry. Entries are immutable and a write stores a
// new one, so what is kept describes the item as stored, and goes with it; clones
// of an engine share their entries, and so what is kept. It costs 8 bytes an entry,
// and at most one encoded item per stored item. Safe for readers at once: each
// keeps the same bytes.
type Encoded struct{ p atomic.Pointer[[]byte] }

// Load is what a reader kept, nil when none has.
func (c *Encoded) Load() []byte {
	if p := c.p.Load(); p != nil {
		return *p
	}
	return nil
}

// Store keeps b, which the caller must not change afterwards.
func (c *Encoded) Store(b []byte) { c.p.Store(&b) }

// encodedOf is the Encoded of the stored item a read hands out for en as it is,
// the table entry's: an index entry's is its base's. Nil for a search pivot.
func (en *entry) encodedOf() *Encoded {
	if en.base != nil {
		return &en.base.encoded
	}
	return &en.encoded
}
