package ui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"stwb/analysis"
	"stwb/engine"
	"stwb/model"
	"stwb/render"
)

// The pattern form's preview: what the pattern being written returns, drawn under
// its fields as the Patterns pane draws a pattern's (previewSection), from the same
// run: the design with this pattern in its place goes through the analysis the Cost
// and Review panes read (analysis.OnEngine on a clone of the engine), off the event
// loop. It runs once the fields have not changed for previewQuiet, never while a
// key waits, and a result for values since changed is not shown.

// previewQuiet is how long the fields stay unchanged before the preview runs: the
// pause between words, not between keys.
const previewQuiet = 150 * time.Millisecond

// describingFields are the pattern's fields that describe it rather than its
// request: an error in them does not stop the request from running.
var describingFields = []string{"name", "rate", "holds", "returns", "order", "cardinality", "expect", "expectError", "partitions", "id"}

type patternPreview struct {
	pf *patternForm
	// gen counts the changes of the values; changedAt is the last one's time.
	gen       uint64
	changedAt time.Time
	ticking   bool
	running   bool
	// the result shown, for the values of change shownGen
	shownGen uint64
	draft    model.Pattern
	res      *engine.Result
	cost     []string
	findings []render.Finding
	err      string // the run failed (the engine or the analysis)
	// ran is what the shown result was run for, without the words that describe
	// the pattern: typing its name does not run the design again.
	ran string
}

type previewTick struct{}

type previewDone struct {
	gen      uint64
	draft    model.Pattern
	res      *engine.Result
	cost     []string
	findings []render.Finding
	err      string
	ran      string
}

// runSignature is what a run of p depends on: p without the words that describe it.
func runSignature(p model.Pattern) string {
	p.Name, p.Holds, p.Returns, p.Order, p.Cardinality = "", "", "", "", ""
	p.Pos, p.ItemPos = model.Pos{}, model.Pos{}
	var pointed []any // what the pointers point to, not where
	if p.Forward != nil {
		pointed = append(pointed, *p.Forward)
	}
	if p.Fanout != nil {
		pointed = append(pointed, *p.Fanout)
	}
	p.Forward, p.Fanout = nil, nil
	return fmt.Sprintf("%+v %+v", p, pointed)
}

func newPatternPreview(pf *patternForm) *patternPreview { return &patternPreview{pf: pf} }

func (pp *patternPreview) msg(m tea.Msg) tea.Msg { return formAsideMsg{f: pp.pf.f, msg: m} }

func (pp *patternPreview) tick(d time.Duration) tea.Cmd {
	pp.ticking = true
	return tea.Tick(d, func(time.Time) tea.Msg { return pp.msg(previewTick{}) })
}

func (pp *patternPreview) changed(map[string]string) tea.Cmd {
	pp.gen++
	pp.changedAt = time.Now()
	if pp.ticking {
		return nil
	}
	return pp.tick(previewQuiet)
}

func (pp *patternPreview) update(msg tea.Msg) tea.Cmd {
	switch m := msg.(type) {
	case previewTick:
		pp.ticking = false
		if quiet := time.Since(pp.changedAt); quiet < previewQuiet {
			return pp.tick(previewQuiet - quiet)
		}
		return pp.run()
	case previewDone:
		pp.running = false
		if m.gen > pp.shownGen {
			pp.shownGen, pp.draft, pp.res, pp.cost, pp.findings, pp.err, pp.ran = m.gen, m.draft, m.res, m.cost, m.findings, m.err, m.ran
		}
		if m.gen != pp.gen && !pp.ticking {
			return pp.tick(0)
		}
	}
	return nil
}

// requestErrors are the errors of the fields that make the request, by field.
func (pp *patternPreview) requestErrors() map[string]string {
	_, errs := pp.pf.check(pp.pf.f.values())
	out := map[string]string{}
	for f, e := range errs {
		if !slices.Contains(describingFields, f) {
			out[f] = e
		}
	}
	return out
}

