package engine

import (
	"encoding/binary"
	"sync/atomic"
	"unsafe"
)

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
//
// What is kept is one allocation, its length (4 bytes) and then its bytes, found
// through one pointer: a slice behind a pointer cost a cache miss more an item.
type Encoded struct{ p atomic.Pointer[byte] }

// Load is what a reader kept, nil when none has. The caller must not change it.
func (c *Encoded) Load() []byte {
	p := c.p.Load()
	if p == nil {
		return nil
	}
	n := binary.LittleEndian.Uint32(unsafe.Slice(p, 4))
	return unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(p), 4)), n)
}

// Store keeps a copy of b (at most 4 GB: an item is at most 400 KB); an empty b is
// not kept.
func (c *Encoded) Store(b []byte) {
	if len(b) == 0 {
		return
	}
	kept := make([]byte, 4+len(b))
	binary.LittleEndian.PutUint32(kept, uint32(len(b)))
	copy(kept[4:], b)
	c.p.Store(&kept[0])
}

// encodedOf is the Encoded of the stored item a read hands out for en as it is,
// the table entry's: an index entry's is its base's. Nil for a search pivot.
func (en *entry) encodedOf() *Encoded {
	if en.base != nil {
		return &en.base.encoded
	}
	return &en.encoded
}
