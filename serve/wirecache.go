package serve

import (
	"bytes"
	"sync"
	"unsafe"

	"stwb/dynamojson"
	"stwb/model"
)

// wireCache remembers the DynamoDB JSON of the items reads hand out, so that an
// item read again is copied, not encoded again: writing the items of a page was
// the largest part of serve's own CPU per Query (BenchmarkServerCPU).
//
// It relies on the engine's contract: a stored item is a map the engine never
// changes (a write stores a new map), handed out as it is when no projection
// applies. So an item's map identity names its content for as long as the map
// lives, and the cache holds the map, so that its address is not reused while the
// entry is kept. A projected item is a new map each time: it misses, and costs one
// entry until the cache is emptied. The cache is emptied whole once it holds
// wireCacheBytes, which bounds its memory.
//
// A page looks its items up under one read lock, in a map keyed by the map's
// address (a sync.Map's hashing of interface keys cost more than the copy it
// saved), and stores what it missed under one write lock after.
type wireCache struct {
	mu      sync.RWMutex
	entries map[unsafe.Pointer]wireEntry // map identity -> its JSON
	bytes   int
}

type wireEntry struct {
	item model.Item // held, so that the map's address stays its own
	wire []byte
}

// wireCacheBytes bounds the JSON a wireCache holds.
const wireCacheBytes = 64 << 20

func newWireCache() *wireCache {
	return &wireCache{entries: map[unsafe.Pointer]wireEntry{}}
}

// identity is a map's address: what names a stored item.
func identity(it model.Item) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&it)) }

// appendItem appends the item in DynamoDB JSON, as dynamojson.AppendItem does.
func (c *wireCache) appendItem(buf []byte, it model.Item) []byte {
	return c.appendItems(buf, []model.Item{it})
}

// appendItems appends the items in DynamoDB JSON, separated by commas, as the
// elements of a JSON array.
func (c *wireCache) appendItems(buf []byte, items []model.Item) []byte {
	type missed struct {
		item       model.Item
		start, end int
	}
	var room [8]missed
	misses := room[:0]
	c.mu.RLock()
	for i, it := range items {
		if i > 0 {
			buf = append(buf, ',')
		}
		// A nil item has no identity to remember; any other map has, even empty.
		if it != nil {
			if e, ok := c.entries[identity(it)]; ok {
				buf = append(buf, e.wire...)
				continue
			}
		}
		start := len(buf)
		buf = dynamojson.AppendItem(buf, it)
		if it != nil {
			misses = append(misses, missed{it, start, len(buf)})
		}
	}
	c.mu.RUnlock()
	if len(misses) == 0 {
		return buf
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, m := range misses {
		wire := bytes.Clone(buf[m.start:m.end])
		c.entries[identity(m.item)] = wireEntry{item: m.item, wire: wire}
		c.bytes += len(wire)
	}
	if c.bytes > wireCacheBytes {
		c.entries, c.bytes = map[unsafe.Pointer]wireEntry{}, 0
	}
	return buf
}
