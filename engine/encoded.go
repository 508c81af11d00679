package engine

import (
	"encoding/binary"
	"runtime"
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
//
// What all Encodeds of the process keep is bounded by keptBudget: an item's JSON is
// usually a fraction of its in-memory form, but not always (a binary attribute is a
// third bigger in base64, a control character six times as big escaped), and a
// cache should not be what makes a table's memory double. Past the budget an item
// is not kept (its reader encodes it each time) until collected ones free room.
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
// not kept, nor one that would take what all Encodeds keep past keptBudget.
func (c *Encoded) Store(b []byte) {
	if len(b) == 0 {
		return
	}
	n := int64(4 + len(b))
	if keptBytes.Add(n) > keptBudget.Load() {
		keptBytes.Add(-n)
		return
	}
	kept := make([]byte, n)
	binary.LittleEndian.PutUint32(kept, uint32(len(b)))
	copy(kept[4:], b)
	// The copy is counted until the garbage collector frees it: when the entry
	// holding it goes (a write replaced the item), or another Store replaced it.
	runtime.AddCleanup(&kept[0], releaseKept, n)
	c.p.Store(&kept[0])
}

// keptBudget bounds the bytes all Encodeds keep at once (keptBytes): 256 MB, the
// JSON of about a million 200-byte items, four times the 64 MB cache of item JSON
// serve had before. A variable for the tests.
var keptBudget atomic.Int64

func init() { keptBudget.Store(256 << 20) }

// keptBytes is what all Encodeds keep and the garbage collector has not yet freed.
var keptBytes atomic.Int64

// releaseKept uncounts a kept copy of n bytes the garbage collector freed.
func releaseKept(n int64) { keptBytes.Add(-n) }

// encodedOf is the Encoded of the stored item a read hands out for en as it is,
// the table entry's: an index entry's is its base's. Nil for a search pivot.
func (en *entry) encodedOf() *Encoded {
	if en.base != nil {
		return &en.base.encoded
	}
	return &en.encoded
}
