package ui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"stwb/engine"
	"stwb/model"
	"stwb/render"
	"stwb/review"
)

// patternsPane lists the access patterns and shows the selected one's detail and
// live preview: the items it returns in DynamoDB's order, or the items a write
// changes, with its capacity and monthly cost.
type patternsPane struct {
	w    *world
	km   KeyMap
	wid  int
	hgt  int
	l    list     // the list's cursor; w.selPattern follows it (other panes read that)
	dtop int      // first line of the detail and preview shown
	body []string // cached detail and preview lines for (rev, sel, width)
	key  [4]uint64
}

func newPatternsPane(w *world) *patternsPane { return &patternsPane{w: w, km: w.km} }

// keys is the KeyMap with the bindings that do not apply now disabled: nothing to
// edit, delete, copy or move without patterns; no moving past either end.
func (p *patternsPane) keys() KeyMap {
	km := p.km
	n, i := len(p.w.doc.D.Patterns), p.w.selPattern
	for _, b := range []*key.Binding{&km.Edit, &km.Delete, &km.Copy} {
		b.SetEnabled(n > 0)
	}
	km.MoveUp.SetEnabled(n > 0 && i > 0)
	km.MoveDown.SetEnabled(i+1 < n)
	return km
}

func (p *patternsPane) Title() string { return "Patterns" }
func (p *patternsPane) Init() tea.Cmd { return nil }

// SetSize also fits the list's window to the new height: grown, it shows the
// patterns above rather than blank rows below (issue 25).
func (p *patternsPane) SetSize(w, h int) {
	p.wid, p.hgt = w, h
	p.l.setLen(len(p.w.doc.D.Patterns))
	p.l.setRows(p.listHeight() - 1)
	p.refresh()
}

func (p *patternsPane) ShortHelp() []key.Binding {
	km := p.keys()
	jump := km.GotoPattern
	jump.SetHelp("#N", "go to N") // short enough to leave delete and copy at 80 columns
	return []key.Binding{km.Add, km.Edit, jump, km.Delete, km.Copy, km.MoveUp, km.MoveDown}
}

func (p *patternsPane) FullHelp() [][]key.Binding {
	km := p.keys()
	return [][]key.Binding{
		{km.Up, km.Down, km.PageUp, km.PageDown, km.Top, km.Bottom, km.GotoPattern, km.DetailDown, km.DetailUp},
		{km.Add, km.Edit, km.EditYAML, km.Delete, km.Copy, km.MoveUp, km.MoveDown, km.Pin},
		{km.Search, km.NextMatch, km.PrevMatch},
	}
}

// listHeight is the lines the list takes: all patterns when they fit in a third of
// the pane, else a third, leaving the rest to the detail and preview.
func (p *patternsPane) listHeight() int {
	n := len(p.w.doc.D.Patterns) + 1
	return max(2, min(n, p.hgt/3))
}

func (p *patternsPane) sel() int { return p.w.selPattern }

func (p *patternsPane) setSel(i int) {
	p.l.setLen(len(p.w.doc.D.Patterns))
	p.l.setRows(p.listHeight() - 1)
	p.l.set(i)
	p.cursorMoved()
}

// cursorMoved makes the selection follow the list's cursor.
func (p *patternsPane) cursorMoved() {
	i := max(0, p.l.cur)
	if i != p.w.selPattern {
		p.dtop = 0
	}
	p.w.selPattern = i
}

func (p *patternsPane) cursor() *list {
	p.l.setLen(len(p.w.doc.D.Patterns))
	p.l.setRows(p.listHeight() - 1)
	return &p.l
}

func (p *patternsPane) rowText(i int) string {
	d := p.w.doc.D
	if i >= len(d.Patterns) {
		return ""
	}
	pt := &d.Patterns[i]
	return fmt.Sprintf("%d %s %s %s %s %s", pt.ID, pt.Operation, pt.Index, pt.Name, pt.Holds, pt.Returns)
}

// detailRoom is the lines under the list and its rule, for the detail and preview.
func (p *patternsPane) detailRoom() int { return p.hgt - max(p.listHeight(), 1) - 1 }

func (p *patternsPane) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := p.update(msg)
	p.refresh()
	return p, cmd
}

