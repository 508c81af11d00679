package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"stwb/model"
	"stwb/render"
)

// itemsPane is the aggregate view: the items grouped by partition, in the table's or
// an index's key order, the selected pattern's items highlighted.
type itemsPane struct {
	w        *world
	km       KeyMap
	wid, hgt int
	view     string // "" table, else index name
	l        list   // the cursor over the current grid's rows
	left     int    // the first attribute column shown
	col      int    // the column cursor: the attribute column → and ← move to, + widens
	want     int    // design item to select once the grid is rebuilt; -1 none
	inspect  bool   // the inspector shows the item under the cursor whole
	itop     int    // the inspector's first line shown
	facet    int    // the entity shown alone (f cycles), facetAll for every item
	wide     string // the attribute column drawn at full width (+), "" none

	// The faceted grid, for the grid it was made from.
	facetOf  *render.Grid
	facetFor int
	faceted  *render.Grid

	cache    string
	cacheKey [9]uint64
}

func newItemsPane(w *world) *itemsPane {
	return &itemsPane{w: w, km: w.km, want: -1, facet: facetAll}
}

// facetAll shows every item; -1 is the untyped items, 0.. an entity's.
const facetAll = -2

// grid is the current grid of the view, with the facet applied; nil while it is
// built.
func (p *itemsPane) grid() *render.Grid {
	return p.withFacet(p.w.grid(p.view), p.w.doc.D)
}

// shownGrid is the world's shownGrid with the facet applied.
func (p *itemsPane) shownGrid() (*render.Grid, *model.Design, bool) {
	g, d, stale := p.w.shownGrid(p.view)
	return p.withFacet(g, d), d, stale
}

// withFacet reads the faceted grid refresh keeps, or makes it when that is stale.
func (p *itemsPane) withFacet(g *render.Grid, d *model.Design) *render.Grid {
	if g == nil || p.facet == facetAll {
		return g
	}
	if p.facetOf != g || p.facetFor != p.facet {
		return g.Only(d, p.facet)
	}
	return p.faceted
}

// refresh brings what View reads up to date (the faceted grid, the drawn frame)
// after a message or a resize, so that View only reads: it changes nothing.
func (p *itemsPane) refresh() {
	g, d, stale := p.w.shownGrid(p.view)
	if g == nil {
		return
	}
	if p.facet != facetAll && (p.facetOf != g || p.facetFor != p.facet) {
		p.facetOf, p.facetFor, p.faceted = g, p.facet, g.Only(d, p.facet)
	}
	if i := p.selected(); p.inspect && i >= 0 {
		return // the inspector is drawn whole each time; the grid waits
	}
	if k := p.frameKey(stale); k != p.cacheKey || p.cache == "" {
		p.cache, p.cacheKey = p.frame(), k
	}
}

// facetName says which items the facet shows.
func (p *itemsPane) facetName() string {
	d := p.w.doc.D
	switch {
	case p.facet == facetAll:
		return ""
	case p.facet >= 0 && p.facet < len(d.Entities):
		return "entity " + d.Entities[p.facet].Name + " only"
	}
	return "untyped items only"
}

// keys is the KeyMap with what needs an item under the cursor disabled when there is
// none, and the view cycle disabled when the table has no index.
func (p *itemsPane) keys() KeyMap {
	km := p.km
	has := p.selected() >= 0
	for _, b := range []*key.Binding{&km.Edit, &km.Delete, &km.Duplicate, &km.Inspect, &km.EditYAML} {
		b.SetEnabled(has)
	}
	km.CycleView.SetEnabled(len(p.w.doc.D.Table.Indexes) > 0)
	// ← and → move the column cursor (the column + widens); the grid scrolls to it.
	km.Left.SetHelp("←/h", "column left")
	km.Right.SetHelp("→/l", "column right")
	return km
}

func (p *itemsPane) Title() string { return "Items" }
func (p *itemsPane) Init() tea.Cmd { return nil }
func (p *itemsPane) SetSize(w, h int) {
	p.wid, p.hgt = w, h
	p.clamp()
	// A grown window brings back the columns scrolled off to the left once they fit
	// (issue 25, item 12).
	if g, d, _ := p.shownGrid(); g != nil {
		p.left = g.FitLeft(d, p.gridOptions())
	}
	p.followColumn()
	p.refresh()
}

