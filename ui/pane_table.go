package ui

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"stwb/model"
	"stwb/render"
)

// tablePane edits the table (name, keys, key types, billing, class), its indexes
// and the entity types. Its rows are: the table, each index, the Entities heading
// (so that an empty design has a row where a adds the first entity), each entity.
type tablePane struct {
	w        *world
	km       KeyMap
	wid, hgt int
	l        list // the cursor over the rows (the table, indexes, entities)
}

func newTablePane(w *world) *tablePane { return &tablePane{w: w, km: w.km} }

func (p *tablePane) Title() string    { return "Table" }
func (p *tablePane) Init() tea.Cmd    { return nil }
func (p *tablePane) SetSize(w, h int) { p.wid, p.hgt = w, h; p.l.setRows(h) }

func (p *tablePane) cursor() *list { p.l.setLen(p.rows()); return &p.l }

func (p *tablePane) rowText(i int) string {
	lines, at := p.lines()
	if i >= len(at) {
		return ""
	}
	return ansi.Strip(lines[at[i]])
}

func (p *tablePane) ShortHelp() []key.Binding {
	return []key.Binding{p.km.Edit, p.addBinding(), p.km.AddLSI, p.km.Delete}
}

func (p *tablePane) FullHelp() [][]key.Binding {
	return [][]key.Binding{{p.km.Up, p.km.Down}, {p.km.Edit, p.addBinding(), p.km.AddLSI, p.km.Delete, p.km.EditYAML},
		{p.km.Search, p.km.NextMatch, p.km.PrevMatch}}
}

// addBinding says what a adds where the cursor is: an index, or an entity.
func (p *tablePane) addBinding() key.Binding {
	b := p.km.Add
	kind, _ := p.row(p.l.cur)
	if kind == rowEntity || kind == rowEntities {
		b.SetHelp("a", "add entity")
	} else {
		b.SetHelp("a", "add GSI")
	}
	return b
}

type rowKind int

const (
	rowTable rowKind = iota
	rowIndex
	rowEntities // the Entities heading
	rowEntity
)

func (p *tablePane) rows() int {
	d := p.w.doc.D
	return 2 + len(d.Table.Indexes) + len(d.Entities)
}

// row maps a cursor position to what it shows.
func (p *tablePane) row(i int) (rowKind, int) {
	d := p.w.doc.D
	switch {
	case i == 0:
		return rowTable, 0
	case i <= len(d.Table.Indexes):
		return rowIndex, i - 1
	case i == 1+len(d.Table.Indexes):
		return rowEntities, 0
	}
	return rowEntity, i - 2 - len(d.Table.Indexes)
}