func (p *patternsPane) update(msg tea.Msg) tea.Cmd {
	d := p.w.doc.D
	switch msg := msg.(type) {
	case docChanged:
		p.setSel(p.sel())
	case selectPattern:
		p.setSel(msg.index)
	case tea.MouseMsg:
		inDetail := msg.Y > p.listHeight()
		switch {
		case msg.Button == tea.MouseButtonWheelUp && inDetail:
			p.dtop = max(0, p.dtop-3)
		case msg.Button == tea.MouseButtonWheelDown && inDetail:
			p.dtop = min(p.dtop+3, max(0, len(p.detail())-p.detailRoom()))
		case msg.Button == tea.MouseButtonWheelUp:
			p.setSel(p.sel() - 1)
		case msg.Button == tea.MouseButtonWheelDown:
			p.setSel(p.sel() + 1)
		case msg.Action == tea.MouseActionPress && msg.Button == tea.MouseButtonLeft:
			if msg.Y >= 1 && msg.Y < p.listHeight() {
				p.setSel(p.l.top + msg.Y - 1)
			}
		}
	case tea.KeyMsg:
		km := p.keys()
		rows := p.listHeight() - 1
		switch {
		case key.Matches(msg, km.Up):
			p.setSel(p.sel() - 1)
		case key.Matches(msg, km.Down):
			p.setSel(p.sel() + 1)
		case key.Matches(msg, km.PageUp):
			p.setSel(p.sel() - rows)
		case key.Matches(msg, km.PageDown):
			p.setSel(p.sel() + rows)
		case key.Matches(msg, km.DetailDown):
			p.dtop = min(p.dtop+max(1, (p.hgt-p.listHeight())/2), max(0, len(p.detail())-p.detailRoom()))
		case key.Matches(msg, km.DetailUp):
			p.dtop = max(0, p.dtop-max(1, (p.hgt-p.listHeight())/2))
		case key.Matches(msg, km.Top):
			p.setSel(0)
		case key.Matches(msg, km.Bottom):
			p.setSel(len(d.Patterns) - 1)
		case key.Matches(msg, km.Add):
			return p.w.now(openForm{f: newPatternForm(p.w, -1, p.newPattern())})
		case key.Matches(msg, km.Edit):
			if i := p.sel(); i < len(d.Patterns) {
				return p.w.now(openForm{f: newPatternForm(p.w, i, d.Patterns[i])})
			}
		case key.Matches(msg, km.Delete):
			if i := p.sel(); i < len(d.Patterns) {
				pt := d.Patterns[i]
				e := sliceEdit(fmt.Sprintf("deleted pattern %d", pt.ID), false, patternsOf, opDelete, i, pt, model.Pattern{})
				return p.w.now(askConfirm{question: fmt.Sprintf("Delete pattern %d %q? (y/n)", pt.ID, pt.Name), onYes: p.w.nowFn(applyEdit{e: e})})
			}
		case key.Matches(msg, km.Pin):
			return p.pin()
		case key.Matches(msg, km.EditYAML):
			if i := p.sel(); i < len(d.Patterns) {
				return p.w.now(openEditorMsg{kind: yamlPattern, index: i})
			}
		case key.Matches(msg, km.Copy):
			if i := p.sel(); i < len(d.Patterns) {
				c := clonePattern(d.Patterns[i])
				c.ID = nextPatternID(d)
				c.Name += " (copy)"
				e := sliceEdit(fmt.Sprintf("copied pattern %d as %d", d.Patterns[i].ID, c.ID), false, patternsOf, opInsert, i+1, model.Pattern{}, c)
				return p.w.now(applyEdit{e: e, after: p.w.nowFn(selectPattern{index: i + 1})})
			}
		case key.Matches(msg, km.MoveUp):
			if i := p.sel(); i > 0 && i < len(d.Patterns) {
				e := sliceEdit(fmt.Sprintf("moved pattern %d up", d.Patterns[i].ID), false, patternsOf, opSwap, i-1, model.Pattern{}, model.Pattern{})
				return p.w.now(applyEdit{e: e, after: p.w.nowFn(selectPattern{index: i - 1})})
			}
		case key.Matches(msg, km.MoveDown):
			if i := p.sel(); i+1 < len(d.Patterns) {
				e := sliceEdit(fmt.Sprintf("moved pattern %d down", d.Patterns[i].ID), false, patternsOf, opSwap, i, model.Pattern{}, model.Pattern{})
				return p.w.now(applyEdit{e: e, after: p.w.nowFn(selectPattern{index: i + 1})})
			}
		}
	}
	return nil
}

