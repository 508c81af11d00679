package engine

import (
	"fmt"
	"sync"
	"unsafe"

	"stwb/internal/chunks"
	"stwb/model"
)

// keyAttr is one key attribute: its name and declared type (S, N or B).
type keyAttr struct {
	Name string
	Type model.Type
}

// keySchema is the key of the table or of one index; Sort.Name is "" without a sort
// key. A GSI's multi-attribute key (multikey.go) has its other attributes in
// morePartition and moreSort, in key order.
type keySchema struct {
	Partition keyAttr
	Sort      keyAttr

	morePartition, moreSort []keyAttr
}

func (k keySchema) hasSort() bool { return k.Sort.Name != "" }

// names lists the key attribute names, partition first.
func (k keySchema) names() []string {
	attrs := k.attrs()
	out := make([]string, len(attrs))
	for i, a := range attrs {
		out[i] = a.Name
	}
	return out
}

// index is one secondary index and its tree.
type index struct {
	def   model.Index
	key   keySchema
	local bool
	// projected holds the non-key attributes an INCLUDE index projects; nil for
	// ALL and KEYS_ONLY.
	projected map[string]bool
	// viewAttrs lists, each once, the attributes a KEYS_ONLY or INCLUDE entry can
	// hold: table keys, index keys, projected attributes. Sizing an entry looks
	// these few names up instead of walking the whole item (a million-item load
	// sizes a million entries).
	viewAttrs []string
	all       bool
	// tableKey is the table's key schema: every projection holds the table keys.
	tableKey keySchema
	tree     *entryTree
}

// Engine is an in-memory DynamoDB table with its secondary indexes. Reads (GetItem,
// Query, Scan, ... and Run of a read pattern) may run from several goroutines at
// once; writes, Clone and Run of a write pattern need the engine to themselves,
// because Clone also updates the original's copy-on-write state. Clone it first (in
// one goroutine) to give another goroutine its own copy.
//
// Items are shared, not copied, in both directions: the engine keeps the item maps
// it is given (PutItem's Item, a design's Items) when they are already canonical, and
// reads hand out the stored maps when no projection applies. The engine never
// changes an item in place (a write stores a new map), and callers must not either:
// treat items given to the engine and items read from it as read-only.
type Engine struct {
	table   model.Table
	key     keySchema
	tree    *entryTree
	indexes []*index
	// lazy is where the items of a lazily loaded design are read from again (their
	// text); nil unless the engine came from a Bulk given them.
	lazy Items
	// onStore, set by OnStore, sees every item a write stores; clones and rebuilds
	// keep it.
	onStore func(model.Item)
}

// OnStore has f called with every item a write stores from now on (PutItem,
// UpdateItem, a batch or transaction), in this engine and in its clones and
// rebuilds; nil stops it. A write on a clone that is then dropped (a cancelled
// transaction) is seen too, so f's user checks the item again before acting on
// it. serve's TTL uses it to learn which items expire when, without walking the
// table.
func (e *Engine) OnStore(f func(model.Item)) { e.onStore = f }

// Items is what the engine loads a design's items from: how many there are, the
// i-th item, and where it is written in its file (zero when it is not from one).
// A design file's items (designfile.File.ItemList) are such a list, and so are a
// design's own (ItemSlice).
type Items interface {
	Len() int
	Item(i int) model.Item
	Pos(i int) model.Pos
}

// ItemSlice is Items over items in memory: At[i] is where Items[i] is written, for
// the items that have a place (a shorter At leaves the rest without one).
type ItemSlice struct {
	Items []model.Item
	At    []model.Pos
}

// Len is the number of items.
func (s ItemSlice) Len() int { return len(s.Items) }

// Item is item i.
func (s ItemSlice) Item(i int) model.Item { return s.Items[i] }

// Pos is where item i is written, zero when that is not known.
func (s ItemSlice) Pos(i int) model.Pos {
	if i < len(s.At) {
		return s.At[i]
	}
	return model.Pos{}
}

// itemOf is the entry's item: the stored map, or for an item still in the design
// text, a map read from the text now, in the canonical form checkItem gave it at
// load. Entries are never changed, so an item read from text is not kept: each read
// reads it again (a few microseconds), which keeps a lazily loaded engine's memory
// to its keys.
func (e *Engine) itemOf(en *entry) model.Item {
	if en.item != nil || en.lazy == 0 {
		return en.item
	}
	it := e.lazy.Item(int(en.lazy - 1))
	normalizeItem(it, true) // checked at load, so it cannot fail now
	return it
}