// followColumn scrolls the columns as little as it takes for the column cursor to
// show: → and ← move the cursor, and the grid scrolls only when it would leave the
// screen, so it never scrolls past the last column (issue 25).
func (p *itemsPane) followColumn() {
	g, d, _ := p.shownGrid()
	if g == nil || len(g.Columns) == 0 {
		p.col = 0 // no columns (no items yet): the cursor waits on the first
		return
	}
	p.col = max(0, min(p.col, len(g.Columns)-1))
	if p.col < p.left {
		p.left = p.col
		return
	}
	for p.left < p.col {
		if _, to := g.Shown(d, p.gridOptions()); p.col < to {
			return
		}
		p.left++
	}
}

func (p *itemsPane) ShortHelp() []key.Binding {
	km := p.keys()
	if p.inspect {
		back := km.Close
		back.SetHelp("esc", "back to the grid")
		return []key.Binding{back, km.Up, km.Down, km.Edit, km.DetailDown, km.DetailUp}
	}
	return []key.Binding{km.CycleView, km.Inspect, km.Facet, km.Add, km.Edit, km.Delete, km.Duplicate, km.Right}
}

func (p *itemsPane) FullHelp() [][]key.Binding {
	km := p.keys()
	return [][]key.Binding{
		{km.Up, km.Down, km.PageUp, km.PageDown, km.Top, km.Bottom, km.Left, km.Right},
		{km.CycleView, km.Inspect, km.Facet, km.Widen, km.Narrow, km.Add, km.Edit, km.EditYAML, km.Delete, km.Duplicate},
		{km.Search, km.NextMatch, km.PrevMatch},
	}
}

// gridRows is how many item rows fit: the pane less its title line and the header.
func (p *itemsPane) gridRows() int { return max(1, p.hgt-2) }

func (p *itemsPane) clamp() {
	g, _, _ := p.shownGrid()
	if g == nil {
		return
	}
	p.l.setLen(len(g.Rows))
	p.l.setRows(p.gridRows())
	p.left = max(0, min(p.left, len(g.Columns)-1))
	p.col = max(0, min(p.col, len(g.Columns)-1))
}

func (p *itemsPane) cursor() *list { p.clamp(); return &p.l }

// stillWorking: after an edit, the grid on screen is the last one until its
// replacement is built.
func (p *itemsPane) stillWorking() string {
	if p.w.grid(p.view) == nil {
		return "the items grid"
	}
	return ""
}

// rowText is a grid row's item as text for /: every attribute name and value.
func (p *itemsPane) rowText(i int) string {
	g := p.grid()
	d := p.w.doc.D
	if g == nil || i >= len(g.Rows) || int(g.Rows[i].Item) >= len(d.Items) {
		return ""
	}
	var b strings.Builder
	for k, v := range d.Items[g.Rows[i].Item] {
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(v.Str)
		b.WriteByte(' ')
	}
	return b.String()
}

// selected is the design item under the cursor, -1 when none.
func (p *itemsPane) selected() int {
	g := p.grid()
	if g == nil || p.l.cur >= len(g.Rows) || len(g.Rows) == 0 {
		return -1
	}
	return int(g.Rows[p.l.cur].Item)
}

func (p *itemsPane) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := p.update(msg)
	p.refresh()
	return p, cmd
}

