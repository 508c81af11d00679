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
	left     int
	want     int // design item to select once the grid is rebuilt; -1 none

	cache    string
	cacheKey [9]uint64
}

func newItemsPane(w *world) *itemsPane { return &itemsPane{w: w, km: w.km, want: -1} }

// keys is the KeyMap with what needs an item under the cursor disabled when there is
// none, and the view cycle disabled when the table has no index.
func (p *itemsPane) keys() KeyMap {
	km := p.km
	has := p.selected() >= 0
	for _, b := range []*key.Binding{&km.Edit, &km.Delete, &km.Duplicate} {
		b.SetEnabled(has)
	}
	km.CycleView.SetEnabled(len(p.w.doc.D.Table.Indexes) > 0)
	return km
}

func (p *itemsPane) Title() string    { return "Items" }
func (p *itemsPane) Init() tea.Cmd    { return nil }
func (p *itemsPane) SetSize(w, h int) { p.wid, p.hgt = w, h; p.clamp() }

func (p *itemsPane) ShortHelp() []key.Binding {
	km := p.keys()
	return []key.Binding{km.CycleView, km.Add, km.Edit, km.Delete, km.Duplicate, km.Right}
}

func (p *itemsPane) FullHelp() [][]key.Binding {
	km := p.keys()
	return [][]key.Binding{
		{km.Up, km.Down, km.PageUp, km.PageDown, km.Top, km.Bottom, km.Left, km.Right},
		{km.CycleView, km.Add, km.Edit, km.Delete, km.Duplicate},
		{km.Search, km.NextMatch, km.PrevMatch},
	}
}

// gridRows is how many item rows fit: the pane less its title line and the header.
func (p *itemsPane) gridRows() int { return max(1, p.hgt-2) }

func (p *itemsPane) clamp() {
	g, _, _ := p.w.shownGrid(p.view)
	if g == nil {
		return
	}
	p.l.setLen(len(g.Rows))
	p.l.setRows(p.gridRows())
	p.left = max(0, min(p.left, len(g.Columns)-1))
}

func (p *itemsPane) cursor() *list { p.clamp(); return &p.l }

// rowText is a grid row's item as text for /: every attribute name and value.
func (p *itemsPane) rowText(i int) string {
	g := p.w.grid(p.view)
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
	g := p.w.grid(p.view)
	if g == nil || p.l.cur >= len(g.Rows) || len(g.Rows) == 0 {
		return -1
	}
	return int(g.Rows[p.l.cur].Item)
}

func (p *itemsPane) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	d := p.w.doc.D
	switch msg := msg.(type) {
	case docChanged:
		if p.want < 0 {
			p.want = p.selected()
		}
		if _, ok := d.Table.IndexByName(p.view); p.view != "" && !ok {
			p.view = "" // the index was removed
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
		switch {
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
			p.left = max(0, p.left-1)
		case key.Matches(msg, km.Right):
			p.left++
			p.clamp()
		case key.Matches(msg, km.CycleView):
			views := render.Views(d)
			cur := p.selected()
			for i, v := range views {
				if v == p.view {
					p.view = views[(i+1)%len(views)]
					break
				}
			}
			p.l, p.left, p.want = list{}, 0, cur
			p.findWanted()
			return p, status(p.viewTitle())
		case key.Matches(msg, km.Add):
			base := model.Item{}
			if i := p.selected(); i >= 0 {
				if t, ok := d.Items[i][d.TypeAttr()]; ok {
					base[d.TypeAttr()] = t // a new item of the kind under the cursor
				}
			}
			return p, cmdOf(openForm{f: newItemForm(p.w, -1, base, true)})
		case key.Matches(msg, km.Edit):
			if i := p.selected(); i >= 0 {
				return p, cmdOf(openForm{f: newItemForm(p.w, i, d.Items[i], false)})
			}
		case key.Matches(msg, km.Duplicate):
			if i := p.selected(); i >= 0 {
				f := newItemForm(p.w, -1, d.Items[i].Clone(), false)
				f.title = fmt.Sprintf("Duplicate item %d: give the copy its own key", i)
				return p, cmdOf(openForm{f: f})
			}
		case key.Matches(msg, km.Delete):
			if i := p.selected(); i >= 0 {
				it := d.Items[i]
				k := render.KeyString(it, d.Table.Key.Partition, d.Table.Key.Sort)
				e := itemEdit("deleted item "+k, opDelete, i, it, nil)
				return p, cmdOf(askConfirm{question: "Delete item " + k + "? (y/n)", onYes: cmdOf(applyEdit{e: e})})
			}
		}
	}
	return p, nil
}

func (p *itemsPane) move(n int) {
	g, _, _ := p.w.shownGrid(p.view)
	if g == nil {
		return
	}
	p.clamp()
	p.l.move(n)
}

// findWanted moves the cursor to the wanted design item once its grid is ready.
func (p *itemsPane) findWanted() {
	g := p.w.grid(p.view)
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

func keyPair(k model.KeySchema) string {
	if k.Sort == "" {
		return k.Partition
	}
	return k.Partition + ", " + k.Sort
}

func (p *itemsPane) View() string {
	w := p.w
	g, d, stale := w.shownGrid(p.view)
	st := w.st
	if g == nil {
		return st.Render.Header.Render(p.viewTitle()) + "\n" + st.Render.Dim.Render(fmt.Sprintf("laying out %d items…", len(w.doc.D.Items)))
	}
	hl := w.highlight
	if w.highlightRev != w.doc.DataRev || stale {
		hl = nil
	}
	staleBit := uint64(0)
	if stale {
		staleBit = 1 << 63
	}
	k := [9]uint64{w.doc.DataRev ^ staleBit, w.gridRev, uint64(p.l.top), uint64(p.left), uint64(p.l.cur), uint64(p.wid), uint64(p.hgt),
		uint64(len(p.view)) ^ hashString(p.view), w.gen}
	if k == p.cacheKey && p.cache != "" {
		return p.cache
	}
	n := len(g.Rows)
	title := fmt.Sprintf("%s · %d items", p.viewTitle(), n)
	if p.view != "" {
		title = fmt.Sprintf("%s · %d of %d items carry its keys", p.viewTitle(), n, len(d.Items))
	}
	if stale {
		title += " · updating…"
	}
	if len(hl) > 0 && w.selPattern < len(w.doc.D.Patterns) {
		title += fmt.Sprintf(" · * %d returned by pattern %d", len(hl), w.doc.D.Patterns[w.selPattern].ID)
	}
	body := g.Render(d, render.GridOptions{Width: p.wid, Height: p.hgt - 1, Top: p.l.top, Left: p.left,
		Cursor: p.l.cur, Highlight: func(i int) bool { return hl[i] }, Styles: st.Render})
	p.cache = st.Render.Header.Render(render.Clip(title, p.wid)) + "\n" + body
	p.cacheKey = k
	return p.cache
}

func hashString(s string) uint64 {
	var h uint64 = 14695981039346656037
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return h
}
