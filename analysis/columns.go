package analysis

import (
	"math"
	"sync"
	"sync/atomic"

	"stwb/designfile"
	"stwb/model"
)

// itemColumns holds the summaries of a lazy load's items (summarizer) as columns,
// one per attribute a summary may keep, each column a slice over the items: no map
// per item. A map per item (100,000 small maps of about 640 bytes) was most of
// what stwb check allocated and what the garbage collector marked on every cycle
// beyond what stwb query does. It is the model.ItemList cost and review read: an
// attribute of an item by name, or the item's summary as a map, made on demand (a
// rule that needs an item whole reads a few of them).
//
// A value's text is kept as where it is in the design file (span): eight bytes
// and no pointer, rather than a string's sixteen bytes and a pointer that the
// garbage collector scans on every cycle and that the program pays a write
// barrier to store while it runs.
type itemColumns struct {
	n     int
	file  *designfile.LazyItems // the texts' file; nil: every text is copied
	index map[string]int        // attribute -> its column
	names []string              // column -> its attribute
	// cols[k] is column k, made when a first item keeps that attribute.
	cols []atomic.Pointer[column]
	mu   sync.Mutex // makes a column and its copies; guards other
	// other holds the values a column has no room for (a boolean, a null, a
	// list, a map, a set), by column and item: rare, as keys and the attributes
	// cost reads are strings and numbers.
	other map[[2]int]model.Value

	// entities are the design's entity names; typeCol is the type attribute's
	// column (-1: none). types[i] is what item i's type names (setType): 0 no string, -1 a
	// string naming no entity, k+1 entities[k]. ByType groups the items by it
	// once, on first use (byType).
	entities []string
	typeCol  int
	types    []int32
	byType   map[string][]int
}

// column is one attribute of every item: its type (0: the item has none) and its
// text, the design file's, not a copy.
type column struct {
	types []model.Type
	texts []span
	// copies holds, item by item, the texts that are not part of the file (a
	// key the loader built from its template, a string with escapes, a binary
	// value); made when a first one is put.
	copies atomic.Pointer[[]string]
}

// span is a value's text: n bytes of the design file from off (LazyItems.Offset;
// a file that loads lazily is under 2 GB), or, n == copied, the text in the
// column's copies.
type span struct{ off, n uint32 }

const copied = math.MaxUint32

// inOther reports whether a value of type t is kept in itemColumns.other.
func inOther(t model.Type) bool { return t >= model.TypeBOOL }

// newItemColumns makes room for n items' summaries, in columns of the given
// attributes (sorted); d's type attribute is one of them.
func newItemColumns(d *model.Design, file *designfile.LazyItems, names []string, n int) *itemColumns {
	c := &itemColumns{n: n, file: file, index: make(map[string]int, len(names)), names: names,
		cols: make([]atomic.Pointer[column], len(names)), other: map[[2]int]model.Value{},
		types: make([]int32, n)}
	for k, name := range names {
		c.index[name] = k
	}
	c.typeCol = -1
	if k, ok := c.index[d.TypeAttr()]; ok {
		c.typeCol = k
	}
	for _, e := range d.Entities {
		c.entities = append(c.entities, e.Name)
	}
	return c
}

// setType records what item i's type names, once its type is put: entity k of
// the design (k = entity), else a string naming none, or no string.
func (c *itemColumns) setType(i, entity int) {
	if entity >= 0 {
		c.types[i] = int32(entity + 1)
	} else if c.typeCol < 0 {
		return
	} else if col := c.cols[c.typeCol].Load(); col != nil && col.types[i] == model.TypeS {
		c.types[i] = -1
	}
}

// ByType groups the items by their type's text (model.TypedList), from what
// setType recorded: the entities' items by counting, in one array; an item whose
// type names no entity (rare) by the text in its type column.
func (c *itemColumns) ByType() map[string][]int {
	if c.byType != nil {
		return c.byType
	}
	count := make([]int, len(c.entities)+1)
	for _, t := range c.types {
		if t > 0 {
			count[t]++
		}
	}
	all := make([]int, 0, c.n)
	groups := make([][]int, len(count))
	for t, n := range count {
		groups[t] = all[len(all) : len(all) : len(all)+n]
		all = all[:len(all)+n]
	}
	c.byType = map[string][]int{}
	for i, t := range c.types {
		switch {
		case t > 0:
			groups[t] = append(groups[t], i)
		case t < 0:
			v, _ := c.at(c.typeCol, i)
			c.byType[v.Str] = append(c.byType[v.Str], i)
		}
	}
	for k, name := range c.entities {
		if g := groups[k+1]; len(g) > 0 {
			c.byType[name] = g
		}
	}
	return c.byType
}