func (p *itemsPane) update(msg tea.Msg) tea.Cmd {
	d := p.w.doc.D
	switch msg := msg.(type) {
	case docChanged:
		if p.want < 0 {
			p.want = p.selected()
		}
		if _, ok := d.Table.IndexByName(p.view); p.view != "" && !ok {
			p.view = "" // the index was removed
		}
		if p.facet >= len(d.Entities) {
			p.facet = facetAll // the entity was removed
		}
	case selectItem:
		p.want = msg.index
		p.findWanted()
	case computed:
		p.findWanted()
		p.clamp()
	case tea.MouseMsg:
		switch {
		case msg.Button == tea.MouseButtonWheelUp:
			p.move(-3)
		case msg.Button == tea.MouseButtonWheelDown:
			p.move(3)
		case msg.Action == tea.MouseActionPress && msg.Button == tea.MouseButtonLeft && msg.Y >= 2:
			p.clamp()
			p.l.set(p.l.top + msg.Y - 2)
		}
	case tea.KeyMsg:
		km := p.keys()
		if p.inspect {
			switch {
			case key.Matches(msg, km.Close, km.Inspect) || msg.Alt:
				// An alt+key is what a terminal makes of esc pressed just before a key.
				p.inspect = false
				return nil
			case key.Matches(msg, km.DetailDown):
				p.itop += max(1, p.hgt/2)
				return nil
			case key.Matches(msg, km.DetailUp):
				p.itop = max(0, p.itop-max(1, p.hgt/2))
				return nil
			case key.Matches(msg, km.Up, km.Down):
				p.itop = 0
			}
		}
		switch {
		case key.Matches(msg, km.Inspect):
			if p.selected() >= 0 {
				p.inspect, p.itop = true, 0
			}
		case key.Matches(msg, km.EditYAML):
			if i := p.selected(); i >= 0 {
				return p.w.now(openEditorMsg{kind: yamlItem, index: i})
			}
		case key.Matches(msg, km.Up):
			p.move(-1)
		case key.Matches(msg, km.Down):
			p.move(1)
		case key.Matches(msg, km.PageUp):
			p.move(-p.gridRows())
		case key.Matches(msg, km.PageDown):
			p.move(p.gridRows())
		case key.Matches(msg, km.Top):
			p.move(-1 << 40)
		case key.Matches(msg, km.Bottom):
			p.move(1 << 40)
		case key.Matches(msg, km.Left):
			p.col = max(0, p.col-1)
			p.followColumn()
		case key.Matches(msg, km.Right):
			p.col++
			p.followColumn()
		case key.Matches(msg, km.Facet):
			// every item, then each entity's alone, then the untyped, then every item
			cur := p.selected()
			switch {
			case p.facet == facetAll && len(d.Entities) > 0:
				p.facet = 0
			case p.facet == -1:
				p.facet = facetAll
			case p.facet+1 < len(d.Entities):
				p.facet++
			default:
				p.facet = -1
			}
			p.l, p.left, p.col, p.want = list{}, 0, 0, cur // another entity, other columns
			p.findWanted()
			if n := p.facetName(); n != "" {
				return p.w.status("showing " + n + " · f for the next entity")
			}
			return p.w.status("showing every item")
		case key.Matches(msg, km.Widen):
			g, _, _ := p.shownGrid()
			if g != nil && p.col < len(g.Columns) {
				if c := g.Columns[p.col]; p.wide != c {
					p.wide, p.left = c, p.col // the first column shown: the most room
					return p.w.status("column " + c + " at full width · - narrows it")
				}
			}
		case key.Matches(msg, km.Narrow):
			p.wide = ""
		case key.Matches(msg, km.CycleView):
			views := render.Views(d)
			cur := p.selected()
			for i, v := range views {
				if v == p.view {
					p.view = views[(i+1)%len(views)]
					break
				}
			}
			p.l, p.left, p.col, p.want = list{}, 0, 0, cur
			p.findWanted()
			return p.w.status(p.viewTitle())
		case key.Matches(msg, km.Add):
			base := model.Item{}
			if i := p.selected(); i >= 0 {
				if t, ok := d.Items[i][d.TypeAttr()]; ok {
					base[d.TypeAttr()] = t // a new item of the kind under the cursor
				}
			}
			return p.w.now(openForm{f: newItemForm(p.w, -1, base, true)})
		case key.Matches(msg, km.Edit):
			if i := p.selected(); i >= 0 {
				return p.w.now(openForm{f: newItemForm(p.w, i, d.Items[i], false)})
			}
		case key.Matches(msg, km.Duplicate):
			if i := p.selected(); i >= 0 {
				f := newItemForm(p.w, -1, d.Items[i].Clone(), false)
				f.title = fmt.Sprintf("Duplicate item %d: give the copy its own key", i)
				return p.w.now(openForm{f: f})
			}
		case key.Matches(msg, km.Delete):
			if i := p.selected(); i >= 0 {
				it := d.Items[i]
				k := render.KeyString(it, d.Table.Key.Partition, d.Table.Key.Sort)
				e := itemEdit("deleted item "+k, opDelete, i, it, nil)
				return p.w.now(askConfirm{question: "Delete item " + k + "? (y/n)", onYes: p.w.nowFn(applyEdit{e: e})})
			}
		}
	}
	return nil
}

func (p *itemsPane) move(n int) {
	g, _, _ := p.shownGrid()
	if g == nil {
		return
	}
	p.clamp()
	p.l.move(n)
}

// findWanted moves the cursor to the wanted design item once its grid is ready.
func (p *itemsPane) findWanted() {
	g := p.grid()
	if g == nil || p.want < 0 {
		return
	}
	p.clamp()
	if r := g.RowOf(p.want); r >= 0 {
		p.l.center(r)
	}
	p.want = -1
}