// New makes an empty engine for a table and its indexes. It checks what the engine
// relies on: a partition key, key types S, N or B, and index names that are unique.
func New(t model.Table) (*Engine, error) {
	e := &Engine{table: t, tree: newTree()}
	var err *Error
	if e.key, err = schemaOf(t, t.Key, "table "+t.Name); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i, ix := range t.Indexes {
		if seen[ix.Name] {
			return nil, validation("One or more parameter values were invalid: Duplicate index name: %s", ix.Name)
		}
		seen[ix.Name] = true
		ks := ix.Key
		if ix.Local {
			// An LSI shares the table's partition key (LSI.html); one naming another
			// is refused, as CreateTable refuses it (dynalite
			// validations/createTable.js), rather than silently given the table's.
			if ks.Partition != "" && ks.Partition != t.Key.Partition {
				return nil, validation("One or more parameter values were invalid: Index KeySchema does not have the same leading hash key as table KeySchema for index: %s. index hash key: %s, table hash key: %s", ix.Name, ks.Partition, t.Key.Partition)
			}
			ks.Partition = t.Key.Partition
			if ks.Sort == "" {
				return nil, validation("One or more parameter values were invalid: local secondary index %s needs a sort key", ix.Name)
			}
		}
		k, err := schemaOf(t, ks, "index "+ix.Name)
		if err != nil {
			return nil, err
		}
		in := &index{def: ix, key: k, local: ix.Local, tableKey: e.key, tree: newTree()}
		switch ix.Projection.Type {
		case model.ProjectAll, "":
			in.all = true
		case model.ProjectInclude:
			in.projected = map[string]bool{}
			for _, a := range ix.Projection.Include {
				in.projected[a] = true
			}
		case model.ProjectKeysOnly:
		default:
			return nil, validation("One or more parameter values were invalid: Unknown ProjectionType %s for index %s", ix.Projection.Type, ix.Name)
		}
		if !in.all {
			in.viewAttrs = t.IndexEntryAttributes(&t.Indexes[i])
		}
		e.indexes = append(e.indexes, in)
	}
	return e, nil
}

func schemaOf(t model.Table, ks model.KeySchema, where string) (keySchema, *Error) {
	if ks.Partition == "" {
		return keySchema{}, validation("One or more parameter values were invalid: %s has no partition key", where)
	}
	attr := func(n string) keyAttr { return keyAttr{n, t.KeyAttributeType(n)} }
	k := keySchema{Partition: attr(ks.Partition)}
	if ks.Sort != "" {
		k.Sort = attr(ks.Sort)
	}
	for _, n := range ks.MorePartition {
		k.morePartition = append(k.morePartition, attr(n))
	}
	for _, n := range ks.MoreSort {
		k.moreSort = append(k.moreSort, attr(n))
	}
	for _, a := range k.attrs() {
		if !a.Type.IsScalarKeyType() {
			return keySchema{}, validation("One or more parameter values were invalid: key attribute %s of %s has type %s; a key attribute must be S, N or B", a.Name, where, a.Type)
		}
	}
	return k, nil
}

// FromDesign makes the engine for a design's table and loads its items (Load with
// the design's Items, which have no places in a file).
func FromDesign(d *model.Design) (*Engine, error) {
	if d == nil {
		return nil, validation("no design to load")
	}
	return Load(d.Table, ItemSlice{Items: d.Items})
}

// Load makes the engine for a table and loads the items into it. An item DynamoDB
// would refuse is an error naming the item's index, and its place in the file when
// items gives one, except an item over 400 KB: it is left out, as DynamoDB would
// never store it, and the load goes on (review's item-too-large names it).
func Load(t model.Table, items Items) (*Engine, error) {
	e, err := New(t)
	if err != nil {
		return nil, err
	}
	if i, err := e.loadAll(items); err != nil {
		return nil, itemError(items, i, err)
	}
	return e, nil
}

// itemError is a load's refusal of item i, naming the item's place in the file.
func itemError(items Items, i int, err *Error) *Error {
	where := fmt.Sprintf("items[%d]", i)
	var p model.Pos
	if i < items.Len() {
		p = items.Pos(i)
	}
	if p.Line > 0 {
		where = fmt.Sprintf("%s:%d:%d: %s", p.File, p.Line, p.Col, where)
	}
	return &Error{Type: err.Type, Message: where + ": " + err.Message + " (fix the item in the design file)"}
}

