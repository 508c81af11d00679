package engine

import "stwb/model"

// Size is the number of items in the table and their total size in bytes
// (model.ItemSize each), what DescribeTable reports as ItemCount and TableSizeBytes.
func (e *Engine) Size() (items int, bytes int64) {
	e.tree.Ascend(func(en *entry) bool {
		items++
		bytes += int64(en.size)
		return true
	})
	return items, bytes
}

// IndexSize is the number of entries in an index and their total size (table
// keys, index keys and projected attributes), DescribeTable's ItemCount and
// IndexSizeBytes of the index; ok is false when the table has no such index.
func (e *Engine) IndexSize(name string) (items int, bytes int64, ok bool) {
	ix := e.indexByName(name)
	if ix == nil {
		return 0, 0, false
	}
	ix.tree.Ascend(func(en *entry) bool {
		items++
		bytes += int64(en.size)
		return true
	})
	return items, bytes, true
}

// Each calls f with every item of the table in scan order until f returns false.
// The items are the engine's: read-only, as every item read from it.
func (e *Engine) Each(f func(model.Item) bool) {
	e.tree.Ascend(func(en *entry) bool { return f(e.itemOf(en)) })
}

// PartitionSize is the total size of the items with the partition key value pk
// and of their entries in the local secondary indexes: the item collection that
// ReturnItemCollectionMetrics estimates (LSI.html "Item collections").
func (e *Engine) PartitionSize(pk model.Value) int64 {
	enc, ok := encodeKey(pk)
	if !ok {
		return 0
	}
	var total int64
	from := &entry{hash: scanHash(pk), pk: enc}
	sum := func(t *entryTree) {
		t.AscendGreaterOrEqual(from, func(en *entry) bool {
			if en.hash != from.hash || en.pk != enc {
				return false
			}
			total += int64(en.size)
			return true
		})
	}
	sum(e.tree)
	for _, ix := range e.indexes {
		if ix.local {
			sum(ix.tree)
		}
	}
	return total
}