func (p *itemsPane) viewTitle() string {
	d := p.w.doc.D
	if p.view == "" {
		return fmt.Sprintf("table %s · key %s", d.Table.Name, keyPair(d.Table.Key))
	}
	ix, _ := d.Table.IndexByName(p.view)
	kind := "GSI"
	if ix.Local {
		kind = "LSI"
		ix.Key.Partition = d.Table.Key.Partition
	}
	proj := strings.ToLower(strings.ReplaceAll(string(ix.Projection.Type), "_", "-"))
	if ix.Projection.Type == model.ProjectInclude {
		proj = "include " + strings.Join(ix.Projection.Include, ", ")
	}
	return fmt.Sprintf("%s %s · key %s · projection %s", kind, ix.Name, keyPair(ix.Key), proj)
}

// keyPair names a key's attributes: "PK, SK"; a multi-attribute key's sides as
// lists in key order, "[tournamentId, region] / [round, bracket]".
func keyPair(k model.KeySchema) string {
	if !k.Multi() {
		if k.Sort == "" {
			return k.Partition
		}
		return k.Partition + ", " + k.Sort
	}
	side := func(names []string) string {
		if len(names) == 1 {
			return names[0]
		}
		return "[" + strings.Join(names, ", ") + "]"
	}
	if k.Sort == "" {
		return side(k.Partitions())
	}
	return side(k.Partitions()) + " / " + side(k.Sorts())
}

func (p *itemsPane) View() string {
	if i := p.selected(); p.inspect && i >= 0 {
		lines := inspectLines(p.w.doc.D, i, p.w.returnedBy(i), p.wid, p.w.st)
		top := max(0, min(p.itop, len(lines)-p.hgt+1))
		lines = lines[top:]
		if len(lines) >= p.hgt {
			lines = append(lines[:p.hgt-1], p.w.st.Render.Dim.Render("] and [ scroll · esc back to the grid"))
		}
		return strings.Join(lines, "\n")
	}
	if g, _, stale := p.shownGrid(); g != nil && p.cache != "" && p.frameKey(stale) == p.cacheKey {
		return p.cache
	}
	return p.frame() // refresh had not seen this state yet: drawn, not kept
}

// frameKey is everything the grid's frame depends on: when it is unchanged, the
// frame refresh kept is still the one to draw.
func (p *itemsPane) frameKey(stale bool) [9]uint64 {
	w := p.w
	staleBit := uint64(0)
	if stale {
		staleBit = 1 << 63
	}
	return [9]uint64{w.doc.DataRev ^ staleBit, w.gridRev, uint64(p.l.top), uint64(p.left) | uint64(p.col)<<32, uint64(p.l.cur), uint64(p.wid), uint64(p.hgt),
		uint64(len(p.view)) ^ hashString(p.view) ^ uint64(p.facet+3)<<56 ^ hashString(p.wide)<<1, w.gen}
}

// frame draws the grid's title and visible rows.
func (p *itemsPane) frame() string {
	w := p.w
	g, d, stale := p.shownGrid()
	st := w.st
	if g == nil {
		return st.Render.Header.Render(p.viewTitle()) + "\n" + st.Render.Dim.Render(fmt.Sprintf("laying out %d items…", len(w.doc.D.Items)))
	}
	hl := w.highlight
	if w.highlightRev != w.doc.DataRev || stale {
		hl = nil
	}
	n := len(g.Rows)
	title := fmt.Sprintf("%s · %d items", p.viewTitle(), n)
	if p.view != "" {
		title = fmt.Sprintf("%s · %d of %d items carry its keys", p.viewTitle(), n, len(d.Items))
	}
	if n := p.facetName(); n != "" {
		title += " · " + n + " (f: next)"
	}
	if stale {
		title += " · updating…"
	}
	if len(hl) > 0 && w.selPattern < len(w.doc.D.Patterns) {
		title += fmt.Sprintf(" · * %d returned by pattern %d", len(hl), w.doc.D.Patterns[w.selPattern].ID)
	}
	o := p.gridOptions()
	o.Highlight, o.Styles = func(i int) bool { return hl[i] }, st.Render
	body := g.Render(d, o)
	return st.Render.Header.Render(render.Clip(title, p.wid)) + "\n" + body
}

// gridOptions is the window of the grid the pane shows (without its styles).
func (p *itemsPane) gridOptions() render.GridOptions {
	o := render.GridOptions{Width: p.wid, Height: p.hgt - 1, Top: p.l.top, Left: p.left, Cursor: p.l.cur, Wide: p.wide}
	if g, _, _ := p.shownGrid(); g != nil && p.col >= 0 && p.col < len(g.Columns) {
		o.Current = g.Columns[p.col]
	}
	return o
}

func hashString(s string) uint64 {
	var h uint64 = 14695981039346656037
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return h
}