func (p *tablePane) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	d := p.w.doc.D
	switch msg := msg.(type) {
	case docChanged:
		p.l.setLen(p.rows())
	case selectIndex:
		for i, ix := range d.Table.Indexes {
			if ix.Name == msg.name && msg.name != "" {
				p.l.cur = 1 + i
			}
		}
		for i, e := range d.Entities {
			if e.Name == msg.entity && msg.entity != "" {
				p.l.cur = 2 + len(d.Table.Indexes) + i
			}
		}
	case tea.MouseMsg:
		p.l.setLen(p.rows())
		switch {
		case p.l.update(msg, p.km):
		case msg.Action == tea.MouseActionPress && msg.Button == tea.MouseButtonLeft:
			if r := p.rowAtLine(msg.Y); r >= 0 {
				p.l.cur = r
			}
		}
	case tea.KeyMsg:
		km := p.km
		kind, i := p.row(p.l.cur)
		p.l.setLen(p.rows())
		switch {
		case p.l.update(msg, km):
		case key.Matches(msg, km.Edit):
			switch kind {
			case rowTable:
				return p, p.w.now(openForm{f: newTableForm(p.w)})
			case rowIndex:
				return p, p.w.now(openForm{f: newIndexForm(p.w, d.Table.Indexes[i].Local, i)})
			case rowEntity:
				return p, p.w.now(openForm{f: newEntityForm(p.w, i)})
			case rowEntities:
				return p, p.w.now(openForm{f: newEntityForm(p.w, -1)})
			}
		case key.Matches(msg, km.Add):
			if kind == rowEntity || kind == rowEntities {
				return p, p.w.now(openForm{f: newEntityForm(p.w, -1)})
			}
			return p, p.w.now(openForm{f: newIndexForm(p.w, false, -1)})
		case key.Matches(msg, km.EditYAML):
			if kind == rowEntity {
				return p, p.w.now(openEditorMsg{kind: yamlEntity, index: i})
			}
			return p, p.w.status("e edits an entity as YAML: select one")
		case key.Matches(msg, km.AddLSI):
			if tableExists(p.w.doc) {
				return p, p.w.statusErr(lsiRefusal)
			}
			return p, p.w.now(openForm{f: newIndexForm(p.w, true, -1)})
		case key.Matches(msg, km.Delete):
			switch kind {
			case rowIndex:
				ix := d.Table.Indexes[i]
				if ix.Local && tableExists(p.w.doc) {
					return p, p.w.statusErr("You cannot delete a local secondary index of an existing table: LSIs live and die with the table (LSI.html)")
				}
				e, dropped := removeIndexEdit(d, i)
				q := fmt.Sprintf("Remove index %s? Patterns that read it will fail. (y/n)", ix.Name)
				if len(dropped) > 0 {
					q = fmt.Sprintf("Remove index %s? Patterns that read it will fail; the templates %s go with it, the items keep those attributes. (y/n)", ix.Name, strings.Join(dropped, ", "))
				}
				return p, p.w.now(askConfirm{question: q, onYes: p.w.nowFn(applyEdit{e: e})})
			case rowEntity:
				en := d.Entities[i]
				e := sliceEdit("removed entity "+en.Name, true, entitiesOf, opDelete, i, en, model.Entity{})
				return p, p.w.now(askConfirm{question: fmt.Sprintf("Remove entity %s? Its items stay, untyped. (y/n)", en.Name), onYes: p.w.nowFn(applyEdit{e: e})})
			}
		}
	}
	return p, nil
}

