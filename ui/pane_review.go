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
// moment later); enter jumps to the pattern, item, index or entity a finding names.
type reviewPane struct {
	w        *world
	km       KeyMap
	wid, hgt int
	cursor   int
}

func newReviewPane(w *world) *reviewPane { return &reviewPane{w: w, km: w.km} }

func (p *reviewPane) Title() string    { return "Review" }
func (p *reviewPane) Init() tea.Cmd    { return nil }
func (p *reviewPane) SetSize(w, h int) { p.wid, p.hgt = w, h }

func (p *reviewPane) ShortHelp() []key.Binding {
	b := p.km.Edit
	b.SetHelp("enter", "go to")
	return []key.Binding{p.km.Up, p.km.Down, b}
}

func (p *reviewPane) FullHelp() [][]key.Binding { return [][]key.Binding{p.ShortHelp()} }

func (p *reviewPane) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	fs := p.w.allFindings()
	switch msg := msg.(type) {
	case computed, docChanged:
		p.cursor = max(0, min(p.cursor, len(fs)-1))
	case tea.MouseMsg:
		switch {
		case msg.Button == tea.MouseButtonWheelUp:
			p.cursor = max(0, p.cursor-1)
		case msg.Button == tea.MouseButtonWheelDown:
			p.cursor = max(0, min(len(fs)-1, p.cursor+1))
		}
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, p.km.Up):
			p.cursor = max(0, p.cursor-1)
		case key.Matches(msg, p.km.Down):
			p.cursor = max(0, min(len(fs)-1, p.cursor+1))
		case key.Matches(msg, p.km.Edit):
			if p.cursor < len(fs) {
				f := fs[p.cursor]
				switch {
				case f.pattern >= 0:
					return p, cmdOf(selectPattern{index: f.pattern})
				case f.item >= 0:
					return p, cmdOf(selectItem{index: f.item})
				case f.index != "":
					return p, cmdOf(selectIndex{name: f.index})
				case f.entity != "":
					return p, cmdOf(selectIndex{entity: f.entity})
				}
				return p, status("this finding is about the design as a whole")
			}
		}
	}
	return p, nil
}

func (p *reviewPane) View() string {
	w := p.w
	st := w.st.Render
	all := w.allFindings()
	head := st.Header.Render(fmt.Sprintf("Review · %d findings", len(all))) + st.Dim.Render(" · validation, then the seeds' modelling rules · enter goes to what a finding names")
	if w.reviewRev != w.doc.Rev && w.findings == nil {
		return head + "\n" + st.Dim.Render("checking…")
	}
	if w.costRes == nil || w.costRev != w.doc.Rev {
		head += "\n" + st.Dim.Render("running and pricing the patterns for the modelling rules…")
	}
	fs := make([]render.Finding, len(all))
	for i, f := range all {
		fs[i] = f.Finding
	}
	lines := render.Findings(fs, p.cursor, p.wid, st)
	// Keep the cursor's finding on screen.
	start := 0
	for i, l := range lines {
		if strings.HasPrefix(render.Clip(l, 2), ">") && i >= p.hgt-1 {
			start = i - p.hgt + 2
		}
	}
	return head + "\n" + strings.Join(lines[start:], "\n")
}

type reviewMsg struct {
	rev      uint64
	findings []finding
}

// reviewCmd validates the design off the event loop.
func reviewCmd(d *model.Design, rev uint64) tea.Cmd {
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = reviewMsg{rev: rev, findings: []finding{{Finding: render.Finding{Severity: "error", Where: "design",
					Message: "validation failed unexpectedly; save and report it"}, pattern: -1, item: -1}}}
			}
		}()
		return reviewMsg{rev: rev, findings: validationFindings(d, model.Validate(d))}
	}
}

// validationFindings turns model's errors into findings, each pointed at the
// pattern, item or index whose place in the file holds it.
func validationFindings(d *model.Design, err error) []finding {
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
	for i, pos := range d.ItemPos {
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
		x := finding{Finding: render.Finding{Rule: f.Rule, Severity: string(f.Severity), Message: f.Message, Fix: f.Fix},
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