// loadAll puts items into an empty engine as PutItem would, one after another
// without conditions (an item with the key of an earlier one replaces it), and
// returns the index of the first item DynamoDB would refuse with its error.
//
// It is a bulk load, because a design of a million items must load in about a
// second: the items are checked and their entries made on several goroutines
// (bulkLoad), the entries of each tree come from one slice (one allocation, not one
// per entry), partition key hashes repeat from a memo (hashMemo), and the trees are
// filled side by side (fillTreesAtOnce). A slice lives as long as any of its
// entries; a later write replaces an entry without freeing its slot, which costs at
// most the load's own size.
//
// Inserting in sorted order was measured three ways (a comparison sort of the
// entries; a radix sort on the hash; entries copied into hash order) and none was
// faster at a million items: the sort or the copy cost what the inserts saved.
func (e *Engine) loadAll(items Items) (int, *Error) {
	ld := e.newBulkLoad(items.Len(), nil)
	chunks.Run(items.Len(), 4096, func(_, lo, hi int) {
		w := &BulkWorker{ld: ld}
		for i := lo; i < hi; i++ {
			w.put(i, items.Item(i))
		}
	})
	return ld.finish()
}

// Bulk loads the items of a design that stay as text (a lazily read design file)
// into a new engine, in the caller's own pass over them: each item is given once,
// to Put of a BulkWorker, on any of several goroutines, in a map the caller may
// reuse for the next item. The engine keeps each item's keys and reads the item
// again from the Items it was made with when a request returns it.
type Bulk struct {
	e  *Engine
	ld *bulkLoad
}

// NewBulk makes the engine for a table and a bulk load of items into it. The
// errors are New's.
func NewBulk(t model.Table, items Items) (*Bulk, error) {
	e, err := New(t)
	if err != nil {
		return nil, err
	}
	return &Bulk{e: e, ld: e.newBulkLoad(items.Len(), items)}, nil
}

// Worker makes the worker for one goroutine: each keeps its own memo of partition
// key hashes (hashMemo), so workers never lock each other out.
func (b *Bulk) Worker() *BulkWorker { return &BulkWorker{ld: b.ld} }

// Finish fills the engine's trees once every item has been put, in item order, as
// loading the items one by one would. The error is the first item DynamoDB would
// refuse, named as Load names it.
func (b *Bulk) Finish() (*Engine, error) {
	if i, err := b.ld.finish(); err != nil {
		return nil, itemError(b.ld.lazy, i, err)
	}
	return b.e, nil
}

// BulkWorker puts items into a Bulk from one goroutine.
type BulkWorker struct {
	ld   *bulkLoad
	memo hashMemo
}

// Put checks item i and makes its entries; it returns the item's size
// (model.ItemSize) or why DynamoDB would refuse it (which Finish reports too, for
// the first item refused). The map is not kept.
func (w *BulkWorker) Put(i int, it model.Item) (size int, err error) {
	size, perr := w.put(i, it)
	if perr != nil {
		return 0, perr // not a nil *Error in a non-nil error
	}
	return size, nil
}

// bulkLoad loads n items into an empty engine. Each item is put once, by a
// BulkWorker on any of several goroutines: it is checked, sized and keyed, and its
// table and index entries are made in slices, slot i for item i. finish then fills
// the trees in item order, as loading them one by one would.
//
// The items of a lazily loaded design (lazy set) come in a map that is reused for
// the next item: their entries keep the keys and the item's place in the design
// text, not the map (Engine.itemOf reads it again).
type bulkLoad struct {
	e      *Engine
	lazy   Items
	slab   []entry
	islabs [][]entry // islabs[k][i]: index k's entry for item i; base nil when none
	mu     sync.Mutex
	first  int // the first item refused, and why
	err    *Error
}

func (e *Engine) newBulkLoad(n int, lazy Items) *bulkLoad {
	ld := &bulkLoad{e: e, lazy: lazy, slab: make([]entry, n), islabs: make([][]entry, len(e.indexes)), first: n}
	touchPages(ld.slab)
	for k := range ld.islabs {
		ld.islabs[k] = make([]entry, n)
		touchPages(ld.islabs[k])
	}
	return ld
}