// lines draws every row; the line index of each row is in at (the pane is small:
// one table, at most 25 indexes, a handful of entities).
func (p *tablePane) lines() (lines []string, at []int) {
	d := p.w.doc.D
	st := p.w.st.Render
	mark := func(r int, s string) string {
		at = append(at, len(lines))
		if r == p.l.cur {
			return render.Over(st.Selected, render.Fit("> "+s, p.wid))
		}
		return render.Clip("  "+s, p.wid)
	}
	t := d.Table
	lines = append(lines, st.Header.Render("Table"))
	// A multi-attribute key's sides are lists in key order: [tournamentId (S),
	// region (S)] / [round (N), bracket (S)].
	keyDesc := func(k model.KeySchema) string {
		side := func(names []string) string {
			parts := make([]string, len(names))
			for i, n := range names {
				parts[i] = fmt.Sprintf("%s (%s)", n, t.KeyAttributeType(n))
			}
			if len(parts) > 1 {
				return "[" + strings.Join(parts, ", ") + "]"
			}
			return strings.Join(parts, "")
		}
		if !k.Multi() {
			s := side(k.Partitions())
			if k.Sort != "" {
				s += ", " + side(k.Sorts())
			}
			return s
		}
		s := side(k.Partitions())
		if k.Sort != "" {
			s += " / " + side(k.Sorts())
		}
		return s
	}
	class := string(t.Class)
	if class == "" {
		class = "standard"
	}
	ttl := "no TTL"
	if t.TTL != "" {
		ttl = "TTL " + t.TTL
	}
	lines = append(lines, mark(0, fmt.Sprintf("%s · key %s · %s · %s · %s · type attribute %s", t.Name, keyDesc(t.Key), billingText(t.Billing), class, ttl, d.TypeAttr())))
	lines = append(lines, "", st.Header.Render(fmt.Sprintf("Indexes (%d)", len(t.Indexes))))
	for i, ix := range t.Indexes {
		kind := "GSI"
		k := ix.Key
		if ix.Local {
			kind = "LSI"
			k.Partition = t.Key.Partition
		}
		lines = append(lines, mark(1+i, fmt.Sprintf("%s %-10s key %s · projection %s", kind, ix.Name, keyDesc(k), projectionText(ix.Projection))))
	}
	if len(t.Indexes) == 0 {
		lines = append(lines, st.Dim.Render("  none: a adds a GSI"))
	}
	lines = append(lines, "", mark(1+len(t.Indexes), st.Header.Render(fmt.Sprintf("Entities (%d)", len(d.Entities)))+st.Dim.Render("  a: add an entity")))
	for i, e := range d.Entities {
		var keys []string
		for k, v := range e.Keys {
			keys = append(keys, k+"="+v)
		}
		sort.Strings(keys)
		var attrs []string
		for _, a := range e.Attributes {
			t := a.Name + ":" + a.Type.String()
			if a.Unique {
				t += " (unique)"
			}
			attrs = append(attrs, t)
		}
		// The count before the templates, which may run past the screen's edge.
		count := p.w.countText(e)
		if e.Expires > 0 {
			count += fmt.Sprintf(", %s a second expire by TTL", strconv.FormatFloat(e.Expires, 'f', -1, 64))
		}
		line := fmt.Sprintf("%s  %s  %s  %s", st.Entity(i).Render(e.Name), count, strings.Join(keys, " "), strings.Join(attrs, " "))
		lines = append(lines, mark(2+len(t.Indexes)+i, line))
	}
	if len(d.Entities) == 0 {
		lines = append(lines, st.Dim.Render("  none: select the Entities line above and press a (or :entity NAME PK=TEMPLATE)"))
	}
	return lines, at
}

func (p *tablePane) rowAtLine(y int) int {
	lines, at := p.lines()
	start := p.start(lines, at)
	for r, l := range at {
		if l-start == y {
			return r
		}
	}
	return -1
}

// start is the first line shown: the cursor's row scrolled just into view, from
// the top (View changes nothing, so the window is a function of the cursor).
func (p *tablePane) start(lines []string, at []int) int {
	if p.l.cur >= len(at) {
		return 0
	}
	return max(0, min(at[p.l.cur]-p.hgt+1, len(lines)-1))
}

func (p *tablePane) View() string {
	lines, at := p.lines()
	return strings.Join(lines[p.start(lines, at):], "\n")
}

// removeIndexEdit removes index i, and with it the entity templates of the key
// attributes no other key uses (the loader refuses a template of an attribute that is
// no key): dropped names them, entity.attr.
func removeIndexEdit(d *model.Design, i int) (e edit, dropped []string) {
	old := d.Table
	t := old
	t.Indexes = append(append([]model.Index(nil), old.Indexes[:i]...), old.Indexes[i+1:]...)
	te := tableEdit("removed index "+old.Indexes[i].Name, old, t)
	keys := map[string]bool{}
	for _, k := range model.KeyAttributeNames(&t) {
		keys[k] = true
	}
	ents := slices.Clone(d.Entities)
	for j, en := range ents {
		var nk map[string]string
		for k, tmpl := range en.Keys {
			if !keys[k] {
				dropped = append(dropped, en.Name+"."+k)
				continue
			}
			if nk == nil {
				nk = map[string]string{}
			}
			nk[k] = tmpl
		}
		ents[j].Keys = nk
	}
	if len(dropped) == 0 {
		return te, nil
	}
	sort.Strings(dropped)
	oldEnts := d.Entities
	ee := edit{data: true, apply: func(d *model.Design) { d.Entities = ents }, revert: func(d *model.Design) { d.Entities = oldEnts }}
	return both(te.label, te, ee), dropped
}
