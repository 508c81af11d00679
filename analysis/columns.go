package analysis

import (
	"sync"
	"sync/atomic"

	"stwb/model"
)

// itemColumns holds the summaries of a lazy load's items (summarizer) as columns,
// one per attribute a summary may keep, each column a slice over the items: no map
// per item. A map per item (100,000 small maps of about 640 bytes) was most of
// what stwb check allocated and what the garbage collector marked on every cycle
// beyond what stwb query does. It is the model.ItemList cost and review read: an
// attribute of an item by name, or the item's summary as a map, made on demand (a
// rule that needs an item whole reads a few of them).
type itemColumns struct {
	n     int
	index map[string]int // attribute -> its column
	names []string       // column -> its attribute
	// cols[k] is column k, made when a first item keeps that attribute (a
	// template variable is kept only when the keys do not give it back).
	cols []atomic.Pointer[[]cell]
	mu   sync.Mutex // makes a column; guards other
	// other holds the values a cell has no room for (a list, a map, a set), by
	// column and item: rare, as keys and the attributes cost reads are scalars.
	other map[[2]int]model.Value
}

// cell is one attribute of one item: its type (0: the item has none), and its
// text or boolean. The text is the design file's, not a copy.
type cell struct {
	t model.Type
	b bool
	s string
}

func newItemColumns(names []string, n int) *itemColumns {
	c := &itemColumns{n: n, index: make(map[string]int, len(names)), names: names,
		cols: make([]atomic.Pointer[[]cell], len(names)), other: map[[2]int]model.Value{}}
	for k, name := range names {
		c.index[name] = k
	}
	return c
}

// column is column k, made empty on first use. Items are put from several
// goroutines at once, each its own items.
func (c *itemColumns) column(k int) []cell {
	if col := c.cols[k].Load(); col != nil {
		return *col
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if col := c.cols[k].Load(); col != nil {
		return *col
	}
	col := make([]cell, c.n)
	c.cols[k].Store(&col)
	return col
}

// put keeps attribute name (one of the columns' names: the summarizer puts no
// other) of item i.
func (c *itemColumns) put(i int, name string, v model.Value) {
	k := c.index[name]
	c.column(k)[i] = cell{t: v.Type, b: v.Bool, s: v.Str}
	if v.List != nil || v.Map != nil {
		c.mu.Lock()
		c.other[[2]int{k, i}] = v
		c.mu.Unlock()
	}
}

// has reports whether item i keeps attribute name. Unlike Attr, it may be asked
// while items are being put.
func (c *itemColumns) has(i int, name string) bool {
	k, ok := c.index[name]
	if !ok {
		return false
	}
	col := c.cols[k].Load()
	return col != nil && (*col)[i].t != 0
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
	if col == nil || (*col)[i].t == 0 {
		return model.Value{}, false
	}
	x := (*col)[i]
	if x.t >= model.TypeL { // a list, a map or a set
		if v, ok := c.other[[2]int{k, i}]; ok {
			return v, true
		}
	}
	return model.Value{Type: x.t, Bool: x.b, Str: x.s}, true
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
