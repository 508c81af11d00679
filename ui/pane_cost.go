package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"stwb/cost"
	"stwb/render"
)

// costPane shows the cost report: per pattern per request, per second and per
// month on-demand beside provisioned, with a bar for its share of the bill; then
// storage, totals and hot partitions. The figures are package cost's.
type costPane struct {
	w        *world
	km       KeyMap
	wid, hgt int
	top      int
}

func newCostPane(w *world) *costPane { return &costPane{w: w, km: w.km} }

func (p *costPane) Title() string     { return "Cost" }
func (p *costPane) Init() tea.Cmd     { return nil }
func (p *costPane) SetSize(w, h int) { p.wid, p.hgt = w, h }

func (p *costPane) ShortHelp() []key.Binding {
	return []key.Binding{p.km.Up, p.km.Down, p.km.PageDown}
}
func (p *costPane) FullHelp() [][]key.Binding { return [][]key.Binding{p.ShortHelp()} }

func (p *costPane) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.MouseMsg:
		switch msg.Button {
		case tea.MouseButtonWheelUp:
			p.top = max(0, p.top-3)
		case tea.MouseButtonWheelDown:
			p.top += 3
		}
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, p.km.Up):
			p.top = max(0, p.top-1)
		case key.Matches(msg, p.km.Down):
			p.top++
		case key.Matches(msg, p.km.PageUp):
			p.top = max(0, p.top-p.hgt)
		case key.Matches(msg, p.km.PageDown):
			p.top += p.hgt
		case key.Matches(msg, p.km.Top):
			p.top = 0
		}
	}
	return p, nil
}

func (p *costPane) View() string {
	w := p.w
	st := w.st.Render
	switch {
	case w.costRes == nil:
		return st.Dim.Render("pricing the design…")
	case w.costRes.err != nil:
		return st.Error.Render(render.Clip("no cost report: "+w.costRes.err.Error(), p.wid))
	}
	lines := costLines(w.costRes.report, p.wid, w.st)
	if w.costRev != w.doc.Rev {
		lines = append([]string{st.Dim.Render("(updating…)")}, lines...)
	}
	p.top = max(0, min(p.top, len(lines)-p.hgt))
	return strings.Join(lines[p.top:], "\n")
}

// costLines lays the report out as a table at width w.
func costLines(r *cost.Report, w int, sty Styles) []string {
	st := sty.Render
	var lines []string
	lines = append(lines, st.Header.Render(render.Clip(fmt.Sprintf("Cost · %s · %s · %s", r.Region, r.Class, billingText(r.Billing)), w)))
	total := r.Totals.Monthly.OnDemand
	if r.Billing.Mode == "provisioned" {
		total = r.Totals.Monthly.Provisioned
	}
	const fixed = 4 + 10 + 10 + 10 + 11 + 11 + 11
	nameW := max(8, min(30, w-fixed-14))
	barW := max(4, w-fixed-nameW-2)
	head := fmt.Sprintf("%3s %s %9s %9s %9s %10s %10s  %s", "id", render.Fit("pattern", nameW), "RCU/req", "WCU/req", "rate/s", "$/mo o-d", "$/mo prov", "share")
	lines = append(lines, st.Header.Render(render.Clip(head, w)))
	for _, pc := range r.Patterns {
		share := 0.0
		mo := pc.Monthly.OnDemand
		if r.Billing.Mode == "provisioned" {
			mo = pc.Monthly.Provisioned
		}
		if total > 0 {
			share = mo / total
		}
		bar := sty.Bar.Render(strings.Repeat("█", int(share*float64(barW-5)+0.5))) + fmt.Sprintf(" %3.0f%%", share*100)
		line := fmt.Sprintf("%3d %s %9s %9s %9s %10s %10s  %s", pc.ID, render.Fit(pc.Name, nameW),
			trimFloat(pc.PerRequest.Read), trimFloat(pc.PerRequest.Write), trimFloat(pc.Rate),
			dollars(pc.Monthly.OnDemand), dollars(pc.Monthly.Provisioned), bar)
		if pc.Err != nil {
			line = fmt.Sprintf("%3d %s %s", pc.ID, render.Fit(pc.Name, nameW), st.Error.Render(pc.Err.Type+": "+pc.Err.Message))
		}
		lines = append(lines, render.Clip(line, w))
	}
	lines = append(lines, "", st.Header.Render("Storage"))
	s := r.Storage
	lines = append(lines, render.Clip(fmt.Sprintf("  table     %14d items %12.3f GB  %10s/mo", s.Table.Items, s.Table.GB, dollars(s.Table.Monthly)), w))
	for _, n := range s.Order {
		l := s.Indexes[n]
		lines = append(lines, render.Clip(fmt.Sprintf("  %-9s %14d items %12.3f GB  %10s/mo", n, l.Items, l.GB, dollars(l.Monthly)), w))
	}
	if s.FreeGB > 0 {
		lines = append(lines, st.Dim.Render(render.Clip(fmt.Sprintf("  free tier: the first %g GB per account are free (worth %s/mo here; not subtracted)", s.FreeGB, dollars(s.FreeMonthly)), w)))
	}
	for _, u := range s.Unsized {
		lines = append(lines, st.Warn.Render(render.Clip("  entity "+u+" has a count but no sample item to size it by", w)))
	}
	lines = append(lines, "", st.Header.Render("Totals per month"))
	lines = append(lines, render.Clip(fmt.Sprintf("  throughput on-demand %s · provisioned %s (at 100%%)", dollars(r.Totals.Monthly.OnDemand), dollars(r.Totals.Monthly.Provisioned)), w))
	if r.Totals.Monthly.AtTarget > 0 {
		lines = append(lines, render.Clip(fmt.Sprintf("  provisioned at the autoscaling target: %s", dollars(r.Totals.Monthly.AtTarget)), w))
	}
	if r.Totals.Configured > 0 {
		lines = append(lines, render.Clip(fmt.Sprintf("  provisioned as configured: %s", dollars(r.Totals.Configured)), w))
	}
	lines = append(lines, render.Clip(fmt.Sprintf("  storage %s", dollars(r.Totals.Storage)), w))
	var hot []string
	for _, pc := range r.Patterns {
		h := pc.Hot
		if h.Table.Exceeds {
			hot = append(hot, fmt.Sprintf("  pattern %d: %s RCU/s, %s WCU/s on one table partition key value: shard it %d ways", pc.ID, trimFloat(h.Table.Read), trimFloat(h.Table.Write), h.Table.Shards))
		}
		for _, n := range h.Order {
			k := h.Indexes[n]
			if k.Exceeds {
				msg := fmt.Sprintf("  pattern %d: %s RCU/s, %s WCU/s on one %s partition key value: shard it %d ways", pc.ID, trimFloat(k.Read), trimFloat(k.Write), n, k.Shards)
				if k.ThrottlesTable {
					msg += "; its writes would throttle the base table"
				}
				hot = append(hot, msg)
			}
		}
	}
	lines = append(lines, "", st.Header.Render("Hot partitions"))
	if len(hot) == 0 {
		lines = append(lines, st.OK.Render("  none: every pattern stays under 3,000 RCU and 1,000 WCU per partition key value"))
	}
	for _, h := range hot {
		lines = append(lines, st.Error.Render(render.Clip(h, w)))
	}
	return lines
}

func dollars(f float64) string { return fmt.Sprintf("$%.2f", f) }