// column is column k, made empty on first use. Items are put from several
// goroutines at once, each its own items.
func (c *itemColumns) column(k int) *column {
	if col := c.cols[k].Load(); col != nil {
		return col
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if col := c.cols[k].Load(); col != nil {
		return col
	}
	col := &column{types: make([]model.Type, c.n), texts: make([]span, c.n)}
	c.cols[k].Store(col)
	return col
}

// put keeps attribute name (one of the columns' names: the summarizer puts no
// other) of item i.
func (c *itemColumns) put(i int, name string, v model.Value) { c.putAt(i, c.index[name], v) }

// putAt keeps item i's value of column k's attribute.
func (c *itemColumns) putAt(i, k int, v model.Value) {
	col := c.column(k)
	switch {
	case inOther(v.Type):
		c.mu.Lock()
		c.other[[2]int{k, i}] = v
		c.mu.Unlock()
	case v.Str == "":
		col.texts[i] = span{}
	default:
		if off, ok := c.offset(v.Str); ok {
			col.texts[i] = span{uint32(off), uint32(len(v.Str))}
			break
		}
		(*c.copiesOf(col))[i] = v.Str
		col.texts[i] = span{n: copied}
	}
	col.types[i] = v.Type
}

// offset is where s is in the file, ok false when it is not part of it.
func (c *itemColumns) offset(s string) (int, bool) {
	if c.file == nil {
		return 0, false
	}
	return c.file.Offset(s)
}

// copiesOf is col's copies, made empty on first use (items are put from several
// goroutines at once, each its own items).
func (c *itemColumns) copiesOf(col *column) *[]string {
	if cp := col.copies.Load(); cp != nil {
		return cp
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if cp := col.copies.Load(); cp != nil {
		return cp
	}
	cp := make([]string, c.n)
	col.copies.Store(&cp)
	return &cp
}

// text is col's text for item i, kept as sp.
func (c *itemColumns) text(col *column, i int, sp span) string {
	switch sp.n {
	case 0:
		return ""
	case copied:
		return (*col.copies.Load())[i]
	}
	return c.file.Text(int(sp.off), int(sp.n))
}

// hasAt reports whether item i keeps column k's attribute. Unlike Attr, it may be
// asked while items are being put.
func (c *itemColumns) hasAt(i, k int) bool {
	col := c.cols[k].Load()
	return col != nil && col.types[i] != 0
}

func (c *itemColumns) Len() int { return c.n }

func (c *itemColumns) Attr(i int, name string) (model.Value, bool) {
	k, ok := c.index[name]
	if !ok {
		return model.Value{}, false
	}
	return c.at(k, i)
}

// at is column k's value for item i.
func (c *itemColumns) at(k, i int) (model.Value, bool) {
	col := c.cols[k].Load()
	if col == nil || col.types[i] == 0 {
		return model.Value{}, false
	}
	if t := col.types[i]; inOther(t) {
		// The summarizer reads an item's keys back while other items are put.
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.other[[2]int{k, i}], true
	}
	return model.Value{Type: col.types[i], Str: c.text(col, i, col.texts[i])}, true
}

// Column is one attribute of every item (model.ColumnarList), its column found
// once; asked once the items are all in.
func (c *itemColumns) Column(name string) model.Column {
	k, ok := c.index[name]
	if !ok {
		return func(int) (model.Value, bool) { return model.Value{}, false }
	}
	col := c.cols[k].Load()
	if col == nil { // no item keeps it
		return func(int) (model.Value, bool) { return model.Value{}, false }
	}
	return func(i int) (model.Value, bool) {
		switch t := col.types[i]; {
		case t == 0:
			return model.Value{}, false
		case inOther(t):
			return c.other[[2]int{k, i}], true
		default:
			return model.Value{Type: t, Str: c.text(col, i, col.texts[i])}, true
		}
	}
}

// Item is item i's summary as a map.
func (c *itemColumns) Item(i int) model.Item {
	it := model.Item{}
	for k, name := range c.names {
		if v, ok := c.at(k, i); ok {
			it[name] = v
		}
	}
	return it
}