// pin sets the selected pattern's expect from its current result: the table keys of
// the items it returns, in order, or for a request that fails, its error type as
// expectError (FORMAT.md "Patterns"). A write pins only whether it fails.
func (p *patternsPane) pin() tea.Cmd {
	d := p.w.doc.D
	i := p.sel()
	if i >= len(d.Patterns) {
		return nil
	}
	res := p.w.previewFor(i)
	if res == nil {
		return p.w.statusErr("the result is still being computed: pin it in a moment")
	}
	pt := d.Patterns[i]
	c := clonePattern(pt)
	c.Pos = pt.Pos
	c.ExpectError, c.Expect = "", nil
	what := "its result"
	switch {
	case res.Err != nil:
		c.ExpectError, what = res.Err.Type, res.Err.Type
	case !pt.IsWrite():
		c.Expect = []model.Item{}
		for _, it := range res.Items {
			k := model.Item{}
			for _, a := range []string{d.Table.Key.Partition, d.Table.Key.Sort} {
				if v, ok := it[a]; ok && a != "" {
					k[a] = v
				}
			}
			c.Expect = append(c.Expect, k)
		}
		what = fmt.Sprintf("%d keys", len(c.Expect))
	default:
		what = "success"
	}
	e := sliceEdit(fmt.Sprintf("pinned pattern %d's expect to %s", pt.ID, what), false, patternsOf, opSet, i, pt, c)
	return p.w.now(applyEdit{e: e})
}

// newPattern is what the add form starts from: the next id, a Query on the table.
func (p *patternsPane) newPattern() model.Pattern {
	return model.Pattern{ID: nextPatternID(p.w.doc.D), Operation: model.OpQuery}
}

func nextPatternID(d *model.Design) int {
	id := 0
	for _, q := range d.Patterns {
		id = max(id, q.ID)
	}
	return id + 1
}

// clonePattern copies a pattern deeply enough that editing the copy never changes
// the original (maps and slices are shared otherwise).
func clonePattern(p model.Pattern) model.Pattern {
	c := p
	c.Key, c.Item = p.Key.Clone(), p.Item.Clone()
	if p.Names != nil {
		c.Names = make(map[string]string, len(p.Names))
		for k, v := range p.Names {
			c.Names[k] = v
		}
	}
	if p.Values != nil {
		c.Values = make(map[string]model.Value, len(p.Values))
		for k, v := range p.Values {
			c.Values[k] = v.Clone()
		}
	}
	c.Keys = append([]model.Item(nil), p.Keys...)
	c.Actions = append([]model.Action(nil), p.Actions...)
	c.Expect = append([]model.Item(nil), p.Expect...)
	c.Pos, c.ItemPos = model.Pos{}, model.Pos{}
	return c
}

func (p *patternsPane) View() string {
	d := p.w.doc.D
	st := p.w.st
	if len(d.Patterns) == 0 {
		return st.Render.Dim.Render("No access patterns yet. Press a to add the first: what does the application ask of the table?")
	}
	lines := []string{st.Render.Header.Render(render.PatternHeader(p.wid))}
	rows := p.listHeight() - 1
	for i := p.l.top; i < min(len(d.Patterns), p.l.top+rows); i++ {
		l := render.PatternRow(&d.Patterns[i], p.wid)
		if i == p.sel() {
			// A marker as well as the colour: the selection shows under NO_COLOR too.
			if strings.HasPrefix(l, " ") {
				l = "›" + l[1:]
			}
			l = render.Over(st.Render.Selected, l)
		}
		lines = append(lines, l)
	}
	for len(lines) < p.listHeight() {
		lines = append(lines, "")
	}
	detail := p.detail()
	room := p.detailRoom()
	dtop := max(0, min(p.dtop, len(detail)-room))
	rule := strings.Repeat("─", p.wid)
	if len(detail) > room {
		rule = render.Fit(fmt.Sprintf("── lines %d-%d of %d · ] and [ scroll ", dtop+1, min(len(detail), dtop+room), len(detail)), p.wid)
		rule = strings.ReplaceAll(rule, "  ", "──")
	}
	lines = append(lines, st.Render.Rule.Render(rule))
	lines = append(lines, detail[dtop:]...)
	if len(lines) > p.hgt {
		lines = lines[:p.hgt]
	}
	return strings.Join(lines, "\n")
}

