package render

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"stwb/model"
)

// Grid is the aggregate view of a design's items, as NoSQL Workbench shows it: rows
// grouped by partition key, each item collection in sort key order. For an index
// view only the items that carry all of the index's key attributes are rows (a sparse
// index holds no others), in the index's key order, ties broken on the table key as
// DYNAMODB.md "Query semantics" asks; and each row shows only the projected
// attributes (GSI.html, LSI.html "Projected attributes").
//
// Building sorts every item once; Render then draws only the visible rows, so a
// million-item grid costs no more to draw than a ten-item one.
type Grid struct {
	View   string // "" for the table, else the index name
	PK, SK string // the view's key attributes (SK "" when none); a multi-attribute key's first
	// pks and sks are every key attribute of the view, in key order: one each but
	// for a GSI with a multi-attribute key (GSI.DesignPattern.MultiAttributeKeys.html),
	// whose rows group by the tuple of partition values and order by the sort
	// attributes in turn, each by its type.
	pks, sks []string
	TablePK  string
	TableSK  string
	Columns  []string // attribute columns after the keys and the type, in first-seen order
	Rows     []GridRow
	proj     model.Projection
	typeAttr string
	entity   map[string]int
}

// GridRow is one row: which design item it shows and where its collection starts.
type GridRow struct {
	Item   int32 // index into Design.Items
	First  bool  // the first row of its item collection (the PK cell is drawn here)
	Entity int16 // index into Design.Entities; -1 when untyped
}

// Views lists what the grid can show: "" (the table), then each index by name.
func Views(d *model.Design) []string {
	vs := []string{""}
	for _, ix := range d.Table.Indexes {
		vs = append(vs, ix.Name)
	}
	return vs
}

// Only is the grid with the rows of one entity alone (a facet, as NoSQL Workbench
// shows one facet's items), -1 for the untyped; the order is kept and each
// collection's first row is its first row among those kept.
func (g *Grid) Only(d *model.Design, entity int) *Grid {
	c := *g
	c.Rows = nil
	for _, r := range g.Rows {
		if int(r.Entity) != entity {
			continue
		}
		if n := len(c.Rows); n > 0 {
			r.First = compareTuple(d.Items[c.Rows[n-1].Item], d.Items[r.Item], g.pks) != 0
		} else {
			r.First = true
		}
		c.Rows = append(c.Rows, r)
	}
	return &c
}

// BuildGrid lays out the items for the view ("" or an index name).
func BuildGrid(d *model.Design, view string) (*Grid, error) {
	g := &Grid{View: view, TablePK: d.Table.Key.Partition, TableSK: d.Table.Key.Sort,
		typeAttr: d.TypeAttr(), entity: make(map[string]int, len(d.Entities)),
		proj: model.Projection{Type: model.ProjectAll}}
	for i, e := range d.Entities {
		g.entity[e.Name] = i
	}
	g.PK, g.SK = g.TablePK, g.TableSK
	if view != "" {
		ix, ok := d.Table.IndexByName(view)
		if !ok {
			return nil, fmt.Errorf("no index named %q: the table has %s", view, strings.Join(Views(d)[1:], ", "))
		}
		k := d.Table.IndexKey(&ix)
		g.PK, g.SK, g.proj = k.Partition, k.Sort, ix.Projection
		g.pks, g.sks = k.Partitions(), k.Sorts()
	} else {
		g.pks, g.sks = []string{g.PK}, d.Table.Key.Sorts()
	}

	type sortKey struct {
		it      model.Item
		idx     int32
		missing bool
	}
	keyAttrs := append(slices.Clone(g.pks), g.sks...)
	keys := make([]sortKey, 0, len(d.Items))
	for i, it := range d.Items {
		missing := slices.ContainsFunc(keyAttrs, func(a string) bool { _, ok := it[a]; return !ok })
		if view != "" && missing {
			continue // not in the sparse index
		}
		keys = append(keys, sortKey{it: it, idx: int32(i), missing: missing})
	}
	tableKey := []string{g.TablePK}
	if g.TableSK != "" {
		tableKey = append(tableKey, g.TableSK)
	}
	slices.SortStableFunc(keys, func(a, b sortKey) int {
		if a.missing != b.missing { // items without a key go last, in file order
			if a.missing {
				return 1
			}
			return -1
		}
		if c := compareTuple(a.it, b.it, keyAttrs); c != 0 || view == "" {
			return c
		}
		return compareTuple(a.it, b.it, tableKey)
	})

	g.Rows = make([]GridRow, len(keys))
	seen := map[string]bool{g.TablePK: true, g.TableSK: true, g.typeAttr: true, "": true}
	for _, a := range keyAttrs {
		seen[a] = true
	}
	for r, k := range keys {
		it := d.Items[k.idx]
		row := GridRow{Item: k.idx, Entity: -1,
			First: r == 0 || compareTuple(keys[r-1].it, it, g.pks) != 0 || keys[r-1].missing != k.missing}
		if t, ok := it[g.typeAttr]; ok && t.Type == model.TypeS {
			if e, ok := g.entity[t.Str]; ok {
				row.Entity = int16(e)
			}
		}
		g.Rows[r] = row
		if g.proj.Type == model.ProjectAll {
			for name := range it {
				if !seen[name] {
					seen[name] = true
					g.Columns = append(g.Columns, name)
				}
			}
		}
	}
	if g.proj.Type == model.ProjectAll {
		// Map order is random; sort each run of newly seen names would still vary, so
		// the columns are sorted once: stable output for goldens and for the eye.
		slices.Sort(g.Columns)
	}
	if view != "" && g.proj.Type == model.ProjectInclude {
		for _, n := range g.proj.Include {
			if !seen[n] {
				seen[n] = true
				g.Columns = append(g.Columns, n)
			}
		}
	}
	// An index view also shows the table's key, which every index entry carries.
	if view != "" {
		var extra []string
		for _, n := range []string{g.TablePK, g.TableSK} {
			if n != "" && n != g.PK && n != g.SK {
				extra = append(extra, n)
			}
		}
		g.Columns = append(extra, g.Columns...)
	}
	return g, nil
}