// run starts the analysis of the values as they are, unless one is under way (its
// result then starts the next) or the engine is still being built.
func (pp *patternPreview) run() tea.Cmd {
	w := pp.pf.w
	if pp.running {
		return nil
	}
	if pp.gen == pp.shownGen {
		return nil
	}
	if len(pp.requestErrors()) > 0 {
		pp.shownGen, pp.res, pp.cost, pp.findings, pp.err = pp.gen, nil, nil, nil, ""
		return nil
	}
	if w.eng == nil || w.engRev != w.doc.DataRev {
		if w.engErr != nil && w.engRev == w.doc.DataRev {
			pp.shownGen, pp.res, pp.err = pp.gen, nil, "the items do not load into the engine: "+w.engErr.Error()
			return nil
		}
		return pp.tick(previewQuiet) // the engine is being built: look again
	}
	p, _ := pp.pf.check(pp.pf.f.values())
	if sig := runSignature(p); sig == pp.ran && pp.res != nil {
		pp.shownGen, pp.draft = pp.gen, p
		return nil
	}
	d := w.doc.Snapshot()
	if strings.TrimSpace(p.Name) == "" {
		p.Name = "(not named yet)"
	}
	at := pp.pf.editing
	patterns := slices.Clone(d.Patterns)
	if at >= 0 && at < len(patterns) {
		patterns[at] = p
	} else {
		at = len(patterns)
		patterns = append(patterns, p)
	}
	d.Patterns = patterns
	pp.running = true
	gen, eng, mu, pos, st := pp.gen, w.eng, w.engMu, w.doc.ItemPos, w.st.Render
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = pp.msg(previewDone{gen: gen, draft: p, err: fmt.Sprint("the preview failed: ", r)})
			}
		}()
		mu.Lock()
		e := eng.Clone()
		mu.Unlock()
		a := analysis.OnEngine(d, e, analysis.Options{Review: true, ItemPos: pos})
		done := previewDone{gen: gen, draft: p, ran: runSignature(p)}
		if at < len(a.Results) {
			done.res = a.Results[at]
		}
		if a.Cost != nil {
			done.cost = patternCostLines(a.Cost, at, st)
		}
		for _, f := range reviewFindings(d, a.Findings) {
			if f.pattern == at {
				done.findings = append(done.findings, f.Finding)
			}
		}
		return pp.msg(done)
	}
}

// view is the preview under the form's fields: what DynamoDB would refuse in the
// request, field by field, or the result, its capacity and cost, and the review's
// findings on the pattern.
func (pp *patternPreview) view(w int) []string {
	st := pp.pf.w.st.Render
	d := pp.pf.w.doc.D
	lines := []string{st.Rule.Render(strings.Repeat("─", w))}
	if errs := pp.requestErrors(); len(errs) > 0 {
		lines = append(lines, st.Header.Render("Preview")+st.Dim.Render(" · runs once the request is one DynamoDB would take"))
		for _, name := range pp.pf.f.fieldNames() {
			if e, ok := errs[name]; ok {
				label := name
				if fl := pp.pf.f.field(name); fl != nil {
					label = fl.label
				}
				for _, l := range wrap("✗ "+label+": "+e, w) {
					lines = append(lines, st.Error.Render(l))
				}
			}
		}
		return lines
	}
	waiting := ""
	switch {
	case pp.err != "":
		waiting = st.Error.Render(render.Clip(pp.err, w))
	case pp.res == nil || pp.shownGen != pp.gen:
		if pp.res == nil {
			waiting = st.Dim.Render("computing…")
		}
	}
	draft := pp.draft
	if l := refusedLine(&draft, pp.res, w, st); l != "" && waiting == "" {
		lines = append(lines, l)
	}
	heading := len(lines)
	lines = append(lines, previewSection(d, &draft, pp.res, pp.cost, waiting, w, st)...)
	if pp.shownGen != pp.gen && pp.res != nil {
		lines[heading] += st.Dim.Render(" · updating…")
	}
	if len(pp.findings) > 0 {
		lines = append(lines, render.Findings(pp.findings, 0, -1, w, 2*len(pp.findings), st)...)
	}
	return lines
}
