package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"stwb/render"
)

// costPane shows the cost report: per pattern per request, per second and per
// month on-demand beside provisioned, with a bar for its share of the bill; then
// storage, totals and hot partitions. The figures are package cost's.
type costPane struct {
	w        *world
	km       KeyMap
	wid, hgt int
	l        list // the window over the report's lines (list.scroll)
	left     int  // table columns scrolled off to the left (the first and the verdict stay)
}

func newCostPane(w *world) *costPane { return &costPane{w: w, km: w.km} }

func (p *costPane) Title() string    { return "Cost" }
func (p *costPane) Init() tea.Cmd    { return nil }
func (p *costPane) SetSize(w, h int) { p.wid, p.hgt = w, h }

func (p *costPane) ShortHelp() []key.Binding {
	l, r := p.km.Left, p.km.Right
	l.SetHelp("←/h", "columns left")
	r.SetHelp("→/l", "columns right")
	return []key.Binding{p.km.Up, p.km.Down, p.km.PageDown, r, l}
}
func (p *costPane) FullHelp() [][]key.Binding {
	return [][]key.Binding{{p.km.Up, p.km.Down, p.km.PageUp, p.km.PageDown, p.km.Top, p.km.Bottom}, p.ShortHelp()[3:]}
}

// lines is what the pane shows: the header lines, then the report laid out at the
// pane's width with its tables scrolled by left.
func (p *costPane) lines() []string {
	w := p.w
	st := w.st.Render
	switch {
	case w.costRes == nil:
		return []string{st.Dim.Render("pricing the design…")}
	case w.costRes.err != nil:
		return []string{st.Error.Render(render.Clip("no cost report: "+w.costRes.err.Error(), p.wid))}
	}
	lines, more := scrollTables(p.reportLines(), p.wid, p.left)
	if more {
		lines = append([]string{st.Dim.Render("tables scroll sideways: → and ← (the first column and the verdict stay)")}, lines...)
	}
	if w.costRev != w.doc.Rev {
		lines = append([]string{st.Dim.Render("(updating…)")}, lines...)
	}
	return lines
}

func (p *costPane) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.MouseMsg:
		p.window()
		switch msg.Button {
		case tea.MouseButtonWheelUp:
			p.l.scroll(-3)
		case tea.MouseButtonWheelDown:
			p.l.scroll(3)
		}
	case tea.KeyMsg:
		p.window()
		switch {
		case key.Matches(msg, p.km.Up):
			p.l.scroll(-1)
		case key.Matches(msg, p.km.Down):
			p.l.scroll(1)
		case key.Matches(msg, p.km.PageUp):
			p.l.scroll(-p.hgt)
		case key.Matches(msg, p.km.PageDown):
			p.l.scroll(p.hgt)
		case key.Matches(msg, p.km.Top):
			p.l.scroll(-p.l.n)
		case key.Matches(msg, p.km.Bottom):
			p.l.scroll(p.l.n)
		case key.Matches(msg, p.km.Left):
			p.left = max(0, p.left-1)
		case key.Matches(msg, p.km.Right):
			if _, more := scrollTables(p.reportLines(), p.wid, p.left); more {
				p.left++
			}
		}
	}
	return p, nil
}

// window sizes the list to the report's lines and the pane.
func (p *costPane) window() {
	p.l.setLen(len(p.lines()))
	p.l.setRows(p.hgt)
}

func (p *costPane) reportLines() []string {
	if p.w.costRes == nil || p.w.costRes.report == nil {
		return nil
	}
	return costLines(p.w.costRes, p.wid, p.w.st)
}

func (p *costPane) View() string {
	lines := p.lines()
	top := max(0, min(p.l.top, len(lines)-p.hgt))
	return strings.Join(lines[top:], "\n")
}

// costLines is the share-of-bill chart (one bar per pattern, its share of the
// monthly throughput bill in the table's billing mode), then the cost report as
// render.Cost writes it for the command line: per pattern, storage, totals, hot
// partitions flagged. Above them, in the error style, each item the report leaves
// out (over 400 KB), as `stwb cost` names them.
func costLines(res *costResult, w int, sty Styles) []string {
	st := sty.Render
	r := res.report
	mode := "on-demand"
	total := r.Totals.Monthly.OnDemand
	if r.Billing.Mode == "provisioned" {
		mode, total = "provisioned", r.Totals.Monthly.Provisioned
	}
	var lines []string
	for _, l := range res.leftOut {
		for _, part := range render.Wrap(l, w) {
			lines = append(lines, st.Error.Render(part))
		}
	}
	if len(lines) > 0 {
		lines = append(lines, "")
	}
	lines = append(lines, st.Header.Render(render.Clip(fmt.Sprintf("Share of the %s throughput bill (%s/month)", mode, render.Dollars(total)), w)))
	nameW := max(8, min(32, w/3))
	barW := max(4, w-nameW-4-1-22)
	for _, pc := range r.Patterns {
		mo := pc.Monthly.OnDemand
		if mode == "provisioned" {
			mo = pc.Monthly.Provisioned
		}
		share := 0.0
		if total > 0 {
			share = mo / total
		}
		bar := sty.Bar.Render(render.Fit(strings.Repeat("█", int(share*float64(barW)+0.5)), barW))
		flag := ""
		if r.InHotKey(pc.ID) {
			flag = " " + st.Error.Render("HOT")
		}
		if pc.Err != nil && pc.Err.Type != "ConditionalCheckFailedException" {
			flag = " " + st.Error.Render(pc.Err.Type)
		}
		lines = append(lines, render.Clip(fmt.Sprintf("%3d %s %s %4.0f%% %10s/mo", pc.ID, render.Fit(pc.Name, nameW), bar, share*100, render.Dollars(mo))+flag, w))
	}
	lines = append(lines, "")
	// The hottest keys against the partition limit, as bars (render.KeyLoadLines).
	if kl, over := render.KeyLoadLines(r, w, 8); len(kl) > 0 {
		for i, l := range kl {
			switch {
			case i == 0:
				l = st.Header.Render(l)
			case over[i]:
				l = st.Error.Render(l)
			}
			lines = append(lines, l)
		}
		lines = append(lines, "")
	}
	// The report unclipped: scrollTables lays it out (tables scroll, prose wraps).
	return append(lines, strings.Split(render.Cost(r), "\n")...)
}