// touchPages writes one entry's non-pointer field in every page of a slab just
// made, so that the kernel gives each page its own memory now, on this goroutine.
// A slab of a large load is memory fresh from the kernel, not yet backed. When the
// collector runs during the load it reads the slab (it holds pointers: the scan,
// and the write barrier reading the slot it overwrites), which maps each unwritten
// page to the kernel's shared zero page; the page's first write then faults again,
// and replacing a mapped page flushes it from the TLB of every other core running
// the process, an interrupt per page, paid only when a second core is free. On the
// 100,000-item design that was 8% of stwb check's CPU on a quiet two-core machine
// and 5% of stwb query's (perf record: flush_tlb_mm_range under do_wp_page in put;
// 3,000 more page faults than with GOGC=off); writing first leaves one fault a
// page, with nothing to flush. The field written holds no pointer, so the write
// has no write barrier, which would read the page first.
func touchPages(s []entry) {
	const pageSize = 4096 // the smallest page size Go runs on
	step := max(1, pageSize/int(unsafe.Sizeof(entry{})))
	for j := 0; j < len(s); j += step {
		s[j].lazy = 0
	}
}

// EntrySize is the size of index k's entry (the table's k-th index) for item i,
// which this load has put (Put): the whole item's for an ALL projection, else its
// keys' and projected attributes' (entrySize). ok is false when the index holds no
// entry for the item (a sparse index) or the load left the item out. Storage reads
// these sizes rather than sizing each entry again.
func (w *BulkWorker) EntrySize(k, i int) (size int, ok bool) {
	en := &w.ld.islabs[k][i]
	return int(en.size), en.base != nil
}

// put checks item i and makes its entries, or records why it is refused.
func (w *BulkWorker) put(i int, it model.Item) (int, *Error) {
	ld := w.ld
	e := ld.e
	var item model.Item
	var size int
	var err *Error
	if ld.lazy != nil {
		// Not normalized: only keys and sizes are kept, which do not depend on
		// how a number is written, and itemOf normalizes an item when it is read.
		item = it
		size, err = e.checkCanonicalItem(it)
	} else {
		item, size, err = e.checkItem(it)
	}
	if err != nil {
		if err.Message == msgItemTooLarge {
			// Over 400 KB: a sample item DynamoDB would never store (PutItem
			// refuses it). It is a fact of the design, not a broken file: review's
			// item-too-large names it, and the engine holds what DynamoDB would,
			// so its slot stays empty and every pattern runs without it.
			return size, nil
		}
		ld.mu.Lock()
		defer ld.mu.Unlock()
		if i < ld.first {
			ld.first, ld.err = i, err
		}
		return 0, err
	}
	te := &ld.slab[i]
	if ld.lazy != nil {
		e.fillTableEntry(te, item, nil, size, &w.memo)
		te.lazy = int32(i + 1)
	} else {
		e.fillTableEntry(te, item, item, size, &w.memo)
	}
	for k, ix := range e.indexes {
		if en := &ld.islabs[k][i]; !ix.fillEntry(en, te, item, &w.memo) {
			*en = entry{}
		}
	}
	return size, nil
}

// finish fills the trees, or returns the first item refused.
func (ld *bulkLoad) finish() (int, *Error) {
	if ld.err != nil {
		return ld.first, ld.err
	}
	ld.e.lazy = ld.lazy
	ld.e.fillTreesAtOnce(ld.slab, ld.islabs)
	return 0, nil
}

// fillTrees inserts the table entries of a load into the table tree in item order,
// a later entry replacing an earlier one with its key, and then the index entries
// of the entries that stayed (islabs[k][i] is index k's entry for slab[i], base nil
// when there is none).
func (e *Engine) fillTrees(slab []entry, islabs [][]entry) {
	for i := range slab {
		if !slab[i].hasItem() {
			continue // an item the load left out (bulkLoad.put)
		}
		if old, ok := e.tree.ReplaceOrInsert(&slab[i]); ok {
			// A later item with the same key: the earlier one is gone, and must
			// get no index entries. Its slot is dropped here, never reused.
			old.item, old.lazy = nil, 0
		}
	}
	for k, ix := range e.indexes {
		for i := range slab {
			if en := &islabs[k][i]; slab[i].hasItem() && en.base != nil {
				ix.tree.ReplaceOrInsert(en)
			}
		}
	}
}

