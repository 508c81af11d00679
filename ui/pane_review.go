package ui

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"stwb/model"
	"stwb/render"
	"stwb/review"
)

// reviewPane lists what is wrong with the design: model.Validate's errors, then the
// review package's findings (which need the patterns run and priced, so they come a
// moment later). enter shows a finding whole (its message, fix and source, wrapped);
// enter again goes to the pattern, item, index or entity it names.
type reviewPane struct {
	w        *world
	km       KeyMap
	wid, hgt int
	l        list
	open     bool // the cursor's finding is shown whole
}

func newReviewPane(w *world) *reviewPane { return &reviewPane{w: w, km: w.km} }

func (p *reviewPane) Title() string { return "Review" }
func (p *reviewPane) Init() tea.Cmd { return nil }

// SetSize: a finding takes two lines in the list (its fix below it).
func (p *reviewPane) SetSize(w, h int) { p.wid, p.hgt = w, h; p.l.setRows((h - 1) / 2) }

func (p *reviewPane) cursor() *list { return &p.l }

// stillWorking: the findings come in two steps, the checks and then the modelling
// rules, which need every pattern run and priced.
func (p *reviewPane) stillWorking() string {
	w := p.w
	if w.reviewRev != w.doc.Rev || w.costRes == nil || w.costRev != w.doc.Rev {
		return "the review"
	}
	return ""
}

func (p *reviewPane) rowText(i int) string {
	fs := p.w.allFindings()
	if i >= len(fs) {
		return ""
	}
	f := fs[i]
	return f.Where + " " + f.Rule + " " + f.Message + " " + f.Assumed + " " + f.Fix
}

func (p *reviewPane) keys() (open, goTo, back key.Binding) {
	open, goTo, back = p.km.Edit, p.km.Edit, p.km.Close
	open.SetHelp("enter", "show whole")
	goTo.SetHelp("enter", "go to it")
	back.SetHelp("esc", "back to the list")
	return
}

func (p *reviewPane) ShortHelp() []key.Binding {
	open, goTo, back := p.keys()
	if p.open {
		return []key.Binding{goTo, back, p.km.Up, p.km.Down}
	}
	return []key.Binding{p.km.Up, p.km.Down, open, p.km.Search}
}

func (p *reviewPane) FullHelp() [][]key.Binding {
	open, goTo, back := p.keys()
	return [][]key.Binding{{p.km.Up, p.km.Down, p.km.PageUp, p.km.PageDown, p.km.Top, p.km.Bottom}, {open, goTo, back},
		{p.km.Search, p.km.NextMatch, p.km.PrevMatch}}
}

func (p *reviewPane) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	fs := p.w.allFindings()
	p.l.setLen(len(fs))
	switch msg := msg.(type) {
	case computed, docChanged:
		if len(fs) == 0 {
			p.open = false
		}
	case tea.KeyMsg:
		switch {
		case p.open && key.Matches(msg, p.km.Close):
			p.open = false
			return p, nil
		case key.Matches(msg, p.km.Edit):
			if p.l.cur >= len(fs) {
				return p, nil
			}
			if !p.open {
				p.open = true
				return p, nil
			}
			p.open = false
			f := fs[p.l.cur]
			switch {
			case f.pattern >= 0:
				return p, p.w.now(selectPattern{index: f.pattern})
			case f.item >= 0:
				return p, p.w.now(selectItem{index: f.item})
			case f.index != "":
				return p, p.w.now(selectIndex{name: f.index})
			case f.entity != "":
				return p, p.w.now(selectIndex{entity: f.entity})
			}
			return p, p.w.status("this finding is about the design as a whole")
		}
	}
	p.l.update(msg, p.km)
	return p, nil
}

// target says what enter on an open finding goes to.
func (f finding) target() string {
	switch {
	case f.pattern >= 0:
		return "the pattern"
	case f.item >= 0:
		return fmt.Sprintf("item %d", f.item)
	case f.index != "":
		return "index " + f.index
	case f.entity != "":
		return "entity " + f.entity
	}
	return ""
}

