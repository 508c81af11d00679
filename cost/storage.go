package cost

import (
	"math"

	"stwb/model"
)

// Storage billing (CapacityUnitCalculations.html, "For storage billing"; GSI.html and
// LSI.html, "Storage considerations"):
//
//   - a table item is billed at its size plus 100 bytes of overhead;
//   - an index entry at the table's key attributes + the index's key attributes +
//     the projected attributes, each attribute once, plus 100 bytes;
//   - an item is in an index only when it holds all of the index's key attributes,
//     each of its declared type: every attribute of a multi-attribute key
//     (model.Table.InIndex, the engine's rule too);
//   - GB are decimal, 10^9 bytes.
//
// Production sizes come from samples: an entity's `count` times the average size of
// its sample items. An entity's share of an index is the share of its samples that
// carry the index's keys (count x k/n), so a sparse index is sized as sparse as the
// samples are. Items whose type names no entity are counted once each, as written.

// ItemOverhead is the per-item (and per-index-entry) storage overhead in bytes.
const ItemOverhead = 100

// BytesPerGB is the decimal gigabyte that storage is billed in.
const BytesPerGB = 1e9

// StorageLine is what the table or one index stores.
type StorageLine struct {
	Items   int64   // items or index entries in production
	Bytes   int64   // billed bytes, overhead included
	GB      float64 // Bytes / 10^9
	Monthly float64 // dollars per month at the class's rate
}

// EntityStorage is one entity's (or the untyped items') share of the table.
type EntityStorage struct {
	Name    string // "" for untyped items
	Count   int64  // production count (the samples' number when the design gives none)
	Samples int    // sample items of this entity
	// FromSamples is set when the design gives no count, so Count is the samples'
	// number: every figure that rests on it says so.
	FromSamples bool
	AvgBytes    float64
	Bytes       int64
	// Indexes holds the entity's entries in each index it carries the keys of.
	Indexes map[string]StorageLine
}

// Storage is the design's storage.
type Storage struct {
	Table    StorageLine
	Indexes  map[string]StorageLine
	Order    []string // index names in design order
	Entities []EntityStorage
	// Unsized names the entities with a count but no sample item to size it by.
	Unsized []string
	Bytes   int64   // table and indexes
	GB      float64 // Bytes / 10^9
	Monthly float64 // dollars per month, the free tier NOT subtracted
	// FreeGB is the free tier of the class (25 GB per account for Standard), shown
	// on its own line; FreeMonthly is what it would be worth against this design.
	FreeGB      float64
	FreeMonthly float64
}

// attrsSize is the size of those of the named attributes the item has.
func attrsSize(names []string, it model.Item) int {
	size := 0
	for _, n := range names {
		if v, has := it[n]; has {
			size += model.AttributeSize(n, v)
		}
	}
	return size
}

// entityOf is the entity an item belongs to, or -1 when its type names none.
func entityOf(d *model.Design, byName map[string]int, it model.Item) int {
	v, ok := it[d.TypeAttr()]
	if !ok || v.Type != model.TypeS {
		return -1
	}
	if i, ok := byName[v.Str]; ok {
		return i
	}
	return -1
}

type sizeSum struct {
	n     int   // samples
	bytes int64 // sum of their sizes
	ix    []int // per index: samples in it
	ixB   []int64
}

// ComputeStorage sizes the table and each index from the design's entities and the
// items as stored (keys filled in), priced at cp. sizes[i] is items[i]'s size
// (model.ItemSize); nil computes it.
func ComputeStorage(d *model.Design, items []model.Item, sizes []int, cp ClassPrices) Storage {
	t, _ := readItems(d, model.ItemMaps(items), sizes, nil, false, false)
	return t.Storage(cp)
}

// EntrySizes are the sizes of the index entries an engine made of the items it
// loaded (engine.BulkWorker.EntrySize): index x's (the table's x-th) entry for item
// i, ok false when x holds no entry for it.
type EntrySizes interface {
	EntrySize(x, i int) (size int, ok bool)
}

// StorageTally is what storage reads of each item, one item at a time: its entity,
// its size, and its entry's size in each index that holds it. analysis.Load fills
// it as the design file is read, while each whole item is at hand, so that storage
// needs no copy of the items afterwards; ComputeStorage fills it from items.
type StorageTally struct {
	d      *model.Design
	byName map[string]int
	attrs  [][]string // per index: the attributes its entries hold (IndexEntryAttributes)
	// Slot i is item i's: its entity (entityOf; notVisited when Visit was not
	// called for it), its size, and per index x its entry's size (entry[x][i], -1
	// when the index does not hold it).
	entity []int32
	size   []int32
	entry  [][]int32
}

// notVisited marks the slot of an item StorageTally.Visit was not given.
const notVisited = -2

// NewStorageTally prepares a tally of up to n items of d.
func NewStorageTally(d *model.Design, n int) *StorageTally {
	t := &StorageTally{d: d, byName: make(map[string]int, len(d.Entities)), entity: make([]int32, n), size: make([]int32, n),
		attrs: make([][]string, len(d.Table.Indexes)), entry: make([][]int32, len(d.Table.Indexes))}
	for i, e := range d.Entities {
		t.byName[e.Name] = i
	}
	for x := range d.Table.Indexes {
		t.attrs[x] = d.Table.IndexEntryAttributes(&d.Table.Indexes[x])
		t.entry[x] = make([]int32, n)
	}
	for i := range t.entity {
		t.entity[i] = notVisited
	}
	return t
}

