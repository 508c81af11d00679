package serve

import (
	"bytes"
	"sync"
	"sync/atomic"
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
type wireCache struct {
	entries atomic.Pointer[sync.Map] // map identity (unsafe.Pointer) -> *wireEntry
	bytes   atomic.Int64
}

type wireEntry struct {
	item model.Item // held, so that the map's address stays its own
	wire []byte
}

// wireCacheBytes bounds the JSON a wireCache holds.
const wireCacheBytes = 64 << 20

func newWireCache() *wireCache {
	c := &wireCache{}
	c.entries.Store(new(sync.Map))
	return c
}

// appendItem appends the item in DynamoDB JSON, as dynamojson.AppendItem does.
func (c *wireCache) appendItem(buf []byte, it model.Item) []byte {
	if len(it) == 0 {
		return dynamojson.AppendItem(buf, it)
	}
	key := *(*unsafe.Pointer)(unsafe.Pointer(&it)) // the map's identity
	m := c.entries.Load()
	if v, ok := m.Load(key); ok {
		return append(buf, v.(*wireEntry).wire...)
	}
	start := len(buf)
	buf = dynamojson.AppendItem(buf, it)
	wire := bytes.Clone(buf[start:])
	m.Store(key, &wireEntry{item: it, wire: wire})
	if c.bytes.Add(int64(len(wire))) > wireCacheBytes {
		c.entries.Store(new(sync.Map))
		c.bytes.Store(0)
	}
	return buf
}