// fillTreesAtOnce is fillTrees with each tree filled on its own goroutine, as no
// tree's inserts depend on another's while the table keys are unique. They are in
// a lazily loaded design (the model refuses duplicates) and nearly always in one
// built in code; when they are not, the trees are filled again one after another.
func (e *Engine) fillTreesAtOnce(slab []entry, islabs [][]entry) {
	var wg sync.WaitGroup
	for k, ix := range e.indexes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range islabs[k] {
				if en := &islabs[k][i]; en.base != nil {
					ix.tree.ReplaceOrInsert(en)
				}
			}
		}()
	}
	stored := 0
	for i := range slab {
		if slab[i].hasItem() { // not an item the load left out (bulkLoad.put)
			e.tree.ReplaceOrInsert(&slab[i])
			stored++
		}
	}
	wg.Wait()
	if e.tree.Len() != stored {
		e.tree.Clear(false)
		for _, ix := range e.indexes {
			ix.tree.Clear(false)
		}
		e.fillTrees(slab, islabs)
	}
}

// Clone returns a copy that shares storage with e until either is written
// (the B-trees are copied lazily, node by node, on write).
func (e *Engine) Clone() *Engine {
	c := &Engine{table: e.table, key: e.key, tree: e.tree.Clone(), lazy: e.lazy, onStore: e.onStore}
	for _, ix := range e.indexes {
		cp := *ix
		cp.tree = ix.tree.Clone()
		c.indexes = append(c.indexes, &cp)
	}
	return c
}

// Len is the number of items in the table.
func (e *Engine) Len() int { return e.tree.Len() }

// Table is the table definition the engine was made for.
func (e *Engine) Table() model.Table { return e.table }

// indexByName finds an index; nil when the table has none of that name.
func (e *Engine) indexByName(name string) *index {
	for _, ix := range e.indexes {
		if ix.def.Name == name {
			return ix
		}
	}
	return nil
}

// fillTableEntry makes en the table tree's entry for a checked item of the given
// size (model.ItemSize, from checkItem); memo may be nil. keep is the map the entry
// holds: the item itself, or nil for an item held as design text (entry.lazy).
func (e *Engine) fillTableEntry(en *entry, item, keep model.Item, size int, memo *hashMemo) {
	pv := item[e.key.Partition.Name]
	*en = entry{item: keep, size: int32(size)}
	en.hash, en.pk, _ = memo.partitionKey(pv)
	if e.key.hasSort() {
		en.sk, _ = encodeKey(item[e.key.Sort.Name])
	}
}

// entryFor builds an index's entry for a stored table entry te, whose item is item
// (Engine.itemOf te); nil when the item lacks one of the index's key attributes or
// has it with another type or empty (a sparse index, GSI.html "Sparse indexes"; an
// index key violation left by a backfill, Rebuild).
func (ix *index) entryFor(te *entry, item model.Item) *entry {
	en := new(entry)
	if !ix.fillEntry(en, te, item, nil) {
		return nil
	}
	return en
}

// fillEntry makes en the index's entry for the table entry te, whose item is item
// (te.item, or for an item held as design text the map it was read into); false (en
// is then not to be used) when the index holds no entry for it: model's rule
// (Table.InIndex), checked here attribute by attribute as the key is encoded, with
// the same IndexableKeyValue (TestEntriesFollowInIndex holds the two together).
// memo may be nil.
func (ix *index) fillEntry(en *entry, te *entry, item model.Item, memo *hashMemo) bool {
	if ix.key.multi() {
		return ix.fillMultiEntry(en, te, item, memo)
	}
	pv, ok := item[ix.key.Partition.Name]
	if !ok || !model.IndexableKeyValue(pv, ix.key.Partition.Type) {
		return false
	}
	*en = entry{base: te, item: te.item, lazy: te.lazy}
	if en.hash, en.pk, ok = memo.partitionKey(pv); !ok {
		return false
	}
	if ix.key.hasSort() {
		sv, ok := item[ix.key.Sort.Name]
		if !ok || !model.IndexableKeyValue(sv, ix.key.Sort.Type) {
			return false
		}
		if en.sk, ok = encodeKey(sv); !ok {
			return false
		}
	}
	ix.sizeEntry(en, te, item)
	return true
}

// sizeEntry sets an index entry's size: the item's for ALL, else its entry's.
func (ix *index) sizeEntry(en, te *entry, item model.Item) {
	if ix.all {
		en.size = te.size // the whole item, sized once already
	} else {
		en.size = int32(ix.entrySize(item))
	}
}

