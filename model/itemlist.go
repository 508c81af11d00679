package model

// ItemList is a list of items as cost and review read them: an attribute of item i
// by name, or item i whole as a map. ItemMaps is the list of a design's item maps;
// analysis keeps a lazily read design's items as the few attributes cost and review
// read of each, without a map per item, and makes the map only when asked (Item).
type ItemList interface {
	Len() int
	// Attr is item i's attribute name, ok false when it has none.
	Attr(i int, name string) (v Value, ok bool)
	// Item is item i as a map; it may be made for the call, so a caller that only
	// reads a few attributes of many items asks Attr.
	Item(i int) Item
}

// Column is one attribute of a list's items, item by item: what Attr(i, name)
// gives for a name chosen once (ColumnOf).
type Column func(i int) (v Value, ok bool)

// ColumnarList is an ItemList that keeps each attribute of its items together
// (analysis's item columns): it gives one attribute of every item without finding
// the attribute by its name again for each item.
type ColumnarList interface {
	ItemList
	// Column is attribute name of the items, read once the items are all in.
	Column(name string) Column
}

// ColumnOf is attribute name of l's items: l's own column when it keeps them so
// (ColumnarList), else l.Attr by name. A pass over many items that reads a few
// attributes of each asks for their columns first.
func ColumnOf(l ItemList, name string) Column {
	if c, ok := l.(ColumnarList); ok {
		return c.Column(name)
	}
	return func(i int) (Value, bool) { return l.Attr(i, name) }
}

// TypedList is an ItemList that knows its items' types already: analysis reads
// each item's type once, while the design file is read, so that cost (a key
// space's samples) and review (each entity's items) need not read it again for
// every item (and bring every item's text back into the cache) to group them.
type TypedList interface {
	ItemList
	// ByType groups the items whose type attribute (Design.TypeAttr) is a
	// string by its text, each group in item order. The groups are shared by
	// every caller: none may change them.
	ByType() map[string][]int
}

// ItemMaps is an ItemList of item maps (a design's Items).
type ItemMaps []Item

func (l ItemMaps) Len() int { return len(l) }

func (l ItemMaps) Attr(i int, name string) (Value, bool) {
	v, ok := l[i][name]
	return v, ok
}

func (l ItemMaps) Item(i int) Item { return l[i] }

func (l ItemMaps) Column(name string) Column {
	return func(i int) (Value, bool) {
		v, ok := l[i][name]
		return v, ok
	}
}

// StoredList is StoredItems for an ItemList: the items of l DynamoDB would store
// (l itself when none is left out), their sizes, and the indexes of those left out.
func StoredList(l ItemList, sizes []int) (stored ItemList, storedSizes []int, leftOut []int) {
	kept, leftOut := storedIndexes(sizes)
	if leftOut == nil {
		return l, sizes, nil
	}
	storedSizes = make([]int, len(kept))
	for k, i := range kept {
		storedSizes[k] = sizes[i]
	}
	return subList{l, kept}, storedSizes, leftOut
}

// subList is the items of an ItemList at the given indexes, in that order.
type subList struct {
	ItemList
	at []int
}

func (s subList) Len() int { return len(s.at) }

func (s subList) Attr(i int, name string) (Value, bool) { return s.ItemList.Attr(s.at[i], name) }

func (s subList) Item(i int) Item { return s.ItemList.Item(s.at[i]) }

func (s subList) Column(name string) Column {
	col := ColumnOf(s.ItemList, name)
	return func(i int) (Value, bool) { return col(s.at[i]) }
}