// Visit counts item i (i < n) as stored, of size bytes (model.ItemSize of the
// whole item), just loaded into an engine: entity is the index in the design's
// entities of the entity its type names (-1: none), entries the sizes the engine
// gave its index entries. It may be called from several goroutines at once, each
// with its own items, and keeps no reference to it.
func (t *StorageTally) Visit(i, entity int, it model.Item, size int, entries EntrySizes) {
	t.tally(i, entity, it, size, entries)
}

// tally is Visit; entries nil when no engine sized the item's index entries.
func (t *StorageTally) tally(i, entity int, it model.Item, size int, entries EntrySizes) {
	// Sizes fit in 32 bits: the items storage counts are those DynamoDB stores,
	// at most 400 KB each (model.Stored).
	t.entity[i], t.size[i] = int32(entity), int32(size)
	for x := range t.d.Table.Indexes {
		if entries != nil {
			// The engine's entry is sized by the same rule (its own entrySize,
			// on IndexEntryAttributes). An item it holds no entry for is still
			// asked below, by the rule the engine keeps (model.Table.InIndex).
			if sz, ok := entries.EntrySize(x, i); ok {
				t.entry[x][i] = int32(sz)
				continue
			}
		}
		ix := &t.d.Table.Indexes[x]
		switch {
		case !t.d.Table.InIndex(ix, it):
			t.entry[x][i] = -1
		case ix.Projection.Type == model.ProjectAll:
			// An ALL entry is the whole item, whose size is known already.
			t.entry[x][i] = int32(size)
		default:
			t.entry[x][i] = int32(attrsSize(t.attrs[x], it))
		}
	}
}

// Storage sums the items visited by entity and prices them at cp.
func (t *StorageTally) Storage(cp ClassPrices) Storage {
	d := t.d
	nix := len(d.Table.Indexes)
	newSum := func() sizeSum { return sizeSum{ix: make([]int, nix), ixB: make([]int64, nix)} }
	sums := make([]sizeSum, len(d.Entities))
	for i := range sums {
		sums[i] = newSum()
	}
	untyped := newSum()
	for i, e := range t.entity {
		if e == notVisited {
			continue
		}
		s := &untyped
		if e >= 0 {
			s = &sums[e]
		}
		s.n++
		s.bytes += int64(t.size[i])
		for x := range nix {
			if sz := t.entry[x][i]; sz >= 0 {
				s.ix[x]++
				s.ixB[x] += int64(sz)
			}
		}
	}

	st := Storage{Indexes: map[string]StorageLine{}}
	for _, ix := range d.Table.Indexes {
		st.Order = append(st.Order, ix.Name)
		st.Indexes[ix.Name] = StorageLine{}
	}
	addEntity := func(name string, count int64, fromSamples bool, s sizeSum) {
		es := EntityStorage{Name: name, Count: count, Samples: s.n, FromSamples: fromSamples}
		st.Table.Items += count
		if s.n == 0 {
			if count > 0 {
				st.Unsized = append(st.Unsized, name)
			}
			st.Entities = append(st.Entities, es)
			return
		}
		es.AvgBytes = float64(s.bytes) / float64(s.n)
		es.Bytes = roundBytes(float64(count) * (es.AvgBytes + ItemOverhead))
		st.Table.Bytes += es.Bytes
		for x, ix := range d.Table.Indexes {
			if s.ix[x] == 0 {
				continue
			}
			// count x k/n entries, each the average entry size + 100 bytes.
			entries := int64(math.Round(float64(count) * float64(s.ix[x]) / float64(s.n)))
			avg := float64(s.ixB[x]) / float64(s.ix[x])
			line := StorageLine{Items: entries, Bytes: roundBytes(float64(entries) * (avg + ItemOverhead))}
			if es.Indexes == nil {
				es.Indexes = map[string]StorageLine{}
			}
			es.Indexes[ix.Name] = line
			tot := st.Indexes[ix.Name]
			tot.Items += line.Items
			tot.Bytes += line.Bytes
			st.Indexes[ix.Name] = tot
		}
		st.Entities = append(st.Entities, es)
	}
	for i, e := range d.Entities {
		count := e.Count
		if count <= 0 {
			count = int64(sums[i].n)
		}
		addEntity(e.Name, count, e.Count <= 0, sums[i])
	}
	if untyped.n > 0 {
		addEntity("", int64(untyped.n), true, untyped)
	}
	price := func(l *StorageLine) {
		l.GB = float64(l.Bytes) / BytesPerGB
		l.Monthly = l.GB * cp.StorageGBMonth
	}
	price(&st.Table)
	st.Bytes = st.Table.Bytes
	for _, name := range st.Order {
		l := st.Indexes[name]
		price(&l)
		st.Indexes[name] = l
		st.Bytes += l.Bytes
	}
	st.GB = float64(st.Bytes) / BytesPerGB
	st.Monthly = st.GB * cp.StorageGBMonth
	st.FreeGB = cp.FreeStorageGB
	st.FreeMonthly = math.Min(st.GB, cp.FreeStorageGB) * cp.StorageGBMonth
	return st
}

// roundBytes rounds a byte estimate (a count times an average) to whole bytes.
func roundBytes(x float64) int64 { return int64(math.Round(x)) }