// isKey reports whether the attribute is a key of the index or of the table, which
// every projection holds (KEYS_ONLY is exactly these).
func (ix *index) isKey(name string) bool {
	return name != "" && (ix.key.has(name) || name == ix.tableKey.Partition.Name || name == ix.tableKey.Sort.Name)
}

// projects reports whether the index holds the attribute.
func (ix *index) projects(name string) bool {
	return ix.all || ix.projected[name] || ix.isKey(name)
}

// entrySize is the index entry's size: table keys, index keys and projected
// attributes, each once (DYNAMODB.md "Storage"; GSI.html).
func (ix *index) entrySize(item model.Item) int {
	if ix.all {
		return model.ItemSize(item)
	}
	n := 0
	for _, name := range ix.viewAttrs {
		if v, ok := item[name]; ok {
			n += model.AttributeSize(name, v)
		}
	}
	return n
}

// view is the index entry as DynamoDB holds it: the projected attributes only. For an
// ALL index it is the stored item itself (no copy).
func (ix *index) view(item model.Item) model.Item {
	if ix.all {
		return item
	}
	out := make(model.Item, len(ix.projected)+4)
	for name, v := range item {
		if ix.projects(name) {
			out[name] = v
		}
	}
	return out
}

// sameView reports whether two items project to the same index entry.
func (ix *index) sameView(a, b model.Item) bool {
	for name, v := range a {
		if !ix.projects(name) {
			continue
		}
		w, ok := b[name]
		if !ok || !v.Equal(w) {
			return false
		}
	}
	for name := range b {
		if !ix.projects(name) {
			continue
		}
		if _, ok := a[name]; !ok {
			return false
		}
	}
	return true
}

// store writes a checked item of the given size (from checkItem) into the table
// and its indexes, replacing any item with its key, and returns the entry it
// replaced (nil when none) with the index write units it cost when price is set
// (loading a design does not price its writes, and skips that work).
func (e *Engine) store(item model.Item, size int, price bool) (old *entry, idx indexUnits) {
	te := new(entry)
	e.fillTableEntry(te, item, item, size, nil)
	old, _ = e.tree.ReplaceOrInsert(te)
	if e.onStore != nil {
		e.onStore(item)
	}
	return old, e.reindex(old, te, price)
}

// remove deletes the item with the key of probe and returns it (nil when none) with
// the index write units it cost.
func (e *Engine) remove(probe *entry) (old *entry, idx indexUnits) {
	old, ok := e.tree.Delete(probe)
	if !ok {
		return nil, indexUnits{}
	}
	return old, e.reindex(old, nil, true)
}

// indexUnits are the write units a table write cost on each index, and of those,
// the units of the delete on the old partition key value where the write moved an
// entry to another one (Change.IndexesMoved).
type indexUnits struct {
	units, moved map[string]float64
}

// reindex moves each index from the old table entry to the new one (either may be
// nil) and, when price is set, prices each index write by the index write table
// (indexWriteUnits).
func (e *Engine) reindex(old, cur *entry, price bool) indexUnits {
	if len(e.indexes) == 0 {
		return indexUnits{}
	}
	var iu indexUnits
	if price {
		iu.units = make(map[string]float64, len(e.indexes))
	}
	var oldItem model.Item
	if old != nil {
		oldItem = e.itemOf(old)
	}
	for _, ix := range e.indexes {
		var o, n *entry
		if old != nil {
			o = ix.entryFor(old, oldItem)
		}
		if cur != nil {
			n = ix.entryFor(cur, cur.item)
		}
		w := indexWrite{Before: o != nil, After: n != nil}
		if o != nil {
			w.BeforeSize = int(o.size)
			ix.tree.Delete(o)
		}
		if n != nil {
			w.AfterSize = int(n.size)
			ix.tree.ReplaceOrInsert(n)
		}
		if !price {
			continue
		}
		if o != nil && n != nil {
			w.SameKey = o.pk == n.pk && o.sk == n.sk
			w.SameView = ix.sameView(oldItem, n.item)
		}
		iu.units[ix.def.Name] = indexWriteUnits(w)
		if o != nil && n != nil && o.pk != n.pk {
			// A delete on the old key and a put on the new (GSI.html): the old half
			// loads the old partition key value.
			if iu.moved == nil {
				iu.moved = map[string]float64{}
			}
			iu.moved[ix.def.Name] = writeUnits(w.BeforeSize)
		}
	}
	return iu
}