func (p *reviewPane) View() string {
	w := p.w
	st := w.st.Render
	all := w.allFindings()
	head := st.Header.Render("Review · "+render.Count(len(all), "finding")) + st.Dim.Render(" · validation, then the seeds' modelling rules · enter shows a finding whole")
	if w.reviewRev != w.doc.Rev && w.findings == nil {
		return head + "\n" + st.Dim.Render("checking…")
	}
	lines := []string{head}
	if w.costRes == nil || w.costRev != w.doc.Rev {
		lines = append(lines, st.Dim.Render("running and pricing the patterns for the modelling rules…"))
	}
	fs := make([]render.Finding, len(all))
	for i, f := range all {
		fs[i] = f.Finding
	}
	if p.open && p.l.cur < len(fs) {
		lines = append(lines, st.Dim.Render(fmt.Sprintf("finding %d of %d", p.l.cur+1, len(fs))), "")
		lines = append(lines, render.FindingDetail(fs[p.l.cur], p.wid, st)...)
		next := "esc back to the list · ↑/↓ the next finding"
		if t := all[p.l.cur].target(); t != "" {
			next = "enter goes to " + t + " · " + next
		}
		lines = append(lines, "", st.Dim.Render(render.Clip(next, p.wid)))
		return strings.Join(lines, "\n")
	}
	lines = append(lines, render.Findings(fs, p.l.top, p.l.cur, p.wid, p.hgt-len(lines), st)...)
	return strings.Join(lines, "\n")
}

type reviewMsg struct {
	rev      uint64
	findings []finding
}

// reviewCmd validates the design off the event loop; itemPos[i] is where item i is
// in the design's file.
func reviewCmd(d *model.Design, itemPos []model.Pos, rev uint64) tea.Cmd {
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = reviewMsg{rev: rev, findings: []finding{{Finding: render.Finding{Severity: "error", Where: "design",
					Message: "validation failed unexpectedly; save and report it"}, pattern: -1, item: -1}}}
			}
		}()
		return reviewMsg{rev: rev, findings: validationFindings(d, itemPos, model.ValidateAt(d, itemPos))}
	}
}

// validationFindings turns model's errors into findings, each pointed at the
// pattern, item or index whose place in the file holds it.
func validationFindings(d *model.Design, itemPos []model.Pos, err error) []finding {
	if err == nil {
		return []finding{}
	}
	var list model.ErrorList
	if !errors.As(err, &list) {
		return []finding{{Finding: render.Finding{Severity: "error", Where: "design", Message: err.Error()}, pattern: -1, item: -1}}
	}
	type anchor struct {
		line    int
		pattern int
		item    int
		index   string
	}
	var anchors []anchor
	for i, pt := range d.Patterns {
		if pt.Pos.Line > 0 {
			anchors = append(anchors, anchor{pt.Pos.Line, i, -1, ""})
		}
	}
	for i, pos := range itemPos {
		if pos.Line > 0 {
			anchors = append(anchors, anchor{pos.Line, -1, i, ""})
		}
	}
	for _, ix := range d.Table.Indexes {
		if ix.Pos.Line > 0 {
			anchors = append(anchors, anchor{ix.Pos.Line, -1, -1, ix.Name})
		}
	}
	sort.Slice(anchors, func(a, b int) bool { return anchors[a].line < anchors[b].line })
	out := make([]finding, 0, len(list))
	for _, e := range list {
		f := finding{Finding: render.Finding{Severity: "error", Where: e.Pos.String(), Message: e.Msg, Fix: e.Hint}, pattern: -1, item: -1}
		if f.Where == "" {
			f.Where = "design"
		}
		// The anchor is the last element starting at or before the error's line.
		k := sort.Search(len(anchors), func(i int) bool { return anchors[i].line > e.Pos.Line }) - 1
		if e.Pos.Line > 0 && k >= 0 {
			f.pattern, f.item, f.index = anchors[k].pattern, anchors[k].item, anchors[k].index
		}
		out = append(out, f)
	}
	return out
}

// allFindings are the validation errors, then the review's findings of the current
// revision.
func (w *world) allFindings() []finding {
	out := append([]finding(nil), w.findings...)
	if w.costRes != nil && w.costRev == w.doc.Rev {
		out = append(out, w.costRes.findings...)
	}
	return out
}

// reviewFindings turns the review package's findings into the pane's, with where
// each one points.
func reviewFindings(d *model.Design, fs []review.Finding) []finding {
	out := make([]finding, 0, len(fs))
	byID := map[int]int{}
	for i, p := range d.Patterns {
		byID[p.ID] = i
	}
	for _, f := range fs {
		// The message ends with its assumptions; the detail shows them on their own.
		msg := strings.TrimSuffix(f.Message, ". Assumed: "+f.Assumed)
		x := finding{Finding: render.Finding{Rule: f.Rule, Severity: string(f.Severity), Message: msg, Assumed: f.Assumed, Fix: f.Fix, Source: f.Source},
			pattern: -1, item: -1, index: f.Index, entity: f.Entity}
		if i, ok := byID[f.Pattern]; ok && f.Pattern != 0 {
			x.pattern = i
		}
		if f.Item != nil {
			x.item = *f.Item
		}
		if x.Where = f.Where(); x.Where == "" {
			x.Where = "design"
		}
		out = append(out, x)
	}
	return out
}