// Project is the item as the view holds it: for an index, the table and index keys
// plus the projected attributes; for the table, the item itself.
func (g *Grid) Project(it model.Item) model.Item {
	if g.View == "" || g.proj.Type == model.ProjectAll {
		return it
	}
	out := model.Item{}
	for _, n := range append(append([]string{g.TablePK, g.TableSK}, g.pks...), g.sks...) {
		if v, ok := it[n]; ok && n != "" {
			out[n] = v
		}
	}
	if g.proj.Type == model.ProjectInclude {
		for _, n := range g.proj.Include {
			if v, ok := it[n]; ok {
				out[n] = v
			}
		}
	}
	return out
}

// RowOf finds the row showing design item idx by walking the rows; -1 when the item
// is not in this view. It is linear, for rare jumps (a finding, a new item).
func (g *Grid) RowOf(idx int) int {
	for r, row := range g.Rows {
		if int(row.Item) == idx {
			return r
		}
	}
	return -1
}

// FindKey finds the row of the table item with this table key by binary search (the
// table view is in key order); -1 when there is none or the grid is an index view.
func (g *Grid) FindKey(d *model.Design, key model.Item) int {
	if g.View != "" {
		return -1
	}
	pk, ok := key[g.PK]
	if !ok {
		return -1
	}
	sk := key[g.SK]
	lo, hi := 0, len(g.Rows)
	for lo < hi {
		m := (lo + hi) / 2
		it := d.Items[g.Rows[m].Item]
		mpk, ok := it[g.PK]
		c := 1 // rows without a key sort last
		if ok {
			c = model.CompareScalar(mpk, pk)
			if c == 0 {
				c = model.CompareScalar(it[g.SK], sk)
			}
		}
		if c < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(g.Rows) {
		it := d.Items[g.Rows[lo].Item]
		if v, ok := it[g.PK]; ok && v.Equal(pk) && (g.SK == "" || it[g.SK].Equal(sk)) {
			return lo
		}
	}
	return -1
}

// GridOptions say which window of the grid to draw and how.
type GridOptions struct {
	Width, Height int // cells; Height counts the header line
	Top           int // first visible row
	Left          int // first visible attribute column (horizontal scroll)
	Cursor        int // the selected row; -1 for none
	// Highlight reports whether a design item is one the selected pattern returns.
	Highlight func(item int) bool
	Styles    Styles
	// Wide names an attribute column drawn as wide as its values need (up to the
	// width left), past the usual cap; "" for none.
	Wide string
	// Current names the attribute column under the column cursor, whose title is
	// drawn selected; "" for none.
	Current string
}

// Column width caps: wide enough for typical keys, narrow enough that a few
// attributes still fit at 80 columns.
const (
	maxKeyWidth  = 26
	maxTypeWidth = 14
	maxAttrWidth = 20
	minAttrWidth = 6
	sizeWidth    = 6
	gutterWidth  = 3 // the cursor mark, then the partition's bracket
)

// VisibleRows is how many item rows fit under the header at height h.
func VisibleRows(h int) int {
	if h < 2 {
		return 0
	}
	return h - 1
}

// Render draws the header and the visible rows; every line is exactly Width cells.
// Cost is proportional to the visible rows only.
func (g *Grid) Render(d *model.Design, o GridOptions) string {
	if o.Width <= 0 || o.Height <= 0 {
		return ""
	}
	lay := g.layout(d, o)
	top, end, left, cols, moreRight := lay.top, lay.end, lay.left, lay.cols, lay.moreRight
	pkName, skName, pkW, skW, tyW := lay.pkName, lay.skName, lay.pkW, lay.skW, lay.tyW
	st := o.Styles

	var b strings.Builder
	// Header.
	var h strings.Builder
	h.WriteString(Fit("", gutterWidth))
	h.WriteString(Fit(pkName, pkW) + "  ")
	if skW > 0 {
		h.WriteString(Fit(skName, skW) + "  ")
	}
	h.WriteString(Fit(g.typeAttr, tyW) + "  ")
	if left > 0 {
		h.WriteString("◀ ")
	}
	for _, c := range cols {
		title := Fit(c.name, c.w)
		if c.name == o.Current {
			title = st.Selected.Render(title)
		}
		h.WriteString(title + "  ")
	}
	if moreRight {
		h.WriteString("▶")
	}
	head := Fit(h.String(), o.Width-sizeWidth) + fmt.Sprintf("%*s", sizeWidth, "bytes")
	b.WriteString(Over(st.Header, head))

	for r := top; r < end; r++ {
		row := g.Rows[r]
		it := d.Items[row.Item]
		view := g.Project(it)
		var l strings.Builder
		mark := "  "
		hl := o.Highlight != nil && o.Highlight(int(row.Item))
		switch {
		case r == o.Cursor && hl:
			mark = ">*"
		case r == o.Cursor:
			mark = "> "
		case hl:
			mark = " *"
		}
		l.WriteString(mark)
		// Each partition (item collection) is a visible group: a bracket down its rows,
		// as NoSQL Workbench's aggregate view boxes them.
		last := r+1 == len(g.Rows) || g.Rows[r+1].First
		switch {
		case row.First && last:
			l.WriteString(st.Rule.Render("["))
		case row.First:
			l.WriteString(st.Rule.Render("┌"))
		case last:
			l.WriteString(st.Rule.Render("└"))
		default:
			l.WriteString(st.Rule.Render("│"))
		}
		pk := ""
		switch {
		case row.First:
			pk = keyCell(it, g.pks)
		case r == top: // a collection that starts above the window: say whose rows these are
			pk = "↑ " + keyCell(it, g.pks)
		}
		l.WriteString(st.Key.Render(Fit(pk, pkW)) + "  ")
		if skW > 0 {
			l.WriteString(Fit(keyCell(it, g.sks), skW) + "  ")
		}
		l.WriteString(st.Entity(int(row.Entity)).Render(Fit(cell(it, g.typeAttr), tyW)) + "  ")
		if left > 0 {
			l.WriteString("  ")
		}
		for _, c := range cols {
			l.WriteString(Fit(cell(view, c.name), c.w) + "  ")
		}
		line := Fit(l.String(), o.Width-sizeWidth) + fmt.Sprintf("%*s", sizeWidth, strconv.Itoa(model.ItemSize(view)))
		switch {
		case r == o.Cursor:
			line = Over(st.Selected, line)
		case hl:
			line = Over(st.Highlight, line)
		}
		b.WriteByte('\n')
		b.WriteString(line)
	}
	if len(g.Rows) == 0 {
		b.WriteByte('\n')
		msg := "no items: press a to add one"
		if g.View != "" {
			msg = "no item carries all of " + g.View + "'s key attributes, so the index is empty (sparse)"
		}
		b.WriteString(st.Dim.Render(Fit("  "+msg, o.Width)))
	}
	return b.String()
}

// gridCol is an attribute column on screen and its width.
type gridCol struct {
	name string
	w    int
}

// gridLayout is where Render draws: the rows shown, the key columns' titles and
// widths, and the attribute columns that fit from the first one scrolled to.
type gridLayout struct {
	top, end, left int
	pkName, skName string
	pkW, skW, tyW  int
	cols           []gridCol
	moreRight      bool
}

func (g *Grid) layout(d *model.Design, o GridOptions) gridLayout {
	n := VisibleRows(o.Height)
	top := max(0, min(o.Top, len(g.Rows)-n))
	end := min(len(g.Rows), top+n)

	// Widths come from the visible rows, so a long value far away never widens
	// what is on screen.
	pkName, skName := keyHeader(g.pks), keyHeader(g.sks)
	pkW, skW, tyW := Width(pkName), Width(skName), Width(g.typeAttr)
	for r := top; r < end; r++ {
		it := d.Items[g.Rows[r].Item]
		pkW = max(pkW, Width(keyCell(it, g.pks)))
		skW = max(skW, Width(keyCell(it, g.sks)))
		tyW = max(tyW, Width(cell(it, g.typeAttr)))
	}
	pkW, skW, tyW = min(pkW, maxKeyWidth), min(skW, maxKeyWidth), min(tyW, maxTypeWidth)
	if g.SK == "" {
		skW = 0
	}
	fixed := gutterWidth + pkW + 2 + tyW + 2 + sizeWidth
	if skW > 0 {
		fixed += skW + 2
	}
	// Squeeze the keys on narrow screens rather than lose the size column.
	for fixed > o.Width && (pkW > 6 || skW > 6) {
		if pkW >= skW && pkW > 6 {
			pkW--
		} else if skW > 6 {
			skW--
		}
		fixed--
	}

	left := max(0, min(o.Left, len(g.Columns)-1))
	avail := o.Width - fixed
	if left > 0 {
		avail -= 2 // the "◀ " that says columns are scrolled off to the left
	}
	var cols []gridCol
	// A column narrower than minAttrWidth shows nothing useful: stop and let the
	// user scroll right instead.
	for c := left; c < len(g.Columns) && avail >= minAttrWidth+2; c++ {
		name := g.Columns[c]
		w := Width(name)
		for r := top; r < end; r++ {
			w = max(w, Width(cell(g.Project(d.Items[g.Rows[r].Item]), name)))
		}
		if name != o.Wide {
			w = min(w, maxAttrWidth)
		}
		w = min(w, avail-2)
		cols = append(cols, gridCol{name, w})
		avail -= w + 2
	}
	moreRight := left+len(cols) < len(g.Columns)
	return gridLayout{top: top, end: end, left: left, pkName: pkName, skName: skName,
		pkW: pkW, skW: skW, tyW: tyW, cols: cols, moreRight: moreRight}
}

// Shown is the attribute columns o draws: from the first, to the first it does not
// draw (len(g.Columns) when the last one shows).
func (g *Grid) Shown(d *model.Design, o GridOptions) (from, to int) {
	lay := g.layout(d, o)
	return lay.left, lay.left + len(lay.cols)
}

// FitLeft is o.Left brought back while the columns scrolled off to the left fit
// beside the rest: after the window grows (issue 25, item 12), columns scrolled off
// come back as soon as every column from them to the last one fits.
func (g *Grid) FitLeft(d *model.Design, o GridOptions) int {
	left := max(0, min(o.Left, len(g.Columns)-1))
	for left > 0 {
		o.Left = left - 1
		if g.layout(d, o).moreRight {
			break
		}
		left--
	}
	return left
}

// compareTuple orders two items by the values of attrs in turn, each compared by
// its type (model.CompareScalar): how an index with a multi-attribute key orders.
func compareTuple(a, b model.Item, attrs []string) int {
	for _, n := range attrs {
		if c := model.CompareScalar(a[n], b[n]); c != 0 {
			return c
		}
	}
	return 0
}

// keyHeader is a key side's column title: its attribute, or a multi-attribute
// side's attributes in order.
func keyHeader(names []string) string { return strings.Join(names, " · ") }

// keyCell is a key side's cell: its value, or a multi-attribute side's values in
// key order (the tuple the index groups or orders by).
func keyCell(it model.Item, names []string) string {
	if len(names) == 1 {
		return cell(it, names[0])
	}
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = cell(it, n)
	}
	return strings.Join(parts, " · ")
}

func cell(it model.Item, name string) string {
	if name == "" {
		return ""
	}
	v, ok := it[name]
	if !ok {
		return ""
	}
	return FormatValue(v)
}