// detailKey is what the detail depends on: the design, the selection, the width and
// the background results.
func (p *patternsPane) detailKey() [4]uint64 {
	return [4]uint64{p.w.doc.Rev, uint64(p.sel()), uint64(p.wid), p.w.gen}
}

// refresh keeps the detail for what the pane now shows, after a message or a resize,
// so that View only reads.
func (p *patternsPane) refresh() {
	if k := p.detailKey(); k != p.key || p.body == nil {
		p.body, p.key = p.buildDetail(), k
	}
}

// detail is the selected pattern's sheet and preview: the one refresh kept, or drawn
// afresh (and not kept) when refresh has not seen this state.
func (p *patternsPane) detail() []string {
	if p.body != nil && p.detailKey() == p.key {
		return p.body
	}
	return p.buildDetail()
}

func (p *patternsPane) buildDetail() []string {
	w := p.w
	sel := p.sel()
	d := w.doc.D
	if sel >= len(d.Patterns) {
		return nil
	}
	pt := &d.Patterns[sel]
	st := w.st.Render
	lines := render.PatternDetail(pt, p.wid, st)
	res := w.previewFor(sel)
	if l := refusedLine(pt, res, p.wid, st); l != "" {
		// A request DynamoDB refuses says so under its name, above a request that
		// may run to 100 actions, not only in the preview below it.
		lines = slices.Insert(lines, 1, l)
	}
	waiting := ""
	switch {
	case w.engErr != nil && w.engRev == w.doc.DataRev:
		waiting = st.Error.Render(render.Clip("the items do not load into the engine: "+w.engErr.Error(), p.wid))
	case res == nil:
		waiting = st.Dim.Render("computing…")
	}
	return append(append(lines, ""), previewSection(d, pt, res, w.patternCost(sel), waiting, p.wid, st)...)
}

// refusedLine says that DynamoDB refuses pattern pt's request, when its result res
// is an error the pattern does not expect; "" otherwise.
func refusedLine(pt *model.Pattern, res *engine.Result, width int, st render.Styles) string {
	if res == nil || res.Err == nil || pt.ExpectError == res.Err.Type {
		return ""
	}
	return st.Error.Render(render.Clip("✗ DynamoDB refuses this request: "+res.Err.Type+": "+res.Err.Message, width))
}

// previewSection is the Preview of pattern pt in design d: its heading, its result
// res against its expect (a drift on its own line), the result as render.Preview
// draws it and the cost lines; waiting, when set, stands in for the result. The
// Patterns pane and the pattern form draw it alike.
func previewSection(d *model.Design, pt *model.Pattern, res *engine.Result, cost []string, waiting string, width int, st render.Styles) []string {
	lines := []string{st.Header.Render("Preview") + st.Dim.Render(" · run against this design's items as DynamoDB would")}
	if waiting != "" || res == nil {
		return append(lines, waiting)
	}
	// The result against the pattern's expect: a drift gets its own line, its
	// absence a mark on the heading (the preview's first lines stay on screen).
	switch drift := review.Drift(d, pt, res); {
	case drift != "":
		lines = append(lines, st.Error.Render(render.Clip("✗ drift: "+drift+" (p pins the new result)", width)))
	case pt.Expect != nil || pt.ExpectError != "":
		lines[0] += st.Dim.Render(" · ✓ as expected")
	}
	lines = append(lines, render.Preview(res, previewKeyNames(d, pt), width, st)...)
	for _, c := range cost {
		lines = append(lines, render.Clip(c, width))
	}
	return lines
}

// previewKeyNames orders key attributes first in preview lines: the table key, then
// the index key the pattern reads.
func previewKeyNames(d *model.Design, pt *model.Pattern) []string {
	names := []string{d.Table.Key.Partition, d.Table.Key.Sort}
	if ix, ok := d.Table.IndexByName(pt.Index); ok {
		names = append([]string{ix.Key.Partition, ix.Key.Sort}, names...)
	}
	out := names[:0]
	for _, n := range names {
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}
